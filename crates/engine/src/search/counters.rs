//! Per-rule counters, chosen at compile time so that switching them off costs nothing.

use super::{RuleId, Stats};

/// What the engine and the models report per rule. [`NoCounters`] compiles every call
/// away; [`FullCounters`] keeps checks and prunes per rule and nodes and prunes per depth.
pub trait RuleCounter {
    /// Whether this counter records anything (lets callers skip work that feeds it).
    const ENABLED: bool;
    /// A rule was evaluated.
    fn check(&mut self, rule: RuleId);
    /// A rule rejected the node at `depth`.
    fn prune(&mut self, rule: RuleId, depth: usize);
    /// A node was entered at `depth`.
    fn node_at(&mut self, depth: usize);
    /// `count` nodes were entered at `depth` (the engine's plain path adds a node's
    /// children once, after trying them, instead of one by one).
    fn nodes_at(&mut self, depth: usize, count: u64);
    /// [`RuleCounter::prune`] at a depth the caller knows the counters hold, so that the
    /// engine's inner loop pays no bounds check on it (the default checks anyway).
    ///
    /// # Safety
    /// `depth` is at most the `max_depth` these counters were [sized](RuleCounter::sized) for.
    #[inline(always)]
    unsafe fn prune_within(&mut self, rule: RuleId, depth: usize) {
        self.prune(rule, depth);
    }
    /// Adds `prunes[rule]` prunes of each rule at `depth`: the prunes of one node's
    /// children, which the engine tallies in its own frame while it tries them (a local
    /// count, unlike one behind the counters' pointer, lets the compiler keep the model's
    /// state in registers).
    ///
    /// # Safety
    /// `depth` is at most the `max_depth` these counters were [sized](RuleCounter::sized) for.
    unsafe fn add_prunes_within(&mut self, depth: usize, prunes: &[u64; MAX_RULES]);
    /// [`RuleCounter::nodes_at`] at a depth the caller knows the counters hold.
    ///
    /// # Safety
    /// `depth` is at most the `max_depth` these counters were [sized](RuleCounter::sized) for.
    #[inline(always)]
    unsafe fn nodes_within(&mut self, depth: usize, count: u64) {
        self.nodes_at(depth, count);
    }
    /// Counters sized for `rules` rules and depths `0..=max_depth`.
    fn sized(rules: usize, max_depth: usize) -> Self;
    /// The counts so far, with `nodes` and `solutions` from the engine.
    fn stats(&self, nodes: u64, solutions: u64) -> Stats;
}

/// Counts nothing; every method is an empty inline function.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoCounters;

impl RuleCounter for NoCounters {
    const ENABLED: bool = false;
    #[inline(always)]
    fn check(&mut self, _rule: RuleId) {}
    #[inline(always)]
    fn prune(&mut self, _rule: RuleId, _depth: usize) {}
    #[inline(always)]
    fn node_at(&mut self, _depth: usize) {}
    #[inline(always)]
    fn nodes_at(&mut self, _depth: usize, _count: u64) {}
    #[inline(always)]
    unsafe fn add_prunes_within(&mut self, _depth: usize, _prunes: &[u64; MAX_RULES]) {}
    fn sized(_rules: usize, _max_depth: usize) -> Self {
        NoCounters
    }
    fn stats(&self, nodes: u64, solutions: u64) -> Stats {
        Stats { nodes, solutions, ..Stats::default() }
    }
}

/// The most rules a model may name when it runs with [`FullCounters`]. The per-rule counts
/// are fixed-size arrays of this length so that counting a rule the model names by a
/// constant compiles to one add, with no bounds check (a `Vec` costs a length load, a
/// compare and a branch on every count, 40 instructions a node on brute-force prime-grid).
pub const MAX_RULES: usize = 16;

/// Checks and prunes per rule, nodes per depth and prunes per depth and rule.
///
/// Only the first `rules` entries of each per-rule array are used; [`Stats`] gets those.
/// The prunes per rule are not kept apart: they are the sums of the per-depth rows, added
/// up once when the stats are taken instead of counted twice at every prune.
#[derive(Debug, Default, Clone)]
pub struct FullCounters {
    /// `checks[rule]`: how often the rule was evaluated.
    pub checks: [u64; MAX_RULES],
    /// `nodes_per_depth[depth]`, for depths `0..=max_depth` and one spare entry past
    /// them (always zero; see `sized`).
    pub nodes_per_depth: Vec<u64>,
    /// `prunes_per_depth[depth][rule]`: one fixed-size row per depth, so that a prune costs
    /// one bounds check (on the depth) and no multiply; with a spare row, as above.
    pub prunes_per_depth: Vec<[u64; MAX_RULES]>,
    /// How many rules the model names: the used prefix of every per-rule array.
    pub rules: usize,
}

