//! `solve --profile FILE`: the run's per-depth profile as a CSV file and an SVG plot.
//!
//! The CSV has one row per (component, depth): the nodes entered at that depth and the
//! prunes of each rule there, so its columns add up to the run's nodes and per-rule
//! prunes. The plot beside it (same name, `.svg`) shows the run's totals over components.
//!
//! FILE is written as the user's outputs are (see [`crate::harness::storing::output_target`]): a regular file is
//! replaced whole, a FIFO, a character device, `-` or `/dev/stdout` is streamed into and
//! gets the CSV only (a device or standard output has no folder to put a plot beside it),
//! and a symlink is followed.

use super::failure::Failure;
use super::output_checks::refuse_streamed_plot;
use crate::files::atomic_write::folder_of;
use crate::harness::reporting::plots::{draw_depth_profile, instance_name, DepthLine};
use crate::harness::storing::output_target::{write_output, OutputTarget};
use crate::run::{ComponentReport, RunReport};
use std::path::{Path, PathBuf};

/// The plot's path: `csv_path` with the extension `.svg`.
pub fn plot_path(csv_path: &Path) -> PathBuf {
    csv_path.with_extension("svg")
}

/// Checks `--profile FILE` and the plot's name beside it before the run, so that a bad name
/// neither wastes a search nor leaves a new CSV beside an old plot.
pub fn check_path(csv_path: &Path) -> Result<(), Failure> {
    // A path with no file name (`.`, `..`, `/`) keeps its name under `with_extension`: it
    // is a folder, which `OutputTarget::of` names as such.
    if csv_path.file_name().is_some() && plot_path(csv_path) == csv_path {
        return Err(Failure::bad_input(format!(
            "--profile {}: the plot is written to FILE with the extension .svg, so FILE must not end in .svg; \
             name the CSV file, e.g. profile.csv",
            csv_path.display()
        )));
    }
    let target = OutputTarget::of(csv_path).map_err(|error| Failure::bad_input(format!("--profile {error}")))?;
    let OutputTarget::Replace(resolved) = target else { return Ok(()) };
    // The folder of the file a symlink leads to: a dangling link's folder may be missing.
    let folder = folder_of(&resolved);
    if !folder.is_dir() {
        return Err(Failure::bad_input(format!(
            "--profile {}: the folder {} does not exist; create it first or name a file in an existing folder",
            csv_path.display(),
            folder.display()
        )));
    }
    // The plot's name too, before the search: a folder there was found only after the run,
    // when the CSV had been replaced and the plot beside it could not be.
    let plot = plot_path(csv_path);
    let named = format!("--profile {}", csv_path.display());
    refuse_streamed_plot(&named, &plot)?;
    let refused = |what: String| Failure::bad_input(format!("{named}: its plot {what}"));
    match OutputTarget::of(&plot).map_err(|error| refused(error.to_string()))? {
        OutputTarget::Replace(resolved) if !folder_of(&resolved).is_dir() => Err(refused(format!(
            "{} leads to {}, in a folder that does not exist; remove the link or create the folder",
            plot.display(),
            resolved.display()
        ))),
        _ => Ok(()),
    }
}

/// Refuses `--solutions` naming the regular file of the profile's CSV or of its plot (after
/// symlinks): each replaces the file whole, so all but the last would be lost. Refuses both
/// going to standard output (`-`, `/dev/stdout`, or the file it writes): the solution lines,
/// the CSV and the text report came out mixed, none of them readable by a program. Another
/// stream (`/dev/null`, a FIFO) may take both.
pub fn check_apart(csv_path: &Path, solutions: &Path) -> Result<(), Failure> {
    let to_stdout = |path: &Path| matches!(OutputTarget::of(path), Ok(OutputTarget::Stdout));
    if to_stdout(solutions) && to_stdout(csv_path) {
        return Err(Failure::bad_input(format!(
            "--solutions {} and --profile {} both go to standard output, where their lines would mix with each \
             other and the report; name a file for one of them",
            solutions.display(),
            csv_path.display()
        )));
    }
    // The file's name in its folder's canonical path: `../d/x.csv`, `./x.csv` and a path
    // through a linked folder name one file (`absolute` keeps `..` and links, so two
    // spellings of one file passed as two and the later write replaced the other).
    let resolved = |path: &Path| match OutputTarget::of(path) {
        Ok(OutputTarget::Replace(path)) => Some(std::fs::canonicalize(folder_of(&path)).ok()?.join(path.file_name()?)),
        _ => None,
    };
    let written = resolved(solutions);
    for profile_file in [csv_path.to_path_buf(), plot_path(csv_path)] {
        if written.is_some() && resolved(&profile_file) == written {
            return Err(Failure::bad_input(format!(
                "--solutions {} is also where --profile writes ({}): name two files",
                solutions.display(),
                profile_file.display()
            )));
        }
    }
    Ok(())
}

