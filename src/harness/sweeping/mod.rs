//! Sweeping: a TOML spec becomes a plan of configurations, and the runner measures each
//! one (warm-ups, adaptive repeats, Ctrl-C, `--resume`) with a progress bar and an estimate
//! of the time left.
//!
//! - [`spec`]: the sweep specs (`scripts/sweeps/*.toml`), presets and overrides, with
//!   `spec_lines` finding the line of each key for error messages;
//! - [`dimensions`]: the run knobs a block lists values for, and how the plan crosses them;
//! - [`plan`]: a spec expanded into configurations with stable ids;
//! - [`runner`]: the sweep loop, appending one record per run through `storing`;
//! - [`resume`]: what `--resume` finds done, and which configurations are finished;
//!   [`instance_digests`]: what each instance held when a log's runs searched it;
//! - [`progress`], [`work_estimate`]: the bar and its time-left estimate;
//!
//! The machine's load while it runs comes from `crate::machine_guard`.

pub mod dimensions;
pub mod instance_digests;
pub mod plan;
pub mod progress;
pub mod resume;
pub mod runner;
pub mod spec;
mod spec_lines;
pub mod work_estimate;
