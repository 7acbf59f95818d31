//! `note!`: a line on standard error that a closed standard error cannot turn into a panic.
//!
//! `eprintln!` panics when the write fails: with standard error a pipe whose reader left
//! (`2>&1 | head -1`) or closed (`2>&-`), a progress line or a note stopped a sweep halfway
//! with exit code 101, its remaining runs lost. The lines written here are messages to a
//! person; the results go to files, so a line nobody can read is dropped and the work goes
//! on (errors still set the exit code).

/// Writes one line to standard error as `eprintln!` does, ignoring a failed write.
macro_rules! note {
    ($($argument:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($argument)*);
    }};
}

pub(crate) use note;
