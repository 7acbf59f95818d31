//! The family registry: the one place where a family name becomes a [`Puzzle`] type.
//!
//! Each family is one `FamilyEntry`: its name, its knobs, and the functions made for its
//! type by `entry` that check its data and knobs and prepare an instance of it for the
//! run layer's operations (see `prepared`). Built-in families are listed in
//! `BUILTIN_FAMILIES`; a user's crate adds its own with [`register`] (or
//! [`crate::Workbench::family`]). `puzzles` knows nothing of it.
//!
//! Why the registered families live in a process-wide table rather than in a value passed
//! down: an instance file names its family as text, and every command that loads one (a
//! sweep's worker, a shard, `explain`'s reruns, the loader's error listing the known
//! families) must turn that text into a type. Registration happens once, at start-up,
//! before any command runs; it is append-only and idempotent, so a reader never sees a
//! family disappear or change.
//!
//! A user's binary may also withhold the built-in families (`withhold_builtin_families`):
//! the same reasoning makes that a process-wide switch, thrown once at start-up and never
//! back, so that every command (and the loader's "not offered" error) sees the same set.
//! Families are listed registered first, then the built-in ones: a user's binary shows
//! its own families before those it merely carries.

use super::error::{RunError, BEFORE_ANY_RUN, READING_ARGUMENT, READING_DATA, READING_FILE, READING_KNOBS};
use super::family_code::catch_family;
use super::prepared::{self, Prepared};
use crate::knobs::{KnobSpec, KnobValues};
use crate::puzzles::{
    hooks, knapsack, max_clique, prime_grid, rings, twenty_four_seven, DataError, FileFormatError, Puzzle,
};
use serde_json::Value;
use std::any::TypeId;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;

/// What preparing an instance of a family takes: its data, the knob text, and the instance's
/// id and source for the reports.
type PrepareFn = fn(&Value, &KnobValues, &str, &str) -> Result<Box<dyn Prepared>, RunError>;

/// One registered family: its name, knobs and the functions made for its [`Puzzle`] type.
pub(crate) struct FamilyEntry {
    name: &'static str,
    knobs: &'static [KnobSpec],
    short_forms: &'static [&'static str],
    puzzle_type: fn() -> TypeId,
    check_data: fn(&Value) -> Result<(), RunError>,
    instance_from_argument: fn(&str) -> Result<Option<Value>, RunError>,
    file_extensions: &'static [&'static str],
    data_from_file: fn(&str) -> Result<Result<Value, FileFormatError>, RunError>,
    check_knobs: fn(&KnobValues) -> Result<(), RunError>,
    prepare: PrepareFn,
    /// Whether the family's model may declare an objective (`Model::OPTIMISES`).
    optimises: bool,
}

/// The entry of family `P`: its functions, monomorphised for `P`. Each call into `P`'s code
/// runs inside a catch: a panic there is the family's, returned as
/// [`RunError::ModelPanicked`] naming the family and its function.
pub(crate) const fn entry<P: Puzzle + 'static>() -> FamilyEntry {
    FamilyEntry {
        name: P::FAMILY,
        knobs: P::KNOBS,
        short_forms: P::SHORT_FORMS,
        puzzle_type: TypeId::of::<P>,
        check_data: check_data::<P>,
        instance_from_argument: instance_from_argument::<P>,
        file_extensions: P::FILE_EXTENSIONS,
        data_from_file: data_from_file::<P>,
        check_knobs: check_knobs::<P>,
        prepare: prepared::prepare::<P>,
        optimises: <P::Model as crate::search::Model>::OPTIMISES,
    }
}

fn check_data<P: Puzzle>(data: &Value) -> Result<(), RunError> {
    catch_family::<P, _>(READING_DATA, BEFORE_ANY_RUN, || P::parse(data).map(drop))?.map_err(RunError::Data)
}

fn instance_from_argument<P: Puzzle>(text: &str) -> Result<Option<Value>, RunError> {
    catch_family::<P, _>(READING_ARGUMENT, BEFORE_ANY_RUN, || P::instance_from_argument(text))
}

fn data_from_file<P: Puzzle>(text: &str) -> Result<Result<Value, FileFormatError>, RunError> {
    catch_family::<P, _>(READING_FILE, BEFORE_ANY_RUN, || P::data_from_file(text))
}

