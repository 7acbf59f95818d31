//! The SVG of a scaling check: predicted (lines) and measured (points) speedup against
//! threads for one workload, on the report's log2 speedup axes, in the report's colour for
//! each strategy, with the ideal line and a legend that names both.

use crate::harness::reporting::plots::canvas::{render_string, titled, Area, DrawResult};
use crate::harness::reporting::plots::legend::{Entry, Legend};
use crate::harness::reporting::plots::speedup::{
    build_speedup_chart, cores_entry, draw_cores, draw_ideal, ideal_entry, series_styles, LEGEND_MAX_WIDTH, SIZE,
};
use crate::scaling::validate::CheckRow;
use plotters::prelude::*;

/// The plot of `rows` (one workload) as SVG text.
pub fn speedup_svg(workload: &str, rows: &[CheckRow], cpus: usize) -> Result<String, String> {
    render_string(SIZE, |area| draw(area, workload, rows, cpus))
        .map_err(|error| format!("cannot draw the plot: {error}"))
}

fn draw(area: &Area, workload: &str, rows: &[CheckRow], cpus: usize) -> DrawResult {
    let threads: Vec<f64> = rows.iter().map(|row| row.threads as f64).collect();
    let most = threads.iter().copied().fold(1.0, f64::max);
    let speedups = || rows.iter().flat_map(|row| [row.predicted_speedup(), row.measured_speedup()]);
    let low = speedups().filter(|speedup| *speedup > 0.0).fold(1.0, f64::min);
    let high = speedups().fold(most, f64::max);
    let mut strategies: Vec<&str> = rows.iter().map(|row| row.strategy.as_str()).collect();
    strategies.dedup();
    let styles = series_styles(&strategies);
    let mut entries = vec![ideal_entry()];
    entries.extend(cores_entry(cpus, most));
    for (strategy, (colour, marker)) in strategies.iter().zip(&styles) {
        entries.push(Entry::line(
            format!("{strategy}: predicted (line), measured (points)"),
            *colour,
            2,
            Some(*marker),
        ));
    }
    let legend = Legend::new(entries, LEGEND_MAX_WIDTH);
    let body = titled(area, &format!("{workload}: speedup, predicted and measured ({cpus} CPUs)"))?;
    let (plot, column) = legend.beside(&body);
    let mut chart = build_speedup_chart(&plot, &threads, low, high)?;
    draw_ideal(&mut chart, most)?;
    draw_cores(&mut chart, cpus, most)?;
    for (strategy, (colour, marker)) in strategies.iter().zip(styles) {
        let mine: Vec<&CheckRow> = rows.iter().filter(|row| row.strategy == *strategy).collect();
        let predicted = mine.iter().map(|row| (row.threads as f64, row.predicted_speedup()));
        chart.draw_series(LineSeries::new(predicted, colour.stroke_width(2)))?;
        let measured: Vec<(f64, f64)> = mine.iter().map(|row| (row.threads as f64, row.measured_speedup())).collect();
        marker.draw_on(&mut chart, &measured, colour)?;
    }
    legend.draw(&column, (0, 14))
}
