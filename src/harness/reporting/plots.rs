//! SVG plots drawn from summary rows: speedup against threads (with the ideal line), nodes
//! per knob setting, and nodes per depth; and one run's per-depth profile (nodes and
//! prunes per rule at each depth, for `solve --profile`).
//!
//! Each plot is drawn into memory and written with a rename, like every derived file.

use crate::harness::error::HarnessError;
use crate::harness::storing::counts::{nodes_per_depth, CountRow};
use crate::harness::storing::csv_log::write_atomically;
use crate::harness::storing::record::status;
use crate::harness::storing::summary::SummaryRow;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// What a plot shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PlotKind {
    /// Speedup against threads, one line per strategy, with the ideal line.
    Speedup,
    /// Nodes per knob setting (sequential runs), one bar per variant.
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

const SIZE: (u32, u32) = (900, 500);

/// Draws every plot the rows support into `folder`; returns what was written.
pub fn draw_plots(rows: &[SummaryRow], counts: &[CountRow], folder: &Path) -> Result<Vec<PlotFile>, HarnessError> {
    let mut plots = Vec::new();
    plots.extend(speedup_plots(rows, folder)?);
    plots.extend(nodes_per_knob_plots(rows, folder)?);
    plots.extend(nodes_per_depth_plots(rows, counts, folder)?);
    for plot in &mut plots {
        plot.link = format!("plots/{}", plot.file_name);
    }
    Ok(plots)
}

/// A file-name-safe short form of an instance source (`instances/hooks_7.json` -> `hooks_7`).
pub fn slug(text: &str) -> String {
    let stem = Path::new(text).file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default();
    text_slug(&stem)
}

/// `text` with every character but letters, digits and `_` replaced by `-`.
fn text_slug(stem: &str) -> String {
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

fn speedup_plots(rows: &[SummaryRow], folder: &Path) -> Result<Vec<PlotFile>, HarnessError> {
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
        for points in series.values_mut() {
            points.sort_by(|a, b| a.threads.total_cmp(&b.threads));
        }
        let mut suffix =
            if first.variant == "defaults" { String::new() } else { format!("-{}", text_slug(&first.variant)) };
        suffix.push_str(&plot_suffix(&first.mode, &first.state));
        let file_name = format!("{}-speedup-{}{suffix}.svg", first.sweep, slug(&first.source));
        let title = format!("{} ({}, {}): speedup against threads", first.instance, first.variant, first.mode);
        draw_speedup(&folder.join(&file_name), &title, &series, first.available_parallelism)?;
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

fn nodes_per_knob_plots(rows: &[SummaryRow], folder: &Path) -> Result<Vec<PlotFile>, HarnessError> {
    let mut plots = Vec::new();
    for ((sweep, source, mode, state), members) in sequential_groups(rows) {
        if members.len() < 2 {
            continue;
        }
        let bars: Vec<(String, u64)> = members
            .iter()
            .map(|row| {
                let note = if row.status == status::LIMIT { " (limit)" } else { "" };
                (format!("{}{note}", row.variant), row.nodes)
            })
            .collect();
        let extra = plot_suffix(&mode, &state);
        let file_name = format!("{sweep}-nodes-per-knob-{}{extra}.svg", slug(&source));
        let title = format!("{}: nodes per knob setting (sequential, {mode})", members[0].instance);
        draw_nodes_per_knob(&folder.join(&file_name), &title, &bars)?;
        plots.push(PlotFile { sweep, source, kind: PlotKind::NodesPerKnob, file_name, title, link: String::new() });
    }
    Ok(plots)
}

fn nodes_per_depth_plots(
    rows: &[SummaryRow],
    counts: &[CountRow],
    folder: &Path,
) -> Result<Vec<PlotFile>, HarnessError> {
    let mut plots = Vec::new();
    for ((sweep, source, mode, state), members) in sequential_groups(rows) {
        let lines: Vec<(String, Vec<u64>)> = members
            .iter()
            .map(|row| (row.variant.clone(), nodes_per_depth(counts, &row.config_id)))
            .filter(|(_, counts)| counts.iter().any(|&count| count > 0))
            .collect();
        if lines.is_empty() {
            continue;
        }
        let extra = plot_suffix(&mode, &state);
        let file_name = format!("{sweep}-nodes-per-depth-{}{extra}.svg", slug(&source));
        let title = format!("{}: nodes per depth (sequential, {mode})", members[0].instance);
        draw_nodes_per_depth(&folder.join(&file_name), &title, &lines)?;
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

type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// Pixels kept right of every chart for its legend, so that no legend covers data.
const LEGEND_WIDTH: u32 = 230;

/// Draws the series' legend in the margin right of the plotting area, framed.
fn draw_legend<'a, 'b: 'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>,
) -> DrawResult {
    let (plot_width, _) = chart.plotting_area().dim_in_pixel();
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::Coordinate(plot_width as i32 + 12, 0))
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()?;
    Ok(())
}

/// A tick label for a count on a log axis: `1`, `100`, `10k`, `1M`, `1G`.
fn count_label(value: &f64) -> String {
    let value = value.round();
    let (scaled, unit) = match value {
        v if v >= 1e12 => (v / 1e12, "T"),
        v if v >= 1e9 => (v / 1e9, "G"),
        v if v >= 1e6 => (v / 1e6, "M"),
        v if v >= 1e3 => (v / 1e3, "k"),
        v => (v, ""),
    };
    format!("{}{unit}", (scaled * 10.0).round() / 10.0)
}

/// A tick label for an integer axis (threads, depth): empty between integers.
fn integer_label(value: &f64) -> String {
    if (value - value.round()).abs() < 1e-6 {
        format!("{}", value.round() as i64)
    } else {
        String::new()
    }
}

/// Draws with `draw` into an SVG in memory, then writes it atomically.
fn render(path: &Path, draw: impl FnOnce(DrawingArea<SVGBackend, Shift>) -> DrawResult) -> Result<(), HarnessError> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let result = area.fill(&WHITE).map_err(|error| error.into()).and_then(|()| draw(area.clone()));
        result
            .and_then(|()| area.present().map_err(|error| error.into()))
            .map_err(|error| HarnessError::Plot { path: path.to_path_buf(), message: error.to_string() })?;
    }
    write_atomically(path, svg.as_bytes())
}

