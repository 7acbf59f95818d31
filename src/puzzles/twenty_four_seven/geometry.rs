//! Masks of one Twenty Four Seven grid that the search reads at every node: lines, the
//! cells between a side and a cell (for the view clues), and the 2x2 blocks of each cell.

use crate::puzzles::grid::{Board, CellSet};
use std::ops::ControlFlow;

/// Cells of the largest board.
pub const MAX_CELLS: usize = Board::MAX_SIZE * Board::MAX_SIZE;

/// A side of the grid from which a view clue looks in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Looking down a column from above.
    North,
    /// Looking up a column from below.
    South,
    /// Looking along a row from the left.
    West,
    /// Looking along a row from the right.
    East,
}

impl Side {
    /// Every side, in the order clue tables are indexed.
    pub const ALL: [Side; 4] = [Side::North, Side::South, Side::West, Side::East];

    /// The side across the grid: the cells beyond a cell seen from `self` are those before
    /// it seen from the opposite side.
    #[inline]
    pub fn opposite(self) -> Side {
        Side::ALL[self as usize ^ 1]
    }

    /// Whether looking from this side meets lower-numbered cells first (cells are `r * n + c`).
    #[inline]
    pub fn starts_low(self) -> bool {
        matches!(self, Side::North | Side::West)
    }

    /// Whether the side's clues are indexed by column (north, south) rather than by row.
    #[inline]
    pub fn along_column(self) -> bool {
        matches!(self, Side::North | Side::South)
    }
}

/// The first cell of `set` seen from `side` (`set` must be one line's cells, non-empty).
#[inline]
pub fn first_from(side: Side, set: CellSet) -> usize {
    if side.starts_low() {
        set.trailing_zeros() as usize
    } else {
        127 - set.leading_zeros() as usize
    }
}

/// The fixed masks of an `n` x `n` grid.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// Neighbour and flood-fill operations.
    pub board: Board,
    /// Side of the grid.
    pub size: usize,
    /// `row_of[cell]`, `column_of[cell]`.
    pub row_of: [u8; MAX_CELLS],
    /// See `row_of`.
    pub column_of: [u8; MAX_CELLS],
    /// The cells of each row.
    pub row_mask: [CellSet; Board::MAX_SIZE],
    /// The cells of each column.
    pub column_mask: [CellSet; Board::MAX_SIZE],
    /// `before[side][cell]`: the cells of the cell's row or column that a look from `side`
    /// meets before reaching the cell.
    pub before: [[CellSet; MAX_CELLS]; 4],
    /// `block_rest[cell][i]`: the other three cells of the i-th 2x2 block holding `cell`.
    pub block_rest: [[CellSet; 4]; MAX_CELLS],
    /// How many 2x2 blocks hold each cell (0 to 4).
    pub block_count: [u8; MAX_CELLS],
    /// The cells that are the top-left, top-right, bottom-left and bottom-right corner of
    /// some 2x2 block (see [`Geometry::block_closers`]).
    corner_masks: [CellSet; 4],
}

impl Geometry {
    /// The masks of a grid of side `size` (1 ..= [`Board::MAX_SIZE`]).
    pub fn new(size: usize) -> Geometry {
        let board = Board::new(size);
        let mut geometry = Geometry {
            board,
            size,
            row_of: [0; MAX_CELLS],
            column_of: [0; MAX_CELLS],
            row_mask: [0; Board::MAX_SIZE],
            column_mask: [0; Board::MAX_SIZE],
            before: [[0; MAX_CELLS]; 4],
            block_rest: [[0; 4]; MAX_CELLS],
            block_count: [0; MAX_CELLS],
            corner_masks: [0; 4],
        };
        for row in 0..size {
            for column in 0..size {
                let cell = row * size + column;
                geometry.row_of[cell] = row as u8;
                geometry.column_of[cell] = column as u8;
                geometry.row_mask[row] |= 1 << cell;
                geometry.column_mask[column] |= 1 << cell;
                let north: CellSet = (0..row).map(|r| 1u128 << (r * size + column)).sum();
                let south: CellSet = (row + 1..size).map(|r| 1u128 << (r * size + column)).sum();
                let west: CellSet = (0..column).map(|c| 1u128 << (row * size + c)).sum();
                let east: CellSet = (column + 1..size).map(|c| 1u128 << (row * size + c)).sum();
                for (side, mask) in Side::ALL.into_iter().zip([north, south, west, east]) {
                    geometry.before[side as usize][cell] = mask;
                }
                let (top, bottom, left, right) = (row + 1 < size, row > 0, column + 1 < size, column > 0);
                for (corner, fits) in
                    [top && left, top && right, bottom && left, bottom && right].into_iter().enumerate()
                {
                    if fits {
                        geometry.corner_masks[corner] |= 1 << cell;
                    }
                }
                for &block in geometry.board.blocks_of(cell) {
                    let slot = geometry.block_count[cell] as usize;
                    geometry.block_rest[cell][slot] = block & !(1u128 << cell);
                    geometry.block_count[cell] += 1;
                }
            }
        }
        geometry
    }

    /// Visits the cells of `set` in row-major order as `visit(row, column, cell)`, each
    /// row's cells taken as a small set of columns (cheaper than stepping through the
    /// 128-bit set), until `visit` breaks.
    #[inline(always)]
    pub fn try_each_cell<B>(
        &self,
        set: CellSet,
        mut visit: impl FnMut(usize, usize, usize) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let size = self.size;
        let row_bits = (1u32 << size) - 1;
        for row in 0..size {
            let first = row * size;
            let mut columns = (set >> first) as u32 & row_bits;
            while columns != 0 {
                let column = columns.trailing_zeros() as usize;
                columns &= columns - 1;
                visit(row, column, first + column)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The cells of the line that `side` looks along to reach `cell`.
    #[inline]
    pub fn line_through(&self, side: Side, cell: usize) -> CellSet {
        if side.along_column() {
            self.column_mask[self.column_of[cell] as usize]
        } else {
            self.row_mask[self.row_of[cell] as usize]
        }
    }

    /// The cells that would complete a 2x2 block of `filled` cells if they were filled
    /// too: for each corner a cell can hold, the other three cells of that block, found by
    /// shifting the whole set.
    #[inline]
    pub fn block_closers(&self, filled: CellSet) -> CellSet {
        let (n, f) = (self.size, filled);
        let [top_left, top_right, bottom_left, bottom_right] = self.corner_masks;
        ((f >> 1) & (f >> n) & (f >> (n + 1)) & top_left)
            | ((f << 1) & (f >> (n - 1)) & (f >> n) & top_right)
            | ((f << n) & (f << (n - 1)) & (f >> 1) & bottom_left)
            | ((f << (n + 1)) & (f << n) & (f << 1) & bottom_right)
    }

    /// Whether filling `cell` would complete a 2x2 block of filled cells.
    #[inline]
    pub fn completes_block(&self, cell: usize, filled: CellSet) -> bool {
        let blocks = &self.block_rest[cell][..self.block_count[cell] as usize];
        blocks.iter().any(|&rest| rest & !filled == 0)
    }
}
