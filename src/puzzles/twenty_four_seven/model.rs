//! The search state of one grid and its [`Model`] implementation: one decision per open
//! cell (empty or a digit), givens placed at the root.

use super::config::{Rules, TwentyFourSevenConfig, VisitOrder};
use super::cursor::{next_placement, pattern_cursor, values_cursor};
use super::geometry::{first_from, Geometry, Side, MAX_CELLS};
use super::kept::Upkeep;
pub use super::placement::Placement;
use super::values::{ValueSet, FILL, MAX_DIGIT};
use crate::puzzles::grid::{Board, CellSet, ConnectivityCheck};
use crate::search::{Model, MoveCursor, Opened, RuleCounter, RuleId};
use std::sync::Arc;

/// A row or column does not hold `line_filled` digits.
pub const RULE_LINE_COUNT: RuleId = 0;
/// A row or column does not sum to `line_sum`.
pub const RULE_LINE_SUM: RuleId = 1;
/// A view clue does not see its value first.
pub const RULE_VIEW: RuleId = 2;
/// A 2x2 block is completely filled.
pub const RULE_TWO_BY_TWO: RuleId = 3;
/// The filled cells cannot (or do not) form one connected group.
pub const RULE_CONNECTIVITY: RuleId = 4;
/// The givens use more copies of a digit than the supply, or the supply cannot fill the lines.
pub const RULE_SUPPLY: RuleId = 5;
/// The next cell has no value left that the derived rules allow.
pub const RULE_NO_CANDIDATE: RuleId = 6;
/// The rule names, indexed by the constants above.
pub const RULE_NAMES: &[&str] =
    &["line-count", "line-sum", "view-clue", "two-by-two", "connectivity", "digit-supply", "no-candidate"];

/// A decision of the pattern phase of `shape-first` (see `pattern.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ShapeDecision {
    /// Decide the cell filled or empty: bit 0 of the set allows empty, any digit filled.
    Pattern(usize, ValueSet),
    /// Give a pending cell one of these digits (at most one: a forced digit or a dead end).
    Digit(usize, ValueSet),
}

/// What every node of one grid's search reads and never changes (a model's `shared`), as
/// `Shared` is in the other families.
#[derive(Debug)]
pub(super) struct Shared {
    /// The grid's masks.
    pub geometry: Geometry,
    /// Filled cells per line.
    pub line_filled: i32,
    /// Sum per line.
    pub line_sum: i32,
    /// The largest digit.
    pub max_value: usize,
    /// `clue[side as usize][line]`, 0 = none.
    pub clue: [[u8; Board::MAX_SIZE]; 4],
    /// `clue_sides[cell]`: bit `side as usize` is set when the cell's row or column has a
    /// clue on that side.
    pub clue_sides: [u8; MAX_CELLS],
    /// The non-zero clues, side by side and line by line, each with its line's cells: what
    /// a node's view narrowing walks instead of every side and line.
    pub view_clues: Vec<ViewClue>,
    /// The open cells at the root in the static visiting order (all of them, in row-major
    /// order, for the dynamic order, where it only sizes the tree).
    pub visit: Vec<u8>,
    /// The given cells.
    pub given: CellSet,
    /// The knobs.
    pub config: TwentyFourSevenConfig,
}

impl Shared {
    /// The clue of `side` on the line through `cell` (0 = none).
    #[inline(always)]
    pub fn cell_clue(&self, side: Side, cell: usize) -> u8 {
        let geometry = &self.geometry;
        let line = if side.along_column() { geometry.column_of[cell] } else { geometry.row_of[cell] };
        self.clue[side as usize][line as usize]
    }

