//! End-to-end tests of answers over every solution (not the kept sample), of
//! `solve --solutions FILE`, and of a time limit across many grids.

mod common;

use common::{run, solve_json};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Solutions of grid 2 of `twenty_four_seven_enumeration.json` (its `expected` block): more
/// than the 1,000 solutions `solve` keeps.
const GRID_2_SOLUTIONS: u64 = 4312;

/// Grid 2 of the enumeration instance alone, with `answer_type`, written to `directory`.
fn one_grid_file(directory: &Path, answer_type: &str) -> String {
    let text = std::fs::read_to_string("instances/twenty_four_seven_enumeration.json").expect("instance file");
    let mut instance: Value = serde_json::from_str(&text).expect("instance JSON");
    assert_eq!(instance["expected"]["per_grid_solution_counts"][1], GRID_2_SOLUTIONS);
    let grid = instance["data"]["grids"][1].clone();
    instance["data"]["grids"] = Value::Array(vec![grid]);
    instance["data"]["answer_type"] = Value::from(answer_type);
    instance["expected"] = Value::Null;
    let path = directory.join(format!("one_grid_{answer_type}.json"));
    std::fs::write(&path, instance.to_string()).expect("write the instance");
    path.to_string_lossy().into_owned()
}

/// A 7x7 grid's answer, computed here from its text, independently of the crate.
fn answer_of(digits: &str, answer_type: &str) -> u64 {
    let cells: Vec<u64> = digits.chars().map(|digit| u64::from(digit.to_digit(36).expect("a digit"))).collect();
    assert_eq!(cells.len(), 49, "{digits}");
    if answer_type == "sum_of_squares_of_grid_sum" {
        return cells.iter().map(|value| value * value).sum();
    }
    let mut seen = [false; 49];
    let mut product = 1u64;
    for start in 0..49 {
        if cells[start] != 0 || seen[start] {
            continue;
        }
        let (mut stack, mut area) = (vec![start], 0);
        seen[start] = true;
        while let Some(cell) = stack.pop() {
            area += 1;
            let (row, column) = (cell / 7, cell % 7);
            let neighbours = [
                (row > 0).then(|| cell - 7),
                (row < 6).then(|| cell + 7),
                (column > 0).then(|| cell - 1),
                (column < 6).then(|| cell + 1),
            ];
            for next in neighbours.into_iter().flatten() {
                if cells[next] == 0 && !seen[next] {
                    seen[next] = true;
                    stack.push(next);
                }
            }
        }
        product *= area;
    }
    product
}

/// The histogram answer as `answer -> solutions`, checked to add up to its total.
fn histogram(answer: &Value) -> BTreeMap<u64, u64> {
    let counts: BTreeMap<u64, u64> = answer["counts"]
        .as_array()
        .unwrap_or_else(|| panic!("a histogram answer: {answer}"))
        .iter()
        .map(|entry| (entry["answer"].as_u64().expect("a number"), entry["solutions"].as_u64().expect("a count")))
        .collect();
    assert_eq!(counts.values().sum::<u64>(), answer["solutions"].as_u64().expect("a total"), "{answer}");
    assert_eq!(counts.len() as u64, answer["distinct"].as_u64().expect("distinct"), "{answer}");
    assert!(answer.get("unlisted_solutions").is_none(), "{answer}");
    counts
}

/// The lines of a solutions file, sorted, each checked to name the grid.
fn solution_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("the solutions file");
    let mut solutions: Vec<String> = text
        .lines()
        .map(|line| {
            let entry: Value = serde_json::from_str(line).expect("one JSON object per line");
            assert!(entry["component"].is_string(), "{line}");
            entry["solution"].as_str().expect("the solution as text").to_string()
        })
        .collect();
    solutions.sort();
    solutions
}

