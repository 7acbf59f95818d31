//! A second enumerator of a grid's solutions, for the tests, built another way than the
//! model: first every pattern of filled cells (the right count per row and column, no
//! full 2x2 block, connected, covering the givens), then for each pattern every way to
//! put digits on it (line sums, the digit supply, givens and view clues, which on a known
//! pattern simply fix the first filled cell of a line). Every grid found is checked by
//! [`verify_grid`]. It shares no code with the model, so agreeing counts mean something.

use super::parse::{GridData, InstanceData};
use super::verify::verify_grid;

/// All solutions of `grid`, sorted.
pub fn reference_solutions(instance: &InstanceData, grid: &GridData) -> Vec<Vec<u8>> {
    let n = instance.size;
    let mut patterns = Vec::new();
    let mut rows = vec![0u32; n];
    let mut column_counts = vec![0usize; n];
    collect_patterns(instance, grid, 0, &mut rows, &mut column_counts, &mut patterns);
    let mut found = Vec::new();
    for pattern in patterns {
        let cells: Vec<usize> = (0..n * n).filter(|&cell| pattern[cell / n] & (1 << (cell % n)) != 0).collect();
        let forced = forced_digits(instance, grid, &pattern);
        let mut digits = Digits {
            instance,
            grid,
            cells: &cells,
            forced: &forced,
            values: vec![0; n * n],
            row_sum: vec![0; n],
            column_sum: vec![0; n],
            left: (0..=instance.max_value).collect(),
            found: &mut found,
        };
        digits.assign(0);
    }
    found.sort();
    found
}

/// Row by row, every row mask with `line_filled` cells that keeps the partial pattern
/// possible; complete patterns that are connected go to `patterns`.
fn collect_patterns(
    instance: &InstanceData,
    grid: &GridData,
    row: usize,
    rows: &mut Vec<u32>,
    column_counts: &mut Vec<usize>,
    patterns: &mut Vec<Vec<u32>>,
) {
    let n = instance.size;
    let wanted = instance.line_filled;
    if row == n {
        if connected(rows, n) {
            patterns.push(rows.clone());
        }
        return;
    }
    let given_mask: u32 = (0..n).filter(|&column| grid.givens[row * n + column] != 0).map(|column| 1 << column).sum();
    for mask in 0u32..(1 << n) {
        if mask.count_ones() as usize != wanted || mask & given_mask != given_mask {
            continue;
        }
        if row > 0 {
            let both = mask & rows[row - 1];
            if both & (both >> 1) != 0 {
                continue;
            }
        }
        let columns_possible = (0..n).all(|column| {
            let count = column_counts[column] + (mask >> column & 1) as usize;
            count <= wanted && count + (n - 1 - row) >= wanted
        });
        if !columns_possible {
            continue;
        }
        rows[row] = mask;
        for (column, count) in column_counts.iter_mut().enumerate() {
            *count += (mask >> column & 1) as usize;
        }
        if row + 1 == n || no_group_sealed_off(rows, row, n) {
            collect_patterns(instance, grid, row + 1, rows, column_counts, patterns);
        }
        for (column, count) in column_counts.iter_mut().enumerate() {
            *count -= (mask >> column & 1) as usize;
        }
    }
}

/// Groups of filled cells among rows `0..=last` (as cells `r * n + c`), by a walk.
fn groups(rows: &[u32], last: usize, n: usize) -> Vec<Vec<usize>> {
    let filled = |cell: usize| cell < (last + 1) * n && rows[cell / n] >> (cell % n) & 1 == 1;
    let mut seen = vec![false; (last + 1) * n];
    let mut found = Vec::new();
    for start in 0..(last + 1) * n {
        if !filled(start) || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut group = vec![start];
        let mut next = 0;
        while next < group.len() {
            let cell = group[next];
            next += 1;
            let (r, c) = (cell / n, cell % n);
            let steps = [
                (r > 0).then(|| cell - n),
                (r < last).then(|| cell + n),
                (c > 0).then(|| cell - 1),
                (c + 1 < n).then(|| cell + 1),
            ];
            for neighbour in steps.into_iter().flatten() {
                if filled(neighbour) && !seen[neighbour] {
                    seen[neighbour] = true;
                    group.push(neighbour);
                }
            }
        }
        found.push(group);
    }
    found
}

