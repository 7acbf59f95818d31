//! Settings given as text, one vocabulary for all of them: a family's knobs (`name=value`,
//! read against its [`KnobSpec`]s into plain enums) and the run's own knobs (`--parallel`,
//! `--counters`, `--state`, `--affinity`, `--mode`: each a type with its [`KnobForm`]s and a
//! `FromStr`). Either way a bad value is one [`KnobError`] that lists what is allowed.
//!
//! This module is the crate's ground floor for settings: families, the parallel layer and
//! the run layer all read their text through it, and it knows none of them.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

/// Knob values as given by the user (command line, sweep spec): name -> value text.
pub type KnobValues = BTreeMap<String, String>;

/// One knob of a family, as `--help` and the error messages describe it.
#[derive(Debug, Clone, Copy)]
pub struct KnobSpec {
    /// Name on the command line and in sweep specs (`order`, `rules`, ...).
    pub name: &'static str,
    /// The accepted values; a value ending in `:K` takes a positive integer.
    pub values: &'static [&'static str],
    /// The value used when the knob is not given (the fastest setting found).
    pub default: &'static str,
    /// What the knob changes.
    pub help: &'static str,
}

impl KnobSpec {
    /// A knob spec whose default is checked when the crate compiles: in a `const`, a
    /// `default` that is not one of `values` (`"mod6"` where the values are
    /// `mod3 | mod4`) stops the build, naming neither more nor less than that. A default
    /// `head:K` form (`periodic:8`) matches the value `periodic:K`. (A spec written as a
    /// struct literal is checked when its family is registered, by [`check_specs`].)
    ///
    /// ```compile_fail
    /// use backtrack_engine::knobs::KnobSpec;
    /// const ORDER: KnobSpec = KnobSpec::new("order", &["mod3", "mod4"], "mod6", "Which residue first.");
    /// ```
    pub const fn new(
        name: &'static str,
        values: &'static [&'static str],
        default: &'static str,
        help: &'static str,
    ) -> KnobSpec {
        let mut index = 0;
        while index < values.len() {
            if value_admits(values[index], default) {
                return KnobSpec { name, values, default, help };
            }
            index += 1;
        }
        panic!("a knob's default is not one of its values")
    }
}

/// Whether `value` as declared (`leaves`, or `periodic:K` for any positive K) admits the
/// text `given`; a `const fn`, so that [`KnobSpec::new`] can check its default at compile
/// time.
const fn value_admits(value: &str, given: &str) -> bool {
    let (value, given) = (value.as_bytes(), given.as_bytes());
    let parameter = value.len() >= 2 && value[value.len() - 2] == b':' && value[value.len() - 1] == b'K';
    let head = if parameter { value.len() - 1 } else { value.len() };
    if given.len() < head || (!parameter && given.len() != head) {
        return false;
    }
    let mut index = 0;
    while index < head {
        if value[index] != given[index] {
            return false;
        }
        index += 1;
    }
    if !parameter {
        return true;
    }
    // `head:` then a positive integer.
    let mut digits = 0;
    let mut non_zero = false;
    while index < given.len() {
        if !given[index].is_ascii_digit() {
            return false;
        }
        non_zero |= given[index] != b'0';
        digits += 1;
        index += 1;
    }
    digits > 0 && digits <= 9 && non_zero
}

/// Checks a family's knob specs as declared: names unique and non-empty, each knob with at
/// least one value, no value twice, and each default one of its knob's values. The error
/// names `family` and the knob. Registration runs it (`run::register`).
pub fn check_specs(family: &str, specs: &[KnobSpec]) -> Result<(), String> {
    for (index, spec) in specs.iter().enumerate() {
        let knob = spec.name;
        if knob.is_empty() || knob.starts_with('-') || knob.contains(char::is_whitespace) {
            return Err(format!("family `{family}`: knob name `{knob}` must be a word (it becomes `--{knob}`)"));
        }
        if specs[..index].iter().any(|earlier| earlier.name == knob) {
            return Err(format!("family `{family}`: knob `{knob}` is declared twice"));
        }
        if spec.values.is_empty() {
            return Err(format!("family `{family}`: knob `{knob}` has no values"));
        }
        if let Some(value) =
            spec.values.iter().enumerate().find_map(|(at, value)| spec.values[..at].contains(value).then_some(value))
        {
            return Err(format!("family `{family}`: knob `{knob}` lists the value `{value}` twice"));
        }
        if !spec.values.iter().any(|value| value_admits(value, spec.default)) {
            return Err(format!(
                "family `{family}`: the default `{}` of knob `{knob}` is not one of its values ({})",
                spec.default,
                spec.values.join(" | ")
            ));
        }
    }
    Ok(())
}

