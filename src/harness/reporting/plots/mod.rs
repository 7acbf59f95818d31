//! SVG plots drawn from summary rows: speedup against threads (log2 axes, the ideal line),
//! nodes and time per knob setting, and nodes per depth; and one run's per-depth profile
//! (nodes and prunes per rule at each depth, for `solve --profile`).
//!
//! This module picks what each plot shows from the rows and names it (titles use the
//! instances' short names, as the README does); the drawing is in one module per kind
//! ([`speedup`], [`knobs`], [`depth`]) over a shared [`canvas`], [`legend`] and [`style`],
//! and [`check`] reads a written SVG back to verify that it is legible.
//!
//! Each plot is drawn into memory and written with a rename, like every derived file.

pub mod canvas;
pub mod check;
pub mod depth;
pub mod knobs;
pub mod legend;
pub mod scaling_check;
pub mod speedup;
pub mod style;

pub use depth::{draw_depth_profile, DepthLine};

use crate::harness::error::HarnessError;
use crate::harness::storing::counts::{nodes_per_depth, CountRow};
use crate::harness::storing::record::status;
use crate::harness::storing::summary::SummaryRow;
use crate::run::instance::BUILTIN_INSTANCES;
use knobs::KnobBar;
use speedup::{SpeedupPoint, SpeedupSeries};
use std::collections::BTreeMap;
use std::path::Path;

/// What a plot shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PlotKind {
    /// Speedup against threads, one line per strategy, with the ideal line.
    Speedup,
    /// Nodes and time per knob setting (sequential runs), one bar per variant in each.
    NodesPerKnob,
    /// Nodes per depth (sequential runs), one line per variant.
    NodesPerDepth,
}

/// A plot written to disk.
#[derive(Debug, Clone, PartialEq)]
pub struct PlotFile {
    /// The sweep.
    pub sweep: String,
    /// The instance source the plot is about.
    pub source: String,
    /// What it shows.
    pub kind: PlotKind,
    /// The file name inside the plots folder.
    pub file_name: String,
    /// Its title.
    pub title: String,
    /// The link the report's Markdown uses: `plots/FILE`, or an absolute address given
    /// to `report --image-base`.
    pub link: String,
}

/// Draws every plot the rows support into `folder`; returns what was written.
pub fn draw_plots(rows: &[SummaryRow], counts: &[CountRow], folder: &Path) -> Result<Vec<PlotFile>, HarnessError> {
    let names = SourceNames::of(rows);
    let mut plots = Vec::new();
    plots.extend(speedup_plots(rows, folder, &names)?);
    plots.extend(nodes_per_knob_plots(rows, folder, &names)?);
    plots.extend(nodes_per_depth_plots(rows, counts, folder, &names)?);
    for plot in &mut plots {
        plot.link = format!("plots/{}", plot.file_name);
    }
    Ok(plots)
}

/// The name the README gives an instance source: a built-in instance's short name
/// (`hooks7`, also for `instances/hooks_7.json`), else the file's stem
/// (`instances/prime_grid_enumeration.json` -> `prime_grid_enumeration`). The short names
/// are the ones the `solve` command takes, from [`BUILTIN_INSTANCES`].
pub fn instance_name(source: &str) -> String {
    let file = Path::new(source).file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    if let Some((short, _, _)) = BUILTIN_INSTANCES.iter().find(|(short, name, _)| *short == source || *name == file) {
        return short.to_string();
    }
    Path::new(source).file_stem().map_or_else(|| source.to_string(), |stem| stem.to_string_lossy().into_owned())
}

/// A file-name-safe short form of an instance source (`instances/hooks_7.json` -> `hooks_7`).
pub fn slug(text: &str) -> String {
    let stem = Path::new(text).file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default();
    text_slug(&stem)
}

/// Each instance source's part of its plots' file names: its [`slug`], unless another
/// source of the rows has the same (two folders' `p.json`, or one instance named by a short
/// name and by its path), when each of those also gets a hash of its source, so that no
/// plot overwrites another's file.
struct SourceNames(BTreeMap<String, String>);

