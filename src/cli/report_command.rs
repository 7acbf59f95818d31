//! `report`: regenerate the summaries, plots and `README.md` of a results folder from its
//! CSV files, and optionally compare with an older summary.

use super::{Failure, ReportArgs};
use crate::harness::reporting::tables::regenerate;
use std::io::Write;

/// Runs `report`.
pub fn run(args: &ReportArgs) -> Result<(), Failure> {
    if let Some(baseline) = &args.baseline {
        if !baseline.is_file() {
            return Err(Failure::bad_input(format!(
                "--baseline {}: no such file; give an earlier *-summary.csv",
                baseline.display()
            )));
        }
    }
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
    if let (Some(counts), true) = (outcome.compared, args.fail_on_change) {
        if let Some(message) = nothing_compared(counts.compared, args.baseline.as_deref()) {
            return Err(Failure::failed(message));
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

/// Why a `--fail-on-change` gate must fail although nothing regressed: no configuration was
/// completed in both the baseline and the current summaries, so nothing was checked (an
/// empty or header-only baseline, rows that did not parse, or no configuration in common).
pub fn nothing_compared(compared: usize, baseline: Option<&std::path::Path>) -> Option<String> {
    let name = baseline.map(|path| path.display().to_string()).unwrap_or_default();
    (compared == 0).then(|| {
        format!(
            "--fail-on-change: nothing was compared with {name}: no configuration completed in both it and this \
             folder (is the baseline empty, unreadable, or of another sweep?); a gate that checks nothing fails"
        )
    })
}
