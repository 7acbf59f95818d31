//! The engine's plain path: the search loop when nothing steers, watches (beyond the
//! solutions) or lists the frontier, kept apart from the general path's bookkeeping. One
//! loop for models that push their moves onto the candidate stack, one for models that
//! yield them from a cursor ([`Model::LAZY_MOVES`]).

use super::{Engine, StopReason};
use crate::search::{Model, MoveCursor, Observer, Opened, RuleCounter, RuleId, Steering, MAX_RULES};

impl<M: Model, C: RuleCounter, S: Steering<M>, O: Observer<M>> Engine<M, C, S, O> {
    /// The node at `depth` on the plain path: children are entered, applied, searched and
    /// undone in a loop over this node's stretch of the candidate stack, with nothing else
    /// per node than the counters, the node-limit comparison and the stop test after a
    /// child's subtree.
    pub(super) fn expand_plain(&mut self, depth: usize) {
        let start = self.candidates.len();
        let Some(end) = self.branch_at(depth, start) else {
            return;
        };
        let child_depth = depth + 1;
        let mut index = start;
        while index < end {
            debug_assert!(index < self.candidates.len());
            // SAFETY: this node's stretch `start..end` stays on the stack while its children
            // are searched: each child pushes above `end` and truncates back to its own start,
            // which is `end` (children run one at a time), so `index < end <= len`.
            let mv = unsafe { *self.candidates.get_unchecked(index) };
            if let Err(counted) = self.enter_child() {
                index += usize::from(counted);
                break;
            }
            index += 1;
            match self.model.apply(mv, &mut self.counters) {
                Err(rule) => Self::rejected(&mut self.model, &mut self.counters, mv, rule, child_depth),
                Ok(()) => {
                    self.expand_plain(child_depth);
                    self.model.undo(mv);
                    if self.stop.is_some() {
                        break;
                    }
                }
            }
        }
        // The children entered, counted at their depth once rather than one by one.
        // SAFETY: as in `rejected`, a child's depth is at most `max_depth`.
        unsafe { self.counters.nodes_within(child_depth, (index - start) as u64) };
        self.candidates.truncate(start);
    }

    /// The plain path for a model that yields its moves one by one: the same nodes, counts
    /// and stops as [`Engine::expand_plain`], with the node's cursor in this frame instead
    /// of a stretch of the candidate stack, and the rejected children tried in an inner
    /// loop ([`Engine::next_accepted`]) that leaves only for an accepted child, a look at
    /// the limits or the end of the moves.
    pub(super) fn expand_lazy(&mut self, depth: usize) {
        // A search with no node limit and no deadline never looks at the limits (the next
        // look stays at `u64::MAX`): it takes the loop of `lazy_walk.rs`, which keeps no
        // count current for a look that never comes and makes no call per placed move.
        if self.next_limit_check == u64::MAX {
            self.walk_lazy(depth);
        } else {
            self.expand_lazy_limited(depth);
        }
    }

    /// Opens the node at `depth` of a model that yields its moves one by one: its cursor,
    /// or `None` when it is a solution or a dead end (recorded here). A node at `max_depth`
    /// that offers a move stops the search: the model's bug (see `depth_exceeded`).
    #[inline(always)]
    pub(super) fn open_lazy(&mut self, depth: usize) -> Option<MoveCursor> {
        let cursor = match self.model.open(&mut self.counters) {
            Opened::Moves(cursor) => cursor,
            Opened::Solution => {
                self.record_solution(depth);
                return None;
            }
            Opened::DeadEnd(rule) => {
                self.dead_end(rule, depth);
                return None;
            }
        };
        if depth >= self.max_depth && self.model.next_move(&mut { cursor }).is_some() {
            self.depth_exceeded(depth);
        }
        Some(cursor)
    }