    /// `clue_sides` for the clues in `clue`.
    pub fn clue_sides(geometry: &Geometry, clue: &[[u8; Board::MAX_SIZE]; 4]) -> [u8; MAX_CELLS] {
        let mut sides = [0u8; MAX_CELLS];
        for (cell, bits) in sides.iter_mut().enumerate().take(geometry.size * geometry.size) {
            for side in Side::ALL {
                let line = if side.along_column() { geometry.column_of[cell] } else { geometry.row_of[cell] };
                if clue[side as usize][line as usize] != 0 {
                    *bits |= 1 << side as usize;
                }
            }
        }
        sides
    }

    /// `view_clues` for the clues in `clue`.
    pub fn view_clues(geometry: &Geometry, clue: &[[u8; Board::MAX_SIZE]; 4]) -> Vec<ViewClue> {
        let mut views = Vec::new();
        for side in Side::ALL {
            for (line, &value) in clue[side as usize].iter().enumerate().take(geometry.size) {
                if value != 0 {
                    let line = if side.along_column() { geometry.column_mask[line] } else { geometry.row_mask[line] };
                    views.push(ViewClue { side, clue: value, line });
                }
            }
        }
        views
    }
}

/// A view clue with the cells of its row or column.
#[derive(Debug, Clone, Copy)]
pub(super) struct ViewClue {
    /// The side it looks in from.
    pub side: Side,
    /// The value it must see first.
    pub clue: u8,
    /// The cells of its row or column.
    pub line: CellSet,
}

/// The state of one grid: decided and open cells, line tallies and the digits left.
///
/// A rejected move leaves it as it was (`REJECTS_BEFORE_CHANGING`): callgrind, `solve
/// instances/twenty_four_seven_2x2_2.json --all`, 11.71 M instructions against 11.87 M
/// (0.8% fewer without rule counts). Its moves come from a cursor, but it does not declare
/// `LAZY_MOVES`: on `twenty_four_seven_enumeration.json` the engine's lazy path took 1.2%
/// more with rule counts (570.0 M against 563.2 M), 1.3% fewer without.
#[derive(Debug, Clone)]
pub struct TwentyFourSevenModel {
    pub(super) shared: Arc<Shared>,
    /// Value per cell (0 for empty and for open cells).
    pub(super) value: [u8; MAX_CELLS],
    /// Cells holding a digit.
    pub(super) filled: CellSet,
    /// Cells whose value is not decided yet (`pending` cells included).
    pub(super) open: CellSet,
    /// Open cells that a shape-first pattern move has filled: a digit is still to choose.
    pub(super) pending: CellSet,
    /// Pending cells per row and column.
    pub(super) row_pending: [i32; Board::MAX_SIZE],
    /// See `row_pending`.
    pub(super) column_pending: [i32; Board::MAX_SIZE],
    pub(super) row_count: [i32; Board::MAX_SIZE],
    pub(super) row_sum: [i32; Board::MAX_SIZE],
    pub(super) column_count: [i32; Board::MAX_SIZE],
    pub(super) column_sum: [i32; Board::MAX_SIZE],
    /// Open cells per row and column.
    pub(super) row_open: [i32; Board::MAX_SIZE],
    /// See `row_open`.
    pub(super) column_open: [i32; Board::MAX_SIZE],
    /// Copies of each digit not placed yet.
    pub(super) supply: [u8; MAX_DIGIT + 1],
    /// Bit 0 (empty) and the digits whose supply is not exhausted.
    pub(super) available: ValueSet,
    /// Decisions made since the root.
    pub(super) depth: usize,
    /// The cells the filled cells reach through filled or open cells (kept by the
    /// `incremental` connectivity check; see `connect.rs`).
    pub(super) reach: CellSet,
    /// `reach` before the move made at each depth, for undo.
    saved_reach: Vec<CellSet>,
    /// Why the root itself has no solution, if it has none.
    root_failure: Option<RuleId>,
    /// The value sets kept up to date under `candidates=incremental` (see `upkeep.rs`);
    /// `None` when the configuration recomputes them or has none to keep.
    pub(super) upkeep: Option<Upkeep>,
}

