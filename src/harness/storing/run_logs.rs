//! The two logs a sweep appends every run to, kept in step: a run's counts rows and its
//! record land together or not at all.
//!
//! A run's counts rows (`S-counts.csv`) are written first, in one write, then its record
//! (`S-runs.csv`). When the record cannot be written (a full disk), the counts are cut back.
//! A process killed between the two writes leaves counts rows with no record: `--resume`
//! drops those orphans before it appends (their run is run again and writes them anew), so
//! the counts file never holds a run's rows twice. Counts rows are keyed by their run:
//! sweep, configuration id and repeat.
//!
//! For the tests only, the environment variable [`FAULT_VARIABLE`] injects the faults this
//! guards against; see [`Fault`].

use super::counts::CountRow;
use super::csv_log::{read_checked_rows, write_atomically, CsvAppender};
use super::record::{RunRecord, COLUMNS_OF_EVERY_BUILD};
use crate::files::bounded_read::{read_bounded, ReadKind};
use crate::harness::error::HarnessError;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::OnceLock;

/// The environment variable that injects a fault, for the tests only (documented in
/// docs/harness.md, "Testing the logs"): `exit-after-counts:N` ends the process (exit code
/// 137, as `kill -9` leaves it, no clean-up) after the Nth run's counts are written and
/// before its record; `full-disk-at-record:N` writes half of the Nth run's record and fails
/// with "No space left on device".
pub const FAULT_VARIABLE: &str = "BACKTRACK_BENCH_TEST_FAULT";

/// A fault injected through [`FAULT_VARIABLE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// End the process after the counts of this (1-based) run, before its record.
    ExitAfterCounts(u64),
    /// Write half the record of this (1-based) run and fail as a full disk does.
    FullDiskAtRecord(u64),
}

impl Fault {
    /// Parses `exit-after-counts:N` or `full-disk-at-record:N`; anything else is no fault.
    pub fn parse(text: &str) -> Option<Fault> {
        let (kind, run) = text.trim().split_once(':')?;
        let run: u64 = run.parse().ok()?;
        match kind {
            "exit-after-counts" => Some(Fault::ExitAfterCounts(run)),
            "full-disk-at-record" => Some(Fault::FullDiskAtRecord(run)),
            _ => None,
        }
    }

    fn from_environment() -> Option<Fault> {
        static FAULT: OnceLock<Option<Fault>> = OnceLock::new();
        *FAULT.get_or_init(|| std::env::var(FAULT_VARIABLE).ok().and_then(|text| Fault::parse(&text)))
    }
}

/// The run log and counts log of one sweep (or shard), appended in step.
#[derive(Debug)]
pub struct RunLogs {
    runs: CsvAppender,
    counts: CsvAppender,
    /// Runs appended by this process (the faults count them).
    appended: u64,
    fault: Option<Fault>,
}

impl RunLogs {
    /// Opens the run log `runs_path` and its counts log `counts_path` for appending. With
    /// `resume`, both are continued: a trailing partial line is cut off (and said on
    /// stderr), and counts rows of runs the run log does not hold are dropped; each such
    /// repair adds a note to the returned list. Without it, both start anew.
    pub fn open(runs_path: &Path, counts_path: &Path, resume: bool) -> Result<(RunLogs, Vec<String>), HarnessError> {
        let runs = CsvAppender::open(runs_path, &RunRecord::header(), resume)?;
        let mut notes = Vec::new();
        if resume && counts_path.exists() {
            notes.extend(drop_unrecorded_counts(counts_path, runs_path)?);
        }
        let counts = CsvAppender::open(counts_path, &CountRow::header(), resume)?;
        let logs = RunLogs { runs, counts, appended: 0, fault: Fault::from_environment() };
        Ok((logs, notes))
    }

