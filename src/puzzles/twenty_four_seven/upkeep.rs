//! The `candidates=incremental` bookkeeping: the values each row and column allows, the
//! bound table of the digits left and the view clues' narrowing, kept up to date on every
//! move instead of recomputed at every node.
//!
//! A move changes the tallies of one row and one column, so only those two lines' values
//! are recomputed. The bound table (least and largest totals of `k` digits left) changes
//! only when the placed digit is among the `line_filled - 1` smallest or largest left; it
//! is then recomputed, and only the lines whose needed total it changed follow. A view
//! clue's first open cell and the values it leaves there depend only on the cells from
//! that first cell to the first filled one beyond it (its "watch"), so only a move on a
//! watched cell recomputes it. An undo copies back the values saved before the move.
//! Each kept value is what the `recompute` path computes at the node from the same state,
//! so both paths build the same tree.

use super::candidates::BoundTable;
use super::config::VisitOrder;
use super::geometry::{first_from, Side, MAX_CELLS};
use super::model::{TwentyFourSevenModel, ValueSet, FILL, MAX_DIGIT};
use crate::puzzles::grid::Board;

/// No open cell is a clue's first: its view narrows nothing.
const NO_TARGET: u8 = u8::MAX;

/// The values one more cell of a line may take, before the digits left are masked in.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct LineValues {
    /// For a cell that is not pending, the line's pending cells committed to digits: a
    /// shape-first pattern move's options (kept under shape-first only).
    pub beside_pending: ValueSet,
    /// For a pending cell (or any cell while the line has none), the line's other pending
    /// cells committed.
    pub among_pending: ValueSet,
}

/// The values kept at one node.
#[derive(Debug, Clone, Copy)]
pub(super) struct Kept {
    /// The bound table of the digits left.
    pub bounds: BoundTable,
    /// The largest digit among the `line_filled - 1` smallest left (16 when fewer are
    /// left): placing a larger one leaves every bound a line reads as it is.
    least_top: u8,
    /// The smallest digit among the `line_filled - 1` largest left (0 when fewer are left).
    most_bottom: u8,
    /// Per row.
    pub rows: [LineValues; Board::MAX_SIZE],
    /// Per column.
    pub columns: [LineValues; Board::MAX_SIZE],
    /// `narrowed[cell]`: the values the view clues whose first open cell it is leave it
    /// (all values for other cells), as `view_narrowing` computes them.
    pub narrowed: [ValueSet; MAX_CELLS],
    /// `view_target[side][line]`: the clue's first cell if it is open, else [`NO_TARGET`].
    view_target: [[u8; Board::MAX_SIZE]; 4],
    /// `view_mask[side][line]`: the values the clue leaves its target.
    view_mask: [[ValueSet; Board::MAX_SIZE]; 4],
    /// `view_watch[side][line]`: the positions along the line (column of a row's cell, row
    /// of a column's) whose decision can change the clue's target or mask.
    view_watch: [[u16; Board::MAX_SIZE]; 4],
}

/// The kept values now and before each move on the path.
#[derive(Debug, Clone)]
pub(super) struct Upkeep {
    /// At the current node.
    pub now: Kept,
    /// `saved[depth]`: before the move made at that depth.
    saved: Vec<Kept>,
    /// Whether the pattern phase reads `beside_pending` (shape-first order).
    keeps_pattern_values: bool,
}

/// Positions `low..high` along a line as a set.
#[inline(always)]
fn positions(low: usize, high: usize) -> u16 {
    ((1u32 << high) - (1u32 << low)) as u16
}

