//! `explain --cluster DIR`: how the parts of a split search ran on the batch system, from
//! the times their files record. The worker slots are inferred from the parts' intervals
//! (on each host, a part goes to a slot that was free when it started), which gives each
//! slot's busy and idle time and the gaps the scheduler left between parts; the makespan
//! at 1 to 1,024 workers is predicted by replaying the measured part times in array order
//! (each part to the first free worker, as a Slurm array or an Indexed Job hands them out),
//! each part costing its measured time plus the median gap the scheduler left before a part.

use crate::cluster::merge::{checked_parts, merge_checked};
use crate::cluster::plan::load_plan;
use crate::cluster::ClusterError;
use crate::statistics;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::path::Path;

/// Worker counts the prediction covers.
pub const PREDICTED_WORKERS: [usize; 11] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/// One worker slot as inferred from the parts' intervals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Slot {
    /// The host it ran on.
    pub host: String,
    /// The parts it ran, in order.
    pub parts: Vec<usize>,
    /// Time inside its parts.
    pub busy_ns: u64,
    /// The makespan less its busy time.
    pub idle_ns: u64,
    /// Time between the end of one of its parts and the start of the next, summed.
    pub gaps_ns: u64,
}

/// The predicted makespan at one worker count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Predicted {
    /// Workers.
    pub workers: usize,
    /// With each part costing its time plus the median scheduler gap.
    pub makespan_ns: u64,
    /// With each part costing its time only (a scheduler that starts parts at once).
    pub compute_only_ns: u64,
}

/// The prediction tested on parts it was not calibrated on. At the run's own slot count,
/// the prediction from the gap of the whole run comes close to the measured makespan
/// by construction, so it checks little; this one measures the scheduler's gap on
/// the first half of the parts (by start) only, and predicts how long the second half takes
/// from its first start to its last end.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeldOut {
    /// Parts the gap was measured on (the first half by start).
    pub calibration_parts: usize,
    /// The median gap between two parts of a slot in that half.
    pub calibration_gap_ns: u64,
    /// Parts predicted (the second half).
    pub predicted_parts: usize,
    /// Workers: the run's slots.
    pub workers: usize,
    /// The second half's span, predicted.
    pub predicted_ns: u64,
    /// The second half's span, measured.
    pub measured_ns: u64,
}

/// What `explain --cluster` finds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClusterExplanation {
    /// Parts.
    pub parts: usize,
    /// The first part's start to the last part's end.
    pub makespan_ns: u64,
    /// The parts' times summed (each from its start to its end).
    pub work_ns: u64,
    /// The parts' search times summed.
    pub search_ns: u64,
    /// The slots inferred.
    pub slots: Vec<Slot>,
    /// The largest part and its time: no schedule ends before it.
    pub largest_part: (usize, u64),
    /// The largest part's time over the mean part's time.
    pub imbalance: f64,
    /// The mean gap a slot waited between two of its parts.
    pub mean_gap_ns: u64,
    /// The median of those gaps: the one the predictions add before each part.
    pub median_gap_ns: u64,
    /// The gaps between parts, summed over slots.
    pub gaps_ns: u64,
    /// The makespan predicted at [`PREDICTED_WORKERS`].
    pub predicted: Vec<Predicted>,
    /// A forecast checked against time it did not see: see [`HeldOut`]; `None` with
    /// fewer than 4 parts.
    pub held_out: Option<HeldOut>,
    /// What to change, most useful first.
    pub advice: Vec<String>,
    /// The plan's grouping (`estimate` or `round-robin`).
    pub balance: String,
}

/// A part's interval.
struct Interval {
    part: usize,
    host: String,
    start: u64,
    end: u64,
}

