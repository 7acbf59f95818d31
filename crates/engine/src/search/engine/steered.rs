//! The engine's steered path: the search loop of a parallel worker, whose steering may take
//! its untried branches at any node, when nothing else watches, lists or clones. It keeps
//! the bookkeeping a split reads (the path from the root, each open node's stretch of the
//! candidate stack) and drops what the general path does per child for the features it
//! serves: the frontier and clone tests, the bound cut, the stop test before every child
//! and the node count per depth at every node (added once per node, as the plain path does).

use super::{Engine, StopReason};
use crate::search::callbacks::{Level, OpenBranches};
use crate::search::{Model, Observer, RuleCounter, Steering, SteeringAction};

impl<M: Model, C: RuleCounter, S: Steering<M>, O: Observer<M>> Engine<M, C, S, O> {
    /// Whether the steered path serves this search: a steering takes part, and no observer
    /// of every event, frontier listing, cloned state or objective in use (a model that
    /// could optimise but searches without an objective cuts nothing) needs the general one.
    #[inline(always)]
    pub(super) fn takes_steered_path(&self) -> bool {
        S::ACTIVE
            && (!O::ACTIVE || O::SOLUTIONS_ONLY)
            && !(M::OPTIMISES && self.objective.is_some())
            && self.frontier_depth == usize::MAX
            && !self.limits.clone_state
    }

    /// The node at `depth` on the steered path: the same nodes, counts, stops and splits as
    /// the general path's `expand`, `visit_child` and `enter_node` give it.
    pub(super) fn expand_steered(&mut self, depth: usize) {
        let start = self.candidates.len();
        let Some(end) = self.branch_at(depth, start) else {
            return;
        };
        self.levels.push(Level { next: start, end });
        let child_depth = depth + 1;
        let mut entered = 0u64;
        loop {
            debug_assert!(depth < self.levels.len());
            // SAFETY: this node's level was pushed above and is popped below; each child
            // pushes and pops its own above it, so `levels[depth]` is this node's.
            let level = unsafe { self.levels.get_unchecked_mut(depth) };
            // The end is re-read at every child: the steering may have given the rest away.
            if level.next >= level.end {
                break;
            }
            let mv = self.candidates[level.next];
            level.next += 1;
            if let Err(counted) = self.enter_child() {
                entered += u64::from(counted);
                break;
            }
            entered += 1;
            if self.steering.wants_node(self.nodes) {
                let mut open =
                    OpenBranches { path: &self.path, candidates: &self.candidates, levels: &mut self.levels };
                if self.steering.at_node(self.nodes, &mut open) == SteeringAction::Stop {
                    self.stop = Some(StopReason::Steered);
                    break;
                }
            }
            match self.model.apply(mv, &mut self.counters) {
                Err(rule) => Self::rejected(&mut self.model, &mut self.counters, mv, rule, child_depth),
                Ok(()) => {
                    self.path.push(mv);
                    self.expand_steered(child_depth);
                    self.path.pop();
                    self.model.undo(mv);
                    if self.stop.is_some() {
                        break;
                    }
                }
            }
        }
        // SAFETY: a node offers children only above `max_depth` (`branch_at` stops the
        // search otherwise), so `child_depth` is within the counters' rows.
        unsafe { self.counters.nodes_within(child_depth, entered) };
        self.levels.pop();
        self.candidates.truncate(start);
    }
}
