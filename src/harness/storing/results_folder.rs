//! The results folder's file names, and reading every run log in it (shards merged).
//!
//! A sweep `S` writes `S-runs.csv`, or `S-runs.shard-K-of-N.csv` when it runs as shard K of
//! N, and beside each run log its long-format counts (`S-counts.csv`, `S-counts.shard-K-of-N.csv`);
//! `S-summary.csv`, `README.md` and `plots/` are derived from all of them. Earlier runs that a
//! fresh run supersedes are kept in `history/` ([`super::history`]).

use super::counts::CountRow;
use super::csv_log::{check_columns, read_checked_rows, read_rows, rows_bytes, FirstLine, UTF8_BOM};
use super::output_target::write_named_file;
use super::record::{RunRecord, COLUMNS_OF_EVERY_BUILD};
use super::summary::{summarize, SummaryRow};
use crate::format::excerpt;
use crate::harness::error::HarnessError;
use crate::run::instance::escape_controls;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// A slice `K/N` of a sweep: configurations whose index is `K-1` modulo `N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based shard number.
    pub number: usize,
    /// Number of shards.
    pub count: usize,
}

impl Shard {
    /// Parses `K/N` with 1 <= K <= N.
    pub fn parse(text: &str) -> Result<Shard, HarnessError> {
        let invalid = || HarnessError::Argument {
            flag: "--shard",
            message: format!("`{text}` is not a shard; expected K/N with 1 <= K <= N, e.g. 3/8"),
        };
        let (number, count) = text.split_once('/').ok_or_else(invalid)?;
        let number: usize = number.trim().parse().map_err(|_| invalid())?;
        let count: usize = count.trim().parse().map_err(|_| invalid())?;
        if number == 0 || number > count {
            return Err(invalid());
        }
        Ok(Shard { number, count })
    }

    /// The shard whose run log is named `name` (`S-runs.shard-K-of-N.csv`, as [`runs_file`]
    /// names it) for sweep `sweep`; `None` for the unsharded log or another file.
    pub fn of_log(sweep: &str, name: &str) -> Option<Shard> {
        let rest = name.strip_prefix(sweep)?.strip_prefix("-runs.shard-")?.strip_suffix(".csv")?;
        let (number, count) = rest.split_once("-of-")?;
        Some(Shard { number: number.parse().ok()?, count: count.parse().ok()? })
    }

    /// Whether configuration `index` belongs to this shard.
    pub fn contains(self, index: usize) -> bool {
        index % self.count == self.number - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.number, self.count)
    }
}

/// The run log a sweep (or one shard of it) appends to.
pub fn runs_file(folder: &Path, sweep: &str, shard: Option<Shard>) -> PathBuf {
    match shard {
        None => folder.join(format!("{sweep}-runs.csv")),
        Some(shard) => folder.join(format!("{sweep}-runs.shard-{}-of-{}.csv", shard.number, shard.count)),
    }
}

/// Whether the run log at `path` holds anything past its header line (a missing one, or
/// one that cannot be read, holds nothing). Reads the header line alone.
pub fn holds_runs(path: &Path) -> bool {
    FirstLine::of(path).is_ok_and(|first| first.ended && first.more)
}

