//! A sweep run again keeps the earlier run: every row of it stays in the results folder's
//! `history/`, `report` compares the new run with it, a killed run is named as unfinished
//! with the way to resume it, and shards (at once, or rerun) keep their rows too; times of
//! another machine, or of a log that names none, are neither faster nor slower. Through
//! the binary, on the tiny rings instance and the report fixture.

use backtrack_bench::unstable::harness::storing::csv_log::{read_checked_rows, write_rows};
use backtrack_bench::unstable::harness::storing::record::{RunRecord, COLUMNS_OF_EVERY_BUILD};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Five configurations of the rings instance (defaults and each other knob value), twice.
const RINGS_SPEC: &str = "name = \"t\"\nrepeats = 2\n[[block]]\ninstances = [\"rings\"]\nknobs = \"each\"\n";

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn sweep(spec: &Path, out: &Path, extra: &[&str]) -> Output {
    let output = binary()
        .args(["sweep", "--spec", &spec.to_string_lossy(), "--out", &out.to_string_lossy(), "--quiet"])
        .args(extra)
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{}", text(&output.stderr));
    output
}

/// The data lines (rows) of a CSV file the harness wrote: every cell is a plain value, so a
/// line is a row.
fn rows(path: &Path) -> Vec<String> {
    let contents = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    contents.lines().skip(1).map(str::to_string).collect()
}

/// Every row of every `*-runs*.csv` file under `folder`, the history included.
fn every_row_under(folder: &Path) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                pending.push(path);
            } else if name.contains("-runs") && name.ends_with(".csv") {
                found.extend(rows(&path));
            }
        }
    }
    found
}

fn spec_in(folder: &Path, text: &str) -> PathBuf {
    let path = folder.join("spec.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_second_plain_run_keeps_every_row_of_the_first_and_report_names_what_changed() {
    let folder = tempfile::tempdir().unwrap();
    let spec = spec_in(folder.path(), RINGS_SPEC);
    let out = folder.path().join("results");
    let first = sweep(&spec, &out, &[]);
    assert!(!text(&first.stderr).contains("history"), "nothing to keep yet: {}", text(&first.stderr));
    let first_rows = rows(&out.join("t-runs.csv"));
    let first_counts = rows(&out.join("t-counts.csv"));
    assert_eq!(first_rows.len(), 10);

    let second = sweep(&spec, &out, &[]);
    let stderr = text(&second.stderr);
    let entry = out.join("history").join("t-1");
    assert!(stderr.contains(&format!("{}/", entry.display())) && stderr.contains("10 rows"), "{stderr}");
    assert!(!stderr.contains("unfinished"), "{stderr}");
    // Every row of the first run is still in the folder, in the history, counts included.
    assert_eq!(rows(&entry.join("t-runs.csv")), first_rows);
    assert_eq!(rows(&entry.join("t-counts.csv")), first_counts);
    let everything = every_row_under(&out);
    assert!(first_rows.iter().all(|row| everything.contains(row)));
    // The folder's own log holds the second run alone; the summary is of that run.
    let second_rows = rows(&out.join("t-runs.csv"));
    assert_eq!(second_rows.len(), 10);
    assert!(second_rows.iter().all(|row| !first_rows.contains(row)));

    // `report` compares the newest run with the previous one, without being asked.
    let report = binary().args(["report", "--out", &out.to_string_lossy()]).output().unwrap();
    assert!(report.status.success(), "{}", text(&report.stderr));
    let stdout = text(&report.stdout);
    assert!(stdout.contains("## Changes against the previous run of `t`"), "{stdout}");
    let line = stdout.lines().find(|line| line.starts_with("changed: ")).unwrap_or_else(|| panic!("{stdout}"));
    // The five configurations ran twice on each side: too few runs to judge their times
    // (their node counts are still compared).
    assert!(line.ends_with("0 within noise; 5 with fewer than 3 runs a side (times not judged)"), "{line}");
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.contains(line), "{readme}");
    let json = binary().args(["report", "--out", &out.to_string_lossy(), "--json"]).output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["comparison"]["compared"], 5);
    assert!(json["comparison"]["against"][0].as_str().unwrap().contains("t-1"));

    // A kept log this build cannot read (another build's columns) costs the comparison only.
    let kept = entry.join("t-runs.csv");
    let other_build = std::fs::read_to_string(&kept).unwrap().replacen('\n', ",added_later\n", 1);
    std::fs::write(&kept, other_build).unwrap();
    let report = binary().args(["report", "--out", &out.to_string_lossy()]).output().unwrap();
    assert!(report.status.success(), "{}", text(&report.stderr));
    assert!(text(&report.stderr).contains("not compared with the previous run of `t`"), "{}", text(&report.stderr));
    assert!(!text(&report.stdout).contains("## Changes against"), "{}", text(&report.stdout));
}

