//! The plot of an `explain` report, as SVG text: lost time per cause (left) and each
//! worker's time split into waiting for its first task, busy, idle between tasks and
//! tail (right).

use super::decompose::Verdict;
use crate::solve::RunReport;
use plotters::coord::Shift;
use plotters::prelude::*;

const SIZE: (u32, u32) = (1100, 460);

type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// The two panels as one SVG document.
pub fn svg(verdict: &Verdict, explained: &RunReport) -> Result<String, String> {
    let mut text = String::new();
    {
        let area = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
        let drawn: DrawResult = area.fill(&WHITE).map_err(Into::into).and_then(|()| {
            let (left, right) = area.split_horizontally(SIZE.0 * 11 / 20);
            draw_causes(&left, verdict)?;
            draw_workers(&right, explained)?;
            area.present()?;
            Ok(())
        });
        drawn.map_err(|error| format!("cannot draw the plot: {error}"))?;
    }
    Ok(text)
}

/// Horizontal bars of lost milliseconds per cause: red a loss, green a gain.
fn draw_causes(area: &DrawingArea<SVGBackend, Shift>, verdict: &Verdict) -> DrawResult {
    let causes = &verdict.causes;
    let values: Vec<f64> = causes.iter().map(|cause| cause.lost_ns / 1e6).collect();
    let low = values.iter().copied().fold(0.0, f64::min);
    let high = values.iter().copied().fold(0.0, f64::max).max(1e-6);
    let pad = (high - low) * 0.05;
    let count = causes.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(format!("lost time per cause ({:.2} ms in all)", verdict.lost_ns / 1e6), ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(170)
        .build_cartesian_2d((low - pad)..(high + pad), 0.0..count)?;
    let label_of = |y: &f64| {
        let index = (count - y - 0.5).round();
        if index >= 0.0 && (y.fract() - 0.5).abs() < 1e-6 {
            causes.get(index as usize).map(|cause| cause.name.to_string()).unwrap_or_default()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc("ms of wall time")
        .y_labels(causes.len() * 2 + 1)
        .y_label_formatter(&label_of)
        .draw()?;
    chart.draw_series(values.iter().enumerate().map(|(index, &value)| {
        let top = count - index as f64;
        let color = if value >= 0.0 { RED.mix(0.7) } else { GREEN.mix(0.7) };
        Rectangle::new([(0.0, top - 0.15), (value, top - 0.85)], color.filled())
    }))?;
    Ok(())
}

/// One stacked bar per worker: before the first task, busy, between tasks, after the last.
fn draw_workers(area: &DrawingArea<SVGBackend, Shift>, report: &RunReport) -> DrawResult {
    let workers = &report.workers;
    let longest = workers.iter().map(|worker| worker.busy_ns + worker.idle_ns).max().unwrap_or(1).max(1) as f64 / 1e6;
    let count = workers.len().max(1) as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(format!("{} at {} threads: worker time", report.strategy, report.threads), ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..longest * 1.02, 0.0..count)?;
    let label_of = |y: &f64| {
        let index = (y - 0.5).round();
        if index >= 0.0 && (y.fract() - 0.5).abs() < 1e-6 && (index as usize) < workers.len() {
            format!("worker {}", index as usize)
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc("ms")
        .y_labels(workers.len() * 2 + 1)
        .y_label_formatter(&label_of)
        .draw()?;
    let parts: [(&str, RGBColor); 4] = [
        ("waiting for first task", RGBColor(150, 150, 150)),
        ("busy", RGBColor(60, 110, 200)),
        ("idle between tasks", RGBColor(240, 170, 40)),
        ("tail", RGBColor(210, 60, 60)),
    ];
    for (part, (name, color)) in parts.into_iter().enumerate() {
        let bars = workers.iter().enumerate().map(move |(row, worker)| {
            let between = worker.idle_ns.saturating_sub(worker.before_first_task_ns + worker.after_last_task_ns);
            let lengths = [worker.before_first_task_ns, worker.busy_ns, between, worker.after_last_task_ns];
            let start: u64 = lengths[..part].iter().sum();
            let (from, to) = (start as f64 / 1e6, (start + lengths[part]) as f64 / 1e6);
            Rectangle::new([(from, row as f64 + 0.15), (to, row as f64 + 0.85)], color.filled())
        });
        chart
            .draw_series(bars)?
            .label(name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;
    Ok(())
}
