//! The numbers one search (or one worker, or one whole run) produces.

use super::FullCounters;

/// Counts of one search; plain numbers, added together when workers finish.
///
/// `nodes` counts every call of the recursive step, the root included, the way the seed
/// posts count: a child whose move a rule rejects is a node too.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes entered, the root included.
    pub nodes: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Whether the per-rule and per-depth counts below were recorded.
    pub counted: bool,
    /// `rule_checks[rule]`: how often the rule was evaluated.
    pub rule_checks: Vec<u64>,
    /// `rule_prunes[rule]`: how often the rule rejected a node.
    pub rule_prunes: Vec<u64>,
    /// `nodes_per_depth[depth]`.
    pub nodes_per_depth: Vec<u64>,
    /// `prunes_per_depth[depth][rule]`.
    pub prunes_per_depth: Vec<Vec<u64>>,
}

impl Stats {
    /// Stats with the detailed counts taken from `counters`.
    pub fn with_counters(nodes: u64, solutions: u64, counters: &FullCounters) -> Stats {
        let rules = counters.rules;
        // Depths `0..=max_depth`: the counters' spare row past them is left out.
        let depths = counters.nodes_per_depth.len().saturating_sub(1);
        // A model without rules has no per-depth prune rows at all.
        let depth_rows = if rules == 0 { 0 } else { depths };
        let rule_prunes = (0..rules).map(|rule| counters.prunes_per_depth.iter().map(|row| row[rule]).sum()).collect();
        Stats {
            nodes,
            solutions,
            counted: true,
            rule_checks: counters.checks[..rules].to_vec(),
            rule_prunes,
            nodes_per_depth: counters.nodes_per_depth[..depths].to_vec(),
            prunes_per_depth: counters.prunes_per_depth[..depth_rows].iter().map(|row| row[..rules].to_vec()).collect(),
        }
    }

    /// Fills in the checks of a model whose `apply` tests its rules in index order
    /// ([`Model::RULES_IN_ORDER`](super::Model::RULES_IN_ORDER)): every applied move tests
    /// rule 0, and each later rule is tested by the moves that passed the ones before it.
    /// The moves applied are the nodes below the root less `unapplied`, the nodes counted
    /// but never applied (entered when a deadline stopped the search). Linear in the counts,
    /// so the derived checks of workers add up to those of the whole search.
    pub fn derive_checks_in_rule_order(&mut self, unapplied: u64) {
        let applied: u64 = self.nodes_per_depth.iter().skip(1).sum();
        let mut tested = applied - unapplied;
        for (checks, prunes) in self.rule_checks.iter_mut().zip(&self.rule_prunes) {
            *checks = tested;
            tested -= prunes;
        }
    }

    /// Adds `other` into `self`, element by element (vectors grow as needed).
    pub fn merge(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.solutions += other.solutions;
        self.counted |= other.counted;
        add_into(&mut self.rule_checks, &other.rule_checks);
        add_into(&mut self.rule_prunes, &other.rule_prunes);
        add_into(&mut self.nodes_per_depth, &other.nodes_per_depth);
        if self.prunes_per_depth.len() < other.prunes_per_depth.len() {
            self.prunes_per_depth.resize(other.prunes_per_depth.len(), Vec::new());
        }
        for (mine, theirs) in self.prunes_per_depth.iter_mut().zip(&other.prunes_per_depth) {
            add_into(mine, theirs);
        }
    }
}

fn add_into(target: &mut Vec<u64>, source: &[u64]) {
    if target.len() < source.len() {
        target.resize(source.len(), 0);
    }
    for (t, s) in target.iter_mut().zip(source) {
        *t += s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_adds_elementwise_and_grows() {
        let mut a = Stats { nodes: 3, solutions: 1, rule_prunes: vec![1, 2], ..Stats::default() };
        let b = Stats { nodes: 4, solutions: 0, rule_prunes: vec![1, 1, 5], ..Stats::default() };
        a.merge(&b);
        assert_eq!(a.nodes, 7);
        assert_eq!(a.rule_prunes, vec![2, 3, 5]);
    }
}
