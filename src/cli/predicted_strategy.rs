//! The strategy a prediction models (`explain --predict`, `scaling-check`): parsed from
//! its flag, and the shape the scaling model gives it, or why it has none.

use super::failure::Failure;
use crate::parallel::Strategy;
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
