//! A model that panics stops the run under every strategy: the run returns the panic (its
//! message, its line, the node's path), no worker waits for the task that died, and no
//! worker goes on to trip the same bug again.

use super::{search, ModelPanic, ParallelPlan, Pool, Strategy};
use crate::search::{Branch, Limits, Model, NoCounters, RuleCounter, RuleId};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// Where the faulty tree's bug is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    /// `apply` panics when it would enter a faulty node.
    Apply,
    /// `branch` panics at a faulty node.
    Branch,
    /// `undo` panics when it leaves a faulty node.
    Undo,
    /// `solution()` panics at a faulty leaf.
    Solution,
}

/// The complete tree of `BRANCHING` children per node down to `DEPTH` (every leaf a
/// solution); the nodes at `fault_depth` under the root's child 1 are faulty.
#[derive(Debug, Clone)]
struct FaultyTree {
    fault: Fault,
    fault_depth: usize,
    path: Vec<u32>,
    /// Panics raised, by every copy of the model.
    raised: Arc<AtomicUsize>,
    /// Whether only the first faulty node met (by any copy) panics: a model whose bug does
    /// not come again when the same tree is searched twice.
    only_once: bool,
}

const BRANCHING: u32 = 4;
const DEPTH: usize = 8;

impl FaultyTree {
    fn new(fault: Fault, fault_depth: usize) -> FaultyTree {
        FaultyTree { fault, fault_depth, path: Vec::new(), raised: Arc::new(AtomicUsize::new(0)), only_once: false }
    }

    fn is_faulty(&self, path: &[u32]) -> bool {
        path.len() == self.fault_depth && path.first() == Some(&1)
    }

    fn fail(&self, fault: Fault, path: &[u32]) {
        let spent = self.only_once && self.raised.load(Ordering::SeqCst) > 0;
        if self.fault == fault && self.is_faulty(path) && !spent {
            self.raised.fetch_add(1, Ordering::SeqCst);
            panic!("{fault:?} fault at {path:?}");
        }
    }
}

impl Model for FaultyTree {
    type Move = u32;
    type Solution = Vec<u32>;

    fn rule_names(&self) -> &[&'static str] {
        &[]
    }

    fn max_depth(&self) -> usize {
        DEPTH
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<u32>, _: &mut C) -> Branch {
        self.fail(Fault::Branch, &self.path);
        if self.path.len() == DEPTH {
            return Branch::Solution;
        }
        moves.extend(0..BRANCHING);
        Branch::Moves
    }

    fn apply<C: RuleCounter>(&mut self, child: u32, _: &mut C) -> Result<(), RuleId> {
        let mut entered = self.path.clone();
        entered.push(child);
        self.fail(Fault::Apply, &entered);
        self.path.push(child);
        Ok(())
    }

    fn undo(&mut self, _: u32) {
        self.fail(Fault::Undo, &self.path);
        self.path.pop();
    }

    fn solution(&self) -> Vec<u32> {
        self.fail(Fault::Solution, &self.path);
        self.path.clone()
    }
}

/// Every strategy the command line offers, with split parameters that split this tree.
const STRATEGIES: [&str; 6] = ["sequential", "naive", "depth:2", "steal", "budget:64", "auto"];

/// Runs the search on a thread of its own and fails the test if it has not returned within
/// 30 seconds (a hang: before panics were caught, `steal` and `budget` never returned).
fn search_or_hang(model: FaultyTree, strategy: &str, threads: usize) -> Result<u64, ModelPanic> {
    let strategy: Strategy = strategy.parse().expect("a valid strategy");
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let pool = Pool::new(threads).expect("a small pool");
        let plan = ParallelPlan { strategy, ..ParallelPlan::default() };
        let outcome = search::<_, NoCounters>(model, &plan, &pool, Limits::exhaustive());
        let _ = sender.send(outcome.map(|outcome| outcome.stats.solutions));
    });
    receiver.recv_timeout(Duration::from_secs(30)).unwrap_or_else(|_| panic!("{strategy} x{threads}: the run hung"))
}

/// The path `ModelPanic::path` names for a panic whose message is `{fault:?} fault at
/// {path:?}`: the node itself, or its parent for a fault in entering or leaving it (`apply`,
/// `undo`).
fn expected_path(fault: Fault, message: &str) -> String {
    let faulty = message.split(" fault at ").nth(1).expect("the fault's message names its node");
    match fault {
        Fault::Apply | Fault::Undo => {
            faulty.rsplit_once(", ").map(|(parent, _)| format!("{parent}]")).expect("a path of 2+ moves")
        }
        _ => faulty.to_string(),
    }
}

