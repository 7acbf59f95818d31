//! Tree-size estimates of an instance: Knuth's random probes per component, turned into a
//! time estimate with the nodes per second measured on a short real search.

use crate::instance::Instance;
use crate::puzzles::knobs::KnobValues;
use crate::puzzles::{with_puzzle, Puzzle, PuzzleVisitor};
use crate::search::{estimate_tree_size, search_sequentially, Limits, NoCounters};
use crate::solve::RunError;
use serde::Serialize;
use std::time::Instant;

/// Nodes searched to measure the cost of one node.
const TIMING_NODES: u64 = 200_000;

/// The estimate for one component.
#[derive(Debug, Clone, Serialize)]
pub struct ComponentEstimate {
    /// Component name.
    pub name: String,
    /// Estimated nodes of the whole tree (all solutions).
    pub estimated_nodes: f64,
    /// Standard error of the estimate.
    pub standard_error: f64,
    /// Measured cost of a node, from a search of at most 200,000 nodes.
    pub ns_per_node: f64,
    /// Estimated search time.
    pub estimated_ns: f64,
    /// Actual nodes, when the search was run to compare.
    pub actual_nodes: Option<u64>,
}

/// Estimates every component of `instance` with `probes` probes; when `compare`, also
/// runs the full search to report the actual node count.
pub fn estimate_instance(
    instance: &Instance,
    knobs: &KnobValues,
    probes: usize,
    seed: u64,
    compare: bool,
) -> Result<Vec<ComponentEstimate>, RunError> {
    struct Estimate<'a> {
        instance: &'a Instance,
        knobs: &'a KnobValues,
        probes: usize,
        seed: u64,
        compare: bool,
    }
    impl PuzzleVisitor for Estimate<'_> {
        type Output = Result<Vec<ComponentEstimate>, RunError>;
        fn visit<P: Puzzle>(self) -> Self::Output {
            let puzzle = P::parse(&self.instance.data).map_err(RunError::Data)?;
            let config = P::config(self.knobs).map_err(RunError::Knob)?;
            let mut estimates = Vec::new();
            for (mut model, name) in puzzle.models(&config).into_iter().zip(puzzle.component_names()) {
                let estimate = estimate_tree_size(&mut model, self.probes, self.seed);
                let limits = Limits { node_limit: TIMING_NODES, solutions_to_keep: 0, ..Limits::exhaustive() };
                let started = Instant::now();
                let timing = search_sequentially::<P::Model, NoCounters>(model.clone(), limits);
                let ns_per_node = started.elapsed().as_nanos() as f64 / timing.stats.nodes.max(1) as f64;
                let actual_nodes = self.compare.then(|| {
                    let limits = Limits { solutions_to_keep: 0, ..Limits::exhaustive() };
                    search_sequentially::<P::Model, NoCounters>(model, limits).stats.nodes
                });
                estimates.push(ComponentEstimate {
                    name,
                    estimated_nodes: estimate.nodes,
                    standard_error: estimate.standard_error,
                    ns_per_node,
                    estimated_ns: estimate.nodes * ns_per_node,
                    actual_nodes,
                });
            }
            Ok(estimates)
        }
    }
    with_puzzle(instance.family, Estimate { instance, knobs, probes, seed, compare })
}
