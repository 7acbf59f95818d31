//! A command's failure: the message printed and the documented exit code.
//!
//! Every code the tool can give: 0 success (and `--help`, `--version`, a closed pipe); 1
//! [`EXIT_FAILURE`]; 2 [`EXIT_BAD_INPUT`] (clap's usage errors too); 130
//! [`EXIT_INTERRUPTED`]; and 101, which Rust's runtime gives after a panic, that is a bug (a
//! sweep catches a run's panic and records it). The long help (`args.rs`) and the README
//! list the same.

use std::process::ExitCode;

/// Exit code for bad input: flags, instance files, knob values.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for a failure while running (I/O, a failed sweep).
pub const EXIT_FAILURE: u8 = 1;
/// Exit code of a sweep stopped by Ctrl-C (128 + SIGINT, as shells report it).
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

    pub(super) fn report(self) -> ExitCode {
        if !self.message.is_empty() {
            eprintln!("{}: error: {}", crate::run::program_name(), self.message);
        }
        ExitCode::from(self.code)
    }
}

impl From<std::io::Error> for Failure {
    /// A closed pipe (`| head`) is not an error: stop quietly with success.
    fn from(error: std::io::Error) -> Failure {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            Failure { message: String::new(), code: 0 }
        } else {
            Failure::failed(error)
        }
    }
}
