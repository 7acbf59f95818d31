//! The knobs of a parallel run: the strategy (`--parallel`), the counter layout and the
//! state-restoring mode, each parsed from and displayed as the same short forms (the
//! crate's one vocabulary for settings given as text, `crate::knobs`).

use crate::knobs::{KnobError, KnobForm};
use std::fmt;
use std::str::FromStr;

/// How far, in subproblems per thread, `replicable` runs ahead of the last result a
/// subproblem starts from (`replicable` without `:K`; see the strategy's `Schedule`).
pub const DEFAULT_WINDOW_PER_THREAD: usize = 2;

/// The most subproblems a frontier listing keeps (`depth:D`, `auto`, `naive`). A
/// subproblem is a path of moves from the root, a small heap vector: at this cap a listing
/// holds tens of megabytes (a few hundred bytes per subproblem with its rayon task), where
/// an unbounded one can hold gigabytes. `auto` aims for 32 subproblems per thread, so the
/// cap is far above what balancing needs.
pub const MAX_SUBPROBLEMS: usize = 500_000;

/// The most moves a frontier listing keeps over all its subproblems: a subproblem `D` deep
/// is a path of `D` moves, so a deep listing (`naive` lists the leaves of a knapsack 1,000
/// items deep) is cut to `MAX_LISTED_MOVES / D` subproblems; at the subproblem cap that
/// held 500,000 paths of 1,000 moves, about 6 GB. Depths up to 100 keep the whole
/// [`MAX_SUBPROBLEMS`].
pub const MAX_LISTED_MOVES: usize = 50_000_000;

/// The most subproblems a listing `depth` deep keeps: [`MAX_SUBPROBLEMS`], fewer past the
/// depth at which their paths would hold more than [`MAX_LISTED_MOVES`] moves.
pub fn listing_cap(depth: usize) -> usize {
    MAX_SUBPROBLEMS.min(MAX_LISTED_MOVES / depth.max(1))
}

/// What `auto:K` accepts; a listing never holds more than
/// [`MAX_SUBPROBLEMS`] subproblems in all, which bounds
/// its memory.
const AUTO_RANGE: &str = "K must be a whole number from 1 to 500000, the cap on listed subproblems";

/// Subproblems per thread that `auto` aims for; the Embarrassingly Parallel Search papers
/// find that 30 to 100 per worker balance well.
pub const DEFAULT_SUBPROBLEMS_PER_THREAD: usize = 32;

/// How the search tree is shared out among threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    /// The plain engine on the calling thread: no pool, no atomics. The baseline.
    #[default]
    Sequential,
    /// Every open subproblem at this depth becomes one rayon task.
    Depth(usize),
    /// Like [`Strategy::Depth`], at the shallowest depth that yields at least this many
    /// subproblems per thread.
    Auto {
        /// Subproblems wanted per thread.
        per_thread: usize,
    },
    /// Work stealing: a busy worker gives away its shallowest open branches when another
    /// worker is idle.
    Steal,
    /// A worker splits off its shallowest open branches every this many nodes, hungry
    /// workers or not.
    Budget(u64),
    /// A deliberately poor baseline: the leaves are listed on one thread and handed out in
    /// small batches through a lock, results collected through another lock.
    Naive,
    /// For branch and bound: `auto`'s frontier searched in depth-first order, each
    /// subproblem from an incumbent of its own that starts at the best result of the
    /// subproblems a fixed distance before it (a window growing 1, 1, 2, 2, 3, ... up to
    /// `per_thread` x threads), once those have ended, so that the node counts and the best
    /// solution are the same on every run at a given thread count (see
    /// `parallel::replicable`).
    Replicable {
        /// Subproblems per thread in the widest window.
        per_thread: usize,
    },
}

impl Strategy {
    /// Every accepted form, in the order `--help` lists them.
    pub const FORMS: &'static [KnobForm] = &[
        KnobForm { form: "sequential", help: "the plain engine on one thread, no pool and no atomics (the baseline)" },
        KnobForm { form: "depth:D", help: "one rayon task per open subproblem at depth D" },
        KnobForm {
            form: "auto",
            help: "like depth:D at the shallowest depth giving at least 32 subproblems per thread",
        },
        KnobForm {
            form: "auto:K",
            help: "like auto, with at least K subproblems per thread (K <= 500000; at most 500000 in all)",
        },
        KnobForm { form: "steal", help: "work stealing: a busy worker gives its shallowest open branches to idle ones" },
        KnobForm { form: "budget:B", help: "a worker splits off its shallowest open branches every B nodes" },
        KnobForm {
            form: "naive",
            help: "poor baseline: leaves listed on one thread, batches of 64 handed out and results collected through locks",
        },
        KnobForm {
            form: "replicable",
            help: "branch and bound with the same counts on every run: auto's frontier in depth-first order, each \
                   subproblem from the best result of those up to 2 per thread before it",
        },
        KnobForm { form: "replicable:K", help: "like replicable, with a window of K subproblems per thread (1 to 500000)" },
    ];

    /// The strategy's name without its parameter (`depth`, `auto`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Strategy::Sequential => "sequential",
            Strategy::Depth(_) => "depth",
            Strategy::Auto { .. } => "auto",
            Strategy::Steal => "steal",
            Strategy::Budget(_) => "budget",
            Strategy::Naive => "naive",
            Strategy::Replicable { .. } => "replicable",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::Depth(depth) => write!(f, "depth:{depth}"),
            Strategy::Auto { per_thread } if *per_thread != DEFAULT_SUBPROBLEMS_PER_THREAD => {
                write!(f, "auto:{per_thread}")
            }
            Strategy::Budget(nodes) => write!(f, "budget:{nodes}"),
            Strategy::Replicable { per_thread } if *per_thread != DEFAULT_WINDOW_PER_THREAD => {
                write!(f, "replicable:{per_thread}")
            }
            other => f.write_str(other.kind()),
        }
    }
}

