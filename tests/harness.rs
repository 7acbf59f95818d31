//! End-to-end tests of `sweep` and `report` through the binary: pinned CSV headers, the
//! report from a committed fixture, `--resume`, shards, failures recorded, and sweeps
//! killed with SIGINT and SIGKILL leaving every CSV parseable. All on the tiny rings
//! instance, so the file runs in a few seconds.

mod common;

use backtrack_bench::unstable::harness::storing::csv_log::{read_checked_rows, read_rows, write_rows};
use backtrack_bench::unstable::harness::storing::record::{RunRecord, COLUMNS_OF_EVERY_BUILD};
use backtrack_bench::unstable::harness::storing::summary::SummaryRow;
use common::report_fixture as folder_with_fixture;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The run log's columns. Changing them breaks `--resume` and `report` on older files:
/// change deliberately, and document the column in docs/harness.md.
const RUNS_HEADER: &str = "sweep,spec,config_id,config_index,repeat,shard,status,error,puzzle,instance,source,instance_title,variant,knobs,mode,strategy,threads,counters,state,affinity,node_limit,repeats_planned,warmup,complete,solutions,answer_value,answer_json,verify_failures,nodes,wall_ns,batch,user_cpu_ns,system_cpu_ns,prunes_total,subproblems,steals,imbalance,idle_share,task_ns_median,task_ns_p90,task_nodes_median,first_solution_ns,stop_latency_ns,nodes_after_first,machine_quiet,other_cpu_share,load_average,peak_rss_kib,git_commit,crate_version,rustc_version,cpu_model,available_parallelism,hostname,timestamp,objective_best,objective_proven,time_to_best_ns,machine_id";

/// The summary's columns (same rule).
const SUMMARY_HEADER: &str = "sweep,spec,config_id,config_index,puzzle,instance,source,instance_title,variant,knobs,mode,strategy,threads,counters,state,affinity,node_limit,repeats_planned,warmup,status,runs,error,solutions,nodes,wall_ns_median,wall_ns_median_low,wall_ns_median_high,wall_rsd,outliers,outliers_severe,batch,user_cpu_ns_median,user_cpu_ns_median_low,user_cpu_ns_median_high,system_cpu_ns_median,system_cpu_ns_median_low,system_cpu_ns_median_high,cpu_per_wall,prunes_total,reference_config_id,nodes_vs_reference,time_vs_reference,time_vs_reference_low,time_vs_reference_high,speedup,speedup_low,speedup_high,efficiency,search_overhead,parallel_overhead,subproblems_per_worker,steals,idle_share,imbalance,busy_machine_runs,git_commit,crate_version,rustc_version,cpu_model,available_parallelism,hostname,first_timestamp,last_timestamp,objective_best";

