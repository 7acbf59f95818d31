//! `budget:B`: YewPar's budget policy on the queue pool of [`steal`](super::steal). A
//! worker moves its shallowest open branches into its own queue every `B` nodes, whether
//! or not anyone is hungry, so work is on offer before it is asked for; idle workers steal
//! from those queues without announcing themselves. A small budget makes many small
//! tasks (more queue traffic); a large one leaves idle workers waiting for the next split.

use super::outcome::ParallelOutcome;
use super::pool::Pool;
use super::steal::{self, SplitRule};
use super::strategy::Strategy;
use super::tally::Tally;
use crate::search::{Limits, Model, RuleCounter};

/// Runs the whole tree with workers that split every `budget` nodes.
pub(crate) fn search<M, C, T>(
    model: M,
    limits: Limits,
    pool: &Pool,
    budget: u64,
    tally_for: impl Fn(usize) -> T,
) -> ParallelOutcome<M::Solution>
where
    M: Model,
    C: RuleCounter + Send,
    T: Tally,
{
    steal::search::<M, C, T>(model, limits, pool, Strategy::Budget(budget), SplitRule::Budget(budget), tally_for)
}
