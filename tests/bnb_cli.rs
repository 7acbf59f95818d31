//! End-to-end checks of what branch and bound says where its answer is partial or its
//! tree deep: a decision cut short proves nothing, a capped list of optimal solutions says
//! it is a sample, deep trees run on worker threads and stop a leaf listing early, and
//! `explain --first` does not describe a first solution as the best, and predictions of a
//! bounded search are refused.

mod common;

use common::{run, solve_json};
use serde_json::{json, Value};
use std::path::Path;

/// A knapsack instance file of `items` (value, weight) and `capacity` in `folder`.
fn knapsack(folder: &Path, items: &[[u64; 2]], capacity: u64) -> String {
    let path = folder.join("knapsack.json");
    let instance = json!({
        "schema": "puzzle-instance/v1", "id": "deep", "family": "knapsack",
        "data": { "capacity": capacity, "items": items }
    });
    std::fs::write(&path, instance.to_string()).expect("the instance is written");
    path.to_str().expect("UTF-8").to_string()
}

/// `--at-least V` stopped by a node limit before reaching V says nothing about V: `reached`
/// is null and the text does not call V unreachable. The optimum of the Rosetta Code bag is
/// 1030, so 1030 is reachable and 1031 is not; the complete search says so.
#[test]
fn a_decision_cut_short_by_a_limit_proves_nothing() {
    let cut = solve_json(&["instances/knapsack_small.json", "--at-least", "1030", "--node-limit", "3"]);
    assert_eq!(cut["complete"], false);
    assert_eq!(cut["objective"]["reached"], Value::Null, "{}", cut["objective"]);
    assert_eq!(cut["objective"]["proven"], false);
    let output = run(&["solve", "instances/knapsack_small.json", "--at-least", "1030", "--node-limit", "3"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(!text.contains("none reaches the target"), "{text}");
    assert!(text.contains("no solution found (not proven: the search was cut short"), "{text}");
    let whole = solve_json(&["instances/knapsack_small.json", "--at-least", "1031"]);
    assert_eq!(whole["objective"]["reached"], false);
    let reached = solve_json(&["instances/knapsack_small.json", "--at-least", "1030"]);
    assert_eq!(reached["objective"]["reached"], true);
}

/// A graph of 1,001 vertices and no edge has 1,001 maximum cliques (one vertex each): the
/// 1,000 kept are a sample of equally good ones, not the best of worse ones.
#[test]
fn a_capped_list_of_optimal_solutions_says_it_is_a_sample() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let graph = folder.path().join("empty.clq");
    std::fs::write(&graph, "p edge 1001 0\n").expect("the graph is written");
    let output = run(&["solve", graph.to_str().expect("UTF-8"), "--all"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(text.contains("kept:      a sample of 1,000 solution(s) of the best value"), "{text}");
    assert!(!text.contains("the others reached were worse"), "{text}");
}

/// `--best` keeps one best solution under every strategy: workers that each reach one of
/// equally good solutions (1,001 one-vertex cliques, the Petersen graph's 15 edges) kept each theirs, and a parallel
/// run listed two or more where the sequential one listed one.
#[test]
fn best_keeps_one_solution_under_every_strategy() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let graph = folder.path().join("empty.clq");
    std::fs::write(&graph, "p edge 1001 0\n").expect("the graph is written");
    let graph = graph.to_str().expect("UTF-8");
    for (graph, best) in [(graph, 1), ("instances/max_clique/petersen.clq", 2)] {
        for strategy in ["sequential", "depth:1", "auto", "steal", "naive", "replicable"] {
            for _ in 0..3 {
                let report = solve_json(&[graph, "--best", "--parallel", strategy, "--threads", "4"]);
                assert_eq!(report["objective"]["best"], best, "{strategy}");
                assert_eq!(report["objective"]["optimal_solutions_kept"], 1, "{strategy}: {}", report["objective"]);
                assert_eq!(report["components"][0]["solutions_kept"], 1, "{strategy}");
            }
            // The text says one is kept where more were reached: not "the others were worse".
            let output = run(&["solve", graph, "--best", "--parallel", strategy, "--threads", "4"]);
            let text = String::from_utf8_lossy(&output.stdout);
            let reached: u64 = text
                .lines()
                .find_map(|line| line.strip_prefix("solutions: "))
                .and_then(|rest| rest.split_whitespace().next()?.replace(',', "").parse().ok())
                .expect("a solutions line");
            assert_eq!(
                reached > 1,
                text.contains("kept:      one best solution (others reached were worse, or as good"),
                "{text}"
            );
            assert!(!text.contains("the others reached were worse"), "{text}");
        }
    }
}

/// A graph file's text quoted in an error is shown with its control characters as escapes:
/// printed as they were, an escape sequence in the file set the terminal's title or cleared
/// its screen.
#[test]
fn a_graph_files_control_characters_are_escaped_in_its_errors() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let graph = folder.path().join("escape.clq");
    std::fs::write(&graph, "p edge 3 2\n\u{1b}]0;title\u{7}x\n").expect("the graph is written");
    let output = run(&["solve", graph.to_str().expect("UTF-8")]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(":2: a line starting `\\u{1b}]0;title\\u{7}x`"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
}

/// A knapsack of 10,000 items that all fit is a path 10,000 moves deep: every strategy
/// that runs it on worker threads finds the sequential optimum (the workers' stacks used
/// to overflow, aborting the process), and `naive`, which would list every leaf, stops at
/// the listing's bound on moves with advice instead of filling gigabytes.
#[test]
fn a_tree_ten_thousand_deep_runs_on_worker_threads_and_naive_stops_early() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let instance = knapsack(folder.path(), &[[1, 1]; 10_000], 10_000);
    let sequential = solve_json(&[&instance, "--best"]);
    assert_eq!(sequential["objective"]["best"], 10_000);
    for strategy in ["steal", "budget:10", "depth:1", "replicable"] {
        let parallel = solve_json(&[&instance, "--best", "--parallel", strategy, "--threads", "2"]);
        assert_eq!(parallel["objective"]["best"], 10_000, "{strategy}");
        assert_eq!(parallel["objective"]["proven"], true, "{strategy}");
    }
    let shallow = knapsack(folder.path(), &[[1, 1]; 1_000], 1_000);
    let output = run(&["solve", &shallow, "--best", "--parallel", "naive", "--threads", "2"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("naive lists every leaf: choose another strategy"), "{stderr}");
}

/// `explain --first` on a family with an objective measures a first-solution search: its
/// report has no branch-and-bound line, which would call the first solution the best and
/// speak of a proof.
#[test]
fn explain_first_does_not_call_a_first_solution_the_best() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let report = folder.path().join("first.md");
    let output = run(&[
        "explain",
        "instances/knapsack/strongly-correlated_30.json",
        "--first",
        "--parallel",
        "steal",
        "--threads",
        "2",
        "--repeats",
        "1",
        "--out",
        report.to_str().expect("UTF-8"),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    let written = std::fs::read_to_string(&report).expect("the report");
    for text in [stdout.as_ref(), written.as_str()] {
        assert!(!text.contains("the best solution ("), "{text}");
        assert!(!text.contains("## Branch and bound"), "{text}");
    }
}

/// A prediction replays one recorded tree, and a branch-and-bound tree is not one tree
/// (its cuts depend on when the incumbent improves): `explain --predict` and `scaling-check`
/// of a family with an objective are refused before anything is recorded (replayed, the
/// predictions were off by factors of a hundred, and listing the frontier without the
/// incumbent ran out of memory), while `explain` itself measures the same search.
#[test]
fn predictions_of_a_branch_and_bound_search_are_refused_and_explain_measures_it() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let out = folder.path().join("x.md");
    let out = out.to_str().expect("UTF-8");
    let instance = "instances/knapsack/uncorrelated_40.json";
    for arguments in [
        vec!["explain", instance, "--best", "--parallel", "steal", "--predict", "1,2", "--repeats", "1"],
        vec!["scaling-check", "--instances", instance, "--threads", "1,2", "--repeats", "1", "--out", out],
    ] {
        let output = run(&arguments);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{arguments:?}: {stderr}");
        assert!(stderr.contains("its models have an objective (branch and bound)"), "{stderr}");
    }
    // `--out` with `--predict` is refused as a file it would not write.
    let with_out = run(&["explain", instance, "--parallel", "steal", "--predict", "1,2", "--out", out]);
    assert!(String::from_utf8_lossy(&with_out.stderr).contains("writes no report file"));
    let explained = run(&[
        "explain",
        "instances/knapsack_small.json",
        "--best",
        "--parallel",
        "steal",
        "--threads",
        "2",
        "--repeats",
        "1",
        "--out",
        out,
    ]);
    assert!(explained.status.success(), "{}", String::from_utf8_lossy(&explained.stderr));
}
