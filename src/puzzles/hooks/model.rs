//! The Hooks search state and its moves: hook placements and cell decisions, applied and
//! undone in place on bitboards and small counters.

use super::geometry::{cells_of, corner_count, layout_corner, split_square, with_corner, HOOK_SLOTS};
use super::joint::{follow_move, Demand, HookCounts, ShareScratch, ShareStack};
use super::reach::Rings;
use super::sums::{reachable, DigitRange};
use super::{Bookkeeping, CellChoice, ForcedCells, HooksConfig, PlacementStrategy, Rules, Stranded};
use crate::puzzles::grid::{Board, CellSet, ConnectivityCheck};
use crate::puzzles::view::{CellView, GridView, View};
use crate::search::{Branch, Model, NoCounters, RuleCounter, RuleId};
use std::sync::Arc;

/// A given digit does not fit the hook its cell lies in (a nonzero given other than the
/// hook's number).
pub const RULE_GIVENS: RuleId = 0;
/// A hook holds more than k digits, or more than k-1 empty cells.
pub const RULE_HOOK_COUNT: RuleId = 1;
/// A 2x2 block is completely filled.
pub const RULE_TWO_BY_TWO: RuleId = 2;
/// A complete region misses the common sum (or no common sum exists).
pub const RULE_REGION_SUM: RuleId = 3;
/// A partly decided region can no longer reach the common sum (`derived` rules only).
pub const RULE_REGION_REACH: RuleId = 4;
/// The filled cells are not, or can no longer become, one connected group.
pub const RULE_CONNECTED: RuleId = 5;
/// A hook has fewer cells that can still join the filled ones (filled, or undecided and
/// linked to them through undecided cells) than its digits (`stranded=hook-count` only).
pub const RULE_HOOK_REACH: RuleId = 6;
/// No table of hook counts completes every region at once (`joint` rules only).
pub const RULE_REGION_COUNTS: RuleId = 7;
const RULE_NAMES: &[&str] =
    &["givens", "hook-count", "2x2", "region-sum", "region-reach", "connected", "hook-reach", "region-counts"];

/// Slots for cells, and for regions (a region has at least one cell).
const CELL_SLOTS: usize = 128;
/// `given` of a cell without a given digit.
const NO_GIVEN: u8 = u8::MAX;

/// One decision of the search. Every move means the same thing from the root state, so a
/// subproblem is just the list of moves that leads to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookMove {
    /// Two-phase: the whole placement, one corner per hook n..2, two bits each (hook k in
    /// bits `2(k-2)..2(k-2)+2`; corners numbered as in [`HookMove::Hook`]).
    Layout(u32),
    /// Integrated: hook `hook` (the largest not placed yet) with its elbow in `corner`.
    Hook {
        /// The hook's number.
        hook: u8,
        /// 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right.
        corner: u8,
    },
    /// Fill `cell` with its hook's digit, or leave it empty.
    Cell {
        /// The cell, `r * n + c`.
        cell: u8,
        /// Filled (true) or empty.
        filled: bool,
    },
}

/// What every copy of a model shares: the instance as bitboards and tables.
#[derive(Debug)]
pub(super) struct Shared {
    pub size: usize,
    pub board: Board,
    pub rings: Rings,
    /// The common region sum; `None` when the regions cannot all sum the same.
    pub target: Option<u32>,
    pub region_cells: Vec<CellSet>,
    pub region_of: [u8; CELL_SLOTS],
    /// The given digit of each cell, `NO_GIVEN` where there is none.
    pub given: [u8; CELL_SLOTS],
    pub given_cells: CellSet,
    /// Position of each cell in the static cell order, and its inverse.
    pub rank: [u8; CELL_SLOTS],
    pub cell_at_rank: [u8; CELL_SLOTS],
    pub not_first_column: CellSet,
    pub not_last_column: CellSet,
}

