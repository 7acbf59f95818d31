//! A search split into parts and merged equals the sequential search exactly (nodes,
//! solutions, per rule, per depth, answer), and `merge` (and `explain --cluster`, through
//! the same check) refuses missing, doubled and foreign parts with exit code 2, naming the
//! part.

mod common;

use backtrack_bench::knobs::KnobValues;
use backtrack_bench::run::instance;
use backtrack_bench::unstable::cluster::check::merged_against_sequential;
use common::{ok, refused, text};
use std::path::{Path, PathBuf};
use std::process::Command;

const PART_COUNTS: [usize; 4] = [1, 7, 64, 256];

fn assert_merges_equal_sequential(path: &str, part_counts: &[usize]) {
    let instance = instance::load(path).unwrap_or_else(|error| panic!("{error}"));
    let results = merged_against_sequential(&instance, &KnobValues::new(), part_counts)
        .unwrap_or_else(|error| panic!("{path}: {error}"));
    for (parts, differences) in results {
        assert!(differences.is_empty(), "{path} in {parts} parts: {differences:#?}");
    }
}

#[test]
fn twenty_four_seven_enumeration_merged_from_1_7_64_256_parts_equals_sequential() {
    assert_merges_equal_sequential("instances/twenty_four_seven_enumeration.json", &PART_COUNTS);
}

#[test]
#[ignore = "tens of seconds in the test profile: 3.5 M nodes searched five times (run by .ci/run's slow checks)"]
fn hooks_enumeration_merged_from_1_7_64_256_parts_equals_sequential() {
    assert_merges_equal_sequential("instances/hooks_enumeration.json", &PART_COUNTS);
}

#[test]
#[ignore = "tens of seconds in the test profile: 5.1 M nodes searched five times (run by .ci/run's slow checks)"]
fn prime_grid_enumeration_merged_from_1_7_64_256_parts_equals_sequential() {
    assert_merges_equal_sequential("instances/prime_grid_enumeration.json", &PART_COUNTS);
}

/// One grid of the 24/7 enumeration alone: 4,312 solutions, more than the 1,000 a run
/// keeps, so the merged answer (a histogram of every solution's answer) comes from the
/// parts' answer keys, not from the kept solutions.
#[test]
fn a_grid_with_more_solutions_than_are_kept_merges_to_the_sequential_answer() {
    let original = std::fs::read_to_string("instances/twenty_four_seven_enumeration.json").unwrap();
    let mut file: serde_json::Value = serde_json::from_str(&original).unwrap();
    let grids = file["data"]["grids"].as_array().unwrap().clone();
    file["data"]["grids"] = serde_json::json!([grids[1].clone()]);
    file["expected"] = serde_json::Value::Null;
    let folder = tempfile::tempdir().expect("temporary folder");
    let path = folder.path().join("one_grid.json");
    std::fs::write(&path, file.to_string()).unwrap();
    let instance = instance::load(text(&path)).unwrap_or_else(|error| panic!("{error}"));
    let sequential = backtrack_bench::run::solve(&instance, &backtrack_bench::run::RunSettings::default()).unwrap();
    let kept = sequential.components[0].solutions_kept;
    assert!(sequential.solutions > kept, "{} solutions, {kept} kept", sequential.solutions);
    assert_eq!(sequential.answer["solutions"], serde_json::json!(sequential.solutions));
    let results = merged_against_sequential(&instance, &KnobValues::new(), &[1, 7, 64]).unwrap();
    for (parts, differences) in results {
        assert!(differences.is_empty(), "in {parts} parts: {differences:#?}");
    }
}

#[test]
fn the_seed_instances_merged_from_7_parts_equal_sequential() {
    for name in ["rings", "prime-grid", "hooks7", "247"] {
        assert_merges_equal_sequential(name, &[1, 7]);
    }
}

/// Splits `247` into 7 parts in `dir` and runs them all.
fn split_and_run(dir: &Path) {
    ok(&["split", "247", "--parts", "7", "--out", text(dir)]);
    for part in 1..=7 {
        ok(&["run-part", text(dir), &part.to_string()]);
    }
}

fn part_file(dir: &Path, part: usize) -> PathBuf {
    dir.join("parts").join(format!("{part}.json"))
}

