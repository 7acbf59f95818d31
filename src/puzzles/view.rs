//! What a viewer may see of a model's state: plain data, drawn by the `watch` layer.

/// A snapshot of one model state.
#[derive(Debug, Clone, PartialEq)]
pub enum View {
    /// A square grid of cells (Hooks, Twenty Four Seven, the prime grid).
    Grid(GridView),
    /// Named spots on overlapping rings (Olympic Rings).
    Rings(RingsView),
}

/// One cell of a grid view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellView {
    /// Not decided yet.
    Open,
    /// Decided empty.
    Empty,
    /// Holds a value placed by the search.
    Placed(u32),
    /// Holds a value given by the instance.
    Given(u32),
}

/// A grid state.
#[derive(Debug, Clone, PartialEq)]
pub struct GridView {
    /// Side length.
    pub size: usize,
    /// Cells row-major.
    pub cells: Vec<CellView>,
    /// A colour class per cell (hook or region), when the puzzle has one; `None` for a
    /// cell whose class is not known yet (a Hooks cell before its hook is placed).
    pub groups: Option<Vec<Option<u16>>>,
    /// Clues outside the grid, `[north, south, west, east]`, one per column (north, south)
    /// or row (west, east), 0 for none; when the puzzle has them (Twenty Four Seven).
    pub clues: Option<[Vec<u32>; 4]>,
}

/// An Olympic-rings state.
#[derive(Debug, Clone, PartialEq)]
pub struct RingsView {
    /// Ring names in file order (used to pick colours: red, green, black, yellow, blue, ...).
    pub ring_names: Vec<String>,
    /// `rings[ring]`: the spots on the ring.
    pub rings: Vec<Vec<usize>>,
    /// Spot names.
    pub spot_names: Vec<String>,
    /// Spot values: given, placed or open.
    pub spots: Vec<CellView>,
    /// The candidate values not placed yet, ascending (the pool the search draws from).
    pub unused: Vec<i32>,
}
