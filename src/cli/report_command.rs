//! `report`: regenerate the summaries, plots and `README.md` of a results folder from its
//! CSV files, and optionally compare with an earlier run log.

use super::{Failure, ReportArgs};
use crate::harness::reporting::tables::regenerate;
use std::io::Write;

/// Runs `report`.
pub fn run(args: &ReportArgs) -> Result<(), Failure> {
    let outcome = regenerate(&args.out, args.baseline.as_deref()).map_err(|error| {
        if error.is_bad_input() {
            Failure::bad_input(error)
        } else {
            Failure::failed(error)
        }
    })?;
    for note in &outcome.notes {
        eprintln!("backtrack-bench: {note}");
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if !outcome.comparison_text.is_empty() {
        write!(out, "{}", outcome.comparison_text)?;
    }
    if !args.quiet {
        writeln!(
            out,
            "report: {} with {} summary file(s) and {} plot(s)",
            outcome.readme.display(),
            outcome.summaries.len(),
            outcome.plots.len()
        )?;
    }
    if !args.quiet {
        for document in &outcome.documents {
            writeln!(out, "report: updated the generated sections of {}", document.display())?;
        }
    }
    if let (Some(counts), true) = (outcome.compared, args.fail_on_change) {
        if counts.compared == 0 {
            return Err(Failure::failed(
                "--fail-on-change: no configuration was compared (the baseline holds no completed run of a configuration measured here), so nothing could be checked",
            ));
        }
        if counts.regressions > 0 {
            return Err(Failure::failed(format!(
                "{} configuration(s) regressed (slower beyond the noise, or other node counts)",
                counts.regressions
            )));
        }
    }
    Ok(())
}
