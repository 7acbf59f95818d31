//! Incremental connectivity for Hooks (`connectivity=incremental`): the group of cells
//! that can still join the filled cells, one entry per depth in `HooksModel::reach`,
//! updated move by move by the local ring test of `rings.rs`, with a flood fill only when
//! that test cannot decide.

use super::geometry::lowest;
use super::model::{HooksModel, RULE_CONNECTED};
use crate::search::{RuleCounter, RuleId};

impl HooksModel {
    /// `incremental`: updates the group that can still join the filled cells after
    /// `cell` was decided, flooding only when the local test around `cell` cannot tell.
    #[inline]
    pub(super) fn update_reach<C: RuleCounter>(
        &mut self,
        cell: usize,
        filled: bool,
        counters: &mut C,
    ) -> Result<(), RuleId> {
        counters.check(RULE_CONNECTED);
        let top = self.reach.len() - 1;
        let reach = self.reach[top];
        let bit = 1u128 << cell;
        if filled {
            if self.filled == bit {
                // The first digit: from now on the group is the one around it.
                self.reach[top] = self.shared.board.flood(bit, reach);
                return Ok(());
            }
            return if reach & bit != 0 { Ok(()) } else { Err(RULE_CONNECTED) };
        }
        if reach & bit == 0 {
            return Ok(());
        }
        let rest = reach & !bit;
        if self.filled == 0 || self.shared.rings.stays_connected_without(cell, rest) {
            self.reach[top] = rest;
            return Ok(());
        }
        let grown = self.shared.board.flood(lowest(self.filled), rest);
        self.reach[top] = grown;
        if self.filled & !grown == 0 {
            Ok(())
        } else {
            Err(RULE_CONNECTED)
        }
    }
}
