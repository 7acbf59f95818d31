//! Measuring: the inputs of a scaling prediction for one family's puzzle. For each
//! component, the recorded subtree sizes of its search (an observer on the plain engine)
//! and its costs on this machine (a node alone, the slowdown of searches side by side, the
//! parallel machinery's costs from `parallel::machinery`); and the mapping from a parallel
//! strategy to the shape the prediction models. The prediction itself is `crate::scaling`.
//! A panic of the family's code, on the calling thread or on a timing thread, ends the
//! measurement with [`RunError::ModelPanicked`].

use super::collect::SolutionCollector;
use super::error::{PanickedRun, RunError, MEASURING, ON_THIS_THREAD};
use super::family_code::{build_models, BuiltModels};
use crate::parallel::{
    self, Collecting, Collector, CounterLayout, MachineryCosts, ModelPanic, ParallelPlan, Pool, PoolError,
    StateRestore, Strategy,
};
use crate::puzzles::Puzzle;
use crate::scaling::costs::{Costs, Slowdown};
use crate::scaling::predict::{Component, Shape};
use crate::scaling::work_span::{recordable_depth, SubtreeTree, TreeBuilder};
use crate::search::{
    search_sequentially, Engine, Event, FullCounters, Limits, Model, NoCounters, NoObserver, NoSteering, Observer,
    RuleCounter,
};
use std::hint::black_box;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most nodes recorded one by one; deeper subtrees are kept as sizes (1 Mi nodes, 16 MiB).
pub const RECORDED_NODES: u64 = 1 << 20;

/// How the costs are measured.
#[derive(Debug, Clone, Copy)]
pub struct Calibration {
    /// Whether the predicted runs keep per-rule counts (their nodes cost more).
    pub rule_counts: bool,
    /// Timed sequential searches alone, and as many with copies at once.
    pub rounds: usize,
    /// Searches run at once to measure the slowdown (the CPUs to use; 1: not measured).
    pub copies: usize,
}

/// The shape a prediction models for `strategy`, or `None` for a strategy it does not model
/// (`sequential`, `budget:B`, `replicable`: its rounds' barriers are not modelled).
pub fn shape_of(strategy: Strategy) -> Option<Shape> {
    match strategy {
        Strategy::Depth(depth) => Some(Shape::Depth(depth)),
        Strategy::Auto { per_thread } => Some(Shape::Auto { per_thread }),
        Strategy::Steal => Some(Shape::Steal),
        Strategy::Naive => Some(Shape::Naive),
        Strategy::Sequential | Strategy::Budget(_) | Strategy::Replicable { .. } => None,
    }
}

/// Each component of `puzzle` with `config`: its tree and its costs, measured as
/// `calibration` says, or [`Costs::nodes_only`] without one (deterministic: schedules in
/// node counts).
pub(super) fn measure_puzzle<P: Puzzle>(
    puzzle: &P,
    config: &P::Config,
    calibration: Option<Calibration>,
) -> Result<Vec<Component>, RunError> {
    let BuiltModels { models, names, .. } = build_models(puzzle, config, ON_THIS_THREAD)?;
    let mut components = Vec::new();
    let mut machinery: Option<Costs> = None;
    for (index, (model, name)) in models.into_iter().zip(names).enumerate() {
        // The timed searches hand every solution to the family's answer tally, as the runs
        // they predict do: on a workload of many solutions that work is much of the time
        // (hooks enumeration on the 2-core machine: 1.8 times the cost of a node timed without
        // it, and a prediction 61% short at 1 thread).
        let collector = SolutionCollector::new(puzzle, index, &name, None);
        // The recording and timing searches keep no path: the panic names no node.
        let measured = parallel::catch_model_panic(|| match calibration {
            None => Ok(Component { name: name.clone(), tree: record_tree(&model), costs: Costs::nodes_only() }),
            Some(calibration) if calibration.rule_counts => {
                measure::<P::Model, FullCounters, _>(&model, &name, calibration, &collector, &mut machinery)
            }
            Some(calibration) => {
                measure::<P::Model, NoCounters, _>(&model, &name, calibration, &collector, &mut machinery)
            }
        });
        let component = match measured {
            Ok(Ok(component)) => component,
            Ok(Err(Stopped::Pool(error))) => return Err(RunError::Pool(error)),
            Ok(Err(Stopped::Panicked(panic))) | Err(panic) => {
                return Err(PanickedRun::error::<P>(Some(&name), MEASURING, ON_THIS_THREAD, panic))
            }
        };
        components.push(component);
    }
    Ok(components)
}

