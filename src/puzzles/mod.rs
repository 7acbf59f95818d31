//! The puzzle families of the seed posts as models for the engine.
//!
//! Each family implements [`Puzzle`]: it reads its own `data` block, turns knob values into
//! a config of plain enums, and builds one [`Model`] per independent component (the four
//! grids of a Twenty Four Seven instance are four components). Families know no thread,
//! no file and no CLI; [`with_puzzle`] lets generic code reach a family by its name.

pub mod answer_type;
pub mod data;
pub mod grid;
pub mod hooks;
pub mod knobs;
pub mod prime_grid;
pub mod primes;
pub mod rings;
pub mod twenty_four_seven;
pub mod view;

use crate::search::Model;
use knobs::{KnobError, KnobSpec, KnobValues};
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

/// One puzzle family: its instance data, its knobs and its models.
pub trait Puzzle: Sized + Send + Sync {
    /// The family's name in instance files (`olympic_rings`, `hooks`, ...).
    const FAMILY: &'static str;
    /// The family's knobs, in the order records list them.
    const KNOBS: &'static [KnobSpec];
    /// The knob settings, as plain enums.
    type Config: Clone + fmt::Debug + Send + Sync;
    /// The model the engine searches.
    type Model: Model;

    /// Reads the family's `data` block.
    fn parse(data: &Value) -> Result<Self, DataError>;
    /// Turns knob values into a config (defaults for knobs not given).
    fn config(knobs: &KnobValues) -> Result<Self::Config, KnobError>;
    /// The knob values of `config`, one per entry of [`Puzzle::KNOBS`], in that order.
    fn describe(config: &Self::Config) -> Vec<(&'static str, String)>;
    /// Names of the independent components (one entry for single-grid families).
    fn component_names(&self) -> Vec<String>;
    /// One model per component, at its root state.
    fn models(&self, config: &Self::Config) -> Vec<Self::Model>;
    /// A solution as one line of text (row-major digits for grids, `0` = empty).
    fn solution_text(&self, solution: &<Self::Model as Model>::Solution) -> String;
    /// What a viewer may see of `model`'s current state.
    fn view(&self, model: &Self::Model) -> view::View;
    /// A solution drawn for a person (several lines).
    fn render(&self, solution: &<Self::Model as Model>::Solution) -> String;
    /// Checks a solution of component `component` against the puzzle's rules as written,
    /// independently of the model's pruning code; the error says which rule fails.
    fn verify(&self, component: usize, solution: &<Self::Model as Model>::Solution) -> Result<(), String>;
    /// The instance's answer (see `answer_type`) from the solutions of each component;
    /// `Value::Null` when it is not defined (no solution). When a component has several
    /// solutions, an array with the answer of each combination.
    fn answer(&self, solutions: &[Vec<<Self::Model as Model>::Solution>]) -> Value;
}

/// The families this build knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Olympic Rings (Perl Weekly Challenge 043).
    OlympicRings,
    /// 3x3 prime grid (seed post 003).
    PrimeGrid,
    /// Hooks #7 (Jane Street, February 2021).
    Hooks,
    /// Twenty Four Seven (Jane Street, December 2020).
    TwentyFourSeven,
}

impl Family {
    /// Every family.
    pub const ALL: [Family; 4] = [Family::OlympicRings, Family::PrimeGrid, Family::Hooks, Family::TwentyFourSeven];

    /// The family's name in instance files.
    pub fn name(self) -> &'static str {
        struct Name;
        impl PuzzleVisitor for Name {
            type Output = &'static str;
            fn visit<P: Puzzle>(self) -> &'static str {
                P::FAMILY
            }
        }
        with_puzzle(self, Name)
    }

    /// The family called `name` in instance files.
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|family| family.name() == name)
    }

    /// The family's knobs.
    pub fn knobs(self) -> &'static [KnobSpec] {
        struct Knobs;
        impl PuzzleVisitor for Knobs {
            type Output = &'static [KnobSpec];
            fn visit<P: Puzzle>(self) -> &'static [KnobSpec] {
                P::KNOBS
            }
        }
        with_puzzle(self, Knobs)
    }

    /// Checks knob values against the family's knobs (names and values), as a run would,
    /// so that a command can refuse them before it prints or measures anything.
    pub fn check_knobs(self, values: &KnobValues) -> Result<(), KnobError> {
        struct Check<'a>(&'a KnobValues);
        impl PuzzleVisitor for Check<'_> {
            type Output = Result<(), KnobError>;
            fn visit<P: Puzzle>(self) -> Self::Output {
                P::config(self.0).map(|_| ())
            }
        }
        with_puzzle(self, Check(values))
    }
}

/// Generic code that runs on one family's types (see [`with_puzzle`]).
pub trait PuzzleVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with the family's [`Puzzle`] type.
    fn visit<P: Puzzle>(self) -> Self::Output;
}

/// Runs `visitor` with the [`Puzzle`] type of `family`: the one place where a family name
/// becomes a type.
pub fn with_puzzle<V: PuzzleVisitor>(family: Family, visitor: V) -> V::Output {
    match family {
        Family::OlympicRings => visitor.visit::<rings::OlympicRings>(),
        Family::PrimeGrid => visitor.visit::<prime_grid::PrimeGrid>(),
        Family::Hooks => visitor.visit::<hooks::Hooks>(),
        Family::TwentyFourSeven => visitor.visit::<twenty_four_seven::TwentyFourSeven>(),
    }
}
