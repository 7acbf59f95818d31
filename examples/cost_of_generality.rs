//! The cost of generality: the N-Queens tree searched by the engine with the family's model
//! (`checks=bitmask`, `rows=plain`) and by hand-written searches of the same tree
//! (`nqueens/by_hand.rs`: `hand` recurses passing the taken lines by value, `hand-in-place`
//! recurses changing one board in place as a model does, `hand-walk` loops over an explicit
//! stack of rows passed by value, the shape of the engine's walk), with the same counts.
//! `scripts/cost-of-generality.sh` runs it under callgrind for instructions per node;
//! `benches/cost_of_generality.rs` times it.
//!
//! `cargo run --release --example cost_of_generality -- engine|hand|hand-in-place|hand-walk N [--no-rule-counts]`

#[path = "nqueens/by_engine.rs"]
mod by_engine;
#[path = "nqueens/by_hand.rs"]
mod by_hand;
#[path = "nqueens/family.rs"]
mod family;

use by_engine::by_engine;
use std::process::ExitCode;

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let rule_counts = !arguments.iter().any(|argument| argument == "--no-rule-counts");
    let positional: Vec<&String> = arguments.iter().filter(|argument| !argument.starts_with("--")).collect();
    let (Some(way), Some(Ok(n))) = (positional.first(), positional.get(1).map(|n| n.parse::<usize>())) else {
        eprintln!("usage: cost_of_generality engine|hand|hand-in-place|hand-walk N [--no-rule-counts]");
        return ExitCode::from(2);
    };
    if !(1..=32).contains(&n) {
        eprintln!("cost_of_generality: N must be from 1 to 32");
        return ExitCode::from(2);
    }
    let counts = match (way.as_str(), rule_counts) {
        ("engine", _) => by_engine(n, rule_counts),
        ("hand", true) => by_hand::count::<true>(n),
        ("hand", false) => by_hand::count::<false>(n),
        ("hand-in-place", true) => by_hand::count_in_place::<true>(n),
        ("hand-in-place", false) => by_hand::count_in_place::<false>(n),
        ("hand-walk", true) => by_hand::count_by_walk::<true>(n),
        ("hand-walk", false) => by_hand::count_by_walk::<false>(n),
        _ => {
            eprintln!("cost_of_generality: the first argument is `engine`, `hand`, `hand-in-place` or `hand-walk`");
            return ExitCode::from(2);
        }
    };
    println!(
        "{way} n={n} nodes={} solutions={} checks={:?} prunes={:?}",
        counts.nodes, counts.solutions, counts.checks, counts.prunes
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use by_hand::HandCounts;

    /// The four searches walk the same tree: every count equal, with and without rule
    /// counts, and the published number of placements (OEIS A000170).
    #[test]
    fn the_engine_and_the_hand_written_recursion_count_the_same_tree() {
        for (n, placements) in [(1, 1), (4, 2), (6, 4), (8, 92), (10, 724)] {
            let hand = by_hand::count::<true>(n);
            assert_eq!(by_engine(n, true), hand, "n = {n}");
            assert_eq!(by_hand::count_in_place::<true>(n), hand, "n = {n}");
            assert_eq!(by_hand::count_by_walk::<true>(n), hand, "n = {n}");
            assert_eq!(hand.solutions, placements, "n = {n}");
            let plain = HandCounts { checks: [0; 3], prunes: [0; 3], ..hand };
            assert_eq!(by_hand::count::<false>(n), plain, "n = {n}");
            assert_eq!(by_engine(n, false), plain, "n = {n}");
            assert_eq!(by_hand::count_in_place::<false>(n), plain, "n = {n}");
            assert_eq!(by_hand::count_by_walk::<false>(n), plain, "n = {n}");
        }
    }
}
