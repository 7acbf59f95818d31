//! Tests that the model keeps the engine's fast contract under every knob setting: a
//! rejected move leaves the state exactly as it was, and the search counts exactly what
//! it counts under the default contract (every move pushed in a list, every rejected move
//! undone by the engine).

use super::tests::{config_with, small_instance, ORDERS};
use super::*;
use crate::search::assert_same_as_default_contract;

#[test]
fn every_knob_setting_counts_the_same_tree_as_under_the_default_contract() {
    use rayon::prelude::*;
    let puzzle = small_instance();
    // Every order under the derived rules; the strict rules' own rejections (complete
    // lines, full 2x2 blocks) under one order, where a debug build ends them quickly.
    let settings = ORDERS.iter().map(|&order| (order, "derived")).chain([("shape-first", "strict")]);
    // The two ways connectivity rejects a move: around the move, and over the grid.
    let settings: Vec<_> = settings
        .flat_map(|(order, rules)| ["incremental", "every-node"].map(|connectivity| (order, rules, connectivity)))
        .collect();
    // The settings are independent: checked side by side (one after another, this test
    // was most of the unit tests' time).
    let rejections: u64 = settings
        .par_iter()
        .map(|&(order, rules, connectivity)| {
            // Kept value sets updated as moves are made: what a rejected move must not touch.
            let config = config_with(order, rules, connectivity, "incremental");
            let checked = puzzle.models(&config).into_iter().map(|model| {
                assert_same_as_default_contract(model, TwentyFourSevenModel::state_text).rule_prunes.iter().sum::<u64>()
            });
            checked.sum::<u64>()
        })
        .sum();
    // The settings reject moves (and dead ends), so the check above ran.
    assert!(rejections > 0);
}
