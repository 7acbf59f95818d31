//! A part file edited after it was written is refused by `merge` (and by `merge --status`
//! and `explain --cluster`, which share its checks) with exit code 2, naming the file and
//! the field: re-signed with the folder's key (so that the digest verifies)
//! the validator catches the edit; not re-signed, the digest does. An incumbent file
//! written or edited without the key is ignored by a running part and refused by `merge`.
//! A split that fails leaves no `plan.json` and removes what it wrote. A part whose plan
//! was edited so that its moves do not replay is refused as bad input, naming the file, and
//! a `plan.json` edited without the key is refused by the parts and by `merge`.

mod common;

use backtrack_bench::unstable::cluster::incumbent::{
    incumbent_path, IncumbentFile, PublishedSolution, INCUMBENT_SCHEMA,
};
use backtrack_bench::unstable::cluster::key::{content_hash, key_path, read_key, sign};
use backtrack_bench::unstable::cluster::plan::PartFile;
use common::{ok, refused, text, tool};
use std::path::{Path, PathBuf};

const PARTS: usize = 3;

fn part_path(dir: &Path, part: usize) -> PathBuf {
    dir.join("parts").join(format!("{part}.json"))
}

/// Splits `247` into [`PARTS`] parts in `dir` and runs them all.
fn split_and_run(dir: &Path) {
    ok(&["split", "247", "--parts", &PARTS.to_string(), "--out", text(dir)]);
    for part in 1..=PARTS {
        ok(&["run-part", text(dir), &part.to_string()]);
    }
}

fn read_part(dir: &Path, part: usize) -> PartFile {
    serde_json::from_slice(&std::fs::read(part_path(dir, part)).unwrap()).expect("a part file")
}

/// Writes `file` as part `part`, signed with the folder's key when `signed`.
fn write_part(dir: &Path, part: usize, mut file: PartFile, signed: bool) {
    if signed {
        sign(&read_key(dir).expect("the folder's key"), &mut file);
    }
    std::fs::write(part_path(dir, part), serde_json::to_string_pretty(&file).unwrap()).unwrap();
}

/// The first part and component whose share searched something (its per-depth counts
/// are there) and that `wanted` accepts.
fn find_share(dir: &Path, wanted: impl Fn(&PartFile, usize) -> bool) -> (usize, usize) {
    for part in 1..=PARTS {
        let file = read_part(dir, part);
        for component in 0..file.components.len() {
            if !file.components[component].counts.nodes_per_depth.is_empty() && wanted(&file, component) {
                return (part, component);
            }
        }
    }
    panic!("no part has a share as wanted");
}

/// Edits part `part` with `edit`, re-signs it with the folder's key, and returns merge's
/// message; the part is restored after.
fn merge_after(dir: &Path, part: usize, sign: bool, edit: impl FnOnce(&mut PartFile)) -> String {
    let original = std::fs::read(part_path(dir, part)).unwrap();
    let mut file = read_part(dir, part);
    edit(&mut file);
    write_part(dir, part, file, sign);
    let message = refused(&["merge", text(dir)]);
    std::fs::write(part_path(dir, part), original).unwrap();
    message
}

/// As [`merge_after`], and `merge --status` and `explain --cluster` refuse the same edit
/// by the same checks: exit 2, `explain --cluster` with merge's message, `merge --status`
/// with each of its problems on a `problem:` line (the part refused is listed as missing).
fn every_reader_refuses(dir: &Path, part: usize, sign: bool, edit: impl FnOnce(&mut PartFile)) -> String {
    let original = std::fs::read(part_path(dir, part)).unwrap();
    let mut file = read_part(dir, part);
    edit(&mut file);
    write_part(dir, part, file, sign);
    let message = refused(&["merge", text(dir)]);
    assert_eq!(refused(&["explain", "--cluster", text(dir)]), message, "explain --cluster");
    let status = tool(&["merge", text(dir), "--status"]);
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert_eq!(status.status.code(), Some(2), "merge --status: {stdout}");
    assert!(stdout.contains(&format!("missing: {part}")), "merge --status: {stdout}");
    // The refused part counts as missing too: the status says so on its `missing:` line.
    let problems: Vec<&str> = message
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.contains(": missing (run:"))
        .collect();
    assert!(!problems.is_empty(), "{message}");
    for problem in problems {
        assert!(stdout.contains(&format!("problem: {problem}")), "merge --status lacks `{problem}`: {stdout}");
    }
    std::fs::write(part_path(dir, part), original).unwrap();
    message
}

