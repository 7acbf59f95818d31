//! Property tests of instance loading: truncated, mutated and random files always give an
//! error message (never a panic), and whatever loads can be searched without a panic.

use backtrack_bench::run::instance::{self, BUILTIN_INSTANCES};
use backtrack_bench::run::{self, RunSettings};
use proptest::prelude::*;
use std::path::Path;

/// Loads `text`; if it loads, searches it under a small node limit. Either way, no panic.
fn load_and_search(text: &str) {
    load_bytes_and_search(text.as_bytes());
}

/// [`load_and_search`] for raw bytes (invalid UTF-8 included). The search is bounded by
/// nodes and by a second of wall time (a mutated file may ask for slow nodes).
fn load_bytes_and_search(bytes: &[u8]) {
    match instance::parse_bytes(bytes, Path::new("mutated.json"), "mutated.json") {
        Ok(loaded) => {
            let settings = RunSettings {
                node_limit: 20_000,
                time_limit: Some(std::time::Duration::from_secs(1)),
                ..RunSettings::default()
            };
            let _ = run::solve(&loaded, &settings);
        }
        Err(error) => {
            let message = error.to_string();
            assert!(message.starts_with("mutated.json"), "the message names the file: {message}");
            assert!(message.len() > "mutated.json: ".len(), "the message says what is wrong: {message}");
        }
    }
}

fn seed_text() -> impl Strategy<Value = &'static str> {
    prop::sample::select(BUILTIN_INSTANCES.iter().map(|(_, _, text)| *text).collect::<Vec<_>>())
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
    let text =
        BUILTIN_INSTANCES.iter().find(|(_, name, _)| *name == file).map(|(_, _, text)| *text).expect("a built-in file");
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

/// Pieces the byte-level fuzzer splices into files: JSON punctuation, a byte order mark,
/// bytes that are not UTF-8, deep nesting, and values at and past the loader's limits.
const SPLICES: &[&[u8]] = &[
    b"{", b"}", b"[", b"]", b",", b":", b"\"", b"\\", b"\xef\xbb\xbf", b"\xff", b"\xc3", b"\x00", b"\n",
    b"null", b"-0", b"1e400", b"18446744073709551616", b"\"\\u0000\"", b"\"\\ud800\"",
    b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    b"\"grids\": [], ", b"\"size\": 11, ", b"\"answer_type\": \"product_of_empty_region_areas\", ",
];

/// One edit of a file's bytes.
#[derive(Debug, Clone)]
enum Edit {
    Delete { at: prop::sample::Index, length: usize },
    Duplicate { at: prop::sample::Index, length: usize },
    Splice { at: prop::sample::Index, piece: &'static [u8] },
    Byte { at: prop::sample::Index, byte: u8 },
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<prop::sample::Index>(), 1usize..64).prop_map(|(at, length)| Edit::Delete { at, length }),
        (any::<prop::sample::Index>(), 1usize..256).prop_map(|(at, length)| Edit::Duplicate { at, length }),
        (any::<prop::sample::Index>(), prop::sample::select(SPLICES))
            .prop_map(|(at, piece)| Edit::Splice { at, piece }),
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(at, byte)| Edit::Byte { at, byte }),
    ]
}

/// `seed` with `edits` applied in order.
fn mutate(seed: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for edit in edits {
        let len = bytes.len();
        match *edit {
            Edit::Delete { at, length } if len > 0 => {
                let start = at.index(len);
                bytes.drain(start..(start + length).min(len));
            }
            Edit::Duplicate { at, length } if len > 0 => {
                let start = at.index(len);
                let copy = bytes[start..(start + length).min(len)].to_vec();
                bytes.splice(start..start, copy);
            }
            Edit::Splice { at, piece } => {
                let start = at.index(len + 1);
                bytes.splice(start..start, piece.iter().copied());
            }
            Edit::Byte { at, byte } if len > 0 => bytes[at.index(len)] = byte,
            _ => {}
        }
    }
    bytes
}

proptest! {
    // The long fuzz run: `cargo test --release --test loader_properties -- --ignored`
    // (the slow checks). Cases that once failed are kept in tests/fixtures/loader/.
    #![proptest_config(ProptestConfig { cases: 100_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    #[ignore = "long fuzz run of the instance loader; run in the slow checks"]
    fn fuzzed_instance_files_are_errors_or_searchable(
        seed in seed_text(),
        edits in prop::collection::vec(edit(), 1..8),
    ) {
        load_bytes_and_search(&mutate(seed.as_bytes(), &edits));
    }
}

/// The kept cases: files the fuzzer or hand-testing found, each loaded and searched.
#[test]
fn kept_loader_cases_are_errors_or_searchable() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/loader");
    let mut count = 0;
    for entry in std::fs::read_dir(&folder).expect("the corpus folder") {
        let path = entry.expect("a corpus entry").path();
        load_bytes_and_search(&std::fs::read(&path).expect("a corpus file"));
        count += 1;
    }
    assert!(count >= 5, "the corpus holds {count} files");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// A value out of range anywhere in the grids of the indented 247 file is reported at
    /// its own line (not at the first line that mentions its key).
    #[test]
    fn a_bad_grid_value_is_reported_at_its_own_line(pick in any::<prop::sample::Index>()) {
        let seed = BUILTIN_INSTANCES.iter().find(|(name, _, _)| *name == "247").map(|(_, _, text)| *text).expect("247");
        let grids_at = seed.find("\"grids\"").expect("a grids key");
        let spans: Vec<(usize, usize)> = number_spans(seed).into_iter().filter(|(start, _)| *start > grids_at).collect();
        let (start, end) = spans[pick.index(spans.len())];
        let mutated = format!("{}99{}", &seed[..start], &seed[end..]);
        if let Err(error) = instance::parse(&mutated, Path::new("bad.json"), "bad.json") {
            let line = seed[..start].matches('\n').count() + 1;
            let message = error.to_string();
            prop_assert!(message.starts_with(&format!("bad.json:{line}: data.grids[")), "line {}: {}", line, message);
        }
    }
}
