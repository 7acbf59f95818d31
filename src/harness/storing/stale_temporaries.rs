//! Removing the temporary files a killed process left behind in a folder it wrote to.
//!
//! Files are replaced through a temporary file and a rename (`csv_log` writes
//! `.NAME.PID-NUMBER.tmp`, as `solve --solutions` and `split`'s key do); a process killed
//! between the two leaves the temporary file. The next sweep or report writing into the
//! folder removes such a file when all of these hold: the name is of exactly that pattern,
//! no process with that PID is alive on this machine (`/proc/PID`), and the file was last
//! changed at least [`STALE_AFTER`] ago. The age guard protects a writer on another host
//! sharing the folder (shards over NFS), whose PID means nothing here: a temporary file
//! lives for the moments of one write. Nothing is removed where `/proc` is missing.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How old a temporary file of a dead process must be before it is removed.
pub const STALE_AFTER: Duration = Duration::from_secs(10 * 60);

/// Removes the stale temporary files of `folder` (see the module's text); returns the
/// files removed. Errors (an unreadable folder, a file gone meanwhile) remove nothing more
/// and are not reported: the clean-up is a courtesy, never a reason to fail a run.
pub fn remove_stale_temporaries(folder: &Path) -> Vec<PathBuf> {
    if !Path::new("/proc/self").exists() {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
    let now = SystemTime::now();
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = writer_pid(&name) else { continue };
        if Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let Ok(metadata) = entry.metadata() else { continue };
        let old_enough = metadata
            .modified()
            .ok()
            .and_then(|modified| now.duration_since(modified).ok())
            .is_some_and(|age| age >= STALE_AFTER);
        if metadata.is_file() && old_enough && std::fs::remove_file(entry.path()).is_ok() {
            removed.push(entry.path());
        }
    }
    removed
}

/// The PID in a temporary file name of our pattern, `.NAME.PID-NUMBER.tmp` or
/// `.NAME.PID.tmp` of older builds (NAME not empty); `None` for any other name.
fn writer_pid(name: &str) -> Option<u32> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (target, stamp) = inner.rsplit_once('.')?;
    let (pid, nanos) = stamp.split_once('-').unwrap_or((stamp, "0"));
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    if target.is_empty() || !digits(pid) || !digits(nanos) {
        return None;
    }
    pid.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_our_pattern_names_a_pid() {
        assert_eq!(writer_pid(".t-summary.csv.123-456.tmp"), Some(123));
        assert_eq!(writer_pid(".out.json.77.tmp"), Some(77));
        for other in ["t-summary.csv.123-456.tmp", "..123.tmp", ".x.12a.tmp", ".x.123-.tmp", ".x.123", ".tmp"] {
            assert_eq!(writer_pid(other), None, "{other}");
        }
    }

    #[test]
    fn an_old_file_of_a_dead_process_goes_and_nothing_else() {
        let folder = tempfile::tempdir().unwrap();
        let old = SystemTime::now() - STALE_AFTER - Duration::from_secs(60);
        let make = |name: &str, modified: SystemTime| {
            let path = folder.path().join(name);
            std::fs::File::create(&path).unwrap().set_modified(modified).unwrap();
            path
        };
        // PIDs above the kernel's maximum (4194304) are never alive.
        let dead_old = make(".t-summary.csv.999999999-1.tmp", old);
        let dead_new = make(".t-summary.csv.999999998-1.tmp", SystemTime::now());
        let alive_old = make(&format!(".t-summary.csv.{}-1.tmp", std::process::id()), old);
        let other_old = make("notes.999999999.tmp", old);
        assert_eq!(remove_stale_temporaries(folder.path()), std::slice::from_ref(&dead_old));
        assert!(!dead_old.exists());
        assert!(dead_new.exists() && alive_old.exists() && other_old.exists());
    }
}
