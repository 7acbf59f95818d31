//! End-to-end tests of the one bounded reader: a FIFO or a device in place of a spec, a
//! baseline, `plan.json`, `plans/K.json` or a part file is refused at once with exit 2 and
//! the file named (before, each of these hung or read without end).

mod common;

use common::make_fifo;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary with `arguments`, failing the test if it has not ended within 30
/// seconds (a hang is the bug these tests guard against).
fn run_bounded(arguments: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
        .args(arguments)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let started = Instant::now();
    while child.try_wait().expect("the child's status").is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{arguments:?} hung for 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("the output")
}

/// `arguments` exit with code 2 and a message containing `needle`.
fn refused_with(arguments: &[&str], needle: &str) {
    let output = run_bounded(arguments);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{arguments:?}: {stderr}");
    assert!(stderr.contains(needle), "{arguments:?}: {stderr}");
}

fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}

#[test]
fn dev_zero_as_a_spec_or_a_baseline_is_refused_at_once() {
    refused_with(&["sweep", "--spec", "/dev/zero", "--dry-run"], "/dev/zero: is a character device");
    let folder = tempfile::tempdir().expect("a temporary folder");
    refused_with(
        &["report", "--out", text(folder.path()), "--baseline", "/dev/zero"],
        "/dev/zero: is a character device",
    );
}

#[test]
fn a_fifo_as_a_spec_is_refused_at_once() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let fifo = folder.path().join("spec.toml");
    if !make_fifo(&fifo) {
        eprintln!("mkfifo is missing: skipped");
        return;
    }
    refused_with(&["sweep", "--spec", text(&fifo), "--dry-run"], "is a FIFO");
}

#[test]
fn a_fifo_as_plan_json_a_part_plan_or_a_part_file_is_refused_at_once() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let dir = folder.path();
    let split = common::run(&["split", "247", "--parts", "2", "--out", text(dir)]);
    assert!(split.status.success(), "{}", String::from_utf8_lossy(&split.stderr));
    let probe = dir.join("probe");
    if !make_fifo(&probe) {
        eprintln!("mkfifo is missing: skipped");
        return;
    }
    // A part file that is a FIFO: merge names it instead of waiting for a writer.
    let part = dir.join("parts").join("1.json");
    std::fs::create_dir_all(part.parent().expect("parts/")).expect("parts/");
    assert!(make_fifo(&part));
    let output = run_bounded(&["merge", text(dir)]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && stderr.contains("is a FIFO"), "{stderr}");
    // The part plan that run-part reads.
    let part_plan = dir.join("plans").join("1.json");
    std::fs::remove_file(&part_plan).expect("plans/1.json");
    assert!(make_fifo(&part_plan));
    refused_with(&["run-part", text(dir), "1"], "is a FIFO");
    // plan.json itself.
    std::fs::remove_file(dir.join("plan.json")).expect("plan.json");
    assert!(make_fifo(&dir.join("plan.json")));
    refused_with(&["merge", text(dir)], "is a FIFO");
    refused_with(&["merge", text(dir), "--status"], "is a FIFO");
}

#[test]
fn a_fifo_as_a_sweeps_instance_is_named_and_waited_on_by_no_run() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let fifo = folder.path().join("instance.json");
    if !make_fifo(&fifo) {
        eprintln!("mkfifo is missing: skipped");
        return;
    }
    let spec = folder.path().join("spec.toml");
    let text_of_spec = format!("name = \"f\"\n[[block]]\ninstances = [{:?}, \"rings\"]\n", text(&fifo));
    std::fs::write(&spec, text_of_spec).expect("the spec");
    let out = folder.path().join("results");
    // The dry run lists both configurations at once (it waited for a writer before).
    let dry_run = run_bounded(&["sweep", "--spec", text(&spec), "--out", text(&out), "--dry-run"]);
    assert!(dry_run.status.success(), "{}", String::from_utf8_lossy(&dry_run.stderr));
    assert_eq!(String::from_utf8_lossy(&dry_run.stdout).lines().count(), 3, "a header and two configurations");
    // The sweep records the FIFO's configuration as an error naming it, and runs the rings.
    let output = run_bounded(&["sweep", "--spec", text(&spec), "--out", text(&out), "--repeats", "1"]);
    let printed = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(printed.contains("instance.json: is a FIFO, not a regular file"), "{printed}");
    let runs = std::fs::read_to_string(out.join("f-runs.csv")).expect("the run log");
    assert_eq!(runs.lines().count(), 3, "{runs}");
    assert!(runs.contains("is a FIFO") && runs.contains(",ok,"), "{runs}");
}
