//! End-to-end tests of `solve --profile FILE`: the per-depth CSV adds up to the run's
//! counts, and its SVG plot is written beside it.

mod common;

use common::run;
use serde_json::Value;
use std::path::Path;

/// Runs `solve --json --profile FILE` with `arguments`; returns the report and the CSV
/// rows (header first), and checks that the plot was written.
fn solve_with_profile(folder: &Path, arguments: &[&str]) -> (Value, Vec<Vec<String>>) {
    let csv_path = folder.join("profile.csv");
    let mut all = vec!["solve", "--json", "--profile", csv_path.to_str().expect("a UTF-8 temporary path")];
    all.extend_from_slice(arguments);
    let output = run(&all);
    assert!(output.status.success(), "{all:?}: {}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).expect("--json prints one JSON object");
    let text = std::fs::read_to_string(&csv_path).expect("the profile CSV is written");
    let rows = text.lines().map(|line| line.split(',').map(str::to_string).collect()).collect();
    let svg = std::fs::read_to_string(folder.join("profile.svg")).expect("the plot is written beside the CSV");
    assert!(svg.starts_with("<svg") && svg.contains("</svg>"));
    let leftovers: Vec<_> = std::fs::read_dir(folder)
        .expect("the folder lists")
        .map(|entry| entry.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "no temporary files are left: {leftovers:?}");
    (report, rows)
}

fn number(field: &str) -> u64 {
    field.parse().expect("a count")
}

/// Sums of the nodes column and of each prune column over `rows` (header excluded).
fn column_sums(rows: &[Vec<String>]) -> Vec<u64> {
    let mut sums = vec![0; rows[0].len() - 2];
    for row in &rows[1..] {
        for (sum, field) in sums.iter_mut().zip(&row[2..]) {
            *sum += number(field);
        }
    }
    sums
}

fn rule_prunes(report: &Value) -> Vec<u64> {
    report["rules"].as_array().expect("rules").iter().map(|rule| rule["prunes"].as_u64().expect("prunes")).collect()
}

#[test]
fn rings_profile_is_the_exact_per_depth_count_of_its_twenty_nodes() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let (report, rows) = solve_with_profile(folder.path(), &["rings", "--order", "rings", "--pruning", "bounds"]);
    assert_eq!(report["nodes"], 20);
    let expected = [
        "component,depth,nodes,prunes_ring-sum,prunes_ring-bounds",
        "rings,0,1,0,0",
        "rings,1,5,4,0",
        "rings,2,4,3,0",
        "rings,3,3,0,0",
        "rings,4,6,4,1",
        "rings,5,1,0,0",
    ];
    let lines: Vec<String> = rows.iter().map(|row| row.join(",")).collect();
    assert_eq!(lines, expected);
    let sums = column_sums(&rows);
    assert_eq!(sums[0], 20);
    assert_eq!(sums[1..], rule_prunes(&report)[..]);
}

#[test]
fn twenty_four_seven_profile_has_one_block_per_grid_adding_up_to_each_grid() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let (report, rows) = solve_with_profile(folder.path(), &["247"]);
    assert_eq!(rows[0][..3], ["component", "depth", "nodes"]);
    let components = report["components"].as_array().expect("components");
    assert_eq!(components.len(), 4);
    for component in components {
        let name = component["name"].as_str().expect("a name");
        let nodes: u64 = rows[1..].iter().filter(|row| row[0] == name).map(|row| number(&row[2])).sum();
        assert_eq!(nodes, component["nodes"].as_u64().expect("nodes"), "{name}");
    }
    let sums = column_sums(&rows);
    assert_eq!(sums[0], report["nodes"].as_u64().expect("nodes"));
    assert_eq!(sums[1..], rule_prunes(&report)[..]);
}

#[test]
fn a_parallel_run_profile_adds_up_to_the_same_counts_as_the_sequential_one() {
    let sequential_folder = tempfile::tempdir().expect("a temporary folder");
    let parallel_folder = tempfile::tempdir().expect("a temporary folder");
    let (_, sequential) = solve_with_profile(sequential_folder.path(), &["hooks7"]);
    let (report, parallel) =
        solve_with_profile(parallel_folder.path(), &["hooks7", "--parallel", "depth:4", "--threads", "2"]);
    assert_eq!(parallel, sequential, "the tree and its counts do not depend on the strategy");
    assert_eq!(column_sums(&parallel)[0], report["nodes"].as_u64().expect("nodes"));
}

