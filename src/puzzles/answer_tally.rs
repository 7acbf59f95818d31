//! What a family's answer keeps of every solution of one component, in bounded memory: a
//! count of the solutions per answer key (at most [`MAX_LISTED_KEYS`] distinct keys, the
//! smallest) and the smallest solution.
//!
//! A family whose answer reads the keys of a component only while it has few solutions
//! (24/7 with several grids: no answer past 1,000 combinations) sets a listing limit:
//! past it the tally counts solutions without listing keys, and asks for none.
//!
//! A run feeds it every solution as it is found, on whichever worker found it, and merges
//! the workers' tallies at the end; the kept solutions are only a sample, so an answer
//! built from them would be cut short whenever there are more solutions than are kept.
//! Keeping the smallest keys (not the first seen) makes a tally the same whatever the
//! visiting order, strategy and thread count, and the merge exact: a key among the
//! smallest of the union is among the smallest of each part, with all of its solutions.

use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The most distinct answer keys a tally lists; the solutions of larger keys are counted
/// in [`AnswerTally::unlisted`] only. This bounds its memory (a 24/7 grid as a key is under
/// 150 bytes, so at most a few MB per component).
pub const MAX_LISTED_KEYS: usize = 10_000;

/// The answer keys of one component's solutions, counted, and its smallest solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerTally<K, S> {
    solutions: u64,
    counts: BTreeMap<K, u64>,
    unlisted: u64,
    smallest: Option<S>,
    /// The most solutions whose keys are listed: past it, none is (see [`AnswerTally::listing_at_most`]).
    listing_limit: u64,
}

impl<K: Ord, S: Ord + Clone> Default for AnswerTally<K, S> {
    fn default() -> Self {
        AnswerTally { solutions: 0, counts: BTreeMap::new(), unlisted: 0, smallest: None, listing_limit: u64::MAX }
    }
}

impl<K: Ord, S: Ord + Clone> AnswerTally<K, S> {
    /// An empty tally.
    pub fn new() -> Self {
        Self::default()
    }

    /// This tally, listing keys only while it has counted at most `solutions` solutions: once
    /// it has counted more, every solution (those listed before included) is unlisted. The
    /// same tally whatever the order and split, since only the total decides.
    pub fn listing_at_most(mut self, solutions: u64) -> Self {
        self.listing_limit = solutions;
        self.unlist_past_limit();
        self
    }

    /// Past the listing limit, drops the list (every solution is then unlisted) and says so.
    fn unlist_past_limit(&mut self) -> bool {
        if self.solutions <= self.listing_limit {
            return false;
        }
        if !self.counts.is_empty() {
            self.counts = BTreeMap::new();
        }
        self.unlisted = self.solutions;
        true
    }

