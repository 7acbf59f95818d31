//! `rules=joint`: whether the digits still to place can be shared out among all the
//! regions at once, and the share table that shows it, kept per depth.
//!
//! The `derived` test asks each region alone whether some number of each hook's digits can
//! complete it, so two regions may both count on the same digits. The joint test asks for
//! one table of counts, `share[r][k]` digits of hook k in region r, such that
//! - each hook's counts add up to the digits it still needs,
//! - no count exceeds the hook's undecided cells in that region,
//! - every region's counts complete its sum.
//!
//! Finding a table is a small search over hooks, largest first. Most moves keep the
//! parent's table valid after a one-count update, so the search runs only when a move
//! contradicts it (see [`follow_move`]).

use super::geometry::HOOK_SLOTS;
use super::sums::{add_copies, DigitRange, SumSet};

/// The undecided cells of each hook in one region, indexed by hook number.
pub type HookCounts = [u8; HOOK_SLOTS];

/// One test: what each hook still needs and where its undecided cells are.
pub struct Demand<'a> {
    /// `quota[k]`: digits of hook k still to place.
    pub quota: &'a HookCounts,
    /// `open[r][k]`: undecided cells of hook k in region r.
    pub open: &'a [HookCounts],
    /// The largest hook number.
    pub largest: usize,
}

impl Demand<'_> {
    /// Whether some share table completes every region, given what each region still
    /// needs (`needs[r]`; restored before returning). On success `share` holds one.
    pub fn find_share(&self, needs: &mut [u32], share: &mut [HookCounts], scratch: &mut ShareScratch) -> bool {
        let largest_need = needs.iter().copied().max().unwrap_or(0);
        // Narrow sets when they hold every need: the usual case, and cheaper.
        let each_region_can = if largest_need < u64::BITS {
            self.region_sums::<u64>(needs, largest_need, &mut scratch.sums)
        } else {
            self.region_sums::<u128>(needs, largest_need, &mut scratch.sums)
        };
        if !each_region_can {
            return false;
        }
        let search = ShareSearch { demand: self, sums: &scratch.sums, regions: needs.len() };
        search.share_hook(self.largest, 0, u32::from(self.quota[self.largest]), needs, share)
    }

    /// Fills `sums[k * regions + r]` with the totals hooks 1..=k can still give region r,
    /// each hook between the digits no other region can take and all it has in r (the
    /// `derived` test, region by region). Returns false as soon as a region cannot reach
    /// its need at all.
    fn region_sums<S: SumSet>(&self, needs: &[u32], largest_need: u32, sums: &mut Vec<u128>) -> bool {
        let regions = needs.len();
        let keep = S::up_to(largest_need);
        let mut open_total: HookCounts = [0; HOOK_SLOTS];
        for open in self.open {
            for hook in 1..=self.largest {
                open_total[hook] += open[hook];
            }
        }
        sums.clear();
        sums.resize((self.largest + 1) * regions, 1);
        for (region, open) in self.open.iter().enumerate() {
            let mut reachable = S::ONLY_ZERO;
            for hook in 1..=self.largest {
                let elsewhere = u32::from(open_total[hook] - open[hook]);
                let range =
                    DigitRange::for_hook(hook as u32, u32::from(self.quota[hook]), u32::from(open[hook]), elsewhere);
                let Some(range) = range else {
                    // The hook has fewer undecided cells than digits left.
                    return false;
                };
                if range.most > 0 {
                    reachable = add_copies(reachable, range, keep);
                }
                sums[hook * regions + region] = reachable.into();
            }
            if !contains(reachable.into(), needs[region]) {
                return false;
            }
        }
        true
    }
}

/// Whether `total` is one of `sums`. Totals past the set's 128 bits are not tracked, so
/// they count as reachable: the bound only ever keeps a hopeless branch, never cuts one.
#[inline]
fn contains(sums: u128, total: u32) -> bool {
    total >= u128::BITS || (sums >> total) & 1 == 1
}

/// What the share search reuses from one call to the next, so that it does not allocate.
#[derive(Debug, Clone, Default)]
pub struct ShareScratch {
    sums: Vec<u128>,
}

/// The search behind [`Demand::find_share`].
struct ShareSearch<'a, 'b> {
    demand: &'a Demand<'b>,
    sums: &'a [u128],
    regions: usize,
}

