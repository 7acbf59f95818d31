//! One writer per run log: an advisory lock (`flock`, through the `fs4` crate) on a lock
//! file in the results folder, so two sweeps of one name cannot append to, replace or set
//! aside each other's rows.
//!
//! A whole sweep `S` holds `S.lock` exclusively. Shard K of N holds `S.lock` shared (its
//! sibling shards may run beside it, a whole run of `S` may not) and `S.shard-K-of-N.lock`
//! exclusively; it also refuses while a shard of another split of `S` runs (each would set
//! aside or repeat the other's rows). The holder writes its pid, host and start time into
//! the file it holds exclusively, so a refusal can name it; the lock itself is the kernel's
//! and ends with the process, even after `kill -9`, so a stale file never blocks. Lock files
//! are left in place (removing one would let two processes lock two different files).
//! Readers (`report`) take no lock: run logs only ever grow by whole lines.

use crate::environment::{hostname, timestamp_now};
use crate::harness::error::HarnessError;
use crate::harness::storing::results_folder::Shard;
use fs4::{FileExt, TryLockError};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What to do when another sweep holds the lock.
#[derive(Debug, Clone, Copy)]
pub enum WhenBusy {
    /// Fail at once with `HarnessError::SweepBusy` (exit code 2).
    Refuse,
    /// Block until the other sweep ends.
    Wait,
    /// Wait until the other sweep ends or the flag is raised (`sweep --wait`, whose Ctrl-C
    /// or SIGTERM raises it): the lock is tried every [`WAIT_SLICE`], so a Ctrl-C while waiting ends
    /// the wait within that time, refused with `HarnessError::SweepBusy`. A blocking
    /// `flock` would wait for the other sweep however long it runs.
    WaitUnless(&'static AtomicBool),
}

impl PartialEq for WhenBusy {
    fn eq(&self, other: &WhenBusy) -> bool {
        match (self, other) {
            (WhenBusy::WaitUnless(mine), WhenBusy::WaitUnless(theirs)) => std::ptr::eq(*mine, *theirs),
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }
}

impl Eq for WhenBusy {}

/// How often [`WhenBusy::WaitUnless`] tries the lock again.
pub const WAIT_SLICE: Duration = Duration::from_millis(50);

/// The lock of one sweep (or shard) on its results folder; released on drop.
#[derive(Debug)]
pub struct SweepLock {
    /// `S.lock`: exclusive for a whole sweep, shared for a shard.
    sweep_file: File,
    /// `S.shard-K-of-N.lock`, held exclusively by a shard.
    shard_file: Option<File>,
}

/// The lock file of the whole sweep `sweep` in `folder`.
pub fn sweep_lock_file(folder: &Path, sweep: &str) -> PathBuf {
    folder.join(format!("{sweep}.lock"))
}

/// The lock file of one shard of `sweep` in `folder`.
pub fn shard_lock_file(folder: &Path, sweep: &str, shard: Shard) -> PathBuf {
    folder.join(format!("{sweep}.shard-{}-of-{}.lock", shard.number, shard.count))
}

impl SweepLock {
    /// Takes the lock of `sweep` (or its `shard`) in `folder`, creating the folder. With
    /// [`WhenBusy::Wait`], `waiting` is told once whom it waits for.
    pub fn acquire(
        folder: &Path,
        sweep: &str,
        shard: Option<Shard>,
        when_busy: WhenBusy,
        waiting: impl Fn(&str),
    ) -> Result<SweepLock, HarnessError> {
        std::fs::create_dir_all(folder).map_err(|source| match source.raw_os_error() {
            // The user's path: a part of it is a file, or a link to nothing (exit 2).
            Some(libc::ENOTDIR | libc::EEXIST) => HarnessError::Unreadable {
                path: folder.to_path_buf(),
                message: "cannot be made a results folder: a part of the path is a file or a link to nothing"
                    .to_string(),
            },
            _ => HarnessError::io(folder, source),
        })?;
        let sweep_path = sweep_lock_file(folder, sweep);
        let sweep_file = open_lock_file(&sweep_path)?;
        let busy =
            |holders: String| HarnessError::SweepBusy { folder: folder.to_path_buf(), sweep: sweep.into(), holders };
        let Some(shard) = shard else {
            take(
                &sweep_file,
                &sweep_path,
                LockMode::Exclusive,
                when_busy,
                || holders_of_sweep(folder, sweep),
                &busy,
                &waiting,
            )?;
            write_holder(&sweep_file, &sweep_path, sweep, None)?;
            return Ok(SweepLock { sweep_file, shard_file: None });
        };
        take(&sweep_file, &sweep_path, LockMode::Shared, when_busy, || read_holder(&sweep_path), &busy, &waiting)?;
        let shard_path = shard_lock_file(folder, sweep, shard);
        let shard_file = open_lock_file(&shard_path)?;
        take(&shard_file, &shard_path, LockMode::Exclusive, when_busy, || read_holder(&shard_path), &busy, &waiting)?;
        let other_splits: Vec<String> = held_shard_locks(folder, sweep)
            .into_iter()
            .filter(|(held, _)| held.count != shard.count)
            .map(|(_, holder)| holder)
            .collect();
        if !other_splits.is_empty() {
            return Err(busy(format!(
                "{} (a run split {} ways cannot share the folder with a run split another way)",
                other_splits.join("; "),
                shard.count
            )));
        }
        write_holder(&shard_file, &shard_path, sweep, Some(shard))?;
        Ok(SweepLock { sweep_file, shard_file: Some(shard_file) })
    }
}

impl Drop for SweepLock {
    fn drop(&mut self) {
        // Clear the holder's note first, so that a later reader never names a finished sweep.
        let own = self.shard_file.as_ref().unwrap_or(&self.sweep_file);
        let _ = own.set_len(0);
        if let Some(file) = &self.shard_file {
            let _ = FileExt::unlock(file);
        }
        let _ = FileExt::unlock(&self.sweep_file);
    }
}

/// How a lock file is held: shared (sibling shards of one sweep side by side) or exclusive.
#[derive(Clone, Copy)]
enum LockMode {
    Shared,
    Exclusive,
}

/// Opens (or creates) the lock file at `path`, which must be a regular file of its own: the
/// holder's note is written into it and cleared, so a symlink there would empty the file it
/// points to, and a FIFO would block the open (hence `O_NOFOLLOW` and `O_NONBLOCK`).
fn open_lock_file(path: &Path) -> Result<File, HarnessError> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|source| match source.raw_os_error() {
            Some(libc::ELOOP) => not_a_lock_file(path, "a symbolic link"),
            Some(libc::EISDIR) => not_a_lock_file(path, "a folder"),
            _ => HarnessError::io(path, source),
        })?;
    let regular = file.metadata().map_err(|source| HarnessError::io(path, source))?.is_file();
    if !regular {
        return Err(not_a_lock_file(path, "not a regular file"));
    }
    Ok(file)
}