fn check_knobs<P: Puzzle>(values: &KnobValues) -> Result<(), RunError> {
    catch_family::<P, _>(READING_KNOBS, BEFORE_ANY_RUN, || prepared::read_knobs::<P>(values).map(drop))?
        .map_err(RunError::Knob)
}

/// The built-in families, in the order `list` and the help show them. A new built-in
/// family is one line here.
pub(crate) static BUILTIN_FAMILIES: [FamilyEntry; 6] = [
    entry::<rings::OlympicRings>(),
    entry::<prime_grid::PrimeGrid>(),
    entry::<hooks::Hooks>(),
    entry::<twenty_four_seven::TwentyFourSeven>(),
    entry::<knapsack::Knapsack>(),
    entry::<max_clique::MaxClique>(),
];

/// Families registered at run time by a user's crate (see the module's note for why this
/// table is process-wide).
static REGISTERED: RwLock<Vec<Family>> = RwLock::new(Vec::new());

/// Whether the built-in families are offered (see `withhold_builtin_families`).
static BUILTINS_OFFERED: AtomicBool = AtomicBool::new(true);

/// Stops offering the built-in families in this process: they leave help, `list` and the
/// known families, and an instance of one is refused as not offered by this program. For a
/// user's binary that is about its own families only ([`crate::Workbench`]); made once,
/// before a command runs, and never undone (see the module's note).
pub(crate) fn withhold_builtin_families() {
    BUILTINS_OFFERED.store(false, Ordering::Relaxed);
}

/// Whether this process offers the built-in families (it does unless a user's binary
/// withheld them).
pub(crate) fn builtin_families_offered() -> bool {
    BUILTINS_OFFERED.load(Ordering::Relaxed)
}

