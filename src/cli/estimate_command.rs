//! `estimate`: Knuth's random-probe estimate of the tree size and search time.

use super::output::{format_count, format_duration};
use super::{EstimateArgs, Failure};
use crate::instance;
use crate::probe::estimate_instance;
use crate::puzzles::knobs::KnobValues;
use std::io::Write;

/// Runs `estimate` with the parsed flags and knob values.
pub fn run(args: &EstimateArgs, knobs: KnobValues) -> Result<(), Failure> {
    let instance = instance::load(&args.instance).map_err(Failure::bad_input)?;
    if args.probes == 0 {
        return Err(Failure::bad_input("--probes must be at least 1"));
    }
    let estimates =
        estimate_instance(&instance, &knobs, args.probes, args.seed, args.compare).map_err(Failure::bad_input)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        let text = serde_json::to_string_pretty(&estimates).map_err(Failure::failed)?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    writeln!(out, "{} probes per component, seed {}", args.probes, args.seed)?;
    writeln!(
        out,
        "{:<22} {:>16} {:>10} {:>12} {:>14} {:>16} {:>8}",
        "component", "estimated nodes", "± s.e.", "ns/node", "est. time", "actual nodes", "ratio"
    )?;
    for estimate in &estimates {
        let (actual, ratio) = match estimate.actual_nodes {
            Some(actual) => (format_count(actual), format!("{:.2}", estimate.estimated_nodes / actual.max(1) as f64)),
            None => ("-".to_string(), "-".to_string()),
        };
        writeln!(
            out,
            "{:<22} {:>16} {:>10} {:>12.1} {:>14} {:>16} {:>8}",
            estimate.name,
            format_count(estimate.estimated_nodes.round() as u64),
            format_count(estimate.standard_error.round() as u64),
            estimate.ns_per_node,
            format_duration(estimate.estimated_ns as u64),
            actual,
            ratio
        )?;
    }
    Ok(())
}
