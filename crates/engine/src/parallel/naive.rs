//! `naive`: a deliberately poor baseline, shaped like the Perl 6 `.race()` of seed post
//! 003. The calling thread lists every leaf candidate (the subproblems at the model's
//! maximum depth, counting all the nodes above them) before any worker starts; workers then
//! pull batches of [`BATCH`] leaves from one shared iterator behind a lock, and push each
//! leaf's solutions into one shared collection behind another lock. It exists to be
//! measured, and it must be correct.

use super::accounting::RunClock;
use super::assemble::{assemble, RunParts};
use super::collect::Collector;
use super::control::{remaining_budget, Control};
use super::frontier;
use super::model_panic::ModelPanic;
use super::outcome::ParallelOutcome;
use super::pool::Pool;
use super::steering::Splitting;
use super::strategy::Strategy;
use super::tally::Tally;
use super::worker::{seats, Flow, Seat, Slot};
use crate::search::{Limits, Model, RuleCounter};
use std::sync::{Mutex, PoisonError};

/// Leaves per batch: the default batch size of Perl 6's `.race()`.
pub(crate) const BATCH: usize = 64;

/// Runs the whole tree the naive way, with clones of `collector` merged into the one
/// returned; or the first panic of the model, once every worker has stopped.
pub(crate) fn search<M, C, T, K>(
    model: M,
    limits: Limits,
    pool: &Pool,
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
    let listing = frontier::list::<M, C, K>(&model, &limits, model.max_depth(), collector)?;
    listing.share_incumbent(limits.incumbent.as_ref());
    let frontier::Listing { part, frontier, collector: listed, .. } = listing;
    let control = Control::new(clock.start, remaining_budget(limits.node_limit, part.stats.nodes), 0);
    let subproblems = frontier.len() as u64;
    let listing_stopped = part.stop.is_some();
    let leaves = Mutex::new(frontier.into_iter());
    let results: Mutex<Vec<M::Solution>> = Mutex::new(Vec::new());
    let slots: Vec<Slot<Seat<'_, M, C, T, K>>> =
        seats(pool.threads(), &model, &limits, &control, clock.start, tally_for, |_| Splitting::Never, collector)
            .into_iter()
            .map(Slot::new)
            .collect();
    if !listing_stopped {
        pool.release();
        pool.run_seats(|me| {
            control.guard(|| {
                // Each seat is run once, by one thread: this lock is uncontended.
                let mut seat = slots[me].lock();
                let worker = seat.worker();
                while !control.stopped() {
                    let batch: Vec<Vec<M::Move>> =
                        leaves.lock().unwrap_or_else(PoisonError::into_inner).by_ref().take(BATCH).collect();
                    if batch.is_empty() {
                        break;
                    }
                    let flow = worker.run_timed(|engine| {
                        for leaf in &batch {
                            engine.run_subproblem(leaf);
                            let found = engine.take_solutions();
                            results.lock().unwrap_or_else(PoisonError::into_inner).extend(found);
                        }
                    });
                    if flow == Flow::Stop {
                        break;
                    }
                }
                worker.mark_idle_until_now();
            })
        });
    }
    let (end, wall, cpu) = clock.stop();
    if let Some(panic) = control.take_panic() {
        return Err(panic);
    }
    let workers = slots.into_iter().map(|slot| slot.into_inner().finish(end)).collect();
    let parts = RunParts {
        strategy: Strategy::Naive,
        threads: pool.threads(),
        started: clock.start,
        wall,
        cpu,
        frontier: Some(part),
        subproblems,
        stop: control.stop_reason(),
        collected_solutions: results.into_inner().unwrap_or_else(PoisonError::into_inner),
    };
    Ok(assemble::<M, K>(workers, parts, limits.solutions_to_keep, listed))
}
