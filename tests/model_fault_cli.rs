//! A model's bug on the command line: the `broken_model` example (the workbench's command
//! line with a family whose model panics on purpose, `tests/broken_model/mod.rs`) exits
//! with code 3 and one line naming the family, the component and the node, under every
//! strategy at 2 threads and in every other command that runs the family's code
//! (`estimate`, `watch`, `split`, `run-part`, `merge`, `explain --predict`,
//! `scaling-check`); a sweep records `panic` for those configurations and goes on. A panic
//! in the family's code outside the search (`parse`, `config`, `instance_from_argument`,
//! `component_names`, `rule_names`) exits with code 3 too, naming what it was doing.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The six strategies of `solve --parallel`.
const STRATEGIES: [&str; 6] = ["sequential", "naive", "depth:2", "steal", "budget:64", "auto"];

/// Exit code of a run whose model panicked (`cli::failure`).
const EXIT_MODEL_PANICKED: i32 = 3;

/// The example's binary, built by `cargo test` beside the crate's own binary.
fn broken_model_binary() -> PathBuf {
    let crate_binary = Path::new(env!("CARGO_BIN_EXE_backtrack-bench"));
    let name = format!("broken_model{}", std::env::consts::EXE_SUFFIX);
    let path = crate_binary.parent().expect("the binary's folder").join("examples").join(name);
    assert!(
        path.exists(),
        "{} is missing: plain `cargo test` builds it (or `cargo build --example broken_model`)",
        path.display()
    );
    path
}

/// Runs the example with `arguments`; fails the test if it has not ended within 30 seconds
/// (a hang: before a worker's panic stopped the run, `steal` and `budget` never ended).
/// Its output is read as it comes (`watch` writes more than a pipe holds).
fn run(arguments: &[&str]) -> Output {
    run_with(arguments, &[])
}

/// [`run`] with the environment variables `variables` set.
fn run_with(arguments: &[&str], variables: &[(&str, &str)]) -> Output {
    let mut child = Command::new(broken_model_binary())
        .args(arguments)
        .envs(variables.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).expect("the child's output");
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped stderr")));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child's status") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{arguments:?}: still running after 30 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output { status, stdout: stdout.join().expect("stdout read"), stderr: stderr.join().expect("stderr read") }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_model_panic_exits_3_with_one_line_under_every_strategy() {
    for fault in ["apply", "branch", "undo", "solution", "max-depth"] {
        for strategy in STRATEGIES {
            let output = run(&["solve", "10", "--all", "--fault", fault, "--parallel", strategy, "--threads", "2"]);
            let (stderr, context) = (text(&output.stderr), format!("{fault}, {strategy} x2"));
            assert_eq!(output.status.code(), Some(EXIT_MODEL_PANICKED), "{context}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{context}: {stderr}");
            let expected = "backtrack-bench: error: the broken_model family panicked while searching component `10x10`";
            assert!(stderr.starts_with(expected), "{context}: {stderr}");
            let cause = if fault == "max-depth" { "max_depth() is 9" } else { "fault injected at [1, " };
            assert!(stderr.contains(cause), "{context}: {stderr}");
            assert!(output.stdout.is_empty(), "{context}: {}", text(&output.stdout));
        }
    }
}

#[test]
fn json_output_and_explain_report_a_model_panic_the_same_way() {
    let solve = run(&["solve", "8", "--json", "--fault", "apply", "--parallel", "steal", "--threads", "2"]);
    let explain = run(&["explain", "8", "--fault", "apply", "--parallel", "steal", "--threads", "2"]);
    for (output, command) in [(solve, "solve --json"), (explain, "explain")] {
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(EXIT_MODEL_PANICKED), "{command}: {stderr}");
        let errors: Vec<&str> = stderr.lines().filter(|line| line.starts_with("backtrack-bench: error:")).collect();
        assert_eq!(errors.len(), 1, "{command}: {stderr}");
        assert!(errors[0].contains("(steal x2) at the node reached by the moves [1, 3] from the root"), "{stderr}");
        assert!(!stderr.contains("RUST_BACKTRACE") && !stderr.contains("panicked at"), "{command}: {stderr}");
    }
}

