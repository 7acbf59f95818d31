//! Olympic Rings (Perl Weekly Challenge 043): place distinct pool values in the open spots
//! so that every ring sums to the target.
//!
//! Spots are the regions of the drawing; a ring is a list of spots. The search decides one
//! open spot per level and tries the unused pool values in ascending order, exactly as the
//! seed post does, so its call counts (113 unpruned, 16 pruned) come out the same.

use super::data::{integer_in, Fields};
use super::knobs::{KnobError, KnobReader, KnobSpec, KnobValues};
use super::view::{CellView, RingsView, View};
use super::{DataError, Puzzle};
use crate::search::{Branch, Model, RuleCounter, RuleId};
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

/// The order in which open spots are decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpotOrder {
    /// In order of first appearance reading the rings in file order (the post's
    /// left-to-right order: rg, gk, k, ky, yb).
    Rings,
    /// In the order the instance's `unknowns` lists them.
    Listed,
    /// At each node, an open spot of the ring with the fewest open spots.
    MostConstrained,
}

/// How early a wrong ring sum is detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pruning {
    /// Only complete assignments are checked.
    None,
    /// A ring is checked as soon as all its spots are filled.
    Rings,
    /// A partly filled ring is rejected when even the smallest or largest unused values
    /// cannot bring it to the target.
    Bounds,
}

/// The knobs of Olympic Rings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RingsConfig {
    /// Spot order.
    pub order: SpotOrder,
    /// Pruning.
    pub pruning: Pruning,
}

const RULE_RING_SUM: RuleId = 0;
const RULE_BOUNDS: RuleId = 1;
const RULE_NAMES: &[&str] = &["ring-sum", "ring-bounds"];

