//! `budget:B`: YewPar's budget policy on the queue pool of [`steal`](super::steal). A
//! worker moves its shallowest open branches into its own queue every `B` nodes, whether
//! or not anyone is hungry, so work is on offer before it is asked for; idle workers steal
//! from those queues without announcing themselves. A small budget makes many small
//! tasks (more queue traffic); a large one leaves idle workers waiting for the next split.

use super::collect::Collector;
use super::model_panic::ModelPanic;
use super::outcome::ParallelOutcome;
use super::pool::Pool;
use super::steal::{self, SplitRule};
use super::strategy::Strategy;
use super::tally::Tally;
use crate::search::{Limits, Model, RuleCounter};

/// Runs the whole tree with workers that split every `budget` nodes (or returns the
/// model's first panic, as [`steal`](super::steal) does).
pub(crate) fn search<M, C, T, K>(
    model: M,
    limits: Limits,
    pool: &Pool,
    budget: u64,
    tally_for: impl Fn(usize) -> T,
    collector: &K,
) -> Result<(ParallelOutcome<M::Solution>, K), ModelPanic>
where
    M: Model,
    C: RuleCounter + Send,
    T: Tally,
    K: Collector<M>,
{
    let (strategy, rule) = (Strategy::Budget(budget), SplitRule::Budget(budget));
    steal::search::<M, C, T, K>(model, limits, pool, strategy, rule, tally_for, collector)
}
