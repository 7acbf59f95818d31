//! An instance argument that does not load says what was wrong with it: which file is
//! missing, which prefix no family takes, that a path is a directory, or on which line a
//! file fails to parse; always exit code 2. A file of a family's own format is read past a
//! byte order mark.

mod common;

use common::{refused, text};

/// `solve ARGUMENT` refused as bad input: its one error line, without the program's name.
fn error_of(argument: &str) -> String {
    let stderr = refused(&["solve", argument]);
    stderr
        .trim_end()
        .strip_prefix("backtrack-bench: error: ")
        .unwrap_or_else(|| panic!("one error line: {stderr}"))
        .to_string()
}

#[test]
fn a_clq_prefix_before_a_missing_file_names_that_file_and_the_family_that_reads_clq_files() {
    let folder = tempfile::tempdir().expect("temp dir");
    let missing = folder.path().join("missing.clq");
    let argument = format!("clq:{}", text(&missing));
    assert_eq!(
        error_of(&argument),
        format!(
            "{argument}: no such file; no family takes a `clq:` argument, and `{}` does not exist either (family \
             `max_clique` reads `.clq` files by their path)",
            text(&missing)
        )
    );
}

#[test]
fn a_clq_prefix_before_an_existing_file_says_to_give_the_path_alone() {
    let folder = tempfile::tempdir().expect("temp dir");
    let graph = folder.path().join("triangle.clq");
    std::fs::write(&graph, "p edge 3 3\ne 1 2\ne 2 3\ne 1 3\n").expect("write the graph");
    let argument = format!("clq:{}", text(&graph));
    assert_eq!(
        error_of(&argument),
        format!(
            "{argument}: no such file; no family takes a `clq:` argument; family `max_clique` reads `.clq` files by \
             their path: give `{}`",
            text(&graph)
        )
    );
    // Given as it says, the same file loads: a triangle's clique number is 3.
    let solved = common::solve_json(&[text(&graph), "--best"]);
    assert_eq!(solved["objective"]["best"], 3, "{solved}");
}

#[test]
fn an_unknown_prefix_is_named_with_the_short_forms_on_offer() {
    let error = error_of("xyz:foo");
    assert!(
        error.starts_with("xyz:foo: no such file; no family takes a `xyz:` argument; this program offers "),
        "{error}"
    );
    assert!(error.contains("rings") && error.ends_with("(`list` says what each is)"), "{error}");
}

#[test]
fn a_missing_file_is_named_with_what_else_the_argument_was_tried_as() {
    let folder = tempfile::tempdir().expect("temp dir");
    let json = folder.path().join("missing.json");
    assert_eq!(error_of(text(&json)), format!("{}: no such file; there is no instance file at this path", text(&json)));
    let clq = folder.path().join("missing.clq");
    assert_eq!(
        error_of(text(&clq)),
        format!("{}: no such file; there is no `.clq` file (family `max_clique`) at this path", text(&clq))
    );
    let error = error_of("no-such-instance");
    assert!(
        error.starts_with("no-such-instance: no such file; and it is not a short form: this program offers "),
        "{error}"
    );
    assert!(error.contains("rings"), "{error}");
}

#[test]
fn a_directory_is_not_an_instance_file() {
    let folder = tempfile::tempdir().expect("temp dir");
    assert_eq!(
        error_of(text(folder.path())),
        format!(
            "{}: a directory, not an instance file; give the path of a file (`.json`, or a format a family reads)",
            text(folder.path())
        )
    );
}

#[test]
fn a_clq_file_that_does_not_parse_names_the_file_and_the_line() {
    let folder = tempfile::tempdir().expect("temp dir");
    let graph = folder.path().join("bad.clq");
    std::fs::write(&graph, "c a comment\np edge 3 1\ne 1 x\n").expect("write the graph");
    assert_eq!(
        error_of(text(&graph)),
        format!("{}:3: `x` is not a vertex number (read as a `clq` file by family `max_clique`)", text(&graph))
    );
}

#[test]
fn a_family_file_read_past_a_byte_order_mark_as_a_json_instance_is() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let file = folder.path().join("triangle.clq");
    std::fs::write(&file, "\u{feff}p edge 3 3\ne 1 2\ne 2 3\ne 3 1\n").expect("written");
    let output = common::run(&["solve", "--json", "--best", text(&file)]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    assert_eq!(report["answer"]["size"], 3, "{report}");
}
