//! A prepared instance: a family's `data` block and knob text, each read once into the
//! family's own types, ready for every operation of the run layer (solve, estimate,
//! measure, watch) without reading them again.
//!
//! [`Prepared`] is the one place where a family's type meets the operations: each method
//! forwards to the operation's generic function, compiled for the family's type. Adding an
//! operation is its own file with one generic function, plus its method here (declared on
//! the trait, forwarded in the one `impl`).

use super::collect::SolutionStream;
use super::error::{
    PanickedRun, RunError, BEFORE_ANY_RUN, BUILDING_MODELS, ON_THIS_THREAD, READING_DATA, READING_KNOBS, WATCHING,
};
use super::estimate::{estimate_puzzle, ComponentEstimate, EstimateRequest};
use super::family_code::{build_models, catch_family, too_many_rules};
use super::measure::{measure_puzzle, Calibration};
use super::optimum::Goal;
use super::parts::{self, AssembleInput, PartOutcome, PartRequest, SplitListing, SplitRequest};
use super::report::RunReport;
use super::settings::RunSettings;
use super::solve::{pool_for, solve_puzzle, Labels};
use crate::knobs::{KnobError, KnobValues};
use crate::puzzles::Puzzle;
use crate::scaling::predict::Component;
use crate::watch::{watch_puzzle, WatchError, WatchOptions, WatchSummary};
use serde_json::Value;
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;

/// Keeps [`Prepared`] the run layer's own to implement: its operations for the workbench's
/// commands take types that are crate-private, so no implementation outside could exist,
/// and sealing says so where the compiler checks it.
mod sealed {
    pub trait Sealed {}
}

/// An instance whose data and knobs have been read into its family's types, as
/// [`super::prepare`] returns it; sealed (implemented by the run layer only).
pub trait Prepared: Send + Sync + sealed::Sealed {
    /// The family's name in instance files.
    fn family(&self) -> &'static str;
    /// Runs the search under `settings` (its knobs were read when this was prepared). The
    /// pool is built before any clock starts.
    fn solve(&self, settings: &RunSettings) -> Result<RunReport, RunError> {
        self.solve_streaming(settings, None)
    }
    /// [`Prepared::solve`], writing every solution found to `stream` when given.
    fn solve_streaming(&self, settings: &RunSettings, stream: Option<&SolutionStream>) -> Result<RunReport, RunError>;
    /// Whether `settings`' mode and target fit the models these knobs build, as a run
    /// checks them first: an error names what does not ([`RunError::Objective`], a search
    /// for the best solution of models without objective), without searching anything.
    fn check_goal(&self, _settings: &RunSettings) -> Result<(), RunError> {
        Ok(())
    }
    /// Estimates each component's tree size and time.
    fn estimate(&self, request: &EstimateRequest) -> Result<Vec<ComponentEstimate>, RunError>;
    /// Each component's recorded tree and measured costs, for a scaling prediction. The
    /// workbench's own machinery (its types are crate-private): hidden, with no promise.
    #[doc(hidden)]
    fn measure(&self, calibration: Option<Calibration>) -> Result<Vec<Component>, RunError>;
    /// Animates the search into `out` until it ends, its steps run out or `stop` is raised.
    /// Hidden as `measure` is, as are the split search's three below.
    #[doc(hidden)]
    fn watch(
        &self,
        options: &WatchOptions,
        out: &mut dyn Write,
        stop: &AtomicBool,
    ) -> Result<io::Result<WatchSummary>, RunError>;
    /// Lists the frontier to split the search at, with an estimate of each subproblem.
    #[doc(hidden)]
    fn split(&self, request: &SplitRequest) -> Result<SplitListing, RunError>;
    /// Searches the subproblems of one part.
    #[doc(hidden)]
    fn run_part(&self, request: &PartRequest<'_>) -> Result<PartOutcome, RunError>;
    /// The report of a split search from what its lister and parts found.
    #[doc(hidden)]
    fn assemble(&self, input: &AssembleInput<'_>) -> Result<RunReport, RunError>;
}

/// The prepared instance of family `P`.
struct Ready<P: Puzzle> {
    puzzle: P,
    config: P::Config,
    instance: String,
    source: String,
}

/// Reads knob text into `P`'s config: the one place a family's knobs are parsed (for a
/// run, a registry check, or a bench's [`crate::count_nodes`]).
pub fn read_knobs<P: Puzzle>(knobs: &KnobValues) -> Result<P::Config, KnobError> {
    P::config(knobs)
}

/// Reads `data` and `knobs` into family `P`'s types; `instance` and `source` label reports.
/// A panic in the family's `parse` or `config` is returned as the family's.
pub(super) fn prepare<P: Puzzle + 'static>(
    data: &Value,
    knobs: &KnobValues,
    instance: &str,
    source: &str,
) -> Result<Box<dyn Prepared>, RunError> {
    let puzzle = catch_family::<P, _>(READING_DATA, BEFORE_ANY_RUN, || P::parse(data))?.map_err(RunError::Data)?;
    let config =
        catch_family::<P, _>(READING_KNOBS, BEFORE_ANY_RUN, || read_knobs::<P>(knobs))?.map_err(RunError::Knob)?;
    Ok(Box::new(Ready { puzzle, config, instance: instance.to_string(), source: source.to_string() }))
}

impl<P: Puzzle> sealed::Sealed for Ready<P> {}

impl<P: Puzzle> Prepared for Ready<P> {
    fn family(&self) -> &'static str {
        P::FAMILY
    }