/// One accepted form of a run knob's value, with a one-line explanation for `--help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnobForm {
    /// The form as typed (`depth:D` stands for `depth:` followed by a number).
    pub form: &'static str,
    /// What it does, in one line.
    pub help: &'static str,
}

/// A setting given as text that is not one the reader accepts: the one error of this
/// vocabulary, for family knobs and run knobs alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnobError {
    /// The family whose knob was read; `None` for a run knob (`--parallel`, ...).
    pub family: Option<&'static str>,
    /// What was wrong, with the allowed values.
    pub message: String,
}

impl KnobError {
    /// An error about a family's knob.
    pub fn of_family(family: &'static str, message: impl Into<String>) -> KnobError {
        KnobError { family: Some(family), message: message.into() }
    }

    /// `text` is none of the `forms` of run knob `what` (`parallel strategy`, ...);
    /// `reason`, when given, says what in particular was wrong.
    pub fn not_a_form(what: &str, text: &str, forms: &[KnobForm], reason: Option<&str>) -> KnobError {
        let reason = reason.map(|reason| format!(" ({reason})")).unwrap_or_default();
        let forms: Vec<&str> = forms.iter().map(|form| form.form).collect();
        KnobError {
            family: None,
            message: format!("invalid {what} `{text}`{reason}; expected one of: {}", forms.join(", ")),
        }
    }
}

impl fmt::Display for KnobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.family {
            Some(family) => write!(f, "{family}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for KnobError {}

/// A knob's settings as a plain enum that knows its values: it lists them, parses one and
/// names itself, so that a family's `config` and `describe` take one line per knob.
/// Enums of plain settings declare themselves with `knob_enum!`, which spells each value
/// once; a knob whose values take a parameter implements the trait by hand, its value
/// declared `head:K` and `parse` given the integer after the `:`:
///
/// ```
/// use backtrack_engine::knobs::{Knob, KnobReader, KnobSpec, KnobValues};
///
/// /// When the connectivity of the empty cells is checked.
/// #[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// enum Connectivity {
///     /// Never.
///     Off,
///     /// At every K-th depth (K a positive integer).
///     Every(u32),
/// }
///
/// impl Knob for Connectivity {
///     const VALUES: &'static [&'static str] = &["off", "every:K"];
///
///     fn parse(head: &str, parameter: Option<u32>) -> Option<Connectivity> {
///         match (head, parameter) {
///             ("off", None) => Some(Connectivity::Off),
///             ("every", Some(k)) => Some(Connectivity::Every(k)),
///             _ => None,
///         }
///     }
///
///     fn name(self) -> String {
///         match self {
///             Connectivity::Off => "off".to_string(),
///             Connectivity::Every(k) => format!("every:{k}"),
///         }
///     }
/// }
///
/// const KNOBS: &[KnobSpec] = &[KnobSpec::new(
///     "connectivity",
///     Connectivity::VALUES,
///     "every:4",
///     "When the empty cells' connectivity is checked.",
/// )];
///
/// let read = |text: &str| {
///     let given: KnobValues = [("connectivity".to_string(), text.to_string())].into();
///     KnobReader::new("mine", KNOBS, &given).unwrap().knob::<Connectivity>("connectivity")
/// };
/// assert_eq!(read("every:3"), Ok(Connectivity::Every(3)));
/// assert_eq!(read("off"), Ok(Connectivity::Off));
/// assert_eq!(Connectivity::Every(3).name(), "every:3");
/// // K must be a positive integer; the error lists the values.
/// let error = read("every:0").unwrap_err();
/// assert!(error.message.contains("allowed: off, every:K (K an integer from 1 to 4294967295)"), "{}", error.message);
/// assert!(read("every").is_err());
/// ```
pub trait Knob: Sized + Copy {
    /// The values the knob accepts, in the order help lists them; a value ending in `:K`
    /// takes a positive integer.
    const VALUES: &'static [&'static str];

    /// The setting that a value split into head and parameter names (see
    /// [`KnobReader::read`]), or `None` when it names none.
    fn parse(head: &str, parameter: Option<u32>) -> Option<Self>;

    /// The value that names this setting, as `describe` and the records write it.
    fn name(self) -> String;
}

/// Declares a knob as an enum of plain settings, each written `Variant = "value"` once
/// (deriving `Debug`, `Clone`, `Copy`, `PartialEq`, `Eq`), and implements [`Knob`] for it,
/// the values in declaration order: the built-in families declare their knobs this way, and
/// a family in your own crate can too. The enum then reads with [`KnobReader::knob`] and
/// describes itself with [`Knob::name`]:
///
/// ```
/// use backtrack_engine::knob_enum;
/// use backtrack_engine::knobs::{Knob, KnobReader, KnobSpec, KnobValues};
///
/// knob_enum! {
///     /// How a queen is tested against the others.
///     pub enum Checks {
///         /// One `bool` per line.
///         Array = "array",
///         /// One bit per line.
///         Bitmask = "bitmask",
///     }
/// }
///
/// const KNOBS: &[KnobSpec] =
///     &[KnobSpec { name: "checks", values: Checks::VALUES, default: "bitmask", help: "Conflict tests." }];
///
/// let given: KnobValues = [("checks".to_string(), "array".to_string())].into();
/// let reader = KnobReader::new("nqueens", KNOBS, &given).unwrap();
/// assert_eq!(reader.knob::<Checks>("checks"), Ok(Checks::Array));
/// assert_eq!(Checks::Bitmask.name(), "bitmask");
/// let wrong: KnobValues = [("checks".to_string(), "bits".to_string())].into();
/// let error = KnobReader::new("nqueens", KNOBS, &wrong).unwrap().knob::<Checks>("checks").unwrap_err();
/// assert!(error.message.contains("allowed: array, bitmask"), "{}", error.message);
/// ```
#[macro_export]
macro_rules! knob_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident = $value:literal),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis enum $name {
            $($(#[$variant_meta])* $variant,)+
        }

        impl $crate::knobs::Knob for $name {
            const VALUES: &'static [&'static str] = &[$($value),+];

            fn parse(head: &str, parameter: Option<u32>) -> Option<$name> {
                match (head, parameter) {
                    $(($value, None) => Some($name::$variant),)+
                    _ => None,
                }
            }

            fn name(self) -> String {
                match self {
                    $($name::$variant => $value,)+
                }
                .to_string()
            }
        }
    };
}

