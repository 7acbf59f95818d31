//! A plan folder under the hands of a batch system: two splits of one folder at once take
//! turns and leave one working plan, a split again restores a lost `plan.digest`, and the
//! commands `merge --status` suggests quote a folder name the shell would split or run;
//! `explain` refuses the flags of its other forms instead of ignoring them.

mod common;

use common::{ok, refused, text, tool};
use std::process::Command;

#[test]
fn two_splits_of_one_folder_at_once_leave_one_plan_every_part_can_run() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    for round in 0..4 {
        let dir = folder.path().join(format!("race-{round}"));
        let split = || {
            Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
                .args(["split", "prime-grid", "--parts", "300", "--out", text(&dir)])
                .spawn()
                .expect("the binary runs")
        };
        let (mut first, mut second) = (split(), split());
        assert!(first.wait().expect("a status").success() && second.wait().expect("a status").success());
        ok(&["run-part", text(&dir), "1"]);
        let status = tool(&["merge", text(&dir), "--status"]);
        let stdout = String::from_utf8_lossy(&status.stdout);
        assert!(status.status.success() && stdout.contains("1 of 300 parts done"), "{stdout}");
    }
}

#[test]
fn a_split_again_restores_a_lost_digest_and_quotes_the_folder_in_its_commands() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let dir = folder.path().join("my runs;x");
    ok(&["split", "rings", "--parts", "2", "--out", text(&dir)]);
    std::fs::remove_file(dir.join("plan.digest")).expect("the digest");
    let again = ok(&["split", "rings", "--parts", "2", "--out", text(&dir)]);
    assert!(again.contains(&format!("'{}'", text(&dir))), "{again}");
    ok(&["run-part", text(&dir), "1"]);
    let status = ok(&["merge", text(&dir), "--status"]);
    assert!(status.contains(&format!("run-part '{}' $k", text(&dir))), "{status}");
}

#[test]
fn flags_of_another_form_of_explain_are_refused_not_ignored() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let dir = folder.path().join("run");
    ok(&["split", "rings", "--parts", "2", "--out", text(&dir)]);
    let slots = refused(&["explain", "rings", "--parallel", "steal", "--slots", "3"]);
    assert!(slots.contains("--slots goes with --cluster DIR"), "{slots}");
    let out = refused(&["explain", "--cluster", text(&dir), "--out", text(&folder.path().join("x.md"))]);
    assert!(out.contains("`explain --cluster` prints its analysis"), "{out}");
}
