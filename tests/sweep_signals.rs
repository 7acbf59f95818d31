//! How a sweep ends when it is stopped from outside, and what `report` then says. SIGTERM
//! (`kill`, `timeout`, Slurm's `scancel` and time limit) stops the sweep as the first Ctrl-C
//! does: after the run in progress, with the summary and the resume hint, exit 130; it used
//! to end the process at once (143) with neither. A sweep killed outright (SIGKILL) leaves a
//! log without its completion mark, and `report` names it as unfinished with the command
//! that completes it; that command is run here and does complete it. Through the binary,
//! on the tiny rings instance.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Five configurations of the rings instance (defaults and each other knob value), 60 timed
/// runs each: 300 rows, enough for a signal sent after the first to land mid-sweep.
const REPEATS: usize = 60;
const CONFIGURATIONS: usize = 5;
const SPEC: &str = "name = \"sig\"\nrepeats = 60\n[[block]]\ninstances = [\"rings\"]\nknobs = \"each\"\n";

/// The longest any step here may take before the test fails (instead of hanging).
const PATIENCE: Duration = Duration::from_secs(120);

fn binary() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_backtrack-bench"));
    // Outside any batch job, whatever runs the tests.
    command.env_remove("SLURM_ARRAY_TASK_ID").env_remove("JOB_COMPLETION_INDEX");
    command
}

/// A sweep running in the background, killed (SIGKILL) and reaped when dropped, so that a
/// failed assertion never leaves it running.
struct Running {
    child: Option<Child>,
    stderr: PathBuf,
}

impl Running {
    /// Starts `sweep --spec SPEC --out OUT` with `extra`, its stderr into a file (a pipe
    /// nobody drains could block it).
    fn start(spec: &Path, out: &Path, extra: &[&str]) -> Running {
        let stderr = out.with_extension("stderr");
        let child = binary()
            .args(["sweep", "--spec", &spec.to_string_lossy(), "--out", &out.to_string_lossy()])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .expect("the binary runs");
        Running { child: Some(child), stderr }
    }

    fn signal(&self, signal: libc::c_int) {
        let pid = self.child.as_ref().expect("still running").id();
        // SAFETY: kill with a child's pid (not yet reaped) and a valid signal number.
        assert_eq!(unsafe { libc::kill(pid as libc::pid_t, signal) }, 0);
    }

    /// Waits for the end, at most [`PATIENCE`]: its exit status and stderr.
    fn wait(mut self) -> (ExitStatus, String) {
        let child = self.child.as_mut().expect("still running");
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(started.elapsed() < PATIENCE, "the sweep did not end within {PATIENCE:?}");
            std::thread::sleep(Duration::from_millis(20));
        };
        self.child = None;
        (status, std::fs::read_to_string(&self.stderr).unwrap())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The rows of a run log, each as its cells by column name.
fn rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|record| header.iter().map(String::from).zip(record.unwrap().iter().map(String::from)).collect())
        .collect()
}

