//! `explain`: why a parallel search is slower than it should be, measured, not guessed.
//!
//! `decompose` is pure arithmetic: [`Measurements`] (medians) in, lost time split into
//! causes that partition it; the causes and terms are the enums `CauseKind` and
//! `TermKind`, named in one place (`causes`), and the evidence beside the numbers is
//! worded apart from the arithmetic (`evidence`). [`measure`] reruns the search
//! (sequentially, at one thread, at N threads and with A/B knobs) until the stopping rule
//! is met; [`count_check`] compares every run's counts with the sequential run's (moves
//! that do not replay); [`verdict`] adds the bootstrap intervals, the ranks (by the rule of
//! [`ranks`]: enough rounds, intervals widened for them, a margin) and the advice (`advice`);
//! [`markdown`] and [`plot`] write the report; [`why_slower_text`] is the harness's one-line
//! summary. This layer sees run reports only, never boards or threads.

mod advice;
pub mod anomaly;
mod causes;
pub mod cluster;
pub mod count_check;
mod decompose;
mod evidence;
pub mod markdown;
pub mod measure;
mod measurements;
pub mod plot;
pub mod ranks;
pub mod verdict;
mod why_slower;

pub use causes::CAUSE_NAMES;
pub use measurements::{CounterComparison, Measurements, RunMeasure};
pub use why_slower::why_slower_text;