impl Puzzle for OlympicRings {
    const FAMILY: &'static str = "olympic_rings";
    const KNOBS: &'static [KnobSpec] = &[
        KnobSpec {
            name: "order",
            values: &["rings", "listed", "most-constrained"],
            default: "rings",
            help: "spot order: along the rings as the post (rg, gk, k, ky, yb), as `unknowns` lists them, or the fullest ring first",
        },
        KnobSpec {
            name: "pruning",
            values: &["none", "rings", "bounds"],
            default: "bounds",
            help: "none: check complete assignments only (113 calls); rings: reject a filled ring that misses the target (16 calls); bounds: also reject partial rings that the unused values cannot complete",
        },
    ];
    type Config = RingsConfig;
    type Model = RingsModel;

    fn parse(data: &Value) -> Result<Self, DataError> {
        let fields = Fields::of(data, "")?;
        let mut spot_names: Vec<String> = Vec::new();
        let mut fixed = Vec::new();
        let fixed_object = Fields::of(fields.get("fixed")?, "fixed")?;
        for (name, value) in fields.get("fixed")?.as_object().into_iter().flatten() {
            let value = integer_in(value, &fixed_object.key_path(name), -1000..=1000)?;
            spot_names.push(name.clone());
            fixed.push(Some(value as i32));
        }
        let mut unknowns = Vec::new();
        for (index, name) in fields.array("unknowns")?.iter().enumerate() {
            let name = name
                .as_str()
                .ok_or_else(|| DataError::new(format!("unknowns[{index}]"), "expected a spot name (a string)"))?;
            if spot_names.iter().any(|known| known == name) {
                return Err(DataError::new(format!("unknowns[{index}]"), format!("spot `{name}` is listed twice")));
            }
            spot_names.push(name.to_string());
            fixed.push(None);
            unknowns.push(spot_names.len() - 1);
        }
        if unknowns.len() > 16 {
            return Err(DataError::new("unknowns", "at most 16 open spots are supported"));
        }
        let mut pool: Vec<i32> = fields.integers("pool", None, -1000..=1000)?.into_iter().map(|v| v as i32).collect();
        if pool.len() != unknowns.len() {
            return Err(DataError::new(
                "pool",
                format!("has {} values for {} unknowns; each value is used exactly once", pool.len(), unknowns.len()),
            ));
        }
        pool.sort_unstable();
        let target = fields.integer("ring_target", -100_000..=100_000)? as i32;
        let rings_value = fields.get("rings")?;
        let rings_object = rings_value
            .as_object()
            .ok_or_else(|| DataError::new("rings", "expected an object of ring name -> list of spots"))?;
        let mut ring_names = Vec::new();
        let mut rings = Vec::new();
        for (ring_name, spots) in rings_object {
            let path = format!("rings.{ring_name}");
            let spots = super::data::array_of(spots, &path)?;
            let mut members = Vec::new();
            for (index, spot) in spots.iter().enumerate() {
                let name = spot.as_str().unwrap_or("");
                let position = spot_names.iter().position(|known| known == name).ok_or_else(|| {
                    DataError::new(
                        format!("{path}[{index}]"),
                        format!("`{spot}` is neither a fixed spot nor an unknown"),
                    )
                })?;
                members.push(position);
            }
            ring_names.push(ring_name.clone());
            rings.push(members);
        }
        Ok(OlympicRings { spot_names, fixed, unknowns, pool, target, ring_names, rings })
    }

    fn config(knobs: &KnobValues) -> Result<RingsConfig, KnobError> {
        let reader = KnobReader::new(Self::FAMILY, Self::KNOBS, knobs)?;
        Ok(RingsConfig {
            order: reader.read("order", |head, k| match (head, k) {
                ("rings", None) => Some(SpotOrder::Rings),
                ("listed", None) => Some(SpotOrder::Listed),
                ("most-constrained", None) => Some(SpotOrder::MostConstrained),
                _ => None,
            })?,
            pruning: reader.read("pruning", |head, k| match (head, k) {
                ("none", None) => Some(Pruning::None),
                ("rings", None) => Some(Pruning::Rings),
                ("bounds", None) => Some(Pruning::Bounds),
                _ => None,
            })?,
        })
    }

    fn describe(config: &RingsConfig) -> Vec<(&'static str, String)> {
        let order = match config.order {
            SpotOrder::Rings => "rings",
            SpotOrder::Listed => "listed",
            SpotOrder::MostConstrained => "most-constrained",
        };
        let pruning = match config.pruning {
            Pruning::None => "none",
            Pruning::Rings => "rings",
            Pruning::Bounds => "bounds",
        };
        vec![("order", order.to_string()), ("pruning", pruning.to_string())]
    }

    fn component_names(&self) -> Vec<String> {
        vec!["rings".to_string()]
    }

    fn models(&self, config: &RingsConfig) -> Vec<RingsModel> {
        let order = match config.order {
            SpotOrder::Listed | SpotOrder::MostConstrained => self.unknowns.clone(),
            SpotOrder::Rings => {
                let mut order = Vec::new();
                for ring in &self.rings {
                    for &spot in ring {
                        if self.fixed[spot].is_none() && !order.contains(&spot) {
                            order.push(spot);
                        }
                    }
                }
                // Open spots on no ring still have to be filled; they come last.
                order.extend(self.unknowns.iter().filter(|spot| !order.contains(spot)).copied().collect::<Vec<_>>());
                order
            }
        };
        let rings_of = (0..self.spot_names.len())
            .map(|spot| (0..self.rings.len()).filter(|&ring| self.rings[ring].contains(&spot)).collect())
            .collect();
        vec![RingsModel {
            instance: std::sync::Arc::new(self.clone()),
            order,
            dynamic_order: config.order == SpotOrder::MostConstrained,
            pruning: config.pruning,
            rings_of,
            value: self.fixed.clone(),
            used: vec![false; self.pool.len()],
            filled: 0,
        }]
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
        let mut used = solution.clone();
        used.sort_unstable();
        if used != self.pool {
            return Err(format!("values {used:?} are not the pool {:?} used once each", self.pool));
        }
        for (name, ring) in self.ring_names.iter().zip(&self.rings) {
            let sum: i32 =
                ring.iter().map(|&spot| self.fixed[spot].unwrap_or_else(|| solution[self.unknown_index(spot)])).sum();
            if sum != self.target {
                return Err(format!("ring {name} sums to {sum}, not {}", self.target));
            }
        }
        Ok(())
    }

    fn answer(&self, solutions: &[Vec<Vec<i32>>]) -> Value {
        let answers: Vec<Value> = solutions[0]
            .iter()
            .map(|solution| {
                let mut object = serde_json::Map::new();
                for (&spot, value) in self.unknowns.iter().zip(solution) {
                    object.insert(self.spot_names[spot].clone(), json!(value));
                }
                Value::Object(object)
            })
            .collect();
        match answers.len() {
            0 => Value::Null,
            1 => answers.into_iter().next().unwrap_or(Value::Null),
            _ => Value::Array(answers),
        }
    }
}