impl Shared {
    /// The tables of an instance of side `size` for a static cell order `order`.
    pub fn new(
        size: usize,
        target: Option<u32>,
        regions: &[Vec<usize>],
        givens: &[(usize, u8)],
        order: &[usize],
    ) -> Shared {
        let board = Board::new(size);
        let mut region_of = [0u8; CELL_SLOTS];
        let mut region_cells = Vec::with_capacity(regions.len());
        for (index, region) in regions.iter().enumerate() {
            let mut cells: CellSet = 0;
            for &cell in region {
                region_of[cell] = index as u8;
                cells |= 1u128 << cell;
            }
            region_cells.push(cells);
        }
        let mut given = [NO_GIVEN; CELL_SLOTS];
        let mut given_cells: CellSet = 0;
        for &(cell, value) in givens {
            given[cell] = value;
            given_cells |= 1u128 << cell;
        }
        let mut rank = [0u8; CELL_SLOTS];
        let mut cell_at_rank = [0u8; CELL_SLOTS];
        for (position, &cell) in order.iter().enumerate() {
            rank[cell] = position as u8;
            cell_at_rank[position] = cell as u8;
        }
        let (mut first_column, mut last_column): (CellSet, CellSet) = (0, 0);
        for row in 0..size {
            first_column |= 1u128 << (row * size);
            last_column |= 1u128 << (row * size + size - 1);
        }
        Shared {
            size,
            rings: Rings::new(size),
            target,
            region_cells,
            region_of,
            given,
            given_cells,
            rank,
            cell_at_rank,
            not_first_column: board.all() & !first_column,
            not_last_column: board.all() & !last_column,
            board,
        }
    }
}

/// The search state: which hook owns each cell, which cells are decided, and the counts
/// the rules read (digits and blanks per hook, sum and open cells per region).
#[derive(Debug, Clone)]
pub struct HooksModel {
    shared: Arc<Shared>,
    placement: PlacementStrategy,
    /// The cell order; the dynamic ones (`most-constrained`, `tightest-hook`) choose at
    /// every node, the others follow the static ranks of `Shared`.
    order: CellChoice,
    rules: Rules,
    connectivity: ConnectivityCheck,
    forced: ForcedCells,
    /// The common sum (meaningless when `shared.target` is `None`).
    target: u32,
    filled: CellSet,
    empty: CellSet,
    /// Cells whose hook is known.
    placed: CellSet,
    hook_of: [u8; CELL_SLOTS],
    hook_cells: [CellSet; HOOK_SLOTS],
    hook_filled: [u8; HOOK_SLOTS],
    hook_empty: [u8; HOOK_SLOTS],
    /// Top-left cell of the square of side k, once hook k+1 is placed.
    square_top: [u8; HOOK_SLOTS],
    square_left: [u8; HOOK_SLOTS],
    /// The next hook to place; 0 once all are placed.
    next_hook: usize,
    region_sum: [u32; CELL_SLOTS],
    region_open: [u8; CELL_SLOTS],
    /// `counts=incremental`: the tables below are kept up to date on every move.
    incremental: bool,
    /// `stranded=hook-count` with incremental connectivity.
    hook_reach: bool,
    /// Undecided cells of each region per hook, and a bit per hook that has some.
    region_hook_open: [HookCounts; CELL_SLOTS],
    region_hooks_open: [u16; CELL_SLOTS],
    /// A bit per placed hook that has all its digits or all its blanks.
    settled_hooks: u16,
    /// `larger_than[k]`: the cells of placed hooks numbered above k.
    larger_than: [CellSet; HOOK_SLOTS],
    /// Placed cells whose digit exceeds what their region still needs.
    too_large: CellSet,
    /// Undecided and placed cells, as bits numbered by rank in the static order, so that
    /// the next cell is one `trailing_zeros` away.
    undecided_ranked: CellSet,
    placed_ranked: CellSet,
    /// Moves applied since the root.
    depth: usize,
    /// `rules=joint`: a share table per depth (see `joint.rs`) and the search's scratch.
    shares: ShareStack,
    share_scratch: ShareScratch,
    /// Incremental connectivity, one entry per depth: the cells (filled or undecided)
    /// connected to the filled ones; all non-empty cells while nothing is filled.
    reach: Vec<CellSet>,
}