/// Waits until the run log at `path` holds at least one complete row.
fn wait_for_first_row(path: &Path) {
    let started = Instant::now();
    while std::fs::read_to_string(path).map_or(0, |contents| contents.matches('\n').count()) < 2 {
        assert!(started.elapsed() < PATIENCE, "the sweep wrote no row within {PATIENCE:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Checks that the log holds every planned run exactly once: no (configuration, repeat)
/// twice, and all the repeats of each configuration.
fn assert_complete_without_duplicates(rows: &[BTreeMap<String, String>]) {
    let keys: BTreeSet<(&str, &str)> =
        rows.iter().map(|row| (row["config_id"].as_str(), row["repeat"].as_str())).collect();
    assert_eq!(keys.len(), rows.len(), "a (configuration, repeat) recorded twice");
    let mut per_configuration: BTreeMap<&str, usize> = BTreeMap::new();
    for row in rows {
        assert_eq!(row["status"], "ok");
        *per_configuration.entry(row["config_id"].as_str()).or_default() += 1;
    }
    assert_eq!(per_configuration.len(), CONFIGURATIONS);
    assert!(per_configuration.values().all(|&runs| runs == REPEATS), "{per_configuration:?}");
}

fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let folder = tempfile::tempdir().unwrap();
    let spec = folder.path().join("sig.toml");
    std::fs::write(&spec, SPEC).unwrap();
    let out = folder.path().join("results");
    (folder, spec, out)
}

#[test]
fn sigterm_stops_after_the_current_run_with_the_summary_and_resume_completes_it() {
    let (_folder, spec, out) = setup();
    let runs = out.join("sig-runs.csv");
    let sweep = Running::start(&spec, &out, &[]);
    wait_for_first_row(&runs);
    sweep.signal(libc::SIGTERM);
    let (status, stderr) = sweep.wait();
    assert_eq!(status.code(), Some(130), "{status:?}: {stderr}");
    assert!(stderr.contains("SIGTERM: stopping after the current run"), "{stderr}");
    assert!(stderr.contains("interrupted: run again with --resume to finish"), "{stderr}");
    assert!(stderr.contains(&format!("summary: {}", out.join("sig-summary.csv").display())), "{stderr}");
    let stopped = rows(&runs);
    assert!(!stopped.is_empty() && stopped.len() < REPEATS * CONFIGURATIONS, "{} rows", stopped.len());
    // The summary holds the recorded runs; the log is not marked finished.
    let summary = rows(&out.join("sig-summary.csv"));
    let summarized: usize = summary.iter().map(|row| row["runs"].parse::<usize>().unwrap()).sum();
    assert_eq!(summarized, stopped.len());
    assert!(!out.join("sig-runs.csv.complete").exists());

    let resumed = binary()
        .args(["sweep", "--spec", &spec.to_string_lossy(), "--out", &out.to_string_lossy(), "--resume", "--quiet"])
        .output()
        .unwrap();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    let all = rows(&runs);
    assert_eq!(all[..stopped.len()], stopped[..], "the rows recorded before SIGTERM stay as they were");
    assert_complete_without_duplicates(&all);
    assert!(out.join("sig-runs.csv.complete").exists());
}

#[test]
fn report_names_a_killed_sweep_unfinished_and_its_command_completes_it() {
    let (_folder, spec, out) = setup();
    let runs = out.join("sig-runs.csv");
    let sweep = Running::start(&spec, &out, &["--quiet"]);
    wait_for_first_row(&runs);
    sweep.signal(libc::SIGKILL);
    sweep.wait();
    let killed = rows(&runs).len();
    assert!(killed < REPEATS * CONFIGURATIONS, "{killed} rows: the sweep ended before the kill");

    let report = binary().args(["report", "--out", &out.to_string_lossy()]).output().unwrap();
    let stderr = String::from_utf8_lossy(&report.stderr);
    assert!(report.status.success(), "{stderr}");
    let said = "sweep `sig` did not finish (no completion mark beside `sig-runs.csv`";
    let line = stderr.lines().find(|line| line.contains(said)).unwrap_or_else(|| panic!("{stderr}"));
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    let paragraph = readme.lines().find(|line| line.starts_with("⚠ sweep `sig` did not finish"));
    let paragraph = paragraph.unwrap_or_else(|| panic!("{readme}"));
    assert!(paragraph.contains("--resume` completes it"), "{paragraph}");
    // The section's counts come first, then the paragraph that qualifies them.
    let counts = readme.find(&format!("configurations, {killed} measured runs")).unwrap_or_else(|| panic!("{readme}"));
    assert!(counts < readme.find(paragraph).unwrap(), "{readme}");

    // The command the note gives, run as given, completes the sweep.
    let command =
        line.split('`').find(|part| part.starts_with("backtrack-bench sweep ")).unwrap_or_else(|| panic!("{line}"));
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(words[..2], ["backtrack-bench", "sweep"], "{command}");
    assert_eq!(words.last(), Some(&"--resume"), "{command}");
    let resumed = binary().args(&words[1..]).arg("--quiet").output().unwrap();
    assert!(resumed.status.success(), "{command}: {}", String::from_utf8_lossy(&resumed.stderr));
    assert_complete_without_duplicates(&rows(&runs));

    let report = binary().args(["report", "--out", &out.to_string_lossy()]).output().unwrap();
    let stderr = String::from_utf8_lossy(&report.stderr);
    assert!(report.status.success() && !stderr.contains("did not finish"), "{stderr}");
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(!readme.contains("did not finish"), "{readme}");
}
