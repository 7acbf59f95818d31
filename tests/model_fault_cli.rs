//! A model's bug on the command line: the `broken_model` example (the workbench's command
//! line with a family whose model panics on purpose, `tests/broken_model/mod.rs`) exits
//! with code 3 and one line naming the family, the component and the node, under every
//! strategy at 2 threads; a sweep records `panic` for those configurations and goes on.

use std::collections::HashMap;
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
fn run(arguments: &[&str]) -> Output {
    let mut child = Command::new(broken_model_binary())
        .args(arguments)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example runs");
    let started = Instant::now();
    while child.try_wait().expect("the child's status").is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{arguments:?}: still running after 30 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().expect("the child's output")
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
fn a_panic_outside_a_run_is_one_line_that_calls_it_a_bug_and_exits_101() {
    // `estimate` probes the model outside `solve`'s catching (an uncaught panic, as a bug
    // of the tool would be): the binary's hook prints it in one line.
    let output = Command::new(broken_model_binary())
        .args(["estimate", "8", "--fault", "apply", "--probes", "1000"])
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .expect("the example runs");
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(101), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let expected = "backtrack-bench: internal error (a bug, please report it): panicked at ";
    assert!(stderr.starts_with(expected) && stderr.contains("apply fault injected at [1, 3, 0]"), "{stderr}");
}

#[test]
fn a_sweep_records_panic_for_the_broken_configurations_and_goes_on() {
    let folder = tempfile::tempdir().unwrap();
    let spec = folder.path().join("spec.toml");
    let strategies = STRATEGIES.iter().map(|strategy| format!("\"{strategy}\"")).collect::<Vec<_>>().join(", ");
    let blocks = format!(
        "name = \"t\"\nrepeats = 1\n[[block]]\ninstances = [\"8\"]\nknobs = {{ fault = [\"apply\", \"none\"] }}\n\
         strategies = [{strategies}]\nthreads = [2]\n"
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
