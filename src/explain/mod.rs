//! `explain`: why a parallel search is slower than it should be, measured, not guessed.
//!
//! [`decompose`] is pure arithmetic: medians in, lost time split into causes that
//! partition it; [`measure`] reruns the search (sequentially, at one thread, at N threads
//! and with A/B knobs) until the stopping rule is met; [`verdict`] adds the bootstrap
//! intervals, the ranks and the advice ([`advice`]); [`markdown`] and [`plot`] write the
//! report. This layer sees run reports only, never boards or threads.

mod advice;
mod decompose;
pub mod markdown;
pub mod measure;
pub mod plot;
pub mod verdict;

pub use advice::{Advice, ADVICE_SHARE};
pub use decompose::{
    decompose, granularity_judgement, why_slower_text, Cause, CounterComparison, Decomposition, Gain, IdleSplit,
    Measurements, Outcome, Part, RunMeasure, StateComparison, StrategyKind, CAUSE_NAMES, CLOSE_TO_IDEAL,
    TASKS_PER_WORKER_GUIDE,
};
pub use verdict::{Rank, RankedCause, Verdict};
