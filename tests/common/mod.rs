//! What the end-to-end tests share: running the `backtrack-bench` binary.

use serde_json::Value;
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
