//! `report`: regenerates `<sweep>-summary.csv`, the plots and `README.md` of a results
//! folder from its run logs alone, without running anything.
//!
//! The README has, per sweep and instance, a table of the sequential configurations
//! (nodes, median time, ratios to the baseline configuration) and, where parallel runs
//! exist, a table of threads (speedup, efficiency, overheads, and the `why` column that
//! `slowdown::why_slower` fills in), followed by the plots.

use super::compare::{compare, Change, Verdict};
use super::plots::{draw_plots, PlotFile};
use super::slowdown;
use crate::format::{count, duration_ns as duration, markdown_cell as escape};
use crate::harness::error::HarnessError;
use crate::harness::storing::csv_log::{read_rows, write_atomically};
use crate::harness::storing::record::status;
use crate::harness::storing::results_folder::find_runs_files;
use crate::harness::storing::results_folder::write_summary;
use crate::harness::storing::summary::SummaryRow;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What `report` wrote.
#[derive(Debug, Clone)]
pub struct ReportOutcome {
    /// The README written.
    pub readme: PathBuf,
    /// The summaries written, one per sweep.
    pub summaries: Vec<PathBuf>,
    /// The plots written.
    pub plots: Vec<PathBuf>,
    /// The comparison with `--baseline`, when asked.
    pub compared: Option<ComparisonCounts>,
    /// The comparison table as Markdown (empty without `--baseline`).
    pub comparison_text: String,
    /// Notes about skipped CSV lines.
    pub notes: Vec<String>,
}

/// How a `--baseline` comparison came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComparisonCounts {
    /// Configurations completed in both summaries.
    pub compared: usize,
    /// Flagged: time beyond the noise either way, or a different node count.
    pub flagged: usize,
    /// Regressions among them: slower beyond the noise, or a different node count.
    pub regressions: usize,
}

/// Regenerates everything derived in `folder`; with `baseline`, also compares with that
/// summary file. The baseline is read before anything is written, so it may be the
/// folder's own summary (the state before this report).
pub fn regenerate(folder: &Path, baseline: Option<&Path>) -> Result<ReportOutcome, HarnessError> {
    let mut notes = Vec::new();
    let old_rows = match baseline {
        Some(path) => {
            let old = read_rows::<SummaryRow>(path, &SummaryRow::header())?;
            notes.extend(old.skipped);
            Some(old.rows)
        }
        None => None,
    };
    let sweeps = find_runs_files(folder)?;
    if sweeps.is_empty() {
        return Err(HarnessError::Csv {
            path: folder.to_path_buf(),
            message: "no run logs (*-runs.csv) here; run `backtrack-bench sweep` first".to_string(),
        });
    }
    let mut rows = Vec::new();
    let mut summaries = Vec::new();
    for sweep in sweeps.keys() {
        let (path, sweep_rows, sweep_notes) = write_summary(folder, sweep)?;
        summaries.push(path);
        rows.extend(sweep_rows);
        notes.extend(sweep_notes);
    }
    let plot_folder = folder.join("plots");
    let plots = draw_plots(&rows, &plot_folder)?;
    remove_stale_plots(&plot_folder, &plots)?;
    let comparison = baseline.zip(old_rows).map(|(path, old)| (path.display().to_string(), compare(&old, &rows)));
    let comparison_text =
        comparison.as_ref().map(|(name, changes)| comparison_markdown(name, changes)).unwrap_or_default();
    let readme = folder.join("README.md");
    write_atomically(&readme, markdown(&rows, &plots, &comparison_text).as_bytes())?;
    Ok(ReportOutcome {
        readme,
        summaries,
        plots: plots.iter().map(|plot| plot_folder.join(&plot.file_name)).collect(),
        compared: comparison.as_ref().map(|(_, changes)| ComparisonCounts {
            compared: changes.len(),
            flagged: changes.iter().filter(|change| change.flagged()).count(),
            regressions: changes.iter().filter(|change| change.regression()).count(),
        }),
        comparison_text,
        notes,
    })
}

/// Removes SVG files of `plots/` that this report did not draw (the folder is generated).
fn remove_stale_plots(folder: &Path, plots: &[PlotFile]) -> Result<(), HarnessError> {
    let Ok(entries) = std::fs::read_dir(folder) else { return Ok(()) };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".svg") && !plots.iter().any(|plot| plot.file_name == name) {
            std::fs::remove_file(entry.path()).map_err(|source| HarnessError::io(entry.path(), source))?;
        }
    }
    Ok(())
}

