//! Tests that the model keeps the engine's fast contract under every knob setting: a
//! rejected move leaves the state exactly as it was, and the search counts exactly what
//! it counts under the default contract (every move pushed in a list, every rejected move
//! undone by the engine).

use super::tests::{config_with, small_instance, ORDERS};
use super::*;
use crate::search::{search_sequentially, Branch, FullCounters, Limits, Model, RuleCounter, RuleId, SearchResult};

/// The model seen through the default contract: its moves drawn into the engine's list by
/// `branch`, and every rejection followed by the engine's undo, which this wrapper passes
/// on only where the model does not restore the state itself. Where it does, each
/// rejection is checked to have left the state as it was before the move.
#[derive(Clone)]
struct DefaultContract {
    model: TwentyFourSevenModel,
    /// The last move applied was rejected.
    rejected: bool,
}

impl Model for DefaultContract {
    type Move = Placement;
    type Solution = Vec<u8>;

    fn rule_names(&self) -> &[&'static str] {
        self.model.rule_names()
    }

    fn max_depth(&self) -> usize {
        self.model.max_depth()
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<Placement>, counters: &mut C) -> Branch {
        self.model.branch(moves, counters)
    }

    fn apply<C: RuleCounter>(&mut self, mv: Placement, counters: &mut C) -> Result<(), RuleId> {
        let before = TwentyFourSevenModel::REJECTS_BEFORE_CHANGING.then(|| self.model.clone());
        let result = self.model.apply(mv, counters);
        self.rejected = result.is_err();
        if let (Some(before), true) = (before, self.rejected) {
            assert_eq!(self.model.state_text(), before.state_text(), "{mv:?} was rejected but changed the state");
        }
        result
    }

    fn undo(&mut self, mv: Placement) {
        if !(std::mem::take(&mut self.rejected) && TwentyFourSevenModel::REJECTS_BEFORE_CHANGING) {
            self.model.undo(mv);
        }
    }

    fn solution(&self) -> Vec<u8> {
        self.model.solution()
    }
}

fn search<M: Model>(model: M) -> SearchResult<M::Solution> {
    let result = search_sequentially::<_, FullCounters>(model, Limits::exhaustive());
    assert_eq!(result.stop, None);
    result
}

#[test]
fn every_knob_setting_counts_the_same_tree_as_under_the_default_contract() {
    let puzzle = small_instance();
    let mut rejections = 0;
    // Every order under the derived rules; the strict rules' own rejections (complete
    // lines, full 2x2 blocks) under one order, where a debug build ends them quickly.
    let settings = ORDERS.iter().map(|&order| (order, "derived")).chain([("shape-first", "strict")]);
    for (order, rules) in settings {
        // The two ways connectivity rejects a move: around the move, and over the grid.
        for connectivity in ["incremental", "every-node"] {
            // Kept value sets: what a rejected move must not touch.
            for candidates in ["incremental"] {
                let config = config_with(order, rules, connectivity, candidates);
                for model in puzzle.models(&config) {
                    let fast = search(model.clone());
                    let default = search(DefaultContract { model, rejected: false });
                    let setting =
                        format!("order={order} rules={rules} connectivity={connectivity} candidates={candidates}");
                    assert_eq!(fast.stats, default.stats, "{setting}");
                    assert_eq!(fast.solutions, default.solutions, "{setting}");
                    rejections += fast.stats.rule_prunes.iter().sum::<u64>();
                }
            }
        }
    }
    // The settings reject moves (and dead ends), so the check above ran.
    assert!(rejections > 0);
}
