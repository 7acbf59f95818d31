//! The contract between the engine and a puzzle model.

use std::fmt::Debug;

/// Index of a rule in [`Model::rule_names`]; the engine counts checks and prunes per rule.
pub type RuleId = usize;

/// What the model says about the node the engine has just entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Branch {
    /// The state is a complete, valid solution.
    Solution,
    /// The model pushed the candidate moves of the next decision (possibly none).
    Moves,
    /// The state cannot be extended; the named rule says why (for example a leaf check).
    DeadEnd(RuleId),
}

/// A puzzle seen as a tree of decisions, explored by do/undo on one mutable state.
///
/// The engine calls, at every node: [`Model::branch`] to get the candidate moves, then for
/// each candidate [`Model::apply`] (which may reject the new state, naming a rule) and,
/// whatever `apply` returned, [`Model::undo`] with the same move. A model is `Clone` so
/// that a parallel strategy can give each worker its own copy, and a subproblem is the
/// list of moves from the root, replayed on such a copy.
pub trait Model: Clone + Send {
    /// One decision: small, copyable, meaningful from the root state.
    type Move: Copy + Send + Sync + Debug + PartialEq + 'static;
    /// A complete solution, in a form that can be compared and sorted.
    type Solution: Clone + Send + Ord + Debug + 'static;

    /// Names of the rules that can prune, indexed by [`RuleId`]: at most
    /// [`MAX_RULES`](super::MAX_RULES) of them, the size of the per-rule counters (a model
    /// with more panics when it is run with rule counts; group related checks under one rule).
    fn rule_names(&self) -> &[&'static str];

    /// Depth of the deepest possible node (the number of decisions on the longest path).
    fn max_depth(&self) -> usize;

    /// Decides what happens at the current node; pushes candidate moves onto `moves`
    /// in the order they should be tried when it returns [`Branch::Moves`].
    fn branch<C: super::RuleCounter>(&mut self, moves: &mut Vec<Self::Move>, counters: &mut C) -> Branch;

    /// Applies `mv`. Returns `Err(rule)` when the resulting state breaks `rule`; the move
    /// is applied either way, and the engine always follows with [`Model::undo`].
    fn apply<C: super::RuleCounter>(&mut self, mv: Self::Move, counters: &mut C) -> Result<(), RuleId>;

    /// Reverts `mv`, which was the most recent move applied.
    fn undo(&mut self, mv: Self::Move);

    /// The solution at the current node (called only after [`Branch::Solution`]).
    fn solution(&self) -> Self::Solution;
}
