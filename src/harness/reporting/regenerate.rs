//! `report`: regenerates `<sweep>-summary.csv`, the plots and `README.md` of a results
//! folder from its run logs alone, without running anything; with `--baseline`, reads the
//! earlier runs first and compares. The README's text is [`super::tables`]'s.

use super::compare::{compare, Change};
use super::comparison_table::comparison_markdown;
use super::generated_docs;
use super::plots::{draw_plots, PlotFile};
use super::tables::markdown;
use crate::harness::error::HarnessError;
use crate::harness::storing::csv_log::write_atomically;
use crate::harness::storing::record::RunRecord;
use crate::harness::storing::results_folder::{find_runs_files, read_counts, read_runs, write_summary_of};
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