/// Why a component's measurement stopped: no pool, or the model's panic on a timing thread
/// (one on the calling thread unwinds to [`measure_puzzle`]'s catch).
enum Stopped {
    Pool(PoolError),
    Panicked(ModelPanic),
}

impl From<PoolError> for Stopped {
    fn from(error: PoolError) -> Stopped {
        Stopped::Pool(error)
    }
}

impl From<ModelPanic> for Stopped {
    fn from(panic: ModelPanic) -> Stopped {
        Stopped::Panicked(panic)
    }
}

/// One component; the machinery's costs are measured with the first component only, and
/// each timed search hands its solutions to a fresh copy of `collector`.
fn measure<M: Model, C: RuleCounter + Send, K: Collector<M>>(
    model: &M,
    name: &str,
    calibration: Calibration,
    collector: &K,
    machinery: &mut Option<Costs>,
) -> Result<Component, Stopped> {
    let tree = record_tree(model);
    let base = match machinery {
        Some(costs) => *costs,
        None => {
            let machinery_costs = parallel::machinery_costs::<M, C>(model, &sample_paths(model, &tree))?;
            *machinery.insert(costs_of(machinery_costs))
        }
    };
    let timed = time_the_search::<M, C, K>(model, collector, calibration.copies, calibration.rounds)?;
    let nodes = tree.total_nodes().max(1) as f64;
    let node_ns = timed.alone.as_nanos() as f64 / nodes;
    let steered_node_ns = timed.steered.as_nanos() as f64 / nodes;
    let costs = Costs { node_ns, steered_node_ns, slowdown: timed.slowdown, ..base };
    Ok(Component { name: name.to_string(), tree, costs })
}

/// The machinery's costs as the prediction reads them; `node_ns` and `slowdown` are set per
/// component by [`measure`].
fn costs_of(machinery: MachineryCosts) -> Costs {
    Costs {
        node_ns: 0.0,
        steered_node_ns: 0.0,
        replay_first_ns: machinery.replay_first_ns,
        replay_ns_per_move: machinery.replay_ns_per_move,
        task_ns: machinery.task_ns,
        spawn_ns: machinery.spawn_ns,
        steal_ns: machinery.steal_ns,
        split_ns: machinery.split_ns,
        lock_ns: machinery.lock_ns,
        path_copy_ns: machinery.path_copy_ns,
        slowdown: Slowdown::NONE,
    }
}

/// An observer that turns the engine's events into subtree sizes.
struct Recorder(TreeBuilder);

impl<M: Model> Observer<M> for Recorder {
    fn observe(&mut self, event: Event<M::Move>, _model: &M) {
        match event {
            Event::Enter { depth, .. } | Event::Pruned { depth, .. } => self.0.enter(depth),
            Event::Undo { depth, .. } => self.0.leave(depth),
            Event::DeadEnd { .. } | Event::Solution { .. } => {}
        }
    }
}

fn counting_only() -> Limits {
    Limits { solutions_to_keep: 0, ..Limits::exhaustive() }
}

/// The subtree sizes of `model`'s whole tree, every node recorded down to the deepest depth
/// that keeps at most [`RECORDED_NODES`] (two sequential searches: one counts nodes per
/// depth, one records).
pub fn record_tree<M: Model>(model: &M) -> SubtreeTree {
    let counted = search_sequentially::<M, FullCounters>(model.clone(), counting_only());
    let depth = recordable_depth(&counted.stats.nodes_per_depth, RECORDED_NODES);
    let recorder = Recorder(TreeBuilder::new(depth));
    let mut engine: Engine<M, NoCounters, NoSteering, Recorder> =
        Engine::new(model.clone(), NoSteering, recorder, counting_only());
    engine.run();
    let (_, recorder) = engine.into_hooks();
    recorder.0.finish(counted.stats.nodes_per_depth)
}

/// One sequential search of `model`, timed on the calling thread, every solution handed to
/// `collector` as a sequential run does.
fn timed_search<M: Model, C: RuleCounter, K: Collector<M>>(model: &M, collector: K) -> Duration {
    let model = model.clone();
    let start = Instant::now();
    // One solution kept, as the predicted runs keep (`explain` and the check do).
    let limits = Limits { solutions_to_keep: 1, ..Limits::exhaustive() };
    let mut engine: Engine<M, C, NoSteering, Collecting<K>> =
        Engine::new(model, NoSteering, Collecting(collector), limits);
    engine.run();
    black_box(engine.nodes());
    start.elapsed()
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort_unstable();
    values.get(values.len().saturating_sub(1) / 2).copied().unwrap_or_default()
}