impl TwentyFourSevenModel {
    /// The root state: givens placed, then checked against every rule that can already be
    /// decided (a state the search never leaves unchecked). `supply_fits` says whether the
    /// digit supply can fill the lines at all (see `InstanceData::supply_fits_lines`).
    pub(super) fn new(shared: Arc<Shared>, givens: &[u16], supply_fits: bool) -> TwentyFourSevenModel {
        debug_assert!(shared.config.order != VisitOrder::Adaptive, "resolved per grid before the model is built");
        let all = shared.geometry.board.all();
        let mut model = TwentyFourSevenModel {
            shared,
            value: [0; MAX_CELLS],
            filled: 0,
            open: all,
            pending: 0,
            row_pending: [0; Board::MAX_SIZE],
            column_pending: [0; Board::MAX_SIZE],
            row_count: [0; Board::MAX_SIZE],
            row_sum: [0; Board::MAX_SIZE],
            column_count: [0; Board::MAX_SIZE],
            column_sum: [0; Board::MAX_SIZE],
            row_open: [0; Board::MAX_SIZE],
            column_open: [0; Board::MAX_SIZE],
            supply: [0; MAX_DIGIT + 1],
            available: 1,
            depth: 0,
            reach: 0,
            saved_reach: Vec::new(),
            root_failure: None,
            upkeep: None,
        };
        let size = model.shared.geometry.size;
        model.row_open[..size].fill(size as i32);
        model.column_open[..size].fill(size as i32);
        // A consistent supply has at most 121 digits, so max_value <= 15 whenever it fits.
        if !supply_fits || model.shared.max_value > MAX_DIGIT {
            model.root_failure = Some(RULE_SUPPLY);
            return model;
        }
        for digit in 1..=model.shared.max_value {
            model.supply[digit] = digit as u8;
            model.available |= 1 << digit;
        }
        for (cell, &given) in givens.iter().enumerate() {
            if given == 0 {
                continue;
            }
            if model.supply[given as usize] == 0 {
                model.root_failure = Some(RULE_SUPPLY);
                return model;
            }
            model.place(cell, given as u8);
        }
        model.root_failure = model.check_root();
        model.reach = model.initial_reach();
        model.saved_reach = vec![0; model.max_depth() + 1];
        if model.shared.config.keeps_candidates() && model.root_failure.is_none() {
            model.start_upkeep(model.max_depth());
        }
        model
    }

    /// Everything this state holds but the grid's fixed data, as text: what a test
    /// compares before and after a rejected move.
    #[cfg(test)]
    pub(super) fn state_text(&self) -> String {
        // Every field named, so that a new one is not left out unnoticed.
        let TwentyFourSevenModel {
            shared: _,
            value,
            filled,
            open,
            pending,
            row_pending,
            column_pending,
            row_count,
            row_sum,
            column_count,
            column_sum,
            row_open,
            column_open,
            supply,
            available,
            depth,
            reach,
            saved_reach,
            root_failure,
            upkeep,
        } = self;
        let cells = (value, filled, open, pending, supply, available, depth, reach, saved_reach, root_failure);
        let lines = (row_pending, column_pending, row_count, row_sum, column_count, column_sum, row_open, column_open);
        format!("{cells:?} {lines:?} {upkeep:?}")
    }

    /// The cells that are or will be filled: digits and pending cells.
    #[inline(always)]
    pub(super) fn shape(&self) -> CellSet {
        self.filled | self.pending
    }