/// One point of a speedup curve with its 95% interval.
#[derive(Debug, Clone, Copy)]
struct SpeedupPoint {
    threads: f64,
    speedup: f64,
    low: f64,
    high: f64,
}

fn draw_speedup(
    path: &Path,
    title: &str,
    series: &BTreeMap<String, Vec<SpeedupPoint>>,
    cores: usize,
) -> Result<(), HarnessError> {
    let max_threads = series.values().flatten().map(|point| point.threads).fold(1.0, f64::max);
    let max_speedup = series.values().flatten().map(|point| point.high.max(point.speedup)).fold(1.0, f64::max);
    let y_top = max_speedup.max(max_threads.min(cores.max(1) as f64)) * 1.1;
    render(path, |area| {
        let mut chart = ChartBuilder::on(&area)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .margin_right(LEGEND_WIDTH)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..max_threads + 0.5, 0.0..y_top)?;
        chart
            .configure_mesh()
            .x_labels((max_threads as usize + 1).min(17))
            .x_label_formatter(&integer_label)
            .x_desc("threads")
            .y_desc("speedup over sequential")
            .draw()?;
        let ideal_end = max_threads.min(y_top);
        chart
            .draw_series(LineSeries::new([(1.0, 1.0), (ideal_end, ideal_end)], BLACK.mix(0.5).stroke_width(1)))?
            .label("ideal (speedup = threads)")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK.mix(0.5)));
        chart.draw_series(LineSeries::new([(0.0, 1.0), (max_threads + 0.5, 1.0)], BLACK.mix(0.2)))?;
        let cores = cores as f64;
        if cores > 0.0 && cores < max_threads {
            chart
                .draw_series(LineSeries::new([(cores, 0.0), (cores, y_top)], RED.mix(0.4)))?
                .label("available cores (beyond: oversubscribed)")
                .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED.mix(0.4)));
        }
        for (index, (name, points)) in series.iter().enumerate() {
            let color = Palette99::pick(index).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|point| (point.threads, point.speedup)),
                    color.stroke_width(2),
                ))?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
            chart.draw_series(
                points.iter().map(|point| Circle::new((point.threads, point.speedup), 4, color.filled())),
            )?;
            chart.draw_series(points.iter().map(|point| {
                ErrorBar::new_vertical(point.threads, point.low, point.speedup, point.high, color.stroke_width(2), 10)
            }))?;
        }
        draw_legend(&mut chart)
    })
}