/// Reads every part of the plan in `dir` and explains how they ran on `slots` worker slots
/// (the parts the batch system ran at once, Slurm's `%W`; `None`: inferred from the parts
/// that overlapped in time, which undercounts when parts are much shorter than the
/// scheduler's gaps). The parts are those `merge` would add up, after its checks: exit 2
/// naming every part missing, doubled or foreign, as `merge` says it.
pub fn explain_cluster(dir: &Path, slots: Option<usize>) -> Result<ClusterExplanation, ClusterError> {
    let loaded = load_plan(dir)?;
    let parts = checked_parts(&loaded)?;
    // The paths replayed as `merge` replays them: a folder it refuses is refused here too.
    merge_checked(&loaded, &parts)?;
    let mut intervals = Vec::with_capacity(parts.len());
    let (mut search_ns, mut work_ns) = (0u64, 0u64);
    // Each part's clock was checked (an end after its start, search within wall time);
    // the sums are checked here, so that every figure below is a sum of these that fits.
    for (part, (path, file)) in parts {
        let overflow = |field: &str| {
            ClusterError::bad_input(format!(
                "{}: {field}: summed over the parts, the times do not fit in 64 bits",
                path.display()
            ))
        };
        search_ns = search_ns.checked_add(file.search_ns).ok_or_else(|| overflow("search_ns"))?;
        let end = file.ended_unix_ns.max(file.started_unix_ns);
        work_ns = work_ns.checked_add(end - file.started_unix_ns).ok_or_else(|| overflow("ended_unix_ns"))?;
        intervals.push(Interval { part, host: file.host, start: file.started_unix_ns, end });
    }
    Ok(explain_intervals(intervals, search_ns, &loaded.plan.balance.method, slots))
}

fn explain_intervals(
    mut intervals: Vec<Interval>,
    search_ns: u64,
    balance: &str,
    slot_count: Option<usize>,
) -> ClusterExplanation {
    intervals.sort_by_key(|interval| (interval.start, interval.part));
    let first = intervals.first().map_or(0, |interval| interval.start);
    let last = intervals.iter().map(|interval| interval.end).max().unwrap_or(first);
    let makespan_ns = last - first;
    let (slots, gaps) = infer_slots(&intervals, makespan_ns, slot_count);
    let mut durations: Vec<(usize, u64)> =
        intervals.iter().map(|interval| (interval.part, interval.end - interval.start)).collect();
    durations.sort_unstable();
    let work_ns: u64 = durations.iter().map(|&(_, ns)| ns).sum();
    let largest_part = durations.iter().copied().max_by_key(|&(part, ns)| (ns, Reverse(part))).unwrap_or((0, 0));
    let mean = work_ns as f64 / durations.len().max(1) as f64;
    let imbalance = if mean > 0.0 { largest_part.1 as f64 / mean } else { 1.0 };
    let gaps_ns = slots.iter().fold(0u64, |sum, slot| sum.saturating_add(slot.gaps_ns));
    let mean_gap_ns = gaps_ns / gaps.len().max(1) as u64;
    let median_gap_ns = median_gap(&gaps);
    let times: Vec<u64> = durations.iter().map(|&(_, ns)| ns).collect();
    let predicted = PREDICTED_WORKERS
        .iter()
        .map(|&workers| Predicted {
            workers,
            makespan_ns: list_schedule(&times, workers, median_gap_ns),
            compute_only_ns: list_schedule(&times, workers, 0),
        })
        .collect();
    let held_out = held_out(&intervals, slots.len());
    let mut explanation = ClusterExplanation {
        parts: durations.len(),
        makespan_ns,
        work_ns,
        search_ns,
        slots,
        largest_part,
        imbalance,
        mean_gap_ns,
        median_gap_ns,
        gaps_ns,
        predicted,
        held_out,
        advice: Vec::new(),
        balance: balance.to_string(),
    };
    explanation.advice = advise(&explanation);
    explanation
}