impl TwentyFourSevenModel {
    /// Fills the upkeep from the root state (givens placed), for a search of `max_depth` moves.
    pub(super) fn start_upkeep(&mut self, max_depth: usize) {
        let size = self.shared.geometry.size;
        let (least_top, most_bottom) = self.bound_thresholds();
        let now = Kept {
            bounds: self.bound_table(),
            least_top,
            most_bottom,
            rows: [LineValues::default(); Board::MAX_SIZE],
            columns: [LineValues::default(); Board::MAX_SIZE],
            narrowed: [ValueSet::MAX; MAX_CELLS],
            view_target: [[NO_TARGET; Board::MAX_SIZE]; 4],
            view_mask: [[ValueSet::MAX; Board::MAX_SIZE]; 4],
            view_watch: [[0; Board::MAX_SIZE]; 4],
        };
        let keeps_pattern_values = self.shared.config.order == VisitOrder::ShapeFirst;
        self.upkeep = Some(Upkeep { now, saved: vec![now; max_depth + 1], keeps_pattern_values });
        for line in 0..size {
            self.refresh_row(line);
            self.refresh_column(line);
            for side in Side::ALL {
                self.refresh_view(side, line);
            }
        }
    }

    /// Brings the upkeep up to date after the move `cell` = `value` made at `depth`.
    #[inline]
    pub(super) fn keep_up(&mut self, cell: usize, value: u8, depth: usize) {
        let Some(upkeep) = self.upkeep.as_mut() else {
            return;
        };
        upkeep.saved[depth] = upkeep.now;
        let shared = &*self.shared;
        let geometry = &shared.geometry;
        let (row, column) = (geometry.row_of[cell] as usize, geometry.column_of[cell] as usize);
        let now = &upkeep.now;
        let digit = value != 0 && value != FILL;
        // Only a digit among the smallest or largest left can move the totals a line reads.
        if digit && (value <= now.least_top || value >= now.most_bottom) {
            let read = (shared.line_filled as usize).saturating_sub(1);
            let bounds = self.bound_table();
            let (least_top, most_bottom) = self.bound_thresholds();
            let now = &mut self.upkeep.as_mut().expect("kept").now;
            let changed = bounds.changed_totals(&now.bounds, read);
            (now.bounds, now.least_top, now.most_bottom) = (bounds, least_top, most_bottom);
            if changed != 0 {
                self.refresh_lines_reading(changed);
            }
        }
        self.refresh_row(row);
        self.refresh_column(column);
        // A pattern move only marks a cell pending: what the clues see does not change.
        if value != FILL {
            let watch = &self.upkeep.as_ref().expect("kept").now.view_watch;
            let (along_row, along_column) = (1u16 << column, 1u16 << row);
            let refresh = [
                watch[Side::West as usize][row] & along_row != 0,
                watch[Side::East as usize][row] & along_row != 0,
                watch[Side::North as usize][column] & along_column != 0,
                watch[Side::South as usize][column] & along_column != 0,
            ];
            for (side, line) in [(Side::West, row), (Side::East, row), (Side::North, column), (Side::South, column)]
                .into_iter()
                .zip(refresh)
                .filter_map(|(clue, refresh)| refresh.then_some(clue))
            {
                self.refresh_view(side, line);
            }
        }
    }

    /// `least_top` and `most_bottom` of [`Kept`] for the digits left.
    fn bound_thresholds(&self) -> (u8, u8) {
        let read = (self.shared.line_filled as u32).saturating_sub(1);
        let (mut taken, mut digits, mut least_top) = (0, self.available & !1, 0);
        while taken < read && digits != 0 {
            least_top = digits.trailing_zeros() as u8;
            digits &= digits - 1;
            taken += u32::from(self.supply[least_top as usize]);
        }
        if taken < read {
            least_top = MAX_DIGIT as u8 + 1;
        }
        let (mut taken, mut digits, mut most_bottom) = (0, self.available & !1, MAX_DIGIT as u8 + 1);
        while taken < read && digits != 0 {
            most_bottom = 15 - digits.leading_zeros() as u8;
            digits &= !(1 << most_bottom);
            taken += u32::from(self.supply[most_bottom as usize]);
        }
        if taken < read {
            most_bottom = 0;
        }
        (least_top, most_bottom)
    }

    /// Puts back the values kept before the move made at `depth`.
    #[inline]
    pub(super) fn restore_upkeep(&mut self, depth: usize) {
        if let Some(upkeep) = self.upkeep.as_mut() {
            upkeep.now = upkeep.saved[depth];
        }
    }