#[test]
fn the_same_split_writes_the_same_plan_byte_for_byte() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let (a, b) = (folder.path().join("a"), folder.path().join("b"));
    for dir in [&a, &b] {
        ok(&["split", "instances/twenty_four_seven_enumeration.json", "--parts", "64", "--out", text(dir)]);
    }
    let (first, second) = (std::fs::read(a.join("plan.json")).unwrap(), std::fs::read(b.join("plan.json")).unwrap());
    assert!(first == second, "two splits wrote different plans");
    // Splitting again into the same folder leaves it as it is; another plan is refused.
    ok(&["split", "instances/twenty_four_seven_enumeration.json", "--parts", "64", "--out", text(&a)]);
    let message =
        refused(&["split", "instances/twenty_four_seven_enumeration.json", "--parts", "7", "--out", text(&a)]);
    assert!(message.contains("already holds another plan"), "{message}");
}

#[test]
fn merge_refuses_a_missing_a_doubled_and_a_foreign_part_naming_each() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    split_and_run(&dir);
    let merged = ok(&["merge", text(&dir), "--json"]);
    let sequential = ok(&["solve", "247", "--json"]);
    let (merged, sequential): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&merged).unwrap(), serde_json::from_str(&sequential).unwrap());
    for field in ["nodes", "solutions", "rules", "nodes_per_depth", "prunes_per_depth", "answer"] {
        assert_eq!(merged[field], sequential[field], "{field}");
    }
    // The text says what was merged, not a pool's empty figures (0 steals, no workers).
    let plan: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("plan.json")).unwrap()).unwrap();
    let text_report = ok(&["merge", text(&dir)]);
    let line = format!("split:     7 parts, {} subproblems", plan["subproblem_count"]);
    assert!(text_report.contains(&line) && !text_report.contains("steals"), "{text_report}");
    assert_eq!(merged["parallel"]["subproblems"], plan["subproblem_count"]);

    std::fs::remove_file(part_file(&dir, 3)).unwrap();
    let message = refused(&["merge", text(&dir)]);
    assert!(message.contains("part 3: missing"), "{message}");
    let status = ok(&["merge", text(&dir), "--status"]);
    assert!(status.contains("missing: 3") && status.contains("done: 1-2,4-7"), "{status}");
    assert!(status.contains(&format!("backtrack-bench run-part {} $k", text(&dir))), "{status}");
    ok(&["run-part", text(&dir), "3"]);

    std::fs::copy(part_file(&dir, 5), dir.join("parts").join("5-again.json")).unwrap();
    let message = refused(&["merge", text(&dir)]);
    assert!(message.contains("part 5: doubled"), "{message}");
    // The status names it: neither done nor missing (a rerun would not help).
    let status = common::tool(&["merge", text(&dir), "--status"]);
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert_eq!(status.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("missing: none\ndoubled: 5 (more than one file each"), "{stdout}");
    std::fs::remove_file(dir.join("parts").join("5-again.json")).unwrap();

    let sixth = std::fs::read_to_string(part_file(&dir, 6)).unwrap();
    let mut edited: serde_json::Value = serde_json::from_str(&sixth).unwrap();
    edited["build"] = "0.0.0+elsewhere".into();
    std::fs::write(part_file(&dir, 6), edited.to_string()).unwrap();
    let message = refused(&["merge", text(&dir)]);
    assert!(message.contains("part 6 (") && message.contains("another build"), "{message}");
    std::fs::write(part_file(&dir, 6), &sixth).unwrap();

    let mut older: serde_json::Value = serde_json::from_str(&sixth).unwrap();
    older["schema"] = "backtrack-bench-part/v1".into();
    std::fs::write(part_file(&dir, 6), older.to_string()).unwrap();
    let message = refused(&["merge", text(&dir)]);
    assert!(
        message.contains("6.json: not a part file") && message.contains("format `backtrack-bench-part/v1`"),
        "{message}"
    );
    std::fs::write(part_file(&dir, 6), &sixth).unwrap();

    let other = folder.path().join("other");
    ok(&["split", "247", "--parts", "7", "--out", text(&other), "--order", "spiral"]);
    ok(&["run-part", text(&other), "4"]);
    std::fs::copy(part_file(&other, 4), part_file(&dir, 4)).unwrap();
    let message = refused(&["merge", text(&dir)]);
    assert!(message.contains("part 4 (") && message.contains("another plan"), "{message}");
    assert!(message.contains("part 4: missing"), "{message}");
}

