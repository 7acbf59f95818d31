//! The plot of an `explain` report, as SVG text: lost time per cause (left) and each
//! worker's time split into waiting for its first task, busy, idle between tasks and
//! tail (right).

use super::causes::CauseKind;
use super::verdict::Verdict;
use crate::format;
use crate::run::{RunReport, WorkerTotals};
use plotters::coord::Shift;
use plotters::prelude::*;

const SIZE: (u32, u32) = (1100, 460);

type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// The two panels as one SVG document.
pub fn svg(verdict: &Verdict, explained: &RunReport) -> Result<String, String> {
    let causes = Panel {
        title: format!("lost time per cause ({} in all)", format::duration(verdict.gross_ns)),
        bars: cause_bars(verdict),
    };
    let title = format!("{} at {} threads: worker time", explained.strategy, explained.threads);
    panels_svg(&causes, &title, &explained.workers)
}

/// The left panel's title and bars.
struct Panel {
    title: String,
    bars: Vec<Bar>,
}

/// The two panels: the causes and the explained run's workers.
fn panels_svg(causes: &Panel, workers_title: &str, workers: &[WorkerTotals]) -> Result<String, String> {
    let mut text = String::new();
    {
        let area = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
        let drawn: DrawResult = area.fill(&WHITE).map_err(Into::into).and_then(|()| {
            let (left, right) = area.split_horizontally(SIZE.0 * 11 / 20);
            draw_causes(&left, causes)?;
            draw_workers(&right, workers_title, workers)?;
            area.present()?;
            Ok(())
        });
        drawn.map_err(|error| format!("cannot draw the plot: {error}"))?;
    }
    Ok(text)
}

/// One bar: its label, its length in ms, its whisker (low, high) in ms, its colour.
type Bar = (String, f64, Option<(f64, f64)>, RGBColor);

/// The bars of lost wall time per cause (red) with the interval of its share (whiskers,
/// the share's interval times the gross loss), then the gains (green), each its own bar:
/// no bar is negative.
fn cause_bars(verdict: &Verdict) -> Vec<Bar> {
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
    bars
}

/// Horizontal bars, one per cause, labelled on the left.
fn draw_causes(area: &DrawingArea<SVGBackend, Shift>, panel: &Panel) -> DrawResult {
    let bars = &panel.bars;
    let high = bars
        .iter()
        .map(|(_, value, whisker, _)| whisker.map_or(*value, |(_, top)| top.max(*value)))
        .fold(0.0, f64::max)
        .max(1e-6);
    let count = bars.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(panel.title.as_str(), ("sans-serif", 18))
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
    // Whiskers as error bars (drawn as plain lines, not as a line series that would want
    // a legend key), their dot at the bar's end.
    chart.draw_series(bars.iter().enumerate().filter_map(|(index, (_, value, whisker, _))| {
        let (low, high) = (*whisker)?;
        let middle = count - index as f64 - 0.5;
        Some(ErrorBar::new_horizontal(middle, low, *value, high, BLACK.stroke_width(2), 8))
    }))?;
    Ok(())
}

/// One stacked bar per worker (worker 0 at the bottom, each row labelled): before the
/// first task, busy, between tasks, after the last.
fn draw_workers(area: &DrawingArea<SVGBackend, Shift>, title: &str, workers: &[WorkerTotals]) -> DrawResult {
    let longest = workers.iter().map(|worker| worker.busy_ns + worker.idle_ns).max().unwrap_or(1).max(1) as f64 / 1e6;
    let rows = workers.len().max(1);
    // Rows above the bars for the legend, so that it covers no bar.
    let total = rows + ((rows as f64 * 0.4).ceil() as usize).max(2);
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(80)
        .build_cartesian_2d(0.0..longest * 1.02, (0..total - 1).into_segmented())?;
    // One segment per row: the label at its centre names the worker.
    let label_of = |value: &SegmentValue<usize>| match value {
        SegmentValue::CenterOf(row) if *row < workers.len() => format!("worker {row}"),
        _ => String::new(),
    };
    chart.configure_mesh().disable_y_mesh().x_desc("ms").y_labels(total).y_label_formatter(&label_of).draw()?;
    let (_, height) = chart.plotting_area().dim_in_pixel();
    let gap = (f64::from(height) / total as f64 * 0.15).round() as u32;
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
            let mut bar =
                Rectangle::new([(from, SegmentValue::Exact(row)), (to, SegmentValue::Exact(row + 1))], color.filled());
            bar.set_margin(gap, gap, 0, 0);
            bar
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::reporting::plots::check;

    #[test]
    fn both_panels_are_legible_and_every_worker_row_is_labelled() {
        let workers: Vec<WorkerTotals> = (0..4)
            .map(|worker| WorkerTotals {
                worker,
                busy_ns: 3_000_000 + worker as u64 * 100_000,
                idle_ns: 900_000,
                before_first_task_ns: 500_000,
                after_last_task_ns: 200_000,
                ..WorkerTotals::default()
            })
            .collect();
        let red = RGBColor(200, 60, 60);
        let causes = Panel {
            title: "lost time per cause (2.201 ms in all)".to_string(),
            bars: vec![
                ("waiting for first task".to_string(), 1.3, Some((1.2, 1.8)), red),
                ("unexplained".to_string(), 0.4, Some((0.1, 0.6)), red),
                ("gain: per-node cost".to_string(), 0.2, None, RGBColor(60, 160, 80)),
            ],
        };
        let text = panels_svg(&causes, "steal at 4 threads: worker time", &workers).unwrap();
        let texts = check::texts(&text);
        for worker in 0..4 {
            assert!(texts.contains(&format!("worker {worker}")), "worker {worker} unlabelled: {texts:?}");
        }
        assert!(!texts.contains(&"worker 4".to_string()), "{texts:?}");
        assert_eq!(check::problems(&text), Vec::<String>::new());
    }
}
