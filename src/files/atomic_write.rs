//! A file replaced whole: written to a temporary file in the same folder, then renamed
//! over the old one, so that a reader (or a crash of the process) never sees half of it.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// A file or folder that could not be written, and why.
#[derive(Debug)]
pub struct FileError {
    /// The file or folder.
    pub path: PathBuf,
    /// The underlying error.
    pub source: std::io::Error,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Writes `contents` to `path` through a temporary file in the same folder, synced to disk,
/// and a rename.
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), FileError> {
    replace_file(path, contents, true)
}

/// [`write_atomically`] without the sync: a reader still sees the old or the new file,
/// never a part of one, but a crash of the machine may lose it. For files rebuilt from
/// another, synced, file and written by the hundred, where a sync each (milliseconds on a
/// busy disk) would be most of the time spent.
pub fn write_atomically_unsynced(path: &Path, contents: &[u8]) -> Result<(), FileError> {
    replace_file(path, contents, false)
}

/// The folder `path` is in (`.` for a bare file name): where its temporary file goes.
pub fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|parent| !parent.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

fn replace_file(path: &Path, contents: &[u8], sync: bool) -> Result<(), FileError> {
    let folder = folder_of(path);
    std::fs::create_dir_all(folder).map_err(|source| FileError { path: folder.to_path_buf(), source })?;
    let (temporary, mut file) =
        create_replacement(path).map_err(|source| FileError { path: path.to_path_buf(), source })?;
    let result = file
        .write_all(contents)
        .and_then(|()| if sync { file.sync_all() } else { Ok(()) })
        .and_then(|()| std::fs::rename(&temporary, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result.map_err(|source| FileError { path: path.to_path_buf(), source })
}

/// A new temporary file in `destination`'s folder, to be renamed over it once written, and
/// its path. Where a regular file is there, the temporary is made private (no other user
/// can open it, and keep it open, before it has the right bits) and then given the file's
/// permission bits when this user owns it, so that replacing a file keeps who may read it
/// (one its owner made private stays private). The owner keeps the right to write (a later
/// append of the tool's own), and the bits past `0o777` (set-user-ID and the like) are not
/// carried over to a file the program wrote. A file of another owner, or a file system that
/// refuses the change, leaves the temporary private; a new file takes the umask's bits.
pub fn create_replacement(destination: &Path) -> std::io::Result<(PathBuf, File)> {
    let folder = folder_of(destination);
    let name = destination.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let existing = std::fs::metadata(destination).ok().filter(|existing| existing.is_file());
    let (temporary, file) = create_temporary(folder, &name, existing.is_some())?;
    // SAFETY: `geteuid` has no preconditions and cannot fail.
    if let Some(existing) = existing.filter(|existing| existing.uid() == unsafe { libc::geteuid() }) {
        let _ = file.set_permissions(std::fs::Permissions::from_mode((existing.permissions().mode() & 0o777) | 0o200));
    }
    Ok((temporary, file))
}

/// Whether a file called `name` could be written into `folder` as [`write_atomically`]
/// writes it: the temporary file it would make is made and removed. Asked before long
/// work whose result goes there, so that a folder that cannot be written (read-only, full)
/// is found before the work, not after it.
pub fn probe_writable(folder: &Path, name: &str) -> std::io::Result<()> {
    let (temporary, _) = create_temporary(folder, name, true)?;
    let _ = std::fs::remove_file(temporary);
    Ok(())
}

/// How often [`create_temporary`] draws another name when the one it drew exists.
const TEMPORARY_NAME_TRIES: usize = 16;

/// A new temporary file in `folder` for the file `name`, as `.NAME.PID-NUMBER.tmp` with a
/// random number, and its path; readable by the owner only when `private`.
///
/// Created with `create_new`, which never opens what is already there: a symlink planted
/// under the name in a shared folder is not followed to overwrite its target, and the
/// leftover of a killed process whose PID came round again (containers reuse PID 1) is
/// not taken over; a name that exists is drawn again. The PID stays in the name so that a
/// later sweep knows the file's writer is gone (`stale_temporaries`).
pub fn create_temporary(folder: &Path, name: &str, private: bool) -> std::io::Result<(PathBuf, File)> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    if private {
        options.mode(0o600);
    }
    let mut last_error = None;
    for _ in 0..TEMPORARY_NAME_TRIES {
        let temporary = folder.join(format!(".{name}.{}-{}.tmp", std::process::id(), random_number()));
        match options.open(&temporary) {
            Ok(file) => return Ok((temporary, file)),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => last_error = Some(error),
            Err(error) => return Err(error),
        }
    }
    Err(last_error.unwrap_or_else(|| std::io::Error::other("no temporary name")))
}

/// A number for a temporary name: random, or the clock's nanoseconds where the system has
/// no random source to give.
fn random_number() -> u64 {
    let mut bytes = [0u8; 8];
    match getrandom::getrandom(&mut bytes) {
        Ok(()) => u64::from_le_bytes(bytes),
        Err(_) => u64::from(
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().subsec_nanos(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporaries_are_new_files_of_the_stale_pattern_and_private_on_request() {
        let folder = std::env::temp_dir().join(format!("bb-temporary-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let (first, _) = create_temporary(&folder, "out.csv", true).unwrap();
        let (second, _) = create_temporary(&folder, "out.csv", false).unwrap();
        assert_ne!(first, second, "two writers of one name in one process get two files");
        assert_eq!(std::fs::metadata(&first).unwrap().permissions().mode() & 0o777, 0o600);
        for temporary in [&first, &second] {
            let name = temporary.file_name().unwrap().to_string_lossy().into_owned();
            let number = name.strip_prefix(&format!(".out.csv.{}-", std::process::id())).unwrap();
            assert!(number.strip_suffix(".tmp").unwrap().bytes().all(|byte| byte.is_ascii_digit()), "{name}");
        }
        write_atomically(&folder.join("out.csv"), b"new").unwrap();
        assert_eq!(std::fs::read_to_string(folder.join("out.csv")).unwrap(), "new");
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_replaced_file_keeps_its_permission_bits() {
        let folder = std::env::temp_dir().join(format!("bb-permissions-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let file = folder.join("private.csv");
        write_atomically(&file, b"old").unwrap();
        // (before, after): the owner keeps the right to write; set-user-ID is not carried.
        for (before, after) in [(0o600, 0o600), (0o640, 0o640), (0o604, 0o604), (0o444, 0o644), (0o4755, 0o755)] {
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(before)).unwrap();
            write_atomically_unsynced(&file, b"new").unwrap();
            assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o7777, after, "{before:o}");
            assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        }
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