fn draw_nodes_per_knob(path: &Path, title: &str, bars: &[(String, u64)]) -> Result<(), HarnessError> {
    let max_nodes = bars.iter().map(|bar| bar.1).max().unwrap_or(1).max(10) as f64;
    let count = bars.len();
    let names: Vec<String> = bars.iter().map(|bar| bar.0.clone()).collect();
    render(path, move |area| {
        let mut chart = ChartBuilder::on(&area)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(230)
            .build_cartesian_2d((1.0..max_nodes * 2.0).log_scale(), (0..count - 1).into_segmented())?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .x_desc("nodes (log scale)")
            .x_label_formatter(&count_label)
            .y_labels(count)
            .y_label_formatter(&|value| match value {
                SegmentValue::CenterOf(index) | SegmentValue::Exact(index) => {
                    names.get(*index).cloned().unwrap_or_default()
                }
                SegmentValue::Last => String::new(),
            })
            .draw()?;
        chart.draw_series(bars.iter().enumerate().map(|(index, (_, nodes))| {
            let color = Palette99::pick(index).to_rgba();
            let mut bar = Rectangle::new(
                [(1.0, SegmentValue::Exact(index)), ((*nodes).max(1) as f64, SegmentValue::Exact(index + 1))],
                color.filled(),
            );
            bar.set_margin(4, 4, 0, 0);
            bar
        }))?;
        Ok(())
    })
}

fn draw_nodes_per_depth(path: &Path, title: &str, lines: &[(String, Vec<u64>)]) -> Result<(), HarnessError> {
    let lines: Vec<DepthLine> =
        lines.iter().map(|(name, counts)| DepthLine { name: name.clone(), counts: counts.clone() }).collect();
    draw_lines_per_depth(path, title, "nodes", &lines, false)
}

/// One line of a per-depth plot: a name for the legend and a count per depth.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthLine {
    /// Legend text.
    pub name: String,
    /// `counts[depth]`.
    pub counts: Vec<u64>,
}

/// Draws one run's per-depth profile: nodes per depth (the first line, drawn thick and
/// black) and the prunes of each rule per depth, on a log scale when the counts span two
/// orders of magnitude or more (linear otherwise).
pub fn draw_depth_profile(path: &Path, title: &str, nodes: &[u64], prunes: &[DepthLine]) -> Result<(), HarnessError> {
    let mut lines = vec![DepthLine { name: "nodes".to_string(), counts: nodes.to_vec() }];
    lines.extend(prunes.iter().filter(|line| line.counts.iter().any(|&count| count > 0)).cloned());
    draw_lines_per_depth(path, title, "count", &lines, true)
}

/// Whether `counts` span two orders of magnitude or more (largest over smallest non-zero).
fn spans_orders_of_magnitude(counts: impl Iterator<Item = u64>) -> bool {
    let (smallest, largest) = counts
        .filter(|&count| count > 0)
        .fold((u64::MAX, 0), |(smallest, largest), count| (smallest.min(count), largest.max(count)));
    largest >= smallest.saturating_mul(100)
}