/// The median of the gaps slots waited between two of their parts (0 when no slot ran
/// two). The median, not the mean: a batch system starts throttled parts on its scheduling
/// passes, a few seconds apart, and now and then on an extra pass at once (Slurm does on
/// some job completions); a mean over half a run moves by a whole pass for each such start
/// it happens to hold, which a forecast of the other half cannot know of.
/// Of an even count, the two middle gaps' midpoint, rounded down to a whole nanosecond.
fn median_gap(gaps: &[u64]) -> u64 {
    if gaps.is_empty() {
        return 0;
    }
    let gaps: Vec<f64> = gaps.iter().map(|&gap| gap as f64).collect();
    statistics::median(&gaps).floor() as u64
}

/// The held-out forecast of `intervals` (sorted by start) on `workers` slots.
fn held_out(intervals: &[Interval], workers: usize) -> Option<HeldOut> {
    if intervals.len() < 4 {
        return None;
    }
    let (calibration, predicted) = intervals.split_at(intervals.len() / 2);
    let first = calibration.first()?.start;
    let calibration_span = calibration.iter().map(|interval| interval.end).max()? - first;
    let calibration_gap_ns = median_gap(&infer_slots(calibration, calibration_span, Some(workers)).1);
    let mut in_order: Vec<(usize, u64)> =
        predicted.iter().map(|interval| (interval.part, interval.end - interval.start)).collect();
    in_order.sort_unstable();
    let times: Vec<u64> = in_order.iter().map(|&(_, ns)| ns).collect();
    // As in the whole run's prediction, each worker's first part starts at once; where the
    // slots' first parts of the second half start apart, the error is within one gap.
    let predicted_ns = list_schedule(&times, workers, calibration_gap_ns);
    let start = predicted.first()?.start;
    let measured_ns = predicted.iter().map(|interval| interval.end).max()? - start;
    Some(HeldOut {
        calibration_parts: calibration.len(),
        calibration_gap_ns,
        predicted_parts: predicted.len(),
        workers,
        predicted_ns,
        measured_ns,
    })
}

/// Slots from intervals sorted by start. With `slot_count` given, each part goes to the
/// slot that became free first (as a first-come batch system hands them out); without, on
/// each host, to the slot that became free first among those free when it started, else a
/// new slot (the fewest slots that hold the parts' overlaps). Also each gap between two
/// parts of a slot, in the order the parts started.
fn infer_slots(intervals: &[Interval], makespan_ns: u64, slot_count: Option<usize>) -> (Vec<Slot>, Vec<u64>) {
    let mut slots: Vec<Slot> = Vec::new();
    let mut gaps = Vec::new();
    let mut free_at: Vec<u64> = Vec::new();
    let empty = |host: &str| Slot { host: host.to_string(), parts: Vec::new(), busy_ns: 0, idle_ns: 0, gaps_ns: 0 };
    if let Some(count) = slot_count {
        let host = intervals.first().map_or("", |interval| interval.host.as_str());
        slots = (0..count.max(1)).map(|_| empty(host)).collect();
        free_at = vec![0; slots.len()];
    }
    for interval in intervals {
        let chosen = if slot_count.is_some() {
            (0..slots.len()).min_by_key(|&slot| (slots[slot].parts.len().min(1), free_at[slot], slot))
        } else {
            (0..slots.len())
                .filter(|&slot| slots[slot].host == interval.host && free_at[slot] <= interval.start)
                .min_by_key(|&slot| (free_at[slot], slot))
        };
        let slot = chosen.unwrap_or_else(|| {
            slots.push(empty(&interval.host));
            free_at.push(interval.start);
            slots.len() - 1
        });
        let entry = &mut slots[slot];
        if !entry.parts.is_empty() {
            let gap = interval.start.saturating_sub(free_at[slot]);
            entry.gaps_ns = entry.gaps_ns.saturating_add(gap);
            gaps.push(gap);
        }
        entry.parts.push(interval.part);
        entry.busy_ns = entry.busy_ns.saturating_add(interval.end - interval.start);
        free_at[slot] = free_at[slot].max(interval.end);
    }
    for slot in &mut slots {
        slot.idle_ns = makespan_ns.saturating_sub(slot.busy_ns);
    }
    (slots, gaps)
}