    /// Appends a run's counts, then its record. Each is one write of whole lines; if the
    /// record fails, the counts are cut back, so neither is left without the other.
    pub fn append(&mut self, record: &RunRecord, counts: &[CountRow]) -> Result<(), HarnessError> {
        self.appended += 1;
        let counts_before = self.counts.len()?;
        self.counts.append_all(counts)?;
        let written = match self.fault {
            Some(Fault::ExitAfterCounts(run)) if run == self.appended => {
                // As abrupt as `kill -9`: no destructor, no flush, no completion mark.
                // SAFETY: `_exit` ends the process; nothing after it runs.
                unsafe { libc::_exit(137) }
            }
            Some(Fault::FullDiskAtRecord(run)) if run == self.appended => {
                self.runs.append_half_then_fail_as_full_disk(record)
            }
            _ => self.runs.append(record),
        };
        if written.is_err() {
            let _ = self.counts.truncate(counts_before);
        }
        written
    }

    /// The run log's path.
    pub fn runs_path(&self) -> &Path {
        self.runs.path()
    }
}

/// The key of a run: what a counts row and its record share.
type RunKey = (String, String, u32);

/// Rewrites `counts_path` without the rows whose run `runs_path` does not record (a process
/// stopped between a run's counts and its record), and without an earlier copy of a run's
/// rows written again (an older build's resume after such a stop). Lines that do not parse
/// are left as they are: readers skip them with a note. Returns a note when rows were dropped.
pub fn drop_unrecorded_counts(counts_path: &Path, runs_path: &Path) -> Result<Option<String>, HarnessError> {
    let header = CountRow::header();
    let mut bytes = read_bounded(counts_path, ReadKind::Csv)?;
    // A cut-off last line is dropped here (the appender would cut it anyway).
    bytes.truncate(bytes.iter().rposition(|&byte| byte == b'\n').map_or(0, |end| end + 1));
    let first_line_end = bytes.iter().position(|&byte| byte == b'\n').map_or(bytes.len(), |end| end + 1);
    if String::from_utf8_lossy(&bytes[..first_line_end]).trim_end() != header {
        // Another layout: the appender refuses it with its own message.
        return Ok(None);
    }
    let recorded: HashSet<RunKey> = if runs_path.exists() {
        // The records `--resume` keeps (it runs an implausible one again, and that run
        // writes its counts anew): the counts of a record it skips are orphans too.
        let records = read_checked_rows::<RunRecord>(
            runs_path,
            &RunRecord::header(),
            &COLUMNS_OF_EVERY_BUILD,
            RunRecord::check_plausible,
        )?
        .rows;
        records.into_iter().map(|record| (record.sweep, record.config_id, record.repeat)).collect()
    } else {
        HashSet::new()
    };
    let lines = row_lines(&bytes[first_line_end..]);
    let blocks = blocks_of(&lines);
    let last_block: HashMap<&RunKey, usize> =
        lines.iter().zip(&blocks).filter_map(|(line, &block)| Some((&line.parsed.as_ref()?.0, block))).collect();
    let mut kept = bytes[..first_line_end].to_vec();
    let (mut orphans, mut repeated) = (0usize, 0usize);
    for (line, block) in lines.iter().zip(&blocks) {
        match &line.parsed {
            Some((key, _)) if !recorded.contains(key) => orphans += 1,
            Some((key, _)) if last_block[key] != *block => repeated += 1,
            _ => kept.extend_from_slice(line.bytes),
        }
    }
    if orphans + repeated == 0 {
        return Ok(None);
    }
    write_atomically(counts_path, &kept)?;
    let mut note = format!("{}: dropped", counts_path.display());
    if orphans > 0 {
        note.push_str(&format!(
            " {orphans} counts row(s) of runs with no record (stopped between a run's counts and its record; those runs are run again)"
        ));
    }
    if repeated > 0 {
        note.push_str(&format!(
            "{} {repeated} earlier copies of runs' counts rows",
            if orphans > 0 { ";" } else { "" }
        ));
    }
    Ok(Some(note))
}

