//! `report` and `sweep` refuse what the harness did not leave in a results folder, naming
//! it, before they write anything: a run log without a column every build writes, rows of
//! another sweep than the file's name, a file where a folder of the tool's goes, and an
//! image base that would break the README's links.

mod common;

use common::{report_fixture as folder_with_fixture, run};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A temporary folder holding `mm.toml`, a spec of one sweep `mm` of `rings`: the folder,
/// its path (as `--out`) and the spec's path.
fn folder_with_rings_spec() -> (tempfile::TempDir, String, String) {
    let folder = tempfile::tempdir().unwrap();
    let spec = folder.path().join("mm.toml");
    std::fs::write(&spec, "name = \"mm\"\n[[block]]\ninstances = [\"rings\"]\n").unwrap();
    let out = folder.path().to_string_lossy().into_owned();
    (folder, out, spec.to_string_lossy().into_owned())
}

/// A run log that lost a column every build writes (an edit) is refused naming it, and
/// rows of another sweep than the file's name are left out with a note: both read before
/// as an older build's file or in silence, and the tables came out wrong with exit 0.
#[test]
fn a_run_log_missing_a_core_column_or_holding_another_sweeps_rows_is_not_read_in_silence() {
    let folder = folder_with_fixture();
    let runs = folder.path().join("fixture-runs.csv");
    let original = std::fs::read_to_string(&runs).unwrap();
    let out = folder.path().to_string_lossy().into_owned();
    let mut reader = csv::Reader::from_reader(original.as_bytes());
    let column = reader.headers().unwrap().iter().position(|name| name == "nodes").unwrap();
    let mut writer = csv::Writer::from_writer(Vec::new());
    let header = reader.headers().unwrap().clone();
    let rows = std::iter::once(header).chain(reader.records().map(Result::unwrap));
    for row in rows {
        writer
            .write_record(row.iter().enumerate().filter(|(index, _)| *index != column).map(|(_, cell)| cell))
            .unwrap();
    }
    let without_nodes = writer.into_inner().unwrap();
    std::fs::write(&runs, without_nodes).unwrap();
    let output = run(&["report", "--out", &out]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("lacks the column(s) nodes, which every build"), "{}", text(&output.stderr));
    let renamed = original.replacen("\nfixture,", "\nelsewhere,", 1);
    std::fs::write(&runs, renamed).unwrap();
    let output = run(&["report", "--out", &out]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("left out 1 row(s) whose sweep column is not `fixture` (the first: `elsewhere`)"),
        "{stderr}"
    );
}

