//! What `candidates=incremental` keeps at a node and the trail that undoes it: plain
//! data, which `upkeep.rs` brings up to date move by move and `candidates.rs` reads.
//!
//! The types live apart from the code that fills them so that the model can hold an
//! [`Upkeep`] without importing the file that names the model.

use super::bounds::BoundTable;
use super::geometry::MAX_CELLS;
use super::values::ValueSet;
use crate::puzzles::grid::{Board, CellSet};

/// No open cell is a clue's first: its view narrows nothing.
pub(super) const NO_TARGET: u8 = u8::MAX;

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

/// What one view clue narrows.
#[derive(Debug, Clone, Copy)]
pub(super) struct ViewState {
    /// The clue's first cell if it is open, else [`NO_TARGET`].
    pub target: u8,
    /// The values the clue leaves its target.
    pub mask: ValueSet,
    /// The positions along the line (column of a row's cell, row of a column's) whose
    /// decision can change `target` or `mask`.
    pub watch: u16,
}

/// The values kept at the current node.
#[derive(Debug, Clone)]
pub(super) struct Kept {
    /// The bound table of the digits left.
    pub bounds: BoundTable,
    /// Which digits can move the bounds a line reads.
    pub thresholds: Thresholds,
    /// Per row.
    pub rows: [LineValues; Board::MAX_SIZE],
    /// Per column.
    pub columns: [LineValues; Board::MAX_SIZE],
    /// `narrowed[cell]`: the values the view clues whose first open cell it is leave it
    /// (all values for other cells), as `view_narrowing` computes them.
    pub narrowed: [ValueSet; MAX_CELLS],
    /// `views[side][line]`.
    pub views: [[ViewState; Board::MAX_SIZE]; 4],
    /// The cells that would complete a 2x2 block of the shape (filled and pending cells):
    /// `Geometry::block_closers` of the shape.
    pub closers: CellSet,
}

/// The digits whose placing can change a bound that a line reads (`k < line_filled`):
/// those among the `line_filled - 1` smallest or largest left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Thresholds {
    /// The largest digit among the `line_filled - 1` smallest left (16 when fewer are left).
    pub least_top: u8,
    /// How many digits left are smaller than `least_top`.
    pub least_below: u8,
    /// The smallest digit among the `line_filled - 1` largest left (0 when fewer are left).
    pub most_bottom: u8,
    /// How many digits left are larger than `most_bottom`.
    pub most_above: u8,
}

impl Thresholds {
    /// Whether placing `digit`, which leaves `left` copies of it, changes the `read`
    /// smallest or largest digits left: a digit beyond the thresholds does not, nor does
    /// one at a threshold whose copies left still fill the count.
    #[inline(always)]
    pub(super) fn moved_by(&self, digit: u8, left: u8, read: u32) -> bool {
        digit < self.least_top
            || digit > self.most_bottom
            || (digit == self.least_top && u32::from(self.least_below + left) < read)
            || (digit == self.most_bottom && u32::from(self.most_above + left) < read)
    }
}

/// A kept value as it was before a move overwrote it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Change {
    Row(u8, LineValues),
    Column(u8, LineValues),
    /// A row and a column, as a move changes them.
    Lines(u8, u8, LineValues, LineValues),
    View(u8, u8, ViewState),
    Narrowed(u8, ValueSet),
    /// The bound table and its thresholds, on `saved_bounds`.
    Bounds,
    /// The block closers, on `saved_closers`.
    Closers,
}

/// The kept values and the trail that undoes the moves on the path.
#[derive(Debug, Clone)]
pub(super) struct Upkeep {
    /// At the current node.
    pub now: Kept,
    /// What the moves on the path overwrote, oldest first.
    pub trail: Vec<Change>,
    /// `marks[depth]`: the trail's length before the move made at that depth.
    pub marks: Vec<u32>,
    pub saved_bounds: Vec<(BoundTable, Thresholds)>,
    pub saved_closers: Vec<CellSet>,
    /// Whether the pattern phase reads `beside_pending` (shape-first order, where digits
    /// go only on pending cells; otherwise no cell is pending and a digit fills the shape).
    pub shape_first: bool,
}
