//! Static visiting orders of a grid's cells.

/// The order in which a grid model decides its cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellOrder {
    /// Row by row from the top, left to right.
    RowMajor,
    /// Column by column from the left, top to bottom.
    ColumnMajor,
    /// Outside in, clockwise from the top-left corner (the 24/7 post's order, reversed so
    /// that the border, where the view clues act, comes first).
    Spiral,
}

impl CellOrder {
    /// The cells of an `n` x `n` grid (`r * n + c`) in this order.
    pub fn cells(self, n: usize) -> Vec<usize> {
        match self {
            CellOrder::RowMajor => (0..n * n).collect(),
            CellOrder::ColumnMajor => (0..n).flat_map(|c| (0..n).map(move |r| r * n + c)).collect(),
            CellOrder::Spiral => spiral(n),
        }
    }
}

fn spiral(n: usize) -> Vec<usize> {
    let mut cells = Vec::with_capacity(n * n);
    let (mut top, mut left) = (0usize, 0usize);
    let (mut bottom, mut right) = (n as isize - 1, n as isize - 1);
    while (top as isize) <= bottom && (left as isize) <= right {
        let (b, r) = (bottom as usize, right as usize);
        cells.extend((left..=r).map(|c| top * n + c));
        cells.extend((top + 1..=b).map(|row| row * n + r));
        if (top as isize) < bottom {
            cells.extend((left..r).rev().map(|c| b * n + c));
        }
        if (left as isize) < right {
            cells.extend((top + 1..b).rev().map(|row| row * n + left));
        }
        top += 1;
        left += 1;
        bottom -= 1;
        right -= 1;
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_is_a_permutation() {
        for n in 1..=11 {
            for order in [CellOrder::RowMajor, CellOrder::ColumnMajor, CellOrder::Spiral] {
                let mut cells = order.cells(n);
                cells.sort();
                assert_eq!(cells, (0..n * n).collect::<Vec<_>>(), "{order:?} n={n}");
            }
        }
    }

    #[test]
    fn spiral_of_three_goes_round_then_centre() {
        assert_eq!(CellOrder::Spiral.cells(3), vec![0, 1, 2, 5, 8, 7, 6, 3, 4]);
    }
}
