//! Reporting: everything `report` regenerates from the results folder's CSV files alone.
//!
//! - [`tables`]: `results/README.md`, the per-instance and per-thread tables;
//! - [`plots`]: the SVG plots beside it;
//! - [`compare`]: `--baseline`, which configurations changed beyond the noise;
//! - [`slowdown`]: the why-slower column, which asks `explain` for the causes.

pub mod compare;
pub mod plots;
pub mod slowdown;
pub mod tables;