/// Draws `lines` against depth; with `first_is_total`, the first line is the total
/// (drawn black and thick) and the others its parts.
fn draw_lines_per_depth(
    path: &Path,
    title: &str,
    quantity: &str,
    lines: &[DepthLine],
    first_is_total: bool,
) -> Result<(), HarnessError> {
    let max_depth = lines.iter().map(|line| line.counts.len()).max().unwrap_or(1).max(2) as f64 - 1.0;
    let max_count = lines.iter().flat_map(|line| line.counts.iter().copied()).max().unwrap_or(1).max(10) as f64;
    let logarithmic = spans_orders_of_magnitude(lines.iter().flat_map(|line| line.counts.iter().copied()));
    render(path, |area| {
        let mut builder = ChartBuilder::on(&area);
        builder
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .margin_right(LEGEND_WIDTH)
            .x_label_area_size(40)
            .y_label_area_size(60);
        build_depth_chart(&mut builder, 0.0..max_depth, logarithmic, max_count)?.draw(lines, first_is_total, quantity)
    })
}

/// A depth chart on either count axis.
enum DepthChart<'a, 'b: 'a> {
    Logarithmic(ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, LogCoord<f64>>>),
    Linear(ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>),
}

/// Builds the depth chart with a log or a linear count axis; the two coordinate types
/// differ, so each is drawn by the same generic [`draw_depth_series`].
fn build_depth_chart<'a, 'b: 'a>(
    builder: &mut ChartBuilder<'a, 'b, SVGBackend<'b>>,
    depths: std::ops::Range<f64>,
    logarithmic: bool,
    max_count: f64,
) -> Result<DepthChart<'a, 'b>, Box<dyn std::error::Error>> {
    Ok(if logarithmic {
        DepthChart::Logarithmic(builder.build_cartesian_2d(depths, (1.0..max_count * 2.0).log_scale())?)
    } else {
        DepthChart::Linear(builder.build_cartesian_2d(depths, 0.0..max_count * 1.1)?)
    })
}

impl<'a, 'b: 'a> DepthChart<'a, 'b> {
    fn draw(self, lines: &[DepthLine], first_is_total: bool, quantity: &str) -> DrawResult {
        match self {
            DepthChart::Logarithmic(mut chart) => {
                let description = format!("{quantity} (log scale)");
                draw_depth_series(&mut chart, lines, first_is_total, &description, true)
            }
            DepthChart::Linear(mut chart) => draw_depth_series(&mut chart, lines, first_is_total, quantity, false),
        }
    }
}

/// Draws the mesh, the lines and the legend on either axis. On a log axis a zero cannot
/// be drawn, so a line is broken where its count is zero instead of bridging the gap.
fn draw_depth_series<'a, 'b: 'a, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, Y>>,
    lines: &[DepthLine],
    first_is_total: bool,
    y_description: &str,
    skip_zeros: bool,
) -> DrawResult
where
    Y: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let max_depth = lines.iter().map(|line| line.counts.len()).max().unwrap_or(1);
    chart
        .configure_mesh()
        .x_labels(max_depth.min(21))
        .x_label_formatter(&integer_label)
        .y_label_formatter(&count_label)
        .x_desc("depth")
        .y_desc(y_description)
        .draw()?;
    for (index, line) in lines.iter().enumerate() {
        let total = first_is_total && index == 0;
        let colour = if total { BLACK.to_rgba() } else { Palette99::pick(index).to_rgba() };
        let width = if total { 3 } else { 2 };
        let mut stretches: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
        for (depth, &count) in line.counts.iter().enumerate() {
            if skip_zeros && count == 0 {
                stretches.push(Vec::new());
            } else {
                stretches.last_mut().expect("starts with one stretch").push((depth as f64, count as f64));
            }
        }
        stretches.retain(|stretch| !stretch.is_empty());
        for (number, stretch) in stretches.iter().enumerate() {
            let series = chart.draw_series(LineSeries::new(stretch.iter().copied(), colour.stroke_width(width)))?;
            if number == 0 {
                series
                    .label(line.name.as_str())
                    .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(width)));
            }
            chart.draw_series(stretch.iter().map(|&point| Circle::new(point, 3, colour.filled())))?;
        }
    }
    draw_legend(chart)
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
    fn slugs_are_file_names() {
        assert_eq!(slug("instances/hooks_7.json"), "hooks_7");
        assert_eq!(slug("prime-grid"), "prime-grid");
        assert_eq!(slug("a b/c d.json"), "c-d");
    }
}
