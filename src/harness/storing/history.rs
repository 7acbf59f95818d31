//! The results folder's history: the run logs a fresh (not `--resume`d) run of a sweep
//! supersedes are moved, never deleted, into `history/<sweep>-<N>/`, where `report` finds the
//! previous run to compare with.
//!
//! - A *run* of sweep `S` is what its run logs in the folder hold: `S-runs.csv`, or the shard
//!   logs `S-runs.shard-K-of-N.csv`, each with its counts file and its completion mark.
//! - A fresh whole run moves every log of `S`; a fresh shard K of N moves its own log, the
//!   unsharded log and the logs of other splits (its sibling shards of the same split may be
//!   running now and stay). Shard logs of one split join the newest history entry that holds
//!   only that split and not yet that shard, so the shards of one earlier run end up together.
//! - A run log whose sweep ran to its end gets a completion mark beside it
//!   (`S-runs.csv.complete`); a log with rows and no mark was stopped by Ctrl-C or killed: the
//!   run that sets it aside says so, and how to resume it.
//! - At most [`HISTORY_KEEP`] entries are kept per sweep; the oldest go first.
//!
//! Entries are numbered from 1 and numbers are never reused. Moves are renames within the
//! folder (counts first, then the mark, then the run log), under a lock on `history/.S.lock`
//! so that two shards starting at once agree on the entry.

use super::csv_log::write_atomically;
use super::output_target::check_named_folder;
use super::results_folder::{counts_file_for, digests_file_for, find_runs_files, holds_runs, runs_file, Shard};
use crate::environment::timestamp_now;
use crate::files::bounded_read::{read_bounded, ReadKind};
use crate::harness::error::HarnessError;
use fs4::FileExt;
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

/// How many earlier runs of one sweep `history/` keeps; older ones are deleted.
pub const HISTORY_KEEP: usize = 10;

/// The history folder of a results folder.
pub fn history_folder(folder: &Path) -> PathBuf {
    folder.join("history")
}

/// The completion mark of a run log (`S-runs.csv` -> `S-runs.csv.complete`).
pub fn completion_mark(runs_file: &Path) -> PathBuf {
    let name = file_name(runs_file);
    runs_file.with_file_name(format!("{name}.complete"))
}

/// Marks a run log as finished: its sweep (or shard) ran every configuration.
pub fn mark_complete(runs_file: &Path) -> Result<(), HarnessError> {
    write_atomically(&completion_mark(runs_file), format!("finished {}\n", timestamp_now()).as_bytes())
}

/// Removes a run log's completion mark (the log is about to grow).
pub fn clear_completion_mark(runs_file: &Path) -> Result<(), HarnessError> {
    let mark = completion_mark(runs_file);
    match std::fs::remove_file(&mark) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(HarnessError::io(mark, source)),
    }
}

/// One earlier run (or part of it) moved into the history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptRun {
    /// The history entry (`history/S-N`).
    pub entry: PathBuf,
    /// The run logs moved there, by their old paths.
    pub logs: Vec<PathBuf>,
    /// Rows (runs) in those logs.
    pub rows: usize,
    /// Whether any of them had rows and no completion mark (stopped or killed).
    pub unfinished: bool,
}

impl KeptRun {
    /// The line `sweep` prints about it on stderr.
    pub fn describe(&self, sweep: &str, out: &Path) -> String {
        let entry = self.entry.display();
        if self.unfinished {
            format!(
                "an unfinished run of sweep `{sweep}` was found ({} rows; stopped by Ctrl-C or killed before its end); \
                 its rows are kept in {entry}/ and this run starts afresh. To finish that run instead, stop this one \
                 (Ctrl-C), move its files back (`mv {entry}/* {}/`) and run the same command with --resume",
                self.rows,
                out.display()
            )
        } else {
            format!(
                "the previous run of sweep `{sweep}` ({} rows) is kept in {entry}/; `report` compares this run with it",
                self.rows
            )
        }
    }
}

/// The history entries of `sweep`, oldest first, with their numbers.
pub fn entries(folder: &Path, sweep: &str) -> Vec<(u64, PathBuf)> {
    let Ok(listing) = std::fs::read_dir(history_folder(folder)) else { return Vec::new() };
    let prefix = format!("{sweep}-");
    let mut found: Vec<(u64, PathBuf)> = listing
        .flatten()
        .filter(|entry| entry.path().is_dir())
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let number = name.strip_prefix(&prefix)?;
            let valid = !number.is_empty() && number.bytes().all(|byte| byte.is_ascii_digit());
            valid.then(|| number.parse::<u64>().ok()).flatten().map(|number| (number, entry.path()))
        })
        .collect();
    found.sort();
    found
}

