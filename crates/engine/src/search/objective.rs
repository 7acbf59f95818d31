//! Optimisation search: the objective a model declares and the incumbent the engines share.
//!
//! A model that optimises names a [`Sense`] and the rule under which its bound cuts are
//! counted ([`Objective`]). The engine turns every value into a *score*, larger is better
//! (the value itself when maximising, its negation when minimising), so that one
//! comparison serves both senses. The [`Incumbent`] holds the best score found so far;
//! every engine made from the same [`Limits`](super::Limits) shares it, so a parallel
//! search reads one relaxed atomic per bound check and writes only on an improvement.
//! This module knows no thread pool and no puzzle.

use super::RuleId;
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Whether larger or smaller objective values are better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sense {
    /// Larger is better (maximum clique, knapsack).
    Maximise,
    /// Smaller is better (the prime grid's smallest total).
    Minimise,
}

impl Sense {
    /// `max` or `min`, as reports write it.
    pub fn name(self) -> &'static str {
        match self {
            Sense::Maximise => "max",
            Sense::Minimise => "min",
        }
    }

    /// The score of `value`: larger is better whatever the sense.
    #[inline(always)]
    pub fn score(self, value: i64) -> i64 {
        match self {
            Sense::Maximise => value,
            Sense::Minimise => value.saturating_neg(),
        }
    }

    /// The value whose score is `score` (the inverse of [`Sense::score`]).
    #[inline]
    pub fn value(self, score: i64) -> i64 {
        self.score(score)
    }

    /// Whether `value` is at least as good as `target` in this sense.
    pub fn reaches(self, value: i64, target: i64) -> bool {
        self.score(value) >= self.score(target)
    }
}

/// What an optimising model declares, once per model (see
/// [`Model::objective`](super::Model::objective)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Objective {
    /// Whether larger or smaller values are better.
    pub sense: Sense,
    /// The rule, among [`Model::rule_names`](super::Model::rule_names) (named `bound` by
    /// convention), under which the engine counts its bound checks and the children it cuts.
    pub bound_rule: RuleId,
}

/// The score no solution has: an incumbent that holds it has seen none.
pub const NO_SCORE: i64 = i64::MIN;

/// The best score found so far, shared by every engine of one search (and, through a
/// file, by the parts of a split one). Read with one relaxed load per bound check;
/// written with a `fetch_max` only when a solution improves it.
#[derive(Debug)]
pub struct Incumbent {
    /// On a cache line of its own: every worker reads it at every bound check, and a hot
    /// value of some worker's placed beside it by the allocator (a model's state, written
    /// at every node) would make each of those reads a miss on the other cores (a knapsack
    /// at 2 threads ran 3.5 times slower per node).
    score: CachePadded<AtomicI64>,
    /// Nanoseconds from `clock` to the last improvement (`u64::MAX`: none yet).
    improved_at_ns: AtomicU64,
    improvements: AtomicU64,
    clock: Instant,
    /// No solution scoring at or below it counts ([`NO_SCORE`]: none such): the threshold
    /// of a decision search, or a value a user knows beforehand. Unlike the score, which a
    /// found solution may equal (and, listing every optimum, ties are kept), the floor is
    /// no solution's: a leaf that does not beat it is not one of this search's solutions.
    floor: i64,
}

impl Incumbent {
    /// An incumbent that has seen no solution; its times count from now.
    pub fn new() -> Arc<Incumbent> {
        Incumbent::seeded(NO_SCORE)
    }

    /// An incumbent that starts at `score` (a value known to be reachable, or the target
    /// of a decision search less one): only a better solution is then recorded.
    pub fn seeded(score: i64) -> Arc<Incumbent> {
        Incumbent::seeded_above(score, NO_SCORE)
    }

    /// An incumbent that starts at `score` and counts only solutions that beat `floor`
    /// (at most `score`): a decision search's threshold, or a user's known value, which no
    /// solution of this search has reached (see [`Incumbent::floor`]).
    pub fn seeded_above(score: i64, floor: i64) -> Arc<Incumbent> {
        Arc::new(Incumbent {
            score: CachePadded::new(AtomicI64::new(score.max(floor))),
            improved_at_ns: AtomicU64::new(u64::MAX),
            improvements: AtomicU64::new(0),
            clock: Instant::now(),
            floor,
        })
    }

    /// The score a solution must beat to count as one ([`NO_SCORE`] when any does): the
    /// engine neither counts nor keeps a leaf at or below it.
    pub fn floor(&self) -> i64 {
        self.floor
    }

    /// The best score so far ([`NO_SCORE`] when none).
    #[inline(always)]
    pub fn score(&self) -> i64 {
        self.score.load(Ordering::Relaxed)
    }

