//! The Hooks rules, checked right after a move: givens, hook counts, 2x2 blocks, region
//! sums (region by region, or jointly, as the `rules` knob says) and connectivity (as the
//! `connectivity` and `stranded` knobs say). Each check returns the rule that fails.

use super::config::Rules;
use super::geometry::{cells_of, lowest, HOOK_SLOTS};
use super::joint::{follow_move, Demand, HookCounts};
use super::model::{
    HooksModel, RULE_CONNECTED, RULE_GIVENS, RULE_HOOK_COUNT, RULE_HOOK_REACH, RULE_REGION_COUNTS, RULE_REGION_REACH,
    RULE_REGION_SUM, RULE_TWO_BY_TWO,
};
use super::shared::CELL_SLOTS;
use super::sums::{reachable, DigitRange};
use crate::puzzles::grid::{CellSet, ConnectivityCheck};
use crate::search::{RuleCounter, RuleId};

impl HooksModel {
    /// The rules after hooks `hooks` (a bit per hook number) were placed.
    pub(super) fn check_placed_hooks<C: RuleCounter>(&mut self, hooks: u32, counters: &mut C) -> Result<(), RuleId> {
        let shared = &*self.shared;
        let mut touched: CellSet = 0;
        let mut decided: CellSet = 0;
        let mut remaining = hooks;
        while remaining != 0 {
            let hook = remaining.trailing_zeros() as usize;
            remaining &= remaining - 1;
            let cells = self.hook_cells[hook];
            touched |= cells;
            let givens_here = cells & shared.given_cells;
            if givens_here == 0 {
                continue;
            }
            decided |= givens_here;
            counters.check(RULE_GIVENS);
            if cells_of(givens_here).any(|cell| shared.given[cell] != 0 && shared.given[cell] as usize != hook) {
                return Err(RULE_GIVENS);
            }
            counters.check(RULE_HOOK_COUNT);
            if self.hook_filled[hook] as usize > hook || self.hook_empty[hook] as usize >= hook {
                return Err(RULE_HOOK_COUNT);
            }
        }
        for cell in cells_of(decided & self.filled) {
            counters.check(RULE_TWO_BY_TWO);
            if shared.board.completes_full_block(cell, self.filled) {
                return Err(RULE_TWO_BY_TWO);
            }
        }
        let mut regions: u128 = 0;
        for cell in cells_of(touched) {
            regions |= 1u128 << shared.region_of[cell];
        }
        for region in cells_of(regions) {
            self.check_region(region, counters)?;
        }
        if self.joint_active() {
            self.check_shares(None, counters)?;
        }
        if decided != 0 {
            self.check_connectivity_from_scratch(counters)?;
        }
        Ok(())
    }

    /// The rules after a cell was decided.
    #[inline]
    pub(super) fn check_cell<C: RuleCounter>(
        &mut self,
        cell: usize,
        filled: bool,
        counters: &mut C,
    ) -> Result<(), RuleId> {
        let hook = self.hook_of[cell] as usize;
        counters.check(RULE_HOOK_COUNT);
        let over = if filled { self.hook_filled[hook] as usize > hook } else { self.hook_empty[hook] as usize >= hook };
        if over {
            return Err(RULE_HOOK_COUNT);
        }
        if filled {
            counters.check(RULE_TWO_BY_TWO);
            if self.shared.board.completes_full_block(cell, self.filled) {
                return Err(RULE_TWO_BY_TWO);
            }
        }
        let region = self.shared.region_of[cell] as usize;
        self.check_region(region, counters)?;
        if self.joint_active() {
            // The share table completes every region, so it implies the test below.
            self.check_shares(Some((region, hook, filled)), counters)?;
        } else if self.rules != Rules::Basic {
            self.check_regions_of_settled_hook(hook, region, counters)?;
        }
        self.check_connectivity_after(cell, filled, counters)
    }

    /// `derived`: once hook `hook` has all its digits (or all its blanks), its other cells
    /// are settled, so every region holding one is checked again (`skip` was just checked).
    #[inline]
    fn check_regions_of_settled_hook<C: RuleCounter>(
        &self,
        hook: usize,
        skip: usize,
        counters: &mut C,
    ) -> Result<(), RuleId> {
        if !self.hook_is_settled(hook) {
            return Ok(());
        }
        let open = self.hook_cells[hook] & !self.filled & !self.empty;
        let mut regions: u128 = 0;
        for cell in cells_of(open) {
            regions |= 1u128 << self.shared.region_of[cell];
        }
        regions &= !(1u128 << skip);
        for region in cells_of(regions) {
            self.check_region(region, counters)?;
        }
        Ok(())
    }

