//! What a viewer may see of a model's state: plain data, drawn by the `watch` layer.

/// A snapshot of one model state.
#[derive(Debug, Clone, PartialEq)]
pub enum View {
    /// A grid of cells, square or not (Hooks, Twenty Four Seven, the prime grid, a 6x10
    /// pentomino board).
    Grid(GridView),
    /// Named spots on overlapping rings (Olympic Rings).
    Rings(RingsView),
    /// Nothing to draw: the family has no view (the default of `Puzzle::view`); `watch`
    /// refuses it with a message that says so.
    Nothing,
}

/// The most characters a cell's text holds ([`CellText`]).
pub const MAX_CELL_TEXT: usize = 3;

/// A cell's short text (a piece's letter, `10`, `x`): at most [`MAX_CELL_TEXT`]
/// characters, kept inline so that a cell stays `Copy`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct CellText {
    chars: [char; MAX_CELL_TEXT],
    len: u8,
}

impl CellText {
    /// The text `text`, or `None` when it is empty, longer than [`MAX_CELL_TEXT`]
    /// characters, or holds a control character or a space (which would not read as one
    /// cell).
    pub fn new(text: &str) -> Option<CellText> {
        let mut chars = [' '; MAX_CELL_TEXT];
        let mut len = 0;
        for character in text.chars() {
            if len == MAX_CELL_TEXT || character.is_control() || character.is_whitespace() {
                return None;
            }
            chars[len] = character;
            len += 1;
        }
        (len > 0).then_some(CellText { chars, len: len as u8 })
    }

    /// The characters.
    pub fn as_chars(&self) -> &[char] {
        &self.chars[..usize::from(self.len)]
    }
}

impl std::fmt::Display for CellText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Through `pad`, so that `{:>3}` aligns the text as it would a `str`.
        f.pad(&self.as_chars().iter().collect::<String>())
    }
}

impl std::fmt::Debug for CellText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_chars().iter().collect::<String>())
    }
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
    /// Holds short text placed by the search (a pentomino's letter).
    PlacedText(CellText),
    /// Holds short text given by the instance.
    GivenText(CellText),
}

impl CellView {
    /// A cell showing `text`, placed by the search (or, with `given`, given by the
    /// instance).
    ///
    /// # Panics
    /// When `text` is not a [`CellText`] (empty, over [`MAX_CELL_TEXT`] characters, or
    /// with a space): the family's own drawing code is wrong.
    pub fn text(text: &str, given: bool) -> CellView {
        let Some(cell) = CellText::new(text) else {
            panic!("cell text `{text}` must be 1 to {MAX_CELL_TEXT} characters without spaces")
        };
        if given {
            CellView::GivenText(cell)
        } else {
            CellView::PlacedText(cell)
        }
    }

    /// What the cell shows: its value or text; `None` for an open or empty cell.
    pub fn shown(self) -> Option<String> {
        match self {
            CellView::Placed(value) | CellView::Given(value) => Some(value.to_string()),
            CellView::PlacedText(text) | CellView::GivenText(text) => Some(text.to_string()),
            CellView::Open | CellView::Empty => None,
        }
    }

    /// Whether the instance gave this cell's content.
    pub fn is_given(self) -> bool {
        matches!(self, CellView::Given(_) | CellView::GivenText(_))
    }
}

/// A grid state: `cells.len() / size` rows of `size` cells.
#[derive(Debug, Clone, PartialEq)]
pub struct GridView {
    /// Cells per row: the side of a square grid, the width of any other (a 6-row, 10-column
    /// board has `size: 10` and 60 cells). The rows are `cells.len() / size`.
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

impl GridView {
    /// A grid of `columns` cells per row, `cells` row-major, without colour classes or
    /// clues.
    ///
    /// # Panics
    /// When `columns` is 0 or does not divide the number of cells.
    pub fn new(columns: usize, cells: Vec<CellView>) -> GridView {
        assert!(
            columns > 0 && cells.len().is_multiple_of(columns),
            "{} cells do not make rows of {columns}",
            cells.len()
        );
        GridView { size: columns, cells, groups: None, clues: None }
    }

    /// Cells per row.
    pub fn columns(&self) -> usize {
        self.size
    }

    /// Rows: the cells over the columns (a last row cut short counts as a row).
    pub fn rows(&self) -> usize {
        self.cells.len().div_ceil(self.size.max(1))
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_text_holds_one_to_three_characters_and_pads_like_a_str() {
        assert_eq!(CellText::new("F").map(|text| format!("{text:>3}")), Some("  F".to_string()));
        assert_eq!(CellText::new("10é").map(|text| text.to_string()), Some("10é".to_string()));
        for refused in ["", "abcd", "a b", "\t"] {
            assert_eq!(CellText::new(refused), None, "{refused:?}");
        }
        assert!(CellView::text("X", true).is_given());
        assert!(!CellView::text("X", false).is_given());
    }

    #[test]
    fn a_grid_view_has_as_many_rows_as_its_cells_fill() {
        let board = GridView::new(10, vec![CellView::Open; 60]);
        assert_eq!((board.columns(), board.rows()), (10, 6));
    }
}
