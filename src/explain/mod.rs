//! `explain`: why a parallel search is slower than it should be, measured, not guessed.
//!
//! [`decompose`] is pure arithmetic over measurements; the runner (which re-runs the
//! search sequentially, at one thread and with A/B knobs) and the Markdown report build
//! on it. This layer sees run reports only, never boards or threads.

mod decompose;

pub use decompose::{decompose, Cause, Measurements, Verdict, SUBPROBLEMS_PER_WORKER_GUIDE};
