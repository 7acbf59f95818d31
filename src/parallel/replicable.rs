//! `replicable`: a parallel branch and bound whose node counts and best solutions are the
//! same on every run at a given thread count (Archibald et al.'s repeatability).
//!
//! With one shared incumbent, what a worker cuts depends on when the others improved it,
//! which changes from run to run: the node counts of `steal` or `auto` on an optimising
//! model vary. Here the frontier is listed as `auto` lists it (on one thread, so
//! deterministically), and its subproblems are searched in their depth-first order, in
//! rounds of 1, 2, 4, ... and then `per_thread` x threads subproblems (the first
//! subproblems hold the dives that find a good incumbent). Every subproblem of a round starts from
//! the incumbent as it stood when the round began, raises only an incumbent of its own,
//! and the round's best is taken into the shared incumbent once the whole round has
//! ended. What each subproblem searches is then fixed by the rounds before it, whichever
//! thread runs it and whenever: the counts are a function of the tree and the thread
//! count alone. The price is the improvements a subproblem cannot see until its round
//! ends. For a model without an objective this is `auto` with barriers: the same counts
//! as every other strategy.

use super::accounting::RunClock;
use super::assemble::{assemble, RunParts};
use super::collect::Collector;
use super::control::{remaining_budget, Control};
use super::frontier::{self, DepthChoice, Listing};
use super::model_panic::ModelPanic;
use super::outcome::ParallelOutcome;
use super::pool::Pool;
use super::steering::Splitting;
use super::strategy::Strategy;
use super::tally::Tally;
use super::worker::{seats, Seat, Slot};
use crate::search::{Incumbent, Limits, Model, RuleCounter};
use std::sync::Arc;

/// Subproblems per thread in one round of `replicable` (and per thread of its listing,
/// times 16: the listing aims for as many subproblems as `auto`).
pub const DEFAULT_ROUND_PER_THREAD: usize = 2;

/// Runs `replicable` with rounds of `per_thread` x threads subproblems, tallies made by
/// `tally_for(worker)` and clones of `collector`.
pub(crate) fn search<M, C, T, K>(
    model: M,
    limits: Limits,
    pool: &Pool,
    strategy: Strategy,
    per_thread: usize,
    tally_for: impl Fn(usize) -> T,
    collector: &K,
) -> Result<(ParallelOutcome<M::Solution>, K), ModelPanic>
where
    M: Model,
    C: RuleCounter + Send,
    T: Tally,
    K: Collector<M>,
{
    let clock = RunClock::start();
    let threads = pool.threads();
    let wanted = super::DEFAULT_SUBPROBLEMS_PER_THREAD.saturating_mul(threads);
    let listing = frontier::choose::<M, C, K>(&model, &limits, DepthChoice::AtLeast(wanted), collector)?;
    let shared = limits.incumbent.clone().unwrap_or_else(Incumbent::new);
    listing.share_incumbent(Some(&shared));
    let Listing { part, frontier, collector: listed, .. } = listing;
    let node_budget = remaining_budget(limits.node_limit, part.stats.nodes);
    let control = Control::new(clock.start, node_budget, frontier.len());
    let subproblems = frontier.len() as u64;
    let worker_limits = Limits { incumbent: Some(shared.clone()), ..limits.clone() };
    let slots: Vec<Slot<Seat<'_, M, C, T, K>>> =
        seats(threads, &model, &worker_limits, &control, clock.start, tally_for, |_| Splitting::Never, collector)
            .into_iter()
            .map(Slot::new)
            .collect();
    if part.stop.is_none() {
        let full_round = per_thread.saturating_mul(threads).max(1);
        pool.release();
        // Rounds of 1, 2, 4, ... subproblems up to the full size: the first subproblems in
        // depth-first order hold the greedy dives, and a round searched from an empty
        // incumbent proves each of its subtrees against its own best alone (a strongly
        // correlated knapsack, n = 80, at 2 threads: 1,001,741,935 nodes with full rounds of
        // 32 from the start, against 16,863,065 sequentially).
        let mut round_size = 1;
        let mut next = 0;
        while next < frontier.len() && !control.stopped() {
            let end = (next + round_size).min(frontier.len());
            run_round(&frontier[next..end], &shared, &slots, &control, pool);
            next = end;
            round_size = (round_size * 2).min(full_round);
        }
    }
    let (end, wall, cpu) = clock.stop();
    if let Some(panic) = control.take_panic() {
        return Err(panic);
    }
    let workers = slots.into_iter().map(|slot| slot.into_inner().finish(end)).collect();
    let parts = RunParts {
        strategy,
        threads,
        started: clock.start,
        wall,
        cpu,
        frontier: Some(part),
        subproblems,
        stop: control.stop_reason(),
        collected_solutions: Vec::new(),
    };
    Ok(assemble::<M, K>(workers, parts, limits.solutions_to_keep, listed))
}

/// Searches one round's subproblems as rayon tasks, each from its own fork of `shared`
/// as it stands now; then takes the best of the forks into `shared`, in subproblem order
/// (so that the time of the best is that of the first subproblem that found it).
fn run_round<M, C, T, K>(
    round: &[Vec<M::Move>],
    shared: &Arc<Incumbent>,
    slots: &[Slot<Seat<'_, M, C, T, K>>],
    control: &Control,
    pool: &Pool,
) where
    M: Model,
    C: RuleCounter + Send,
    T: Tally,
    K: Collector<M>,
{
    let forks: Vec<Arc<Incumbent>> = round.iter().map(|_| shared.fork()).collect();
    pool.rayon().scope_fifo(|scope| {
        for (task, fork) in round.iter().zip(&forks) {
            scope.spawn_fifo(move |_| {
                if control.stopped() {
                    return;
                }
                // As in `frontier`: a pool thread runs one task at a time, so its slot's
                // lock is never contended.
                let index = rayon::current_thread_index().unwrap_or(0) % slots.len();
                control.guard(|| {
                    let mut seat = slots[index].lock();
                    let worker = seat.worker();
                    worker.engine.share_incumbent(fork.clone());
                    worker.run_task(task);
                });
            });
        }
    });
    for fork in &forks {
        shared.absorb(fork);
    }
}
