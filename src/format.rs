//! Numbers and times as people read them, in one place for the CLI, the harness's tables
//! and `explain`: thousands separators, durations in a chosen unit, ratios said in words.
//!
//! A table column picks one [`TimeUnit`] for all its cells ([`TimeUnit::for_column`]), so
//! values compare by eye; free text uses [`duration`], which picks the unit per value.

use crate::statistics::Interval;

/// `1234567` as `1,234,567`.
pub fn count(value: u64) -> String {
    let digits = value.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

/// An estimated count, which may pass any integer type: grouped as [`count`] writes it up
/// to 10^15, with an exponent past it (`6.550e34`); `-` when it is not a number.
pub fn large_count(value: f64) -> String {
    match value {
        value if value.is_nan() => "-".to_string(),
        value if value.abs() >= LARGEST_GROUPED => format!("{value:.3e}"),
        value => count(value.max(0.0).round() as u64),
    }
}

/// `value` (as [`count`] writes it) and the noun that goes with it: `1 part`, `12 parts`.
pub fn counted(value: u64, one: &str, many: &str) -> String {
    format!("{} {}", count(value), if value == 1 { one } else { many })
}

/// A unit of time for a whole column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    /// Nanoseconds.
    Nanoseconds,
    /// Microseconds.
    Microseconds,
    /// Milliseconds.
    Milliseconds,
    /// Seconds.
    Seconds,
}

impl TimeUnit {
    /// The unit that reads best for a value of `nanoseconds`.
    pub fn for_value(nanoseconds: f64) -> TimeUnit {
        let magnitude = nanoseconds.abs();
        if magnitude >= 1e9 {
            TimeUnit::Seconds
        } else if magnitude >= 1e6 {
            TimeUnit::Milliseconds
        } else if magnitude >= 1e3 {
            TimeUnit::Microseconds
        } else {
            TimeUnit::Nanoseconds
        }
    }

    /// One unit for a column: the one that suits its median value, so most cells have
    /// one to three digits before the point.
    pub fn for_column(values: impl IntoIterator<Item = f64>) -> TimeUnit {
        let mut finite: Vec<f64> = values.into_iter().filter(|value| value.is_finite() && *value > 0.0).collect();
        if finite.is_empty() {
            return TimeUnit::Milliseconds;
        }
        finite.sort_by(f64::total_cmp);
        TimeUnit::for_value(finite[finite.len() / 2])
    }

    /// The unit's symbol (`ms`).
    pub fn symbol(self) -> &'static str {
        match self {
            TimeUnit::Nanoseconds => "ns",
            TimeUnit::Microseconds => "µs",
            TimeUnit::Milliseconds => "ms",
            TimeUnit::Seconds => "s",
        }
    }

    /// Nanoseconds per unit.
    pub fn nanoseconds(self) -> f64 {
        match self {
            TimeUnit::Nanoseconds => 1.0,
            TimeUnit::Microseconds => 1e3,
            TimeUnit::Milliseconds => 1e6,
            TimeUnit::Seconds => 1e9,
        }
    }

    /// `nanoseconds` in this unit, as a number without the symbol, with about four
    /// significant digits.
    pub fn number(self, nanoseconds: f64) -> String {
        significant(nanoseconds / self.nanoseconds())
    }

    /// `nanoseconds` in this unit with the symbol (`1.262 ms`).
    pub fn format(self, nanoseconds: f64) -> String {
        format!("{} {}", self.number(nanoseconds), self.symbol())
    }
}

/// A duration in the unit that reads best for it (`1.262 ms`, `2.5 µs`, `3.41 s`).
pub fn duration(nanoseconds: f64) -> String {
    TimeUnit::for_value(nanoseconds).format(nanoseconds)
}

/// [`duration`] of a whole number of nanoseconds.
pub fn duration_ns(nanoseconds: u64) -> String {
    duration(nanoseconds as f64)
}

/// A median time with its interval in one unit: `1.262 ms [1.251, 1.270]`.
pub fn duration_interval(interval: &Interval, unit: TimeUnit) -> String {
    format!(
        "{} {} [{}, {}]",
        unit.number(interval.estimate),
        unit.symbol(),
        unit.number(interval.low),
        unit.number(interval.high)
    )
}

/// Past this, a whole number is written with an exponent ([`large_count`]): grouped
/// digits of 19 places and more are not read, and a `u64` saturates at 1.8e19.
const LARGEST_GROUPED: f64 = 1e15;

