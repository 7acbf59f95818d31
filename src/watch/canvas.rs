//! A character canvas with a style per cell, printed with or without ANSI colours.

/// How a canvas cell is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Default terminal colours.
    Plain,
    /// A ring or group colour (an index into the palette).
    Colour(u8),
    /// A value given by the instance.
    Given,
    /// A value the search placed and kept.
    Placed,
    /// The value just tried (the cell that changed in the last step).
    Current,
    /// The value a rule just rejected.
    Rejected,
    /// Status text.
    Dim,
}

/// A rectangle of characters, each with a style.
#[derive(Debug, Clone)]
pub struct Canvas {
    width: usize,
    cells: Vec<Vec<(char, Style)>>,
}

/// Colours for rings and groups: ANSI 256-colour codes, readable on dark and light backgrounds.
const PALETTE: [u8; 12] = [196, 34, 250, 220, 33, 208, 135, 44, 161, 106, 69, 173];

impl Canvas {
    /// A blank canvas.
    pub fn new(width: usize, height: usize) -> Canvas {
        Canvas { width, cells: vec![vec![(' ', Style::Plain); width]; height] }
    }

    /// Width in columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in lines.
    pub fn height(&self) -> usize {
        self.cells.len()
    }

    /// Puts `character` at (`x`, `y`); outside the canvas it is dropped.
    pub fn put(&mut self, x: i64, y: i64, character: char, style: Style) {
        if x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.cells.len() {
            self.cells[y as usize][x as usize] = (character, style);
        }
    }

    /// Writes `text` from (`x`, `y`) rightwards.
    pub fn text(&mut self, x: i64, y: i64, text: &str, style: Style) {
        for (offset, character) in text.chars().enumerate() {
            self.put(x + offset as i64, y, character, style);
        }
    }

    /// Adds a line of text at the bottom, widening the canvas if needed.
    pub fn push_line(&mut self, text: &str, style: Style) {
        let length = text.chars().count();
        if length > self.width {
            for row in &mut self.cells {
                row.resize(length, (' ', Style::Plain));
            }
            self.width = length;
        }
        self.cells.push(vec![(' ', Style::Plain); self.width]);
        let y = self.cells.len() as i64 - 1;
        self.text(0, y, text, style);
    }

    /// The canvas as text: with ANSI colour codes when `colour`, else plain; trailing
    /// blanks trimmed; lines joined by newlines.
    pub fn to_text(&self, colour: bool) -> String {
        let mut out = String::new();
        for row in &self.cells {
            let end = row.iter().rposition(|(character, _)| *character != ' ').map_or(0, |last| last + 1);
            let mut current = Style::Plain;
            for &(character, style) in &row[..end] {
                if colour && style != current {
                    out.push_str("\x1b[0m");
                    out.push_str(&ansi(style));
                    current = style;
                }
                out.push(character);
            }
            if colour && current != Style::Plain {
                out.push_str("\x1b[0m");
            }
            out.push('\n');
        }
        out
    }
}

fn ansi(style: Style) -> String {
    match style {
        Style::Plain => String::new(),
        Style::Colour(index) => format!("\x1b[38;5;{}m", PALETTE[index as usize % PALETTE.len()]),
        Style::Given => "\x1b[1;37m".to_string(),
        Style::Placed => "\x1b[1;32m".to_string(),
        Style::Current => "\x1b[1;30;43m".to_string(),
        Style::Rejected => "\x1b[1;37;41m".to_string(),
        Style::Dim => "\x1b[2m".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_trims_and_colour_text_resets() {
        let mut canvas = Canvas::new(5, 1);
        canvas.text(1, 0, "ab", Style::Colour(0));
        assert_eq!(canvas.to_text(false), " ab\n");
        assert_eq!(canvas.to_text(true), " \x1b[0m\x1b[38;5;196mab\x1b[0m\n");
    }
}