    /// [`Engine::expand_lazy`] with a node limit or a deadline.
    fn expand_lazy_limited(&mut self, depth: usize) {
        let Some(mut cursor) = self.open_lazy(depth) else {
            return;
        };
        let child_depth = depth + 1;
        let mut entered: u64 = 0;
        // The children's prunes per rule, added to the counters once at the end (unused,
        // and compiled away, without rule counts). A fixed-size local indexed by the
        // model's rule constants lives in registers or stack slots; a count behind the
        // counters' pointer made the compiler reload the model's state after every prune
        // (N-Queens n = 12: 35.4 instructions a node with this tally, 37.9 without).
        let mut prunes = [0u64; MAX_RULES];
        loop {
            // The node count advances in a local, compared with how many nodes may be
            // entered before the next look at the limits.
            let mut tried = 0;
            // Never below zero: every node entered so far was within the limits or looked
            // at them (which moved the next look past it), or the search stopped.
            let before_limit_check = self.next_limit_check - self.nodes;
            let next = Self::next_accepted::<true>(
                &mut self.model,
                &mut self.counters,
                &mut cursor,
                &mut tried,
                before_limit_check,
                &mut prunes,
            );
            self.nodes += tried;
            entered += tried;
            let Some((mv, applied)) = next else {
                break;
            };
            if !applied {
                if self.limit_reached() {
                    // As in `expand_plain`: a node limit leaves this node uncounted (and
                    // took it off the node count), a deadline counts it.
                    if self.stop != Some(StopReason::TimeLimit) {
                        entered -= 1;
                    }
                    break;
                }
                if let Err(rule) = self.model.apply(mv, &mut self.counters) {
                    Self::tally_rejected(&mut self.model, &mut prunes, mv, rule);
                    continue;
                }
            }
            self.expand_lazy_limited(child_depth);
            self.model.undo(mv);
            if self.stop.is_some() {
                break;
            }
        }
        // SAFETY: as in `rejected`, a child's depth is at most `max_depth`.
        unsafe {
            self.counters.nodes_within(child_depth, entered);
            self.counters.add_prunes_within(child_depth, &prunes);
        }
    }

    /// Tries the moves of `cursor` until one is accepted (`Some((mv, true))`, applied), more
    /// than `before_limit_check` were tried (`Some((mv, false))`, counted in `tried` but not
    /// applied: the caller looks at the limits first; only when `LIMITED`, the search having
    /// a node limit or a deadline) or the moves run out (`None`).
    /// Nothing in this loop is a call, so that the compiler keeps the count, the tally and
    /// the model's fields in registers while rejected moves go by (one loop with the
    /// recursion in it: 5 instructions a node more on N-Queens without rule counts).
    #[inline(always)]
    pub(super) fn next_accepted<const LIMITED: bool>(
        model: &mut M,
        counters: &mut C,
        cursor: &mut MoveCursor,
        tried: &mut u64,
        before_limit_check: u64,
        prunes: &mut [u64; MAX_RULES],
    ) -> Option<(M::Move, bool)> {
        loop {
            let mv = model.next_move(cursor)?;
            *tried += 1;
            if LIMITED && *tried > before_limit_check {
                return Some((mv, false));
            }
            match model.apply(mv, counters) {
                Ok(()) => return Some((mv, true)),
                Err(rule) => Self::tally_rejected(model, prunes, mv, rule),
            }
        }
    }

    /// Tallies the rejection of `mv` by `rule` in `prunes` (with rule counts) and undoes it
    /// if the model changed the state.
    #[inline(always)]
    fn tally_rejected(model: &mut M, prunes: &mut [u64; MAX_RULES], mv: M::Move, rule: RuleId) {
        if C::ENABLED {
            prunes[rule] += 1;
        }
        if !M::REJECTS_BEFORE_CHANGING {
            model.undo(mv);
        }
    }

    /// Counts a child entered by a loop that tallies its children's nodes itself, and looks
    /// at the limits when due: `Err(counted)` when the search stops at this child, `counted`
    /// saying whether the child is tallied (a deadline counts it, entered and not searched,
    /// as the general path does; a node limit leaves it uncounted).
    #[inline(always)]
    pub(super) fn enter_child(&mut self) -> Result<(), bool> {
        self.nodes += 1;
        if self.nodes > self.next_limit_check && self.limit_reached() {
            return Err(self.stop == Some(StopReason::TimeLimit));
        }
        Ok(())
    }

    /// Counts the rejection of `mv` at `depth`, a child's depth on the plain path, and
    /// undoes it if the model changed the state.
    #[inline(always)]
    pub(super) fn rejected(model: &mut M, counters: &mut C, mv: M::Move, rule: RuleId, depth: usize) {
        // SAFETY: a node offers children only above `max_depth` (`depth_exceeded` stops
        // the search otherwise), so a child's depth is at most `max_depth`, the depth the
        // counters were sized for in `new`.
        unsafe { counters.prune_within(rule, depth) };
        if !M::REJECTS_BEFORE_CHANGING {
            model.undo(mv);
        }
    }
}