/// `--image-base` makes the README's image links absolute: a base that would not make a
/// working Markdown link (empty, relative, with a space or a parenthesis) is refused.
#[test]
fn an_image_base_that_breaks_the_links_is_refused_and_a_good_one_is_used() {
    let folder = folder_with_fixture();
    let out = folder.path().to_string_lossy().into_owned();
    for base in ["", "results/plots", "https://example.org/a b", "https://example.org/a)b"] {
        let output = run(&["report", "--out", &out, "--quiet", "--image-base", base]);
        assert_eq!(output.status.code(), Some(2), "{base:?}: {}", text(&output.stderr));
        assert!(text(&output.stderr).contains("expected an absolute address"), "{}", text(&output.stderr));
    }
    let output = run(&["report", "--out", &out, "--quiet", "--image-base", "https://example.org/raw/results/"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let readme = std::fs::read_to_string(folder.path().join("README.md")).unwrap();
    assert!(readme.contains("(https://example.org/raw/results/plots/fixture-"), "{readme}");
}

/// A file where the tool keeps a folder of its own (`plots/` of a report, `history/` of a
/// sweep) is refused before anything is written, naming it (exit 2); the system's "Not a
/// directory" came after the summaries were rewritten (exit 1).
#[test]
fn a_file_where_plots_or_history_go_is_refused_naming_it() {
    let folder = folder_with_fixture();
    let out = folder.path().to_string_lossy().into_owned();
    std::fs::write(folder.path().join("plots"), "").unwrap();
    let output = run(&["report", "--out", &out, "--quiet"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("plots: is not a folder"), "{}", text(&output.stderr));
    assert!(!folder.path().join("fixture-summary.csv").exists(), "nothing was written");
    let spec = folder.path().join("fixture.toml");
    std::fs::write(&spec, "name = \"fixture\"\n[[block]]\ninstances = [\"rings\"]\n").unwrap();
    std::fs::write(folder.path().join("history"), "").unwrap();
    let output = run(&["sweep", "--spec", spec.to_str().unwrap(), "--out", &out, "--quiet"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("history: is not a folder"), "{}", text(&output.stderr));
}

/// What a sweep appends to and locks (its run log, counts file, lock file) held by a folder
/// is refused before anything moves into the history (exit 2): the folder was set aside as
/// an earlier run, and every later `report` failed on it.
#[test]
fn a_folder_at_a_sweeps_own_file_names_is_refused_before_the_history_moves() {
    let (folder, out, spec) = folder_with_rings_spec();
    for name in ["mm-runs.csv", "mm-counts.csv", "mm.lock"] {
        let held = folder.path().join(name);
        // The sweeps before left their lock file (a regular file, kept between sweeps).
        let _ = std::fs::remove_file(&held);
        std::fs::create_dir(&held).unwrap();
        let output = run(&["sweep", "--spec", &spec, "--out", &out, "--quiet"]);
        assert_eq!(output.status.code(), Some(2), "{name}: {}", text(&output.stderr));
        assert!(text(&output.stderr).contains(&format!("{name}: is a folder")), "{}", text(&output.stderr));
        assert!(!folder.path().join("history").exists(), "{name}: nothing was set aside");
        std::fs::remove_dir(&held).unwrap();
    }
}

/// `--resume` with another plan (here another node limit) appends the new plan's rows to
/// the old run's log: the user hears it before the runs. A baseline folder without a run
/// log would compare nothing and pass: refused (exit 2).
#[test]
fn a_resume_of_another_plan_is_told_and_a_baseline_without_run_logs_refused() {
    let (_folder, out, spec) = folder_with_rings_spec();
    let spec = spec.as_str();
    assert!(run(&["sweep", "--spec", spec, "--out", &out, "--quiet"]).status.success());
    let output = run(&["sweep", "--spec", spec, "--out", &out, "--quiet", "--resume"]);
    assert!(output.status.success(), "the same plan resumes: {}", text(&output.stderr));
    assert!(!text(&output.stderr).contains("this plan does not have"), "{}", text(&output.stderr));
    let output = run(&["sweep", "--spec", spec, "--out", &out, "--quiet", "--resume", "--node-limit", "5"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stderr).contains("hold 1 configuration(s) this plan does not have"),
        "{}",
        text(&output.stderr)
    );
    let empty = tempfile::tempdir().unwrap();
    let output = run(&["report", "--out", &out, "--quiet", "--baseline", empty.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("the folder holds no run log"), "{}", text(&output.stderr));
}

/// An `--out` that cannot be a folder (a file on its path, a link to nothing) is the user's
/// to fix: exit 2 naming it, where the system's "Not a directory" or "File exists" exited 1.
#[test]
fn an_out_folder_behind_a_file_or_a_dangling_link_is_refused_as_input() {
    let (folder, _, spec) = folder_with_rings_spec();
    std::fs::write(folder.path().join("afile"), "").unwrap();
    std::os::unix::fs::symlink(folder.path().join("nowhere"), folder.path().join("dangling")).unwrap();
    for out in [folder.path().join("afile/sub"), folder.path().join("dangling")] {
        let output = run(&["sweep", "--spec", &spec, "--out", out.to_str().unwrap(), "--quiet"]);
        assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
        assert!(text(&output.stderr).contains("cannot be made a results folder"), "{}", text(&output.stderr));
    }
}
