//! Guards of a plan folder against losing work or running half a plan: a split that would
//! write a new key over finished parts of its plan is refused (they would no longer
//! verify), and says how to keep them; a folder whose split did not finish (no `plan.json`
//! beside the split's lock) is refused by `run-part`, `merge` and `explain --cluster`,
//! while a part's plan, key and digest copied to another machine still run; and
//! `explain --predict` refuses `--first` (predictions are of exhaustive searches).

mod common;

use common::{ok, refused, text, tool};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const INSTANCE: &str = "instances/prime_grid_enumeration.json";

fn part_path(dir: &Path, part: usize) -> PathBuf {
    dir.join("parts").join(format!("{part}.json"))
}

fn split(dir: &Path) -> std::process::Output {
    tool(&["split", INSTANCE, "--parts", "2", "--out", text(dir)])
}

/// Splits into 2 parts in `dir` and runs both.
fn split_and_run(dir: &Path) {
    assert!(split(dir).status.success());
    ok(&["run-part", text(dir), "1"]);
    ok(&["run-part", text(dir), "2"]);
}

/// Every file under `dir` (by path relative to it) with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let bytes = std::fs::read(&path).expect("a file");
                files.insert(path.strip_prefix(dir).unwrap().to_path_buf(), bytes);
            }
        }
    }
    files
}

#[test]
fn a_split_after_the_key_was_lost_refuses_to_orphan_the_finished_parts() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let dir = folder.path().join("ck");
    split_and_run(&dir);
    let key = std::fs::read(dir.join("key")).unwrap();
    std::fs::remove_file(dir.join("key")).unwrap();
    let before = snapshot(&dir);
    let output = split(&dir);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("2 finished part(s) of this plan would no longer verify"), "{stderr}");
    assert!(stderr.contains(&format!("restore {} from a copy", dir.join("key").display())), "{stderr}");
    assert!(stderr.contains(&format!("remove {} to start over", dir.join("parts").display())), "{stderr}");
    assert!(output.stdout.is_empty(), "no `plan: ... unchanged` line");
    assert_eq!(snapshot(&dir), before, "no key, digest or part plan written");
    // merge says to restore the key first, and what splitting again costs.
    let status = refused(&["merge", text(&dir), "--status"]);
    assert!(status.contains("key: missing") && status.contains("restore it from a copy first"), "{status}");
    assert!(status.contains("every part must run again"), "{status}");
    // As advised: the key restored, the same split leaves the folder as it is, and merges.
    std::fs::write(dir.join("key"), &key).unwrap();
    let again = String::from_utf8_lossy(&split(&dir).stdout).into_owned();
    assert!(again.contains("plan.json (already there, unchanged)"), "{again}");
    ok(&["merge", text(&dir)]);
    // Or parts/ removed to start over: a new key, said so, and every part run again.
    std::fs::remove_file(dir.join("key")).unwrap();
    std::fs::remove_dir_all(dir.join("parts")).unwrap();
    let output = split(&dir);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("(already there; its key was missing: signed anew with a new key)"), "{stdout}");
    assert_ne!(std::fs::read(dir.join("key")).unwrap(), key, "a new key");
    ok(&["run-part", text(&dir), "1"]);
    ok(&["run-part", text(&dir), "2"]);
    ok(&["merge", text(&dir)]);
}

#[test]
fn a_split_again_after_plan_json_was_removed_keeps_the_finished_parts_of_the_same_plan() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let dir = folder.path().join("ck");
    split_and_run(&dir);
    let plan = std::fs::read(dir.join("plan.json")).unwrap();
    std::fs::remove_file(dir.join("plan.json")).unwrap();
    let before = snapshot(&dir);
    let output = split(&dir);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("2 finished part(s) of this plan would no longer verify"), "{stderr}");
    assert!(stderr.contains(&format!("restore {} from a copy", dir.join("plan.json").display())), "{stderr}");
    assert_eq!(snapshot(&dir), before, "the key is not replaced");
    std::fs::write(dir.join("plan.json"), plan).unwrap();
    ok(&["merge", text(&dir)]);
}

#[test]
fn a_folder_whose_split_did_not_finish_is_refused_by_every_command() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let dir = folder.path().join("ck");
    assert!(split(&dir).status.success());
    // What a split killed just before its last write leaves: the lock, the key, the
    // digest and the parts' plans, no plan.json.
    std::fs::remove_file(dir.join("plan.json")).unwrap();
    assert!(dir.join(".split.lock").exists() && dir.join("plans").join("2.json").exists());
    let expected = format!("{}: split did not finish (no plan.json): run the split again", dir.display());
    let run_part = refused(&["run-part", text(&dir), "2"]);
    assert!(run_part.contains(&expected), "{run_part}");
    assert!(!part_path(&dir, 2).exists(), "no part file is written");
    for command in
        [&["merge", text(&dir), "--status"][..], &["merge", text(&dir)], &["explain", "--cluster", text(&dir)]]
    {
        let stderr = refused(command);
        assert!(stderr.contains(&expected) && !stderr.contains("No such file"), "{command:?}: {stderr}");
    }
    // As advised: the split run again completes the folder.
    assert!(split(&dir).status.success());
    ok(&["run-part", text(&dir), "1"]);
    ok(&["run-part", text(&dir), "2"]);
    ok(&["merge", text(&dir)]);
}

#[test]
fn a_part_copied_to_another_machine_runs_without_plan_json() {
    // docs/cluster.md, GNU parallel without a shared folder: only the part's plan, the key
    // and the digest are sent, and no split ran there.
    let folder = tempfile::tempdir().expect("a temporary folder");
    let dir = folder.path().join("run");
    assert!(split(&dir).status.success());
    let remote = folder.path().join("remote");
    std::fs::create_dir_all(remote.join("plans")).unwrap();
    std::fs::create_dir_all(remote.join("parts")).unwrap();
    for file in ["key", "plan.digest", "plans/1.json"] {
        std::fs::copy(dir.join(file), remote.join(file)).unwrap();
    }
    ok(&["run-part", text(&remote), "1"]);
    std::fs::copy(part_path(&remote, 1), part_path(&dir, 1)).unwrap();
    ok(&["run-part", text(&dir), "2"]);
    ok(&["merge", text(&dir)]);
}

#[test]
fn explain_predict_refuses_a_first_solution_search() {
    let output = tool(&["explain", "hooks7", "--parallel", "steal", "--predict", "1,2", "--first", "--repeats", "1"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--predict with --first: the prediction is of exhaustive searches"), "{stderr}");
    assert!(output.stdout.is_empty(), "no prediction printed");
}
