//! The search state of the knapsack and its [`Model`] implementation: one item decided per
//! depth, Take before Skip, each child bounded by the value it can still reach.
//!
//! The bound of a child is read from the running value and room that `apply` keeps and
//! from tables built once per model, so a subproblem replayed with `apply` alone (a
//! parallel task, a cluster part) bounds its children as the sequential search does.

use super::config::{BoundKind, ItemOrder, KnapsackConfig};
use super::Knapsack;
use crate::search::{Branch, Model, Objective, RuleCounter, RuleId, Sense};
use std::cmp::Ordering;
use std::sync::Arc;

/// The one rule: a child whose bound cannot beat the best solution found is cut.
pub(super) const RULE_BOUND: RuleId = 0;
const RULE_NAMES: &[&str] = &["bound"];

/// What every copy of a model shares: the items in decision order and the tables the
/// bounds read.
#[derive(Debug)]
pub(super) struct Shared {
    bound: BoundKind,
    /// Whether decision order is ratio order, so that the fractional fill is a prefix.
    ratio_order: bool,
    /// Value and weight of the item decided at each depth.
    value: Vec<i64>,
    weight: Vec<i64>,
    /// `prefix_value[d]`: the values of the items of depths `0..d` (n + 1 entries); the
    /// same for the weights. Sums fit an `i64`: the parser checks the totals.
    prefix_value: Vec<i64>,
    prefix_weight: Vec<i64>,
    /// `lightest_from[d]`: the smallest weight among the items of depths `d..n`
    /// (`i64::MAX` at `n`): a node whose room is below it has only Skips left.
    lightest_from: Vec<i64>,
    /// Depths in ratio order, for the fractional fill when decisions follow the file.
    ratio_ranked: Vec<u32>,
    /// The depth at which each item (by the instance's index) is decided.
    depth_of_item: Vec<u32>,
    /// Value of each item by the instance's index, for a solution's value.
    value_of_item: Vec<i64>,
}

/// The search state: how many items are decided, the value taken and the room left.
#[derive(Debug, Clone)]
pub struct KnapsackModel {
    shared: Arc<Shared>,
    /// Items decided so far (the depth of the node).
    depth: usize,
    /// Value of the items taken.
    value: i64,
    /// Capacity not used by the items taken.
    room: i64,
    /// `taken[d]` for `d < depth`: whether the item of depth `d` was taken.
    taken: Vec<bool>,
}

/// A move: take or skip the item decided at `depth` (the depth makes a move readable on
/// its own, in a subproblem's path or a trace).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The depth of the parent: which item in decision order.
    pub depth: u32,
    /// Take the item (it fits the room left) or leave it.
    pub take: bool,
}

/// Items `(value, weight)` by value per unit of weight, best first (`Less` when `a`'s is
/// the better), compared exactly by cross-multiplication in 128 bits.
fn ratio_order(a: (i64, i64), b: (i64, i64)) -> Ordering {
    (i128::from(b.0) * i128::from(a.1)).cmp(&(i128::from(a.0) * i128::from(b.1)))
}

/// `sums[d]`: the sum of `values[..d]` (one more entry than `values`).
fn prefix_sums(values: &[i64]) -> Vec<i64> {
    let mut sums = Vec::with_capacity(values.len() + 1);
    let mut sum = 0;
    sums.push(sum);
    for &value in values {
        sum += value;
        sums.push(sum);
    }
    sums
}

impl KnapsackModel {
    /// What the moves change (the decided depth, the value, the room and the choices), for
    /// the check that a rejected move changes none of it.
    #[cfg(test)]
    pub(super) fn state(&self) -> (usize, i64, i64, Vec<bool>) {
        (self.depth, self.value, self.room, self.taken.clone())
    }