/// About four significant digits, no exponent: `1262`, `12.62`, `0.1262`; thousands of
/// the integer part grouped (`12,345`); from 10^15 on, four digits and an exponent
/// (`6.550e34`).
pub fn significant(value: f64) -> String {
    if !value.is_finite() {
        return String::new();
    }
    let magnitude = value.abs();
    if magnitude >= LARGEST_GROUPED {
        return format!("{value:.3e}");
    }
    if magnitude >= 999.5 {
        let rounded = magnitude.round() as u64;
        return if value < 0.0 { format!("-{}", count(rounded)) } else { count(rounded) };
    }
    // Decimals from the value as rounded, so 0.99999 reads 1.000, not 1.0000.
    let rounded = round_to_significant(magnitude, 4);
    let decimals = if rounded == 0.0 { 0 } else { (3 - rounded.log10().floor() as i32).clamp(0, 6) as usize };
    format!("{value:.decimals$}")
}

/// A ratio as a plain factor with three significant digits (`1.86x`, `33,000x`).
pub fn factor(value: f64) -> String {
    if !value.is_finite() || value <= 0.0 {
        return String::new();
    }
    let text = if value >= 1000.0 {
        count(round_to_significant(value, 3) as u64)
    } else if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    };
    format!("{text}x")
}

/// A factor with its interval: `1.83x [1.43x, 2.18x]`.
pub fn factor_interval(interval: &Interval) -> String {
    format!("{} [{}, {}]", factor(interval.estimate), factor(interval.low), factor(interval.high))
}

/// `value` rounded to `digits` significant digits.
fn round_to_significant(value: f64, digits: i32) -> f64 {
    if value == 0.0 {
        return 0.0;
    }
    let scale = 10f64.powi(digits - 1 - value.abs().log10().floor() as i32);
    (value * scale).round() / scale
}

/// A ratio of this configuration's quantity to a reference's, in words: `33,000x fewer
/// nodes`, `1.86x faster`; `fewer`/`more` word pairs given by the caller. Equal values
/// read `same`.
pub fn ratio_in_words(ratio: f64, less: &str, more: &str) -> String {
    if !ratio.is_finite() || ratio <= 0.0 {
        return String::new();
    }
    if (ratio - 1.0).abs() < 0.005 {
        return "same".to_string();
    }
    if ratio < 1.0 {
        format!("{} {less}", factor(1.0 / ratio))
    } else {
        format!("{} {more}", factor(ratio))
    }
}

/// Nodes per second as `12.3 M nodes/s` (`-` without time).
pub fn node_rate(nodes: u64, nanoseconds: u64) -> String {
    if nanoseconds == 0 {
        return "-".to_string();
    }
    format!("{:.1} M nodes/s", nodes as f64 / nanoseconds as f64 * 1e3)
}

/// A share (0..1) as a percentage with one decimal (`42.1%`).
pub fn percent(share: f64) -> String {
    if !share.is_finite() {
        return String::new();
    }
    format!("{:.1}%", share * 100.0)
}

/// Shares that sum to 1 as percentages with one decimal that sum to exactly `100.0%` as
/// printed (largest remainder rounding: the tenths lost to rounding down go to the shares
/// that lost most). Shares that do not sum to about 1 are printed as [`percent`] does.
pub fn percents_of_whole(shares: &[f64]) -> Vec<String> {
    let total: f64 = shares.iter().sum();
    if shares.iter().any(|share| !share.is_finite() || *share < 0.0) || (total - 1.0).abs() > 1e-6 {
        return shares.iter().map(|share| percent(*share)).collect();
    }
    let tenths: Vec<f64> = shares.iter().map(|share| share * 1000.0).collect();
    let mut rounded: Vec<u64> = tenths.iter().map(|value| value.floor() as u64).collect();
    let missing = 1000u64.saturating_sub(rounded.iter().sum());
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by(|&a, &b| (tenths[b] - tenths[b].floor()).total_cmp(&(tenths[a] - tenths[a].floor())));
    for &index in order.iter().take(missing as usize) {
        rounded[index] += 1;
    }
    rounded.iter().map(|value| format!("{}.{}%", value / 10, value % 10)).collect()
}

/// Text safe inside a Markdown table cell: `|` escaped, and every control character (a line
/// break would end the row, a NUL or an escape sequence garble the page) shown as a space.
pub fn markdown_cell(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>().replace('|', "\\|")
}