/// The README: environment, then per sweep and instance the tables and plots.
pub fn markdown(rows: &[SummaryRow], plots: &[PlotFile], comparison: &str) -> String {
    let mut text = String::new();
    text.push_str("# Results\n\n");
    text.push_str(
        "Generated by `backtrack-bench report` from the `*-runs.csv` files in this folder; do not edit by hand \
         (run `scripts/regen-tables.sh`). Every column is documented in [docs/harness.md](../docs/harness.md). \
         Times are per call of the search: min, median, 90th percentile and max over the timed runs; \"rsd\" is \
         the relative standard deviation of the wall time. A search faster than 1 ms is timed as a batch of \
         calls that together take at least 1 ms, and its time is the batch's per call: the \"runs\" column then \
         reads `runs × calls` (for example `3 × 412`).\n\n",
    );
    write_environment(&mut text, rows);
    let mut by_sweep: BTreeMap<&str, Vec<&SummaryRow>> = BTreeMap::new();
    for row in rows {
        by_sweep.entry(row.sweep.as_str()).or_default().push(row);
    }
    for (sweep, sweep_rows) in by_sweep {
        write_sweep(&mut text, sweep, &sweep_rows, plots);
    }
    if !comparison.is_empty() {
        text.push_str(comparison);
    }
    text
}

fn write_environment(text: &mut String, rows: &[SummaryRow]) {
    let distinct = |values: Vec<&str>| {
        let mut seen: Vec<&str> = Vec::new();
        for value in values.into_iter().flat_map(|value| value.split(" | ")) {
            if !value.is_empty() && !seen.contains(&value) {
                seen.push(value);
            }
        }
        seen.join(", ")
    };
    let first = rows.iter().map(|row| row.first_timestamp.as_str()).filter(|time| !time.is_empty()).min().unwrap_or("");
    let last = rows.iter().map(|row| row.last_timestamp.as_str()).max().unwrap_or("");
    let _ = writeln!(text, "| environment | |\n|---|---|");
    let _ = writeln!(text, "| commit | {} |", distinct(rows.iter().map(|row| row.git_commit.as_str()).collect()));
    let _ =
        writeln!(text, "| crate version | {} |", distinct(rows.iter().map(|row| row.crate_version.as_str()).collect()));
    let _ = writeln!(text, "| rustc | {} |", distinct(rows.iter().map(|row| row.rustc_version.as_str()).collect()));
    let _ = writeln!(text, "| CPU | {} |", distinct(rows.iter().map(|row| row.cpu_model.as_str()).collect()));
    let cores = distinct_numbers(rows.iter().map(|row| row.available_parallelism as u64));
    let _ = writeln!(text, "| available parallelism | {cores} |");
    let _ = writeln!(text, "| hosts | {} |", distinct(rows.iter().map(|row| row.hostname.as_str()).collect()));
    let _ = writeln!(text, "| runs | {first} to {last} |\n");
}

/// The distinct values, sorted, joined by `, ` (`1,234` style).
fn distinct_numbers(values: impl Iterator<Item = u64>) -> String {
    let mut values: Vec<u64> = values.collect();
    values.sort_unstable();
    values.dedup();
    values.into_iter().map(count).collect::<Vec<_>>().join(", ")
}