    /// The root state of `knapsack` under `config`.
    pub(super) fn new(knapsack: &Knapsack, config: &KnapsackConfig) -> KnapsackModel {
        let items = &knapsack.items;
        let n = items.len();
        let pair = |index: usize| (items[index].value, items[index].weight);
        // Ratio order, ties by the earlier item: a total order, so the same on every run.
        let mut by_ratio: Vec<usize> = (0..n).collect();
        by_ratio.sort_by(|&a, &b| ratio_order(pair(a), pair(b)).then(a.cmp(&b)));
        let decision_order: Vec<usize> = match config.order {
            ItemOrder::Ratio => by_ratio.clone(),
            ItemOrder::Index => (0..n).collect(),
        };
        let value: Vec<i64> = decision_order.iter().map(|&item| items[item].value).collect();
        let weight: Vec<i64> = decision_order.iter().map(|&item| items[item].weight).collect();
        let mut lightest_from = vec![i64::MAX; n + 1];
        for depth in (0..n).rev() {
            lightest_from[depth] = lightest_from[depth + 1].min(weight[depth]);
        }
        let mut depth_of = vec![0u32; n];
        for (depth, &item) in decision_order.iter().enumerate() {
            depth_of[item] = depth as u32;
        }
        let shared = Shared {
            bound: config.bound,
            ratio_order: config.order == ItemOrder::Ratio,
            prefix_value: prefix_sums(&value),
            prefix_weight: prefix_sums(&weight),
            value,
            weight,
            lightest_from,
            ratio_ranked: by_ratio.iter().map(|&item| depth_of[item]).collect(),
            depth_of_item: depth_of,
            value_of_item: items.iter().map(|item| item.value).collect(),
        };
        KnapsackModel { shared: Arc::new(shared), depth: 0, value: 0, room: knapsack.capacity, taken: vec![false; n] }
    }

    /// The items of depths `from..n` taken greedily into `room`, whole while they fit and
    /// the first that does not in part (rounded down): Dantzig's bound on what those items
    /// can add, since no packing beats the fractional one. In ratio order the whole ones
    /// are a prefix of `from..n`, found by a galloping search in the prefix weights: a
    /// few steps, as the item that no longer fits is usually near `from`.
    #[inline]
    fn fill_in_ratio_order(&self, from: usize, room: i64) -> i64 {
        let shared = &*self.shared;
        let (weights, values) = (&shared.prefix_weight, &shared.prefix_value);
        let n = shared.value.len();
        if room >= weights[n] - weights[from] {
            return values[n] - values[from];
        }
        // The depths up to `last` fit whole: weights[last] <= reach < weights[n].
        let reach = weights[from] + room;
        let (mut last, mut beyond, mut step) = (from, from + 1, 1);
        while weights[beyond] <= reach {
            last = beyond;
            step *= 2;
            beyond = (from + step).min(n);
        }
        while beyond - last > 1 {
            let middle = (last + beyond) / 2;
            if weights[middle] <= reach {
                last = middle;
            } else {
                beyond = middle;
            }
        }
        let part = i128::from(reach - weights[last]) * i128::from(shared.value[last]) / i128::from(shared.weight[last]);
        values[last] - values[from] + part as i64
    }

    /// The same fill when decisions follow the file: the items left are scattered in
    /// ratio order, so the scan walks the ratio order and skips decided depths. Exact,
    /// but linear in the items it passes; this order is a comparison knob, not the fast path.
    fn fill_scattered(&self, from: usize, mut room: i64) -> i64 {
        let shared = &*self.shared;
        let mut total = 0;
        for &depth in &shared.ratio_ranked {
            let depth = depth as usize;
            if depth < from {
                continue;
            }
            let weight = shared.weight[depth];
            if weight > room {
                let part = i128::from(room) * i128::from(shared.value[depth]) / i128::from(weight);
                return total + part as i64;
            }
            room -= weight;
            total += shared.value[depth];
        }
        total
    }
}

