//! A model whose branching changes between two searches of the same tree (a root that
//! reads a counter kept outside do/undo) is named by the strategies that list the frontier
//! level after level, instead of searching the subproblems of one tree as if they were the
//! other's; the same model, honest, runs to the sequential counts.

use super::{search, ParallelPlan, Pool, Strategy};
use crate::search::{search_sequentially, Branch, FullCounters, Limits, Model, RuleCounter, RuleId};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The complete tree of 3 children per node down to depth 6 (every leaf a solution), whose
/// root offers a fourth child from its second branch on when `drifting`: the count of the
/// root's branches is shared by every copy of the model.
#[derive(Debug, Clone)]
struct DriftingRoot {
    drifting: bool,
    path: Vec<u32>,
    root_branches: Arc<AtomicUsize>,
}

impl DriftingRoot {
    fn new(drifting: bool) -> DriftingRoot {
        DriftingRoot { drifting, path: Vec::new(), root_branches: Arc::new(AtomicUsize::new(0)) }
    }
}

impl Model for DriftingRoot {
    type Move = u32;
    type Solution = Vec<u32>;
    const REJECTS_BEFORE_CHANGING: bool = true;
    fn rule_names(&self) -> &[&'static str] {
        &[]
    }
    fn max_depth(&self) -> usize {
        6
    }
    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<u32>, _counters: &mut C) -> Branch {
        if self.path.len() == 6 {
            return Branch::Solution;
        }
        moves.extend(0..3);
        if self.path.is_empty() && self.drifting && self.root_branches.fetch_add(1, Ordering::Relaxed) > 0 {
            moves.push(3);
        }
        Branch::Moves
    }
    fn apply<C: RuleCounter>(&mut self, mv: u32, _counters: &mut C) -> Result<(), RuleId> {
        self.path.push(mv);
        Ok(())
    }
    fn undo(&mut self, _mv: u32) {
        self.path.pop();
    }
    fn solution(&self) -> Vec<u32> {
        self.path.clone()
    }
}

fn plan(strategy: &str) -> ParallelPlan {
    ParallelPlan { strategy: strategy.parse::<Strategy>().expect("a valid strategy"), ..ParallelPlan::default() }
}

#[test]
fn a_root_that_branches_differently_each_time_stops_auto_and_replicable_as_moves_that_do_not_replay() {
    let pool = Pool::new(2).expect("a small pool");
    for strategy in ["auto", "auto:64", "replicable", "replicable:1"] {
        let failed = search::<_, FullCounters>(DriftingRoot::new(true), &plan(strategy), &pool, Limits::exhaustive())
            .expect_err(strategy);
        assert!(failed.moves_do_not_replay, "{strategy}: {failed}");
        assert!(
            failed.message.starts_with(
                "moves do not replay: two listings of the same tree differ: the listing to depth 2 entered 5 nodes, \
                 where the listing to depth 1 entered 1 above its depth and listed 3 at it (4 in all)"
            ),
            "{strategy}: {failed}"
        );
    }
}

#[test]
fn the_same_root_honest_runs_to_the_sequential_counts() {
    let pool = Pool::new(2).expect("a small pool");
    let sequential = search_sequentially::<_, FullCounters>(DriftingRoot::new(false), Limits::exhaustive());
    assert_eq!(sequential.stats.solutions, 729);
    for strategy in ["auto", "auto:64", "replicable", "replicable:1"] {
        let outcome = search::<_, FullCounters>(DriftingRoot::new(false), &plan(strategy), &pool, Limits::exhaustive())
            .unwrap_or_else(|failed| panic!("{strategy}: {failed}"));
        assert_eq!(outcome.stats.nodes, sequential.stats.nodes, "{strategy}");
        assert_eq!(outcome.stats.solutions, 729, "{strategy}");
    }
}
