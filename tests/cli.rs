//! End-to-end tests of the `solve` command: published answers, exit codes, error messages.

mod common;

use common::{run, solve_json};
use serde_json::Value;
use std::process::Command;

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

/// Hooks' answer from the model's cell sets (the default) and from the solution grid
/// through the answer type's general code: the published answer both ways, and the same
/// under the other answer type.
#[test]
fn hooks7_answers_the_same_from_the_state_and_from_the_grid() {
    let expected = expected("hooks_7.json");
    for source in ["from-state", "from-grid"] {
        assert_eq!(solve_json(&["hooks7", "--answer", source])["answer"], expected["answer"], "{source}");
    }
    let directory = tempfile::tempdir().expect("temp dir");
    let squares = with_answer_type(directory.path(), "hooks_7.json", "sum_of_squares_of_grid_sum");
    for source in ["from-state", "from-grid"] {
        assert_eq!(solve_json(&[&squares, "--answer", source])["answer"], 45 * 45, "{source}");
    }
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
    assert_bad_input(&["solve", &missing], "missing.json: no such file; there is no instance file at this path");
    let malformed = write("malformed.json", "{\n \"schema\": \"puzzle-instance/v1\",\n \"family\": \n}");
    assert_bad_input(&["solve", &malformed], "malformed.json:4:1: not valid JSON");
    let unknown = write("unknown.json", "{\"schema\": \"puzzle-instance/v1\", \"family\": \"sudoku\", \"data\": {}}");
    assert_bad_input(&["solve", &unknown], "unknown family `sudoku`");
    let rings = include_str!("../instances/olympic_rings.json");
    let short_pool = write("short_pool.json", &rings.replace("\"pool\": [1, 2, 3, 4, 6]", "\"pool\": [1, 2, 3, 4]"));
    assert_bad_input(&["solve", &short_pool], "data.pool: has 4 values for 5 unknowns");
    assert_bad_input(&["solve", "rings", "--pruning", "sometimes"], "`sometimes` is not a value of knob `pruning`");
    assert_bad_input(&["solve", "rings", "--placement", "two-phase"], "olympic_rings: has no knob `placement`");
    assert_bad_input(&["solve", "rings", "--node-limit", "0"], "0 is not in 1..");
    // Past the pool's cap on any machine: the flag is named, not the preset's spec.
    assert_bad_input(&["sweep", "--threads", "cores+1024", "--dry-run"], "--threads cores+1024: ");
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

#[test]
fn inputs_past_the_size_limit_are_refused_from_devices_and_pipes() {
    assert_bad_input(&["solve", "/dev/zero"], "/dev/zero: the file is longer than 16777216 bytes");
    let mut child = Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
        .args(["solve", "/dev/stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let block = vec![b' '; 1 << 20];
        // The reader stops one byte past the limit; the rest may meet a closed pipe.
        for _ in 0..20 {
            if stdin.write_all(&block).is_err() {
                break;
            }
        }
    });
    let output = child.wait_with_output().expect("it ends");
    writer.join().expect("the writer ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("/dev/stdin: the file is longer than 16777216 bytes"), "{stderr}");
}

#[test]
fn a_time_limit_stops_the_run_at_the_first_look_at_the_clock() {
    // A nanosecond has passed by the first look, after 1024 nodes: node 1025 stops.
    let hooks = "instances/hooks_enumeration.json";
    let report = solve_json(&[hooks, "--time-limit", "0.000000001"]);
    assert_eq!(report["complete"], false);
    assert_eq!(report["stop"], "time-limit");
    assert_eq!(report["nodes"], 1025);
    assert_eq!(report["time_limit_s"], 1e-9);
    let text = run(&["solve", hooks, "--time-limit", "1e-9"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("stopped by the time limit: incomplete"));
    for bad in ["0", "-1", "inf", "NaN", "1e10", "soon", "1e-10", "1e-320"] {
        let flag = format!("--time-limit={bad}");
        assert_bad_input(&["solve", "hooks7", &flag], "expected a number of seconds above 0");
    }
    for bad in ["0", "-1", "NaN", "1e6", "1e-10"] {
        let flag = format!("--time-limit={bad}");
        assert_bad_input(&["estimate", "hooks7", &flag], "expected a nanosecond or more and at most 86400 seconds");
    }
    // A listing looks at the clock as its frontier fills (its subproblems are not entered
    // nodes): `naive`, which lists every leaf, stops there, before any worker runs.
    let naive = solve_json(&["prime-grid", "--parallel", "naive", "--threads", "2", "--time-limit", "1e-9"]);
    assert_eq!((naive["stop"].as_str(), naive["complete"].as_bool()), (Some("time-limit"), Some(false)));
}

#[test]
fn the_report_records_the_node_limit_and_how_far_it_may_be_overshot() {
    let hooks = "instances/hooks_enumeration.json";
    let sequential = solve_json(&[hooks, "--node-limit", "5000"]);
    assert_eq!((sequential["nodes"].as_u64(), sequential["stop"].as_str()), (Some(5000), Some("node-limit")));
    assert_eq!(
        (sequential["node_limit"].as_u64(), sequential["node_limit_overshoot_max"].as_u64()),
        (Some(5000), Some(0))
    );
    let steal = solve_json(&[hooks, "--node-limit", "5000", "--parallel", "steal", "--threads", "2"]);
    let overshoot = steal["node_limit_overshoot_max"].as_u64().expect("a number");
    assert_eq!(overshoot, 2 * 1024);
    let nodes = steal["nodes"].as_u64().expect("nodes");
    assert!((5000..=5000 + overshoot).contains(&nodes), "{nodes}");
    assert_eq!(solve_json(&["hooks7"])["node_limit"], Value::Null);
}

#[test]
fn frontier_listings_are_capped_and_the_cap_is_named() {
    let arguments = ["solve", "instances/prime_grid_enumeration.json", "--all", "--threads", "2", "--parallel"];
    let with = |strategy: &'static str| -> Vec<&str> { arguments.iter().copied().chain([strategy]).collect() };
    assert_bad_input(
        &with("auto:1000000000"),
        "K must be a whole number from 1 to 500000, the cap on listed subproblems",
    );
    // The knobs before `tightest-hook`, `joint` and `single-child`: 858,514 nodes at depth 30.
    let hooks = [
        "solve",
        "instances/hooks_enumeration.json",
        "--order",
        "most-constrained",
        "--rules",
        "derived",
        "--forced",
        "try-both",
        "--threads",
        "2",
        "--parallel",
        "depth:30",
    ];
    assert_bad_input(
        &hooks,
        "--parallel depth:30: the frontier holds more subproblems than a listing keeps (at most 500000",
    );
}

#[test]
fn small_input_mistakes_are_refused_before_any_work() {
    let directory = tempfile::tempdir().expect("temp dir");
    let missing = directory.path().join("missing").join("p.csv");
    assert_bad_input(&["solve", "rings", "--profile", missing.to_str().expect("UTF-8")], "does not exist");
    assert!(!directory.path().join("missing").exists(), "--profile creates no folder");
    let output = run(&["explain", "rings", "--mode", "brute", "--parallel", "auto", "--repeats", "1"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("has no knob `mode`") && !stderr.contains("configurations"), "{stderr}");
    let grid = serde_json::json!({"name": "g", "givens": [[0]]});
    let many = serde_json::json!({
        "schema": "puzzle-instance/v1", "family": "twenty_four_seven",
        "data": {"size": 1, "line_filled": 1, "line_sum": 1, "max_value": 1,
                 "answer_type": "sum_of_squares_of_grid_sum", "grids": vec![grid; 10_001]}
    });
    let path = directory.path().join("many.json");
    std::fs::write(&path, many.to_string()).expect("write");
    assert_bad_input(&["solve", path.to_str().expect("UTF-8")], "data.grids: 10001 grids: at most 10000 are accepted");
    // A results folder that is not there, or a file, is named again by the user.
    let absent = directory.path().join("no-results");
    assert_bad_input(&["report", "--out", absent.to_str().expect("UTF-8")], "no-results: does not exist");
    assert_bad_input(&["report", "--out", path.to_str().expect("UTF-8")], "many.json: is not a folder");
}

#[test]
fn a_control_character_in_an_instances_text_is_refused_naming_key_and_line() {
    let directory = tempfile::tempdir().expect("temp dir");
    let rings = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/instances/olympic_rings.json"))
        .expect("the rings instance");
    let mut file: serde_json::Value = serde_json::from_str(&rings).expect("JSON");
    // An escape sequence that would clear the terminal where the id is printed.
    file["id"] = "rings\u{1b}[2J".into();
    let path = directory.path().join("escape.json");
    std::fs::write(&path, serde_json::to_string_pretty(&file).expect("JSON")).expect("written");
    let path = path.to_str().expect("UTF-8");
    assert_bad_input(&["solve", path], "escape.json:3: id: holds the control character U+001B");
    let output = run(&["solve", path]);
    assert!(!output.stderr.contains(&0x1b), "the character itself is not printed");
}

/// A negative number given to a numeric flag is that flag's bad value, named as such (exit
/// 2): clap took it for an unknown flag and advised `-- -1`, which passes it as the instance.
#[test]
fn a_negative_number_is_the_flags_bad_value_not_an_unknown_flag() {
    for arguments in [
        &["solve", "rings", "--threads", "-1"][..],
        &["solve", "rings", "--node-limit", "-5"],
        &["solve", "rings", "--time-limit", "-5"],
        &["split", "rings", "--parts", "-2", "--out", "unused"],
        &["estimate", "rings", "--probes", "-3"],
        &["sweep", "--repeats", "-1"],
    ] {
        let stderr = common::refused(arguments);
        assert!(stderr.starts_with("error: invalid value '-"), "{arguments:?}: {stderr}");
        assert!(!stderr.contains("use '-- -"), "{arguments:?}: {stderr}");
    }
}