    /// Offers `score`; true when it improved the incumbent (and the time is recorded).
    pub fn offer(&self, score: i64) -> bool {
        if score <= self.score() {
            return false;
        }
        let before = self.score.fetch_max(score, Ordering::Relaxed);
        if before >= score {
            return false;
        }
        self.improvements.fetch_add(1, Ordering::Relaxed);
        let elapsed = u64::try_from(self.clock.elapsed().as_nanos()).unwrap_or(u64::MAX - 1);
        self.improved_at_ns.store(elapsed, Ordering::Relaxed);
        true
    }

    /// A new incumbent at this one's score and clock, not shared with it: a search whose
    /// solutions may be thrown away (a trial listing) works on a fork, and only a kept
    /// one is [absorbed](Incumbent::absorb) back.
    pub fn fork(&self) -> Arc<Incumbent> {
        Arc::new(Incumbent {
            score: CachePadded::new(AtomicI64::new(self.score())),
            improved_at_ns: AtomicU64::new(self.improved_at_ns.load(Ordering::Relaxed)),
            improvements: AtomicU64::new(0),
            clock: self.clock,
            floor: self.floor,
        })
    }

    /// A new incumbent at `score` on this one's clock, not shared with it: a task that
    /// must start from a fixed value whatever this one holds now (`replicable`).
    pub fn fork_at(&self, score: i64) -> Arc<Incumbent> {
        let fork = self.fork();
        fork.score.store(score, Ordering::Relaxed);
        fork
    }

    /// Raises this incumbent to `other`'s score when that is better, keeping `other`'s
    /// time of improvement.
    pub fn absorb(&self, other: &Incumbent) {
        let score = other.score();
        if score > self.score.fetch_max(score, Ordering::Relaxed) {
            self.improvements.fetch_add(other.improvements.load(Ordering::Relaxed), Ordering::Relaxed);
            self.improved_at_ns.store(other.improved_at_ns.load(Ordering::Relaxed), Ordering::Relaxed);
        }
    }

    /// Nanoseconds from the incumbent's creation to its last improvement, if any.
    pub fn improved_at_ns(&self) -> Option<u64> {
        Some(self.improved_at_ns.load(Ordering::Relaxed)).filter(|&ns| ns != u64::MAX)
    }

    /// When the last improvement came, if any: a caller measures it from its own start
    /// (a search starts after its incumbent is made, so `improved_at_ns` is longer).
    pub fn improved_at(&self) -> Option<Instant> {
        self.improved_at_ns().map(|ns| self.clock + std::time::Duration::from_nanos(ns))
    }

    /// How many times a solution improved it.
    pub fn improvements(&self) -> u64 {
        self.improvements.load(Ordering::Relaxed)
    }
}

/// The best-valued of `solutions` under `model`'s objective, in the model's solution
/// order, at most `keep` of them, with their value (`None` when there is no solution, or
/// the model has no objective: then the smallest `keep` of them come back). Engines of one
/// search each keep their own best; this picks the search's.
pub fn keep_best<M: super::Model>(
    model: &M,
    solutions: Vec<M::Solution>,
    keep: usize,
) -> (Option<i64>, Vec<M::Solution>) {
    let Some(objective) = model.objective() else {
        // No objective for this instance: the smallest `keep`, as every search keeps them.
        let mut solutions = solutions;
        solutions.sort();
        solutions.truncate(keep);
        return (None, solutions);
    };
    let scored: Vec<(i64, M::Solution)> = solutions
        .into_iter()
        .map(|solution| (objective.sense.score(model.solution_value(&solution)), solution))
        .collect();
    let best_score = scored.iter().map(|(score, _)| *score).max();
    let mut best: Vec<M::Solution> =
        scored.into_iter().filter(|(score, _)| Some(*score) == best_score).map(|(_, solution)| solution).collect();
    best.sort();
    best.truncate(keep);
    (best_score.map(|score| objective.sense.value(score)), best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minimised_value_scores_higher_when_smaller() {
        assert!(Sense::Minimise.score(541) > Sense::Minimise.score(600));
        assert_eq!(Sense::Minimise.value(Sense::Minimise.score(541)), 541);
        assert!(Sense::Minimise.reaches(541, 541) && !Sense::Minimise.reaches(542, 541));
        assert!(Sense::Maximise.reaches(17, 12) && !Sense::Maximise.reaches(11, 12));
    }

    #[test]
    fn only_an_improvement_is_recorded_and_a_fork_is_apart_until_absorbed() {
        let shared = Incumbent::new();
        assert!(shared.offer(5));
        assert!(!shared.offer(5) && !shared.offer(3));
        assert_eq!((shared.score(), shared.improvements()), (5, 1));
        let fork = shared.fork();
        assert!(fork.offer(9));
        assert_eq!(shared.score(), 5);
        shared.absorb(&fork);
        assert_eq!(shared.score(), 9);
        assert!(shared.improved_at_ns().is_some());
    }
}
