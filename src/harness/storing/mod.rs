//! Storing: what a sweep leaves in its results folder, and reading it back.
//!
//! - [`record`]: one flat row per run (`<sweep>-runs.csv`);
//! - [`run_columns`]: the run-description columns the runs record and the summary share;
//! - [`counts`]: per-rule, per-depth and per-worker counts of each run, long format
//!   (`<sweep>-counts.csv`);
//! - [`csv_log`]: whole-line appends and atomic rewrites of CSV files;
//! - [`run_logs`]: a run's record and counts rows, appended together or not at all;
//! - [`output_target`]: files the user names as outputs, written without replacing a FIFO,
//!   a device or a symlink;
//! - [`results_folder`]: the folder's file names, shards, the summary file;
//! - [`history`]: earlier runs a fresh run supersedes, kept in `history/` (never deleted
//!   unasked), and the completion mark of a run log;
//! - [`stale_temporaries`]: temporary files a killed process left, removed on the next run;
//! - [`summary`]: per-configuration statistics (`<sweep>-summary.csv`), from records alone;
//! - [`sweep_lock`]: one writer per run log (an advisory lock in the folder).
//!
//! It knows records and files, never a search: the runner hands it finished records. How a
//! file is read under its cap and replaced atomically is `crate::files`'; the machine and
//! build a run was measured on, `crate::environment`.

pub mod counts;
pub mod csv_log;
pub mod history;
pub mod output_target;
pub mod record;
pub mod results_folder;
pub mod run_columns;
pub mod run_logs;
pub mod stale_temporaries;
pub mod summary;
pub mod sweep_lock;
