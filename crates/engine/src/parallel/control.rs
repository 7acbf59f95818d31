//! The little state a parallel run shares between its workers: one signal word (the stop
//! flag and the count of hungry workers), the count of unfinished tasks, the node budget,
//! and the first panic a model raised.
//!
//! Workers read the signal word once per node with a relaxed load; everything else here
//! is touched once per task or on rare events (a split, a stop, a flush of the node count,
//! a panic).

use super::model_panic::{self, ModelPanic};
use crate::search::StopReason;
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The bit of [`Control::signal`] that says the run has stopped; the bits below count the
/// workers looking for work.
pub(crate) const STOP_BIT: usize = 1 << (usize::BITS - 1);

/// How many nodes a worker enters between two reports to the shared node budget (only
/// when a node limit is set): the limit is exact to within this many nodes per worker.
pub(crate) const NODE_FLUSH_INTERVAL: u64 = 1024;

const NO_REASON: u8 = 0;

/// The nodes left to the workers of a run limited to `node_limit` nodes once `used` were
/// counted before they started (`u64::MAX` stays "no limit").
pub(crate) fn remaining_budget(node_limit: u64, used: u64) -> u64 {
    if node_limit == u64::MAX {
        u64::MAX
    } else {
        node_limit.saturating_sub(used)
    }
}

/// Shared control of one parallel run.
pub(crate) struct Control {
    /// [`STOP_BIT`] when the run has stopped, plus the number of hungry workers.
    signal: CachePadded<AtomicUsize>,
    /// Tasks made and not yet finished; the run is over when it reaches zero.
    pending: CachePadded<AtomicUsize>,
    /// Nodes the workers may enter between them (`u64::MAX`: no limit).
    node_budget: u64,
    /// Nodes the workers have reported against the budget.
    nodes_spent: CachePadded<AtomicU64>,
    /// Why the run stopped: 0 while it has not, else 1 + the reason's code.
    reason: AtomicU8,
    /// Nanoseconds from `start` to the first stop.
    stopped_at_nanos: AtomicU64,
    /// The first panic caught in a worker: the run's error once every worker has stopped.
    panic: Mutex<Option<ModelPanic>>,
    start: Instant,
    /// Hunger announcements so far, for tests of when a worker makes one.
    #[cfg(test)]
    announcements: AtomicUsize,
}

impl Control {
    /// Control for a run that started at `start`, whose workers may enter `node_budget`
    /// nodes between them, with `pending` tasks made before the workers start.
    pub(crate) fn new(start: Instant, node_budget: u64, pending: usize) -> Control {
        Control {
            signal: CachePadded::new(AtomicUsize::new(0)),
            pending: CachePadded::new(AtomicUsize::new(pending)),
            node_budget,
            nodes_spent: CachePadded::new(AtomicU64::new(0)),
            reason: AtomicU8::new(NO_REASON),
            stopped_at_nanos: AtomicU64::new(0),
            panic: Mutex::new(None),
            start,
            #[cfg(test)]
            announcements: AtomicUsize::new(0),
        }
    }

    /// The signal word, read at every node.
    #[inline(always)]
    pub(crate) fn signal(&self) -> usize {
        self.signal.load(Ordering::Relaxed)
    }

    /// Whether the run has stopped.
    #[inline]
    pub(crate) fn stopped(&self) -> bool {
        self.signal() & STOP_BIT != 0
    }

    /// Whether a node limit is set.
    pub(crate) fn has_node_budget(&self) -> bool {
        self.node_budget != u64::MAX
    }

