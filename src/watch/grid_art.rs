//! Grids drawn as coloured cells.

use super::canvas::{Canvas, Style};
use crate::puzzles::view::{CellView, GridView};

/// Draws a grid; `changed` is the cell that changed in the last step and `rejected`
/// whether a rule rejected it.
pub fn draw_grid(view: &GridView, changed: Option<usize>, rejected: bool) -> Canvas {
    let widest = view
        .cells
        .iter()
        .map(|cell| match cell {
            CellView::Placed(v) | CellView::Given(v) => v.to_string().len(),
            _ => 1,
        })
        .max()
        .unwrap_or(1);
    let cell_width = widest + 2;
    let mut canvas = Canvas::new(view.size * cell_width + 1, view.size);
    for (index, cell) in view.cells.iter().enumerate() {
        let (row, column) = (index / view.size, index % view.size);
        let group_style = view.groups.as_ref().map_or(Style::Plain, |groups| Style::Colour(groups[index] as u8));
        let (text, mut style) = match *cell {
            CellView::Open => ("·".to_string(), Style::Dim),
            CellView::Empty => ("-".to_string(), group_style),
            CellView::Placed(v) => (v.to_string(), if view.groups.is_some() { group_style } else { Style::Placed }),
            CellView::Given(v) => (v.to_string(), Style::Given),
        };
        if changed == Some(index) {
            style = if rejected { Style::Rejected } else { Style::Current };
        }
        let x = (column * cell_width + cell_width - text.chars().count()) as i64;
        canvas.text(x, row as i64, &text, style);
    }
    canvas
}
