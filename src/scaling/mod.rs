//! Scaling past this machine: the work and span of a search tree, a deterministic replay of
//! a strategy's schedule on P virtual workers, the predicted speedup at 1 to 256 threads and
//! the advice that follows from it. Pure arithmetic over node counts and measured costs: it
//! knows no model, no thread and no clock (`crate::parallel::task_profile` measures its
//! inputs). See docs/scaling.md.

pub mod advice;
pub mod costs;
pub mod plot;
pub mod predict;
pub mod simulate;
pub mod validate;
pub mod work_span;
