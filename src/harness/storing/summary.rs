//! Per-configuration statistics over the runs of a sweep: the rows of `<sweep>-summary.csv`.
//!
//! Wall-time quantiles come from an HDR histogram (3 significant digits); speedup,
//! efficiency and overheads compare a configuration with the sequential configuration of
//! the same instance, knobs, mode and state in the same sweep. Computed from run records
//! alone, so `report` can redo it from the CSV files at any time.

use super::record::{parse_pairs, status, RunRecord};
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// Runs shorter than this (per call) get no CPU-per-wall figure: `getrusage` counts in
/// microseconds and covers the setup around the timed search, so short runs read 1.3 to 2.4
/// "busy cores" on one thread.
pub const CPU_RELIABLE_NS: u64 = 10_000_000;

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
    /// `all` or `first`.
    pub mode: String,
    /// Parallel strategy.
    pub strategy: String,
    /// Worker threads.
    pub threads: usize,
    /// Counter layout.
    pub counters: String,
    /// State restoration.
    pub state: String,
    /// Node limit per component.
    pub node_limit: u64,
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
    /// Solutions (median over runs).
    pub solutions: u64,
    /// Nodes (median over runs; identical across runs for sequential searches).
    pub nodes: u64,
    /// Fastest run.
    pub wall_ns_min: u64,
    /// Median run.
    pub wall_ns_median: u64,
    /// 90th percentile run.
    pub wall_ns_p90: u64,
    /// Slowest run.
    pub wall_ns_max: u64,
    /// Relative standard deviation of the wall time (sample standard deviation over the
    /// mean; 0 with a single run).
    pub wall_rsd: f64,
    /// Calls timed together per run (median; 1 unless the runs were shorter than
    /// `record::BATCH_TARGET_NS`); the times are per call.
    pub batch: u64,
    /// Median user CPU time.
    pub user_cpu_ns_median: u64,
    /// Median system CPU time.
    pub system_cpu_ns_median: u64,
    /// (user + system CPU) / wall time, medians: about the number of busy cores. Empty for
    /// runs under [`CPU_RELIABLE_NS`], where the CPU clock cannot tell.
    pub cpu_per_wall: Option<f64>,
    /// Prunes over all rules (median).
    pub prunes_total: u64,
    /// Prunes per rule, `rule=count;...` (median of each).
    pub rule_prunes: String,
    /// Nodes per depth of the first measured run, `n;n;...`.
    pub nodes_per_depth: String,
    /// Prunes per rule per depth of the first measured run, `rule=n/n/...;...`.
    pub prunes_per_depth: String,
    /// Sequential median time / this median time (same instance, knobs, mode, state).
    pub speedup: Option<f64>,
    /// Speedup / threads.
    pub efficiency: Option<f64>,
    /// Nodes / the sequential configuration's nodes (search overhead; 1 = none).
    pub search_overhead: Option<f64>,
    /// This strategy's median time at 1 thread / the sequential median (parallel overhead).
    pub parallel_overhead: Option<f64>,
    /// Subproblems / threads (median subproblems).
    pub subproblems_per_worker: Option<f64>,
    /// Steals (median).
    pub steals: u64,
    /// Share of worker time spent idle (median).
    pub idle_share: f64,
    /// Busiest worker over the mean (median).
    pub imbalance: f64,
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
}

impl SummaryRow {
    /// The CSV header line (no newline).
    pub fn header() -> String {
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.serialize(SummaryRow::default()).expect("a default row serializes");
        let bytes = writer.into_inner().expect("writing to memory cannot fail");
        String::from_utf8_lossy(&bytes).lines().next().unwrap_or_default().to_string()
    }

    /// Whether this is a sequential configuration (the reference of its group).
    pub fn is_sequential(&self) -> bool {
        self.strategy == "sequential"
    }

    /// The key of the configurations this one is compared with: same sweep, instance,
    /// knobs, mode, state and node limit.
    pub fn group_key(&self) -> (String, String, String, String, String, u64) {
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
    let mut rows: Vec<SummaryRow> = by_config.into_values().map(|runs| summarize_configuration(&runs)).collect();
    compare_with_sequential(&mut rows);
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
        mode: first.mode.clone(),
        strategy: first.strategy.clone(),
        threads: first.threads,
        counters: first.counters.clone(),
        state: first.state.clone(),
        node_limit: first.node_limit,
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
        ..SummaryRow::default()
    };
    if measured.is_empty() {
        return row;
    }
    let times: Vec<u64> = measured.iter().map(|run| run.wall_ns).collect();
    let quantiles = WallQuantiles::of(&times);
    row.wall_ns_min = quantiles.min;
    row.wall_ns_median = quantiles.median;
    row.wall_ns_p90 = quantiles.p90;
    row.wall_ns_max = quantiles.max;
    row.wall_rsd = relative_standard_deviation(&times);
    row.solutions = median(measured.iter().map(|run| run.solutions));
    row.nodes = median(measured.iter().map(|run| run.nodes));
    row.user_cpu_ns_median = median(measured.iter().map(|run| run.user_cpu_ns));
    row.system_cpu_ns_median = median(measured.iter().map(|run| run.system_cpu_ns));
    row.batch = median(measured.iter().map(|run| run.batch.max(1)));
    if row.wall_ns_median >= CPU_RELIABLE_NS {
        row.cpu_per_wall = Some((row.user_cpu_ns_median + row.system_cpu_ns_median) as f64 / row.wall_ns_median as f64);
    }
    row.prunes_total = median(measured.iter().map(|run| run.prunes_total));
    row.rule_prunes = median_per_rule(&measured);
    row.nodes_per_depth = measured[0].nodes_per_depth.clone();
    row.prunes_per_depth = measured[0].prunes_per_depth.clone();
    row.steals = median(measured.iter().map(|run| run.steals));
    row.idle_share = median_f64(measured.iter().map(|run| run.idle_share));
    row.imbalance = median_f64(measured.iter().map(|run| run.imbalance));
    if !row.is_sequential() && row.threads > 0 {
        row.subproblems_per_worker =
            Some(median(measured.iter().map(|run| run.subproblems)) as f64 / row.threads as f64);
    }
    row
}

