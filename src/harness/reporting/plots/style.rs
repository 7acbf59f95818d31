//! Colours and markers that carry meaning: one colour per parallel strategy, the same in
//! every plot; one hue per knob in the knob charts (its settings in shades of it); and
//! `defaults` and `baseline` in colours of their own.
//!
//! Every series of a plot gets a colour no other series of that plot has, so that a
//! reader (and the legibility check) can match each line to its key by colour alone.

use super::canvas::{Area, DrawResult};
use crate::parallel::Strategy;
use plotters::prelude::*;

/// The `defaults` configuration: near black, the reference every other setting departs from.
pub const DEFAULTS: RGBColor = RGBColor(34, 34, 34);
/// The `baseline` configuration (the seed program's method): mid grey.
pub const BASELINE: RGBColor = RGBColor(150, 150, 150);
/// The ideal-speedup line.
pub const IDEAL: RGBColor = RGBColor(90, 90, 90);
/// The line at the machine's core count.
pub const CORES: RGBColor = RGBColor(214, 39, 40);

/// Hues for the knobs of a knob chart, in the order the knobs first appear. Red is kept
/// for the core-count line and grey for `baseline`.
const KNOB_HUES: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The `index`-th of a list of distinct colours (the rules of a depth profile).
pub fn palette(index: usize) -> RGBColor {
    shade(KNOB_HUES[index % KNOB_HUES.len()], index / KNOB_HUES.len() * 5)
}

/// The colour of a strategy label (`auto`, `depth:4`, `steal (shared)`) by its kind, so
/// that `steal` is the same orange in every speedup plot and every scaling check.
pub fn strategy_colour(label: &str) -> RGBColor {
    let name = label.split(' ').next().unwrap_or_default();
    let kind = name.parse::<Strategy>().map(|strategy| strategy.kind()).unwrap_or("");
    match kind {
        "auto" => RGBColor(31, 119, 180),
        "steal" => RGBColor(255, 127, 14),
        "depth" => RGBColor(44, 160, 44),
        "budget" => RGBColor(148, 103, 189),
        "naive" => RGBColor(140, 86, 75),
        "replicable" => RGBColor(227, 119, 194),
        "sequential" => RGBColor(127, 127, 127),
        _ => RGBColor(23, 190, 207),
    }
}

/// `colour` in its `index`-th shade: the colour itself, then alternately darker and
/// lighter, so that the settings of one knob (or the layouts of one strategy) share a hue
/// but stay apart.
pub fn shade(colour: RGBColor, index: usize) -> RGBColor {
    const STEPS: [f64; 8] = [0.0, -0.35, 0.4, -0.6, 0.65, -0.2, 0.22, -0.48];
    let step = STEPS[index % STEPS.len()] + 0.03 * (index / STEPS.len()) as f64;
    let channel = |value: u8| -> u8 {
        let value = f64::from(value);
        let moved = if step < 0.0 { value * (1.0 + step) } else { value + (255.0 - value) * step };
        moved.round().clamp(0.0, 255.0) as u8
    };
    RGBColor(channel(colour.0), channel(colour.1), channel(colour.2))
}

/// The knob a variant sets (`order=spiral` -> `order`); `None` for `defaults` and
/// `baseline`; `combined` for a variant that sets several (`a=x+b=y`).
pub fn knob_of(variant: &str) -> Option<&str> {
    let variant = variant.split(" (").next().unwrap_or(variant);
    if variant == "defaults" || variant == "baseline" {
        return None;
    }
    if variant.contains('+') {
        return Some("combined");
    }
    Some(variant.split_once('=').map_or(variant, |(knob, _)| knob))
}

/// How one variant of a knob chart is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantStyle {
    /// The knob's group (`defaults`, `baseline` or the knob's name).
    pub group: String,
    /// The group's colour: what its bars are filled with.
    pub group_colour: RGBColor,
    /// The variant's own shade of it: its line in a per-depth plot.
    pub colour: RGBColor,
    /// Its place within its group: picks its marker.
    pub member: usize,
}

