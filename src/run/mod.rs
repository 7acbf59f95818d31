//! The run layer: the one place where a run happens. An instance file names a family; the
//! family reads the instance's data and the knob text into its own types, once
//! ([`prepare`]); the prepared instance then solves or estimates (and, for the workbench's
//! own commands, measures, watches and runs cluster parts).
//!
//! Inside, every import points down:
//!
//! ```text
//! mod.rs (the entry points below)
//!   -> instance.rs (loading puzzle-instance/v1 files)  -> family.rs (the registry)
//!   -> prepared.rs (a family's types meet the operations)
//!   -> solve.rs, estimate.rs, measure.rs (each operation, generic over the family)
//!   -> family_code.rs (the family's code outside the search, each call caught)
//!   -> report.rs, worker_merge.rs, settings.rs, error.rs
//! ```
//!
//! Below the run layer are the engine (`search`), the families (`puzzles`), the parallel
//! strategies (`parallel`), the scaling arithmetic (`scaling`) and the terminal drawing
//! (`watch`); above it, the harness and the command line, which see only settings,
//! reports and records.

// The split search's model side: no semver promise (crate-private once its own re-exports
// are trimmed to what the crate uses).
mod collect;
mod error;
pub mod estimate;
pub mod family;
mod family_code;
pub mod instance;
pub(crate) mod measure;
mod optimum;
pub(crate) mod parts;
mod prepared;
pub mod program;
pub mod report;
pub mod settings;
mod solve;
pub(crate) mod thread_list;
mod worker_merge;

pub use collect::SolutionStream;
pub use error::{PanickedRun, RunError};
pub use estimate::{ComponentEstimate, EstimateRequest};
pub use family::{register, Family};
pub use instance::{Instance, InstanceError};
pub(crate) use measure::Calibration;
pub use prepared::{read_knobs, Prepared};
pub use program::{program_name, Program};
pub use report::{ComponentReport, ObjectiveReport, ParallelSummary, RuleReport, RunReport, WorkerTotals};
pub use settings::{RunSettings, SearchMode, Target};

use crate::knobs::KnobValues;
use crate::scaling::predict::Component;
use crate::watch::{WatchOptions, WatchSummary};
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;

/// Reads `instance`'s data and the knob text `knobs` into its family's types: the one
/// place knob text is parsed before a run. The result serves any number of operations.
pub fn prepare(instance: &Instance, knobs: &KnobValues) -> Result<Box<dyn Prepared>, RunError> {
    instance.family.prepare(&instance.data, knobs, &instance.id, &instance.source)
}

/// Runs `instance` with `settings`: [`prepare`], then [`Prepared::solve`]. The thread pool
/// is built before any clock starts.
pub fn solve(instance: &Instance, settings: &RunSettings) -> Result<RunReport, RunError> {
    prepare(instance, &settings.knobs)?.solve(settings)
}

/// [`solve`], writing every solution found to `stream` (one JSON line each).
pub fn solve_streaming(
    instance: &Instance,
    settings: &RunSettings,
    stream: &SolutionStream,
) -> Result<RunReport, RunError> {
    prepare(instance, &settings.knobs)?.solve_streaming(settings, Some(stream))
}

/// Estimates every component of `instance` with `knobs` as `request` says.
pub fn estimate(
    instance: &Instance,
    knobs: &KnobValues,
    request: &EstimateRequest,
) -> Result<Vec<ComponentEstimate>, RunError> {
    prepare(instance, knobs)?.estimate(request)
}

/// Each component of `instance` with `knobs`: its tree and its costs, measured as
/// `calibration` says, or in node counts only without one: for the workbench's own
/// commands, and its tests through `unstable::scaling::measure`.
pub(crate) fn measure(
    instance: &Instance,
    knobs: &KnobValues,
    calibration: Option<Calibration>,
) -> Result<Vec<Component>, RunError> {
    prepare(instance, knobs)?.measure(calibration)
}

/// Animates the search of every component of `instance` into `out`, until each ends, has
/// drawn `options.max_steps` frames, or `stop` is raised; the inner error is one of
/// writing to `out`.
pub(crate) fn watch(
    instance: &Instance,
    knobs: &KnobValues,
    options: &WatchOptions,
    out: &mut dyn Write,
    stop: &AtomicBool,
) -> Result<io::Result<WatchSummary>, RunError> {
    prepare(instance, knobs)?.watch(options, out, stop)
}