/// What [`time_the_search`] measured.
struct Timed {
    /// The sequential search alone.
    alone: Duration,
    /// The same search by one `steal` worker, alone: its busy time.
    steered: Duration,
    slowdown: Slowdown,
}

/// The search time of `model` alone on a pinned pool thread, sequentially and as one
/// `steal` worker, and of each of `copies` searches run at once on `copies` pinned threads:
/// medians over `rounds` rounds, the three taking turns so that a machine growing busier
/// touches them alike. A panic of the model is caught on the pool thread where it happens
/// and returned.
fn time_the_search<M: Model, C: RuleCounter + Send, K: Collector<M>>(
    model: &M,
    collector: &K,
    copies: usize,
    rounds: usize,
) -> Result<Timed, Stopped> {
    let alone_pool = Pool::new(1)?;
    let together_pool = (copies > 1).then(|| Pool::new(copies)).transpose()?;
    // Models and collectors are `Send`, not `Sync`: each thread clones its own from behind a lock.
    let shared = Mutex::new((model.clone(), collector.clone()));
    let own_copy = || shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
    let timed_copy = || {
        parallel::catch_model_panic(|| {
            let (model, collector) = own_copy();
            timed_search::<M, C, K>(&model, collector)
        })
    };
    let alone_once = || alone_pool.rayon().install(timed_copy);
    alone_once()?;
    // Every solution counted, one kept, as `timed_search` does; the worker's busy time, not
    // the run's wall time, so that waking the pool is not spread over the nodes.
    let steal = ParallelPlan { strategy: Strategy::Steal, counters: CounterLayout::Padded, state: StateRestore::Undo };
    let limits = Limits { solutions_to_keep: 1, ..Limits::exhaustive() };
    let steered_once = || -> Result<Duration, Stopped> {
        let (model, collector) = own_copy();
        let (outcome, _) =
            parallel::search_collecting::<M, C, K>(model, &steal, &alone_pool, limits.clone(), collector)?;
        Ok(outcome.workers.iter().map(|worker| worker.busy).sum())
    };
    let (mut alone, mut together, mut steered) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds.max(1) {
        alone.push(alone_once()?);
        steered.push(steered_once()?);
        if let Some(pool) = &together_pool {
            for time in pool.rayon().broadcast(|_| timed_copy()) {
                together.push(time?);
            }
        }
    }
    let alone = median(alone);
    let slowdown = match together_pool {
        Some(_) if !alone.is_zero() => {
            Slowdown { copies, factor: median(together).as_secs_f64() / alone.as_secs_f64() }
        }
        _ => Slowdown::NONE,
    };
    Ok(Timed { alone, steered: median(steered), slowdown })
}

/// Up to 1024 paths, evenly spaced over the listing, of the frontier at the recorded depth
/// with the most nodes: deep paths, for timing replays and copies as workers pay them. At
/// most as many are listed as the recorded tree has there (itself at most
/// [`RECORDED_NODES`]); for a branch-and-bound model they are the first that many of the
/// unbounded frontier in depth-first order, paths of the same depth and cost to replay.
fn sample_paths<M: Model>(model: &M, tree: &SubtreeTree) -> Vec<Vec<M::Move>> {
    let depth = (1..=tree.recorded_depth.max(1)).max_by_key(|&depth| tree.frontier_len(depth)).unwrap_or(1);
    let mut engine: Engine<M, NoCounters, NoSteering, NoObserver> =
        Engine::new(model.clone(), NoSteering, NoObserver, counting_only());
    // Capped at the recorded frontier's size: the listing stops at `depth` and reaches no
    // solution, so a branch-and-bound model's incumbent never improves during it and its
    // bound cuts nothing; uncapped, it listed the unbounded tree's frontier there (2^40
    // paths for a 40-item knapsack) until memory ran out. For a model without a bound the
    // listing is the recorded frontier itself, which the cap does not cut.
    let cap = usize::try_from(tree.frontier_len(depth)).unwrap_or(usize::MAX).max(1);
    let paths = engine.enumerate_frontier_capped(depth, cap);
    let step = paths.len().div_ceil(1024).max(1);
    paths.into_iter().step_by(step).collect()
}