#[test]
fn a_panic_outside_the_familys_code_is_one_line_that_calls_it_a_bug_and_exits_101() {
    // The example's `main` panics before any command when asked to: a panic in the
    // program's own code, as a bug of the tool would be. The binary's hook prints one line.
    let output = Command::new(broken_model_binary())
        .args(["estimate", "8", "--fault", "apply", "--probes", "1000"])
        .env("BROKEN_MODEL_PANIC_IN_MAIN", "1")
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .expect("the example runs");
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(101), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let expected = "backtrack-bench: internal error (a bug, please report it): panicked at examples/broken_model.rs:";
    assert!(stderr.starts_with(expected) && stderr.contains("asked for by BROKEN_MODEL_PANIC_IN_MAIN"), "{stderr}");
}

/// Writes a `broken_model` instance of 8 queens whose data names `fault` (the puzzle's
/// faults, and the model's for commands without knob flags) into `folder`; its path.
fn instance_with_fault(folder: &Path, fault: &str) -> String {
    let path = folder.join(format!("queens-{fault}.json"));
    let instance = serde_json::json!({
        "schema": "puzzle-instance/v1",
        "id": format!("queens_8_{fault}"),
        "family": "broken_model",
        "data": { "n": 8, "fault": fault },
    });
    std::fs::write(&path, instance.to_string()).expect("the instance is written");
    path.to_string_lossy().into_owned()
}

/// Asserts that `output` reports the family's panic as `solve` does: exit code 3, and on
/// stderr one error line, starting `expected` and naming `fault`, beside nothing but the
/// command's own progress lines (those starting `progress`, when given); nothing else.
fn assert_one_panic_line(output: &Output, command: &str, expected: &str, fault: &str, progress: Option<&str>) {
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(EXIT_MODEL_PANICKED), "{command}: {stderr}");
    let (errors, others): (Vec<&str>, Vec<&str>) =
        stderr.lines().partition(|line| line.starts_with("backtrack-bench: error: "));
    assert_eq!(errors.len(), 1, "{command}: {stderr}");
    assert!(errors[0].starts_with(expected), "{command}: {stderr}");
    assert!(errors[0].contains(fault) && errors[0].contains("(at examples/../tests/broken_model/mod.rs:"), "{stderr}");
    let unexpected: Vec<&&str> =
        others.iter().filter(|line| progress.is_none_or(|prefix| !line.starts_with(prefix))).collect();
    assert!(unexpected.is_empty(), "{command}: lines beside the error: {unexpected:?}");
    assert_eq!(stderr.matches(fault).count(), 1, "{command}: the fault reported once: {stderr}");
}

/// The start of the error line for a panic while `during` in the 8x8 board, as `how`.
fn panicked_while(during: &str, how: &str) -> String {
    format!("backtrack-bench: error: the broken_model family panicked while {during} component `8x8` ({how})")
}

#[test]
fn estimate_watch_and_explain_predict_report_a_model_panic_in_one_line_with_exit_3() {
    let apply = "apply fault injected at [1, 3, 0]";
    let estimate = run(&["estimate", "8", "--fault", "apply", "--probes", "1000"]);
    assert_one_panic_line(
        &estimate,
        "estimate",
        &format!("{}: ", panicked_while("estimating", "sequential x1")),
        apply,
        None,
    );
    // `watch` searches with an observer, which keeps the path: the node is named.
    let watch = run(&["watch", "8", "--fault", "apply", "--plain"]);
    let at_node = format!(
        "{} at the node reached by the moves [1, 3] from the root: ",
        panicked_while("watching", "sequential x1")
    );
    assert_one_panic_line(&watch, "watch", &at_node, apply, None);
    let predict = run(&[
        "explain",
        "8",
        "--fault",
        "apply",
        "--parallel",
        "steal",
        "--threads",
        "2",
        "--predict",
        "1,2",
        "--repeats",
        "1",
    ]);
    let expected = format!("{}: ", panicked_while("measuring", "sequential x1"));
    assert_one_panic_line(&predict, "explain --predict", &expected, apply, Some("predict: "));
}