/// One data line of a counts file, with its run and its row identity when it parses.
struct RowLine<'a> {
    bytes: &'a [u8],
    /// The run, and what the row counts (measure, rule, depth, worker).
    parsed: Option<(RunKey, [String; 4])>,
}

/// The data lines of a counts file (the bytes after its header), split by the CSV reader so
/// that a quoted newline stays inside its row.
fn row_lines(data: &[u8]) -> Vec<RowLine<'_>> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(data);
    let mut starts_and_rows = Vec::new();
    let mut record = csv::ByteRecord::new();
    loop {
        let start = reader.position().byte() as usize;
        match reader.read_byte_record(&mut record) {
            Ok(true) => starts_and_rows.push((start, parse_row(&record))),
            Ok(false) => break,
            // A line the reader cannot split: keep the rest as it is.
            Err(_) => {
                starts_and_rows.push((start, None));
                break;
            }
        }
    }
    let ends = starts_and_rows.iter().skip(1).map(|(start, _)| *start).chain([data.len()]);
    starts_and_rows
        .iter()
        .zip(ends)
        .map(|((start, parsed), end)| RowLine { bytes: &data[*start..end], parsed: parsed.clone() })
        .collect()
}

fn parse_row(record: &csv::ByteRecord) -> Option<(RunKey, [String; 4])> {
    let field = |index: usize| record.get(index).and_then(|bytes| std::str::from_utf8(bytes).ok()).map(str::to_string);
    if record.len() != 8 {
        return None;
    }
    let key = (field(0)?, field(1)?, field(2)?.parse().ok()?);
    Some((key, [field(3)?, field(4)?, field(5)?, field(6)?]))
}

