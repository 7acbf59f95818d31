//! A command's failure: the message printed and the documented exit code.
//!
//! Every code the tool can give: 0 success (and `--help`, `--version`, a closed pipe); 1
//! [`EXIT_FAILURE`]; 2 [`EXIT_BAD_INPUT`] (clap's usage errors too); 3
//! [`EXIT_MODEL_PANICKED`], a family's code panicked (in any command that runs it: the run
//! is stopped on every thread and the panic reported once); 130 [`EXIT_INTERRUPTED`]; and
//! 101, which Rust's runtime gives after any other panic, that is a bug (a sweep catches a
//! run's panic and records it; [`report_panics_as_bugs`] prints it in one line). The long
//! help (`args.rs`) and the README list the same.

use crate::cluster::{ClusterError, ClusterFailure};
use crate::run::{InstanceError, RunError};
use std::io::Write;
use std::process::ExitCode;

/// Exit code for bad input: flags, instance files, knob values.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for a failure while running (I/O, a failed sweep).
pub const EXIT_FAILURE: u8 = 1;
/// Exit code when the family's code (its model, or its puzzle reading the solutions)
/// panicked: a bug in the family, not in the input or the tool.
pub const EXIT_MODEL_PANICKED: u8 = 3;
/// Exit code of a sweep stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

/// A command's failure: the message printed and the exit code.
#[derive(Debug)]
pub struct Failure {
    pub(super) message: String,
    pub(super) code: u8,
}

impl Failure {
    /// Bad input (exit code 2).
    pub fn bad_input(message: impl std::fmt::Display) -> Failure {
        Failure { message: message.to_string(), code: EXIT_BAD_INPUT }
    }

    /// A failure while running (exit code 1).
    pub fn failed(message: impl std::fmt::Display) -> Failure {
        Failure { message: message.to_string(), code: EXIT_FAILURE }
    }

    /// Refuses `--out PATH` where PATH is there and is not a folder (bad input); a missing
    /// folder the command makes. `what` says what the folder holds.
    pub fn unless_out_folder(out: &std::path::Path, what: &str) -> Result<(), Failure> {
        if out.exists() && !out.is_dir() {
            return Err(Failure::bad_input(format!(
                "--out {}: is not a folder; name the {what} folder (made when missing)",
                out.display()
            )));
        }
        Ok(())
    }

    /// The family's code panicked (exit code 3); `message` names where, as `solve` does.
    pub fn model_panicked(message: impl std::fmt::Display) -> Failure {
        Failure { message: message.to_string(), code: EXIT_MODEL_PANICKED }
    }

    pub(super) fn report(self) -> ExitCode {
        if !self.message.is_empty() {
            // Not `eprintln!`: with standard error closed, the exit code still says why.
            let _ = writeln!(std::io::stderr(), "{}: error: {}", crate::run::program_name(), self.message);
        }
        ExitCode::from(self.code)
    }
}

/// Installs the process's panic hook, for a binary's `main`: a panic that reaches it is a
/// bug in the tool (a family's panic, in any command that runs the family's code, is
/// caught before it and reported as the run's error). Rust's own hook prints two lines and a hint
/// about backtraces; this prints one line that says what it is, with the backtrace only
/// when `RUST_BACKTRACE` asks for one. The exit code stays 101.
pub fn report_panics_as_bugs() {
    std::panic::set_hook(Box::new(|info| {
        let message = crate::parallel::panic_message(info.payload());
        let location = info.location().map(|location| format!(" at {location}")).unwrap_or_default();
        // Written, not `eprintln!`ed: with standard error closed, a panic inside the hook
        // would abort the process (exit 134) instead of leaving it with 101.
        let mut stderr = std::io::stderr().lock();
        let _ = writeln!(
            stderr,
            "{}: internal error (a bug, please report it): panicked{location}: {message}",
            crate::run::program_name()
        );
        let backtrace = std::backtrace::Backtrace::capture();
        if backtrace.status() == std::backtrace::BacktraceStatus::Captured {
            let _ = writeln!(stderr, "{backtrace}");
        }
    }));
}

impl From<RunError> for Failure {
    /// A model's panic is its own failure ([`EXIT_MODEL_PANICKED`]); every other reason a
    /// run could not start is in its input (knobs, data, thread count, terminal).
    fn from(error: RunError) -> Failure {
        let code = match error {
            RunError::ModelPanicked(_) | RunError::ModelContract(_) => EXIT_MODEL_PANICKED,
            // Not the input's fault: the work did not end in the time given.
            RunError::TimeLimit(_) => EXIT_FAILURE,
            _ => EXIT_BAD_INPUT,
        };
        Failure { message: error.to_string(), code }
    }
}

impl From<ClusterError> for Failure {
    /// A cluster layer error (`split`, `run-part`, `merge`, `explain --cluster`): exit 2
    /// for bad input, 3 for the family's panic, else 1.
    fn from(error: ClusterError) -> Failure {
        match error.kind {
            ClusterFailure::BadInput => Failure::bad_input(error.message),
            ClusterFailure::Failed => Failure::failed(error.message),
            ClusterFailure::ModelPanicked => Failure::model_panicked(error.message),
        }
    }
}

impl From<InstanceError> for Failure {
    /// The family's panic reading the instance is its own failure ([`EXIT_MODEL_PANICKED`]);
    /// anything else wrong with an instance is bad input.
    fn from(error: InstanceError) -> Failure {
        let code = match error {
            InstanceError::FamilyPanicked { .. } => EXIT_MODEL_PANICKED,
            _ => EXIT_BAD_INPUT,
        };
        Failure { message: error.to_string(), code }
    }
}

impl From<std::io::Error> for Failure {
    /// An I/O error a command passes on with `?` is its printing to standard output (every
    /// file it reads or writes maps its errors with the file's name), so the message names
    /// that stream, as `--help` does: alone, "No space left on device" left the user to
    /// guess which file was full. A closed pipe (`| head`) is not an error: stop quietly
    /// with success.
    fn from(error: std::io::Error) -> Failure {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            Failure { message: String::new(), code: 0 }
        } else {
            Failure::failed(format!("writing standard output: {error}"))
        }
    }
}
