//! What a parallel search returns: the merged counts, the kept solutions, why it stopped,
//! and the accounting of each worker and of the whole run.

use super::accounting::{RunAccounting, WorkerReport};
use crate::search::{Stats, StopReason};

/// What a run returns.
#[derive(Debug, Clone)]
pub struct ParallelOutcome<Solution> {
    /// Counts merged over every worker (and the frontier listing, if any).
    pub stats: Stats,
    /// The solutions kept, sorted; all of them up to [`Limits::solutions_to_keep`](crate::search::Limits::solutions_to_keep). A
    /// first-solution run may keep more than one when several workers found one at once.
    pub solutions: Vec<Solution>,
    /// Why the run ended early, if it did.
    pub stop: Option<StopReason>,
    /// One report per worker, in pool order (one for `sequential`).
    pub workers: Vec<WorkerReport>,
    /// Numbers about the whole run.
    pub run: RunAccounting,
}