impl SourceNames {
    fn of(rows: &[SummaryRow]) -> SourceNames {
        let mut by_slug: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        for row in rows {
            let sources = by_slug.entry(slug(&row.source)).or_default();
            if !sources.contains(&row.source.as_str()) {
                sources.push(&row.source);
            }
        }
        let mut names = BTreeMap::new();
        for (slug, sources) in by_slug {
            for source in &sources {
                let name = match sources.len() {
                    1 => slug.clone(),
                    _ => format!("{slug}-{}", &crate::fnv::fnv1a(source.as_bytes())[..8]),
                };
                names.insert(source.to_string(), name);
            }
        }
        SourceNames(names)
    }

    fn of_source(&self, source: &str) -> String {
        self.0.get(source).cloned().unwrap_or_else(|| slug(source))
    }
}

/// `text` with every character but ASCII letters, digits and `_` replaced by `-` (and
/// `instance` for no text): a file name that stays in its folder, whatever the text.
pub fn text_slug(stem: &str) -> String {
    let cleaned: String = stem
        .chars()
        .map(|character| if character.is_ascii_alphanumeric() || character == '_' { character } else { '-' })
        .collect();
    if cleaned.is_empty() {
        "instance".to_string()
    } else {
        cleaned
    }
}

fn speedup_plots(rows: &[SummaryRow], folder: &Path, names: &SourceNames) -> Result<Vec<PlotFile>, HarnessError> {
    let mut groups: BTreeMap<_, Vec<&SummaryRow>> = BTreeMap::new();
    for row in rows.iter().filter(|row| !row.is_sequential() && row.speedup.is_some()) {
        groups.entry(row.group_key()).or_default().push(row);
    }
    let mut plots = Vec::new();
    for members in groups.values() {
        let first = members[0];
        let several_layouts = members.iter().any(|row| row.counters != first.counters);
        let several_placements = members.iter().any(|row| row.affinity != first.affinity);
        let mut series: BTreeMap<String, Vec<SpeedupPoint>> = BTreeMap::new();
        for row in members {
            let mut knobs = Vec::new();
            if several_layouts {
                knobs.push(row.counters.as_str());
            }
            if several_placements {
                knobs.push(row.affinity.as_str());
            }
            let name = if knobs.is_empty() {
                row.strategy.clone()
            } else {
                format!("{} ({})", row.strategy, knobs.join(", "))
            };
            let speedup = row.speedup.unwrap_or(0.0);
            series.entry(name).or_default().push(SpeedupPoint {
                threads: row.threads as f64,
                speedup,
                low: row.speedup_low.unwrap_or(speedup),
                high: row.speedup_high.unwrap_or(speedup),
            });
        }
        let series: Vec<SpeedupSeries> = series
            .into_iter()
            .map(|(label, mut points)| {
                points.sort_by(|a, b| a.threads.total_cmp(&b.threads));
                SpeedupSeries { label, points }
            })
            .collect();
        let mut suffix =
            if first.variant == "defaults" { String::new() } else { format!("-{}", text_slug(&first.variant)) };
        suffix.push_str(&plot_suffix(&first.mode, &first.state));
        let file_name = format!("{}-speedup-{}{suffix}.svg", first.sweep, names.of_source(&first.source));
        let title =
            format!("{} ({}, {}): speedup against threads", instance_name(&first.source), first.variant, first.mode);
        let cores = first.available_parallelism;
        canvas::render(&folder.join(&file_name), speedup::SIZE, |area| speedup::draw(area, &title, &series, cores))?;
        plots.push(PlotFile {
            sweep: first.sweep.clone(),
            source: first.source.clone(),
            kind: PlotKind::Speedup,
            file_name,
            title,
            link: String::new(),
        });
    }
    Ok(plots)
}

