//! Guards of the command line that must act before any work: `scaling-check`'s whole list
//! checked before the first measurement, two outputs into standard output refused, a
//! missing output folder named, standard output's write errors named, grids of one name
//! refused; and `watch`'s summary agreeing with its last frame.

mod common;

use common::{refused, text, tool};
use std::path::Path;
use std::process::{Command, Output};

/// `scaling-check` with `arguments` into a temporary `--out`, which must be refused before
/// the first instance is measured: its stderr.
fn check_refused_before_measuring(arguments: &[&str]) -> String {
    let out = tempfile::tempdir().expect("a temporary folder");
    let mut all = vec!["scaling-check", "--repeats", "1", "--threads", "1", "--one-cpu", "--out", text(out.path())];
    all.extend_from_slice(arguments);
    let stderr = refused(&all);
    assert!(!stderr.contains("recording and calibrating"), "measured before the refusal: {stderr}");
    stderr
}

#[test]
fn scaling_check_loads_every_instance_before_measuring_any() {
    let stderr = check_refused_before_measuring(&["--instances", "rings,nonexist.json"]);
    assert!(stderr.contains("nonexist.json: no such file"), "{stderr}");
    let clique = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/max_clique/petersen.clq");
    let stderr = check_refused_before_measuring(&["--instances", &format!("rings,{}", text(&clique))]);
    assert!(stderr.contains("petersen.clq: its models have an objective (branch and bound)"), "{stderr}");
}

#[test]
fn scaling_check_names_an_empty_name_and_its_flag() {
    for list in ["", "rings,", "rings,,hooks7"] {
        let stderr = check_refused_before_measuring(&["--instances", list]);
        assert!(stderr.contains("error: --instances: the list has an empty name"), "{list:?}: {stderr}");
        // Resolved as a path, the empty name named the crate's folder: the build's path.
        assert!(!stderr.contains(env!("CARGO_MANIFEST_DIR")), "{list:?}: {stderr}");
    }
    let stderr = check_refused_before_measuring(&["--instances", "rings", "--strategies", ""]);
    assert!(stderr.contains("error: --strategies: the list has an empty name"), "{stderr}");
    let stderr = check_refused_before_measuring(&["--instances", "rings", "--strategies", "steal,bogus"]);
    assert!(stderr.contains("error: --strategies: invalid parallel strategy `bogus`"), "{stderr}");
}

#[test]
fn solutions_and_profile_both_into_standard_output_are_refused() {
    for (solutions, profile) in [("-", "-"), ("/dev/stdout", "-"), ("-", "/dev/stdout")] {
        let output = tool(&["solve", "rings", "--solutions", solutions, "--profile", profile]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{solutions} {profile}: {stderr}");
        assert!(
            stderr.contains(&format!("--solutions {solutions} and --profile {profile} both go to standard output")),
            "{stderr}"
        );
        assert!(output.stdout.is_empty(), "nothing run, nothing printed");
    }
    // Standard output's own file, named as a file: the same stream.
    let folder = tempfile::tempdir().expect("a temporary folder");
    let file = folder.path().join("out.txt");
    let stdout = std::fs::File::create(&file).expect("the output file");
    let output = Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
        .args(["solve", "rings", "--solutions", text(&file), "--profile", "-"])
        .stdout(stdout)
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(2), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(std::fs::read(&file).expect("the file"), b"", "nothing written");
    // One of them into standard output is still fine.
    let output = tool(&["solve", "rings", "--solutions", "-", "--profile", "/dev/null"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn a_solutions_file_in_a_missing_folder_names_the_folder() {
    let stderr = refused(&["solve", "rings", "--solutions", "nodir/x.jsonl"]);
    assert!(stderr.contains("--solutions nodir/x.jsonl: the folder nodir does not exist; create it first"), "{stderr}");
    // A dangling link: the folder of the file it leads to.
    let folder = tempfile::tempdir().expect("a temporary folder");
    let link = folder.path().join("link.jsonl");
    std::os::unix::fs::symlink("/no/such/folder/x.jsonl", &link).expect("a symlink");
    let stderr = refused(&["solve", "rings", "--solutions", text(&link)]);
    assert!(stderr.contains("the folder /no/such/folder does not exist"), "{stderr}");
}

/// The command with its standard output `into`.
fn with_stdout(arguments: &[&str], into: impl Into<std::process::Stdio>) -> Output {
    Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
        .args(arguments)
        .stdout(into)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .output()
        .expect("the binary runs")
}

#[test]
fn a_full_standard_output_is_named_and_a_closed_pipe_is_not_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("/dev/full is missing: skipped");
        return;
    };
    let report = common::report_fixture();
    let report_arguments = ["report", "--out", text(report.path())];
    let commands: [&[&str]; 5] =
        [&["solve", "rings"], &["solve", "rings", "--json"], &["list"], &["estimate", "rings"], &report_arguments];
    for arguments in commands {
        let output = with_stdout(arguments, full.try_clone().expect("a second handle"));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{arguments:?}: {stderr}");
        assert!(stderr.contains("error: writing standard output: No space left on device"), "{arguments:?}: {stderr}");
    }
    for arguments in [&["solve", "rings"][..], &["list"]] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let output = with_stdout(arguments, writer);
        assert_eq!(output.status.code(), Some(0), "{arguments:?}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(output.stderr.is_empty(), "{arguments:?}: {}", String::from_utf8_lossy(&output.stderr));
    }
}

#[test]
fn twenty_four_seven_grids_of_one_name_are_refused_with_the_key() {
    let seed = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/twenty_four_seven_2x2_2.json");
    let mut instance: serde_json::Value =
        serde_json::from_slice(&std::fs::read(seed).expect("the seed file")).expect("JSON");
    instance["data"]["grids"][0]["name"] = "a".into();
    instance["data"]["grids"][1]["name"] = "a".into();
    let folder = tempfile::tempdir().expect("a temporary folder");
    let file = folder.path().join("twins.json");
    std::fs::write(&file, serde_json::to_vec(&instance).expect("JSON")).expect("written");
    let stderr = refused(&["solve", "--json", text(&file)]);
    assert!(stderr.contains("data.grids[1].name: `a` is also the name of grids[0]"), "{stderr}");
}

/// Olympic Rings without ring rules: every full assignment is a solution, the node of the
/// fifth step among them. Its last frame said "solutions 0" and the summary "1 solution".
#[test]
fn watch_summary_agrees_with_its_last_frame() {
    let seed = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/olympic_rings.json");
    let mut instance: serde_json::Value =
        serde_json::from_slice(&std::fs::read(seed).expect("the seed file")).expect("JSON");
    instance["data"]["rings"] = serde_json::json!({});
    let folder = tempfile::tempdir().expect("a temporary folder");
    let file = folder.path().join("no_rings.json");
    std::fs::write(&file, serde_json::to_vec(&instance).expect("JSON")).expect("written");
    let output = tool(&["watch", text(&file), "--max-steps", "5"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let summary = stdout.lines().next_back().expect("a summary line");
    assert!(summary.starts_with("5 frames, 6 nodes, 1 solution (stopped by --max-steps 5"), "{summary}");
    let status = stdout.lines().rev().find(|line| line.starts_with("rings  step ")).expect("a frame's status line");
    assert!(status.contains("step 5  depth 5  nodes 6  solutions 1  last: solution"), "{status}");
}