fn write_sweep(text: &mut String, sweep: &str, rows: &[&SummaryRow], plots: &[PlotFile]) {
    let runs: u64 = rows.iter().map(|row| row.runs).sum();
    let failed = rows.iter().filter(|row| row.runs == 0 || row.status == status::VERIFY_FAILED).count();
    let limited = rows.iter().filter(|row| row.status == status::LIMIT).count();
    let _ = writeln!(text, "## Sweep `{sweep}`\n");
    write_sweep_settings(text, rows);
    let _ = write!(text, "{} configurations, {runs} measured runs", rows.len());
    if limited > 0 {
        let _ = write!(text, ", {limited} stopped at the node limit (their counts and times are of a partial search)");
    }
    if failed > 0 {
        let _ = write!(text, ", {failed} failed (listed at the end of this section)");
    }
    text.push_str(". Summary: ");
    let _ = writeln!(text, "[`{sweep}-summary.csv`]({sweep}-summary.csv).\n");
    let mut by_source: Vec<(&str, Vec<&SummaryRow>)> = Vec::new();
    for row in rows {
        match by_source.iter_mut().find(|(source, _)| *source == row.source) {
            Some((_, members)) => members.push(row),
            None => by_source.push((row.source.as_str(), vec![row])),
        }
    }
    for (source, members) in &by_source {
        write_instance(text, sweep, source, members, plots);
    }
    let failures: Vec<&&SummaryRow> =
        rows.iter().filter(|row| row.runs == 0 || row.status == status::VERIFY_FAILED).collect();
    if !failures.is_empty() {
        let _ = writeln!(text, "### Failed configurations\n\n| instance | configuration | strategy | threads | status | error |\n|---|---|---|---|---|---|");
        for row in failures {
            let _ = writeln!(
                text,
                "| `{}` | {} | {} | {} | {} | {} |",
                row.source,
                row.variant,
                row.strategy,
                row.threads,
                row.status,
                escape(&row.error)
            );
        }
        text.push('\n');
    }
}

/// The sweep's spec, repeats, warm-ups and node limit, as recorded in its rows.
fn write_sweep_settings(text: &mut String, rows: &[&SummaryRow]) {
    let mut specs: Vec<&str> = rows.iter().map(|row| row.spec.as_str()).filter(|spec| !spec.is_empty()).collect();
    specs.sort_unstable();
    specs.dedup();
    let specs: Vec<String> = specs.iter().map(|spec| format!("`{spec}`")).collect();
    let recorded = rows.iter().filter(|row| row.repeats_planned > 0);
    let repeats = distinct_numbers(recorded.clone().map(|row| u64::from(row.repeats_planned)));
    let warmups = distinct_numbers(recorded.map(|row| u64::from(row.warmup)));
    let limits = distinct_numbers(rows.iter().map(|row| row.node_limit));
    if !specs.is_empty() {
        let _ = write!(text, "Spec {}. ", specs.join(", "));
    }
    if !repeats.is_empty() {
        let _ = write!(text, "{repeats} timed run(s) per configuration after {warmups} untimed warm-up run(s). ");
    }
    let _ = writeln!(
        text,
        "Node limit {limits} per run and per component: an instance of several independent components (the \
         four grids of `247`) searches each separately, each up to the limit, so a stopped run can show up to \
         components × limit nodes.\n"
    );
}

fn write_instance(text: &mut String, sweep: &str, source: &str, rows: &[&SummaryRow], plots: &[PlotFile]) {
    let measured: Vec<&SummaryRow> = rows.iter().copied().filter(|row| row.runs > 0).collect();
    let Some(first) = measured.first() else { return };
    let heading = if first.instance_title.is_empty() { &first.instance } else { &first.instance_title };
    let _ = writeln!(text, "### {} (`{source}`, {})\n", escape(heading), first.puzzle);
    let sequential: Vec<&SummaryRow> = measured.iter().copied().filter(|row| row.is_sequential()).collect();
    let _ = write!(text, "Instance `{}`.", first.instance);
    for variant in ["defaults", "baseline"] {
        if let Some(row) = sequential.iter().find(|row| row.variant == variant) {
            let name = if variant == "defaults" { "Defaults" } else { "Baseline (the most naive knobs)" };
            let _ = write!(text, " {name}: `{}`.", row.knobs);
        }
    }
    text.push_str("\n\n");
    if !sequential.is_empty() {
        write_configuration_table(text, &sequential);
    }
    let parallel: Vec<&SummaryRow> = measured.iter().copied().filter(|row| !row.is_sequential()).collect();
    if !parallel.is_empty() {
        write_threads_table(text, &measured);
    }
    for plot in plots.iter().filter(|plot| plot.sweep == sweep && plot.source == source) {
        let _ = writeln!(text, "![{}](plots/{})\n", escape(&plot.title), plot.file_name);
    }
}

/// The reference of the ratio columns: the `baseline` configuration when it was measured
/// (even if stopped at the node limit: the table then says its ratios are bounds), else
/// the completed defaults.
fn reference_row<'a>(rows: &[&'a SummaryRow]) -> Option<&'a SummaryRow> {
    let usable = |row: &&&SummaryRow| matches!(row.status.as_str(), status::OK | status::LIMIT) && row.runs > 0;
    rows.iter()
        .filter(usable)
        .find(|row| row.variant == "baseline")
        .or_else(|| rows.iter().filter(|row| row.status == status::OK).find(|row| row.variant == "defaults"))
        .copied()
}

