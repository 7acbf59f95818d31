//! Estimating: the tree size of each component of one family's puzzle by random probes
//! (stratified Knuth probes by default), turned into a time estimate with the nodes per
//! second measured on a short real search. A panic of the family's code ends the estimate
//! with [`RunError::ModelPanicked`].

use super::error::{PanickedRun, RunError, ESTIMATING, ON_THIS_THREAD};
use super::family_code::{build_models, BuiltModels};
use crate::parallel;
use crate::puzzles::Puzzle;
use crate::search::{estimate_tree_size_with, search_sequentially, EstimateMethod, Limits, NoCounters};
use serde::Serialize;
use std::time::Instant;

/// Nodes searched to measure the cost of one node.
const TIMING_NODES: u64 = 200_000;

/// What an estimate does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EstimateRequest {
    /// Random probes per component.
    pub probes: usize,
    /// Seed of the probes.
    pub seed: u64,
    /// Also run the full search, to report the actual node count and time.
    pub compare: bool,
    /// How the tree is estimated (stratified Knuth probes by default).
    pub method: EstimateMethod,
}

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
    /// Time the estimate itself took (the probes and the exact top levels).
    pub estimate_ns: u64,
    /// Actual nodes, when the search was run to compare.
    pub actual_nodes: Option<u64>,
    /// Actual wall time of that search (sequential, no per-rule counters).
    pub actual_ns: Option<u64>,
    /// How the tree was estimated.
    pub method: String,
    /// Depth down to which the nodes were counted exactly (0 for plain probes).
    pub exact_depth: usize,
    /// Subtrees below that depth that the probes were spread over.
    pub subtrees: usize,
}

/// Estimates every component of `puzzle` with `config` as `request` says.
pub(super) fn estimate_puzzle<P: Puzzle>(
    puzzle: &P,
    config: &P::Config,
    request: &EstimateRequest,
) -> Result<Vec<ComponentEstimate>, RunError> {
    let BuiltModels { models, names, .. } = build_models(puzzle, config, ON_THIS_THREAD)?;
    let mut estimates = Vec::new();
    for (model, name) in models.into_iter().zip(names) {
        // The probes and the plain searches keep no path: the panic names no node.
        let estimate = parallel::catch_model_panic(|| estimate_component::<P>(model, name.clone(), request))
            .map_err(|panic| PanickedRun::error::<P>(Some(&name), ESTIMATING, ON_THIS_THREAD, panic))?;
        estimates.push(estimate);
    }
    Ok(estimates)
}

/// The estimate of one component's tree, searched from `model`'s root.
fn estimate_component<P: Puzzle>(mut model: P::Model, name: String, request: &EstimateRequest) -> ComponentEstimate {
    let started = Instant::now();
    let estimate = estimate_tree_size_with(&mut model, request.probes, request.seed, request.method);
    let estimate_ns = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
    let limits = Limits { node_limit: TIMING_NODES, solutions_to_keep: 0, ..Limits::exhaustive() };
    let started = Instant::now();
    let timing = search_sequentially::<P::Model, NoCounters>(model.clone(), limits);
    let ns_per_node = started.elapsed().as_nanos() as f64 / timing.stats.nodes.max(1) as f64;
    let actual = request.compare.then(|| {
        let limits = Limits { solutions_to_keep: 0, ..Limits::exhaustive() };
        let started = Instant::now();
        let nodes = search_sequentially::<P::Model, NoCounters>(model, limits).stats.nodes;
        (nodes, u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX))
    });
    ComponentEstimate {
        name,
        estimated_nodes: estimate.nodes,
        standard_error: estimate.standard_error,
        ns_per_node,
        estimated_ns: estimate.nodes * ns_per_node,
        estimate_ns,
        actual_nodes: actual.map(|(nodes, _)| nodes),
        actual_ns: actual.map(|(_, nanoseconds)| nanoseconds),
        method: request.method.to_string(),
        exact_depth: estimate.exact_depth,
        subtrees: estimate.subtrees,
    }
}
