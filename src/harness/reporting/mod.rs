//! Reporting: everything `report` regenerates from the results folder's CSV files alone.
//!
//! - [`tables`]: `results/README.md`, the per-instance and per-thread tables;
//! - [`plots`]: the SVG plots beside it;
//! - [`compare`]: `--baseline`, which configurations changed beyond the noise;
//! - [`slowdown`]: the why-slower column, which asks `explain` for the causes;
//! - [`generated_docs`]: the measured figures in `README.md` and `docs/`, rewritten in
//!   their marked sections so that they cannot drift from the results.

pub mod compare;
pub mod generated_docs;
pub mod plots;
pub mod slowdown;
pub mod tables;