/// The sequential rows of each (sweep, source, mode, state), in configuration order.
fn sequential_groups(rows: &[SummaryRow]) -> BTreeMap<(String, String, String, String), Vec<&SummaryRow>> {
    let mut groups: BTreeMap<_, Vec<&SummaryRow>> = BTreeMap::new();
    for row in rows.iter().filter(|row| row.is_sequential() && row.runs > 0 && row.status != status::ERROR) {
        groups
            .entry((row.sweep.clone(), row.source.clone(), row.mode.clone(), row.state.clone()))
            .or_default()
            .push(row);
    }
    groups
}

/// The colour styles of a group's variants, from the whole group in configuration order,
/// so that the knob chart and the per-depth plot of one group colour a variant alike.
fn group_styles(members: &[&SummaryRow]) -> Vec<style::VariantStyle> {
    let variants: Vec<&str> = members.iter().map(|row| row.variant.as_str()).collect();
    style::variant_styles(&variants)
}

fn nodes_per_knob_plots(
    rows: &[SummaryRow],
    folder: &Path,
    names: &SourceNames,
) -> Result<Vec<PlotFile>, HarnessError> {
    let mut plots = Vec::new();
    for ((sweep, source, mode, state), members) in sequential_groups(rows) {
        if members.len() < 2 {
            continue;
        }
        let bars: Vec<KnobBar> = members
            .iter()
            .zip(group_styles(&members))
            .map(|(row, style)| {
                let note = if row.status == status::LIMIT { " (node limit)" } else { "" };
                KnobBar {
                    label: format!("{}{note}", row.variant),
                    nodes: row.nodes,
                    wall_ns: (row.wall_ns_median_low, row.wall_ns_median, row.wall_ns_median_high),
                    style,
                }
            })
            .collect();
        let extra = plot_suffix(&mode, &state);
        let file_name = format!("{sweep}-nodes-per-knob-{}{extra}.svg", names.of_source(&source));
        let title = format!("{}: nodes and time per knob setting (sequential, {mode})", instance_name(&source));
        knobs::draw_nodes_per_knob(&folder.join(&file_name), &title, &knobs::grouped(bars))?;
        plots.push(PlotFile { sweep, source, kind: PlotKind::NodesPerKnob, file_name, title, link: String::new() });
    }
    Ok(plots)
}

fn nodes_per_depth_plots(
    rows: &[SummaryRow],
    counts: &[CountRow],
    folder: &Path,
    names: &SourceNames,
) -> Result<Vec<PlotFile>, HarnessError> {
    let mut plots = Vec::new();
    for ((sweep, source, mode, state), members) in sequential_groups(rows) {
        let lines: Vec<(DepthLine, style::VariantStyle)> = members
            .iter()
            .zip(group_styles(&members))
            .map(|(row, style)| {
                (DepthLine { name: row.variant.clone(), counts: nodes_per_depth(counts, &row.config_id) }, style)
            })
            .filter(|(line, _)| line.counts.iter().any(|&count| count > 0))
            .collect();
        if lines.is_empty() {
            continue;
        }
        let extra = plot_suffix(&mode, &state);
        let file_name = format!("{sweep}-nodes-per-depth-{}{extra}.svg", names.of_source(&source));
        let title = format!("{}: nodes per depth (sequential, {mode})", instance_name(&source));
        depth::draw_nodes_per_depth(&folder.join(&file_name), &title, &lines)?;
        plots.push(PlotFile { sweep, source, kind: PlotKind::NodesPerDepth, file_name, title, link: String::new() });
    }
    Ok(plots)
}

