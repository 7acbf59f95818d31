//! Nodes and time per knob setting (sequential runs), side by side: one bar per setting in
//! each panel, `defaults` and `baseline` first in colours of their own, the other settings
//! grouped by knob with one colour per knob. Read across a row to see whether a setting
//! that searches fewer nodes pays for it in time per node.

use super::canvas::{count_label, log_label, log_ticks, render, text_width, titled, Area, DrawResult, AXIS_FONT};
use super::legend::{Entry, Key, Legend};
use super::style::VariantStyle;
use crate::format::TimeUnit;
use crate::harness::error::HarnessError;
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::coord::ranged1d::SegmentedCoord;
use plotters::coord::types::RangedCoordusize;
use plotters::prelude::*;
use std::path::Path;

/// The widest legend column a knob chart gives up, in pixels.
const LEGEND_MAX_WIDTH: u32 = 260;
/// The width of each of the two panels' plotting areas, in pixels.
const PANEL_WIDTH: u32 = 330;
/// The height of one bar's row, in pixels.
const ROW_HEIGHT: u32 = 26;

/// One setting's bar.
#[derive(Debug, Clone, PartialEq)]
pub struct KnobBar {
    /// The row's label: the variant, with `(node limit)` when the run stopped there.
    pub label: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Median wall time in nanoseconds with its 95% interval (low, median, high).
    pub wall_ns: (u64, u64, u64),
    /// The colour group and colour of its variant.
    pub style: VariantStyle,
}

/// `bars` in the order the chart shows them: `defaults`, `baseline`, then each knob's
/// settings together, knobs in the order they first appear.
pub fn grouped(bars: Vec<KnobBar>) -> Vec<KnobBar> {
    let mut order: Vec<String> = vec!["defaults".to_string(), "baseline".to_string()];
    for bar in &bars {
        if !order.contains(&bar.style.group) {
            order.push(bar.style.group.clone());
        }
    }
    let mut bars = bars;
    bars.sort_by_key(|bar| order.iter().position(|group| *group == bar.style.group));
    bars
}

/// Draws the two panels of `bars` (already [`grouped`]) under `title`.
pub fn draw_nodes_per_knob(path: &Path, title: &str, bars: &[KnobBar]) -> Result<(), HarnessError> {
    let legend = Legend::new(legend_entries(bars), LEGEND_MAX_WIDTH);
    let label_width = bars.iter().map(|bar| text_width(&bar.label, AXIS_FONT)).max().unwrap_or(0) + 24;
    let width = label_width + 2 * (PANEL_WIDTH + 40) + legend.column_width();
    let height = (bars.len() as u32 * ROW_HEIGHT + 170).max(legend.height() + 90).max(400);
    render(path, (width, height), |area| {
        let body = titled(area, title)?;
        let (panels, column) = legend.beside(&body);
        let (left, right) = panels.split_horizontally(label_width + PANEL_WIDTH + 40);
        let nodes: Vec<f64> = bars.iter().map(|bar| bar.nodes.max(1) as f64).collect();
        let most_nodes = nodes.iter().copied().fold(10.0, f64::max);
        let ranges: Vec<(f64, f64, f64)> = bars.iter().map(|bar| (bar.nodes.max(1) as f64, 0.0, 0.0)).collect();
        let panel = Panel { caption: "nodes searched", axis: "nodes (log scale)".to_string(), label_width };
        draw_panel(&left, &panel, bars, (1.0, most_nodes * 2.0), &ranges, &count_label)?;
        let unit = TimeUnit::for_value(bars.iter().map(|bar| bar.wall_ns.2 as f64).fold(1.0, f64::max));
        let in_unit = |ns: u64| (ns.max(1) as f64) / unit.nanoseconds();
        let times: Vec<(f64, f64, f64)> =
            bars.iter().map(|bar| (in_unit(bar.wall_ns.1), in_unit(bar.wall_ns.0), in_unit(bar.wall_ns.2))).collect();
        let fastest = times.iter().map(|time| time.1.min(time.0)).fold(f64::INFINITY, f64::min);
        let slowest = times.iter().map(|time| time.2.max(time.0)).fold(0.0, f64::max);
        let panel = Panel {
            caption: "median wall time per run (whiskers: 95% CI)",
            axis: format!("{} (log scale)", unit.symbol()),
            label_width: 12,
        };
        draw_panel(&right, &panel, bars, (fastest / 2.0, slowest * 2.0), &times, &log_label)?;
        legend.draw(&column, (0, 44))
    })
}