    /// Recomputes the lines whose values read a total `k` in `changed` (bit `k`): those
    /// that still need `k + 1` digits.
    fn refresh_lines_reading(&mut self, changed: u32) {
        let line_filled = self.shared.line_filled;
        for line in 0..self.shared.geometry.size {
            let (row_need, column_need) = (line_filled - self.row_count[line], line_filled - self.column_count[line]);
            if row_need > 0 && changed & (1 << (row_need - 1)) != 0 {
                self.refresh_row(line);
            }
            if column_need > 0 && changed & (1 << (column_need - 1)) != 0 {
                self.refresh_column(line);
            }
        }
    }

    /// Recomputes the values of row `row`.
    #[inline]
    fn refresh_row(&mut self, row: usize) {
        let upkeep = self.upkeep.as_ref().expect("kept");
        let (bounds, pending) = (&upkeep.now.bounds, self.row_pending[row]);
        let values = LineValues {
            beside_pending: if upkeep.keeps_pattern_values { self.row_values(row, pending, bounds) } else { 0 },
            among_pending: self.row_values(row, pending - 1, bounds),
        };
        self.upkeep.as_mut().expect("kept").now.rows[row] = values;
    }

    /// Recomputes the values of column `column`.
    #[inline]
    fn refresh_column(&mut self, column: usize) {
        let upkeep = self.upkeep.as_ref().expect("kept");
        let (bounds, pending) = (&upkeep.now.bounds, self.column_pending[column]);
        let values = LineValues {
            beside_pending: if upkeep.keeps_pattern_values { self.column_values(column, pending, bounds) } else { 0 },
            among_pending: self.column_values(column, pending - 1, bounds),
        };
        self.upkeep.as_mut().expect("kept").now.columns[column] = values;
    }

    /// Recomputes the first open cell the clue of `side` on `line` narrows (if it has a
    /// clue), its mask and watch, and the narrowing of the cell it left and of the one it
    /// found.
    #[inline]
    fn refresh_view(&mut self, side: Side, line: usize) {
        let shared = &*self.shared;
        let clue = shared.clue[side as usize][line];
        if clue == 0 {
            return;
        }
        let geometry = &shared.geometry;
        let (cells, position) = if side.along_column() {
            (geometry.column_mask[line], &geometry.row_of)
        } else {
            (geometry.row_mask[line], &geometry.column_of)
        };
        let seen = (self.filled | self.open) & cells;
        let first = if seen == 0 { None } else { Some(first_from(side, seen)) };
        // A line decided empty, or whose first digit is placed, keeps its view for good.
        let (target, mask, watch) = match first {
            Some(first) if self.open & (1u128 << first) != 0 => {
                let beyond = cells & !geometry.before[side as usize][first] & !(1u128 << first);
                let at = position[first] as usize;
                let watch = match (self.filled & beyond, side.starts_low()) {
                    (0, true) => positions(at, geometry.size),
                    (0, false) => positions(0, at + 1),
                    (filled, true) => positions(at, position[first_from(side, filled)] as usize),
                    (filled, false) => positions(position[first_from(side, filled)] as usize + 1, at + 1),
                };
                (first as u8, self.view_values(side, cells, first, clue), watch)
            }
            _ => (NO_TARGET, ValueSet::MAX, 0),
        };
        let now = &mut self.upkeep.as_mut().expect("kept").now;
        let old = std::mem::replace(&mut now.view_target[side as usize][line], target);
        now.view_mask[side as usize][line] = mask;
        now.view_watch[side as usize][line] = watch;
        if old != NO_TARGET && old != target {
            self.renarrow(old as usize);
        }
        if target != NO_TARGET {
            self.renarrow(target as usize);
        }
    }

    /// Recomputes `narrowed[cell]` from the clues of its row and column that target it.
    #[inline]
    fn renarrow(&mut self, cell: usize) {
        let geometry = &self.shared.geometry;
        let (row, column) = (geometry.row_of[cell] as usize, geometry.column_of[cell] as usize);
        let now = &mut self.upkeep.as_mut().expect("kept").now;
        let mut values = ValueSet::MAX;
        for side in Side::ALL {
            let line = if side.along_column() { column } else { row };
            if now.view_target[side as usize][line] as usize == cell {
                values &= now.view_mask[side as usize][line];
            }
        }
        now.narrowed[cell] = values;
    }
}
