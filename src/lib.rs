//! backtrack-bench: a workbench for backtracking puzzle solvers.
//!
//! It answers, with exact counts and measured times, which pruning ideas pay off and why a
//! parallel search is sometimes slower than the sequential one. The crate is layered, and
//! data flows one way through the layers:
//!
//! - [`search`]: the depth-first engine over the [`search::Model`] trait, with per-rule and
//!   per-depth counters that compile away when off. It knows no puzzle and no thread.
//! - [`puzzles`]: the four puzzle families of the seed posts as models, each knob a plain
//!   enum. They know no thread and no file format beyond their own `data` block.
//! - [`parallel`]: strategies that run any model on many threads, with per-worker accounting.
//! - [`scaling`]: the predicted speedup of a strategy at 1 to 256 threads, from one measured tree.
//! - [`instance`]: loading and validating `puzzle-instance/v1` JSON files.
//! - [`solve`]: one run, from (instance, knobs, strategy) to a flat [`solve::RunReport`].
//! - [`harness`]: sweeps, CSV records, reports, plots and `explain`; it sees only configs and records.
//! - [`format`]: numbers, durations and ratios as people read them, for every layer that prints.
//! - [`statistics`]: medians with bootstrap intervals, outliers, baseline comparison and the
//!   adaptive repeat rule; pure arithmetic shared by the harness and `explain`.
//! - [`watch`]: terminal rendering of a search step by step.
#![deny(missing_docs)]

pub mod cli;
pub mod explain;
pub mod format;
pub mod harness;
pub mod instance;
pub mod parallel;
pub mod probe;
pub mod puzzles;
pub mod scaling;
pub mod scaling_inputs;
pub mod search;
pub mod solve;
pub mod statistics;
pub mod watch;
