//! The cost of generality for branch and bound: maximum clique searched by the engine with
//! the built-in `max_clique` family's model (default knobs, `--best`) and by a
//! hand-written recursion of the same tree (`by_hand.rs`), with the same node, solution and
//! bound-prune counts. `scripts/cost-of-generality.sh` runs it under callgrind and times
//! it; `benches/cost_of_generality.rs` times it on the committed 150-vertex graph.
//!
//! `cargo run --release --example max_clique_cost -- engine|hand FILE.clq [--no-rule-counts]`

mod by_engine;
mod by_hand;

use std::process::ExitCode;

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let rule_counts = !arguments.iter().any(|argument| argument == "--no-rule-counts");
    let positional: Vec<&String> = arguments.iter().filter(|argument| !argument.starts_with("--")).collect();
    let (Some(way), Some(path)) = (positional.first(), positional.get(1)) else {
        eprintln!("usage: max_clique_cost engine|hand FILE.clq [--no-rule-counts]");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("max_clique_cost: {path}: {error}");
            return ExitCode::from(2);
        }
    };
    let counts = match way.as_str() {
        "engine" => by_engine::max_clique(&text, rule_counts),
        "hand" => by_hand::BitGraph::from_dimacs(&text).map(|graph| by_hand::max_clique(&graph)),
        _ => Err("the first argument is `engine` or `hand`".to_string()),
    };
    match counts {
        Ok(counts) => {
            println!(
                "{way} nodes={} solutions={} bound_prunes={} best={}",
                counts.nodes, counts.solutions, counts.bound_prunes, counts.best
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("max_clique_cost: {path}: {error}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two searches walk the same tree on every committed graph: every count equal, and
    /// the clique number recorded in the file (found by the generator's own search).
    #[test]
    fn the_engine_and_the_hand_written_recursion_count_the_same_tree() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/instances/max_clique");
        let mut checked = 0;
        for entry in std::fs::read_dir(folder).expect("the committed graphs") {
            let path = entry.expect("a readable folder").path();
            if path.extension().is_none_or(|extension| extension != "clq") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a readable graph");
            let hand = by_hand::max_clique(&by_hand::BitGraph::from_dimacs(&text).expect("a DIMACS graph"));
            for rule_counts in [true, false] {
                let engine = by_engine::max_clique(&text, rule_counts).expect("a DIMACS graph");
                let expected =
                    by_hand::CliqueCounts { bound_prunes: if rule_counts { hand.bound_prunes } else { 0 }, ..hand };
                assert_eq!(engine, expected, "{}", path.display());
            }
            let recorded = text.lines().find_map(|line| line.strip_prefix("c clique number: "));
            if let Some(recorded) = recorded {
                assert_eq!(hand.best.to_string(), recorded.trim(), "{}", path.display());
            }
            checked += 1;
        }
        assert!(checked >= 5, "only {checked} graphs");
    }
}