/// The run logs of the newest history entry of `sweep` (the previous run), with the entry.
pub fn previous_run(folder: &Path, sweep: &str) -> Result<Option<(PathBuf, Vec<PathBuf>)>, HarnessError> {
    for (_, entry) in entries(folder, sweep).into_iter().rev() {
        let logs = find_runs_files(&entry)?.remove(sweep).unwrap_or_default();
        if !logs.is_empty() {
            return Ok(Some((entry, logs)));
        }
    }
    Ok(None)
}

/// Moves the run logs of `sweep` that a fresh run (whole, or `shard`) supersedes into the
/// history, with their counts and marks; returns what was kept where.
pub fn keep_superseded_logs(folder: &Path, sweep: &str, shard: Option<Shard>) -> Result<Vec<KeptRun>, HarnessError> {
    let files = match find_runs_files(folder) {
        Ok(mut files) => files.remove(sweep).unwrap_or_default(),
        Err(HarnessError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    let own = runs_file(folder, sweep, shard);
    let superseded: Vec<PathBuf> = files
        .into_iter()
        .filter(|file| match (shard, split_of(sweep, &file_name(file))) {
            (None, _) => true,
            // Sibling shards of the same split may be running now: they stay.
            (Some(shard), Some(split)) if split == shard.count => *file == own,
            (Some(_), _) => true,
        })
        // A log of no run (a shard with no configuration) has nothing to keep: the new run
        // starts it anew (it was kept as an empty entry that `report` compared with).
        .filter(|file| holds_runs(file))
        .collect();
    if superseded.is_empty() {
        return Ok(Vec::new());
    }
    let history = history_folder(folder);
    check_named_folder(&history)?;
    std::fs::create_dir_all(&history).map_err(|source| HarnessError::io(&history, source))?;
    let lock_path = history.join(format!(".{sweep}.lock"));
    let lock = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock_path)
        .map_err(|source| HarnessError::io(&lock_path, source))?;
    FileExt::lock(&lock).map_err(|source| HarnessError::io(&lock_path, source))?;
    let result = move_groups(folder, sweep, superseded, shard.is_none());
    let _ = FileExt::unlock(&lock);
    result
}

/// Moves the logs into their entries, then drops the entries beyond [`HISTORY_KEEP`]: for a
/// `whole` (unsharded) run, every log in one new entry, since `report` read them together as
/// the run it replaces (its unsharded log resumed after a shard, say) and compares with the
/// newest entry alone; for a shard, one split at a time (the unsharded log alone).
fn move_groups(folder: &Path, sweep: &str, logs: Vec<PathBuf>, whole: bool) -> Result<Vec<KeptRun>, HarnessError> {
    let mut groups: Vec<(Option<usize>, Vec<PathBuf>)> = Vec::new();
    for log in logs {
        let split = if whole { None } else { split_of(sweep, &file_name(&log)) };
        match groups.iter_mut().find(|(key, _)| *key == split) {
            Some((_, group)) => group.push(log),
            None => groups.push((split, vec![log])),
        }
    }
    let mut kept = Vec::new();
    for (split, group) in groups {
        let entry = entry_for(folder, sweep, split, &group)?;
        let mut run = KeptRun { entry: entry.clone(), logs: Vec::new(), rows: 0, unfinished: false };
        for log in group {
            let rows = data_lines(&log);
            let finished = completion_mark(&log).exists();
            if move_log(&log, &entry)? {
                run.rows += rows;
                run.unfinished |= rows > 0 && !finished;
                run.logs.push(log);
            }
        }
        if run.logs.is_empty() {
            // Another process moved them first; a new entry left empty goes again.
            let _ = std::fs::remove_dir(&run.entry);
        } else {
            kept.push(run);
        }
    }
    prune(folder, sweep)?;
    Ok(kept)
}

/// The entry a group of logs joins: for shard logs of split N, the newest entry holding only
/// logs of that split and none of these; otherwise a new one.
fn entry_for(folder: &Path, sweep: &str, split: Option<usize>, group: &[PathBuf]) -> Result<PathBuf, HarnessError> {
    let existing = entries(folder, sweep);
    if let (Some(split), Some((_, newest))) = (split, existing.last()) {
        let logs = find_runs_files(newest)?.remove(sweep).unwrap_or_default();
        let same_split = !logs.is_empty() && logs.iter().all(|log| split_of(sweep, &file_name(log)) == Some(split));
        let disjoint = group.iter().all(|log| !newest.join(file_name(log)).exists());
        if same_split && disjoint {
            return Ok(newest.clone());
        }
    }
    let history = history_folder(folder);
    std::fs::create_dir_all(&history).map_err(|source| HarnessError::io(&history, source))?;
    let mut number = existing.last().map_or(Some(1), |(number, _)| number.checked_add(1));
    // A new entry, never one that is there already (its logs would be replaced): a name the
    // listing of entries passed over (a file or a dangling link called `S-N`) is skipped.
    while let Some(free) = number {
        let entry = history.join(format!("{sweep}-{free}"));
        match std::fs::create_dir(&entry) {
            Ok(()) => return Ok(entry),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => number = free.checked_add(1),
            Err(source) => return Err(HarnessError::io(&entry, source)),
        }
    }
    // Only an entry named by hand reaches the end of the numbering; past it, the numbers
    // would start again and each run set aside would replace the one before.
    let why = format!("an entry `{sweep}-N` holds the largest number there is; rename it");
    Err(HarnessError::io(&history, std::io::Error::other(why)))
}

/// Moves a run log with its counts and mark into `entry`; `false` when another process moved
/// it first.
fn move_log(log: &Path, entry: &Path) -> Result<bool, HarnessError> {
    // Counts, mark and instance digests first: a run log never sits in the history without
    // them (nor its digests beside a later log of the same name).
    for companion in [counts_file_for(log), completion_mark(log), digests_file_for(log)] {
        match std::fs::rename(&companion, entry.join(file_name(&companion))) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(HarnessError::io(&companion, source)),
        }
    }
    match std::fs::rename(log, entry.join(file_name(log))) {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(source) => Err(HarnessError::io(log, source)),
    }
}

