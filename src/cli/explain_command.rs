//! `explain`: reruns a search sequentially and in parallel and ranks the measured causes
//! of lost time.

use super::parallel_args::ParallelArgs;
use super::Failure;
use crate::puzzles::knobs::KnobValues;
use clap::Args;

/// Flags of `explain`; the knob flags are added from the families' specs.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// Built-in short name (rings, prime-grid, hooks7, 247) or path to an instance file.
    #[arg(value_name = "INSTANCE")]
    pub instance: String,
    /// The parallel run to explain.
    #[command(flatten)]
    pub parallel: ParallelArgs,
}

/// Runs `explain`.
pub fn run(_args: &ExplainArgs, _knobs: KnobValues) -> Result<(), Failure> {
    Err(Failure::failed("explain is being built"))
}