/// Declares a run knob (a setting of the run itself, not of a family: `--counters`,
/// `--state`, `--affinity`, `--mode`) as an enum of plain settings, each written once as
/// `Variant = "form" => "help"`: it implements `FORMS` (what `--help` lists), `name`,
/// `Display` and `FromStr` (whose error, a [`KnobError`], names `what` and lists the
/// forms). The enum's own attributes (derives, `#[default]`, serde) pass through; it need
/// not be `Copy` (`name` then takes the value). A run knob with a parameter (`--parallel
/// depth:D`) implements these by hand.
///
/// ```
/// backtrack_engine::run_knob_enum! {
///     /// How the workers wait.
///     #[derive(Debug, Clone, Copy, PartialEq, Eq)]
///     pub enum Waiting("waiting mode") {
///         /// Spin on the queue.
///         Spin = "spin" => "spin on the queue",
///         /// Sleep until woken.
///         Sleep = "sleep" => "sleep until woken",
///     }
/// }
///
/// assert_eq!("sleep".parse::<Waiting>(), Ok(Waiting::Sleep));
/// assert_eq!(Waiting::Spin.to_string(), "spin");
/// assert_eq!(Waiting::FORMS.len(), 2);
/// assert!("nap".parse::<Waiting>().unwrap_err().message.contains("waiting mode"));
/// ```
#[macro_export]
macro_rules! run_knob_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident($what:literal) {
            $($(#[$variant_meta:meta])* $variant:ident = $form:literal => $help:literal,)+
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $($(#[$variant_meta])* $variant,)+
        }

        impl $name {
            /// Every accepted form, in the order `--help` lists them.
            pub const FORMS: &'static [$crate::knobs::KnobForm] =
                &[$($crate::knobs::KnobForm { form: $form, help: $help },)+];

            /// The form this value is written as (in flags, specs and CSV columns).
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $form,)+
                }
            }
        }

        // Both match by reference and build values afresh, so that the enum need not be `Copy`.
        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(match self {
                    $($name::$variant => $form,)+
                })
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::knobs::KnobError;

            fn from_str(text: &str) -> ::std::result::Result<$name, $crate::knobs::KnobError> {
                match text {
                    $($form => Ok($name::$variant),)+
                    _ => Err($crate::knobs::KnobError::not_a_form($what, text, $name::FORMS, None)),
                }
            }
        }
    };
}