/// Refuses, before a sweep reads, runs or moves anything, a regular file at one of `sweep`'s
/// run-log names in `folder` (`own`, the log this run appends to, among them) whose first
/// line is not a run-log header of this tool's, of any build: a fresh run replaced such a
/// file holding a line alone, and moved one with rows into `history/` as "an unfinished
/// run". An empty file holds nothing to lose; a header of the tool's (rows or not) is its own.
pub fn refuse_foreign_logs(folder: &Path, sweep: &str, own: &Path) -> Result<(), HarnessError> {
    let mut files = match find_runs_files(folder) {
        Ok(mut files) => files.remove(sweep).unwrap_or_default(),
        Err(HarnessError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(error) => return Err(error),
    };
    if !files.iter().any(|file| file == own) {
        files.push(own.to_path_buf());
    }
    let header = RunRecord::header();
    // A FIFO or a folder at a log's name is refused where the log is opened (never read here).
    for file in files.iter().filter(|file| std::fs::metadata(file).is_ok_and(|metadata| metadata.is_file())) {
        let first = FirstLine::of(file).map_err(|source| HarnessError::io(file, source))?;
        let line = first.line.strip_prefix(UTF8_BOM).unwrap_or(&first.line);
        let line = std::str::from_utf8(line).map(|line| line.trim_end_matches('\r'));
        let ours = line.is_ok_and(|line| check_columns(line, &header, &COLUMNS_OF_EVERY_BUILD).is_ok());
        if ours || (first.line.is_empty() && !first.more) {
            continue;
        }
        let line = escape_controls(&String::from_utf8_lossy(&first.line));
        return Err(HarnessError::Csv {
            path: file.clone(),
            message: format!(
                "is not a run log this tool wrote (its first line `{}` is not a run-log header): nothing was run, \
                 moved or changed; move it away (or give this sweep another --out or --name) and run again",
                excerpt(&line)
            ),
        });
    }
    Ok(())
}

/// The counts file beside a run log (`S-runs.csv` -> `S-counts.csv`).
pub fn counts_file_for(runs_file: &Path) -> PathBuf {
    let name = runs_file.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    runs_file.with_file_name(name.replacen("-runs", "-counts", 1))
}

/// The instance digests beside a run log: `S-runs.csv` -> `S-instances.json`, a shard's
/// `S-runs.shard-K-of-N.csv` -> `S-instances.shard-K-of-N.json` (not a `.csv`, so never
/// taken for a run log). Written and read by `sweeping::instance_digests`.
pub fn digests_file_for(runs_file: &Path) -> PathBuf {
    let name = runs_file.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let name = name.replacen("-runs", "-instances", 1);
    let stem = name.strip_suffix(".csv").unwrap_or(&name);
    runs_file.with_file_name(format!("{stem}.json"))
}

/// The summary of a sweep.
pub fn summary_file(folder: &Path, sweep: &str) -> PathBuf {
    folder.join(format!("{sweep}-summary.csv"))
}

/// The sweep a run log belongs to, from its file name (`None`: not a run log).
fn sweep_of(file_name: &str) -> Option<&str> {
    let stem = file_name.strip_suffix(".csv")?;
    let (sweep, rest) = stem.split_once("-runs")?;
    // Only names a sweep writes: a valid sweep name, and a shard K of N with 1 <= K <= N
    // (`S-runs.shard-3-of-2.csv` or `bad name-runs.csv` were read as logs of a sweep).
    let is_shard = rest.strip_prefix(".shard-").and_then(|rest| rest.split_once("-of-")).is_some_and(|(k, n)| {
        k.chars().chain(n.chars()).all(|character| character.is_ascii_digit())
            && Shard::parse(&format!("{k}/{n}")).is_ok()
    });
    (valid_sweep_name(sweep) && (rest.is_empty() || is_shard)).then_some(sweep)
}

/// Why a name is refused, after the name (the spec's `name` and `--name` alike).
pub const SWEEP_NAME_RULE: &str = "is not a valid sweep name; use 1 to 64 letters, digits, `_` and `-`, without \
                                   `-runs` (it names the files, `NAME-runs.csv`)";

/// Whether `name` can name a sweep's files.
pub fn valid_sweep_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|character| character.is_ascii_alphanumeric() || character == '_' || character == '-')
        && !name.contains("-runs")
}

/// Every run log in `folder`, by sweep, in file-name order.
pub fn find_runs_files(folder: &Path) -> Result<BTreeMap<String, Vec<PathBuf>>, HarnessError> {
    let mut files: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    let entries = std::fs::read_dir(folder).map_err(|source| HarnessError::io(folder, source))?;
    for entry in entries {
        let entry = entry.map_err(|source| HarnessError::io(folder, source))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(sweep) = sweep_of(&name) {
            files.entry(sweep.to_string()).or_default().push(entry.path());
        }
    }
    for paths in files.values_mut() {
        paths.sort();
    }
    Ok(files)
}

/// The records of `files`, with a note per skipped line.
pub fn read_runs(files: &[PathBuf]) -> Result<(Vec<RunRecord>, Vec<String>), HarnessError> {
    let header = RunRecord::header();
    let mut records = Vec::new();
    let mut notes = Vec::new();
    for file in files {
        let read = read_checked_rows::<RunRecord>(file, &header, &COLUMNS_OF_EVERY_BUILD, RunRecord::check_plausible)?;
        records.extend(read.rows);
        notes.extend(read.skipped);
    }
    Ok((records, notes))
}

/// The records of sweep `sweep`'s run logs `files` (`S-runs.csv` and its shards), with a
/// note per skipped line. A run log holds only the runs of the sweep it is named for: rows
/// of another (an edited or renamed file) are left out with one note per file, where they
/// had vanished from every table in silence.
pub fn read_sweep_runs(sweep: &str, files: &[PathBuf]) -> Result<(Vec<RunRecord>, Vec<String>), HarnessError> {
    let mut records = Vec::new();
    let mut notes = Vec::new();
    for file in files {
        let (rows, skipped) = read_runs(std::slice::from_ref(file))?;
        notes.extend(skipped);
        let (own, others): (Vec<RunRecord>, Vec<RunRecord>) =
            rows.into_iter().partition(|record| record.sweep == sweep);
        if let Some(other) = others.first() {
            notes.push(format!(
                "{}: left out {} row(s) whose sweep column is not `{sweep}` (the first: `{}`): a run log holds the \
                 runs of the sweep it is named for",
                file.display(),
                others.len(),
                other.sweep
            ));
        }
        records.extend(own);
    }
    Ok((records, notes))
}

