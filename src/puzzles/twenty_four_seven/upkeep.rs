//! The `candidates=incremental` bookkeeping: the values each row and column allows, the
//! bound table of the digits left, the view clues' narrowing and the cells that would
//! complete a 2x2 block, kept up to date on every move instead of recomputed at every node.
//!
//! A move changes the tallies of one row and one column, so only those two lines' values
//! are recomputed. The bound table (least and largest totals of `k` digits left) changes
//! only when the placed digit is among the `line_filled - 1` smallest or largest left; it
//! is then recomputed, and only the lines whose needed total it changed follow. A view
//! clue's first open cell and the values it leaves there depend only on the cells from
//! that first cell to the first filled one beyond it (its "watch"), so only a move on a
//! watched cell recomputes it. A cell joining the shape (filled or pending) can only add
//! block closers, found among the blocks holding it. Every overwritten value goes on a
//! trail, and an undo writes the trail back down to the move's mark. Each kept value is
//! what the `recompute` path computes at the node from the same state, so both paths
//! build the same tree.
//!
//! The kept values and the trail are plain data in `kept.rs`, which the model holds; this
//! file is the code that brings them up to date and winds them back.

use super::config::VisitOrder;
use super::geometry::{first_from, Side, MAX_CELLS};
use super::kept::{Change, Kept, LineValues, Thresholds, Upkeep, ViewState, NO_TARGET};
use super::model::TwentyFourSevenModel;
use super::values::{ValueSet, FILL, MAX_DIGIT};
use crate::puzzles::grid::Board;

/// Positions `low..high` along a line as a set.
#[inline(always)]
fn positions(low: usize, high: usize) -> u16 {
    ((1u32 << high) - (1u32 << low)) as u16
}

impl TwentyFourSevenModel {
    /// Fills the upkeep from the root state (givens placed), for a search of `max_depth` moves.
    pub(super) fn start_upkeep(&mut self, max_depth: usize) {
        let size = self.shared.geometry.size;
        let now = Kept {
            bounds: self.bound_table(),
            thresholds: self.bound_thresholds(),
            rows: [LineValues::default(); Board::MAX_SIZE],
            columns: [LineValues::default(); Board::MAX_SIZE],
            narrowed: [ValueSet::MAX; MAX_CELLS],
            views: [[ViewState { target: NO_TARGET, mask: ValueSet::MAX, watch: 0 }; Board::MAX_SIZE]; 4],
            closers: self.shared.geometry.block_closers(self.shape()),
        };
        self.upkeep = Some(Upkeep {
            now,
            // A move overwrites at most every line, four clues and eight cells' narrowing.
            trail: Vec::with_capacity(max_depth * 8),
            marks: vec![0; max_depth + 1],
            saved_bounds: Vec::with_capacity(max_depth),
            saved_closers: Vec::with_capacity(max_depth),
            shape_first: self.shared.config.order == VisitOrder::ShapeFirst,
        });
        for line in 0..size {
            self.refresh_row(line);
            self.refresh_column(line);
            for side in Side::ALL {
                self.refresh_view(side, line);
            }
        }
        self.upkeep.as_mut().expect("kept").trail.clear();
    }

    #[inline(always)]
    fn upkeep_mut(&mut self) -> &mut Upkeep {
        self.upkeep.as_mut().expect("kept")
    }

    /// Brings the upkeep up to date after the move `cell` = `value` made at `depth`.
    #[inline]
    pub(super) fn keep_up(&mut self, cell: usize, value: u8, depth: usize) {
        let Some(upkeep) = self.upkeep.as_mut() else {
            return;
        };
        upkeep.marks[depth] = upkeep.trail.len() as u32;
        let shape_first = upkeep.shape_first;
        let shared = &*self.shared;
        let geometry = &shared.geometry;
        let (row, column) = (geometry.row_of[cell] as usize, geometry.column_of[cell] as usize);
        let now = &upkeep.now;
        let digit = value != 0 && value != FILL;
        // Only a digit among the smallest or largest left can move the totals a line reads.
        let read = (shared.line_filled as u32).saturating_sub(1);
        if digit && now.thresholds.moved_by(value, self.supply[value as usize], read) {
            let bounds = self.bound_table();
            let thresholds = self.bound_thresholds();
            let upkeep = self.upkeep_mut();
            let now = &mut upkeep.now;
            let changed = bounds.changed_totals(&now.bounds, read as usize);
            let old = (now.bounds, now.thresholds);
            (now.bounds, now.thresholds) = (bounds, thresholds);
            upkeep.saved_bounds.push(old);
            upkeep.trail.push(Change::Bounds);
            if changed != 0 {
                self.refresh_lines_reading(changed);
            }
        }
        // The cell joins the shape: a pattern move filling it, or a digit outside shape-first.
        if value == FILL || (digit && !shape_first) {
            self.add_closers(cell);
        }
        self.refresh_lines(row, column);
        // A pattern move only marks a cell pending: what the clues see does not change.
        if value != FILL {
            let views = &self.upkeep.as_ref().expect("kept").now.views;
            let (along_row, along_column) = (1u16 << column, 1u16 << row);
            let watched = [
                views[Side::West as usize][row].watch & along_row != 0,
                views[Side::East as usize][row].watch & along_row != 0,
                views[Side::North as usize][column].watch & along_column != 0,
                views[Side::South as usize][column].watch & along_column != 0,
            ];
            for (side, line, watched) in [
                (Side::West, row, watched[0]),
                (Side::East, row, watched[1]),
                (Side::North, column, watched[2]),
                (Side::South, column, watched[3]),
            ] {
                if watched {
                    self.refresh_view(side, line);
                }
            }
        }
    }

