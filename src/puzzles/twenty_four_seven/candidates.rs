//! The `derived` rules, applied before a move is made: the values a cell may take given
//! its row's and column's tallies, the digits left, the view clues and the 2x2 blocks.
//!
//! Filtering here rather than rejecting in `apply` keeps hopeless children out of the tree
//! altogether. Each rule below is a consequence of the puzzle's rules on the complete grid,
//! so no solution is ever filtered out.

use super::bounds::{BoundTable, TotalBounds, UNREACHABLE};
use super::geometry::{first_from, Side, MAX_CELLS};
use super::kept::Kept;
use super::model::{TwentyFourSevenModel, RULE_LINE_COUNT, RULE_LINE_SUM, RULE_TWO_BY_TWO, RULE_VIEW};
use super::values::ValueSet;
use crate::puzzles::grid::{Board, CellSet};
use crate::search::RuleCounter;
use std::mem::MaybeUninit;
use std::ops::ControlFlow;

/// The bounds computed on demand from the supply, for nodes that need one or two lines:
/// a walk over the digits left from either end that usually stops after a step or two.
impl TotalBounds for TwentyFourSevenModel {
    #[inline(always)]
    fn least(&self, k: usize) -> i32 {
        let (mut missing, mut total) = (k as i32, 0);
        let mut digits = self.available & !1;
        while missing > 0 {
            if digits == 0 {
                return UNREACHABLE;
            }
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let taken = missing.min(self.supply[digit] as i32);
            total += taken * digit as i32;
            missing -= taken;
        }
        total
    }
    #[inline(always)]
    fn most(&self, k: usize) -> i32 {
        let (mut missing, mut total) = (k as i32, 0);
        let mut digits = self.available & !1;
        while missing > 0 {
            if digits == 0 {
                return -UNREACHABLE;
            }
            let digit = 15 - digits.leading_zeros() as usize;
            digits &= !(1 << digit);
            let taken = missing.min(self.supply[digit] as i32);
            total += taken * digit as i32;
            missing -= taken;
        }
        total
    }
}

/// Where a node reads each line's values and the view narrowing: the upkeep's kept values
/// (`candidates=incremental`) or a bound table computed at the node, from which they are
/// recomputed (`candidates=recompute`). The node's code is generic over it, so each path
/// compiles to its own loop.
pub(super) trait LineSource {
    /// The values of one more cell of row `row`: with every pending cell of the row
    /// committed (`beside_pending`, for a cell that is not pending) or every other one.
    fn row(&self, model: &TwentyFourSevenModel, row: usize, beside_pending: bool) -> ValueSet;
    /// The same for column `column`.
    fn column(&self, model: &TwentyFourSevenModel, column: usize, beside_pending: bool) -> ValueSet;
    /// The cells that would complete a 2x2 block of the shape (filled and pending cells).
    fn closers(&self, model: &TwentyFourSevenModel) -> CellSet;
    /// The view narrowing of every open cell (`buffer` holds it when computed).
    fn narrowed<'a, C: RuleCounter>(
        &'a self,
        model: &TwentyFourSevenModel,
        buffer: &'a mut MaybeUninit<[ValueSet; MAX_CELLS]>,
        counters: &mut C,
    ) -> &'a [ValueSet; MAX_CELLS];
}

impl LineSource for BoundTable {
    #[inline(always)]
    fn row(&self, model: &TwentyFourSevenModel, row: usize, beside_pending: bool) -> ValueSet {
        model.row_values(row, model.row_pending[row] - !beside_pending as i32, self)
    }
    #[inline(always)]
    fn column(&self, model: &TwentyFourSevenModel, column: usize, beside_pending: bool) -> ValueSet {
        model.column_values(column, model.column_pending[column] - !beside_pending as i32, self)
    }
    #[inline(always)]
    fn closers(&self, model: &TwentyFourSevenModel) -> CellSet {
        model.shared.geometry.block_closers(model.shape())
    }
    #[inline(always)]
    fn narrowed<'a, C: RuleCounter>(
        &'a self,
        model: &TwentyFourSevenModel,
        buffer: &'a mut MaybeUninit<[ValueSet; MAX_CELLS]>,
        counters: &mut C,
    ) -> &'a [ValueSet; MAX_CELLS] {
        buffer.write(model.view_narrowing(counters))
    }
}

