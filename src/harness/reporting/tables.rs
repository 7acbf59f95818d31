//! `report`: regenerates `<sweep>-summary.csv`, the plots and `README.md` of a results
//! folder from its run logs alone, without running anything.
//!
//! The README has, per sweep and instance, a table of the sequential configurations
//! (nodes, median time, ratios to the baseline configuration) and, where parallel runs
//! exist, a table of threads (speedup, efficiency, overheads, and the `why` column that
//! `slowdown::why_slower` fills in), followed by the plots.

use super::compare::{compare, Change, MIN_CHANGE, MIN_CHANGE_SHORT, SHORT_CALL_NS};
use super::generated_docs;
use super::plots::{draw_plots, PlotFile};
use super::slowdown;
use crate::format::{self, count, duration_interval, markdown_cell as escape, percent, ratio_in_words, TimeUnit};
use crate::harness::error::HarnessError;
use crate::harness::storing::csv_log::write_atomically;
use crate::harness::storing::record::status;
use crate::harness::storing::record::RunRecord;
use crate::harness::storing::results_folder::{find_runs_files, read_counts, read_runs, write_summary_of};
use crate::harness::storing::summary::{deduplicate, SummaryRow};
use crate::statistics::ChangeVerdict;
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
    /// Documents whose generated sections were rewritten.
    pub documents: Vec<PathBuf>,
    /// The comparison with `--baseline`, when asked.
    pub compared: Option<ComparisonCounts>,
    /// Every configuration compared with `--baseline` (empty without it).
    pub changes: Vec<Change>,
    /// The comparison table as Markdown (empty without `--baseline`).
    pub comparison_text: String,
    /// Notes about skipped CSV lines.
    pub notes: Vec<String>,
}

/// How a `--baseline` comparison came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComparisonCounts {
    /// Configurations completed on both sides.
    pub compared: usize,
    /// Flagged: time beyond the noise either way, or a different node count.
    pub flagged: usize,
    /// Regressions among them: slower beyond the noise, or a different node count.
    pub regressions: usize,
}

/// Regenerates everything derived in `folder`; with `baseline` (an earlier run log, or a
/// folder of them), also compares the runs with those. The baseline is read before
/// anything is written. With `image_base`, image links are absolute (`BASE/plots/FILE`).
pub fn regenerate(
    folder: &Path,
    baseline: Option<&Path>,
    image_base: Option<&str>,
) -> Result<ReportOutcome, HarnessError> {
    let mut notes = Vec::new();
    let old_records = match baseline {
        Some(path) => {
            let (records, skipped) = read_baseline(path)?;
            notes.extend(skipped);
            Some(records)
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
    let mut records = Vec::new();
    let mut counts = Vec::new();
    let mut summaries = Vec::new();
    for (sweep, files) in &sweeps {
        let (sweep_records, sweep_notes) = read_runs(files)?;
        let (sweep_counts, count_notes) = read_counts(files)?;
        let (path, sweep_rows) = write_summary_of(folder, sweep, sweep_records.clone())?;
        summaries.push(path);
        rows.extend(sweep_rows);
        records.extend(sweep_records.into_iter().filter(|record| record.sweep == *sweep));
        counts.extend(sweep_counts);
        notes.extend(sweep_notes);
        notes.extend(count_notes);
    }
    let plot_folder = folder.join("plots");
    let mut plots = draw_plots(&rows, &counts, &plot_folder)?;
    if let Some(base) = image_base {
        // A pull request or a wiki shows images only by absolute address.
        let base = base.trim_end_matches('/');
        for plot in &mut plots {
            plot.link = format!("{base}/plots/{}", plot.file_name);
        }
    }
    remove_stale_plots(&plot_folder, &plots)?;
    let comparison =
        baseline.zip(old_records).map(|(path, old)| (path.display().to_string(), compare(&old, &deduplicate(records))));
    let comparison_text =
        comparison.as_ref().map(|(name, changes)| comparison_markdown(name, changes)).unwrap_or_default();
    let readme = folder.join("README.md");
    write_atomically(&readme, markdown(&rows, &plots, &comparison_text).as_bytes())?;
    let documents = generated_docs::update_documents(folder, &rows)?;
    Ok(ReportOutcome {
        readme,
        summaries,
        plots: plots.iter().map(|plot| plot_folder.join(&plot.file_name)).collect(),
        documents,
        compared: comparison.as_ref().map(|(_, changes)| ComparisonCounts {
            compared: changes.len(),
            flagged: changes.iter().filter(|change| change.flagged()).count(),
            regressions: changes.iter().filter(|change| change.regression()).count(),
        }),
        changes: comparison.map(|(_, changes)| changes).unwrap_or_default(),
        comparison_text,
        notes,
    })
}

/// The runs of a baseline: one run log, or every run log in a folder.
fn read_baseline(path: &Path) -> Result<(Vec<RunRecord>, Vec<String>), HarnessError> {
    if !path.exists() {
        return Err(HarnessError::Argument {
            flag: "--baseline",
            message: format!(
                "{}: no such file or folder; give an earlier `<sweep>-runs.csv` or its results folder",
                path.display()
            ),
        });
    }
    let files: Vec<PathBuf> =
        if path.is_dir() { find_runs_files(path)?.into_values().flatten().collect() } else { vec![path.to_path_buf()] };
    let (records, notes) = read_runs(&files)?;
    Ok((deduplicate(records), notes))
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
         (run `scripts/regen-tables.sh`). Every column is documented in [docs/harness.md](../docs/harness.md); \
         the wide per-configuration data is in each sweep's `*-summary.csv`, per-rule, per-depth and per-worker \
         counts in `*-counts.csv`. Times are per call of the search: the median over the timed runs with its 95% \
         bootstrap confidence interval in brackets, one unit per column. A search faster than 1 ms is timed as a \
         batch of calls that together take at least 1 ms, and its time is the batch's per call. ⚠ marks \
         configurations with runs measured while the machine was busy.\n\n",
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
        let _ = writeln!(text, "![{}]({})\n", escape(&plot.title), plot.link);
    }
}

/// The reference row of a group of sequential rows, as the summary chose it.
fn reference_row<'a>(rows: &[&'a SummaryRow]) -> Option<&'a SummaryRow> {
    let id = rows.iter().map(|row| row.reference_config_id.as_str()).find(|id| !id.is_empty())?;
    rows.iter().copied().find(|row| row.config_id == id)
}