fn assert_names(message: &str, dir: &Path, part: usize, field: &str) {
    let expected = format!("{}: {field}", text(&part_path(dir, part)));
    assert!(message.contains(&expected), "expected `{expected}` in: {message}");
}

#[test]
fn edited_parts_re_signed_with_the_key_are_refused_naming_the_field() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    split_and_run(&dir);

    // Untampered, the merge equals the sequential search.
    let merged: serde_json::Value = serde_json::from_str(&ok(&["merge", text(&dir), "--json"])).unwrap();
    let sequential: serde_json::Value = serde_json::from_str(&ok(&["solve", "247", "--json"])).unwrap();
    for field in ["nodes", "solutions", "rules", "nodes_per_depth", "prunes_per_depth", "answer"] {
        assert_eq!(merged[field], sequential[field], "{field}");
    }

    let (part, c) = find_share(&dir, |file, c| file.components[c].counts.nodes > 0);
    let message = every_reader_refuses(&dir, part, true, |file| file.components[c].counts.nodes += 1);
    assert_names(&message, &dir, part, &format!("components[{c}].counts.nodes"));
    assert!(message.contains("is not the sum of"), "{message}");

    let (part, c) = find_share(&dir, |file, c| file.components[c].counts.rule_checks.len() > 1);
    let message = merge_after(&dir, part, true, |file| file.components[c].counts.rule_checks.truncate(1));
    assert_names(&message, &dir, part, &format!("components[{c}].counts.rule_checks: 1 entries, expected"));

    let (part, c) = find_share(&dir, |file, c| file.components[c].counts.prunes_per_depth.len() > 1);
    let message = merge_after(&dir, part, true, |file| {
        file.components[c].counts.prunes_per_depth[1].pop();
    });
    assert_names(&message, &dir, part, &format!("components[{c}].counts.prunes_per_depth[1]"));
    assert!(message.contains("ragged"), "{message}");

    // One more solution, counted (as unlisted) so that the sums hold, whose kept path is
    // the path of one already kept.
    let (part, c) = find_share(&dir, |file, c| !file.components[c].solutions.is_empty());
    let message = merge_after(&dir, part, true, |file| {
        let share = &mut file.components[c];
        share.solutions.push(share.solutions[0].clone());
        share.counts.solutions += 1;
        share.answers.unlisted_solutions += 1;
    });
    assert_names(&message, &dir, part, &format!("components[{c}].solutions"));
    assert!(message.contains("is listed twice"), "{message}");

    // A kept path of 100,000 levels, off the tree: the message quotes its start and its
    // length, one short line, not the whole field.
    let message = merge_after(&dir, part, true, |file| file.components[c].solutions[0] = "9.".repeat(100_000) + "9");
    assert_names(&message, &dir, part, &format!("components[{c}].solutions"));
    assert!(message.contains("... (200001 characters)` is not under"), "{message}");
    assert!(message.len() < 1_000, "{} bytes", message.len());

    let (part, c) = find_share(&dir, |file, c| !file.components[c].answers.keys.is_empty());
    let message = merge_after(&dir, part, true, |file| {
        let answers = &mut file.components[c].answers;
        answers.keys[0].solutions = u64::MAX - 1;
        answers.unlisted_solutions = 2;
    });
    assert_names(&message, &dir, part, &format!("components[{c}].answers"));
    assert!(message.contains("overflow 64 bits"), "{message}");

    let message = merge_after(&dir, 1, true, |file| file.ended_unix_ns = file.started_unix_ns - 1);
    assert_names(&message, &dir, 1, "ended_unix_ns");
    assert!(message.contains("before started_unix_ns"), "{message}");

    // Not re-signed, the same edit is refused by the digest before the counts are read.
    let (part, c) = find_share(&dir, |file, c| file.components[c].counts.nodes > 0);
    let message = every_reader_refuses(&dir, part, false, |file| file.components[c].counts.nodes += 1);
    assert_names(&message, &dir, part, "digest: does not verify with the plan's key");
    assert!(message.contains(text(&key_path(&dir))), "{message}");

    // Every edit was undone: the folder merges again.
    ok(&["merge", text(&dir)]);
}

