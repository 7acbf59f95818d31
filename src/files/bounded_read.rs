//! The one way the tool reads a file it is given (a sweep spec, a run log or baseline CSV,
//! a cluster plan, part plan or part file, a scaling check's measurements): a regular file only, up to a cap per kind.
//!
//! A FIFO or a device given in place of a file would block the read (a FIFO with no writer)
//! or never end (`/dev/zero`), and a file far larger than any the tool writes would fill
//! memory, so each is refused at once, before the file is opened for reading, with the
//! file, what it is and the cap named.

use std::fmt;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The kinds of file the tool reads, each with its cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadKind {
    /// A sweep spec (TOML): the largest preset is a few KiB.
    Spec,
    /// A run log, counts log or `report --baseline` CSV: a long sweep writes tens of MiB.
    Csv,
    /// A cluster plan, part plan or part file: a part of a large split lists its
    /// subproblems and kept solutions.
    ClusterFile,
    /// A part's published incumbent (`incumbent/K.json`): one solution path per component.
    Incumbent,
    /// A scaling check's measurements.json (`scaling-check --from`): about 23 KiB for
    /// three workloads on 16 CPUs, so 4 MiB holds one of a machine of a thousand CPUs.
    Measurements,
    /// A document beside a results folder whose generated sections `report` rewrites
    /// (README.md, docs/*.md): this project's longest is under 100 KiB.
    Document,
    /// The instance digests beside a run log (`S-instances.json`): about 80 bytes per
    /// instance of the sweep.
    InstanceDigests,
}

impl ReadKind {
    /// The most bytes a file of this kind may hold.
    pub fn cap(self) -> u64 {
        match self {
            ReadKind::Spec => 1 << 20,
            ReadKind::Csv => 2 << 30,
            ReadKind::ClusterFile => 512 << 20,
            ReadKind::Incumbent => 1 << 20,
            ReadKind::Measurements => 4 << 20,
            ReadKind::Document => 16 << 20,
            ReadKind::InstanceDigests => 16 << 20,
        }
    }

    fn noun(self) -> &'static str {
        match self {
            ReadKind::Spec => "a sweep spec",
            ReadKind::Csv => "a CSV file",
            ReadKind::ClusterFile => "a cluster file",
            ReadKind::Incumbent => "an incumbent file",
            ReadKind::Measurements => "a scaling check's measurements",
            ReadKind::Document => "a document with generated sections",
            ReadKind::InstanceDigests => "a sweep's instance digests",
        }
    }
}

/// Why a file was not read: the file and what was wrong.
#[derive(Debug)]
pub struct ReadRefused {
    /// The file.
    pub path: PathBuf,
    /// What was wrong (not a regular file, over the cap, the OS's error).
    pub message: String,
    /// Whether the file does not exist (callers that accept a missing file check this).
    pub not_found: bool,
}

impl fmt::Display for ReadRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for ReadRefused {}

/// The bytes of `path`, a regular file of at most `kind.cap()` bytes (symlinks followed).
pub fn read_bounded(path: &Path, kind: ReadKind) -> Result<Vec<u8>, ReadRefused> {
    let refuse = |message: String, not_found: bool| ReadRefused { path: path.to_path_buf(), message, not_found };
    let cannot = |error: std::io::Error| {
        let not_found = error.kind() == std::io::ErrorKind::NotFound;
        refuse(format!("cannot read: {error}"), not_found)
    };
    let metadata = std::fs::metadata(path).map_err(|error| match std::fs::read_link(path) {
        // A link whose target is missing is not a missing file: the file is there, and
        // wrong (a caller that accepts a missing file must not take it for none).
        Ok(target) if error.kind() == std::io::ErrorKind::NotFound => {
            refuse(format!("is a symbolic link to {}, which does not exist", target.display()), false)
        }
        _ => cannot(error),
    })?;
    check_regular(&metadata, kind).map_err(|message| refuse(message, false))?;
    // O_NONBLOCK: were the file swapped for a FIFO after the check, the open does not wait
    // for a writer; the type is checked again on the open file, which cannot change.
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path).map_err(cannot)?;
    check_regular(&file.metadata().map_err(cannot)?, kind).map_err(|message| refuse(message, false))?;
    let mut bytes = Vec::new();
    file.take(kind.cap() + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > kind.cap() {
        return Err(refuse(over_cap(kind), false));
    }
    Ok(bytes)
}

