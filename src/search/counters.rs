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
    fn sized(_rules: usize, _max_depth: usize) -> Self {
        NoCounters
    }
    fn stats(&self, nodes: u64, solutions: u64) -> Stats {
        Stats { nodes, solutions, ..Stats::default() }
    }
}

/// Checks and prunes per rule, nodes per depth and prunes per depth and rule.
#[derive(Debug, Default, Clone)]
pub struct FullCounters {
    /// `checks[rule]`: how often the rule was evaluated.
    pub checks: Vec<u64>,
    /// `prunes[rule]`: how often the rule rejected a node.
    pub prunes: Vec<u64>,
    /// `nodes_per_depth[depth]`.
    pub nodes_per_depth: Vec<u64>,
    /// `prunes_per_depth[depth * rules + rule]`.
    pub prunes_per_depth: Vec<u64>,
    rules: usize,
}

impl RuleCounter for FullCounters {
    const ENABLED: bool = true;
    fn sized(rules: usize, max_depth: usize) -> Self {
        FullCounters {
            checks: vec![0; rules],
            prunes: vec![0; rules],
            nodes_per_depth: vec![0; max_depth + 1],
            prunes_per_depth: vec![0; (max_depth + 1) * rules],
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
        self.prunes[rule] += 1;
        self.prunes_per_depth[depth * self.rules + rule] += 1;
    }
    #[inline(always)]
    fn node_at(&mut self, depth: usize) {
        self.nodes_per_depth[depth] += 1;
    }
}