/// A ratio to the reference in words (`33,000x fewer nodes`), as a bound when either side
/// was stopped by its node limit, empty when nothing can be said.
fn ratio_to_reference(
    row: &SummaryRow,
    reference: Option<&SummaryRow>,
    value: Option<f64>,
    words: (&str, &str),
) -> String {
    let (Some(reference), Some(value)) = (reference, value) else { return String::new() };
    // A stopped search would have needed at least its counts: a stopped row's ratios are
    // lower bounds, ratios to a stopped reference are upper bounds, and with both stopped
    // nothing can be said (the reference itself reads "same").
    let bound = match (row.status == status::LIMIT, reference.status == status::LIMIT) {
        (false, false) => "",
        (true, false) => "≥ ",
        (false, true) => "≤ ",
        (true, true) if row.config_id == reference.config_id => "",
        (true, true) => return "n/a".to_string(),
    };
    // "fewer"/"faster" read as factors above 1: a ratio below 1 is said inverted, so its
    // bound turns around too.
    let bound = match (bound, value < 1.0) {
        ("≥ ", true) => "≤ ",
        ("≤ ", true) => "≥ ",
        (bound, _) => bound,
    };
    format!("{bound}{}", ratio_in_words(value, words.0, words.1))
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
                 ratios to it are bounds: every other configuration needs at most that share of the baseline's work.",
            );
        } else if reference.is_some_and(|row| row.variant != "baseline")
            && members.iter().any(|row| row.variant == "baseline")
        {
            text.push_str(" (The baseline did not complete a run, so the defaults are the reference.)");
        }
        text.push_str("\n\n");
        let unit = TimeUnit::for_column(members.iter().map(|row| row.wall_ns_median as f64));
        let _ = writeln!(
            text,
            "| configuration | nodes | median time ({}) [95% CI] | nodes vs reference | time vs reference |",
            unit.symbol()
        );
        text.push_str("|---|---:|---:|---:|---:|\n");
        let mut notes = Vec::new();
        for row in members {
            let nodes = ratio_to_reference(row, reference, row.nodes_vs_reference, ("fewer nodes", "more nodes"));
            let time = ratio_to_reference(row, reference, row.time_vs_reference, ("faster", "slower"));
            let _ = writeln!(
                text,
                "| {} | {} | {} | {nodes} | {time} |",
                configuration_cell(row),
                nodes_cell(row),
                time_cell(row, unit)
            );
            if row.status == status::LIMIT && row.node_limit > 0 && row.nodes > row.node_limit {
                notes.push(format!(
                    "`{}`: {} nodes = {:.0} × the limit of {}: each component ran up to the per-component limit.",
                    row.variant,
                    count(row.nodes),
                    row.nodes as f64 / row.node_limit as f64,
                    count(row.node_limit)
                ));
            }
            if let Some(note) = quality_note(row) {
                notes.push(note);
            }
        }
        text.push('\n');
        for note in notes {
            let _ = writeln!(text, "{note}\n");
        }
    }
}

