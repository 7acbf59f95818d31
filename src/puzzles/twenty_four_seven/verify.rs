//! An independent check of a solved grid against the rules as written, sharing no code
//! with the search: plain loops over rows and columns and a breadth-first walk.

use super::geometry::Side;
use super::parse::{GridData, InstanceData};
use std::collections::VecDeque;

/// Checks `solution` (row-major, 0 = empty) for grid `grid`; the error names the rule.
pub fn verify_grid(instance: &InstanceData, grid: &GridData, solution: &[u8]) -> Result<(), String> {
    let n = instance.size;
    if solution.len() != n * n {
        return Err(format!("expected {} cells, found {}", n * n, solution.len()));
    }
    let at = |row: usize, column: usize| solution[row * n + column] as usize;
    for (cell, (&value, &given)) in solution.iter().zip(&grid.givens).enumerate() {
        if value as usize > instance.max_value {
            return Err(format!("cell {cell} holds {value}, above max_value {}", instance.max_value));
        }
        if given != 0 && value as u16 != given {
            return Err(format!("cell ({}, {}) holds {value}, but {given} is given", cell / n, cell % n));
        }
    }
    for digit in 1..=instance.max_value {
        let copies = solution.iter().filter(|&&value| value as usize == digit).count();
        if copies != digit {
            return Err(format!("digit {digit} appears {copies} times, not {digit}"));
        }
    }
    for line in 0..n {
        let row: Vec<usize> = (0..n).map(|column| at(line, column)).collect();
        let column: Vec<usize> = (0..n).map(|row| at(row, line)).collect();
        for (what, values) in [("row", row), ("column", column)] {
            let count = values.iter().filter(|&&value| value != 0).count();
            let sum: usize = values.iter().sum();
            if count != instance.line_filled || sum as i64 != instance.line_sum {
                return Err(format!(
                    "{what} {line} has {count} digits summing to {sum}, not {} summing to {}",
                    instance.line_filled, instance.line_sum
                ));
            }
        }
    }
    for row in 0..n.saturating_sub(1) {
        for column in 0..n - 1 {
            if at(row, column) != 0
                && at(row + 1, column) != 0
                && at(row, column + 1) != 0
                && at(row + 1, column + 1) != 0
            {
                return Err(format!("the 2x2 block at ({row}, {column}) is full"));
            }
        }
    }
    let filled: Vec<usize> = (0..n * n).filter(|&cell| solution[cell] != 0).collect();
    if let Some(&start) = filled.first() {
        let mut seen = vec![false; n * n];
        let mut queue = VecDeque::from([start]);
        seen[start] = true;
        let mut reached = 0;
        while let Some(cell) = queue.pop_front() {
            reached += 1;
            let (row, column) = (cell / n, cell % n);
            let steps = [
                (row > 0).then(|| cell - n),
                (row + 1 < n).then(|| cell + n),
                (column > 0).then(|| cell - 1),
                (column + 1 < n).then(|| cell + 1),
            ];
            for next in steps.into_iter().flatten() {
                if solution[next] != 0 && !seen[next] {
                    seen[next] = true;
                    queue.push_back(next);
                }
            }
        }
        if reached != filled.len() {
            return Err(format!("the filled cells are not connected ({reached} of {} reached)", filled.len()));
        }
    }
    for side in Side::ALL {
        for (line, &clue) in grid.clues[side as usize].iter().enumerate() {
            if clue == 0 {
                continue;
            }
            let look: Vec<usize> = match side {
                Side::North => (0..n).map(|row| at(row, line)).collect(),
                Side::South => (0..n).rev().map(|row| at(row, line)).collect(),
                Side::West => (0..n).map(|column| at(line, column)).collect(),
                Side::East => (0..n).rev().map(|column| at(line, column)).collect(),
            };
            let seen = look.into_iter().find(|&value| value != 0).unwrap_or(0);
            if seen != clue as usize {
                return Err(format!("the {side:?} clue {clue} of line {line} sees {seen}"));
            }
        }
    }
    Ok(())
}