#[test]
fn a_part_run_again_replaces_its_file_with_the_same_counts() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    ok(&["split", "247", "--parts", "7", "--out", text(&dir)]);
    let counts = |dir: &Path| {
        let file: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(part_file(dir, 2)).unwrap()).unwrap();
        (file["components"].clone(), file["subproblems"].as_array().map(|list| list.len()))
    };
    ok(&["run-part", text(&dir), "2"]);
    let first = counts(&dir);
    ok(&["run-part", text(&dir), "2", "--threads", "2"]);
    assert_eq!(counts(&dir), first);
    // A part reads its own plan, plans/2.json; without it, its part of plan.json.
    assert!(dir.join("plans").join("2.json").exists());
    std::fs::remove_dir_all(dir.join("plans")).unwrap();
    ok(&["run-part", text(&dir), "2"]);
    assert_eq!(counts(&dir), first);
    assert_eq!(std::fs::read_dir(dir.join("parts")).unwrap().count(), 1, "no temporary file is left behind");
}

#[test]
fn run_part_takes_the_part_from_a_job_array_or_says_how_to_give_it() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    ok(&["split", "rings", "--parts", "2", "--out", text(&dir)]);
    let message = refused(&["run-part", text(&dir)]);
    assert!(message.contains("SLURM_ARRAY_TASK_ID") && message.contains("JOB_COMPLETION_INDEX"), "{message}");
    let binary = env!("CARGO_BIN_EXE_backtrack-bench");
    let slurm = Command::new(binary).args(["run-part", text(&dir)]).env("SLURM_ARRAY_TASK_ID", "2").output().unwrap();
    assert!(slurm.status.success() && part_file(&dir, 2).exists());
    let indexed = Command::new(binary)
        .args(["run-part", text(&dir)])
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env("JOB_COMPLETION_INDEX", "0")
        .output()
        .unwrap();
    assert!(indexed.status.success() && part_file(&dir, 1).exists());
    let message = refused(&["run-part", text(&dir), "3"]);
    assert!(message.contains("part 3: the plan has parts 1 to 2"), "{message}");
    // The largest index has no part after it: refused, not wrapped around to part 0.
    let largest = Command::new(binary)
        .args(["run-part", text(&dir)])
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env("JOB_COMPLETION_INDEX", u64::MAX.to_string())
        .output()
        .unwrap();
    assert_eq!(largest.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&largest.stderr).contains("JOB_COMPLETION_INDEX=`18446744073709551615`"));
}

#[test]
fn a_split_into_more_parts_than_subproblems_warns_of_the_empty_ones() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    let output = Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
        .args(["split", "rings", "--parts", "50", "--out", text(&dir)])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let plan: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("plan.json")).unwrap()).unwrap();
    let empty =
        plan["parts"].as_array().unwrap().iter().filter(|part| part["subproblems"] == serde_json::json!([])).count();
    assert!(empty > 0, "rings has fewer than 50 subproblems at its frontier");
    assert!(stderr.contains(&format!("warning: {empty} of the 50 parts have no subproblem")), "{stderr}");

    // A seed no solution beats leaves no frontier at all: no part count to advise (it said
    // "split into at most 0 parts").
    let seeded = folder.path().join("seeded");
    let output = Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
        .args(["split", "instances/max_clique/petersen.clq", "--parts", "3", "--incumbent", "1000"])
        .args(["--out", text(&seeded)])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("the frontier holds no subproblem") && !stderr.contains("at most 0 parts"), "{stderr}");
}

#[test]
fn a_split_into_a_new_relative_folder_creates_it_from_the_working_folder() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let binary = env!("CARGO_BIN_EXE_backtrack-bench");
    let output = Command::new(binary)
        .args(["split", "rings", "--parts", "2", "--out", "run/"])
        .current_dir(&folder)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(folder.path().join("run").join("plan.json").exists());
}

#[test]
fn a_first_solution_split_is_refused_with_the_reason() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let message = refused(&["split", "247", "--first", "--parts", "2", "--out", text(folder.path())]);
    assert!(message.contains("first-solution search is not split"), "{message}");
}

