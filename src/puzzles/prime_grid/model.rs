//! The search state of the grid and its [`Model`] implementation: one decision per blank,
//! the lines checked as the `mode` knob says.

use super::bitset::SetBits;
use super::config::{GridObjective, Mode, PrimeGridConfig};
use super::geometry::{blank_order, total_of, CELLS, LINES, LINES_THROUGH, LINE_COUNT, NUMBERS};
use super::PrimeGrid;
use crate::puzzles::primes::PrimeTable;
use crate::search::{Branch, Model, Objective, RuleCounter, RuleId, Sense};
use std::sync::Arc;

pub(super) const RULE_DISTINCT: RuleId = 0;
pub(super) const RULE_CELL_BOUND: RuleId = 1;
pub(super) const RULE_CELL_PRIME: RuleId = 2;
pub(super) const RULE_LINE_BOUND: RuleId = 3;
pub(super) const RULE_LINE_PRIME: RuleId = 4;
pub(super) const RULE_TOTAL_PRIME: RuleId = 5;
pub(super) const RULE_LINE_PARITY: RuleId = 6;
pub(super) const RULE_LINE_REACH: RuleId = 7;
pub(super) const RULE_NAMES: &[&str] =
    &["distinct", "cell-bound", "cell-prime", "line-bound", "line-prime", "total-prime", "line-parity", "line-reach"];
/// The rule of `objective=min-total`'s bound cuts, listed only then: the records and
/// counts of an enumeration keep the rule list they always had.
pub(super) const RULE_BOUND: RuleId = 8;
const RULE_NAMES_WITH_BOUND: &[&str] = &[
    "distinct",
    "cell-bound",
    "cell-prime",
    "line-bound",
    "line-prime",
    "total-prime",
    "line-parity",
    "line-reach",
    "bound",
];

/// How many times a cell's value counts in the total of the 17 numbers: once as a cell,
/// once in each line through it (a corner 4, an edge 3, the centre 5).
const WEIGHT: [u32; CELLS] = [4, 3, 4, 3, 5, 3, 4, 3, 4];

/// What every copy of a model shares: the instance and the prime table.
#[derive(Debug)]
pub(super) struct Shared {
    pub(super) mode: Mode,
    pub(super) givens: [u32; CELLS],
    /// Blank cells in the order of the `order` knob: the decision at depth `d` fills
    /// `blanks[d]`.
    pub(super) blanks: Vec<usize>,
    pub(super) primes: PrimeTable,
    pub(super) cell_bound: u32,
    pub(super) sum_bound: u32,
    /// Whether the search minimises the total (`objective=min-total`).
    pub(super) min_total: bool,
    /// `heaviest_from[d]`: the weights of the blanks decided at depths `d..`, heaviest
    /// first (zero past the last), for the bound.
    pub(super) heaviest_from: Vec<[u32; CELLS]>,
}

/// The search state: the grid as filled so far, its line sums and the values still free.
///
/// A move is tested before it changes anything (`REJECTS_BEFORE_CHANGING`): incremental
/// mode, the one that rejects in `apply`, takes 27% fewer instructions (callgrind, the
/// enumeration instance's first 3,000,000 nodes: 561 M against 769 M), the others as many
/// as before (derived, all 904,216 solutions: 6,096 M against 6,106 M). The moves stay a
/// list: yielded one by one from per-depth bitsets of offered values, derived mode took 12%
/// more instructions (6,833 M), and 10% more with the per-value code in its original form.
#[derive(Debug, Clone)]
pub struct PrimeGridModel {
    pub(super) shared: Arc<Shared>,
    /// Givens and placed values, row-major; 0 = not decided yet.
    pub(super) cells: [u32; CELLS],
    /// Sum of the cells of each line filled so far.
    pub(super) line_sums: [u32; LINE_COUNT],
    /// Cells of each line not decided yet.
    pub(super) line_open: [u8; LINE_COUNT],
    /// Blanks decided so far.
    pub(super) decided: usize,
    /// Bit `v % 64` of word `v / 64` is set while `v` is a candidate not placed yet: the
    /// values a blank may take before any rule is applied.
    pub(super) unplaced: Vec<u64>,
    /// Derived mode's working copy of `unplaced`, narrowed rule by rule; kept here so
    /// that filtering allocates nothing.
    pub(super) allowed: Vec<u64>,
}

