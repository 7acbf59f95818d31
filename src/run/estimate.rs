//! Estimating: the tree size of each component of one family's puzzle by random probes
//! (stratified Knuth probes by default), turned into a time estimate with the nodes per
//! second measured on a short real search. A panic of the family's code ends the estimate
//! with [`RunError::ModelPanicked`].

use super::error::{PanickedRun, RunError, ESTIMATING, ON_THIS_THREAD};
use super::family_code::{build_models, BuiltModels};
use crate::parallel;
use crate::puzzles::Puzzle;
use crate::search::{estimate_tree_size_until, search_sequentially, EstimateMethod, Limits, Model, NoCounters};
use serde::Serialize;
use std::time::{Duration, Instant};

/// Nodes searched to measure the cost of one node.
const TIMING_NODES: u64 = 200_000;

/// The most time the measurement of one component's node cost takes (the search stops at
/// the first look at the clock past it, every 1,024 nodes): where a node costs 100 µs,
/// [`TIMING_NODES`] of them took 20 s after probes that had taken milliseconds.
const TIMING_BUDGET: Duration = Duration::from_secs(1);

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
    /// The most time the probes of every component may take together (`None`: no bound);
    /// past it the estimate is [`RunError::TimeLimit`].
    pub time_limit: Option<Duration>,
}

/// The estimate for one component.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct ComponentEstimate {
    /// Component name.
    pub name: String,
    /// Estimated nodes of the whole tree (all solutions).
    pub estimated_nodes: f64,
    /// Standard error of the estimate; NaN (`null` in JSON, `-` in the table) where a
    /// subtree had a single probe, from which no error can be told.
    pub standard_error: f64,
    /// Measured cost of a node: from the full search with `compare`, else from a search of at
    /// most 200,000 nodes (on models built after the probes).
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
    /// The model has an objective: the probes see no incumbent, so the estimate is of the
    /// tree without the bound's cuts, while `--compare`'s search cuts by the bound (its
    /// nodes may be far fewer).
    pub bound_ignored: bool,
}

/// Estimates every component of `puzzle` with `config` as `request` says.
pub(super) fn estimate_puzzle<P: Puzzle>(
    puzzle: &P,
    config: &P::Config,
    request: &EstimateRequest,
) -> Result<Vec<ComponentEstimate>, RunError> {
    let BuiltModels { models, names, .. } = build_models(puzzle, config, ON_THIS_THREAD)?;
    let deadline = request.time_limit.map(|limit| Instant::now() + limit);
    let panicked = |name: &str| {
        let name = name.to_string();
        move |panic| PanickedRun::error::<P>(Some(&name), ESTIMATING, ON_THIS_THREAD, panic)
    };
    let mut probed = Vec::new();
    for (mut model, name) in models.into_iter().zip(&names) {
        // The probes and the plain searches keep no path: the panic names no node.
        let started = Instant::now();
        let estimate = parallel::catch_model_panic(|| {
            estimate_tree_size_until(&mut model, request.probes, request.seed, request.method, deadline)
        })
        .map_err(panicked(name))?
        .map_err(|out_of_time| {
            let limit = request.time_limit.unwrap_or_default().as_secs_f64();
            let advice = match request.probes {
                1 => "a single probe took longer: ask for a longer --time-limit",
                _ => "ask for fewer --probes or a longer --time-limit",
            };
            RunError::TimeLimit(format!(
                "the estimate of component `{name}` passed its time limit of {limit} s after {} of its {} probes: \
                 {advice}",
                out_of_time.probes_done, request.probes
            ))
        })?;
        probed.push((estimate, u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX)));
    }
    // The node cost and --compare's full search run on models built afresh once the probes
    // are done, as `solve` would build them: a model that (wrongly) keeps state outside
    // do/undo must not carry what the probes left in it into the count the estimate is
    // compared with.
    let BuiltModels { models: fresh, .. } = build_models(puzzle, config, ON_THIS_THREAD)?;
    let mut estimates = Vec::new();
    for (((estimate, estimate_ns), fresh), name) in probed.into_iter().zip(fresh).zip(names) {
        let bound_ignored = <P::Model as Model>::OPTIMISES && fresh.objective().is_some();
        // The timing search ends by the estimate's deadline too (after at least one look at
        // the clock's worth of nodes, so that a cost is still measured), never by an error:
        // the time limit bounds the probes, whose estimate is complete by now.
        let budget_end = Instant::now() + TIMING_BUDGET;
        let timing_deadline = deadline.map_or(budget_end, |deadline| deadline.min(budget_end));
        let measured = parallel::catch_model_panic(|| measure_component(fresh, request.compare, timing_deadline))
            .map_err(panicked(&name))?;
        estimates.push(ComponentEstimate {
            name,
            estimated_nodes: estimate.nodes,
            standard_error: estimate.standard_error,
            ns_per_node: measured.ns_per_node,
            estimated_ns: estimate.nodes * measured.ns_per_node,
            estimate_ns,
            actual_nodes: measured.actual.map(|(nodes, _)| nodes),
            actual_ns: measured.actual.map(|(_, nanoseconds)| nanoseconds),
            method: request.method.to_string(),
            exact_depth: estimate.exact_depth,
            subtrees: estimate.subtrees,
            bound_ignored,
        });
    }
    Ok(estimates)
}

