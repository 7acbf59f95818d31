//! `run-part`: search one part of a split search and write its file.

use super::args::RunPartArgs;
use super::failure::Failure;
use crate::cluster;
use crate::format;
use crate::stderr_line::note;
use std::io::Write;
use std::time::Duration;

/// Runs `run-part` with the parsed flags.
pub fn run(args: &RunPartArgs) -> Result<(), Failure> {
    let part = cluster::part_from_environment(args.part).map_err(Failure::from)?;
    let options = cluster::PartOptions { threads: args.threads, exchange: Duration::from_millis(args.exchange_ms) };
    let run = cluster::run_part(&args.dir, part, options).map_err(Failure::from)?;
    if let Some(warning) = &run.warning {
        note!("warning: part {part}: could not publish its incumbent to the other parts: {warning}");
    }
    for ignored in &run.ignored {
        note!("warning: part {part}: ignored an incumbent file (merge will refuse it): {ignored}");
    }
    let file = run.file;
    let nodes: u64 = file.components.iter().map(|share| share.counts.nodes).sum();
    writeln!(
        std::io::stdout().lock(),
        "part {part} of {}: {}, {}, {:.3} s on {} -> {}",
        file.part_count,
        format::counted(file.subproblems.len() as u64, "subproblem", "subproblems"),
        format::counted(nodes, "node", "nodes"),
        file.wall_ns as f64 / 1e9,
        file.host,
        cluster::plan::part_path(&args.dir, part).display()
    )?;
    Ok(())
}
