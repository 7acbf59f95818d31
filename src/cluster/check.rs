//! The check that a split search adds up to the sequential one: split, every part, merge,
//! compared field by field with `run::solve`'s report (for tests and examples).

use super::{merge, run_part, split, ClusterError, PartOptions};
use crate::knobs::KnobValues;
use crate::run::{self, Instance, RunReport, RunSettings};
use serde_json::Value;

/// The fields of a report that a merge must reproduce exactly.
const EXACT_FIELDS: [&str; 8] =
    ["nodes", "solutions", "solutions_overflow", "rules", "nodes_per_depth", "prunes_per_depth", "answer", "complete"];
/// The fields of each component that a merge must reproduce exactly.
const EXACT_COMPONENT_FIELDS: [&str; 5] = ["name", "solutions", "nodes", "solution_texts", "verify_failures"];

/// The fields of an optimisation's report that a merge must reproduce: its counts depend
/// on when each part saw the others' incumbents, its optimum does not.
const OPTIMUM_FIELDS: [&str; 2] = ["best", "proven"];

/// The fields in which `merged` differs from `sequential` (empty: the same search, or for
/// an optimising model, the same proven optimum).
pub fn differences(merged: &RunReport, sequential: &RunReport) -> Vec<String> {
    let (merged, sequential) = (to_value(merged), to_value(sequential));
    let mut differences = Vec::new();
    if !sequential["objective"].is_null() || !merged["objective"].is_null() {
        compare_fields("objective.", &OPTIMUM_FIELDS, &merged["objective"], &sequential["objective"], &mut differences);
        return differences;
    }
    compare_fields("", &EXACT_FIELDS, &merged, &sequential, &mut differences);
    let empty = Vec::new();
    let merged_components = merged["components"].as_array().unwrap_or(&empty);
    let sequential_components = sequential["components"].as_array().unwrap_or(&empty);
    if merged_components.len() != sequential_components.len() {
        differences.push(format!("components: {} != {}", merged_components.len(), sequential_components.len()));
    }
    for (index, (mine, theirs)) in merged_components.iter().zip(sequential_components).enumerate() {
        let prefix = format!("components[{index}].");
        compare_fields(&prefix, &EXACT_COMPONENT_FIELDS, mine, theirs, &mut differences);
    }
    differences
}

/// Adds a line to `differences` for each of `fields` in which `merged` and `sequential` differ.
fn compare_fields(prefix: &str, fields: &[&str], merged: &Value, sequential: &Value, differences: &mut Vec<String>) {
    for field in fields {
        if merged[field] != sequential[field] {
            differences.push(format!(
                "{prefix}{field}: merged {} != sequential {}",
                short(&merged[field]),
                short(&sequential[field])
            ));
        }
    }
}

fn to_value(report: &RunReport) -> Value {
    serde_json::to_value(report).unwrap_or(Value::Null)
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 200 {
        format!("{}...", &text[..text.char_indices().nth(200).map_or(text.len(), |(index, _)| index)])
    } else {
        text
    }
}

/// Splits `instance` with `knobs` into `parts` parts in a fresh temporary folder, runs
/// every part (on `threads` threads each) and merges them; the folder is removed after.
pub fn split_run_merge(
    instance: &Instance,
    knobs: &KnobValues,
    parts: usize,
    threads: usize,
) -> Result<RunReport, ClusterError> {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos();
    let dir = std::env::temp_dir().join(format!("backtrack-bench-split-{}-{nanos}-{parts}", std::process::id()));
    let result = (|| {
        split(instance, knobs, parts, None, &dir)?;
        for part in 1..=parts {
            run_part(&dir, part, PartOptions::threads(threads))?;
        }
        merge(&dir).map(|(report, _)| report)
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// For each part count of `part_counts`: the differences between the merged report of
/// `instance` with `knobs` split that way and the sequential run's (empty when equal).
pub fn merged_against_sequential(
    instance: &Instance,
    knobs: &KnobValues,
    part_counts: &[usize],
) -> Result<Vec<(usize, Vec<String>)>, ClusterError> {
    let settings = RunSettings { knobs: knobs.clone(), ..RunSettings::default() };
    let sequential = run::solve(instance, &settings).map_err(|error| ClusterError::bad_input(error.to_string()))?;
    part_counts
        .iter()
        .map(|&parts| {
            let threads = if parts % 2 == 1 { 2 } else { 1 };
            let merged = split_run_merge(instance, knobs, parts, threads)?;
            Ok((parts, differences(&merged, &sequential)))
        })
        .collect()
}
