//! The independent checker: a packing against the rules as stated, sharing no code with
//! the model.

use super::Knapsack;

/// Checks that `solution` lists distinct items of the instance, ascending, whose weights
/// fit the capacity; the error names the first rule that fails.
pub(super) fn check(knapsack: &Knapsack, solution: &[u32]) -> Result<(), String> {
    let count = knapsack.items.len();
    if let Some(&item) = solution.iter().find(|&&item| item as usize >= count) {
        return Err(format!("item {item} does not exist (the instance has {count} items)"));
    }
    if let Some(pair) = solution.windows(2).find(|pair| pair[0] >= pair[1]) {
        return Err(format!("items are not distinct and ascending: {} then {}", pair[0], pair[1]));
    }
    let weight: i128 = solution.iter().map(|&item| i128::from(knapsack.items[item as usize].weight)).sum();
    if weight > i128::from(knapsack.capacity) {
        return Err(format!("the items weigh {weight}, over the capacity {}", knapsack.capacity));
    }
    Ok(())
}
