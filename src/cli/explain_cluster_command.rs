//! `explain --cluster DIR`: how the parts of a split search ran on the batch system, and
//! the makespan predicted at 1 to 1,024 workers (docs/cluster.md).

use super::failure::Failure;
use crate::explain::cluster::{explain_cluster, hosts, seconds};
use crate::format;
use std::io::Write;
use std::path::Path;

/// Runs `explain --cluster DIR`.
pub fn run(dir: &Path, slots: Option<usize>, json: bool) -> Result<(), Failure> {
    let explanation = explain_cluster(dir, slots).map_err(Failure::from)?;
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string(&explanation).map_err(|error| Failure::failed(error.to_string()))?)?;
        return Ok(());
    }
    let slots: Vec<String> = hosts(&explanation).iter().map(|(host, count)| format!("{count} on {host}")).collect();
    writeln!(
        out,
        "{}: {} on {} ({})",
        dir.display(),
        format::counted(explanation.parts as u64, "part", "parts"),
        format::counted(explanation.slots.len() as u64, "worker slot", "worker slots"),
        slots.join(", ")
    )?;
    writeln!(
        out,
        "makespan {} (first part's start to last part's end); parts {} in all, of which search {}",
        seconds(explanation.makespan_ns),
        seconds(explanation.work_ns),
        seconds(explanation.search_ns)
    )?;
    writeln!(
        out,
        "largest part: part {}, {} (the ceiling: no schedule ends sooner); imbalance {:.2} (largest / mean)",
        explanation.largest_part.0,
        seconds(explanation.largest_part.1),
        explanation.imbalance
    )?;
    writeln!(
        out,
        "scheduler gaps between parts: {} in all, {} on average before a part, {} median (the predictions add \
         the median)",
        seconds(explanation.gaps_ns),
        seconds(explanation.mean_gap_ns),
        seconds(explanation.median_gap_ns)
    )?;
    writeln!(out, "\nslot  host  parts  busy  idle  gaps")?;
    // A slot that ran no part is one of the slots given (`--slots`) past those the parts
    // filled: counted on one line (100,000 slots printed a row each).
    let mut unused = 0;
    for (index, slot) in explanation.slots.iter().enumerate() {
        if slot.parts.is_empty() {
            unused += 1;
            continue;
        }
        writeln!(
            out,
            "{:>4}  {}  {:>5}  {}  {}  {}",
            index + 1,
            slot.host,
            slot.parts.len(),
            seconds(slot.busy_ns),
            seconds(slot.idle_ns),
            seconds(slot.gaps_ns)
        )?;
    }
    if unused > 0 {
        writeln!(out, "{unused} more slot(s) ran no part (idle the whole makespan)")?;
    }
    writeln!(out, "\npredicted makespan (parts in array order, each to the first free worker)")?;
    writeln!(out, "workers  with the measured gaps  parts' times only")?;
    for row in &explanation.predicted {
        writeln!(out, "{:>7}  {:>22}  {:>17}", row.workers, seconds(row.makespan_ns), seconds(row.compute_only_ns))?;
    }
    if let Some(held) = &explanation.held_out {
        let error = (held.predicted_ns as f64 - held.measured_ns as f64).abs() / held.measured_ns.max(1) as f64;
        writeln!(
            out,
            "held out: the median gap measured on the first {} parts ({}) predicts the last {} at {} workers in {}; \
             they took {} ({:.1}% apart)",
            held.calibration_parts,
            seconds(held.calibration_gap_ns),
            held.predicted_parts,
            held.workers,
            seconds(held.predicted_ns),
            seconds(held.measured_ns),
            error * 100.0
        )?;
    }
    for advice in &explanation.advice {
        writeln!(out, "advice: {advice}")?;
    }
    Ok(())
}
