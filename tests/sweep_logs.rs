//! A sweep's run log and counts log stay in step through faults: a process ended between a
//! run's counts and its record, and a full disk while the record is written, are injected
//! through the test-only `BACKTRACK_BENCH_TEST_FAULT` variable; `--resume` then leaves no
//! counts row doubled and none without its run. And `--resume` of a finished sweep runs
//! nothing. All on the tiny rings instance.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::{Command, Output};

/// Five configurations of the rings instance (defaults and each other knob value), twice.
const RINGS_SPEC: &str = "name = \"t\"\nrepeats = 2\n[[block]]\ninstances = [\"rings\"]\nknobs = \"each\"\n";

fn sweep(spec: &Path, out: &Path, extra: &[&str], fault: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_backtrack-bench"));
    command.args(["sweep", "--spec", &spec.to_string_lossy(), "--out", &out.to_string_lossy(), "--quiet"]);
    command.args(extra);
    match fault {
        Some(fault) => command.env("BACKTRACK_BENCH_TEST_FAULT", fault),
        None => command.env_remove("BACKTRACK_BENCH_TEST_FAULT"),
    };
    command.output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The rows of a CSV file as field maps (a cut-off last line is left out, as readers do).
fn rows_of(path: &Path) -> Vec<HashMap<String, String>> {
    let contents = std::fs::read_to_string(path).unwrap();
    let complete = &contents[..contents.rfind('\n').map_or(0, |end| end + 1)];
    let mut reader = csv::Reader::from_reader(complete.as_bytes());
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|record| headers.iter().zip(record.unwrap().iter()).map(|(k, v)| (k.to_string(), v.to_string())).collect())
        .collect()
}

/// Runs as (configuration id, repeat).
type RunSet = BTreeSet<(String, String)>;

fn run_key(row: &HashMap<String, String>) -> (String, String) {
    (row["config_id"].clone(), row["repeat"].clone())
}

/// The runs recorded, and the runs the counts rows belong to; asserts that no counts row
/// is there twice and none is without its run.
fn check_logs_in_step(folder: &Path) -> (RunSet, RunSet) {
    let runs: Vec<_> = rows_of(&folder.join("t-runs.csv")).iter().map(run_key).collect();
    let runs_set: BTreeSet<_> = runs.iter().cloned().collect();
    assert_eq!(runs.len(), runs_set.len(), "a run recorded twice: {runs:?}");
    let counts = rows_of(&folder.join("t-counts.csv"));
    let mut identities = BTreeSet::new();
    for row in &counts {
        let identity =
            (run_key(row), row["measure"].clone(), row["rule"].clone(), row["depth"].clone(), row["worker"].clone());
        assert!(identities.insert(identity.clone()), "a counts row written twice: {identity:?}");
    }
    let counted: BTreeSet<_> = counts.iter().map(run_key).collect();
    let orphans: Vec<_> = counted.difference(&runs_set).collect();
    assert!(orphans.is_empty(), "counts rows of runs with no record: {orphans:?}");
    (runs_set, counted)
}

#[test]
fn a_process_ended_between_counts_and_record_leaves_no_doubled_or_orphan_counts_after_resume() {
    let folder = tempfile::tempdir().unwrap();
    let spec = folder.path().join("spec.toml");
    std::fs::write(&spec, RINGS_SPEC).unwrap();
    let output = sweep(&spec, folder.path(), &[], Some("exit-after-counts:3"));
    assert_eq!(output.status.code(), Some(137), "{}", text(&output.stderr));
    // Two runs recorded; the third run's counts are in the counts log without its record.
    assert_eq!(rows_of(&folder.path().join("t-runs.csv")).len(), 2);
    let counted: BTreeSet<_> = rows_of(&folder.path().join("t-counts.csv")).iter().map(run_key).collect();
    assert_eq!(counted.len(), 3, "{counted:?}");

    let output = sweep(&spec, folder.path(), &["--resume"], None);
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("counts row(s) of runs with no record"), "{stderr}");
    let (runs, counted) = check_logs_in_step(folder.path());
    assert_eq!(runs.len(), 10);
    // Every run has its counts again, the one run again included.
    assert_eq!(counted, runs);
}

#[test]
fn a_full_disk_at_a_record_takes_back_its_counts_and_resume_cuts_the_half_line() {
    let folder = tempfile::tempdir().unwrap();
    let spec = folder.path().join("spec.toml");
    std::fs::write(&spec, RINGS_SPEC).unwrap();
    let output = sweep(&spec, folder.path(), &[], Some("full-disk-at-record:4"));
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    assert!(stderr.contains("t-runs.csv"), "{stderr}");
    let runs_text = std::fs::read_to_string(folder.path().join("t-runs.csv")).unwrap();
    assert!(!runs_text.ends_with('\n'), "the fault leaves half a line");
    // The fourth run's counts were taken back: the counts log holds the three recorded runs.
    let (runs, counted) = check_logs_in_step(folder.path());
    assert_eq!((runs.len(), counted.len()), (3, 3));

    let output = sweep(&spec, folder.path(), &["--resume"], None);
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("t-runs.csv: dropping an incomplete last line"), "{stderr}");
    // Said once: the reader's note of the same line is left out.
    assert!(!stderr.contains("(cut off); ignored"), "{stderr}");
    let (runs, counted) = check_logs_in_step(folder.path());
    assert_eq!(runs.len(), 10);
    assert_eq!(counted, runs);
}