/// The configuration's name, marked when its runs were not clean.
fn configuration_cell(row: &SummaryRow) -> String {
    let mark = if row.busy_machine_runs > 0 { " ⚠" } else { "" };
    match row.status.as_str() {
        status::OK => format!("{}{mark}", row.variant),
        status::LIMIT => format!("{} (*stopped at the node limit*){mark}", row.variant),
        other => format!("{} (*{other}*){mark}", row.variant),
    }
}

/// Nodes, as a lower bound for a stopped search.
fn nodes_cell(row: &SummaryRow) -> String {
    if row.status == status::LIMIT {
        format!("≥ {}", count(row.nodes))
    } else {
        count(row.nodes)
    }
}

/// The median time with its interval in the column's unit; a stopped search shows its one
/// run as a lower bound.
fn time_cell(row: &SummaryRow, unit: TimeUnit) -> String {
    if row.status == status::LIMIT {
        return format!("≥ {}", unit.number(row.wall_ns_median as f64));
    }
    let interval = row.wall_interval();
    let text = duration_interval(&interval, unit);
    // The unit is in the header: drop it from the cell.
    text.replacen(&format!(" {}", unit.symbol()), "", 1)
}

/// A note under the table when a configuration's sample is suspect: outliers, busy runs.
fn quality_note(row: &SummaryRow) -> Option<String> {
    let mut problems = Vec::new();
    if row.outliers > 0 {
        problems.push(format!(
            "{} of {} runs outside Tukey's fences ({} severe)",
            row.outliers, row.runs, row.outliers_severe
        ));
    }
    if row.busy_machine_runs > 0 {
        problems.push(format!("⚠ {} of {} runs measured while the machine was busy", row.busy_machine_runs, row.runs));
    }
    (!problems.is_empty())
        .then(|| format!("`{}` ({} threads, {}): {}.", row.variant, row.threads, row.strategy, problems.join("; ")))
}

