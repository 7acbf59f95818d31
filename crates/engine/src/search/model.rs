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

/// A node's untried moves as one word that the model reads and advances in
/// [`Model::next_move`]: a counter, a bitmask, or an index into the model's own per-depth
/// tables. The engine keeps one per open node, in its own stack frame.
pub type MoveCursor = u64;

/// What a model that yields its moves one by one ([`Model::LAZY_MOVES`]) says about the
/// node the engine has just entered: [`Branch`] with the moves as a cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opened {
    /// The state is a complete, valid solution.
    Solution,
    /// The candidate moves of the next decision, to be drawn with [`Model::next_move`]
    /// (possibly none).
    Moves(MoveCursor),
    /// The state cannot be extended; the named rule says why.
    DeadEnd(RuleId),
}

/// A puzzle seen as a tree of decisions, explored by do/undo on one mutable state.
///
/// The engine calls, at every node: [`Model::branch`] to get the candidate moves (or, for a
/// model that declares [`Model::LAZY_MOVES`], [`Model::open`] and then [`Model::next_move`]
/// before each child), then for each candidate in the order given: [`Model::apply`], which
/// accepts the move or rejects it naming a rule, and [`Model::undo`] with the same move
/// once the child's subtree is searched, or at once after a rejection, unless the model
/// declares [`Model::REJECTS_BEFORE_CHANGING`]: then a rejected move has left the state as
/// it was and is not undone. Every candidate tried is a node, rejected ones included; the
/// root is a node too. A model is `Clone` so that a parallel strategy can give each worker
/// its own copy, and a subproblem is the list of moves from the root, replayed on such a
/// copy.
///
/// The engine is generic over the model and calls these methods in its innermost loop:
/// keep `apply`, `undo` and `branch` (or `open` and `next_move`) small enough to inline
/// (or mark them `#[inline]`), allocate nothing in them, and where you can, test before
/// changing anything in `apply` and say so with [`Model::REJECTS_BEFORE_CHANGING`], so
/// that a rejection costs only the test.
pub trait Model: Clone + Send {
    /// One decision: small, copyable, meaningful from the root state.
    type Move: Copy + Send + Sync + Debug + PartialEq + 'static;
    /// A complete solution, in a form that can be compared and sorted.
    type Solution: Clone + Send + Ord + Debug + 'static;

    /// Whether [`Model::apply`] leaves the state exactly as it was when it rejects a move
    /// (it tests before it changes anything): the engine then skips [`Model::undo`] after a
    /// rejection. `false` (the default): `apply` may change the state before it finds the
    /// broken rule, and the engine undoes every move it applied, accepted or not; an
    /// observer then sees the rejected state, as `watch` draws it.
    const REJECTS_BEFORE_CHANGING: bool = false;

    /// Whether the model yields a node's moves one by one from a [`MoveCursor`]
    /// ([`Model::open`] and [`Model::next_move`]) instead of pushing them all in
    /// [`Model::branch`]. The engine's plain path (no steering, no observer beyond the
    /// solutions) then keeps no candidate stack: a cursor per open node in its own frame,
    /// and each move made just before it is tried. Where a scheduler needs the untried moves
    /// as a list, the default [`Model::branch`] drains the cursor into it, so both paths
    /// try the same moves in the same order. `false` (the default): the model implements
    /// [`Model::branch`] and never sees a cursor.
    const LAZY_MOVES: bool = false;

    /// Whether [`Model::apply`] tests the rules in their index order, every rule on every
    /// move until one fails: rule 0 always, rule 1 when rule 0 passed, and so on, the first
    /// rule that fails named in the `Err`. Such a model calls no
    /// [`RuleCounter::check`](super::RuleCounter::check): the engine derives the checks of
    /// each rule from the moves applied and the prunes of the rules before it, as a
    /// hand-written search would, so that counting a check costs nothing per node. Its
    /// [`Model::open`] or [`Model::branch`] names no rule in a dead end (the engine stops
    /// with a panic naming this constant if it does, since that prune would come from no
    /// move). `false` (the default): the model counts each check it makes.
    const RULES_IN_ORDER: bool = false;

