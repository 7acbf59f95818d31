//! Branch and bound under every strategy: the optimum equals a brute force over the tree,
//! every optimal solution is listed when asked, decision runs stop at their target, and
//! `replicable` gives the same counts on every run.

use super::test_models::{TreeShape, ValuedTree};
use super::{Limits, ParallelOutcome, ParallelPlan, Pool, Strategy};
use crate::search::{keep_best, search_sequentially, FullCounters, Incumbent, Model, StopReason};

/// About 100 000 nodes unbounded, leaves at depth 11, a few hundred solutions.
fn shape(seed: u64) -> TreeShape {
    TreeShape { seed, depth: 11, branching: 6, prune_per_mille: 200, solution_per_mille: 20 }
}

/// Seeds whose trees have at least 20 solutions (the first three such from 1 up).
fn seeds() -> Vec<u64> {
    (1..100).filter(|&seed| ValuedTree::<false>::every_solution(shape(seed)).len() >= 20).take(3).collect()
}

fn strategies() -> Vec<Strategy> {
    ["sequential", "depth:2", "auto", "steal", "budget:50", "naive", "replicable", "replicable:1"]
        .iter()
        .map(|text| text.parse().expect("a valid strategy"))
        .collect()
}

fn run<M: Model>(model: M, strategy: Strategy, pool: &Pool, limits: Limits) -> ParallelOutcome<M::Solution> {
    let plan = ParallelPlan { strategy, ..ParallelPlan::default() };
    super::search::<M, FullCounters>(model, &plan, pool, limits).expect("the test models do not panic")
}

/// The best value and every path that has it, by brute force.
fn optimum(shape: TreeShape) -> (i64, Vec<Vec<u32>>) {
    let found = ValuedTree::<false>::every_solution(shape);
    let best = found.iter().map(|(value, _)| *value).max().expect("the test trees have solutions");
    let mut paths: Vec<Vec<u32>> =
        found.into_iter().filter(|(value, _)| *value == best).map(|(_, path)| path).collect();
    paths.sort();
    (best, paths)
}

fn best_value<M: Model>(model: &M, outcome: &ParallelOutcome<M::Solution>) -> Option<i64> {
    outcome.solutions.first().map(|solution| model.solution_value(solution))
}

#[test]
fn the_optimum_equals_the_brute_force_under_every_strategy_at_1_2_and_3_threads() {
    for seed in seeds() {
        let (best, _) = optimum(shape(seed));
        for threads in [1, 2, 3] {
            let pool = Pool::new(threads).expect("a small pool");
            for strategy in strategies() {
                let context = format!("seed {seed}, {strategy} x{threads}");
                let plain = ValuedTree::<false>::new(shape(seed));
                let outcome = run(plain.clone(), strategy, &pool, Limits::exhaustive());
                assert_eq!(best_value(&plain, &outcome), Some(best), "{context}");
                assert_eq!(outcome.stop, None, "{context}");
                let ordered = ValuedTree::<true>::new(shape(seed));
                let outcome = run(ordered.clone(), strategy, &pool, Limits::exhaustive());
                assert_eq!(best_value(&ordered, &outcome), Some(best), "{context}, ordered moves");
            }
        }
    }
}

#[test]
fn the_bound_cuts_nodes_and_counts_its_prunes_and_the_sibling_cut_enters_fewer() {
    let model = ValuedTree::<false>::new(shape(seeds()[1]));
    let unbounded = ValuedTree::<false>::every_solution(shape(seeds()[1])).len() as u64;
    let plain = search_sequentially::<_, FullCounters>(model, Limits::exhaustive());
    let ordered =
        search_sequentially::<_, FullCounters>(ValuedTree::<true>::new(shape(seeds()[1])), Limits::exhaustive());
    let bound_prunes = plain.stats.rule_prunes[2];
    assert!(bound_prunes > 0, "the bound cut nothing");
    assert!(plain.stats.solutions < unbounded, "every solution was reached: the bound cut nothing");
    assert_eq!(plain.stats.rule_checks[2], plain.stats.nodes - 1, "one bound check per node below the root");
    let per_depth: u64 = plain.stats.prunes_per_depth.iter().map(|row| row[2]).sum();
    assert_eq!(per_depth, bound_prunes, "the bound's prunes are counted per depth");
    assert!(ordered.stats.nodes < plain.stats.nodes, "{} vs {}", ordered.stats.nodes, plain.stats.nodes);
}

