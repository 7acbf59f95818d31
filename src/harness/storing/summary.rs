//! Per-configuration statistics over the runs of a sweep: the rows of `<sweep>-summary.csv`.
//!
//! Every time is a median (the mean of the two middle runs for an even count) with its 95%
//! bootstrap interval in `_low` and `_high` columns; every ratio (speedup, time against the
//! instance's reference configuration) has the interval of the ratio of medians, both
//! samples resampled (the crate's `statistics` module). Runs outside Tukey's fences are counted, and
//! runs taken while the machine was busy are counted. Speedup, efficiency and overheads
//! compare a configuration with the sequential configuration of the same instance, knobs,
//! mode and state in the same sweep. Computed from run records alone, so `report` can redo
//! it from the CSV files at any time.

use super::record::{status, RunRecord};
use super::run_columns::row_with_run_columns;
use crate::parallel::{CounterLayout, ThreadAffinity};
use crate::statistics::{self, median_interval, ratio_interval, tukey_fences, BootstrapSettings, Interval};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// Runs shorter than this (per call) get no CPU-per-wall figure: `getrusage` counts in
/// microseconds and covers the setup around the timed search, so short runs read 1.3 to 2.4
/// "busy cores" on one thread.
pub const CPU_RELIABLE_NS: u64 = 10_000_000;

row_with_run_columns! {
/// One configuration's statistics, as one CSV row. See `docs/harness.md` for every column.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SummaryRow {
    /// The sweep's name.
    pub sweep: String,
    /// Where the sweep's spec came from (`preset quick`, or the spec file's path).
    pub spec: String,
    /// The configuration's stable id.
    pub config_id: String,
    /// The configuration's position in the sweep.
    pub config_index: usize,
    /// The family.
    pub puzzle: String,
    /// The instance's id.
    pub instance: String,
    /// The instance as the spec names it.
    pub source: String,
    /// The instance file's human title (empty when it has none).
    pub instance_title: String,
    /// `defaults`, `baseline` or the knobs that differ from the defaults.
    pub variant: String,
    /// Every knob as `name=value`, `;`-separated.
    pub knobs: String,
    ..run_columns,
    /// Timed runs planned.
    pub repeats_planned: u32,
    /// Untimed warm-up runs planned.
    pub warmup: u32,
    /// `ok` when every measured run completed; else the worst of `verify-failed`, `limit`,
    /// or (no run measured) the failure of the first run.
    pub status: String,
    /// Measured runs (the statistics' sample size).
    pub runs: u64,
    /// The first error message, if any.
    pub error: String,
    /// Solutions (median over runs); empty when the searches did not end.
    pub solutions: Option<u64>,
    /// Nodes (median over runs; identical across runs for sequential searches, and for
    /// every search without an objective).
    pub nodes: u64,
    /// Median wall time per call.
    pub wall_ns_median: u64,
    /// Lower bound of the median's 95% bootstrap interval.
    pub wall_ns_median_low: u64,
    /// Upper bound of the median's 95% bootstrap interval.
    pub wall_ns_median_high: u64,
    /// Relative standard deviation of the wall time (sample standard deviation over the
    /// mean; 0 with a single run).
    pub wall_rsd: f64,
    /// Runs outside Tukey's 1.5 x IQR fences (severe ones included).
    pub outliers: u64,
    /// Runs outside Tukey's 3 x IQR fences.
    pub outliers_severe: u64,
    /// Calls timed together per run (median; 1 unless the runs were shorter than
    /// `record::BATCH_TARGET_NS`); the times are per call.
    pub batch: u64,
    /// Median user CPU time.
    pub user_cpu_ns_median: u64,
    /// Lower bound of its interval.
    pub user_cpu_ns_median_low: u64,
    /// Upper bound of its interval.
    pub user_cpu_ns_median_high: u64,
    /// Median system CPU time.
    pub system_cpu_ns_median: u64,
    /// Lower bound of its interval.
    pub system_cpu_ns_median_low: u64,
    /// Upper bound of its interval.
    pub system_cpu_ns_median_high: u64,
    /// (user + system CPU) / wall time, medians: about the number of busy cores. Empty for
    /// runs under [`CPU_RELIABLE_NS`], where the CPU clock cannot tell.
    pub cpu_per_wall: Option<f64>,
    /// Prunes over all rules (median).
    pub prunes_total: u64,
    /// The instance's reference configuration in this sweep (its `baseline`, else its
    /// `defaults`), sequential, same mode and state: its config id.
    pub reference_config_id: String,
    /// Nodes / the reference's nodes (exact).
    pub nodes_vs_reference: Option<f64>,
    /// Median time / the reference's median time.
    pub time_vs_reference: Option<f64>,
    /// Lower bound of its interval.
    pub time_vs_reference_low: Option<f64>,
    /// Upper bound of its interval.
    pub time_vs_reference_high: Option<f64>,
    /// Sequential median time / this median time (same instance, knobs, mode, state).
    pub speedup: Option<f64>,
    /// Lower bound of its interval.
    pub speedup_low: Option<f64>,
    /// Upper bound of its interval.
    pub speedup_high: Option<f64>,
    /// Speedup / threads.
    pub efficiency: Option<f64>,
    /// Nodes / the sequential configuration's nodes (search overhead; 1 = none).
    pub search_overhead: Option<f64>,
    /// This strategy's median time at 1 thread / the sequential median (parallel overhead).
    pub parallel_overhead: Option<f64>,
    /// Subproblems / threads (median subproblems); empty when sequential.
    pub subproblems_per_worker: Option<f64>,
    /// Steals (median).
    pub steals: u64,
    /// Share of worker time spent idle (median).
    pub idle_share: f64,
    /// Busiest worker over the mean (median; 1 when sequential).
    pub imbalance: f64,
    /// Runs measured while the machine was busy (see `docs/harness.md`, "Noisy machine").
    pub busy_machine_runs: u64,
    /// Commit(s) the runs were built from (` | `-joined when they differ).
    pub git_commit: String,
    /// Crate version(s).
    pub crate_version: String,
    /// Compiler version(s).
    pub rustc_version: String,
    /// CPU model(s).
    pub cpu_model: String,
    /// Available parallelism of the machine(s) (the first run's).
    pub available_parallelism: usize,
    /// Host name(s).
    pub hostname: String,
    /// Earliest run.
    pub first_timestamp: String,
    /// Latest run.
    pub last_timestamp: String,
    // Added since: last, so that a file of an older build still reads.
    /// An optimising family's best value (the best over the runs; every proven run has
    /// the same); empty for runs without an objective. Such a configuration's node counts
    /// vary with the schedule (search overhead), which the report never calls a bug.
    pub objective_best: Option<i64>,
}
}