/// The count rows beside `files` (run logs without a counts file contribute none), with a
/// note per skipped line.
pub fn read_counts(files: &[PathBuf]) -> Result<(Vec<CountRow>, Vec<String>), HarnessError> {
    let header = CountRow::header();
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for file in files.iter().map(|file| counts_file_for(file)).filter(|file| file.exists()) {
        let read = read_rows::<CountRow>(&file, &header)?;
        rows.extend(read.rows);
        notes.extend(read.skipped);
    }
    Ok((rows, notes))
}

/// Summarizes one sweep from all its run logs in `folder` and writes `S-summary.csv`.
pub fn write_summary(folder: &Path, sweep: &str) -> Result<(PathBuf, Vec<SummaryRow>, Vec<String>), HarnessError> {
    let files = find_runs_files(folder)?.remove(sweep).unwrap_or_default();
    let (records, notes) = read_sweep_runs(sweep, &files)?;
    let (path, rows) = write_summary_of(folder, sweep, records)?;
    Ok((path, rows, notes))
}

/// Summarizes `records` (those of `sweep`) and writes `S-summary.csv`.
pub fn write_summary_of(
    folder: &Path,
    sweep: &str,
    records: Vec<RunRecord>,
) -> Result<(PathBuf, Vec<SummaryRow>), HarnessError> {
    let rows: Vec<SummaryRow> = summarize(records).into_iter().filter(|row| row.sweep == sweep).collect();
    let path = summary_file(folder, sweep);
    // A summary the user linked elsewhere is written through the link; a FIFO or a device
    // in its place is refused, as for the README and the plots.
    write_named_file(&path, &rows_bytes(&path, &rows, &SummaryRow::header())?)?;
    Ok((path, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_log_names_its_shard_and_the_whole_log_none() {
        let shard = Shard { number: 3, count: 8 };
        let name = runs_file(Path::new("."), "quick", Some(shard));
        let name = name.file_name().unwrap().to_string_lossy();
        assert_eq!(Shard::of_log("quick", &name), Some(shard));
        assert_eq!(Shard::of_log("quick", "quick-runs.csv"), None);
        assert_eq!(Shard::of_log("quick", "other-runs.shard-1-of-2.csv"), None);
    }

    #[test]
    fn run_logs_are_recognised_by_name() {
        assert_eq!(sweep_of("quick-runs.csv"), Some("quick"));
        assert_eq!(sweep_of("full-runs.shard-3-of-8.csv"), Some("full"));
        assert_eq!(sweep_of("quick-summary.csv"), None);
        assert_eq!(sweep_of("quick-runs.shard-x-of-8.csv"), None);
        assert_eq!(sweep_of("quick-runs.csv.tmp"), None);
        assert_eq!(sweep_of("-runs.csv"), None);
        assert_eq!(sweep_of("quick-instances.json"), None);
        let log = Path::new("r").join("quick-runs.shard-2-of-3.csv");
        assert_eq!(digests_file_for(&log), Path::new("r").join("quick-instances.shard-2-of-3.json"));
        assert_eq!(
            digests_file_for(&Path::new("r").join("quick-runs.csv")),
            Path::new("r").join("quick-instances.json")
        );
        let folder = Path::new("r");
        assert_eq!(runs_file(folder, "s", Some(Shard { number: 2, count: 5 })), folder.join("s-runs.shard-2-of-5.csv"));
        assert_eq!(sweep_of("quick-runs.shard-1-of-2.csv.old"), None);
        assert_eq!(sweep_of("quick-runs.csv.complete"), None);
        // Names no sweep writes: a shard past the count, shard 0, a name a spec refuses.
        assert_eq!(sweep_of("quick-runs.shard-3-of-2.csv"), None);
        assert_eq!(sweep_of("quick-runs.shard-0-of-2.csv"), None);
        assert_eq!(sweep_of("quick-runs.shard-+1-of-2.csv"), None);
        assert_eq!(sweep_of("my sweep-runs.csv"), None);
        assert_eq!(sweep_of("s.1-runs.csv"), None);
        assert_eq!(sweep_of("full_2-runs.shard-2-of-2.csv"), Some("full_2"));
    }
}
