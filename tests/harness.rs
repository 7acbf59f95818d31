//! End-to-end tests of `sweep` and `report` through the binary: pinned CSV headers, the
//! report from a committed fixture, `--resume`, shards, failures recorded, and sweeps
//! killed with SIGINT and SIGKILL leaving every CSV parseable. All on the tiny rings
//! instance, so the file runs in a few seconds.

use backtrack_bench::harness::storing::csv_log::{read_rows, write_rows};
use backtrack_bench::harness::storing::summary::SummaryRow;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The run log's columns. Changing them breaks `--resume` and `report` on older files:
/// change deliberately, and document the column in docs/harness.md.
const RUNS_HEADER: &str = "sweep,spec,config_id,config_index,repeat,shard,status,error,puzzle,instance,source,instance_title,variant,knobs,mode,strategy,threads,counters,state,node_limit,repeats_planned,warmup,complete,solutions,answer,verify_failures,nodes,wall_ns,batch,user_cpu_ns,system_cpu_ns,prunes_total,rule_checks,rule_prunes,nodes_per_depth,prunes_per_depth,subproblems,steals,imbalance,idle_share,task_ns_median,task_ns_p90,task_nodes_median,first_solution_ns,stop_latency_ns,nodes_after_first,worker_nodes,worker_tasks,worker_idle_ns,git_commit,crate_version,rustc_version,cpu_model,available_parallelism,hostname,timestamp";

/// The summary's columns (same rule).
const SUMMARY_HEADER: &str = "sweep,spec,config_id,config_index,puzzle,instance,source,instance_title,variant,knobs,mode,strategy,threads,counters,state,node_limit,repeats_planned,warmup,status,runs,error,solutions,nodes,wall_ns_min,wall_ns_median,wall_ns_p90,wall_ns_max,wall_rsd,batch,user_cpu_ns_median,system_cpu_ns_median,cpu_per_wall,prunes_total,rule_prunes,nodes_per_depth,prunes_per_depth,speedup,efficiency,search_overhead,parallel_overhead,subproblems_per_worker,steals,idle_share,imbalance,why_slower,git_commit,crate_version,rustc_version,cpu_model,available_parallelism,hostname,first_timestamp,last_timestamp";

/// Five configurations of the rings instance (defaults and each other knob value), twice.
const RINGS_SPEC: &str = "name = \"t\"\nrepeats = 2\n[[block]]\ninstances = [\"rings\"]\nknobs = \"each\"\n";

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
}

fn run(arguments: &[&str]) -> Output {
    binary().args(arguments).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A temporary folder holding `spec.toml` with `spec`.
fn folder_with_spec(spec: &str) -> (tempfile::TempDir, String) {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("spec.toml");
    std::fs::write(&path, spec).unwrap();
    let path = path.to_string_lossy().into_owned();
    (folder, path)
}

fn sweep(spec: &str, out: &Path, extra: &[&str]) -> Output {
    let out = out.to_string_lossy().into_owned();
    let mut arguments = vec!["sweep", "--spec", spec, "--out", &out, "--quiet"];
    arguments.extend_from_slice(extra);
    run(&arguments)
}

/// Every row of a CSV file, as field maps; panics on any line that does not parse.
fn rows_of(path: &Path) -> Vec<HashMap<String, String>> {
    let contents = std::fs::read_to_string(path).unwrap();
    assert!(contents.ends_with('\n'), "{}: the last line is cut off", path.display());
    let mut reader = csv::Reader::from_reader(contents.as_bytes());
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|record| {
            let record = record.unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            assert_eq!(record.len(), headers.len(), "{}: a row with missing fields", path.display());
            headers.iter().zip(record.iter()).map(|(name, value)| (name.to_string(), value.to_string())).collect()
        })
        .collect()
}

fn first_line(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap().lines().next().unwrap_or_default().to_string()
}

