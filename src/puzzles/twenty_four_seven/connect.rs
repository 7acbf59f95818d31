//! The `incremental` connectivity check: after one move, look only at what it changed.
//!
//! The model keeps `reach`: the cells that the filled cells reach through filled or open
//! cells (a shape-first pending cell counts as filled). Invariant (checked at the root, kept by every accepted move): all filled cells
//! lie in this one group. Filling a cell keeps it exactly when the cell is in `reach`
//! (one bit test). Emptying a cell outside `reach` changes nothing; emptying one inside
//! can split the group only if its neighbours in the group no longer reach one another,
//! which a flood from one of them usually settles in a step or two; only otherwise is the
//! group flooded again from a filled cell.

use super::model::TwentyFourSevenModel;
use crate::puzzles::grid::CellSet;

impl TwentyFourSevenModel {
    /// The group the filled cells reach at the root (empty when nothing is filled).
    pub(super) fn initial_reach(&self) -> CellSet {
        let board = &self.shared.geometry.board;
        if self.filled == 0 {
            0
        } else {
            board.flood(self.filled & self.filled.wrapping_neg(), self.filled | self.open)
        }
    }

    /// Updates `reach` after `cell` was decided as `value` (0 = empty); false when the
    /// filled cells can no longer all connect (`reach` is then stale: undo restores it).
    #[inline]
    pub(super) fn keep_connected(&mut self, cell: usize, value: u8) -> bool {
        let board = &self.shared.geometry.board;
        let bit: CellSet = 1 << cell;
        if value != 0 {
            if self.reach == 0 {
                self.reach = board.flood(bit, self.filled | self.open);
                return true;
            }
            return self.reach & bit != 0;
        }
        if self.reach & bit == 0 {
            return true;
        }
        let reach = self.reach & !bit;
        let around = board.neighbours(bit) & reach;
        if around & around.wrapping_sub(1) == 0 {
            // At most one neighbour in the group: removing the cell cuts nothing off.
            self.reach = reach;
            return true;
        }
        let mut reached = around & around.wrapping_neg();
        loop {
            let grown = (reached | board.neighbours(reached)) & reach;
            if grown & around == around {
                self.reach = reach;
                return true;
            }
            if grown == reached {
                break;
            }
            reached = grown;
        }
        // The group split; `reached` is one part. The filled cells must all lie in one.
        let shape = self.shape();
        let part = if reached & shape != 0 { reached } else { board.flood(shape & shape.wrapping_neg(), reach) };
        self.reach = part;
        shape & !part == 0
    }
}
