//! The 24/7 model's move, on its own so that the model and the cursor that makes the moves
//! both read it without reading each other.

/// A decision: cell `cell` (row-major) gets `value` (0 = empty, `FILL` = filled with a
/// digit still to choose).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// The cell, `r * n + c`.
    pub cell: u8,
    /// The value, 0 = empty.
    pub value: u8,
}
