//! Sweeps, records and reports: the measuring side of the workbench, in three rooms that
//! data flows through one way: `sweeping` runs configurations and hands finished records
//! to `storing`, which writes and reads the results folder; `reporting` reads it back and
//! writes tables, plots and comparisons.
//!
//! It sees configurations and records, never boards: a run goes through
//! [`crate::run::prepare`] and comes back as a flat [`storing::record::RunRecord`]. The file
//! formats and every column are documented in `docs/harness.md`.

pub mod error;
pub mod reporting;
pub mod storing;
pub mod sweeping;

pub use error::HarnessError;
