//! The 0/1 knapsack: choose items, each taken whole or not at all, whose weights fit the
//! capacity, with the largest total value. The workbench's first family that optimises
//! rather than enumerates: the engine's branch and bound keeps the best value found and
//! cuts every child whose bound cannot beat it.
//!
//! One item is decided per depth, Take (offered only when the item fits the room left)
//! before Skip; a node where no item left fits is a leaf. The `order` knob says which item
//! each depth decides:
//! - `ratio` (default): by value per unit of weight, best first, so that Dantzig's
//!   fractional bound of a child is a prefix sum and a galloping search away;
//! - `index`: as the file lists them; the same bound then scans the items left in ratio
//!   order (exact, linear in the items it passes).
//!
//! The `bound` knob says what bounds a child: `dantzig` (default), the fractional
//! relaxation rounded down, or `none`, the value so far plus every item left, which is
//! valid but cuts little: it shows what the relaxation buys.
//!
//! Instances: `{"capacity": C, "items": [[value, weight], ...]}`; `instances/knapsack/`
//! holds Pisinger's classes made by `scripts/knapsack/generate.py`.

mod config;
mod model;
mod parse;
#[cfg(test)]
mod tests;
mod verify;

pub use config::{BoundKind, ItemOrder, KnapsackConfig};
pub use model::{Decision, KnapsackModel};
pub use parse::MAX_ITEMS;

use super::answer_tally::AnswerTally;
use super::{DataError, Puzzle};
use crate::knobs::{Knob, KnobError, KnobReader, KnobSpec, KnobValues};
use serde_json::{json, Value};
use std::cmp::Reverse;

/// One item: its value and its (positive) weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Item {
    pub(super) value: i64,
    pub(super) weight: i64,
}

/// A 0/1 knapsack instance: the capacity and the items, in file order.
#[derive(Debug, Clone)]
pub struct Knapsack {
    capacity: i64,
    items: Vec<Item>,
}

impl Knapsack {
    /// The total value of `solution` (indices into the file's items).
    pub fn value_of(&self, solution: &[u32]) -> i64 {
        solution.iter().map(|&item| self.items[item as usize].value).sum()
    }

    /// The total weight of `solution`.
    pub fn weight_of(&self, solution: &[u32]) -> i64 {
        solution.iter().map(|&item| self.items[item as usize].weight).sum()
    }
}

impl Puzzle for Knapsack {
    const FAMILY: &'static str = "knapsack";
    const KNOBS: &'static [KnobSpec] = &[
        KnobSpec {
            name: "order",
            values: ItemOrder::VALUES,
            default: "ratio",
            help: "the order the items are decided in: ratio, best value per unit of weight first (the bound is then a prefix sum); index, as the file lists them",
        },
        KnobSpec {
            name: "bound",
            values: BoundKind::VALUES,
            default: "dantzig",
            help: "what bounds a child: dantzig, the greedy fill of the items left with the last one in part; none, the value so far plus every item left",
        },
    ];
    type Config = KnapsackConfig;
    type Model = KnapsackModel;
    /// The solution's value, reversed so that a tally's smallest keys are the best.
    type AnswerKey = Reverse<i64>;

    fn parse(data: &Value) -> Result<Self, DataError> {
        parse::parse(data)
    }

    fn config(knobs: &KnobValues) -> Result<KnapsackConfig, KnobError> {
        let reader = KnobReader::new(Self::FAMILY, Self::KNOBS, knobs)?;
        Ok(KnapsackConfig { order: reader.knob("order")?, bound: reader.knob("bound")? })
    }

    fn describe(config: &KnapsackConfig) -> Vec<(&'static str, String)> {
        vec![("order", config.order.name()), ("bound", config.bound.name())]
    }

    fn component_names(&self) -> Vec<String> {
        vec!["knapsack".to_string()]
    }

    fn models(&self, config: &KnapsackConfig) -> Vec<KnapsackModel> {
        vec![KnapsackModel::new(self, config)]
    }

    /// `value V, weight W: i j k` with the file's item indices, ascending.
    fn solution_text(&self, solution: &Vec<u32>) -> String {
        let items: Vec<String> = solution.iter().map(u32::to_string).collect();
        format!("value {}, weight {}: {}", self.value_of(solution), self.weight_of(solution), items.join(" "))
    }

    fn verify(&self, _component: usize, solution: &Vec<u32>) -> Result<(), String> {
        verify::check(self, solution)
    }

    fn answer_key(&self, _component: usize, solution: &Vec<u32>) -> Reverse<i64> {
        Reverse(self.value_of(solution))
    }

    /// `{"value": V}`: the best value among the packings reached. A branch-and-bound
    /// search reaches an optimal one (it cuts only children that cannot beat what it
    /// holds), and the tally lists the best values first, so `V` is the optimum.
    fn answer(&self, tallies: &[AnswerTally<Reverse<i64>, Vec<u32>>]) -> Value {
        let best = tallies.first().and_then(|tally| tally.counts().next().map(|(Reverse(value), _)| *value));
        best.map_or(Value::Null, |value| json!({ "value": value }))
    }
}
