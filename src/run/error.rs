//! Why a run could not start or did not finish: the run layer's one error, each variant
//! wrapping the typed error of the layer it came from.

use crate::knobs::KnobError;
use crate::parallel::{ModelPanic, PoolError};
use crate::puzzles::DataError;
use crate::watch::WatchError;
use std::fmt;

/// [`PanickedRun::during`] the search.
pub(super) const SEARCHING: &str = "searching";
/// [`PanickedRun::during`] `Puzzle::models`.
pub(super) const BUILDING_MODELS: &str = "building the models";
/// [`PanickedRun::during`] the time the kept solutions become text, drawings, checks and
/// the answer.
pub(super) const READING_SOLUTIONS: &str = "reading the solutions";

/// Why a run (a solve, an estimate, a measurement, a watch) could not start, or (a model's
/// panic) did not finish.
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
    /// The family's code panicked: a bug in the family, reported once, with where it
    /// happened (boxed: it is large, and rare).
    ModelPanicked(Box<PanickedRun>),
}

/// A run ended by a panic of the family's code: its model during the search (every
/// worker was stopped, so the run ended within moments), or the puzzle while it built the
/// models or read the solutions.
#[derive(Debug, Clone)]
pub struct PanickedRun {
    /// The family (`FAMILY` of its `Puzzle`).
    pub family: String,
    /// The component being searched, when the panic came from one.
    pub component: Option<String>,
    /// What the run was doing: `searching`, `building the models`, `reading the solutions`.
    pub during: &'static str,
    /// The strategy and thread count, as `steal x2`.
    pub strategy: String,
    /// The panic: its message, source location and the node's path.
    pub panic: ModelPanic,
}

impl fmt::Display for PanickedRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let PanickedRun { family, component, during, strategy, panic } = self;
        write!(f, "the {family} family panicked while {during}")?;
        if let Some(component) = component {
            write!(f, " component `{component}`")?;
        }
        write!(f, " ({strategy})")?;
        if let Some(path) = &panic.path {
            write!(f, " at the node reached by the moves {path} from the root")?;
        } else if *during == SEARCHING {
            // The sequential loop keeps no path, so as to cost nothing per node, and a second
            // search did not find the node within its time.
            write!(f, " at a node not found again within a second (a run with --parallel steal names it)")?;
        }
        write!(f, ": {panic}")
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Knob(error) => write!(f, "{error}"),
            RunError::Data(error) => write!(f, "{error}"),
            RunError::Pool(error) => write!(f, "{error}"),
            RunError::Watch(error) => write!(f, "{error}"),
            RunError::ModelPanicked(run) => write!(f, "{run}"),
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
            RunError::ModelPanicked(run) => Some(&run.panic),
        }
    }
}