#[test]
fn split_run_part_and_merge_report_a_panic_of_the_familys_code_in_one_line_with_exit_3() {
    let folder = tempfile::tempdir().unwrap();
    let out = |name: &str| folder.path().join(name).to_string_lossy().into_owned();
    // The probes that estimate each subproblem meet the faulty node.
    let split = run(&["split", "8", "--fault", "apply", "--parts", "1", "--out", &out("apply")]);
    let expected = format!("{}: ", panicked_while("splitting", "sequential x1"));
    assert_one_panic_line(&split, "split", &expected, "apply fault injected at [1, 3, 0]", None);
    // No probe reads a solution: the split succeeds, and the part's search meets the
    // faulty leaves on one of its two threads (the recorder keeps the path).
    let split = run(&["split", "8", "--fault", "solution", "--parts", "1", "--out", &out("solution")]);
    assert_eq!(split.status.code(), Some(0), "{}", text(&split.stderr));
    let part = run(&["run-part", &out("solution"), "1", "--threads", "2"]);
    let expected = format!("{} at the node reached by the moves [1, ", panicked_while("searching", "run-part x2"));
    assert_one_panic_line(&part, "run-part", &expected, "solution fault injected at [1, ", None);
    assert!(!folder.path().join("solution/parts/1.json").exists(), "a part that panicked writes no file");
    // The puzzle's `verify` reads the solutions only when they are merged.
    let instance = instance_with_fault(folder.path(), "verify");
    let split = run(&["split", &instance, "--parts", "1", "--out", &out("verify")]);
    let part = run(&["run-part", &out("verify"), "1"]);
    for (step, output) in [("split", split), ("run-part", part)] {
        assert_eq!(output.status.code(), Some(0), "{step}: {}", text(&output.stderr));
    }
    let merge = run(&["merge", &out("verify"), "--json"]);
    let expected = format!("{}: ", panicked_while("merging", "sequential x1"));
    assert_one_panic_line(&merge, "merge", &expected, "verify fault injected at [1, ", None);
    assert!(merge.stdout.is_empty(), "{}", text(&merge.stdout));
}

#[test]
fn the_puzzles_own_methods_panicking_on_a_solution_are_reported_as_the_familys_panic() {
    let folder = tempfile::tempdir().unwrap();
    let verify = run(&["solve", &instance_with_fault(folder.path(), "verify"), "--all"]);
    let expected = format!("{}: ", panicked_while("reading the solutions", "sequential x1"));
    assert_one_panic_line(&verify, "solve (verify)", &expected, "verify fault injected at [1, ", None);
    // `answer_key` runs on the worker that found the solution, as the search goes.
    let instance = instance_with_fault(folder.path(), "answer-key");
    let answer_key = run(&["solve", &instance, "--all", "--parallel", "steal", "--threads", "2"]);
    let expected = format!("{} at the node reached by the moves [1, ", panicked_while("searching", "steal x2"));
    assert_one_panic_line(&answer_key, "solve (answer_key)", &expected, "answer-key fault injected at [1, ", None);
}

#[test]
fn scaling_check_reports_a_model_panic_in_one_line_with_exit_3() {
    // `scaling-check` takes no knob flags: the instance's data names the fault.
    let folder = tempfile::tempdir().unwrap();
    let instance = instance_with_fault(folder.path(), "apply");
    let out = folder.path().join("check").to_string_lossy().into_owned();
    let arguments = ["--strategies", "steal", "--threads", "2", "--repeats", "1", "--out", &out];
    let check = run(&[&["scaling-check", "--instances", &instance][..], &arguments].concat());
    let expected = format!("{}: ", panicked_while("measuring", "sequential x1"));
    assert_one_panic_line(
        &check,
        "scaling-check",
        &expected,
        "apply fault injected at [1, 3, 0]",
        Some("scaling-check: "),
    );
}

