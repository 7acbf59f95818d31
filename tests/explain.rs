//! End-to-end tests of `explain`: a real run on a small instance, its report, and bad input.

use backtrack_bench::explain::CAUSE_NAMES;
use std::process::{Command, Output};

fn run(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_backtrack-bench")).args(arguments).output().expect("the binary runs")
}

/// The cells of the Markdown table rows that follow the header line starting with `header`.
fn table(text: &str, header: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip_while(|line| !line.starts_with(header))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| line.trim_matches('|').split('|').map(|cell| cell.trim().to_string()).collect())
        .collect()
}

fn milliseconds(cell: &str) -> f64 {
    cell.trim_end_matches(" ms").parse().unwrap_or_else(|_| panic!("not a time in ms: {cell}"))
}

#[test]
fn explaining_exhaustive_prime_grid_at_two_threads_writes_a_complete_report() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let report_path = folder.path().join("prime.md");
    let output = run(&[
        "explain",
        "prime-grid",
        "--parallel",
        "auto",
        "--threads",
        "2",
        "--repeats",
        "1",
        "--out",
        report_path.to_str().expect("a UTF-8 path"),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let report = std::fs::read_to_string(&report_path).expect("the report was written");
    let svg = std::fs::read_to_string(report_path.with_extension("svg")).expect("the plot was written");
    assert!(svg.starts_with("<svg") && svg.contains("lost time per cause"), "{}", &svg[..svg.len().min(200)]);
    assert!(report.contains("](prime.svg)"), "the report links its plot");

    // Every configuration searched the same exhaustive tree: the node ratio is exactly 1.
    let runs = table(&report, "| configuration |");
    assert_eq!(runs.len(), 7, "explained, sequential, 1 thread, 2 counter layouts, 2 state runs: {runs:?}");
    let sequential_nodes = &runs[1][3];
    assert!(runs.iter().all(|row| &row[3] == sequential_nodes), "{runs:?}");
    assert!(!report.contains("BUG"), "{report}");

    // Every cause is listed once, and their lost times add up to the lost time.
    let causes = table(&report, "| rank | cause |");
    let mut names: Vec<&str> = causes.iter().map(|row| row[1].as_str()).collect();
    assert_eq!(names.last(), Some(&"unexplained"));
    names.sort_unstable();
    let mut expected = CAUSE_NAMES.to_vec();
    expected.sort_unstable();
    assert_eq!(names, expected);
    let search = causes.iter().find(|row| row[1] == "search overhead").expect("listed");
    assert_eq!(search[4], "node ratio 1.000");
    assert_eq!(milliseconds(&search[2]), 0.0);
    let summed: f64 = causes.iter().map(|row| milliseconds(&row[2])).sum();
    let line = report.lines().find(|line| line.starts_with("The causes sum to")).expect("the sum line");
    let lost =
        milliseconds(line.split(" of lost time").next().unwrap_or_default().trim_start_matches("The causes sum to "));
    assert!((summed - lost).abs() <= 0.006 * causes.len() as f64, "causes {summed} vs lost {lost}");
    let wall = milliseconds(&runs[0][1]);
    let sequential = milliseconds(&runs[1][1]);
    assert!((lost - (wall - sequential / 2.0)).abs() < 0.011, "lost {lost} = {wall} - {sequential} / 2");
    let shares: f64 = causes.iter().map(|row| row[3].trim_end_matches('%').parse::<f64>().expect("a share")).sum();
    if lost > 0.0 {
        assert!((shares - 100.0).abs() < 0.06 * causes.len() as f64, "shares sum to {shares}%");
    }
    assert!(stdout.contains("rank  cause"), "the verdict is printed: {stdout}");
}

#[test]
fn explain_refuses_bad_input_with_exit_code_2() {
    for (arguments, message) in [
        (vec!["explain", "prime-grid"], "explain needs a parallel strategy"),
        (vec!["explain", "prime-grid", "--parallel", "fast"], "parallel strategy"),
        (vec!["explain", "prime-grid", "--parallel", "auto", "--threads", "0"], "at least 1"),
        (vec!["explain", "no-such-instance", "--parallel", "auto"], "no-such-instance"),
        (vec!["explain", "prime-grid", "--parallel", "auto", "--mode", "fastest"], "fastest"),
        (vec!["explain", "prime-grid", "--parallel", "auto", "--repeats", "0"], "repeats"),
    ] {
        let output = run(&arguments);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{arguments:?}: {stderr}");
        assert!(stderr.contains(message), "{arguments:?}: {stderr}");
    }
}

#[test]
fn explain_help_describes_every_flag() {
    let output = run(&["explain", "--help"]);
    let help = String::from_utf8_lossy(&output.stdout);
    for flag in ["--first", "--repeats", "--out", "--parallel", "--threads", "--counters", "--state", "--mode"] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
    assert!(help.contains("A/B"), "{help}");
}