#[test]
fn the_answer_counts_all_4312_solutions_and_the_file_lists_them_under_every_strategy() {
    let directory = tempfile::tempdir().expect("temp dir");
    for answer_type in ["product_of_empty_region_areas", "sum_of_squares_of_grid_sum"] {
        let file = one_grid_file(directory.path(), answer_type);
        let listed = directory.path().join(format!("{answer_type}.jsonl"));
        let report = solve_json(&[&file, "--solutions", &listed.to_string_lossy()]);
        assert_eq!(report["solutions"], GRID_2_SOLUTIONS);
        let component = &report["components"][0];
        assert_eq!((component["sample"].as_bool(), component["solutions_kept"].as_u64()), (Some(true), Some(1000)));
        assert_eq!(component["solution_texts"].as_array().map(Vec::len), Some(1000));
        // Every solution is in the file once; each one's answer, computed here, adds up
        // to the report's histogram.
        let solutions = solution_lines(&listed);
        assert_eq!(solutions.len() as u64, GRID_2_SOLUTIONS);
        assert!(solutions.windows(2).all(|pair| pair[0] < pair[1]), "no solution twice");
        let mut expected = BTreeMap::new();
        for solution in &solutions {
            *expected.entry(answer_of(solution, answer_type)).or_insert(0u64) += 1;
        }
        assert_eq!(histogram(&report["answer"]), expected, "{answer_type}");
        let text = String::from_utf8_lossy(&run(&["solve", &file]).stdout).into_owned();
        assert!(text.contains("answer:    4,312 solutions"), "{text}");
        assert!(text.contains("a sample of 1,000"), "{text}");
        assert!(!text.contains("in all"), "{text}");
        for strategy in ["auto", "steal", "budget:50", "naive", "depth:3"] {
            let other = directory.path().join(format!("{answer_type}-{strategy}.jsonl"));
            let parallel =
                solve_json(&[&file, "--parallel", strategy, "--threads", "2", "--solutions", &other.to_string_lossy()]);
            assert_eq!(parallel["answer"], report["answer"], "{answer_type} {strategy}");
            assert_eq!(solution_lines(&other), solutions, "{answer_type} {strategy}");
        }
    }
    let leftovers: Vec<_> = std::fs::read_dir(directory.path())
        .expect("the folder")
        .filter_map(|entry| entry.ok().map(|entry| entry.file_name().to_string_lossy().into_owned()))
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn a_solutions_file_in_a_missing_folder_is_refused_before_the_run() {
    let output = run(&["solve", "rings", "--solutions", "/no/such/folder/solutions.jsonl"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("existing folder"));
}

#[test]
fn no_grid_starts_after_the_time_limit() {
    let directory = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string("instances/twenty_four_seven_2x2_2.json").expect("instance file");
    let mut instance: Value = serde_json::from_str(&text).expect("instance JSON");
    let grids = instance["data"]["grids"].as_array().expect("grids").clone();
    // Each copy named apart: an instance's grid names must differ.
    let copies = grids.iter().cycle().take(2000).enumerate().map(|(index, grid)| {
        let mut grid = grid.clone();
        grid["name"] = Value::from(format!("grid{index}"));
        grid
    });
    instance["data"]["grids"] = Value::Array(copies.collect());
    instance["expected"] = Value::Null;
    let path = directory.path().join("many_grids.json");
    std::fs::write(&path, instance.to_string()).expect("write the instance");
    for strategy in ["sequential", "auto", "steal", "naive"] {
        let report = solve_json(&[
            &path.to_string_lossy(),
            "--time-limit",
            "0.001",
            "--parallel",
            strategy,
            "--threads",
            "2",
            "--no-rule-counts",
        ]);
        let searched = report["components"].as_array().map_or(0, Vec::len) as u64;
        let unsearched = report["unsearched_components"].as_u64().expect("a count");
        assert_eq!(searched + unsearched, 2000, "{strategy}");
        assert!(unsearched > 0, "{strategy}: 2,000 grids in 1 ms");
        assert_eq!((report["complete"].as_bool(), report["stop"].as_str()), (Some(false), Some("time-limit")));
        assert_eq!(report["answer"], Value::Null, "{strategy}: no answer from part of the grids");
        assert_eq!(report["solutions"], 0, "{strategy}: no solution of the whole from part of the grids");
        // The run's time spans its grids: at least the sum of their own times.
        let summed: u64 =
            report["components"].as_array().expect("components").iter().filter_map(|c| c["elapsed_ns"].as_u64()).sum();
        assert!(report["elapsed_ns"].as_u64().expect("elapsed") >= summed, "{strategy}");
    }
}

#[test]
fn the_prime_grid_totals_cover_all_904216_solutions() {
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string("instances/prime_grid_enumeration.json").expect("instance file"))
            .expect("instance JSON");
    let expected = &expected["expected"];
    let report = solve_json(&["instances/prime_grid_enumeration.json", "--no-rule-counts"]);
    let totals = report["answer"]["totals"].as_array().expect("solutions per total");
    let count = |entry: &Value| entry["solutions"].as_u64().expect("a count");
    let total = |entry: &Value| entry["total"].as_u64().expect("a total");
    assert_eq!(totals.iter().map(count).sum::<u64>(), expected["solution_count"].as_u64().expect("count"));
    let sum: u64 = totals.iter().map(|entry| total(entry) * count(entry)).sum();
    assert_eq!(sum, expected["sum_of_all_totals"].as_u64().expect("sum"));
    assert_eq!((total(&totals[0]), count(&totals[0])), (571, expected["min_total_solutions"].as_u64().expect("ties")));
    assert_eq!(totals.last().map(total), expected["max_total"].as_u64());
    assert_eq!(report["components"][0]["sample"], true);
}
