//! Reading the `data` block of a Twenty Four Seven instance into plain vectors.

use super::geometry::Side;
use crate::puzzles::answer_type::GridAnswer;
use crate::puzzles::data::{integers_in, Fields};
use crate::puzzles::grid::Board;
use crate::puzzles::DataError;
use serde_json::Value;
use std::collections::HashMap;

/// The largest `max_value` accepted; a consistent instance has at most 15 (the digit supply
/// `m (m + 1) / 2` fills at most the 121 cells of an 11x11 grid).
pub const MAX_VALUE_LIMIT: i64 = 1000;

/// The most grids an instance may hold. Every grid is a component with its own model,
/// search and report: about 41 KiB each during a run. Measured: the peak resident memory
/// (`/usr/bin/time -v`, release build) of `solve` on files of 1,000 and 10,000 copies of the
/// four 7x7 grids of `instances/twenty_four_seven_2x2_2.json` was 44,964 and 413,492 KiB
/// (4 grids: 4,116 KiB), so (413,492 - 44,964) / 9,000 = 40.9 KiB per grid; the same with
/// `--json`, `--first` or `--parallel auto --threads 2` (41.2). A 16 MB file of tiny grids
/// (some 550,000) would need gigabytes; this cap keeps a run under about 410 MiB. The
/// published instances have one to four.
pub const MAX_GRIDS: usize = 10_000;

/// Memory a run needs per grid, in bytes (measured on 7x7 grids, see [`MAX_GRIDS`]), for the
/// refusal message.
const BYTES_PER_GRID: usize = 41 * 1024;

/// One grid of an instance, as written in the file.
#[derive(Debug, Clone)]
pub struct GridData {
    /// The grid's name (its component name).
    pub name: String,
    /// Given values, row-major, 0 = no given.
    pub givens: Vec<u16>,
    /// `clues[side as usize][line]`: the view clue (0 = none); north and south indexed by
    /// column, west and east by row.
    pub clues: [Vec<u16>; 4],
}

/// The instance: shared line rules and digit supply, and independent grids.
#[derive(Debug, Clone)]
pub struct InstanceData {
    /// Side `n` of every grid.
    pub size: usize,
    /// Filled cells in every row and column.
    pub line_filled: usize,
    /// Sum of the filled cells of every row and column.
    pub line_sum: i64,
    /// `m`: each grid holds one 1, two 2s, ..., `m` copies of `m`.
    pub max_value: usize,
    /// How the solved grids become the answer.
    pub answer_type: GridAnswer,
    /// The grids.
    pub grids: Vec<GridData>,
}

impl InstanceData {
    /// Whether the digit supply can fill the lines at all: `m (m + 1) / 2` digits must be
    /// `n * line_filled` cells and their total `1 + 2*2 + ... + m*m` must be `n * line_sum`.
    /// An instance where it cannot is valid data with no solution.
    pub fn supply_fits_lines(&self) -> bool {
        let m = self.max_value as i64;
        let n = self.size as i64;
        let copies = m * (m + 1) / 2;
        let total: i64 = (1..=m).map(|digit| digit * digit).sum();
        copies == n * self.line_filled as i64 && total == n * self.line_sum
    }
}

/// Parses `data`; every error names the offending key.
pub fn parse(data: &Value) -> Result<InstanceData, DataError> {
    let fields = Fields::of(data, "")?;
    // Any integer is read, so that one out of range is told the range the family supports.
    let size = fields.any_integer("size")?.filter(|size| (1..=Board::MAX_SIZE as i64).contains(size));
    let Some(size) = size else {
        return Err(DataError::new(
            "size",
            format!(
                "{} is out of range: grids of 1x1 up to {1}x{1} are supported (cells are 128-bit masks)",
                fields.get("size")?,
                Board::MAX_SIZE
            ),
        ));
    };
    let size = size as usize;
    let line_filled = fields.integer("line_filled", 0..=size as i64)? as usize;
    let line_sum = fields.integer("line_sum", 0..=1_000_000)?;
    let max_value = fields.integer("max_value", 1..=MAX_VALUE_LIMIT)? as usize;
    let answer_type = GridAnswer::read(&fields, "twenty_four_seven")?;
    let grid_values = fields.array("grids")?;
    if grid_values.is_empty() {
        return Err(DataError::new("grids", "expected at least one grid"));
    }
    if grid_values.len() > MAX_GRIDS {
        return Err(DataError::new(
            "grids",
            format!(
                "{} grids: at most {MAX_GRIDS} are accepted; each grid is searched and reported on its own, \
                 about {} KiB each (measured on 7x7 grids), so this file would need about {} MiB; split it \
                 into several files",
                grid_values.len(),
                BYTES_PER_GRID / 1024,
                grid_values.len() * BYTES_PER_GRID / (1024 * 1024)
            ),
        ));
    }
    let values = 0..=max_value as i64;
    let mut grids = Vec::with_capacity(grid_values.len());
    // Each grid's index by its name: a grid is a component named by it, and two of one name
    // could not be told apart in the report, the profile's rows or the solutions' lines.
    let mut named: HashMap<String, usize> = HashMap::with_capacity(grid_values.len());
    for (index, grid_value) in grid_values.iter().enumerate() {
        let path = format!("grids[{index}]");
        let grid = Fields::of(grid_value, &path)?;
        let name = grid.string("name")?.to_string();
        if let Some(earlier) = named.insert(name.clone(), index) {
            return Err(DataError::new(
                grid.key_path("name"),
                format!(
                    "`{name}` is also the name of grids[{earlier}]; each grid is reported, profiled and written \
                     to --solutions under its name: give each grid a name of its own"
                ),
            ));
        }
        let givens =
            grid.matrix("givens", size, size, values.clone())?.into_iter().flatten().map(|v| v as u16).collect();
        let mut clues: [Vec<u16>; 4] = Default::default();
        for (side, key) in Side::ALL.into_iter().zip(["north", "south", "west", "east"]) {
            clues[side as usize] = match grid.get_optional(key) {
                None => vec![0; size],
                Some(list) => integers_in(list, &grid.key_path(key), Some(size), values.clone())?
                    .into_iter()
                    .map(|v| v as u16)
                    .collect(),
            };
        }
        grids.push(GridData { name, givens, clues });
    }
    Ok(InstanceData { size, line_filled, line_sum, max_value, answer_type, grids })
}