    /// Undoes what [`TwentyFourSevenModel::keep_up`] did for the move made at `depth`.
    #[inline]
    pub(super) fn restore_upkeep(&mut self, depth: usize) {
        let Some(upkeep) = self.upkeep.as_mut() else {
            return;
        };
        let mark = upkeep.marks[depth] as usize;
        while upkeep.trail.len() > mark {
            let now = &mut upkeep.now;
            match upkeep.trail.pop().expect("longer than the mark") {
                Change::Row(row, values) => now.rows[row as usize] = values,
                Change::Column(column, values) => now.columns[column as usize] = values,
                Change::Lines(row, column, row_values, column_values) => {
                    now.rows[row as usize] = row_values;
                    now.columns[column as usize] = column_values;
                }
                Change::View(side, line, view) => now.views[side as usize][line as usize] = view,
                Change::Narrowed(cell, values) => now.narrowed[cell as usize] = values,
                Change::Bounds => {
                    (now.bounds, now.thresholds) = upkeep.saved_bounds.pop().expect("saved");
                }
                Change::Closers => now.closers = upkeep.saved_closers.pop().expect("saved"),
            }
        }
    }

    /// The [`Thresholds`] of the digits left.
    fn bound_thresholds(&self) -> Thresholds {
        let read = (self.shared.line_filled as u32).saturating_sub(1);
        let (mut taken, mut digits) = (0, self.available & !1);
        let (mut least_top, mut least_below) = (0, 0);
        while taken < read && digits != 0 {
            least_top = digits.trailing_zeros() as u8;
            digits &= digits - 1;
            least_below = taken as u8;
            taken += u32::from(self.supply[least_top as usize]);
        }
        if taken < read {
            least_top = MAX_DIGIT as u8 + 1;
        }
        let (mut taken, mut digits) = (0, self.available & !1);
        let (mut most_bottom, mut most_above) = (MAX_DIGIT as u8 + 1, 0);
        while taken < read && digits != 0 {
            most_bottom = 15 - digits.leading_zeros() as u8;
            digits &= !(1 << most_bottom);
            most_above = taken as u8;
            taken += u32::from(self.supply[most_bottom as usize]);
        }
        if taken < read {
            most_bottom = 0;
        }
        Thresholds { least_top, least_below, most_bottom, most_above }
    }

