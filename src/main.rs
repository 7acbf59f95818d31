//! The `backtrack-bench` command: the workbench with its built-in families, under its own
//! name; parses the command line and dispatches (`Workbench::run_cli`).

fn main() -> std::process::ExitCode {
    backtrack_bench::Workbench::new().run_cli()
}
