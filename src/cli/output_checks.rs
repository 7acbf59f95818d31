//! Checks of the output files a command is given, made before it runs: a search or a round
//! of measurements may take minutes, and an output found wrong after them wastes them.

use super::failure::Failure;
use crate::files::atomic_write::{folder_of, probe_writable};
use crate::harness::storing::output_target::OutputTarget;
use std::path::Path;

/// Refuses an output that is the instance file itself (after symlinks): the run would
/// replace its own input with what it wrote. `named` says which output, as the user gave it
/// (`--profile out.csv`, `--out r.md: its plot r.svg`).
pub fn refuse_the_instance(named: &str, output: &Path, instance: &str) -> Result<(), Failure> {
    let (Ok(output_file), Ok(instance_file)) = (std::fs::canonicalize(output), std::fs::canonicalize(instance)) else {
        return Ok(());
    };
    if output_file == instance_file && instance_file.is_file() {
        return Err(Failure::bad_input(format!(
            "{named} is the instance file {instance}: the run would replace its input; name another file"
        )));
    }
    Ok(())
}

/// Refuses an output written whole after the run (a profile, a report, a plot) where this
/// process cannot make a file in the folder it goes to: found after the run, the error
/// came when the run's results could no longer be printed (exit 1, nothing shown). The
/// probe makes the temporary file the write itself would make, and removes it. A FIFO or
/// a device is streamed into, not probed; a folder that does not exist is the command's to
/// make or refuse. A file already there that this user may not write (read-only, or
/// another user's) is refused too: replacing it needs only the folder's permission, which
/// would let the command overwrite what `>` or `cp` would not.
pub fn refuse_unwritable(named: &str, output: &Path) -> Result<(), Failure> {
    let Ok(OutputTarget::Replace(resolved)) = OutputTarget::of(output) else {
        return Ok(());
    };
    if resolved.is_file() && !may_write(&resolved) {
        return Err(Failure::bad_input(format!(
            "{named}: {} is not writable by this user (read-only, or another user's): make it writable or name \
             another file",
            resolved.display()
        )));
    }
    let folder = folder_of(&resolved);
    if !folder.is_dir() {
        return Ok(());
    }
    let name = resolved.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    probe_writable(folder, &name).map_err(|error| {
        // A folder that exists yet answers "not found" to a new file is a virtual one (/proc,
        // /sys): the kernel's own words would have the user look for a missing folder.
        let why = if error.kind() == std::io::ErrorKind::NotFound {
            format!("the folder takes no new files, as /proc and /sys do not (the system answered: {error})")
        } else {
            error.to_string()
        };
        Failure::bad_input(format!("{named}: cannot write a file in {}: {why}", folder.display()))
    })
}

/// Whether this process may write `file`, as the kernel judges it for its real user (the
/// permission bits, the owner, and root's override alike).
fn may_write(file: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(name) = std::ffi::CString::new(file.as_os_str().as_bytes()) else { return true };
    // SAFETY: `name` is a NUL-terminated string that lives across the call.
    unsafe { libc::access(name.as_ptr(), libc::W_OK) == 0 }
}

/// Refuses a plot name that is a FIFO or a device beside an output written whole (`named`,
/// as the user gave it): the plot is written whole too, and a FIFO would hold the command
/// after the run until something read it.
pub fn refuse_streamed_plot(named: &str, plot: &Path) -> Result<(), Failure> {
    match OutputTarget::of(plot) {
        Ok(OutputTarget::Stream(_) | OutputTarget::Stdout | OutputTarget::Stderr) => Err(Failure::bad_input(format!(
            "{named}: its plot {} is a FIFO, a device or the standard output's or error's file; a plot is written \
             whole beside its file: remove it or name another file",
            plot.display()
        ))),
        _ => Ok(()),
    }
}
