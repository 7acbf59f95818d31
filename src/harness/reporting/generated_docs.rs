//! The measured figures of `README.md` and `docs/*.md`, written by `report` into marked
//! sections so that regenerating the results regenerates them.
//!
//! A document opts in with a pair of markers around a section:
//!
//! ```text
//! <!-- BEGIN GENERATED seed-comparison: written by `backtrack-bench report`, do not edit -->
//! ...
//! <!-- END GENERATED seed-comparison -->
//! ```
//!
//! `report` on a results folder rewrites the sections of the documents beside it (the
//! folder's parent's `README.md` and `docs/*.md`) from the folder's summaries; a test
//! renders them again from the committed run logs and fails when a document is stale.
//! Each section is a function of summary rows alone: [`render_section`].

use crate::files::bounded_read::{read_bounded, ReadKind};
use crate::format::{count, duration_interval, factor_interval, markdown_code_cell, ratio_in_words, TimeUnit};
use crate::harness::error::HarnessError;
use crate::harness::storing::output_target::write_named_file;
use crate::harness::storing::record::status;
use crate::harness::storing::summary::SummaryRow;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The sections `report` knows how to write.
pub const SECTION_NAMES: [&str; 2] = ["seed-comparison", "scaling"];

/// The built-in seed instances, in the order of the README's table, with the seed
/// program's method as the sweep's baseline configuration.
const SEED_INSTANCES: [&str; 4] = ["247", "hooks7", "prime-grid", "rings"];

const BEGIN: &str = "<!-- BEGIN GENERATED ";
const END: &str = "<!-- END GENERATED ";

/// The text of section `name` from the summary rows of a results folder (`None`: not a
/// section `report` writes).
pub fn render_section(name: &str, rows: &[SummaryRow]) -> Option<String> {
    match name {
        "seed-comparison" => Some(seed_comparison(rows)),
        "scaling" => Some(scaling(rows)),
        _ => None,
    }
}

/// Whether a rendered section's table has a row past its header and rule lines.
fn has_rows(table: &str) -> bool {
    table.lines().count() > 2
}

/// One generated section found in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Its name (after `BEGIN GENERATED`).
    pub name: String,
    /// The text between the markers' lines.
    pub body: String,
}

/// The generated sections of `text`, in order.
pub fn sections(text: &str) -> Vec<Section> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(BEGIN) {
        let after = &rest[start + BEGIN.len()..];
        let name: String = after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
        let Some(line_end) = after.find('\n') else { break };
        let body_start = &after[line_end + 1..];
        let end_marker = format!("{END}{name} -->");
        let Some(end) = body_start.find(&end_marker) else { break };
        found.push(Section { name, body: body_start[..end].to_string() });
        rest = &body_start[end + end_marker.len()..];
    }
    found
}

/// `text` with every known section's body replaced from `rows`.
pub fn rewrite(text: &str, rows: &[SummaryRow]) -> String {
    let mut output = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(BEGIN) {
        let after = &rest[start + BEGIN.len()..];
        let name: String = after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
        let end_marker = format!("{END}{name} -->");
        // A section whose figures the folder does not hold is left as it stands: a results
        // folder of the user's own sweeps beside the README would otherwise empty its tables.
        let rendered = render_section(&name, rows).filter(|table| has_rows(table));
        let (Some(line_end), Some(rendered)) = (after.find('\n'), rendered) else {
            output.push_str(&rest[..start + BEGIN.len()]);
            rest = after;
            continue;
        };
        let Some(end) = after[line_end + 1..].find(&end_marker) else {
            output.push_str(&rest[..start + BEGIN.len()]);
            rest = after;
            continue;
        };
        output.push_str(&rest[..start + BEGIN.len() + line_end + 1]);
        output.push_str(&rendered);
        rest = &after[line_end + 1 + end..];
    }
    output.push_str(rest);
    output
}

