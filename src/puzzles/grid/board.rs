//! Square boards up to 11x11 with cell sets as 128-bit masks (cell `r * n + c`).

/// A set of cells of one board, bit `r * n + c` for row `r`, column `c`.
pub type CellSet = u128;

/// The geometry of an `n` x `n` board: masks that make neighbour and flood-fill
/// operations a handful of shifts on a [`CellSet`].
#[derive(Debug, Clone)]
pub struct Board {
    size: usize,
    all: CellSet,
    not_first_column: CellSet,
    not_last_column: CellSet,
    /// `blocks_of[cell]`: the 2x2 blocks (as cell sets) that contain `cell`.
    blocks_of: Vec<Vec<CellSet>>,
}

impl Board {
    /// The largest side a board may have: `n * n` cells must fit in a [`CellSet`].
    pub const MAX_SIZE: usize = 11;

    /// The board of side `size` (1 ..= [`Board::MAX_SIZE`]).
    pub fn new(size: usize) -> Board {
        assert!((1..=Self::MAX_SIZE).contains(&size), "board side {size} outside 1..={}", Self::MAX_SIZE);
        let cells = size * size;
        let all = if cells == 128 { u128::MAX } else { (1u128 << cells) - 1 };
        let mut first_column = 0;
        let mut last_column = 0;
        for row in 0..size {
            first_column |= 1u128 << (row * size);
            last_column |= 1u128 << (row * size + size - 1);
        }
        let mut blocks_of = vec![Vec::new(); cells];
        for row in 0..size.saturating_sub(1) {
            for column in 0..size - 1 {
                let top_left = row * size + column;
                let block = (1u128 << top_left)
                    | (1u128 << (top_left + 1))
                    | (1u128 << (top_left + size))
                    | (1u128 << (top_left + size + 1));
                for cell in [top_left, top_left + 1, top_left + size, top_left + size + 1] {
                    blocks_of[cell].push(block);
                }
            }
        }
        Board { size, all, not_first_column: all & !first_column, not_last_column: all & !last_column, blocks_of }
    }

    /// Side of the board.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Every cell.
    pub fn all(&self) -> CellSet {
        self.all
    }

    /// The cell at `row`, `column`.
    pub fn cell(&self, row: usize, column: usize) -> usize {
        row * self.size + column
    }

    /// Cells orthogonally adjacent to some cell of `set` (the set itself not included
    /// unless adjacent to another of its cells).
    #[inline]
    pub fn neighbours(&self, set: CellSet) -> CellSet {
        (((set << 1) & self.not_first_column)
            | ((set >> 1) & self.not_last_column)
            | (set << self.size)
            | (set >> self.size))
            & self.all
    }

    /// The cells of `passable` reachable from `seed` through orthogonal steps in `passable`.
    #[inline]
    pub fn flood(&self, seed: CellSet, passable: CellSet) -> CellSet {
        let mut reached = seed & passable;
        loop {
            let grown = (reached | self.neighbours(reached)) & passable;
            if grown == reached {
                return reached;
            }
            reached = grown;
        }
    }

    /// Whether `set` is one orthogonally connected group (the empty set counts as one).
    pub fn is_connected(&self, set: CellSet) -> bool {
        set == 0 || self.flood(lowest_cell(set), set) == set
    }

    /// Whether the `filled` cells can still end up connected when each `open` (undecided)
    /// cell may yet be filled: every filled cell is reachable from one filled cell through
    /// filled or open cells.
    #[inline]
    pub fn may_still_connect(&self, filled: CellSet, open: CellSet) -> bool {
        filled == 0 || self.flood(lowest_cell(filled), filled | open) & filled == filled
    }

    /// The orthogonally connected groups of `set`, each as a cell set.
    pub fn components(&self, mut set: CellSet) -> Vec<CellSet> {
        let mut groups = Vec::new();
        while set != 0 {
            let group = self.flood(lowest_cell(set), set);
            groups.push(group);
            set &= !group;
        }
        groups
    }

    /// The 2x2 blocks containing `cell`.
    #[inline]
    pub fn blocks_of(&self, cell: usize) -> &[CellSet] {
        &self.blocks_of[cell]
    }

    /// Whether some 2x2 block containing `cell` lies wholly inside `filled`.
    #[inline]
    pub fn completes_full_block(&self, cell: usize, filled: CellSet) -> bool {
        self.blocks_of[cell].iter().any(|&block| block & !filled == 0)
    }
}

/// The lowest-numbered cell of a non-empty set, as a one-cell set.
#[inline]
pub fn lowest_cell(set: CellSet) -> CellSet {
    set & set.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_do_not_wrap_around_rows() {
        let board = Board::new(3);
        let right_of_top_row = 1u128 << board.cell(0, 2);
        let expected = (1u128 << board.cell(0, 1)) | (1u128 << board.cell(1, 2));
        assert_eq!(board.neighbours(right_of_top_row), expected);
    }

    #[test]
    fn flood_and_components_on_a_diagonal() {
        let board = Board::new(3);
        let diagonal = (1u128 << 0) | (1u128 << 4) | (1u128 << 8);
        assert!(!board.is_connected(diagonal));
        assert_eq!(board.components(diagonal).len(), 3);
        assert!(board.may_still_connect(diagonal, 1u128 << 1 | 1u128 << 5));
        assert!(!board.may_still_connect(diagonal, 1u128 << 1));
    }

    #[test]
    fn eleven_by_eleven_fits_and_blocks_are_counted() {
        let board = Board::new(11);
        assert_eq!(board.all().count_ones(), 121);
        assert_eq!(board.blocks_of(board.cell(5, 5)).len(), 4);
        assert_eq!(board.blocks_of(0).len(), 1);
        assert!(board.completes_full_block(0, 1 | 2 | 1 << 11 | 1 << 12));
    }
}
