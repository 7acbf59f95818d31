//! The strategies against the sequential engine: identical solutions and counts for every
//! strategy, thread count and knob; first-solution and node-limit stops; the accounting.

use super::test_models::{Queens, RandomTree, TreeShape};
use super::{control, naive, CounterLayout, Limits, ParallelOutcome, ParallelPlan, Pool, StateRestore, Strategy};
use crate::search::StopReason;
use crate::search::{search_sequentially, FullCounters, Model, NoCounters, RuleCounter};
use proptest::prelude::{any, prop_assert_eq, proptest, ProptestConfig};
use proptest::strategy::Strategy as Generator;
use std::time::Duration;

/// [`super::search`] of a model that does not panic.
fn search<M: Model, C: RuleCounter + Send>(
    model: M,
    plan: &ParallelPlan,
    pool: &Pool,
    limits: Limits,
) -> ParallelOutcome<M::Solution> {
    super::search::<M, C>(model, plan, pool, limits).expect("the test models do not panic")
}

const THREAD_COUNTS: [usize; 5] = [1, 2, 3, 4, 8];

/// Every parallel strategy, with parameters that make both few and many tasks.
fn parallel_strategies() -> Vec<Strategy> {
    [
        "depth:0",
        "depth:1",
        "depth:3",
        "depth:40",
        "auto",
        "auto:4",
        "steal",
        "budget:1",
        "budget:50",
        "budget:5000",
        "naive",
        "replicable",
        "replicable:1",
    ]
    .iter()
    .map(|text| text.parse().expect("a valid strategy"))
    .collect()
}

fn pools() -> Vec<Pool> {
    THREAD_COUNTS.iter().map(|&threads| Pool::new(threads).expect("a small pool")).collect()
}

/// About 100 000 nodes, a few hundred solutions, leaves at depth 11.
fn medium_tree() -> TreeShape {
    TreeShape { seed: 7, depth: 11, branching: 6, prune_per_mille: 200, solution_per_mille: 20 }
}

fn plan(strategy: Strategy) -> ParallelPlan {
    ParallelPlan { strategy, ..ParallelPlan::default() }
}

/// Asserts that `outcome` has exactly the sequential run's solutions and counts.
fn assert_same_as_sequential<S: Ord + std::fmt::Debug>(
    outcome: &ParallelOutcome<S>,
    expected: &ParallelOutcome<S>,
    context: &str,
) {
    assert_eq!(outcome.stop, None, "{context}");
    assert_eq!(outcome.stats, expected.stats, "{context}");
    assert_eq!(outcome.solutions, expected.solutions, "{context}");
}

/// Facts about the accounting that hold for every exhaustive run.
fn assert_accounting_adds_up<S>(outcome: &ParallelOutcome<S>, context: &str) {
    let run = &outcome.run;
    let worker_nodes: u64 = outcome.workers.iter().map(|worker| worker.nodes).sum();
    assert_eq!(worker_nodes + run.frontier_nodes, outcome.stats.nodes, "{context}: nodes");
    if run.strategy != Strategy::Sequential {
        assert_eq!(run.published_nodes, worker_nodes, "{context}: published counters");
    }
    let tasks: u64 = outcome.workers.iter().map(|worker| worker.tasks_run).sum();
    match run.strategy {
        Strategy::Naive => assert_eq!(tasks, run.subproblems.div_ceil(naive::BATCH as u64), "{context}: batches"),
        _ => assert_eq!(tasks, run.subproblems, "{context}: every subproblem made is run once"),
    }
    let stolen: u64 = outcome.workers.iter().map(|worker| worker.tasks_stolen).sum();
    let given: u64 = outcome.workers.iter().map(|worker| worker.tasks_given_away).sum();
    assert_eq!((stolen, given), (run.steals, run.steals), "{context}: steals");
    if matches!(run.strategy, Strategy::Steal | Strategy::Budget(_)) {
        let split_off: u64 = outcome.workers.iter().map(|worker| worker.tasks_split_off).sum();
        assert_eq!(run.subproblems, 1 + split_off, "{context}: the root plus every split");
    }
    for worker in &outcome.workers {
        assert_eq!(worker.task_durations_ns.len(), worker.tasks_run, "{context}");
        assert_eq!(worker.task_sizes_nodes.len(), worker.tasks_run, "{context}");
        let accounted = worker.busy + worker.idle;
        let slack = run.wall / 50 + Duration::from_millis(2);
        assert!(
            accounted <= run.wall + slack && accounted + slack >= run.wall,
            "{context}: {accounted:?} vs {:?}",
            run.wall
        );
    }
    assert!(run.imbalance >= 1.0 - 1e-9, "{context}: imbalance {}", run.imbalance);
}

