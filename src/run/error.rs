//! Why a run could not start or did not finish: the run layer's one error, each variant
//! wrapping the typed error of the layer it came from.

use super::parts::{PartError, ReplayError};
use crate::knobs::KnobError;
use crate::parallel::{ModelPanic, PoolError, RETRACE_LIMIT};
use crate::puzzles::DataError;
use crate::watch::WatchError;
use std::fmt;

/// [`PanickedRun::during`] the search.
pub(super) const SEARCHING: &str = "searching";
/// [`PanickedRun::during`] `Puzzle::models` and `component_names`, and the models'
/// `rule_names` and `max_depth` ([`super::family_code::build_models`]).
pub(super) const BUILDING_MODELS: &str = "building the models";
/// [`PanickedRun::during`] the time the kept solutions become text, drawings, checks and
/// the answer.
pub(super) const READING_SOLUTIONS: &str = "reading the solutions";
/// [`PanickedRun::during`] `estimate`'s probes and its timing search.
pub(super) const ESTIMATING: &str = "estimating";
/// [`PanickedRun::during`] the recording and timing of a tree for a scaling prediction.
pub(super) const MEASURING: &str = "measuring";
/// [`PanickedRun::during`] `split`'s listing of the frontier and its probes.
pub(super) const SPLITTING: &str = "splitting";
/// [`PanickedRun::during`] `watch`'s search and drawing.
pub(super) const WATCHING: &str = "watching";
/// [`PanickedRun::during`] `merge`'s replay of the parts' solutions into the report.
pub(super) const MERGING: &str = "merging";

/// [`PanickedRun::during`] `Puzzle::parse`, when an instance is loaded or prepared.
pub(super) const READING_DATA: &str = "reading the instance's data (`Puzzle::parse`)";
/// [`PanickedRun::during`] `Puzzle::config`, when knob values are checked or read.
pub(super) const READING_KNOBS: &str = "reading the knobs (`Puzzle::config`)";
/// [`PanickedRun::during`] `Puzzle::instance_from_argument`, when an instance argument is
/// not a file.
pub(super) const READING_ARGUMENT: &str = "reading an instance argument (`Puzzle::instance_from_argument`)";

/// [`PanickedRun::during`] `Puzzle::data_from_file`, reading a file in a family's own format.
pub(super) const READING_FILE: &str = "reading an instance file in the family's format (`Puzzle::data_from_file`)";

/// [`PanickedRun::strategy`] of the family's code called before any run (reading its data,
/// knobs or an argument): none, and the error names none.
pub(super) const BEFORE_ANY_RUN: &str = "";

/// [`PanickedRun::strategy`] of work done on the calling thread alone, outside `solve`'s
/// strategies (an estimate, a split, a merge, a watch, a measurement).
pub(super) const ON_THIS_THREAD: &str = "sequential x1";

/// Why a run (a solve, an estimate, a measurement, a watch) could not start, or (a model's
/// panic) did not finish.
#[derive(Debug)]
#[non_exhaustive]
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
    /// A search cannot be split: its first level already holds more subproblems than the
    /// cap, or it has no level.
    Split(String),
    /// A part of a split search could not be run (its plan does not fit this build's
    /// tree, or its counts overflow).
    Part(PartError),
    /// The parts' solutions do not replay on this build's tree.
    Replay(ReplayError),
    /// The settings ask for an optimisation (`--best`, `--at-least`, `--at-most`) that the
    /// family's model does not declare, or a target of the other sense.
    Objective(String),
    /// An operation passed the time limit it was given (`estimate --time-limit`).
    TimeLimit(String),
    /// The family's models break the model contract in a way seen before any search (more
    /// rules than the per-rule counters hold): the family's fault, as a panic of its code is.
    ModelContract(String),
}

/// A run ended by a panic of the family's code: its model during the search (every
/// worker was stopped, so the run ended within moments), the puzzle while it built the
/// models or read the solutions, or, before any run, its parser, its knob reader or its
/// reader of short arguments; in any command that runs the family's code.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PanickedRun {
    /// The family (`FAMILY` of its `Puzzle`).
    pub family: String,
    /// The component being searched, when the panic came from one.
    pub component: Option<String>,
    /// What the run was doing: `searching`, `building the models`, `reading the solutions`,
    /// `estimating`, `measuring`, `splitting`, `watching`, `merging`; or, before any run,
    /// which function of the family was reading what (`reading the knobs
    /// (`Puzzle::config`)`).
    pub during: &'static str,
    /// The strategy and thread count, as `steal x2`: `sequential x1` for the work a
    /// command does on its calling thread, `run-part x2` for a part's threads; empty for
    /// the family's code called before any run (`Puzzle::parse`, `config`,
    /// `instance_from_argument`).
    pub strategy: String,
    /// The panic: its message, source location and the node's path.
    pub panic: ModelPanic,
}

impl PanickedRun {
    /// The error of family `P` panicking while `during` in `component` (when one), run as
    /// `strategy`.
    pub(super) fn error<P: crate::puzzles::Puzzle>(
        component: Option<&str>,
        during: &'static str,
        strategy: &str,
        panic: ModelPanic,
    ) -> RunError {
        RunError::ModelPanicked(Box::new(PanickedRun {
            family: P::FAMILY.to_string(),
            component: component.map(str::to_string),
            during,
            strategy: strategy.to_string(),
            panic,
        }))
    }
}

impl fmt::Display for PanickedRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let PanickedRun { family, component, during, strategy, panic } = self;
        if panic.moves_do_not_replay {
            // Not a panic of the model: the engine's replay check stopped the search.
            write!(f, "the {family} family's moves do not replay while {during}")?;
        } else {
            write!(f, "the {family} family panicked while {during}")?;
        }
        if let Some(component) = component {
            write!(f, " component `{component}`")?;
        }
        if !strategy.is_empty() {
            write!(f, " ({strategy})")?;
        }
        if let Some(path) = &panic.path {
            write!(f, " at the node reached by the moves {path} from the root")?;
        } else if *during == SEARCHING && strategy.starts_with("sequential") {
            // The sequential loop keeps no path, so as to cost nothing per node, and a second
            // search that keeps one did not meet the same panic within its time.
            write!(
                f,
                " at a node a second search did not meet again within {} s (a run with --parallel steal names it)",
                RETRACE_LIMIT.as_secs()
            )?;
        }
        if panic.moves_do_not_replay {
            // The line says "moves do not replay" once: the check's own text starts so.
            let detail = panic.message.strip_prefix("moves do not replay: ").unwrap_or(&panic.message);
            return write!(f, ": {detail}");
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
            RunError::Split(message) => f.write_str(message),
            RunError::Part(error) => write!(f, "{error}"),
            RunError::Replay(error) => write!(f, "{error}"),
            RunError::Objective(message) | RunError::TimeLimit(message) | RunError::ModelContract(message) => {
                f.write_str(message)
            }
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
            RunError::Split(_) | RunError::Objective(_) | RunError::TimeLimit(_) | RunError::ModelContract(_) => None,
            RunError::Part(error) => Some(error),
            RunError::Replay(error) => Some(error),
        }
    }
}
