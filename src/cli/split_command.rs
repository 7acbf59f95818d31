//! `split`: list the frontier of one search, group its subproblems into N parts and write
//! the plan (docs/cluster.md).

use super::args::SplitArgs;
use super::failure::Failure;
use crate::cluster;
use crate::format;
use crate::knobs::KnobValues;
use crate::run::instance;
use crate::stderr_line::note;
use serde_json::json;
use std::io::Write;

/// Runs `split` with the parsed flags and knob values.
pub fn run(args: &SplitArgs, knobs: KnobValues) -> Result<(), Failure> {
    if args.first {
        return Err(Failure::bad_input(
            "split --first: a first-solution search is not split: which part finds the first solution, and how many \
             nodes the others spend meanwhile, depends on the schedule, so no merge could equal a sequential run; \
             split the whole search (--all), or run `solve --first` on one machine",
        ));
    }
    Failure::unless_out_folder(&args.out, "plan's")?;
    let instance = instance::load(&args.instance)?;
    let parts = usize::try_from(args.parts).unwrap_or(usize::MAX);
    let summary = cluster::split(&instance, &knobs, parts, args.incumbent, &args.out).map_err(Failure::from)?;
    let plan = &summary.plan;
    let above: u64 = plan.lister.iter().map(|share| share.counts.nodes).sum();
    let dir = args.out.display();
    // More parts than subproblems: the rest are empty, each a batch slot that runs nothing.
    let empty = plan.parts.iter().filter(|part| part.subproblems.is_empty()).count();
    if plan.subproblem_count == 0 {
        // The search ends above the frontier (the incumbent or the tree leaves nothing
        // under it): the parts run nothing, and there is no part count to advise.
        note!(
            "note: the frontier holds no subproblem: the listing searched the whole tree, and the {} part(s) \
             search nothing",
            plan.part_count
        );
    } else if empty > 0 {
        note!(
            "warning: {empty} of the {} parts have no subproblem (the frontier holds {}): they search nothing; \
             split into at most {} parts",
            plan.part_count,
            plan.subproblem_count,
            plan.part_count - empty
        );
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let value = json!({
            "plan": cluster::plan::plan_path(&args.out),
            "unchanged": summary.unchanged,
            "new_key": summary.new_key,
            "parts": plan.part_count,
            "subproblems": plan.subproblem_count,
            "depth": plan.depth,
            "nodes_above_frontier": above,
            "balance": plan.balance,
            "build": plan.tool.build,
            "objective": plan.objective,
        });
        writeln!(out, "{value}")?;
        return Ok(());
    }
    // A plan kept whose key was lost is signed anew: not "unchanged" (its old parts and
    // incumbent files no longer verify).
    let note = match (summary.unchanged, summary.new_key) {
        (true, false) => " (already there, unchanged)",
        (true, true) => " (already there; its key was missing: signed anew with a new key)",
        (false, _) => "",
    };
    writeln!(out, "plan: {dir}/plan.json{note}")?;
    writeln!(
        out,
        "{}, {} at depth {} ({} above the frontier, counted in the plan)",
        format::counted(plan.part_count as u64, "part", "parts"),
        format::counted(plan.subproblem_count as u64, "subproblem", "subproblems"),
        plan.depth,
        format::counted(above, "node", "nodes")
    )?;
    writeln!(
        out,
        "grouped by {}: largest part estimated at {} nodes (by estimate {}, round-robin {}; {} in all)",
        plan.balance.method,
        // The grouping chosen: the smaller prediction for a count, round-robin always for
        // branch and bound (whose estimates ignore the bound).
        estimated(match plan.balance.method.as_str() {
            "estimate" => plan.balance.estimate_max_part_nodes,
            _ => plan.balance.round_robin_max_part_nodes,
        }),
        estimated(plan.balance.estimate_max_part_nodes),
        estimated(plan.balance.round_robin_max_part_nodes),
        estimated(plan.balance.estimated_nodes)
    )?;
    if let Some(objective) = &plan.objective {
        let start = match objective.start.as_slice() {
            [Some(value)] => format!("starting from {value}"),
            [None] => "starting from none".to_string(),
            _ => "one per component".to_string(),
        };
        writeln!(
            out,
            "branch and bound ({}): the parts share an incumbent in {dir}/incumbent/ ({start}), each part published \
             at every improvement and read every {} ms (run-part --exchange-ms)",
            objective.sense,
            cluster::incumbent::EXCHANGE_INTERVAL.as_millis()
        )?;
    }
    writeln!(
        out,
        "next: {program} run-part {word} K   (K = 1..{}), then: {program} merge {word}",
        plan.part_count,
        program = crate::run::program_name(),
        word = crate::format::shell_word(&dir.to_string())
    )?;
    Ok(())
}

/// An estimated node count as text: the estimates add up saturating, and a sum at 2^64 - 1
/// is a tree past what 64 bits count, not that number of nodes.
fn estimated(nodes: u64) -> String {
    match nodes {
        u64::MAX => "past 2^64".to_string(),
        nodes => nodes.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_saturated_estimate_is_not_printed_as_a_count() {
        assert_eq!(super::estimated(u64::MAX), "past 2^64");
        assert_eq!(super::estimated(u64::MAX - 1), "18446744073709551614");
    }
}