#[test]
fn every_strategy_matches_the_sequential_random_tree_at_1_to_8_threads() {
    let shape = medium_tree();
    let sequential_pool = Pool::new(1).expect("pool");
    let expected = search::<_, FullCounters>(
        RandomTree::new(shape),
        &plan(Strategy::Sequential),
        &sequential_pool,
        Limits::exhaustive(),
    );
    assert!(expected.stats.nodes > 50_000 && expected.solutions.len() > 100, "{:?}", expected.stats);
    assert!(expected.solutions.iter().all(|path| shape.verify(path).is_ok()));
    for pool in pools() {
        for strategy in parallel_strategies() {
            let context = format!("{strategy} on {} threads", pool.threads());
            let outcome =
                search::<_, FullCounters>(RandomTree::new(shape), &plan(strategy), &pool, Limits::exhaustive());
            assert_same_as_sequential(&outcome, &expected, &context);
            assert_accounting_adds_up(&outcome, &context);
            assert_eq!(outcome.workers.len(), pool.threads(), "{context}");
        }
    }
}

#[test]
fn eight_queens_has_92_solutions_and_the_same_15721_nodes_under_every_strategy() {
    let pool_one = Pool::new(1).expect("pool");
    let expected =
        search::<_, FullCounters>(Queens::new(8), &plan(Strategy::Sequential), &pool_one, Limits::exhaustive());
    assert_eq!(expected.solutions.len(), 92);
    assert_eq!(expected.stats.nodes, 15_721);
    assert!(expected.solutions.iter().all(|columns| Queens::verify(8, columns).is_ok()));
    for pool in pools() {
        for strategy in parallel_strategies() {
            let context = format!("{strategy} on {} threads", pool.threads());
            let outcome = search::<_, FullCounters>(Queens::new(8), &plan(strategy), &pool, Limits::exhaustive());
            assert_same_as_sequential(&outcome, &expected, &context);
            assert_accounting_adds_up(&outcome, &context);
        }
    }
}

#[test]
fn sequential_is_the_plain_engine() {
    let shape = medium_tree();
    let plain = search_sequentially::<_, FullCounters>(RandomTree::new(shape), Limits::exhaustive());
    let pool = Pool::new(2).expect("pool");
    let outcome =
        search::<_, FullCounters>(RandomTree::new(shape), &plan(Strategy::Sequential), &pool, Limits::exhaustive());
    assert_eq!(outcome.stats, plain.stats);
    let mut sorted = plain.solutions;
    sorted.sort();
    assert_eq!(outcome.solutions, sorted);
    assert_eq!(outcome.workers.len(), 1);
    assert_eq!(outcome.workers[0].nodes, plain.stats.nodes);
    assert_eq!((outcome.run.threads, outcome.run.subproblems, outcome.run.published_nodes), (1, 1, 0));
}

#[test]
fn counter_layouts_and_state_modes_change_no_count() {
    let shape = TreeShape { seed: 3, depth: 9, branching: 5, prune_per_mille: 150, solution_per_mille: 50 };
    let pool_one = Pool::new(1).expect("pool");
    let expected =
        search::<_, FullCounters>(RandomTree::new(shape), &plan(Strategy::Sequential), &pool_one, Limits::exhaustive());
    let pool = Pool::new(3).expect("pool");
    for strategy in ["depth:2", "auto", "steal", "budget:100", "naive"] {
        for counters in [CounterLayout::Padded, CounterLayout::Shared, CounterLayout::Unpadded] {
            for state in [StateRestore::Undo, StateRestore::Clone] {
                let plan = ParallelPlan { strategy: strategy.parse().expect("strategy"), counters, state };
                let context = format!("{strategy} {counters} {state}");
                let outcome = search::<_, FullCounters>(RandomTree::new(shape), &plan, &pool, Limits::exhaustive());
                assert_same_as_sequential(&outcome, &expected, &context);
                assert_accounting_adds_up(&outcome, &context);
            }
        }
    }
}

