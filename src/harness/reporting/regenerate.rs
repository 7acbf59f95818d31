//! `report`: regenerates `<sweep>-summary.csv`, the plots and `README.md` of a results
//! folder from its run logs alone, without running anything, and compares: with
//! `--baseline`, against those earlier runs (read first); without it, each sweep against its
//! previous run, the newest entry of the folder's `history/`. The README's text is
//! [`super::tables`]'s.

use super::compare::{compare, Change};
use super::comparison_table::comparison_markdown;
use super::generated_docs;
use super::plots::{draw_plots, PlotFile};
use super::tables::{markdown, ReadmeContext};
use super::unfinished::Unfinished;
use crate::format::markdown_code as code;
use crate::harness::error::HarnessError;
use crate::harness::storing::history::previous_run;
use crate::harness::storing::output_target::{check_named_folder, named_file_target, write_named_file};
use crate::harness::storing::record::RunRecord;
use crate::harness::storing::results_folder::{
    find_runs_files, holds_runs, read_counts, read_runs, read_sweep_runs, summary_file, write_summary_of,
};
use crate::harness::storing::summary::deduplicate;
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
    /// The comparison with `--baseline`, or else with the previous runs (none: nothing to
    /// compare with).
    pub compared: Option<ComparisonCounts>,
    /// What the runs were compared with: the baseline, or each sweep's previous run.
    pub compared_with: Vec<String>,
    /// Every configuration compared.
    pub changes: Vec<Change>,
    /// The comparison tables as Markdown (empty when nothing was compared).
    pub comparison_text: String,
    /// Notes about skipped CSV lines.
    pub notes: Vec<String>,
}

/// How a comparison (with `--baseline` or the previous runs) came out.
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
/// folder of them), also compares the runs with those, and without it each sweep with its
/// previous run kept in `history/` (when there is one). The baseline is read before
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
            message: format!("no run logs (*-runs.csv) here; run `{} sweep` first", crate::run::program_name()),
        });
    }
    check_own_files(folder, sweeps.keys())?;
    // Every log is read before anything is written: a sweep whose logs give no run (emptied,
    // or every row refused) wrote a header-only summary and a blank README over good ones.
    let mut read = Vec::new();
    for (sweep, files) in &sweeps {
        let (sweep_records, mut sweep_notes) = read_sweep_runs(sweep, files)?;
        let (sweep_counts, count_notes) = read_counts(files)?;
        sweep_notes.extend(count_notes);
        read.push((sweep, files, sweep_records, sweep_counts, sweep_notes));
    }
    // A log without its completion mark: the sweep was stopped or killed, and its summary
    // holds part of its plan; said on stderr and in its section of the README.
    let program = crate::run::program_name();
    let unfinished: Vec<Unfinished> = read
        .iter()
        .filter_map(|(sweep, files, records, _, _)| Unfinished::of(folder, sweep, files, records, program))
        .collect();
    let any_runs = read.iter().any(|(_, _, records, _, _)| !records.is_empty());
    let mut left_out = Vec::new();
    for (sweep, files, records, _, sweep_notes) in &read {
        if records.is_empty() {
            left_out.push((sweep.as_str(), without_runs(folder, sweep, files, sweep_notes, any_runs)?));
        }
    }
    let mut rows = Vec::new();
    let mut records = Vec::new();
    let mut counts = Vec::new();
    let mut summaries = Vec::new();
    let mut reported = Vec::new();
    for (sweep, _, sweep_records, sweep_counts, sweep_notes) in read {
        notes.extend(sweep_notes);
        if sweep_records.is_empty() {
            notes.extend(left_out.iter().filter(|(name, _)| name == sweep).map(|(_, note)| note.clone()));
            continue;
        }
        let (path, sweep_rows) = write_summary_of(folder, sweep, sweep_records.clone())?;
        summaries.push(path);
        reported.push(sweep.clone());
        rows.extend(sweep_rows);
        records.extend(sweep_records);
        counts.extend(sweep_counts);
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
    let comparisons = match baseline.zip(old_records) {
        Some((path, old)) => vec![(code(&path.display().to_string()), compare(&old, &deduplicate(records)))],
        None => compare_with_previous_runs(folder, reported.iter(), &records, &mut notes)?,
    };
    let comparison_text: String =
        comparisons.iter().map(|(name, changes)| comparison_markdown(name, changes)).collect();
    let readme = folder.join("README.md");
    let mut context = ReadmeContext::of_folder(folder, program);
    for sweep in unfinished {
        notes.push(sweep.note());
        context.unfinished.insert(sweep.sweep.clone(), sweep.markdown());
    }
    // The README is the page a user may have linked elsewhere (a symlink is followed).
    write_named_file(&readme, markdown(&rows, &plots, &comparison_text, &context).as_bytes())?;
    let documents = generated_docs::update_documents(folder, &rows)?;
    Ok(ReportOutcome {
        readme,
        summaries,
        plots: plots.iter().map(|plot| plot_folder.join(&plot.file_name)).collect(),
        documents,
        compared: (!comparisons.is_empty()).then(|| {
            let changes = comparisons.iter().flat_map(|(_, changes)| changes);
            ComparisonCounts {
                compared: changes.clone().count(),
                flagged: changes.clone().filter(|change| change.flagged()).count(),
                regressions: changes.filter(|change| change.regression()).count(),
            }
        }),
        compared_with: comparisons.iter().map(|(name, _)| name.replace('`', "")).collect(),
        changes: comparisons.into_iter().flat_map(|(_, changes)| changes).collect(),
        comparison_text,
        notes,
    })
}

