//! A check that a model's speed declarations ([`Model::REJECTS_BEFORE_CHANGING`],
//! [`Model::LAZY_MOVES`]) change nothing but its speed: the same search through the
//! engine's default contract must count exactly the same.

use super::{search_sequentially, Branch, FullCounters, Limits, Model, RuleCounter, RuleId, Stats};
use std::fmt::Debug;

/// `model` seen through the engine's default contract: its moves drawn into the engine's
/// list by `branch` (a model with [`Model::LAZY_MOVES`] has its cursor drained), and every
/// rejected move followed by the engine's `undo`, which is passed on only where the model
/// does not declare that a rejection leaves its state as it was. Where it declares so, each
/// rejection is checked: `state` (what the model's moves may change) must read the same
/// before and after, or the search panics naming the move.
pub struct DefaultContract<M, S> {
    model: M,
    state: fn(&M) -> S,
    /// The last move applied was rejected.
    rejected: bool,
}

// Not derived: that would ask `S` to be `Clone`, though only a function returning it is kept.
impl<M: Clone, S> Clone for DefaultContract<M, S> {
    fn clone(&self) -> Self {
        DefaultContract { model: self.model.clone(), state: self.state, rejected: self.rejected }
    }
}

impl<M: Model, S: PartialEq + Debug> DefaultContract<M, S> {
    /// `model` under the default contract, its state read by `state`.
    pub fn new(model: M, state: fn(&M) -> S) -> Self {
        DefaultContract { model, state, rejected: false }
    }
}

impl<M: Model, S: PartialEq + Debug> Model for DefaultContract<M, S> {
    type Move = M::Move;
    type Solution = M::Solution;
    /// How checks are counted is not a speed declaration: it stays the model's.
    const RULES_IN_ORDER: bool = M::RULES_IN_ORDER;
    /// The objective and its bound are the search's definition, not its speed: passed on
    /// (without them an optimising model's declared search, bounded, was compared with an
    /// unbounded enumeration and every correct one failed). So is the bound order, which
    /// changes how cut siblings are counted; [`Model::value_here`] is not passed on, so it
    /// is checked against [`Model::solution_value`] of every solution built.
    const OPTIMISES: bool = M::OPTIMISES;
    const MOVES_IN_BOUND_ORDER: bool = M::MOVES_IN_BOUND_ORDER;

    fn objective(&self) -> Option<super::Objective> {
        self.model.objective()
    }

    fn solution_value(&self, solution: &M::Solution) -> i64 {
        self.model.solution_value(solution)
    }

    fn move_bound(&self, mv: M::Move) -> i64 {
        self.model.move_bound(mv)
    }

    fn rule_names(&self) -> &[&'static str] {
        self.model.rule_names()
    }

    fn max_depth(&self) -> usize {
        self.model.max_depth()
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<M::Move>, counters: &mut C) -> Branch {
        self.model.branch(moves, counters)
    }

    fn apply<C: RuleCounter>(&mut self, mv: M::Move, counters: &mut C) -> Result<(), RuleId> {
        let before = M::REJECTS_BEFORE_CHANGING.then(|| (self.state)(&self.model));
        let result = self.model.apply(mv, counters);
        self.rejected = result.is_err();
        if let (Some(before), true) = (before, self.rejected) {
            let after = (self.state)(&self.model);
            assert!(after == before, "{mv:?} was rejected but changed the state: before {before:?}, after {after:?}");
        }
        result
    }

    fn undo(&mut self, mv: M::Move) {
        if !(std::mem::take(&mut self.rejected) && M::REJECTS_BEFORE_CHANGING) {
            self.model.undo(mv);
        }
    }

    fn solution(&self) -> M::Solution {
        self.model.solution()
    }
}

/// Searches `model` for every solution, with rule counts, as it declares and through
/// [`DefaultContract`], and panics unless both find the same solutions with the same
/// counts (nodes, checks and prunes per rule and per depth), or when a rejected move
/// changed what `state` reads. Returns the counts, so that a test can assert that moves
/// were rejected at all (else the state check never ran).
pub fn assert_same_as_default_contract<M: Model, S: PartialEq + Debug>(model: M, state: fn(&M) -> S) -> Stats {
    // The default contract first: a rejected move that changed the state is named as such
    // there, before the declared search, which skips its undo, meets what it broke.
    let default =
        search_sequentially::<_, FullCounters>(DefaultContract::new(model.clone(), state), Limits::exhaustive());
    let declared = search_sequentially::<_, FullCounters>(model, Limits::exhaustive());
    assert_eq!(declared.stop, None, "the search ended early");
    assert_eq!(declared.stats, default.stats, "the counts differ from the default contract's");
    assert_eq!(declared.solutions, default.solutions, "the solutions differ from the default contract's");
    declared.stats
}