/// The two ratio cells (nodes, time) of `row` against `reference`.
fn ratio_cells(row: &SummaryRow, reference: Option<&SummaryRow>) -> (String, String) {
    let Some(reference) = reference.filter(|reference| reference.nodes > 0 && reference.wall_ns_median > 0) else {
        return (String::new(), String::new());
    };
    let row_limited = row.status == status::LIMIT;
    let reference_limited = reference.status == status::LIMIT;
    // A stopped search would have needed at least its counts: a stopped row's ratios are
    // lower bounds, ratios to a stopped reference are upper bounds, and with both stopped
    // nothing can be said (the reference itself reads 1).
    let bound = match (row_limited, reference_limited) {
        (false, false) => "",
        (true, false) => "≥ ",
        (false, true) => "≤ ",
        (true, true) if std::ptr::eq(row, reference) => "",
        (true, true) => return ("n/a".to_string(), "n/a".to_string()),
    };
    (
        format!("{bound}{}", ratio(row.nodes as f64 / reference.nodes as f64)),
        format!("{bound}{}", ratio(row.wall_ns_median as f64 / reference.wall_ns_median as f64)),
    )
}

fn write_configuration_table(text: &mut String, rows: &[&SummaryRow]) {
    let mut groups: Vec<((String, String), Vec<&SummaryRow>)> = Vec::new();
    for row in rows {
        let key = (row.mode.clone(), row.state.clone());
        match groups.iter_mut().find(|(group, _)| *group == key) {
            Some((_, members)) => members.push(row),
            None => groups.push((key, vec![row])),
        }
    }
    for ((mode, state), members) in groups {
        let reference = reference_row(&members);
        let reference_name = reference.map_or("none".to_string(), |row| format!("`{}`", row.variant));
        let _ = write!(
            text,
            "Sequential, {} solutions, state `{state}`; ratios are to the {reference_name} configuration.",
            if mode == "first" { "first" } else { "all" }
        );
        if reference.is_some_and(|row| row.status == status::LIMIT) {
            text.push_str(
                " **The baseline stopped at the node limit**: its true node count and time are larger, so the \
                 ratios to it are upper bounds (≤): every other configuration needs at most that share of the \
                 baseline's work.",
            );
        } else if reference.is_some_and(|row| row.variant != "baseline")
            && members.iter().any(|row| row.variant == "baseline")
        {
            text.push_str(" (The baseline did not complete a run, so the defaults are the reference.)");
        }
        text.push_str("\n\n");
        text.push_str("| configuration | status | solutions | nodes | min | median time | p90 | max | rsd | runs | nodes / reference | time / reference |\n");
        text.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        let mut stopped_notes = Vec::new();
        for row in members {
            let (node_ratio, time_ratio) = ratio_cells(row, reference);
            let cells = if row.status == status::LIMIT {
                if row.node_limit > 0 && row.nodes > row.node_limit {
                    stopped_notes.push(format!(
                        "`{}`: {} nodes = {:.0} × the limit of {}: each component ran up to the per-component limit.",
                        row.variant,
                        count(row.nodes),
                        row.nodes as f64 / row.node_limit as f64,
                        count(row.node_limit)
                    ));
                }
                LimitedCells::of(row)
            } else {
                LimitedCells::measured(row)
            };
            let _ = writeln!(
                text,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {node_ratio} | {time_ratio} |",
                row.variant,
                cells.status,
                cells.solutions,
                cells.nodes,
                cells.min,
                cells.median,
                cells.p90,
                cells.max,
                cells.rsd,
                cells.runs
            );
        }
        text.push('\n');
        for note in stopped_notes {
            let _ = writeln!(text, "{note}\n");
        }
    }
}

/// The cells of one configuration row, as shown.
struct LimitedCells {
    status: String,
    solutions: String,
    nodes: String,
    min: String,
    median: String,
    p90: String,
    max: String,
    rsd: String,
    runs: String,
}

