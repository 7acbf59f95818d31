//! `report`: regenerate the summaries, plots and `README.md` of a results folder from its
//! CSV files, and compare: with `--baseline`, or else each sweep with its previous run.

use super::args::ReportArgs;
use super::failure::Failure;
use crate::harness::reporting::{regenerate, ReportOutcome};
use crate::stderr_line::note;
use serde_json::json;
use std::io::Write;

/// Runs `report`.
pub fn run(args: &ReportArgs) -> Result<(), Failure> {
    // A results folder that is not there is the user's to name again (exit 2), not a failure.
    if !args.out.is_dir() {
        let what = if args.out.exists() { "is not a folder" } else { "does not exist" };
        return Err(Failure::bad_input(format!(
            "--out {}: {what}; name the results folder of a sweep (default results)",
            args.out.display()
        )));
    }
    if let Some(base) = &args.image_base {
        check_image_base(base)?;
    }
    for note in crate::harness::sweeping::runner::removed_temporaries(&args.out) {
        note!("{}: {note}", crate::run::program_name());
    }
    let outcome = regenerate(&args.out, args.baseline.as_deref(), args.image_base.as_deref()).map_err(|error| {
        if error.is_bad_input() {
            Failure::bad_input(error)
        } else {
            Failure::failed(error)
        }
    })?;
    // --quiet: nothing but errors and the comparison; the notes (rows skipped, older files)
    // are one line that says how to see them.
    if args.quiet && !outcome.notes.is_empty() {
        note!(
            "{}: {} notes on the files read (rows skipped, older files); run without --quiet to see them",
            crate::run::program_name(),
            outcome.notes.len()
        );
    } else {
        for note in &outcome.notes {
            note!("{}: {note}", crate::run::program_name());
        }
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        writeln!(out, "{}", outcome_json(&outcome))?;
    } else if !outcome.comparison_text.is_empty() {
        write!(out, "{}", outcome.comparison_text)?;
    }
    if !args.quiet && !args.json {
        writeln!(
            out,
            "report: {} with {} summary file(s) and {} plot(s)",
            outcome.readme.display(),
            outcome.summaries.len(),
            outcome.plots.len()
        )?;
    }
    if !args.quiet && !args.json {
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
                "{} configuration(s) regressed (slower beyond the noise, other node counts or another best value)",
                counts.regressions
            )));
        }
    }
    Ok(())
}

/// Refuses an `--image-base` that would not make a working Markdown image link: the links
/// are `BASE/plots/FILE` inside `![..](..)`, so an empty base, a relative one, or one with
/// a space, a bracket, a parenthesis or a control character wrote links that show no image.
fn check_image_base(base: &str) -> Result<(), Failure> {
    let breaks_a_link =
        |character: char| character.is_whitespace() || character.is_control() || "()[]<>\"".contains(character);
    let scheme = base.split_once("://").map(|(scheme, _)| scheme).unwrap_or_default();
    let scheme_characters = |character: char| character.is_ascii_alphanumeric() || "+-.".contains(character);
    let with_scheme =
        scheme.starts_with(|character: char| character.is_ascii_alphabetic()) && scheme.chars().all(scheme_characters);
    // A path from the site's root (`/owner/repo/raw/main/results`) works on a forge's pages.
    let from_root = base.starts_with('/') && !base.starts_with("//");
    let is_address = with_scheme || from_root;
    if !is_address || base.chars().any(breaks_a_link) {
        return Err(Failure::bad_input(format!(
            "--image-base {:?}: expected an absolute address (or a path from the site's root) with no space, \
             bracket or parenthesis in it, such as https://example.org/raw/main/results",
            base
        )));
    }
    Ok(())
}

/// What `report` wrote and every configuration compared (with the baseline or the previous runs).
fn outcome_json(outcome: &ReportOutcome) -> serde_json::Value {
    let changes: Vec<serde_json::Value> = outcome
        .changes
        .iter()
        .map(|change| {
            let run = &change.current;
            json!({
                "sweep": run.sweep,
                "config_id": run.config_id,
                "source": run.source,
                "variant": run.variant,
                "strategy": run.strategy,
                "threads": run.threads,
                "baseline_ns": change.baseline_ns,
                "current_ns": change.current_ns,
                "ratio": change.time.ratio,
                "verdict": match change.time_verdict() {
                    Some(verdict) => json!(verdict),
                    None => json!(change.verdict_text().replace(' ', "-")),
                },
                "machine": change.machine,
                "runs": [change.runs.0, change.runs.1],
                "baseline_nodes": change.baseline_nodes,
                "current_nodes": change.current_nodes,
                "nodes_changed": change.nodes_changed(),
                "best_changed": change.best_changed(),
                "regression": change.regression(),
            })
        })
        .collect();
    json!({
        "readme": outcome.readme,
        "summaries": outcome.summaries,
        "plots": outcome.plots,
        "documents": outcome.documents,
        "comparison": outcome.compared.map(|counts| json!({
            "against": outcome.compared_with,
            "compared": counts.compared,
            "flagged": counts.flagged,
            "regressions": counts.regressions,
            "changes": changes,
        })),
        "notes": outcome.notes,
    })
}