impl SummaryRow {
    /// The CSV header line (no newline).
    pub fn header() -> String {
        super::csv_log::header_of(&SummaryRow::default())
    }

    /// The key of the configurations that share a reference configuration.
    fn reference_key(&self) -> ReferenceKey {
        (self.sweep.clone(), self.source.clone(), self.mode.clone(), self.state.clone(), self.node_limit)
    }

    /// The median wall time with its interval.
    pub fn wall_interval(&self) -> Interval {
        Interval {
            low: self.wall_ns_median_low as f64,
            estimate: self.wall_ns_median as f64,
            high: self.wall_ns_median_high as f64,
        }
    }

    /// The speedup with its interval, when there is one.
    pub fn speedup_interval(&self) -> Option<Interval> {
        match (self.speedup, self.speedup_low, self.speedup_high) {
            (Some(estimate), Some(low), Some(high)) => Some(Interval { low, estimate, high }),
            _ => None,
        }
    }

    /// The strategy with its per-thread knobs that are not at their defaults: `auto`,
    /// `auto (shared)`, `auto (free)`, `auto (shared, free)`.
    pub fn strategy_label(&self) -> String {
        let mut knobs = Vec::new();
        if self.counters != CounterLayout::default().name() {
            knobs.push(self.counters.as_str());
        }
        // Empty in files written before the column existed: those runs were pinned.
        if !self.affinity.is_empty() && self.affinity != ThreadAffinity::default().name() {
            knobs.push(self.affinity.as_str());
        }
        if knobs.is_empty() {
            self.strategy.clone()
        } else {
            format!("{} ({})", self.strategy, knobs.join(", "))
        }
    }

    /// Whether this is a sequential configuration (the reference of its group).
    pub fn is_sequential(&self) -> bool {
        self.strategy == "sequential"
    }

