//! The prediction of one strategy at many thread counts: the components of an instance
//! (searched one after another, each on every worker) replayed by the `simulate` module from
//! their recorded trees and measured costs, with the work, the span and each split's ceiling.

use super::costs::Costs;
use super::simulate::{simulate, simulate_naive, ListedTask, Machine, Schedule, Workload};
use super::work_span::{Frontier, SubtreeTree};
use serde::Serialize;
use std::fmt;

/// Leaves per batch of `naive` (as the parallel layer hands them out).
pub const NAIVE_BATCH: u64 = 64;

/// The strategies a prediction models (the parallel layer's, without their knobs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One task per subproblem at this depth.
    Depth(usize),
    /// The shallowest depth with at least this many subproblems per thread.
    Auto {
        /// Subproblems wanted per thread.
        per_thread: usize,
    },
    /// Stack splitting on demand.
    Steal,
    /// Every leaf listed on one thread, batches through a lock.
    Naive,
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Depth(depth) => write!(f, "depth:{depth}"),
            Shape::Auto { per_thread } => write!(f, "auto:{per_thread}"),
            Shape::Steal => f.write_str("steal"),
            Shape::Naive => f.write_str("naive"),
        }
    }
}

/// One component of an instance: its tree and its costs on the measuring machine.
#[derive(Debug, Clone)]
pub struct Component {
    /// Its name.
    pub name: String,
    /// Its recorded subtree sizes.
    pub tree: SubtreeTree,
    /// Its costs.
    pub costs: Costs,
}

impl Component {
    /// Its sequential search time: every node at the cost of one alone.
    pub fn sequential_ns(&self) -> f64 {
        self.tree.total_nodes() as f64 * self.costs.node_ns
    }
}

/// The predicted run at one thread count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Worker threads.
    pub threads: usize,
    /// Predicted wall time (all components).
    pub predicted_ns: f64,
    /// Sequential time over the predicted time.
    pub speedup: f64,
    /// Speedup over threads.
    pub efficiency: f64,
    /// Share of worker time idle.
    pub idle_share: f64,
    /// Wall time at the end with a worker out of work, summed over components.
    pub tail_ns: f64,
    /// Tasks run.
    pub tasks: u64,
    /// Tasks taken from another worker.
    pub steals: u64,
    /// The split depth of each component (listed strategies).
    pub depths: Vec<usize>,
    /// The largest subproblem's share of the instance's work (listed strategies).
    pub largest_share: Option<f64>,
    /// Sequential time over the listing plus the largest subproblem: no number of threads
    /// does better with this split (listed strategies).
    pub ceiling: Option<f64>,
}

/// A strategy's predicted runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prediction {
    /// The strategy.
    pub strategy: String,
    /// The predicted sequential time (nodes times the cost of a node alone).
    pub sequential_ns: f64,
    /// Nodes of every component.
    pub work_nodes: u64,
    /// The longest root-to-leaf chain of any component, in nodes.
    pub span_nodes: u64,
    /// The span in time: the most that stack splitting could ever reach is work / span.
    pub span_ns: f64,
    /// CPUs the workers share (`None`: a CPU per worker).
    pub cores: Option<usize>,
    /// One row per thread count.
    pub rows: Vec<Row>,
    /// What was approximated, in words (empty when nothing was).
    pub approximations: Vec<String>,
}

/// The split `auto` makes of `tree` when it wants `wanted` subproblems, and what its trial
/// listings counted: (depth, nodes listed over every trial, paths copied over every trial),
/// as the parallel layer chooses (the first depth with enough, else the largest).
pub fn auto_depth(tree: &SubtreeTree, wanted: usize) -> (usize, u64, u64) {
    let deepest = tree.nodes_per_depth.len().saturating_sub(1).max(1);
    let (mut best, mut best_len) = (None, 0);
    let (mut listed_nodes, mut copied) = (0, 0);
    for depth in 1..=deepest {
        let len = tree.frontier_len(depth);
        listed_nodes += tree.nodes_above(depth);
        copied += len;
        let enough = len >= wanted as u64 || len == 0;
        if enough || best.is_none() || len > best_len {
            best = Some(depth);
            best_len = len;
        }
        if enough {
            break;
        }
    }
    (best.unwrap_or(1), listed_nodes, copied)
}

/// The frontier of `tree` at `depth`, or at its deepest recorded depth when `depth` was not
/// recorded (noted in `approximations`).
fn frontier_at(component: &Component, depth: usize, approximations: &mut Vec<String>) -> Frontier {
    component.tree.frontier(depth).unwrap_or_else(|| {
        let recorded = component.tree.recorded_depth;
        let note = format!(
            "{}: depth {depth} was not recorded; its subproblems are taken as those at depth {recorded}",
            component.name
        );
        if !approximations.contains(&note) {
            approximations.push(note);
        }
        component.tree.frontier(recorded).expect("the recorded depth is recorded")
    })
}

struct ComponentRun {
    schedule: Schedule,
    depth: Option<usize>,
    /// Listing plus largest task, and the largest task, in ns (listed strategies).
    serial_ns: Option<(f64, f64)>,
}