    /// Names of the rules that can prune, indexed by [`RuleId`]: at most
    /// [`MAX_RULES`](super::MAX_RULES) of them, the size of the per-rule counters (a model
    /// with more panics when the engine is run with rule counts, and the workbench refuses it
    /// before any search; group related checks under one rule).
    fn rule_names(&self) -> &[&'static str];

    /// Depth of the deepest possible node (the number of decisions on the longest path).
    fn max_depth(&self) -> usize;

    /// Decides what happens at the current node; pushes candidate moves onto `moves`
    /// in the order they should be tried when it returns [`Branch::Moves`]. The default
    /// drains [`Model::open`]'s cursor through [`Model::next_move`]: a model that declares
    /// [`Model::LAZY_MOVES`] implements those two instead.
    #[inline]
    fn branch<C: super::RuleCounter>(&mut self, moves: &mut Vec<Self::Move>, counters: &mut C) -> Branch {
        match self.open(counters) {
            Opened::Solution => Branch::Solution,
            Opened::DeadEnd(rule) => Branch::DeadEnd(rule),
            Opened::Moves(mut cursor) => {
                while let Some(mv) = self.next_move(&mut cursor) {
                    moves.push(mv);
                }
                Branch::Moves
            }
        }
    }

    /// Decides what happens at the current node, as [`Model::branch`] does, with the moves
    /// as a cursor for [`Model::next_move`]. Only a model that declares
    /// [`Model::LAZY_MOVES`] implements it (the default panics: the model implements neither
    /// this nor [`Model::branch`]).
    fn open<C: super::RuleCounter>(&mut self, _counters: &mut C) -> Opened {
        panic!("a Model must implement branch, or declare LAZY_MOVES and implement open and next_move")
    }

    /// The next move of the node whose cursor this is, advancing the cursor; `None` once
    /// every move was given. Called at that node's state (each child is undone first), so
    /// it may read the state. The default gives none (a model that implements
    /// [`Model::branch`] is never asked).
    #[inline(always)]
    fn next_move(&self, _cursor: &mut MoveCursor) -> Option<Self::Move> {
        None
    }

    /// Applies `mv`; returns `Err(rule)` when the resulting state breaks `rule`. Unless the
    /// model declares [`Model::REJECTS_BEFORE_CHANGING`], the move may be applied either way,
    /// and the engine follows a rejection with [`Model::undo`].
    fn apply<C: super::RuleCounter>(&mut self, mv: Self::Move, counters: &mut C) -> Result<(), RuleId>;

    /// Reverts `mv`, the most recent move applied (accepted, or rejected by a model that
    /// changes the state before it tests).
    fn undo(&mut self, mv: Self::Move);

    /// The solution at the current node (called only after [`Branch::Solution`]).
    fn solution(&self) -> Self::Solution;

    /// Writes the solution at the current node into `into`, a solution built before (by
    /// [`Model::solution`] or an earlier call), as [`Model::solution`] would give it. The
    /// engine keeps one such buffer per keeper, so that a solution it then drops (larger
    /// than every kept one) costs no allocation; a model whose solution owns memory (a
    /// `Vec`) overrides it to reuse `into`'s. By default `*into = self.solution()`.
    #[inline]
    fn write_solution(&self, into: &mut Self::Solution) {
        *into = self.solution();
    }

    /// Whether the model can optimise (branch and bound): it implements
    /// [`Model::objective`], [`Model::solution_value`] and [`Model::move_bound`]. `false`
    /// (the default) compiles every bound check away, so enumeration and first-solution
    /// searches of other models cost what they did. A model with this set still searches
    /// without bounds whenever its [`Model::objective`] is `None` (an instance or knob
    /// without an objective).
    const OPTIMISES: bool = false;

    /// Whether a node's moves come in non-increasing bound order (best bound first, as
    /// colour-ordered maximum clique gives them): once one child is cut by the bound, every
    /// later sibling would be too, and the engine cuts them all at once without entering
    /// them (YewPar's `PruneLevel`). `false` (the default): each child is checked.
    const MOVES_IN_BOUND_ORDER: bool = false;

    /// The objective of this model's search, read once when an engine is made: its sense
    /// and the rule (listed in [`Model::rule_names`], named `bound`) under which bound cuts
    /// are counted. `None` (the default): no objective; the search enumerates.
    fn objective(&self) -> Option<super::Objective> {
        None
    }

    /// The objective value of `solution` (larger or smaller is better as
    /// [`Model::objective`]'s sense says). Called once per solution reached, and by the run
    /// layer to rank the kept solutions.
    fn solution_value(&self, _solution: &Self::Solution) -> i64 {
        0
    }

    /// The objective value of the solution at the current node (called only after
    /// [`Branch::Solution`]), when the model knows it without building the solution: the
    /// engine then builds a solution only when it can be kept (at least as good as the best
    /// kept), where most leaves of a branch and bound are worse. `None` (the default): the
    /// engine builds every solution and asks [`Model::solution_value`].
    fn value_here(&self) -> Option<i64> {
        None
    }

    /// The best value any solution under the child reached by `mv` can have: an upper
    /// bound when maximising, a lower bound when minimising. Called at the parent's state,
    /// before `mv` is applied; the engine cuts the child (a node, counted as a prune of the
    /// bound rule) when this cannot beat the incumbent. The parent's state may have been
    /// reached by replaying moves with [`Model::apply`] alone (a parallel subproblem, a
    /// cluster part), without a [`Model::branch`] or [`Model::open`] at the parent: so the
    /// bound may read the state `apply` keeps and the move itself (a move may carry its
    /// bound, as a colour-ordered max clique's does), never tables that only `branch`
    /// fills. The default says nothing can be cut.
    fn move_bound(&self, _mv: Self::Move) -> i64 {
        match self.objective().map(|objective| objective.sense) {
            Some(super::Sense::Minimise) => i64::MIN,
            _ => i64::MAX,
        }
    }
}