/// Text of the runs (a title, a host, an error) as the README quotes it outside a code span:
/// [`markdown_cell`]'s, and `&`, `<` and `>` as HTML entities, since a Markdown renderer
/// takes `<b>` or `</svg>` in an instance's title for HTML.
pub fn markdown_text(text: &str) -> String {
    markdown_cell(text).replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// `text` as one Markdown code span, whatever backticks it holds: fenced by one backtick
/// more than its longest run of them (a backtick in an id ended a one-backtick span, and
/// the rest was read as Markdown and HTML). Inside a span nothing else is markup, so no
/// entity is written (it would show as typed); a control character shows as a space.
pub fn markdown_code(text: &str) -> String {
    let text: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    // A span's first and last space go when both are there: the fence stays apart from
    // a backtick of the text.
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// [`markdown_code`] in a table cell, where `|` would end the cell even inside the span.
pub fn markdown_code_cell(text: &str) -> String {
    markdown_code(text).replace('|', "\\|")
}

/// `text` as one word of a shell command line a user may paste: as it is when every
/// character is safe unquoted, else in single quotes (a `'` inside written `'\''`). A
/// folder named `r;touch x` or `my runs` printed bare in a suggested command ran `touch`
/// or split in two.
pub fn shell_word(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_./:@%+=,-".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        return text.to_string();
    }
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The most characters of a file's field that a message quotes.
pub const EXCERPT_CHARS: usize = 80;

/// `text` as a message quotes it: whole when it is at most [`EXCERPT_CHARS`] characters,
/// else its first ones and how long it is, so that one bad field of a file (a path of
/// thousands of levels, a line without an end) still makes an error of one line.
pub fn excerpt(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => text.into(),
        Some((cut, _)) => format!("{}... ({} characters)", &text[..cut], text.chars().count()).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shell_word_is_quoted_only_where_it_must_be() {
        assert_eq!(shell_word("run/k-1.x"), "run/k-1.x");
        assert_eq!(shell_word("my runs"), "'my runs'");
        assert_eq!(shell_word("r;touch x"), "'r;touch x'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn a_long_field_is_quoted_by_its_start_and_length() {
        assert_eq!(excerpt("3.1.2"), "3.1.2");
        let exact = "9".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact);
        let long = "1.".repeat(100_000);
        assert_eq!(excerpt(&long), format!("{}... (200000 characters)", &long[..EXCERPT_CHARS]));
        // Cut on a character, never inside one.
        let wide = "é".repeat(EXCERPT_CHARS + 1);
        assert_eq!(excerpt(&wide), format!("{}... ({} characters)", "é".repeat(EXCERPT_CHARS), EXCERPT_CHARS + 1));
    }

    #[test]
    fn counts_group_thousands() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(18_006_587), "18,006,587");
    }

    #[test]
    fn a_count_of_one_takes_the_singular() {
        assert_eq!(counted(0, "part", "parts"), "0 parts");
        assert_eq!(counted(1, "part", "parts"), "1 part");
        assert_eq!(counted(1_024, "worker slot", "worker slots"), "1,024 worker slots");
    }

    #[test]
    fn a_column_keeps_one_unit() {
        let unit = TimeUnit::for_column([960_500.0, 1_262_000.0, 4_248_000.0, 2_500.0]);
        assert_eq!(unit, TimeUnit::Milliseconds);
        assert_eq!(unit.format(2_500.0), "0.002500 ms");
        assert_eq!(unit.format(1_262_000.0), "1.262 ms");
    }

    #[test]
    fn ratios_are_said_in_words() {
        assert_eq!(ratio_in_words(1.0 / 33_000.0, "fewer nodes", "more nodes"), "33,000x fewer nodes");
        assert_eq!(ratio_in_words(1.86, "slower", "faster"), "1.86x faster");
        assert_eq!(ratio_in_words(1.001, "slower", "faster"), "same");
        assert_eq!(ratio_in_words(f64::NAN, "a", "b"), "");
    }

    #[test]
    fn rounding_up_does_not_add_a_digit() {
        assert_eq!(significant(0.99999), "1.000");
        assert_eq!(significant(9.99996), "10.00");
        assert_eq!(significant(999.7), "1,000");
        assert_eq!(significant(0.0), "0");
        assert_eq!(significant(6.55e34), "6.550e34");
        assert_eq!(large_count(6.55e34), "6.550e34");
        assert_eq!(large_count(349.2), "349");
        assert_eq!(large_count(999_999_999_999_999.0), "999,999,999,999,999");
        assert_eq!(large_count(f64::NAN), "-");
    }

    #[test]
    fn percents_of_a_whole_sum_to_exactly_100() {
        let thirds = percents_of_whole(&[1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]);
        assert_eq!(thirds, ["33.4%", "33.3%", "33.3%"]);
        assert_eq!(percents_of_whole(&[0.5, 0.5, 0.0]), ["50.0%", "50.0%", "0.0%"]);
        assert_eq!(percents_of_whole(&[0.2, 0.2]), ["20.0%", "20.0%"], "not a whole: plain percents");
    }

    #[test]
    fn durations_pick_their_unit() {
        assert_eq!(duration(1_262_000.0), "1.262 ms");
        assert_eq!(duration(2_500.0), "2.500 µs");
        assert_eq!(duration(3_410_000_000.0), "3.410 s");
        assert_eq!(duration(42.0), "42.00 ns");
    }

    #[test]
    fn intervals_share_the_unit_of_their_estimate() {
        let interval = Interval { low: 1_251_000.0, estimate: 1_262_000.0, high: 1_270_000.0 };
        assert_eq!(duration_interval(&interval, TimeUnit::Milliseconds), "1.262 ms [1.251, 1.270]");
    }
}