impl ShareSearch<'_, '_> {
    /// Shares `left` more digits of hook `hook` among regions `region..`, then goes on with
    /// the next smaller hook.
    fn share_hook(&self, hook: usize, region: usize, left: u32, needs: &mut [u32], share: &mut [HookCounts]) -> bool {
        let demand = self.demand;
        if region == self.regions {
            // Every region was checked against the smaller hooks when its count was chosen.
            return left == 0
                && (hook == 1 || self.share_hook(hook - 1, 0, u32::from(demand.quota[hook - 1]), needs, share));
        }
        let digit = hook as u32;
        let most = u32::from(demand.open[region][hook]).min(left).min(needs[region] / digit);
        let room_after: u32 = demand.open[region + 1..].iter().map(|open| u32::from(open[hook])).sum();
        let least = left.saturating_sub(room_after);
        // What hooks 1..hook-1 can still give this region (only 0 below hook 1).
        let smaller = self.sums[(hook - 1) * self.regions + region];
        // Largest counts first: the big digits settle the sums soonest.
        for count in (least..=most).rev() {
            let rest = needs[region] - count * digit;
            if !contains(smaller, rest) {
                continue;
            }
            needs[region] = rest;
            share[region][hook] = count as u8;
            let found = self.share_hook(hook, region + 1, left - count, needs, share);
            needs[region] = rest + count * digit;
            if found {
                return true;
            }
        }
        false
    }
}

/// Updates a table valid before one cell of hook `hook` in region `region` was decided so
/// that it is valid after, when one count changes at most: a digit placed uses one of the
/// hook's counted digits in the region; a blank must leave the region's count within its
/// `open_after` undecided cells of the hook. Returns false when the move contradicts the
/// table (a new one must be searched for).
#[inline]
pub fn follow_move(share: &mut [HookCounts], region: usize, hook: usize, filled: bool, open_after: u8) -> bool {
    let count = &mut share[region][hook];
    if filled {
        if *count == 0 {
            return false;
        }
        *count -= 1;
        true
    } else {
        *count <= open_after
    }
}

/// One share table per depth, each valid for the state at its depth when flagged so.
#[derive(Debug, Clone, Default)]
pub struct ShareStack {
    regions: usize,
    tables: Vec<HookCounts>,
    valid: Vec<bool>,
}

impl ShareStack {
    /// A stack for `regions` regions holding the root's table (not valid yet).
    pub fn new(regions: usize, max_depth: usize) -> ShareStack {
        let mut tables = Vec::with_capacity(regions * (max_depth + 2));
        tables.resize(regions, [0; HOOK_SLOTS]);
        let mut valid = Vec::with_capacity(max_depth + 2);
        valid.push(false);
        ShareStack { regions, tables, valid }
    }

    /// Enters a child: its table starts as a copy of its parent's.
    #[inline]
    pub fn push(&mut self) {
        let top = self.tables.len() - self.regions;
        self.tables.extend_from_within(top..);
        let parent_valid = self.valid[self.valid.len() - 1];
        self.valid.push(parent_valid);
    }

    /// Leaves a child.
    #[inline]
    pub fn pop(&mut self) {
        self.tables.truncate(self.tables.len() - self.regions);
        self.valid.pop();
    }