    /// The region rules of the current `rules` setting on region `region`.
    #[inline]
    fn check_region<C: RuleCounter>(&self, region: usize, counters: &mut C) -> Result<(), RuleId> {
        if self.region_open[region] == 0 {
            counters.check(RULE_REGION_SUM);
            return if self.region_sum[region] == self.target { Ok(()) } else { Err(RULE_REGION_SUM) };
        }
        if self.rules == Rules::Basic {
            return Ok(());
        }
        counters.check(RULE_REGION_REACH);
        if self.joint_active() {
            // The share table tests the rest; it needs every region at or below the target.
            return if self.region_sum[region] <= self.target { Ok(()) } else { Err(RULE_REGION_REACH) };
        }
        if self.region_can_reach(region) {
            Ok(())
        } else {
            Err(RULE_REGION_REACH)
        }
    }

    /// Whether region `region`'s undecided cells can still bring it to the target: each
    /// placed hook k gives between `least` and `most` more copies of k (its digits still
    /// to place, and how many of its undecided cells lie outside the region), and each
    /// cell not placed yet anything from 0 to the largest hook not placed.
    fn region_can_reach(&self, region: usize) -> bool {
        let sum = self.region_sum[region];
        if sum > self.target {
            return false;
        }
        let open = self.shared.region_cells[region] & !self.filled & !self.empty;
        let wildcard = (open & !self.placed).count_ones() * self.next_hook as u32;
        let (inside, mut present) = if self.incremental {
            (self.region_hook_open[region], u32::from(self.region_hooks_open[region]))
        } else {
            let mut inside = [0u8; HOOK_SLOTS];
            let mut present: u32 = 0;
            for cell in cells_of(open & self.placed) {
                let hook = self.hook_of[cell] as usize;
                inside[hook] += 1;
                present |= 1 << hook;
            }
            (inside, present)
        };
        let mut ranges = [DigitRange::default(); HOOK_SLOTS];
        let mut count = 0;
        while present != 0 {
            let hook = present.trailing_zeros() as usize;
            present &= present - 1;
            let filled = u32::from(self.hook_filled[hook]);
            let open_in_hook = (2 * hook as u32 - 1).saturating_sub(filled + u32::from(self.hook_empty[hook]));
            let quota = (hook as u32).saturating_sub(filled);
            let in_region = u32::from(inside[hook]);
            let Some(range) =
                DigitRange::for_hook(hook as u32, quota, in_region, open_in_hook.saturating_sub(in_region))
            else {
                return false;
            };
            ranges[count] = range;
            count += 1;
        }
        reachable(self.target - sum, &ranges[..count], wildcard)
    }

    /// Whether the joint test runs: `rules=joint` once every hook is placed (before that
    /// the cells of unplaced hooks could hold any digit, and the `derived` tests apply).
    #[inline]
    fn joint_active(&self) -> bool {
        self.rules == Rules::Joint && self.next_hook == 0
    }

    /// `joint`: whether some share table completes every region. `cell_move` is the cell
    /// move just made (its region, hook and value): when the parent's table survives it,
    /// no search is needed. `None` after a placement, which searches afresh.
    #[inline]
    fn check_shares<C: RuleCounter>(
        &mut self,
        cell_move: Option<(usize, usize, bool)>,
        counters: &mut C,
    ) -> Result<(), RuleId> {
        counters.check(RULE_REGION_COUNTS);
        if let Some((region, hook, filled)) = cell_move {
            let open_after = self.open_of_hook_in_region(region, hook);
            let (share, valid) = self.shares.top();
            if *valid && follow_move(share, region, hook, filled, open_after) {
                return Ok(());
            }
        }
        if self.find_share() {
            Ok(())
        } else {
            Err(RULE_REGION_COUNTS)
        }
    }

    /// Undecided cells of hook `hook` in region `region`.
    #[inline]
    fn open_of_hook_in_region(&self, region: usize, hook: usize) -> u8 {
        if self.incremental {
            self.region_hook_open[region][hook]
        } else {
            let open = self.shared.region_cells[region] & self.hook_cells[hook] & !self.filled & !self.empty;
            open.count_ones() as u8
        }
    }

