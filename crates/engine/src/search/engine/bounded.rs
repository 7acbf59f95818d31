//! The engine's branch-and-bound parts: the bound check before a child is applied, the
//! incumbent kept up to date at each solution, and the plain loop of an optimising search.
//!
//! A model that does not declare [`Model::OPTIMISES`] never reaches this code (every call
//! is behind that constant), so enumeration and first-solution searches pay nothing for it.

use super::promises::BOUNDLESS;
use super::{Engine, StopReason};
use crate::search::keeper::SolutionKeeper;
use crate::search::{Event, Incumbent, Model, Observer, RuleCounter, Steering, NO_SCORE};
use std::sync::Arc;

impl<M: Model, C: RuleCounter, S: Steering<M>, O: Observer<M>> Engine<M, C, S, O> {
    /// Gives this engine `incumbent` for the searches it runs from now on (a replicable
    /// strategy starts each task from a fixed incumbent of its own).
    pub fn share_incumbent(&mut self, incumbent: Arc<Incumbent>) {
        self.incumbent = incumbent;
    }

    /// The incumbent this engine reads and raises.
    pub fn incumbent(&self) -> &Arc<Incumbent> {
        &self.incumbent
    }

    /// The objective value of the solutions this engine keeps, when the model optimises
    /// and it found one.
    pub fn best_value(&self) -> Option<i64> {
        let objective = self.objective?;
        (self.kept_score != NO_SCORE).then(|| objective.sense.value(self.kept_score))
    }

    /// The bound score of the child reached by `mv` (entered at `depth`, not yet applied),
    /// or `None` when the bound cuts it: its bound cannot beat the incumbent (or, listing
    /// every optimum, cannot reach it). The check and the cut are counted under the
    /// objective's bound rule; without an objective nothing is cut ([`BOUNDLESS`]).
    #[inline(always)]
    pub(super) fn bound_unless_cut(&mut self, mv: M::Move, depth: usize) -> Option<i64> {
        let Some(objective) = self.objective.filter(|_| M::OPTIMISES) else {
            return Some(BOUNDLESS);
        };
        self.counters.check(objective.bound_rule);
        let bound = objective.sense.score(self.model.move_bound(mv));
        self.note_sibling_bound(bound);
        if self.cuts(bound) {
            self.counters.prune(objective.bound_rule, depth);
            return None;
        }
        Some(bound)
    }

    /// Tells a watching observer that the child reached by `mv` at `depth` was cut by the
    /// bound, as a prune of the bound rule: an observer that names nodes by their index
    /// among their siblings (the cluster's path recorder) counts every candidate visited.
    #[inline(always)]
    pub(super) fn observe_bound_cut(&mut self, mv: M::Move, depth: usize) {
        if let (true, Some(objective)) = (O::ACTIVE && !O::SOLUTIONS_ONLY, self.objective) {
            self.observer.observe(Event::Pruned { depth, mv, rule: objective.bound_rule }, &self.model);
        }
    }

    /// Whether the bound of the child reached by `mv` cannot beat the incumbent (or,
    /// listing every optimum, cannot reach it), counting nothing; false without objective.
    #[inline(always)]
    pub(super) fn bound_would_cut(&self, mv: M::Move) -> bool {
        let Some(objective) = self.objective else {
            return false;
        };
        self.cuts(objective.sense.score(self.model.move_bound(mv)))
    }

    /// Whether a child whose bound scores `bound` cannot beat the incumbent (or, listing
    /// every optimum, cannot reach it).
    #[inline(always)]
    fn cuts(&self, bound: i64) -> bool {
        let incumbent = self.incumbent.score();
        if self.limits.all_optima {
            bound < incumbent
        } else {
            bound <= incumbent
        }
    }

    /// Whether the leaf here scores at or below the incumbent's floor (never, without a
    /// floor or an objective): the solution's value is read only where there is a floor.
    pub(super) fn at_or_below_floor(&self) -> bool {
        let (Some(objective), floor) = (self.objective, self.incumbent.floor()) else {
            return false;
        };
        if floor == NO_SCORE {
            return false;
        }
        let value = self.model.value_here().unwrap_or_else(|| self.model.solution_value(&self.model.solution()));
        objective.sense.score(value) <= floor
    }

