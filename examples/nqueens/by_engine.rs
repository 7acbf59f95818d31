//! N-Queens on the engine: the family's model (`checks=bitmask`, `rows=plain`) searched
//! sequentially, every solution counted and none kept, its counts in the shape of the
//! hand-written recursion's (`by_hand.rs`), so that the two can be compared figure by figure.

use super::by_hand::HandCounts;
use super::family::NQueens;
use backtrack_bench::puzzles::Puzzle;
use backtrack_bench::search::{search_sequentially, FullCounters, Limits, NoCounters, Stats};

/// The engine's search of the `n`-queens tree, every solution counted and none kept.
pub fn by_engine(n: usize, rule_counts: bool) -> HandCounts {
    let puzzle = NQueens::parse(&serde_json::json!({ "n": n })).expect("a board size from 1 to 32");
    let knobs = [("checks", "bitmask"), ("rows", "plain")];
    let config = NQueens::config(&backtrack_bench::knob_values(&knobs)).expect("the family's own knob values");
    let model = puzzle.models(&config).pop().expect("one component");
    let limits = Limits { solutions_to_keep: 0, ..Limits::exhaustive() };
    let stats: Stats = if rule_counts {
        search_sequentially::<_, FullCounters>(model, limits).stats
    } else {
        search_sequentially::<_, NoCounters>(model, limits).stats
    };
    let per_rule = |values: &[u64]| std::array::from_fn(|rule| values.get(rule).copied().unwrap_or(0));
    HandCounts {
        nodes: stats.nodes,
        solutions: stats.solutions,
        checks: per_rule(&stats.rule_checks),
        prunes: per_rule(&stats.rule_prunes),
    }
}
