//! Parallel strategies that run any [`Model`] on many threads, with per-worker accounting.
//!
//! One entry point, [`search`], takes a model, a [`ParallelPlan`] (the strategy and the
//! knobs that switch on classic slowdowns), a [`Pool`] built beforehand, and the engine's
//! [`Limits`]; it returns a [`ParallelOutcome`] whose counts equal the sequential run's for
//! an exhaustive search, whatever the strategy and the thread count.
//!
//! A subproblem is the path of moves from the root (small, `Send`), replayed on the state
//! of whichever worker runs it, so no model state is shared and every count stays
//! thread-local until the run is over. The only thing a worker reads at every node is one
//! shared word (the stop flag and the number of hungry workers), with a relaxed load.
//! This layer knows no puzzle: it sees models only through the engine. See `README.md`
//! beside this file for how runs end and how work is split.
//!
//! A panic in the model, on any worker, is caught where it happens ([`ModelPanic`]): it
//! stops the run as a first solution does, and the run returns it as its error once every
//! worker has stopped, with the moves that led to the node where it happened.

mod accounting;
mod assemble;
mod budget;
mod collect;
mod control;
mod frontier;
mod machinery;
mod model_panic;
mod naive;
mod outcome;
mod pool;
mod replicable;
mod sequential;
mod steal;
mod steering;
mod strategy;
mod tally;
mod task_samples;
mod worker;

#[cfg(test)]
mod bnb_tests;
#[cfg(test)]
mod listing_tests;
#[cfg(test)]
mod panic_tests;
#[cfg(test)]
mod test_models;
#[cfg(test)]
mod tests;

pub use accounting::{CpuTimes, RunAccounting, WorkerReport};
pub use collect::Collecting;
pub use collect::{Collector, NoCollector};
pub use machinery::{machinery_costs, MachineryCosts};
pub use model_panic::message_of as panic_message;
pub use model_panic::{catch as catch_model_panic, ModelPanic};
pub use outcome::ParallelOutcome;
pub use pool::{check_thread_count, Pool, PoolError, ThreadAffinity, MAX_THREADS, WORKER_STACK_BYTES};
pub use sequential::RETRACE_LIMIT;
pub use strategy::{
    listing_cap, CounterLayout, StateRestore, Strategy, DEFAULT_SUBPROBLEMS_PER_THREAD, MAX_LISTED_MOVES,
    MAX_SUBPROBLEMS,
};
pub use task_samples::{merged as merged_task_samples, TaskSamples};

use crate::search::{Incumbent, Limits, Model, RuleCounter};
use frontier::DepthChoice;
use tally::{CounterBoard, Tally};

/// How one run is parallelised: the strategy and the knobs that switch on slowdowns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ParallelPlan {
    /// How the tree is shared out among threads.
    pub strategy: Strategy,
    /// Where workers keep their node counters (ignored by `sequential`, which has none).
    pub counters: CounterLayout,
    /// How the model state is restored after a child; it sets [`Limits::clone_state`].
    pub state: StateRestore,
}

/// The most nodes a run of `strategy` on `threads` workers may enter beyond its node
/// limit: none for `sequential` (the engine's limit is exact); for the parallel
/// strategies, each worker reports its nodes to the shared budget every
/// `NODE_FLUSH_INTERVAL` (1024) nodes, so each may be up to that many past
/// the limit when the others learn of it.
pub fn node_limit_overshoot_max(strategy: Strategy, threads: usize) -> u64 {
    match strategy {
        Strategy::Sequential => 0,
        _ => threads as u64 * control::NODE_FLUSH_INTERVAL,
    }
}

/// Searches `model` as `plan` says, on `pool` (unused by `sequential`), within `limits`;
/// or the model's first panic, once every worker has stopped (see [`ModelPanic`]).
///
/// The clock starts inside, after the pool exists. The pool is not woken here: a run of
/// many components wakes it once, with [`Pool::hold`], before its first one (waking it
/// for each component cost a run of 1,000 small grids on a busy 2-core machine seconds of
/// spinning, far more than its searches). An exhaustive search finds the same
/// solutions and nodes as the sequential one for every strategy and thread count. A node
/// limit is shared by all workers and is exact to within 1024 nodes per worker.
pub fn search<M, C>(
    model: M,
    plan: &ParallelPlan,
    pool: &Pool,
    limits: Limits,
) -> Result<ParallelOutcome<M::Solution>, ModelPanic>
where
    M: Model,
    C: RuleCounter + Send,
{
    search_collecting::<M, C, NoCollector>(model, plan, pool, limits, NoCollector).map(|(outcome, _)| outcome)
}