/// A move: put `value` in `cell` (row-major index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    pub(super) cell: u8,
    pub(super) value: u32,
}

impl PrimeGridModel {
    pub(super) fn new(grid: &PrimeGrid, config: &PrimeGridConfig) -> PrimeGridModel {
        let mode = config.mode;
        // The table answers every hot primality query: the largest is a total whose lines
        // all passed their bound (at most 17,000,000 with both bounds at MAX_BOUND), or
        // the end of a window read past a line's partial sum (below three cell bounds).
        let largest_total = 9 * grid.cell_bound + 8 * grid.sum_bound;
        let primes = PrimeTable::up_to(largest_total.max(3 * grid.cell_bound + 128));
        let mut unplaced = vec![0u64; grid.cell_bound.div_ceil(64) as usize];
        for value in primes.primes_below(grid.cell_bound) {
            // Parity (derived mode): a line holding a 2 sums 2 and two distinct odd
            // primes, an even number above 2, so no cell can hold a 2.
            let parity_excludes = mode == Mode::Derived && value == 2;
            if !grid.givens.contains(&value) && !parity_excludes {
                unplaced[value as usize / 64] |= 1 << (value % 64);
            }
        }
        let blanks = blank_order(&grid.givens, config.order);
        let heaviest_from = (0..=blanks.len())
            .map(|depth| {
                let mut weights = [0; CELLS];
                for (slot, &cell) in weights.iter_mut().zip(&blanks[depth..]) {
                    *slot = WEIGHT[cell];
                }
                weights.sort_unstable_by(|a, b| b.cmp(a));
                weights
            })
            .collect();
        let cells = grid.givens;
        let line_sums = LINES.map(|line| line.iter().map(|&cell| cells[cell]).sum());
        let line_open = LINES.map(|line| line.iter().filter(|&&cell| cells[cell] == 0).count() as u8);
        let shared = Shared {
            mode,
            givens: grid.givens,
            blanks,
            primes,
            cell_bound: grid.cell_bound,
            sum_bound: grid.sum_bound,
            min_total: config.objective == GridObjective::MinTotal,
            heaviest_from,
        };
        let allowed = unplaced.clone();
        PrimeGridModel { shared: Arc::new(shared), cells, line_sums, line_open, decided: 0, unplaced, allowed }
    }

    /// Checks made once at the root by the non-brute modes: the givens, and the lines
    /// that the givens complete.
    fn check_root<C: RuleCounter>(&self, counters: &mut C) -> Result<(), RuleId> {
        let shared = &*self.shared;
        let derived = shared.mode == Mode::Derived;
        for (cell, &given) in shared.givens.iter().enumerate() {
            if given == 0 {
                continue;
            }
            counters.check(RULE_CELL_BOUND);
            if given >= shared.cell_bound {
                return Err(RULE_CELL_BOUND);
            }
            counters.check(RULE_CELL_PRIME);
            if !shared.primes.is_prime(given) {
                return Err(RULE_CELL_PRIME);
            }
            if derived {
                counters.check(RULE_LINE_PARITY);
                if given == 2 {
                    return Err(RULE_LINE_PARITY);
                }
                counters.check(RULE_DISTINCT);
                if shared.givens[..cell].contains(&given) {
                    return Err(RULE_DISTINCT);
                }
            }
        }
        for line in 0..LINE_COUNT {
            if self.line_open[line] != 0 {
                continue;
            }
            let sum = self.line_sums[line];
            counters.check(RULE_LINE_BOUND);
            if sum >= shared.sum_bound {
                return Err(RULE_LINE_BOUND);
            }
            counters.check(RULE_LINE_PRIME);
            if !shared.primes.is_prime(sum) {
                return Err(RULE_LINE_PRIME);
            }
            if derived {
                counters.check(RULE_DISTINCT);
                let repeats_a_line = (0..line).any(|other| self.line_open[other] == 0 && self.line_sums[other] == sum);
                if repeats_a_line || self.cells.contains(&sum) {
                    return Err(RULE_DISTINCT);
                }
            }
        }
        Ok(())
    }