impl Model for KnapsackModel {
    type Move = Decision;
    /// The instance's indices of the items taken, ascending.
    type Solution = Vec<u32>;
    const REJECTS_BEFORE_CHANGING: bool = true;
    const OPTIMISES: bool = true;
    /// Take's bound is usually at least Skip's, but not always (a Take that fills the
    /// room exactly can leave less than Skip's fractional fill), so each child is checked.
    const MOVES_IN_BOUND_ORDER: bool = false;

    fn rule_names(&self) -> &[&'static str] {
        RULE_NAMES
    }

    fn max_depth(&self) -> usize {
        self.taken.len()
    }

    #[inline]
    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<Decision>, _counters: &mut C) -> Branch {
        let shared = &*self.shared;
        let depth = self.depth;
        // No item left fits: every one left is skipped, so this is a leaf already (it
        // saves a chain of Skip nodes below every packing that fills the room).
        if depth == self.taken.len() || self.room < shared.lightest_from[depth] {
            return Branch::Solution;
        }
        // An item that does not fit is not offered: nothing to reject, no node.
        if shared.weight[depth] <= self.room {
            moves.push(Decision { depth: depth as u32, take: true });
        }
        moves.push(Decision { depth: depth as u32, take: false });
        Branch::Moves
    }

    #[inline]
    fn apply<C: RuleCounter>(&mut self, mv: Decision, _counters: &mut C) -> Result<(), RuleId> {
        debug_assert_eq!(mv.depth as usize, self.depth, "a decision applies at its own depth");
        let depth = self.depth;
        if mv.take {
            self.value += self.shared.value[depth];
            self.room -= self.shared.weight[depth];
        }
        self.taken[depth] = mv.take;
        self.depth += 1;
        Ok(())
    }

    #[inline]
    fn undo(&mut self, mv: Decision) {
        self.depth -= 1;
        if mv.take {
            self.value -= self.shared.value[self.depth];
            self.room += self.shared.weight[self.depth];
        }
    }

    /// Read in the instance's item order, so the list comes out sorted: the engine asks
    /// for every leaf's solution to value it, and a sort per leaf took most of the time
    /// of searches with many leaves (strongly correlated classes).
    /// Built in one allocation (room for every item decided): growing the list item by
    /// item reallocated it five times per leaf, and two threads doing that contended for
    /// the allocator's lock (a knapsack at 2 threads spent half its time in the kernel).
    fn solution(&self) -> Vec<u32> {
        let depth_of_item = &self.shared.depth_of_item;
        let mut items = Vec::with_capacity(self.depth);
        items.extend((0..depth_of_item.len() as u32).filter(|&item| {
            let depth = depth_of_item[item as usize] as usize;
            depth < self.depth && self.taken[depth]
        }));
        items
    }

    fn objective(&self) -> Option<Objective> {
        Some(Objective { sense: Sense::Maximise, bound_rule: RULE_BOUND })
    }

    fn solution_value(&self, solution: &Vec<u32>) -> i64 {
        solution.iter().map(|&item| self.shared.value_of_item[item as usize]).sum()
    }

    /// The value taken so far: most leaves are worse than the best kept, and the engine
    /// then builds no solution for them.
    #[inline]
    fn value_here(&self) -> Option<i64> {
        Some(self.value)
    }

    /// The value so far, the item's if taken, and what the items below can add at most
    /// (see [`BoundKind`]); read at the parent, from the state `apply` keeps.
    #[inline]
    fn move_bound(&self, mv: Decision) -> i64 {
        let shared = &*self.shared;
        let depth = self.depth;
        let (value, room) = if mv.take {
            (self.value + shared.value[depth], self.room - shared.weight[depth])
        } else {
            (self.value, self.room)
        };
        let from = depth + 1;
        let n = shared.value.len();
        value
            + match shared.bound {
                BoundKind::None => shared.prefix_value[n] - shared.prefix_value[from],
                BoundKind::Dantzig if shared.ratio_order => self.fill_in_ratio_order(from, room),
                BoundKind::Dantzig => self.fill_scattered(from, room),
            }
    }
}
