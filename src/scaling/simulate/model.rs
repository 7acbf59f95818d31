//! What a replay takes and what it predicts: the virtual machine, the workload, the
//! schedule; and the timed event both replays order their workers by.

use crate::scaling::work_span::SubtreeTree;
use serde::Serialize;
use std::cmp::Ordering;

/// The virtual machine: workers, the CPUs they share (`None`: one CPU each), and how fast
/// each CPU is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Machine<'a> {
    /// Worker threads.
    pub workers: usize,
    /// CPUs; `None` for as many as workers.
    pub cores: Option<usize>,
    /// Time factor of each CPU: how much longer any work takes on CPU `c` than on the CPU
    /// the costs were measured on, `cpu_factors[c mod len]` (1.0: as fast; 1.5: half as
    /// long again). Empty: every CPU as fast as the measuring one, the replay as it was
    /// before CPUs were told apart.
    pub cpu_factors: &'a [f64],
}

/// One listed subproblem: its nodes and its depth (its path has `depth - 1` moves to replay).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListedTask {
    /// Nodes of its subtree.
    pub nodes: u64,
    /// Depth of its root.
    pub depth: u32,
}

/// What to replay.
#[derive(Debug, Clone, Copy)]
pub enum Workload<'a> {
    /// Tasks listed on one thread (taking `listing_ns`), then spawned into one rayon deque.
    Listed {
        /// Time to list them (and any trial listings), before any task runs.
        listing_ns: f64,
        /// The tasks, in listing order.
        tasks: &'a [ListedTask],
        /// Largest unit of work timed at once.
        slice_nodes: u64,
    },
    /// One root task, split on demand by stack splitting.
    Stealing {
        /// The recorded subtree sizes.
        tree: &'a SubtreeTree,
        /// Largest unit of work timed at once inside an unrecorded subtree.
        slice_nodes: u64,
    },
}

impl Workload<'_> {
    /// A slice size for a tree of `total` nodes: at least 64 nodes, and about 2^18 slices
    /// in all, so that a replay stays cheap on huge trees.
    pub fn slice_nodes(total: u64) -> u64 {
        (total >> 18).max(64)
    }
}

/// What a replay predicts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Schedule {
    /// Wall time from the start to the last worker's end.
    pub makespan_ns: f64,
    /// Worker time spent in tasks (and listing or spawning), summed over workers.
    pub busy_ns: f64,
    /// Share of worker time idle: `1 - busy / (workers * makespan)`.
    pub idle_share: f64,
    /// Wall time at the end with fewer than all workers busy: the makespan less the
    /// earliest time a worker ran out of work for good.
    pub tail_ns: f64,
    /// Tasks run.
    pub tasks: u64,
    /// Tasks taken from another worker's queue.
    pub steals: u64,
}

impl Schedule {
    /// The schedule of `workers` that were busy `busy_ns` in all and ran out of work for
    /// good, the first at `first_out` and the last at `makespan_ns`.
    pub(super) fn of_workers(
        makespan_ns: f64,
        busy_ns: f64,
        first_out: f64,
        workers: usize,
        tasks: u64,
        steals: u64,
    ) -> Schedule {
        let capacity = makespan_ns * workers as f64;
        Schedule {
            makespan_ns,
            busy_ns,
            idle_share: if capacity > 0.0 { (1.0 - busy_ns / capacity).max(0.0) } else { 0.0 },
            tail_ns: (makespan_ns - first_out.min(makespan_ns)).max(0.0),
            tasks,
            steals,
        }
    }
}

impl Machine<'_> {
    /// `workers` on `cores` CPUs (`None`: one each), every CPU as fast as the measuring one.
    #[cfg(test)]
    pub fn uniform(workers: usize, cores: Option<usize>) -> Machine<'static> {
        Machine { workers, cores, cpu_factors: &[] }
    }

    /// The CPUs busy when every worker is.
    pub(super) fn busy_cpus(self) -> usize {
        self.cores.map_or(self.workers, |cores| cores.min(self.workers)).max(1)
    }

    /// Worker `worker`'s CPU: worker i on CPU i mod cores, as the pool pins its threads.
    pub(super) fn cpu_of(self, worker: usize) -> usize {
        worker % self.cores.unwrap_or(self.workers).max(1)
    }

    /// The time factor of worker `worker`'s CPU (1.0 when no factors were given).
    pub(super) fn factor_of(self, worker: usize) -> f64 {
        match self.cpu_factors.len() {
            0 => 1.0,
            len => self.cpu_factors[self.cpu_of(worker) % len],
        }
    }
}

/// A time with the worker it concerns; ordered by time, then worker, then nothing else.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Timed {
    pub(super) time: f64,
    pub(super) worker: usize,
}

impl Eq for Timed {}

impl PartialOrd for Timed {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timed {
    fn cmp(&self, other: &Self) -> Ordering {
        self.time.total_cmp(&other.time).then(self.worker.cmp(&other.worker))
    }
}
