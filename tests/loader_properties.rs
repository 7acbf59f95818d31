//! Property tests of instance loading: truncated, mutated and random files always give an
//! error message (never a panic), and whatever loads can be searched without a panic.

use backtrack_bench::instance::{self, BUILTIN};
use backtrack_bench::solve::{self, RunSettings};
use proptest::prelude::*;
use std::path::Path;

/// Loads `text`; if it loads, searches it under a small node limit. Either way, no panic.
fn load_and_search(text: &str) {
    match instance::parse(text, Path::new("mutated.json"), "mutated.json") {
        Ok(loaded) => {
            let settings = RunSettings { node_limit: 20_000, ..RunSettings::default() };
            let _ = solve::run(&loaded, &settings);
        }
        Err(error) => {
            let message = error.to_string();
            assert!(message.starts_with("mutated.json"), "the message names the file: {message}");
            assert!(message.len() > "mutated.json: ".len(), "the message says what is wrong: {message}");
        }
    }
}

fn seed_text() -> impl Strategy<Value = &'static str> {
    prop::sample::select(BUILTIN.iter().map(|(_, _, text)| *text).collect::<Vec<_>>())
}

/// Byte offsets of the numbers in `text`.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index].is_ascii_digit() {
            let start = index;
            while index < bytes.len() && bytes[index].is_ascii_digit() {
                index += 1;
            }
            spans.push((start, index));
        } else {
            index += 1;
        }
    }
    spans
}

const REPLACEMENTS: &[&str] =
    &["-1", "0", "1", "12", "99999999999", "3.5", "null", "\"7\"", "[]", "{}", "true", "-2147483649", "1e300"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn truncated_files_are_errors_not_panics(text in seed_text(), cut in 0.0f64..1.0) {
        let mut end = (text.len() as f64 * cut) as usize;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        load_and_search(&text[..end]);
    }

    #[test]
    fn mutated_numbers_are_errors_or_searchable(
        text in seed_text(),
        picks in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(REPLACEMENTS)), 1..4),
    ) {
        let spans = number_spans(text);
        let mut chosen: Vec<(usize, usize, &str)> =
            picks.iter().map(|(index, replacement)| { let (s, e) = spans[index.index(spans.len())]; (s, e, *replacement) }).collect();
        chosen.sort_by_key(|(start, _, _)| std::cmp::Reverse(*start));
        chosen.dedup_by_key(|(start, _, _)| *start);
        let mut mutated = text.to_string();
        for (start, end, replacement) in chosen {
            mutated.replace_range(start..end, replacement);
        }
        load_and_search(&mutated);
    }

    #[test]
    fn deleted_lines_are_errors_or_searchable(text in seed_text(), line in any::<prop::sample::Index>()) {
        let lines: Vec<&str> = text.lines().collect();
        let skip = line.index(lines.len());
        let mutated: Vec<&str> = lines.iter().enumerate().filter(|(i, _)| *i != skip).map(|(_, l)| *l).collect();
        load_and_search(&mutated.join("\n"));
    }

    #[test]
    fn random_text_is_an_error(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        load_and_search(&String::from_utf8_lossy(&bytes));
    }
}

/// Sets `data.<key>` of the seed instance `file` to `value` and loads the result.
fn load_with(file: &str, key: &str, value: u64) -> Result<(), String> {
    let text = BUILTIN.iter().find(|(_, name, _)| *name == file).map(|(_, _, text)| *text).expect("a built-in file");
    let mut json: serde_json::Value = serde_json::from_str(text).expect("the seed file is JSON");
    json["data"][key] = serde_json::Value::from(value);
    instance::parse(&json.to_string(), Path::new("large.json"), "large.json")
        .map(|_| ())
        .map_err(|error| error.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Sizes beyond what the engine supports (grids are 128-bit cell sets: 11 x 11 at most;
    /// prime-grid bounds up to 1,000,000) are refused with the limit, never searched.
    #[test]
    fn sizes_beyond_the_engine_limits_are_refused_with_the_limit(excess in 1u64..1_000_000_000_000) {
        for (file, key, limit) in [
            ("hooks_7.json", "size", 11),
            ("twenty_four_seven_2x2_2.json", "size", 11),
            ("prime_grid.json", "cell_bound_exclusive", 1_000_000),
            ("prime_grid.json", "sum_bound_exclusive", 1_000_000),
        ] {
            let error = load_with(file, key, limit + excess).expect_err("an oversized instance is refused");
            prop_assert!(error.starts_with("large.json"), "names the file: {}", error);
            prop_assert!(error.contains(&format!("data.{key}")), "names the key: {}", error);
            prop_assert!(error.contains(&limit.to_string()), "states the limit {}: {}", limit, error);
        }
    }
}
