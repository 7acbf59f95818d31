//! Which cell the search decides next under the dynamic orders (`most-constrained`,
//! `tightest-hook`), and which of its two values `forced=single-child` still allows.

use super::config::CellChoice;
use super::geometry::{cells_of, HOOK_SLOTS};
use super::model::HooksModel;
use crate::puzzles::grid::CellSet;

impl HooksModel {
    /// Undecided cells that would complete a filled 2x2 block.
    #[inline]
    fn two_by_two_holes(&self) -> CellSet {
        let shared = &self.shared;
        let filled = self.filled;
        let n = shared.size;
        let bottom_right = (filled << 1) & (filled << n) & (filled << (n + 1)) & shared.not_first_column;
        let bottom_left = (filled >> 1) & (filled << n) & (filled << (n - 1)) & shared.not_last_column;
        let top_right = (filled << 1) & (filled >> n) & (filled >> (n - 1)) & shared.not_first_column;
        let top_left = (filled >> 1) & (filled >> n) & (filled >> (n + 1)) & shared.not_last_column;
        (bottom_right | bottom_left | top_right | top_left) & shared.board.all() & !filled
    }

    /// `single-child`: whether undecided, placed `cell` may still be filled and may still
    /// be left empty. Filling is excluded when its hook has all its digits, when it would
    /// complete a filled 2x2 block, or when its digit exceeds what its region still needs
    /// (region sums only grow); leaving it empty when its hook has all its blanks. Each
    /// excluded value fails a rule in every completion, so no solution is lost.
    #[inline]
    pub(super) fn allowed_values(&self, cell: usize) -> (bool, bool) {
        let hook = self.hook_of[cell] as usize;
        let region = self.shared.region_of[cell] as usize;
        let need = self.target.saturating_sub(self.region_sum[region]);
        let may_fill = (self.hook_filled[hook] as usize) < hook
            && hook as u32 <= need
            && !self.shared.board.completes_full_block(cell, self.filled | (1u128 << cell));
        let may_leave_empty = self.hook_empty[hook] as usize + 1 < hook;
        (may_fill, may_leave_empty)
    }

    /// `most-constrained`: a cell whose value the rules already settle (its hook has all
    /// its digits or all its blanks, it would fill a 2x2 block, or its digit exceeds what
    /// its region still needs), else, in the region closest to its sum, the first cell of
    /// the largest hook there.
    pub(super) fn most_constrained_cell(&self, candidates: CellSet) -> usize {
        let shared = &*self.shared;
        let size = shared.size;
        let mut forced = self.two_by_two_holes();
        if self.incremental {
            forced |= self.too_large;
            let mut settled = u32::from(self.settled_hooks);
            while settled != 0 {
                forced |= self.hook_cells[settled.trailing_zeros() as usize];
                settled &= settled - 1;
            }
        } else {
            // larger_than[k]: the cells of placed hooks numbered above k.
            let mut larger_than = [0u128; HOOK_SLOTS];
            for hook in (1..=size).rev() {
                larger_than[hook - 1] = larger_than[hook] | self.hook_cells[hook];
            }
            for hook in self.next_hook + 1..=size {
                if self.hook_is_settled(hook) {
                    forced |= self.hook_cells[hook];
                }
            }
            for (region, &cells) in shared.region_cells.iter().enumerate() {
                if cells & candidates != 0 {
                    let need = self.target.saturating_sub(self.region_sum[region]);
                    forced |= cells & larger_than[(need as usize).min(size)];
                }
            }
        }
        forced &= candidates;
        if forced != 0 {
            return forced.trailing_zeros() as usize;
        }
        if self.order == CellChoice::TightestHook {
            return self.cell_of_tightest_hook(candidates);
        }
        let mut closest = 0;
        let mut least_need = u32::MAX;
        for (region, &cells) in shared.region_cells.iter().enumerate() {
            if cells & candidates == 0 {
                continue;
            }
            let need = self.target.saturating_sub(self.region_sum[region]);
            if need < least_need {
                least_need = need;
                closest = region;
            }
        }
        let in_region = candidates & shared.region_cells[closest];
        for hook in (1..=size).rev() {
            let cells = in_region & self.hook_cells[hook];
            if cells != 0 {
                return cells.trailing_zeros() as usize;
            }
        }
        in_region.trailing_zeros() as usize
    }

    /// `tightest-hook`, when no cell is settled: in the placed hook with the fewest
    /// undecided cells (the largest such hook on a tie), the cell in the region with the
    /// fewest undecided cells (the lowest cell on a tie). A hook with few cells left is the
    /// closest to having all its digits or all its blanks, after which the rules settle
    /// its other cells; so either child soon meets a forced cell or a dead end.
    fn cell_of_tightest_hook(&self, candidates: CellSet) -> usize {
        let mut tightest = 0;
        let mut fewest = usize::MAX;
        for hook in self.next_hook + 1..=self.shared.size {
            if self.hook_cells[hook] & candidates == 0 {
                continue;
            }
            let undecided = 2 * hook - 1 - usize::from(self.hook_filled[hook]) - usize::from(self.hook_empty[hook]);
            if undecided <= fewest {
                fewest = undecided;
                tightest = hook;
            }
        }
        let cells = candidates & self.hook_cells[tightest];
        let mut chosen = cells.trailing_zeros() as usize;
        let mut fewest_in_region = u8::MAX;
        for cell in cells_of(cells) {
            let open = self.region_open[self.shared.region_of[cell] as usize];
            if open < fewest_in_region {
                fewest_in_region = open;
                chosen = cell;
            }
        }
        chosen
    }
}