#[test]
fn first_solution_runs_return_valid_solutions_and_stop_early() {
    let shape = medium_tree();
    let pool_one = Pool::new(1).expect("pool");
    let whole =
        search::<_, NoCounters>(RandomTree::new(shape), &plan(Strategy::Sequential), &pool_one, Limits::exhaustive());
    let sequential = search::<_, NoCounters>(
        RandomTree::new(shape),
        &plan(Strategy::Sequential),
        &pool_one,
        Limits::first_solution(),
    );
    assert_eq!(sequential.stop, Some(StopReason::FirstSolution));
    assert_eq!(sequential.solutions.len(), 1);
    for pool in pools() {
        for strategy in parallel_strategies() {
            let context = format!("{strategy} on {} threads", pool.threads());
            let outcome =
                search::<_, NoCounters>(RandomTree::new(shape), &plan(strategy), &pool, Limits::first_solution());
            assert_eq!(outcome.stop, Some(StopReason::FirstSolution), "{context}");
            assert!(!outcome.solutions.is_empty(), "{context}");
            assert!(outcome.solutions.iter().all(|path| shape.verify(path).is_ok()), "{context}");
            assert_eq!(outcome.stats.solutions as usize, outcome.solutions.len(), "{context}");
            if strategy != Strategy::Naive {
                // Naive lists almost the whole tree before any worker starts.
                assert!(outcome.stats.nodes < whole.stats.nodes, "{context}: stopped early");
            }
            if outcome.run.frontier_nodes < outcome.stats.nodes {
                assert!(outcome.run.stop_latency.is_some(), "{context}");
            }
            // Workers poll the stop flag at every node, so each enters at most one node
            // after the stop: the one at which it sees the flag.
            assert!(outcome.run.nodes_after_stop <= pool.threads() as u64, "{context}");
        }
    }
}

#[test]
fn queens_first_solution_is_a_valid_placement_for_every_strategy() {
    for pool in pools() {
        for strategy in parallel_strategies() {
            let outcome = search::<_, NoCounters>(Queens::new(10), &plan(strategy), &pool, Limits::first_solution());
            let context = format!("{strategy} on {} threads", pool.threads());
            assert_eq!(outcome.stop, Some(StopReason::FirstSolution), "{context}");
            assert!(outcome.solutions.iter().all(|columns| Queens::verify(10, columns).is_ok()), "{context}");
            assert!(!outcome.solutions.is_empty(), "{context}");
        }
    }
}

#[test]
fn a_node_limit_stops_every_strategy_near_the_limit() {
    let shape = medium_tree();
    let limit = 20_000;
    for pool in pools() {
        for strategy in parallel_strategies() {
            let context = format!("{strategy} on {} threads", pool.threads());
            let limits = Limits { node_limit: limit, ..Limits::exhaustive() };
            let outcome = search::<_, NoCounters>(RandomTree::new(shape), &plan(strategy), &pool, limits);
            assert_eq!(outcome.stop, Some(StopReason::NodeLimit), "{context}");
            let slack = pool.threads() as u64 * control::NODE_FLUSH_INTERVAL;
            assert!(outcome.stats.nodes <= limit + slack, "{context}: {} nodes", outcome.stats.nodes);
        }
    }
}

#[test]
fn depth_tasks_are_exactly_the_frontier_and_steal_moves_work_between_workers() {
    let shape = medium_tree();
    let pool = Pool::new(2).expect("pool");
    let depth = search::<_, NoCounters>(RandomTree::new(shape), &plan(Strategy::Depth(4)), &pool, Limits::exhaustive());
    assert_eq!(depth.run.frontier_depth, Some(4));
    let tasks: u64 = depth.workers.iter().map(|worker| worker.tasks_run).sum();
    assert_eq!(tasks, depth.run.subproblems);
    assert!(depth.run.frontier_nodes > 0 && depth.run.subproblems > 20);
    let auto = search::<_, NoCounters>(
        RandomTree::new(shape),
        &plan("auto:16".parse().expect("auto")),
        &pool,
        Limits::exhaustive(),
    );
    assert!(auto.run.subproblems >= 32, "auto found {} subproblems", auto.run.subproblems);
    // A worker is hungry only when it gets a CPU while the other still works: on a loaded
    // machine one worker can finish the whole tree alone, so up to five tries.
    let mut splits = Vec::new();
    while splits.len() < 5 && splits.last().is_none_or(|&subproblems| subproblems <= 1) {
        let steal =
            search::<_, NoCounters>(RandomTree::new(shape), &plan(Strategy::Steal), &pool, Limits::exhaustive());
        splits.push(steal.run.subproblems);
    }
    assert!(splits.last() > Some(&1), "someone was hungry, so the tree was split: {splits:?}");
    let budget =
        search::<_, NoCounters>(RandomTree::new(shape), &plan(Strategy::Budget(100)), &pool, Limits::exhaustive());
    assert!(budget.run.subproblems > 100, "a split every 100 nodes: {}", budget.run.subproblems);
}

