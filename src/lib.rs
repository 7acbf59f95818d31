//! backtrack-bench: a workbench for backtracking puzzle solvers.
//!
//! It answers, with exact counts and measured times, which pruning ideas pay off and why a
//! parallel search is sometimes slower than the sequential one. The crate is layered; every
//! import points down, from the floors at the top to the ground floor:
//!
//! - **Front**: `cli` (flags parsed once into typed run settings, one file per command)
//!   and [`Workbench`], the entry point for a user's own families; [`prelude`], the
//!   stable surface for a family author in one import; [`testing`], the parity helpers a
//!   family's tests call.
//! - **Harness**: `harness` (sweeps, CSV records, reports, plots) and `explain` (why a
//!   parallel run is slower); they see run settings and reports, never a board.
//! - **Cluster files**: `cluster`, one search split across machines as files: the plan,
//!   the parts' files, their checks and merge, the shared incumbent of a branch and bound.
//!   It stands on the run layer and knows no puzzle type: families enter through
//!   `run::parts`, which knows no file of the cluster's.
//! - **Run**: [`run`], the one place where a run happens. An instance file names a family;
//!   the family registry ([`run::family`]) turns the name into a type, the family reads the
//!   instance's data and the knob text into its own types once ([`run::prepare`]), and the
//!   prepared instance solves, estimates, measures or watches. [`run::RunSettings`] holds
//!   the run knobs, [`run::RunReport`] what a run measured. `run::parts` is the part of
//!   a split search that runs a family's models (split, run a part, assemble).
//! - **Drawing**: `watch`, terminal frames of a search step by step (knows no file).
//! - **Models**: [`puzzles`], the families of the seed posts (and max clique, knapsack)
//!   as models, each knob a plain enum (they know no thread and no file format beyond their
//!   own `data` block); `format`, numbers as people read them.
//! - **Engine** (the crate `backtrack-engine`, re-exported here under the same paths):
//!   [`parallel`], strategies that run any model on many threads, with per-worker
//!   accounting (they know no puzzle); [`search`], the depth-first engine over the
//!   [`search::Model`] trait, with per-rule and per-depth counters that compile away when
//!   off (it knows no puzzle and no thread); [`knobs`], the one vocabulary for settings
//!   given as text.
//! - **Ground**: `scaling`, the predicted speedup of a strategy from one measured tree
//!   (pure arithmetic); `statistics`, medians with bootstrap intervals and the adaptive
//!   repeat rule; `machine_guard`, whether other processes used the CPUs while something
//!   was timed (read from `/proc`); `fnv`, the stable hash of configuration ids and
//!   instance labels; `files`, reading a given file under a cap and replacing a written one
//!   atomically (for the harness and the cluster plans alike); `environment`, the machine
//!   and build a run was measured on; `stderr_line`, lines to a person on standard error
//!   that a closed standard error does not turn into a panic.
//!
//! # What is stable
//!
//! What this documentation shows is the public API, with semver's promise: [`prelude`]
//! and the items it names; the engine's [`search`], [`parallel`] and [`knobs`]; the
//! families' contract and the built-in families ([`puzzles`]); the run entry points and
//! their types ([`run`]); the parity helpers ([`testing`]); [`Workbench`], [`instance_of`],
//! [`knob_values`], [`count_nodes`] and [`report_panics_as_bugs`]. The paths of 0.1.0 that
//! moved stay as deprecated aliases for a version (`CHANGELOG.md`), except those of modules
//! made crate-private in 0.2.0 (`cli::main`, `cli::report_panics_as_bugs`,
//! `cluster::check::merged_against_sequential`), whose new paths `CHANGELOG.md` gives.
//!
//! The modules named in code spans above without a link (`cli`, `harness`, `explain`,
//! `cluster`, `scaling`, `statistics`, `machine_guard`, `format`, `watch`) are the
//! workbench's own machinery and crate-private; what the crate's own tests, examples and
//! benches need of them is re-exported under `backtrack_bench::unstable`, hidden from this
//! documentation, with no semver promise.
//!
//! # Your own search
//!
//! Implement [`search::Model`] (the tree: moves, do/undo, rules that prune) and
//! [`puzzles::Puzzle`] (the family: its `data` block, knobs and models), then run it through
//! the same engine, strategies and counters as the built-in families. A complete `main` is
//! `Workbench::new().family::<MyPuzzle>().run_cli()`, or, for a binary under its own name
//! without the built-in families, `Workbench::new().name("my-bench").version(..)
//! .without_builtin_families().family::<MyPuzzle>().run_cli()`; see `docs/library.md` and
//! `examples/nqueens/`. A family needs only its tree, its data and its knobs: the
//! drawing, the text of a solution, the component names, the independent check and the
//! answer have defaults ([`puzzles::Puzzle`] lists them). Each knob is a plain enum
//! declared with [`knob_enum!`], which spells each value once and implements
//! [`knobs::Knob`], as the built-in knobs are. Here, binary strings of length n with no two
//! adjacent ones (a Fibonacci number of them: 13 for n = 5), solved sequentially and by
//! work stealing:
//!
//! ```
//! use backtrack_bench::knobs::{KnobError, KnobReader, KnobSpec, KnobValues};
//! use backtrack_bench::puzzles::{DataError, Puzzle};
//! use backtrack_bench::search::{Branch, Model, RuleCounter, RuleId};
//! use backtrack_bench::run::{self, RunSettings, SearchMode};
//! use serde_json::{json, Value};
//!
//! #[derive(Clone)]
//! struct Bits { n: usize, bits: Vec<bool> }
//!
//! impl Model for Bits {
//!     type Move = bool;
//!     type Solution = Vec<bool>;
//!     const REJECTS_BEFORE_CHANGING: bool = true;
//!     fn rule_names(&self) -> &[&'static str] { &["adjacent-ones"] }
//!     fn max_depth(&self) -> usize { self.n }
//!     fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<bool>, _: &mut C) -> Branch {
//!         if self.bits.len() == self.n { return Branch::Solution; }
//!         moves.extend([true, false]);
//!         Branch::Moves
//!     }
//!     fn apply<C: RuleCounter>(&mut self, bit: bool, counters: &mut C) -> Result<(), RuleId> {
//!         counters.check(0);
//!         // Test first: a rejected move leaves the state as it was.
//!         if bit && self.bits.last() == Some(&true) { return Err(0); }
//!         self.bits.push(bit);
//!         Ok(())
//!     }
//!     fn undo(&mut self, _: bool) { self.bits.pop(); }
//!     fn solution(&self) -> Vec<bool> { self.bits.clone() }
//! }
//!
//! struct NoAdjacentOnes { n: usize }
//!
//! impl Puzzle for NoAdjacentOnes {
//!     const FAMILY: &'static str = "no_adjacent_ones";
//!     const KNOBS: &'static [KnobSpec] = &[];
//!     type Config = ();
//!     type Model = Bits;
//!     type AnswerKey = ();
//!     fn parse(data: &Value) -> Result<Self, DataError> {
//!         let n = data["n"].as_u64().ok_or_else(|| DataError::new("n", "expected a length"))?;
//!         Ok(NoAdjacentOnes { n: n as usize })
//!     }
//!     fn config(knobs: &KnobValues) -> Result<(), KnobError> {
//!         KnobReader::new(Self::FAMILY, Self::KNOBS, knobs).map(|_| ())
//!     }
//!     fn describe(_: &()) -> Vec<(&'static str, String)> { Vec::new() }
//!     fn models(&self, _: &()) -> Vec<Bits> { vec![Bits { n: self.n, bits: Vec::new() }] }
//!     fn answer_key(&self, _: usize, _: &Vec<bool>) {}
//!     // Optional: the defaults would write `[true, false, ...]` and check nothing.
//!     fn solution_text(&self, bits: &Vec<bool>) -> String {
//!         bits.iter().map(|&bit| if bit { '1' } else { '0' }).collect()
//!     }
//!     fn verify(&self, _: usize, bits: &Vec<bool>) -> Result<(), String> {
//!         match bits.windows(2).any(|pair| pair[0] && pair[1]) {
//!             true => Err("two adjacent ones".into()),
//!             false => Ok(()),
//!         }
//!     }
//! }
//!
//! let instance = backtrack_bench::instance_of::<NoAdjacentOnes>(json!({ "n": 5 })).unwrap();
//! let settings = RunSettings { mode: SearchMode::All, ..RunSettings::default() };
//! let sequential = run::solve(&instance, &settings).unwrap();
//! assert_eq!(sequential.solutions, 13);
//! let steal = RunSettings { strategy: "steal".parse().unwrap(), threads: 2, ..settings };
//! let parallel = run::solve(&instance, &steal).unwrap();
//! assert_eq!((parallel.solutions, parallel.nodes), (13, sequential.nodes));
//! assert_eq!(backtrack_bench::count_nodes(&NoAdjacentOnes { n: 5 }, &[]), sequential.nodes);
//! ```
#![deny(missing_docs)]