impl HooksModel {
    /// The root state.
    pub(super) fn new(shared: Arc<Shared>, config: &HooksConfig) -> HooksModel {
        let size = shared.size;
        let mut region_open = [0u8; CELL_SLOTS];
        for (region, cells) in shared.region_cells.iter().enumerate() {
            region_open[region] = cells.count_ones() as u8;
        }
        let all = shared.board.all();
        let mut model = HooksModel {
            target: shared.target.unwrap_or(0),
            placement: config.placement,
            order: config.order,
            rules: config.rules,
            connectivity: config.connectivity,
            forced: config.forced,
            filled: 0,
            empty: 0,
            placed: 0,
            hook_of: [0; CELL_SLOTS],
            hook_cells: [0; HOOK_SLOTS],
            hook_filled: [0; HOOK_SLOTS],
            hook_empty: [0; HOOK_SLOTS],
            square_top: [0; HOOK_SLOTS],
            square_left: [0; HOOK_SLOTS],
            next_hook: size,
            region_sum: [0; CELL_SLOTS],
            region_open,
            incremental: config.counts == Bookkeeping::Incremental,
            hook_reach: config.stranded == Stranded::HookCount && config.connectivity == ConnectivityCheck::Incremental,
            region_hook_open: [[0; HOOK_SLOTS]; CELL_SLOTS],
            region_hooks_open: [0; CELL_SLOTS],
            settled_hooks: 0,
            larger_than: [0; HOOK_SLOTS],
            too_large: 0,
            undecided_ranked: all,
            placed_ranked: 0,
            depth: 0,
            reach: Vec::new(),
            shares: ShareStack::default(),
            share_scratch: ShareScratch::default(),
            shared,
        };
        if model.rules == Rules::Joint {
            model.shares = ShareStack::new(model.shared.region_cells.len(), model.max_depth());
        }
        model.reach = Vec::with_capacity(model.max_depth() + 2);
        model.reach.push(all);
        model
    }

    /// What a viewer sees: each cell open, empty or holding its hook's digit (marked given
    /// where the instance fixes it), and each placed cell coloured by its hook (0 = not
    /// placed yet).
    pub(super) fn view(&self) -> View {
        let cells = self.shared.size * self.shared.size;
        let cell_views = (0..cells)
            .map(|cell| {
                let bit = 1u128 << cell;
                if self.filled & bit != 0 {
                    let digit = u32::from(self.hook_of[cell]);
                    if self.shared.given_cells & bit != 0 {
                        CellView::Given(digit)
                    } else {
                        CellView::Placed(digit)
                    }
                } else if self.empty & bit != 0 {
                    CellView::Empty
                } else {
                    CellView::Open
                }
            })
            .collect();
        let groups = (0..cells)
            .map(|cell| (self.placed & (1u128 << cell) != 0).then(|| u16::from(self.hook_of[cell])))
            .collect();
        View::Grid(GridView { size: self.shared.size, cells: cell_views, groups: Some(groups), clues: None })
    }

    /// The layouts that pass the prefilter, in the order two-phase tries them.
    pub(super) fn surviving_layouts(&self) -> Vec<u32> {
        let mut moves = Vec::new();
        self.push_layouts(&mut moves);
        moves
            .into_iter()
            .filter_map(|mv| match mv {
                HookMove::Layout(code) => Some(code),
                _ => None,
            })
            .collect()
    }

    fn tracks_reach(&self) -> bool {
        self.connectivity == ConnectivityCheck::Incremental
    }

    /// Decides an undecided, placed cell.
    #[inline]
    fn decide(&mut self, cell: usize, filled: bool) {
        let bit = 1u128 << cell;
        let hook = self.hook_of[cell] as usize;
        let region = self.shared.region_of[cell] as usize;
        if filled {
            self.filled |= bit;
            self.hook_filled[hook] += 1;
            self.region_sum[region] += hook as u32;
        } else {
            self.empty |= bit;
            self.hook_empty[hook] += 1;
        }
        self.region_open[region] -= 1;
        self.undecided_ranked &= !(1u128 << self.shared.rank[cell]);
        if self.incremental {
            let open = &mut self.region_hook_open[region][hook];
            *open -= 1;
            if *open == 0 {
                self.region_hooks_open[region] &= !(1 << hook);
            }
            self.update_counts_after_cell(hook, region, filled);
        }
    }

    /// Reverts [`HooksModel::decide`].
    #[inline]
    fn undecide(&mut self, cell: usize, filled: bool) {
        let bit = 1u128 << cell;
        let hook = self.hook_of[cell] as usize;
        let region = self.shared.region_of[cell] as usize;
        if filled {
            self.filled &= !bit;
            self.hook_filled[hook] -= 1;
            self.region_sum[region] -= hook as u32;
        } else {
            self.empty &= !bit;
            self.hook_empty[hook] -= 1;
        }
        self.region_open[region] += 1;
        self.undecided_ranked |= 1u128 << self.shared.rank[cell];
        if self.incremental {
            self.region_hook_open[region][hook] += 1;
            self.region_hooks_open[region] |= 1 << hook;
            self.update_counts_after_cell(hook, region, filled);
        }
    }

