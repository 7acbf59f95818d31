//! The SVG of a scaling check: predicted (lines) and measured (points) speedup against
//! threads for one workload, one colour per strategy, with the ideal line.

use super::validate::CheckRow;
use plotters::prelude::*;

const SIZE: (u32, u32) = (760, 480);
const COLOURS: [RGBColor; 4] =
    [RGBColor(40, 90, 200), RGBColor(210, 80, 40), RGBColor(40, 150, 70), RGBColor(140, 60, 160)];

/// The plot of `rows` (one workload) as SVG text.
pub fn speedup_svg(workload: &str, rows: &[CheckRow], cpus: usize) -> Result<String, String> {
    let mut text = String::new();
    {
        let area = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
        draw(&area, workload, rows, cpus).map_err(|error| format!("cannot draw the plot: {error}"))?;
    }
    Ok(text)
}

fn draw(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    workload: &str,
    rows: &[CheckRow],
    cpus: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    area.fill(&WHITE)?;
    let most = rows.iter().map(|row| row.threads).max().unwrap_or(1) as f64;
    let top = rows.iter().flat_map(|row| [row.predicted_speedup(), row.measured_speedup()]).fold(most, f64::max) * 1.05;
    let mut chart = ChartBuilder::on(area)
        .caption(format!("{workload}: speedup, predicted and measured ({cpus} CPUs)"), ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0.5..most + 0.5, 0.0..top)?;
    chart.configure_mesh().x_desc("threads").y_desc("speedup over sequential").draw()?;
    chart
        .draw_series(LineSeries::new([(1.0, 1.0), (most, most)], BLACK.mix(0.3)))?
        .label("ideal")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLACK.mix(0.3)));
    let mut strategies: Vec<&str> = rows.iter().map(|row| row.strategy.as_str()).collect();
    strategies.dedup();
    for (index, strategy) in strategies.into_iter().enumerate() {
        let colour = COLOURS[index % COLOURS.len()];
        let mine: Vec<&CheckRow> = rows.iter().filter(|row| row.strategy == strategy).collect();
        chart
            .draw_series(LineSeries::new(
                mine.iter().map(|row| (row.threads as f64, row.predicted_speedup())),
                colour.stroke_width(2),
            ))?
            .label(format!("{strategy} predicted (line), measured (points)"))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], colour.stroke_width(2)));
        chart.draw_series(
            mine.iter().map(|row| Circle::new((row.threads as f64, row.measured_speedup()), 5, colour.filled())),
        )?;
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;
    area.present()?;
    Ok(())
}
