//! A node's moves as one [`MoveCursor`]: the cell in the high half and the values still to
//! try as a bit set in the low half, so that the engine draws them one by one, smallest
//! value first (the order the list of moves had), without building a list.

use super::placement::Placement;
use super::values::{ValueSet, FILL, MAX_DIGIT};
use crate::search::MoveCursor;

/// The cursor's bit for a shape-first pattern move that fills the cell ([`FILL`]): above
/// every digit, so that it comes after empty (bit 0).
const FILL_BIT: u32 = MAX_DIGIT as u32 + 1;
/// Where the cell starts in a cursor.
const CELL_SHIFT: u32 = 32;

/// The moves giving `cell` each value of `values` (0 = empty, digits).
#[inline(always)]
pub(super) fn values_cursor(cell: usize, values: ValueSet) -> MoveCursor {
    (cell as MoveCursor) << CELL_SHIFT | MoveCursor::from(values)
}

/// The pattern moves of `cell`: empty if `options` allows it (bit 0), then filled if it
/// allows any digit (one move, whatever digits it allows).
#[inline(always)]
pub(super) fn pattern_cursor(cell: usize, options: ValueSet) -> MoveCursor {
    let empty = MoveCursor::from(options & 1);
    let fill = if options > 1 { 1 << FILL_BIT } else { 0 };
    (cell as MoveCursor) << CELL_SHIFT | empty | fill
}

/// The next move of `cursor`, which it drops; `None` once none is left.
#[inline(always)]
pub(super) fn next_placement(cursor: &mut MoveCursor) -> Option<Placement> {
    let values = *cursor as u32;
    if values == 0 {
        return None;
    }
    let bit = values.trailing_zeros();
    // The lowest set bit of the whole word is this value's: the low half is not empty.
    *cursor &= *cursor - 1;
    let value = if bit == FILL_BIT { FILL } else { bit as u8 };
    Some(Placement { cell: (*cursor >> CELL_SHIFT) as u8, value })
}