fn any_shape() -> impl Generator<Value = TreeShape> {
    (any::<u64>(), 0usize..8, 1u32..6, 0u64..500, 0u64..1000).prop_map(
        |(seed, depth, branching, prune_per_mille, solution_per_mille)| TreeShape {
            seed,
            depth,
            branching,
            prune_per_mille,
            solution_per_mille,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn generated_trees_give_the_sequential_counts(
        shape in any_shape(),
        strategy in proptest::sample::select(parallel_strategies()),
        threads in 1usize..5,
        counters in proptest::sample::select(vec![CounterLayout::Padded, CounterLayout::Shared, CounterLayout::Unpadded]),
    ) {
        let pool = Pool::new(threads).expect("pool");
        let expected = search_sequentially::<_, FullCounters>(RandomTree::new(shape), Limits::exhaustive());
        let mut expected_solutions = expected.solutions;
        expected_solutions.sort();
        let plan = ParallelPlan { strategy, counters, state: StateRestore::Undo };
        let outcome = search::<_, FullCounters>(RandomTree::new(shape), &plan, &pool, Limits::exhaustive());
        prop_assert_eq!(&outcome.stats, &expected.stats);
        prop_assert_eq!(&outcome.solutions, &expected_solutions);
        prop_assert_eq!(outcome.stop, None);
        let worker_nodes: u64 = outcome.workers.iter().map(|worker| worker.nodes).sum();
        prop_assert_eq!(worker_nodes + outcome.run.frontier_nodes, outcome.stats.nodes);
    }
}

/// A path `DEEP_CHAIN` moves long: at every depth the move `0` goes on and the move `1` is
/// rejected; the end of the path is the one solution.
#[derive(Clone)]
struct DeepChain {
    depth: usize,
}

const DEEP_CHAIN: usize = 50_000;

impl Model for DeepChain {
    type Move = u8;
    type Solution = usize;
    const REJECTS_BEFORE_CHANGING: bool = true;

    fn rule_names(&self) -> &[&'static str] {
        &["side step"]
    }

    fn max_depth(&self) -> usize {
        DEEP_CHAIN
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<u8>, _: &mut C) -> crate::search::Branch {
        if self.depth == DEEP_CHAIN {
            return crate::search::Branch::Solution;
        }
        moves.extend([0, 1]);
        crate::search::Branch::Moves
    }

    fn apply<C: RuleCounter>(&mut self, step: u8, counters: &mut C) -> Result<(), crate::search::RuleId> {
        counters.check(0);
        if step == 1 {
            return Err(0);
        }
        self.depth += 1;
        Ok(())
    }

    fn undo(&mut self, _: u8) {
        self.depth -= 1;
    }

    fn solution(&self) -> usize {
        self.depth
    }
}

/// A search 50,000 moves deep runs on the workers' threads as on the calling one: their
/// stacks hold the engine's recursion that deep (on a thread's default 2 MiB stack a
/// knapsack of 10,000 items that all fit aborted the process).
#[test]
fn a_path_fifty_thousand_moves_deep_is_searched_on_worker_threads() {
    // The reference search runs on a thread with the workers' stack: a test's thread has
    // 2 MiB, which the sequential recursion outgrows as well.
    let expected = std::thread::Builder::new()
        .stack_size(super::pool::WORKER_STACK_BYTES)
        .spawn(|| search_sequentially::<_, FullCounters>(DeepChain { depth: 0 }, Limits::exhaustive()))
        .expect("a thread")
        .join()
        .expect("the chain does not panic");
    assert_eq!(expected.stats.nodes, 1 + 2 * DEEP_CHAIN as u64);
    assert_eq!(expected.solutions, vec![DEEP_CHAIN]);
    let pool = Pool::new(2).expect("a small pool");
    for strategy in ["steal", "budget:50", "depth:3", "auto", "replicable"] {
        let plan = plan(strategy.parse().expect("a valid strategy"));
        let outcome = search::<_, FullCounters>(DeepChain { depth: 0 }, &plan, &pool, Limits::exhaustive());
        assert_eq!(outcome.stop, None, "{strategy}");
        assert_eq!(outcome.stats, expected.stats, "{strategy}");
        assert_eq!(outcome.solutions, expected.solutions, "{strategy}");
    }
}
