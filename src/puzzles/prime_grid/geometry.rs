//! The lines of the 3x3 grid: the cells each one holds, the sums and total of a filled
//! grid, and the order in which the blanks are decided.

use super::config::BlankOrder;

/// Cells of the grid, row-major (`3 * row + column`).
pub(super) const CELLS: usize = 9;
/// Lines of the grid: 3 rows, 3 columns, 2 diagonals.
pub(super) const LINE_COUNT: usize = 8;
/// Every number of a filled grid: the 9 cells, then the 8 line sums.
pub(super) const NUMBERS: usize = CELLS + LINE_COUNT;

/// The cells of each line, row-major cell indices: rows, columns, main diagonal,
/// anti-diagonal.
pub(super) const LINES: [[usize; 3]; LINE_COUNT] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// The lines through each cell (indices into [`LINES`]).
pub(super) const LINES_THROUGH: [&[usize]; CELLS] =
    [&[0, 3, 6], &[0, 4], &[0, 5, 7], &[1, 3], &[1, 4, 6, 7], &[1, 5], &[2, 3, 7], &[2, 4], &[2, 5, 6]];

/// The lines as the checker's messages name them, in the order of [`LINES`].
pub(super) const LINE_NAMES: [&str; LINE_COUNT] =
    ["row 1", "row 2", "row 3", "column 1", "column 2", "column 3", "main diagonal", "anti-diagonal"];

/// A cell as a person reads it: `(row 1, column 2)`.
pub(super) fn cell_name(cell: usize) -> String {
    format!("(row {}, column {})", cell / 3 + 1, cell % 3 + 1)
}

/// The blanks of `givens` (0 = blank) in the order `order` decides them.
pub(super) fn blank_order(givens: &[u32; CELLS], order: BlankOrder) -> Vec<usize> {
    let mut left: Vec<usize> = (0..CELLS).filter(|&cell| givens[cell] == 0).collect();
    if order == BlankOrder::RowMajor {
        return left;
    }
    let mut open = LINES.map(|line| line.iter().filter(|&&cell| givens[cell] == 0).count());
    let mut chosen = Vec::with_capacity(left.len());
    while !left.is_empty() {
        // Most lines completed, then most lines left one cell short, then row-major
        // (`max_by_key` keeps the last of equals, so the key ends with the reversed cell).
        let score = |cell: usize| {
            let completes = LINES_THROUGH[cell].iter().filter(|&&line| open[line] == 1).count();
            let one_short = LINES_THROUGH[cell].iter().filter(|&&line| open[line] == 2).count();
            (completes, one_short, CELLS - cell)
        };
        let position = (0..left.len()).max_by_key(|&index| score(left[index])).unwrap_or(0);
        let cell = left.remove(position);
        for &line in LINES_THROUGH[cell] {
            open[line] -= 1;
        }
        chosen.push(cell);
    }
    chosen
}

/// The 8 line sums of a filled grid, in the order of [`LINES`].
pub(super) fn line_sums_of(grid: &[u32; CELLS]) -> [u32; LINE_COUNT] {
    LINES.map(|cells| cells.iter().map(|&cell| grid[cell]).sum())
}

/// The 9 cells then the 8 line sums.
pub(super) fn numbers_of(grid: &[u32; CELLS]) -> [u32; NUMBERS] {
    let mut numbers = [0; NUMBERS];
    numbers[..CELLS].copy_from_slice(grid);
    numbers[CELLS..].copy_from_slice(&line_sums_of(grid));
    numbers
}

/// The total of the 17 numbers.
pub(super) fn total_of(grid: &[u32; CELLS]) -> u32 {
    numbers_of(grid).iter().sum()
}
