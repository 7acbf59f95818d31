//! An independent checker of Hooks solutions, written from the rules as stated and
//! sharing no code with the search (no bitboards, no placement codes).

use super::Hooks;

/// Checks `digits` (row-major, 0 = empty) against every rule of `instance`; the error
/// names the first rule that fails.
pub fn check(instance: &Hooks, digits: &[u8]) -> Result<(), String> {
    let n = instance.size;
    if digits.len() != n * n {
        return Err(format!("{} cells, expected {}", digits.len(), n * n));
    }
    if let Some(cell) = digits.iter().position(|&d| d as usize > n) {
        return Err(format!("cell {cell} holds {}, above {n}", digits[cell]));
    }
    check_hooks(n, digits)?;
    check_connected(n, digits)?;
    check_no_full_block(n, digits)?;
    check_region_sums(instance, digits)?;
    for given in &instance.givens {
        let digit = digits[given.row * n + given.column];
        if digit != given.value {
            return Err(format!("given ({}, {}) = {} holds {digit}", given.row, given.column, given.value));
        }
    }
    Ok(())
}

/// The digits 1..=k must fill exactly the k-square of hook k: their bounding box is a
/// k x k square (so it holds the (k-1)-square's box in a corner), the k copies of k lie
/// outside the (k-1)-square, and there are exactly k of them.
fn check_hooks(n: usize, digits: &[u8]) -> Result<(), String> {
    let mut inner: Option<(usize, usize, usize, usize)> = None;
    for k in 1..=n {
        let cells: Vec<(usize, usize)> = (0..n * n)
            .filter(|&cell| digits[cell] != 0 && digits[cell] as usize <= k)
            .map(|cell| (cell / n, cell % n))
            .collect();
        let copies = digits.iter().filter(|&&d| d as usize == k).count();
        if copies != k {
            return Err(format!("hook {k} holds {copies} copies of {k}"));
        }
        let top = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let bottom = cells.iter().map(|c| c.0).max().unwrap_or(0);
        let left = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let right = cells.iter().map(|c| c.1).max().unwrap_or(0);
        if bottom - top + 1 != k || right - left + 1 != k {
            return Err(format!("the digits 1..={k} do not span a {k}x{k} square"));
        }
        if let Some((inner_top, inner_bottom, inner_left, inner_right)) = inner {
            let inside = |&(r, c): &(usize, usize)| {
                (inner_top..=inner_bottom).contains(&r) && (inner_left..=inner_right).contains(&c)
            };
            let misplaced = (0..n * n)
                .filter(|&cell| digits[cell] as usize == k)
                .map(|cell| (cell / n, cell % n))
                .find(|cell| inside(cell));
            if let Some((r, c)) = misplaced {
                return Err(format!("the {k} at ({r}, {c}) lies inside the square of hook {}", k - 1));
            }
        }
        inner = Some((top, bottom, left, right));
    }
    Ok(())
}

fn check_connected(n: usize, digits: &[u8]) -> Result<(), String> {
    let filled: Vec<usize> = (0..n * n).filter(|&cell| digits[cell] != 0).collect();
    let Some(&start) = filled.first() else { return Ok(()) };
    let mut seen = vec![false; n * n];
    let mut stack = vec![start];
    seen[start] = true;
    let mut reached = 0;
    while let Some(cell) = stack.pop() {
        reached += 1;
        let (r, c) = (cell / n, cell % n);
        let mut neighbours = Vec::with_capacity(4);
        if r > 0 {
            neighbours.push(cell - n);
        }
        if r + 1 < n {
            neighbours.push(cell + n);
        }
        if c > 0 {
            neighbours.push(cell - 1);
        }
        if c + 1 < n {
            neighbours.push(cell + 1);
        }
        for next in neighbours {
            if digits[next] != 0 && !seen[next] {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    if reached == filled.len() {
        Ok(())
    } else {
        Err(format!("the filled cells are not connected ({reached} of {} reached)", filled.len()))
    }
}

fn check_no_full_block(n: usize, digits: &[u8]) -> Result<(), String> {
    for r in 0..n.saturating_sub(1) {
        for c in 0..n - 1 {
            let block = [r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1];
            if block.iter().all(|&cell| digits[cell] != 0) {
                return Err(format!("the 2x2 block at ({r}, {c}) is full"));
            }
        }
    }
    Ok(())
}

fn check_region_sums(instance: &Hooks, digits: &[u8]) -> Result<(), String> {
    let sums: Vec<u32> =
        instance.regions.iter().map(|region| region.iter().map(|&cell| u32::from(digits[cell])).sum()).collect();
    let expected = instance.region_sum.unwrap_or(sums[0]);
    match sums.iter().position(|&sum| sum != expected) {
        Some(region) => Err(format!("region {region} sums to {}, not {expected}", sums[region])),
        None => Ok(()),
    }
}
