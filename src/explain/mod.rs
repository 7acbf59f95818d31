//! `explain`: why a parallel search is slower than it should be, measured, not guessed.
//!
//! [`decompose`] is pure arithmetic over measurements; [`measure`] reruns the search
//! (sequentially, at one thread, at N threads and with A/B knobs) and picks the median
//! runs; [`markdown`] and [`plot`] write the report. This layer sees run reports only, never
//! boards or threads.

mod decompose;
pub mod markdown;
pub mod measure;
pub mod plot;

pub use decompose::{
    decompose, granularity_judgement, millis, Cause, CounterComparison, IdleTiming, Measurements, RunMeasure,
    StateComparison, Verdict, CAUSE_NAMES, SUBPROBLEMS_PER_WORKER_GUIDE,
};