impl LineSource for Kept {
    #[inline(always)]
    fn row(&self, _: &TwentyFourSevenModel, row: usize, beside_pending: bool) -> ValueSet {
        let values = &self.rows[row];
        if beside_pending {
            values.beside_pending
        } else {
            values.among_pending
        }
    }
    #[inline(always)]
    fn column(&self, _: &TwentyFourSevenModel, column: usize, beside_pending: bool) -> ValueSet {
        let values = &self.columns[column];
        if beside_pending {
            values.beside_pending
        } else {
            values.among_pending
        }
    }
    #[inline(always)]
    fn closers(&self, _: &TwentyFourSevenModel) -> CellSet {
        self.closers
    }
    #[inline(always)]
    fn narrowed<'a, C: RuleCounter>(
        &'a self,
        _: &TwentyFourSevenModel,
        _: &'a mut MaybeUninit<[ValueSet; MAX_CELLS]>,
        _: &mut C,
    ) -> &'a [ValueSet; MAX_CELLS] {
        &self.narrowed
    }
}

/// `BITS_IN_BYTE[b]`: the number of set bits of `b` (the default x86-64 target has no
/// popcount instruction, and the software fallback costs more than a table lookup).
const BITS_IN_BYTE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = (byte as u8).count_ones() as u8;
        byte += 1;
    }
    table
};

/// The number of values in `values`.
#[inline(always)]
pub(super) fn value_count(values: ValueSet) -> u32 {
    (BITS_IN_BYTE[(values & 0xff) as usize] + BITS_IN_BYTE[(values >> 8) as usize]) as u32
}

/// Values `low..=high` as a set (empty when `low > high`); `1 <= low`, `high <= 15`.
#[inline(always)]
fn digit_range(low: i32, high: i32) -> ValueSet {
    if low > high {
        0
    } else {
        ((2u32 << high) - (1u32 << low)) as ValueSet
    }
}

impl TwentyFourSevenModel {
    /// Whether `rest` can be made of exactly `need` digits left (`need <= line_filled`).
    pub(super) fn total_reachable(&self, rest: i32, need: usize) -> bool {
        self.least(need) <= rest && rest <= self.most(need)
    }

    /// The bound table for the current supply.
    #[inline]
    pub(super) fn bound_table(&self) -> BoundTable {
        let wanted = self.shared.line_filled as usize;
        let mut table =
            BoundTable { least: [UNREACHABLE; Board::MAX_SIZE + 1], most: [-UNREACHABLE; Board::MAX_SIZE + 1] };
        table.least[0] = 0;
        table.most[0] = 0;
        let (mut taken, mut total, mut digits) = (0, 0, self.available & !1);
        while taken < wanted && digits != 0 {
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            for _ in 0..(self.supply[digit] as usize).min(wanted - taken) {
                taken += 1;
                total += digit as i32;
                table.least[taken] = total;
            }
        }
        let (mut taken, mut total, mut digits) = (0, 0, self.available & !1);
        while taken < wanted && digits != 0 {
            let digit = 15 - digits.leading_zeros() as usize;
            digits &= !(1 << digit);
            for _ in 0..(self.supply[digit] as usize).min(wanted - taken) {
                taken += 1;
                total += digit as i32;
                table.most[taken] = total;
            }
        }
        table
    }

