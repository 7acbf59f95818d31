//! The strategy a prediction models (`explain --predict`, `scaling-check`): parsed from
//! its flag, and the shape the scaling model gives it, or why it has none; and the searches
//! a prediction cannot follow.

use super::failure::Failure;
use crate::parallel::Strategy;
use crate::run::{Prepared, RunSettings, SearchMode};
use crate::scaling::predict::Shape;

/// The modelled shape of `strategy`, or why it has none.
pub fn shape_of(strategy: Strategy) -> Result<Shape, Failure> {
    crate::run::measure::shape_of(strategy).ok_or_else(|| {
        Failure::bad_input(format!(
            "the prediction models depth:D, auto, auto:K, steal and naive; `{strategy}` is not modelled (see docs/scaling.md)"
        ))
    })
}

/// Parses a strategy name given on the command line.
pub fn parse_strategy(name: &str) -> Result<Strategy, Failure> {
    name.parse::<Strategy>().map_err(Failure::bad_input)
}

/// Refuses a prediction of a search whose models have an objective (branch and bound):
/// the prediction replays one recorded tree, and a branch-and-bound tree is not one tree
/// (what it cuts depends on when each worker improves the incumbent, and its parallel runs
/// may search more or fewer nodes than the sequential one). Replayed, it predicted times
/// off by factors of a hundred without a word. `source` names the instance.
pub fn refuse_branch_and_bound(prepared: &dyn Prepared, source: &str) -> Result<(), Failure> {
    let best = RunSettings { mode: SearchMode::Best, ..RunSettings::default() };
    if prepared.check_goal(&best).is_err() {
        return Ok(());
    }
    Err(Failure::bad_input(format!(
        "{source}: its models have an objective (branch and bound), whose tree depends on when the incumbent \
         improves: the prediction replays one recorded tree, and predicts searches without an objective only \
         (docs/scaling.md); measure the parallel runs instead (`explain`, `sweep`)"
    )))
}