/// Refuses, before anything is written, a name among the files `report` writes (`README.md`,
/// each sweep's summary, the plots already in `plots/`) that is held by a folder, a FIFO or a
/// device, and a `plots` that is not a folder: found at the README, after the summaries and
/// plots were rewritten, it left the folder half regenerated.
fn check_own_files<'a>(folder: &Path, sweeps: impl Iterator<Item = &'a String>) -> Result<(), HarnessError> {
    check_named_folder(&folder.join("plots"))?;
    let mut names = vec![folder.join("README.md")];
    names.extend(sweeps.map(|sweep| summary_file(folder, sweep)));
    if let Ok(entries) = std::fs::read_dir(folder.join("plots")) {
        let plots = entries.flatten().map(|entry| entry.path());
        names.extend(plots.filter(|path| path.extension().is_some_and(|extension| extension == "svg")));
    }
    names.iter().try_for_each(|name| named_file_target(name).map(|_| ()))
}

/// A sweep whose run logs `files` gave no run to report: refused (nothing written) when
/// its summary holds rows, which a report would replace by a header alone, or when no other
/// sweep of the folder has runs (the README would be blank); otherwise left out of the
/// report, with the note returned. `notes` say why its rows were not read.
fn without_runs(
    folder: &Path,
    sweep: &str,
    files: &[PathBuf],
    notes: &[String],
    others_have_runs: bool,
) -> Result<String, HarnessError> {
    let summary = summary_file(folder, sweep);
    // The first note on a row, not the one on an older build's columns, which says nothing
    // of why no row was read.
    let older = |note: &&String| note.contains("written by an older build");
    let why = match notes.iter().find(|note| !older(note)).or(notes.first()) {
        None => "a header and no row".to_string(),
        Some(first) if notes.len() == 1 => first.clone(),
        Some(first) => format!("{first}; and {} more note(s)", notes.len() - 1),
    };
    let (path, what) = match files {
        [one] => (one.clone(), "holds no run to report".to_string()),
        _ => {
            let names: Vec<String> = files.iter().map(|file| file.display().to_string()).collect();
            let what = format!("the run logs of sweep `{sweep}` ({}) hold no run to report", names.join(", "));
            (folder.to_path_buf(), what)
        }
    };
    let summary_has_rows = holds_runs(&summary);
    if others_have_runs && !summary_has_rows {
        return Ok(format!("{}: {what} ({why}); sweep `{sweep}` is left out of the report", path.display()));
    }
    let summary = if summary_has_rows {
        format!("{} (the summary of its earlier runs), ", summary.display())
    } else {
        String::new()
    };
    Err(HarnessError::Csv {
        path,
        message: format!(
            "{what} ({why}); nothing was written: {summary}README.md and plots/ are as they were. Restore the \
             log's rows (from a copy, or `history/`), or move it away to report the folder without it"
        ),
    })
}

/// Each sweep of `sweeps` compared with its previous run (the newest history entry), when
/// it has one: (what it was compared with, the changes).
fn compare_with_previous_runs<'a>(
    folder: &Path,
    sweeps: impl Iterator<Item = &'a String>,
    records: &[RunRecord],
    notes: &mut Vec<String>,
) -> Result<Vec<(String, Vec<Change>)>, HarnessError> {
    let mut comparisons = Vec::new();
    for sweep in sweeps {
        let Some((entry, files)) = previous_run(folder, sweep)? else { continue };
        // A log kept from another build (another header) or edited since is history the
        // sweep set aside, not the runs reported: it costs the comparison, not the report.
        let (old, skipped) = match read_runs(&files) {
            Ok(read) => read,
            Err(error) => {
                notes.push(format!("not compared with the previous run of `{sweep}` (`{}`): {error}", entry.display()));
                continue;
            }
        };
        notes.extend(skipped);
        let old: Vec<RunRecord> = old.into_iter().filter(|record| record.sweep == *sweep).collect();
        let now: Vec<RunRecord> = records.iter().filter(|record| record.sweep == *sweep).cloned().collect();
        let name = format!("the previous run of `{sweep}` ({})", code(&entry.display().to_string()));
        comparisons.push((name, compare(&deduplicate(old), &deduplicate(now))));
    }
    Ok(comparisons)
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
    if files.is_empty() {
        // A mistyped folder would otherwise compare nothing and pass.
        return Err(HarnessError::Argument {
            flag: "--baseline",
            message: format!(
                "{}: the folder holds no run log (`<sweep>-runs.csv`); give an earlier run log or its results folder",
                path.display()
            ),
        });
    }
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