    fn solve_streaming(&self, settings: &RunSettings, stream: Option<&SolutionStream>) -> Result<RunReport, RunError> {
        let pool = pool_for(settings).map_err(RunError::Pool)?;
        let labels = Labels { instance: &self.instance, source: &self.source };
        solve_puzzle(&self.puzzle, &self.config, labels, settings, &pool, stream)
    }

    fn check_goal(&self, settings: &RunSettings) -> Result<(), RunError> {
        let built = build_models(&self.puzzle, &self.config, BEFORE_ANY_RUN)?;
        // `Goal::of` asks the model for its objective: the family's code, whose panic is its own.
        catch_family::<P, _>(BUILDING_MODELS, BEFORE_ANY_RUN, || Goal::of::<P>(built.models.first(), settings))?
            .map(|_| ())
    }

    fn estimate(&self, request: &EstimateRequest) -> Result<Vec<ComponentEstimate>, RunError> {
        estimate_puzzle(&self.puzzle, &self.config, request)
    }

    fn measure(&self, calibration: Option<Calibration>) -> Result<Vec<Component>, RunError> {
        measure_puzzle(&self.puzzle, &self.config, calibration)
    }

    fn watch(
        &self,
        options: &WatchOptions,
        out: &mut dyn Write,
        stop: &AtomicBool,
    ) -> Result<io::Result<WatchSummary>, RunError> {
        watch_puzzle(&self.puzzle, &self.config, options, out, stop).map_err(|error| match error {
            WatchError::ModelPanicked { component, panic } => {
                let during = if component.is_some() { WATCHING } else { BUILDING_MODELS };
                PanickedRun::error::<P>(component.as_deref(), during, ON_THIS_THREAD, panic)
            }
            WatchError::TooManyRules { rules } => too_many_rules::<P>(rules),
            other => RunError::Watch(other),
        })
    }

    fn split(&self, request: &SplitRequest) -> Result<SplitListing, RunError> {
        parts::split::split_puzzle(&self.puzzle, &self.config, request)
    }

    fn run_part(&self, request: &PartRequest<'_>) -> Result<PartOutcome, RunError> {
        parts::part::run_part_puzzle(&self.puzzle, &self.config, request)
    }

    fn assemble(&self, input: &AssembleInput<'_>) -> Result<RunReport, RunError> {
        let labels = parts::assemble::Labels { instance: &self.instance, source: &self.source };
        parts::assemble::assemble_puzzle(&self.puzzle, &self.config, labels, input)
    }
}
