//! backtrack-engine: the search engine of backtrack-bench, a crate of its own so that a
//! search needs nothing of the workbench around it (no command line, file format, CSV or
//! plot).
//!
//! Three modules, each importing only the ones listed before it:
//!
//! - [`knobs`]: the one vocabulary for settings given as text (`name=value`, `value:K`),
//!   with [`knob_enum!`] for knobs that are plain enums.
//! - [`search`]: the depth-first engine over the [`search::Model`] trait, with per-rule and
//!   per-depth counters that compile away when off, branch and bound over a shared
//!   [`search::Incumbent`], and Knuth's tree-size estimate. It knows no thread.
//! - [`parallel`]: strategies that run any model on many threads (frontier split, work
//!   stealing, budgets, a replicable branch and bound), with per-worker accounting and a
//!   model's panic caught where it happens. It knows no puzzle.
//!
//! The workbench (`backtrack-bench`) re-exports all three under the same paths
//! (`backtrack_bench::search`, `backtrack_bench::parallel`, `backtrack_bench::knobs`), so a
//! family written against the workbench needs no change.
#![deny(missing_docs)]

#[macro_use]
pub mod knobs;
pub mod parallel;
pub mod search;