    /// Incremental mode's `apply`: the bound and primality of every line that the value
    /// completes, tested before anything changes so that a rejected move leaves nothing
    /// to undo, then the placement. Kept out of `apply` (never inlined) so that the other
    /// modes' `apply` stays small: written inline, its counting made every counted `apply`
    /// save and restore four more registers, 10 instructions a node in brute mode.
    #[inline(never)]
    fn apply_incremental<C: RuleCounter>(&mut self, mv: Placement, counters: &mut C) -> Result<(), RuleId> {
        for &line in LINES_THROUGH[mv.cell as usize] {
            if self.line_open[line] != 1 {
                continue;
            }
            let sum = self.line_sums[line] + mv.value;
            counters.check(RULE_LINE_BOUND);
            if sum >= self.shared.sum_bound {
                return Err(RULE_LINE_BOUND);
            }
            counters.check(RULE_LINE_PRIME);
            if !self.shared.primes.is_prime(sum) {
                return Err(RULE_LINE_PRIME);
            }
        }
        self.place(mv);
        Ok(())
    }

    /// Puts the value of `mv` in its cell.
    #[inline(always)]
    fn place(&mut self, mv: Placement) {
        let cell = mv.cell as usize;
        self.cells[cell] = mv.value;
        self.unplaced[mv.value as usize / 64] &= !(1 << (mv.value % 64));
        for &line in LINES_THROUGH[cell] {
            self.line_sums[line] += mv.value;
            self.line_open[line] -= 1;
        }
        self.decided += 1;
    }

    /// The checks at a complete grid: all of them in brute mode, what is left in the others.
    fn check_leaf<C: RuleCounter>(&self, counters: &mut C) -> Branch {
        let shared = &*self.shared;
        let mut numbers = [0u32; NUMBERS];
        numbers[..CELLS].copy_from_slice(&self.cells);
        numbers[CELLS..].copy_from_slice(&self.line_sums);
        if shared.mode != Mode::Derived {
            counters.check(RULE_DISTINCT);
            let repeated = (1..NUMBERS).any(|index| numbers[..index].contains(&numbers[index]));
            if repeated {
                return Branch::DeadEnd(RULE_DISTINCT);
            }
        }
        if shared.mode == Mode::Brute {
            counters.check(RULE_CELL_BOUND);
            if self.cells.iter().any(|&value| value >= shared.cell_bound) {
                return Branch::DeadEnd(RULE_CELL_BOUND);
            }
            counters.check(RULE_CELL_PRIME);
            if !self.cells.iter().all(|&value| shared.primes.is_prime(value)) {
                return Branch::DeadEnd(RULE_CELL_PRIME);
            }
            counters.check(RULE_LINE_BOUND);
            if self.line_sums.iter().any(|&sum| sum >= shared.sum_bound) {
                return Branch::DeadEnd(RULE_LINE_BOUND);
            }
            counters.check(RULE_LINE_PRIME);
            if !self.line_sums.iter().all(|&sum| shared.primes.is_prime(sum)) {
                return Branch::DeadEnd(RULE_LINE_PRIME);
            }
        }
        if shared.mode == Mode::Derived && !shared.blanks.is_empty() {
            // Derived mode checked the total when it offered the last value.
            return Branch::Solution;
        }
        counters.check(RULE_TOTAL_PRIME);
        if shared.primes.is_prime(numbers.iter().sum()) {
            Branch::Solution
        } else {
            Branch::DeadEnd(RULE_TOTAL_PRIME)
        }
    }
}