    /// Marks `cell` decided with `value` and updates the tallies ([`FILL`] only marks it
    /// pending; a digit on a pending cell ends its pending state).
    #[inline(always)]
    fn place(&mut self, cell: usize, value: u8) {
        let bit = 1u128 << cell;
        let row = self.shared.geometry.row_of[cell] as usize;
        let column = self.shared.geometry.column_of[cell] as usize;
        if value == FILL {
            self.set_pending(bit, row, column, 1);
            return;
        }
        if self.pending & bit != 0 {
            debug_assert!(value != 0, "a pending cell gets a digit");
            self.set_pending(bit, row, column, -1);
        }
        self.open &= !bit;
        self.row_open[row] -= 1;
        self.column_open[column] -= 1;
        if value != 0 {
            let digit = value as usize;
            self.filled |= bit;
            self.value[cell] = value;
            self.row_count[row] += 1;
            self.row_sum[row] += value as i32;
            self.column_count[column] += 1;
            self.column_sum[column] += value as i32;
            self.supply[digit] -= 1;
            if self.supply[digit] == 0 {
                self.available &= !(1 << digit);
            }
        }
    }

    /// Adds (`step` = 1) or removes (`step` = -1) pending cell `bit`.
    #[inline(always)]
    fn set_pending(&mut self, bit: CellSet, row: usize, column: usize, step: i32) {
        self.pending ^= bit;
        self.row_pending[row] += step;
        self.column_pending[column] += step;
    }

    /// Reverts [`TwentyFourSevenModel::place`] (under shape-first branching every digit that is
    /// undone was placed on a pending cell).
    #[inline(always)]
    fn unplace(&mut self, cell: usize, value: u8) {
        let bit = 1u128 << cell;
        let row = self.shared.geometry.row_of[cell] as usize;
        let column = self.shared.geometry.column_of[cell] as usize;
        if value == FILL {
            self.set_pending(bit, row, column, -1);
            return;
        }
        if value != 0 && self.shared.config.order == VisitOrder::ShapeFirst {
            self.set_pending(bit, row, column, 1);
        }
        self.open |= bit;
        self.row_open[row] += 1;
        self.column_open[column] += 1;
        if value != 0 {
            let digit = value as usize;
            self.filled &= !bit;
            self.value[cell] = 0;
            self.row_count[row] -= 1;
            self.row_sum[row] -= value as i32;
            self.column_count[column] -= 1;
            self.column_sum[column] -= value as i32;
            self.supply[digit] += 1;
            self.available |= 1 << digit;
        }
    }

    /// Every rule that a partial grid can already break, on all lines and cells: run once,
    /// at the root, so that the search starts from a state that breaks none of them (the
    /// incremental rules then only look at what each move changes).
    fn check_root(&self) -> Option<RuleId> {
        let shared = &*self.shared;
        let geometry = &shared.geometry;
        for line in 0..geometry.size {
            let tallies = [
                (self.row_count[line], self.row_sum[line], self.row_open[line]),
                (self.column_count[line], self.column_sum[line], self.column_open[line]),
            ];
            for (count, sum, open) in tallies {
                if count > shared.line_filled || count + open < shared.line_filled {
                    return Some(RULE_LINE_COUNT);
                }
                if !self.total_reachable(shared.line_sum - sum, (shared.line_filled - count) as usize) {
                    return Some(RULE_LINE_SUM);
                }
            }
            for side in Side::ALL {
                let clue = shared.clue[side as usize][line];
                if clue == 0 {
                    continue;
                }
                let mask = if side.along_column() { geometry.column_mask[line] } else { geometry.row_mask[line] };
                let filled = self.filled & mask;
                if filled == 0 {
                    if self.open & mask == 0 {
                        return Some(RULE_VIEW);
                    }
                    continue;
                }
                let first = first_from(side, filled);
                if self.open & geometry.before[side as usize][first] == 0 && self.value[first] != clue {
                    return Some(RULE_VIEW);
                }
            }
        }
        let mut filled = self.filled;
        while filled != 0 {
            let cell = filled.trailing_zeros() as usize;
            filled &= filled - 1;
            if geometry.completes_block(cell, self.filled) {
                return Some(RULE_TWO_BY_TWO);
            }
        }
        if !geometry.board.may_still_connect(self.filled, self.open) {
            return Some(RULE_CONNECTIVITY);
        }
        None
    }