/// The legend: what the colours mean.
fn legend_entries(bars: &[KnobBar]) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for bar in bars {
        if seen.contains(&bar.style.group.as_str()) {
            continue;
        }
        seen.push(&bar.style.group);
        let label = match bar.style.group.as_str() {
            "defaults" => "defaults (the tool's choice)".to_string(),
            "baseline" => "baseline (the most naive knobs)".to_string(),
            "combined" => "several knobs at once".to_string(),
            knob => format!("{knob}=…"),
        };
        entries.push(Entry { label, key: Key::Swatch(bar.style.group_colour) });
    }
    entries
}

/// One panel's words and room for row labels (only the left panel shows them).
struct Panel {
    caption: &'static str,
    axis: String,
    label_width: u32,
}

type BarChart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<WithKeyPoints<LogCoord<f64>>, SegmentedCoord<RangedCoordusize>>>;

/// Draws one panel: a bar per row from the axis' start to `values[row].0`, with a whisker
/// from `.1` to `.2` where both are above zero.
fn draw_panel(
    area: &Area,
    panel: &Panel,
    bars: &[KnobBar],
    (low, high): (f64, f64),
    values: &[(f64, f64, f64)],
    tick: &dyn Fn(&f64) -> String,
) -> DrawResult {
    let rows = bars.len();
    // Row 0 is drawn at the top: segment 0 is the bottom one.
    let segment = |row: usize| rows - 1 - row;
    let mut chart: BarChart = ChartBuilder::on(area)
        .caption(panel.caption, ("sans-serif", AXIS_FONT))
        .margin(14)
        .x_label_area_size(48)
        .y_label_area_size(panel.label_width)
        .build_cartesian_2d(
            (low..high).log_scale().with_key_points(log_ticks(low, high)),
            (0..rows.saturating_sub(1)).into_segmented(),
        )?;
    let show_labels = panel.label_width > 20;
    let label_of = |value: &SegmentValue<usize>| match value {
        SegmentValue::CenterOf(index) | SegmentValue::Exact(index) if show_labels && *index < rows => {
            bars[segment(*index)].label.clone()
        }
        _ => String::new(),
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(rows)
        .x_label_formatter(tick)
        .y_label_formatter(&label_of)
        .label_style(("sans-serif", AXIS_FONT))
        .axis_desc_style(("sans-serif", AXIS_FONT))
        .x_desc(panel.axis.as_str())
        .draw()?;
    chart.draw_series(bars.iter().zip(values).enumerate().map(|(row, (bar, value))| {
        let (bottom, top) = (SegmentValue::Exact(segment(row)), SegmentValue::Exact(segment(row) + 1));
        let mut rectangle = Rectangle::new([(low, bottom), (value.0.max(low), top)], bar.style.group_colour.filled());
        rectangle.set_margin(4, 4, 0, 0);
        rectangle
    }))?;
    chart.draw_series(values.iter().enumerate().filter(|(_, value)| value.1 > 0.0 && value.2 > 0.0).map(
        |(row, value)| {
            let middle = SegmentValue::CenterOf(segment(row));
            ErrorBar::new_horizontal(middle, value.1, value.0, value.2, BLACK.stroke_width(1), 8)
        },
    ))?;
    // A thin rule between knob groups, across the panel.
    for row in 1..rows {
        if bars[row].style.group != bars[row - 1].style.group {
            let at = SegmentValue::Exact(segment(row) + 1);
            chart.draw_series(LineSeries::new([(low, at.clone()), (high, at)], BLACK.mix(0.35)))?;
        }
    }
    Ok(())
}