/// Something the user put at the lock file's name: theirs to remove, exit code 2.
fn not_a_lock_file(path: &Path, what: &str) -> HarnessError {
    let message = format!("is {what}; a sweep's lock file is a regular file it writes itself: remove it");
    HarnessError::Unreadable { path: path.to_path_buf(), message }
}

/// Tries the lock; when it is held, refuses naming `holders()`, or waits for it.
/// One try at the lock, without waiting: whether it was taken.
fn try_take(file: &File, path: &Path, mode: LockMode) -> Result<bool, HarnessError> {
    let attempt = match mode {
        LockMode::Shared => FileExt::try_lock_shared(file),
        LockMode::Exclusive => FileExt::try_lock(file),
    };
    match attempt {
        Ok(()) => Ok(true),
        Err(TryLockError::Error(source)) => Err(HarnessError::io(path, source)),
        Err(TryLockError::WouldBlock) => Ok(false),
    }
}

fn take(
    file: &File,
    path: &Path,
    mode: LockMode,
    when_busy: WhenBusy,
    holders: impl Fn() -> String,
    busy: &impl Fn(String) -> HarnessError,
    waiting: &impl Fn(&str),
) -> Result<(), HarnessError> {
    if try_take(file, path, mode)? {
        return Ok(());
    }
    if when_busy == WhenBusy::Refuse {
        return Err(busy(holders()));
    }
    waiting(&format!("waiting for the folder's other run of this sweep to end: {}", holders()));
    if let WhenBusy::WaitUnless(stop) = when_busy {
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(busy(format!("{} (stopped waiting for it: Ctrl-C or SIGTERM)", holders())));
            }
            std::thread::sleep(WAIT_SLICE);
            if try_take(file, path, mode)? {
                return Ok(());
            }
        }
    }
    let locked = match mode {
        LockMode::Shared => FileExt::lock_shared(file),
        LockMode::Exclusive => FileExt::lock(file),
    };
    locked.map_err(|source| HarnessError::io(path, source))
}

