//! Tests of Olympic Rings: the post's call counts and the published assignment under every knob setting.

use super::*;
use crate::search::{search_sequentially, FullCounters, Limits, Model, MoveCursor, Opened, RuleCounter, RuleId};

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

/// The model under the engine's default contract: every method forwarded, the
/// declarations left at their defaults, so the engine takes each node's moves as a list
/// (the default `branch` drains the cursor) instead of one by one from the cursor.
#[derive(Clone)]
struct DefaultContract(RingsModel);

impl Model for DefaultContract {
    type Move = Placement;
    type Solution = Vec<i32>;

    fn rule_names(&self) -> &[&'static str] {
        self.0.rule_names()
    }

    fn max_depth(&self) -> usize {
        self.0.max_depth()
    }

    fn open<C: RuleCounter>(&mut self, counters: &mut C) -> Opened {
        self.0.open(counters)
    }

    fn next_move(&self, cursor: &mut MoveCursor) -> Option<Placement> {
        self.0.next_move(cursor)
    }

    fn apply<C: RuleCounter>(&mut self, mv: Placement, counters: &mut C) -> Result<(), RuleId> {
        self.0.apply(mv, counters)
    }

    fn undo(&mut self, mv: Placement) {
        self.0.undo(mv)
    }

    fn solution(&self) -> Vec<i32> {
        self.0.solution()
    }
}

#[test]
fn moves_from_the_cursor_give_the_counts_of_the_listed_moves_under_every_knob_setting() {
    let rings = instance();
    for order in ["rings", "listed", "most-constrained"] {
        for pruning in ["none", "rings", "bounds"] {
            let model = rings.models(&config(order, pruning)).remove(0);
            let listed = search_sequentially::<_, FullCounters>(DefaultContract(model.clone()), Limits::exhaustive());
            let lazy = search_sequentially::<_, FullCounters>(model, Limits::exhaustive());
            assert_eq!(lazy.stats, listed.stats, "order={order} pruning={pruning}");
            assert_eq!(lazy.solutions, listed.solutions, "order={order} pruning={pruning}");
        }
    }
}
