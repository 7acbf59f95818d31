//! The `derived` mode's filter: the values a blank may take, narrowed by every rule that
//! can already decide them before they are offered as moves.

use super::bitset::{bits_below, is_empty, SetBits};
use super::geometry::{LINES_THROUGH, LINE_COUNT};
use super::model::{
    Placement, PrimeGridModel, RULE_DISTINCT, RULE_LINE_BOUND, RULE_LINE_PRIME, RULE_LINE_REACH, RULE_TOTAL_PRIME,
};
use crate::search::{Branch, RuleCounter, RuleId};

impl PrimeGridModel {
    /// The three smallest candidates not placed yet, ascending; `u32::MAX` where fewer remain.
    fn three_smallest_unplaced(&self) -> [u32; 3] {
        let mut smallest = [u32::MAX; 3];
        for (slot, value) in smallest.iter_mut().zip(SetBits::new(&self.unplaced)) {
            *slot = value;
        }
        smallest
    }

    /// Derived mode: pushes the values for `cell` that survive every check its lines allow
    /// now. Returns a dead end, naming the rule that rejected the last values, when none
    /// survives.
    ///
    /// The rules that hold for all values at once run on the bitset of free values, one
    /// word (64 values) per step: no repeat of a complete line's sum, then for each line
    /// the value completes, its sum below the bound and prime. Each step counts as one
    /// check of its rule. The survivors then go one by one through the rest: bounds on
    /// the lines left partial, distinctness of the sums just completed, the total.
    pub(super) fn push_derived_moves<C: RuleCounter>(
        &mut self,
        cell: usize,
        moves: &mut Vec<Placement>,
        counters: &mut C,
    ) -> Branch {
        let mut allowed = std::mem::take(&mut self.allowed);
        allowed.copy_from_slice(&self.unplaced);
        let before = moves.len();
        let emptied_by = match self.narrow_for(cell, &mut allowed, counters) {
            Err(rule) => Some(rule),
            Ok(()) => self.push_survivors(cell, &allowed, moves, counters),
        };
        self.allowed = allowed;
        match emptied_by {
            Some(rule) if moves.len() == before => Branch::DeadEnd(rule),
            _ => Branch::Moves,
        }
    }

    /// Clears from `allowed` the values for `cell` that a whole-set rule rejects; fails
    /// with the rule that removed the last value.
    fn narrow_for<C: RuleCounter>(&self, cell: usize, allowed: &mut [u64], counters: &mut C) -> Result<(), RuleId> {
        let shared = &*self.shared;
        if is_empty(allowed) {
            return Ok(());
        }
        counters.check(RULE_DISTINCT);
        for line in 0..LINE_COUNT {
            let sum = self.line_sums[line] as usize;
            if self.line_open[line] == 0 && sum < allowed.len() * 64 {
                allowed[sum / 64] &= !(1 << (sum % 64));
            }
        }
        if is_empty(allowed) {
            return Err(RULE_DISTINCT);
        }
        for &line in LINES_THROUGH[cell] {
            if self.line_open[line] != 1 {
                continue;
            }
            let partial = self.line_sums[line];
            // Bound: the value must stay below what the line has left.
            counters.check(RULE_LINE_BOUND);
            let room = shared.sum_bound.saturating_sub(partial);
            for (word, bits) in allowed.iter_mut().enumerate() {
                *bits &= bits_below(room, word);
            }
            if is_empty(allowed) {
                return Err(RULE_LINE_BOUND);
            }
            // Prime: keep the values `v` for which `partial + v` is prime.
            counters.check(RULE_LINE_PRIME);
            for (word, bits) in allowed.iter_mut().enumerate() {
                *bits &= shared.primes.window(partial, word);
            }
            if is_empty(allowed) {
                return Err(RULE_LINE_PRIME);
            }
        }
        Ok(())
    }

    /// Runs the per-value checks on the values left in `allowed` and pushes those that
    /// pass; returns the rule that rejected the last value tried, if one did.
    fn push_survivors<C: RuleCounter>(
        &self,
        cell: usize,
        allowed: &[u64],
        moves: &mut Vec<Placement>,
        counters: &mut C,
    ) -> Option<RuleId> {
        let mut last_rejection = None;
        let shared = &*self.shared;
        let last_blank = self.decided + 1 == shared.blanks.len();
        // The total of the 17 numbers before `cell` is filled.
        let base_total: u32 = self.cells.iter().sum::<u32>() + self.line_sums.iter().sum::<u32>();
        let smallest = self.three_smallest_unplaced();
        // 0 stands for a line not complete yet: no value or sum is 0.
        let complete_sums: [u32; LINE_COUNT] =
            std::array::from_fn(|line| if self.line_open[line] == 0 { self.line_sums[line] } else { 0 });
        'values: for value in SetBits::new(allowed) {
            let mut completed = [0u32; 4];
            let mut completed_count = 0;
            for &line in LINES_THROUGH[cell] {
                let sum = self.line_sums[line] + value;
                let open_after = self.line_open[line] - 1;
                if open_after == 0 {
                    completed[completed_count] = sum;
                    completed_count += 1;
                    continue;
                }
                // Bounds: the smallest completion grows with the value, so once it
                // reaches the bound it does for every larger value.
                counters.check(RULE_LINE_REACH);
                if sum.saturating_add(smallest_completion(&smallest, open_after, value)) >= shared.sum_bound {
                    last_rejection = Some(RULE_LINE_REACH);
                    break 'values;
                }
            }
            // Distinctness of the sums completed now: against the value, the cells, the
            // complete lines and each other.
            if completed_count > 0 {
                counters.check(RULE_DISTINCT);
                let mut repeated = false;
                for (index, &sum) in completed[..completed_count].iter().enumerate() {
                    repeated |= sum == value
                        || holds(&self.cells, sum)
                        || holds(&complete_sums, sum)
                        || completed[..index].contains(&sum);
                }
                if repeated {
                    last_rejection = Some(RULE_DISTINCT);
                    continue;
                }
            }
            if last_blank {
                // The value completes the grid: every line is complete, so the total is known.
                counters.check(RULE_TOTAL_PRIME);
                let total = base_total + value * (1 + LINES_THROUGH[cell].len() as u32);
                if !shared.primes.is_prime(total) {
                    last_rejection = Some(RULE_TOTAL_PRIME);
                    continue;
                }
            }
            moves.push(Placement { cell: cell as u8, value });
        }
        last_rejection
    }
}

/// Whether `numbers` holds `value`; written without an early exit so that it compiles to a
/// few compares without branches.
#[inline(always)]
fn holds<const N: usize>(numbers: &[u32; N], value: u32) -> bool {
    numbers.iter().fold(false, |found, &number| found | (number == value))
}

/// The sum of the `count` (1 or 2) smallest of `smallest` (the three smallest unplaced
/// candidates, ascending, `u32::MAX` where fewer remain) other than `excluded`.
#[inline]
fn smallest_completion(smallest: &[u32; 3], count: u8, excluded: u32) -> u32 {
    smallest
        .iter()
        .filter(|&&value| value != excluded)
        .take(count as usize)
        .fold(0u32, |sum, &value| sum.saturating_add(value))
}
