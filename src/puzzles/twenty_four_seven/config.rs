//! The knobs of Twenty Four Seven as plain enums.

use crate::puzzles::grid::{CellOrder, ConnectivityCheck};

/// The order in which open cells are decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VisitOrder {
    /// A fixed order of cells.
    Static(CellOrder),
    /// At every node, the open cell with the fewest values the rules allow (under `strict`
    /// rules all open cells tie, and the first in row-major order is taken).
    MostConstrained,
    /// Shape first: decide every open cell's filled/empty pattern before any digit (at
    /// each node the undecided cell with the fewest pattern choices, ties to the tightest
    /// line), then the digits of the filled cells, most constrained first (as
    /// `MostConstrained`). A pattern that breaks the line counts, the 2x2 blocks, the
    /// connectivity or the view clues is cut off once, not once per digit placed before it.
    ShapeFirst,
    /// Per grid, from its clues: `ShapeFirst` for a grid without view clues (many digit
    /// assignments per pattern, which shape-first prunes once per pattern), `MostConstrained`
    /// for a grid with any (a view clue acts as soon as the digit it sees is placed, which
    /// shape-first delays). Resolved when the grid's model is built: a model never holds it.
    Adaptive,
}

/// How early the line, view and 2x2 rules act. (The derived rule "never wall off an
/// island" is the partial connectivity check; the `connectivity` knob says when it runs,
/// under either setting.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// A row or column is checked once all its cells are decided (count, sum and view
    /// clues), a 2x2 block once its fourth cell is filled; digits are drawn from the supply.
    Strict,
    /// Before each move, the cell's values are narrowed by partial tallies: the count and
    /// sum still reachable in its row and column with the digits left, the view clues as
    /// soon as the cell is the first one a clue can see, and the 2x2 blocks.
    Derived,
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
}

impl VisitOrder {
    /// The knob's values.
    pub const VALUES: &'static [&'static str] =
        &["row-major", "column-major", "spiral", "most-constrained", "shape-first", "adaptive"];

    /// Parses a knob value.
    pub fn parse(head: &str, parameter: Option<u32>) -> Option<VisitOrder> {
        match (head, parameter) {
            ("row-major", None) => Some(VisitOrder::Static(CellOrder::RowMajor)),
            ("column-major", None) => Some(VisitOrder::Static(CellOrder::ColumnMajor)),
            ("spiral", None) => Some(VisitOrder::Static(CellOrder::Spiral)),
            ("most-constrained", None) => Some(VisitOrder::MostConstrained),
            ("shape-first", None) => Some(VisitOrder::ShapeFirst),
            ("adaptive", None) => Some(VisitOrder::Adaptive),
            _ => None,
        }
    }

    /// The knob value.
    pub fn name(self) -> &'static str {
        match self {
            VisitOrder::Static(CellOrder::RowMajor) => "row-major",
            VisitOrder::Static(CellOrder::ColumnMajor) => "column-major",
            VisitOrder::Static(CellOrder::Spiral) => "spiral",
            VisitOrder::MostConstrained => "most-constrained",
            VisitOrder::ShapeFirst => "shape-first",
            VisitOrder::Adaptive => "adaptive",
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

impl Rules {
    /// The knob's values.
    pub const VALUES: &'static [&'static str] = &["strict", "derived"];

    /// Parses a knob value.
    pub fn parse(head: &str, parameter: Option<u32>) -> Option<Rules> {
        match (head, parameter) {
            ("strict", None) => Some(Rules::Strict),
            ("derived", None) => Some(Rules::Derived),
            _ => None,
        }
    }

    /// The knob value.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Strict => "strict",
            Rules::Derived => "derived",
        }
    }
}