#[test]
fn a_profile_named_svg_or_without_rule_counts_is_bad_input() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let svg = folder.path().join("profile.svg");
    let output = run(&["solve", "rings", "--profile", svg.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("must not end in .svg"));
    // A path with no file name is a folder, and said so (not "ends in .svg").
    for no_file_name in [".", "..", "/"] {
        let output = run(&["solve", "rings", "--profile", no_file_name]);
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("is a directory") && !stderr.contains(".svg"), "{no_file_name}: {stderr}");
    }
    let csv = folder.path().join("profile.csv");
    let output = run(&["solve", "rings", "--no-rule-counts", "--profile", csv.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(!csv.exists());
}

#[test]
fn a_folder_where_the_plot_goes_is_refused_before_the_run_and_nothing_is_written() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir(folder.path().join("profile.svg")).expect("a folder named like the plot");
    let csv = folder.path().join("profile.csv");
    std::fs::write(&csv, "an earlier profile\n").expect("an earlier CSV");
    let output = run(&["solve", "rings", "--profile", csv.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("its plot") && stderr.contains("is a directory"), "{stderr}");
    assert!(output.stdout.is_empty(), "no run was reported");
    assert_eq!(std::fs::read_to_string(&csv).expect("the CSV"), "an earlier profile\n");
}

#[test]
fn a_fifo_or_a_dangling_link_where_the_plot_goes_is_refused_before_the_run() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let csv = folder.path().join("profile.csv");
    let plot = folder.path().join("profile.svg");
    std::os::unix::fs::symlink(folder.path().join("missing").join("z.svg"), &plot).expect("a dangling link");
    let output = run(&["solve", "rings", "--profile", csv.to_str().expect("UTF-8")]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("in a folder that does not exist"), "{stderr}");
    assert!(!folder.path().join("missing").exists() && !csv.exists(), "nothing is created");
    std::fs::remove_file(&plot).expect("the link");
    if !common::make_fifo(&plot) {
        eprintln!("mkfifo is missing: the FIFO case is skipped");
        return;
    }
    let output = run(&["solve", "rings", "--profile", csv.to_str().expect("UTF-8")]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is a FIFO, a device"), "{stderr}");
    assert!(!csv.exists(), "the CSV is not written");
}

#[test]
fn an_output_that_is_the_instance_file_is_refused_and_the_instance_kept() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let instance = folder.path().join("rings.json");
    let original =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/instances/olympic_rings.json")).expect("the rings");
    std::fs::write(&instance, &original).expect("a copy of the rings");
    let link = folder.path().join("link.json");
    std::os::unix::fs::symlink(&instance, &link).expect("a link to it");
    let path = instance.to_str().expect("UTF-8");
    for (flag, output_path) in
        [("--profile", path), ("--solutions", path), ("--solutions", link.to_str().expect("UTF-8"))]
    {
        let output = run(&["solve", path, flag, output_path]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{flag} {output_path}: {stderr}");
        assert!(stderr.contains("the run would replace its input"), "{stderr}");
        assert_eq!(std::fs::read(&instance).expect("the instance"), original);
    }
}

/// A profile where no file can be made (here `/proc`, whose files are the kernel's) is
/// refused before the search: found after it, the run's report was never printed (exit 1).
#[test]
fn a_profile_in_a_folder_that_takes_no_file_is_refused_before_the_search() {
    if !std::path::Path::new("/proc/version").is_file() {
        return;
    }
    let output = common::run(&["solve", "prime-grid", "--profile", "/proc/version"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--profile /proc/version: cannot write a file in /proc: the folder takes no new files"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty(), "no search ran");
    let output =
        common::run(&["explain", "rings", "--parallel", "steal", "--repeats", "1", "--out", "/proc/report.md"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--out /proc/report.md: cannot write a file in /proc"), "{stderr}");
}
