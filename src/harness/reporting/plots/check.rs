//! A legibility check of a plot, read from its SVG text alone, so that it runs over any
//! plot this crate writes (and over the committed ones in `results/plots/`):
//!
//! - no text runs past the image's edges (widths estimated from the font size and the
//!   character count, on the wide side);
//! - every legend box is big enough to hold its keys, and every key in it is visible
//!   (8 px or more), has its label beside it, and has a colour no other key has;
//! - every line series (a polyline 2 px wide or more, outside the legend) has a key of
//!   its colour, and every key's colour is drawn somewhere outside the legend.
//!
//! A legend box is a rectangle with a stroke and no fill, which is how both this crate's
//! legend and plotters' own frame theirs.

use super::canvas::CHAR_WIDTH_EM;

/// Smallest visible extent of a legend key, in pixels.
const MIN_KEY_PX: f64 = 8.0;
/// How far (pixels) a key may stick out of its box and still count as inside it.
const SLACK: f64 = 2.0;

/// What is wrong with a plot, one sentence per problem (empty: legible).
pub fn problems(svg: &str) -> Vec<String> {
    let elements = parse(svg);
    let (width, height) = elements
        .iter()
        .find(|element| element.name == "svg")
        .map(|svg| (svg.number("width"), svg.number("height")))
        .unwrap_or((0.0, 0.0));
    let mut found = Vec::new();
    for text in elements.iter().filter(|element| element.name == "text") {
        found.extend(text_problem(text, width, height));
    }
    let boxes: Vec<Bounds> = elements
        .iter()
        .filter(|element| element.name == "rect" && element.attribute("fill") == "none")
        .filter(|element| !matches!(element.attribute("stroke"), "" | "none"))
        .map(Bounds::of)
        .collect();
    let inside_any = |bounds: &Bounds| boxes.iter().any(|frame| frame.holds(bounds));
    let mut key_colours: Vec<String> = Vec::new();
    for frame in &boxes {
        if frame.width() < MIN_KEY_PX || frame.height() < MIN_KEY_PX {
            found.push(format!(
                "a legend box at ({}, {}) is {} x {} px: too small to hold its keys",
                frame.left,
                frame.top,
                frame.width(),
                frame.height()
            ));
        }
        let keys = legend_keys(&elements, frame);
        let labels: Vec<&Element> =
            elements.iter().filter(|element| element.name == "text" && frame.holds_point(element.point())).collect();
        for key in &keys {
            if key.bounds.width().max(key.bounds.height()) < MIN_KEY_PX {
                found.push(format!(
                    "the legend key in {} is {} px long: invisible",
                    key.colour,
                    key.bounds.width().max(key.bounds.height())
                ));
            }
            let middle = (key.bounds.top + key.bounds.bottom) / 2.0;
            let labelled = labels
                .iter()
                .any(|text| text.number("x") >= key.bounds.right - 1.0 && (text_middle(text) - middle).abs() <= 10.0);
            if !labelled {
                found.push(format!("the legend key in {} has no label beside it", key.colour));
            }
            if key_colours.contains(&key.colour) {
                found.push(format!("two legend keys are drawn in {}: one key per series", key.colour));
            }
            key_colours.push(key.colour.clone());
        }
    }
    let mut series: Vec<String> = Vec::new();
    let mut drawn: Vec<String> = Vec::new();
    for element in &elements {
        let bounds = Bounds::of(element);
        if inside_any(&bounds) || !matches!(element.name.as_str(), "polyline" | "rect" | "line" | "circle") {
            continue;
        }
        drawn.extend([element.attribute("stroke"), element.attribute("fill")].map(str::to_string));
        let is_line = element.name == "polyline" && element.number("stroke-width") >= 2.0;
        if is_line && element.points().len() >= 2 && !series.contains(&element.attribute("stroke").to_string()) {
            series.push(element.attribute("stroke").to_string());
        }
    }
    for colour in &series {
        if !key_colours.contains(colour) {
            found.push(format!("the line in {colour} has no legend key"));
        }
    }
    for colour in &key_colours {
        if !drawn.contains(colour) {
            found.push(format!("the legend key in {colour} matches nothing drawn"));
        }
    }
    found
}

/// The plot's title: the text in the largest font (the first of equals).
pub fn title(svg: &str) -> Option<String> {
    let elements = parse(svg);
    let texts = elements.iter().filter(|element| element.name == "text");
    let mut best: Option<&Element> = None;
    for text in texts {
        if best.is_none_or(|best| text.number("font-size") > best.number("font-size")) {
            best = Some(text);
        }
    }
    best.map(|text| text.content.clone())
}