fn write_threads_table(text: &mut String, rows: &[&SummaryRow]) {
    text.push_str(
        "Threads: speedup is the sequential median over this median, with the 95% interval of that ratio; \
         idle is the median share of worker time without work; the last column is the `explain` analysis of \
         a configuration slower than it should be. Overheads, steals and CPU use are in the summary CSV.\n\n",
    );
    let mut sorted: Vec<&SummaryRow> = rows.to_vec();
    sorted.sort_by(|a, b| {
        (a.group_key(), a.is_sequential() as u8 ^ 1, &a.strategy, a.threads, &a.counters, &a.affinity).cmp(&(
            b.group_key(),
            b.is_sequential() as u8 ^ 1,
            &b.strategy,
            b.threads,
            &b.counters,
            &b.affinity,
        ))
    });
    let has_parallel =
        |row: &&SummaryRow| rows.iter().any(|other| !other.is_sequential() && other.group_key() == row.group_key());
    let shown: Vec<&SummaryRow> = sorted.into_iter().filter(has_parallel).collect();
    let unit = TimeUnit::for_column(shown.iter().map(|row| row.wall_ns_median as f64));
    let _ = writeln!(
        text,
        "| configuration | strategy | threads | median time ({}) [95% CI] | speedup [95% CI] | idle | why slower |",
        unit.symbol()
    );
    text.push_str("|---|---|---:|---:|---:|---:|---|\n");
    for row in shown {
        let why_slower = if row.threads > 1 && row.speedup.is_some() {
            let group: Vec<&SummaryRow> =
                rows.iter().copied().filter(|other| other.group_key() == row.group_key()).collect();
            slowdown::why_slower(row, &group)
        } else {
            String::new()
        };
        let strategy = row.strategy_label();
        let speedup = row.speedup_interval().map_or(String::new(), |speedup| format::factor_interval(&speedup));
        let _ = writeln!(
            text,
            "| {} | {strategy} | {} | {} | {speedup} | {} | {} |",
            configuration_cell(row),
            row.threads,
            time_cell(row, unit),
            percent(row.idle_share),
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
        "{} configurations in both, {} flagged, {regressions} regression(s). A time change is flagged when the \
         95% bootstrap interval of now / before excludes 1 and the ratio is beyond ±{:.0}% (±{:.0}% for calls under {}); a node count when it \
         differs (not compared for parallel first-solution searches, whose counts vary from run to run). \
         Regressions are the slower ones and those with other node counts; `--fail-on-change` fails on them only.\n",
        changes.len(),
        flagged.len(),
        MIN_CHANGE * 100.0,
        MIN_CHANGE_SHORT * 100.0,
        crate::format::duration(SHORT_CALL_NS)
    );
    if flagged.is_empty() {
        return text;
    }
    let unit = TimeUnit::for_column(flagged.iter().map(|change| change.baseline_ns));
    let _ = writeln!(
        text,
        "| sweep | instance | configuration | strategy | threads | before ({0}) | now ({0}) | now / before [95% CI] | nodes before | nodes now | verdict |",
        unit.symbol()
    );
    text.push_str("|---|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    for change in flagged {
        let run = &change.current;
        let verdict = match change.time.verdict {
            ChangeVerdict::Faster => "faster",
            ChangeVerdict::Slower => "**slower**",
            ChangeVerdict::NoChange => "time within noise",
        };
        let nodes_note = if change.nodes_changed() { "; **nodes changed**" } else { "" };
        let busy_note = if change.busy_runs_kept { "; ⚠ busy-machine runs" } else { "" };
        let ratio = change.time.ratio;
        let _ = writeln!(
            text,
            "| {} | `{}` | {} | {} | {} | {} | {} | {:.3} [{:.3}, {:.3}] | {} | {} | {verdict}{nodes_note}{busy_note} |",
            run.sweep,
            run.source,
            run.variant,
            run.strategy,
            run.threads,
            unit.number(change.baseline_ns),
            unit.number(change.current_ns),
            ratio.estimate,
            ratio.low,
            ratio.high,
            count(change.baseline_nodes),
            count(change.current_nodes)
        );
    }
    text.push('\n');
    text
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
            solutions: (status == "ok").then_some(1),
            config_id: variant.into(),
            nodes,
            wall_ns_median: wall_ns,
            wall_ns_median_low: wall_ns - wall_ns / 100,
            wall_ns_median_high: wall_ns + wall_ns / 100,
            wall_rsd: 0.01,
            batch: 1,
            ..SummaryRow::default()
        }
    }

    /// `rows` with their ratios to `reference`, as the summary fills them in.
    fn against(reference: &str, mut rows: Vec<SummaryRow>) -> Vec<SummaryRow> {
        let base = rows.iter().find(|row| row.variant == reference).unwrap().clone();
        for row in &mut rows {
            row.reference_config_id = base.config_id.clone();
            row.nodes_vs_reference = Some(row.nodes as f64 / base.nodes as f64);
            row.time_vs_reference = Some(row.wall_ns_median as f64 / base.wall_ns_median as f64);
        }
        rows
    }

    #[test]
    fn a_baseline_stopped_at_the_limit_stays_the_reference_with_bounded_ratios() {
        let rows = against(
            "baseline",
            vec![
                sequential("defaults", "ok", 6_000, 1_000_000),
                sequential("baseline", "limit", 200_000_000, 5_000_000_000),
                sequential("rules=strict", "limit", 200_000_000, 6_000_000_000),
            ],
        );
        let text = markdown(&rows, &[], "");
        assert!(text.contains("### Twenty Four Seven (`247`, twenty_four_seven)"), "{text}");
        assert!(text.contains("Baseline (the most naive knobs): `knobs-of-baseline`."), "{text}");
        assert!(text.contains("ratios are to the `baseline` configuration. **The baseline stopped at the node limit**"));
        assert!(
            text.contains(
                "| configuration | nodes | median time (s) [95% CI] | nodes vs reference | time vs reference |"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "| defaults | 6,000 | 0.001000 [0.000990, 0.001010] | ≥ 33,300x fewer nodes | ≥ 5,000x faster |"
            ),
            "{text}"
        );
        assert!(
            text.contains("| baseline (*stopped at the node limit*) | ≥ 200,000,000 | ≥ 5.000 | same | same |"),
            "{text}"
        );
        assert!(
            text.contains("| rules=strict (*stopped at the node limit*) | ≥ 200,000,000 | ≥ 6.000 | n/a | n/a |"),
            "{text}"
        );
        assert!(text.contains("`baseline`: 200,000,000 nodes = 4 × the limit of 50,000,000"), "{text}");
    }

    #[test]
    fn a_stopped_row_against_a_complete_baseline_reads_as_a_lower_bound() {
        let rows = against(
            "baseline",
            vec![sequential("baseline", "ok", 1_000, 1_000_000), sequential("order=x", "limit", 50_000_000, 9_000_000)],
        );
        let text = markdown(&rows, &[], "");
        assert!(text.contains("| ≥ 50,000x more nodes | ≥ 9.00x slower |"), "{text}");
        assert!(!text.contains("stopped at the node limit**"), "{text}");
    }
}