    /// `joint`: searches a share table for the current state into the top of the stack.
    fn find_share(&mut self) -> bool {
        let size = self.shared.size;
        let regions = self.shared.region_cells.len();
        let mut quota: HookCounts = [0; HOOK_SLOTS];
        for (hook, (quota, &filled)) in quota.iter_mut().zip(&self.hook_filled).enumerate().take(size + 1) {
            *quota = (hook as u8).saturating_sub(filled);
        }
        let mut needs = [0u32; CELL_SLOTS];
        for (need, &sum) in needs.iter_mut().zip(&self.region_sum).take(regions) {
            *need = self.target.saturating_sub(sum);
        }
        let recomputed;
        let open: &[HookCounts] = if self.incremental {
            &self.region_hook_open[..regions]
        } else {
            let mut counts = [[0u8; HOOK_SLOTS]; CELL_SLOTS];
            for cell in cells_of(self.placed & !self.filled & !self.empty) {
                counts[self.shared.region_of[cell] as usize][self.hook_of[cell] as usize] += 1;
            }
            recomputed = counts;
            &recomputed[..regions]
        };
        let demand = Demand { quota: &quota, open, largest: size };
        let (share, valid) = self.shares.top();
        *valid = demand.find_share(&mut needs[..regions], share, &mut self.share_scratch);
        *valid
    }

    /// Connectivity after a cell move, as the knob says.
    #[inline]
    fn check_connectivity_after<C: RuleCounter>(
        &mut self,
        cell: usize,
        filled: bool,
        counters: &mut C,
    ) -> Result<(), RuleId> {
        match self.connectivity {
            ConnectivityCheck::Leaves => Ok(()),
            ConnectivityCheck::Periodic(period) if !self.depth.is_multiple_of(period as usize) => Ok(()),
            ConnectivityCheck::Periodic(_) | ConnectivityCheck::EveryNode => self.check_may_still_connect(counters),
            ConnectivityCheck::Incremental => {
                let before = self.reach[self.reach.len() - 1];
                self.update_reach(cell, filled, counters)?;
                if self.hook_reach {
                    let lost = before & !self.reach[self.reach.len() - 1];
                    self.check_hooks_can_reach(cell, lost, counters)?;
                }
                Ok(())
            }
        }
    }

    /// `stranded=hook-count`: every hook with a cell in `lost` (cells that just left the
    /// group that can join the filled ones; usually `cell` alone, and `cell` is
    /// `usize::MAX` when there is no such cell) still has as many cells in that group as
    /// it has digits: a solution's digits all lie in it.
    #[inline]
    fn check_hooks_can_reach<C: RuleCounter>(
        &self,
        cell: usize,
        lost: CellSet,
        counters: &mut C,
    ) -> Result<(), RuleId> {
        if lost == 0 || self.filled == 0 {
            return Ok(());
        }
        let reach = self.reach[self.reach.len() - 1];
        let fits = |hook: usize| (self.hook_cells[hook] & reach).count_ones() as usize >= hook;
        counters.check(RULE_HOOK_REACH);
        let ok = if cell < CELL_SLOTS && lost == 1u128 << cell {
            fits(self.hook_of[cell] as usize)
        } else {
            (self.next_hook + 1..=self.shared.size).all(|hook| self.hook_cells[hook] & lost == 0 || fits(hook))
        };
        if ok {
            Ok(())
        } else {
            Err(RULE_HOOK_REACH)
        }
    }

    /// Connectivity after hooks were placed and their givens decided.
    fn check_connectivity_from_scratch<C: RuleCounter>(&mut self, counters: &mut C) -> Result<(), RuleId> {
        match self.connectivity {
            ConnectivityCheck::Leaves => Ok(()),
            ConnectivityCheck::Periodic(period) if !self.depth.is_multiple_of(period as usize) => Ok(()),
            ConnectivityCheck::Periodic(_) | ConnectivityCheck::EveryNode => self.check_may_still_connect(counters),
            ConnectivityCheck::Incremental => {
                counters.check(RULE_CONNECTED);
                let board = &self.shared.board;
                let passable = board.all() & !self.empty;
                let grown = if self.filled == 0 { passable } else { board.flood(lowest(self.filled), passable) };
                let top = self.reach.len() - 1;
                self.reach[top] = grown;
                if self.filled & !grown != 0 {
                    return Err(RULE_CONNECTED);
                }
                if self.hook_reach {
                    // Givens may have cut cells off: every placed hook is checked.
                    return self.check_hooks_can_reach(usize::MAX, board.all() & !grown, counters);
                }
                Ok(())
            }
        }
    }

    fn check_may_still_connect<C: RuleCounter>(&self, counters: &mut C) -> Result<(), RuleId> {
        counters.check(RULE_CONNECTED);
        let undecided = self.shared.board.all() & !self.filled & !self.empty;
        if self.shared.board.may_still_connect(self.filled, undecided) {
            Ok(())
        } else {
            Err(RULE_CONNECTED)
        }
    }
}
