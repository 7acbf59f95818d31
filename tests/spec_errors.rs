//! Every error of a malformed sweep spec names its file and line (`FILE:LINE: key: ...`):
//! more than 50 mutations of the `quick` preset (a large spec with comments, baselines,
//! nested lists and two blocks): misspelled keys, wrong types, unknown tables, bad values,
//! invalid UTF-8 bytes and truncated files, each loaded from a file and expanded into a
//! plan as `sweep` does. Where the mutation is on one line, the error names that line.

use backtrack_bench::unstable::harness::sweeping::plan;
use backtrack_bench::unstable::harness::sweeping::spec::SweepSpec;
use std::path::Path;

const BASE: &str = include_str!("../scripts/sweeps/quick.toml");

/// One malformed spec: what was done, its bytes, and the line its error must name when the
/// mutation is confined to one line.
struct Mutation {
    label: String,
    bytes: Vec<u8>,
    line: Option<usize>,
}

/// The 1-based number of the first line of `BASE` that starts with `prefix`.
fn line_starting(prefix: &str) -> usize {
    BASE.lines().position(|line| line.starts_with(prefix)).unwrap_or_else(|| panic!("no line `{prefix}`")) + 1
}

/// `BASE` with line `number` replaced by `text`.
fn with_line(number: usize, text: &str) -> String {
    let mut lines: Vec<&str> = BASE.lines().collect();
    lines[number - 1] = text;
    lines.join("\n") + "\n"
}

fn mutations() -> Vec<Mutation> {
    let mut all = Vec::new();
    let mut on_line = |label: &str, prefix: &str, text: &str| {
        let number = line_starting(prefix);
        all.push(Mutation {
            label: label.to_string(),
            bytes: with_line(number, text).into_bytes(),
            line: Some(number),
        });
    };
    // Misspelled top-level keys.
    for key in ["name", "description", "repeats", "min_repeats", "target_ci", "warmup", "node_limit", "config_budget_s"]
    {
        let line = BASE.lines().find(|line| line.starts_with(&format!("{key} ="))).unwrap();
        on_line(&format!("misspelled {key}"), &format!("{key} ="), &line.replacen(key, &format!("{key}x"), 1));
    }
    // Wrong types and bad values of top-level keys.
    for (key, value) in [
        ("name", "5"),
        ("name", "\"a b\""),
        ("description", "[1]"),
        ("repeats", "\"30\""),
        ("repeats", "0"),
        ("min_repeats", "0"),
        ("target_ci", "2.5"),
        ("target_ci", "true"),
        ("warmup", "-1"),
        ("warmup", "1.5"),
        ("node_limit", "0"),
        ("node_limit", "{ a = 1 }"),
        ("config_budget_s", "-3"),
        ("config_budget_s", "1e12"),
    ] {
        on_line(&format!("{key} = {value}"), &format!("{key} ="), &format!("{key} = {value}"));
    }
    // Unknown tables and keys, in the large file.
    on_line("unknown table", "[baselines.hooks]", "[basulines.hooks]");
    on_line("unknown family", "[baselines.prime_grid]", "[baselines.prime_grids]");
    on_line("unknown array of tables", "[[block]]", "[[blocks]]");
    on_line("unknown top-level key", "config_budget_s", "colour = \"red\"");
    on_line("unknown baseline knob", "placement = ", "placment = \"two-phase\"");
    on_line("baseline knob not a string", "mode = ", "mode = 3");
    on_line("unknown family header", "[baselines.olympic_rings]", "[baselines.olympic_ringz]");
    // Block keys: misspelled, wrong types, bad values.
    on_line("misspelled instances", "instances = [\"rings\"", "instancs = [\"rings\"]");
    on_line("instances not a list", "instances = [\"rings\"", "instances = \"rings\"");
    on_line("instances of numbers", "instances = [\"rings\"", "instances = [1, 2]");
    on_line("knobs keyword", "knobs = \"each\"", "knobs = \"eech\"");
    on_line("knobs number", "knobs = \"each\"", "knobs = 7");
    on_line("knob value list of numbers", "knobs = \"each\"", "knobs = { order = [1] }");
    on_line("strategies misspelled value", "strategies = [\"sequential\"]", "strategies = [\"sequental\"]");
    on_line("strategies a table", "strategies = [\"sequential\"]", "strategies.x = [\"sequential\"]");
    on_line("strategies a string", "strategies = [\"sequential\"]", "strategies = \"sequential\"");
    on_line("strategies empty", "strategies = [\"sequential\"]", "strategies = []");
    on_line("modes bad value", "strategies = [\"sequential\"]", "modes = [\"some\"]");
    on_line("counters bad value", "strategies = [\"sequential\"]", "counters = [\"sideways\"]");
    on_line("vary bad value", "strategies = [\"sequential\"]", "vary = \"diagonal\"");
    on_line("baseline not a flag", "baseline = false", "baseline = \"no\"");
    on_line("threads zero", "threads = [1, 2]", "threads = [0]");
    on_line("threads word", "threads = [1, 2]", "threads = [\"lots\"]");
    on_line("threads too many", "threads = [1, 2]", "threads = [100000]");
    on_line("threads not a list", "threads = [1, 2]", "threads = 2");
    on_line("k_values zero", "threads = [1, 2]", "k_values = [0]");
    on_line("unknown block key", "baseline = false", "colour = 1");
    on_line("block repeats zero", "baseline = false", "repeats = 0");
    on_line("duplicate key", "warmup =", "repeats = 3");
    on_line("unclosed string", "name =", "name = \"quick");
    on_line("unclosed header", "[[block]]", "[[block]");
    on_line("stray text", "warmup =", "warmup 1");
    // A knob value the family does not have, found when the plan is expanded.
    let first_block = line_starting("knobs = \"each\"");
    all.push(Mutation {
        label: "unknown knob value, at expansion".into(),
        bytes: with_line(first_block, "knobs = { order = [\"bogus\"] }").into_bytes(),
        line: Some(first_block),
    });
    all.push(Mutation {
        label: "knob of no family in the block, at expansion".into(),
        bytes: with_line(first_block, "knobs = { colour = [\"red\"] }").into_bytes(),
        line: Some(first_block),
    });
    // Invalid UTF-8 bytes: at the start, in a comment, in a string, in a key, at the end.
    for prefix in ["# The quick", "# Every seed", "name =", "repeats =", "threads ="] {
        let number = line_starting(prefix);
        let mut bytes = Vec::new();
        for (index, line) in BASE.lines().enumerate() {
            let mut line = line.as_bytes().to_vec();
            if index + 1 == number {
                line.insert(line.len().min(3), 0xFF);
            }
            bytes.extend(line);
            bytes.push(b'\n');
        }
        all.push(Mutation { label: format!("0xFF byte on the line `{prefix}`"), bytes, line: Some(number) });
    }
    all.push(Mutation {
        label: "lone continuation byte".into(),
        bytes: b"name = \"t\"\n\x80\n".to_vec(),
        line: Some(2),
    });
    all.push(Mutation {
        label: "overlong encoding".into(),
        bytes: b"name = \"t\"\n[[block]]\ninstances = [\"\xC0\xAF\"]\n".to_vec(),
        line: Some(3),
    });
    // Truncated files: cut anywhere before the first block (no block is left, or the cut
    // leaves a broken line), or inside the second block's nested list.
    let first_block = BASE.find("[[block]]").unwrap();
    let list = BASE.find("instances = [[").unwrap();
    for cut in (0..10).map(|step| step * first_block / 10).chain([list + 5, list + 20, list + 60]) {
        all.push(Mutation { label: format!("cut at byte {cut}"), bytes: BASE.as_bytes()[..cut].to_vec(), line: None });
    }
    all
}