/// A branch-and-bound instance whose parts publish incumbents.
const KNAPSACK: &str = "instances/knapsack/strongly-correlated_30.json";

/// The merged (or sequential) best value in a `--json` report.
fn best(json: &str) -> i64 {
    let report: serde_json::Value = serde_json::from_str(json).expect("one JSON object");
    report["objective"]["best"].as_i64().unwrap_or_else(|| panic!("no best value: {report}"))
}

#[test]
fn incumbent_files_without_the_key_are_ignored_by_parts_and_refused_by_merge() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    ok(&["split", KNAPSACK, "--parts", "2", "--out", text(&dir)]);
    let optimum = best(&ok(&["solve", KNAPSACK, "--json"]));
    // A file of this plan, written without the key, claiming a value beyond the optimum:
    // trusted, it would cut every part's search, and the merge would lack the optimum.
    let forged = dir.join("incumbent").join("9.json");
    std::fs::create_dir_all(forged.parent().unwrap()).unwrap();
    let forged_file = IncumbentFile {
        schema: INCUMBENT_SCHEMA.to_string(),
        plan_hash: content_hash(&std::fs::read(dir.join("plan.json")).unwrap()),
        part: 9,
        solutions: vec![PublishedSolution {
            solution: "0:0".to_string(),
            value: optimum + 1000,
            published_unix_ns: 1,
            improvements: 1,
        }],
        digest: "blake3-keyed:".to_string() + &"0".repeat(64),
    };
    std::fs::write(&forged, serde_json::to_vec_pretty(&forged_file).unwrap()).unwrap();
    for part in 1..=2 {
        let output = tool(&["run-part", text(&dir), &part.to_string()]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        let warning = format!("ignored an incumbent file (merge will refuse it): {}: digest:", text(&forged));
        assert!(stderr.contains(&warning), "part {part}: {stderr}");
    }
    let message = refused(&["merge", text(&dir)]);
    assert!(message.contains(&format!("{}: digest: does not verify with the plan's key", text(&forged))), "{message}");
    // `merge --status` and `explain --cluster` make the same checks: neither tells the user
    // all is well (and to merge) while the merge refuses.
    let status = tool(&["merge", text(&dir), "--status"]);
    assert_eq!(status.status.code(), Some(2));
    let listed = String::from_utf8_lossy(&status.stdout);
    assert!(listed.contains(&format!("problem: {}: digest: does not verify", text(&forged))), "{listed}");
    let message = refused(&["explain", "--cluster", text(&dir)]);
    assert!(message.contains(&format!("{}: digest: does not verify", text(&forged))), "{message}");
    std::fs::remove_file(&forged).unwrap();
    // The parts were not cut by it: without it the merge has the optimum, proven.
    let merged = ok(&["merge", text(&dir), "--json"]);
    assert_eq!(best(&merged), optimum);
    assert!(merged.contains("\"proven\": true") || merged.contains("\"proven\":true"), "{merged}");

    // A part's own file edited without the key: the digest refuses it; re-signed with the
    // key, the replay of its path does (its value is not the solution's).
    let published =
        (1..=2).map(|part| incumbent_path(&dir, part)).find(|path| path.exists()).expect("a part published");
    let original = std::fs::read(&published).unwrap();
    let mut edited: IncumbentFile = serde_json::from_slice(&original).unwrap();
    edited.solutions[0].value -= 1;
    std::fs::write(&published, serde_json::to_vec(&edited).unwrap()).unwrap();
    let message = refused(&["merge", text(&dir)]);
    assert!(message.contains(&format!("{}: digest: does not verify", text(&published))), "{message}");
    sign(&read_key(&dir).unwrap(), &mut edited);
    std::fs::write(&published, serde_json::to_vec(&edited).unwrap()).unwrap();
    let message = refused(&["merge", text(&dir)]);
    let expected = format!("{}: component 0: a published incumbent claims the value", text(&published));
    assert!(message.contains(&expected) && !message.contains("digest"), "{message}");
    std::fs::write(&published, original).unwrap();
    assert_eq!(best(&ok(&["merge", text(&dir), "--json"])), optimum);
}

