//! The family registry: the one place where a family name becomes a [`Puzzle`] type.
//!
//! Each family is one [`FamilyEntry`]: its name, its knobs and the functions, made for its
//! type by [`entry`], that validate, solve, watch and estimate it. Built-in families are
//! listed in [`BUILTIN`]; a user's crate adds its own with [`register`] (or
//! [`crate::Workbench::family`]). The registry sits above `solve`, `watch` and `probe`;
//! `puzzles` knows nothing of it.

use crate::puzzles::knobs::{KnobError, KnobSpec, KnobValues};
use crate::puzzles::{hooks, prime_grid, rings, twenty_four_seven, DataError, Puzzle, PuzzleVisitor};
use crate::solve::{RunError, RunReport};
use serde_json::Value;
use std::any::TypeId;
use std::fmt;
use std::sync::RwLock;

type WatchOutcome = Result<std::io::Result<crate::watch::WatchSummary>, crate::watch::WatchError>;
type EstimateOutcome = Result<Vec<crate::size_estimate::ComponentEstimate>, RunError>;
type MeasureOutcome = Result<Vec<crate::scaling::predict::Component>, RunError>;

/// One registered family: its name, knobs and the operations made for its [`Puzzle`] type.
pub struct FamilyEntry {
    name: &'static str,
    knobs: &'static [KnobSpec],
    puzzle_type: fn() -> TypeId,
    validate: fn(&Value) -> Result<(), DataError>,
    instance_from_argument: fn(&str) -> Option<Value>,
    solve: for<'a> fn(crate::solve::RunFamily<'a>) -> Result<RunReport, RunError>,
    watch: for<'a> fn(crate::watch::WatchFamily<'a>) -> WatchOutcome,
    estimate: for<'a> fn(crate::size_estimate::EstimateFamily<'a>) -> EstimateOutcome,
    check_knobs: fn(&KnobValues) -> Result<(), KnobError>,
    measure_components: for<'a> fn(crate::scaling_inputs::MeasureFamily<'a>) -> MeasureOutcome,
}

/// The entry of family `P`: its operations, monomorphised for `P`.
pub const fn entry<P: Puzzle + 'static>() -> FamilyEntry {
    FamilyEntry {
        name: P::FAMILY,
        knobs: P::KNOBS,
        puzzle_type: TypeId::of::<P>,
        validate: validate::<P>,
        instance_from_argument: P::instance_from_argument,
        solve: solve::<P>,
        watch: watch::<P>,
        estimate: estimate::<P>,
        check_knobs: check_knobs::<P>,
        measure_components: measure_components::<P>,
    }
}

fn check_knobs<P: Puzzle>(values: &KnobValues) -> Result<(), KnobError> {
    P::config(values).map(drop)
}

fn measure_components<P: Puzzle>(run: crate::scaling_inputs::MeasureFamily<'_>) -> MeasureOutcome {
    run.visit::<P>()
}

fn validate<P: Puzzle>(data: &Value) -> Result<(), DataError> {
    P::parse(data).map(|_| ())
}

fn solve<P: Puzzle>(run: crate::solve::RunFamily<'_>) -> Result<RunReport, RunError> {
    run.visit::<P>()
}

fn watch<P: Puzzle>(run: crate::watch::WatchFamily<'_>) -> WatchOutcome {
    run.visit::<P>()
}

fn estimate<P: Puzzle>(run: crate::size_estimate::EstimateFamily<'_>) -> EstimateOutcome {
    run.visit::<P>()
}

/// The built-in families, in the order `list` and the help show them. A new built-in
/// family is one line here.
pub static BUILTIN: [FamilyEntry; 4] = [
    entry::<rings::OlympicRings>(),
    entry::<prime_grid::PrimeGrid>(),
    entry::<hooks::Hooks>(),
    entry::<twenty_four_seven::TwentyFourSeven>(),
];

/// Families registered at run time by a user's crate, after the built-in ones.
static REGISTERED: RwLock<Vec<Family>> = RwLock::new(Vec::new());

/// A family: a small handle to its registered entry.
#[derive(Clone, Copy)]
pub struct Family(&'static FamilyEntry);

impl Family {
    /// Every family: the built-in ones, then those registered, in registration order.
    pub fn all() -> Vec<Family> {
        let mut families: Vec<Family> = BUILTIN.iter().map(Family).collect();
        families.extend(REGISTERED.read().unwrap_or_else(|poisoned| poisoned.into_inner()).iter().copied());
        families
    }

    /// The family called `name` in instance files.
    pub fn from_name(name: &str) -> Option<Family> {
        Family::all().into_iter().find(|family| family.name() == name)
    }

    /// The family's name in instance files.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// The family's knobs.
    pub fn knobs(self) -> &'static [KnobSpec] {
        self.0.knobs
    }

    /// Checks a `data` block with the family's parser.
    pub fn validate(self, data: &Value) -> Result<(), DataError> {
        (self.0.validate)(data)
    }

    /// The `data` block the family builds from a short command-line argument, if any.
    pub fn instance_from_argument(self, text: &str) -> Option<Value> {
        (self.0.instance_from_argument)(text)
    }

    pub(crate) fn solve(self, run: crate::solve::RunFamily<'_>) -> Result<RunReport, RunError> {
        (self.0.solve)(run)
    }

    pub(crate) fn watch(self, run: crate::watch::WatchFamily<'_>) -> WatchOutcome {
        (self.0.watch)(run)
    }

    pub(crate) fn estimate(self, run: crate::size_estimate::EstimateFamily<'_>) -> EstimateOutcome {
        (self.0.estimate)(run)
    }

    pub(crate) fn measure_components(self, run: crate::scaling_inputs::MeasureFamily<'_>) -> MeasureOutcome {
        (self.0.measure_components)(run)
    }

    /// Checks knob values against the family's knobs (names and values), as a run would,
    /// so that a command can refuse them before it prints or measures anything.
    pub fn check_knobs(self, values: &KnobValues) -> Result<(), KnobError> {
        (self.0.check_knobs)(values)
    }
}

/// Registers family `P` beside the built-in ones and returns its handle; registering a
/// family twice returns the first handle.
///
/// # Panics
/// When another family already has `P::FAMILY` as its name.
pub fn register<P: Puzzle + 'static>() -> Family {
    let mut registered = REGISTERED.write().unwrap_or_else(|poisoned| poisoned.into_inner());
    let existing = BUILTIN.iter().map(Family).chain(registered.iter().copied()).find(|f| f.name() == P::FAMILY);
    if let Some(family) = existing {
        assert!(
            (family.0.puzzle_type)() == TypeId::of::<P>(),
            "two families are called `{}`; family names must be unique",
            P::FAMILY
        );
        return family;
    }
    let family = Family(Box::leak(Box::new(entry::<P>())));
    registered.push(family);
    family
}

impl PartialEq for Family {
    fn eq(&self, other: &Family) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Family {}

impl std::hash::Hash for Family {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Family({})", self.name())
    }
}