/// Reads knob values against a family's specs: unknown names and values are errors that
/// list what is allowed.
pub struct KnobReader<'a> {
    family: &'static str,
    specs: &'static [KnobSpec],
    values: &'a KnobValues,
}

impl<'a> KnobReader<'a> {
    /// A reader for `values`; fails on a knob name the family does not have.
    pub fn new(family: &'static str, specs: &'static [KnobSpec], values: &'a KnobValues) -> Result<Self, KnobError> {
        for name in values.keys() {
            if !specs.iter().any(|spec| spec.name == name) {
                let known: Vec<&str> = specs.iter().map(|spec| spec.name).collect();
                return Err(KnobError::of_family(
                    family,
                    format!("has no knob `{name}`; its knobs are: {}", known.join(", ")),
                ));
            }
        }
        Ok(KnobReader { family, specs, values })
    }

    /// The value of knob `name` (its default when not given), parsed by `parse`, which
    /// receives the value's head (before any `:`) and its integer parameter if it has one.
    pub fn read<T>(&self, name: &str, parse: impl Fn(&str, Option<u32>) -> Option<T>) -> Result<T, KnobError> {
        let spec =
            self.specs.iter().find(|spec| spec.name == name).expect("knob read by its own family is in its specs");
        let text = self.values.get(name).map(String::as_str).unwrap_or(spec.default);
        let (head, parameter) = match text.split_once(':') {
            Some((head, number)) => match number.parse::<u32>() {
                Ok(k) if k > 0 => (head, Some(k)),
                _ => return Err(self.invalid(spec, text)),
            },
            None => (text, None),
        };
        parse(head, parameter).ok_or_else(|| self.invalid(spec, text))
    }

    /// The setting of knob `name` (its default when not given).
    pub fn knob<T: Knob>(&self, name: &str) -> Result<T, KnobError> {
        self.read(name, T::parse)
    }

    fn invalid(&self, spec: &KnobSpec, text: &str) -> KnobError {
        let parameter_note = if spec.values.iter().any(|value| value.ends_with(":K")) {
            " (K an integer from 1 to 4294967295)"
        } else {
            ""
        };
        KnobError::of_family(
            self.family,
            format!(
                "`{text}` is not a value of knob `{}`; allowed: {}{parameter_note}",
                spec.name,
                spec.values.join(", ")
            ),
        )
    }
}

/// The values of a knob to try: `periodic:K` becomes one value per K (the default's K first).
pub fn expand_values(spec: &KnobSpec, values: &[&str], k_values: &[u32]) -> Vec<String> {
    let mut expanded = Vec::new();
    for value in values {
        match value.strip_suffix(":K") {
            Some(head) => {
                let default_k = spec.default.strip_prefix(head).and_then(|rest| rest.strip_prefix(':'));
                match default_k {
                    Some(k) => expanded.push(format!("{head}:{k}")),
                    None => expanded.extend(k_values.iter().map(|k| format!("{head}:{k}"))),
                }
            }
            None => expanded.push(value.to_string()),
        }
    }
    let mut seen = HashSet::new();
    expanded.retain(|value| seen.insert(value.clone()));
    expanded
}

/// Every combination of `varied` knob values on top of `base`: each knob in turn takes
/// each of its values (knobs not in `varied` keep their value in `base`).
pub fn cross_product(base: &KnobValues, varied: &[(&KnobSpec, Vec<String>)]) -> Vec<KnobValues> {
    let mut product = vec![base.clone()];
    for (knob, values) in varied {
        product = product
            .iter()
            .flat_map(|partial| {
                values.iter().map(move |value| {
                    let mut knobs = partial.clone();
                    knobs.insert(knob.name.to_string(), value.clone());
                    knobs
                })
            })
            .collect();
    }
    product
}