/// Numbers the blocks of `lines`: a run's rows are written together, so a block is a stretch
/// of rows of one run in which no row identity repeats; a repeat starts the run's next copy.
fn blocks_of(lines: &[RowLine]) -> Vec<usize> {
    let mut blocks = Vec::with_capacity(lines.len());
    let mut block = 0;
    let mut current: Option<&RunKey> = None;
    let mut seen: HashSet<&[String; 4]> = HashSet::new();
    for line in lines {
        if let Some((key, identity)) = &line.parsed {
            if current != Some(key) || seen.contains(identity) {
                block += 1;
                current = Some(key);
                seen.clear();
            }
            seen.insert(identity);
        }
        blocks.push(block);
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::super::csv_log::read_rows;
    use super::super::record::status;
    use super::*;

    const HEADER: &str = "sweep,config_id,repeat,measure,rule,depth,worker,count";
    /// Configuration `a`'s id, as a run writes one (16 hex digits).
    const A: &str = "000000000000000a";

    /// Counts rows written with `a` for configuration `a`'s id.
    fn of_a(rows: &[&str]) -> Vec<String> {
        rows.iter().map(|row| row.replace("s,a,", &format!("s,{A},"))).collect()
    }

    fn record(config_id: &str, repeat: u32) -> RunRecord {
        RunRecord {
            sweep: "s".into(),
            config_id: if config_id == "a" { A.into() } else { config_id.into() },
            repeat,
            status: status::OK.into(),
            threads: 1,
            ..RunRecord::plausible()
        }
    }

    fn write_runs(path: &Path, records: &[RunRecord]) {
        super::super::csv_log::write_rows(path, records, &RunRecord::header()).unwrap();
    }

    #[test]
    fn orphans_and_earlier_copies_are_dropped_and_everything_else_kept_byte_for_byte() {
        let folder = tempfile::tempdir().unwrap();
        let (runs, counts) = (folder.path().join("s-runs.csv"), folder.path().join("s-counts.csv"));
        write_runs(&runs, &[record("a", 0), record("a", 1)]);
        let rows = of_a(&[
            "s,a,0,rule_checks,\"r,1\",,,5",
            "s,a,0,nodes_at_depth,,0,,1",
            // An older build's resume wrote run a/1 twice: the first copy goes.
            "s,a,1,nodes_at_depth,,0,,7",
            "s,a,1,nodes_at_depth,,0,,8",
            "not,a,row",
            // Run a/2 has no record: an orphan.
            "s,a,2,nodes_at_depth,,0,,9",
        ]);
        std::fs::write(&counts, format!("{HEADER}\n{}\ns,{A},2,cut", rows.join("\n"))).unwrap();
        let note = drop_unrecorded_counts(&counts, &runs).unwrap().unwrap();
        assert!(note.contains("dropped 1 counts row(s) of runs with no record"), "{note}");
        assert!(note.contains("1 earlier copies"), "{note}");
        let expected = [&rows[0], &rows[1], &rows[3], &rows[4]].map(String::as_str).join("\n");
        assert_eq!(std::fs::read_to_string(&counts).unwrap(), format!("{HEADER}\n{expected}\n"));
        // Nothing left to drop: the file stays as it is.
        assert_eq!(drop_unrecorded_counts(&counts, &runs).unwrap(), None);
    }

    #[test]
    fn the_counts_of_a_record_that_resume_skips_are_dropped_with_the_orphans() {
        let folder = tempfile::tempdir().unwrap();
        let (runs, counts) = (folder.path().join("s-runs.csv"), folder.path().join("s-counts.csv"));
        // An edited log: run a/1 on 0 threads, a record no run writes (resume runs it again).
        write_runs(&runs, &[record("a", 0), RunRecord { threads: 0, ..record("a", 1) }]);
        let rows = of_a(&["s,a,0,nodes_at_depth,,0,,1", "s,a,1,nodes_at_depth,,0,,7"]);
        std::fs::write(&counts, format!("{HEADER}\n{}\n", rows.join("\n"))).unwrap();
        let note = drop_unrecorded_counts(&counts, &runs).unwrap().unwrap();
        assert!(note.contains("dropped 1 counts row(s) of runs with no record"), "{note}");
        assert_eq!(std::fs::read_to_string(&counts).unwrap(), format!("{HEADER}\n{}\n", rows[0]));
    }

    #[test]
    fn a_failed_record_takes_its_counts_back() {
        let folder = tempfile::tempdir().unwrap();
        let (runs, counts) = (folder.path().join("s-runs.csv"), folder.path().join("s-counts.csv"));
        let (mut logs, notes) = RunLogs::open(&runs, &counts, false).unwrap();
        assert!(notes.is_empty());
        let row =
            CountRow { sweep: "s".into(), config_id: A.into(), measure: "rule_checks".into(), ..CountRow::default() };
        logs.append(&record("a", 0), std::slice::from_ref(&row)).unwrap();
        logs.fault = Some(Fault::FullDiskAtRecord(2));
        let error = logs.append(&record("a", 1), &[row.clone(), row]).unwrap_err().to_string();
        assert!(error.contains("No space left on device"), "{error}");
        assert_eq!(std::fs::read_to_string(&counts).unwrap(), format!("{HEADER}\ns,{A},0,rule_checks,,,,0\n"));
        // The half record line is cut when the log is continued, and nothing is dropped.
        drop(logs);
        let (_, notes) = RunLogs::open(&runs, &counts, true).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(read_rows::<RunRecord>(&runs, &RunRecord::header()).unwrap().rows.len(), 1);
    }

    #[test]
    fn faults_parse_from_their_documented_text_only() {
        assert_eq!(Fault::parse("exit-after-counts:3"), Some(Fault::ExitAfterCounts(3)));
        assert_eq!(Fault::parse("full-disk-at-record:1"), Some(Fault::FullDiskAtRecord(1)));
        assert_eq!(Fault::parse("full-disk-at-record"), None);
        assert_eq!(Fault::parse("other:1"), None);
    }
}
