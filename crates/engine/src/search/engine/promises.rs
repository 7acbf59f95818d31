//! The engine's checks that a model keeps what it declares, where a broken promise would
//! otherwise pass as a result: `max_depth()` (past it the counters have no row),
//! `RULES_IN_ORDER` (the checks are derived from the moves applied), and an optimising
//! model's bounds. A bound that is not a bound, or moves declared in bound order that are
//! not, cut subtrees that hold better solutions: the search ends normally and reports an
//! optimum it never proved. Each promise is checked where the engine meets its evidence,
//! a solution better than a bound above it or a sibling whose bound beats an earlier one's,
//! and a broken one stops the search as the model's panic, with what was broken.

use super::Engine;
use crate::search::{Model, Observer, RuleCounter, RuleId, Sense, Steering};

/// What the bounds on the path from the root promise, as scores (larger is better):
/// `above`, the least bound of the moves on the path, which no solution below may beat;
/// `sibling`, the bound of the current node's last child checked, which no later child of a
/// model whose moves come in bound order may beat. A subproblem's replayed prefix promises
/// nothing (its bounds were checked by whoever listed it).
#[derive(Debug, Clone, Copy)]
pub(super) struct BoundTrail {
    above: i64,
    sibling: i64,
}

impl BoundTrail {
    /// No bound above, no sibling checked: a search's root, or a subproblem's.
    pub(super) const OPEN: BoundTrail = BoundTrail { above: BOUNDLESS, sibling: BOUNDLESS };
}

/// The bound score of a child of a search without objective: it promises nothing.
pub(super) const BOUNDLESS: i64 = i64::MAX;

impl<M: Model, C: RuleCounter, S: Steering<M>, O: Observer<M>> Engine<M, C, S, O> {
    /// Notes the bound score of the child about to be checked against the incumbent; a model
    /// whose moves come in bound order must not offer a child whose bound beats an earlier
    /// sibling's (the engine cuts the later siblings of a cut child unseen).
    #[inline(always)]
    pub(super) fn note_sibling_bound(&mut self, bound: i64) {
        if M::MOVES_IN_BOUND_ORDER {
            if bound > self.bound_trail.sibling {
                self.bound_order_broken(bound);
            }
            self.bound_trail.sibling = bound;
        }
    }

    /// Descends below a child whose bound score is `bound`: returns the trail to put back
    /// ([`Engine::climb_bound_trail`]) when its subtree is done.
    #[inline(always)]
    pub(super) fn descend_bound_trail(&mut self, bound: i64) -> BoundTrail {
        let saved = self.bound_trail;
        if M::OPTIMISES {
            self.bound_trail = BoundTrail { above: saved.above.min(bound), ..BoundTrail::OPEN };
        }
        saved
    }

    /// Puts back the trail of the node whose child's subtree is done.
    #[inline(always)]
    pub(super) fn climb_bound_trail(&mut self, saved: BoundTrail) {
        if M::OPTIMISES {
            self.bound_trail = saved;
        }
    }

    /// Checks the score of a solution reached here against every bound above it; `by` names
    /// the method that gave the solution's value (`value_here` or `solution_value`).
    #[inline(always)]
    pub(super) fn check_under_bounds(&self, score: i64, by: &'static str) {
        if score > self.bound_trail.above {
            self.bound_exceeded(score, by);
        }
    }

    /// The objective's sense, for the messages (the checks run only with an objective).
    fn sense(&self) -> Sense {
        self.objective.map_or(Sense::Maximise, |objective| objective.sense)
    }

    #[cold]
    #[inline(never)]
    fn bound_exceeded(&self, score: i64, by: &'static str) -> ! {
        let sense = self.sense();
        let or_value =
            if by == "value_here" { " (or value_here is not the value solution_value gives the solution)" } else { "" };
        panic!(
            "the model's move_bound is not a bound{or_value}: a solution of value {} by {by} lies below a move whose \
             move_bound was {} (a bound must be at least the value of every solution below the move when \
             maximising, at most when minimising): the subtrees it cut may hold better solutions, so no optimum \
             would be proven",
            sense.value(score),
            sense.value(self.bound_trail.above)
        );
    }

    #[cold]
    #[inline(never)]
    fn bound_order_broken(&self, bound: i64) -> ! {
        let sense = self.sense();
        panic!(
            "the model declares MOVES_IN_BOUND_ORDER but offered a move whose move_bound is {} after a sibling whose \
             move_bound was {}: the engine cuts every later sibling of a cut move unseen, so a move with a better \
             bound after it would be cut wrongly",
            sense.value(bound),
            sense.value(self.bound_trail.sibling)
        );
    }

    /// The node at `depth` offered children though `max_depth()` said no path is longer
    /// than `max_depth`: past it the counters have no row, so this is the model's bug, named
    /// as such rather than as an index out of bounds.
    #[cold]
    #[inline(never)]
    pub(super) fn depth_exceeded(&self, depth: usize) -> ! {
        panic!(
            "the model's max_depth() is {} but a node at depth {depth} offered children: max_depth() must be at \
             least the number of moves on the longest path",
            self.max_depth
        );
    }

    /// Counts the node at `depth` as pruned by `rule` in the model's `branch` or `open`.
    #[cold]
    pub(super) fn dead_end(&mut self, rule: RuleId, depth: usize) {
        Self::count_dead_end(&mut self.counters, rule, depth);
    }

    /// [`Engine::dead_end`] on the counters alone, for a loop that holds them apart.
    #[cold]
    pub(super) fn count_dead_end(counters: &mut C, rule: RuleId, depth: usize) {
        if M::RULES_IN_ORDER {
            panic!(
                "the model declares RULES_IN_ORDER but named rule {rule} in a dead end at depth {depth}: with \
                 RULES_IN_ORDER only apply may name a rule (the checks are derived from the moves applied)"
            );
        }
        counters.prune(rule, depth);
    }
}
