//! The answer types of the grid families (Hooks, Twenty Four Seven): how the solved grids
//! of an instance become its answer. An answer type belongs to the instance (its
//! `answer_type` key), not to the family: Jane Street's single-grid "Twenty Four Seven"
//! (June 2018) is answered by the product of the empty regions' areas, its four-grid
//! sequels by the sum of squares of the summed grid.

use super::data::Fields;
use super::grid::Board;
use super::DataError;

/// How solved grids (row-major digits, 0 = empty) become the answer. Both types first add
/// the grids entry by entry (one grid is its own sum).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridAnswer {
    /// The sum of the squares of the entries of the summed grid.
    SumOfSquaresOfGridSum,
    /// The product of the areas of the orthogonally connected regions of empty (0) cells
    /// of the summed grid (1 when there is none); saturates at `u64::MAX`.
    ProductOfEmptyRegionAreas,
}

impl GridAnswer {
    /// Every type, in the order messages list them.
    pub const ALL: [GridAnswer; 2] = [GridAnswer::SumOfSquaresOfGridSum, GridAnswer::ProductOfEmptyRegionAreas];

    /// The type's name in instance files.
    pub fn name(self) -> &'static str {
        match self {
            GridAnswer::SumOfSquaresOfGridSum => "sum_of_squares_of_grid_sum",
            GridAnswer::ProductOfEmptyRegionAreas => "product_of_empty_region_areas",
        }
    }

    /// Reads the `answer_type` key of a `family` data block.
    pub fn read(fields: &Fields<'_>, family: &str) -> Result<GridAnswer, DataError> {
        let name = fields.string("answer_type")?;
        GridAnswer::ALL.into_iter().find(|answer| answer.name() == name).ok_or_else(|| {
            let names: Vec<String> = GridAnswer::ALL.iter().map(|answer| format!("`{}`", answer.name())).collect();
            DataError::new(
                fields.key_path("answer_type"),
                format!("`{name}` is not an answer type of {family}; expected {}", names.join(" or ")),
            )
        })
    }

    /// The answer of the `size` x `size` grids `grids`, added entry by entry.
    pub fn of_grids<'a>(self, size: usize, grids: impl IntoIterator<Item = &'a [u8]>) -> u64 {
        let mut total = vec![0u64; size * size];
        for grid in grids {
            for (entry, &value) in total.iter_mut().zip(grid) {
                *entry += u64::from(value);
            }
        }
        match self {
            GridAnswer::SumOfSquaresOfGridSum => total.iter().map(|entry| entry * entry).sum(),
            GridAnswer::ProductOfEmptyRegionAreas => {
                let empty = (0..total.len()).filter(|&cell| total[cell] == 0).fold(0u128, |set, cell| set | 1 << cell);
                Board::new(size)
                    .components(empty)
                    .iter()
                    .fold(1u64, |product, region| product.saturating_mul(u64::from(region.count_ones())))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4x4 grid, counted by hand:
    /// ```text
    /// 1 . . 2
    /// 3 3 . 2
    /// . 4 4 4
    /// . . 4 .
    /// ```
    /// Empty regions: {(0,1), (0,2), (1,2)} of area 3, {(2,0), (3,0), (3,1)} of area 3,
    /// {(3,3)} of area 1: product 9. Squares: 1 + 4 + 9 + 9 + 4 + 16 * 4 = 91.
    const GRID: [u8; 16] = [1, 0, 0, 2, 3, 3, 0, 2, 0, 4, 4, 4, 0, 0, 4, 0];

    #[test]
    fn both_answer_types_of_a_grid_counted_by_hand() {
        assert_eq!(GridAnswer::ProductOfEmptyRegionAreas.of_grids(4, [&GRID[..]]), 9);
        assert_eq!(GridAnswer::SumOfSquaresOfGridSum.of_grids(4, [&GRID[..]]), 91);
    }

    #[test]
    fn several_grids_are_summed_before_either_answer() {
        let mut other = [0u8; 16];
        other[1] = 5; // fills (0,1): the first empty region shrinks to area 2.
        assert_eq!(GridAnswer::ProductOfEmptyRegionAreas.of_grids(4, [&GRID[..], &other[..]]), 6);
        assert_eq!(GridAnswer::SumOfSquaresOfGridSum.of_grids(4, [&GRID[..], &other[..]]), 91 + 25);
        assert_eq!(GridAnswer::ProductOfEmptyRegionAreas.of_grids(2, [&[1u8, 2, 3, 4][..]]), 1);
    }
}