    /// Stops the run for `reason`; the first reason given is the one kept.
    #[cold]
    pub(crate) fn stop(&self, reason: StopReason) {
        let code = 1 + match reason {
            StopReason::FirstSolution => 0,
            StopReason::NodeLimit => 1,
            StopReason::Steered => 2,
            StopReason::TimeLimit => 3,
            StopReason::FrontierFull => 4,
            StopReason::TargetReached => 5,
        };
        if self.reason.compare_exchange(NO_REASON, code, Ordering::AcqRel, Ordering::Acquire).is_ok() {
            let nanos = u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX);
            self.stopped_at_nanos.store(nanos, Ordering::Release);
        }
        self.signal.fetch_or(STOP_BIT, Ordering::Release);
    }

    /// A model panicked: keeps the first panic (later ones are its consequences, or the
    /// same bug met again) and stops the run, so that every other worker ends at its next
    /// node and no idle worker waits for the task that died.
    #[cold]
    pub(crate) fn record_panic(&self, panic: ModelPanic) {
        let mut first = self.panic.lock().unwrap_or_else(PoisonError::into_inner);
        first.get_or_insert(panic);
        drop(first);
        self.signal.fetch_or(STOP_BIT, Ordering::Release);
    }

    /// Runs `work` (a worker's part of the run); a panic in it is recorded as by
    /// [`Control::record_panic`], with no path. For what lies around a worker's tasks
    /// (making its copy of the model, say); the tasks themselves are caught closer, where
    /// the engine's path is known.
    pub(crate) fn guard(&self, work: impl FnOnce()) {
        if let Err(panic) = model_panic::catch(work) {
            self.record_panic(panic);
        }
    }

    /// The first panic a worker caught, if any: once the run is over, its error.
    pub(crate) fn take_panic(&self) -> Option<ModelPanic> {
        self.panic.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    /// Why the run stopped, and when (from the start), if it did.
    pub(crate) fn stop_reason(&self) -> Option<(StopReason, Duration)> {
        let reason = match self.reason.load(Ordering::Acquire) {
            1 => StopReason::FirstSolution,
            2 => StopReason::NodeLimit,
            3 => StopReason::Steered,
            4 => StopReason::TimeLimit,
            5 => StopReason::FrontierFull,
            6 => StopReason::TargetReached,
            _ => return None,
        };
        Some((reason, Duration::from_nanos(self.stopped_at_nanos.load(Ordering::Acquire))))
    }

    /// Adds `nodes` to the nodes spent; false (and the run stopped) once the budget is gone.
    #[cold]
    pub(crate) fn spend_nodes(&self, nodes: u64) -> bool {
        let spent = self.nodes_spent.fetch_add(nodes, Ordering::Relaxed) + nodes;
        if spent >= self.node_budget {
            self.stop(StopReason::NodeLimit);
            return false;
        }
        true
    }

    /// A worker starts looking for work.
    pub(crate) fn become_hungry(&self) {
        #[cfg(test)]
        self.announcements.fetch_add(1, Ordering::Relaxed);
        self.signal.fetch_add(1, Ordering::Relaxed);
    }

    /// How many times a worker has become hungry.
    #[cfg(test)]
    pub(crate) fn hunger_announcements(&self) -> usize {
        self.announcements.load(Ordering::Relaxed)
    }

    /// A worker stops looking for work (it found some, or the run is over).
    pub(crate) fn stop_being_hungry(&self) {
        self.signal.fetch_sub(1, Ordering::Relaxed);
    }

    /// A task was made. Call before the task becomes visible to other workers, so that
    /// the count never reaches zero while a task exists.
    pub(crate) fn task_made(&self) {
        self.pending.fetch_add(1, Ordering::Relaxed);
    }

    /// A task was finished (after every task it made was counted by [`Control::task_made`]).
    pub(crate) fn task_finished(&self) {
        self.pending.fetch_sub(1, Ordering::AcqRel);
    }

    /// Whether every task made has finished: no task is queued or running, so none can
    /// be made any more.
    pub(crate) fn all_tasks_finished(&self) -> bool {
        self.pending.load(Ordering::Acquire) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_stop_reason_is_kept_and_the_flag_raised() {
        let control = Control::new(Instant::now(), u64::MAX, 0);
        assert!(!control.stopped());
        assert!(control.stop_reason().is_none());
        control.become_hungry();
        assert_eq!(control.signal(), 1);
        control.stop(StopReason::FirstSolution);
        control.stop(StopReason::NodeLimit);
        assert!(control.stopped());
        assert_eq!(control.stop_reason().map(|(reason, _)| reason), Some(StopReason::FirstSolution));
        control.stop_being_hungry();
        assert_eq!(control.signal(), STOP_BIT);
    }

    #[test]
    fn spending_the_node_budget_stops_the_run() {
        let control = Control::new(Instant::now(), 100, 0);
        assert!(control.has_node_budget());
        assert!(control.spend_nodes(60));
        assert!(!control.spend_nodes(40));
        assert_eq!(control.stop_reason().map(|(reason, _)| reason), Some(StopReason::NodeLimit));
    }

    #[test]
    fn the_first_panic_is_kept_and_stops_the_run() {
        let control = Control::new(Instant::now(), u64::MAX, 1);
        control.guard(|| {});
        assert!(!control.stopped());
        control.guard(|| panic!("first"));
        control.guard(|| panic!("second"));
        assert!(control.stopped());
        assert_eq!(control.take_panic().map(|panic| panic.message).as_deref(), Some("first"));
        assert_eq!(control.take_panic(), None);
    }

    #[test]
    fn pending_tasks_reach_zero_only_when_all_are_finished() {
        let control = Control::new(Instant::now(), u64::MAX, 1);
        control.task_made();
        control.task_finished();
        assert!(!control.all_tasks_finished());
        control.task_finished();
        assert!(control.all_tasks_finished());
    }
}
