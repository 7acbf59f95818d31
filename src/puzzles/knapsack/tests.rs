//! Tests of the knapsack: the optimum of every knob setting, sequential and parallel,
//! against an independent dynamic programme on seeded instances of each of Pisinger's
//! classes; the committed instances; the data errors and the checker.

use super::*;
use crate::parallel::{ParallelPlan, Pool, Strategy};
use crate::search::{search_sequentially, Branch, FullCounters, Incumbent, Limits, Model};

const KINDS: [&str; 5] =
    ["uncorrelated", "weakly-correlated", "strongly-correlated", "inverse-strongly-correlated", "subset-sum"];

/// SplitMix64, as `scripts/knapsack/generate.py` draws its numbers.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn uniform(&mut self, low: i64, high: i64) -> i64 {
        low + (self.next() % (high - low + 1) as u64) as i64
    }
}

/// The `data` block `generate.py KIND N R SEED` writes: Pisinger's classes, capacity half
/// the total weight.
fn generated(kind: &str, n: usize, r: i64, seed: u64) -> Value {
    let mut rng = SplitMix64(seed);
    let tenth = r / 10;
    let items: Vec<[i64; 2]> = (0..n)
        .map(|_| match kind {
            "uncorrelated" => {
                let weight = rng.uniform(1, r);
                [rng.uniform(1, r), weight]
            }
            "weakly-correlated" => {
                let weight = rng.uniform(1, r);
                [rng.uniform((weight - tenth).max(1), weight + tenth), weight]
            }
            "strongly-correlated" => {
                let weight = rng.uniform(1, r);
                [weight + tenth, weight]
            }
            "inverse-strongly-correlated" => {
                let value = rng.uniform(1, r);
                [value, value + tenth]
            }
            "subset-sum" => {
                let weight = rng.uniform(1, r);
                [weight, weight]
            }
            _ => panic!("unknown kind {kind}"),
        })
        .collect();
    let capacity: i64 = items.iter().map(|item| item[1]).sum::<i64>() / 2;
    json!({"capacity": capacity, "items": items})
}

/// The best value by dynamic programming over the capacity, sharing no code with the model.
fn dp_optimum(data: &Value) -> i64 {
    let capacity = data["capacity"].as_u64().expect("capacity") as usize;
    let mut best = vec![0i64; capacity + 1];
    for item in data["items"].as_array().expect("items") {
        let (value, weight) = (item[0].as_i64().expect("value"), item[1].as_u64().expect("weight") as usize);
        for room in (weight..=capacity).rev() {
            best[room] = best[room].max(best[room - weight] + value);
        }
    }
    best[capacity]
}

/// 40 seeded instances, 8 of each class, n from 10 to 30, R of 100 or 1000.
fn seeded_instances() -> Vec<(String, Value)> {
    let mut instances = Vec::new();
    for (class, kind) in KINDS.iter().enumerate() {
        for seed in 0..8u64 {
            let n = 10 + ((seed as usize * 3 + class) % 21);
            let r = if seed % 2 == 0 { 100 } else { 1000 };
            let id = format!("{kind} n={n} R={r} seed={seed}");
            instances.push((id, generated(kind, n, r, 1000 * class as u64 + seed)));
        }
    }
    instances
}

fn knapsack(data: &Value) -> Knapsack {
    Knapsack::parse(data).expect("valid data")
}

fn config(order: &str, bound: &str) -> KnapsackConfig {
    let knobs: KnobValues = [("order".to_string(), order.to_string()), ("bound".to_string(), bound.to_string())].into();
    Knapsack::config(&knobs).expect("valid knobs")
}

/// The most items of an instance searched with `bound=none` (up to 2^n nodes).
const WEAK_BOUND_ITEMS: usize = 18;

const KNOB_SETTINGS: [(&str, &str); 4] =
    [("ratio", "dantzig"), ("index", "dantzig"), ("ratio", "none"), ("index", "none")];

