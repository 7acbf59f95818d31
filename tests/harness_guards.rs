//! Guards of what the harness keeps and refuses, through the binary: `report` never writes
//! an empty summary and a blank README over good ones when a sweep's log gives no run;
//! `sweep` never replaces or moves a file at a run log's name that it did not write; the
//! README quotes run text (titles, hosts, ids) as text, never as HTML; and a spec whose
//! `min_repeats` is above its `repeats` is refused before anything runs.

mod common;

use common::{refused, report_fixture, text, tool};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every file under `folder` with its bytes, by path relative to the folder.
fn snapshot(folder: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.insert(path.strip_prefix(folder).unwrap().to_path_buf(), std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

/// The report fixture's folder after one `report`: logs, summary, README and plots.
fn reported_fixture() -> tempfile::TempDir {
    let folder = report_fixture();
    let output = tool(&["report", "--out", text(folder.path()), "--quiet"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(folder.path().join("fixture-summary.csv").exists() && folder.path().join("plots").is_dir());
    folder
}

/// `csv` with `column` set to `value` in every row.
fn with_column(csv_text: &str, column: &str, value: &str) -> String {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let index = header.iter().position(|name| name == column).unwrap();
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(&header).unwrap();
    for row in reader.records() {
        let row = row.unwrap();
        writer.write_record(row.iter().enumerate().map(|(at, cell)| if at == index { value } else { cell })).unwrap();
    }
    String::from_utf8(writer.into_inner().unwrap()).unwrap()
}

#[test]
fn report_refuses_a_sweep_whose_log_gives_no_run_and_changes_no_byte() {
    let folder = reported_fixture();
    let runs = folder.path().join("fixture-runs.csv");
    let original = std::fs::read_to_string(&runs).unwrap();
    let header = original.lines().next().unwrap().to_string();
    let every_row_invalid = with_column(&original, "wall_ns", "-5");
    for (case, log) in
        [("empty", String::new()), ("header alone", format!("{header}\n")), ("invalid", every_row_invalid)]
    {
        std::fs::write(&runs, &log).unwrap();
        let before = snapshot(folder.path());
        let stderr = refused(&["report", "--out", text(folder.path())]);
        assert!(stderr.contains(&format!("{}: holds no run to report", runs.display())), "{case}: {stderr}");
        assert!(stderr.contains("fixture-summary.csv (the summary of its earlier runs)"), "{case}: {stderr}");
        if case == "invalid" {
            assert!(stderr.contains("column wall_ns"), "{case}: the first skip note says why: {stderr}");
        }
        assert_eq!(snapshot(folder.path()), before, "{case}: report changed the folder");
    }
}

#[test]
fn a_sweep_without_runs_beside_reported_ones_is_refused_or_left_out() {
    let folder = reported_fixture();
    let runs = folder.path().join("fixture-runs.csv");
    let original = std::fs::read_to_string(&runs).unwrap();
    // A second sweep with runs; the fixture's log emptied: its summary holds rows, refused.
    let second = with_column(&original, "sweep", "second");
    std::fs::write(folder.path().join("second-runs.csv"), &second).unwrap();
    std::fs::write(&runs, "").unwrap();
    let before = snapshot(folder.path());
    let stderr = refused(&["report", "--out", text(folder.path())]);
    assert!(stderr.contains(&format!("{}: holds no run to report", runs.display())), "{stderr}");
    assert_eq!(snapshot(folder.path()), before);
    assert!(!folder.path().join("second-summary.csv").exists());
    // A sweep killed before its first run (a header alone, no summary) is left out, said.
    std::fs::write(&runs, &original).unwrap();
    let header = original.lines().next().unwrap();
    std::fs::write(folder.path().join("killed-runs.csv"), format!("{header}\n")).unwrap();
    let output = tool(&["report", "--out", text(folder.path())]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("sweep `killed` is left out of the report"), "{stderr}");
    assert!(!folder.path().join("killed-summary.csv").exists());
    let readme = std::fs::read_to_string(folder.path().join("README.md")).unwrap();
    assert!(readme.contains("## Sweep `fixture`") && readme.contains("## Sweep `second`"), "{readme}");
    assert!(!readme.contains("killed"), "{readme}");
}

/// A temporary folder holding `s1.toml`, one configuration of `rings`, one run.
fn folder_with_spec() -> (tempfile::TempDir, String) {
    let folder = tempfile::tempdir().unwrap();
    let spec = folder.path().join("s1.toml");
    std::fs::write(&spec, "name = \"s1\"\n[[block]]\ninstances = [\"rings\"]\n").unwrap();
    let spec = text(&spec).to_string();
    (folder, spec)
}

#[test]
fn sweep_refuses_a_file_at_a_log_name_that_it_did_not_write_and_leaves_it() {
    let (folder, spec) = folder_with_spec();
    let out = folder.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let out_text = text(&out).to_string();
    let cases: [(&str, &[&str]); 5] = [
        ("s1-runs.csv", &[]),
        ("s1-runs.csv", &["--resume"]),
        ("s1-runs.shard-1-of-2.csv", &["--shard", "1/2"]),
        ("s1-runs.shard-2-of-2.csv", &["--shard", "1/2", "--resume"]),
        ("s1-runs.shard-1-of-3.csv", &[]),
    ];
    for (name, extra) in cases {
        for contents in ["my,own\n", "my,own\n1,2\n", "\u{feff}my,own\r\n1,2\r\n"] {
            let log = out.join(name);
            std::fs::write(&log, contents).unwrap();
            let mut arguments = vec!["sweep", "--spec", &spec, "--out", &out_text, "--quiet"];
            arguments.extend_from_slice(extra);
            let stderr = refused(&arguments);
            let said = format!("{}: is not a run log this tool wrote (its first line `", log.display());
            assert!(stderr.contains(&said) && stderr.contains("move it away"), "{name} {extra:?}: {stderr}");
            assert_eq!(std::fs::read(&log).unwrap(), contents.as_bytes(), "{name} {extra:?}: the file changed");
            let left: Vec<String> = std::fs::read_dir(&out)
                .unwrap()
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|file| !file.ends_with(".lock"))
                .collect();
            assert_eq!(left, [name], "{name} {extra:?}: nothing else is written or moved");
            std::fs::remove_file(&log).unwrap();
        }
    }
}

#[test]
fn sweep_takes_a_log_of_its_own_header_alone_and_an_empty_file() {
    let (folder, spec) = folder_with_spec();
    let first = folder.path().join("first");
    let out = text(&first).to_string();
    assert!(tool(&["sweep", "--spec", &spec, "--out", &out, "--quiet"]).status.success());
    let log = first.join("s1-runs.csv");
    let header = std::fs::read_to_string(&log).unwrap().lines().next().unwrap().to_string();
    for contents in [format!("{header}\n"), String::new()] {
        std::fs::write(&log, &contents).unwrap();
        let output = tool(&["sweep", "--spec", &spec, "--out", &out, "--quiet"]);
        assert!(output.status.success(), "{contents:?}: {}", String::from_utf8_lossy(&output.stderr));
        let rows = std::fs::read_to_string(&log).unwrap();
        assert_eq!(rows.lines().count(), 2, "{contents:?}: a header and the one run: {rows}");
        assert!(rows.starts_with(&header));
    }
}

#[test]
fn the_readme_quotes_run_text_as_text_not_html() {
    let folder = report_fixture();
    let runs = folder.path().join("fixture-runs.csv");
    let original = std::fs::read_to_string(&runs).unwrap();
    let edited = with_column(&original, "instance_title", "T <b>&amp; \"q\" & </svg> |");
    let edited = with_column(&edited, "hostname", "<script>host</script>");
    let edited = with_column(&edited, "instance", "A`<i>x");
    std::fs::write(&runs, edited).unwrap();
    let output = tool(&["report", "--out", text(folder.path()), "--quiet"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let readme = std::fs::read_to_string(folder.path().join("README.md")).unwrap();
    assert!(
        readme.contains("### T &lt;b&gt;&amp;amp; \"q\" &amp; &lt;/svg&gt; \\| (`rings`, olympic_rings)"),
        "{readme}"
    );
    assert!(readme.contains("| hosts | &lt;script&gt;host&lt;/script&gt; |"), "{readme}");
    // In a code span nothing is markup: fenced past the id's backtick, written as it is.
    assert!(readme.contains("Instance ``A`<i>x``."), "{readme}");
    let outside_spans = readme.replace("``A`<i>x``", "");
    for html in ["<b>", "</svg>", "<script>", "<i>"] {
        assert!(!outside_spans.contains(html), "`{html}` reached the README as HTML:\n{readme}");
    }
}

#[test]
fn min_repeats_above_repeats_is_refused_at_dry_run_naming_both_keys() {
    let folder = tempfile::tempdir().unwrap();
    let spec = folder.path().join("m.toml");
    let path = text(&spec).to_string();
    let block = "[[block]]\ninstances = [\"rings\"]\n";
    for (contents, expected) in [
        (
            format!("name = \"m\"\nrepeats = 2\nmin_repeats = 10\n{block}"),
            ":3: min_repeats: 10 is above repeats = 2 (line 2)",
        ),
        (
            format!("name = \"m\"\nmin_repeats = 3\n{block}"),
            ":2: min_repeats: 3 is above repeats, which is 1 when not set",
        ),
        (
            format!("name = \"m\"\nrepeats = 5\nmin_repeats = 3\n{block}{block}repeats = 2\n"),
            ":8: block[1].repeats: 2 is below min_repeats = 3 (line 3)",
        ),
    ] {
        std::fs::write(&spec, &contents).unwrap();
        let stderr = refused(&["sweep", "--spec", &path, "--dry-run"]);
        assert!(stderr.contains(&format!("{path}{expected}")), "{contents}: {stderr}");
    }
    // Equal is fine; so is `--repeats` below the minimum (it lowers it: a quick trial).
    std::fs::write(&spec, format!("name = \"m\"\nrepeats = 3\nmin_repeats = 3\n{block}")).unwrap();
    for extra in [&[][..], &["--repeats", "1"]] {
        let mut arguments = vec!["sweep", "--spec", &path, "--dry-run"];
        arguments.extend_from_slice(extra);
        let output = tool(&arguments);
        assert!(output.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&output.stderr));
    }
}
