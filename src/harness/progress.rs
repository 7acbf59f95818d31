//! The sweep's progress bar: runs done out of runs planned, with an ETA.
//!
//! The runner only bumps a counter and swaps a label between runs; a poller thread copies
//! them into the bar a few times a second, so neither the search nor the runner ever waits
//! on the terminal. The bar draws only when stderr is a terminal (indicatif hides it
//! otherwise); then, unless quiet, one plain line per configuration goes to stderr instead.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the poller refreshes the bar.
const POLL_INTERVAL: Duration = Duration::from_millis(250);

/// Progress over a sweep's runs.
pub struct Progress {
    bar: ProgressBar,
    shared: Arc<Shared>,
    poller: Option<JoinHandle<()>>,
    quiet: bool,
}

struct Shared {
    done: AtomicU64,
    label: Mutex<String>,
    finished: AtomicBool,
}

impl Progress {
    /// Starts a bar over `total_runs` runs (hidden when `quiet` or stderr is no terminal).
    pub fn start(total_runs: u64, quiet: bool) -> Progress {
        let visible = !quiet && std::io::stderr().is_terminal();
        let bar = if visible {
            ProgressBar::with_draw_target(Some(total_runs), ProgressDrawTarget::stderr_with_hz(4))
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {pos}/{len} runs, ETA {eta}  {msg}")
                .expect("the template is valid")
                .progress_chars("=> "),
        );
        let shared = Arc::new(Shared {
            done: AtomicU64::new(0),
            label: Mutex::new(String::new()),
            finished: AtomicBool::new(false),
        });
        let poller = visible.then(|| {
            let (bar, shared) = (bar.clone(), Arc::clone(&shared));
            std::thread::spawn(move || {
                while !shared.finished.load(Ordering::Relaxed) {
                    bar.set_position(shared.done.load(Ordering::Relaxed));
                    if let Ok(label) = shared.label.lock() {
                        bar.set_message(label.clone());
                    }
                    std::thread::sleep(POLL_INTERVAL);
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

    /// Counts `runs` more runs as done (or skipped).
    pub fn advance(&self, runs: u64) {
        self.shared.done.fetch_add(runs, Ordering::Relaxed);
    }

    /// Prints a line above the bar, or to stderr when there is no bar (unless quiet).
    pub fn log(&self, line: &str) {
        if self.poller.is_some() {
            self.bar.println(line);
        } else if !self.quiet {
            eprintln!("{line}");
        }
    }

    /// Stops the poller and clears the bar.
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        self.shared.finished.store(true, Ordering::Relaxed);
        if let Some(poller) = self.poller.take() {
            let _ = poller.join();
            self.bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}
