//! End-to-end tests of the `solve` command: published answers, exit codes, error messages.

use serde_json::Value;
use std::process::{Command, Output};

fn run(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_backtrack-bench")).args(arguments).output().expect("the binary runs")
}

fn solve_json(arguments: &[&str]) -> Value {
    let mut all = vec!["solve", "--json"];
    all.extend_from_slice(arguments);
    let output = run(&all);
    assert!(output.status.success(), "{:?}: {}", all, String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("--json prints one JSON object")
}

fn expected(file: &str) -> Value {
    let text = std::fs::read_to_string(format!("instances/{file}")).expect("instance file");
    let instance: Value = serde_json::from_str(&text).expect("instance JSON");
    instance["expected"].clone()
}

#[test]
fn olympic_rings_answer_matches_the_instance_file() {
    let report = solve_json(&["rings"]);
    let expected = expected("olympic_rings.json");
    assert_eq!(report["solutions"], expected["solution_count"]);
    assert_eq!(report["answer"], expected["answer"]);
}

#[test]
fn prime_grid_has_four_solutions_and_smallest_total_541() {
    let report = solve_json(&["prime-grid"]);
    let expected = expected("prime_grid.json");
    assert_eq!(report["solutions"], expected["solution_count"]);
    assert_eq!(report["answer"]["total"], expected["answer"]["total"]);
    assert_eq!(report["answer"]["grid"], expected["answer"]["grid"]);
}

#[test]
fn hooks7_has_unique_solution_2200() {
    let report = solve_json(&["hooks7"]);
    let expected = expected("hooks_7.json");
    assert_eq!(report["solutions"], 1);
    assert_eq!(report["answer"], expected["answer"]);
    assert_eq!(report["components"][0]["solution_texts"], expected["solutions"]);
}

#[test]
fn twenty_four_seven_grids_are_unique_and_answer_8520() {
    let report = solve_json(&["247"]);
    let expected = expected("twenty_four_seven_2x2_2.json");
    assert_eq!(report["solutions"], 1);
    assert_eq!(report["answer"], expected["answer"]);
    let components = report["components"].as_array().expect("components");
    assert_eq!(components.len(), 4);
    for (component, solutions) in components.iter().zip(expected["per_grid_solutions"].as_array().expect("list")) {
        assert_eq!(component["solutions"], 1);
        assert_eq!(&component["solution_texts"], solutions);
    }
}

#[test]
fn json_report_carries_the_documented_keys() {
    let report = solve_json(&["rings", "--pruning", "rings", "--first"]);
    for key in ["puzzle", "instance", "knobs", "solutions", "answer", "nodes", "rules", "elapsed_ns"] {
        assert!(report.get(key).is_some(), "missing key {key}");
    }
    assert_eq!(report["nodes"], 16);
}

fn assert_bad_input(arguments: &[&str], expected_in_message: &str) {
    let output = run(arguments);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{arguments:?}: {stderr}");
    assert!(stderr.contains(expected_in_message), "{arguments:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{arguments:?}: {stderr}");
}

#[test]
fn bad_input_exits_with_code_2_and_says_what_is_wrong() {
    let directory = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, text: &str| {
        let path = directory.path().join(name);
        std::fs::write(&path, text).expect("write fixture");
        path.to_string_lossy().into_owned()
    };
    let missing = directory.path().join("missing.json").to_string_lossy().into_owned();
    assert_bad_input(&["solve", &missing], "missing.json: cannot read the file");
    let malformed = write("malformed.json", "{\n \"schema\": \"puzzle-instance/v1\",\n \"family\": \n}");
    assert_bad_input(&["solve", &malformed], "malformed.json:4:1: not valid JSON");
    let unknown = write("unknown.json", "{\"schema\": \"puzzle-instance/v1\", \"family\": \"sudoku\", \"data\": {}}");
    assert_bad_input(&["solve", &unknown], "unknown family `sudoku`");
    let rings = include_str!("../instances/olympic_rings.json");
    let short_pool = write("short_pool.json", &rings.replace("\"pool\": [1, 2, 3, 4, 6]", "\"pool\": [1, 2, 3, 4]"));
    assert_bad_input(&["solve", &short_pool], "data.pool: has 4 values for 5 unknowns");
    assert_bad_input(&["solve", "rings", "--pruning", "sometimes"], "`sometimes` is not a value of knob `pruning`");
    assert_bad_input(&["solve", "rings", "--placement", "two-phase"], "olympic_rings: has no knob `placement`");
}

#[test]
fn parallel_solve_reports_every_worker_and_the_sequential_counts() {
    let sequential = solve_json(&["hooks7"]);
    for strategy in ["auto", "steal", "budget:500", "naive"] {
        let report = solve_json(&[
            "hooks7",
            "--parallel",
            strategy,
            "--threads",
            "2",
            "--counters",
            "unpadded",
            "--state",
            "clone",
        ]);
        assert_eq!(report["nodes"], sequential["nodes"], "{strategy}");
        assert_eq!(report["answer"], sequential["answer"], "{strategy}");
        assert_eq!((report["threads"].as_u64(), report["affinity"].as_str()), (Some(2), Some("pinned")), "{strategy}");
        let workers = report["workers"].as_array().expect("a workers array");
        assert_eq!(workers.len(), 2, "{strategy}");
        let worker_nodes: u64 = workers.iter().map(|worker| worker["nodes"].as_u64().expect("nodes")).sum();
        let frontier_nodes = report["parallel"]["frontier_nodes"].as_u64().expect("frontier nodes");
        assert_eq!(worker_nodes + frontier_nodes, report["nodes"].as_u64().expect("nodes"), "{strategy}");
    }
    let text = run(&["solve", "hooks7", "--parallel", "steal", "--threads", "2", "--affinity", "free"]);
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(stdout.contains("steal on 2 thread(s) (free)"), "{stdout}");
    for column in ["worker", "stolen", "split off", "given", "busy", "idle", "task median"] {
        assert!(stdout.contains(column), "the per-worker table has `{column}`: {stdout}");
    }
}

#[test]
fn bad_parallel_knobs_exit_with_code_2_and_list_the_accepted_forms() {
    assert_bad_input(&["solve", "rings", "--parallel", "eventually"], "parallel strategy");
    assert_bad_input(&["solve", "rings", "--parallel", "auto", "--threads", "0"], "between 1 and 1024");
    assert_bad_input(&["solve", "rings", "--parallel", "auto", "--counters", "sideways"], "padded");
    assert_bad_input(&["solve", "rings", "--parallel", "auto", "--affinity", "anywhere"], "pinned");
}

/// `instances/<file>` with its `answer_type` replaced, written to `directory`.
fn with_answer_type(directory: &std::path::Path, file: &str, answer_type: &str) -> String {
    let text = std::fs::read_to_string(format!("instances/{file}")).expect("instance file");
    let mut instance: Value = serde_json::from_str(&text).expect("instance JSON");
    instance["data"]["answer_type"] = Value::from(answer_type);
    let path = directory.join(file);
    std::fs::write(&path, instance.to_string()).expect("write the variant");
    path.to_string_lossy().into_owned()
}

#[test]
fn a_single_twenty_four_seven_grid_is_answered_by_its_empty_regions() {
    let file = "tests/fixtures/instances/twenty_four_seven_single_grid.json";
    let instance: Value =
        serde_json::from_str(&std::fs::read_to_string(file).expect("fixture")).expect("fixture is JSON");
    let report = solve_json(&[file]);
    assert_eq!(report["solutions"], 1);
    assert_eq!(report["components"][0]["solution_texts"], instance["expected"]["solutions"]);
    // The empty regions of that grid, counted by hand (see the fixture's `verification`).
    assert_eq!(report["answer"], 2 * 4 * 2 * 4 * 4 * 4);
    let text = run(&["solve", file]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("answer:    1024"));
}

#[test]
fn every_grid_answer_type_is_accepted_by_both_grid_families() {
    let directory = tempfile::tempdir().expect("temp dir");
    // Hook k holds k copies of k, so a solved 9x9 Hooks grid has squares summing to
    // 1^3 + ... + 9^3 = 45^2.
    let hooks = with_answer_type(directory.path(), "hooks_7.json", "sum_of_squares_of_grid_sum");
    assert_eq!(solve_json(&[&hooks])["answer"], 45 * 45);
    // The four 2-by-2 #2 grids summed leave one cell empty (row 4, column 5 of the
    // published solutions): one region of area 1.
    let twenty_four_seven =
        with_answer_type(directory.path(), "twenty_four_seven_2x2_2.json", "product_of_empty_region_areas");
    let report = solve_json(&[&twenty_four_seven]);
    assert_eq!((report["solutions"].as_u64(), report["answer"].as_u64()), (Some(1), Some(1)));
    let bogus = with_answer_type(directory.path(), "hooks_7.json", "assignment");
    assert_bad_input(
        &["solve", &bogus],
        "data.answer_type: `assignment` is not an answer type of hooks; expected `sum_of_squares_of_grid_sum` or \
         `product_of_empty_region_areas`",
    );
}