#[test]
fn a_panic_in_apply_branch_undo_or_solution_stops_every_strategy_with_the_panic() {
    for fault in [Fault::Apply, Fault::Branch, Fault::Undo, Fault::Solution] {
        let fault_depth = if fault == Fault::Solution { DEPTH } else { 3 };
        for strategy in STRATEGIES {
            let context = format!("{fault:?} fault, {strategy} x2");
            let model = FaultyTree::new(fault, fault_depth);
            let raised = Arc::clone(&model.raised);
            let panic = search_or_hang(model, strategy, 2).expect_err(&context);
            assert!(panic.message.starts_with(&format!("{fault:?} fault at [1, ")), "{context}: {panic:?}");
            let location = panic.location.as_deref().unwrap_or_default();
            assert!(location.contains("src/parallel/panic_tests.rs:"), "{context}: {panic:?}");
            // The sequential loop keeps no path: it searches again for the node.
            assert_eq!(panic.path, Some(expected_path(fault, &panic.message)), "{context}");
            // Each worker stops at its first panic, and the others at their next node: no
            // worker goes on to the next faulty node (there are 16 or more of them).
            let raised = raised.load(Ordering::SeqCst);
            assert!((1..=2).contains(&raised), "{context}: {raised} panics raised");
        }
    }
}

#[test]
fn a_tree_without_faulty_nodes_is_searched_whole_by_every_strategy() {
    for strategy in STRATEGIES {
        let solutions = search_or_hang(FaultyTree::new(Fault::Apply, DEPTH + 1), strategy, 2);
        assert_eq!(solutions, Ok(u64::from(BRANCHING).pow(DEPTH as u32)), "{strategy}");
    }
}

#[test]
fn a_panic_in_a_frontier_listing_is_returned_with_its_path() {
    // Depth 1 is above the frontier of `depth:2`, so the calling thread's listing panics.
    let panic = search_or_hang(FaultyTree::new(Fault::Branch, 1), "depth:2", 2).expect_err("a panic");
    assert_eq!((panic.message.as_str(), panic.path.as_deref()), ("Branch fault at [1]", Some("[1]")));
}

#[test]
fn a_max_depth_below_the_tree_is_an_error_naming_max_depth() {
    /// The faulty tree, claiming one level fewer than it has.
    #[derive(Debug, Clone)]
    struct Shallow(FaultyTree);

    impl Model for Shallow {
        type Move = u32;
        type Solution = Vec<u32>;
        fn rule_names(&self) -> &[&'static str] {
            &[]
        }
        fn max_depth(&self) -> usize {
            DEPTH - 1
        }
        fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<u32>, counters: &mut C) -> Branch {
            self.0.branch(moves, counters)
        }
        fn apply<C: RuleCounter>(&mut self, child: u32, counters: &mut C) -> Result<(), RuleId> {
            self.0.apply(child, counters)
        }
        fn undo(&mut self, child: u32) {
            self.0.undo(child)
        }
        fn solution(&self) -> Vec<u32> {
            self.0.solution()
        }
    }

    for strategy in STRATEGIES {
        let pool = Pool::new(2).expect("a small pool");
        let plan = ParallelPlan { strategy: strategy.parse().expect("a valid strategy"), ..ParallelPlan::default() };
        let model = Shallow(FaultyTree::new(Fault::Apply, DEPTH + 1));
        let panic = search::<_, NoCounters>(model, &plan, &pool, Limits::exhaustive()).expect_err(strategy);
        assert!(
            panic.message.starts_with("the model's max_depth() is 7 but a node at depth 7"),
            "{strategy}: {panic:?}"
        );
    }
}

#[test]
fn the_sequential_loop_names_a_panics_node_only_when_a_second_search_meets_it_again() {
    let once = FaultyTree { only_once: true, ..FaultyTree::new(Fault::Apply, 3) };
    let raised = Arc::clone(&once.raised);
    let panic = search_or_hang(once, "sequential", 1).expect_err("the first search panics");
    assert!(panic.message.starts_with("Apply fault at [1, "), "{panic:?}");
    assert_eq!((panic.path, raised.load(Ordering::SeqCst)), (None, 1));
    let every_time = FaultyTree::new(Fault::Apply, 3);
    let raised = Arc::clone(&every_time.raised);
    let panic = search_or_hang(every_time, "sequential", 1).expect_err("the first search panics");
    assert_eq!(panic.path, Some(expected_path(Fault::Apply, &panic.message)));
    assert_eq!(raised.load(Ordering::SeqCst), 2, "the first search and the second");
}