    /// `incremental`: hook `hook`'s settled bit, and region `region`'s too-large cells
    /// when a digit came or went, after one of their cells was decided or undecided.
    #[inline]
    fn update_counts_after_cell(&mut self, hook: usize, region: usize, filled: bool) {
        if self.hook_is_settled(hook) {
            self.settled_hooks |= 1 << hook;
        } else {
            self.settled_hooks &= !(1 << hook);
        }
        if filled {
            self.update_too_large(region);
        }
    }

    /// Whether placed hook `hook` has all its digits or all its blanks, which settles
    /// its other cells.
    #[inline]
    fn hook_is_settled(&self, hook: usize) -> bool {
        self.hook_filled[hook] as usize == hook || self.hook_empty[hook] as usize + 1 == hook
    }

    /// `incremental`: region `region`'s part of `too_large` from its current need.
    #[inline]
    fn update_too_large(&mut self, region: usize) {
        let cells = self.shared.region_cells[region];
        let need = self.target.saturating_sub(self.region_sum[region]) as usize;
        self.too_large = (self.too_large & !cells) | (cells & self.larger_than[need.min(self.shared.size)]);
    }

    /// `incremental`: the tables that depend on which hooks are placed, from scratch
    /// (placements are rare next to cell moves).
    fn refresh_after_placement(&mut self) {
        let size = self.shared.size;
        self.larger_than = [0; HOOK_SLOTS];
        for hook in (1..=size).rev() {
            self.larger_than[hook - 1] = self.larger_than[hook] | self.hook_cells[hook];
        }
        self.settled_hooks = 0;
        for hook in self.next_hook + 1..=size {
            if self.hook_is_settled(hook) {
                self.settled_hooks |= 1 << hook;
            }
        }
        self.too_large = 0;
        for region in 0..self.shared.region_cells.len() {
            self.update_too_large(region);
        }
    }

    /// Places hook `hook` (the next one) and decides its given cells.
    fn place_hook(&mut self, hook: usize, corner: u8) {
        let split = split_square(
            self.shared.size,
            hook,
            self.square_top[hook] as usize,
            self.square_left[hook] as usize,
            corner,
        );
        if hook >= 2 {
            self.square_top[hook - 1] = split.inner_top as u8;
            self.square_left[hook - 1] = split.inner_left as u8;
        }
        self.hook_cells[hook] = split.cells;
        self.placed |= split.cells;
        self.next_hook = hook - 1;
        for cell in cells_of(split.cells) {
            self.hook_of[cell] = hook as u8;
            self.placed_ranked |= 1u128 << self.shared.rank[cell];
            if self.incremental {
                let region = self.shared.region_of[cell] as usize;
                self.region_hook_open[region][hook] += 1;
                self.region_hooks_open[region] |= 1 << hook;
            }
        }
        for cell in cells_of(split.cells & self.shared.given_cells) {
            let filled = self.shared.given[cell] != 0;
            self.decide(cell, filled);
        }
        if self.incremental {
            self.refresh_after_placement();
        }
    }

    /// Reverts [`HooksModel::place_hook`].
    fn unplace_hook(&mut self, hook: usize) {
        let cells = self.hook_cells[hook];
        for cell in cells_of(cells & self.shared.given_cells) {
            let filled = self.shared.given[cell] != 0;
            self.undecide(cell, filled);
        }
        for cell in cells_of(cells) {
            self.hook_of[cell] = 0;
            self.placed_ranked &= !(1u128 << self.shared.rank[cell]);
            if self.incremental {
                let region = self.shared.region_of[cell] as usize;
                let open = &mut self.region_hook_open[region][hook];
                *open -= 1;
                if *open == 0 {
                    self.region_hooks_open[region] &= !(1 << hook);
                }
            }
        }
        self.placed &= !cells;
        self.hook_cells[hook] = 0;
        self.next_hook = hook;
        if self.incremental {
            self.refresh_after_placement();
        }
    }

