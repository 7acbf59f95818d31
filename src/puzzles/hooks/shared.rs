//! What every copy of a Hooks model shares: the instance as bitboards and tables, built
//! once per search and read by every node.

use super::rings::Rings;
use crate::puzzles::grid::{Board, CellSet};

/// Slots for cells, and for regions (a region has at least one cell).
pub const CELL_SLOTS: usize = 128;
/// `given` of a cell without a given digit.
const NO_GIVEN: u8 = u8::MAX;

/// What every copy of a model shares: the instance as bitboards and tables.
#[derive(Debug)]
pub(super) struct Shared {
    pub size: usize,
    pub board: Board,
    pub rings: Rings,
    /// The common region sum; `None` when the regions cannot all sum the same.
    pub target: Option<u32>,
    pub region_cells: Vec<CellSet>,
    pub region_of: [u8; CELL_SLOTS],
    /// The given digit of each cell, `NO_GIVEN` where there is none.
    pub given: [u8; CELL_SLOTS],
    pub given_cells: CellSet,
    /// Position of each cell in the static cell order, and its inverse.
    pub rank: [u8; CELL_SLOTS],
    pub cell_at_rank: [u8; CELL_SLOTS],
    pub not_first_column: CellSet,
    pub not_last_column: CellSet,
}

impl Shared {
    /// The tables of an instance of side `size` for a static cell order `order`.
    pub fn new(
        size: usize,
        target: Option<u32>,
        regions: &[Vec<usize>],
        givens: &[(usize, u8)],
        order: &[usize],
    ) -> Shared {
        let board = Board::new(size);
        let mut region_of = [0u8; CELL_SLOTS];
        let mut region_cells = Vec::with_capacity(regions.len());
        for (index, region) in regions.iter().enumerate() {
            let mut cells: CellSet = 0;
            for &cell in region {
                region_of[cell] = index as u8;
                cells |= 1u128 << cell;
            }
            region_cells.push(cells);
        }
        let mut given = [NO_GIVEN; CELL_SLOTS];
        let mut given_cells: CellSet = 0;
        for &(cell, value) in givens {
            given[cell] = value;
            given_cells |= 1u128 << cell;
        }
        let mut rank = [0u8; CELL_SLOTS];
        let mut cell_at_rank = [0u8; CELL_SLOTS];
        for (position, &cell) in order.iter().enumerate() {
            rank[cell] = position as u8;
            cell_at_rank[position] = cell as u8;
        }
        let (mut first_column, mut last_column): (CellSet, CellSet) = (0, 0);
        for row in 0..size {
            first_column |= 1u128 << (row * size);
            last_column |= 1u128 << (row * size + size - 1);
        }
        Shared {
            size,
            rings: Rings::new(size),
            target,
            region_cells,
            region_of,
            given,
            given_cells,
            rank,
            cell_at_rank,
            not_first_column: board.all() & !first_column,
            not_last_column: board.all() & !last_column,
            board,
        }
    }
}
