//! Speedup against threads on log2 axes (1, 2, 4, 8, 16 evenly spaced, so 1 to 4 threads
//! do not crowd into a corner and the ideal is the diagonal): one line per strategy in the
//! strategy's colour, 95% intervals as whiskers, the ideal line labelled, and the core
//! count marked. The scaling check draws its predictions on the same axes.

use super::canvas::{log_label, powers_of_two, titled, Area, DrawResult, AXIS_FONT, LEGEND_FONT};
use super::legend::{Entry, Key, Legend};
use super::style::{shade, strategy_colour, Marker, CORES, IDEAL};
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A chart with log2 thread (x) and speedup (y) axes.
pub type SpeedupChart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<WithKeyPoints<LogCoord<f64>>, WithKeyPoints<LogCoord<f64>>>>;

/// The size of a speedup plot in pixels.
pub const SIZE: (u32, u32) = (960, 520);

/// The widest legend column a speedup plot gives up, in pixels.
pub const LEGEND_MAX_WIDTH: u32 = 250;

/// One point of a speedup curve with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpeedupPoint {
    /// Threads.
    pub threads: f64,
    /// Median speedup over sequential.
    pub speedup: f64,
    /// The interval's low end.
    pub low: f64,
    /// The interval's high end.
    pub high: f64,
}

/// One curve: its legend label (a strategy, with its layout when a plot has several) and
/// its points in thread order.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeedupSeries {
    /// The label: a strategy (`steal`, `depth:4`), perhaps with knobs (`auto (shared)`).
    pub label: String,
    /// The points, fewest threads first.
    pub points: Vec<SpeedupPoint>,
}

/// The colour and marker of each series: the strategy's colour (in a shade of its own for
/// each further series of the same strategy, another counter layout), and a marker of its
/// own, so that series tell apart without colour too and one drawn over another at the same
/// points still shows the other's shape.
pub fn series_styles(labels: &[&str]) -> Vec<(RGBColor, Marker)> {
    let mut seen: Vec<RGBColor> = Vec::new();
    labels
        .iter()
        .enumerate()
        .map(|(index, label)| {
            let base = strategy_colour(label);
            let earlier = seen.iter().filter(|colour| **colour == base).count();
            seen.push(base);
            (shade(base, earlier), Marker::nth(index))
        })
        .collect()
}

/// Builds log2 axes over `threads` (the thread counts shown) and speedups `low..high`,
/// with the mesh, the axis descriptions (with units) and the no-gain line at 1.
pub fn build_speedup_chart<'a, 'b>(
    area: &'a Area<'b>,
    threads: &[f64],
    low: f64,
    high: f64,
) -> Result<SpeedupChart<'a, 'b>, Box<dyn std::error::Error>> {
    let most = threads.iter().copied().fold(1.0, f64::max);
    let mut thread_ticks = powers_of_two(1.0, most);
    thread_ticks.retain(|&tick| tick <= most);
    for &count in threads {
        if !thread_ticks.contains(&count) {
            thread_ticks.push(count);
        }
    }
    thread_ticks.sort_by(f64::total_cmp);
    // A speedup of 0 would stretch a log axis without end: 2^-20 is its floor.
    let low = low.clamp(1.0 / 1_048_576.0, 1.0) / 1.25;
    let high = high.max(most).max(1.0) * 1.25;
    let speedup_ticks: Vec<f64> =
        powers_of_two(low, high).into_iter().filter(|&tick| tick >= low && tick <= high).collect();
    let mut chart = ChartBuilder::on(area).margin(14).x_label_area_size(48).y_label_area_size(64).build_cartesian_2d(
        (0.8..most * 1.25).log_scale().base(2.0).with_key_points(thread_ticks),
        (low..high).log_scale().base(2.0).with_key_points(speedup_ticks),
    )?;
    chart
        .configure_mesh()
        .x_label_formatter(&log_label)
        .y_label_formatter(&log_label)
        .label_style(("sans-serif", AXIS_FONT))
        .axis_desc_style(("sans-serif", AXIS_FONT))
        .x_desc("threads (log2 scale)")
        .y_desc("speedup over sequential (x, log2 scale)")
        .draw()?;
    chart.draw_series(LineSeries::new([(0.8, 1.0), (most * 1.25, 1.0)], BLACK.mix(0.3)))?;
    Ok(chart)
}