/// A family: a small handle to its registered entry.
#[derive(Clone, Copy)]
pub struct Family(&'static FamilyEntry);

impl Family {
    /// Every family offered: those registered, in registration order, then the built-in
    /// ones unless they are withheld.
    pub fn all() -> Vec<Family> {
        let mut families = Family::registered();
        if builtin_families_offered() {
            families.extend(BUILTIN_FAMILIES.iter().map(Family));
        }
        families
    }

    /// The families registered by a user's crate, in registration order.
    pub fn registered() -> Vec<Family> {
        REGISTERED.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    /// The family called `name` in instance files, among those offered.
    pub fn from_name(name: &str) -> Option<Family> {
        Family::all().into_iter().find(|family| family.name() == name)
    }

    /// Whether `name` is a built-in family that this program withholds (for the error
    /// that says so rather than calling it unknown).
    pub fn is_withheld(name: &str) -> bool {
        !builtin_families_offered() && BUILTIN_FAMILIES.iter().any(|entry| entry.name == name)
    }

    /// The family's name in instance files.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// The family's knobs.
    pub fn knobs(self) -> &'static [KnobSpec] {
        self.0.knobs
    }

    /// The short command-line arguments the family declares as examples of its instances
    /// (`Puzzle::SHORT_FORMS`), for help and `list`.
    pub fn short_forms(self) -> &'static [&'static str] {
        self.0.short_forms
    }

    /// Checks a `data` block with the family's parser, as the loader does: a refusal is
    /// [`RunError::Data`], a panic in the parser [`RunError::ModelPanicked`].
    pub fn check_data(self, data: &Value) -> Result<(), RunError> {
        (self.0.check_data)(data)
    }

    /// Checks a `data` block with the family's parser, for library code
    /// ([`crate::instance_of`]).
    ///
    /// # Panics
    /// When the parser panics, with the message [`Family::check_data`] returns.
    pub fn validate(self, data: &Value) -> Result<(), DataError> {
        match self.check_data(data) {
            Ok(()) => Ok(()),
            Err(RunError::Data(error)) => Err(error),
            Err(other) => panic!("{other}"),
        }
    }

    /// The `data` block the family builds from a short command-line argument, if any; a
    /// panic in its `instance_from_argument` is [`RunError::ModelPanicked`].
    pub fn instance_from_argument(self, text: &str) -> Result<Option<Value>, RunError> {
        (self.0.instance_from_argument)(text)
    }

    /// The file name extensions of the family's own instance format
    /// (`Puzzle::FILE_EXTENSIONS`).
    pub fn file_extensions(self) -> &'static [&'static str] {
        self.0.file_extensions
    }

    /// The `data` block of an instance file in the family's own format
    /// (`Puzzle::data_from_file`): the family's refusal inside, a panic of its code outside.
    pub fn data_from_file(self, text: &str) -> Result<Result<Value, FileFormatError>, RunError> {
        (self.0.data_from_file)(text)
    }

    /// The family that reads files with extension `extension` (any case) in its own
    /// format, if one does.
    pub fn for_extension(extension: &str) -> Option<Family> {
        let extension = extension.to_ascii_lowercase();
        Family::all().into_iter().find(|family| family.file_extensions().iter().any(|known| *known == extension))
    }

    /// Checks knob values against the family's knobs (names and values), as a run would,
    /// so that a command can refuse them before it prints or measures anything: a refusal
    /// is [`RunError::Knob`], a panic in the family's `config` [`RunError::ModelPanicked`].
    pub fn check_knobs(self, values: &KnobValues) -> Result<(), RunError> {
        (self.0.check_knobs)(values)
    }

    /// Whether the family's model may declare an objective, with some knobs: a sweep
    /// refuses a search for the best solution of a family that never does before anything
    /// runs (a run of it would only fail).
    pub fn optimises(self) -> bool {
        self.0.optimises
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
/// family twice returns the first handle. The family's knobs and short forms are checked
/// first (`check_family`), so that a mistyped default fails here, naming the family and
/// the knob, and not later as if the user had typed it.
///
/// # Panics
/// When another family already has `P::FAMILY` as its name, `check_family` finds a fault
/// in `P`'s declarations, or one of its short forms is a built-in instance's name or an
/// argument a family registered before it takes.
pub fn register<P: Puzzle + 'static>() -> Family {
    let mut registered = REGISTERED.write().unwrap_or_else(|poisoned| poisoned.into_inner());
    let existing =
        BUILTIN_FAMILIES.iter().map(Family).chain(registered.iter().copied()).find(|f| f.name() == P::FAMILY);
    if let Some(family) = existing {
        let builtin = BUILTIN_FAMILIES.iter().any(|entry| entry.name == P::FAMILY);
        assert!(
            (family.0.puzzle_type)() == TypeId::of::<P>(),
            "two families are called `{}`{}; family names must be unique",
            P::FAMILY,
            // An instance file names its family, and the same file may go to this program
            // and to `backtrack-bench`: a name means one family everywhere.
            if builtin { " (a built-in family's name, reserved even where a workbench withholds them)" } else { "" }
        );
        return family;
    }
    if let Err(fault) = check_family::<P>().and_then(|()| check_short_forms_free::<P>(&registered)) {
        // Released first: a test that expects this panic must not poison the registry.
        drop(registered);
        panic!("{fault}");
    }
    let family = Family(Box::leak(Box::new(entry::<P>())));
    registered.push(family);
    family
}

/// Checks that none of `P`'s short forms (but a `<pattern>`) is a built-in instance's
/// name or an argument a family registered before it (in `registered`) takes: an argument
/// goes to the first family that takes it, so such a form would never reach `P`, while
/// help listed it as `P`'s. Built-in names are reserved even where a workbench withholds
/// them, as built-in family names are.
fn check_short_forms_free<P: Puzzle>(registered: &[Family]) -> Result<(), String> {
    for form in P::SHORT_FORMS.iter().filter(|form| !form.contains('<')) {
        if super::instance::BUILTIN_INSTANCES.iter().any(|(name, _, _)| name == form) {
            return Err(format!(
                "family `{}`: its short form `{form}` is a built-in instance's name (reserved even where a \
                 workbench withholds them); choose another",
                P::FAMILY
            ));
        }
        let taken_by = registered.iter().find(|family| matches!(family.instance_from_argument(form), Ok(Some(_))));
        if let Some(earlier) = taken_by {
            return Err(format!(
                "family `{}`: its short form `{form}` is taken by family `{}`, registered before it (an argument \
                 goes to the first family that takes it); choose another",
                P::FAMILY,
                earlier.name()
            ));
        }
    }
    Ok(())
}