/// Every combination of every value of `specs`, a `:K` value once per K in `k_values`.
pub fn every_combination(specs: &[KnobSpec], k_values: &[u32]) -> Vec<KnobValues> {
    let varied: Vec<(&KnobSpec, Vec<String>)> =
        specs.iter().map(|spec| (spec, expand_values(spec, spec.values, k_values))).collect();
    cross_product(&KnobValues::new(), &varied)
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::run_knob_enum! {
        /// A run knob that is not `Copy`: the macro's `Display` and `FromStr` must not need it.
        #[derive(Debug, PartialEq)]
        enum Waiting("waiting mode") {
            Spin = "spin" => "spin on the queue",
            Sleep = "sleep" => "sleep until woken",
        }
    }

    #[test]
    fn a_run_knob_need_not_be_copy() {
        assert_eq!("sleep".parse::<Waiting>(), Ok(Waiting::Sleep));
        assert_eq!(Waiting::Spin.to_string(), "spin");
        assert_eq!(Waiting::Sleep.name(), "sleep");
        assert!("nap".parse::<Waiting>().unwrap_err().message.contains("waiting mode"));
    }

    knob_enum! {
        /// A knob of two plain settings.
        enum Speed {
            /// The first value.
            Slow = "slow",
            /// The second value.
            Fast = "fast",
        }
    }

    knob_enum! {
        /// The last value without a trailing comma, as an enum may be written.
        enum Side {
            Left = "left",
            Right = "right"
        }
    }

    #[test]
    fn a_knob_enum_takes_its_last_value_with_or_without_a_comma() {
        assert_eq!(Side::VALUES, ["left", "right"]);
        assert_eq!(Side::parse("right", None), Some(Side::Right));
    }

    #[test]
    fn a_knob_enum_lists_parses_and_names_each_value_once() {
        assert_eq!(Speed::VALUES, ["slow", "fast"]);
        for (value, setting) in Speed::VALUES.iter().zip([Speed::Slow, Speed::Fast]) {
            assert_eq!(Speed::parse(value, None), Some(setting));
            assert_eq!(setting.name(), *value);
        }
        assert_eq!(Speed::parse("fast", Some(2)), None, "a plain value takes no parameter");
        assert_eq!(Speed::parse("medium", None), None);
    }

    const SPECS: &[KnobSpec] =
        &[KnobSpec { name: "check", values: &["leaves", "periodic:K"], default: "leaves", help: "" }];

    fn parse(head: &str, k: Option<u32>) -> Option<u32> {
        match (head, k) {
            ("leaves", None) => Some(0),
            ("periodic", Some(k)) => Some(k),
            _ => None,
        }
    }

    #[test]
    fn a_default_outside_the_values_is_refused_naming_family_and_knob() {
        let bad = [KnobSpec { name: "order", values: &["mod3", "mod4"], default: "mod6", help: "" }];
        assert_eq!(
            check_specs("pentomino", &bad),
            Err("family `pentomino`: the default `mod6` of knob `order` is not one of its values (mod3 | mod4)".into())
        );
        assert_eq!(check_specs("t", SPECS), Ok(()));
        let periodic = [KnobSpec { name: "check", values: &["leaves", "periodic:K"], default: "periodic:8", help: "" }];
        assert_eq!(check_specs("t", &periodic), Ok(()));
        for default in ["periodic:0", "periodic:", "periodic:x", "periodic"] {
            let spec = [KnobSpec { default, ..periodic[0] }];
            assert!(check_specs("t", &spec).is_err(), "{default}");
        }
        let twice = [SPECS[0], SPECS[0]];
        assert_eq!(check_specs("t", &twice), Err("family `t`: knob `check` is declared twice".into()));
    }

    #[test]
    fn the_const_constructor_accepts_a_default_among_the_values() {
        const SPEC: KnobSpec = KnobSpec::new("check", &["leaves", "periodic:K"], "periodic:16", "");
        assert_eq!(SPEC.default, "periodic:16");
    }

    #[test]
    fn default_parameter_and_errors() {
        let empty = KnobValues::new();
        assert_eq!(KnobReader::new("t", SPECS, &empty).unwrap().read("check", parse), Ok(0));
        let given: KnobValues = [("check".to_string(), "periodic:8".to_string())].into();
        assert_eq!(KnobReader::new("t", SPECS, &given).unwrap().read("check", parse), Ok(8));
        let bad: KnobValues = [("check".to_string(), "periodic:0".to_string())].into();
        let error = KnobReader::new("t", SPECS, &bad).unwrap().read("check", parse).unwrap_err();
        assert!(error.message.contains("allowed: leaves, periodic:K"), "{}", error.message);
        let unknown: KnobValues = [("speed".to_string(), "max".to_string())].into();
        assert!(KnobReader::new("t", SPECS, &unknown).is_err());
    }
}