/// [`search`], with every solution found handed to a clone of `collector` on the engine
/// that found it (each worker's, and the frontier listing's); the clones are merged into
/// the collector returned. With [`NoCollector`] this is [`search`], at the same cost.
pub fn search_collecting<M, C, K>(
    model: M,
    plan: &ParallelPlan,
    pool: &Pool,
    limits: Limits,
    collector: K,
) -> Result<(ParallelOutcome<M::Solution>, K), ModelPanic>
where
    M: Model,
    C: RuleCounter + Send,
    K: Collector<M>,
{
    // An optimising model's engines share one incumbent, made here when the caller gave
    // none; the best of what each engine kept is the run's best.
    let incumbent = limits.incumbent.clone().or_else(|| M::OPTIMISES.then(Incumbent::new));
    let keep = limits.solutions_to_keep;
    let ranker = M::OPTIMISES.then(|| model.clone());
    let limits = Limits { clone_state: plan.state == StateRestore::Clone, incumbent, ..limits };
    let Some(sharing) = Sharing::of(plan.strategy, pool.threads()) else {
        let searched = sequential::search::<M, C, K>(model, limits, collector);
        return searched.map(|(outcome, collected)| (keep_best_of(ranker.as_ref(), outcome, keep), collected));
    };
    let board = CounterBoard::new(pool.threads());
    let run = Dispatch { strategy: plan.strategy, sharing, pool, limits, collector: &collector };
    let result = match plan.counters {
        CounterLayout::Padded => run.with::<M, C, _>(model, |i| board.padded(i)),
        CounterLayout::Unpadded => run.with::<M, C, _>(model, |i| board.unpadded(i)),
        CounterLayout::Shared => run.with::<M, C, _>(model, |_| board.shared()),
    };
    // Strategies release the pool when they hand out work; this covers one that stopped
    // before it did (a frontier listing that reached the node limit, or a model's panic).
    pool.release();
    let (mut outcome, collected) = result?;
    outcome.run.published_nodes = board.total(plan.counters);
    Ok((keep_best_of(ranker.as_ref(), outcome, keep), collected))
}

/// `outcome` with only its best-valued solutions (at most `keep`), for an optimising
/// model (`ranker`, a copy of it); unchanged otherwise.
fn keep_best_of<M: Model>(
    ranker: Option<&M>,
    mut outcome: ParallelOutcome<M::Solution>,
    keep: usize,
) -> ParallelOutcome<M::Solution> {
    if let Some(ranker) = ranker {
        let solutions = std::mem::take(&mut outcome.solutions);
        outcome.solutions = crate::search::keep_best(ranker, solutions, keep).1;
    }
    outcome
}

/// How a parallel strategy shares the tree out among threads: [`Strategy`] without
/// `sequential`, which shares nothing and never reaches the dispatch below.
#[derive(Debug, Clone, Copy)]
enum Sharing {
    /// A frontier listed on the calling thread, one task per subproblem.
    Frontier(DepthChoice),
    /// Work stealing.
    Steal,
    /// Splitting every this many nodes.
    Budget(u64),
    /// Leaves handed out in batches through a lock.
    Naive,
    /// Rounds of this many subproblems per thread, each from a fixed incumbent.
    Rounds(usize),
}

impl Sharing {
    /// The sharing of `strategy` on `threads` workers; `None` for `sequential`.
    fn of(strategy: Strategy, threads: usize) -> Option<Sharing> {
        match strategy {
            Strategy::Sequential => None,
            Strategy::Depth(depth) => Some(Sharing::Frontier(DepthChoice::Fixed(depth))),
            Strategy::Auto { per_thread } => {
                Some(Sharing::Frontier(DepthChoice::AtLeast(per_thread.saturating_mul(threads))))
            }
            Strategy::Steal => Some(Sharing::Steal),
            Strategy::Budget(budget) => Some(Sharing::Budget(budget)),
            Strategy::Naive => Some(Sharing::Naive),
            Strategy::Replicable { per_thread } => Some(Sharing::Rounds(per_thread)),
        }
    }
}

/// A parallel run's settings, waiting for the tallies of its counter layout.
struct Dispatch<'a, K> {
    /// Labels the run's accounting.
    strategy: Strategy,
    sharing: Sharing,
    pool: &'a Pool,
    limits: Limits,
    collector: &'a K,
}

impl<K> Dispatch<'_, K> {
    /// Runs the strategy with the tallies made by `tally_for(worker)`.
    fn with<M, C, T>(
        self,
        model: M,
        tally_for: impl Fn(usize) -> T,
    ) -> Result<(ParallelOutcome<M::Solution>, K), ModelPanic>
    where
        M: Model,
        C: RuleCounter + Send,
        T: Tally,
        K: Collector<M>,
    {
        let Dispatch { strategy, sharing, pool, limits, collector } = self;
        match sharing {
            Sharing::Frontier(depth) => {
                frontier::search::<M, C, T, K>(model, limits, pool, strategy, depth, tally_for, collector)
            }
            Sharing::Steal => {
                let rule = steal::SplitRule::WhenHungry;
                steal::search::<M, C, T, K>(model, limits, pool, strategy, rule, tally_for, collector)
            }
            Sharing::Budget(budget) => budget::search::<M, C, T, K>(model, limits, pool, budget, tally_for, collector),
            Sharing::Naive => naive::search::<M, C, T, K>(model, limits, pool, tally_for, collector),
            Sharing::Rounds(per_thread) => {
                replicable::search::<M, C, T, K>(model, limits, pool, strategy, per_thread, tally_for, collector)
            }
        }
    }
}
