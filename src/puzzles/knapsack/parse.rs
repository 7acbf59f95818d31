//! Reading the `data` block of a knapsack instance: `{"capacity": C, "items": [[value,
//! weight], ...]}`.

use super::{Item, Knapsack};
use crate::puzzles::data::{array_of, integer_in, Fields};
use crate::puzzles::DataError;
use serde_json::Value;

/// The most items an instance may have: the model's tables are a few words per item, but
/// a depth-first search over more decisions than this is not what the workbench measures.
pub const MAX_ITEMS: usize = 10_000;

/// Reads the `data` block of a knapsack instance. Weights are positive, values and the
/// capacity non-negative, and the sums of the values and of the weights fit an `i64`, so
/// that no running total or prefix sum of the model can overflow.
pub(super) fn parse(data: &Value) -> Result<Knapsack, DataError> {
    let fields = Fields::of(data, "")?;
    let capacity = fields.integer("capacity", 0..=i64::MAX)?;
    let listed = fields.array("items")?;
    if listed.len() > MAX_ITEMS {
        return Err(DataError::new("items", format!("{} items; at most {MAX_ITEMS} are supported", listed.len())));
    }
    let mut items = Vec::with_capacity(listed.len());
    let (mut value_sum, mut weight_sum) = (0i64, 0i64);
    for (index, entry) in listed.iter().enumerate() {
        let path = format!("items[{index}]");
        let pair = array_of(entry, &path)?;
        if pair.len() != 2 {
            return Err(DataError::new(path, format!("expected [value, weight], found {} entries", pair.len())));
        }
        let value = integer_in(&pair[0], &format!("{path}[0]"), 0..=i64::MAX)?;
        let weight = integer_in(&pair[1], &format!("{path}[1]"), 1..=i64::MAX)?;
        value_sum = value_sum
            .checked_add(value)
            .ok_or_else(|| DataError::new(format!("{path}[0]"), "the values' sum does not fit a 64-bit integer"))?;
        weight_sum = weight_sum
            .checked_add(weight)
            .ok_or_else(|| DataError::new(format!("{path}[1]"), "the weights' sum does not fit a 64-bit integer"))?;
        items.push(Item { value, weight });
    }
    Ok(Knapsack { capacity, items })
}
