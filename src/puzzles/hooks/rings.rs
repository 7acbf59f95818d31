//! The ring of eight cells around each cell of a grid, and a local test on it: whether
//! removing a cell from a connected set can split the set.
//!
//! A grid helper written for Hooks' incremental connectivity (`reach.rs`; Twenty Four
//! Seven could share it): removing a cell from a connected set keeps the rest connected
//! when the set's cells among the cell's four neighbours are linked to each other through
//! the ring of its eight surrounding cells, since any path through the removed cell can
//! then go round it.

use crate::puzzles::grid::CellSet;

const OFF_BOARD: u8 = u8::MAX;

/// The eight cells around every cell of a board, clockwise from the north.
#[derive(Debug, Clone)]
pub struct Rings {
    /// `around[cell]`: N, NE, E, SE, S, SW, W, NW (`OFF_BOARD` outside the board).
    around: Vec<[u8; 8]>,
}

impl Rings {
    /// The rings of a board of side `size`.
    pub fn new(size: usize) -> Rings {
        let offsets: [(isize, isize); 8] = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)];
        let side = size as isize;
        let mut around = Vec::with_capacity(size * size);
        for row in 0..side {
            for column in 0..side {
                let mut ring = [OFF_BOARD; 8];
                for (slot, (dr, dc)) in ring.iter_mut().zip(offsets) {
                    let (r, c) = (row + dr, column + dc);
                    if (0..side).contains(&r) && (0..side).contains(&c) {
                        *slot = (r * side + c) as u8;
                    }
                }
                around.push(ring);
            }
        }
        Rings { around }
    }

    /// Whether the cells of `rest` among `cell`'s four neighbours are linked through
    /// `rest`'s cells on the ring around `cell`. When `rest` plus `cell` is connected and
    /// this holds, `rest` is connected too.
    #[inline]
    pub fn stays_connected_without(&self, cell: usize, rest: CellSet) -> bool {
        let mut ring = 0usize;
        for (bit, &around) in self.around[cell].iter().enumerate() {
            if around != OFF_BOARD && (rest >> around) & 1 == 1 {
                ring |= 1 << bit;
            }
        }
        LOCALLY_LINKED[ring]
    }
}

/// `LOCALLY_LINKED[ring]` for an 8-bit ring (bit 0 north, clockwise): whether the set
/// orthogonal positions (even bits) form at most one run along the ring.
const LOCALLY_LINKED: [bool; 256] = locally_linked_table();

const fn locally_linked_table() -> [bool; 256] {
    let mut table = [false; 256];
    let mut ring = 0;
    while ring < 256 {
        let mut orthogonal = 0;
        let mut links = 0;
        let mut position = 0;
        while position < 8 {
            if ring >> position & 1 == 1 {
                orthogonal += 1;
                let corner = position + 1;
                let next = (position + 2) % 8;
                if ring >> corner & 1 == 1 && ring >> next & 1 == 1 {
                    links += 1;
                }
            }
            position += 2;
        }
        let groups = if orthogonal == 0 {
            0
        } else if links == 4 {
            1
        } else {
            orthogonal - links
        };
        table[ring] = groups <= 1;
        ring += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::grid::Board;

    #[test]
    fn the_local_test_never_claims_a_split_set_connected() {
        // Every set of a 4x4 board that contains cell 5 and is connected: if the test says
        // the rest is connected, a flood fill must agree.
        let board = Board::new(4);
        let rings = Rings::new(4);
        let mut confirmed = 0;
        for set in 0u128..(1 << 16) {
            if (set >> 5) & 1 == 0 || !board.is_connected(set) {
                continue;
            }
            let rest = set & !(1 << 5);
            if rings.stays_connected_without(5, rest) {
                assert!(board.is_connected(rest), "{set:#b}");
                confirmed += 1;
            }
        }
        assert!(confirmed > 1000, "the test decides most cases locally ({confirmed})");
    }

    #[test]
    fn a_corridor_cut_in_the_middle_is_not_locally_linked() {
        let rings = Rings::new(3);
        let middle_row = (1 << 3) | (1 << 5);
        assert!(!rings.stays_connected_without(4, middle_row));
        assert!(rings.stays_connected_without(4, middle_row | (1 << 0) | (1 << 1) | (1 << 2)));
    }
}
