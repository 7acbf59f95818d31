//! The per-operation costs a schedule is replayed with, in nanoseconds, as measured on one
//! machine (see `crate::run::measure`), and the slowdown of searches run side by side.

use serde::{Deserialize, Serialize};

/// How much slower each of several searches runs when they run at once (shared caches,
/// memory bandwidth, the clock frequency a busy chip can hold).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Slowdown {
    /// Searches run at once when it was measured (1: not measured).
    pub copies: usize,
    /// Each one's time over the time of one alone (1.0: no slowdown).
    pub factor: f64,
}

impl Slowdown {
    /// No slowdown.
    pub const NONE: Slowdown = Slowdown { copies: 1, factor: 1.0 };

    /// The factor with `busy` CPUs in use: 1 alone, the measured factor at the measured
    /// copies, straight between, and held at the measured factor beyond (an assumption:
    /// a machine with more cores may lose more, or less).
    pub fn at(&self, busy: usize) -> f64 {
        if self.copies <= 1 || busy <= 1 {
            return if busy <= 1 { 1.0 } else { self.factor.max(1.0) };
        }
        let reach = (busy.min(self.copies) - 1) as f64 / (self.copies - 1) as f64;
        1.0 + (self.factor - 1.0) * reach
    }
}

/// Costs of one component's search and of the parallel machinery, in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Costs {
    /// One node of the search, alone on the machine.
    pub node_ns: f64,
    /// One node searched by a parallel worker, alone: the engine's steered path keeps what a
    /// split reads and polls for stops, which a model with cheap nodes pays for (N-Queens:
    /// 2.8 times the instructions of the sequential search). Measured on a `steal` worker.
    /// (0 where read from the measurements of a check made before it was measured.)
    #[serde(default)]
    pub steered_node_ns: f64,
    /// Replaying the first move of a subproblem's path (apply, and undo afterwards): often
    /// not like the others (a Hooks layout places seven hooks at once).
    pub replay_first_ns: f64,
    /// Replaying each further move of a path.
    pub replay_ns_per_move: f64,
    /// A worker's bookkeeping per task (clock reads, histogram, counters).
    pub task_ns: f64,
    /// Spawning one rayon task in a scope (on the spawning thread).
    pub spawn_ns: f64,
    /// Taking a task from another worker's queue (on the thief).
    pub steal_ns: f64,
    /// Splitting one task off an open branch into the worker's queue (on the victim).
    pub split_ns: f64,
    /// An uncontended lock and unlock.
    pub lock_ns: f64,
    /// Copying one subproblem's path into a frontier listing.
    pub path_copy_ns: f64,
    /// Searches side by side.
    pub slowdown: Slowdown,
}

impl Costs {
    /// Every node costs 1 and nothing else costs anything: schedules in node counts, the
    /// same on every machine (for tests and for bounds).
    pub fn nodes_only() -> Costs {
        Costs {
            node_ns: 1.0,
            steered_node_ns: 1.0,
            replay_first_ns: 0.0,
            replay_ns_per_move: 0.0,
            task_ns: 0.0,
            spawn_ns: 0.0,
            steal_ns: 0.0,
            split_ns: 0.0,
            lock_ns: 0.0,
            path_copy_ns: 0.0,
            slowdown: Slowdown::NONE,
        }
    }

    /// Time to list a frontier: `nodes` counted and `entries` paths copied.
    pub fn listing_ns(&self, nodes: u64, entries: u64) -> f64 {
        nodes as f64 * self.node_ns + entries as f64 * self.path_copy_ns
    }

    /// A task's fixed cost on its worker: bookkeeping and the replay of `prefix` moves.
    pub fn task_start_ns(&self, prefix: u64) -> f64 {
        match prefix {
            0 => self.task_ns,
            moves => self.task_ns + self.replay_first_ns + (moves - 1) as f64 * self.replay_ns_per_move,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slowdown_grows_to_the_measured_copies_and_stays() {
        let slowdown = Slowdown { copies: 3, factor: 1.1 };
        assert_eq!(slowdown.at(1), 1.0);
        assert!((slowdown.at(2) - 1.05).abs() < 1e-12);
        assert!((slowdown.at(3) - 1.1).abs() < 1e-12);
        assert!((slowdown.at(64) - 1.1).abs() < 1e-12);
        assert_eq!(Slowdown::NONE.at(8), 1.0);
    }
}