impl LimitedCells {
    /// A measured configuration (completed, or failed verification).
    fn measured(row: &SummaryRow) -> LimitedCells {
        let status = if row.status == status::OK { row.status.clone() } else { format!("*{}*", row.status) };
        let runs = if row.batch > 1 { format!("{} × {}", row.runs, count(row.batch)) } else { row.runs.to_string() };
        LimitedCells {
            status,
            solutions: count(row.solutions),
            nodes: count(row.nodes),
            min: duration(row.wall_ns_min),
            median: duration(row.wall_ns_median),
            p90: duration(row.wall_ns_p90),
            max: duration(row.wall_ns_max),
            rsd: if row.runs > 1 { format!("{:.1}%", row.wall_rsd * 100.0) } else { "n/a".to_string() },
            runs,
        }
    }

    /// A configuration stopped at the node limit: its one run counts for nothing but a
    /// lower bound, so the statistics of a sample are not shown.
    fn of(row: &SummaryRow) -> LimitedCells {
        LimitedCells {
            status: "*stopped at the node limit*".to_string(),
            solutions: "n/a".to_string(),
            nodes: format!("≥ {}", count(row.nodes)),
            min: String::new(),
            median: format!("≥ {}", duration(row.wall_ns_median)),
            p90: String::new(),
            max: String::new(),
            rsd: "n/a".to_string(),
            runs: "n/a".to_string(),
        }
    }
}

fn write_threads_table(text: &mut String, rows: &[&SummaryRow]) {
    text.push_str("Threads (speedup and overheads against the sequential run of the same configuration; CPU / wall is n/a for runs under 10 ms, too short for the CPU clock; the last column is filled by the `explain` analysis):\n\n");
    text.push_str("| configuration | strategy | threads | median time | speedup | efficiency | search overhead | parallel overhead | subproblems / worker | steals | idle | CPU / wall | why slower |\n");
    text.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    let mut sorted: Vec<&SummaryRow> = rows.to_vec();
    sorted.sort_by(|a, b| {
        (a.group_key(), a.is_sequential() as u8 ^ 1, &a.strategy, a.threads, &a.counters).cmp(&(
            b.group_key(),
            b.is_sequential() as u8 ^ 1,
            &b.strategy,
            b.threads,
            &b.counters,
        ))
    });
    let has_parallel =
        |row: &&SummaryRow| rows.iter().any(|other| !other.is_sequential() && other.group_key() == row.group_key());
    for row in sorted.into_iter().filter(has_parallel) {
        let why_slower = if row.threads > 1 && row.speedup.is_some() {
            let group: Vec<&SummaryRow> =
                rows.iter().copied().filter(|other| other.group_key() == row.group_key()).collect();
            slowdown::why_slower(row, &group)
        } else {
            String::new()
        };
        let optional = |value: Option<f64>| value.map_or(String::new(), ratio);
        let strategy = if row.counters == "padded" {
            row.strategy.clone()
        } else {
            format!("{} ({})", row.strategy, row.counters)
        };
        let _ = writeln!(
            text,
            "| {} | {strategy} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0}% | {} | {} |",
            row.variant,
            row.threads,
            duration(row.wall_ns_median),
            optional(row.speedup),
            row.efficiency.map_or(String::new(), |value| format!("{:.0}%", value * 100.0)),
            optional(row.search_overhead),
            optional(row.parallel_overhead),
            row.subproblems_per_worker.map_or(String::new(), |value| format!("{value:.1}")),
            row.steals,
            row.idle_share * 100.0,
            row.cpu_per_wall.map_or("n/a".to_string(), |value| format!("{value:.2}")),
            escape(&why_slower)
        );
    }
    text.push('\n');
}

/// The `--baseline` comparison as Markdown.
pub fn comparison_markdown(baseline: &str, changes: &[Change]) -> String {
    let mut text = String::new();
    let flagged: Vec<&Change> = changes.iter().filter(|change| change.flagged()).collect();
    let regressions = flagged.iter().filter(|change| change.regression()).count();
    let _ = writeln!(text, "## Changes against `{baseline}`\n");
    let _ = writeln!(
        text,
        "{} configurations in both, {} flagged, {regressions} regression(s). Flagged: time beyond max(3 x combined \
         rsd, 3%) with disjoint ranges, or a different node count (not compared for parallel first-solution \
         searches, whose counts vary from run to run). Regressions are the slower ones and those with other \
         node counts; `--fail-on-change` fails on them only.\n",
        changes.len(),
        flagged.len()
    );
    if flagged.is_empty() {
        return text;
    }
    text.push_str("| sweep | instance | configuration | strategy | threads | before | now | now / before | threshold | nodes before | nodes now | verdict |\n");
    text.push_str("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for change in flagged {
        let row = &change.current;
        let verdict = match change.verdict {
            Verdict::Faster => "faster",
            Verdict::Slower => "**slower**",
            Verdict::Unchanged => "time within noise",
        };
        let nodes_note = if change.nodes_changed() { "; **nodes changed**" } else { "" };
        let _ = writeln!(
            text,
            "| {} | `{}` | {} | {} | {} | {} | {} | {} | ±{:.1}% | {} | {} | {verdict}{nodes_note} |",
            row.sweep,
            row.source,
            row.variant,
            row.strategy,
            row.threads,
            duration(change.baseline_ns),
            duration(row.wall_ns_median),
            ratio(change.ratio),
            change.threshold * 100.0,
            count(change.baseline_nodes),
            count(row.nodes)
        );
    }
    text.push('\n');
    text
}

