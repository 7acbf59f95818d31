//! A share's answer tally in a form that crosses a process boundary: per answer key, how
//! many solutions have it and the path of the smallest of them (its representative). The
//! merge replays each representative to learn its key, so no family has to serialize its
//! answer keys or solutions, and adds the counts into the family's own
//! [`AnswerTally`](crate::puzzles::answer_tally::AnswerTally) exactly.
//!
//! The keys listed are the smallest [`MAX_LISTED_KEYS`] of the share, as the answer tally
//! keeps them; the solutions of larger keys are counted as unlisted. Since a key among the
//! smallest of the union is among the smallest of every share that has it, with all of its
//! solutions, the merge of the shares' lists is the sequential run's tally.

use super::found::Found;
use super::ChildPath;
use crate::puzzles::answer_tally::MAX_LISTED_KEYS;
use crate::search::Model;
use std::collections::BTreeMap;

/// One component's answer keys as a share sends them: for each key (ascending), the path
/// of its smallest solution and its number of solutions; and the solutions of keys not
/// listed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AnswerShare {
    /// `(path of the key's smallest solution, solutions with that key)`, ascending by key.
    pub keys: Vec<(ChildPath, u64)>,
    /// Solutions whose key is not listed (more than [`MAX_LISTED_KEYS`] distinct keys).
    pub unlisted: u64,
}

/// Answer keys counted as solutions are found, each with its smallest solution and its
/// path.
pub(super) struct KeyedTally<K, M: Model> {
    listed: BTreeMap<K, (u64, Found<M>)>,
    unlisted: u64,
}

impl<K: Ord, M: Model> KeyedTally<K, M> {
    pub(super) fn new() -> Self {
        KeyedTally { listed: BTreeMap::new(), unlisted: 0 }
    }

    /// Counts one solution with `key`, at `path` (cloned only when the solution becomes
    /// its key's representative).
    pub(super) fn add(&mut self, key: K, solution: M::Solution, path: &[u32]) {
        if let Some((count, representative)) = self.listed.get_mut(&key) {
            *count += 1;
            if solution < representative.solution {
                *representative = Found { solution, path: path.to_vec() };
            }
            return;
        }
        self.insert(key, 1, || Found { solution, path: path.to_vec() });
    }

    /// Lists a new `key` with `count` solutions, keeping only the smallest
    /// [`MAX_LISTED_KEYS`] keys (the rule of the answer tally).
    fn insert(&mut self, key: K, count: u64, representative: impl FnOnce() -> Found<M>) {
        if self.listed.len() >= MAX_LISTED_KEYS {
            match self.listed.last_key_value() {
                Some((largest, _)) if key < *largest => {
                    if let Some((_, (dropped, _))) = self.listed.pop_last() {
                        self.unlisted += dropped;
                    }
                }
                _ => {
                    self.unlisted += count;
                    return;
                }
            }
        }
        self.listed.insert(key, (count, representative()));
    }

    /// Adds what another thread counted for the same component.
    pub(super) fn absorb(&mut self, other: Self) {
        self.unlisted += other.unlisted;
        for (key, (count, found)) in other.listed {
            if let Some((mine, representative)) = self.listed.get_mut(&key) {
                *mine += count;
                if found < *representative {
                    *representative = found;
                }
                continue;
            }
            self.insert(key, count, || found);
        }
    }

    /// The listed keys' representatives' paths and counts, ascending by key, and the
    /// unlisted solutions.
    pub(super) fn into_parts(self) -> (Vec<(ChildPath, u64)>, u64) {
        (self.listed.into_values().map(|(count, found)| (found.path, count)).collect(), self.unlisted)
    }
}
