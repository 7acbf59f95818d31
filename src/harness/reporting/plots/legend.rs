//! The legend of a plot: a framed box in its own column right of the chart, one row per
//! series with a key drawn in the series' colour (a line segment with the series' marker,
//! or a swatch for bars) and its label, wrapped to the column's width.
//!
//! plotters' own legend is not used: placed outside the plotting area it is clipped to
//! nothing (zero-length keys, a zero-width box), and it cuts long labels at the image's
//! edge. This one is laid out from estimated text widths, so that nothing is cut.

use super::canvas::{text_width, Area, DrawResult, LEGEND_FONT};
use super::style::Marker;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Padding inside the frame.
const PAD: i32 = 8;
/// Length of a line key in pixels: long enough to see its colour and dash.
const KEY_LENGTH: i32 = 28;
/// Space between a key and its label.
const GAP: i32 = 8;
/// Height of one line of label text.
const LINE_HEIGHT: i32 = 16;
/// Space between two entries.
const ROW_GAP: i32 = 5;
/// Space between the chart and the legend's column, and right of the legend.
const COLUMN_GAP: u32 = 10;

/// What a legend entry's key looks like.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Key {
    /// A line segment as the series is drawn, with its marker in the middle.
    Line {
        /// The series' colour.
        colour: RGBColor,
        /// The line's width in pixels.
        width: u32,
        /// Whether the series is dashed (the ideal line).
        dashed: bool,
        /// The series' point marker, if it has one.
        marker: Option<Marker>,
    },
    /// A filled square, for bars.
    Swatch(RGBColor),
}

/// One legend entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The label text (wrapped when too long).
    pub label: String,
    /// Its key.
    pub key: Key,
}

impl Entry {
    /// An entry with a solid line key of `colour`, `width` pixels wide, and `marker`.
    pub fn line(label: impl Into<String>, colour: RGBColor, width: u32, marker: Option<Marker>) -> Entry {
        Entry { label: label.into(), key: Key::Line { colour, width, dashed: false, marker } }
    }
}

/// A legend laid out for a column at most `max_width` pixels wide.
#[derive(Debug, Clone)]
pub struct Legend {
    rows: Vec<(Key, Vec<String>)>,
    width: u32,
}

impl Legend {
    /// Lays out `entries`, wrapping each label to fit `max_width` pixels of column.
    pub fn new(entries: Vec<Entry>, max_width: u32) -> Legend {
        let char_px = f64::from(text_width("m", LEGEND_FONT)).max(1.0);
        let room = max_width as i32 - 2 * PAD - KEY_LENGTH - GAP;
        let max_chars = ((f64::from(room.max(1)) / char_px).floor() as usize).max(8);
        let rows: Vec<(Key, Vec<String>)> =
            entries.into_iter().map(|entry| (entry.key, wrap(&entry.label, max_chars))).collect();
        let widest = rows.iter().flat_map(|(_, lines)| lines).map(|line| text_width(line, LEGEND_FONT)).max();
        let width = (2 * PAD + KEY_LENGTH + GAP) as u32 + widest.unwrap_or(0);
        Legend { rows, width }
    }

    /// Whether it has no entry.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Its width in pixels, frame included.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Its height in pixels, frame included.
    pub fn height(&self) -> u32 {
        let lines: i32 = self.rows.iter().map(|(_, lines)| lines.len() as i32 * LINE_HEIGHT + ROW_GAP).sum();
        (2 * PAD + lines - ROW_GAP).max(0) as u32
    }

    /// The width a column beside a chart needs for it, gap included (0 when empty).
    pub fn column_width(&self) -> u32 {
        if self.is_empty() {
            0
        } else {
            self.width + 2 * COLUMN_GAP
        }
    }

