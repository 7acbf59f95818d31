//! Writing a new plan folder so that nothing half-made is left: the folders, the key, the
//! plan's keyed digest and the parts' plans first and `plan.json` last (a folder with
//! `plan.json` is complete), and on any failure (a full disk, a folder that cannot be
//! written) everything written so far removed again, so that a later `split` or `run-part`
//! never meets a key or part plans without their plan.

use super::key::{content_hash, key_path, plan_digest, plan_digest_path, write_new_key};
use super::part_plan::write_part_plans;
use super::plan::{parts_folder, plan_path, Plan};
use super::ClusterError;
use crate::files::atomic_write::{write_atomically, write_atomically_unsynced};
use std::path::{Path, PathBuf};

/// What a write of a plan folder has made so far, to be removed if it fails.
#[derive(Default)]
struct Made {
    /// Folders created (not those that were there), outermost first.
    folders: Vec<PathBuf>,
    /// Files written.
    files: Vec<PathBuf>,
}

impl Made {
    /// Creates `folder` (and its missing parents), remembering each one created.
    fn create_folder(&mut self, folder: &Path) -> Result<(), ClusterError> {
        for each in missing_folders(folder) {
            match std::fs::create_dir(each) {
                Ok(()) => self.folders.push(each.to_path_buf()),
                // Made meanwhile by another split of the same folder: not this one's to remove.
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists && each.is_dir() => {}
                Err(error) => return Err(ClusterError::failed(format!("{}: cannot create: {error}", each.display()))),
            }
        }
        Ok(())
    }

    /// Removes what was made, files first, folders innermost first; what cannot be
    /// removed is left (the error that led here is the one to report).
    fn undo(self) {
        for file in &self.files {
            let _ = std::fs::remove_file(file);
        }
        for folder in self.folders.iter().rev() {
            // Only an empty folder: a folder this split made holds nothing else, unless
            // someone wrote into it meanwhile, and that is not ours to remove.
            let _ = std::fs::remove_dir(folder);
        }
    }
}

/// An exclusive advisory lock on `DIR/.split.lock` (`flock`, through `fs4`), held while a
/// split reads and writes the folder: a second split of the folder waits, then finds the
/// plan written (and leaves it as it is) or another plan (and is refused).
pub struct SplitLock {
    file: std::fs::File,
    /// The folders the lock's creation made, and whether the lock file was new: removed
    /// again when the split fails, so that a failed split leaves the folder as it found it.
    made: Made,
}

impl SplitLock {
    /// Creates `dir` where missing and waits for its lock.
    pub fn acquire(dir: &Path) -> Result<SplitLock, ClusterError> {
        let mut made = Made::default();
        made.create_folder(dir)?;
        let path = dir.join(".split.lock");
        let new = !path.exists();
        let opened = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&path);
        let file = match opened {
            Ok(file) => file,
            Err(error) => {
                made.undo();
                return Err(ClusterError::failed(format!("{}: cannot create: {error}", path.display())));
            }
        };
        if new {
            made.files.push(path.clone());
        }
        if let Err(error) = fs4::FileExt::lock(&file) {
            made.undo();
            return Err(ClusterError::failed(format!("{}: cannot lock: {error}", path.display())));
        }
        Ok(SplitLock { file, made })
    }

    /// Releases the lock; after a failed split, removes the lock file and the folders that
    /// `acquire` made (only an empty folder is removed).
    pub fn release(self, succeeded: bool) {
        let _ = fs4::FileExt::unlock(&self.file);
        if !succeeded {
            drop(self.file);
            self.made.undo();
        }
    }
}

/// `folder` and those of its parents that do not exist, outermost first. A relative path's
/// last ancestor is empty (the working folder), which exists though `exists` says not.
fn missing_folders(folder: &Path) -> Vec<&Path> {
    let mut missing: Vec<&Path> =
        folder.ancestors().take_while(|ancestor| !ancestor.as_os_str().is_empty() && !ancestor.exists()).collect();
    missing.reverse();
    missing
}

/// Writes the new plan `plan` (whose file is `bytes`) into `dir`, which holds no
/// `plan.json`: `dir/parts/`, `dir/plans/`, a fresh key, every part's plan, and
/// `plan.json` last, atomically. On failure, removes what it wrote and returns the error
/// (exit 1).
pub fn write_plan_folder(dir: &Path, plan: &Plan, bytes: &[u8]) -> Result<(), ClusterError> {
    let mut made = Made::default();
    let result = write_all(dir, plan, bytes, &mut made);
    if result.is_err() {
        made.undo();
    }
    result
}

/// Each file is listed once written: a failed write removes its own temporary file and
/// leaves what was at its path before, which is not this split's to remove.
fn write_all(dir: &Path, plan: &Plan, bytes: &[u8], made: &mut Made) -> Result<(), ClusterError> {
    made.create_folder(&parts_folder(dir))?;
    made.create_folder(&dir.join("plans"))?;
    let key = write_new_key(dir)?;
    made.files.push(key_path(dir));
    let plan_hash = content_hash(bytes);
    write_atomically_unsynced(&plan_digest_path(dir), plan_digest(&key, &plan_hash).as_bytes())
        .map_err(|error| ClusterError::failed(error.to_string()))?;
    made.files.push(plan_digest_path(dir));
    write_part_plans(dir, plan, bytes, &key, false, &mut made.files)?;
    write_atomically(&plan_path(dir), bytes).map_err(|error| ClusterError::failed(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relative_folder_is_created_from_the_working_folder() {
        let folder = Path::new("no-such-folder-of-a-split/parts");
        assert_eq!(missing_folders(folder), [Path::new("no-such-folder-of-a-split"), folder]);
        assert_eq!(missing_folders(Path::new("src/no-such-folder")), [Path::new("src/no-such-folder")]);
    }
}