/// Fills speedup, efficiency and overheads from each group's sequential row.
fn compare_with_sequential(rows: &mut [SummaryRow]) {
    let mut sequential: HashMap<_, (u64, u64)> = HashMap::new();
    for row in rows.iter().filter(|row| row.is_sequential() && row.status == status::OK && row.wall_ns_median > 0) {
        sequential.insert(row.group_key(), (row.wall_ns_median, row.nodes));
    }
    let mut one_thread: HashMap<_, u64> = HashMap::new();
    for row in rows.iter().filter(|row| !row.is_sequential() && row.threads == 1 && row.status == status::OK) {
        one_thread.insert((row.group_key(), row.strategy.clone(), row.counters.clone()), row.wall_ns_median);
    }
    for row in rows.iter_mut() {
        let Some(&(sequential_ns, sequential_nodes)) = sequential.get(&row.group_key()) else { continue };
        if row.status != status::OK || row.wall_ns_median == 0 {
            continue;
        }
        let speedup = sequential_ns as f64 / row.wall_ns_median as f64;
        row.speedup = Some(speedup);
        row.efficiency = Some(speedup / row.threads.max(1) as f64);
        if sequential_nodes > 0 {
            row.search_overhead = Some(row.nodes as f64 / sequential_nodes as f64);
        }
        if !row.is_sequential() {
            if let Some(&single_ns) = one_thread.get(&(row.group_key(), row.strategy.clone(), row.counters.clone())) {
                row.parallel_overhead = Some(single_ns as f64 / sequential_ns as f64);
            }
        }
    }
}

/// Wall-time quantiles from an HDR histogram.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WallQuantiles {
    /// Smallest value.
    pub min: u64,
    /// Median.
    pub median: u64,
    /// 90th percentile.
    pub p90: u64,
    /// Largest value.
    pub max: u64,
}

impl WallQuantiles {
    /// The quantiles of `values` (nanoseconds), to 3 significant digits.
    pub fn of(values: &[u64]) -> WallQuantiles {
        let mut histogram = Histogram::<u64>::new(3).expect("3 significant digits is a valid precision");
        for &value in values {
            histogram.record(value).expect("an auto-resizing histogram records any value");
        }
        // The histogram reports bucket bounds; the exact extremes are at hand, and the
        // quantiles are kept inside them.
        let min = values.iter().copied().min().unwrap_or(0);
        let max = values.iter().copied().max().unwrap_or(0);
        let quantile = |q: f64| histogram.value_at_quantile(q).clamp(min, max);
        WallQuantiles { min, median: quantile(0.5), p90: quantile(0.9), max }
    }
}

/// Sample standard deviation over the mean (0 for fewer than two values or a zero mean).
pub fn relative_standard_deviation(values: &[u64]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let count = values.len() as f64;
    let mean = values.iter().map(|&value| value as f64).sum::<f64>() / count;
    if mean == 0.0 {
        return 0.0;
    }
    let variance = values.iter().map(|&value| (value as f64 - mean).powi(2)).sum::<f64>() / (count - 1.0);
    variance.sqrt() / mean
}

/// The lower median of integers (0 when empty).
fn median(values: impl Iterator<Item = u64>) -> u64 {
    let mut values: Vec<u64> = values.collect();
    values.sort_unstable();
    values.get(values.len().saturating_sub(1) / 2).copied().unwrap_or(0)
}

fn median_f64(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.filter(|value| value.is_finite()).collect();
    values.sort_by(f64::total_cmp);
    values.get(values.len().saturating_sub(1) / 2).copied().unwrap_or(0.0)
}

fn median_per_rule(runs: &[&RunRecord]) -> String {
    let mut names: Vec<String> = Vec::new();
    let mut counts: HashMap<String, Vec<u64>> = HashMap::new();
    for run in runs {
        for (name, count) in parse_pairs(&run.rule_prunes) {
            if !names.contains(&name) {
                names.push(name.clone());
            }
            counts.entry(name).or_default().push(count);
        }
    }
    names.iter().map(|name| format!("{name}={}", median(counts[name].iter().copied()))).collect::<Vec<_>>().join(";")
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
            nodes,
            wall_ns,
            rule_prunes: format!("sum={}", nodes / 2),
            timestamp: format!("2026-01-01T00:00:0{repeat}.000Z"),
            ..RunRecord::default()
        }
    }

    #[test]
    fn quantiles_and_spread_of_wall_times() {
        let quantiles = WallQuantiles::of(&[100, 300, 200, 400, 1000]);
        assert_eq!(quantiles, WallQuantiles { min: 100, median: 300, p90: 1000, max: 1000 });
        assert_eq!(relative_standard_deviation(&[5]), 0.0);
        let rsd = relative_standard_deviation(&[90, 110]);
        assert!((rsd - 0.1414).abs() < 1e-3, "{rsd}");
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
        assert_eq!(sequential.rule_prunes, "sum=25");
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