/// Every text of the plot, in document order.
pub fn texts(svg: &str) -> Vec<String> {
    parse(svg).into_iter().filter(|element| element.name == "text").map(|text| text.content).collect()
}

/// Why `text` runs past the image's edges, if it does.
fn text_problem(text: &Element, width: f64, height: f64) -> Option<String> {
    let characters = text.content.chars().count() as f64;
    if characters == 0.0 {
        return None;
    }
    let length = characters * text.number("font-size") * CHAR_WIDTH_EM;
    let before = match text.attribute("text-anchor") {
        "middle" => length / 2.0,
        "end" => length,
        _ => 0.0,
    };
    let (x, y) = text.point();
    // Rotated text (a y-axis description) runs along the vertical.
    let rotated =
        text.attribute("transform").contains("rotate(270") || text.attribute("transform").contains("rotate(90");
    let (start, end, limit, axis) = if rotated {
        (y - length + before, y + before, height, "vertical")
    } else {
        (x - before, x - before + length, width, "horizontal")
    };
    (start < -0.5 || end > limit + 0.5 || x < 0.0 || x > width || y < 0.0 || y > height).then(|| {
        format!(
            "the text \"{}\" ({:.0} to {:.0} px, {axis}) runs past the image's {limit} x {height} px",
            text.content, start, end
        )
    })
}

/// The vertical middle of a text line, from its anchor and its `dy` shift.
fn text_middle(text: &Element) -> f64 {
    let size = text.number("font-size");
    let y = text.number("y");
    match text.attribute("dy") {
        "0.76em" => y + 0.5 * size,
        "-0.5ex" => y - 0.5 * size,
        _ => y,
    }
}

/// A legend key: the parts of one colour on one row of a box, merged (a dashed key is
/// two dashes).
struct LegendKey {
    colour: String,
    bounds: Bounds,
}

/// The keys inside `frame`: lines and filled shapes other than the box's own background.
fn legend_keys(elements: &[Element], frame: &Bounds) -> Vec<LegendKey> {
    let mut keys: Vec<LegendKey> = Vec::new();
    for element in elements {
        let colour = match element.name.as_str() {
            "polyline" | "line" => element.attribute("stroke"),
            "rect" => element.attribute("fill"),
            _ => continue,
        };
        let bounds = Bounds::of(element);
        if matches!(colour, "none" | "" | "#FFFFFF") || !frame.holds(&bounds) || bounds == *frame {
            continue;
        }
        let middle = (bounds.top + bounds.bottom) / 2.0;
        let same_row = keys
            .iter_mut()
            .find(|key| key.colour == colour && ((key.bounds.top + key.bounds.bottom) / 2.0 - middle).abs() <= 4.0);
        match same_row {
            Some(key) => key.bounds = key.bounds.union(&bounds),
            None => keys.push(LegendKey { colour: colour.to_string(), bounds }),
        }
    }
    keys
}

/// An axis-aligned box in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bounds {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

impl Bounds {
    fn of(element: &Element) -> Bounds {
        let number = |name: &str| element.number(name);
        match element.name.as_str() {
            "rect" => Bounds {
                left: number("x"),
                top: number("y"),
                right: number("x") + number("width"),
                bottom: number("y") + number("height"),
            },
            "line" => Bounds::around(&[(number("x1"), number("y1")), (number("x2"), number("y2"))]),
            "circle" => {
                let (x, y, r) = (number("cx"), number("cy"), number("r"));
                Bounds { left: x - r, top: y - r, right: x + r, bottom: y + r }
            }
            "polyline" | "polygon" => Bounds::around(&element.points()),
            _ => Bounds::around(&[element.point()]),
        }
    }

    fn around(points: &[(f64, f64)]) -> Bounds {
        let mut bounds =
            Bounds { left: f64::INFINITY, top: f64::INFINITY, right: f64::NEG_INFINITY, bottom: f64::NEG_INFINITY };
        for &(x, y) in points {
            bounds = bounds.union(&Bounds { left: x, top: y, right: x, bottom: y });
        }
        bounds
    }

    fn union(&self, other: &Bounds) -> Bounds {
        Bounds {
            left: self.left.min(other.left),
            top: self.top.min(other.top),
            right: self.right.max(other.right),
            bottom: self.bottom.max(other.bottom),
        }
    }

    fn width(&self) -> f64 {
        self.right - self.left
    }

    fn height(&self) -> f64 {
        self.bottom - self.top
    }

    fn holds(&self, other: &Bounds) -> bool {
        other.left >= self.left - SLACK
            && other.right <= self.right + SLACK
            && other.top >= self.top - SLACK
            && other.bottom <= self.bottom + SLACK
    }

    fn holds_point(&self, (x, y): (f64, f64)) -> bool {
        self.holds(&Bounds { left: x, top: y, right: x, bottom: y })
    }
}