impl OlympicRings {
    fn unknown_index(&self, spot: usize) -> usize {
        self.unknowns.iter().position(|&open| open == spot).unwrap_or(0)
    }
}

/// The search state: a value per spot and the pool values in use.
#[derive(Debug, Clone)]
pub struct RingsModel {
    instance: std::sync::Arc<OlympicRings>,
    /// Open spots in visiting order (the static orders), or the candidates of the dynamic one.
    order: Vec<usize>,
    dynamic_order: bool,
    pruning: Pruning,
    /// `rings_of[spot]`: the rings that contain the spot.
    rings_of: Vec<Vec<usize>>,
    value: Vec<Option<i32>>,
    /// `used[i]`: pool value `i` (ascending) is placed.
    used: Vec<bool>,
    filled: usize,
}

/// A move: put pool value number `pool_index` on `spot`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    spot: u8,
    pool_index: u8,
}

impl RingsModel {
    fn ring_sum(&self, ring: usize) -> (i32, usize) {
        let mut sum = 0;
        let mut open = 0;
        for &spot in &self.instance.rings[ring] {
            match self.value[spot] {
                Some(value) => sum += value,
                None => open += 1,
            }
        }
        (sum, open)
    }

    fn next_spot(&self) -> usize {
        let open_spots = self.order.iter().copied().filter(|&spot| self.value[spot].is_none());
        if !self.dynamic_order {
            return open_spots.clone().next().expect("an open spot remains below the leaves");
        }
        open_spots
            .min_by_key(|&spot| {
                self.rings_of[spot].iter().map(|&ring| self.ring_sum(ring).1).min().unwrap_or(usize::MAX)
            })
            .expect("an open spot remains below the leaves")
    }

    /// Whether `open` distinct unused pool values can bring `sum` to the target.
    fn reachable(&self, sum: i32, open: usize) -> bool {
        let unused = self.instance.pool.iter().zip(&self.used).filter(|(_, used)| !**used).map(|(value, _)| *value);
        let smallest: i32 = unused.clone().take(open).sum();
        let largest: i32 = unused.rev().take(open).sum();
        sum + smallest <= self.instance.target && self.instance.target <= sum + largest
    }
}

impl Model for RingsModel {
    type Move = Placement;
    type Solution = Vec<i32>;

    fn rule_names(&self) -> &[&'static str] {
        RULE_NAMES
    }