    /// The key of this configuration's own strategy at one thread (its parallel overhead):
    /// the group, the strategy and every per-thread knob.
    fn one_thread_key(&self) -> (GroupKey, String, String, String) {
        (self.group_key(), self.strategy.clone(), self.counters.clone(), self.affinity.clone())
    }

    /// The key of the configurations this one is compared with: same sweep, instance,
    /// knobs, mode, state and node limit.
    pub fn group_key(&self) -> GroupKey {
        (
            self.sweep.clone(),
            self.source.clone(),
            self.knobs.clone(),
            self.mode.clone(),
            self.state.clone(),
            self.node_limit,
        )
    }
}

/// Keeps one record per (sweep, configuration, repeat): the latest, when shards or a rerun
/// recorded the same run twice.
pub fn deduplicate(records: Vec<RunRecord>) -> Vec<RunRecord> {
    let mut latest: BTreeMap<(String, String, u32), RunRecord> = BTreeMap::new();
    for record in records {
        let key = (record.sweep.clone(), record.config_id.clone(), record.repeat);
        match latest.get(&key) {
            Some(kept) if kept.timestamp > record.timestamp => {}
            _ => {
                latest.insert(key, record);
            }
        }
    }
    latest.into_values().collect()
}

/// The summary rows of `records` (deduplicated first), ordered by sweep and configuration.
pub fn summarize(records: Vec<RunRecord>) -> Vec<SummaryRow> {
    let mut by_config: BTreeMap<(String, usize, String), Vec<RunRecord>> = BTreeMap::new();
    for record in deduplicate(records) {
        by_config
            .entry((record.sweep.clone(), record.config_index, record.config_id.clone()))
            .or_default()
            .push(record);
    }
    let mut times: HashMap<String, Vec<f64>> = HashMap::new();
    let mut rows: Vec<SummaryRow> = Vec::new();
    for runs in by_config.into_values() {
        let measured: Vec<&RunRecord> = runs.iter().filter(|run| run.measured()).collect();
        times.insert(runs[0].config_id.clone(), wall_times(&measured));
        rows.push(summarize_configuration(&runs));
    }
    compare_with_sequential(&mut rows, &times);
    rows
}

