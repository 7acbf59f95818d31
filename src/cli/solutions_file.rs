//! `solve --solutions FILE`: every solution of the run, one JSON line each, streamed to a
//! temporary file beside FILE while the search runs and renamed to FILE only once the run
//! and every write have succeeded, so FILE is whole or absent (an earlier FILE stays as it
//! was when the run fails).

use super::failure::Failure;
use crate::run::SolutionStream;
use std::fs::File;
use std::path::{Path, PathBuf};

/// The temporary file of a solutions file being written.
pub struct SolutionsFile {
    path: PathBuf,
    temporary: PathBuf,
    file: File,
}

impl SolutionsFile {
    /// Creates the temporary file beside `path`, and the stream that writes into it.
    pub fn create(path: &Path) -> Result<(SolutionsFile, SolutionStream), Failure> {
        let folder = path.parent().filter(|folder| !folder.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        if name.is_empty() || !folder.is_dir() {
            return Err(Failure::bad_input(format!(
                "--solutions {}: name a file in an existing folder",
                path.display()
            )));
        }
        let temporary = folder.join(format!(".{name}.{}.tmp", std::process::id()));
        let cannot = |error: std::io::Error| Failure::bad_input(format!("--solutions {}: {error}", path.display()));
        let file = File::create(&temporary).map_err(cannot)?;
        let writer = file.try_clone().map_err(|error| {
            let _ = std::fs::remove_file(&temporary);
            cannot(error)
        })?;
        let stream = SolutionStream::new(Box::new(writer));
        Ok((SolutionsFile { path: path.to_path_buf(), temporary, file }, stream))
    }

    /// Flushes `stream`, syncs the file and renames it to its name: the lines written.
    pub fn commit(self, stream: SolutionStream) -> Result<u64, Failure> {
        let result = stream
            .finish()
            .and_then(|lines| self.file.sync_all().map(|()| lines))
            .and_then(|lines| std::fs::rename(&self.temporary, &self.path).map(|()| lines));
        result.map_err(|error| {
            let _ = std::fs::remove_file(&self.temporary);
            Failure::failed(format!("--solutions {}: {error}", self.path.display()))
        })
    }

    /// Removes the temporary file (the run failed).
    pub fn abandon(self) {
        let _ = std::fs::remove_file(&self.temporary);
    }
}
