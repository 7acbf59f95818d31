//! The run layer's side of one search split into parts that run anywhere (`split`,
//! `run-part`, `merge`): listing the frontier with estimates of each subtree, searching a
//! part's subproblems, and assembling the report from the parts' counts and solutions.
//!
//! Everything here crosses a process boundary as plain data. A node is named by its
//! [`ChildPath`], the position of each move among its parent's candidates from the root,
//! so no family needs to serialize its moves: a copy of the model replays a path by
//! branching and taking the i-th candidate at each level (the models are deterministic).
//! The counts of a part are [`Counts`], added with checked arithmetic; its solutions are
//! the paths of the smallest ones it found, from which the merge rebuilds the typed
//! solutions exactly as a sequential run keeps them, and its answer keys counted over
//! every solution, each with the path of a representative solution ([`AnswerShare`]),
//! from which the merge rebuilds the sequential run's answer tally.

mod answers;
pub(super) mod assemble;
mod found;
pub(super) mod part;
mod paths;
pub(super) mod split;

pub use answers::AnswerShare;
pub use assemble::AssembleInput;
pub use part::{PartError, PartOutcome, PartRequest, Publish};
pub use paths::path_text;
pub use split::{SplitListing, SplitRequest};

use crate::search::Stats;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A node of a component's tree: the index of each move among its parent's candidates,
/// from the root.
pub type ChildPath = Vec<u32>;

/// One subproblem: the node at `path` in component `component`'s tree, searched whole
/// (the node included) by whoever runs it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Subproblem {
    /// The component (grid) the path belongs to.
    pub component: usize,
    /// The path from the component's root.
    pub path: ChildPath,
}

/// The counts of one search or of a share of it, as plain numbers that add up exactly.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Nodes entered.
    pub nodes: u64,
    /// Solutions found.
    pub solutions: u64,
    /// How often each rule was evaluated.
    pub rule_checks: Vec<u64>,
    /// How often each rule pruned.
    pub rule_prunes: Vec<u64>,
    /// Nodes per depth.
    pub nodes_per_depth: Vec<u64>,
    /// `prunes_per_depth[depth][rule]`.
    pub prunes_per_depth: Vec<Vec<u64>>,
}

/// A sum of counts that does not fit in 64 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountOverflow {
    /// Which count overflowed (`nodes`, `rule_prunes`, ...).
    pub field: &'static str,
}

impl fmt::Display for CountOverflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the sum of `{}` does not fit in 64 bits", self.field)
    }
}

impl Counts {
    /// The counts of `stats`.
    pub fn of(stats: &Stats) -> Counts {
        Counts {
            nodes: stats.nodes,
            solutions: stats.solutions,
            rule_checks: stats.rule_checks.clone(),
            rule_prunes: stats.rule_prunes.clone(),
            nodes_per_depth: stats.nodes_per_depth.clone(),
            prunes_per_depth: stats.prunes_per_depth.clone(),
        }
    }

    /// Adds `other` into `self`, entry by entry (vectors grow as needed); an error, and
    /// `self` partly added, when a sum does not fit in 64 bits.
    pub fn add(&mut self, other: &Counts) -> Result<(), CountOverflow> {
        self.nodes = checked(self.nodes, other.nodes, "nodes")?;
        self.solutions = checked(self.solutions, other.solutions, "solutions")?;
        add_vector(&mut self.rule_checks, &other.rule_checks, "rule_checks")?;
        add_vector(&mut self.rule_prunes, &other.rule_prunes, "rule_prunes")?;
        add_vector(&mut self.nodes_per_depth, &other.nodes_per_depth, "nodes_per_depth")?;
        if self.prunes_per_depth.len() < other.prunes_per_depth.len() {
            self.prunes_per_depth.resize(other.prunes_per_depth.len(), Vec::new());
        }
        for (mine, theirs) in self.prunes_per_depth.iter_mut().zip(&other.prunes_per_depth) {
            add_vector(mine, theirs, "prunes_per_depth")?;
        }
        Ok(())
    }
}

fn checked(a: u64, b: u64, field: &'static str) -> Result<u64, CountOverflow> {
    a.checked_add(b).ok_or(CountOverflow { field })
}

fn add_vector(target: &mut Vec<u64>, source: &[u64], field: &'static str) -> Result<(), CountOverflow> {
    if target.len() < source.len() {
        target.resize(source.len(), 0);
    }
    for (t, s) in target.iter_mut().zip(source) {
        *t = checked(*t, *s, field)?;
    }
    Ok(())
}

/// One component's share of a split search: its counts, the paths of the smallest
/// solutions it found (in ascending order of the solutions; for an optimising model, the
/// smallest of the best-valued), and the answer keys of every solution it found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ComponentShare {
    /// The counts.
    pub counts: Counts,
    /// Paths to the kept solutions, smallest solution first.
    pub solutions: Vec<ChildPath>,
    /// Every solution's answer key, counted, with a representative of each.
    pub answers: AnswerShare,
    /// For an optimising model: the objective value of the kept solutions, when it found
    /// one.
    pub best: Option<i64>,
}

/// A path that does not lead where it should in this build's model (a plan made by
/// another build, or edited): what was replayed and where it left the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError {
    /// What went wrong, naming the component and the level.
    pub message: String,
}

impl ReplayError {
    /// This error, found in `file` (its message then starts with the file's name).
    pub fn in_file(self, file: &str) -> ReplayError {
        ReplayError { message: format!("{file}: {}", self.message) }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ReplayError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_entry_by_entry_and_refuse_an_overflow() {
        let mut total = Counts { nodes: 3, nodes_per_depth: vec![1, 2], ..Counts::default() };
        let other =
            Counts { nodes: 4, nodes_per_depth: vec![1, 1, 2], prunes_per_depth: vec![vec![1]], ..Counts::default() };
        total.add(&other).expect("small sums fit");
        assert_eq!((total.nodes, total.nodes_per_depth.clone()), (7, vec![2, 3, 2]));
        assert_eq!(total.prunes_per_depth, vec![vec![1]]);
        let huge = Counts { nodes: u64::MAX, ..Counts::default() };
        assert_eq!(total.add(&huge), Err(CountOverflow { field: "nodes" }));
    }
}
