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

/// The dearest operation a file's costs may name (1,000 s; measured ones are below 10 µs).
pub const MAX_COST_NS: f64 = 1e12;
/// The cheapest node a file's costs may name (measured ones are 80 ns to 300 ns).
pub const MIN_NODE_NS: f64 = 0.01;
/// The most searches side by side may slow each other (or, below 1, speed each other up).
pub const MAX_SLOWDOWN: f64 = 100.0;

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

    /// What is wrong with costs read back from a file, if anything: a cost that is not a
    /// number, negative, or past `MAX_COST_NS`; a node cheaper than `MIN_NODE_NS` (a
    /// prediction of almost no time is a speedup past any axis); a slowdown of no copies or
    /// more than `max_copies` (a pool's threads: the caller's to say, as this layer knows
    /// no pool), or a factor outside `1 / MAX_SLOWDOWN..=MAX_SLOWDOWN`.
    pub fn refusal(&self, max_copies: usize) -> Option<String> {
        let named = [
            ("node_ns", self.node_ns),
            ("steered_node_ns", self.steered_node_ns),
            ("replay_first_ns", self.replay_first_ns),
            ("replay_ns_per_move", self.replay_ns_per_move),
            ("task_ns", self.task_ns),
            ("spawn_ns", self.spawn_ns),
            ("steal_ns", self.steal_ns),
            ("split_ns", self.split_ns),
            ("lock_ns", self.lock_ns),
            ("path_copy_ns", self.path_copy_ns),
        ];
        if let Some((name, cost)) = named.iter().find(|(_, cost)| !(0.0..=MAX_COST_NS).contains(cost)) {
            return Some(format!("{name} is {cost}; a cost is between 0 and {MAX_COST_NS:e} ns"));
        }
        // A steered node of 0: a file of a check older than its measurement (the search's
        // node is taken for it).
        let steered_unmeasured = self.steered_node_ns == 0.0;
        if self.node_ns < MIN_NODE_NS || (self.steered_node_ns < MIN_NODE_NS && !steered_unmeasured) {
            return Some(format!("a node costs less than {MIN_NODE_NS} ns"));
        }
        let Slowdown { copies, factor } = self.slowdown;
        if !(1..=max_copies).contains(&copies) {
            return Some(format!("the slowdown was measured with {copies} copies; 1 to {max_copies}"));
        }
        if !(1.0 / MAX_SLOWDOWN..=MAX_SLOWDOWN).contains(&factor) {
            return Some(format!("the slowdown factor is {factor}; between {} and {MAX_SLOWDOWN}", 1.0 / MAX_SLOWDOWN));
        }
        None
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