#[test]
fn explain_cluster_reads_every_part_and_refuses_a_missing_one() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    split_and_run(&dir);
    let json = ok(&["explain", "--cluster", text(&dir), "--slots", "2", "--json"]);
    let explanation: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(explanation["parts"], 7);
    let slots = explanation["slots"].as_array().unwrap();
    assert_eq!(slots.len(), 2);
    let placed: usize = slots.iter().map(|slot| slot["parts"].as_array().unwrap().len()).sum();
    assert_eq!(placed, 7, "every part in one slot");
    let predicted = explanation["predicted"].as_array().unwrap();
    assert_eq!(predicted.first().unwrap()["workers"], 1);
    assert_eq!(predicted.last().unwrap()["workers"], 1024);
    // At one worker every part runs one after another: their times add up.
    assert_eq!(predicted[0]["compute_only_ns"], explanation["work_ns"]);
    // Slots given past the parts are one line of the text, not a row each.
    let wide = ok(&["explain", "--cluster", text(&dir), "--slots", "10000"]);
    let rows = wide.lines().filter(|line| line.trim_start().starts_with(|c: char| c.is_ascii_digit())).count();
    assert!(wide.contains("9993 more slot(s) ran no part") && rows < 40, "{wide}");
    std::fs::remove_file(part_file(&dir, 4)).unwrap();
    let message = refused(&["explain", "--cluster", text(&dir)]);
    assert!(message.contains("1 problem(s):\n  part 4: missing (run: backtrack-bench run-part "), "{message}");
    assert_eq!(message, refused(&["merge", text(&dir)]), "explain --cluster refuses as merge does");
}

#[test]
fn explain_cluster_refuses_the_stale_parts_of_a_folder_split_again_as_merge_does() {
    // The plan is removed and another split into the same folder: parts/ still holds the
    // first plan's seven files, which neither command may read as the new plan's.
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    split_and_run(&dir);
    std::fs::remove_file(dir.join("plan.json")).unwrap();
    std::fs::remove_dir_all(dir.join("plans")).unwrap();
    ok(&["split", "247", "--parts", "7", "--out", text(&dir), "--order", "spiral"]);
    let merge = refused(&["merge", text(&dir)]);
    let explain = refused(&["explain", "--cluster", text(&dir)]);
    assert_eq!(explain, merge, "the same check, the same message");
    let expected = format!("backtrack-bench: error: {}: the parts (or the incumbent files they shared) do not match the plan, 14 problem(s):", text(&dir));
    assert!(merge.starts_with(&expected), "{merge}");
    for part in 1..=7 {
        assert!(merge.contains(&format!("\n  part {part} (")), "part {part}: {merge}");
        assert!(merge.contains(&format!("\n  part {part}: missing")), "part {part}: {merge}");
    }
    assert_eq!(merge.matches(": foreign: from another plan (plan hash ").count(), 7, "{merge}");
}

/// The largest part `split` prints is the grouping's it chose: a branch-and-bound plan is
/// grouped round-robin, and printed the by-estimate grouping's figure.
#[test]
fn split_prints_the_largest_part_of_the_grouping_it_chose() {
    let folder = tempfile::tempdir().expect("temporary folder");
    for (name, instance) in [("bnb", "instances/max_clique/gnp_60_0.7_1.clq"), ("count", "247")] {
        let dir = folder.path().join(name);
        let printed = ok(&["split", instance, "--parts", "4", "--out", text(&dir)]);
        let plan: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("plan.json")).unwrap()).unwrap();
        let largest = plan["parts"].as_array().unwrap().iter().map(|part| part["estimated_nodes"].as_u64().unwrap());
        let expected = format!(
            "grouped by {}: largest part estimated at {} nodes",
            plan["balance"]["method"].as_str().unwrap(),
            largest.max().unwrap()
        );
        assert!(printed.contains(&expected), "expected `{expected}` in:\n{printed}");
    }
    // The branch-and-bound plan's two predictions differ, so the figure printed tells them apart.
    let plan: serde_json::Value =
        serde_json::from_slice(&std::fs::read(folder.path().join("bnb").join("plan.json")).unwrap()).unwrap();
    let balance = &plan["balance"];
    assert_eq!(balance["method"], "round-robin");
    assert!(balance["estimate_max_part_nodes"].as_u64() < balance["round_robin_max_part_nodes"].as_u64(), "{balance}");
}