/// What a real search of one component measured: the cost of a node, and with `compare`
/// the whole tree's nodes and time.
struct Measured {
    ns_per_node: f64,
    actual: Option<(u64, u64)>,
}

/// Searches `model`: the whole tree when `compare` (its node cost read from that search, so
/// that nothing runs on the model before it), else at most [`TIMING_NODES`] nodes, stopped
/// at `timing_deadline`.
fn measure_component<M: Model>(model: M, compare: bool, timing_deadline: Instant) -> Measured {
    let (node_limit, deadline) = if compare { (u64::MAX, None) } else { (TIMING_NODES, Some(timing_deadline)) };
    let limits = Limits { node_limit, solutions_to_keep: 0, deadline, ..Limits::exhaustive() };
    let started = Instant::now();
    let nodes = search_sequentially::<M, NoCounters>(model, limits).stats.nodes;
    let elapsed = started.elapsed();
    let nanoseconds = u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX);
    Measured {
        ns_per_node: elapsed.as_nanos() as f64 / nodes.max(1) as f64,
        actual: compare.then_some((nodes, nanoseconds)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Branch, RuleCounter, RuleId};

    /// A binary tree 30 levels deep whose every move takes 100 µs: 200,000 nodes of it
    /// would take 20 s.
    #[derive(Clone)]
    struct SlowTree {
        depth: usize,
    }

    impl Model for SlowTree {
        type Move = bool;
        type Solution = usize;
        fn rule_names(&self) -> &[&'static str] {
            &[]
        }
        fn max_depth(&self) -> usize {
            30
        }
        fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<bool>, _counters: &mut C) -> Branch {
            if self.depth == 30 {
                return Branch::Solution;
            }
            moves.extend([false, true]);
            Branch::Moves
        }
        fn apply<C: RuleCounter>(&mut self, _mv: bool, _counters: &mut C) -> Result<(), RuleId> {
            std::thread::sleep(Duration::from_micros(100));
            self.depth += 1;
            Ok(())
        }
        fn undo(&mut self, _mv: bool) {
            self.depth -= 1;
        }
        fn solution(&self) -> usize {
            self.depth
        }
    }

    #[test]
    fn the_node_cost_of_a_slow_model_is_measured_within_its_deadline() {
        let started = Instant::now();
        let measured = measure_component(SlowTree { depth: 0 }, false, Instant::now() + Duration::from_millis(200));
        // The search stops at the first look at the clock past the deadline: 1,024 nodes
        // after it at most, about 0.1 s here; 10 s leaves room for a loaded machine.
        assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
        assert!(measured.ns_per_node >= 100_000.0, "{}", measured.ns_per_node);
        assert!(measured.actual.is_none());
    }
}
