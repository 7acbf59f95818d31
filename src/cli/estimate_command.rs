//! `estimate`: Knuth's random-probe estimate of the tree size and search time.

use super::args::EstimateArgs;
use super::failure::Failure;
use crate::format;
use crate::knobs::KnobValues;
use crate::run::instance;
use crate::run::{self, EstimateRequest};
use crate::search::EstimateMethod;
use std::io::Write;
use std::time::Duration;

/// The most probes per component (more only narrow the estimate by their square root);
/// `--time-limit` bounds their time.
pub const MAX_PROBES: usize = 10_000_000;

/// The longest `--time-limit`: a day.
const MAX_TIME_LIMIT_SECONDS: f64 = 86_400.0;

/// Runs `estimate` with the parsed flags and knob values.
pub fn run(args: &EstimateArgs, knobs: KnobValues) -> Result<(), Failure> {
    let instance = instance::load(&args.instance)?;
    if args.probes == 0 || args.probes > MAX_PROBES {
        return Err(Failure::bad_input(format!(
            "--probes {}: expected 1 to {MAX_PROBES} probes per component (the default, 1,000, gives an estimate \
             within a few percent on most trees; more probes only narrow it by their square root)",
            args.probes
        )));
    }
    // A limit under a nanosecond is refused too: as a duration it is 0, no limit to report.
    let in_range = args.time_limit > 0.0 && args.time_limit <= MAX_TIME_LIMIT_SECONDS;
    let Some(time_limit) = in_range.then(|| Duration::from_secs_f64(args.time_limit)).filter(|limit| !limit.is_zero())
    else {
        return Err(Failure::bad_input(format!(
            "--time-limit {}: expected a nanosecond or more and at most {MAX_TIME_LIMIT_SECONDS} seconds",
            args.time_limit
        )));
    };
    let request = EstimateRequest {
        probes: args.probes,
        seed: args.seed,
        compare: args.compare,
        method: args.method,
        time_limit: Some(time_limit),
    };
    let estimates = run::estimate(&instance, &knobs, &request)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        let settings = serde_json::json!({
            "instance": instance.id,
            "probes": args.probes,
            "seed": args.seed,
            "method": args.method.to_string(),
            "components": estimates,
        });
        let text = serde_json::to_string_pretty(&settings).map_err(Failure::failed)?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    writeln!(out, "{} probes per component, seed {}, method {}", args.probes, args.seed, args.method)?;
    writeln!(
        out,
        "{:<22} {:>12} {:>12} {:>16} {:>10} {:>10} {:>12} {:>16} {:>12} {:>8}",
        "component",
        "probe time",
        "exact depth",
        "estimated nodes",
        "± s.e.",
        "ns/node",
        "est. time",
        "actual nodes",
        "actual time",
        "ratio"
    )?;
    for estimate in &estimates {
        let (actual, actual_time, ratio) = match (estimate.actual_nodes, estimate.actual_ns) {
            (Some(actual), Some(nanoseconds)) => (
                format::count(actual),
                format::duration_ns(nanoseconds),
                format!("{:.2}", estimate.estimated_nodes / actual.max(1) as f64),
            ),
            _ => ("-".to_string(), "-".to_string(), "-".to_string()),
        };
        writeln!(
            out,
            "{:<22} {:>12} {:>12} {:>16} {:>10} {:>10.1} {:>12} {:>16} {:>12} {:>8}",
            estimate.name,
            format::duration_ns(estimate.estimate_ns),
            // Only the stratified method counts levels exactly; the others probe from the root.
            match args.method {
                EstimateMethod::Stratified => format!("{} ({})", estimate.exact_depth, estimate.subtrees),
                _ => "-".to_string(),
            },
            // Estimates of a huge tree pass 64 bits (cast, they read as 18,446,744,...,615).
            format::large_count(estimate.estimated_nodes),
            format::large_count(estimate.standard_error),
            estimate.ns_per_node,
            format::duration(estimate.estimated_ns),
            actual,
            actual_time,
            ratio
        )?;
    }
    if estimates.iter().any(|estimate| estimate.exact_depth > 0) {
        writeln!(
            out,
            "exact depth: levels counted exactly (and the subtrees below them that the probes were spread over; \
             0 subtrees: the whole tree was counted)"
        )?;
    }
    if estimates.iter().any(|estimate| estimate.bound_ignored) {
        writeln!(
            out,
            "objective: the probes keep no incumbent, so the estimate is of the tree without the bound's cuts; \
             a branch and bound (and --compare's search) cuts it, often to far fewer nodes"
        )?;
    }
    Ok(())
}