fn summarize_configuration(runs: &[RunRecord]) -> SummaryRow {
    let first = &runs[0];
    let measured: Vec<&RunRecord> = runs.iter().filter(|run| run.measured()).collect();
    let status = if measured.is_empty() {
        first.status.clone()
    } else if measured.iter().any(|run| run.status == status::VERIFY_FAILED) {
        status::VERIFY_FAILED.to_string()
    } else if measured.iter().any(|run| run.status == status::LIMIT) {
        status::LIMIT.to_string()
    } else {
        status::OK.to_string()
    };
    let mut row = SummaryRow {
        sweep: first.sweep.clone(),
        spec: first.spec.clone(),
        config_id: first.config_id.clone(),
        config_index: first.config_index,
        puzzle: measured.first().map_or(&first.puzzle, |run| &run.puzzle).clone(),
        instance: measured.first().map_or(&first.instance, |run| &run.instance).clone(),
        source: first.source.clone(),
        instance_title: measured.first().map_or(&first.instance_title, |run| &run.instance_title).clone(),
        variant: first.variant.clone(),
        knobs: first.knobs.clone(),
        repeats_planned: first.repeats_planned,
        warmup: first.warmup,
        status,
        runs: measured.len() as u64,
        error: runs.iter().map(|run| &run.error).find(|error| !error.is_empty()).cloned().unwrap_or_default(),
        git_commit: distinct(runs.iter().map(|run| run.git_commit.as_str())),
        crate_version: distinct(runs.iter().map(|run| run.crate_version.as_str())),
        rustc_version: distinct(runs.iter().map(|run| run.rustc_version.as_str())),
        cpu_model: distinct(runs.iter().map(|run| run.cpu_model.as_str())),
        available_parallelism: first.available_parallelism,
        hostname: distinct(runs.iter().map(|run| run.hostname.as_str())),
        first_timestamp: runs.iter().map(|run| run.timestamp.clone()).min().unwrap_or_default(),
        last_timestamp: runs.iter().map(|run| run.timestamp.clone()).max().unwrap_or_default(),
        objective_best: measured.iter().filter_map(|run| run.objective_best).max(),
        ..SummaryRow::default()
    }
    .with_run_columns(first.run_columns());
    if measured.is_empty() {
        return row;
    }
    let times = wall_times(&measured);
    let wall = median_interval(&times, BootstrapSettings::default());
    (row.wall_ns_median, row.wall_ns_median_low, row.wall_ns_median_high) = nanoseconds(&wall);
    row.wall_rsd = statistics::relative_standard_deviation(&times);
    let outliers = tukey_fences(&times);
    row.outliers = outliers.mild as u64;
    row.outliers_severe = outliers.severe as u64;
    row.solutions = if measured.iter().all(|run| run.solutions.is_some()) {
        Some(median(measured.iter().filter_map(|run| run.solutions)))
    } else {
        None
    };
    row.nodes = median(measured.iter().map(|run| run.nodes));
    let user: Vec<f64> = measured.iter().map(|run| run.user_cpu_ns as f64).collect();
    let system: Vec<f64> = measured.iter().map(|run| run.system_cpu_ns as f64).collect();
    (row.user_cpu_ns_median, row.user_cpu_ns_median_low, row.user_cpu_ns_median_high) =
        nanoseconds(&median_interval(&user, BootstrapSettings::default()));
    (row.system_cpu_ns_median, row.system_cpu_ns_median_low, row.system_cpu_ns_median_high) =
        nanoseconds(&median_interval(&system, BootstrapSettings::default()));
    row.batch = median(measured.iter().map(|run| run.batch.max(1)));
    if row.wall_ns_median >= CPU_RELIABLE_NS {
        row.cpu_per_wall =
            Some((row.user_cpu_ns_median as f64 + row.system_cpu_ns_median as f64) / row.wall_ns_median as f64);
    }
    row.prunes_total = median(measured.iter().map(|run| run.prunes_total));
    row.steals = median(measured.iter().map(|run| run.steals));
    row.idle_share = statistics::median(&measured.iter().map(|run| run.idle_share).collect::<Vec<_>>());
    row.imbalance = statistics::median(&measured.iter().map(|run| run.imbalance).collect::<Vec<_>>());
    if !row.is_sequential() && row.threads > 0 {
        row.subproblems_per_worker =
            Some(median(measured.iter().map(|run| run.subproblems)) as f64 / row.threads as f64);
    }
    row.busy_machine_runs = measured.iter().filter(|run| run.machine_busy()).count() as u64;
    row
}

/// The wall times of measured runs, in nanoseconds.
fn wall_times(runs: &[&RunRecord]) -> Vec<f64> {
    runs.iter().map(|run| run.wall_ns as f64).collect()
}

/// An interval of nanoseconds as whole numbers (estimate, low, high).
fn nanoseconds(interval: &Interval) -> (u64, u64, u64) {
    let whole = |value: f64| if value.is_finite() { value.round().max(0.0) as u64 } else { 0 };
    (whole(interval.estimate), whole(interval.low), whole(interval.high))
}

