//! `solve --solutions FILE`: every solution of the run, one JSON line each, streamed while
//! the search runs. A regular FILE (or a new one) is written to a temporary file beside it
//! and renamed to FILE only once the run and every write have succeeded, so FILE is whole
//! or absent (an earlier FILE stays as it was when the run fails). A FIFO, a character
//! device, `-` or `/dev/stdout` is written into directly (another program reads it; it is
//! never replaced), and a symlink is followed to the file it points to. Ctrl-C while the
//! temporary file is open removes it before the process exits (130): FILE stays as it was.
//! SIGTERM and SIGHUP (`kill`, `timeout`, a batch system's time limit, a closed terminal)
//! remove it too, and the process then ends by that signal, as it would have.

use super::failure::{Failure, EXIT_INTERRUPTED};
use crate::files::atomic_write::{create_replacement, folder_of};
use crate::harness::storing::output_target::OutputTarget;
use crate::run::SolutionStream;
use std::ffi::{c_char, c_int, CStr, CString, OsStr};
use std::fs::File;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::OnceLock;

/// The temporary file being written, for the Ctrl-C, SIGTERM and SIGHUP handlers to
/// remove: one per process (`solve` writes one solutions file). A C string behind an atomic
/// pointer because a signal handler may not take a lock or allocate, only read this pointer
/// and call `unlink`; each string is leaked (one or two a process), so a handler never
/// reads a freed one.
static PENDING: AtomicPtr<c_char> = AtomicPtr::new(std::ptr::null_mut());

/// Names `temporary` (or none) as the file a stopping signal removes, installing the
/// handlers the first time. Without them, an interrupted run left `.FILE.PID-N.tmp` beside
/// FILE. Where one cannot be installed, the run goes on, and that signal leaves the
/// temporary file behind as a kill does.
fn set_pending(temporary: Option<&Path>) {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    let name = temporary.and_then(|path| CString::new(path.as_os_str().as_encoded_bytes()).ok());
    PENDING.store(name.map_or(std::ptr::null_mut(), CString::into_raw), Ordering::SeqCst);
    if temporary.is_some() {
        INSTALLED.get_or_init(|| {
            let _ = ctrlc::set_handler(|| {
                let pending = PENDING.swap(std::ptr::null_mut(), Ordering::SeqCst);
                if !pending.is_null() {
                    // SAFETY: a leaked, NUL-terminated string (above), never freed.
                    let name = unsafe { CStr::from_ptr(pending) };
                    let _ = std::fs::remove_file(OsStr::from_bytes(name.to_bytes()));
                }
                // Written, not `eprintln!`ed: a closed standard error must not stop the exit.
                let note = format!("\n{}: stopped by Ctrl-C; no solutions file written\n", crate::run::program_name());
                let _ = std::io::Write::write_all(&mut std::io::stderr(), note.as_bytes());
                std::process::exit(i32::from(EXIT_INTERRUPTED));
            });
            for signal in [libc::SIGTERM, libc::SIGHUP] {
                // SAFETY: the handler calls only async-signal-safe functions (unlink,
                // signal, raise) and reads an atomic pointer to a string never freed.
                unsafe { libc::signal(signal, remove_pending_and_end as *const () as libc::sighandler_t) };
            }
        });
    }
}

/// The SIGTERM and SIGHUP handler: removes the temporary file, then ends the process by the
/// same signal under its default action (exit status 143 or 129, as without the handler).
extern "C" fn remove_pending_and_end(signal: c_int) {
    let pending = PENDING.swap(std::ptr::null_mut(), Ordering::SeqCst);
    // SAFETY: `pending` is null or a leaked, NUL-terminated string; unlink, signal and
    // raise are async-signal-safe.
    unsafe {
        if !pending.is_null() {
            libc::unlink(pending);
        }
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// Where the solutions of a run are being written.
pub struct SolutionsFile {
    /// FILE as the user named it, for messages.
    path: PathBuf,
    /// The temporary file and the resolved FILE it is renamed to; `None` when streaming
    /// into a FIFO, a device or standard output.
    replaced: Option<Replaced>,
}

/// A temporary file renamed over its final path once whole.
struct Replaced {
    temporary: PathBuf,
    destination: PathBuf,
    file: File,
}

impl SolutionsFile {
    /// Opens what `path` names (a temporary file beside a regular file, or the FIFO,
    /// device or standard output itself), and the stream that writes into it.
    pub fn create(path: &Path) -> Result<(SolutionsFile, SolutionStream), Failure> {
        let cannot = |error: std::io::Error| Failure::bad_input(format!("--solutions {}: {error}", path.display()));
        let target = OutputTarget::of(path).map_err(|error| Failure::bad_input(format!("--solutions {error}")))?;
        if let Some(stream) = target.open_stream().map_err(cannot)? {
            return Ok((SolutionsFile { path: path.to_path_buf(), replaced: None }, SolutionStream::new(stream)));
        }
        let OutputTarget::Replace(destination) = target else { unreachable!("only a replaced file has no stream") };
        let folder = folder_of(&destination);
        // The folder named as `--profile` names it: the folder of the file a symlink leads
        // to, as a dangling link's folder may be the missing one.
        if !folder.is_dir() {
            return Err(Failure::bad_input(format!(
                "--solutions {}: the folder {} does not exist; create it first or name a file in an existing folder",
                path.display(),
                folder.display()
            )));
        }
        if destination.file_name().is_none() {
            return Err(Failure::bad_input(format!(
                "--solutions {}: name a file in an existing folder",
                path.display()
            )));
        }
        let (temporary, file) = create_replacement(&destination).map_err(cannot)?;
        let writer = file.try_clone().map_err(|error| {
            let _ = std::fs::remove_file(&temporary);
            cannot(error)
        })?;
        let stream = SolutionStream::new(Box::new(writer));
        set_pending(Some(&temporary));
        let replaced = Replaced { temporary, destination, file };
        Ok((SolutionsFile { path: path.to_path_buf(), replaced: Some(replaced) }, stream))
    }

    /// Flushes `stream`; for a regular file, syncs it and renames it to its name. Returns
    /// the lines written.
    pub fn commit(self, stream: SolutionStream) -> Result<u64, Failure> {
        let lines = stream.finish();
        let result = match &self.replaced {
            None => lines,
            Some(replaced) => lines
                .and_then(|lines| replaced.file.sync_all().map(|()| lines))
                .and_then(|lines| std::fs::rename(&replaced.temporary, &replaced.destination).map(|()| lines)),
        };
        set_pending(None);
        result.map_err(|error| {
            self.remove_temporary();
            if self.replaced.is_none() && error.kind() == std::io::ErrorKind::BrokenPipe {
                // A reader that went away (`--solutions - | head`): stop quietly with
                // success, as every command does on a closed pipe.
                return Failure::from(error);
            }
            Failure::failed(format!("--solutions {}: {error}", self.path.display()))
        })
    }

    /// Removes the temporary file (the run failed); a stream keeps what it was sent.
    pub fn abandon(self) {
        self.remove_temporary();
    }

    fn remove_temporary(&self) {
        if let Some(replaced) = &self.replaced {
            set_pending(None);
            let _ = std::fs::remove_file(&replaced.temporary);
        }
    }
}