/// A ratio with three significant digits (`0.0123`, `1.50`, `2,400`).
fn ratio(value: f64) -> String {
    if !value.is_finite() {
        return String::new();
    }
    if value >= 1000.0 {
        count(value.round() as u64)
    } else if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else if value >= 1.0 {
        format!("{value:.2}")
    } else if value > 0.0 {
        let decimals = (2.0 - value.log10().floor()) as usize;
        format!("{value:.decimals$}")
    } else {
        "0".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sequential(variant: &str, status: &str, nodes: u64, wall_ns: u64) -> SummaryRow {
        SummaryRow {
            sweep: "s".into(),
            source: "247".into(),
            instance: "D_247".into(),
            instance_title: "Twenty Four Seven".into(),
            puzzle: "twenty_four_seven".into(),
            variant: variant.into(),
            knobs: format!("knobs-of-{variant}"),
            mode: "all".into(),
            strategy: "sequential".into(),
            threads: 1,
            state: "undo".into(),
            node_limit: 50_000_000,
            status: status.into(),
            runs: if status == "limit" { 1 } else { 3 },
            solutions: u64::from(status == "ok"),
            nodes,
            wall_ns_min: wall_ns,
            wall_ns_median: wall_ns,
            wall_ns_p90: wall_ns,
            wall_ns_max: wall_ns,
            wall_rsd: 0.01,
            batch: 1,
            ..SummaryRow::default()
        }
    }

    #[test]
    fn a_baseline_stopped_at_the_limit_stays_the_reference_with_bounded_ratios() {
        let rows = [
            sequential("defaults", "ok", 6_000, 1_000_000),
            sequential("baseline", "limit", 200_000_000, 5_000_000_000),
            sequential("rules=strict", "limit", 200_000_000, 6_000_000_000),
        ];
        let text = markdown(&rows, &[], "");
        assert!(text.contains("### Twenty Four Seven (`247`, twenty_four_seven)"), "{text}");
        assert!(text.contains("Baseline (the most naive knobs): `knobs-of-baseline`."), "{text}");
        assert!(text.contains("ratios are to the `baseline` configuration. **The baseline stopped at the node limit**"));
        assert!(text.contains("| defaults | ok | 1 | 6,000 | 1.000 ms | 1.000 ms | 1.000 ms | 1.000 ms | 1.0% | 3 | ≤ 0.0000300 | ≤ 0.000200 |"), "{text}");
        assert!(text.contains("| baseline | *stopped at the node limit* | n/a | ≥ 200,000,000 |  | ≥ 5.000 s |  |  | n/a | n/a | 1.00 | 1.00 |"), "{text}");
        assert!(text.contains("| rules=strict | *stopped at the node limit* | n/a | ≥ 200,000,000 |  | ≥ 6.000 s |  |  | n/a | n/a | n/a | n/a |"), "{text}");
        assert!(text.contains("`baseline`: 200,000,000 nodes = 4 × the limit of 50,000,000"), "{text}");
    }

    #[test]
    fn a_stopped_row_against_a_complete_baseline_reads_as_a_lower_bound() {
        let rows =
            [sequential("baseline", "ok", 1_000, 1_000_000), sequential("order=x", "limit", 50_000_000, 9_000_000)];
        let text = markdown(&rows, &[], "");
        assert!(text.contains("| ≥ 50,000 | ≥ 9.00 |"), "{text}");
        assert!(!text.contains("stopped at the node limit**"), "{text}");
    }
}