#[test]
fn a_failed_split_leaves_no_plan_and_removes_what_it_wrote() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    // A folder where plan.json is to go: its write fails (read-only folders do not fail
    // a process that runs as root).
    std::fs::create_dir_all(dir.join("plan.json")).unwrap();
    let output = tool(&["split", "247", "--parts", &PARTS.to_string(), "--out", text(&dir)]);
    // A write that failed is the tool's failure, exit 1, naming the file.
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stderr).contains("plan.json"), "the file is not named");
    assert!(dir.join("plan.json").is_dir(), "plan.json is still the folder put there, not a plan");
    assert!(!key_path(&dir).exists(), "the key was left behind");
    assert!(!dir.join("plans").exists(), "the parts' plans were left behind");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("plan.json")], "only what was there before is left");
}

#[test]
fn a_part_whose_plan_was_edited_is_refused_as_bad_input_naming_the_file() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    ok(&["split", "prime-grid", "--parts", &PARTS.to_string(), "--out", text(&dir)]);
    // Subproblems edited: a path no tree has (its moves would not replay, which alone would
    // be the model's bug, exit 3), or one of the part's left out (it would search less, and
    // only `merge` would tell, advising a rerun that searched the same edited plan). The
    // part's plan is signed with the folder's key: refused before the search.
    let part_plan = dir.join("plans").join("1.json");
    let original: serde_json::Value = serde_json::from_slice(&std::fs::read(&part_plan).unwrap()).unwrap();
    let mut no_tree = original.clone();
    no_tree["subproblems"][0] = "0:999.999".into();
    let mut fewer = original.clone();
    fewer["subproblems"].as_array_mut().unwrap().pop();
    for edited in [no_tree, fewer] {
        std::fs::write(&part_plan, serde_json::to_vec(&edited).unwrap()).unwrap();
        let stderr = refused(&["run-part", text(&dir), "1"]);
        let expected = format!("{}: digest: does not verify with the plan's key", part_plan.display());
        assert!(stderr.contains(&expected) && stderr.contains("run the same split"), "{stderr}");
        assert!(!part_path(&dir, 1).exists(), "no part file is written");
    }
    // As the message says: without the file, the same split writes it anew.
    std::fs::remove_file(&part_plan).unwrap();
    ok(&["split", "prime-grid", "--parts", &PARTS.to_string(), "--out", text(&dir)]);
    ok(&["run-part", text(&dir), "1"]);
    // A lost key: the same split refuses while a finished part would no longer verify;
    // with parts/ removed it writes a new key and signs the plan and the parts' plans with
    // it (they stayed signed with the lost key, and every part was refused).
    std::fs::remove_file(dir.join("key")).unwrap();
    let stderr = refused(&["split", "prime-grid", "--parts", &PARTS.to_string(), "--out", text(&dir)]);
    assert!(stderr.contains("1 finished part(s) of this plan would no longer verify"), "{stderr}");
    std::fs::remove_dir_all(dir.join("parts")).unwrap();
    ok(&["split", "prime-grid", "--parts", &PARTS.to_string(), "--out", text(&dir)]);
    for part in 1..=PARTS {
        ok(&["run-part", text(&dir), &part.to_string()]);
    }
    ok(&["merge", text(&dir)]);
}