/// Every group of rows `0..=row` reaches row `row`, so it can still join the rows below.
fn no_group_sealed_off(rows: &[u32], row: usize, n: usize) -> bool {
    groups(rows, row, n).iter().all(|group| group.iter().any(|&cell| cell / n == row))
}

fn connected(rows: &[u32], n: usize) -> bool {
    groups(rows, n - 1, n).len() <= 1
}

/// The digit each view clue fixes on `pattern`: the first filled cell it sees must hold
/// it. `None` inside when two clues disagree on a cell (no solution on this pattern).
fn forced_digits(instance: &InstanceData, grid: &GridData, pattern: &[u32]) -> Vec<Option<usize>> {
    let n = instance.size;
    let filled = |row: usize, column: usize| pattern[row] >> column & 1 == 1;
    let mut forced: Vec<Option<usize>> = vec![Some(0); n * n];
    let mut force = |cell: usize, digit: usize| {
        forced[cell] = match forced[cell] {
            Some(0) => Some(digit),
            Some(old) if old == digit => Some(old),
            _ => None,
        };
    };
    for line in 0..n {
        // Sides in the order of `Side::ALL`: north, south, west, east.
        let looks: [(usize, Vec<usize>); 4] = [
            (0, (0..n).filter(|&row| filled(row, line)).map(|row| row * n + line).collect()),
            (1, (0..n).rev().filter(|&row| filled(row, line)).map(|row| row * n + line).collect()),
            (2, (0..n).filter(|&column| filled(line, column)).map(|column| line * n + column).collect()),
            (3, (0..n).rev().filter(|&column| filled(line, column)).map(|column| line * n + column).collect()),
        ];
        for (side, seen) in looks {
            let clue = grid.clues[side][line] as usize;
            if clue != 0 {
                if let Some(&first) = seen.first() {
                    force(first, clue);
                }
            }
        }
    }
    forced
}

/// Digits on one pattern's cells, in row-major order.
struct Digits<'a> {
    instance: &'a InstanceData,
    grid: &'a GridData,
    cells: &'a [usize],
    /// `Some(0)`: free; `Some(d)`: must be `d`; `None`: clues disagree.
    forced: &'a [Option<usize>],
    values: Vec<u8>,
    row_sum: Vec<i64>,
    column_sum: Vec<i64>,
    /// Copies of each digit not placed yet (index 0 unused).
    left: Vec<usize>,
    found: &'a mut Vec<Vec<u8>>,
}

impl Digits<'_> {
    fn assign(&mut self, index: usize) {
        if index == self.cells.len() {
            if verify_grid(self.instance, self.grid, &self.values).is_ok() {
                self.found.push(self.values.clone());
            }
            return;
        }
        let n = self.instance.size;
        let cell = self.cells[index];
        let (row, column) = (cell / n, cell % n);
        let Some(forced) = self.forced[cell] else { return };
        let given = self.grid.givens[cell] as usize;
        for digit in 1..=self.instance.max_value {
            if (given != 0 && digit != given) || (forced != 0 && digit != forced) || self.left[digit] == 0 {
                continue;
            }
            self.values[cell] = digit as u8;
            self.row_sum[row] += digit as i64;
            self.column_sum[column] += digit as i64;
            self.left[digit] -= 1;
            let rest = &self.cells[index + 1..];
            let row_rest = rest.iter().filter(|&&other| other / n == row).count();
            let column_rest = rest.iter().filter(|&&other| other % n == column).count();
            if self.reachable(self.row_sum[row], row_rest) && self.reachable(self.column_sum[column], column_rest) {
                self.assign(index + 1);
            }
            self.left[digit] += 1;
            self.column_sum[column] -= digit as i64;
            self.row_sum[row] -= digit as i64;
            self.values[cell] = 0;
        }
    }

    /// Whether `k` more digits among those left can bring `sum` to `line_sum`.
    fn reachable(&self, sum: i64, k: usize) -> bool {
        let ascending = (1..self.left.len()).flat_map(|digit| std::iter::repeat_n(digit as i64, self.left[digit]));
        let descending =
            (1..self.left.len()).rev().flat_map(|digit| std::iter::repeat_n(digit as i64, self.left[digit]));
        let least: Vec<i64> = ascending.take(k).collect();
        let most: i64 = descending.take(k).sum();
        let target = self.instance.line_sum;
        least.len() == k && sum + least.iter().sum::<i64>() <= target && target <= sum + most
    }
}