    /// Splits `area` into the chart's part (left) and the legend's column (right).
    pub fn beside<'a>(&self, area: &Area<'a>) -> (Area<'a>, Area<'a>) {
        let (width, _) = area.dim_in_pixel();
        area.split_horizontally(width.saturating_sub(self.column_width()))
    }

    /// Draws the legend with its top-left corner at `corner` (pixels within `area`).
    pub fn draw(&self, area: &Area, corner: (i32, i32)) -> DrawResult {
        if self.is_empty() {
            return Ok(());
        }
        let (left, top) = corner;
        let bottom_right = (left + self.width as i32 - 1, top + self.height() as i32);
        area.draw(&Rectangle::new([corner, bottom_right], WHITE.filled()))?;
        area.draw(&Rectangle::new([corner, bottom_right], RGBColor(80, 80, 80).stroke_width(1)))?;
        let font = ("sans-serif", LEGEND_FONT).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
        let mut y = top + PAD + LINE_HEIGHT / 2;
        for (key, lines) in &self.rows {
            draw_key(area, *key, (left + PAD, y))?;
            for (number, line) in lines.iter().enumerate() {
                let at = (left + PAD + KEY_LENGTH + GAP, y + number as i32 * LINE_HEIGHT);
                area.draw(&Text::new(line.clone(), at, font.clone()))?;
            }
            y += lines.len() as i32 * LINE_HEIGHT + ROW_GAP;
        }
        Ok(())
    }
}

/// Draws `key` with its left end at `start` (the vertical middle of its row).
fn draw_key(area: &Area, key: Key, start: (i32, i32)) -> DrawResult {
    let (x, y) = start;
    match key {
        Key::Line { colour, width, dashed, marker } => {
            let style = colour.stroke_width(width);
            if dashed {
                // Two dashes, as the ideal line is drawn.
                area.draw(&PathElement::new(vec![(x, y), (x + 11, y)], style))?;
                area.draw(&PathElement::new(vec![(x + 17, y), (x + KEY_LENGTH, y)], style))?;
            } else {
                area.draw(&PathElement::new(vec![(x, y), (x + KEY_LENGTH, y)], style))?;
            }
            if let Some(marker) = marker {
                marker.draw_at(area, (x + KEY_LENGTH / 2, y), colour)?;
            }
        }
        Key::Swatch(colour) => {
            area.draw(&Rectangle::new([(x + 6, y - 6), (x + KEY_LENGTH - 6, y + 6)], colour.filled()))?;
        }
    }
    Ok(())
}

/// `label` in lines of at most `max_chars` characters, broken after `+`, `,`, `;` or a
/// space where it can be (a long knob combination stays readable), and inside a word only
/// where a word alone is longer than a line. No character is dropped.
pub fn wrap(label: &str, max_chars: usize) -> Vec<String> {
    let max_chars = max_chars.max(1);
    let mut pieces: Vec<String> = Vec::new();
    let mut piece = String::new();
    for character in label.chars() {
        piece.push(character);
        if matches!(character, '+' | ',' | ';' | ' ') {
            pieces.push(std::mem::take(&mut piece));
        }
    }
    if !piece.is_empty() {
        pieces.push(piece);
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for piece in pieces {
        if !line.is_empty() && line.trim_end().chars().count() + piece.trim_end().chars().count() > max_chars {
            lines.push(line.trim_end().to_string());
            line.clear();
        }
        line.push_str(&piece);
        while line.trim_end().chars().count() > max_chars {
            let head: String = line.chars().take(max_chars).collect();
            let tail: String = line.chars().skip(max_chars).collect();
            lines.push(head);
            line = tail;
        }
    }
    if !line.trim_end().is_empty() || lines.is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_knob_combinations_wrap_after_plus_signs_and_keep_every_character() {
        let label = "forced=try-both+order=most-constrained+rules=derived";
        let lines = wrap(label, 24);
        assert_eq!(lines, ["forced=try-both+", "order=most-constrained+", "rules=derived"]);
        assert_eq!(lines.concat(), label);
        assert_eq!(wrap("steal", 24), ["steal"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert!(wrap("ideal (speedup = threads)", 12).iter().all(|line| line.chars().count() <= 12));
    }

    #[test]
    fn a_legend_is_as_wide_as_its_longest_line_and_no_wider_than_its_column() {
        let entries = vec![
            Entry::line("auto", RED, 2, None),
            Entry::line("forced=try-both+order=most-constrained+rules=derived", BLUE, 2, None),
        ];
        let legend = Legend::new(entries, 220);
        assert!(legend.width() <= 220, "{}", legend.width());
        assert!(legend.height() > 3 * LINE_HEIGHT as u32);
    }
}
