//! The `backtrack-bench` command: parses the command line and dispatches (see `cli`).

fn main() -> std::process::ExitCode {
    backtrack_bench::cli::report_panics_as_bugs();
    backtrack_bench::cli::main()
}