/// A filled grid, ordered by its 17-number total first and then by the cells row-major,
/// so that the solutions a search keeps (the smallest) always include the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PrimeGridSolution {
    /// The total of the 9 cells and the 8 line sums.
    pub total: u32,
    /// The cells, row-major.
    pub cells: [u32; CELLS],
}

impl Model for PrimeGridModel {
    type Move = Placement;
    type Solution = PrimeGridSolution;
    const REJECTS_BEFORE_CHANGING: bool = true;

    /// Enumeration (no objective) never calls the bound code, so its counts are the ones
    /// of a model that cannot optimise.
    const OPTIMISES: bool = true;

    fn rule_names(&self) -> &[&'static str] {
        if self.shared.min_total {
            RULE_NAMES_WITH_BOUND
        } else {
            RULE_NAMES
        }
    }

    fn max_depth(&self) -> usize {
        self.shared.blanks.len()
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<Placement>, counters: &mut C) -> Branch {
        let mode = self.shared.mode;
        if self.decided == 0 && mode != Mode::Brute {
            if let Err(rule) = self.check_root(counters) {
                return Branch::DeadEnd(rule);
            }
        }
        let Some(&cell) = self.shared.blanks.get(self.decided) else {
            return self.check_leaf(counters);
        };
        if mode == Mode::Derived {
            return self.push_derived_moves(cell, moves, counters);
        }
        moves.extend(SetBits::new(&self.unplaced).map(|value| Placement { cell: cell as u8, value }));
        Branch::Moves
    }

    fn apply<C: RuleCounter>(&mut self, mv: Placement, counters: &mut C) -> Result<(), RuleId> {
        // Derived mode checked the value before offering it; brute checks at the leaf.
        if self.shared.mode == Mode::Incremental {
            return self.apply_incremental(mv, counters);
        }
        self.place(mv);
        Ok(())
    }

    fn undo(&mut self, mv: Placement) {
        let cell = mv.cell as usize;
        self.cells[cell] = 0;
        self.unplaced[mv.value as usize / 64] |= 1 << (mv.value % 64);
        for &line in LINES_THROUGH[cell] {
            self.line_sums[line] -= mv.value;
            self.line_open[line] += 1;
        }
        self.decided -= 1;
    }

    fn solution(&self) -> PrimeGridSolution {
        PrimeGridSolution { total: total_of(&self.cells), cells: self.cells }
    }

    fn objective(&self) -> Option<Objective> {
        self.shared.min_total.then_some(Objective { sense: Sense::Minimise, bound_rule: RULE_BOUND })
    }

    fn solution_value(&self, solution: &PrimeGridSolution) -> i64 {
        i64::from(solution.total)
    }

    /// The smallest total a grid under the child can have: the total so far (the cells
    /// and line sums of the values placed and given), the move's value by its cell's
    /// weight, and the smallest free values other than it on the blanks left, the
    /// smallest on the heaviest (the least such pairing). Every value a blank can take is
    /// free (`place` keeps `unplaced`), so no grid below is smaller.
    fn move_bound(&self, mv: Placement) -> i64 {
        let so_far: u32 = self.cells.iter().sum::<u32>() + self.line_sums.iter().sum::<u32>();
        let mut bound = u64::from(so_far) + u64::from(WEIGHT[mv.cell as usize] * mv.value);
        let heaviest = &self.shared.heaviest_from[self.decided + 1];
        let smallest = SetBits::new(&self.unplaced).filter(|&value| value != mv.value);
        for (&weight, value) in heaviest.iter().take_while(|&&weight| weight > 0).zip(smallest) {
            bound += u64::from(weight * value);
        }
        bound as i64
    }
}
