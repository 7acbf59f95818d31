//! The pattern phase of shape-first branching: which undecided cell to decide filled or
//! empty next, and which of the two the rules still allow there.
//!
//! The options of a cell come from the same derived rules as a cell's values (`candidates.rs`):
//! empty needs enough open cells left in its lines and a view clue that can still be met;
//! filled needs a line that still lacks a filled cell, a digit the line sums and the supply
//! allow, no full 2x2 block and, under incremental connectivity, a cell the filled group
//! can still reach.

use super::candidates::LineSource;
use super::config::Rules;
use super::model::{
    ShapeDecision, TwentyFourSevenModel, RULE_CONNECTIVITY, RULE_LINE_COUNT, RULE_LINE_SUM, RULE_TWO_BY_TWO,
};
use crate::puzzles::grid::{Board, ConnectivityCheck};
use crate::search::RuleCounter;
use std::mem::MaybeUninit;
use std::ops::ControlFlow;

impl TwentyFourSevenModel {
    /// The next decision of the pattern phase. A pending cell with one digit left (or
    /// none) comes first, as a [`ShapeDecision::Digit`]; else the undecided cell with at
    /// most one option, else the one whose row or column has the fewest spare undecided
    /// cells, as a [`ShapeDecision::Pattern`].
    pub(super) fn pattern_decision<C: RuleCounter>(&self, counters: &mut C) -> ShapeDecision {
        let undecided = self.open & !self.pending;
        if self.shared.config.rules == Rules::Strict {
            return ShapeDecision::Pattern(undecided.trailing_zeros() as usize, self.available);
        }
        match &self.upkeep {
            Some(upkeep) => self.pattern_decision_from(&upkeep.now, counters),
            None => self.pattern_decision_from(&self.bound_table(), counters),
        }
    }

    /// [`TwentyFourSevenModel::pattern_decision`] under derived rules, reading `source`.
    #[inline(always)]
    fn pattern_decision_from<C: RuleCounter>(&self, source: &impl LineSource, counters: &mut C) -> ShapeDecision {
        let undecided = self.open & !self.pending;
        let shared = &*self.shared;
        let geometry = &shared.geometry;
        let size = geometry.size;
        let mut rows = [0; Board::MAX_SIZE];
        let mut columns = [0; Board::MAX_SIZE];
        let mut row_digits = [0; Board::MAX_SIZE];
        let mut column_digits = [0; Board::MAX_SIZE];
        let mut row_spare = [0; Board::MAX_SIZE];
        let mut column_spare = [0; Board::MAX_SIZE];
        for line in 0..size {
            counters.check(RULE_LINE_COUNT);
            counters.check(RULE_LINE_SUM);
            rows[line] = self.available & source.row(self, line, true);
            columns[line] = self.available & source.column(self, line, true);
            // For a pending cell of the line: the other pending cells are committed.
            row_digits[line] = self.available & !1 & source.row(self, line, false);
            column_digits[line] = self.available & !1 & source.column(self, line, false);
            let need = shared.line_filled - self.row_count[line] - self.row_pending[line];
            row_spare[line] = self.row_open[line] - self.row_pending[line] - need;
            let need = shared.line_filled - self.column_count[line] - self.column_pending[line];
            column_spare[line] = self.column_open[line] - self.column_pending[line] - need;
        }
        let mut buffer = MaybeUninit::uninit();
        let narrowed = source.narrowed(self, &mut buffer, counters);
        let forced_digit = geometry.try_each_cell(self.pending, |row, column, cell| {
            let digits = row_digits[row] & column_digits[column] & narrowed[cell];
            if digits & digits.wrapping_sub(1) == 0 {
                return ControlFlow::Break(ShapeDecision::Digit(cell, digits));
            }
            ControlFlow::Continue(())
        });
        if let ControlFlow::Break(decision) = forced_digit {
            return decision;
        }
        counters.check(RULE_TWO_BY_TWO);
        let mut empty_only = source.closers(self);
        if shared.config.connectivity == ConnectivityCheck::Incremental && self.reach != 0 {
            counters.check(RULE_CONNECTIVITY);
            empty_only |= !self.reach;
        }
        // A cell that can only stay empty has at most one option: the scan stops at the
        // first one, if it gets that far.
        let forced = empty_only & undecided;
        let before_forced = if forced == 0 { undecided } else { undecided & ((forced & forced.wrapping_neg()) - 1) };
        let (mut best_cell, mut best_options, mut best_spare) = (0, 0, i32::MAX);
        let found = geometry.try_each_cell(before_forced, |row, column, cell| {
            let options = rows[row] & columns[column] & narrowed[cell];
            // Filled only, empty only or nothing: one option at most.
            if options & 1 == 0 || options == 1 {
                return ControlFlow::Break(ShapeDecision::Pattern(cell, options));
            }
            let spare = row_spare[row].min(column_spare[column]);
            if spare < best_spare {
                (best_cell, best_options, best_spare) = (cell, options, spare);
            }
            ControlFlow::Continue(())
        });
        if let ControlFlow::Break(decision) = found {
            return decision;
        }
        if forced != 0 {
            let cell = forced.trailing_zeros() as usize;
            let (row, column) = (geometry.row_of[cell] as usize, geometry.column_of[cell] as usize);
            return ShapeDecision::Pattern(cell, rows[row] & columns[column] & narrowed[cell] & 1);
        }
        ShapeDecision::Pattern(best_cell, best_options)
    }
}
