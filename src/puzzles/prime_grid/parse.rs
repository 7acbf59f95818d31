//! Reading the `data` block of a prime grid instance: the givens and the two bounds.

use super::geometry::CELLS;
use super::PrimeGrid;
use crate::puzzles::data::{kind, Fields};
use crate::puzzles::DataError;
use serde_json::Value;

/// The largest exclusive bound on cells and on line sums that an instance may ask for.
pub const MAX_BOUND: u32 = 1_000_000;

/// Reads the `data` block of a prime grid instance.
pub(super) fn parse(data: &Value) -> Result<PrimeGrid, DataError> {
    let fields = Fields::of(data, "")?;
    let rows = fields.matrix("givens", 3, 3, 0..=i64::from(MAX_BOUND))?;
    let mut givens = [0u32; CELLS];
    for (cell, value) in rows.iter().flatten().enumerate() {
        givens[cell] = *value as u32;
    }
    let cell_bound = read_bound(&fields, "cell_bound_exclusive")?;
    let sum_bound = read_bound(&fields, "sum_bound_exclusive")?;
    // A given no cell may hold is a typo in the file, not a puzzle without solutions.
    // (A given that is in range but not prime is left to the search: 0 solutions.) Either
    // the given or the bound may be the typo: the error names the largest given and the
    // bound, under the bound's key, and a blank (0) is never out of range.
    let largest = givens.iter().enumerate().filter(|(_, &given)| given != 0).max_by_key(|(_, &given)| given);
    if let Some((cell, &given)) = largest.filter(|(_, &given)| given >= cell_bound) {
        return Err(DataError::new(
            "cell_bound_exclusive",
            format!(
                "{cell_bound} is not above the given {given} at givens[{}][{}]: every cell holds a number below \
                 the bound (0 = blank); raise the bound or correct the given",
                cell / 3,
                cell % 3
            ),
        ));
    }
    if let Some(answer_type) = fields.get_optional("answer_type") {
        if answer_type.as_str() != Some("min_total_solution") {
            return Err(DataError::new(
                "answer_type",
                format!("expected \"min_total_solution\" (the only answer type of prime_grid), found {answer_type}"),
            ));
        }
    }
    Ok(PrimeGrid { givens, cell_bound, sum_bound })
}

/// Reads an exclusive bound, refusing values above [`MAX_BOUND`].
fn read_bound(fields: &Fields, key: &str) -> Result<u32, DataError> {
    let value = fields.get(key)?;
    match value.as_i64() {
        Some(bound) if (0..=i64::from(MAX_BOUND)).contains(&bound) => Ok(bound as u32),
        Some(bound) if bound < 0 => Err(DataError::new(key, format!("{bound} is negative; expected 0 to {MAX_BOUND}"))),
        Some(bound) => Err(DataError::new(key, format!("{bound} is above the supported limit of {MAX_BOUND}"))),
        None => Err(DataError::new(key, format!("expected an integer from 0 to {MAX_BOUND}, found {}", kind(value)))),
    }
}