/// The best value a sequential search finds, after checking its solutions.
fn sequential_optimum(instance: &Knapsack, config: &KnapsackConfig, context: &str) -> (i64, u64) {
    let model = instance.models(config).remove(0);
    let result = search_sequentially::<_, FullCounters>(model.clone(), Limits::exhaustive());
    assert!(!result.solutions.is_empty(), "{context}: the empty packing at least");
    let values: Vec<i64> = result.solutions.iter().map(|solution| model.solution_value(solution)).collect();
    for solution in &result.solutions {
        assert_eq!(instance.verify(0, solution), Ok(()), "{context}");
        assert_eq!(model.solution_value(solution), instance.value_of(solution), "{context}");
    }
    assert!(values.iter().all(|&value| value == values[0]), "{context}: kept solutions share the best value");
    (values[0], result.stats.nodes)
}

#[test]
fn every_knob_setting_finds_the_dynamic_programming_optimum() {
    for (id, data) in seeded_instances() {
        let instance = knapsack(&data);
        let optimum = dp_optimum(&data);
        let n = data["items"].as_array().map_or(0, Vec::len);
        let mut nodes = Vec::new();
        // Without a bound worth the name the search is near exhaustive: small n only.
        let settings = if n <= WEAK_BOUND_ITEMS { &KNOB_SETTINGS[..] } else { &KNOB_SETTINGS[..2] };
        for &(order, bound) in settings {
            let context = format!("{id}, order={order} bound={bound}");
            let (value, searched) = sequential_optimum(&instance, &config(order, bound), &context);
            assert_eq!(value, optimum, "{context}");
            nodes.push(searched);
        }
        if nodes.len() == 4 {
            // Dantzig's bound never cuts less than the value of every item left.
            assert!(nodes[0] <= nodes[2] && nodes[1] <= nodes[3], "{id}: {nodes:?}");
        }
    }
}

#[test]
fn parallel_strategies_find_the_dynamic_programming_optimum() {
    let pools: Vec<Pool> = [1, 2, 3].iter().map(|&threads| Pool::new(threads).expect("a small pool")).collect();
    let strategies: Vec<Strategy> =
        ["steal", "auto", "depth:3"].iter().map(|text| text.parse().expect("valid")).collect();
    for (index, (id, data)) in seeded_instances().into_iter().enumerate() {
        let instance = knapsack(&data);
        let optimum = dp_optimum(&data);
        // Every knob setting on every fifth instance, the default on the others.
        let n = data["items"].as_array().map_or(0, Vec::len);
        let settings = match (index % 5, n <= WEAK_BOUND_ITEMS) {
            (0, true) => &KNOB_SETTINGS[..],
            (0, false) => &KNOB_SETTINGS[..2],
            _ => &KNOB_SETTINGS[..1],
        };
        for (order, bound) in settings {
            let model = instance.models(&config(order, bound)).remove(0);
            for pool in &pools {
                for &strategy in &strategies {
                    let plan = ParallelPlan { strategy, ..ParallelPlan::default() };
                    let outcome =
                        crate::parallel::search::<_, FullCounters>(model.clone(), &plan, pool, Limits::exhaustive())
                            .expect("the model does not panic");
                    let context = format!("{id}, order={order} bound={bound}, {strategy:?} on {pool:?}");
                    assert_eq!(outcome.stop, None, "{context}");
                    let best = outcome.solutions.first().expect("a solution");
                    assert_eq!(model.solution_value(best), optimum, "{context}");
                    assert_eq!(instance.verify(0, best), Ok(()), "{context}");
                }
            }
        }
    }
}

fn instance_file(text: &str) -> Value {
    serde_json::from_str(text).expect("instance file is JSON")
}

#[test]
fn the_small_instance_has_the_published_unique_optimum() {
    let file = instance_file(include_str!("../../../instances/knapsack_small.json"));
    let instance = knapsack(&file["data"]);
    assert_eq!(dp_optimum(&file["data"]), 1030);
    let model = instance.models(&config("ratio", "dantzig")).remove(0);
    // Every optimal packing, not only the first: the page's is the only one.
    let limits = Limits { all_optima: true, ..Limits::exhaustive() };
    let result = search_sequentially::<_, FullCounters>(model, limits);
    let expected: Vec<u32> = serde_json::from_value(file["expected"]["solution"].clone()).expect("a list");
    assert_eq!(result.solutions, vec![expected.clone()]);
    assert_eq!(json!(instance.value_of(&expected)), file["expected"]["optimum"]);
    assert_eq!(json!(instance.weight_of(&expected)), file["expected"]["weight"]);
    assert_eq!(instance.solution_text(&expected), "value 1030, weight 396: 0 1 2 3 4 6 10 15 16 17 18 20");
    let tallies = [AnswerTally::of(&result.solutions, |solution| instance.answer_key(0, solution))];
    assert_eq!(instance.answer(&tallies), file["expected"]["answer"]);
}