/// The style of each of `variants`, in order: `defaults` and `baseline` in their own
/// colours, the other settings one hue per knob (in the order the knobs first appear) and
/// one shade per setting. The same list gives the same styles, so a knob chart and the
/// per-depth plot of the same configurations agree.
pub fn variant_styles(variants: &[&str]) -> Vec<VariantStyle> {
    let mut groups: Vec<(String, usize)> = Vec::new();
    variants
        .iter()
        .map(|variant| {
            let Some(knob) = knob_of(variant) else {
                let baseline = variant.starts_with("baseline");
                let colour = if baseline { BASELINE } else { DEFAULTS };
                let group = if baseline { "baseline" } else { "defaults" };
                return VariantStyle { group: group.to_string(), group_colour: colour, colour, member: 0 };
            };
            let position = match groups.iter().position(|(name, _)| name == knob) {
                Some(position) => position,
                None => {
                    groups.push((knob.to_string(), 0));
                    groups.len() - 1
                }
            };
            let member = groups[position].1;
            groups[position].1 += 1;
            // Past the eighth knob the hues repeat in shades the first eight do not use.
            let hue = shade(KNOB_HUES[position % KNOB_HUES.len()], position / KNOB_HUES.len() * 5);
            VariantStyle { group: knob.to_string(), group_colour: hue, colour: shade(hue, member), member }
        })
        .collect()
}

/// A point marker: the shape tells apart series whose colours are close.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// A filled circle.
    Circle,
    /// A filled triangle.
    Triangle,
    /// A filled square.
    Square,
    /// A cross.
    Cross,
}

impl Marker {
    /// The `index`-th marker, cycling.
    pub fn nth(index: usize) -> Marker {
        [Marker::Circle, Marker::Triangle, Marker::Square, Marker::Cross][index % 4]
    }

    /// Draws the marker at each of `points` of `chart`. (One plotters element type per
    /// shape: a chart draws a series of one type at a time.)
    pub fn draw_on<'a, 'b: 'a, X: Ranged, Y: Ranged>(
        self,
        chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>,
        points: &[(X::ValueType, Y::ValueType)],
        colour: RGBColor,
    ) -> DrawResult
    where
        X::ValueType: Clone + 'static,
        Y::ValueType: Clone + 'static,
    {
        let fill = colour.filled();
        let at = points.iter().cloned();
        match self {
            Marker::Circle => chart.draw_series(at.map(|point| Circle::new(point, 4, fill)))?,
            Marker::Triangle => chart.draw_series(at.map(|point| TriangleMarker::new(point, 5, fill)))?,
            Marker::Square => {
                chart.draw_series(at.map(|point| EmptyElement::at(point) + Rectangle::new([(-4, -4), (4, 4)], fill)))?
            }
            Marker::Cross => chart.draw_series(at.map(|point| Cross::new(point, 4, colour.stroke_width(2))))?,
        };
        Ok(())
    }

    /// Draws the marker at pixel `at` of `area` (a legend key).
    pub fn draw_at(self, area: &Area, at: (i32, i32), colour: RGBColor) -> DrawResult {
        let fill = colour.filled();
        match self {
            Marker::Circle => area.draw(&Circle::new(at, 4, fill))?,
            Marker::Triangle => area.draw(&TriangleMarker::new(at, 5, fill))?,
            Marker::Square => area.draw(&Rectangle::new([(at.0 - 4, at.1 - 4), (at.0 + 4, at.1 + 4)], fill))?,
            Marker::Cross => area.draw(&Cross::new(at, 4, colour.stroke_width(2)))?,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strategy_has_one_colour_whatever_its_parameter_or_layout() {
        assert_eq!(strategy_colour("depth:4"), strategy_colour("depth:2"));
        assert_eq!(strategy_colour("steal"), strategy_colour("steal (shared, free)"));
        assert_ne!(strategy_colour("steal"), strategy_colour("auto"));
        assert_ne!(strategy_colour("budget:2000"), strategy_colour("depth:4"));
    }

    #[test]
    fn settings_of_one_knob_share_a_hue_and_every_variant_has_its_own_colour() {
        let variants = [
            "defaults",
            "baseline",
            "order=row-major",
            "rules=basic",
            "order=spiral",
            "order=bottom-up",
            "order=most-constrained",
            "a=1+b=2",
        ];
        let styles = variant_styles(&variants);
        assert_eq!(styles[0].colour, DEFAULTS);
        assert_eq!(styles[1].colour, BASELINE);
        assert_eq!(styles[2].group_colour, styles[4].group_colour);
        assert_ne!(styles[2].group_colour, styles[3].group_colour);
        assert_eq!(styles[7].group, "combined");
        let mut colours: Vec<RGBColor> = styles.iter().map(|style| style.colour).collect();
        colours.sort_by_key(|colour| (colour.0, colour.1, colour.2));
        colours.dedup();
        assert_eq!(colours.len(), variants.len());
    }
}
