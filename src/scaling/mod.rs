//! Scaling past this machine: the work and span of a search tree, a deterministic replay of
//! a strategy's schedule on P virtual workers, the predicted speedup at 1 to 256 threads and
//! the advice that follows from it, on CPUs as fast as the measuring one or each at its own
//! speed. Pure arithmetic over node counts and measured costs: it knows no model, no thread
//! and no clock (`crate::run::measure` and `scaling-check` measure its inputs). See
//! docs/scaling.md.

pub mod advice;
pub mod costs;
pub mod cpu_speeds;
pub mod predict;
pub mod simulate;
pub mod unequal_cpus;
pub mod validate;
pub mod work_span;
