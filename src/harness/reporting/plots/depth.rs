//! Counts per depth: nodes per depth of each knob setting (sequential runs; coloured as
//! the knob chart colours them), and one run's profile for `solve --profile` (nodes in
//! thick black, the prunes of each rule in a colour each). The count axis is logarithmic
//! when the counts span two orders of magnitude, linear otherwise.

use super::canvas::{count_label, integer_label, render, titled, DrawResult, AXIS_FONT};
use super::legend::{Entry, Legend};
use super::style::{palette, Marker, VariantStyle, DEFAULTS};
use crate::harness::error::HarnessError;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::path::Path;

/// The size of a per-depth plot in pixels (taller when the legend needs it).
const SIZE: (u32, u32) = (960, 520);

/// The widest legend column a per-depth plot gives up, in pixels.
const LEGEND_MAX_WIDTH: u32 = 260;

/// One line of a per-depth plot: a name for the legend and a count per depth.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthLine {
    /// Legend text.
    pub name: String,
    /// `counts[depth]`.
    pub counts: Vec<u64>,
}

/// A line with how it is drawn.
#[derive(Debug, Clone)]
struct StyledLine {
    line: DepthLine,
    colour: RGBColor,
    width: u32,
    marker: Marker,
}

/// Draws nodes per depth, one line per knob setting in its [`VariantStyle`].
pub fn draw_nodes_per_depth(path: &Path, title: &str, lines: &[(DepthLine, VariantStyle)]) -> Result<(), HarnessError> {
    let lines: Vec<StyledLine> = lines
        .iter()
        .map(|(line, style)| StyledLine {
            line: line.clone(),
            colour: style.colour,
            width: if style.colour == DEFAULTS { 3 } else { 2 },
            marker: Marker::nth(style.member),
        })
        .collect();
    draw_lines_per_depth(path, title, "nodes", &lines)
}

/// Draws one run's per-depth profile: nodes per depth (drawn thick and black) and the
/// prunes of each rule per depth (rules that never pruned are left out).
pub fn draw_depth_profile(path: &Path, title: &str, nodes: &[u64], prunes: &[DepthLine]) -> Result<(), HarnessError> {
    let total = DepthLine { name: "nodes".to_string(), counts: nodes.to_vec() };
    let mut lines = vec![StyledLine { line: total, colour: DEFAULTS, width: 3, marker: Marker::Circle }];
    let pruning = prunes.iter().filter(|line| line.counts.iter().any(|&count| count > 0));
    lines.extend(pruning.enumerate().map(|(index, line)| StyledLine {
        line: line.clone(),
        colour: palette(index),
        width: 2,
        marker: Marker::nth(index + 1),
    }));
    draw_lines_per_depth(path, title, "count", &lines)
}

/// Whether `counts` span two orders of magnitude or more (largest over smallest non-zero).
fn spans_orders_of_magnitude(counts: impl Iterator<Item = u64>) -> bool {
    let (smallest, largest) = counts
        .filter(|&count| count > 0)
        .fold((u64::MAX, 0), |(smallest, largest), count| (smallest.min(count), largest.max(count)));
    largest >= smallest.saturating_mul(100)
}

/// Draws `lines` against depth with a legend of one key per line.
fn draw_lines_per_depth(path: &Path, title: &str, quantity: &str, lines: &[StyledLine]) -> Result<(), HarnessError> {
    let counts = || lines.iter().flat_map(|styled| styled.line.counts.iter().copied());
    let max_depth = lines.iter().map(|styled| styled.line.counts.len()).max().unwrap_or(1).max(2) as f64 - 1.0;
    let max_count = counts().max().unwrap_or(1).max(10) as f64;
    let logarithmic = spans_orders_of_magnitude(counts());
    let entries = lines
        .iter()
        .enumerate()
        .map(|(index, styled)| {
            Entry::line(legend_label(lines, index), styled.colour, styled.width, Some(styled.marker))
        })
        .collect();
    let legend = Legend::new(entries, LEGEND_MAX_WIDTH);
    let size = (SIZE.0, SIZE.1.max(legend.height() + 90));
    render(path, size, |area| {
        let body = titled(area, title)?;
        let (plot, column) = legend.beside(&body);
        let mut builder = ChartBuilder::on(&plot);
        builder.margin(14).x_label_area_size(48).y_label_area_size(70);
        build_depth_chart(&mut builder, 0.0..max_depth, logarithmic, max_count)?.draw(lines, quantity)?;
        legend.draw(&column, (0, 14))
    })
}