// The engine is a crate of its own (`crates/engine`): the model contract, the search, the
// parallel strategies and the knob vocabulary. Re-exported under the paths they always had,
// so a family written against this crate needs no change.
#[macro_use]
extern crate backtrack_engine;
pub use backtrack_engine::{knob_enum, run_knob_enum};
pub use backtrack_engine::{knobs, parallel, search};

// The stable surface: the engine's modules above, the families' contract and the built-in
// families, the run entry points, the parity helpers and the workbench.
pub mod prelude;
pub mod puzzles;
pub mod run;
pub mod testing;
mod workbench;

pub use cli::report_panics_as_bugs;
pub use workbench::{count_nodes, instance_of, knob_values, Workbench};

// The workbench's own machinery: crate-private, so renaming inside it breaks no user. What
// the crate's tests, examples and benches reach into is re-exported by `unstable`.
mod cli;
mod environment;
mod explain;
mod files;
mod fnv;
mod format;
mod machine_guard;
mod scaling;
mod statistics;
mod stderr_line;
mod watch;

mod cluster;
mod harness;

mod old_paths;
#[allow(deprecated)]
pub use old_paths::{instance, registry, solve};

/// The workbench's machinery that its own tests, examples and benches use: **no semver
/// promise**. Anything here may be renamed, changed or removed in any version, patch
/// releases included; a family author needs none of it (see [`prelude`]).
#[doc(hidden)]
pub mod unstable {
    /// Split, run and merge one search on a cluster: plans, part files, keys and the
    /// incumbent exchange.
    pub mod cluster {
        pub use crate::cluster::{
            check, incumbent, key, make_plan, merge, plan, run_part, split, ClusterFailure, PartOptions,
        };
    }

    /// Sweeps, their records and the reports drawn from them.
    pub mod harness {
        pub use crate::harness::{reporting, storing, sweeping};
    }

    /// Why a parallel run is slower than the sequential one: the cause names and the
    /// ranking's thresholds.
    pub mod explain {
        pub use crate::explain::{ranks, CAUSE_NAMES};
    }

    /// The predicted speedup of a strategy from one measured tree.
    pub mod scaling {
        pub use crate::harness::reporting::plots::scaling_check as plot;
        pub use crate::scaling::{advice, predict, unequal_cpus, validate};

        /// Each component of `instance` with `knobs`: its tree, measured in node counts
        /// only (no calibration of the costs), as the scaling prediction takes it.
        pub fn measure(
            instance: &crate::run::Instance,
            knobs: &crate::knobs::KnobValues,
        ) -> Result<Vec<predict::Component>, crate::run::RunError> {
            crate::run::measure(instance, knobs, None)
        }
    }

    /// Terminal frames of a search, step by step.
    pub mod watch {
        pub use crate::watch::{watch_puzzle, WatchOptions};
    }
}