/// Who holds a whole sweep's lock: its running shards, or else the whole run named in `S.lock`.
fn holders_of_sweep(folder: &Path, sweep: &str) -> String {
    let shards: Vec<String> = held_shard_locks(folder, sweep).into_iter().map(|(_, holder)| holder).collect();
    if shards.is_empty() {
        read_holder(&sweep_lock_file(folder, sweep))
    } else {
        shards.join("; ")
    }
}

/// The shard locks of `sweep` in `folder` that another process holds now, with their notes.
fn held_shard_locks(folder: &Path, sweep: &str) -> Vec<(Shard, String)> {
    let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
    let prefix = format!("{sweep}.shard-");
    let mut held = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(shard) = name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".lock"))
            .and_then(|rest| Shard::parse(&rest.replace("-of-", "/")).ok())
        else {
            continue;
        };
        let Ok(file) = File::open(entry.path()) else { continue };
        match FileExt::try_lock_shared(&file) {
            Ok(()) => {
                let _ = FileExt::unlock(&file);
            }
            Err(_) => held.push((shard, read_holder(&entry.path()))),
        }
    }
    held.sort_by_key(|(shard, _)| (shard.count, shard.number));
    held
}

/// The most bytes of a holder's note read back.
const MAX_HOLDER_NOTE: u64 = 4096;

/// The note a holder left in `path`, or a plain phrase when it left none (yet).
fn read_holder(path: &Path) -> String {
    let mut text = String::new();
    // A holder writes one short line; a file far past it is not a holder's note.
    let _ = File::open(path).and_then(|file| file.take(MAX_HOLDER_NOTE).read_to_string(&mut text));
    let text = text.trim();
    if text.is_empty() {
        format!("another process holds {}", path.display())
    } else {
        text.to_string()
    }
}

