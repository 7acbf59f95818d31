//! Sweeps, records and reports: the measuring side of the workbench.
//!
//! It sees configurations and records, never boards: a run goes through
//! [`crate::solve::run`] and comes back as a flat [`record::RunRecord`].
//!
//! - [`spec`]: the TOML sweep specs (`scripts/sweeps/*.toml`), presets and overrides;
//! - [`plan`]: a spec expanded into configurations with stable ids, and shards;
//! - [`runner`]: the sweep loop (warm-ups, repeats, Ctrl-C, `--resume`, failures recorded);
//! - [`record`] and [`csv_log`]: one flat CSV row per run, appended as whole lines;
//! - [`summary`]: per-configuration statistics (HDR quantiles, speedup, overheads);
//! - [`report`], [`plots`], [`compare`]: `results/README.md`, SVG plots, `--baseline`;
//! - [`slowdown`]: the hook where `explain` says why more threads were slower;
//! - [`environment`], [`progress`], [`work_estimate`], [`results_folder`]: the supporting pieces.
//!
//! The file formats and every column are documented in `docs/harness.md`.

pub mod compare;
pub mod csv_log;
pub mod environment;
pub mod error;
pub mod plan;
pub mod plots;
pub mod progress;
pub mod record;
pub mod report;
pub mod results_folder;
pub mod runner;
pub mod slowdown;
pub mod spec;
pub mod summary;
pub mod work_estimate;

pub use error::HarnessError;