    /// A tally of `solutions`, each with its key from `key_of`.
    pub fn of<'a>(solutions: impl IntoIterator<Item = &'a S>, mut key_of: impl FnMut(&S) -> K) -> Self
    where
        S: 'a,
    {
        let mut tally = Self::new();
        for solution in solutions {
            tally.add(key_of(solution), solution);
        }
        tally
    }

    /// Counts one solution with answer key `key`.
    pub fn add(&mut self, key: K, solution: &S) {
        self.add_with(solution, || key);
    }

    /// Counts one solution, its key from `key_of`, called only when the key is listed.
    pub fn add_with(&mut self, solution: &S, key_of: impl FnOnce() -> K) {
        self.solutions += 1;
        match &mut self.smallest {
            // `clone_from` reuses the kept solution's memory: a run whose solutions come
            // in descending order (every new one the smallest) allocates nothing for them.
            Some(smallest) if solution < smallest => smallest.clone_from(solution),
            Some(_) => {}
            None => self.smallest = Some(solution.clone()),
        }
        if !self.unlist_past_limit() {
            self.count(key_of(), 1);
        }
    }

    /// Adds `count` solutions of `key`, keeping only the smallest [`MAX_LISTED_KEYS`] keys.
    fn count(&mut self, key: K, count: u64) {
        if let Some(listed) = self.counts.get_mut(&key) {
            *listed += count;
            return;
        }
        if self.counts.len() >= MAX_LISTED_KEYS {
            // Full: `key` is listed only if it is smaller than the largest listed key,
            // which then leaves the list (its solutions stay counted, as unlisted).
            match self.counts.last_key_value() {
                Some((largest, _)) if key < *largest => {
                    if let Some((_, dropped)) = self.counts.pop_last() {
                        self.unlisted += dropped;
                    }
                }
                _ => {
                    self.unlisted += count;
                    return;
                }
            }
        }
        self.counts.insert(key, count);
    }

    /// A tally read back from what another process counted: `listed` keys (distinct,
    /// each with its solutions), `unlisted` solutions of keys it did not list, and its
    /// smallest solution. Only the smallest [`MAX_LISTED_KEYS`] keys stay listed, so
    /// absorbing such tallies gives what one tally of every solution gives.
    pub fn from_listed(listed: impl IntoIterator<Item = (K, u64)>, unlisted: u64, smallest: Option<S>) -> Self {
        let mut tally = Self { unlisted, smallest, ..Self::new() };
        tally.solutions = unlisted;
        for (key, count) in listed {
            tally.solutions += count;
            tally.count(key, count);
        }
        tally
    }

    /// Adds everything `other` counted (another worker's tally of the same component).
    pub fn absorb(&mut self, other: Self) {
        self.add_totals(other.solutions, other.unlisted, other.smallest);
        if self.unlist_past_limit() {
            return;
        }
        // The smaller list goes into the larger, a lookup per key (the sum and the cap do
        // not depend on which is which): the first worker's tally is moved, not rebuilt.
        let ours = std::mem::take(&mut self.counts);
        let (larger, smaller) =
            if ours.len() >= other.counts.len() { (ours, other.counts) } else { (other.counts, ours) };
        self.counts = larger;
        for (key, count) in smaller {
            self.count(key, count);
        }
    }

    /// Adds everything each of `others` counted: the same tally as absorbing them one by
    /// one. Their lists are sorted, so one stable sort of all their entries (which merges
    /// sorted runs) and one pass over it replace a lookup per key in a growing map (the
    /// 24/7 workload's tallies are keyed by whole grids: at 16 threads, the end of its
    /// components took 5.7 M instructions this way, 12.5 M one by one).
    pub fn absorb_all(&mut self, others: impl IntoIterator<Item = Self>) {
        let mut lists = Vec::new();
        for other in others {
            self.add_totals(other.solutions, other.unlisted, other.smallest);
            if !other.counts.is_empty() {
                lists.push(other.counts);
            }
        }
        if self.unlist_past_limit() {
            // Nothing to sort: the lists are dropped unread.
            return;
        }
        if !self.counts.is_empty() {
            lists.push(std::mem::take(&mut self.counts));
        }
        if lists.len() <= 1 {
            self.counts = lists.pop().unwrap_or_default();
            return;
        }
        let mut entries: Vec<(K, u64)> = lists.into_iter().flatten().collect();
        entries.sort_by(|(left, _), (right, _)| left.cmp(right));
        let mut merged: Vec<(K, u64)> = Vec::with_capacity(entries.len().min(MAX_LISTED_KEYS));
        for (key, count) in entries {
            if let Some((_, total)) = merged.last_mut().filter(|(last, _)| *last == key) {
                *total += count;
            } else if merged.len() < MAX_LISTED_KEYS {
                merged.push((key, count));
            } else {
                self.unlisted += count;
            }
        }
        self.counts = merged.into_iter().collect();
    }

    /// Adds another tally's solution counts and keeps the smaller of the smallest solutions.
    fn add_totals(&mut self, solutions: u64, unlisted: u64, smallest: Option<S>) {
        self.solutions += solutions;
        self.unlisted += unlisted;
        if let Some(theirs) = smallest {
            if self.smallest.as_ref().is_none_or(|ours| theirs < *ours) {
                self.smallest = Some(theirs);
            }
        }
    }

    /// Every solution counted.
    pub fn solutions(&self) -> u64 {
        self.solutions
    }

    /// The listed keys in ascending order, each with its number of solutions.
    pub fn counts(&self) -> impl Iterator<Item = (&K, u64)> + '_ {
        self.counts.iter().map(|(key, &count)| (key, count))
    }

    /// Distinct keys listed.
    pub fn distinct(&self) -> usize {
        self.counts.len()
    }

    /// Solutions whose key is not listed: there were more than [`MAX_LISTED_KEYS`] distinct
    /// keys, and theirs were not among the smallest; or more solutions than the listing
    /// limit, and then every one.
    pub fn unlisted(&self) -> u64 {
        self.unlisted
    }

    /// The smallest solution in the model's solution order.
    pub fn smallest(&self) -> Option<&S> {
        self.smallest.as_ref()
    }
}