#[test]
fn a_leaf_that_does_not_beat_the_floor_is_no_solution() {
    let file = instance_file(include_str!("../../../instances/knapsack_small.json"));
    let instance = knapsack(&file["data"]);
    let model = || instance.models(&config("ratio", "dantzig")).remove(0);
    let expected: Vec<u32> = serde_json::from_value(file["expected"]["solution"].clone()).expect("a list");
    // A known value that a solution has (a lister's best): its ties are this search's too.
    let known = Limits { all_optima: true, incumbent: Some(Incumbent::seeded(1030)), ..Limits::exhaustive() };
    let result = search_sequentially::<_, FullCounters>(model(), known);
    assert_eq!((result.solutions, result.stats.solutions), (vec![expected.clone()], 1));
    // `--at-least 1031`: the optimum, 1030, falls short of the target and is no solution.
    let decision = |target: i64| Limits {
        all_optima: true,
        target: Some(target),
        incumbent: Some(Incumbent::seeded_above(target - 1, target - 1)),
        ..Limits::exhaustive()
    };
    let result = search_sequentially::<_, FullCounters>(model(), decision(1031));
    assert!(result.solutions.is_empty() && result.stats.solutions == 0, "{:?}", result.solutions);
    let result = search_sequentially::<_, FullCounters>(model(), decision(1030));
    assert_eq!(result.solutions, vec![expected]);
}

#[test]
fn committed_instances_are_what_the_generator_makes_with_their_optimum() {
    let files = [
        include_str!("../../../instances/knapsack/uncorrelated_40.json"),
        include_str!("../../../instances/knapsack/weakly-correlated_40.json"),
        include_str!("../../../instances/knapsack/strongly-correlated_30.json"),
        include_str!("../../../instances/knapsack/inverse-strongly-correlated_30.json"),
        include_str!("../../../instances/knapsack/subset-sum_30.json"),
    ];
    for text in files {
        let file = instance_file(text);
        let generator = &file["generator"];
        let (kind, n, r, seed) = (
            generator["kind"].as_str().expect("kind"),
            generator["n"].as_u64().expect("n") as usize,
            generator["r"].as_i64().expect("r"),
            generator["seed"].as_u64().expect("seed"),
        );
        assert_eq!(file["data"], generated(kind, n, r, seed), "{kind}: the Python and Rust generators agree");
        let optimum = dp_optimum(&file["data"]);
        assert_eq!(json!(optimum), file["expected"]["optimum"], "{kind}");
        let instance = knapsack(&file["data"]);
        for (order, bound) in &KNOB_SETTINGS[..2] {
            assert_eq!(sequential_optimum(&instance, &config(order, bound), kind).0, optimum, "{kind} {order}");
        }
    }
}

#[test]
fn a_bound_is_never_below_what_the_child_reaches() {
    // At every node, the bound of each child is at least the best value below it,
    // found by the dynamic programme over the items left and the room left.
    for (id, data) in seeded_instances().into_iter().step_by(4) {
        let instance = knapsack(&data);
        let n = data["items"].as_array().map_or(0, Vec::len);
        let settings = if n <= WEAK_BOUND_ITEMS { &KNOB_SETTINGS[..] } else { &KNOB_SETTINGS[..2] };
        for &(order, bound) in settings {
            let mut model = instance.models(&config(order, bound)).remove(0);
            let mut moves = Vec::new();
            let mut counters = crate::search::NoCounters;
            // Walk the greedy path (Take whenever offered), checking both children.
            loop {
                moves.clear();
                if model.branch(&mut moves, &mut counters) != Branch::Moves {
                    break;
                }
                for &mv in &moves {
                    let promised = model.move_bound(mv);
                    let mut child = model.clone();
                    child.apply(mv, &mut counters).expect("no move is rejected");
                    let below = search_sequentially::<_, FullCounters>(child, Limits::exhaustive());
                    let reached = below.solutions.iter().map(|s| instance.value_of(s)).max().unwrap_or(0);
                    assert!(promised >= reached, "{id} {order} {bound}: bound {promised} < {reached}");
                }
                model.apply(moves[0], &mut counters).expect("accepted");
            }
        }
    }
}

