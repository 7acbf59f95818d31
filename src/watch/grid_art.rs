//! Grids drawn as coloured cells, with ASCII marks that survive plain output.

use super::canvas::{Canvas, Style};
use crate::puzzles::view::{CellView, GridView};

/// What the marks around a cell mean; printed under grid frames.
pub const GRID_LEGEND: &str = "<v> given   [v] just placed   !v! just rejected   · open   - empty";

/// Draws a grid; `changed` is the cell that changed in the last step and `rejected`
/// whether a rule rejected it. Each cell is its value between two marks (see
/// [`GRID_LEGEND`]), so that plain frames show what the colours show; outside clues, when
/// the view has them, are drawn around the grid.
pub fn draw_grid(view: &GridView, changed: Option<usize>, rejected: bool) -> Canvas {
    let clue_numbers = view.clues.iter().flatten().flatten().copied();
    let cell_numbers = view.cells.iter().filter_map(|cell| match cell {
        CellView::Placed(value) | CellView::Given(value) => Some(*value),
        CellView::Open | CellView::Empty => None,
    });
    let widest = cell_numbers.chain(clue_numbers).map(|value| value.to_string().len()).max().unwrap_or(1);
    // A separating blank, a mark, the value, a mark.
    let pitch = widest + 3;
    let (left, top) = if view.clues.is_some() { (pitch, 1) } else { (0, 0) };
    let width = left * 2 + view.size * pitch + 1;
    let mut canvas = Canvas::new(width, view.size + 2 * top);
    for (index, cell) in view.cells.iter().enumerate() {
        let (row, column) = (index / view.size, index % view.size);
        let group_style = view
            .groups
            .as_ref()
            .and_then(|groups| groups.get(index).copied().flatten())
            .map(|group| Style::Colour(group as u8));
        let (text, mut style) = match *cell {
            CellView::Open => ("·".to_string(), group_style.unwrap_or(Style::Dim)),
            CellView::Empty => ("-".to_string(), group_style.unwrap_or(Style::Plain)),
            CellView::Placed(value) => (value.to_string(), group_style.unwrap_or(Style::Placed)),
            CellView::Given(value) => (value.to_string(), Style::Given),
        };
        let marks = if changed == Some(index) {
            style = if rejected { Style::Rejected } else { Style::Current };
            if rejected {
                ('!', '!')
            } else {
                ('[', ']')
            }
        } else if matches!(cell, CellView::Given(_)) {
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
            canvas.text(x, (view.size + 1) as i64, &clue_text(below), Style::Dim);
        }
        for (row, (&before, &after)) in west.iter().zip(east).enumerate() {
            let y = (row + 1) as i64;
            canvas.text(1, y, &clue_text(before), Style::Dim);
            canvas.text((left + view.size * pitch + 2) as i64, y, &clue_text(after), Style::Dim);
        }
    }
    canvas
}
