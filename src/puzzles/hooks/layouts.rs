//! The root of `placement=two-phase`: every layout of the hooks that passes the
//! prefilter, found by placing the hooks one by one on a scratch copy of the model, so
//! that a partial layout that already breaks a rule is cut with all its completions.

use super::config::Rules;
use super::geometry::{corner_count, with_corner};
use super::model::{HookMove, HooksModel};
use crate::puzzles::grid::ConnectivityCheck;
use crate::search::{Model, NoCounters};

impl HooksModel {
    /// The layouts that pass the prefilter, in the order two-phase tries them.
    pub(super) fn surviving_layouts(&self) -> Vec<u32> {
        let mut moves = Vec::new();
        self.push_layouts(&mut moves);
        moves
            .into_iter()
            .filter_map(|mv| match mv {
                HookMove::Layout(code) => Some(code),
                _ => None,
            })
            .collect()
    }

    /// Two-phase, at the root: every layout that passes the prefilter, as moves. The
    /// prefilter walks the placements hook by hook on a scratch copy with the `derived`
    /// region rules: givens must fit their hooks, given digits and blanks must not exceed
    /// their hooks' counts nor fill a 2x2 block nor be cut off from each other, and every
    /// region's sum must be reachable by the digits its cells' hooks can still give.
    pub(super) fn push_layouts(&self, moves: &mut Vec<HookMove>) {
        let mut scratch = self.clone();
        // The prefilter always tests regions; `joint` adds its test on complete layouts.
        if scratch.rules != Rules::Joint {
            scratch.rules = Rules::Derived;
        }
        scratch.connectivity = ConnectivityCheck::EveryNode;
        let first = scratch.next_hook;
        scratch.collect_layouts(first, 0, moves);
    }

    fn collect_layouts(&mut self, hook: usize, code: u32, moves: &mut Vec<HookMove>) {
        for corner in 0..corner_count(hook) {
            let mv = HookMove::Hook { hook: hook as u8, corner };
            if self.apply(mv, &mut NoCounters).is_ok() {
                let code = with_corner(code, hook, corner);
                if hook == 1 {
                    moves.push(HookMove::Layout(code));
                } else {
                    self.collect_layouts(hook - 1, code, moves);
                }
            }
            self.undo(mv);
        }
    }
}