    fn max_depth(&self) -> usize {
        self.instance.unknowns.len()
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<Placement>, counters: &mut C) -> Branch {
        if self.filled == self.instance.unknowns.len() {
            counters.check(RULE_RING_SUM);
            let all_on_target =
                (0..self.instance.rings.len()).all(|ring| self.ring_sum(ring).0 == self.instance.target);
            return if all_on_target { Branch::Solution } else { Branch::DeadEnd(RULE_RING_SUM) };
        }
        let spot = self.next_spot() as u8;
        for (pool_index, used) in self.used.iter().enumerate() {
            // Equal pool values would give equal subtrees; try each value once.
            let repeated = pool_index > 0
                && self.instance.pool[pool_index] == self.instance.pool[pool_index - 1]
                && !self.used[pool_index - 1];
            if !used && !repeated {
                moves.push(Placement { spot, pool_index: pool_index as u8 });
            }
        }
        Branch::Moves
    }

    fn apply<C: RuleCounter>(&mut self, mv: Placement, counters: &mut C) -> Result<(), RuleId> {
        let spot = mv.spot as usize;
        self.value[spot] = Some(self.instance.pool[mv.pool_index as usize]);
        self.used[mv.pool_index as usize] = true;
        self.filled += 1;
        if self.pruning == Pruning::None {
            return Ok(());
        }
        for &ring in &self.rings_of[spot] {
            let (sum, open) = self.ring_sum(ring);
            if open == 0 {
                counters.check(RULE_RING_SUM);
                if sum != self.instance.target {
                    return Err(RULE_RING_SUM);
                }
            } else if self.pruning == Pruning::Bounds {
                counters.check(RULE_BOUNDS);
                if !self.reachable(sum, open) {
                    return Err(RULE_BOUNDS);
                }
            }
        }
        Ok(())
    }

    fn undo(&mut self, mv: Placement) {
        self.value[mv.spot as usize] = None;
        self.used[mv.pool_index as usize] = false;
        self.filled -= 1;
    }

    fn solution(&self) -> Vec<i32> {
        self.instance.unknowns.iter().map(|&spot| self.value[spot].unwrap_or(0)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{search_sequentially, FullCounters, Limits};

    fn instance() -> OlympicRings {
        let text = include_str!("../../instances/olympic_rings.json");
        let file: Value = serde_json::from_str(text).expect("instance file is JSON");
        OlympicRings::parse(&file["data"]).expect("instance data is valid")
    }

    fn config(order: &str, pruning: &str) -> RingsConfig {
        let knobs: KnobValues =
            [("order".to_string(), order.to_string()), ("pruning".to_string(), pruning.to_string())].into();
        OlympicRings::config(&knobs).expect("valid knobs")
    }

    fn first_solution_nodes(pruning: &str) -> (u64, String) {
        let rings = instance();
        let model = rings.models(&config("rings", pruning)).remove(0);
        let result = search_sequentially::<_, FullCounters>(model, Limits::first_solution());
        (result.stats.nodes, rings.solution_text(&result.solutions[0]))
    }

    #[test]
    fn post_counts_113_calls_unpruned_and_16_pruned() {
        assert_eq!(first_solution_nodes("none"), (113, "rg=2,gk=4,ky=1,yb=3,k=6".to_string()));
        assert_eq!(first_solution_nodes("rings"), (16, "rg=2,gk=4,ky=1,yb=3,k=6".to_string()));
    }

    #[test]
    fn every_knob_setting_finds_the_one_published_assignment() {
        let rings = instance();
        for order in ["rings", "listed", "most-constrained"] {
            for pruning in ["none", "rings", "bounds"] {
                let model = rings.models(&config(order, pruning)).remove(0);
                let result = search_sequentially::<_, FullCounters>(model, Limits::exhaustive());
                let texts: Vec<String> = result.solutions.iter().map(|s| rings.solution_text(s)).collect();
                assert!(result.solutions.iter().all(|s| rings.verify(0, s).is_ok()));
                assert_eq!(texts, vec!["rg=2,gk=4,ky=1,yb=3,k=6"], "order={order} pruning={pruning}");
                let answer = rings.answer(&[result.solutions]);
                assert_eq!(answer, json!({"rg": 2, "gk": 4, "ky": 1, "yb": 3, "k": 6}));
            }
        }
    }
}
