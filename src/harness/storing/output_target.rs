//! Where a file the user names as an output really goes: a regular file (or a new path) is
//! replaced whole through a temporary file and a rename; a FIFO, a character device, `-`,
//! `/dev/stdout` or the file standard output or error already writes is streamed into, never
//! replaced; a symlink is followed to the file it
//! points to, never replaced itself.
//!
//! The user owns what they name: replacing `/dev/null` or a FIFO another program reads with
//! a regular file (as a plain rename does) breaks their system or their pipeline, and
//! replacing a symlink cuts it from the file it was meant to update.

use super::csv_log::write_atomically;
use crate::files::bounded_read::special_file_kind;
use crate::harness::error::HarnessError;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// The most symlinks followed in a chain, as the kernel's own limit (ELOOP after 40).
const MAX_SYMLINK_HOPS: usize = 40;

/// How an output path is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputTarget {
    /// The process's standard output (`-`, `/dev/stdout`, or any name of the file it is).
    Stdout,
    /// The process's standard error, named by a name of the regular file it is
    /// (`/dev/stderr` or `/dev/fd/2` with `2> FILE`, or FILE itself).
    Stderr,
    /// A FIFO or character device, opened for writing and streamed into as it is.
    Stream(PathBuf),
    /// A regular file or a path where nothing is yet: written to a temporary file beside
    /// it and renamed over it. The path is the symlink's target when the user named a link.
    Replace(PathBuf),
}

impl OutputTarget {
    /// What `path` names, after following symlinks. Refuses a directory, a block device and
    /// a socket (nothing sensible to write there) and a symlink loop.
    pub fn of(path: &Path) -> Result<OutputTarget, HarnessError> {
        if path == Path::new("-") || path == Path::new("/dev/stdout") {
            return Ok(OutputTarget::Stdout);
        }
        // `nd/` (`nd/.`, `nd/..`) names a folder: taken for a file, it passed every check as
        // the file `nd` in the current folder, and the rename after the run failed.
        let text = path.as_os_str().as_encoded_bytes();
        let last = text.rsplit(|&byte| byte == b'/').next().unwrap_or_default();
        if (text.ends_with(b"/") || last == b"." || last == b"..") && !path.is_dir() {
            return Err(HarnessError::io(
                path,
                io::Error::new(io::ErrorKind::InvalidInput, "ends in /, /. or /.., which names a folder; name a file"),
            ));
        }
        // A regular file the process already writes as its standard output or error (named
        // `/dev/fd/1`, `/proc/self/fd/2`, or by its own name): written through that stream.
        // Replaced by a rename, it took the place of the file the other stream still wrote
        // into, unlinked, and everything written there was lost.
        if let Some(stream) = std::fs::metadata(path).ok().and_then(|metadata| standard_stream_holding(&metadata)) {
            return Ok(stream);
        }
        // A stream the kernel reaches through the name (`/dev/stderr`, `/dev/fd/N`,
        // `/proc/self/fd/N`: links to a pipe whose target, `pipe:[N]`, is no path) is
        // opened as named; followed by hand, the target was taken for a missing file.
        if let Ok(metadata) = std::fs::metadata(path) {
            if metadata.file_type().is_fifo() || metadata.file_type().is_char_device() {
                return Ok(OutputTarget::Stream(path.to_path_buf()));
            }
        }
        let resolved = follow_symlinks(path)?;
        let file_type = match std::fs::metadata(&resolved) {
            Ok(metadata) => metadata.file_type(),
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(OutputTarget::Replace(resolved)),
            Err(source) => return Err(HarnessError::io(path, source)),
        };
        if file_type.is_fifo() || file_type.is_char_device() {
            Ok(OutputTarget::Stream(resolved))
        } else if file_type.is_file() {
            Ok(OutputTarget::Replace(resolved))
        } else {
            let what = if file_type.is_dir() {
                "a directory"
            } else if file_type.is_block_device() {
                "a block device"
            } else {
                "a socket"
            };
            Err(HarnessError::io(
                path,
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("is {what}; name a file, a FIFO, a character device or -"),
                ),
            ))
        }
    }

    /// Opens the target for writing: the stream for stdout and devices, or `None` for a
    /// file to be replaced (the caller writes a temporary file and renames it).
    pub fn open_stream(&self) -> io::Result<Option<Box<dyn Write + Send>>> {
        match self {
            OutputTarget::Stdout => Ok(Some(Box::new(io::stdout()))),
            OutputTarget::Stderr => Ok(Some(Box::new(io::stderr()))),
            // No truncate and no create: a FIFO or a device is written as it is.
            OutputTarget::Stream(path) => Ok(Some(Box::new(OpenOptions::new().write(true).open(path)?))),
            OutputTarget::Replace(_) => Ok(None),
        }
    }
}