/// Writes the CSV at `csv_path` and, when it is a regular file, the plot beside it, each
/// atomically.
pub fn write_profile(csv_path: &Path, report: &RunReport) -> Result<(), Failure> {
    if report.nodes_per_depth.is_empty() {
        return Err(Failure::bad_input("--profile needs the per-depth counters: drop --no-rule-counts"));
    }
    let rule_names: Vec<&str> = report.rules.iter().map(|rule| rule.name.as_str()).collect();
    let failed = |error: crate::harness::error::HarnessError| Failure::failed(format!("--profile {error}"));
    write_output(csv_path, profile_csv(&report.components, &rule_names).as_bytes()).map_err(failed)?;
    let target = OutputTarget::of(csv_path).map_err(failed)?;
    let OutputTarget::Replace(_) = target else { return Ok(()) };
    let prunes: Vec<DepthLine> = rule_names
        .iter()
        .enumerate()
        .map(|(rule, name)| DepthLine {
            name: format!("prunes by {name}"),
            counts: report.prunes_per_depth.iter().map(|row| row.get(rule).copied().unwrap_or(0)).collect(),
        })
        .collect();
    let instance = instance_name(&report.source);
    let title = format!("{instance}: nodes and prunes per depth ({}, {})", report.strategy, mode_text(report));
    draw_depth_profile(&plot_path(csv_path), &title, &report.nodes_per_depth, &prunes)
        .map_err(|error| Failure::failed(format!("--profile {}: its plot: {error}", csv_path.display())))
}

/// What the run searched for, short enough for a plot's title.
fn mode_text(report: &RunReport) -> &'static str {
    match (report.mode, report.optimises()) {
        (crate::run::SearchMode::All, true) => "every optimal solution, by branch and bound",
        _ => report.search_words(),
    }
}

/// The CSV text: header `component,depth,nodes,prunes_RULE...`, then one row per depth of
/// each component, up to its deepest depth with a node or a prune.
fn profile_csv(components: &[ComponentReport], rule_names: &[&str]) -> String {
    let mut text = String::from("component,depth,nodes");
    for name in rule_names {
        text.push_str(&format!(",prunes_{name}"));
    }
    text.push('\n');
    for component in components {
        let prunes_at = |depth: usize, rule: usize| -> u64 {
            component.prunes_per_depth.get(depth).and_then(|row| row.get(rule)).copied().unwrap_or(0)
        };
        let depths = component.nodes_per_depth.len().max(component.prunes_per_depth.len());
        let deepest = (0..depths).rev().find(|&depth| {
            component.nodes_per_depth.get(depth).copied().unwrap_or(0) > 0
                || (0..rule_names.len()).any(|rule| prunes_at(depth, rule) > 0)
        });
        for depth in 0..deepest.map_or(0, |deepest| deepest + 1) {
            text.push_str(&format!(
                "{},{depth},{}",
                csv_field(&component.name),
                component.nodes_per_depth.get(depth).copied().unwrap_or(0)
            ));
            for rule in 0..rule_names.len() {
                text.push_str(&format!(",{}", prunes_at(depth, rule)));
            }
            text.push('\n');
        }
    }
    text
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}