/// The counts file's columns (same rule).
const COUNTS_HEADER: &str = "sweep,config_id,repeat,measure,rule,depth,worker,count";

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
fn runs_counts_and_summary_headers_are_pinned() {
    let (folder, spec) = folder_with_spec(RINGS_SPEC);
    let output = sweep(&spec, folder.path(), &["--repeats", "1"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(first_line(&folder.path().join("t-runs.csv")), RUNS_HEADER);
    assert_eq!(first_line(&folder.path().join("t-counts.csv")), COUNTS_HEADER);
    assert_eq!(first_line(&folder.path().join("t-summary.csv")), SUMMARY_HEADER);
    let rows = rows_of(&folder.path().join("t-runs.csv"));
    assert_eq!(rows.len(), 5);
    let defaults = &rows[0];
    assert_eq!((defaults["variant"].as_str(), defaults["status"].as_str()), ("defaults", "ok"));
    assert_eq!((defaults["solutions"].as_str(), defaults["nodes"].as_str()), ("1", "20"));
    // The rings' answer is an object: JSON text, never mixed with integers in one column.
    assert_eq!(defaults["answer_value"], "");
    assert!(defaults["answer_json"].starts_with('{'), "{}", defaults["answer_json"]);
    // All-solutions mode: the first-solution columns do not apply and are empty.
    assert_eq!((defaults["first_solution_ns"].as_str(), defaults["stop_latency_ns"].as_str()), ("", ""));
    // Per-rule and per-depth counts are in the long-format counts file, one value per row.
    let counts = rows_of(&folder.path().join("t-counts.csv"));
    let of_defaults: Vec<&HashMap<String, String>> =
        counts.iter().filter(|row| row["config_id"] == defaults["config_id"]).collect();
    let count_of = |measure: &str, rule: &str| -> u64 {
        of_defaults
            .iter()
            .filter(|row| row["measure"] == measure && row["rule"] == rule)
            .map(|row| row["count"].parse::<u64>().unwrap())
            .sum()
    };
    assert_eq!((count_of("rule_prunes", "ring-sum"), count_of("rule_prunes", "ring-bounds")), (11, 1));
    // The per-depth profile adds up to the per-rule totals.
    assert_eq!(count_of("prunes_at_depth", "ring-sum") + count_of("prunes_at_depth", "ring-bounds"), 12);
    assert_eq!(count_of("nodes_at_depth", ""), 20);
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
fn every_cell_of_the_runs_and_summary_files_is_one_plain_value() {
    let (folder, spec) = folder_with_spec(RINGS_SPEC);
    assert!(sweep(&spec, folder.path(), &["--repeats", "2"]).status.success());
    for file in ["t-runs.csv", "t-summary.csv", "t-counts.csv"] {
        for row in rows_of(&folder.path().join(file)) {
            for (column, value) in &row {
                // Free text (errors, titles, labels and the JSON answer) aside, no cell is a list.
                if ["error", "instance_title", "variant", "knobs", "answer_json", "spec", "rustc_version", "cpu_model"]
                    .contains(&column.as_str())
                {
                    continue;
                }
                assert!(!value.contains(';') && !value.contains('='), "{file}: {column} = {value}");
            }
        }
    }
}

#[test]
fn report_rebuilds_tables_and_plots_from_the_fixture_alone() {
    let folder = folder_with_fixture();
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
        // A temporary folder has no docs/ beside it: the README names the document, unlinked.
        "Every column is documented in the workbench's `docs/harness.md`",
        "| configuration | nodes | median time (µs) [95% CI] | nodes vs reference | time vs reference |",
        "| defaults | 20 | 1.100 [1.000, 1.200] | 16.3x fewer nodes | 7.45x faster |",
        "| baseline | 326 | 8.200 [8.000, 8.400] | same | same |",
        // 0.98x with an interval holding 1: no direction.
        "| pruning=none | 326 | 8.000 [7.900, 8.100] | same | within noise |",
        "| configuration | strategy | threads | median time (µs) [95% CI] | speedup [95% CI] | idle | why slower |",
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
    assert_eq!(two.wall_ns_median, 600);
    assert!(two.wall_ns_median_low >= 550 && two.wall_ns_median_high <= 700, "{two:?}");
    assert!((two.speedup.unwrap() - 1100.0 / 600.0).abs() < 1e-9);
    assert!(two.speedup_low.unwrap() <= two.speedup.unwrap() && two.speedup.unwrap() <= two.speedup_high.unwrap());
    assert!((two.parallel_overhead.unwrap() - 1.1).abs() < 1e-9);
    assert_eq!(two.subproblems_per_worker, Some(8.0));
    assert_eq!(two.cpu_per_wall, None);
    for plot in ["fixture-speedup-rings.svg", "fixture-nodes-per-knob-rings.svg", "fixture-nodes-per-depth-rings.svg"] {
        let svg = std::fs::read_to_string(folder.path().join("plots").join(plot)).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{plot}");
    }
}

/// `old-runs.csv` in `folder`: the fixture's runs, `baseline` times times `factor`; one machine.
fn fixture_runs_scaled(folder: &Path, factor: f64) -> PathBuf {
    let current = folder.join("fixture-runs.csv");
    let mut runs =
        read_checked_rows::<RunRecord>(&current, RUNS_HEADER, &COLUMNS_OF_EVERY_BUILD, |_| Ok(())).unwrap().rows;
    runs.iter_mut().for_each(|run| run.machine_id = "fixture-vm".into());
    write_rows(&current, &runs, RUNS_HEADER).unwrap();
    let scaled: Vec<RunRecord> = runs
        .into_iter()
        .map(|run| {
            if run.variant == "baseline" {
                RunRecord { wall_ns: (run.wall_ns as f64 * factor) as u64, ..run }
            } else {
                run
            }
        })
        .collect();
    let path = folder.join("old-runs.csv");
    write_rows(&path, &scaled, RUNS_HEADER).unwrap();
    path
}

#[test]
fn report_with_a_baseline_flags_only_the_configuration_that_changed() {
    let folder = folder_with_fixture();
    // Before: the baseline configuration three times faster, so now it is slower.
    let baseline = fixture_runs_scaled(folder.path(), 1.0 / 3.0);
    let out = folder.path().to_string_lossy().into_owned();
    let output = run(&["report", "--out", &out, "--baseline", &baseline.to_string_lossy(), "--fail-on-change"]);
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

#[test]
fn a_rerun_with_the_same_times_flags_nothing() {
    let folder = folder_with_fixture();
    let baseline = fixture_runs_scaled(folder.path(), 1.0);
    let out = folder.path().to_string_lossy().into_owned();
    let output = run(&["report", "--out", &out, "--baseline", &baseline.to_string_lossy(), "--fail-on-change"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("7 configurations in both, 0 flagged, 0 regression(s)"));
}

#[test]
fn fail_on_change_ignores_faster_rows_and_parallel_first_solution_node_counts() {
    let folder = folder_with_fixture();
    // Before: the baseline configuration three times slower (so it got faster).
    let baseline = fixture_runs_scaled(folder.path(), 3.0);
    // Both logs get a parallel first-solution configuration whose node count differs
    // (counts vary from run to run there).
    for (path, extra_nodes) in [(baseline.clone(), 7), (folder.path().join("fixture-runs.csv"), 0)] {
        let mut runs =
            read_checked_rows::<RunRecord>(&path, RUNS_HEADER, &COLUMNS_OF_EVERY_BUILD, |_| Ok(())).unwrap().rows;
        let first_solution: Vec<RunRecord> = runs
            .iter()
            .filter(|run| run.strategy == "auto" && run.threads == 2)
            .map(|run| RunRecord {
                config_id: "f1f1f1f1f1f1f1f1".into(),
                mode: "first".into(),
                nodes: run.nodes + extra_nodes,
                ..run.clone()
            })
            .collect();
        runs.extend(first_solution);
        write_rows(&path, &runs, RUNS_HEADER).unwrap();
    }
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
    // Keep the header and five rows, as a kill would (no completion mark): the five
    // missing runs are run again, each once.
    std::fs::remove_file(folder.path().join("t-runs.csv.complete")).unwrap();
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
fn a_fresh_sweep_keeps_shard_logs_of_an_earlier_run_in_the_history() {
    let (folder, spec) = folder_with_spec(RINGS_SPEC);
    for shard in ["1/2", "2/2"] {
        assert!(sweep(&spec, folder.path(), &["--shard", shard]).status.success());
    }
    // A plain sweep with one repeat: its summary must not merge the shards' two repeats.
    let out = folder.path().to_string_lossy().into_owned();
    let output = run(&["sweep", "--spec", &spec, "--out", &out, "--repeats", "1"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stderr).contains("the previous run of sweep `t` (10 rows) is kept in"),
        "{}",
        text(&output.stderr)
    );
    let summary = rows_of(&folder.path().join("t-summary.csv"));
    assert_eq!(summary.len(), 5);
    assert!(summary.iter().all(|row| row["runs"] == "1" && row["repeats_planned"] == "1"), "{summary:?}");
    assert!(folder.path().join("history/t-1/t-runs.shard-2-of-2.csv").exists());
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
    assert_eq!(output.status.code(), Some(2));
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
    // The refused runs neither replaced nor moved the log: its repeats run 0, 1, 2, ...
    let rows = rows_of(&runs);
    let repeats: Vec<usize> = rows.iter().map(|row| row["repeat"].parse().unwrap()).collect();
    assert!(rows.len() >= 10);
    assert_eq!(repeats, (0..rows.len()).collect::<Vec<_>>());
    assert!(!folder.path().join("history").exists());
}

#[test]
fn fail_on_change_fails_when_nothing_was_compared_and_a_missing_baseline_is_bad_input() {
    let folder = folder_with_fixture();
    let out = folder.path().to_string_lossy().into_owned();
    // A header-only run log (with a byte-order mark, which is accepted): nothing compared.
    let header_only = folder.path().join("empty-runs.csv");
    std::fs::write(&header_only, format!("\u{feff}{RUNS_HEADER}\n")).unwrap();
    let output = run(&["report", "--out", &out, "--baseline", &header_only.to_string_lossy(), "--fail-on-change"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("no configuration was compared"), "{}", text(&output.stderr));
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
    // The bad value sits on line 5 of the spec: the message starts `FILE:5: block[0].KEY: `,
    // then says what was wrong and what is allowed.
    let block_cases = [
        ("threads = [0]", "block[0].threads: `0` threads: a thread count must be between 1 and 1024"),
        ("threads = [100000]", "block[0].threads: `100000` threads"),
        (
            "strategies = [\"bogus\"]",
            "block[0].strategies: invalid parallel strategy `bogus`; expected one of: sequential",
        ),
        ("counters = [\"wide\"]", "block[0].counters: invalid counter layout"),
        ("states = [\"copy\"]", "block[0].states: invalid state mode"),
        (
            "affinities = [\"anywhere\"]",
            "block[0].affinities: invalid thread affinity `anywhere`; expected one of: pinned, free",
        ),
        ("modes = [\"some\"]", "block[0].modes: invalid search mode `some`; expected one of: all, first"),
        ("knobs = { order = [\"sideways\"] }", "block[0].knobs"),
    ];
    for (line, expected) in block_cases {
        let (_folder, spec) =
            folder_with_spec(&format!("name = \"t\"\n\n[[block]]\ninstances = [\"rings\"]\n{line}\n"));
        let output = run(&["sweep", "--spec", &spec, "--dry-run"]);
        assert_eq!(output.status.code(), Some(2), "{line}: {}", text(&output.stderr));
        let expected = format!("{spec}:5: {expected}");
        assert!(text(&output.stderr).contains(&expected), "{line}: expected `{expected}` in {}", text(&output.stderr));
    }
}

#[test]
fn affinity_is_a_sweep_dimension_and_a_column() {
    let spec = "name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nstrategies = [\"sequential\", \"auto\"]\nthreads = [2]\naffinities = [\"pinned\", \"free\"]\n";
    let (folder, spec) = folder_with_spec(spec);
    let listing = run(&["sweep", "--spec", &spec, "--dry-run"]);
    assert!(listing.status.success(), "{}", text(&listing.stderr));
    let stdout = text(&listing.stdout);
    let header: Vec<&str> = stdout.lines().next().unwrap().split('\t').collect();
    assert_eq!(header[4..11], ["mode", "strategy", "threads", "counters", "state", "affinity", "node_limit"]);
    let output = sweep(&spec, folder.path(), &["--repeats", "1"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let rows = rows_of(&folder.path().join("t-runs.csv"));
    let runs: Vec<(&str, &str, &str)> =
        rows.iter().map(|row| (row["strategy"].as_str(), row["threads"].as_str(), row["affinity"].as_str())).collect();
    // `sequential` runs once, on the calling thread; the pool's placement varies for `auto`.
    assert_eq!(runs, [("sequential", "1", "pinned"), ("auto", "2", "pinned"), ("auto", "2", "free")]);
    // Placement changes no count: the rings' tree has 20 nodes whoever runs it.
    assert!(rows.iter().all(|row| row["nodes"] == "20" && row["solutions"] == "1"), "{rows:?}");
    let summary = rows_of(&folder.path().join("t-summary.csv"));
    let affinities: Vec<&str> = summary.iter().map(|row| row["affinity"].as_str()).collect();
    assert_eq!(affinities, ["pinned", "pinned", "free"]);
}
