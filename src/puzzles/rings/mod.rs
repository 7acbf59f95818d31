//! Olympic Rings (Perl Weekly Challenge 043): place distinct pool values in the open spots
//! so that every ring sums to the target.
//!
//! Spots are the regions of the drawing; a ring is a list of spots. The search decides one
//! open spot per level and tries the unused pool values in ascending order, exactly as the
//! seed post does, so its call counts (113 unpruned, 16 pruned) come out the same.

mod config;
mod model;
mod parse;
#[cfg(test)]
mod tests;
mod verify;

pub use config::{Pruning, RingsConfig, SpotOrder};
pub use model::{Placement, RingsModel};

use super::answer_tally::{histogram, AnswerTally};
use super::view::{CellView, RingsView, View};
use super::{DataError, Puzzle};
use crate::knobs::{Knob, KnobError, KnobReader, KnobSpec, KnobValues};
use serde_json::{json, Value};

/// An Olympic Rings instance.
#[derive(Debug, Clone)]
pub struct OlympicRings {
    spot_names: Vec<String>,
    /// Values fixed by the instance, per spot.
    fixed: Vec<Option<i32>>,
    /// Open spots, in the order `unknowns` lists them.
    unknowns: Vec<usize>,
    pool: Vec<i32>,
    target: i32,
    ring_names: Vec<String>,
    rings: Vec<Vec<usize>>,
}

impl Puzzle for OlympicRings {
    const FAMILY: &'static str = "olympic_rings";
    const KNOBS: &'static [KnobSpec] = &[
        KnobSpec {
            name: "order",
            values: SpotOrder::VALUES,
            default: "rings",
            help: "spot order: along the rings as the post (rg, gk, k, ky, yb), as `unknowns` lists them, or the fullest ring first",
        },
        KnobSpec {
            name: "pruning",
            values: Pruning::VALUES,
            default: "bounds",
            help: "none: check complete assignments only (113 calls); rings: reject a filled ring that misses the target (16 calls); bounds: also reject partial rings that the unused values cannot complete",
        },
    ];
    type Config = RingsConfig;
    type Model = RingsModel;
    type AnswerKey = Vec<i32>;

    fn parse(data: &Value) -> Result<Self, DataError> {
        parse::parse(data)
    }

    fn config(knobs: &KnobValues) -> Result<RingsConfig, KnobError> {
        let reader = KnobReader::new(Self::FAMILY, Self::KNOBS, knobs)?;
        Ok(RingsConfig { order: reader.knob("order")?, pruning: reader.knob("pruning")? })
    }

    fn describe(config: &RingsConfig) -> Vec<(&'static str, String)> {
        vec![("order", config.order.name()), ("pruning", config.pruning.name())]
    }

    fn component_names(&self) -> Vec<String> {
        vec!["rings".to_string()]
    }

    fn models(&self, config: &RingsConfig) -> Vec<RingsModel> {
        vec![RingsModel::new(self, config)]
    }

    fn view(&self, model: &RingsModel) -> View {
        let spots = (0..self.spot_names.len())
            .map(|spot| match (self.fixed[spot], model.value[spot]) {
                (Some(value), _) => CellView::Given(value.unsigned_abs()),
                (None, Some(value)) => CellView::Placed(value.unsigned_abs()),
                (None, None) => CellView::Open,
            })
            .collect();
        View::Rings(RingsView {
            ring_names: self.ring_names.clone(),
            rings: self.rings.clone(),
            spot_names: self.spot_names.clone(),
            spots,
            unused: self.pool.iter().zip(&model.used).filter(|(_, used)| !**used).map(|(value, _)| *value).collect(),
        })
    }

    fn solution_text(&self, solution: &Vec<i32>) -> String {
        self.unknowns
            .iter()
            .zip(solution)
            .map(|(&spot, value)| format!("{}={value}", self.spot_names[spot]))
            .collect::<Vec<_>>()
            .join(",")
    }

    fn render(&self, solution: &Vec<i32>) -> String {
        let mut lines = Vec::new();
        for (name, ring) in self.ring_names.iter().zip(&self.rings) {
            let terms: Vec<String> = ring
                .iter()
                .map(|&spot| {
                    let value = self.fixed[spot].unwrap_or_else(|| solution[self.unknown_index(spot)]);
                    format!("{}={value}", self.spot_names[spot])
                })
                .collect();
            let sum: i32 =
                ring.iter().map(|&spot| self.fixed[spot].unwrap_or_else(|| solution[self.unknown_index(spot)])).sum();
            lines.push(format!("{name:>8}: {} = {sum}", terms.join(" + ")));
        }
        lines.join("\n")
    }

    fn verify(&self, _component: usize, solution: &Vec<i32>) -> Result<(), String> {
        verify::check(self, solution)
    }

    /// The solution itself: the answer names the value of every unknown spot.
    fn answer_key(&self, _component: usize, solution: &Vec<i32>) -> Vec<i32> {
        solution.clone()
    }

    /// The unknowns' values of a single solution; for several, each assignment once.
    fn answer(&self, tallies: &[AnswerTally<Vec<i32>, Vec<i32>>]) -> Value {
        let Some(tally) = tallies.first() else {
            return Value::Null;
        };
        histogram(tally, |solution| {
            let mut object = serde_json::Map::new();
            for (&spot, value) in self.unknowns.iter().zip(solution) {
                object.insert(self.spot_names[spot].clone(), json!(value));
            }
            Value::Object(object)
        })
    }
}

impl OlympicRings {
    fn unknown_index(&self, spot: usize) -> usize {
        self.unknowns.iter().position(|&open| open == spot).unwrap_or(0)
    }
}