/// `plan.json` edited after `split` (here the lister's solutions, which the parts never
/// recompute), by someone without the key: only the plan's keyed digest, written by
/// `split`, shows the edit. A part that reads plan.json refuses it before it searches, and
/// `merge` and `merge --status` refuse the folder, naming plan.json; a part's own plan
/// from another split is refused by its plan hash. With the plan as split, it merges.
#[test]
fn a_plan_edited_without_the_key_is_refused_by_the_parts_and_by_merge() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    ok(&["split", "prime-grid", "--parts", &PARTS.to_string(), "--out", text(&dir)]);
    let plan_file = dir.join("plan.json");
    let original = std::fs::read(&plan_file).unwrap();
    let mut plan: serde_json::Value = serde_json::from_slice(&original).unwrap();
    let solutions = &mut plan["lister"][0]["counts"]["solutions"];
    *solutions = (solutions.as_u64().expect("a count") + 1_000_000).into();
    std::fs::write(&plan_file, serde_json::to_vec_pretty(&plan).unwrap()).unwrap();
    // The parts' own plans set aside: a part then reads plan.json, as the docs allow.
    let plans = dir.join("plans");
    let set_aside = folder.path().join("plans");
    std::fs::rename(&plans, &set_aside).unwrap();
    let stderr = refused(&["run-part", text(&dir), "1"]);
    assert!(stderr.contains("plan.json: does not verify with the plan's key"), "{stderr}");
    assert!(!part_path(&dir, 1).exists(), "no part file is written");
    for command in [vec!["merge", text(&dir)], vec!["merge", "--status", text(&dir)]] {
        let stderr = refused(&command);
        assert!(stderr.contains("plan.json: does not verify with the plan's key"), "{command:?}: {stderr}");
    }
    // The same folder with the digest removed is refused as well, naming what is missing.
    std::fs::write(&plan_file, &original).unwrap();
    let digest = dir.join("plan.digest");
    let kept = std::fs::read(&digest).unwrap();
    std::fs::remove_file(&digest).unwrap();
    assert!(refused(&["merge", text(&dir)]).contains("plan.digest: missing"));
    assert!(refused(&["run-part", text(&dir), "1"]).contains("plan.digest: missing"));
    std::fs::write(&digest, kept).unwrap();
    // A part's plan from another split of the same instance: its plan hash is not the
    // one this folder's digest signs.
    let other = folder.path().join("other");
    ok(&["split", "prime-grid", "--parts", "2", "--out", text(&other)]);
    std::fs::rename(&set_aside, &plans).unwrap();
    let ours = std::fs::read(plans.join("1.json")).unwrap();
    std::fs::copy(other.join("plans").join("1.json"), plans.join("1.json")).unwrap();
    let stderr = refused(&["run-part", text(&dir), "1"]);
    assert!(stderr.contains("plans/1.json: plan_hash:") && stderr.contains("another split's"), "{stderr}");
    std::fs::write(plans.join("1.json"), ours).unwrap();
    // A file where the parts' folder goes: refused before the search, not after it.
    let parts = dir.join("parts");
    std::fs::remove_dir(&parts).unwrap();
    std::fs::write(&parts, "").unwrap();
    let stderr = refused(&["run-part", text(&dir), "1"]);
    assert!(stderr.contains("parts: is not a folder"), "{stderr}");
    for command in [vec!["merge", text(&dir)], vec!["merge", "--status", text(&dir)]] {
        let stderr = refused(&command);
        assert!(stderr.contains("parts: is not a folder"), "{command:?}: {stderr}");
    }
    std::fs::remove_file(&parts).unwrap();
    // The plan as split: the parts run and the merge succeeds.
    for part in 1..=PARTS {
        ok(&["run-part", text(&dir), &part.to_string()]);
    }
    ok(&["merge", text(&dir)]);
}