/// The makespan of parts taking `times` (in array order) on `workers` workers, each part
/// handed to the first free worker and costing its time plus `gap_ns` (none before the
/// first part of each worker).
pub fn list_schedule(times: &[u64], workers: usize, gap_ns: u64) -> u64 {
    let workers = workers.max(1);
    let mut free: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut makespan = 0;
    for (index, &time) in times.iter().enumerate() {
        let start = if index < workers {
            0
        } else {
            let Some(Reverse((at, _))) = free.pop() else { break };
            // A prediction, not a count: past 64 bits it reads as the longest time there is.
            at.saturating_add(gap_ns)
        };
        let end = start.saturating_add(time);
        makespan = makespan.max(end);
        free.push(Reverse((end, index)));
    }
    makespan
}

fn advise(explanation: &ClusterExplanation) -> Vec<String> {
    let mut advice = Vec::new();
    let parts = explanation.parts.max(1);
    let mean_part = explanation.work_ns / parts as u64;
    if explanation.median_gap_ns > mean_part {
        advice.push(format!(
            "the scheduler's gap between parts ({}, median) is longer than a mean part ({}): the run waits on the \
             batch system, not on the search; split into fewer, larger parts (or let more run at once)",
            seconds(explanation.median_gap_ns),
            seconds(mean_part)
        ));
    }
    if explanation.imbalance > 2.0 {
        let method = if explanation.balance == "estimate" { "" } else { "; balance by estimate" };
        advice.push(format!(
            "the largest part (part {}, {}) is {:.1} times a mean part: a deeper split (more subproblems per part) \
             evens the parts{method}",
            explanation.largest_part.0,
            seconds(explanation.largest_part.1),
            explanation.imbalance
        ));
    }
    let ceiling = explanation.predicted.iter().find(|row| row.compute_only_ns <= explanation.largest_part.1);
    if let Some(row) = ceiling {
        advice.push(format!(
            "from {} workers on, the largest part is the makespan (the ceiling): more parts than {} are needed to \
             use more workers",
            row.workers, parts
        ));
    }
    advice
}

/// Nanoseconds as seconds with three decimals.
pub fn seconds(ns: u64) -> String {
    format!("{:.3} s", ns as f64 / 1e9)
}

