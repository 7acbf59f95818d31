//! Where hooks lie: hook k is the outer row and column of its k x k square, and the
//! (k-1)-square it leaves sits in one of the square's four corners.
//!
//! A whole placement (a *layout*) is one corner per hook n..2, packed two bits per hook
//! into a `u32`: hook k's corner in bits `2(k-2)..2(k-2)+2`. Hook 1 is the single cell
//! left inside hook 2 and has no choice.

use crate::puzzles::grid::{Board, CellSet};

/// Slots for hook numbers 0..=11 (0 = not placed yet).
pub const HOOK_SLOTS: usize = Board::MAX_SIZE + 1;

/// How many ways hook `hook` can sit in its square: its elbow in one of the four corners,
/// except hook 1, which is the whole 1 x 1 square.
pub fn corner_count(hook: usize) -> u8 {
    if hook >= 2 {
        4
    } else {
        1
    }
}

/// The corner of hook `hook` in layout `code` (0 for hook 1).
pub fn layout_corner(code: u32, hook: usize) -> u8 {
    if hook < 2 {
        0
    } else {
        ((code >> (2 * (hook - 2))) & 3) as u8
    }
}

/// `code` with hook `hook`'s corner set to `corner` (hook 1 has no bits).
pub fn with_corner(code: u32, hook: usize, corner: u8) -> u32 {
    if hook < 2 {
        code
    } else {
        code | (u32::from(corner) << (2 * (hook - 2)))
    }
}

/// The number of layouts of a board of side `size`: 4^(size-1).
pub fn layout_count(size: usize) -> u64 {
    1u64 << (2 * size.saturating_sub(1))
}

/// A hook on the board: its cells and the top-left cell of the square it leaves inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// The hook's cells.
    pub cells: CellSet,
    /// Row of the top-left cell of the (k-1)-square inside.
    pub inner_top: usize,
    /// Column of the top-left cell of the (k-1)-square inside.
    pub inner_left: usize,
}

/// Hook `hook` in the square of side `hook` whose top-left cell is (`top`, `left`) on a
/// board of side `size`, with its elbow in `corner` (0 top-left, 1 top-right, 2
/// bottom-left, 3 bottom-right): the hook is that corner's row and column.
pub fn split_square(size: usize, hook: usize, top: usize, left: usize, corner: u8) -> Split {
    let bottom = top + hook - 1;
    let right = left + hook - 1;
    let (row, column) = match corner {
        0 => (top, left),
        1 => (top, right),
        2 => (bottom, left),
        _ => (bottom, right),
    };
    let mut cells: CellSet = 0;
    for c in left..=right {
        cells |= 1u128 << (row * size + c);
    }
    for r in top..=bottom {
        cells |= 1u128 << (r * size + column);
    }
    Split {
        cells,
        inner_top: if row == top { top + 1 } else { top },
        inner_left: if column == left { left + 1 } else { left },
    }
}

/// The hook number of every cell (`r * size + c`) under layout `code`.
#[cfg(test)]
pub fn hook_numbers(size: usize, code: u32) -> Vec<u8> {
    let mut numbers = vec![0u8; size * size];
    let (mut top, mut left) = (0, 0);
    for hook in (1..=size).rev() {
        let split = split_square(size, hook, top, left, layout_corner(code, hook));
        for cell in cells_of(split.cells) {
            numbers[cell] = hook as u8;
        }
        (top, left) = (split.inner_top, split.inner_left);
    }
    numbers
}

/// The cells of a set, lowest first.
pub fn cells_of(set: CellSet) -> Cells {
    Cells(set)
}

/// Iterator over the cells of a [`CellSet`], lowest first.
#[derive(Debug, Clone, Copy)]
pub struct Cells(CellSet);

impl Iterator for Cells {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let cell = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(cell)
    }
}

/// The lowest cell of a non-empty set, as a one-cell set.
#[inline]
pub fn lowest(set: CellSet) -> CellSet {
    set & set.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_post_example_0323_draws_its_five_by_five_picture() {
        // The post's full_grid "0323" (its digits 0..3 = bottom-left, top-left, top-right,
        // bottom-right elbows, one per hook from 5 down to 2); in our corners: 2, 3, 1, 3.
        let code = with_corner(with_corner(with_corner(with_corner(0, 5, 2), 4, 3), 3, 1), 2, 3);
        let picture = "53334\
                       51234\
                       52234\
                       54444\
                       55555";
        let expected: Vec<u8> = picture.bytes().map(|b| b - b'0').collect();
        assert_eq!(hook_numbers(5, code), expected);
    }

    #[test]
    fn every_layout_partitions_the_board_into_hooks_of_two_k_minus_one_cells() {
        for size in 1..=5 {
            for code in 0..layout_count(size) as u32 {
                let numbers = hook_numbers(size, code);
                for hook in 1..=size {
                    let count = numbers.iter().filter(|&&k| k as usize == hook).count();
                    assert_eq!(count, 2 * hook - 1, "size {size} code {code} hook {hook}");
                }
            }
        }
    }
}
