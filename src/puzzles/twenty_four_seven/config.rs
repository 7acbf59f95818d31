//! The knobs of Twenty Four Seven as plain enums.

use crate::puzzles::grid::{CellOrder, ConnectivityCheck};

knob_enum! {
    /// The order in which open cells are decided.
    pub enum VisitOrder {
        /// Row by row from the top (a fixed order).
        RowMajor = "row-major",
        /// Column by column from the left (a fixed order).
        ColumnMajor = "column-major",
        /// Outside in, as the C++ post (a fixed order).
        Spiral = "spiral",
        /// At every node, the open cell with the fewest values the rules allow (under `strict`
        /// rules all open cells tie, and the first in row-major order is taken).
        MostConstrained = "most-constrained",
        /// Shape first: decide every open cell's filled/empty pattern before any digit (at
        /// each node the undecided cell with the fewest pattern choices, ties to the tightest
        /// line), then the digits of the filled cells, most constrained first (as
        /// `MostConstrained`). A pattern that breaks the line counts, the 2x2 blocks, the
        /// connectivity or the view clues is cut off once, not once per digit placed before it.
        ShapeFirst = "shape-first",
        /// Per grid, from its clues: `ShapeFirst` for a grid without view clues (many digit
        /// assignments per pattern, which shape-first prunes once per pattern),
        /// `MostConstrained` for a grid with any (a view clue acts as soon as the digit it sees
        /// is placed, which shape-first delays). Resolved when the grid's model is built: a
        /// model never holds it.
        Adaptive = "adaptive",
    }
}

impl VisitOrder {
    /// The fixed order of cells of a static setting; `None` for the orders chosen per node.
    pub fn static_order(self) -> Option<CellOrder> {
        match self {
            VisitOrder::RowMajor => Some(CellOrder::RowMajor),
            VisitOrder::ColumnMajor => Some(CellOrder::ColumnMajor),
            VisitOrder::Spiral => Some(CellOrder::Spiral),
            VisitOrder::MostConstrained | VisitOrder::ShapeFirst | VisitOrder::Adaptive => None,
        }
    }

    /// The order a grid is searched in: `Adaptive` resolved by whether the grid has a view
    /// clue, any other order as it is.
    pub fn for_grid(self, has_view_clue: bool) -> VisitOrder {
        match self {
            VisitOrder::Adaptive if has_view_clue => VisitOrder::MostConstrained,
            VisitOrder::Adaptive => VisitOrder::ShapeFirst,
            order => order,
        }
    }
}

knob_enum! {
    /// How early the line, view and 2x2 rules act. (The derived rule "never wall off an
    /// island" is the partial connectivity check; the `connectivity` knob says when it runs,
    /// under either setting.)
    pub enum Rules {
        /// A row or column is checked once all its cells are decided (count, sum and view
        /// clues), a 2x2 block once its fourth cell is filled; digits are drawn from the supply.
        Strict = "strict",
        /// Before each move, the cell's values are narrowed by partial tallies: the count and
        /// sum still reachable in its row and column with the digits left, the view clues as
        /// soon as the cell is the first one a clue can see, and the 2x2 blocks.
        Derived = "derived",
    }
}

knob_enum! {
    /// How the derived rules' value sets are found at a node of a most-constrained or
    /// shape-first search (the static orders and `strict` rules look at one cell a node and
    /// keep nothing).
    pub enum CandidateUpkeep {
        /// Recomputed at every node: each line's values from its tallies and the digits
        /// left, every view clue's first cell, every open cell's values.
        Recompute = "recompute",
        /// Kept up to date on every move and undo (see `upkeep.rs`): the values of the
        /// changed row and column (and of the lines whose needed total the move changed in
        /// the bound table of the digits left), the view clues of those two lines that the
        /// move could affect and the cells they narrow, the 2x2 block closers. The node then
        /// only reads them: the same tree, fewer instructions per node.
        Incremental = "incremental",
    }
}

/// The knob settings of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TwentyFourSevenConfig {
    /// `order`.
    pub order: VisitOrder,
    /// `rules`.
    pub rules: Rules,
    /// `connectivity`.
    pub connectivity: ConnectivityCheck,
    /// `candidates`.
    pub candidates: CandidateUpkeep,
}

impl TwentyFourSevenConfig {
    /// Whether a node reads kept-up-to-date value sets (see [`CandidateUpkeep::Incremental`]):
    /// derived rules under an order chosen per node (`Adaptive` resolved first).
    pub fn keeps_candidates(&self) -> bool {
        self.candidates == CandidateUpkeep::Incremental
            && self.rules == Rules::Derived
            && matches!(self.order, VisitOrder::MostConstrained | VisitOrder::ShapeFirst)
    }
}