/// The error of loading and expanding `path` (as `sweep` does); `None` when it is valid.
fn error_of(path: &Path) -> Option<String> {
    let spec = match SweepSpec::load(path) {
        Ok(spec) => spec,
        Err(error) => return Some(error.to_string()),
    };
    plan::expand(&spec, 2).err().map(|error| error.to_string())
}

#[test]
fn every_malformed_spec_error_names_its_file_and_line() {
    let folder = tempfile::tempdir().unwrap();
    let mutations = mutations();
    assert!(mutations.len() >= 50, "{} mutations", mutations.len());
    let mut wrong = Vec::new();
    for (index, mutation) in mutations.iter().enumerate() {
        let path = folder.path().join(format!("spec-{index}.toml"));
        std::fs::write(&path, &mutation.bytes).unwrap();
        let prefix = format!("{}:", path.display());
        let Some(message) = error_of(&path) else {
            wrong.push(format!("{}: accepted", mutation.label));
            continue;
        };
        let line: Option<usize> = message
            .strip_prefix(&prefix)
            .and_then(|rest| rest.split_once(": "))
            .and_then(|(number, _)| number.parse().ok());
        match (line, mutation.line) {
            (None, _) => wrong.push(format!("{}: no FILE:LINE: in `{message}`", mutation.label)),
            (Some(found), Some(expected)) if found != expected => {
                wrong.push(format!("{}: line {found}, expected {expected}: `{message}`", mutation.label))
            }
            _ => {}
        }
    }
    assert!(wrong.is_empty(), "{} of {}:\n{}", wrong.len(), mutations.len(), wrong.join("\n"));
}

#[test]
fn the_unmutated_spec_is_valid() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("quick.toml");
    std::fs::write(&path, BASE).unwrap();
    assert_eq!(error_of(&path), None);
}