/// The standard stream (output first) that writes into the regular file `file` describes.
fn standard_stream_holding(file: &std::fs::Metadata) -> Option<OutputTarget> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    if !file.is_file() {
        return None;
    }
    let same = |stream: std::os::fd::BorrowedFd<'_>| {
        let held = stream.try_clone_to_owned().and_then(|owned| std::fs::File::from(owned).metadata());
        held.is_ok_and(|held| held.is_file() && (held.dev(), held.ino()) == (file.dev(), file.ino()))
    };
    if same(io::stdout().as_fd()) {
        Some(OutputTarget::Stdout)
    } else if same(io::stderr().as_fd()) {
        Some(OutputTarget::Stderr)
    } else {
        None
    }
}

/// Writes `contents` to the output `path` names: replaced atomically when it is a regular
/// file or new, streamed when it is a FIFO, a character device or standard output.
pub fn write_output(path: &Path, contents: &[u8]) -> Result<(), HarnessError> {
    let target = OutputTarget::of(path)?;
    match target.open_stream().map_err(|source| HarnessError::io(path, source))? {
        Some(mut stream) => {
            stream.write_all(contents).and_then(|()| stream.flush()).map_err(|source| HarnessError::io(path, source))
        }
        None => match target {
            OutputTarget::Replace(resolved) => write_atomically(&resolved, contents),
            _ => unreachable!("only a replaced file has no stream"),
        },
    }
}

/// Writes a file whose name the tool chose (a results folder's `README.md`, a document's
/// generated sections, `scaling-check`'s files): replaced whole, through a symlink to the
/// file it points to. A FIFO or a device there is refused, not streamed into as an output
/// the user names is: nobody asked for a stream, and with no reader the open would wait for
/// ever.
pub fn write_named_file(path: &Path, contents: &[u8]) -> Result<(), HarnessError> {
    write_atomically(&named_file_target(path)?, contents)
}

/// Where the tool's own file `path` is written (the file a symlink leads to), or
/// `HarnessError::NotAFile` when something other than a regular file holds the name: a
/// folder, a FIFO, a device or a socket, which the user put there and must move away.
/// Callers that write several such files check them all with this before writing any.
pub fn named_file_target(path: &Path) -> Result<PathBuf, HarnessError> {
    let not_a_file = |what: &'static str| HarnessError::NotAFile { path: path.to_path_buf(), what };
    let resolved = follow_symlinks(path)?;
    match std::fs::metadata(&resolved) {
        Ok(metadata) if metadata.is_dir() => Err(not_a_file("a folder")),
        Ok(metadata) => special_file_kind(metadata.file_type()).map_or(Ok(resolved), |what| Err(not_a_file(what))),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(resolved),
        Err(source) => Err(HarnessError::io(path, source)),
    }
}

/// Refuses a folder the tool keeps in a results folder (`plots/`, `history/`) that is
/// something else there (`HarnessError::NotAFolder`); a missing one is made by its writer.
pub fn check_named_folder(path: &Path) -> Result<(), HarnessError> {
    match path.exists() && !path.is_dir() {
        true => Err(HarnessError::NotAFolder { path: path.to_path_buf() }),
        false => Ok(()),
    }
}

