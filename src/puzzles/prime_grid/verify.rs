//! The independent checker: a filled grid against the rules as the puzzle states them.

use super::geometry::{cell_name, line_sums_of, numbers_of, total_of, LINE_NAMES};
use super::model::PrimeGridSolution;
use super::PrimeGrid;
use crate::puzzles::primes::is_prime_by_trial_division;

/// Checks `solution` against the rules as written (primes by trial division, not the
/// model's table); the error names the first rule that fails.
pub(super) fn check(grid: &PrimeGrid, solution: &PrimeGridSolution) -> Result<(), String> {
    let PrimeGridSolution { total, cells: solution } = solution;
    if *total != total_of(solution) {
        return Err(format!(
            "the solution records a total of {total}, but its numbers add up to {}",
            total_of(solution)
        ));
    }
    for (cell, (&value, &given)) in solution.iter().zip(&grid.givens).enumerate() {
        if given != 0 && value != given {
            return Err(format!("cell {} holds {value}, but its given is {given}", cell_name(cell)));
        }
        if value >= grid.cell_bound {
            return Err(format!("cell {} holds {value}, not below {}", cell_name(cell), grid.cell_bound));
        }
        if !is_prime_by_trial_division(u64::from(value)) {
            return Err(format!("cell {} holds {value}, which is not prime", cell_name(cell)));
        }
    }
    for (line, sum) in line_sums_of(solution).into_iter().enumerate() {
        if sum >= grid.sum_bound || !is_prime_by_trial_division(u64::from(sum)) {
            return Err(format!("{} sums to {sum}, not a prime below {}", LINE_NAMES[line], grid.sum_bound));
        }
    }
    let numbers = numbers_of(solution);
    for (index, value) in numbers.iter().enumerate() {
        if numbers[..index].contains(value) {
            return Err(format!("{value} occurs twice among the 9 cells and the 8 line sums"));
        }
    }
    let total = total_of(solution);
    if !is_prime_by_trial_division(u64::from(total)) {
        return Err(format!("the total of the 17 numbers is {total}, which is not prime"));
    }
    Ok(())
}
