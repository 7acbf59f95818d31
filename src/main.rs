//! The `backtrack-bench` command: parses the command line and dispatches (see `cli`).

fn main() -> std::process::ExitCode {
    report_bugs_in_one_line();
    backtrack_bench::cli::main()
}

/// A panic that reaches this hook is a bug in the tool: a family's panic during a run is
/// caught before it gets here and reported as the run's error (exit code 3). Rust's own
/// hook prints two lines and a hint about backtraces; this prints one line that says what
/// it is (and the backtrace when `RUST_BACKTRACE` asks for it). The exit code stays 101.
fn report_bugs_in_one_line() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("a panic without a message");
        let location = info.location().map(|location| format!(" at {location}")).unwrap_or_default();
        eprintln!("backtrack-bench: internal error (a bug, please report it): panicked{location}: {message}");
        let backtrace = std::backtrace::Backtrace::capture();
        if backtrace.status() == std::backtrace::BacktraceStatus::Captured {
            eprintln!("{backtrace}");
        }
    }));
}