/// One SVG element: its name, attributes and (for `text`) its content, unescaped.
#[derive(Debug, Clone, Default)]
struct Element {
    name: String,
    attributes: Vec<(String, String)>,
    content: String,
}

impl Element {
    fn attribute(&self, name: &str) -> &str {
        self.attributes.iter().find(|(key, _)| key == name).map_or("", |(_, value)| value.as_str())
    }

    fn number(&self, name: &str) -> f64 {
        self.attribute(name).trim().parse().unwrap_or(0.0)
    }

    fn point(&self) -> (f64, f64) {
        (self.number("x"), self.number("y"))
    }

    fn points(&self) -> Vec<(f64, f64)> {
        self.attribute("points")
            .split_whitespace()
            .filter_map(|pair| pair.split_once(','))
            .filter_map(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)))
            .collect()
    }
}

/// The elements of `svg`, in document order. A small reader for what plotters writes
/// (one element per tag, attributes in double quotes), not a general XML parser.
fn parse(svg: &str) -> Vec<Element> {
    let mut elements = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        let Some(end) = rest.find('>') else { break };
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with(['/', '?', '!']) {
            continue;
        }
        let tag = tag.trim_end_matches('/');
        let name: String = tag.chars().take_while(|c| !c.is_whitespace()).collect();
        let mut element = Element { attributes: attributes(&tag[name.len()..]), name, ..Element::default() };
        if element.name == "text" {
            let content = rest.find("</text>").map_or("", |close| &rest[..close]);
            element.content = unescape(content.trim());
        }
        elements.push(element);
    }
    elements
}

/// `name="value"` pairs of a tag.
fn attributes(mut text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    while let Some(equals) = text.find("=\"") {
        let name = text[..equals].trim().to_string();
        let after = &text[equals + 2..];
        let Some(close) = after.find('"') else { break };
        found.push((name, after[..close].to_string()));
        text = &after[close + 1..];
    }
    found
}

/// `text` with XML's five named entities replaced.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str = r##"<svg width="900" height="500" viewBox="0 0 900 500" xmlns="http://www.w3.org/2000/svg">
<text x="341" y="17" dy="0.76em" text-anchor="middle" font-family="sans-serif" font-size="14.5" opacity="1" fill="#000000">
C_prime_3x3_grid_enumeration (defaults, all): speedup against threads
</text>
<polyline fill="none" opacity="1" stroke="#3CB44B" stroke-width="2" points="98,418 135,403 209,358 "/>
<rect x="670" y="37" width="0" height="90" opacity="1" fill="none" stroke="#000000"/>
<text x="670" y="62" dy="0.76em" text-anchor="start" font-family="sans-serif" font-size="9.67" opacity="1" fill="#000000">
forced=try-both+order=most-constrained+rules=derived+connectivity=leaves
</text>
<polyline fill="none" opacity="1" stroke="#3CB44B" stroke-width="2" points="670,67 670,67 "/>
</svg>"##;

    #[test]
    fn the_zero_length_keys_and_the_cut_label_of_the_old_plots_are_found() {
        let found = problems(BEFORE);
        assert!(found.iter().any(|problem| problem.contains("too small to hold its keys")), "{found:?}");
        assert!(found.iter().any(|problem| problem.contains("#3CB44B is 0 px long")), "{found:?}");
        assert!(found.iter().any(|problem| problem.contains("runs past the image")), "{found:?}");
        assert_eq!(
            title(BEFORE).as_deref(),
            Some("C_prime_3x3_grid_enumeration (defaults, all): speedup against threads")
        );
    }

    #[test]
    fn a_line_without_a_key_and_two_keys_of_one_colour_are_found() {
        let svg = r##"<svg width="400" height="300">
<polyline stroke="#112233" stroke-width="2" points="10,10 50,50 "/>
<polyline stroke="#445566" stroke-width="2" points="10,60 50,90 "/>
<rect x="300" y="10" width="90" height="60" fill="none" stroke="#505050"/>
<polyline stroke="#112233" stroke-width="2" points="308,20 336,20 "/>
<text x="344" y="20" dy="0.5ex" text-anchor="start" font-size="11" fill="#000000">a</text>
<polyline stroke="#112233" stroke-width="2" points="308,40 336,40 "/>
<text x="344" y="40" dy="0.5ex" text-anchor="start" font-size="11" fill="#000000">b</text>
</svg>"##;
        let found = problems(svg);
        assert!(found.contains(&"the line in #445566 has no legend key".to_string()), "{found:?}");
        assert!(found.iter().any(|problem| problem.starts_with("two legend keys are drawn in #112233")), "{found:?}");
    }
}
