//! The family registry: the one place where a family name becomes a [`Puzzle`] type.
//!
//! Each family is one [`FamilyEntry`]: its name, its knobs, and the functions made for its
//! type by [`entry`] that check its data and knobs and prepare an instance of it for the
//! run layer's operations (see `prepared`). Built-in families are listed in
//! [`BUILTIN_FAMILIES`]; a user's crate adds its own with [`register`] (or
//! [`crate::Workbench::family`]). `puzzles` knows nothing of it.
//!
//! Why the registered families live in a process-wide table rather than in a value passed
//! down: an instance file names its family as text, and every command that loads one (a
//! sweep's worker, a shard, `explain`'s reruns, the loader's error listing the known
//! families) must turn that text into a type. Registration happens once, at start-up,
//! before any command runs; it is append-only and idempotent, so a reader never sees a
//! family disappear or change.

use super::error::RunError;
use super::prepared::{self, Prepared};
use crate::knobs::{KnobError, KnobSpec, KnobValues};
use crate::puzzles::{hooks, prime_grid, rings, twenty_four_seven, DataError, Puzzle};
use serde_json::Value;
use std::any::TypeId;
use std::fmt;
use std::sync::RwLock;

/// What preparing an instance of a family takes: its data, the knob text, and the instance's
/// id and source for the reports.
type PrepareFn = fn(&Value, &KnobValues, &str, &str) -> Result<Box<dyn Prepared>, RunError>;

/// One registered family: its name, knobs and the functions made for its [`Puzzle`] type.
pub struct FamilyEntry {
    name: &'static str,
    knobs: &'static [KnobSpec],
    puzzle_type: fn() -> TypeId,
    validate: fn(&Value) -> Result<(), DataError>,
    instance_from_argument: fn(&str) -> Option<Value>,
    check_knobs: fn(&KnobValues) -> Result<(), KnobError>,
    prepare: PrepareFn,
}

/// The entry of family `P`: its functions, monomorphised for `P`.
pub const fn entry<P: Puzzle + 'static>() -> FamilyEntry {
    FamilyEntry {
        name: P::FAMILY,
        knobs: P::KNOBS,
        puzzle_type: TypeId::of::<P>,
        validate: validate::<P>,
        instance_from_argument: P::instance_from_argument,
        check_knobs: check_knobs::<P>,
        prepare: prepared::prepare::<P>,
    }
}

fn validate<P: Puzzle>(data: &Value) -> Result<(), DataError> {
    P::parse(data).map(drop)
}

fn check_knobs<P: Puzzle>(values: &KnobValues) -> Result<(), KnobError> {
    prepared::read_knobs::<P>(values).map(drop)
}

/// The built-in families, in the order `list` and the help show them. A new built-in
/// family is one line here.
pub static BUILTIN_FAMILIES: [FamilyEntry; 4] = [
    entry::<rings::OlympicRings>(),
    entry::<prime_grid::PrimeGrid>(),
    entry::<hooks::Hooks>(),
    entry::<twenty_four_seven::TwentyFourSeven>(),
];

/// Families registered at run time by a user's crate, after the built-in ones (see the
/// module's note for why this table is process-wide).
static REGISTERED: RwLock<Vec<Family>> = RwLock::new(Vec::new());

/// A family: a small handle to its registered entry.
#[derive(Clone, Copy)]
pub struct Family(&'static FamilyEntry);

impl Family {
    /// Every family: the built-in ones, then those registered, in registration order.
    pub fn all() -> Vec<Family> {
        let mut families: Vec<Family> = BUILTIN_FAMILIES.iter().map(Family).collect();
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

    /// Checks knob values against the family's knobs (names and values), as a run would,
    /// so that a command can refuse them before it prints or measures anything.
    pub fn check_knobs(self, values: &KnobValues) -> Result<(), KnobError> {
        (self.0.check_knobs)(values)
    }

    /// Reads `data` and `knobs` into the family's types, once, for any number of
    /// operations; `instance` and `source` label the reports.
    pub(super) fn prepare(
        self,
        data: &Value,
        knobs: &KnobValues,
        instance: &str,
        source: &str,
    ) -> Result<Box<dyn Prepared>, RunError> {
        (self.0.prepare)(data, knobs, instance, source)
    }
}

/// Registers family `P` beside the built-in ones and returns its handle; registering a
/// family twice returns the first handle.
///
/// # Panics
/// When another family already has `P::FAMILY` as its name.
pub fn register<P: Puzzle + 'static>() -> Family {
    let mut registered = REGISTERED.write().unwrap_or_else(|poisoned| poisoned.into_inner());
    let existing =
        BUILTIN_FAMILIES.iter().map(Family).chain(registered.iter().copied()).find(|f| f.name() == P::FAMILY);
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
