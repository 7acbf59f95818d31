//! Reading and validating a Hooks `data` block.

use super::Hooks;
use crate::puzzles::answer_type::GridAnswer;
use crate::puzzles::data::{integer_in, Fields};
use crate::puzzles::grid::Board;
use crate::puzzles::DataError;
use serde_json::Value;

/// A fixed digit of the instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Given {
    /// Row, 0 at the top.
    pub row: usize,
    /// Column, 0 at the left.
    pub column: usize,
    /// The digit; 0 means the cell is known to be empty.
    pub value: u8,
}

/// Parses and validates `data` (see `instances/README.md`).
pub fn parse(data: &Value) -> Result<Hooks, DataError> {
    let fields = Fields::of(data, "")?;
    // Any integer is read, so that one out of range is told the range the family supports.
    let size = fields.any_integer("size")?.filter(|size| (1..=Board::MAX_SIZE as i64).contains(size));
    let Some(size) = size else {
        return Err(DataError::new(
            "size",
            format!(
                "{} is out of range: Hooks supports sides 1 to {} (the cells of a board are the \
                 bits of one 128-bit set; two-phase then enumerates at most 4^{} = {} placements)",
                fields.get("size")?,
                Board::MAX_SIZE,
                Board::MAX_SIZE - 1,
                super::geometry::layout_count(Board::MAX_SIZE)
            ),
        ));
    };
    let size = size as usize;
    let cells = size * size;

    let mut regions = Vec::new();
    let mut region_of: Vec<Option<usize>> = vec![None; cells];
    for (index, region) in fields.array("regions")?.iter().enumerate() {
        let path = format!("regions[{index}]");
        let members = super::super::data::integers_in(region, &path, None, 0..=cells as i64 - 1)?;
        if members.is_empty() {
            return Err(DataError::new(path, "a region needs at least one cell"));
        }
        let mut list = Vec::with_capacity(members.len());
        for (position, &cell) in members.iter().enumerate() {
            let cell = cell as usize;
            if let Some(other) = region_of[cell] {
                return Err(DataError::new(
                    format!("{path}[{position}]"),
                    format!(
                        "cell {cell} (row {}, column {}) is already in region {other}; regions must partition the grid",
                        cell / size,
                        cell % size
                    ),
                ));
            }
            region_of[cell] = Some(index);
            list.push(cell);
        }
        regions.push(list);
    }
    let region_of: Vec<usize> = region_of
        .iter()
        .enumerate()
        .map(|(cell, region)| {
            region.ok_or_else(|| {
                DataError::new(
                    "regions",
                    format!(
                        "cell {cell} (row {}, column {}) is in no region; regions must partition the grid",
                        cell / size,
                        cell % size
                    ),
                )
            })
        })
        .collect::<Result<_, _>>()?;

    let map = fields.matrix("region_map", size, size, 0..=regions.len() as i64 - 1)?;
    for (row, line) in map.iter().enumerate() {
        for (column, &region) in line.iter().enumerate() {
            let expected = region_of[row * size + column];
            if region as usize != expected {
                return Err(DataError::new(
                    format!("region_map[{row}][{column}]"),
                    format!(
                        "says region {region}, but `regions` puts cell {} in region {expected}",
                        row * size + column
                    ),
                ));
            }
        }
    }

    let region_sum = match fields.get("region_sum")? {
        Value::Null => None,
        value => Some(integer_in(value, &fields.key_path("region_sum"), 0..=1_000_000)? as u32),
    };

    let mut givens: Vec<Given> = Vec::new();
    for (index, item) in fields.array("givens")?.iter().enumerate() {
        let path = format!("givens[{index}]");
        let given = Fields::of(item, &path)?;
        let row = given.integer("r", 0..=size as i64 - 1)? as usize;
        let column = given.integer("c", 0..=size as i64 - 1)? as usize;
        let value = given.integer("v", 0..=size as i64)? as u8;
        if let Some(earlier) = givens.iter().position(|g| g.row == row && g.column == column) {
            return Err(DataError::new(
                path,
                format!("cell (row {row}, column {column}) is already given by givens[{earlier}]"),
            ));
        }
        givens.push(Given { row, column, value });
    }

    let answer_type = GridAnswer::read(&fields, "hooks")?;

    Ok(Hooks { size, regions, region_sum, givens, answer_type })
}

/// The sum every region must reach, or `None` when no layout can make them all equal:
/// the digits total n(n+1)(2n+1)/6 and the regions tile the grid, so the common sum is
/// that total divided by the number of regions (and must match `region_sum` if given).
pub fn common_sum(size: usize, region_count: usize, region_sum: Option<u32>) -> Option<u32> {
    let total = (size * (size + 1) * (2 * size + 1) / 6) as u64;
    let regions = region_count as u64;
    match region_sum {
        Some(sum) if u64::from(sum) * regions == total => Some(sum),
        Some(_) => None,
        None if total.is_multiple_of(regions) => Some((total / regions) as u32),
        None => None,
    }
}
