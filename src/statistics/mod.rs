//! Statistics of repeated measurements: medians with bootstrap confidence intervals, ratios
//! of medians (speedup, time against a reference), Tukey outlier fences, baseline
//! comparison, and the adaptive stopping rule that decides how many repeats are enough.
//!
//! Pure arithmetic over samples of `f64`: it knows no search, no run record and no file.
//! Resampling is seeded, so the same samples always give the same interval and a report
//! regenerated from the same CSV files reads the same.

mod bootstrap;
mod change;
mod expanded;
mod outliers;
mod sample;
mod stopping;

pub use bootstrap::{bootstrap_intervals, median_interval, ratio_interval, BootstrapSettings, Interval};
pub use change::{compare_samples, ChangeVerdict, SampleChange};
pub use expanded::expanded_percentile_confidence;
pub use outliers::tukey_fences;
pub use sample::{median, relative_standard_deviation};
pub use stopping::{StoppingRule, StoppingState};