    /// Records the solution at the current node of an optimising search: its value is
    /// offered to the shared incumbent, and it is kept when it is at least as good as the
    /// best this engine kept (a better one replaces them).
    pub(super) fn record_valued_solution(&mut self) {
        let Some(objective) = self.objective else {
            return;
        };
        if let Some(value) = self.model.value_here() {
            let score = objective.sense.score(value);
            self.check_under_bounds(score, "value_here");
            self.incumbent.offer(score);
            if score < self.kept_score {
                // Worse than what this engine keeps: never built.
                return;
            }
        }
        let solution = self.model.solution();
        let score = objective.sense.score(self.model.solution_value(&solution));
        self.check_under_bounds(score, "solution_value");
        self.incumbent.offer(score);
        if score > self.kept_score {
            self.kept_score = score;
            self.solutions = SolutionKeeper::new(self.limits.solutions_to_keep);
        }
        if score == self.kept_score && self.solutions.wants_any() {
            self.solutions.offer(solution);
        }
    }

    /// The node at `depth` of an optimising search on the plain path (nothing steers,
    /// watches beyond the solutions or lists): each child is entered, checked against the
    /// incumbent, and only then applied and searched. Once a child of a model whose moves
    /// come in bound order is cut, its later siblings are cut with it, unentered.
    fn expand_bounded(&mut self, depth: usize) {
        let start = self.candidates.len();
        let Some(end) = self.branch_at(depth, start) else {
            return;
        };
        let child_depth = depth + 1;
        for index in start..end {
            let mv = self.candidates[index];
            if !self.bounded_child(mv, child_depth) {
                break;
            }
        }
        self.candidates.truncate(start);
    }

    /// [`Engine::expand_bounded`] for a model that yields its moves one by one
    /// ([`Model::LAZY_MOVES`]): the same nodes and counts, and the moves after a sibling
    /// cut are never made (a colour-ordered max clique lists no move it will not try).
    fn expand_bounded_lazy(&mut self, depth: usize) {
        let Some(mut cursor) = self.open_lazy(depth) else {
            return;
        };
        let child_depth = depth + 1;
        while let Some(mv) = self.model.next_move(&mut cursor) {
            if !self.bounded_child(mv, child_depth) {
                break;
            }
        }
    }

    /// The node at `depth` of an optimising search on the plain path, by the loop that
    /// fits how the model gives its moves.
    #[inline(always)]
    pub(super) fn expand_bounded_node(&mut self, depth: usize) {
        if M::LAZY_MOVES {
            self.expand_bounded_lazy(depth);
        } else {
            self.expand_bounded(depth);
        }
    }

    /// Enters the child reached by `mv` at `child_depth`, cuts it by the bound or applies
    /// it, searches below it and undoes it; false when its later siblings are not to be
    /// tried (the search stopped, or the bound cut it and the moves come in bound order).
    #[inline(always)]
    fn bounded_child(&mut self, mv: M::Move, child_depth: usize) -> bool {
        if !self.enter_node(child_depth) {
            return false;
        }
        let Some(bound) = self.bound_unless_cut(mv, child_depth) else {
            return !M::MOVES_IN_BOUND_ORDER;
        };
        match self.model.apply(mv, &mut self.counters) {
            Err(rule) => {
                self.counters.prune(rule, child_depth);
                if !M::REJECTS_BEFORE_CHANGING {
                    self.model.undo(mv);
                }
                true
            }
            Ok(()) => {
                let trail = self.descend_bound_trail(bound);
                self.expand_bounded_node(child_depth);
                self.climb_bound_trail(trail);
                self.model.undo(mv);
                self.stop.is_none()
            }
        }
    }

    /// Whether this search stopped because a solution reached its target.
    pub fn reached_target(&self) -> bool {
        self.stop == Some(StopReason::TargetReached)
    }
}