/// Two parts, each consistent and signed with the folder's key, whose node counts add up
/// past 64 bits: `merge --status` reports the problem `merge` refuses (it said "next:
/// merge"), both with exit 2.
#[test]
fn counts_that_add_up_past_64_bits_are_a_problem_for_the_status_as_for_merge() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    split_and_run(&dir);
    let half = 1u64 << 63;
    for part in 1..=2 {
        let mut file = read_part(&dir, part);
        let c = (0..file.components.len())
            .find(|&c| file.components[c].counts.nodes_per_depth.iter().any(|&nodes| nodes > 0))
            .expect("a share that searched something");
        let counts = &mut file.components[c].counts;
        counts.nodes += half;
        *counts.nodes_per_depth.iter_mut().rev().find(|nodes| **nodes > 0).unwrap() += half;
        let prefix = format!("{c}:");
        file.subproblems.iter_mut().find(|record| record.subproblem.starts_with(&prefix)).unwrap().nodes += half;
        write_part(&dir, part, file, true);
    }
    let message = refused(&["merge", text(&dir)]);
    assert!(message.contains("does not fit in 64 bits over the plan and the parts (part 2)"), "{message}");
    let status = tool(&["merge", text(&dir), "--status"]);
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert_eq!(status.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("problem: ") && stdout.contains("over the plan and the parts (part 2)"), "{stdout}");
    assert!(!stdout.contains("next:"), "{stdout}");
}

/// A kept path that passes every check of its file's content but leaves the tree (a model
/// whose moves changed since the part ran, or an edit signed with the folder's key): the
/// merge's replay refuses it naming the part's file, and `merge --status` and `explain
/// --cluster`, which said the folder was ready, refuse it too (exit 2).
#[test]
fn a_kept_path_that_does_not_replay_is_refused_by_every_reader_naming_its_part_file() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    split_and_run(&dir);
    let (part, c) = find_share(&dir, |file, c| !file.components[c].solutions.is_empty());
    let mut file = read_part(&dir, part);
    let kept = &mut file.components[c].solutions[0];
    let last_dot = kept.rfind('.').expect("a path below the root");
    kept.replace_range(last_dot + 1.., "999999");
    write_part(&dir, part, file, true);
    let message = refused(&["merge", text(&dir)]);
    // The path is long: the message quotes its start.
    let expected = format!("{}: component {c}: the path ", text(&part_path(&dir, part)));
    assert!(message.contains(&expected) && message.contains(" leaves the tree at level "), "{message}");
    let problem = message.lines().next().unwrap().trim_start_matches("backtrack-bench: error: ");
    assert_eq!(refused(&["explain", "--cluster", text(&dir)]), message, "explain --cluster");
    let status = tool(&["merge", text(&dir), "--status"]);
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert_eq!(status.status.code(), Some(2), "merge --status: {stdout}");
    assert!(
        stdout.contains(&format!("done: 1-{PARTS}")) && stdout.contains(&format!("problem: {problem}")),
        "{stdout}"
    );
    assert!(!stdout.contains("next:"), "{stdout}");
}

/// A count past 64 bits or with a fraction in a part file (which the JSON reader takes for a
/// floating point number) is refused at its line and column, said as what it is.
#[test]
fn a_count_past_64_bits_or_with_a_fraction_is_refused_at_its_line_and_column() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path().join("run");
    split_and_run(&dir);
    let original = std::fs::read_to_string(part_path(&dir, 1)).unwrap();
    let at = original.find("\"nodes\": ").expect("a node count") + "\"nodes\": ".len();
    let end = at + original[at..].find(|c: char| !c.is_ascii_digit()).unwrap();
    let line = original[..at].lines().count();
    for (number, shown) in [("1180591620717411303424", "`1.1805916207174113e+21`"), ("1.5", "`1.5`")] {
        std::fs::write(part_path(&dir, 1), format!("{}{number}{}", &original[..at], &original[end..])).unwrap();
        let message = refused(&["merge", text(&dir)]);
        let expected = format!("{}:{line}:", text(&part_path(&dir, 1)));
        assert!(message.contains(&expected), "expected `{expected}` in: {message}");
        assert!(message.contains(&format!("{shown}: not a whole number in range")), "{message}");
    }
}