    /// The current depth's table and its flag.
    #[inline]
    pub fn top(&mut self) -> (&mut [HookCounts], &mut bool) {
        let start = self.tables.len() - self.regions;
        let valid = self.valid.last_mut().expect("the root's entry is never popped");
        (&mut self.tables[start..], valid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: every table within the bounds, checked against every rule.
    fn by_enumeration(quota: &HookCounts, open: &[HookCounts], largest: usize, needs: &[u32]) -> bool {
        fn go(
            quota: &HookCounts,
            open: &[HookCounts],
            hook: usize,
            region: usize,
            left: u32,
            needs: &mut Vec<u32>,
        ) -> bool {
            if hook == 0 {
                return needs.iter().all(|&need| need == 0);
            }
            if region == open.len() {
                return left == 0
                    && go(quota, open, hook - 1, 0, quota.get(hook - 1).map_or(0, |&q| u32::from(q)), needs);
            }
            (0..=u32::from(open[region][hook]).min(left)).any(|count| {
                let take = count * hook as u32;
                if take > needs[region] {
                    return false;
                }
                needs[region] -= take;
                let found = go(quota, open, hook, region + 1, left - count, needs);
                needs[region] += take;
                found
            })
        }
        go(quota, open, largest, 0, u32::from(quota[largest]), &mut needs.to_vec())
    }

    fn check_table(quota: &HookCounts, open: &[HookCounts], largest: usize, needs: &[u32], share: &[HookCounts]) {
        for hook in 1..=largest {
            let total: u32 = share.iter().map(|row| u32::from(row[hook])).sum();
            assert_eq!(total, u32::from(quota[hook]), "hook {hook} gets all its digits");
        }
        for (region, row) in share.iter().enumerate() {
            let sum: u32 = (1..=largest).map(|hook| u32::from(row[hook]) * hook as u32).sum();
            assert_eq!(sum, needs[region], "region {region} completed");
            for hook in 1..=largest {
                assert!(row[hook] <= open[region][hook], "within the open cells");
            }
        }
    }

    #[test]
    fn agrees_with_enumeration_and_returns_a_valid_table() {
        // Three hooks (1, 2, 3) over two regions, every split of the open cells and quotas.
        let mut scratch = ShareScratch::default();
        let mut seen = [0usize; 2];
        for open_code in 0..(3u32.pow(3) * 4) {
            let mut open = [[0u8; HOOK_SLOTS]; 2];
            let mut code = open_code;
            for hook in 1..=3u8 {
                let cells = 2 * hook - 1;
                let in_first = ((code % 3) as u8).min(cells);
                code /= 3;
                open[0][usize::from(hook)] = in_first;
                open[1][usize::from(hook)] = cells - in_first;
            }
            let quota: HookCounts = [0, 1, (code % 2) as u8 + 1, (code / 2) as u8 + 1, 0, 0, 0, 0, 0, 0, 0, 0];
            let total: u32 = (1..=3).map(|hook| u32::from(quota[hook]) * hook as u32).sum();
            for first_need in 0..=total {
                let needs = [first_need, total - first_need];
                let mut working = needs;
                let mut share = [[0u8; HOOK_SLOTS]; 2];
                let demand = Demand { quota: &quota, open: &open, largest: 3 };
                let found = demand.find_share(&mut working, &mut share, &mut scratch);
                assert_eq!(working, needs, "needs restored");
                assert_eq!(found, by_enumeration(&quota, &open, 3, &needs), "{quota:?} {open:?} {needs:?}");
                if found {
                    check_table(&quota, &open, 3, &needs, &share);
                }
                seen[usize::from(found)] += 1;
            }
        }
        assert!(seen[0] > 50 && seen[1] > 50, "both answers covered: {seen:?}");
    }

    #[test]
    fn two_regions_cannot_both_count_on_one_digit() {
        // Hook 2 has one digit left and one open cell in each region; each region needs 2.
        // Alone, each region could take it; together they cannot.
        let mut quota = [0u8; HOOK_SLOTS];
        quota[2] = 1;
        let mut open = [[0u8; HOOK_SLOTS]; 2];
        open[0][2] = 1;
        open[1][2] = 1;
        let demand = Demand { quota: &quota, open: &open, largest: 2 };
        let mut share = [[0u8; HOOK_SLOTS]; 2];
        assert!(!demand.find_share(&mut [2, 2], &mut share, &mut ShareScratch::default()));
        assert!(demand.find_share(&mut [2, 0], &mut share, &mut ShareScratch::default()));
        assert_eq!(share[0][2], 1);
    }

    #[test]
    fn a_move_that_agrees_with_the_table_keeps_it() {
        let mut share = [[0u8; HOOK_SLOTS]; 1];
        share[0][3] = 2;
        assert!(follow_move(&mut share, 0, 3, true, 4));
        assert_eq!(share[0][3], 1, "a placed digit uses one counted digit");
        assert!(follow_move(&mut share, 0, 3, false, 1), "one counted digit, one open cell left");
        assert!(!follow_move(&mut share, 0, 3, false, 0), "no open cell left for the counted digit");
        share[0][3] = 0;
        assert!(!follow_move(&mut share, 0, 3, true, 3), "a digit the table did not count");
    }

    #[test]
    fn the_stack_copies_the_parent_and_restores_it() {
        let mut stack = ShareStack::new(2, 4);
        {
            let (table, valid) = stack.top();
            table[1][4] = 3;
            *valid = true;
        }
        stack.push();
        {
            let (table, valid) = stack.top();
            assert_eq!(table[1][4], 3);
            assert!(*valid);
            table[1][4] = 1;
            *valid = false;
        }
        stack.pop();
        let (table, valid) = stack.top();
        assert_eq!(table[1][4], 3);
        assert!(*valid);
    }
}
