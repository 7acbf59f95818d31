//! The values of one cell as bits: the largest digit a model holds, the value sets the
//! rules narrow, and the marker of a shape-first cell filled with a digit still to choose.
//! The bottom of the family's imports: every other file may use it.

/// The largest digit a model can hold: a digit set is a `u16` whose bit 0 stands for empty.
pub const MAX_DIGIT: usize = 15;

/// A set of values of one cell: bit 0 = empty, bit `d` = digit `d`.
pub type ValueSet = u16;

/// The value of a shape-first pattern move: the cell is filled, its digit decided later.
pub const FILL: u8 = u8::MAX;
