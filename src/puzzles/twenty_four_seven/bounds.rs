//! The least and largest totals that `k` of the digits left can make, which bound what a
//! row or column may still need: the [`TotalBounds`] a line's values read, and the
//! [`BoundTable`] that holds them for every `k` at once. The table is filled in from the
//! model's supply (`candidates.rs`) and held per node by the upkeep (`kept.rs`).

use crate::puzzles::grid::Board;

/// A total no set of digits reaches (kept far from overflow).
pub(super) const UNREACHABLE: i32 = 1 << 24;

/// The smallest and largest total of `k` digits drawn from the digits left
/// (`UNREACHABLE`, or its negation, when fewer than `k` are left).
pub(super) trait TotalBounds {
    fn least(&self, k: usize) -> i32;
    fn most(&self, k: usize) -> i32;
}

/// The bounds for every `k` up to `line_filled`, for nodes that need many lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct BoundTable {
    /// `least[k]`: the smallest total of `k` digits left.
    pub least: [i32; Board::MAX_SIZE + 1],
    /// `most[k]`: the largest total of `k` digits left.
    pub most: [i32; Board::MAX_SIZE + 1],
}

impl BoundTable {
    /// The totals `k` (bit `k`, `k <= last`) whose least or largest bound differs in `other`.
    #[inline]
    pub(super) fn changed_totals(&self, other: &BoundTable, last: usize) -> u32 {
        (0..=last)
            .filter(|&k| self.least[k] != other.least[k] || self.most[k] != other.most[k])
            .fold(0, |changed, k| changed | 1 << k)
    }
}

impl TotalBounds for BoundTable {
    #[inline(always)]
    fn least(&self, k: usize) -> i32 {
        self.least[k]
    }
    #[inline(always)]
    fn most(&self, k: usize) -> i32 {
        self.most[k]
    }
}
