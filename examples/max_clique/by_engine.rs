//! Maximum clique by the engine: the built-in `max_clique` family's model with its default
//! knobs, searched sequentially for the best clique, counted as the hand-written search
//! counts.

use super::by_hand::CliqueCounts;
use backtrack_bench::knobs::KnobValues;
use backtrack_bench::puzzles::max_clique::MaxClique;
use backtrack_bench::puzzles::Puzzle;
use backtrack_bench::search::{search_sequentially, FullCounters, Limits, Model, NoCounters, RuleCounter};

/// Searches the graph of the DIMACS `text` for a maximum clique.
pub fn max_clique(text: &str, rule_counts: bool) -> Result<CliqueCounts, String> {
    let data = MaxClique::data_from_file(text).map_err(|error| error.to_string())?;
    let graph = MaxClique::parse(&data).map_err(|error| error.to_string())?;
    let config = MaxClique::config(&KnobValues::new()).map_err(|error| error.to_string())?;
    let model = graph.models(&config).remove(0);
    Ok(if rule_counts { search::<FullCounters>(model) } else { search::<NoCounters>(model) })
}

fn search<C: RuleCounter>(model: <MaxClique as Puzzle>::Model) -> CliqueCounts {
    let ranker = model.clone();
    let result = search_sequentially::<_, C>(model, Limits::exhaustive());
    CliqueCounts {
        nodes: result.stats.nodes,
        solutions: result.stats.solutions,
        bound_prunes: result.stats.rule_prunes.first().copied().unwrap_or(0),
        best: result.solutions.first().map_or(0, |clique| ranker.solution_value(clique) as u32),
    }
}
