//! Writing a new plan folder so that nothing half-made is left: the folders, the key, the
//! plan's keyed digest and the parts' plans first and `plan.json` last (a folder with
//! `plan.json` is complete), and on any failure (a full disk, a folder that cannot be
//! written) everything written so far removed again, so that a later `split` or `run-part`
//! never meets a key or part plans without their plan. A split killed before `plan.json`
//! (no undo runs) leaves its lock file beside what it wrote: [`unfinished_split`] tells
//! such a folder from a part's plan, key and digest copied to another machine.
//!
//! A new key is never written over finished parts of the plan ([`refuse_losing_parts`]):
//! they would no longer verify, and `merge` refused every one after a split that had
//! printed "unchanged".

use super::key::{content_hash, key_path, plan_digest, plan_digest_path, signed_by, write_new_key, Key};
use super::part_plan::write_part_plans;
use super::plan::{parse_json, parts_folder, plan_path, read_bytes, PartFile, Plan, PART_SCHEMA};
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
        let path = lock_path(dir);
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

/// The split lock of folder `dir`, which every split leaves in place (a split that fails
/// removes it where it made it; one killed cannot).
pub fn lock_path(dir: &Path) -> PathBuf {
    dir.join(".split.lock")
}

/// The refusal of a folder that a split began and did not finish: no `plan.json`, but the
/// lock a split leaves. `None` where `plan.json` is there, or where no split ran here (a
/// part's plan, the key and the digest copied to another machine, docs/cluster.md, which
/// `run-part` runs without `plan.json`).
pub fn unfinished_split(dir: &Path) -> Option<ClusterError> {
    let missing = |path: &Path| std::fs::symlink_metadata(path).is_err();
    (missing(&plan_path(dir)) && !missing(&lock_path(dir))).then(|| {
        ClusterError::bad_input(format!(
            "{}: split did not finish (no plan.json): run the split again (a folder holds a plan only once \
             `split` has written plan.json, last)",
            dir.display()
        ))
    })
}

/// Refuses a split that is to write a new key into `dir` (the old one, `key`, lost or
/// replaced with the plan) while `dir/parts/` holds finished parts of the plan whose hash
/// is `plan_hash`: signed with the old key, they would no longer verify, and `merge` would
/// refuse them all. Only parts of this plan count (another plan's are refused for their
/// plan hash whatever the key), and where the old key is there, only parts it signs.
/// `lost` names the files whose loss makes the split write a new key.
pub fn refuse_losing_parts(
    dir: &Path,
    plan_hash: &str,
    key: Option<&Key>,
    lost: &[PathBuf],
) -> Result<(), ClusterError> {
    let folder = parts_folder(dir);
    let Ok(entries) = std::fs::read_dir(&folder) else { return Ok(()) };
    let finished = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
            !name.starts_with('.') && name.ends_with(".json")
        })
        .filter_map(|path| read_bytes(&path).and_then(|bytes| parse_json::<PartFile>(&bytes, &path, PART_SCHEMA)).ok())
        .filter(|file| file.plan_hash == plan_hash && key.is_none_or(|key| signed_by(key, file)))
        .count();
    if finished == 0 {
        return Ok(());
    }
    let lost: Vec<String> = lost.iter().map(|path| path.display().to_string()).collect();
    let lost = lost.join(" and ");
    Err(ClusterError::bad_input(format!(
        "{}: {finished} finished part(s) of this plan would no longer verify: {lost} missing, this split would \
         write a new key, and the parts are signed with the old one; restore {lost} from a copy (the same split \
         then leaves the folder as it is), or remove {} to start over (every part then runs again)",
        folder.display(),
        folder.display()
    )))
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
