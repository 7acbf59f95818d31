//! A file replaced whole: written to a temporary file in the same folder, then renamed
//! over the old one, so that a reader (or a crash of the process) never sees half of it.

use std::fmt;
use std::fs::File;
use std::io::Write;
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

fn replace_file(path: &Path, contents: &[u8], sync: bool) -> Result<(), FileError> {
    let folder = path.parent().filter(|parent| !parent.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(folder).map_err(|source| FileError { path: folder.to_path_buf(), source })?;
    let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    // Unique per process and moment: shards on several hosts may share the folder.
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().subsec_nanos();
    let temporary = folder.join(format!(".{name}.{}-{nanos}.tmp", std::process::id()));
    let result = File::create(&temporary)
        .and_then(|mut file| file.write_all(contents).and_then(|()| if sync { file.sync_all() } else { Ok(()) }))
        .and_then(|()| std::fs::rename(&temporary, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result.map_err(|source| FileError { path: path.to_path_buf(), source })
}
