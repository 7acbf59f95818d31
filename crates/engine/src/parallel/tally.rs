//! The node counters that workers publish, in the three layouts of
//! [`CounterLayout`](super::CounterLayout): each layout is its own type, so that the
//! per-node cost of the default (nothing at all) compiles away.

use super::strategy::CounterLayout;
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU64, Ordering};

/// A worker's view of the published node counters.
pub(crate) trait Tally: Send {
    /// Called at every node the worker enters.
    fn count_node(&mut self);
    /// Called after every task with the worker's node total so far.
    fn publish(&mut self, worker_nodes: u64);
}

/// The counters of one run, in every layout (a few bytes each; only one is used).
pub(crate) struct CounterBoard {
    padded: Vec<CachePadded<AtomicU64>>,
    unpadded: Vec<AtomicU64>,
    shared: CachePadded<AtomicU64>,
}

impl CounterBoard {
    /// Counters for `workers` workers, all zero.
    pub(crate) fn new(workers: usize) -> CounterBoard {
        CounterBoard {
            padded: (0..workers).map(|_| CachePadded::new(AtomicU64::new(0))).collect(),
            unpadded: (0..workers).map(|_| AtomicU64::new(0)).collect(),
            shared: CachePadded::new(AtomicU64::new(0)),
        }
    }

    /// The node total the counters of `layout` hold (read after the workers have stopped).
    pub(crate) fn total(&self, layout: CounterLayout) -> u64 {
        match layout {
            CounterLayout::Padded => self.padded.iter().map(|slot| slot.load(Ordering::Acquire)).sum(),
            CounterLayout::Unpadded => self.unpadded.iter().map(|slot| slot.load(Ordering::Acquire)).sum(),
            CounterLayout::Shared => self.shared.load(Ordering::Acquire),
        }
    }

    /// Worker `worker`'s tally in the padded layout.
    pub(crate) fn padded(&self, worker: usize) -> PaddedTally<'_> {
        PaddedTally { slot: &self.padded[worker] }
    }

    /// Worker `worker`'s tally in the unpadded layout.
    pub(crate) fn unpadded(&self, worker: usize) -> UnpaddedTally<'_> {
        UnpaddedTally { slot: &self.unpadded[worker] }
    }

    /// A tally in the shared layout (the same counter for every worker).
    pub(crate) fn shared(&self) -> SharedTally<'_> {
        SharedTally { counter: &self.shared }
    }
}

/// The default: nothing per node; the worker's total is stored on its own cache line
/// after each task.
pub(crate) struct PaddedTally<'board> {
    slot: &'board CachePadded<AtomicU64>,
}

impl Tally for PaddedTally<'_> {
    #[inline(always)]
    fn count_node(&mut self) {}

    fn publish(&mut self, worker_nodes: u64) {
        self.slot.store(worker_nodes, Ordering::Release);
    }
}

/// The worker's own counter, bumped at every node the way `counts[thread] += 1` would be,
/// in an array where its neighbours' counters share its cache line.
pub(crate) struct UnpaddedTally<'board> {
    slot: &'board AtomicU64,
}

impl Tally for UnpaddedTally<'_> {
    #[inline(always)]
    fn count_node(&mut self) {
        // A load and a store, not a locked add: the slowdown shown is the cache line
        // moving between cores, not the cost of an atomic read-modify-write.
        self.slot.store(self.slot.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }

    fn publish(&mut self, _worker_nodes: u64) {}
}

/// One counter for all workers, incremented atomically at every node.
pub(crate) struct SharedTally<'board> {
    counter: &'board AtomicU64,
}

impl Tally for SharedTally<'_> {
    #[inline(always)]
    fn count_node(&mut self) {
        self.counter.fetch_add(1, Ordering::Relaxed);
    }

    fn publish(&mut self, _worker_nodes: u64) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_adds_up_to_the_nodes_counted() {
        let board = CounterBoard::new(2);
        let (mut first, mut second) = (board.unpadded(0), board.unpadded(1));
        for _ in 0..5 {
            first.count_node();
        }
        second.count_node();
        assert_eq!(board.total(CounterLayout::Unpadded), 6);
        let mut shared = board.shared();
        shared.count_node();
        shared.count_node();
        assert_eq!(board.total(CounterLayout::Shared), 2);
        board.padded(0).publish(7);
        board.padded(1).publish(3);
        board.padded(1).publish(4);
        assert_eq!(board.total(CounterLayout::Padded), 11);
    }
}