#[test]
fn explain_names_the_configuration_whose_counts_differ_when_the_moves_do_not_replay() {
    // The model's `branch` reads a global counter: which last-row nodes are dead ends
    // depends on the order the threads reach them, so runs of two threads find other
    // solutions than the sequential run (the same nodes: a dead end's children are
    // never entered, whichever node it is). Several runs of several configurations make
    // one that differs all but certain.
    let folder = tempfile::tempdir().unwrap();
    let report = folder.path().join("explain.md").to_string_lossy().into_owned();
    let arguments = ["--parallel", "steal", "--threads", "2", "--repeats", "3", "--json", "--out", &report];
    let output = run(&[&["explain", "10", "--fault", "non-replayable"][..], &arguments].concat());
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let verdict: serde_json::Value = serde_json::from_slice(&output.stdout).expect("--json prints the verdict");
    let mismatch = &verdict["counts_differ"];
    let configuration = mismatch["configuration"].as_str().expect("a configuration differs");
    assert!(configuration.starts_with("steal at "), "{mismatch}");
    let sequential = (&mismatch["sequential_nodes"], &mismatch["sequential_solutions"]);
    assert_ne!((&mismatch["nodes"], &mismatch["solutions"]), sequential, "{mismatch}");
    let bugs = verdict["bugs"].as_array().expect("a list of bugs");
    assert_eq!(bugs.len(), 1, "one line, not one per count: {bugs:?}");
    let line = bugs[0].as_str().expect("a line");
    assert_eq!(line, mismatch["line"].as_str().expect("the line"), "{mismatch}");
    assert!(line.starts_with(&format!("{configuration} counted ")), "{line}");
    assert!(line.contains(" solutions in its run ") && line.contains("the model's moves do not replay"), "{line}");
    let error = format!("backtrack-bench: error: {configuration} counted other nodes or solutions than sequential");
    assert!(stderr.contains(&error), "{stderr}");
    let markdown = std::fs::read_to_string(&report).expect("the report is written");
    assert!(markdown.contains(&format!("> **BUG:** {line}")), "{markdown}");
    // The sound model counts the same tree in every run: no BUG line, exit code 0.
    let sound = run(&[&["explain", "10", "--fault", "none"][..], &arguments].concat());
    assert_eq!(sound.status.code(), Some(0), "{}", text(&sound.stderr));
    let verdict: serde_json::Value = serde_json::from_slice(&sound.stdout).expect("--json prints the verdict");
    assert!(verdict["counts_differ"].is_null() && verdict["bugs"] == serde_json::json!([]), "{verdict}");
}