impl FromStr for Strategy {
    type Err = KnobError;

    fn from_str(text: &str) -> Result<Strategy, KnobError> {
        let error = |reason| KnobError::not_a_form("parallel strategy", text, Strategy::FORMS, reason);
        let (kind, parameter) = match text.split_once(':') {
            Some((kind, parameter)) => (kind, Some(parameter)),
            None => (text, None),
        };
        match (kind, parameter) {
            ("sequential", None) => Ok(Strategy::Sequential),
            ("steal", None) => Ok(Strategy::Steal),
            ("naive", None) => Ok(Strategy::Naive),
            ("auto", None) => Ok(Strategy::Auto { per_thread: DEFAULT_SUBPROBLEMS_PER_THREAD }),
            ("replicable", None) => Ok(Strategy::Replicable { per_thread: DEFAULT_WINDOW_PER_THREAD }),
            ("replicable", Some(count)) => match count.parse::<usize>() {
                Ok(per_thread) if (1..=MAX_SUBPROBLEMS).contains(&per_thread) => {
                    Ok(Strategy::Replicable { per_thread })
                }
                _ => Err(error(Some("K must be a whole number from 1 to 500000"))),
            },
            ("depth", Some(depth)) => depth.parse().map(Strategy::Depth).map_err(|_| error(None)),
            ("auto", Some(count)) => match count.parse::<usize>() {
                Ok(per_thread) if (1..=MAX_SUBPROBLEMS).contains(&per_thread) => Ok(Strategy::Auto { per_thread }),
                _ => Err(error(Some(AUTO_RANGE))),
            },
            ("budget", Some(nodes)) => match nodes.parse::<u64>() {
                Ok(nodes) if nodes >= 1 => Ok(Strategy::Budget(nodes)),
                _ => Err(error(Some("B must be a whole number of at least 1"))),
            },
            _ => Err(error(None)),
        }
    }
}

crate::run_knob_enum! {
    /// Where the workers keep their node counters: the knob that switches on the classic
    /// cache slowdowns.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum CounterLayout("counter layout") {
        /// One counter per worker on its own cache line, published once per task.
        #[default]
        Padded = "padded" => "per-worker counters on their own cache lines, published per task (default)",
        /// One shared atomic counter that every worker increments at every node (contention).
        Shared = "shared" => "one atomic counter incremented by every worker at every node",
        /// One counter per worker, side by side in a plain array and written at every node,
        /// so that neighbours share cache lines (false sharing).
        Unpadded = "unpadded" => "per-worker counters side by side in one array, written at every node",
    }
}

crate::run_knob_enum! {
    /// How the model state is restored after a child has been searched.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum StateRestore("state mode") {
        /// The model's `undo` (do/undo on one state).
        #[default]
        Undo = "undo" => "undo each move on one state (default)",
        /// A clone of the whole state at every node, put back afterwards: shows what
        /// allocation and copying cost (the engine's `Limits::clone_state`).
        Clone = "clone" => "clone the whole state at every node instead of undoing",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_strategy_form_round_trips_through_text() {
        for text in ["sequential", "depth:0", "depth:4", "auto", "auto:64", "steal", "budget:2000", "naive"] {
            let strategy: Strategy = text.parse().expect(text);
            assert_eq!(strategy.to_string(), text);
        }
        assert_eq!("auto".parse::<Strategy>(), Ok(Strategy::Auto { per_thread: DEFAULT_SUBPROBLEMS_PER_THREAD }));
        assert_eq!("auto:32".parse::<Strategy>().map(|s| s.to_string()), Ok("auto".to_string()));
    }

    #[test]
    fn malformed_strategies_are_refused_with_the_accepted_forms() {
        for text in
            ["", "Sequential", "depth", "depth:", "depth:-1", "auto:0", "auto:500001", "budget:0", "steal:3", "race"]
        {
            let error = text.parse::<Strategy>().expect_err(text);
            let message = error.to_string();
            assert!(message.contains("sequential, depth:D, auto, auto:K, steal, budget:B, naive"), "{message}");
        }
        let message = "budget:0".parse::<Strategy>().unwrap_err().to_string();
        assert!(message.contains("at least 1"), "{message}");
        let message = "auto:1000000000".parse::<Strategy>().unwrap_err().to_string();
        assert!(message.contains(&format!("1 to {MAX_SUBPROBLEMS}, the cap on listed subproblems")), "{message}");
        assert!(format!("auto:{MAX_SUBPROBLEMS}").parse::<Strategy>().is_ok());
    }

    #[test]
    fn counter_layouts_and_state_modes_round_trip_and_refuse_others() {
        for text in ["padded", "shared", "unpadded"] {
            assert_eq!(text.parse::<CounterLayout>().map(|layout| layout.to_string()), Ok(text.to_string()));
        }
        for text in ["undo", "clone"] {
            assert_eq!(text.parse::<StateRestore>().map(|mode| mode.to_string()), Ok(text.to_string()));
        }
        assert!("false-sharing".parse::<CounterLayout>().unwrap_err().to_string().contains("padded, shared, unpadded"));
        assert!("copy".parse::<StateRestore>().unwrap_err().to_string().contains("undo, clone"));
        assert_eq!(CounterLayout::default(), CounterLayout::Padded);
        assert_eq!(StateRestore::default(), StateRestore::Undo);
    }
}
