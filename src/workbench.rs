//! The entry point for a user's crate: register families beside the built-in ones, then
//! run the whole command line, or count nodes inside a criterion bench.

use crate::knobs::KnobValues;
use crate::puzzles::{DataError, Puzzle};
use crate::run;
use crate::run::instance::Instance;
use crate::search::{search_sequentially, Limits, NoCounters};
use serde_json::Value;
use std::process::ExitCode;

/// The workbench with a user's families registered beside the built-in ones.
///
/// `Workbench::new().family::<MyPuzzle>().run_cli()` is a complete `main`: `solve`,
/// `sweep`, `report`, `explain`, `estimate`, `watch` and `list` all know `MyPuzzle`.
///
/// It carries no state of its own: [`Workbench::family`] adds the family to the run
/// layer's process-wide registry ([`run::register`]), because every command that loads an
/// instance file must turn the family name written in it into a type, wherever it runs (a
/// sweep worker, a shard, `explain`'s reruns); `run::family` documents why that table is
/// global and why it is safe (append-only, idempotent, filled before a command runs).
#[derive(Debug, Default, Clone, Copy)]
pub struct Workbench;

impl Workbench {
    /// The workbench with the built-in families.
    pub fn new() -> Workbench {
        Workbench
    }

    /// Registers family `P` (see [`run::register`]).
    pub fn family<P: Puzzle + 'static>(self) -> Workbench {
        run::register::<P>();
        self
    }

    /// Parses the process's command line and runs the command, as the `backtrack-bench`
    /// binary does; returns its exit code.
    pub fn run_cli(self) -> ExitCode {
        crate::cli::main()
    }
}

/// An instance of family `P` (registered if it was not) from its `data` block, for code
/// that calls [`crate::run::solve`] directly.
pub fn instance_of<P: Puzzle + 'static>(data: Value) -> Result<Instance, DataError> {
    let family = run::register::<P>();
    family.validate(&data)?;
    Ok(Instance {
        source: P::FAMILY.to_string(),
        id: P::FAMILY.to_string(),
        title: String::new(),
        family,
        data,
        expected: None,
    })
}

/// Knob values from `name=value` pairs, for code that calls the library directly.
pub fn knob_values(pairs: &[(&str, &str)]) -> KnobValues {
    pairs.iter().map(|(name, value)| (name.to_string(), value.to_string())).collect()
}

/// Searches every component of `puzzle` sequentially and exhaustively with the knob
/// settings `knobs` (`name=value` pairs) and returns the number of nodes: the work of one
/// iteration of a criterion bench (`b.iter(|| count_nodes(&puzzle, &[("order", "plain")]))`).
///
/// # Panics
/// When a knob name or value is not one of the family's (a bench's own typo).
pub fn count_nodes<P: Puzzle>(puzzle: &P, knobs: &[(&str, &str)]) -> u64 {
    let config = run::read_knobs::<P>(&knob_values(knobs)).unwrap_or_else(|error| panic!("{error}"));
    let limits = Limits { solutions_to_keep: 0, ..Limits::exhaustive() };
    puzzle
        .models(&config)
        .into_iter()
        .map(|model| search_sequentially::<P::Model, NoCounters>(model, limits.clone()).stats.nodes)
        .sum()
}
