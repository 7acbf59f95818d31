//! `watch`: animate a search in the terminal; plain frames when stdout is not one.

use super::args::WatchArgs;
use super::failure::Failure;
use crate::format;
use crate::knobs::KnobValues;
use crate::run;
use crate::run::instance;
use crate::watch::WatchOptions;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

const HIDE_CURSOR: &str = "\x1b[?25l";
const SHOW_CURSOR: &str = "\x1b[?25h";

/// Shows the cursor again however the session ends (normally, by Ctrl-C, by a panic).
struct CursorGuard(bool);

impl Drop for CursorGuard {
    fn drop(&mut self) {
        if self.0 {
            let mut out = std::io::stdout();
            let _ = write!(out, "{SHOW_CURSOR}");
            let _ = out.flush();
        }
    }
}

/// Runs `watch` with the parsed flags and knob values.
pub fn run(args: &WatchArgs, knobs: KnobValues) -> Result<(), Failure> {
    let instance = instance::load(&args.instance)?;
    if !(0.1..=4.0).contains(&args.aspect) {
        // `{:?}`: 1e-300 as written, not as 300 digits.
        return Err(Failure::bad_input(format!("--aspect {:?} is out of range; use 0.1 to 4.0", args.aspect)));
    }
    if !(2..=40).contains(&args.radius) {
        return Err(Failure::bad_input(format!("--radius {} is out of range; use 2 to 40", args.radius)));
    }
    // NO_COLOR (no-color.org) and a dumb terminal ask for no colour codes: plain frames.
    let no_colour = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty())
        || std::env::var_os("TERM").is_some_and(|term| term == "dumb");
    let terminal = std::io::stdout().is_terminal() && !args.plain && !no_colour;
    let options = WatchOptions {
        delay: Duration::from_millis(if terminal { args.delay } else { 0 }),
        max_steps: args.max_steps,
        radius: args.radius,
        aspect: args.aspect,
        terminal,
        terminal_size: if terminal { terminal_size() } else { None },
    };
    let stop = Arc::new(AtomicBool::new(false));
    let handler_flag = Arc::clone(&stop);
    // A second Ctrl-C while stopping ends the process at once: the cursor is shown by a
    // write to the descriptor itself, as `std::io::stdout()` would wait for the lock that
    // the search's thread holds for the whole run (forever, in a model that never returns).
    let _ = ctrlc::set_handler(move || {
        if handler_flag.swap(true, Ordering::Relaxed) {
            // SAFETY: writes the bytes of a static string to the standard output descriptor.
            let _ = unsafe { libc::write(libc::STDOUT_FILENO, SHOW_CURSOR.as_ptr().cast(), SHOW_CURSOR.len()) };
            std::process::exit(i32::from(super::failure::EXIT_INTERRUPTED));
        }
    });
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _guard = CursorGuard(terminal);
    if terminal {
        write!(out, "{HIDE_CURSOR}")?;
    }
    let summary = run::watch(&instance, &knobs, &options, &mut out, &stop)??;
    let ending = if summary.interrupted {
        " (interrupted)".to_string()
    } else if summary.stopped_by_max_steps {
        format!(" (stopped by --max-steps {}: the search was not finished)", args.max_steps)
    } else {
        String::new()
    };
    let frames = format::counted(summary.frames as u64, "frame", "frames");
    let nodes = format::counted(summary.nodes, "node", "nodes");
    let solutions = format::counted(summary.solutions, "solution", "solutions");
    writeln!(out, "{frames}, {nodes}, {solutions}{ending}")?;
    if summary.interrupted {
        // Like an interrupted sweep: the conventional code of a process ended by SIGINT.
        return Err(Failure { message: String::new(), code: super::failure::EXIT_INTERRUPTED });
    }
    Ok(())
}

/// The terminal's size (columns, rows) on stdout; `None` when it cannot be read.
fn terminal_size() -> Option<(usize, usize)> {
    // SAFETY: `winsize` is plain old data for which all-zero bytes are a valid value.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    // SAFETY: TIOCGWINSZ on the stdout descriptor writes only into the `winsize` we pass.
    let read = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) };
    (read == 0 && size.ws_col > 0 && size.ws_row > 0).then(|| (usize::from(size.ws_col), usize::from(size.ws_row)))
}