#[test]
fn an_empty_or_zero_capacity_instance_has_the_empty_packing() {
    for data in [json!({"capacity": 10, "items": []}), json!({"capacity": 0, "items": [[5, 1], [7, 2]]})] {
        let instance = knapsack(&data);
        let model = instance.models(&config("ratio", "dantzig")).remove(0);
        let result = search_sequentially::<_, FullCounters>(model, Limits::exhaustive());
        assert_eq!(result.solutions, vec![Vec::<u32>::new()], "{data}");
        assert_eq!(result.stats.nodes, 1, "the root is a leaf: nothing fits");
    }
}

#[test]
fn malformed_data_is_an_error_naming_the_key() {
    let error = |data: Value| Knapsack::parse(&data).unwrap_err().key;
    assert_eq!(error(json!({"items": []})), "capacity");
    assert_eq!(error(json!({"capacity": -1, "items": []})), "capacity");
    assert_eq!(error(json!({"capacity": 5})), "items");
    assert_eq!(error(json!({"capacity": 5, "items": [[1, 2], [3]]})), "items[1]");
    assert_eq!(error(json!({"capacity": 5, "items": [[1, 2], [3, 0]]})), "items[1][1]");
    assert_eq!(error(json!({"capacity": 5, "items": [[-1, 2]]})), "items[0][0]");
    assert_eq!(error(json!({"capacity": 5, "items": [[1, "2"]]})), "items[0][1]");
    assert_eq!(error(json!({"capacity": 5, "items": [[i64::MAX, 1], [1, 1]]})), "items[1][0]");
    assert_eq!(error(json!({"capacity": 5, "items": [[1, i64::MAX], [1, 1]]})), "items[1][1]");
    let too_many = vec![[1, 1]; MAX_ITEMS + 1];
    assert_eq!(error(json!({"capacity": 5, "items": too_many})), "items");
}

#[test]
fn verify_names_the_broken_rule() {
    let instance = knapsack(&json!({"capacity": 5, "items": [[5, 3], [4, 3], [1, 1]]}));
    assert_eq!(instance.verify(0, &vec![0, 2]), Ok(()));
    assert!(instance.verify(0, &vec![0, 1]).unwrap_err().contains("over the capacity 5"));
    assert!(instance.verify(0, &vec![2, 2]).unwrap_err().contains("distinct"));
    assert!(instance.verify(0, &vec![3]).unwrap_err().contains("does not exist"));
}

#[test]
fn knobs_default_to_ratio_and_dantzig_and_describe_themselves() {
    assert_eq!(
        Knapsack::config(&KnobValues::new()).unwrap(),
        KnapsackConfig { order: ItemOrder::Ratio, bound: BoundKind::Dantzig }
    );
    assert_eq!(Knapsack::describe(&config("index", "none")), vec![("order", "index".into()), ("bound", "none".into())]);
    crate::run::family::check_family::<Knapsack>().expect("the knobs check as registration checks them");
}

/// An optimising model's declarations (a rejection that changes nothing, its `value_here`)
/// hold against the default contract, which keeps the objective and the bound: every knob
/// setting of a committed instance counts and keeps the same under both.
#[test]
fn the_declarations_hold_against_the_default_contract_with_the_bound() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/instances/knapsack_small.json");
    let text = std::fs::read_to_string(path).expect("the small knapsack");
    let data = serde_json::from_str::<Value>(&text).expect("JSON")["data"].clone();
    let instance = knapsack(&data);
    for (order, bound) in KNOB_SETTINGS {
        let model = instance.models(&config(order, bound)).remove(0);
        let stats = crate::search::assert_same_as_default_contract(model, KnapsackModel::state);
        assert!(stats.nodes > 0, "{order}, {bound}");
    }
}
