//! The documents agree with the results and the code: the generated sections of README.md
//! and docs/*.md equal what `report` renders from the committed run logs in results/, and
//! docs/harness.md documents exactly the columns the CSV files have.

use backtrack_bench::unstable::harness::reporting::generated_docs::{
    documents, render_section, sections, SECTION_NAMES,
};
use backtrack_bench::unstable::harness::storing::counts::CountRow;
use backtrack_bench::unstable::harness::storing::record::RunRecord;
use backtrack_bench::unstable::harness::storing::results_folder::{find_runs_files, read_runs};
use backtrack_bench::unstable::harness::storing::summary::{summarize, SummaryRow};
use std::collections::BTreeSet;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The summary rows of every sweep in results/, as `report` computes them.
fn committed_summaries() -> Vec<SummaryRow> {
    let mut rows = Vec::new();
    for (sweep, files) in find_runs_files(&root().join("results")).expect("results/ has run logs") {
        let (records, _) = read_runs(&files).expect("the run logs parse");
        rows.extend(summarize(records).into_iter().filter(|row| row.sweep == sweep));
    }
    rows
}

#[test]
fn generated_sections_of_the_documents_match_the_committed_results() {
    let rows = committed_summaries();
    let mut seen = BTreeSet::new();
    for document in documents(root()) {
        let Ok(text) = std::fs::read_to_string(&document) else { continue };
        for section in sections(&text) {
            let Some(expected) = render_section(&section.name, &rows) else { continue };
            assert!(
                section.body == expected,
                "{}: section `{}` is stale; run `cargo run --release -- report` (or scripts/regen-tables.sh).\n\
                 In the document:\n{}\nFrom results/:\n{expected}",
                document.display(),
                section.name,
                section.body
            );
            seen.insert(section.name.clone());
        }
    }
    // Every section report knows is used somewhere: a README without its markers would
    // pass the check above by having nothing to check.
    for name in SECTION_NAMES {
        assert!(seen.contains(name), "no document has the generated section `{name}`");
    }
}

/// The column names a table of docs/harness.md lists under `heading`, in order.
fn documented_columns(heading: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join("docs/harness.md")).unwrap();
    let start = text.find(heading).unwrap_or_else(|| panic!("docs/harness.md lacks `{heading}`"));
    let mut columns = Vec::new();
    for line in text[start..].lines().skip(1).skip_while(|line| !line.starts_with("| column")).skip(2) {
        if !line.starts_with('|') {
            break;
        }
        let first_cell = line.split('|').nth(1).unwrap_or_default();
        for name in first_cell.split(',') {
            columns.push(name.trim().trim_matches('`').to_string());
        }
    }
    columns
}

fn header_columns(header: &str) -> Vec<String> {
    header.split(',').map(str::to_string).collect()
}

#[test]
fn docs_list_exactly_the_columns_of_each_csv_file() {
    for (heading, header) in [
        ("## Columns of `S-runs.csv`", RunRecord::header()),
        ("## Columns of `S-counts.csv`", CountRow::header()),
        ("## Columns of `S-summary.csv`", SummaryRow::header()),
    ] {
        let documented: BTreeSet<String> = documented_columns(heading).into_iter().collect();
        let actual: BTreeSet<String> = header_columns(&header).into_iter().collect();
        assert_eq!(
            documented.difference(&actual).collect::<Vec<_>>(),
            Vec::<&String>::new(),
            "{heading}: documented but not in the file"
        );
        assert_eq!(
            actual.difference(&documented).collect::<Vec<_>>(),
            Vec::<&String>::new(),
            "{heading}: in the file but not documented"
        );
    }
}
