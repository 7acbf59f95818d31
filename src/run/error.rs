//! Why a run could not start: the run layer's one error, each variant wrapping the typed
//! error of the layer it came from.

use crate::knobs::KnobError;
use crate::parallel::PoolError;
use crate::puzzles::DataError;
use crate::watch::WatchError;
use std::fmt;

/// Why a run (a solve, an estimate, a measurement, a watch) could not start.
#[derive(Debug)]
pub enum RunError {
    /// A knob value the family does not accept.
    Knob(KnobError),
    /// The instance data is invalid (normally caught when loading).
    Data(DataError),
    /// A thread pool could not be built (for the run, or for timing its costs).
    Pool(PoolError),
    /// `watch` cannot draw in this terminal.
    Watch(WatchError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Knob(error) => write!(f, "{error}"),
            RunError::Data(error) => write!(f, "{error}"),
            RunError::Pool(error) => write!(f, "{error}"),
            RunError::Watch(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Knob(error) => Some(error),
            RunError::Data(error) => Some(error),
            RunError::Pool(error) => Some(error),
            RunError::Watch(error) => Some(error),
        }
    }
}
