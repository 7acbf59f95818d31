//! Tests of Olympic Rings: the post's call counts and the published assignment under every knob setting.

use super::*;
use crate::search::{assert_same_as_default_contract, search_sequentially, FullCounters, Limits};

fn instance() -> OlympicRings {
    let text = include_str!("../../../instances/olympic_rings.json");
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
            let answer = rings.answer_of_solutions(&[result.solutions]);
            assert_eq!(answer, json!({"rg": 2, "gk": 4, "ky": 1, "yb": 3, "k": 6}));
        }
    }
}

#[test]
fn moves_from_the_cursor_give_the_counts_of_the_listed_moves_under_every_knob_setting() {
    let rings = instance();
    for order in ["rings", "listed", "most-constrained"] {
        for pruning in ["none", "rings", "bounds"] {
            let model = rings.models(&config(order, pruning)).remove(0);
            // The model changes its state before it tests: no state to compare.
            let stats = assert_same_as_default_contract(model, |_| ());
            assert_eq!(stats.solutions, 1, "order={order} pruning={pruning}");
        }
    }
}

#[test]
fn a_ring_that_lists_a_spot_twice_or_too_many_fixed_spots_are_refused_with_the_key() {
    let text = include_str!("../../../instances/olympic_rings.json");
    let file: Value = serde_json::from_str(text).expect("instance file is JSON");
    let mut doubled = file["data"].clone();
    doubled["rings"]["red"] = serde_json::json!(["r", "rg", "r"]);
    let error = OlympicRings::parse(&doubled).map(|_| ()).expect_err("refused");
    assert_eq!((error.key.as_str(), error.message.as_str()), ("rings.red[2]", "spot `r` is listed twice"));
    // Sums are `i32`: a thousand fixed spots of 1,000 each stay far below its range.
    let mut crowded = file["data"].clone();
    let fixed: serde_json::Map<String, Value> = (0..1001).map(|spot| (format!("f{spot}"), Value::from(1000))).collect();
    crowded["fixed"] = Value::Object(fixed);
    let error = OlympicRings::parse(&crowded).map(|_| ()).expect_err("refused");
    assert_eq!(error.key, "fixed");
    // A spot both fixed and unknown is said to be so; an answer type the family does not
    // give is refused.
    let unknown = file["data"]["unknowns"][0].as_str().expect("a spot name").to_string();
    let mut both = file["data"].clone();
    both["fixed"][&unknown] = Value::from(3);
    let error = OlympicRings::parse(&both).map(|_| ()).expect_err("refused");
    assert_eq!(error.key, "unknowns[0]");
    assert!(error.message.contains("is in `fixed` too"), "{}", error.message);
    let mut other_answer = file["data"].clone();
    other_answer["answer_type"] = Value::from("zzz");
    let error = OlympicRings::parse(&other_answer).map(|_| ()).expect_err("refused");
    assert_eq!(error.key, "answer_type");
}