    /// The values one more cell of a line may take, given the line's `count` of digits,
    /// their `sum`, its `open` cells (that cell included) and the `committed` ones among
    /// them (other pending cells, which will hold digits): empty only if enough open cells
    /// remain for the digits still needed; a digit only if the line still needs one more
    /// than it has committed and the rest of the line can still be completed to `line_sum`
    /// with digits left.
    #[inline(always)]
    pub(super) fn line_values(
        &self,
        count: i32,
        sum: i32,
        open: i32,
        committed: i32,
        bounds: &impl TotalBounds,
    ) -> ValueSet {
        let shared = &*self.shared;
        let need = shared.line_filled - count;
        let mut values = (open > need) as ValueSet;
        if need > committed.max(0) && need <= open {
            let rest = shared.line_sum - sum;
            let after = (need - 1) as usize;
            let low = (rest - bounds.most(after)).max(1);
            let high = (rest - bounds.least(after)).min(shared.max_value as i32);
            values |= digit_range(low, high);
        }
        values
    }

    /// The values of one more cell of row `row` with `committed` other pending cells (see
    /// [`TwentyFourSevenModel::line_values`]).
    #[inline(always)]
    pub(super) fn row_values(&self, row: usize, committed: i32, bounds: &impl TotalBounds) -> ValueSet {
        self.line_values(self.row_count[row], self.row_sum[row], self.row_open[row], committed, bounds)
    }

    /// The values of column `column` (see [`TwentyFourSevenModel::row_values`]).
    #[inline(always)]
    pub(super) fn column_values(&self, column: usize, committed: i32, bounds: &impl TotalBounds) -> ValueSet {
        let (count, sum, open) = (self.column_count[column], self.column_sum[column], self.column_open[column]);
        self.line_values(count, sum, open, committed, bounds)
    }

    /// The values that the clue of `side` allows at `cell`, the first cell that side can
    /// still see (all cells before it are empty): a digit there must be the clue; left
    /// empty, the first digit beyond it must be the clue or be still open.
    /// `line` is the cells of the clue's row or column.
    #[inline(always)]
    pub(super) fn view_values(&self, side: Side, line: CellSet, cell: usize, clue: u8) -> ValueSet {
        let geometry = &self.shared.geometry;
        let beyond = line & !geometry.before[side as usize][cell] & !(1u128 << cell);
        let filled_beyond = self.filled & beyond;
        let blocked = if filled_beyond == 0 {
            self.open & beyond == 0
        } else {
            let first = first_from(side, filled_beyond);
            self.open & beyond & geometry.before[side as usize][first] == 0 && self.value[first] != clue
        };
        (!blocked) as ValueSet | (1 << clue)
    }

    /// The values open cell `cell` may take under the derived rules.
    #[inline]
    pub(super) fn candidates<C: RuleCounter>(&self, cell: usize, counters: &mut C) -> ValueSet {
        let shared = &*self.shared;
        let geometry = &shared.geometry;
        counters.check(RULE_LINE_COUNT);
        counters.check(RULE_LINE_SUM);
        let (row, column) = (geometry.row_of[cell] as usize, geometry.column_of[cell] as usize);
        let itself = (self.pending >> cell) as i32 & 1;
        let mut values = self.available
            & self.row_values(row, self.row_pending[row] - itself, self)
            & self.column_values(column, self.column_pending[column] - itself, self);
        counters.check(RULE_TWO_BY_TWO);
        if values > 1 && geometry.completes_block(cell, self.shape()) {
            values &= 1;
        }
        let decided_filled_or_open = self.filled | self.open;
        let mut sides = shared.clue_sides[cell];
        while sides != 0 {
            let side = Side::ALL[sides.trailing_zeros() as usize];
            sides &= sides - 1;
            // Only when nothing may still stand between the side and the cell.
            if decided_filled_or_open & geometry.before[side as usize][cell] == 0 {
                counters.check(RULE_VIEW);
                values &= self.view_values(side, geometry.line_through(side, cell), cell, shared.cell_clue(side, cell));
            }
        }
        values
    }