/// Replaces the file's content with a note naming this process.
fn write_holder(file: &File, path: &Path, sweep: &str, shard: Option<Shard>) -> Result<(), HarnessError> {
    let what = match shard {
        Some(shard) => format!("shard {shard} of sweep `{sweep}`"),
        None => format!("sweep `{sweep}`"),
    };
    let note = format!("{what}: pid {} on host {}, started {}\n", std::process::id(), hostname(), timestamp_now());
    let mut writer = file;
    file.set_len(0)
        .and_then(|()| writer.write_all(note.as_bytes()))
        .and_then(|()| writer.flush())
        .map_err(|source| HarnessError::io(path, source))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acquire(folder: &Path, shard: Option<&str>) -> Result<SweepLock, HarnessError> {
        let shard = shard.map(|text| Shard::parse(text).unwrap());
        SweepLock::acquire(folder, "s", shard, WhenBusy::Refuse, |_| {})
    }

    fn refusal(result: Result<SweepLock, HarnessError>) -> String {
        match result {
            Err(error @ HarnessError::SweepBusy { .. }) => error.to_string(),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    // flock locks belong to open files, so two opens in one process exclude each other as
    // two processes would.
    #[test]
    fn a_second_whole_sweep_is_refused_and_told_who_holds_the_folder() {
        let folder = tempfile::tempdir().unwrap();
        let first = acquire(folder.path(), None).unwrap();
        let message = refusal(acquire(folder.path(), None));
        assert!(message.contains(&format!("sweep `s`: pid {}", std::process::id())), "{message}");
        assert!(message.contains("--wait"), "{message}");
        drop(first);
        // Released: the note is gone and the lock can be taken again.
        assert_eq!(std::fs::read_to_string(sweep_lock_file(folder.path(), "s")).unwrap(), "");
        acquire(folder.path(), None).unwrap();
    }

    #[test]
    fn a_symlink_at_a_lock_files_name_is_refused_and_its_target_left_whole() {
        let folder = tempfile::tempdir().unwrap();
        let victim = folder.path().join("victim.txt");
        std::fs::write(&victim, "data\n").unwrap();
        std::os::unix::fs::symlink(&victim, sweep_lock_file(folder.path(), "s")).unwrap();
        let error = acquire(folder.path(), None).map(|_| ()).expect_err("a linked lock file is refused").to_string();
        assert!(error.contains("is a symbolic link"), "{error}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "data\n");
    }

    #[test]
    fn sibling_shards_share_the_folder_but_not_with_a_whole_run_or_another_split() {
        let folder = tempfile::tempdir().unwrap();
        let one = acquire(folder.path(), Some("1/2")).unwrap();
        let _two = acquire(folder.path(), Some("2/2")).unwrap();
        assert!(refusal(acquire(folder.path(), Some("1/2"))).contains("shard 1/2 of sweep `s`"));
        let whole = refusal(acquire(folder.path(), None));
        assert!(whole.contains("shard 1/2") && whole.contains("shard 2/2"), "{whole}");
        assert!(refusal(acquire(folder.path(), Some("1/3"))).contains("split 3 ways"));
        drop(one);
        acquire(folder.path(), Some("1/2")).unwrap();
        // Another sweep's name is another lock.
        SweepLock::acquire(folder.path(), "other", None, WhenBusy::Refuse, |_| {}).unwrap();
    }

    #[test]
    fn a_waiting_sweep_takes_the_lock_when_the_holder_ends() {
        let folder = tempfile::tempdir().unwrap();
        let first = acquire(folder.path(), None).unwrap();
        let path = folder.path().to_path_buf();
        let (told, heard) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || {
            SweepLock::acquire(&path, "s", None, WhenBusy::Wait, |line| told.send(line.to_string()).unwrap())
                .map(|_| ())
        });
        // The waiter says whom it waits for before blocking; then the holder ends.
        assert!(heard.recv().unwrap().contains(&format!("pid {}", std::process::id())));
        drop(first);
        waiter.join().unwrap().unwrap();
    }

    #[test]
    fn a_wait_ends_within_a_slice_once_its_flag_is_raised_and_takes_a_freed_lock() {
        static STOP: AtomicBool = AtomicBool::new(false);
        let folder = tempfile::tempdir().unwrap();
        let first = acquire(folder.path(), None).unwrap();
        let path = folder.path().to_path_buf();
        let (told, heard) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || {
            SweepLock::acquire(&path, "s", None, WhenBusy::WaitUnless(&STOP), |_| told.send(()).unwrap()).map(|_| ())
        });
        heard.recv().unwrap();
        let raised = std::time::Instant::now();
        STOP.store(true, Ordering::Relaxed);
        let message = refusal(waiter.join().unwrap().map(|()| unreachable!("the holder still runs")));
        assert!(raised.elapsed() < Duration::from_secs(5), "the wait ignored its flag");
        assert!(message.contains("stopped waiting for it: Ctrl-C"), "{message}");
        // Without the flag the polling wait takes the lock once it is free.
        STOP.store(false, Ordering::Relaxed);
        drop(first);
        SweepLock::acquire(folder.path(), "s", None, WhenBusy::WaitUnless(&STOP), |_| {}).unwrap();
    }
}
