//! The workbench's command line with a family that has a bug on purpose (its `fault` knob:
//! `apply`, `branch`, `undo`, `solution`, `max-depth`, `non-replayable`; see
//! `tests/broken_model/mod.rs`), to see how the tool reports a model's bug:
//! `cargo run --example broken_model -- solve 10 --fault apply --parallel steal --threads 2`
//! stops on both threads and exits with code 3 and one message naming the family, the
//! component and the moves that led to the node where the model panicked.

#[path = "../tests/broken_model/mod.rs"]
mod broken_model;

use backtrack_bench::Workbench;
use broken_model::BrokenQueens;

fn main() -> std::process::ExitCode {
    // As the crate's own binary does: a panic outside a run (here, the model's panic in
    // `estimate`, which is not caught) prints one line.
    backtrack_bench::cli::report_panics_as_bugs();
    Workbench::new().family::<BrokenQueens>().run_cli()
}