/// The flags (and argument ids) of the commands that take knobs (`solve`, `watch`,
/// `estimate`, `explain`, `split`): a knob becomes a flag of each, so a knob of one of these
/// names could never be given, and every command refuses to start. Registration refuses
/// such a knob, so that a family's own test finds it. The command-line layer's tests keep
/// the list complete.
#[rustfmt::skip]
pub(crate) const COMMAND_FLAG_NAMES: &[&str] = &[
    "affinity", "all", "aspect", "at-least", "at-most", "at_least", "at_most", "best", "cluster", "compare",
    "cores", "counters", "delay", "first", "help", "incumbent", "instance", "json", "max-steps", "max_steps",
    "method", "no-rule-counts", "no_rule_counts", "node-limit", "node_limit", "out", "parallel", "parts", "plain",
    "predict", "probes", "profile", "radius", "repeats", "seed", "slots", "solutions", "state", "strategy",
    "threads", "time-limit", "time_limit", "version",
];

/// Checks what family `P` declares, as registration does: its knob specs (see
/// [`crate::knobs::check_specs`]), that its `config` reads every knob's default and each of
/// its values (a `:K` value with K = 2) and `describe` gives that value back, and that each
/// of its `SHORT_FORMS` (but a `<pattern>`) is an argument its `instance_from_argument`
/// turns into valid data.
/// The error names the family and the knob or short form.
pub(crate) fn check_family<P: Puzzle>() -> Result<(), String> {
    let family = P::FAMILY;
    crate::knobs::check_specs(family, P::KNOBS)?;
    if let Some(spec) = P::KNOBS.iter().find(|spec| COMMAND_FLAG_NAMES.contains(&spec.name)) {
        return Err(format!(
            "family `{family}`: its knob `{}` has the name of a command's own flag (`--{}`), so it could never be \
             given and every command would refuse to start; rename the knob",
            spec.name, spec.name
        ));
    }
    let read = |values: &KnobValues| P::config(values).map_err(|error| format!("family `{family}`: {}", error.message));
    let defaults =
        read(&KnobValues::new()).map_err(|error| format!("{error} (reading the defaults declared in its KNOBS)"))?;
    check_described::<P>(&defaults, None)?;
    for spec in P::KNOBS {
        for value in spec.values {
            let value = match value.strip_suffix(":K") {
                Some(head) => format!("{head}:2"),
                None => value.to_string(),
            };
            let values = KnobValues::from([(spec.name.to_string(), value.clone())]);
            let config = read(&values).map_err(|error| {
                format!("{error} (knob `{}` lists `{value}` among its values but `config` refuses it)", spec.name)
            })?;
            check_described::<P>(&config, Some((spec.name, &value)))?;
        }
    }
    // A form with a `<placeholder>` is a pattern for help (`<N>`, `clq:<PATH>`), not an
    // argument: nothing to check.
    for form in P::SHORT_FORMS.iter().filter(|form| !form.contains('<')) {
        let data = P::instance_from_argument(form).ok_or_else(|| {
            format!("family `{family}`: its short form `{form}` is not accepted by its `instance_from_argument`")
        })?;
        P::parse(&data)
            .map_err(|error| format!("family `{family}`: its short form `{form}` gives bad data: {error}"))?;
    }
    Ok(())
}

/// That `describe(config)` lists every knob once, in `KNOBS` order, and gives `knob`'s
/// value back when one was read.
fn check_described<P: Puzzle>(config: &P::Config, knob: Option<(&str, &str)>) -> Result<(), String> {
    let described = P::describe(config);
    let names: Vec<&str> = described.iter().map(|(name, _)| *name).collect();
    let declared: Vec<&str> = P::KNOBS.iter().map(|spec| spec.name).collect();
    if names != declared {
        return Err(format!(
            "family `{}`: `describe` names the knobs [{}] but KNOBS declares [{}]",
            P::FAMILY,
            names.join(", "),
            declared.join(", ")
        ));
    }
    if let Some((name, value)) = knob {
        let given_back = described.iter().find(|(described, _)| *described == name).map(|(_, value)| value.as_str());
        if given_back != Some(value) {
            return Err(format!(
                "family `{}`: knob `{name}` read as `{value}` is described as `{}`; `describe` must give each value \
                 back as it was read",
                P::FAMILY,
                given_back.unwrap_or_default()
            ));
        }
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_family_passes_the_registration_checks() {
        assert_eq!(check_family::<rings::OlympicRings>(), Ok(()));
        assert_eq!(check_family::<prime_grid::PrimeGrid>(), Ok(()));
        assert_eq!(check_family::<hooks::Hooks>(), Ok(()));
        assert_eq!(check_family::<twenty_four_seven::TwentyFourSeven>(), Ok(()));
    }
}
