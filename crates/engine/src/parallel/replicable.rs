//! `replicable`: a parallel branch and bound whose node counts and best solutions are the
//! same on every run at a given thread count (Archibald et al.'s repeatability).
//!
//! With one shared incumbent, what a worker cuts depends on when the others improved it,
//! which changes from run to run: the node counts of `steal` or `auto` on an optimising
//! model vary. Here the frontier is listed as `auto` lists it (on one thread, so
//! deterministically), and its subproblems are searched in their depth-first order, each
//! from an incumbent of its own that starts at the best result of the subproblems a fixed
//! distance before it (1, 1, 2, 2, 3, ... growing to `per_thread` x threads: the first
//! subproblems hold the dives that find a good incumbent), once those have ended, and
//! raises only that incumbent. What each subproblem searches is then fixed by the ones
//! before it, whichever thread runs it and whenever: the counts are a function of the tree and the thread
//! count alone (but for a search with a target, which stops once any subproblem reaches it:
//! how far the others got by then is the schedule's). The price is the improvements a subproblem cannot see (those of the
//! window before it), and the waits for the results it starts from. For a model without
//! an objective this is `auto` with those waits: the same counts as every other strategy.

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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

/// Runs `replicable` with a window of `per_thread` x threads subproblems, tallies made by
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
        let window = per_thread.saturating_mul(threads).max(1);
        let schedule = Schedule::new(frontier.len(), window, shared.score());
        pool.release();
        pool.rayon().scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|_| run_in_order(&frontier, &schedule, &shared, &slots, &control));
            }
        });
        schedule.absorb_all(&shared);
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

/// Takes the next subproblem in depth-first order until none is left (or the run
/// stopped), each searched from an incumbent of its own that starts where the schedule
/// says, once the subproblems it depends on have ended.
fn run_in_order<M, C, T, K>(
    frontier: &[Vec<M::Move>],
    schedule: &Schedule,
    shared: &Arc<Incumbent>,
    slots: &[Slot<Seat<'_, M, C, T, K>>],
    control: &Control,
) where
    M: Model,
    C: RuleCounter + Send,
    T: Tally,
    K: Collector<M>,
{
    while !control.stopped() {
        let index = schedule.next.fetch_add(1, Ordering::Relaxed);
        let Some(task) = frontier.get(index) else {
            return;
        };
        let Some(start) = schedule.start_of(index, control) else {
            return;
        };
        let own = shared.fork_at(start);
        // A pool thread runs one of these loops at a time (a loop blocks its thread while
        // it waits), so its slot's lock is never contended.
        let seat = rayon::current_thread_index().unwrap_or(0) % slots.len();
        control.guard(|| {
            let mut seat = slots[seat].lock();
            let worker = seat.worker();
            worker.engine.share_incumbent(own.clone());
            worker.run_task(task);
        });
        schedule.finished(index, own);
    }
}

/// Which results each subproblem starts from, and the results so far.
///
/// Subproblem `i` starts from the best of subproblems `0 ..= i - lag(i)`, where the lag
/// grows 1, 1, 2, 2, 3, 3, ... up to the window (`per_thread` x threads): the first
/// subproblems, which hold the greedy dives, wait for each other as rounds of 1, 2, 4
/// did, and later ones run up to a window ahead of the last result they use. A subproblem
/// waits only for those results, not for a whole round to end, so the threads idle less
/// than behind a barrier; and what it starts from depends on the tree and the window
/// alone, never on the schedule.
struct Schedule {
    next: AtomicUsize,
    window: usize,
    initial: i64,
    progress: Mutex<Progress>,
    changed: Condvar,
}

/// The subproblems that have ended, and the best result of every prefix of them.
struct Progress {
    ended: Vec<Option<Arc<Incumbent>>>,
    /// `best_of_prefix[k]`: the best score of subproblems `0..=k` (all ended).
    best_of_prefix: Vec<i64>,
}

/// How long a waiting subproblem sleeps before it looks whether the run stopped (a panic
/// or a limit elsewhere ends a run without a result to wake it).
const STOP_LOOK_INTERVAL: Duration = Duration::from_millis(10);

impl Schedule {
    fn new(subproblems: usize, window: usize, initial: i64) -> Schedule {
        Schedule {
            next: AtomicUsize::new(0),
            window,
            initial,
            progress: Mutex::new(Progress { ended: vec![None; subproblems], best_of_prefix: Vec::new() }),
            changed: Condvar::new(),
        }
    }

    /// How many subproblems, from the first, subproblem `index` starts after.
    fn depends_on(&self, index: usize) -> usize {
        let lag = (index / 2 + 1).min(self.window);
        (index + 1).saturating_sub(lag)
    }

    /// The score subproblem `index` starts from, once every subproblem it depends on has
    /// ended; `None` when the run stopped meanwhile.
    fn start_of(&self, index: usize, control: &Control) -> Option<i64> {
        let needed = self.depends_on(index);
        let mut progress = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
        while progress.best_of_prefix.len() < needed {
            if control.stopped() {
                return None;
            }
            progress =
                self.changed.wait_timeout(progress, STOP_LOOK_INTERVAL).unwrap_or_else(PoisonError::into_inner).0;
        }
        Some(needed.checked_sub(1).map_or(self.initial, |last| progress.best_of_prefix[last]))
    }

    /// Records that subproblem `index` ended with `result` and wakes the waiting ones.
    fn finished(&self, index: usize, result: Arc<Incumbent>) {
        let mut progress = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
        progress.ended[index] = Some(result);
        loop {
            let next = progress.best_of_prefix.len();
            let Some(Some(ended)) = progress.ended.get(next) else {
                break;
            };
            let before = progress.best_of_prefix.last().copied().unwrap_or(self.initial);
            let best = before.max(ended.score());
            progress.best_of_prefix.push(best);
        }
        drop(progress);
        self.changed.notify_all();
    }

    /// Takes every result into `shared`, in subproblem order (so that the time of the best
    /// is that of the first subproblem that found it).
    fn absorb_all(&self, shared: &Incumbent) {
        let progress = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
        for ended in progress.ended.iter().flatten() {
            shared.absorb(ended);
        }
    }
}