    /// The rules a `strict` search checks after a move: the complete 2x2 blocks and the
    /// rows and columns whose last cell the move decided.
    fn check_strict<C: RuleCounter>(&self, cell: usize, value: u8, counters: &mut C) -> Result<(), RuleId> {
        let geometry = &self.shared.geometry;
        if value != 0 {
            counters.check(RULE_TWO_BY_TWO);
            if geometry.completes_block(cell, self.shape()) {
                return Err(RULE_TWO_BY_TWO);
            }
        }
        let row = geometry.row_of[cell] as usize;
        if self.row_open[row] == 0 {
            self.check_complete_line(row, self.row_count[row], self.row_sum[row], [Side::West, Side::East], counters)?;
        }
        let column = geometry.column_of[cell] as usize;
        if self.column_open[column] == 0 {
            let (count, sum) = (self.column_count[column], self.column_sum[column]);
            self.check_complete_line(column, count, sum, [Side::North, Side::South], counters)?;
        }
        Ok(())
    }

    /// Checks a line with no open cell: its count, its sum and the clues at its two ends.
    fn check_complete_line<C: RuleCounter>(
        &self,
        line: usize,
        count: i32,
        sum: i32,
        ends: [Side; 2],
        counters: &mut C,
    ) -> Result<(), RuleId> {
        let shared = &*self.shared;
        counters.check(RULE_LINE_COUNT);
        if count != shared.line_filled {
            return Err(RULE_LINE_COUNT);
        }
        counters.check(RULE_LINE_SUM);
        if sum != shared.line_sum {
            return Err(RULE_LINE_SUM);
        }
        for side in ends {
            let clue = shared.clue[side as usize][line];
            if clue == 0 {
                continue;
            }
            counters.check(RULE_VIEW);
            let mask =
                if side.along_column() { shared.geometry.column_mask[line] } else { shared.geometry.row_mask[line] };
            let filled = self.filled & mask;
            if filled == 0 || self.value[first_from(side, filled)] != clue {
                return Err(RULE_VIEW);
            }
        }
        Ok(())
    }

    /// The connectivity rule after deciding `cell`, at the moments the knob asks for.
    #[inline]
    fn check_connectivity<C: RuleCounter>(&mut self, cell: usize, value: u8, counters: &mut C) -> Result<(), RuleId> {
        let whole_grid = match self.shared.config.connectivity {
            ConnectivityCheck::Incremental => {
                counters.check(RULE_CONNECTIVITY);
                return if self.keep_connected(cell, value) { Ok(()) } else { Err(RULE_CONNECTIVITY) };
            }
            ConnectivityCheck::EveryNode => true,
            // The complete grid is always checked: the knob only says how early.
            ConnectivityCheck::Periodic(period) => self.open == 0 || self.depth.is_multiple_of(period as usize),
            ConnectivityCheck::Leaves => self.open == 0,
        };
        if whole_grid {
            counters.check(RULE_CONNECTIVITY);
            if !self.shared.geometry.board.may_still_connect(self.shape(), self.open) {
                return Err(RULE_CONNECTIVITY);
            }
        }
        Ok(())
    }

    /// The cell to decide next and its candidate values.
    #[inline]
    fn next_decision<C: RuleCounter>(&self, counters: &mut C) -> (usize, ValueSet) {
        let shared = &*self.shared;
        match (shared.config.order, shared.config.rules) {
            (VisitOrder::MostConstrained | VisitOrder::ShapeFirst, Rules::Derived) => self.most_constrained(counters),
            // Under strict rules every open cell has the same candidates: the first one.
            (VisitOrder::MostConstrained, Rules::Strict) => (self.open.trailing_zeros() as usize, self.available),
            // The digits phase: every open cell is pending, so a digit.
            (VisitOrder::ShapeFirst, Rules::Strict) => (self.open.trailing_zeros() as usize, self.available & !1),
            (_, Rules::Strict) => (shared.visit[self.depth] as usize, self.available),
            (_, Rules::Derived) => {
                let cell = shared.visit[self.depth] as usize;
                (cell, self.candidates(cell, counters))
            }
        }
    }
}