/// Rewrites the generated sections of the documents beside `results_folder`; returns the
/// documents changed.
pub fn update_documents(results_folder: &Path, rows: &[SummaryRow]) -> Result<Vec<PathBuf>, HarnessError> {
    let root = match results_folder.canonicalize().ok().and_then(|folder| folder.parent().map(Path::to_path_buf)) {
        Some(root) => root,
        None => return Ok(Vec::new()),
    };
    let mut changed = Vec::new();
    for document in documents(&root) {
        // A document that is missing, not a regular file (a FIFO would block the read), too
        // large or not UTF-8 is not one of ours to rewrite.
        let Ok(bytes) = read_bounded(&document, ReadKind::Document) else { continue };
        let Ok(text) = String::from_utf8(bytes) else { continue };
        if !text.contains(BEGIN) {
            continue;
        }
        let rewritten = rewrite(&text, rows);
        if rewritten != text {
            // A document linked from elsewhere keeps its link: the file it points to changes.
            write_named_file(&document, rewritten.as_bytes())?;
            changed.push(document);
        }
    }
    Ok(changed)
}

/// `README.md` and `docs/*.md` under `root`.
pub fn documents(root: &Path) -> Vec<PathBuf> {
    let mut found = vec![root.join("README.md")];
    if let Ok(entries) = std::fs::read_dir(root.join("docs")) {
        let mut docs: Vec<PathBuf> = entries
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
            .collect();
        docs.sort();
        found.extend(docs);
    }
    found
}

/// The sequential defaults against the seed program's method (the sweep's baseline) on
/// each seed instance, from the `quick` sweep.
fn seed_comparison(rows: &[SummaryRow]) -> String {
    let mut text = String::new();
    text.push_str(
        "| instance | default knobs: nodes | median time [95% CI] | the seed's method: nodes | median time [95% CI] | nodes | time |\n\
         |---|---:|---:|---:|---:|---:|---:|\n",
    );
    for source in SEED_INSTANCES {
        let sequential = |variant: &str| {
            rows.iter().find(|row| {
                row.sweep == "quick"
                    && row.source == source
                    && row.variant == variant
                    && row.is_sequential()
                    && row.mode == "all"
                    && row.runs > 0
            })
        };
        let (Some(defaults), Some(baseline)) = (sequential("defaults"), sequential("baseline")) else { continue };
        let time = |row: &SummaryRow| {
            let interval = row.wall_interval();
            let text = duration_interval(&interval, TimeUnit::for_value(interval.estimate));
            if row.status == status::LIMIT {
                format!("≥ {text} (stopped)")
            } else {
                text
            }
        };
        let nodes = |row: &SummaryRow| {
            if row.status == status::LIMIT {
                format!("≥ {}", count(row.nodes))
            } else {
                count(row.nodes)
            }
        };
        let bound = if baseline.status == status::LIMIT { "≥ " } else { "" };
        let node_ratio = baseline.nodes as f64 / defaults.nodes.max(1) as f64;
        let time_ratio = baseline.wall_ns_median as f64 / defaults.wall_ns_median.max(1) as f64;
        let _ = writeln!(
            text,
            "| `{source}` | {} | {} | {} | {} | {bound}{} | {bound}{} |",
            nodes(defaults),
            time(defaults),
            nodes(baseline),
            time(baseline),
            ratio_in_words(1.0 / node_ratio, "fewer nodes", "more nodes"),
            ratio_in_words(time_ratio, "slower", "faster"),
        );
    }
    text
}

/// Speedup of each parallel configuration on the enumeration workloads, with intervals,
/// from the `enumeration` sweep when the folder has one, else from every sweep.
fn scaling(rows: &[SummaryRow]) -> String {
    let mut text = String::new();
    text.push_str(
        "| workload | nodes | strategy | threads | median time [95% CI] | speedup [95% CI] | sweep |\n\
         |---|---:|---|---:|---:|---:|---|\n",
    );
    for row in scaling_rows(rows) {
        let interval = row.wall_interval();
        let speedup = match row.speedup_interval() {
            Some(speedup) if !row.is_sequential() => factor_interval(&speedup),
            _ => String::new(),
        };
        let workload = row.source.rsplit('/').next().unwrap_or(&row.source).trim_end_matches(".json");
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {speedup} | `{}` |",
            markdown_code_cell(workload),
            count(row.nodes),
            row.strategy,
            row.threads,
            duration_interval(&interval, TimeUnit::Seconds),
            row.sweep
        );
    }
    text
}