/// Line `index`'s legend label: its name, and the line drawn over it with the same counts,
/// if one is (an earlier one: the first lines are drawn on top). A line hidden under another
/// read as a rule that never pruned or a knob whose counts the plot forgot.
fn legend_label(lines: &[StyledLine], index: usize) -> String {
    let name = &lines[index].line.name;
    match lines[..index].iter().find(|above| above.line.counts == lines[index].line.counts) {
        Some(above) => format!("{name} (same counts as {}, drawn under it)", above.line.name),
        None => name.clone(),
    }
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
    fn draw(self, lines: &[StyledLine], quantity: &str) -> DrawResult {
        match self {
            DepthChart::Logarithmic(mut chart) => {
                let description = format!("{quantity} at each depth (log scale)");
                draw_depth_series(&mut chart, lines, &description, true)
            }
            DepthChart::Linear(mut chart) => {
                draw_depth_series(&mut chart, lines, &format!("{quantity} at each depth"), false)
            }
        }
    }
}

/// Draws the mesh and the lines on either axis. On a log axis a zero cannot be drawn, so
/// a line is broken where its count is zero instead of bridging the gap.
fn draw_depth_series<'a, 'b: 'a, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, Y>>,
    lines: &[StyledLine],
    y_description: &str,
    skip_zeros: bool,
) -> DrawResult
where
    Y: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let max_depth = lines.iter().map(|styled| styled.line.counts.len()).max().unwrap_or(1);
    chart
        .configure_mesh()
        .x_labels(max_depth.min(21))
        .x_label_formatter(&integer_label)
        .y_label_formatter(&count_label)
        .label_style(("sans-serif", AXIS_FONT))
        .axis_desc_style(("sans-serif", AXIS_FONT))
        .x_desc("depth (moves from the root)")
        .y_desc(y_description)
        .draw()?;
    // The first line (defaults, or the profile's nodes) is drawn last, on top: the
    // reference stays visible where another line has the same counts.
    for styled in lines.iter().rev() {
        let mut stretches: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
        for (depth, &count) in styled.line.counts.iter().enumerate() {
            if skip_zeros && count == 0 {
                stretches.push(Vec::new());
            } else {
                stretches.last_mut().expect("starts with one stretch").push((depth as f64, count as f64));
            }
        }
        stretches.retain(|stretch| !stretch.is_empty());
        for stretch in &stretches {
            chart.draw_series(LineSeries::new(stretch.iter().copied(), styled.colour.stroke_width(styled.width)))?;
            styled.marker.draw_on(chart, stretch, styled.colour)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_with_the_counts_of_one_drawn_over_it_says_so_in_its_key() {
        let line = |name: &str, counts: &[u64]| StyledLine {
            line: DepthLine { name: name.to_string(), counts: counts.to_vec() },
            colour: DEFAULTS,
            width: 2,
            marker: Marker::Circle,
        };
        let lines =
            [line("nodes", &[1, 4, 9]), line("prunes by hook-count", &[0, 2, 3]), line("prunes by 2x2", &[0, 2, 3])];
        let labels: Vec<String> = (0..lines.len()).map(|index| legend_label(&lines, index)).collect();
        assert_eq!(labels[..2], ["nodes", "prunes by hook-count"]);
        assert_eq!(labels[2], "prunes by 2x2 (same counts as prunes by hook-count, drawn under it)");
    }
}
