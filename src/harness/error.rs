//! The harness's one error type: what went wrong, with the file, line or key involved.

use std::fmt;
use std::path::PathBuf;

/// Why a sweep or a report could not go on.
#[derive(Debug)]
pub enum HarnessError {
    /// A sweep spec is invalid: the file (or preset), the key and what was expected.
    Spec {
        /// The spec file or `preset NAME`.
        origin: String,
        /// The 1-based line of the bad key or value, when known.
        line: Option<usize>,
        /// What was wrong, starting with the key (`block[1].threads: ...`), and what is
        /// allowed.
        message: String,
    },
    /// A command-line value is invalid (`--shard`, `--threads`, ...).
    Argument {
        /// The flag.
        flag: &'static str,
        /// What was wrong and what is allowed.
        message: String,
    },
    /// Reading or writing a file failed.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A CSV file is not what the harness wrote (another header, a bad row).
    Csv {
        /// The file.
        path: PathBuf,
        /// What was wrong (with the line when known) and what to do.
        message: String,
    },
    /// Another sweep of the same name runs in the results folder (its lock is held).
    SweepBusy {
        /// The results folder.
        folder: PathBuf,
        /// The sweep's name.
        sweep: String,
        /// Who holds the lock: pid, host and start time, as the holders wrote them.
        holders: String,
    },
    /// The family's own code panicked while the spec was checked (reading a block's knob
    /// values): the family's bug, not the spec's.
    FamilyPanicked {
        /// The spec file or `preset NAME`.
        origin: String,
        /// The 1-based line of the block's knobs, when known.
        line: Option<usize>,
        /// The family's panic, as a run reports it.
        message: String,
    },
    /// A file the tool reads is not a regular file or is over its kind's cap (see
    /// [`crate::files::bounded_read`]): the user's input, exit code 2.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What it is, or the cap it is over.
        message: String,
    },
    /// A file the tool writes under a name of its own (a results folder's `README.md`, a
    /// summary, a plot) is held by something other than a regular file: the user's to move
    /// away, exit code 2.
    NotAFile {
        /// The file's name.
        path: PathBuf,
        /// What holds it: "a folder", "a FIFO", "a character device", ...
        what: &'static str,
    },
    /// A folder the tool keeps in a results folder (`plots/`, `history/`) is something other
    /// than a folder: the user's to move away, exit code 2.
    NotAFolder {
        /// The folder's path.
        path: PathBuf,
    },
    /// A plot could not be drawn.
    Plot {
        /// The SVG file.
        path: PathBuf,
        /// The plotting library's message.
        message: String,
    },
}

impl From<crate::files::atomic_write::FileError> for HarnessError {
    fn from(error: crate::files::atomic_write::FileError) -> HarnessError {
        HarnessError::Io { path: error.path, source: error.source }
    }
}

impl HarnessError {
    /// An I/O error about `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> HarnessError {
        HarnessError::Io { path: path.into(), source }
    }

    /// A spec error from `origin` with `message` (which starts with the key).
    pub fn spec(origin: impl Into<String>, message: impl Into<String>) -> HarnessError {
        HarnessError::Spec { origin: origin.into(), line: None, message: message.into() }
    }

    /// A spec error at `line` of `origin` (when the line is known).
    pub fn spec_at(origin: impl Into<String>, line: Option<usize>, message: impl Into<String>) -> HarnessError {
        HarnessError::Spec { origin: origin.into(), line, message: message.into() }
    }

    /// Whether the error is the user's input (spec, flags, a folder another sweep of the
    /// same name is using, a results folder or CSV file the harness did not write) rather
    /// than a failure while running: exit code 2.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            HarnessError::Spec { .. }
                | HarnessError::Argument { .. }
                | HarnessError::SweepBusy { .. }
                | HarnessError::Unreadable { .. }
                | HarnessError::Csv { .. }
                | HarnessError::NotAFile { .. }
                | HarnessError::NotAFolder { .. }
        )
    }

    /// Whether the error is a panic of the family's own code (exit code 3, as everywhere).
    pub fn is_family_panic(&self) -> bool {
        matches!(self, HarnessError::FamilyPanicked { .. })
    }
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HarnessError::Spec { origin, line: Some(line), message }
            | HarnessError::FamilyPanicked { origin, line: Some(line), message } => {
                write!(f, "{origin}:{line}: {message}")
            }
            HarnessError::Spec { origin, line: None, message }
            | HarnessError::FamilyPanicked { origin, line: None, message } => write!(f, "{origin}: {message}"),
            HarnessError::Argument { flag, message } => write!(f, "{flag}: {message}"),
            HarnessError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            HarnessError::Csv { path, message } | HarnessError::Unreadable { path, message } => {
                write!(f, "{}: {message}", path.display())
            }
            HarnessError::SweepBusy { folder, sweep, holders } => write!(
                f,
                "{}: another run of sweep `{sweep}` is using this folder ({holders}); wait for it to end \
                 (or pass --wait), or give this run another --name or --out",
                folder.display()
            ),
            HarnessError::Plot { path, message } => write!(f, "{}: cannot draw the plot: {message}", path.display()),
            HarnessError::NotAFolder { path } => write!(
                f,
                "{}: is not a folder, where {} keeps a folder of its own; move it away",
                path.display(),
                crate::run::program_name()
            ),
            HarnessError::NotAFile { path, what } => write!(
                f,
                "{}: is {what}, where {} writes a file of its own; move it away (a symlink to a \
                 regular file is followed)",
                path.display(),
                crate::run::program_name()
            ),
        }
    }
}

impl std::error::Error for HarnessError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HarnessError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<crate::files::bounded_read::ReadRefused> for HarnessError {
    /// A missing file stays an I/O error of kind `NotFound` (callers that accept a missing
    /// run log check for it); any other refusal is the user's input.
    fn from(refused: crate::files::bounded_read::ReadRefused) -> HarnessError {
        if refused.not_found {
            HarnessError::io(refused.path, std::io::Error::new(std::io::ErrorKind::NotFound, refused.message))
        } else {
            HarnessError::Unreadable { path: refused.path, message: refused.message }
        }
    }
}
