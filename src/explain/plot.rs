//! The plot of an `explain` report, as SVG text: lost time per cause (left) and each
//! worker's time split into waiting for its first task, busy, idle between tasks and
//! tail (right).

use super::causes::CauseKind;
use super::verdict::Verdict;
use crate::format;
use crate::run::RunReport;
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

/// One bar: its label, its length in ms, its whisker (low, high) in ms, its colour.
type Bar = (String, f64, Option<(f64, f64)>, RGBColor);

/// Horizontal bars of lost wall time per cause (red) with the interval of its share
/// (whiskers, the share's interval times the gross loss), then the gains (green), each
/// its own bar: no bar is negative.
fn draw_causes(area: &DrawingArea<SVGBackend, Shift>, verdict: &Verdict) -> DrawResult {
    let mut bars: Vec<Bar> = verdict
        .causes
        .iter()
        .map(|cause| {
            let whisker =
                (cause.share_interval.low * verdict.gross_ns / 1e6, cause.share_interval.high * verdict.gross_ns / 1e6);
            (cause.cause.kind.to_string(), cause.cause.lost_ns / 1e6, Some(whisker), RGBColor(200, 60, 60))
        })
        .collect();
    bars.extend(
        verdict
            .gains
            .iter()
            .map(|gain| (format!("gain: {}", gain.kind), gain.gained_ns / 1e6, None, RGBColor(60, 160, 80))),
    );
    let high = bars
        .iter()
        .map(|(_, value, whisker, _)| whisker.map_or(*value, |(_, top)| top.max(*value)))
        .fold(0.0, f64::max)
        .max(1e-6);
    let count = bars.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(format!("lost time per cause ({} in all)", format::duration(verdict.gross_ns)), ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(190)
        .build_cartesian_2d(0.0..high * 1.05, 0.0..count)?;
    let label_of = |y: &f64| {
        let index = (count - y - 0.5).round();
        if index >= 0.0 && (y.fract() - 0.5).abs() < 1e-6 {
            bars.get(index as usize).map(|bar| bar.0.clone()).unwrap_or_default()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc("ms of wall time (whiskers: 95% interval)")
        .y_labels(bars.len() * 2 + 1)
        .y_label_formatter(&label_of)
        .draw()?;
    chart.draw_series(bars.iter().enumerate().map(|(index, (_, value, _, color))| {
        let top = count - index as f64;
        Rectangle::new([(0.0, top - 0.15), (*value, top - 0.85)], color.mix(0.8).filled())
    }))?;
    chart.draw_series(bars.iter().enumerate().filter_map(|(index, (_, _, whisker, _))| {
        let (low, high) = (*whisker)?;
        let middle = count - index as f64 - 0.5;
        Some(PathElement::new(vec![(low, middle), (high, middle)], BLACK.stroke_width(2)))
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
        // Room above the bars for the legend, so that it covers no bar.
        .build_cartesian_2d(0.0..longest * 1.02, 0.0..count + (count * 0.4).max(1.0))?;
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
    // The idle segments are named as the causes they feed, so the legend reads like the
    // left panel.
    let parts: [(&str, RGBColor); 4] = [
        (CauseKind::WaitingForFirstTask.name(), RGBColor(150, 150, 150)),
        ("busy", RGBColor(60, 110, 200)),
        (CauseKind::IdleBetweenTasks.name(), RGBColor(240, 170, 40)),
        (CauseKind::Tail.name(), RGBColor(210, 60, 60)),
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
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