/// Fills speedup, efficiency and overheads from each group's sequential row, and the ratios
/// to each instance's reference configuration. `times` holds each configuration's wall
/// times, for the ratios' intervals.
fn compare_with_sequential(rows: &mut [SummaryRow], times: &HashMap<String, Vec<f64>>) {
    let no_times = Vec::new();
    let times_of = |id: &str| times.get(id).unwrap_or(&no_times);
    let mut sequential: HashMap<_, (String, u64, u64)> = HashMap::new();
    for row in rows.iter().filter(|row| row.is_sequential() && row.status == status::OK && row.wall_ns_median > 0) {
        sequential.insert(row.group_key(), (row.config_id.clone(), row.wall_ns_median, row.nodes));
    }
    let mut one_thread: HashMap<_, u64> = HashMap::new();
    for row in rows.iter().filter(|row| !row.is_sequential() && row.threads == 1 && row.status == status::OK) {
        one_thread.insert(row.one_thread_key(), row.wall_ns_median);
    }
    let references = reference_rows(rows);
    for row in rows.iter_mut() {
        if row.status == status::OK && row.wall_ns_median > 0 {
            if let Some((reference_id, reference_ns, reference_nodes)) = references.get(&row.reference_key()) {
                row.reference_config_id = reference_id.clone();
                if *reference_nodes > 0 {
                    row.nodes_vs_reference = Some(row.nodes as f64 / *reference_nodes as f64);
                }
                if *reference_ns > 0 {
                    let ratio =
                        ratio_interval(times_of(&row.config_id), times_of(reference_id), BootstrapSettings::default());
                    row.time_vs_reference = Some(ratio.estimate);
                    row.time_vs_reference_low = Some(ratio.low);
                    row.time_vs_reference_high = Some(ratio.high);
                }
            }
        }
        let Some((sequential_id, sequential_ns, sequential_nodes)) = sequential.get(&row.group_key()) else { continue };
        if row.status != status::OK || row.wall_ns_median == 0 {
            continue;
        }
        let speedup = ratio_interval(times_of(sequential_id), times_of(&row.config_id), BootstrapSettings::default());
        row.speedup = Some(speedup.estimate);
        row.speedup_low = Some(speedup.low);
        row.speedup_high = Some(speedup.high);
        row.efficiency = Some(speedup.estimate / row.threads.max(1) as f64);
        if *sequential_nodes > 0 {
            row.search_overhead = Some(row.nodes as f64 / *sequential_nodes as f64);
        }
        if !row.is_sequential() {
            if let Some(&single_ns) = one_thread.get(&row.one_thread_key()) {
                row.parallel_overhead = Some(single_ns as f64 / *sequential_ns as f64);
            }
        }
    }
}

/// Each instance's reference configuration (by [`SummaryRow::reference_key`]): the
/// sequential `baseline` configuration when it was measured (even if stopped at the node
/// limit: ratios to it are then bounds), else the completed sequential `defaults`.
fn reference_rows(rows: &[SummaryRow]) -> HashMap<ReferenceKey, (String, u64, u64)> {
    let mut references: HashMap<ReferenceKey, (String, u64, u64)> = HashMap::new();
    // Stopped at its node limit, a reference stays the reference: the tables give bounds
    // (a stopped `defaults` left every ratio of its instance blank, "ratios are to none").
    let usable = |row: &&SummaryRow| {
        row.is_sequential() && row.runs > 0 && matches!(row.status.as_str(), status::OK | status::LIMIT)
    };
    for row in rows.iter().filter(usable).filter(|row| row.variant == "defaults") {
        references.insert(row.reference_key(), (row.config_id.clone(), row.wall_ns_median, row.nodes));
    }
    for row in rows.iter().filter(usable).filter(|row| row.variant == "baseline") {
        references.insert(row.reference_key(), (row.config_id.clone(), row.wall_ns_median, row.nodes));
    }
    references
}

/// Which configurations share a reference: sweep, instance, mode, state, node limit.
type ReferenceKey = (String, String, String, String, u64);

/// Sweep, instance, knobs, mode, state, node limit: the configurations compared with one
/// sequential configuration.
pub type GroupKey = (String, String, String, String, String, u64);

/// The median of counts, rounded to a whole count (0 when empty).
pub(crate) fn median(values: impl Iterator<Item = u64>) -> u64 {
    let values: Vec<f64> = values.map(|value| value as f64).collect();
    if values.is_empty() {
        return 0;
    }
    statistics::median(&values).round() as u64
}

