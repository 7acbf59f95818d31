//! What the end-to-end tests share: running the `backtrack-bench` binary.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

/// Runs the binary with `arguments` and returns what it did.
pub fn run(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_backtrack-bench")).args(arguments).output().expect("the binary runs")
}

/// `solve --json` with `arguments`, which must succeed, as its one JSON object.
#[allow(dead_code)] // each test file is its own crate, and not every one solves
pub fn solve_json(arguments: &[&str]) -> Value {
    let mut all = vec!["solve", "--json"];
    all.extend_from_slice(arguments);
    let output = run(&all);
    assert!(output.status.success(), "{all:?}: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("--json prints one JSON object")
}

/// Runs the binary with `arguments` as if outside any batch job: without the variables
/// (`SLURM_ARRAY_TASK_ID`, `JOB_COMPLETION_INDEX`) that name a cluster part.
#[allow(dead_code)] // each test file is its own crate, and not every one runs parts
pub fn tool(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
        .args(arguments)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .output()
        .expect("the binary runs")
}

/// [`tool`] with `arguments`, which must succeed: its stdout.
#[allow(dead_code)]
pub fn ok(arguments: &[&str]) -> String {
    let output = tool(arguments);
    assert!(output.status.success(), "{arguments:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// [`tool`] with `arguments`, which must be refused as bad input (exit code 2): its stderr.
#[allow(dead_code)]
pub fn refused(arguments: &[&str]) -> String {
    let output = tool(arguments);
    assert_eq!(output.status.code(), Some(2), "{arguments:?}: {}", String::from_utf8_lossy(&output.stdout));
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A temporary path as an argument.
#[allow(dead_code)]
pub fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}

/// A FIFO at `path`; `false` where `mkfifo` is missing (the test is then skipped).
#[allow(dead_code)] // each test file is its own crate, and not every one makes a FIFO
pub fn make_fifo(path: &Path) -> bool {
    Command::new("mkfifo").arg(path).status().is_ok_and(|status| status.success())
}

/// A temporary results folder holding the report fixture's run log and counts
/// (`tests/fixtures/report`).
#[allow(dead_code)]
pub fn report_fixture() -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report");
    for file in ["fixture-runs.csv", "fixture-counts.csv"] {
        std::fs::copy(fixtures.join(file), folder.path().join(file)).expect("the report fixture");
    }
    folder
}