/// `path` with every symlink of its last component followed (a dangling link gives the
/// path it points to, where the file will be created). Links in the folders above are left
/// to the kernel: renaming inside a linked folder does not replace the link.
fn follow_symlinks(path: &Path) -> Result<PathBuf, HarnessError> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_SYMLINK_HOPS {
        match std::fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = std::fs::read_link(&current).map_err(|source| HarnessError::io(&current, source))?;
                current = match current.parent() {
                    Some(folder) if target.is_relative() => folder.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(HarnessError::io(path, io::Error::new(io::ErrorKind::InvalidInput, "too many levels of symbolic links")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;
    use std::io::Read;

    /// A FIFO at `path` made with `mkfifo`; `None` where `mkfifo` is missing.
    fn make_fifo(path: &Path) -> Option<()> {
        let status = std::process::Command::new("mkfifo").arg(path).status().ok()?;
        status.success().then_some(())
    }

    fn scratch(name: &str) -> PathBuf {
        let folder = std::env::temp_dir().join(format!("output-target-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        folder
    }

    #[test]
    fn a_regular_file_is_replaced_and_a_new_path_created() {
        let folder = scratch("regular");
        let path = folder.join("out.csv");
        write_output(&path, b"one\n").unwrap();
        write_output(&path, b"two\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two\n");
        std::fs::remove_dir_all(folder).unwrap();
    }

    #[test]
    fn a_fifo_is_streamed_into_and_stays_a_fifo() {
        let folder = scratch("fifo");
        let fifo = folder.join("pipe");
        if make_fifo(&fifo).is_none() {
            eprintln!("mkfifo is missing: skipped");
            return;
        }
        let reader_path = fifo.clone();
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            File::open(reader_path).unwrap().read_to_string(&mut text).unwrap();
            text
        });
        write_output(&fifo, b"through the pipe\n").unwrap();
        assert_eq!(reader.join().unwrap(), "through the pipe\n");
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        std::fs::remove_dir_all(folder).unwrap();
    }

    /// `/proc/self/fd/N` (what `/dev/stderr` and `/dev/fd/N` lead to) of a pipe: a link
    /// whose target, `pipe:[N]`, is no path; it was taken for a missing file (exit 2).
    #[test]
    fn a_pipe_named_by_its_descriptor_is_streamed_into() {
        use std::io::Read;
        use std::os::fd::AsRawFd;
        let Ok(mut child) = std::process::Command::new("cat")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
        else {
            eprintln!("cat is missing: skipped");
            return;
        };
        let stdin = child.stdin.take().unwrap();
        let named = PathBuf::from(format!("/proc/self/fd/{}", stdin.as_raw_fd()));
        assert_eq!(OutputTarget::of(&named).unwrap(), OutputTarget::Stream(named.clone()));
        write_output(&named, b"through the descriptor\n").unwrap();
        drop(stdin);
        let mut text = String::new();
        child.stdout.take().unwrap().read_to_string(&mut text).unwrap();
        child.wait().unwrap();
        assert_eq!(text, "through the descriptor\n");
    }

    #[test]
    fn dev_null_stays_a_character_device() {
        write_output(Path::new("/dev/null"), b"nothing\n").unwrap();
        assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
    }

    #[test]
    fn a_symlink_stays_a_link_and_its_target_gets_the_content() {
        let folder = scratch("symlink");
        let target = folder.join("real.csv");
        std::fs::write(&target, b"old\n").unwrap();
        let link = folder.join("link.csv");
        std::os::unix::fs::symlink("real.csv", &link).unwrap();
        write_output(&link, b"new\n").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new\n");
        std::fs::remove_dir_all(folder).unwrap();
    }

    #[test]
    fn a_dangling_symlink_creates_its_target() {
        let folder = scratch("dangling");
        let link = folder.join("link.csv");
        std::os::unix::fs::symlink("made.csv", &link).unwrap();
        write_output(&link, b"made\n").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(folder.join("made.csv")).unwrap(), b"made\n");
        std::fs::remove_dir_all(folder).unwrap();
    }

    #[test]
    fn a_directory_is_refused_with_its_name() {
        let folder = scratch("directory");
        let error = write_output(&folder, b"x").unwrap_err().to_string();
        assert!(error.contains("directory") && error.contains(&folder.display().to_string()), "{error}");
        std::fs::remove_dir_all(folder).unwrap();
    }
}
