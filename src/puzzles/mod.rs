//! The puzzle families of the seed posts as models for the engine.
//!
//! Each family implements [`Puzzle`]: it reads its own `data` block, turns knob values into
//! a config of plain enums, and builds one [`Model`] per independent component (the four
//! grids of a Twenty Four Seven instance are four components). Families know no thread,
//! no file and no CLI; the run layer's registry (`run::family`) turns a family name into its
//! type.

pub mod answer_tally;
pub mod answer_type;
pub mod data;
pub mod grid;
pub mod hooks;
pub mod knapsack;
pub mod max_clique;
pub mod prime_grid;
pub mod primes;
pub mod rings;
pub mod twenty_four_seven;
pub mod view;

/// 0.1.0's `backtrack_bench::puzzles::knobs`: now [`crate::knobs`] and
/// [`crate::knob_enum`]. Kept here, not with the other old paths in `old_paths.rs`, so that
/// the models' module imports nothing of the run layer those paths lead to.
///
/// The types, functions and constants are deprecated aliases, which warn where they are
/// used; the trait `Knob` and the macro `knob_enum!` are re-exported as they are (rustc
/// warns for neither through a deprecated module).
#[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::knobs` and `backtrack_bench::knob_enum`")]
pub mod knobs {
    pub use crate::knob_enum;
    use crate::knobs as moved;
    pub use crate::knobs::Knob;

    /// Declares each name as a deprecated alias of the type of that name in `crate::knobs`.
    macro_rules! moved_type {
        ($($name:ident $(<$life:lifetime>)?),* $(,)?) => {$(
            #[doc = concat!("Now [`crate::knobs::", stringify!($name), "`].")]
            #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::knobs`, under the same name")]
            pub type $name $(<$life>)? = moved::$name $(<$life>)?;
        )*};
    }
    moved_type!(KnobValues, KnobSpec, KnobForm, KnobError, KnobReader<'a>);

    /// Now [`crate::knobs::check_specs`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::knobs::check_specs`")]
    pub fn check_specs(family: &str, specs: &[moved::KnobSpec]) -> Result<(), String> {
        moved::check_specs(family, specs)
    }

    /// Now [`crate::knobs::expand_values`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::knobs::expand_values`")]
    pub fn expand_values(spec: &moved::KnobSpec, values: &[&str], k_values: &[u32]) -> Vec<String> {
        moved::expand_values(spec, values, k_values)
    }

    /// Now [`crate::knobs::cross_product`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::knobs::cross_product`")]
    pub fn cross_product(
        base: &moved::KnobValues,
        varied: &[(&moved::KnobSpec, Vec<String>)],
    ) -> Vec<moved::KnobValues> {
        moved::cross_product(base, varied)
    }

    /// Now [`crate::knobs::every_combination`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::knobs::every_combination`")]
    pub fn every_combination(specs: &[moved::KnobSpec], k_values: &[u32]) -> Vec<moved::KnobValues> {
        moved::every_combination(specs, k_values)
    }
}

use crate::knobs::{KnobError, KnobSpec, KnobValues};
use crate::search::Model;
use answer_tally::AnswerTally;
use serde_json::Value;
use std::fmt;

/// A `data` block that does not describe a valid instance of its family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    /// Path of the offending key inside `data` (`grids[2].north`), empty for the block.
    pub key: String,
    /// What is wrong, and what was expected.
    pub message: String,
}

impl DataError {
    /// An error about `key`.
    pub fn new(key: impl Into<String>, message: impl Into<String>) -> DataError {
        DataError { key: key.into(), message: message.into() }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "data: {}", self.message)
        } else {
            write!(f, "data.{}: {}", self.key, self.message)
        }
    }
}

impl std::error::Error for DataError {}

/// An instance file in a family's own format (see [`Puzzle::FILE_EXTENSIONS`]) that the
/// family could not read: the 1-based line and what was wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileFormatError {
    /// 1-based line of the problem (0: the file as a whole, say an empty one).
    pub line: usize,
    /// What is wrong, and what was expected.
    pub message: String,
}

impl FileFormatError {
    /// An error at `line` (1-based; 0 for the whole file).
    pub fn new(line: usize, message: impl Into<String>) -> FileFormatError {
        FileFormatError { line, message: message.into() }
    }
}

