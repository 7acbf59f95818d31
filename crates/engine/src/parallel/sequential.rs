//! The baseline: the plain engine on the calling thread, with no pool, no steering and no
//! atomics, accounted like a parallel run of one worker with one task.

use super::accounting::{RunAccounting, RunClock, WorkerReport};
use super::collect::{Collecting, Collector};
use super::model_panic::{self, ModelPanic};
use super::outcome::ParallelOutcome;
use super::strategy::Strategy;
use crate::search::{Engine, Event, Limits, Model, NoCounters, NoSteering, Observer, RuleCounter};
use std::time::{Duration, Instant};

/// How long a second search may take to find again the node of a panic that the plain loop
/// met without a path: past it, the panic is reported without one rather than late.
pub const RETRACE_LIMIT: Duration = Duration::from_secs(1);

/// Searches `model` on this thread, handing every solution to `collector`; a panic in the
/// model is returned with the path to its node. The plain loop keeps no path (keeping one
/// would slow the baseline down), so a panic there is looked for again by [`retrace`].
pub(crate) fn search<M: Model, C: RuleCounter, K: Collector<M>>(
    model: M,
    limits: Limits,
    collector: K,
) -> Result<(ParallelOutcome<M::Solution>, K), ModelPanic> {
    // Its own incumbent at the run's starting score: the run raises the shared one, and a
    // retrace from the best found would cut the subtree where the panic was.
    let retrace_limits = limits.with_forked_incumbent();
    // Sizing the counters reads the model too (its rule names, its depth).
    let mut engine: Engine<M, C, NoSteering, Collecting<K>> =
        model_panic::catch(|| Engine::new(model, NoSteering, Collecting(collector), limits))?;
    // A copy of the root state for `retrace`, where the search keeps no path.
    let spare = (!engine.keeps_path()).then(|| (engine.model().clone(), retrace_limits));
    let clock = RunClock::start();
    let caught = model_panic::catch(|| engine.run());
    let (_, wall, cpu) = clock.stop();
    if let Err(panic) = caught {
        return Err(match spare {
            Some((model, limits)) => retrace(model, limits, panic),
            None => panic.at_path(engine.path()),
        });
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

/// Searches the tree of `model` (a copy taken before the run) again on the engine's general
/// path, which keeps the path of moves, to the panic `first` that the plain loop met: a
/// model that panics at a node does so again there. The panic comes back with its path when
/// the second search meets the same one (message and source line) within [`RETRACE_LIMIT`],
/// and as it was otherwise.
fn retrace<M: Model>(model: M, limits: Limits, first: ModelPanic) -> ModelPanic {
    let give_up = Instant::now() + RETRACE_LIMIT;
    let deadline = Some(limits.deadline.map_or(give_up, |deadline| deadline.min(give_up)));
    let limits = Limits { deadline, solutions_to_keep: 0, ..limits };
    let mut engine: Option<Engine<M, NoCounters, NoSteering, KeepsPath>> = None;
    let again = model_panic::catch(|| engine.insert(Engine::new(model, NoSteering, KeepsPath, limits)).run());
    match (again, engine) {
        (Err(again), Some(engine)) if again.message == first.message && again.location == first.location => {
            first.at_path(engine.path())
        }
        _ => first,
    }
}

/// An observer of every event: it takes the engine off its plain loop, onto the path that
/// records the moves from the root, and asks for each solution as the first run's
/// collector may have (a panic in `solution()` is met again), keeping none.
struct KeepsPath;

impl<M: Model> Observer<M> for KeepsPath {
    fn observe(&mut self, event: Event<M::Move>, model: &M) {
        if let Event::Solution { .. } = event {
            drop(model.solution());
        }
    }
}