#[test]
fn a_sweep_records_panic_for_the_broken_configurations_and_goes_on() {
    let folder = tempfile::tempdir().unwrap();
    let spec = folder.path().join("spec.toml");
    let strategies = STRATEGIES.iter().map(|strategy| format!("\"{strategy}\"")).collect::<Vec<_>>().join(", ");
    // A second block whose instance's `parse` panics: that is the family's bug too.
    let parse_file = instance_with_fault(folder.path(), "parse").replace('\\', "/");
    let blocks = format!(
        "name = \"t\"\nrepeats = 1\n[[block]]\ninstances = [\"8\"]\nknobs = {{ fault = [\"apply\", \"none\"] }}\n\
         strategies = [{strategies}]\nthreads = [2]\n[[block]]\ninstances = [\"{parse_file}\"]\n"
    );
    std::fs::write(&spec, blocks).unwrap();
    let (spec, out) = (spec.to_string_lossy().into_owned(), folder.path().to_string_lossy().into_owned());
    let output = run(&["sweep", "--spec", &spec, "--out", &out, "--quiet"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("fault injected"), "the records hold the panics, stderr does not: {stderr}");
    let contents = std::fs::read_to_string(folder.path().join("t-runs.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(contents.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let rows: Vec<HashMap<String, String>> = reader
        .records()
        .map(|record| headers.iter().zip(record.unwrap().iter()).map(|(h, v)| (h.into(), v.into())).collect())
        .collect();
    let unparsed: Vec<&HashMap<String, String>> =
        rows.iter().filter(|row| row["source"].ends_with("queens-parse.json")).collect();
    assert_eq!(unparsed.len(), 1, "{contents}");
    assert_eq!(unparsed[0]["status"], "panic", "{:?}", unparsed[0]);
    assert!(unparsed[0]["error"].contains("panicked while reading the instance's data (`Puzzle::parse`)"));
    assert!(unparsed[0]["error"].contains("parse fault injected"), "{:?}", unparsed[0]);
    for strategy in STRATEGIES {
        for (fault, status) in [("apply", "panic"), ("none", "ok")] {
            let matching: Vec<&HashMap<String, String>> = rows
                .iter()
                .filter(|row| row["strategy"] == strategy && row["knobs"] == format!("fault={fault}"))
                .collect();
            assert!(!matching.is_empty(), "{fault}, {strategy}: no row in {contents}");
            for row in matching {
                assert_eq!(row["status"], status, "{fault}, {strategy}: {row:?}");
                if status == "panic" {
                    // Every node at the fault's depth under the first queen in column 1 is
                    // faulty: which one a parallel strategy meets first depends on timing.
                    assert!(row["error"].contains("apply fault injected at [1, "), "{row:?}");
                } else {
                    assert_eq!(row["solutions"], "92", "{row:?}");
                }
            }
        }
    }
}

#[test]
fn a_panic_in_parse_config_or_instance_from_argument_exits_3_with_one_line_naming_the_function() {
    let folder = tempfile::tempdir().unwrap();
    let parse_file = instance_with_fault(folder.path(), "parse");
    let out = |name: &str| folder.path().join(name).to_string_lossy().into_owned();
    let commands = |instance: &str, knobs: &[&str], name: &str| -> Vec<(String, Output)> {
        let with = |arguments: &[&str]| run(&[arguments, knobs].concat());
        vec![
            (format!("solve {name}"), with(&["solve", instance])),
            (format!("estimate {name}"), with(&["estimate", instance, "--probes", "10"])),
            (format!("watch {name}"), with(&["watch", instance, "--plain"])),
            (format!("split {name}"), with(&["split", instance, "--parts", "2", "--out", &out(name)])),
            (format!("explain {name}"), with(&["explain", instance, "--parallel", "steal", "--repeats", "1"])),
        ]
    };
    let parse = format!(
        "backtrack-bench: error: {parse_file}: the broken_model family panicked while reading the instance's data \
         (`Puzzle::parse`): "
    );
    for (command, output) in commands(&parse_file, &[], "parse") {
        assert_one_panic_line(&output, &command, &parse, "parse fault injected", None);
    }
    let config =
        "backtrack-bench: error: the broken_model family panicked while reading the knobs (`Puzzle::config`): ";
    for (command, output) in commands("8", &["--fault", "panic-in-config"], "config") {
        assert_one_panic_line(&output, &command, config, "config fault injected", None);
    }
    let argument = "backtrack-bench: error: panic-in-argument: the broken_model family panicked while reading an \
                    instance argument (`Puzzle::instance_from_argument`): ";
    for (command, output) in commands("panic-in-argument", &[], "argument") {
        assert_one_panic_line(&output, &command, argument, "instance_from_argument fault injected", None);
    }
    for name in ["parse", "config", "argument"] {
        assert!(!folder.path().join(name).exists(), "split {name}: nothing written");
    }
    // A sweep checks every block's knob values before it runs anything: a `config` that
    // panics then is the family's bug too (exit 3), and nothing is written.
    let spec = folder.path().join("config.toml");
    std::fs::write(
        &spec,
        "name = \"t\"\nrepeats = 1\n[[block]]\ninstances = [\"8\"]\nknobs = { fault = [\"panic-in-config\"] }\n",
    )
    .unwrap();
    let spec = spec.to_string_lossy().into_owned();
    let output = run(&["sweep", "--spec", &spec, "--out", &out("sweep"), "--quiet"]);
    let expected =
        format!("backtrack-bench: error: {spec}:5: block[0].knobs: {}", &config["backtrack-bench: error: ".len()..]);
    assert_one_panic_line(&output, "sweep config", &expected, "config fault injected", None);
    assert!(!folder.path().join("sweep").exists(), "sweep: nothing written");
    // scaling-check takes its instances as a list, so it reads data only (no knobs).
    let checked = out("scaling");
    let output =
        run(&["scaling-check", "--instances", &parse_file, "--threads", "1", "--repeats", "1", "--out", &checked]);
    assert_one_panic_line(&output, "scaling-check parse", &parse, "parse fault injected", None);
    assert!(!folder.path().join("scaling").exists(), "scaling-check: nothing written");
}

#[test]
fn a_panic_in_component_names_or_rule_names_exits_3_in_every_command_that_builds_the_models() {
    let folder = tempfile::tempdir().unwrap();
    let instance = instance_with_fault(folder.path(), "component-names");
    let split_out = folder.path().join("split").to_string_lossy().into_owned();
    let predict = ["--parallel", "steal", "--threads", "2", "--predict", "1,2", "--repeats", "1"];
    let building = "backtrack-bench: error: the broken_model family panicked while building the models";
    for (command, arguments, progress) in [
        ("solve", vec!["solve", &instance, "--all"], None),
        ("estimate", vec!["estimate", &instance, "--probes", "10"], None),
        ("explain --predict", [&["explain", &instance][..], &predict].concat(), Some("predict: ")),
        ("split", vec!["split", &instance, "--parts", "2", "--out", &split_out], None),
    ] {
        let output = run(&arguments);
        let expected = format!("{building} (sequential x1): ");
        assert_one_panic_line(&output, command, &expected, "component-names fault injected", progress);
    }
    // watch reads the component names beside the models, inside the same catch.
    let output = run(&["watch", &instance, "--plain"]);
    assert_one_panic_line(&output, "watch", "backtrack-bench: error: ", "component-names fault injected", None);
    let output = run(&["solve", "8", "--fault", "rule-names"]);
    let expected = format!("{building} (sequential x1): ");
    assert_one_panic_line(&output, "solve --fault rule-names", &expected, "rule-names fault injected", None);
}

/// A model that names more rules than the per-rule counters hold is refused before any
/// search, as the family's fault (exit 3), in one line that says what is wrong: the
/// counters' assertion, met inside the search, read as a panic at a node of the tree.
#[test]
fn a_model_with_more_rules_than_the_counters_hold_is_refused_before_any_search() {
    for arguments in [
        &["solve", "6", "--fault", "too-many-rules"][..],
        &["solve", "6", "--fault", "too-many-rules", "--no-rule-counts"],
        &["estimate", "6", "--fault", "too-many-rules", "--probes", "5"],
        &["watch", "6", "--fault", "too-many-rules", "--plain"],
    ] {
        let output = run(arguments);
        assert_eq!(output.status.code(), Some(3), "{arguments:?}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let expected = "backtrack-bench: error: the broken_model family's models name 17 rules, more than the 16 that \
                        the per-rule counters hold (`Model::rule_names`): group related checks under one rule\n";
        assert_eq!(stderr, expected, "{arguments:?}");
        assert!(output.stdout.is_empty(), "{arguments:?}: {output:?}");
    }
}

/// The prediction times its searches with the same per-solution work as the runs it
/// predicts (each solution's answer key into the family's tally): without it, a workload
/// of many solutions was predicted at half its time. A family whose `answer_key` panics
/// therefore stops `explain --predict` while it measures, with the family's exit code.
#[test]
fn the_predictions_calibration_does_the_answer_work_of_a_run() {
    let folder = tempfile::tempdir().unwrap();
    let instance = instance_with_fault(folder.path(), "answer-key");
    let output =
        run(&["explain", &instance, "--parallel", "steal", "--threads", "2", "--predict", "1,2", "--repeats", "1"]);
    assert_one_panic_line(
        &output,
        "explain --predict",
        &format!("{}: ", panicked_while("measuring", "sequential x1")),
        "answer-key fault injected at [",
        Some("predict: "),
    );
}

/// `solve 10 --all --json` of the broken model with `fault`, under `strategy` at 2 threads:
/// the exit code, the stderr and, on exit 0, the solutions and nodes the JSON reports.
fn solve_json(fault: &str, strategy: &str) -> (Option<i32>, String, Option<(u64, u64)>) {
    let output = run(&["solve", "10", "--all", "--json", "--fault", fault, "--parallel", strategy, "--threads", "2"]);
    let counts = (output.status.code() == Some(0)).then(|| {
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("--json prints the report");
        let field = |name: &str| report[name].as_u64().unwrap_or_else(|| panic!("no {name} in {report}"));
        (field("solutions"), field("nodes"))
    });
    (output.status.code(), text(&output.stderr), counts)
}

#[test]
fn moves_that_do_not_replay_never_exit_0_with_other_counts_than_sequential() {
    // The model remembers every node it branched in a global set and calls a node seen
    // before a dead end: one search branches each node once (724 placements of 10 queens),
    // a parallel run replays the path to each subproblem through nodes already branched.
    let (code, stderr, sequential) = solve_json("remembers-nodes", "sequential");
    assert_eq!(code, Some(0), "{stderr}");
    let sequential = sequential.expect("counts");
    assert_eq!(sequential.0, 724);
    let mut stopped = 0;
    // 30 runs: 6 parallel strategies, 5 runs each.
    for strategy in ["naive", "depth:2", "steal", "budget:64", "auto", "replicable"] {
        for round in 0..5 {
            let context = format!("{strategy} x2, run {round}");
            let (code, stderr, counts) = solve_json("remembers-nodes", strategy);
            match code {
                // A run whose workers never replayed a path (the first took the whole tree
                // before the second woke) searched the sequential tree.
                Some(0) => assert_eq!(counts, Some(sequential), "{context}: exit 0 with other counts"),
                Some(EXIT_MODEL_PANICKED) => {
                    stopped += 1;
                    assert_eq!(stderr.lines().count(), 1, "{context}: {stderr}");
                    let expected = "backtrack-bench: error: the broken_model family's moves do not replay while \
                                    searching component `10x10`";
                    assert!(stderr.starts_with(expected), "{context}: {stderr}");
                    // `auto` and `replicable` list the frontier level after level: the
                    // second listing enters the nodes the first branched, dead ends now.
                    let listings_differ = format!(
                        "({strategy} x2): two listings of the same tree differ: the listing to depth 2 entered 1 \
                         node, where the listing to depth 1 entered 1 above its depth and listed 10 at it"
                    );
                    let replayed = stderr.contains(" at the node reached by the moves [")
                        && stderr.contains("is not offered on replay: the node is a dead end (rule 1)");
                    let listed = matches!(strategy, "auto" | "replicable") && stderr.contains(&listings_differ);
                    assert!(replayed || listed, "{context}: {stderr}");
                }
                other => panic!("{context}: exit {other:?}: {stderr}"),
            }
            // A frontier split replays a path for every subproblem, and a listing level
            // after level branches the root twice: they always stop.
            if strategy != "steal" {
                assert_eq!(code, Some(EXIT_MODEL_PANICKED), "{context}: {stderr}");
            }
        }
    }
    assert!(stopped >= 20, "{stopped} of 30 runs stopped");
}

#[test]
fn text_output_names_the_solution_that_failed_the_independent_check() {
    // The puzzle's `verify` rejects the placements whose first queen is in column 2.
    let folder = tempfile::tempdir().unwrap();
    let instance = instance_with_fault(folder.path(), "verify-rejects");
    let output = run(&["solve", &instance, "--all"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let expected = "backtrack-bench: error: a solution failed the independent check (a model bug): 8x8: \
                    verify-rejects fault: the solution 2,4,6,8,3,1,7,5 (and 7 more: verify_failures in --json)";
    assert_eq!(stderr.trim_end(), expected, "{stderr}");
}

#[test]
fn estimate_compare_counts_on_models_built_afresh_and_the_probes_stop_at_their_time_limit() {
    // The probes branch the nodes they pass: a model that remembers them (state outside
    // do/undo) would find its own tree smaller if the full search ran on the probes' model.
    let (code, stderr, sequential) = solve_json("remembers-nodes", "sequential");
    assert_eq!(code, Some(0), "{stderr}");
    let output = run(&["estimate", "10", "--fault", "remembers-nodes", "--compare", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let estimate: serde_json::Value = serde_json::from_slice(&output.stdout).expect("--json prints the estimate");
    assert_eq!(estimate["components"][0]["actual_nodes"].as_u64(), sequential.map(|(_, nodes)| nodes), "{estimate}");
    // Ten million plain probes of 12-queens take seconds; the limit stops them at 50 ms.
    let started = Instant::now();
    let output = run(&["estimate", "12", "--probes", "10000000", "--method", "knuth", "--time-limit", "0.05"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(started.elapsed() < Duration::from_secs(20), "the limit held the probes: {:?}", started.elapsed());
    let expected = "backtrack-bench: error: the estimate of component `12x12` passed its time limit of 0.05 s after ";
    assert!(
        stderr.starts_with(expected) && stderr.contains(" of its 10000000 probes: ask for fewer --probes"),
        "{stderr}"
    );
    let refused = run(&["estimate", "10", "--time-limit", "0"]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
}

#[test]
fn a_split_whose_paths_do_not_replay_stops_with_exit_3_and_writes_no_plan() {
    // The split lists the frontier, then numbers each path by branching its nodes again: a
    // model that remembers the nodes it branched no longer offers the move.
    let folder = tempfile::tempdir().unwrap();
    let out = folder.path().join("plan").to_string_lossy().into_owned();
    let output = run(&["split", "10", "--all", "--parts", "2", "--out", &out, "--fault", "remembers-nodes"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(EXIT_MODEL_PANICKED), "{stderr}");
    let expected = "backtrack-bench: error: the broken_model family's moves do not replay while splitting component \
                    `10x10` (sequential x1): the move 0 at depth 0 is not offered when the split numbers its path";
    assert!(stderr.starts_with(expected), "{stderr}");
    assert!(!folder.path().join("plan").join("plan.json").exists(), "no plan is written");
}

#[test]
fn a_part_whose_process_offers_other_moves_than_the_split_saw_stops_with_exit_3() {
    // The model's root is a dead end where BROKEN_MODEL_OTHER_PROCESS is set: the split
    // (without it) plans the tree, the part (with it) cannot replay the plan's paths.
    let folder = tempfile::tempdir().unwrap();
    let out = folder.path().join("plan").to_string_lossy().into_owned();
    let split = run(&["split", "8", "--all", "--parts", "2", "--out", &out, "--fault", "process-dependent"]);
    assert_eq!(split.status.code(), Some(0), "{}", text(&split.stderr));
    let output = run_with(&["run-part", &out, "1"], &[("BROKEN_MODEL_OTHER_PROCESS", "1")]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(EXIT_MODEL_PANICKED), "{stderr}");
    let expected =
        "backtrack-bench: error: the broken_model family's moves do not replay while searching component `8x8`";
    assert!(stderr.starts_with(expected), "{stderr}");
    assert!(stderr.contains("leaves the tree at level 1: the node there has 0 candidate(s)"), "{stderr}");
    assert!(!folder.path().join("plan/parts/1.json").exists(), "no part file is written");
    // The same part in a process like the split's runs.
    let output = run(&["run-part", &out, "1"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}