impl fmt::Display for FileFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => write!(f, "{}", self.message),
            line => write!(f, "line {line}: {}", self.message),
        }
    }
}

impl std::error::Error for FileFormatError {}

/// One puzzle family: its instance data, its knobs and its models.
///
/// Required: what the family is (`FAMILY`, `KNOBS`, the types), its data (`parse`), its
/// knobs (`config`, `describe`), its tree (`models`) and what the answer needs of one
/// solution (`answer_key`; `()` when only the count matters). Everything else has a
/// default that works and can be overridden where the family has something better to say:
/// names `1`, `2`, ... for the components, a solution's `Debug` text, no drawing for
/// `watch`, no independent check, and the answer `null` (the run's counts stand alone).
pub trait Puzzle: Sized + Send + Sync {
    /// The family's name in instance files (`olympic_rings`, `hooks`, ...).
    const FAMILY: &'static str;
    /// The family's knobs, in the order records list them. Registration checks each
    /// default and value against `config` and `describe` (`run::register` refuses a family
    /// whose declarations disagree, naming the knob).
    const KNOBS: &'static [KnobSpec];
    /// Short command-line arguments that [`Puzzle::instance_from_argument`] accepts, as
    /// examples for help and `list` (`&["6x10"]`, `&["8", "12"]`); empty by default.
    /// Registration checks that each one gives valid data, except a pattern: a form with a
    /// `<placeholder>` (`"<N>"`, `"clq:<PATH>"`) is shown as it is and not tried.
    const SHORT_FORMS: &'static [&'static str] = &[];
    /// The knob settings, as plain enums.
    type Config: Clone + fmt::Debug + Send + Sync;
    /// The model the engine searches.
    type Model: Model;
    /// What the answer needs of one solution (for most families its answer value), counted
    /// over every solution of a component as it is found (see [`AnswerTally`]); `()` when
    /// the answer needs nothing of them.
    type AnswerKey: Ord + Clone + Send + fmt::Debug + 'static;

    /// Reads the family's `data` block.
    fn parse(data: &Value) -> Result<Self, DataError>;
    /// Turns knob values into a config (defaults for knobs not given).
    fn config(knobs: &KnobValues) -> Result<Self::Config, KnobError>;
    /// The knob values of `config`, one per entry of [`Puzzle::KNOBS`], in that order.
    fn describe(config: &Self::Config) -> Vec<(&'static str, String)>;
    /// One model per component, at its root state.
    fn models(&self, config: &Self::Config) -> Vec<Self::Model>;
    /// The answer key of `solution`, a solution of component `component`.
    fn answer_key(&self, component: usize, solution: &<Self::Model as Model>::Solution) -> Self::AnswerKey;

    /// The most solutions of one component whose answer keys [`Puzzle::answer`] reads: past
    /// it, the component's tally counts solutions without listing their keys, and
    /// [`Puzzle::answer_key`] is not asked (see `AnswerTally::listing_at_most`). By default
    /// there is no such limit.
    fn answer_keys_read_up_to(&self) -> u64 {
        u64::MAX
    }

    /// The answer key of the solution at `model`'s current node (a solution of component
    /// `component`), read from what the model already knows there, without building the
    /// solution; it must equal [`Puzzle::answer_key`] of `model.solution()`. `None` (the
    /// default): the run builds the solution and asks [`Puzzle::answer_key`].
    fn answer_key_here(&self, _component: usize, _model: &Self::Model) -> Option<Self::AnswerKey> {
        None
    }
    /// Names of the independent components, one per model of [`Puzzle::models`]. By
    /// default `1`, `2`, ...: as many as the models built with the default knobs (so a
    /// family whose component count depends on its knobs, or whose models are costly to
    /// build, names them itself).
    fn component_names(&self) -> Vec<String> {
        let count = Self::config(&KnobValues::new()).map_or(1, |config| self.models(&config).len());
        (1..=count).map(|number| number.to_string()).collect()
    }
    /// A solution as one line of text (the built-in grids: row-major digits, `0` = empty);
    /// by default the solution's `Debug` text.
    fn solution_text(&self, solution: &<Self::Model as Model>::Solution) -> String {
        format!("{solution:?}")
    }
    /// What a viewer may see of `model`'s current state; by default
    /// [`view::View::Nothing`], and `watch` then says the family draws nothing.
    fn view(&self, _model: &Self::Model) -> view::View {
        view::View::Nothing
    }
    /// A solution drawn for a person (several lines); by default its
    /// [`Puzzle::solution_text`].
    fn render(&self, solution: &<Self::Model as Model>::Solution) -> String {
        self.solution_text(solution)
    }
    /// Checks a solution of component `component` against the puzzle's rules as written,
    /// independently of the model's pruning code; the error says which rule fails. By
    /// default every solution passes (no independent check).
    fn verify(&self, _component: usize, _solution: &<Self::Model as Model>::Solution) -> Result<(), String> {
        Ok(())
    }
    /// The instance's answer (see `answer_type`) from the tallies of every solution of each
    /// component (not from the kept solutions, which are only a sample of them);
    /// `Value::Null` when it is not defined (no solution). When there are several
    /// solutions, a histogram of answers (see [`answer_tally::histogram`]). By default
    /// `Value::Null`: no answer beyond the solution count the report gives anyway.
    fn answer(&self, _tallies: &[AnswerTally<Self::AnswerKey, <Self::Model as Model>::Solution>]) -> Value {
        Value::Null
    }
    /// [`Puzzle::answer`] of the solutions listed per component (all of them, for the
    /// answer to be complete): for tests and for callers that hold every solution.
    fn answer_of_solutions(&self, solutions: &[Vec<<Self::Model as Model>::Solution>]) -> Value {
        let tallies: Vec<_> = solutions
            .iter()
            .enumerate()
            .map(|(component, found)| {
                AnswerTally::of(found, |solution| self.answer_key(component, solution))
                    .listing_at_most(self.answer_keys_read_up_to())
            })
            .collect();
        self.answer(&tallies)
    }
    /// The `data` block of the instance named by a short command-line argument (N-Queens:
    /// `12` for n = 12), consulted when the argument is neither a built-in short name nor a
    /// file; `None` (the default) when the family has no such short form.
    fn instance_from_argument(_text: &str) -> Option<Value> {
        None
    }
    /// File name extensions (lower case, without the dot: `&["clq"]`) of instance files
    /// written in the family's own format rather than as `puzzle-instance/v1` JSON. A path
    /// with one of them is read (with the same size cap and refusal of pipes as JSON
    /// instances) and handed to [`Puzzle::data_from_file`]; the instance's id is the file
    /// name without its extension. Empty (the default): the family reads JSON only.
    const FILE_EXTENSIONS: &'static [&'static str] = &[];
    /// The `data` block of an instance file in the family's own format (one of
    /// [`Puzzle::FILE_EXTENSIONS`]), from its text; the block then goes through
    /// [`Puzzle::parse`] as a JSON instance's does. The error names the line. The default
    /// refuses every file (a family without its own format is never asked).
    fn data_from_file(_text: &str) -> Result<Value, FileFormatError> {
        Err(FileFormatError::new(0, format!("the family `{}` reads no file format of its own", Self::FAMILY)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knobs::every_combination;

    /// Every combination of `P`'s knob values reads into a config that describes itself
    /// with the same values, in the order of `P::KNOBS`.
    fn assert_knob_values_round_trip<P: Puzzle>() {
        for knobs in every_combination(P::KNOBS, &[3]) {
            let config = P::config(&knobs).unwrap_or_else(|error| panic!("{error}"));
            let expected: Vec<(&str, String)> =
                P::KNOBS.iter().map(|spec| (spec.name, knobs[spec.name].clone())).collect();
            assert_eq!(P::describe(&config), expected, "{}", P::FAMILY);
        }
    }

    #[test]
    fn every_family_describes_each_knob_value_as_it_was_read() {
        assert_knob_values_round_trip::<rings::OlympicRings>();
        assert_knob_values_round_trip::<prime_grid::PrimeGrid>();
        assert_knob_values_round_trip::<hooks::Hooks>();
        assert_knob_values_round_trip::<twenty_four_seven::TwentyFourSeven>();
    }
}