    /// Adds the block closers that `cell`, just joined to the shape, makes: the one cell
    /// outside the shape of each block holding it whose other three are in the shape.
    #[inline]
    fn add_closers(&mut self, cell: usize) {
        let geometry = &self.shared.geometry;
        let shape = self.shape();
        let mut added = 0;
        for &rest in &geometry.block_rest[cell][..geometry.block_count[cell] as usize] {
            let missing = rest & !shape;
            if missing & missing.wrapping_sub(1) == 0 {
                added |= missing;
            }
        }
        let upkeep = self.upkeep_mut();
        if added & !upkeep.now.closers != 0 {
            upkeep.saved_closers.push(upkeep.now.closers);
            upkeep.trail.push(Change::Closers);
            upkeep.now.closers |= added;
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

    /// The values of row `row` from its tallies and the kept bound table.
    #[inline(always)]
    fn kept_row_values(&self, upkeep: &Upkeep, row: usize) -> LineValues {
        let (bounds, pending) = (&upkeep.now.bounds, self.row_pending[row]);
        LineValues {
            beside_pending: if upkeep.shape_first { self.row_values(row, pending, bounds) } else { 0 },
            among_pending: self.row_values(row, pending - 1, bounds),
        }
    }

    /// The values of column `column` from its tallies and the kept bound table.
    #[inline(always)]
    fn kept_column_values(&self, upkeep: &Upkeep, column: usize) -> LineValues {
        let (bounds, pending) = (&upkeep.now.bounds, self.column_pending[column]);
        LineValues {
            beside_pending: if upkeep.shape_first { self.column_values(column, pending, bounds) } else { 0 },
            among_pending: self.column_values(column, pending - 1, bounds),
        }
    }

    /// Recomputes the values of row `row`.
    fn refresh_row(&mut self, row: usize) {
        let values = self.kept_row_values(self.upkeep.as_ref().expect("kept"), row);
        let upkeep = self.upkeep_mut();
        let old = std::mem::replace(&mut upkeep.now.rows[row], values);
        upkeep.trail.push(Change::Row(row as u8, old));
    }

    /// Recomputes the values of column `column`.
    fn refresh_column(&mut self, column: usize) {
        let values = self.kept_column_values(self.upkeep.as_ref().expect("kept"), column);
        let upkeep = self.upkeep_mut();
        let old = std::mem::replace(&mut upkeep.now.columns[column], values);
        upkeep.trail.push(Change::Column(column as u8, old));
    }

    /// Recomputes the values of row `row` and column `column` (a move's lines).
    #[inline]
    fn refresh_lines(&mut self, row: usize, column: usize) {
        let upkeep = self.upkeep.as_ref().expect("kept");
        let (row_values, column_values) = (self.kept_row_values(upkeep, row), self.kept_column_values(upkeep, column));
        let upkeep = self.upkeep_mut();
        let old_row = std::mem::replace(&mut upkeep.now.rows[row], row_values);
        let old_column = std::mem::replace(&mut upkeep.now.columns[column], column_values);
        upkeep.trail.push(Change::Lines(row as u8, column as u8, old_row, old_column));
    }

    /// Recomputes what the clue of `side` on `line` narrows (if it has a clue), and the
    /// narrowing of the cell it left and of the one it found.
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
        // The first cell seen is open when it holds no digit. A line decided empty, or
        // whose first digit is placed, keeps its view for good.
        let first = if seen == 0 { usize::MAX } else { first_from(side, seen) };
        let view = if first != usize::MAX && self.value[first] == 0 {
            // The cells beyond `first` are those before it seen from the opposite side.
            let beyond = geometry.before[side.opposite() as usize][first];
            let at = position[first] as usize;
            let filled_beyond = self.filled & beyond;
            let (blocked, watch) = if filled_beyond == 0 {
                let watch = if side.starts_low() { positions(at, geometry.size) } else { positions(0, at + 1) };
                (self.open & beyond == 0, watch)
            } else {
                let digit = first_from(side, filled_beyond);
                let between = self.open & beyond & geometry.before[side as usize][digit];
                let to = position[digit] as usize;
                let watch = if side.starts_low() { positions(at, to) } else { positions(to + 1, at + 1) };
                (between == 0 && self.value[digit] != clue, watch)
            };
            // Left empty, the first digit beyond must be the clue or be still open.
            ViewState { target: first as u8, mask: (!blocked) as ValueSet | (1 << clue), watch }
        } else {
            ViewState { target: NO_TARGET, mask: ValueSet::MAX, watch: 0 }
        };
        let upkeep = self.upkeep_mut();
        let old = std::mem::replace(&mut upkeep.now.views[side as usize][line], view);
        upkeep.trail.push(Change::View(side as u8, line as u8, old));
        if old.target == view.target && old.mask == view.mask {
            // Only the watch moved: the cell's narrowing is what it was.
            return;
        }
        if old.target != NO_TARGET && old.target != view.target {
            self.renarrow(old.target as usize);
        }
        if view.target != NO_TARGET {
            self.renarrow(view.target as usize);
        }
    }

    /// Recomputes `narrowed[cell]` from the clues of its row and column that target it.
    #[inline]
    fn renarrow(&mut self, cell: usize) {
        let geometry = &self.shared.geometry;
        let (row, column) = (geometry.row_of[cell] as usize, geometry.column_of[cell] as usize);
        let upkeep = self.upkeep_mut();
        let views = &upkeep.now.views;
        let mut values = ValueSet::MAX;
        for side in Side::ALL {
            let view = &views[side as usize][if side.along_column() { column } else { row }];
            if view.target as usize == cell {
                values &= view.mask;
            }
        }
        let old = std::mem::replace(&mut upkeep.now.narrowed[cell], values);
        upkeep.trail.push(Change::Narrowed(cell as u8, old));
    }
}