#[test]
fn runs_and_summary_headers_are_pinned() {
    let (folder, spec) = folder_with_spec(RINGS_SPEC);
    let output = sweep(&spec, folder.path(), &["--repeats", "1"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(first_line(&folder.path().join("t-runs.csv")), RUNS_HEADER);
    assert_eq!(first_line(&folder.path().join("t-summary.csv")), SUMMARY_HEADER);
    let rows = rows_of(&folder.path().join("t-runs.csv"));
    assert_eq!(rows.len(), 5);
    let defaults = &rows[0];
    assert_eq!((defaults["variant"].as_str(), defaults["status"].as_str()), ("defaults", "ok"));
    assert_eq!((defaults["solutions"].as_str(), defaults["nodes"].as_str()), ("1", "20"));
    assert_eq!(defaults["rule_prunes"], "ring-sum=11;ring-bounds=1");
    // The per-depth profile adds up to the per-rule totals.
    let per_depth_total: u64 = defaults["prunes_per_depth"]
        .split(';')
        .map(|rule| rule.split_once('=').unwrap().1.split('/').map(|n| n.parse::<u64>().unwrap()).sum::<u64>())
        .sum();
    assert_eq!(per_depth_total, 12, "{}", defaults["prunes_per_depth"]);
    assert!(defaults["prunes_per_depth"].starts_with("ring-sum="), "{}", defaults["prunes_per_depth"]);
    // A 20-node search takes microseconds: it is timed as a batch of calls of at least 1 ms.
    let batch: u64 = defaults["batch"].parse().unwrap();
    let wall: u64 = defaults["wall_ns"].parse().unwrap();
    assert!(batch > 1 && batch * wall >= 900_000, "batch {batch} x {wall} ns");
    assert_eq!(defaults["instance_title"], "Perl Weekly Challenge 043, task 1: Olympic Rings");
    assert_eq!((defaults["repeats_planned"].as_str(), defaults["warmup"].as_str()), ("1", "0"));
    assert!(defaults["spec"].ends_with("spec.toml"), "{}", defaults["spec"]);
    assert!(!defaults["git_commit"].is_empty() && defaults["rustc_version"].starts_with("rustc"));
    assert!(defaults["timestamp"].ends_with('Z'));
}

#[test]
fn report_rebuilds_tables_and_plots_from_the_fixture_alone() {
    let folder = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report/fixture-runs.csv");
    std::fs::copy(&fixture, folder.path().join("fixture-runs.csv")).unwrap();
    let out = folder.path().to_string_lossy().into_owned();
    let output = run(&["report", "--out", &out]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let readme = std::fs::read_to_string(folder.path().join("README.md")).unwrap();
    for expected in [
        "| CPU | Fixture CPU @ 1 GHz |",
        "## Sweep `fixture`",
        "7 configurations, 21 measured runs.",
        "Spec `preset fixture`. 3 timed run(s) per configuration after 1 untimed warm-up run(s). Node limit 20,000,000,000 per run and per component",
        "### Perl Weekly Challenge 043, task 1: Olympic Rings (`rings`, olympic_rings)",
        "Baseline (the most naive knobs): `order=listed;pruning=none`.",
        "ratios are to the `baseline` configuration.",
        "[docs/harness.md](../docs/harness.md)",
        "| defaults | ok | 1 | 20 | 1.0 µs | 1.1 µs | 1.2 µs | 1.2 µs | 9.1% | 3 | 0.0613 | 0.134 |",
        "| baseline | ok | 1 | 326 | 8.0 µs | 8.2 µs | 8.4 µs | 8.4 µs | 2.4% | 3 | 1.00 | 1.00 |",
        "| pruning=none | ok | 1 | 326 | 7.9 µs | 8.0 µs | 8.1 µs | 8.1 µs | 1.2% | 3 × 40 | 1.00 | 0.975 |",
        // Microsecond runs: the CPU clock cannot tell how many cores were busy.
        "| defaults | auto | 2 | 600 ns | 1.83 | 92% | 1.00 | 1.10 | 8.0 | 1 | 10% | n/a |  |",
        "(plots/fixture-speedup-rings.svg)",
        "(plots/fixture-nodes-per-knob-rings.svg)",
        "(plots/fixture-nodes-per-depth-rings.svg)",
    ] {
        assert!(readme.contains(expected), "README.md lacks `{expected}`:\n{readme}");
    }
    // Four threads were slower than sequential: the explain hook says why.
    let four = readme.lines().find(|line| line.starts_with("| defaults | auto | 4 |")).unwrap();
    assert!(four.contains("slower than sequential: "), "{four}");
    let summary = read_rows::<SummaryRow>(&folder.path().join("fixture-summary.csv"), SUMMARY_HEADER).unwrap().rows;
    assert_eq!(summary.len(), 7);
    let two = summary.iter().find(|row| row.strategy == "auto" && row.threads == 2).unwrap();
    assert_eq!((two.wall_ns_min, two.wall_ns_median, two.wall_ns_max), (550, 600, 700));
    assert!((two.speedup.unwrap() - 1100.0 / 600.0).abs() < 1e-9);
    assert!((two.parallel_overhead.unwrap() - 1.1).abs() < 1e-9);
    assert_eq!(two.subproblems_per_worker, Some(8.0));
    assert_eq!(two.cpu_per_wall, None);
    let defaults = summary.iter().find(|row| row.variant == "defaults" && row.strategy == "sequential").unwrap();
    assert_eq!(defaults.prunes_per_depth, "ring-sum=0/3/5/3;ring-bounds=0/0/1");
    for plot in ["fixture-speedup-rings.svg", "fixture-nodes-per-knob-rings.svg", "fixture-nodes-per-depth-rings.svg"] {
        let svg = std::fs::read_to_string(folder.path().join("plots").join(plot)).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{plot}");
    }
}

#[test]
fn report_with_a_baseline_flags_changes_beyond_the_noise() {
    let folder = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report/fixture-runs.csv");
    std::fs::copy(&fixture, folder.path().join("fixture-runs.csv")).unwrap();
    let out = folder.path().to_string_lossy().into_owned();
    assert!(run(&["report", "--out", &out, "--quiet"]).status.success());
    // The baseline: the same summary with the baseline configuration three times faster.
    let summary_path = folder.path().join("fixture-summary.csv");
    let mut old = read_rows::<SummaryRow>(&summary_path, SUMMARY_HEADER).unwrap().rows;
    let baseline_row = old.iter_mut().find(|row| row.variant == "baseline").unwrap();
    for time in [&mut baseline_row.wall_ns_min, &mut baseline_row.wall_ns_median, &mut baseline_row.wall_ns_max] {
        *time /= 3;
    }
    let baseline = folder.path().join("old-summary.csv");
    write_rows(&baseline, &old, SUMMARY_HEADER).unwrap();
    let baseline_text = baseline.to_string_lossy().into_owned();
    let output = run(&["report", "--out", &out, "--baseline", &baseline_text, "--fail-on-change"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("7 configurations in both, 1 flagged, 1 regression(s)"), "{stdout}");
    assert!(
        stdout.contains("| fixture | `rings` | baseline | sequential | 1 |") && stdout.contains("**slower**"),
        "{stdout}"
    );
    let readme = std::fs::read_to_string(folder.path().join("README.md")).unwrap();
    assert!(readme.contains("## Changes against"), "{readme}");
}

/// The fixture's summary with the baseline configuration's times multiplied by `factor`.
fn fixture_summary_scaled(folder: &Path, factor: f64) -> Vec<SummaryRow> {
    let out = folder.to_string_lossy().into_owned();
    assert!(run(&["report", "--out", &out, "--quiet"]).status.success());
    let mut rows = read_rows::<SummaryRow>(&folder.join("fixture-summary.csv"), SUMMARY_HEADER).unwrap().rows;
    let baseline_row = rows.iter_mut().find(|row| row.variant == "baseline").unwrap();
    for time in [&mut baseline_row.wall_ns_min, &mut baseline_row.wall_ns_median, &mut baseline_row.wall_ns_max] {
        *time = (*time as f64 * factor) as u64;
    }
    rows
}

fn folder_with_fixture() -> tempfile::TempDir {
    let folder = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report/fixture-runs.csv");
    std::fs::copy(&fixture, folder.path().join("fixture-runs.csv")).unwrap();
    folder
}

#[test]
fn the_folders_own_summary_as_baseline_is_read_before_it_is_rewritten() {
    let folder = folder_with_fixture();
    // The folder's summary says the baseline configuration once ran three times faster;
    // the report rewrites that file, but must compare with what it held before.
    let own = folder.path().join("fixture-summary.csv");
    let old = fixture_summary_scaled(folder.path(), 1.0 / 3.0);
    write_rows(&own, &old, SUMMARY_HEADER).unwrap();
    let out = folder.path().to_string_lossy().into_owned();
    let output = run(&["report", "--out", &out, "--baseline", &own.to_string_lossy(), "--fail-on-change"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stdout));
    assert!(text(&output.stdout).contains("1 flagged, 1 regression(s)"), "{}", text(&output.stdout));
    // And the file now holds the regenerated numbers.
    let now = read_rows::<SummaryRow>(&own, SUMMARY_HEADER).unwrap().rows;
    let median = now.iter().find(|row| row.variant == "baseline").unwrap().wall_ns_median;
    assert!((8200..8210).contains(&median), "{median}");
}

#[test]
fn fail_on_change_ignores_faster_rows_and_parallel_first_solution_node_counts() {
    let folder = folder_with_fixture();
    // Before: the baseline configuration three times slower (so it got faster), and a
    // parallel first-solution row whose node count differs (counts vary run to run).
    let mut old = fixture_summary_scaled(folder.path(), 3.0);
    let mut first_solution = old.iter().find(|row| row.strategy == "auto" && row.threads == 2).unwrap().clone();
    first_solution.config_id = "first-solution-row".into();
    first_solution.mode = "first".into();
    first_solution.nodes += 7;
    old.push(first_solution.clone());
    let baseline = folder.path().join("old-summary.csv");
    write_rows(&baseline, &old, SUMMARY_HEADER).unwrap();
    // The current run log gets the same first-solution configuration with other counts.
    let runs = folder.path().join("fixture-runs.csv");
    let contents = std::fs::read_to_string(&runs).unwrap();
    let extra: Vec<String> = contents
        .lines()
        .filter(|line| line.contains(",auto,2,"))
        .map(|line| {
            line.replacen("f8b961f26e9f4426", "first-solution-row", 1).replacen(",all,auto,", ",first,auto,", 1)
        })
        .collect();
    assert!(extra.iter().all(|line| line.contains("first-solution-row")), "fixture ids changed: {extra:?}");
    std::fs::write(
        &runs,
        format!(
            "{contents}{}
",
            extra.join(
                "
"
            )
        ),
    )
    .unwrap();
    let out = folder.path().to_string_lossy().into_owned();
    let output = run(&["report", "--out", &out, "--baseline", &baseline.to_string_lossy(), "--fail-on-change"]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", text(&output.stderr));
    assert!(stdout.contains("8 configurations in both, 1 flagged, 0 regression(s)"), "{stdout}");
    assert!(stdout.contains("| faster |"), "{stdout}");
}

#[test]
fn resume_runs_only_what_is_missing() {
    let (folder, spec) = folder_with_spec(RINGS_SPEC);
    let runs = folder.path().join("t-runs.csv");
    assert!(sweep(&spec, folder.path(), &[]).status.success());
    assert_eq!(rows_of(&runs).len(), 10);
    // Everything recorded: nothing runs.
    let output = sweep(&spec, folder.path(), &["--resume"]);
    assert!(output.status.success());
    assert_eq!(rows_of(&runs).len(), 10);
    // Keep the header and five rows: the five missing runs are run again, each once.
    let contents = std::fs::read_to_string(&runs).unwrap();
    let kept: Vec<&str> = contents.lines().take(6).collect();
    std::fs::write(&runs, format!("{}\n", kept.join("\n"))).unwrap();
    assert!(sweep(&spec, folder.path(), &["--resume"]).status.success());
    let rows = rows_of(&runs);
    let runs_recorded: BTreeSet<(String, String)> =
        rows.iter().map(|row| (row["config_id"].clone(), row["repeat"].clone())).collect();
    assert_eq!((rows.len(), runs_recorded.len()), (10, 10));
    // Without --resume the log starts anew.
    assert!(sweep(&spec, folder.path(), &["--repeats", "1"]).status.success());
    assert_eq!(rows_of(&runs).len(), 5);
}

#[test]
fn a_fresh_sweep_sets_aside_shard_logs_of_an_earlier_run() {
    let (folder, spec) = folder_with_spec(RINGS_SPEC);
    for shard in ["1/2", "2/2"] {
        assert!(sweep(&spec, folder.path(), &["--shard", shard]).status.success());
    }
    // A plain sweep with one repeat: its summary must not merge the shards' two repeats.
    let out = folder.path().to_string_lossy().into_owned();
    let output = run(&["sweep", "--spec", &spec, "--out", &out, "--repeats", "1"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("t-runs.shard-1-of-2.csv: an earlier run of this sweep; renamed to"));
    let summary = rows_of(&folder.path().join("t-summary.csv"));
    assert_eq!(summary.len(), 5);
    assert!(summary.iter().all(|row| row["runs"] == "1" && row["repeats_planned"] == "1"), "{summary:?}");
    assert!(folder.path().join("t-runs.shard-2-of-2.csv.old").exists());
    assert!(!folder.path().join("t-runs.shard-2-of-2.csv").exists());
    // report agrees.
    assert!(run(&["report", "--out", &out, "--quiet"]).status.success());
    assert!(rows_of(&folder.path().join("t-summary.csv")).iter().all(|row| row["runs"] == "1"));
}

#[test]
fn shards_split_the_sweep_without_overlap_and_report_merges_them() {
    let (folder, spec) = folder_with_spec(RINGS_SPEC);
    let out = folder.path().to_string_lossy().into_owned();
    let listing = run(&["sweep", "--spec", &spec, "--dry-run"]);
    let all: BTreeSet<String> =
        text(&listing.stdout).lines().skip(1).map(|line| line.split('\t').nth(1).unwrap().to_string()).collect();
    assert_eq!(all.len(), 5);
    let mut union = BTreeSet::new();
    for shard in ["1/4", "2/4", "3/4", "4/4"] {
        let output = sweep(&spec, folder.path(), &["--shard", shard, "--repeats", "1"]);
        assert!(output.status.success(), "{}", text(&output.stderr));
        let file = folder.path().join(format!("t-runs.shard-{}-of-4.csv", &shard[..1]));
        for row in rows_of(&file) {
            assert_eq!(row["shard"], shard);
            assert!(union.insert(row["config_id"].clone()), "configuration {} ran in two shards", row["config_id"]);
        }
    }
    assert_eq!(union, all);
    assert!(!folder.path().join("t-summary.csv").exists(), "a shard leaves the summary to report");
    assert!(run(&["report", "--out", &out, "--quiet"]).status.success());
    let summary = rows_of(&folder.path().join("t-summary.csv"));
    assert_eq!(summary.iter().map(|row| row["config_id"].clone()).collect::<BTreeSet<_>>(), all);
}

#[test]
fn failures_and_limits_are_recorded_and_the_sweep_goes_on() {
    let spec = "name = \"t\"\n[[block]]\ninstances = [\"no/such/instance.json\", \"rings\"]\n[[block]]\ninstances = [\"rings\"]\nknobs = { pruning = [\"none\"] }\nnode_limit = 10\n";
    let (folder, spec) = folder_with_spec(spec);
    let output = sweep(&spec, folder.path(), &[]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("1 configuration(s) failed"), "{}", text(&output.stderr));
    let rows = rows_of(&folder.path().join("t-runs.csv"));
    let outcome: Vec<(&str, &str)> = rows.iter().map(|row| (row["variant"].as_str(), row["status"].as_str())).collect();
    assert_eq!(outcome, [("defaults", "error"), ("defaults", "ok"), ("defaults", "limit"), ("pruning=none", "limit")]);
    assert!(rows[0]["error"].contains("no/such/instance.json"), "{}", rows[0]["error"]);
    // A bad knob value is refused at load now (spec_mistakes_are_bad_input_at_dry_run).
    assert_eq!((rows[3]["complete"].as_str(), rows[3]["node_limit"].as_str()), ("false", "10"));
    let summary = rows_of(&folder.path().join("t-summary.csv"));
    let statuses: Vec<&str> = summary.iter().map(|row| row["status"].as_str()).collect();
    assert_eq!(statuses, ["error", "ok", "limit", "limit"]);
}

#[test]
fn bad_specs_and_flags_are_bad_input() {
    let (folder, spec) = folder_with_spec("name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nthreads = [0]\n");
    let output = sweep(&spec, folder.path(), &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("block[0].threads"), "{}", text(&output.stderr));
    let (folder, spec) = folder_with_spec(RINGS_SPEC);
    for flags in [&["--shard", "5/4"][..], &["--threads", "lots"], &["--name", "a/b"]] {
        let output = sweep(&spec, folder.path(), flags);
        assert_eq!(output.status.code(), Some(2), "{flags:?}: {}", text(&output.stderr));
    }
    assert_eq!(run(&["sweep", "--preset", "nope", "--dry-run"]).status.code(), Some(2));
    let empty = tempfile::tempdir().unwrap();
    let output = run(&["report", "--out", &empty.path().to_string_lossy()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("no run logs"), "{}", text(&output.stderr));
}

#[test]
fn the_quick_preset_covers_every_seed_instance() {
    let output = run(&["sweep", "--preset", "quick", "--dry-run"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let listing = text(&output.stdout);
    for instance in ["rings", "prime-grid", "hooks7", "247"] {
        assert!(
            listing.lines().any(|line| line.split('\t').nth(2) == Some(instance)),
            "{instance} missing:\n{listing}"
        );
    }
    assert!(listing.lines().any(|line| line.split('\t').nth(5) == Some("sequential")));
    assert!(listing.lines().any(|line| line.split('\t').nth(6) == Some("2")));
}

/// A sweep of many short runs, started in the background.
fn start_long_sweep(folder: &Path) -> (Child, PathBuf) {
    let spec = folder.join("long.toml");
    std::fs::write(
        &spec,
        "name = \"long\"\nrepeats = 1000000\nconfig_budget_s = 600\n[[block]]\ninstances = [\"rings\"]\n",
    )
    .unwrap();
    let child = binary()
        .args(["sweep", "--spec", &spec.to_string_lossy(), "--out", &folder.to_string_lossy(), "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    (child, folder.join("long-runs.csv"))
}

/// Waits until `path` holds at least `lines` lines.
fn wait_for_lines(path: &Path, lines: usize) {
    let started = Instant::now();
    while std::fs::read_to_string(path).map_or(0, |contents| contents.lines().count()) < lines {
        assert!(started.elapsed() < Duration::from_secs(30), "the sweep wrote no rows");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits for the child to exit (killing it after 30 s).
fn wait_for_exit(child: &mut Child) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("the sweep did not stop");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn send_signal(child: &Child, signal: libc::c_int) {
    // SAFETY: kill with a child's pid and a valid signal number has no memory effects.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
}

#[test]
fn ctrl_c_stops_after_the_current_run_and_keeps_every_row() {
    let folder = tempfile::tempdir().unwrap();
    let (mut child, runs) = start_long_sweep(folder.path());
    wait_for_lines(&runs, 20);
    send_signal(&child, libc::SIGINT);
    let status = wait_for_exit(&mut child);
    assert_eq!(status.code(), Some(130));
    let rows = rows_of(&runs);
    assert!(rows.len() >= 19 && rows.iter().all(|row| row["status"] == "ok"));
    let repeats: Vec<usize> = rows.iter().map(|row| row["repeat"].parse().unwrap()).collect();
    assert_eq!(repeats, (0..rows.len()).collect::<Vec<_>>());
    // The graceful stop also wrote the summary of what was recorded.
    let summary = rows_of(&folder.path().join("long-summary.csv"));
    assert_eq!(summary[0]["runs"], rows.len().to_string());
}

#[test]
fn sigkill_mid_sweep_leaves_complete_lines_and_resume_continues() {
    let folder = tempfile::tempdir().unwrap();
    let (mut child, runs) = start_long_sweep(folder.path());
    wait_for_lines(&runs, 20);
    send_signal(&child, libc::SIGKILL);
    wait_for_exit(&mut child);
    let before = rows_of(&runs).len();
    assert!(before >= 19);
    // Resume the same log for a little while, then stop it: the repeats continue.
    let spec = folder.path().join("long.toml");
    let mut resumed = binary()
        .args([
            "sweep",
            "--spec",
            &spec.to_string_lossy(),
            "--out",
            &folder.path().to_string_lossy(),
            "--quiet",
            "--resume",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_lines(&runs, before + 20);
    send_signal(&resumed, libc::SIGKILL);
    wait_for_exit(&mut resumed);
    let rows = rows_of(&runs);
    let repeats: Vec<usize> = rows.iter().map(|row| row["repeat"].parse().unwrap()).collect();
    assert_eq!(repeats, (0..rows.len()).collect::<Vec<_>>());
    let out = folder.path().to_string_lossy().into_owned();
    assert!(run(&["report", "--out", &out, "--quiet"]).status.success());
}

#[test]
fn a_second_sweep_of_the_same_name_is_refused_and_every_row_of_the_first_stays() {
    let folder = tempfile::tempdir().unwrap();
    let (mut first, runs) = start_long_sweep(folder.path());
    wait_for_lines(&runs, 10);
    let spec = folder.path().join("long.toml").to_string_lossy().into_owned();
    for extra in [&[][..], &["--resume"]] {
        let second = sweep(&spec, folder.path(), extra);
        let stderr = text(&second.stderr);
        assert_eq!(second.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(&format!("pid {}", first.id())) && stderr.contains("--wait"), "{stderr}");
    }
    send_signal(&first, libc::SIGINT);
    assert_eq!(wait_for_exit(&mut first).code(), Some(130));
    // The refused runs neither replaced nor set aside the log: its repeats run 0, 1, 2, ...
    let rows = rows_of(&runs);
    let repeats: Vec<usize> = rows.iter().map(|row| row["repeat"].parse().unwrap()).collect();
    assert!(rows.len() >= 10);
    assert_eq!(repeats, (0..rows.len()).collect::<Vec<_>>());
    assert!(!folder.path().join("long-runs.csv.old").exists());
}

#[test]
fn fail_on_change_fails_when_nothing_was_compared_and_a_missing_baseline_is_bad_input() {
    let folder = folder_with_fixture();
    let out = folder.path().to_string_lossy().into_owned();
    let header_only = folder.path().join("empty-baseline.csv");
    std::fs::write(&header_only, format!("\u{feff}{}\n", SummaryRow::header())).unwrap();
    let output = run(&["report", "--out", &out, "--baseline", &header_only.to_string_lossy(), "--fail-on-change"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("nothing was compared"), "{}", text(&output.stderr));
    let output = run(&["report", "--out", &out, "--baseline", "/missing/baseline.csv"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("no such file"), "{}", text(&output.stderr));
}

#[test]
fn spec_mistakes_are_bad_input_at_dry_run() {
    let cases = [
        ("config_budget_s = inf\n", "config_budget_s"),
        ("config_budget_s = 1e20\n", "config_budget_s"),
        ("config_budget_s = nan\n", "config_budget_s"),
        ("config_budget_s = -1\n", "config_budget_s"),
        ("[baselines.sudoku]\norder = \"listed\"\n", "baselines.sudoku: no such family"),
        ("[baselines.olympic_rings]\norder = \"sideways\"\n", "baselines.olympic_rings"),
    ];
    for (top, expected) in cases {
        let (_folder, spec) = folder_with_spec(&format!("name = \"t\"\n{top}[[block]]\ninstances = [\"rings\"]\n"));
        let output = run(&["sweep", "--spec", &spec, "--dry-run"]);
        assert_eq!(output.status.code(), Some(2), "{top}: {}", text(&output.stderr));
        assert!(text(&output.stderr).contains(expected), "{top}: {}", text(&output.stderr));
    }
    let block_cases = [
        ("threads = [0]", "block[0].threads"),
        ("threads = [100000]", "block[0].threads"),
        ("strategies = [\"bogus\"]", "block[0].strategies: invalid parallel strategy `bogus`"),
        ("counters = [\"wide\"]", "block[0].counters: invalid counter layout"),
        ("states = [\"copy\"]", "block[0].states: invalid state mode"),
        ("knobs = { order = [\"sideways\"] }", "block[0].knobs"),
    ];
    for (line, expected) in block_cases {
        let (_folder, spec) = folder_with_spec(&format!("name = \"t\"\n[[block]]\ninstances = [\"rings\"]\n{line}\n"));
        let output = run(&["sweep", "--spec", &spec, "--dry-run"]);
        assert_eq!(output.status.code(), Some(2), "{line}: {}", text(&output.stderr));
        assert!(text(&output.stderr).contains(expected), "{line}: {}", text(&output.stderr));
    }
}