impl RuleCounter for FullCounters {
    const ENABLED: bool = true;
    fn sized(rules: usize, max_depth: usize) -> Self {
        assert!(
            rules <= MAX_RULES,
            "the model names {rules} rules; per-rule counting holds at most MAX_RULES = {MAX_RULES}: group related checks under one rule, or run with --no-rule-counts"
        );
        FullCounters {
            checks: [0; MAX_RULES],
            // The spare row past `max_depth`: the plain loops add a node's children's counts
            // at the depth below it without testing whether it is a leaf at `max_depth`
            // (whose count of children is zero; one with children stops the search).
            nodes_per_depth: vec![0; max_depth + 2],
            prunes_per_depth: vec![[0; MAX_RULES]; max_depth + 2],
            rules,
        }
    }
    fn stats(&self, nodes: u64, solutions: u64) -> Stats {
        Stats::with_counters(nodes, solutions, self)
    }
    #[inline(always)]
    fn check(&mut self, rule: RuleId) {
        self.checks[rule] += 1;
    }
    #[inline(always)]
    fn prune(&mut self, rule: RuleId, depth: usize) {
        self.prunes_per_depth[depth][rule] += 1;
    }
    #[inline(always)]
    fn node_at(&mut self, depth: usize) {
        self.nodes_per_depth[depth] += 1;
    }
    #[inline(always)]
    fn nodes_at(&mut self, depth: usize, count: u64) {
        self.nodes_per_depth[depth] += count;
    }
    #[inline(always)]
    unsafe fn prune_within(&mut self, rule: RuleId, depth: usize) {
        debug_assert!(depth < self.prunes_per_depth.len());
        // SAFETY: the caller promises `depth <= max_depth`, and `sized` made
        // `max_depth + 1` rows. The rule is still checked (a constant after inlining).
        unsafe { self.prunes_per_depth.get_unchecked_mut(depth)[rule] += 1 };
    }
    #[inline(always)]
    unsafe fn add_prunes_within(&mut self, depth: usize, prunes: &[u64; MAX_RULES]) {
        debug_assert!(depth < self.prunes_per_depth.len());
        // SAFETY: as in `prune_within`: `max_depth + 1` rows.
        let row = unsafe { self.prunes_per_depth.get_unchecked_mut(depth) };
        // All MAX_RULES, not only the model's: with a constant length the compiler can keep
        // the caller's tally in registers and drop the entries no rule reaches.
        for (count, added) in row.iter_mut().zip(prunes) {
            *count += added;
        }
    }
    #[inline(always)]
    unsafe fn nodes_within(&mut self, depth: usize, count: u64) {
        debug_assert!(depth < self.nodes_per_depth.len());
        // SAFETY: as in `prune_within`: `max_depth + 1` entries.
        unsafe { *self.nodes_per_depth.get_unchecked_mut(depth) += count };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_carry_the_used_rules_and_sum_the_prunes_over_depths() {
        let mut counters = FullCounters::sized(3, 2);
        counters.node_at(0);
        counters.node_at(1);
        counters.node_at(2);
        counters.check(2);
        counters.check(2);
        counters.prune(2, 1);
        counters.prune(2, 2);
        counters.prune(0, 2);
        let stats = counters.stats(3, 0);
        assert_eq!(stats.rule_checks, [0, 0, 2]);
        assert_eq!(stats.rule_prunes, [1, 0, 2]);
        assert_eq!(stats.nodes_per_depth, [1, 1, 1]);
        assert_eq!(stats.prunes_per_depth, [vec![0, 0, 0], vec![0, 0, 1], vec![1, 0, 1]]);
    }

    #[test]
    fn a_model_without_rules_has_no_prune_rows() {
        let stats = FullCounters::sized(0, 3).stats(0, 0);
        assert!(stats.rule_checks.is_empty() && stats.rule_prunes.is_empty());
        assert!(stats.prunes_per_depth.is_empty());
        assert_eq!(stats.nodes_per_depth, [0, 0, 0, 0]);
    }

    #[test]
    #[should_panic(expected = "MAX_RULES")]
    fn more_rules_than_the_arrays_hold_is_refused() {
        FullCounters::sized(MAX_RULES + 1, 1);
    }
}
