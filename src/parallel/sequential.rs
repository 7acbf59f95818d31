//! The baseline: the plain engine on the calling thread, with no pool, no steering and no
//! atomics, accounted like a parallel run of one worker with one task.

use super::accounting::{RunAccounting, RunClock, WorkerReport};
use super::outcome::ParallelOutcome;
use super::strategy::Strategy;
use crate::search::{Engine, Limits, Model, NoObserver, NoSteering, RuleCounter};

/// Searches `model` on this thread.
pub(crate) fn search<M: Model, C: RuleCounter>(model: M, limits: Limits) -> ParallelOutcome<M::Solution> {
    let mut engine: Engine<M, C, NoSteering, NoObserver> = Engine::new(model, NoSteering, NoObserver, limits);
    let clock = RunClock::start();
    engine.run();
    let (_, wall, cpu) = clock.stop();
    let stats = engine.stats();
    let mut solutions = engine.take_solutions();
    solutions.sort();
    let mut worker = WorkerReport::new(0);
    worker.nodes = stats.nodes;
    worker.record_task(wall, stats.nodes);
    let run = RunAccounting {
        strategy: Strategy::Sequential,
        threads: 1,
        frontier_depth: None,
        frontier_nodes: 0,
        probe_nodes: 0,
        subproblems: 1,
        steals: 0,
        imbalance: 1.0,
        wall,
        cpu,
        published_nodes: 0,
        stop_latency: None,
        nodes_after_stop: 0,
    };
    ParallelOutcome { stats, solutions, stop: engine.stop_reason(), workers: vec![worker], run }
}