fn check_regular(metadata: &std::fs::Metadata, kind: ReadKind) -> Result<(), String> {
    let file_type = metadata.file_type();
    let what = if file_type.is_file() {
        return if metadata.len() > kind.cap() {
            Err(format!("{} bytes; {}", metadata.len(), over_cap(kind)))
        } else {
            Ok(())
        };
    } else if file_type.is_dir() {
        "a directory"
    } else {
        special_file_kind(file_type).unwrap_or("not a file")
    };
    Err(format!("is {what}, not a regular file; {} is read only from a regular file", kind.noun()))
}

/// What a file that is neither a regular file nor a directory is ("a FIFO", "a character
/// device", ...): a read of it may block or never end. `None` for a file or a directory.
pub fn special_file_kind(file_type: std::fs::FileType) -> Option<&'static str> {
    if file_type.is_file() || file_type.is_dir() {
        None
    } else if file_type.is_fifo() {
        Some("a FIFO")
    } else if file_type.is_char_device() {
        Some("a character device")
    } else if file_type.is_block_device() {
        Some("a block device")
    } else {
        Some("a socket")
    }
}

/// [`special_file_kind`] of what `path` names (after symlinks); `None` where it is a file, a
/// folder or nothing.
pub fn special_file_at(path: impl AsRef<std::path::Path>) -> Option<&'static str> {
    std::fs::metadata(path).ok().and_then(|metadata| special_file_kind(metadata.file_type()))
}

fn over_cap(kind: ReadKind) -> String {
    format!("larger than the cap of {} bytes ({} MiB) for {}", kind.cap(), kind.cap() >> 20, kind.noun())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_whole() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("spec.toml");
        std::fs::write(&path, b"name = \"x\"\n").unwrap();
        assert_eq!(read_bounded(&path, ReadKind::Spec).unwrap(), b"name = \"x\"\n");
    }

    #[test]
    fn dev_zero_and_a_directory_are_refused_at_once_with_the_file_named() {
        let error = read_bounded(Path::new("/dev/zero"), ReadKind::Spec).unwrap_err().to_string();
        assert!(error.starts_with("/dev/zero: is a character device"), "{error}");
        let folder = tempfile::tempdir().unwrap();
        let error = read_bounded(folder.path(), ReadKind::Csv).unwrap_err().to_string();
        assert!(error.contains("is a directory"), "{error}");
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let folder = tempfile::tempdir().unwrap();
        let fifo = folder.path().join("plan.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|status| status.success());
        if !made {
            eprintln!("mkfifo is missing: skipped");
            return;
        }
        let error = read_bounded(&fifo, ReadKind::ClusterFile).unwrap_err().to_string();
        assert!(error.contains("is a FIFO"), "{error}");
    }

    #[test]
    fn a_file_over_the_cap_is_refused_before_reading_with_the_cap_named() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("big.toml");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(ReadKind::Spec.cap() + 1).unwrap();
        let error = read_bounded(&path, ReadKind::Spec).unwrap_err().to_string();
        assert!(error.contains("cap of 1048576 bytes (1 MiB)"), "{error}");
    }

    #[test]
    fn a_missing_file_is_refused_as_not_found() {
        let folder = tempfile::tempdir().unwrap();
        let refused = read_bounded(&folder.path().join("absent"), ReadKind::Csv).unwrap_err();
        assert!(refused.not_found, "{refused}");
        let directory = read_bounded(folder.path(), ReadKind::Csv).unwrap_err();
        assert!(!directory.not_found, "{directory}");
        // A link to nothing is there and wrong, not missing (`report` failed with exit 1).
        let dangling = folder.path().join("quick-runs.csv");
        std::os::unix::fs::symlink(folder.path().join("gone.csv"), &dangling).unwrap();
        let refused = read_bounded(&dangling, ReadKind::Csv).unwrap_err();
        assert!(!refused.not_found, "{refused}");
        assert!(
            refused.message.starts_with("is a symbolic link to ")
                && refused.message.ends_with("gone.csv, which does not exist"),
            "{refused}"
        );
    }
}
