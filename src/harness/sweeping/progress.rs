//! The sweep's progress bar: expected work done out of expected work planned, with an ETA.
//!
//! The work is in expected nanoseconds ([`super::work_estimate`]): runs range from
//! microseconds to seconds, so a bar over run counts would say little. The runner only stores
//! a few numbers and a label between runs; a poller thread copies them into the bar a few
//! times a second (interpolating through the run in progress), so neither the search nor the
//! runner ever waits on the terminal. The bar draws only when stderr is a terminal; then,
//! unless quiet, one plain line per configuration goes to stderr instead.

use crate::stderr_line::note;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the poller refreshes the bar.
const POLL_INTERVAL: Duration = Duration::from_millis(250);

/// The bar counts work in these units (milliseconds of expected time).
const UNIT_NS: u64 = 1_000_000;

/// Progress over a sweep's expected work.
pub struct Progress {
    bar: ProgressBar,
    shared: Arc<ProgressState>,
    poller: Option<JoinHandle<()>>,
    quiet: bool,
}

/// What the sweep loop and the bar's poller thread share.
struct ProgressState {
    done_ns: AtomicU64,
    remaining_ns: AtomicU64,
    current_run_ns: AtomicU64,
    current_run_started: Mutex<Instant>,
    label: Mutex<String>,
    finished: AtomicBool,
}

impl Progress {
    /// Whether a bar would be drawn (not quiet, stderr a terminal): only then is the work
    /// worth estimating.
    pub fn would_draw(quiet: bool) -> bool {
        !quiet && std::io::stderr().is_terminal()
    }

    /// Starts a bar over `remaining_ns` of expected work (hidden when it would not draw).
    pub fn start(remaining_ns: u64, quiet: bool) -> Progress {
        let visible = Progress::would_draw(quiet);
        let bar = if visible {
            ProgressBar::with_draw_target(Some((remaining_ns / UNIT_NS).max(1)), ProgressDrawTarget::stderr_with_hz(4))
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {percent:>3}% of the expected work, {msg}")
                .expect("the template is valid")
                .progress_chars("=> "),
        );
        let shared = Arc::new(ProgressState {
            done_ns: AtomicU64::new(0),
            remaining_ns: AtomicU64::new(remaining_ns),
            current_run_ns: AtomicU64::new(0),
            current_run_started: Mutex::new(Instant::now()),
            label: Mutex::new(String::new()),
            finished: AtomicBool::new(false),
        });
        let poller = visible.then(|| {
            let (bar, shared) = (bar.clone(), Arc::clone(&shared));
            std::thread::spawn(move || {
                while !shared.finished.load(Ordering::Relaxed) {
                    shared.draw(&bar);
                    // Parked rather than asleep: `stop` unparks it, so a sweep that ends
                    // (or is interrupted) does not wait out the interval.
                    std::thread::park_timeout(POLL_INTERVAL);
                }
            })
        });
        Progress { bar, shared, poller, quiet }
    }

    /// Names the configuration now running.
    pub fn set_label(&self, label: &str) {
        if let Ok(mut current) = self.shared.label.lock() {
            label.clone_into(&mut current);
        }
    }

    /// A run expected to take `expected_ns` starts now.
    pub fn run_starting(&self, expected_ns: u64) {
        self.shared.current_run_ns.store(expected_ns, Ordering::Relaxed);
        if let Ok(mut started) = self.shared.current_run_started.lock() {
            *started = Instant::now();
        }
    }

    /// The work done so far and the expected work left (the run about to start included).
    pub fn set_work(&self, done_ns: u64, remaining_ns: u64) {
        self.shared.done_ns.store(done_ns, Ordering::Relaxed);
        self.shared.remaining_ns.store(remaining_ns, Ordering::Relaxed);
        self.shared.current_run_ns.store(0, Ordering::Relaxed);
    }

    /// Prints a line above the bar, or to stderr when there is no bar (unless quiet).
    pub fn log(&self, line: &str) {
        if self.poller.is_some() {
            self.bar.println(line);
        } else if !self.quiet {
            note!("{line}");
        }
    }

    /// Stops the poller and clears the bar.
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        self.shared.finished.store(true, Ordering::Relaxed);
        if let Some(poller) = self.poller.take() {
            poller.thread().unpark();
            let _ = poller.join();
            self.bar.finish_and_clear();
        }
    }
}

impl ProgressState {
    /// Copies the runner's numbers into the bar, counting the run in progress as done up to
    /// its expected time.
    fn draw(&self, bar: &ProgressBar) {
        let done = self.done_ns.load(Ordering::Relaxed);
        let remaining = self.remaining_ns.load(Ordering::Relaxed);
        let current = self.current_run_ns.load(Ordering::Relaxed);
        let running_for = self.current_run_started.lock().map_or(0, |started| started.elapsed().as_nanos() as u64);
        let into_run = running_for.min(current);
        let left = remaining.saturating_sub(into_run);
        bar.set_length(((done + remaining) / UNIT_NS).max(1));
        bar.set_position((done + into_run) / UNIT_NS);
        let label = self.label.lock().map(|label| label.clone()).unwrap_or_default();
        bar.set_message(format!("ETA {}  {label}", eta_text(left)));
    }
}

/// `1h 02m`, `3m 05s`, `12s`.
fn eta_text(nanoseconds: u64) -> String {
    let seconds = nanoseconds.div_ceil(1_000_000_000);
    match seconds {
        0..60 => format!("{seconds}s"),
        60..3600 => format!("{}m {:02}s", seconds / 60, seconds % 60),
        _ => format!("{}h {:02}m", seconds / 3600, seconds / 60 % 60),
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eta_reads_in_the_largest_units() {
        assert_eq!(eta_text(0), "0s");
        assert_eq!(eta_text(12_300_000_000), "13s");
        assert_eq!(eta_text(185_000_000_000), "3m 05s");
        assert_eq!(eta_text(3_720_000_000_000), "1h 02m");
    }
}
