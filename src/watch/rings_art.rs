//! Olympic rings drawn as circles with the midpoint circle algorithm.

use super::canvas::{Canvas, Style};
use crate::puzzles::view::RingsView;

/// The points of a circle of `radius` around the origin (midpoint circle algorithm:
/// integer steps along one octant, mirrored eight ways).
pub fn circle_points(radius: i64) -> Vec<(i64, i64)> {
    let mut points = Vec::new();
    let (mut x, mut y) = (radius, 0i64);
    let mut decision = 1 - radius;
    while x >= y {
        for (dx, dy) in [(x, y), (y, x), (-y, x), (-x, y), (-x, -y), (-y, -x), (y, -x), (x, -y)] {
            points.push((dx, dy));
        }
        y += 1;
        if decision < 0 {
            decision += 2 * y + 1;
        } else {
            x -= 1;
            decision += 2 * (y - x) + 1;
        }
    }
    points
}

/// Where ring `index` is centred: alternately on an upper and a lower row, as the Olympic
/// rings are; `aspect` squeezes rows for terminal cells taller than they are wide.
fn centre(index: usize, radius: i64, aspect: f64) -> (i64, i64) {
    let vertical = (radius as f64 * aspect).round() as i64;
    let x = radius + 1 + index as i64 * (radius + 1);
    let y = vertical + 1 + if index % 2 == 1 { vertical } else { 0 };
    (x, y)
}

fn ring_colour(name: &str, index: usize) -> Style {
    let known = ["red", "green", "black", "yellow", "blue"];
    match known.iter().position(|colour| name.eq_ignore_ascii_case(colour)) {
        Some(position) => Style::Colour(position as u8),
        None => Style::Colour(index as u8),
    }
}

/// What the marks of a rings frame mean (the colours say the same on a terminal).
pub const RINGS_LEGEND: &str = "<v> given   [v] placed   {v} just tried (red: just rejected)   {?} open";

/// Draws the rings and their spots (`<v>` given, `[v]` placed, `{v}` just tried, `{?}`
/// open), then the pool of values not placed yet; `changed` is the spot that changed in the
/// last step and `rejected` whether a rule rejected it.
pub fn draw_rings(view: &RingsView, radius: i64, aspect: f64, changed: Option<usize>, rejected: bool) -> Canvas {
    let vertical = (radius as f64 * aspect).round() as i64;
    let width = (radius + 1) * (view.rings.len() as i64 + 1) + 2;
    let height = 3 * vertical + 3;
    let mut canvas = Canvas::new(width.max(1) as usize, height.max(1) as usize);
    for (index, name) in view.ring_names.iter().enumerate() {
        let (cx, cy) = centre(index, radius, aspect);
        for (x, y) in circle_points(radius) {
            canvas.put(cx + x, cy + (y as f64 * aspect).round() as i64, '#', ring_colour(name, index));
        }
    }
    for (spot, value) in view.spots.iter().enumerate() {
        let rings: Vec<usize> = (0..view.rings.len()).filter(|&ring| view.rings[ring].contains(&spot)).collect();
        if rings.is_empty() {
            continue;
        }
        let centres: Vec<(i64, i64)> = rings.iter().map(|&ring| centre(ring, radius, aspect)).collect();
        let mut x = centres.iter().map(|c| c.0).sum::<i64>() / centres.len() as i64;
        let mut y = centres.iter().map(|c| c.1).sum::<i64>() / centres.len() as i64;
        if rings.len() == 1 {
            // Spots inside one ring: the given sits left of the centre, the open one right.
            x += if value.is_given() { -3 } else { 2 };
        } else {
            y += 1;
        }
        let (text, style) = match (value.shown(), value.is_given()) {
            (Some(v), true) => (format!("<{v}>"), Style::Given),
            (Some(v), false) if changed == Some(spot) && rejected => (format!("{{{v}}}"), Style::Rejected),
            (Some(v), false) if changed == Some(spot) => (format!("{{{v}}}"), Style::Current),
            (Some(v), false) => (format!("[{v}]"), Style::Placed),
            (None, _) => ("{?}".to_string(), Style::Dim),
        };
        canvas.text(x - 1, y, &text, style);
    }
    let unused: Vec<String> = view.unused.iter().map(|value| value.to_string()).collect();
    canvas.push_line(
        &format!("unused values: {}", if unused.is_empty() { "none".to_string() } else { unused.join(" ") }),
        Style::Dim,
    );
    canvas
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn midpoint_circle_points_lie_on_the_circle() {
        for radius in 1..12 {
            for (x, y) in circle_points(radius) {
                let distance = ((x * x + y * y) as f64).sqrt();
                assert!((distance - radius as f64).abs() < 1.0, "r={radius} ({x},{y})");
            }
        }
        let points = circle_points(5);
        assert!(points.contains(&(5, 0)) && points.contains(&(0, -5)));
    }
}