/// Deletes the oldest entries of `sweep` beyond [`HISTORY_KEEP`].
fn prune(folder: &Path, sweep: &str) -> Result<(), HarnessError> {
    let existing = entries(folder, sweep);
    let excess = existing.len().saturating_sub(HISTORY_KEEP);
    for (_, entry) in existing.into_iter().take(excess) {
        std::fs::remove_dir_all(&entry).map_err(|source| HarnessError::io(&entry, source))?;
    }
    Ok(())
}

/// The split N of a shard log `S-runs.shard-K-of-N.csv`; `None` for the unsharded log.
fn split_of(sweep: &str, name: &str) -> Option<usize> {
    Shard::of_log(sweep, name).map(|shard| shard.count)
}

/// Rows of a CSV file (lines after the header).
fn data_lines(path: &Path) -> usize {
    read_bounded(path, ReadKind::Csv)
        .map_or(0, |bytes| bytes.iter().filter(|&&byte| byte == b'\n').count().saturating_sub(1))
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(folder: &Path, name: &str, rows: usize) {
        std::fs::write(folder.join(name), format!("header\n{}", "row\n".repeat(rows))).unwrap();
    }

    fn names(folder: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| !name.starts_with('.'))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_fresh_whole_run_keeps_every_earlier_log_with_its_counts_and_digests() {
        let folder = tempfile::tempdir().unwrap();
        let out = folder.path();
        write(out, "s-runs.csv", 3);
        write(out, "s-counts.csv", 7);
        write(out, "s-instances.json", 1);
        mark_complete(&out.join("s-runs.csv")).unwrap();
        write(out, "other-runs.csv", 1);
        // A log of no row (a shard without configurations) is left where it is.
        write(out, "s-runs.shard-2-of-9.csv", 0);
        let kept = keep_superseded_logs(out, "s", None).unwrap();
        assert_eq!(kept.len(), 1);
        assert_eq!((kept[0].rows, kept[0].unfinished), (3, false));
        assert_eq!(kept[0].entry, out.join("history/s-1"));
        let entry = names(&out.join("history/s-1"));
        assert_eq!(entry, ["s-counts.csv", "s-instances.json", "s-runs.csv", "s-runs.csv.complete"]);
        assert_eq!(names(out), ["history", "other-runs.csv", "s-runs.shard-2-of-9.csv"]);
        // A second rerun: a new entry; a log without a mark is unfinished.
        write(out, "s-runs.csv", 2);
        let kept = keep_superseded_logs(out, "s", None).unwrap();
        assert_eq!((kept[0].entry.clone(), kept[0].unfinished), (out.join("history/s-2"), true));
        assert!(kept[0].describe("s", out).contains("--resume"));
        let (entry, logs) = previous_run(out, "s").unwrap().unwrap();
        assert_eq!((entry, logs), (out.join("history/s-2"), vec![out.join("history/s-2/s-runs.csv")]));
    }

    #[test]
    fn a_whole_run_sets_aside_a_shard_log_and_the_unsharded_one_as_one_run() {
        // Shard 1/2, then the rest resumed unsharded: `report` read both logs as one run.
        let folder = tempfile::tempdir().unwrap();
        let out = folder.path();
        write(out, "s-runs.shard-1-of-2.csv", 3);
        write(out, "s-runs.csv", 2);
        let kept = keep_superseded_logs(out, "s", None).unwrap();
        assert_eq!(kept.len(), 1);
        assert_eq!((kept[0].entry.clone(), kept[0].rows), (out.join("history/s-1"), 5));
        assert_eq!(names(&out.join("history/s-1")), ["s-runs.csv", "s-runs.shard-1-of-2.csv"]);
        let (_, logs) = previous_run(out, "s").unwrap().unwrap();
        assert_eq!(logs.len(), 2);
    }

    #[test]
    fn shard_reruns_keep_their_own_logs_and_gather_one_earlier_run_in_one_entry() {
        let folder = tempfile::tempdir().unwrap();
        let out = folder.path();
        let shard = |text: &str| Some(Shard::parse(text).unwrap());
        for name in ["s-runs.shard-1-of-2.csv", "s-runs.shard-2-of-2.csv"] {
            write(out, name, 2);
        }
        // Shard 1/2 afresh: its own log goes, its sibling stays.
        let kept = keep_superseded_logs(out, "s", shard("1/2")).unwrap();
        assert_eq!(kept[0].entry, out.join("history/s-1"));
        assert_eq!(names(out), ["history", "s-runs.shard-2-of-2.csv"]);
        // Shard 2/2 afresh joins the same entry: the earlier run is whole there.
        keep_superseded_logs(out, "s", shard("2/2")).unwrap();
        assert_eq!(names(&out.join("history/s-1")), ["s-runs.shard-1-of-2.csv", "s-runs.shard-2-of-2.csv"]);
        // A rerun of shard 1/2 once more starts a new entry.
        write(out, "s-runs.shard-1-of-2.csv", 1);
        let kept = keep_superseded_logs(out, "s", shard("1/2")).unwrap();
        assert_eq!(kept[0].entry, out.join("history/s-2"));
        // Another split sets aside the unsharded log and other splits, each in its own entry.
        write(out, "s-runs.csv", 1);
        write(out, "s-runs.shard-2-of-2.csv", 1);
        write(out, "s-runs.shard-1-of-3.csv", 1);
        let kept = keep_superseded_logs(out, "s", shard("2/3")).unwrap();
        assert_eq!(kept.len(), 2);
        assert_eq!(names(out), ["history", "s-runs.shard-1-of-3.csv"]);
    }

    #[test]
    fn history_keeps_the_last_runs_only() {
        let folder = tempfile::tempdir().unwrap();
        let out = folder.path();
        for _ in 0..HISTORY_KEEP + 3 {
            write(out, "s-runs.csv", 1);
            keep_superseded_logs(out, "s", None).unwrap();
        }
        let numbers: Vec<u64> = entries(out, "s").into_iter().map(|(number, _)| number).collect();
        assert_eq!(numbers, (4..=HISTORY_KEEP as u64 + 3).collect::<Vec<_>>());
        // Another sweep's entries with a longer name are not this sweep's.
        std::fs::create_dir_all(out.join("history/s-x-1")).unwrap();
        assert_eq!(entries(out, "s").len(), HISTORY_KEEP);
    }

    #[test]
    fn an_entry_at_the_end_of_the_numbering_is_refused_and_replaces_nothing() {
        let folder = tempfile::tempdir().unwrap();
        let out = folder.path();
        write(out, "s-runs.csv", 1);
        keep_superseded_logs(out, "s", None).unwrap();
        std::fs::create_dir_all(out.join(format!("history/s-{}", u64::MAX))).unwrap();
        write(out, "s-runs.csv", 2);
        let error = keep_superseded_logs(out, "s", None).unwrap_err();
        assert!(error.to_string().contains("the largest number there is"), "{error}");
        // Nothing moved: the log is where it was, the first entry holds its own.
        assert_eq!(std::fs::read_to_string(out.join("s-runs.csv")).unwrap(), "header\nrow\nrow\n");
        assert_eq!(names(&out.join("history/s-1")), ["s-runs.csv"]);
    }
}