/// The answer of a component whose solutions each have one answer value (`value_of` its
/// key): `null` without solutions, the value itself for a single solution, otherwise a
/// histogram `{"solutions": N, "distinct": D, "counts": [{"answer": A, "solutions": C},
/// ...]}` in ascending key order, with `"unlisted_solutions"` when some keys did not fit.
pub fn histogram<K: Ord, S: Ord + Clone>(tally: &AnswerTally<K, S>, value_of: impl Fn(&K) -> Value) -> Value {
    histogram_of(tally.solutions(), tally.counts().map(|(key, count)| (value_of(key), count)), tally.unlisted())
}

/// A histogram answer from `(answer, solutions)` pairs (see [`histogram`]); `solutions` is
/// the total, `unlisted` the solutions not among the pairs.
pub fn histogram_of(solutions: u64, counts: impl Iterator<Item = (Value, u64)>, unlisted: u64) -> Value {
    let counts: Vec<(Value, u64)> = counts.collect();
    match (solutions, counts.as_slice()) {
        (0, _) => Value::Null,
        (1, [(value, 1)]) => value.clone(),
        _ => {
            let listed: Vec<Value> =
                counts.iter().map(|(answer, count)| json!({"answer": answer, "solutions": count})).collect();
            let mut object = json!({"solutions": solutions, "distinct": listed.len(), "counts": listed});
            if unlisted > 0 {
                object["unlisted_solutions"] = json!(unlisted);
            }
            object
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_counts_every_solution_and_keeps_the_smallest() {
        let solutions = [5u32, 3, 8, 3, 11];
        let tally = AnswerTally::of(&solutions, |solution| solution % 2);
        assert_eq!(tally.solutions(), 5);
        assert_eq!(tally.counts().collect::<Vec<_>>(), vec![(&0, 1), (&1, 4)]);
        assert_eq!(tally.smallest(), Some(&3));
        assert_eq!(histogram(&tally, |key| json!(key))["counts"][1], json!({"answer": 1, "solutions": 4}));
        assert_eq!(histogram(&AnswerTally::of(&[7u32], |_| 42u32), |key| json!(key)), json!(42));
        assert_eq!(histogram(&AnswerTally::<u32, u32>::new(), |key| json!(key)), Value::Null);
    }

    #[test]
    fn past_the_cap_the_smallest_keys_stay_listed_whatever_the_order_or_split() {
        let keys: Vec<u32> = (0..(MAX_LISTED_KEYS as u32 + 50)).map(|key| key * 7919 % 10_061).collect();
        let forward = AnswerTally::of(&keys, |&key| key);
        let backward = AnswerTally::of(keys.iter().rev(), |&key| key);
        let (left, right) = keys.split_at(keys.len() / 3);
        let mut merged = AnswerTally::of(right, |&key| key);
        merged.absorb(AnswerTally::of(left, |&key| key));
        for tally in [&forward, &backward, &merged] {
            assert_eq!(tally.solutions(), keys.len() as u64);
            assert_eq!(tally.distinct(), MAX_LISTED_KEYS);
            assert_eq!(tally.unlisted(), 50);
            assert_eq!(tally.counts().next(), Some((&0, 1)));
        }
        assert_eq!(forward, backward);
        assert_eq!(forward, merged);
    }

    #[test]
    fn keys_found_by_several_workers_add_up_in_any_merge_order_one_by_one_or_all_at_once() {
        // 30,000 solutions over 12,001 keys (past the cap), dealt to 16 workers in turn:
        // solutions s and s + 12,001 share a key and go to different workers.
        let keys: Vec<u32> = (0..30_000u32).map(|solution| solution * 7919 % 12_001).collect();
        let whole = AnswerTally::of(&keys, |&key| key);
        let parts: Vec<AnswerTally<u32, u32>> =
            (0..16).map(|worker| AnswerTally::of(keys.iter().skip(worker).step_by(16), |&key| key)).collect();
        let mut forward = AnswerTally::new();
        for part in parts.iter().cloned() {
            forward.absorb(part);
        }
        let mut backward = AnswerTally::new();
        for part in parts.iter().rev().cloned() {
            backward.absorb(part);
        }
        // A small tally absorbing a large one: the lists trade places before the merge.
        let mut small_first = parts[0].clone();
        small_first.absorb(AnswerTally::of(
            keys.iter().enumerate().filter(|(i, _)| i % 16 != 0).map(|(_, key)| key),
            |&key| key,
        ));
        // All at once: into an empty tally, into one holding a part already, and one list.
        let mut at_once = AnswerTally::new();
        at_once.absorb_all(parts.iter().cloned());
        let mut onto_a_part = parts[3].clone();
        onto_a_part.absorb_all(parts.iter().enumerate().filter(|(i, _)| *i != 3).map(|(_, part)| part.clone()));
        let mut one_list = AnswerTally::new();
        one_list.absorb_all([AnswerTally::new(), whole.clone(), AnswerTally::new()]);
        assert_eq!(forward, whole);
        assert_eq!(backward, whole);
        assert_eq!(small_first, whole);
        assert_eq!(at_once, whole);
        assert_eq!(onto_a_part, whole);
        assert_eq!(one_list, whole);
        assert_eq!(whole.distinct(), MAX_LISTED_KEYS);
        assert!(whole.counts().any(|(_, count)| count > 1) && whole.unlisted() > 0);
    }

    #[test]
    fn past_the_listing_limit_no_key_is_listed_or_asked_for_whatever_the_split() {
        let keys: Vec<u32> = (0..400u32).map(|solution| solution * 31 % 97).collect();
        let unlimited = AnswerTally::of(&keys, |&key| key);
        // At the limit every key stays listed: the same counts as without one.
        let at_limit = AnswerTally::of(&keys, |&key| key).listing_at_most(400);
        assert_eq!(at_limit.counts().collect::<Vec<_>>(), unlimited.counts().collect::<Vec<_>>());
        assert_eq!(at_limit.unlisted(), 0);
        let mut whole = AnswerTally::new().listing_at_most(399);
        let mut keys_asked = 0;
        for key in &keys {
            whole.add_with(key, || {
                keys_asked += 1;
                *key
            });
        }
        assert_eq!(keys_asked, 399, "the key of a solution past the limit is never computed");
        assert_eq!((whole.solutions(), whole.unlisted(), whole.distinct()), (400, 400, 0));
        assert_eq!(whole.smallest(), Some(&0));
        // Sixteen workers, each under the limit, merged one by one and all at once; and a
        // tally read back and limited afterwards: the list is dropped in every case.
        let parts: Vec<AnswerTally<u32, u32>> = (0..16)
            .map(|worker| {
                let mut part = AnswerTally::new().listing_at_most(399);
                keys.iter().skip(worker).step_by(16).for_each(|key| part.add(*key, key));
                part
            })
            .collect();
        assert!(parts.iter().all(|part| part.distinct() > 0));
        let mut one_by_one = AnswerTally::new().listing_at_most(399);
        parts.iter().cloned().for_each(|part| one_by_one.absorb(part));
        let mut at_once = AnswerTally::new().listing_at_most(399);
        at_once.absorb_all(parts.iter().cloned());
        let read_back = AnswerTally::from_listed(unlimited.counts().map(|(&key, count)| (key, count)), 0, Some(0))
            .listing_at_most(399);
        assert_eq!(one_by_one, whole);
        assert_eq!(at_once, whole);
        assert_eq!(read_back, whole);
    }

    #[test]
    fn tallies_read_back_from_their_listed_keys_absorb_into_the_tally_of_every_solution() {
        let keys: Vec<u32> = (0..(MAX_LISTED_KEYS as u32 * 2)).map(|key| key * 7919 % 20_011).collect();
        let whole = AnswerTally::of(&keys, |&key| key);
        let mut rebuilt = AnswerTally::from_listed(std::iter::empty(), 0, None);
        for chunk in keys.chunks(3_001) {
            let part = AnswerTally::of(chunk, |&key| key);
            let listed = part.counts().map(|(&key, count)| (key, count));
            rebuilt.absorb(AnswerTally::from_listed(listed, part.unlisted(), part.smallest().copied()));
        }
        assert_eq!(rebuilt, whole);
        assert!(whole.unlisted() > 0, "the cap is reached, so the merge of capped lists is exercised");
    }
}