/// The rows of the scaling section: the enumeration workloads' defaults.
fn scaling_rows(rows: &[SummaryRow]) -> Vec<&SummaryRow> {
    let has_scaling_sweep = rows.iter().any(|row| row.sweep == "enumeration");
    rows.iter()
        .filter(|row| row.runs > 0 && row.status == status::OK && row.mode == "all" && row.variant == "defaults")
        .filter(|row| !has_scaling_sweep || row.sweep == "enumeration")
        .filter(|row| row.source.contains("enumeration"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(source: &str, variant: &str, strategy: &str, threads: usize, nodes: u64, wall_ns: u64) -> SummaryRow {
        SummaryRow {
            sweep: "quick".into(),
            source: source.into(),
            variant: variant.into(),
            strategy: strategy.into(),
            threads,
            mode: "all".into(),
            status: status::OK.into(),
            runs: 5,
            nodes,
            wall_ns_median: wall_ns,
            wall_ns_median_low: wall_ns - 10,
            wall_ns_median_high: wall_ns + 10,
            ..SummaryRow::default()
        }
    }

    #[test]
    fn sections_are_found_and_rewritten_between_their_markers() {
        let rows = vec![
            row("247", "defaults", "sequential", 1, 6_081, 1_000_000),
            row("247", "baseline", "sequential", 1, 60_810, 9_000_000),
        ];
        let document = "intro\n<!-- BEGIN GENERATED seed-comparison: written by report -->\nstale\n<!-- END GENERATED seed-comparison -->\nafter\n";
        let rewritten = rewrite(document, &rows);
        assert!(rewritten.starts_with("intro\n<!-- BEGIN GENERATED seed-comparison: written by report -->\n| instance"));
        assert!(rewritten.ends_with("<!-- END GENERATED seed-comparison -->\nafter\n"));
        assert!(rewritten.contains("| `247` | 6,081 | 1.000 ms [1.000, 1.000] | 60,810 |"), "{rewritten}");
        assert!(rewritten.contains("10.0x fewer nodes | 9.00x faster |"), "{rewritten}");
        let found = sections(&rewritten);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].body, render_section("seed-comparison", &rows).unwrap());
        assert_eq!(rewrite(&rewritten, &rows), rewritten, "rewriting is idempotent");
    }

    #[test]
    fn a_section_whose_figures_the_rows_lack_is_left_alone() {
        let document = "<!-- BEGIN GENERATED seed-comparison: x -->\nkept\n<!-- END GENERATED seed-comparison -->\n\
                        <!-- BEGIN GENERATED scaling: x -->\nkept too\n<!-- END GENERATED scaling -->\n";
        let mut own = row("rings", "defaults", "sequential", 1, 16, 1_000);
        own.sweep = "mine".into();
        assert_eq!(rewrite(document, &[own.clone()]), document);
        // The same rows under the sweeps the sections are drawn from are written.
        let mut quick = own.clone();
        quick.sweep = "quick".into();
        // The defaults alone make no row of the seed comparison.
        assert_eq!(rewrite(document, &[quick.clone()]), document);
        let mut baseline = quick.clone();
        baseline.variant = "baseline".into();
        let mut workload = own;
        workload.source = "instances/hooks_enumeration.json".into();
        let rewritten = rewrite(document, &[quick, baseline, workload]);
        assert!(!rewritten.contains("kept"), "{rewritten}");
        assert!(rewritten.contains("| `hooks_enumeration` | 16 | sequential | 1 |"), "{rewritten}");
    }

    #[test]
    fn unknown_sections_are_left_alone() {
        let document = "<!-- BEGIN GENERATED other: x -->\nkeep\n<!-- END GENERATED other -->\n";
        assert_eq!(rewrite(document, &[]), document);
    }
}