    /// The rules after hooks `hooks` (a bit per hook number) were placed.
    fn check_placed_hooks<C: RuleCounter>(&mut self, hooks: u32, counters: &mut C) -> Result<(), RuleId> {
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
    fn check_cell<C: RuleCounter>(&mut self, cell: usize, filled: bool, counters: &mut C) -> Result<(), RuleId> {
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

    /// `joint`: whether the child that `mv` leads to (from the current state, its parent)
    /// gets a share table of its own: only once every hook is placed, where the joint test
    /// runs, so the prefilter's partial layouts copy none.
    #[inline]
    fn keeps_share_for(&self, mv: HookMove) -> bool {
        self.rules == Rules::Joint
            && (self.next_hook == 0 || matches!(mv, HookMove::Layout(_) | HookMove::Hook { hook: 1, .. }))
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

    /// `incremental`: updates the group that can still join the filled cells after
    /// `cell` was decided, flooding only when the local test around `cell` cannot tell.
    #[inline]
    fn update_reach<C: RuleCounter>(&mut self, cell: usize, filled: bool, counters: &mut C) -> Result<(), RuleId> {
        counters.check(RULE_CONNECTED);
        let top = self.reach.len() - 1;
        let reach = self.reach[top];
        let bit = 1u128 << cell;
        if filled {
            if self.filled == bit {
                // The first digit: from now on the group is the one around it.
                self.reach[top] = self.shared.board.flood(bit, reach);
                return Ok(());
            }
            return if reach & bit != 0 { Ok(()) } else { Err(RULE_CONNECTED) };
        }
        if reach & bit == 0 {
            return Ok(());
        }
        let rest = reach & !bit;
        if self.filled == 0 || self.shared.rings.stays_connected_without(cell, rest) {
            self.reach[top] = rest;
            return Ok(());
        }
        let grown = self.shared.board.flood(lowest(self.filled), rest);
        self.reach[top] = grown;
        if self.filled & !grown == 0 {
            Ok(())
        } else {
            Err(RULE_CONNECTED)
        }
    }

    /// Undecided cells that would complete a filled 2x2 block.
    #[inline]
    fn two_by_two_holes(&self) -> CellSet {
        let shared = &self.shared;
        let filled = self.filled;
        let n = shared.size;
        let bottom_right = (filled << 1) & (filled << n) & (filled << (n + 1)) & shared.not_first_column;
        let bottom_left = (filled >> 1) & (filled << n) & (filled << (n - 1)) & shared.not_last_column;
        let top_right = (filled << 1) & (filled >> n) & (filled >> (n - 1)) & shared.not_first_column;
        let top_left = (filled >> 1) & (filled >> n) & (filled >> (n + 1)) & shared.not_last_column;
        (bottom_right | bottom_left | top_right | top_left) & shared.board.all() & !filled
    }

    /// `single-child`: whether undecided, placed `cell` may still be filled and may still
    /// be left empty. Filling is excluded when its hook has all its digits, when it would
    /// complete a filled 2x2 block, or when its digit exceeds what its region still needs
    /// (region sums only grow); leaving it empty when its hook has all its blanks. Each
    /// excluded value fails a rule in every completion, so no solution is lost.
    #[inline]
    fn allowed_values(&self, cell: usize) -> (bool, bool) {
        let hook = self.hook_of[cell] as usize;
        let region = self.shared.region_of[cell] as usize;
        let need = self.target.saturating_sub(self.region_sum[region]);
        let may_fill = (self.hook_filled[hook] as usize) < hook
            && hook as u32 <= need
            && !self.shared.board.completes_full_block(cell, self.filled | (1u128 << cell));
        let may_leave_empty = self.hook_empty[hook] as usize + 1 < hook;
        (may_fill, may_leave_empty)
    }

    /// `most-constrained`: a cell whose value the rules already settle (its hook has all
    /// its digits or all its blanks, it would fill a 2x2 block, or its digit exceeds what
    /// its region still needs), else, in the region closest to its sum, the first cell of
    /// the largest hook there.
    fn most_constrained_cell(&self, candidates: CellSet) -> usize {
        let shared = &*self.shared;
        let size = shared.size;
        let mut forced = self.two_by_two_holes();
        if self.incremental {
            forced |= self.too_large;
            let mut settled = u32::from(self.settled_hooks);
            while settled != 0 {
                forced |= self.hook_cells[settled.trailing_zeros() as usize];
                settled &= settled - 1;
            }
        } else {
            // larger_than[k]: the cells of placed hooks numbered above k.
            let mut larger_than = [0u128; HOOK_SLOTS];
            for hook in (1..=size).rev() {
                larger_than[hook - 1] = larger_than[hook] | self.hook_cells[hook];
            }
            for hook in self.next_hook + 1..=size {
                if self.hook_is_settled(hook) {
                    forced |= self.hook_cells[hook];
                }
            }
            for (region, &cells) in shared.region_cells.iter().enumerate() {
                if cells & candidates != 0 {
                    let need = self.target.saturating_sub(self.region_sum[region]);
                    forced |= cells & larger_than[(need as usize).min(size)];
                }
            }
        }
        forced &= candidates;
        if forced != 0 {
            return forced.trailing_zeros() as usize;
        }
        if self.order == CellChoice::TightestHook {
            return self.cell_of_tightest_hook(candidates);
        }
        let mut closest = 0;
        let mut least_need = u32::MAX;
        for (region, &cells) in shared.region_cells.iter().enumerate() {
            if cells & candidates == 0 {
                continue;
            }
            let need = self.target.saturating_sub(self.region_sum[region]);
            if need < least_need {
                least_need = need;
                closest = region;
            }
        }
        let in_region = candidates & shared.region_cells[closest];
        for hook in (1..=size).rev() {
            let cells = in_region & self.hook_cells[hook];
            if cells != 0 {
                return cells.trailing_zeros() as usize;
            }
        }
        in_region.trailing_zeros() as usize
    }

    /// `tightest-hook`, when no cell is settled: in the placed hook with the fewest
    /// undecided cells (the largest such hook on a tie), the cell in the region with the
    /// fewest undecided cells (the lowest cell on a tie). A hook with few cells left is the
    /// closest to having all its digits or all its blanks, after which the rules settle
    /// its other cells; so either child soon meets a forced cell or a dead end.
    fn cell_of_tightest_hook(&self, candidates: CellSet) -> usize {
        let mut tightest = 0;
        let mut fewest = usize::MAX;
        for hook in self.next_hook + 1..=self.shared.size {
            if self.hook_cells[hook] & candidates == 0 {
                continue;
            }
            let undecided = 2 * hook - 1 - usize::from(self.hook_filled[hook]) - usize::from(self.hook_empty[hook]);
            if undecided <= fewest {
                fewest = undecided;
                tightest = hook;
            }
        }
        let cells = candidates & self.hook_cells[tightest];
        let mut chosen = cells.trailing_zeros() as usize;
        let mut fewest_in_region = u8::MAX;
        for cell in cells_of(cells) {
            let open = self.region_open[self.shared.region_of[cell] as usize];
            if open < fewest_in_region {
                fewest_in_region = open;
                chosen = cell;
            }
        }
        chosen
    }

    /// Two-phase, at the root: every layout that passes the prefilter, as moves. The
    /// prefilter walks the placements hook by hook on a scratch copy with the `derived`
    /// region rules: givens must fit their hooks, given digits and blanks must not exceed
    /// their hooks' counts nor fill a 2x2 block nor be cut off from each other, and every
    /// region's sum must be reachable by the digits its cells' hooks can still give.
    fn push_layouts(&self, moves: &mut Vec<HookMove>) {
        let mut scratch = self.clone();
        // The prefilter always tests regions; `joint` adds its test on complete layouts.
        if scratch.rules != Rules::Joint {
            scratch.rules = Rules::Derived;
        }
        scratch.connectivity = ConnectivityCheck::EveryNode;
        let first = scratch.next_hook;
        scratch.collect_layouts(first, 0, moves);
    }

    fn collect_layouts(&mut self, hook: usize, code: u32, moves: &mut Vec<HookMove>) {
        for corner in 0..corner_count(hook) {
            let mv = HookMove::Hook { hook: hook as u8, corner };
            if self.apply(mv, &mut NoCounters).is_ok() {
                let code = with_corner(code, hook, corner);
                if hook == 1 {
                    moves.push(HookMove::Layout(code));
                } else {
                    self.collect_layouts(hook - 1, code, moves);
                }
            }
            self.undo(mv);
        }
    }
}

/// The lowest cell of a non-empty set, as a one-cell set.
#[inline]
fn lowest(set: CellSet) -> CellSet {
    set & set.wrapping_neg()
}

impl Model for HooksModel {
    type Move = HookMove;
    /// The grid, row-major, one digit per cell (0 = empty).
    type Solution = Vec<u8>;

    fn rule_names(&self) -> &[&'static str] {
        RULE_NAMES
    }

    fn max_depth(&self) -> usize {
        let cells = self.shared.size * self.shared.size;
        match self.placement {
            PlacementStrategy::TwoPhase => cells + 1,
            PlacementStrategy::Integrated => cells + self.shared.size,
        }
    }

    #[inline]
    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<HookMove>, counters: &mut C) -> Branch {
        if self.shared.target.is_none() {
            counters.check(RULE_REGION_SUM);
            return Branch::DeadEnd(RULE_REGION_SUM);
        }
        let candidates = self.placed & !self.filled & !self.empty;
        if candidates == 0 {
            if self.next_hook > 0 {
                match self.placement {
                    PlacementStrategy::TwoPhase => self.push_layouts(moves),
                    PlacementStrategy::Integrated => {
                        for corner in 0..corner_count(self.next_hook) {
                            moves.push(HookMove::Hook { hook: self.next_hook as u8, corner });
                        }
                    }
                }
                return Branch::Moves;
            }
            counters.check(RULE_CONNECTED);
            return if self.shared.board.is_connected(self.filled) {
                Branch::Solution
            } else {
                Branch::DeadEnd(RULE_CONNECTED)
            };
        }
        let cell = if matches!(self.order, CellChoice::MostConstrained | CellChoice::TightestHook) {
            self.most_constrained_cell(candidates)
        } else {
            let rank = (self.undecided_ranked & self.placed_ranked).trailing_zeros() as usize;
            self.shared.cell_at_rank[rank] as usize
        };
        let (may_fill, may_leave_empty) = match self.forced {
            ForcedCells::TryBoth => (true, true),
            ForcedCells::SingleChild => self.allowed_values(cell),
        };
        // When the rules exclude both values, both children are kept: each dies under
        // the rule that excludes it, as with `try-both`.
        if may_fill || !may_leave_empty {
            moves.push(HookMove::Cell { cell: cell as u8, filled: true });
        }
        if may_leave_empty || !may_fill {
            moves.push(HookMove::Cell { cell: cell as u8, filled: false });
        }
        Branch::Moves
    }

    #[inline]
    fn apply<C: RuleCounter>(&mut self, mv: HookMove, counters: &mut C) -> Result<(), RuleId> {
        self.depth += 1;
        if self.tracks_reach() {
            let top = self.reach[self.reach.len() - 1];
            self.reach.push(top);
        }
        if self.keeps_share_for(mv) {
            self.shares.push();
        }
        match mv {
            HookMove::Cell { cell, filled } => {
                self.decide(cell as usize, filled);
                self.check_cell(cell as usize, filled, counters)
            }
            HookMove::Hook { hook, corner } => {
                self.place_hook(hook as usize, corner);
                self.check_placed_hooks(1 << hook, counters)
            }
            HookMove::Layout(code) => {
                for hook in (1..=self.shared.size).rev() {
                    self.place_hook(hook, layout_corner(code, hook));
                }
                let all_hooks = ((1u32 << (self.shared.size + 1)) - 1) & !1;
                self.check_placed_hooks(all_hooks, counters)
            }
        }
    }

    #[inline]
    fn undo(&mut self, mv: HookMove) {
        match mv {
            HookMove::Cell { cell, filled } => self.undecide(cell as usize, filled),
            HookMove::Hook { hook, .. } => self.unplace_hook(hook as usize),
            HookMove::Layout(_) => {
                for hook in 1..=self.shared.size {
                    self.unplace_hook(hook);
                }
            }
        }
        if self.tracks_reach() {
            self.reach.pop();
        }
        if self.keeps_share_for(mv) {
            self.shares.pop();
        }
        self.depth -= 1;
    }

    fn solution(&self) -> Vec<u8> {
        (0..self.shared.size * self.shared.size)
            .map(|cell| if (self.filled >> cell) & 1 == 1 { self.hook_of[cell] } else { 0 })
            .collect()
    }
}
