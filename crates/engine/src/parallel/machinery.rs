//! What the parallel machinery costs on this machine, measured with one model's moves: a
//! worker's bookkeeping per task, a rayon spawn, a split and a steal through the deques, a
//! lock, replaying and copying a path. The scaling prediction's inputs are assembled from
//! these by the run layer (`run::measure`); this module predicts nothing.

use super::collect::NoCollector;
use super::control::Control;
use super::pool::{Pool, PoolError};
use super::steering::Splitting;
use super::tally::CounterBoard;
use super::worker::seats;
use crate::search::{Limits, Model, NoCounters, RuleCounter};
use crossbeam_deque::Worker as TaskQueue;
use std::hint::black_box;
use std::sync::Mutex;
use std::time::Instant;

/// Operations per timing of a cost, and timings per cost (the fastest is kept: the others
/// were interrupted).
const OPERATIONS: usize = 20_000;
const TIMINGS: usize = 5;

/// The machinery's costs, in nanoseconds per operation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MachineryCosts {
    /// Replaying (apply, then undo) the first move of a path.
    pub replay_first_ns: f64,
    /// Replaying each further move of a path.
    pub replay_ns_per_move: f64,
    /// A worker's bookkeeping around one task.
    pub task_ns: f64,
    /// One rayon spawn.
    pub spawn_ns: f64,
    /// One steal through the deques.
    pub steal_ns: f64,
    /// One split (a path pushed on a deque).
    pub split_ns: f64,
    /// One lock taken and released.
    pub lock_ns: f64,
    /// One path copied.
    pub path_copy_ns: f64,
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
/// `paths` (deep paths of its tree, as workers replay them).
pub fn machinery_costs<M: Model, C: RuleCounter + Send>(
    model: &M,
    paths: &[Vec<M::Move>],
) -> Result<MachineryCosts, PoolError> {
    let path = paths.iter().max_by_key(|path| path.len()).cloned().unwrap_or_default();
    let (replay_first_ns, replay_ns_per_move) = replay_costs(model, paths);
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

    let pool = Pool::new(1)?;
    let spawn_ns = per_operation_rounds(1, || {
        pool.rayon().scope(|scope| {
            for _ in 0..OPERATIONS {
                scope.spawn(|_| {});
            }
        });
    }) / OPERATIONS as f64;

    let board = CounterBoard::new(1);
    let limits = Limits { solutions_to_keep: 0, ..Limits::exhaustive() };
    let task_ns = {
        let mut seat = seats::<M, C, _, _>(
            1,
            model,
            &limits,
            &control,
            Instant::now(),
            |i| board.padded(i),
            |_| Splitting::Never,
            &NoCollector,
        )
        .pop()
        .expect("one seat");
        let worker = seat.worker();
        per_operation(|_| {
            worker.run_timed(|_| {});
        })
    };
    Ok(MachineryCosts {
        replay_first_ns,
        replay_ns_per_move,
        task_ns,
        spawn_ns,
        steal_ns,
        split_ns,
        lock_ns,
        path_copy_ns,
    })
}