/// The slots' hosts with their slot counts, for a summary line.
pub fn hosts(explanation: &ClusterExplanation) -> BTreeMap<&str, usize> {
    let mut hosts = BTreeMap::new();
    for slot in &explanation.slots {
        *hosts.entry(slot.host.as_str()).or_insert(0) += 1;
    }
    hosts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interval(part: usize, start: u64, end: u64) -> Interval {
        Interval { part, host: "a".to_string(), start, end }
    }

    /// Parts 1..=`parts` of 10 each on two slots taking turns, part K starting
    /// `gap_before(K)` after its slot became free; sorted by start.
    fn two_slot_run(parts: usize, gap_before: impl Fn(usize) -> u64) -> Vec<Interval> {
        let mut intervals = Vec::new();
        let mut free = [0u64, 0];
        for part in 1..=parts {
            let slot = (part - 1) % 2;
            let start = free[slot] + gap_before(part);
            intervals.push(interval(part, start, start + 10));
            free[slot] = start + 10;
        }
        intervals.sort_by_key(|interval| (interval.start, interval.part));
        intervals
    }

    #[test]
    fn list_scheduling_hands_parts_in_order_to_the_first_free_worker() {
        assert_eq!(list_schedule(&[5, 1, 1, 1], 2, 0), 5);
        assert_eq!(list_schedule(&[5, 1, 1, 1], 1, 0), 8);
        assert_eq!(list_schedule(&[5, 1, 1, 1], 1, 2), 14);
        assert_eq!(list_schedule(&[2, 2, 2, 2], 2, 1), 5);
        assert_eq!(list_schedule(&[], 4, 1), 0);
    }

    #[test]
    fn the_held_out_half_is_predicted_from_the_first_half_gap_alone() {
        // Two slots, parts of 10, gaps of 5 in the first half and 15 in the second: the
        // forecast uses 5 and so falls short of the second half's span.
        let intervals = two_slot_run(8, |part| match part {
            1 | 2 => 0,
            3 | 4 => 5,
            _ => 15,
        });
        let held = held_out(&intervals, 2).expect("8 parts");
        assert_eq!((held.calibration_parts, held.predicted_parts, held.calibration_gap_ns), (4, 4, 5));
        // Second half: parts 5..8 start at 40 and 40 (gap 15 after 25), end at 75.
        assert_eq!(held.measured_ns, 35);
        assert_eq!(held.predicted_ns, 25, "two parts per worker with one gap of 5");
        assert!(held_out(&intervals[..3], 2).is_none(), "too few parts to hold any out");
    }

    #[test]
    fn a_part_started_at_once_in_the_first_half_does_not_move_the_forecast() {
        // Two slots, parts of 10, a scheduler pass every 30 (gaps of 20), but in the first
        // half one extra pass starts parts 5 and 6 at once (as Slurm does on some job
        // completions). The mean gap of that half (13) would predict the second half 20
        // short; the median (20) predicts it exactly.
        let intervals = two_slot_run(16, |part| match part {
            1 | 2 | 5 | 6 => 0,
            _ => 20,
        });
        let held = held_out(&intervals, 2).expect("16 parts");
        assert_eq!(held.calibration_gap_ns, 20);
        assert_eq!(held.measured_ns, 4 * 10 + 3 * 20);
        assert_eq!(held.predicted_ns, held.measured_ns);
        let explanation = explain_intervals(intervals, 0, "estimate", Some(2));
        assert_eq!((explanation.mean_gap_ns, explanation.median_gap_ns), (17, 20));
        assert_eq!(median_gap(&[4, 1, 3, 2]), 2, "the two middle values' midpoint, rounded down");
        assert_eq!(median_gap(&[]), 0);
    }

    #[test]
    fn two_slots_are_inferred_with_their_gaps_and_the_run_is_predicted_back() {
        // Two slots, parts of 10 with gaps of 5: 1 and 2 at 0, 3 and 4 at 15, 5 at 30.
        let intervals =
            vec![interval(1, 0, 10), interval(2, 0, 10), interval(3, 15, 25), interval(4, 15, 25), interval(5, 30, 40)];
        let explanation = explain_intervals(intervals, 0, "estimate", None);
        assert_eq!(explanation.makespan_ns, 40);
        assert_eq!(explanation.slots.len(), 2);
        assert_eq!(explanation.slots[0].parts, vec![1, 3, 5]);
        assert_eq!((explanation.slots[0].busy_ns, explanation.slots[0].idle_ns), (30, 10));
        assert_eq!(explanation.mean_gap_ns, 5);
        assert_eq!(explanation.predicted[1].makespan_ns, 40);
        assert_eq!(explanation.predicted[1].compute_only_ns, 30);
        assert_eq!(explanation.largest_part, (1, 10));
    }

    #[test]
    fn parts_far_shorter_than_the_gaps_need_the_slot_count_given() {
        // Two at a time, but each part ends before the next starts: no overlap to see.
        let intervals =
            vec![interval(1, 0, 1), interval(2, 2, 3), interval(3, 10, 11), interval(4, 12, 13), interval(5, 20, 21)];
        let inferred = explain_intervals(
            intervals.iter().map(|i| interval(i.part, i.start, i.end)).collect(),
            0,
            "estimate",
            None,
        );
        assert_eq!(inferred.slots.len(), 1);
        let given = explain_intervals(intervals, 0, "estimate", Some(2));
        assert_eq!(given.slots[0].parts, vec![1, 3, 5]);
        assert_eq!(given.slots[1].parts, vec![2, 4]);
        assert_eq!(given.mean_gap_ns, 9);
        assert_eq!(given.predicted[1].makespan_ns, 21);
    }
}