    /// The values the view clues leave each open cell (all values for most): only the first
    /// cell a clue can still see, an open one, is narrowed by it.
    #[inline]
    pub(super) fn view_narrowing<C: RuleCounter>(&self, counters: &mut C) -> [ValueSet; MAX_CELLS] {
        let mut narrowed = [ValueSet::MAX; MAX_CELLS];
        let decided_filled_or_open = self.filled | self.open;
        for view in &self.shared.view_clues {
            let seen = decided_filled_or_open & view.line;
            if seen == 0 {
                continue;
            }
            let first = first_from(view.side, seen);
            if self.open & (1u128 << first) != 0 {
                counters.check(RULE_VIEW);
                narrowed[first] &= self.view_values(view.side, view.line, first, view.clue);
            }
        }
        narrowed
    }

    /// The open cell with the fewest candidate values (the first in row-major order among
    /// equals), and its candidates; stops early at a cell with none or one.
    pub(super) fn most_constrained<C: RuleCounter>(&self, counters: &mut C) -> (usize, ValueSet) {
        counters.check(RULE_TWO_BY_TWO);
        // The kept closers are those of the shape: the same open ones, as no cell is
        // pending here but in the digits phase of shape-first, where no open cell closes a
        // block of digits (its pattern move would have closed one of the shape).
        let closers = match &self.upkeep {
            Some(upkeep) => upkeep.now.closers,
            None => self.shared.geometry.block_closers(self.filled),
        } & self.open;
        if closers != 0 {
            // A cell that would complete a full block can only stay empty: at most one value.
            let cell = closers.trailing_zeros() as usize;
            return (cell, self.candidates(cell, counters));
        }
        match &self.upkeep {
            Some(upkeep) => self.most_constrained_from(&upkeep.now, counters),
            None => self.most_constrained_from(&self.bound_table(), counters),
        }
    }

    /// [`TwentyFourSevenModel::most_constrained`] past the blocks, reading `source`.
    #[inline(always)]
    fn most_constrained_from<C: RuleCounter>(&self, source: &impl LineSource, counters: &mut C) -> (usize, ValueSet) {
        let geometry = &self.shared.geometry;
        let size = geometry.size;
        let mut rows = [0; Board::MAX_SIZE];
        let mut columns = [0; Board::MAX_SIZE];
        for line in 0..size {
            counters.check(RULE_LINE_COUNT);
            counters.check(RULE_LINE_SUM);
            // Every open cell is pending (digits phase) or none is (cell branching): the
            // line's other pending cells are committed.
            rows[line] = self.available & source.row(self, line, false);
            columns[line] = self.available & source.column(self, line, false);
            // A line that allows no digit leaves its open cells at most one value each.
            let row_open = self.open & geometry.row_mask[line];
            if rows[line] <= 1 && row_open != 0 {
                let cell = row_open.trailing_zeros() as usize;
                return (cell, self.candidates(cell, counters));
            }
            let column_open = self.open & geometry.column_mask[line];
            if columns[line] <= 1 && column_open != 0 {
                let cell = column_open.trailing_zeros() as usize;
                return (cell, self.candidates(cell, counters));
            }
        }
        let mut buffer = MaybeUninit::uninit();
        let narrowed = source.narrowed(self, &mut buffer, counters);
        let (mut best_cell, mut best_values, mut best_size) = (0, 0, u32::MAX);
        let found = geometry.try_each_cell(self.open, |row, column, cell| {
            let values = rows[row] & columns[column] & narrowed[cell];
            let count = value_count(values);
            if count <= 1 {
                return ControlFlow::Break((cell, values));
            }
            if count < best_size {
                (best_cell, best_values, best_size) = (cell, values, count);
            }
            ControlFlow::Continue(())
        });
        match found {
            ControlFlow::Break(decision) => decision,
            ControlFlow::Continue(()) => (best_cell, best_values),
        }
    }
}
