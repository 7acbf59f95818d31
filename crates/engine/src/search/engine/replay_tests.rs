//! Tests of the replay check: a subproblem whose path the model does not offer again stops
//! with [`MovesDoNotReplay`]; a worker branches a node on its replayed paths once.

use super::tests::SubsetSum;
use super::*;
use crate::search::{FullCounters, NoObserver, NoSteering};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The subset-sum tree of `tests.rs` (n = 12, target 20), one of whose nodes (the root,
/// unless `at` names another by its path) counts its branches in a counter shared by every
/// clone, and offers its first move only on its first `honest_branches` (a model that reads
/// state kept outside do/undo).
#[derive(Clone)]
struct CountingRoot {
    tree: SubsetSum,
    at: Vec<u32>,
    node_branches: Arc<AtomicUsize>,
    honest_branches: usize,
}

impl CountingRoot {
    fn new(honest_branches: usize) -> Self {
        let tree = SubsetSum { n: 12, target: 20, chosen: Vec::new(), sum: 0 };
        CountingRoot { tree, at: Vec::new(), node_branches: Arc::new(AtomicUsize::new(0)), honest_branches }
    }
}

impl Model for CountingRoot {
    type Move = u32;
    type Solution = Vec<u32>;
    const REJECTS_BEFORE_CHANGING: bool = true;
    fn rule_names(&self) -> &[&'static str] {
        self.tree.rule_names()
    }
    fn max_depth(&self) -> usize {
        self.tree.max_depth()
    }
    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<u32>, counters: &mut C) -> Branch {
        let watched = self.tree.chosen == self.at;
        let start = moves.len();
        let branch = self.tree.branch(moves, counters);
        if watched && self.node_branches.fetch_add(1, Ordering::Relaxed) >= self.honest_branches {
            moves.remove(start);
        }
        branch
    }
    fn apply<C: RuleCounter>(&mut self, mv: u32, counters: &mut C) -> Result<(), usize> {
        self.tree.apply(mv, counters)
    }
    fn undo(&mut self, mv: u32) {
        self.tree.undo(mv);
    }
    fn solution(&self) -> Vec<u32> {
        self.tree.solution()
    }
}

type TestEngine = Engine<CountingRoot, FullCounters, NoSteering, NoObserver>;

fn engine(model: CountingRoot) -> TestEngine {
    Engine::new(model, NoSteering, NoObserver, Limits::exhaustive())
}

#[test]
fn a_path_through_a_node_that_no_longer_offers_its_move_stops_with_moves_do_not_replay() {
    let model = CountingRoot::new(1);
    let subproblems = engine(model.clone()).enumerate_frontier(2);
    let through_one = subproblems.iter().find(|path| path[0] == 1).expect("a subproblem under the move 1");
    let mut worker = engine(model);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| worker.run_subproblem(through_one)));
    let payload = caught.expect_err("the root no longer offers the move 1");
    let mismatch = payload.downcast_ref::<MovesDoNotReplay>().expect("the replay check's payload");
    assert_eq!(mismatch.depth, 0);
    assert!(mismatch.detail.starts_with("the move 1 at depth 0 is not offered on replay: the node offers [2, 3, "));
    assert!(mismatch.to_string().starts_with("moves do not replay: the move 1 at depth 0"), "{mismatch}");
}

/// A move on the prefix shared with the previous path is not looked up again (its node was
/// not branched since), but the first move past that prefix is: a node below the root that
/// stops offering a move is caught on the second path through it.
#[test]
fn past_a_prefix_shared_with_the_last_path_the_next_move_is_checked() {
    let model = CountingRoot { at: vec![2], ..CountingRoot::new(1) };
    let subproblems = engine(model.clone()).enumerate_frontier(2);
    let path = |moves: [u32; 2]| subproblems.iter().find(|path| **path == moves).expect("a listed subproblem");
    let mut worker = engine(model);
    worker.run_subproblem(path([2, 4]));
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| worker.run_subproblem(path([2, 3]))));
    let payload = caught.expect_err("the node under 2 no longer offers the move 3");
    let mismatch = payload.downcast_ref::<MovesDoNotReplay>().expect("the replay check's payload");
    assert_eq!(mismatch.depth, 1);
    assert!(mismatch.detail.starts_with("the move 3 at depth 1 is not offered on replay: the node offers [4, 5, "));
}