/// The ideal line's legend entry.
pub fn ideal_entry() -> Entry {
    Entry {
        label: "ideal (speedup = threads)".to_string(),
        key: Key::Line { colour: IDEAL, width: 2, dashed: true, marker: None },
    }
}

/// Draws the ideal line (speedup = threads, dashed) up to `most` threads, labelled
/// `ideal` at its end.
pub fn draw_ideal(chart: &mut SpeedupChart, most: f64) -> DrawResult {
    chart.draw_series(DashedLineSeries::new([(1.0, 1.0), (most, most)], 8, 6, IDEAL.stroke_width(2)))?;
    // The word sits above the line, left of its end: inside the chart whatever the range.
    let font = ("sans-serif", LEGEND_FONT).into_font().color(&IDEAL).pos(Pos::new(HPos::Right, VPos::Bottom));
    chart.draw_series(std::iter::once(Text::new("ideal", (most / 1.1, most), font)))?;
    Ok(())
}

/// The core-count line's legend entry, when fewer cores than the most threads ran.
pub fn cores_entry(cores: usize, most: f64) -> Option<Entry> {
    (cores > 0 && (cores as f64) < most)
        .then(|| Entry::line(format!("{cores} cores (beyond: oversubscribed)"), cores_colour(), 2, None))
}

/// Draws a vertical line at `cores` when fewer cores than the most threads ran.
pub fn draw_cores(chart: &mut SpeedupChart, cores: usize, most: f64) -> DrawResult {
    if cores_entry(cores, most).is_some() {
        let range = chart.y_range();
        let at = cores as f64;
        chart.draw_series(LineSeries::new([(at, range.start), (at, range.end)], cores_colour().stroke_width(2)))?;
    }
    Ok(())
}

/// Draws the speedup plot of `series` on `area` (the whole image) under `title`.
pub fn draw(area: &Area, title: &str, series: &[SpeedupSeries], cores: usize) -> DrawResult {
    let points = || series.iter().flat_map(|line| &line.points);
    let threads: Vec<f64> = points().map(|point| point.threads).collect();
    let most = threads.iter().copied().fold(1.0, f64::max);
    // The axis reaches every median (a parallel branch and bound can be thousands of times
    // slower than the sequential one), and an interval's low end down to a quarter of the
    // lowest median; a bar reaching further runs to the axis.
    let lowest_median = points().map(|point| point.speedup).filter(|&speedup| speedup > 0.0).fold(1.0, f64::min);
    let low =
        points().map(|point| point.low).filter(|&low| low > 0.0).fold(lowest_median, f64::min).max(lowest_median / 4.0);
    let high = points().map(|point| point.high.max(point.speedup)).fold(most, f64::max);
    let labels: Vec<&str> = series.iter().map(|line| line.label.as_str()).collect();
    let styles = series_styles(&labels);
    let mut entries = vec![ideal_entry()];
    entries.extend(cores_entry(cores, most));
    for (line, (colour, marker)) in series.iter().zip(&styles) {
        entries.push(Entry::line(line.label.clone(), *colour, 2, Some(*marker)));
    }
    let legend = Legend::new(entries, LEGEND_MAX_WIDTH);
    let body = titled(area, title)?;
    let (plot, column) = legend.beside(&body);
    let mut chart = build_speedup_chart(&plot, &threads, low, high)?;
    draw_ideal(&mut chart, most)?;
    draw_cores(&mut chart, cores, most)?;
    for (line, (colour, marker)) in series.iter().zip(styles) {
        let points: Vec<(f64, f64)> = line.points.iter().map(|point| (point.threads, point.speedup)).collect();
        chart.draw_series(LineSeries::new(points.iter().copied(), colour.stroke_width(2)))?;
        chart.draw_series(line.points.iter().map(|point| {
            ErrorBar::new_vertical(point.threads, point.low, point.speedup, point.high, colour.stroke_width(1), 8)
        }))?;
        marker.draw_on(&mut chart, &points, colour)?;
    }
    legend.draw(&column, (0, 14))
}

/// The core-count line's colour, opaque so that the legend key matches the line exactly.
pub fn cores_colour() -> RGBColor {
    let mixed = |channel: u8| ((f64::from(channel) * 0.6 + 255.0 * 0.4).round()) as u8;
    RGBColor(mixed(CORES.0), mixed(CORES.1), mixed(CORES.2))
}