/// File-name suffix for the non-default mode and state (`-first`, `-clone`).
fn plot_suffix(mode: &str, state: &str) -> String {
    let mut suffix = String::new();
    if mode != "all" {
        suffix.push_str(&format!("-{mode}"));
    }
    if state != "undo" {
        suffix.push_str(&format!("-{state}"));
    }
    suffix
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(variant: &str, strategy: &str, threads: usize, speedup: Option<f64>, nodes: u64) -> SummaryRow {
        SummaryRow {
            sweep: "t".into(),
            source: "instances/hooks_7.json".into(),
            instance: "hooks".into(),
            variant: variant.into(),
            knobs: variant.into(),
            mode: "all".into(),
            state: "undo".into(),
            strategy: strategy.into(),
            threads,
            status: status::OK.into(),
            runs: 1,
            nodes,
            config_id: format!("{variant}-{strategy}-{threads}"),
            speedup,
            available_parallelism: 2,
            ..SummaryRow::default()
        }
    }

    #[test]
    fn every_plot_kind_is_drawn_as_svg() {
        let folder = tempfile::tempdir().unwrap();
        let rows = [
            row("defaults", "sequential", 1, Some(1.0), 17),
            row("defaults", "auto", 2, Some(1.8), 17),
            row("defaults", "auto", 4, Some(1.7), 18),
            row("order=listed", "sequential", 1, Some(1.0), 170),
        ];
        let depth = |config_id: &str, depth: u32, count: u64| CountRow {
            config_id: config_id.into(),
            measure: crate::harness::storing::counts::measure::NODES_AT_DEPTH.into(),
            depth: Some(depth),
            count,
            ..CountRow::default()
        };
        let counts = [depth("defaults-sequential-1", 0, 1), depth("defaults-sequential-1", 1, 4)];
        let plots = draw_plots(&rows, &counts, folder.path()).unwrap();
        let kinds: Vec<PlotKind> = plots.iter().map(|plot| plot.kind).collect();
        assert_eq!(kinds, [PlotKind::Speedup, PlotKind::NodesPerKnob, PlotKind::NodesPerDepth]);
        assert_eq!(plots[0].file_name, "t-speedup-hooks_7.svg");
        for plot in &plots {
            let svg = std::fs::read_to_string(folder.path().join(&plot.file_name)).unwrap();
            assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{}", plot.file_name);
        }
    }

    #[test]
    fn two_sources_with_one_file_stem_get_plots_of_their_own() {
        let folder = tempfile::tempdir().unwrap();
        let mut rows = Vec::new();
        for source in ["x/p.json", "y/p.json"] {
            for (strategy, threads, speedup) in [("sequential", 1, 1.0), ("auto", 2, 1.5)] {
                let mut row = row("defaults", strategy, threads, Some(speedup), 10);
                (row.source, row.config_id) = (source.into(), format!("{source}-{strategy}"));
                rows.push(row);
            }
        }
        let plots = draw_plots(&rows, &[], folder.path()).unwrap();
        let names: Vec<&str> = plots.iter().map(|plot| plot.file_name.as_str()).collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert_ne!(names[0], names[1]);
        for (plot, source) in plots.iter().zip(["x/p.json", "y/p.json"]) {
            assert_eq!(plot.source, source);
            let expected = format!("t-speedup-p-{}.svg", &crate::fnv::fnv1a(source.as_bytes())[..8]);
            assert_eq!(plot.file_name, expected);
            assert!(folder.path().join(&plot.file_name).is_file());
        }
    }

    #[test]
    fn a_speedup_far_below_one_is_drawn_where_it_is() {
        // A parallel branch and bound thousands of times slower than the sequential search:
        // the axis reaches its median (it was held at 1/80, and every such line lay there).
        let folder = tempfile::tempdir().unwrap();
        let rows = [row("defaults", "sequential", 1, Some(1.0), 10), row("defaults", "depth:4", 2, Some(0.0003), 10)];
        let plots = draw_plots(&rows, &[], folder.path()).unwrap();
        let svg = std::fs::read_to_string(folder.path().join(&plots[0].file_name)).unwrap();
        assert!(svg.contains("\n1/2048\n") && svg.contains("\n1/4096\n"), "the axis stops short of 0.0003");
    }

    #[test]
    fn slugs_are_file_names() {
        assert_eq!(slug("instances/hooks_7.json"), "hooks_7");
        assert_eq!(slug("prime-grid"), "prime-grid");
        assert_eq!(slug("a b/c d.json"), "c-d");
    }
}