fn distinct<'a>(values: impl Iterator<Item = &'a str>) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for value in values {
        if !seen.contains(&value) {
            seen.push(value);
        }
    }
    seen.join(" | ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(config: &str, strategy: &str, threads: usize, repeat: u32, wall_ns: u64, nodes: u64) -> RunRecord {
        RunRecord {
            sweep: "t".into(),
            config_id: config.into(),
            config_index: config.len(),
            repeat,
            status: status::OK.into(),
            source: "rings".into(),
            knobs: "order=rings".into(),
            mode: "all".into(),
            strategy: strategy.into(),
            threads,
            state: "undo".into(),
            complete: true,
            solutions: Some(1),
            nodes,
            wall_ns,
            timestamp: format!("2026-01-01T00:00:0{repeat}.000Z"),
            ..RunRecord::default()
        }
    }

    #[test]
    fn strategy_labels_name_the_per_thread_knobs_off_their_defaults() {
        let label = |counters: &str, affinity: &str| {
            SummaryRow {
                strategy: "auto".into(),
                counters: counters.into(),
                affinity: affinity.into(),
                ..SummaryRow::default()
            }
            .strategy_label()
        };
        assert_eq!(label("padded", "pinned"), "auto");
        // Files written before the affinity column read it as empty: those runs were pinned.
        assert_eq!(label("padded", ""), "auto");
        assert_eq!(label("shared", "pinned"), "auto (shared)");
        assert_eq!(label("padded", "free"), "auto (free)");
        assert_eq!(label("unpadded", "free"), "auto (unpadded, free)");
    }

    #[test]
    fn the_median_of_an_even_count_is_the_middle_mean_with_an_interval() {
        let rows = summarize(vec![
            run("s", "sequential", 1, 0, 100, 5),
            run("s", "sequential", 1, 1, 300, 5),
            run("s", "sequential", 1, 2, 200, 5),
            run("s", "sequential", 1, 3, 400, 5),
        ]);
        let row = &rows[0];
        assert_eq!(row.wall_ns_median, 250);
        assert!(row.wall_ns_median_low <= 250 && row.wall_ns_median_high >= 250);
        assert!(row.wall_ns_median_low >= 100 && row.wall_ns_median_high <= 400);
        assert_eq!(row.solutions, Some(1));
    }

    #[test]
    fn a_slow_outlier_is_counted() {
        let mut runs: Vec<RunRecord> =
            (0..8).map(|repeat| run("s", "sequential", 1, repeat, 1000 + u64::from(repeat), 5)).collect();
        runs.push(run("s", "sequential", 1, 8, 5000, 5));
        let row = &summarize(runs)[0];
        assert_eq!((row.outliers, row.outliers_severe), (1, 1));
    }

    #[test]
    fn speedup_efficiency_and_overheads_come_from_the_sequential_row() {
        let rows = summarize(vec![
            run("s", "sequential", 1, 0, 1000, 50),
            run("s", "sequential", 1, 1, 1200, 50),
            run("s", "sequential", 1, 2, 1100, 50),
            run("a1", "auto", 1, 0, 1210, 50),
            run("a4", "auto", 4, 0, 400, 60),
        ]);
        let by_id = |id: &str| rows.iter().find(|row| row.config_id == id).unwrap();
        let sequential = by_id("s");
        assert_eq!((sequential.runs, sequential.wall_ns_median, sequential.speedup), (3, 1100, Some(1.0)));
        assert_eq!((sequential.speedup_low, sequential.speedup_high), (Some(1000.0 / 1200.0), Some(1200.0 / 1000.0)));
        let four = by_id("a4");
        assert!((four.speedup.unwrap() - 2.75).abs() < 1e-9);
        assert!((four.efficiency.unwrap() - 0.6875).abs() < 1e-9);
        assert!((four.search_overhead.unwrap() - 1.2).abs() < 1e-9);
        assert!((four.parallel_overhead.unwrap() - 1.1).abs() < 1e-9);
    }

    #[test]
    fn cpu_per_wall_only_for_runs_the_cpu_clock_can_measure() {
        let mut short = run("short", "sequential", 1, 0, 2_000, 10);
        short.user_cpu_ns = 3_000;
        let mut long = run("long", "auto", 2, 0, 20_000_000, 10);
        long.user_cpu_ns = 39_000_000;
        long.system_cpu_ns = 1_000_000;
        let rows = summarize(vec![short, long]);
        let by_id = |id: &str| rows.iter().find(|row| row.config_id == id).unwrap();
        assert_eq!(by_id("short").cpu_per_wall, None);
        assert_eq!(by_id("long").cpu_per_wall, Some(2.0));
    }

    #[test]
    fn duplicates_keep_the_latest_run_and_failures_are_summarized() {
        let mut failed = run("e", "sequential", 1, 0, 0, 0);
        failed.status = status::ERROR.into();
        failed.error = "no such file".into();
        let rows =
            summarize(vec![run("s", "sequential", 1, 0, 1000, 5), run("s", "sequential", 1, 0, 2000, 5), failed]);
        assert_eq!(rows.len(), 2);
        let error = rows.iter().find(|row| row.config_id == "e").unwrap();
        assert_eq!((error.status.as_str(), error.runs, error.error.as_str()), ("error", 0, "no such file"));
    }
}
