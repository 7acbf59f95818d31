//! The surface every report plot is drawn on: the SVG drawn in memory (and written with a
//! rename, like every derived file, or into the FIFO or device the user named), the title, text widths estimated for layout, and the
//! tick labels of count, thread and time axes.

use crate::harness::error::HarnessError;
use crate::harness::storing::output_target::write_named_file;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// What drawing returns: plotters' errors, boxed.
pub type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// The root of a plot: the whole image, in pixels.
pub type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// plotters' SVG backend writes a font of size S as `font-size` S / 1.24; widths are
/// estimated from what the SVG says, which is what a browser draws.
pub const SVG_FONT_SCALE: f64 = 1.0 / 1.24;

/// The width of one character in ems, on the wide side for sans-serif fonts (digits and
/// `=` are about 0.6 em in DejaVu Sans, lower-case letters about 0.55), so that layout
/// leaves room rather than cutting text.
pub const CHAR_WIDTH_EM: f64 = 0.62;

/// Font sizes (plotters' units) of the title, the axis and legend text.
pub const TITLE_FONT: f64 = 20.0;
/// Axis descriptions and tick labels.
pub const AXIS_FONT: f64 = 15.0;
/// Legend labels.
pub const LEGEND_FONT: f64 = 14.0;

/// The estimated width in pixels of `text` at plotters font size `size`.
pub fn text_width(text: &str, size: f64) -> u32 {
    (text.chars().count() as f64 * size * SVG_FONT_SCALE * CHAR_WIDTH_EM).ceil() as u32
}

/// Draws with `draw` into an SVG of `size` pixels in memory.
pub fn render_string(size: (u32, u32), draw: impl FnOnce(&Area) -> DrawResult) -> Result<String, String> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let result = area.fill(&WHITE).map_err(|error| error.into()).and_then(|()| draw(&area));
        result.and_then(|()| area.present().map_err(|error| error.into())).map_err(|error| error.to_string())?;
    }
    Ok(svg)
}

/// Draws with `draw` into an SVG of `size` pixels, then writes it to `path` (a name `report`
/// chose): replaced whole, through a symlink to its target; a FIFO or a device refused.
pub fn render(path: &Path, size: (u32, u32), draw: impl FnOnce(&Area) -> DrawResult) -> Result<(), HarnessError> {
    let svg = render_string(size, draw).map_err(|message| HarnessError::Plot { path: path.to_path_buf(), message })?;
    write_named_file(path, svg.as_bytes())
}

/// Writes `title` centred at the top of `area`, in a smaller font when it would not fit
/// the width, and returns the area below it.
pub fn titled<'a>(area: &Area<'a>, title: &str) -> Result<Area<'a>, Box<dyn std::error::Error>> {
    let (width, _) = area.dim_in_pixel();
    let room = width.saturating_sub(24) as f64;
    let mut size = TITLE_FONT;
    while size > 10.0 && f64::from(text_width(title, size)) > room {
        size -= 1.0;
    }
    Ok(area.titled(title, ("sans-serif", size))?)
}

/// A tick label for a count on a log axis: `1`, `100`, `10k`, `1M`, `1G`.
pub fn count_label(value: &f64) -> String {
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

/// A tick label for an integer axis (depth): empty between integers.
pub fn integer_label(value: &f64) -> String {
    if (value - value.round()).abs() < 1e-6 {
        format!("{}", value.round() as i64)
    } else {
        String::new()
    }
}

/// A tick label on a log axis of plain numbers: `0.01`, `0.5`, `1`, `16`, `2000`, `10k`.
pub fn log_label(value: &f64) -> String {
    if *value >= 10_000.0 {
        return count_label(value);
    }
    // Three decimals would write 0: a tick of a log2 axis down there is 1/2^k.
    if *value > 0.0 && *value < 0.001 {
        return format!("1/{:.0}", 1.0 / value);
    }
    let text = format!("{:.3}", value);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The powers of two from the largest at or below `low` to the smallest at or above
/// `high`: the ticks of a log2 axis (threads, speedup). Exponents are held to ±64, so that a
/// bound of no size or an infinite one (a prediction of no time) gives a short axis rather
/// than billions of ticks.
pub fn powers_of_two(low: f64, high: f64) -> Vec<f64> {
    let (first, last) = exponents(low.log2().floor(), high.log2().ceil(), 64.0);
    (first..=last).map(|exponent| 2f64.powi(exponent)).collect()
}

/// The powers of ten from the largest at or below `low` to the smallest at or above
/// `high`: the ticks of a log10 axis (nodes, time). Exponents are held to ±21, past any
/// count of nodes or nanoseconds.
pub fn powers_of_ten(low: f64, high: f64) -> Vec<f64> {
    let (first, last) = exponents(low.log10().floor(), high.log10().ceil(), 21.0);
    (first..=last).map(|exponent| 10f64.powi(exponent)).collect()
}

/// Two logarithms (possibly infinite, or not a number: taken as 0) as tick exponents held
/// to `-most..=most`.
fn exponents(first: f64, last: f64, most: f64) -> (i32, i32) {
    let held = |value: f64| if value.is_nan() { 0 } else { value.clamp(-most, most) as i32 };
    (held(first), held(last))
}

/// The ticks of a log10 axis over `low..=high`: the powers of ten in it, and where fewer
/// than three fit (a range within one or two decades), 2 and 5 times them too.
pub fn log_ticks(low: f64, high: f64) -> Vec<f64> {
    let inside = |tick: &f64| (low..=high).contains(tick);
    let powers: Vec<f64> = powers_of_ten(low, high).into_iter().filter(inside).collect();
    if powers.len() >= 3 {
        return powers;
    }
    let mut ticks: Vec<f64> = powers_of_ten(low, high)
        .into_iter()
        .flat_map(|power| [power, 2.0 * power, 5.0 * power])
        .filter(inside)
        .collect();
    ticks.sort_by(f64::total_cmp);
    ticks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_read_as_numbers() {
        assert_eq!(count_label(&1_500_000.0), "1.5M");
        assert_eq!(log_label(&0.5), "0.5");
        assert_eq!(log_label(&16.0), "16");
        assert_eq!(log_label(&0.001), "0.001");
        assert_eq!(integer_label(&2.5), "");
        assert_eq!(powers_of_two(1.0, 16.0), [1.0, 2.0, 4.0, 8.0, 16.0]);
        assert_eq!(powers_of_two(0.7, 3.0), [0.5, 1.0, 2.0, 4.0]);
        assert_eq!(powers_of_ten(3.0, 2000.0), [1.0, 10.0, 100.0, 1000.0, 10000.0]);
        // A bound of no size, an infinite one (a prediction of no time) or none at all gives
        // a short axis, not one of billions of ticks.
        assert_eq!(powers_of_two(1.0, f64::INFINITY).len(), 65);
        assert_eq!(powers_of_two(0.0, 4.0).first(), Some(&2f64.powi(-64)));
        assert_eq!(powers_of_ten(0.0, f64::INFINITY).len(), 43);
        assert_eq!(powers_of_two(f64::NAN, f64::NAN), [1.0]);
        assert_eq!(log_ticks(1.0, 2000.0), [1.0, 10.0, 100.0, 1000.0]);
        assert_eq!(log_ticks(117.0, 2000.0), [200.0, 500.0, 1000.0, 2000.0]);
    }
}
