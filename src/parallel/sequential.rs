//! The baseline: the plain engine on the calling thread, with no pool, no steering and no
//! atomics, accounted like a parallel run of one worker with one task.

use super::accounting::{RunAccounting, RunClock, WorkerReport};
use super::collect::{Collecting, Collector};
use super::model_panic::{self, ModelPanic};
use super::outcome::ParallelOutcome;
use super::strategy::Strategy;
use crate::search::{Engine, Limits, Model, NoSteering, RuleCounter};

/// Searches `model` on this thread, handing every solution to `collector`; a panic in the
/// model is returned (without a path: the plain loop keeps none, and keeping one would
/// slow the baseline down).
pub(crate) fn search<M: Model, C: RuleCounter, K: Collector<M>>(
    model: M,
    limits: Limits,
    collector: K,
) -> Result<(ParallelOutcome<M::Solution>, K), ModelPanic> {
    // Only a `clone_state` run leaves the engine's plain loop, which keeps no path.
    let keeps_path = limits.clone_state;
    // Sizing the counters reads the model too (its rule names, its depth).
    let mut engine: Engine<M, C, NoSteering, Collecting<K>> =
        model_panic::catch(|| Engine::new(model, NoSteering, Collecting(collector), limits))?;
    let clock = RunClock::start();
    let caught = model_panic::catch(|| engine.run());
    let (_, wall, cpu) = clock.stop();
    if let Err(panic) = caught {
        return Err(if keeps_path { panic.at_path(engine.path()) } else { panic });
    }
    let started = clock.start;
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
        started,
        wall,
        cpu,
        published_nodes: 0,
        stop_latency: None,
        nodes_after_stop: 0,
    };
    let stop = engine.stop_reason();
    let (_, Collecting(collector)) = engine.into_hooks();
    Ok((ParallelOutcome { stats, solutions, stop, workers: vec![worker], run }, collector))
}
