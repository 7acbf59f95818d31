//! The entry point for a user's crate: register families beside the built-in ones, then
//! run the whole command line, or count nodes inside a criterion bench.

use crate::knobs::KnobValues;
use crate::puzzles::{DataError, Puzzle};
use crate::run;
use crate::run::instance::Instance;
use crate::run::Program;
use crate::search::{search_sequentially, Limits, NoCounters};
use serde_json::Value;
use std::process::ExitCode;

/// The workbench with a user's families registered beside the built-in ones, under the
/// user's own program name.
///
/// `Workbench::new().family::<MyPuzzle>().run_cli()` is a complete `main`: `solve`,
/// `sweep`, `report`, `explain`, `estimate`, `watch` and `list` all know `MyPuzzle`. A
/// binary that is about its own families names itself and leaves the built-in ones out:
///
/// ```no_run
/// # use backtrack_bench::Workbench;
/// # fn main() -> std::process::ExitCode {
/// Workbench::new()
///     .name("pentomino-bench")
///     .about("Pentomino tilings, counted node by node.")
///     .version(env!("CARGO_PKG_VERSION"))
///     .without_builtin_families()
///     // .family::<Pentominoes>()
///     .run_cli()
/// # }
/// ```
///
/// Help, usage, `--version`, `list` and every error line (`pentomino-bench: error: ...`)
/// then carry that name; help and `list` show the registered families first, with their
/// short instance forms (`Puzzle::SHORT_FORMS`).
///
/// [`Workbench::family`] adds the family to the run layer's process-wide registry at once
/// ([`run::register`]), because every command that loads an instance file must turn the
/// family name written in it into a type, wherever it runs (a sweep worker, a shard,
/// `explain`'s reruns); `run::family` documents why that table is global and why it is
/// safe (append-only, idempotent, filled before a command runs). The name, about text,
/// version and the withholding of the built-in families are kept here and made
/// process-wide in the same way by [`Workbench::run_cli`], just before the command runs
/// (`run::program` says why: every layer that talks to a person names the program).
#[derive(Debug, Clone)]
pub struct Workbench {
    name: Option<String>,
    about: Option<String>,
    version: Option<String>,
    builtin_families: bool,
}

impl Default for Workbench {
    fn default() -> Workbench {
        Workbench::new()
    }
}

impl Workbench {
    /// The workbench with the built-in families, called `backtrack-bench`.
    pub fn new() -> Workbench {
        Workbench { name: None, about: None, version: None, builtin_families: true }
    }

    /// Registers family `P` (see [`run::register`]): its knob defaults and values and its
    /// short forms are checked now.
    ///
    /// # Panics
    /// When `P`'s declarations are faulty (a default that is not one of its knob's values, a
    /// knob named like a command's own flag, a short form its `instance_from_argument`
    /// refuses): the message names the family and the knob or form.
    pub fn family<P: Puzzle + 'static>(self) -> Workbench {
        run::register::<P>();
        self
    }

    /// The program's name, in usage lines, `--version` and the prefix of every error the
    /// workbench writes (`name: error: ...`; a flag the parser refuses reads `error: ...`
    /// with the name in its usage line); default `backtrack-bench`.
    ///
    /// # Panics
    /// When `name` is empty or holds whitespace.
    pub fn name(mut self, name: impl Into<String>) -> Workbench {
        let name = name.into();
        assert!(
            !name.is_empty() && !name.contains(char::is_whitespace),
            "a program name is one word, as typed to run it; `{name}` is not"
        );
        self.name = Some(name);
        self
    }

    /// The one-line description at the top of `--help`; default: the workbench's own for
    /// `backtrack-bench`, else a line saying the program runs on the workbench.
    pub fn about(mut self, about: impl Into<String>) -> Workbench {
        self.about = Some(about.into());
        self
    }

    /// What `--version` prints after the name (pass `env!("CARGO_PKG_VERSION")` for your
    /// crate's); default: for a renamed program, the workbench version it is built on.
    pub fn version(mut self, version: impl Into<String>) -> Workbench {
        self.version = Some(version.into());
        self
    }

    /// Leaves the built-in families (olympic_rings, prime_grid, hooks, twenty_four_seven,
    /// knapsack, max_clique, and their instances rings, prime-grid, hooks7, 247) out: help, `list`
    /// and the known families show only the registered ones, and an instance of a built-in
    /// family is refused as not offered by this program (exit code 2). Running with no
    /// command, which sweeps the built-in instances, then asks for a command instead.
    pub fn without_builtin_families(mut self) -> Workbench {
        self.builtin_families = false;
        self
    }

    /// The program this workbench runs as: its name, about text and version.
    pub fn program(&self) -> Program {
        let mut program = Program::workbench();
        if let Some(name) = &self.name {
            program.name = name.clone();
        }
        program.about = self.about.clone();
        program.version = self.version.clone();
        program
    }

    /// Makes this workbench's name and family choice the process's (the program name its
    /// messages and help use, and whether the built-in families are offered), as [`Workbench::run_cli`] does before
    /// it parses anything; for a program that builds its own front end on the library.
    /// The name, about text and version are the first call's in a process; the built-in
    /// families stay withheld once any call withheld them.
    pub fn install(&self) {
        run::program::set_program(self.program());
        if !self.builtin_families {
            run::family::withhold_builtin_families();
        }
    }

    /// Parses the process's command line and runs the command, as the `backtrack-bench`
    /// binary does, under this workbench's name; returns its exit code. A panic that no run
    /// caught (outside the family's code, which every command runs inside a catch) prints
    /// one line naming the program ([`crate::cli::report_panics_as_bugs`]).
    ///
    /// The main thread's stack may grow to 64 MiB, as large as an engine worker's (the soft
    /// limit, `ulimit -s`, is raised to it where lower): a sequential search recurses once
    /// per level of the tree, and a user's model whose paths are tens of thousands of moves
    /// deep would overflow the usual 8 MiB (and abort the process) where a parallel run of
    /// the same model succeeds.
    pub fn run_cli(self) -> ExitCode {
        self.install();
        crate::cli::report_panics_as_bugs();
        crate::cli::raise_the_stack_limit();
        crate::cli::main()
    }
}

/// An instance of family `P` (registered if it was not) from its `data` block, for code
/// that calls [`crate::run::solve`] directly.
///
/// # Panics
///
/// Where [`run::register`] panics for `P` (a name taken, a fault in its declarations), or
/// where reading `data` panics in the family's own code.
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
