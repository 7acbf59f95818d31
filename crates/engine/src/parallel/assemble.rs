//! The end of every parallel run: merging the workers' thread-local counts and solutions,
//! once, after all of them have stopped.

use super::accounting::{CpuTimes, RunAccounting};
use super::collect::Collector;
use super::outcome::ParallelOutcome;
use super::strategy::Strategy;
use super::worker::WorkerOutput;
use crate::search::{Model, Stats, StopReason};
use std::time::{Duration, Instant};

/// What listing a frontier counted and found (the nodes above the frontier).
pub(crate) struct FrontierPart<Solution> {
    pub(crate) depth: usize,
    pub(crate) stats: Stats,
    pub(crate) solutions: Vec<Solution>,
    /// Set when the listing itself stopped the run (a first solution, the node limit).
    pub(crate) stop: Option<StopReason>,
    /// Nodes of trial listings that were not kept (`auto`).
    pub(crate) probe_nodes: u64,
}

/// Everything about a run besides its workers.
pub(crate) struct RunParts<Solution> {
    pub(crate) strategy: Strategy,
    pub(crate) threads: usize,
    /// When the run's clock started.
    pub(crate) started: Instant,
    pub(crate) wall: Duration,
    pub(crate) cpu: CpuTimes,
    pub(crate) frontier: Option<FrontierPart<Solution>>,
    pub(crate) subproblems: u64,
    /// Why the workers were stopped, and when (from the start of the run).
    pub(crate) stop: Option<(StopReason, Duration)>,
    /// Solutions the workers put in a shared collection instead of keeping them (`naive`).
    pub(crate) collected_solutions: Vec<Solution>,
}

/// Merges the workers' counts and solutions into one outcome: solutions sorted, then cut
/// to `solutions_to_keep`; and the workers' collectors into `collected` (the frontier
/// listing's, or an empty one), in worker order.
pub(crate) fn assemble<M: Model, K: Collector<M>>(
    workers: Vec<WorkerOutput<M::Solution, K>>,
    parts: RunParts<M::Solution>,
    solutions_to_keep: usize,
    mut collected: K,
) -> (ParallelOutcome<M::Solution>, K) {
    let mut stats = Stats::default();
    let mut solutions = parts.collected_solutions;
    let (mut frontier_depth, mut frontier_nodes, mut probe_nodes, mut stop) = (None, 0, 0, None);
    if let Some(frontier) = parts.frontier {
        stats.merge(&frontier.stats);
        solutions.extend(frontier.solutions);
        frontier_depth = Some(frontier.depth);
        frontier_nodes = frontier.stats.nodes;
        probe_nodes = frontier.probe_nodes;
        stop = frontier.stop;
    }
    let mut reports = Vec::with_capacity(workers.len());
    let mut collectors = Vec::with_capacity(workers.len());
    for worker in workers {
        stats.merge(&worker.stats);
        solutions.extend(worker.solutions);
        reports.push(worker.report);
        collectors.push(worker.collector);
    }
    collected.absorb_all(collectors);
    solutions.sort();
    if !M::OPTIMISES {
        // An optimising model's engines each kept their best: which of those are the
        // run's best only their values say, so the run layer ranks them and cuts there.
        solutions.truncate(solutions_to_keep);
    }
    let stop_latency = parts.stop.map(|(_, stopped_at)| parts.wall.saturating_sub(stopped_at));
    let stop = stop.or(parts.stop.map(|(reason, _)| reason));
    let run = RunAccounting {
        strategy: parts.strategy,
        threads: parts.threads,
        frontier_depth,
        frontier_nodes,
        probe_nodes,
        subproblems: parts.subproblems,
        steals: reports.iter().map(|worker| worker.tasks_stolen).sum(),
        imbalance: RunAccounting::imbalance_of(&reports),
        started: parts.started,
        wall: parts.wall,
        cpu: parts.cpu,
        published_nodes: 0,
        stop_latency,
        nodes_after_stop: reports.iter().map(|worker| worker.nodes_after_stop).sum(),
    };
    (ParallelOutcome { stats, solutions, stop, workers: reports, run }, collected)
}
