//! What a scaling prediction measures of one model on this machine: the subtree sizes of a
//! sequential search (an observer on the plain engine), the time of that search alone and
//! with copies of it running at once on other CPUs, and the costs of the parallel
//! machinery (a worker's bookkeeping per task, a rayon spawn, a split and a steal through
//! the deques, a lock, replaying and copying a path). It predicts nothing (see
//! `crate::scaling`) and knows no puzzle.

use super::control::Control;
use super::steering::Splitting;
use super::tally::CounterBoard;
use super::worker::seats;
use super::Pool;
use crate::scaling::costs::{Costs, Slowdown};
use crate::scaling::work_span::{recordable_depth, SubtreeTree, TreeBuilder};
use crate::search::{
    search_sequentially, Engine, Event, FullCounters, Limits, Model, NoCounters, NoObserver, NoSteering, Observer,
    RuleCounter,
};
use crossbeam_deque::Worker as TaskQueue;
use std::hint::black_box;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most nodes recorded one by one; deeper subtrees are kept as sizes (1 Mi nodes, 16 MiB).
pub const RECORDED_NODES: u64 = 1 << 20;

/// Operations per timing of a cost, and timings per cost (the fastest is kept: the others
/// were interrupted).
const OPERATIONS: usize = 20_000;
const TIMINGS: usize = 5;

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

/// One sequential search of `model`, timed on the calling thread.
fn timed_search<M: Model, C: RuleCounter>(model: &M) -> Duration {
    let model = model.clone();
    let start = Instant::now();
    // One solution kept, as the predicted runs keep (`explain` and the check do).
    let limits = Limits { solutions_to_keep: 1, ..Limits::exhaustive() };
    black_box(search_sequentially::<M, C>(model, limits).stats.nodes);
    start.elapsed()
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort_unstable();
    values.get(values.len().saturating_sub(1) / 2).copied().unwrap_or_default()
}

/// The search time of `model` alone on a pinned pool thread, and of each of `copies`
/// searches run at once on `copies` pinned threads: medians over `rounds` rounds, alone and
/// together taking turns so that a machine growing busier touches both alike.
pub fn time_alone_and_together<M: Model, C: RuleCounter>(
    model: &M,
    copies: usize,
    rounds: usize,
) -> Result<(Duration, Slowdown), String> {
    let alone_pool = Pool::new(1).map_err(|error| error.message)?;
    let together_pool = (copies > 1).then(|| Pool::new(copies)).transpose().map_err(|error| error.message)?;
    // Models are `Send`, not `Sync`: each thread clones its own from behind a lock.
    let shared = Mutex::new(model.clone());
    let own_copy = || shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
    let alone_once = || {
        let copy = own_copy();
        alone_pool.rayon().install(move || timed_search::<M, C>(&copy))
    };
    alone_once();
    let (mut alone, mut together) = (Vec::new(), Vec::new());
    for _ in 0..rounds.max(1) {
        alone.push(alone_once());
        if let Some(pool) = &together_pool {
            together.extend(pool.rayon().broadcast(|_| timed_search::<M, C>(&own_copy())));
        }
    }
    let alone = median(alone);
    let slowdown = match together_pool {
        Some(_) if !alone.is_zero() => {
            Slowdown { copies, factor: median(together).as_secs_f64() / alone.as_secs_f64() }
        }
        _ => Slowdown::NONE,
    };
    Ok((alone, slowdown))
}