#[test]
fn all_optima_lists_every_optimal_solution_under_every_strategy() {
    let (best, paths) = optimum(shape(seeds()[2]));
    let pool = Pool::new(3).expect("a small pool");
    for strategy in strategies() {
        let model = ValuedTree::<true>::new(shape(seeds()[2]));
        let limits = Limits { all_optima: true, ..Limits::exhaustive() };
        let outcome = run(model.clone(), strategy, &pool, limits);
        assert_eq!(best_value(&model, &outcome), Some(best), "{strategy}");
        assert_eq!(outcome.solutions, paths, "{strategy}");
    }
}

#[test]
fn a_decision_run_stops_at_its_target_or_proves_it_unreachable() {
    let (best, _) = optimum(shape(seeds()[0]));
    let pool = Pool::new(2).expect("a small pool");
    for strategy in strategies() {
        let model = ValuedTree::<false>::new(shape(seeds()[0]));
        let limits =
            Limits { target: Some(best - 5), incumbent: Some(Incumbent::seeded(best - 6)), ..Limits::exhaustive() };
        let outcome = run(model.clone(), strategy, &pool, limits);
        let value = best_value(&model, &outcome).expect("a solution reaches the target");
        assert!(value >= best - 5, "{strategy}: {value} < {}", best - 5);
        assert_eq!(outcome.stop, Some(StopReason::TargetReached), "{strategy}");
        let beyond =
            Limits { target: Some(best + 1), incumbent: Some(Incumbent::seeded(best)), ..Limits::exhaustive() };
        let outcome = run(model, strategy, &pool, beyond);
        assert!(outcome.solutions.is_empty(), "{strategy}: a solution beyond the optimum");
        assert_eq!(outcome.stop, None, "{strategy}: the unreachable target is proven by a complete search");
    }
}

#[test]
fn replicable_gives_the_same_counts_and_best_on_every_run() {
    for threads in [2, 3] {
        let pool = Pool::new(threads).expect("a small pool");
        let strategy: Strategy = "replicable".parse().expect("a valid strategy");
        let first = run(ValuedTree::<true>::new(shape(seeds()[1])), strategy, &pool, Limits::exhaustive());
        for repeat in 0..10 {
            let again = run(ValuedTree::<true>::new(shape(seeds()[1])), strategy, &pool, Limits::exhaustive());
            assert_eq!(again.stats, first.stats, "{threads} threads, repeat {repeat}");
            assert_eq!(again.solutions, first.solutions, "{threads} threads, repeat {repeat}");
        }
    }
}

#[test]
fn keep_best_picks_the_best_valued_solutions_in_solution_order() {
    let model = ValuedTree::<false>::new(shape(seeds()[2]));
    let (best, paths) = optimum(shape(seeds()[2]));
    let mut every: Vec<Vec<u32>> =
        ValuedTree::<false>::every_solution(shape(seeds()[2])).into_iter().map(|(_, p)| p).collect();
    every.reverse();
    let (value, kept) = keep_best(&model, every, 1);
    assert_eq!(value, Some(best));
    assert_eq!(kept, paths[..1].to_vec());
}

#[test]
fn keep_best_without_an_objective_keeps_the_smallest_as_every_search_does() {
    use super::test_models::RandomTree;
    let model = RandomTree::new(shape(seeds()[0]));
    let paths = vec![vec![3, 1], vec![0, 2], vec![2, 2], vec![0, 1]];
    assert_eq!(keep_best(&model, paths, 2), (None, vec![vec![0, 1], vec![0, 2]]));
}