#[test]
fn resuming_a_finished_sweep_runs_nothing_even_when_its_rule_stopped_repeats_early() {
    let folder = tempfile::tempdir().unwrap();
    let spec = folder.path().join("spec.toml");
    // The interval test passes early past the minimum: fewer than fifty runs each.
    let text_of_spec = "name = \"t\"\nrepeats = 50\nmin_repeats = 2\ntarget_ci = 0.99\n[[block]]\ninstances = [\"rings\"]\nknobs = \"each\"\n";
    std::fs::write(&spec, text_of_spec).unwrap();
    assert!(sweep(&spec, folder.path(), &[], None).status.success());
    let runs_file = folder.path().join("t-runs.csv");
    let before = std::fs::read_to_string(&runs_file).unwrap();
    let per_config_before = runs_per_config(&rows_of(&runs_file));
    assert_eq!(per_config_before.len(), 5);
    assert!(per_config_before.iter().all(|(_, runs)| (2..50).contains(runs)), "{per_config_before:?}");

    let output = sweep(&spec, folder.path(), &["--resume"], None);
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("nothing to run: all 5 configurations are recorded"), "{stderr}");
    assert!(!stderr.contains("t-counts.csv: missing"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&runs_file).unwrap(), before);

    // The counts file removed: the resume says their counts are lost (it said nothing).
    let counts_file = folder.path().join("t-counts.csv");
    let counts = std::fs::read(&counts_file).unwrap();
    std::fs::remove_file(&counts_file).unwrap();
    let stderr = text(&sweep(&spec, folder.path(), &["--resume"], None).stderr);
    assert!(stderr.contains("t-counts.csv: missing: the counts per depth and per rule of the runs"), "{stderr}");
    std::fs::write(&counts_file, counts).unwrap();

    // Killed during its fourth configuration (its first run kept, no completion mark): the
    // three before it are finished (the sweep moved on from them) and get no run, the fourth
    // goes on, the fifth runs.
    std::fs::remove_file(folder.path().join("t-runs.csv.complete")).unwrap();
    let first_three: usize = per_config_before[..3].iter().map(|(_, runs)| runs).sum();
    let kept: Vec<&str> = before.lines().take(1 + first_three + 1).collect();
    std::fs::write(&runs_file, format!("{}\n", kept.join("\n"))).unwrap();
    let output = sweep(&spec, folder.path(), &["--resume"], None);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let per_config = runs_per_config(&rows_of(&runs_file));
    assert_eq!(per_config[..3], per_config_before[..3]);
    assert_eq!(per_config.len(), 5, "{per_config:?}");
    assert!(per_config[3].1 >= 2, "{per_config:?}");
    check_logs_in_step(folder.path());
}

/// (configuration id, rows) for each stretch of rows of one configuration, in log order.
fn runs_per_config(rows: &[HashMap<String, String>]) -> Vec<(String, usize)> {
    let mut stretches: Vec<(String, usize)> = Vec::new();
    for row in rows {
        match stretches.last_mut() {
            Some((id, count)) if *id == row["config_id"] => *count += 1,
            _ => stretches.push((row["config_id"].clone(), 1)),
        }
    }
    stretches
}

#[test]
fn a_sweep_removes_old_temporary_files_of_dead_processes_and_nothing_else() {
    let folder = tempfile::tempdir().unwrap();
    let spec = folder.path().join("spec.toml");
    std::fs::write(&spec, "name = \"t\"\nrepeats = 1\n[[block]]\ninstances = [\"rings\"]\n").unwrap();
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let make = |name: &str| {
        let path = folder.path().join(name);
        std::fs::File::create(&path).unwrap().set_modified(an_hour_ago).unwrap();
        path
    };
    // A PID above the kernel's maximum is never alive; this test's own PID is.
    let left_by_a_kill = make(".t-summary.csv.999999999-12.tmp");
    let of_a_live_process = make(&format!(".t-summary.csv.{}-12.tmp", std::process::id()));
    let not_ours = make("t-notes.tmp");
    let output = sweep(&spec, folder.path(), &[], None);
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(!left_by_a_kill.exists());
    assert!(
        stderr.contains(".t-summary.csv.999999999-12.tmp, a temporary file left by a process that was killed"),
        "{stderr}"
    );
    assert!(of_a_live_process.exists() && not_ours.exists());
}