#[test]
fn a_killed_run_is_named_unfinished_with_the_way_to_resume_and_its_rows_are_kept() {
    let folder = tempfile::tempdir().unwrap();
    let out = folder.path().join("results");
    let spec = spec_in(
        folder.path(),
        "name = \"long\"\nrepeats = 1000000\nconfig_budget_s = 600\n[[block]]\ninstances = [\"rings\"]\n",
    );
    let mut child = binary()
        .args(["sweep", "--spec", &spec.to_string_lossy(), "--out", &out.to_string_lossy(), "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let runs = out.join("long-runs.csv");
    let started = Instant::now();
    while std::fs::read_to_string(&runs).map_or(0, |contents| contents.lines().count()) < 20 {
        assert!(started.elapsed() < Duration::from_secs(30), "the sweep wrote no rows");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: kill with a child's pid and a valid signal number has no memory effects.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGKILL) }, 0);
    child.wait().unwrap();
    let killed_rows = rows(&runs);
    assert!(killed_rows.len() >= 19);

    let rerun = sweep(&spec, &out, &["--repeats", "1"]);
    let stderr = text(&rerun.stderr);
    assert!(stderr.contains("an unfinished run of sweep `long` was found"), "{stderr}");
    assert!(stderr.contains("--resume") && stderr.contains("history/long-1"), "{stderr}");
    assert_eq!(rows(&out.join("history/long-1/long-runs.csv")), killed_rows);
    // This run ended: a third run finds it finished.
    let third = sweep(&spec, &out, &["--repeats", "1"]);
    let stderr = text(&third.stderr);
    assert!(stderr.contains("the previous run of sweep `long` (1 rows)") && !stderr.contains("unfinished"), "{stderr}");
}

#[test]
fn an_interrupted_shard_says_how_to_finish_it_not_that_it_is_done() {
    let folder = tempfile::tempdir().unwrap();
    let out = folder.path().join("results");
    let spec = spec_in(
        folder.path(),
        "name = \"long\"\nrepeats = 1000000\nconfig_budget_s = 600\n[[block]]\ninstances = [\"rings\"]\n",
    );
    let child = binary()
        .args(["sweep", "--spec", &spec.to_string_lossy(), "--out", &out.to_string_lossy(), "--shard", "1/2"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let runs = out.join("long-runs.shard-1-of-2.csv");
    let started = Instant::now();
    while std::fs::read_to_string(&runs).map_or(0, |contents| contents.lines().count()) < 5 {
        assert!(started.elapsed() < Duration::from_secs(30), "the shard wrote no rows");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: kill with a child's pid and a valid signal number has no memory effects.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let output = child.wait_with_output().unwrap();
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted: run again with --resume to finish"), "{stderr}");
    assert!(!stderr.contains("shard done"), "{stderr}");
}

#[test]
fn shards_at_once_and_rerun_keep_every_row() {
    let folder = tempfile::tempdir().unwrap();
    let spec = spec_in(folder.path(), RINGS_SPEC);
    let out = folder.path().join("results");
    let run_both_shards = || {
        let children: Vec<_> = ["1/2", "2/2"]
            .iter()
            .map(|shard| {
                binary()
                    .args(["sweep", "--spec", &spec.to_string_lossy(), "--out", &out.to_string_lossy()])
                    .args(["--quiet", "--shard", shard])
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let output = child.wait_with_output().unwrap();
            assert!(output.status.success(), "{}", text(&output.stderr));
        }
    };
    run_both_shards();
    let first: BTreeSet<String> = every_row_under(&out);
    assert_eq!(first.len(), 10, "both shards at once kept all rows");
    run_both_shards();
    let after: BTreeSet<String> = every_row_under(&out);
    assert_eq!(after.len(), 20);
    assert!(first.is_subset(&after));
    // The first run's two shard logs are together in one history entry.
    let entry = out.join("history/t-1");
    let kept: BTreeSet<String> = ["t-runs.shard-1-of-2.csv", "t-runs.shard-2-of-2.csv"]
        .iter()
        .flat_map(|name| rows(&entry.join(name)))
        .collect();
    assert_eq!(kept, first);
    // A rerun of one shard alone keeps its rows as well.
    let before = every_row_under(&out);
    sweep(&spec, &out, &["--shard", "1/2"]);
    assert!(before.is_subset(&every_row_under(&out)));
    assert!(out.join("history/t-2/t-runs.shard-1-of-2.csv").exists());
}

/// The report fixture's run log (`tests/fixtures/report`) in a fresh folder, measured on
/// `machines.1`, and beside it `old-runs.csv`: the same runs on `machines.0` (empty: a log
/// older than the `machine_id` column) with the `baseline` configuration's times times
/// `factor`. Returns the folder and the old log.
fn fixture_runs_scaled_on(factor: f64, machines: (&str, &str)) -> (tempfile::TempDir, PathBuf) {
    let folder = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report/fixture-runs.csv");
    let runs = read_checked_rows::<RunRecord>(&fixture, &RunRecord::header(), &COLUMNS_OF_EVERY_BUILD, |_| Ok(()))
        .unwrap()
        .rows;
    let on = |machine: &str, scale: f64| -> Vec<RunRecord> {
        let wall =
            |run: &RunRecord| if run.variant == "baseline" { (run.wall_ns as f64 * scale) as u64 } else { run.wall_ns };
        runs.iter().map(|run| RunRecord { machine_id: machine.into(), wall_ns: wall(run), ..run.clone() }).collect()
    };
    write_rows(&folder.path().join("fixture-runs.csv"), &on(machines.1, 1.0), &RunRecord::header()).unwrap();
    let old = folder.path().join("old-runs.csv");
    write_rows(&old, &on(machines.0, factor), &RunRecord::header()).unwrap();
    (folder, old)
}

fn run_report(arguments: &[&str]) -> Output {
    binary().args(arguments).output().expect("the binary runs")
}

#[test]
fn times_from_another_or_an_unknown_machine_are_neither_faster_nor_slower() {
    for (machines, verdict, line) in [
        (("vm-1", "vm-2"), "other machine", "; 7 on another machine (times not compared)"),
        (("", "vm-2"), "machine unknown", "; 7 machine unknown"),
    ] {
        // Three times faster before: on one machine a regression (tests/harness.rs).
        let (folder, baseline) = fixture_runs_scaled_on(1.0 / 3.0, machines);
        let out = folder.path().to_string_lossy().into_owned();
        let output =
            run_report(&["report", "--out", &out, "--baseline", &baseline.to_string_lossy(), "--fail-on-change"]);
        let stdout = text(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "{stdout}{}", text(&output.stderr));
        assert!(stdout.contains("7 configurations in both, 0 flagged, 0 regression(s)"), "{stdout}");
        assert!(
            stdout.contains(&format!("changed: 0 configurations faster, 0 slower, 0 within noise{line}")),
            "{stdout}"
        );
        // The configuration whose time moved is listed, with why it is no verdict.
        let row = stdout.lines().find(|row| row.starts_with("| fixture | `rings` | baseline |")).expect(&stdout);
        assert!(row.ends_with(&format!("| {verdict} |")) && !stdout.contains("slower**"), "{stdout}");
        let json = run_report(&["report", "--out", &out, "--baseline", &baseline.to_string_lossy(), "--json"]);
        let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        let verdicts: BTreeSet<&str> = json["comparison"]["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|change| change["verdict"].as_str().unwrap())
            .collect();
        assert_eq!(verdicts, BTreeSet::from([verdict.replace(' ', "-").as_str()]));
    }
}
