//! A sweep refuses what would mix or lose runs: `--resume` of a configuration that is to
//! run more after the instance file under its source was replaced or edited, and a file at a run log's name whose rows the
//! harness did not write. And a configuration's time budget ends its repeats even when the
//! spec sets no `min_repeats`.

mod common;

use common::text;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn sweep(folder: &Path, spec: &str, extra: &[&str]) -> Output {
    let spec_path = folder.join("s.toml");
    std::fs::write(&spec_path, spec).expect("the spec");
    Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
        .current_dir(folder)
        .args(["sweep", "--spec", text(&spec_path), "--out", "out", "--quiet"])
        .args(extra)
        .output()
        .expect("the binary runs")
}

fn instance(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("instances").join(name)).expect("an instance")
}

/// Sweeps `z.json` (the prime grid) twice, then puts `edit`'s instance under the same name:
/// a resume of the finished configuration runs nothing; once the configuration is to run
/// more, the resume is refused (exit 2) with `expected` in its message, the log untouched.
fn resume_after_the_instance_changed(edit: impl Fn(&str) -> String, expected: &[&str]) {
    let folder = tempfile::tempdir().expect("a temporary folder");
    // One family and knobs, so one configuration id whatever the instance holds.
    let grid = instance("prime_grid.json");
    let changed = edit(&grid);
    assert_ne!(grid, changed);
    std::fs::write(folder.path().join("z.json"), &grid).expect("the instance");
    let spec = "name = \"s\"\nrepeats = 2\n[[block]]\ninstances = [\"z.json\"]\nbaseline = false\n";
    let first = sweep(folder.path(), spec, &[]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let log = folder.path().join("out/s-runs.csv");
    let before = std::fs::read(&log).expect("the run log");
    std::fs::write(folder.path().join("z.json"), &changed).expect("another instance");
    // Finished, the configuration gets no run that would join the old ones: nothing to refuse.
    let finished = sweep(folder.path(), spec, &["--resume"]);
    assert!(finished.status.success(), "{}", String::from_utf8_lossy(&finished.stderr));
    // Stopped before its last repeat (a kill leaves no completion mark), it would run more.
    std::fs::remove_file(folder.path().join("out/s-runs.csv.complete")).expect("the completion mark");
    let resumed = sweep(folder.path(), &spec.replace("repeats = 2", "repeats = 3"), &["--resume"]);
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(2), "{stderr}");
    assert!(expected.iter().all(|part| stderr.contains(part)), "{stderr}");
    assert_eq!(std::fs::read(&log).expect("the run log"), before, "the log is as it was");
}

#[test]
fn resume_after_the_instance_file_was_replaced_is_refused_and_changes_nothing() {
    let another_id = |grid: &str| grid.replacen("\"C_prime_3x3_grid\"", "\"another_grid\"", 1);
    resume_after_the_instance_changed(another_id, &["holds runs of instance", "`z.json` now holds"]);
}

#[test]
fn resume_after_the_instance_data_was_edited_under_the_same_id_is_refused_and_changes_nothing() {
    let other_bound = |grid: &str| grid.replacen("\"sum_bound_exclusive\": 100", "\"sum_bound_exclusive\": 90", 1);
    resume_after_the_instance_changed(other_bound, &["holds runs of `z.json`", "its data changed since"]);
}

#[test]
fn an_instance_edited_before_its_first_run_is_resumed_with_the_runs_of_the_edit() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let grid = instance("prime_grid.json");
    let edited = grid.replacen("\"sum_bound_exclusive\": 100", "\"sum_bound_exclusive\": 90", 1);
    std::fs::write(folder.path().join("z.json"), &grid).expect("the instance");
    let spec = "name = \"s\"\nrepeats = 1\n[[block]]\ninstances = [\"rings\", \"z.json\"]\nbaseline = false\n";
    let first = sweep(folder.path(), spec, &[]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    // As if stopped before z.json's first run: its rows and the completion mark go.
    let log = folder.path().join("out/s-runs.csv");
    let without_z = |text: &str| {
        text.lines()
            .filter(|line| !line.contains("C_prime_3x3_grid"))
            .map(|line| format!("{line}\n"))
            .collect::<String>()
    };
    let text = std::fs::read_to_string(&log).expect("the run log");
    std::fs::write(&log, without_z(&text)).expect("the log cut");
    std::fs::remove_file(folder.path().join("out/s-runs.csv.complete")).expect("the completion mark");
    // Edited before any run of it is recorded: its runs search the edit.
    std::fs::write(folder.path().join("z.json"), &edited).expect("the edit");
    let resumed = sweep(folder.path(), spec, &["--resume"]);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    // Stopped again before its last repeat: resumed once more, the runs and the file agree.
    std::fs::remove_file(folder.path().join("out/s-runs.csv.complete")).expect("the completion mark");
    let again = sweep(folder.path(), &spec.replace("repeats = 1", "repeats = 2"), &["--resume"]);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    // Back to the first data, it is refused: the log's runs of z.json searched the edit.
    std::fs::write(folder.path().join("z.json"), &grid).expect("the first data");
    std::fs::remove_file(folder.path().join("out/s-runs.csv.complete")).expect("the completion mark");
    let back = sweep(folder.path(), &spec.replace("repeats = 1", "repeats = 3"), &["--resume"]);
    let stderr = String::from_utf8_lossy(&back.stderr);
    assert_eq!(back.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("its data changed since"), "{stderr}");
}

#[test]
fn a_file_at_a_log_name_holding_rows_the_harness_did_not_write_is_refused_and_kept() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let out = folder.path().join("out");
    std::fs::create_dir(&out).expect("the results folder");
    let foreign = "my,own,data\n1,2,3\n";
    std::fs::write(out.join("s-counts.csv"), foreign).expect("a file of the user's");
    let spec = "name = \"s\"\n[[block]]\ninstances = [\"rings\"]\nbaseline = false\n";
    let output = sweep(folder.path(), spec, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("s-counts.csv") && stderr.contains("nothing was changed"), "{stderr}");
    assert_eq!(std::fs::read_to_string(out.join("s-counts.csv")).expect("kept"), foreign);
}

#[test]
fn the_time_budget_ends_the_repeats_without_min_repeats() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let spec_path = folder.path().join("s.toml");
    let spec = "name = \"s\"\nrepeats = 1000000\nconfig_budget_s = 0.3\n[[block]]\ninstances = [\"rings\"]\nbaseline = false\n";
    std::fs::write(&spec_path, spec).expect("the spec");
    let mut child = Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
        .current_dir(folder.path())
        .args(["sweep", "--spec", text(&spec_path), "--out", "out", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A million runs would take hours: the budget must end them well within a minute.
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("a status") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("the sweep ran on past its time budget");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success());
    let log = std::fs::read_to_string(folder.path().join("out/s-runs.csv")).expect("the run log");
    let runs = log.lines().count() - 1;
    assert!((1..1_000_000).contains(&runs), "{runs} runs");
}