fn run_component(component: &Component, shape: Shape, machine: Machine<'_>, notes: &mut Vec<String>) -> ComponentRun {
    let tree = &component.tree;
    let costs = &component.costs;
    let slice_nodes = Workload::slice_nodes(tree.total_nodes());
    let listed = |depth: usize, listing_ns: f64, notes: &mut Vec<String>| {
        let frontier = frontier_at(component, depth, notes);
        let tasks: Vec<ListedTask> =
            frontier.task_nodes.iter().map(|&nodes| ListedTask { nodes, depth: frontier.depth as u32 }).collect();
        let schedule = simulate(Workload::Listed { listing_ns, tasks: &tasks, slice_nodes }, machine, costs);
        let largest_ns = frontier.largest() as f64 * costs.node_ns;
        ComponentRun { schedule, depth: Some(depth), serial_ns: Some((listing_ns + largest_ns, largest_ns)) }
    };
    match shape {
        Shape::Depth(depth) => {
            let listing_ns = costs.listing_ns(tree.nodes_above(depth), tree.frontier_len(depth));
            listed(depth, listing_ns, notes)
        }
        Shape::Auto { per_thread } => {
            let (depth, nodes, copies) = auto_depth(tree, per_thread.saturating_mul(machine.workers));
            listed(depth, costs.listing_ns(nodes, copies), notes)
        }
        Shape::Steal => ComponentRun {
            schedule: simulate(Workload::Stealing { tree, slice_nodes }, machine, costs),
            depth: None,
            serial_ns: None,
        },
        Shape::Naive => {
            let leaf_depth = tree.nodes_per_depth.len().saturating_sub(1);
            let leaves = tree.frontier_len(leaf_depth);
            let listing_ns = costs.listing_ns(tree.total_nodes() - leaves, leaves);
            let schedule = simulate_naive(listing_ns, leaves, leaf_depth as u32, NAIVE_BATCH, machine, costs);
            ComponentRun { schedule, depth: Some(leaf_depth), serial_ns: Some((listing_ns, 0.0)) }
        }
    }
}

/// Predicts `shape` on `components` at each of `threads`, on `cores` CPUs (`None`: one
/// per worker, the question "what would P cores give"), every CPU as fast as the one the
/// costs were measured on.
pub fn predict(components: &[Component], shape: Shape, threads: &[usize], cores: Option<usize>) -> Prediction {
    predict_on(components, shape, threads, cores, &[])
}

/// [`predict`] on CPUs of unequal speed: CPU `c` takes `cpu_factors[c mod len]` times as
/// long as the measuring CPU (see `super::cpu_speeds`), worker i on CPU i mod cores as the
/// pool pins them; no factors, or all 1.0, predict exactly as [`predict`].
pub fn predict_on(
    components: &[Component],
    shape: Shape,
    threads: &[usize],
    cores: Option<usize>,
    cpu_factors: &[f64],
) -> Prediction {
    let sequential_ns: f64 = components.iter().map(Component::sequential_ns).sum();
    let mut approximations = Vec::new();
    let rows = threads
        .iter()
        .map(|&threads| {
            let machine = Machine { workers: threads.max(1), cores, cpu_factors };
            let runs: Vec<ComponentRun> = components
                .iter()
                .map(|component| run_component(component, shape, machine, &mut approximations))
                .collect();
            let predicted_ns: f64 = runs.iter().map(|run| run.schedule.makespan_ns).sum();
            let busy_ns: f64 = runs.iter().map(|run| run.schedule.busy_ns).sum();
            let capacity = predicted_ns * machine.workers as f64;
            let serial: Option<Vec<(f64, f64)>> = runs.iter().map(|run| run.serial_ns).collect();
            let speedup = if predicted_ns > 0.0 { sequential_ns / predicted_ns } else { 0.0 };
            Row {
                threads: machine.workers,
                predicted_ns,
                speedup,
                efficiency: speedup / machine.workers as f64,
                idle_share: if capacity > 0.0 { (1.0 - busy_ns / capacity).max(0.0) } else { 0.0 },
                tail_ns: runs.iter().map(|run| run.schedule.tail_ns).sum(),
                tasks: runs.iter().map(|run| run.schedule.tasks).sum(),
                steals: runs.iter().map(|run| run.schedule.steals).sum(),
                depths: runs.iter().filter_map(|run| run.depth).collect(),
                largest_share: serial
                    .as_ref()
                    .filter(|_| shape != Shape::Naive)
                    .map(|serial| serial.iter().map(|&(_, largest)| largest).fold(0.0, f64::max) / sequential_ns),
                ceiling: serial.map(|serial| sequential_ns / serial.iter().map(|&(bound, _)| bound).sum::<f64>()),
            }
        })
        .collect();
    let span_ns = components.iter().map(|c| c.tree.span_nodes() as f64 * c.costs.node_ns).sum();
    Prediction {
        strategy: shape.to_string(),
        sequential_ns,
        work_nodes: components.iter().map(|c| c.tree.total_nodes()).sum(),
        span_nodes: components.iter().map(|c| c.tree.span_nodes()).max().unwrap_or(0),
        span_ns,
        cores,
        rows,
        approximations,
    }
}

/// The thread counts 1, 2, 4, ... up to `most`.
pub fn powers_of_two(most: usize) -> Vec<usize> {
    std::iter::successors(Some(1usize), |&p| p.checked_mul(2)).take_while(|&p| p <= most.max(1)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scaling::work_span::tests::tree_from_preorder;

    #[test]
    fn auto_picks_the_first_depth_with_enough_subproblems() {
        // Depth 1: 3 nodes, depth 2: 3 nodes, depth 3: 1.
        let tree = tree_from_preorder(&[0, 1, 2, 2, 1, 1, 2, 3], 3);
        assert_eq!(auto_depth(&tree, 2), (1, 1, 3));
        // Nothing reaches 10: the largest listing is kept (depth 1, the first of the ties).
        assert_eq!(auto_depth(&tree, 10).0, 1);
    }

    #[test]
    fn powers_of_two_reach_the_largest_count() {
        assert_eq!(powers_of_two(256).len(), 9);
    }
}