/// The fastest of [`TIMINGS`] timings of `operation` run [`OPERATIONS`] times, per operation.
fn per_operation(mut operation: impl FnMut(usize)) -> f64 {
    (0..TIMINGS)
        .map(|_| {
            let start = Instant::now();
            for index in 0..OPERATIONS {
                operation(index);
            }
            start.elapsed().as_nanos() as f64 / OPERATIONS as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// Up to 1024 paths, evenly spaced, of the frontier at the recorded depth with the most
/// nodes (listing it counts at most [`RECORDED_NODES`] nodes): deep paths, for timing
/// replays and copies as workers pay them.
fn sample_paths<M: Model>(model: &M, tree: &SubtreeTree) -> Vec<Vec<M::Move>> {
    let depth = (1..=tree.recorded_depth.max(1)).max_by_key(|&depth| tree.frontier_len(depth)).unwrap_or(1);
    let mut engine: Engine<M, NoCounters, NoSteering, NoObserver> =
        Engine::new(model.clone(), NoSteering, NoObserver, counting_only());
    let paths = engine.enumerate_frontier(depth);
    let step = paths.len().div_ceil(1024).max(1);
    paths.into_iter().step_by(step).collect()
}

/// Nanoseconds to replay (apply, then undo) the first move of a path, and each further
/// move, over `paths` without their last move (which a worker visits as a node).
fn replay_costs<M: Model>(model: &M, paths: &[Vec<M::Move>]) -> (f64, f64) {
    let prefixes: Vec<&[M::Move]> = paths.iter().map(|path| &path[..path.len().saturating_sub(1)]).collect();
    let firsts = prefixes.iter().filter(|prefix| !prefix.is_empty()).count();
    let moves: usize = prefixes.iter().map(|prefix| prefix.len()).sum();
    if firsts == 0 {
        return (0.0, 0.0);
    }
    let mut state = model.clone();
    let mut replay = |length: usize| {
        let mut silent = NoCounters;
        for prefix in &prefixes {
            let prefix = &prefix[..length.min(prefix.len())];
            for &mv in prefix {
                let _ = black_box(state.apply(mv, &mut silent));
            }
            for &mv in prefix.iter().rev() {
                state.undo(mv);
            }
        }
    };
    let rounds = (OPERATIONS / moves.max(1)).max(1);
    let first = per_operation_rounds(rounds, || replay(1)) / firsts as f64;
    let whole = per_operation_rounds(rounds, || replay(usize::MAX));
    let rest = if moves > firsts { ((whole - first * firsts as f64) / (moves - firsts) as f64).max(0.0) } else { 0.0 };
    (first, rest)
}

/// The fastest of [`TIMINGS`] timings of `rounds` runs of `round`, per round.
fn per_operation_rounds(rounds: usize, mut round: impl FnMut()) -> f64 {
    (0..TIMINGS)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..rounds {
                round();
            }
            start.elapsed().as_nanos() as f64 / rounds as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// The parallel machinery's costs on this machine, measured with `model`'s moves and
/// paths; `node_ns` and `slowdown` are left for the caller (see [`time_alone_and_together`]).
pub fn machinery_costs<M: Model, C: RuleCounter + Send>(model: &M, tree: &SubtreeTree) -> Result<Costs, String> {
    let paths = sample_paths(model, tree);
    let path = paths.iter().max_by_key(|path| path.len()).cloned().unwrap_or_default();
    let (replay_first_ns, replay_ns_per_move) = replay_costs(model, &paths);
    let mut copies: Vec<Vec<M::Move>> = Vec::with_capacity(OPERATIONS);
    let path_copy_ns = per_operation(|index| {
        if index == 0 {
            copies.clear();
        }
        copies.push(black_box(&path).clone());
    });
    drop(copies);

    let control = Control::new(Instant::now(), u64::MAX, 0);
    let queue: TaskQueue<Vec<M::Move>> = TaskQueue::new_lifo();
    let stealer = queue.stealer();
    let split_ns = per_operation(|_| {
        control.task_made();
        queue.push(black_box(&path).clone());
    });
    let steal_ns = per_operation(|_| {
        control.become_hungry();
        let task = stealer.steal().success();
        control.stop_being_hungry();
        control.task_finished();
        black_box(task);
    });

    let results = Mutex::new(Vec::with_capacity(OPERATIONS));
    let lock_ns = per_operation(|index| {
        let mut guard = results.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if index == 0 {
            guard.clear();
        }
        guard.push(index);
    });

    let pool = Pool::new(1).map_err(|error| error.message)?;
    let spawn_ns = per_operation_rounds(1, || {
        pool.rayon().scope(|scope| {
            for _ in 0..OPERATIONS {
                scope.spawn(|_| {});
            }
        });
    }) / OPERATIONS as f64;

    let board = CounterBoard::new(1);
    let limits = counting_only();
    let task_ns = {
        let mut seat =
            seats::<M, C, _>(1, model, &limits, &control, Instant::now(), |i| board.padded(i), |_| Splitting::Never)
                .pop()
                .expect("one seat");
        let worker = seat.worker();
        per_operation(|_| {
            worker.run_timed(|_| {});
        })
    };
    Ok(Costs {
        node_ns: 0.0,
        replay_first_ns,
        replay_ns_per_move,
        task_ns,
        spawn_ns,
        steal_ns,
        split_ns,
        lock_ns,
        path_copy_ns,
        slowdown: Slowdown::NONE,
    })
}