#[test]
fn a_worker_branches_each_node_of_its_replayed_paths_once_and_counts_the_whole_tree() {
    let model = CountingRoot::new(usize::MAX);
    let mut sequential = engine(model.clone());
    sequential.run();
    let mut lister = engine(model.clone());
    let subproblems = lister.enumerate_frontier(2);
    assert!(subproblems.len() > 20, "{}", subproblems.len());
    let before = model.node_branches.load(Ordering::Relaxed);
    let mut worker = engine(model.clone());
    for subproblem in &subproblems {
        worker.run_subproblem(subproblem);
    }
    // The root is on every path: the worker asked for its moves once.
    assert_eq!(model.node_branches.load(Ordering::Relaxed) - before, 1);
    let (whole, lister, worker) = (sequential.stats(), lister.stats(), worker.stats());
    assert_eq!(lister.nodes + worker.nodes, whole.nodes);
    assert_eq!(lister.solutions + worker.solutions, whole.solutions);
}

#[test]
fn engines_made_one_per_subproblem_branch_the_root_once_when_they_hand_on_their_memory() {
    let model = CountingRoot::new(usize::MAX);
    let mut sequential = engine(model.clone());
    sequential.run();
    let mut lister = engine(model.clone());
    let subproblems = lister.enumerate_frontier(2);
    let before = model.node_branches.load(Ordering::Relaxed);
    let (mut nodes, mut memory) = (lister.stats().nodes, crate::search::ReplayMemory::new());
    // One model handed on from engine to engine as well: each leaves it at its root.
    let mut root = model.clone();
    for subproblem in &subproblems {
        let mut worker = engine(root).with_replay_memory(memory);
        worker.run_subproblem(subproblem);
        memory = worker.take_replay_memory();
        nodes += worker.stats().nodes;
        root = worker.into_model();
        assert!(root.tree.chosen.is_empty() && root.tree.sum == 0, "{:?}", root.tree.chosen);
    }
    assert_eq!(model.node_branches.load(Ordering::Relaxed) - before, 1);
    assert_eq!(nodes, sequential.stats().nodes);
    // In any order, the same subtrees: each move is found wherever the last one was.
    let mut worker = engine(model.clone());
    for subproblem in subproblems.iter().rev().chain(subproblems.iter().step_by(3)) {
        worker.run_subproblem(subproblem);
    }
    let thirds: u64 = subproblems.iter().step_by(3).map(|path| subtree_nodes(&model, path)).sum();
    assert_eq!(worker.stats().nodes, sequential.stats().nodes - lister.stats().nodes + thirds);
    // A memory of nothing: each engine branches the root again.
    let before = model.node_branches.load(Ordering::Relaxed);
    for subproblem in &subproblems[..3] {
        engine(model.clone()).run_subproblem(subproblem);
    }
    assert_eq!(model.node_branches.load(Ordering::Relaxed) - before, 3);
}

/// The nodes of the subtree under `path` alone.
fn subtree_nodes(model: &CountingRoot, path: &[u32]) -> u64 {
    let mut alone = engine(model.clone());
    alone.run_subproblem(path);
    alone.stats().nodes
}

#[test]
fn a_move_is_looked_for_from_where_the_last_was_found_and_then_from_the_start() {
    let moves = [5, 7, 9, 7, 11];
    assert_eq!(replay::position_from(&moves, &9, 0), Some(2));
    assert_eq!(replay::position_from(&moves, &11, 2), Some(4));
    assert_eq!(replay::position_from(&moves, &5, 3), Some(0));
    assert_eq!(replay::position_from(&moves, &7, 2), Some(3));
    assert_eq!(replay::position_from(&moves, &7, 99), Some(1));
    assert_eq!(replay::position_from(&moves, &8, 1), None);
    assert_eq!(replay::position_from(&[] as &[u32], &8, 0), None);
}
