//! Reporting: everything `report` regenerates from the results folder's CSV files alone.
//!
//! - [`regenerate`](mod@regenerate): the `report` command's work: reads the run logs (and a baseline),
//!   writes the summaries, plots, README and generated sections;
//! - [`tables`]: the Markdown of `results/README.md`, the per-instance and per-thread tables;
//! - [`plots`]: the SVG plots beside it;
//! - [`compare`]: `--baseline`, which configurations changed beyond the noise;
//! - [`comparison_table`]: those changes as Markdown;
//! - [`slowdown`]: the why-slower column, which asks `explain` for the causes;
//! - [`unfinished`]: the note on a sweep whose run log has no completion mark;
//! - [`generated_docs`]: the measured figures in `README.md` and `docs/`, rewritten in
//!   their marked sections so that they cannot drift from the results.

pub mod compare;
pub mod comparison_table;
pub mod generated_docs;
pub mod plots;
pub mod regenerate;
pub mod slowdown;
pub mod tables;
pub mod unfinished;

pub use regenerate::{regenerate, ComparisonCounts, ReportOutcome};
