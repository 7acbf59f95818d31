//! The workbench's command line with a family that has a bug on purpose (its `fault` knob:
//! `apply`, `branch`, `undo`, `solution`, `max-depth`, `non-replayable`, `remembers-nodes`,
//! `process-dependent` (a dead-end root where `BROKEN_MODEL_OTHER_PROCESS` is set); the puzzle's
//! `verify` and `answer-key` in the instance's data; see `tests/broken_model/mod.rs`), to
//! see how the tool reports a model's bug:
//! `cargo run --example broken_model -- solve 10 --fault apply --parallel steal --threads 2`
//! stops on both threads and exits with code 3 and one message naming the family, the
//! component and the moves that led to the node where the model panicked; every other
//! command that runs the model (`estimate`, `watch`, `split`, `run-part`, `merge`,
//! `explain`, `scaling-check`) does the same.
//!
//! With `BROKEN_MODEL_PANIC_IN_MAIN` set, `main` itself panics before any command runs: a
//! panic outside the family's code, which the binary's hook reports in one line as a bug of
//! the program (exit code 101).

#[path = "../tests/broken_model/mod.rs"]
mod broken_model;

use backtrack_bench::Workbench;
use broken_model::BrokenQueens;

fn main() -> std::process::ExitCode {
    // As the crate's own binary does: a panic outside the family's code prints one line.
    backtrack_bench::report_panics_as_bugs();
    if std::env::var_os("BROKEN_MODEL_PANIC_IN_MAIN").is_some() {
        panic!("a panic in the program's own code, asked for by BROKEN_MODEL_PANIC_IN_MAIN");
    }
    Workbench::new().family::<BrokenQueens>().run_cli()
}