impl Model for TwentyFourSevenModel {
    type Move = Placement;
    type Solution = Vec<u8>;
    const REJECTS_BEFORE_CHANGING: bool = true;

    fn rule_names(&self) -> &[&'static str] {
        RULE_NAMES
    }

    fn max_depth(&self) -> usize {
        match self.shared.config.order {
            // A pattern move per open cell, then a digit per filled one.
            VisitOrder::ShapeFirst => 2 * self.shared.visit.len(),
            _ => self.shared.visit.len(),
        }
    }

    #[inline]
    fn open<C: RuleCounter>(&mut self, counters: &mut C) -> Opened {
        if let Some(rule) = self.root_failure {
            return Opened::DeadEnd(rule);
        }
        if self.open == 0 {
            // Every rule was checked as the cells were decided (and the givens at the root).
            return Opened::Solution;
        }
        if self.shared.config.order == VisitOrder::ShapeFirst && self.open != self.pending {
            return match self.pattern_decision(counters) {
                ShapeDecision::Pattern(_, 0) => Opened::DeadEnd(RULE_NO_CANDIDATE),
                ShapeDecision::Pattern(cell, options) => Opened::Moves(pattern_cursor(cell, options)),
                ShapeDecision::Digit(cell, digits) => open_values(cell, digits),
            };
        }
        let (cell, values) = self.next_decision(counters);
        open_values(cell, values)
    }

    #[inline(always)]
    fn next_move(&self, cursor: &mut MoveCursor) -> Option<Placement> {
        next_placement(cursor)
    }

    /// The checks read only what `place` changed, so they run before the kept value sets
    /// are brought up to date: a rejected move restores the tallies and `reach` and never
    /// touches the value sets or the saved `reach`.
    #[inline]
    fn apply<C: RuleCounter>(&mut self, mv: Placement, counters: &mut C) -> Result<(), RuleId> {
        let cell = mv.cell as usize;
        let depth = self.depth;
        let reach = self.reach;
        self.place(cell, mv.value);
        self.depth += 1;
        let strict = if self.shared.config.rules == Rules::Strict {
            self.check_strict(cell, mv.value, counters)
        } else {
            Ok(())
        };
        if let Err(rule) = strict.and_then(|()| self.check_connectivity(cell, mv.value, counters)) {
            self.unplace(cell, mv.value);
            self.depth = depth;
            self.reach = reach;
            return Err(rule);
        }
        self.saved_reach[depth] = reach;
        self.keep_up(cell, mv.value, depth);
        Ok(())
    }

    #[inline]
    fn undo(&mut self, mv: Placement) {
        self.unplace(mv.cell as usize, mv.value);
        self.depth -= 1;
        self.reach = self.saved_reach[self.depth];
        self.restore_upkeep(self.depth);
    }

    fn solution(&self) -> Vec<u8> {
        let cells = self.shared.geometry.size * self.shared.geometry.size;
        self.value[..cells].to_vec()
    }

    /// Reuses `into`'s buffer: a solution that is only counted allocates nothing.
    #[inline]
    fn write_solution(&self, into: &mut Vec<u8>) {
        let cells = self.shared.geometry.size * self.shared.geometry.size;
        into.clear();
        into.extend_from_slice(&self.value[..cells]);
    }
}

/// The moves giving `cell` each value of `values`; a dead end when there is none.
#[inline(always)]
fn open_values(cell: usize, values: ValueSet) -> Opened {
    if values == 0 {
        return Opened::DeadEnd(RULE_NO_CANDIDATE);
    }
    Opened::Moves(values_cursor(cell, values))
}
