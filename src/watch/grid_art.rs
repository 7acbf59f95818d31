//! Grids drawn as coloured cells, with ASCII marks that survive plain output.

use super::canvas::{Canvas, Style};
use crate::puzzles::view::{CellView, GridView};

/// What the marks around a cell mean; printed under grid frames.
pub const GRID_LEGEND: &str = "<v> given   [v] just placed   !v! just rejected   · open   - empty";

/// Draws a grid of any width and height (`view.size` cells per row, as many rows as the
/// cells fill); `changed` is the cell that changed in the last step and `rejected` whether
/// a rule rejected it. Each cell is its value or text between two marks (see
/// [`GRID_LEGEND`]), so that plain frames show what the colours show; outside clues, when
/// the view has them, are drawn around the grid.
pub fn draw_grid(view: &GridView, changed: Option<usize>, rejected: bool) -> Canvas {
    let clue_numbers = view.clues.iter().flatten().flatten().map(|value| value.to_string());
    let cell_texts = view.cells.iter().filter_map(|cell| cell.shown());
    let widest = cell_texts.chain(clue_numbers).map(|text| text.chars().count()).max().unwrap_or(1);
    // A separating blank, a mark, the value, a mark.
    let pitch = widest + 3;
    let (columns, rows) = (view.columns().max(1), view.rows());
    let (left, top) = if view.clues.is_some() { (pitch, 1) } else { (0, 0) };
    let width = left * 2 + columns * pitch + 1;
    let mut canvas = Canvas::new(width, rows + 2 * top);
    for (index, cell) in view.cells.iter().enumerate() {
        let (row, column) = (index / columns, index % columns);
        let group_style = view
            .groups
            .as_ref()
            .and_then(|groups| groups.get(index).copied().flatten())
            .map(|group| Style::Colour(group as u8));
        let (text, mut style) = match (*cell, cell.shown()) {
            (CellView::Open, _) => ("·".to_string(), group_style.unwrap_or(Style::Dim)),
            (_, None) => ("-".to_string(), group_style.unwrap_or(Style::Plain)),
            (_, Some(shown)) if cell.is_given() => (shown, Style::Given),
            (_, Some(shown)) => (shown, group_style.unwrap_or(Style::Placed)),
        };
        let marks = if changed == Some(index) {
            style = if rejected { Style::Rejected } else { Style::Current };
            if rejected {
                ('!', '!')
            } else {
                ('[', ']')
            }
        } else if cell.is_given() {
            ('<', '>')
        } else {
            (' ', ' ')
        };
        let field = format!("{}{text:>widest$}{}", marks.0, marks.1);
        canvas.text((left + column * pitch + 1) as i64, (top + row) as i64, &field, style);
    }
    if let Some([north, south, west, east]) = &view.clues {
        let clue_text = |value: u32| if value == 0 { String::new() } else { format!("{value:>widest$}") };
        for (column, (&above, &below)) in north.iter().zip(south).enumerate() {
            let x = (left + column * pitch + 2) as i64;
            canvas.text(x, 0, &clue_text(above), Style::Dim);
            canvas.text(x, (rows + 1) as i64, &clue_text(below), Style::Dim);
        }
        for (row, (&before, &after)) in west.iter().zip(east).enumerate() {
            let y = (row + 1) as i64;
            canvas.text(1, y, &clue_text(before), Style::Dim);
            canvas.text((left + columns * pitch + 2) as i64, y, &clue_text(after), Style::Dim);
        }
    }
    canvas
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board of 2 rows and 3 columns with pieces named by letters: drawn as 2 rows of 3,
    /// each cell its letter, not padded to a square.
    #[test]
    fn a_grid_wider_than_tall_draws_its_text_cells_unpadded() {
        let cells = vec![
            CellView::text("F", false),
            CellView::text("F", false),
            CellView::Open,
            CellView::text("I", false),
            CellView::Empty,
            CellView::text("X", true),
        ];
        let canvas = draw_grid(&GridView::new(3, cells), Some(3), false);
        assert_eq!(canvas.to_text(false), "  F   F   ·\n [I]  -  <X>\n");
        assert_eq!((canvas.width(), canvas.height()), (13, 2));
    }

    /// Text of two and three characters widens every cell to the widest.
    #[test]
    fn the_widest_text_sets_the_cell_pitch() {
        let cells = vec![CellView::text("10", false), CellView::text("abc", false)];
        let canvas = draw_grid(&GridView::new(2, cells), None, false);
        assert_eq!(canvas.to_text(false), "   10   abc\n");
    }
}
