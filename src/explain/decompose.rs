//! The arithmetic of `explain`: from measured runs to the lost time split into causes that
//! partition it. Pure arithmetic over [`Measurements`]; it knows no runs, threads or files,
//! and takes the words it stores beside the numbers from [`super::evidence`].
//!
//! With `T1` the sequential wall time, `TN` the wall time at `N` threads, the ideal time is
//! `T1 / N` and the lost time `L = TN - T1 / N`. Everything is computed in worker time
//! first (`N * L = N * TN - T1`), where the workers' own clocks give an exact identity:
//! each worker is busy (in a task) or idle for the whole wall time, so
//! `N * TN = busy + before + between + after`, the idle time split by when it happened.
//! With `s = T1 / nodes_seq` the sequential cost of a node, `b1` and `bN` the busy time per
//! node entered in tasks at 1 and at `N` threads, `wN` the nodes entered in tasks at `N`
//! threads and `fN = nodes_N - wN` the nodes of the frontier listed before the tasks:
//!
//! ```text
//! N * TN - T1 = (nodes_N - nodes_seq) * s       search overhead: extra nodes
//!             + wN * (b1 - s)                    per-node cost, already at one thread
//!             + wN * (bN - b1)                   per-node cost, growth with N threads
//!             + (before - fN * s)                waiting for the first task, less the
//!                                                listing's own (sequential) work
//!             + between                          idle between tasks
//!             + after                            tail: idle after a worker's last task
//! ```
//!
//! The growth of the per-node cost is split further, each piece clamped to what is left of
//! it: time busy but not on a CPU (`busy - process CPU`, a lower bound: named
//! oversubscription when `N` exceeds the CPUs, descheduled otherwise), contention (the
//! counter layout A/B, `N * (TN - TN_padded)`, when the run used shared or unpadded
//! counters), allocation (the clone/undo A/B, `N * (TN_clone - TN_undo) - (T1_clone -
//! T1_undo)`, when the run cloned), and the rest (slower nodes with more threads running:
//! shared cache lines, locks, memory bandwidth, a lower clock).
//!
//! Every term is a difference of measured quantities. A negative term is a gain (fewer
//! nodes than sequentially in a first-solution search, cheaper nodes) and is listed apart
//! from the causes, never as a negative share. The causes are the positive terms; they sum
//! to the gross loss `N * L + gains`. The measured medians do not add up exactly (each is
//! the median of its own quantity), so what is left, `N * L + gains - causes`, is listed as
//! `unexplained` when positive; when negative (the causes over-explain), every cause is
//! scaled down by the same factor so that they sum to the gross loss, and the factor is
//! reported. The shares are the causes over the gross loss: each is >= 0 and they sum to 1.
//! Times are reported in wall time, the worker time divided by `N`.

use super::causes::{CauseKind, TermKind};
use super::evidence;
use super::measurements::{ratio, Measurements};
use serde::Serialize;

/// One measured term of the lost time (worker time, signed: negative is a gain).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Part {
    /// Which term (`at one thread`, `descheduled`, ...; serialized as its name).
    #[serde(rename = "name")]
    pub kind: TermKind,
    /// Lost wall time (after scaling, see the module doc); a part of a cause is >= 0.
    pub lost_ns: f64,
    /// What was measured, in words with numbers.
    pub evidence: String,
}

/// One cause of lost time: a share of the gross loss.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cause {
    /// Which cause (`per-node cost`, `tail`, ...; serialized as its name).
    #[serde(rename = "name")]
    pub kind: CauseKind,
    /// Lost wall time it accounts for (>= 0).
    pub lost_ns: f64,
    /// Its share of the gross loss (>= 0; the shares of all causes sum to 1).
    pub share: f64,
    /// Whether the measurement behind it was taken.
    pub measured: bool,
    /// The number behind it, short (`266 vs 96 ns per node`).
    pub number: String,
    /// The measured evidence, in words with numbers.
    pub evidence: String,
    /// Its parts, when it has more than one (`per-node cost`), largest first.
    pub parts: Vec<Part>,
}

#[cfg(test)]
impl Cause {
    /// A measured cause with `share` of the loss (and as many nanoseconds), for tests of
    /// what is computed from shares alone.
    pub(crate) fn with_share(kind: CauseKind, share: f64) -> Cause {
        Cause {
            kind,
            lost_ns: share,
            share,
            measured: true,
            number: String::new(),
            evidence: String::new(),
            parts: Vec::new(),
        }
    }
}

/// A measured term that made the run faster (listed apart, never as a negative share).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gain {
    /// Which term gained (`search overhead`, `cheaper nodes at N threads`; serialized as
    /// its name).
    #[serde(rename = "name")]
    pub kind: TermKind,
    /// Wall time gained (> 0).
    pub gained_ns: f64,
    /// What was measured.
    pub evidence: String,
}

/// How the run compares with the ideal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// At least [`CLOSE_TO_IDEAL`] of the ideal speedup: nothing worth curing.
    CloseToIdeal,
    /// Faster than sequential, but short of the ideal by more than that.
    SlowerThanIdeal,
    /// Slower than the sequential run.
    SlowerThanSequential,
}

/// A run reaching this share of the ideal speedup (`speedup / threads`) is not called slow.
pub const CLOSE_TO_IDEAL: f64 = 0.85;

/// The lost time split into causes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decomposition {
    /// Speedup `T1 / TN`.
    pub speedup: f64,
    /// Ideal time `T1 / N`.
    pub ideal_ns: f64,
    /// Lost time `TN - T1 / N` (net of the gains).
    pub lost_ns: f64,
    /// The lost time before the gains: what the causes sum to.
    pub gross_ns: f64,
    /// The factor every cause was scaled by so that they sum to the gross loss (1 unless
    /// the measured parts over-explained it).
    pub scale: f64,
    /// How the run compares with the ideal.
    pub outcome: Outcome,
    /// Every cause, largest first; `unexplained` last.
    pub causes: Vec<Cause>,
    /// The gains, largest first.
    pub gains: Vec<Gain>,
    /// Problems found in the measurements themselves (an exhaustive node ratio other than 1).
    pub bugs: Vec<String>,
}

impl Decomposition {
    /// The line of cause `kind`.
    pub fn cause(&self, kind: CauseKind) -> Option<&Cause> {
        self.causes.iter().find(|cause| cause.kind == kind)
    }

    /// The share of cause `kind` (0 when absent).
    pub fn share_of(&self, kind: CauseKind) -> f64 {
        self.cause(kind).map_or(0.0, |cause| cause.share)
    }
}

/// A signed term before the split into causes and gains.
struct Term {
    kind: TermKind,
    worker_ns: f64,
    measured: bool,
}

/// Splits the lost time of `m` into causes (see the module doc for the arithmetic).
pub fn decompose(m: &Measurements) -> Decomposition {
    let threads = m.threads.max(1) as f64;
    let sequential_ns = m.sequential.wall_ns;
    let ideal_ns = sequential_ns / threads;
    let lost_ns = m.parallel.wall_ns - ideal_ns;
    let speedup = ratio(sequential_ns, m.parallel.wall_ns);
    let outcome = if speedup / threads >= CLOSE_TO_IDEAL {
        Outcome::CloseToIdeal
    } else if m.parallel.wall_ns > sequential_ns {
        Outcome::SlowerThanSequential
    } else {
        Outcome::SlowerThanIdeal
    };
    let terms = terms(m);
    let positive: f64 = terms.iter().map(|term| term.worker_ns.max(0.0)).sum();
    let gained: f64 = terms.iter().map(|term| (-term.worker_ns).max(0.0)).sum();
    let net_worker = threads * lost_ns;
    // What the parts leave over (unexplained) or over-explain (scaled away).
    let left = net_worker + gained - positive;
    let (scale, unexplained) = if net_worker <= 0.0 {
        // Nothing lost: no cause has a share, only the gains are listed.
        (0.0, 0.0)
    } else if left >= 0.0 {
        (1.0, left)
    } else {
        ((positive + left) / positive, 0.0)
    };
    let gross_worker = if net_worker <= 0.0 { 0.0 } else { positive * scale + unexplained };
    let share = |worker_ns: f64| if gross_worker > 0.0 { worker_ns / gross_worker } else { 0.0 };
    let mut causes = Vec::new();
    for kind in CauseKind::ALL.into_iter().filter(|kind| *kind != CauseKind::Unexplained) {
        let of_cause: Vec<&Term> = terms.iter().filter(|term| term.kind.cause() == kind).collect();
        let mut parts: Vec<Part> = of_cause
            .iter()
            .filter(|term| term.worker_ns > 0.0 && scale > 0.0)
            .map(|term| Part {
                kind: term.kind,
                lost_ns: term.worker_ns * scale / threads,
                evidence: evidence::term_evidence(term.kind, m),
            })
            .collect();
        parts.sort_by(|a, b| b.lost_ns.total_cmp(&a.lost_ns));
        let worker: f64 = of_cause.iter().map(|term| term.worker_ns.max(0.0) * scale).sum();
        let (number, evidence_text) = evidence::cause_number_and_evidence(kind, m);
        causes.push(Cause {
            kind,
            lost_ns: worker / threads,
            share: share(worker),
            measured: of_cause.iter().all(|term| term.measured),
            number,
            evidence: evidence_text,
            parts: if of_cause.len() > 1 { parts } else { Vec::new() },
        });
    }
    causes.sort_by(|a, b| b.lost_ns.total_cmp(&a.lost_ns));
    let (number, evidence_text) = evidence::unexplained_number_and_evidence(unexplained / threads, scale);
    causes.push(Cause {
        kind: CauseKind::Unexplained,
        lost_ns: unexplained / threads,
        share: share(unexplained),
        measured: true,
        number,
        evidence: evidence_text,
        parts: Vec::new(),
    });
    let mut gains: Vec<Gain> = terms
        .iter()
        .filter(|term| term.worker_ns < 0.0)
        .map(|term| Gain {
            kind: term.kind,
            gained_ns: -term.worker_ns / threads,
            evidence: evidence::term_evidence(term.kind, m),
        })
        .collect();
    gains.sort_by(|a, b| b.gained_ns.total_cmp(&a.gained_ns));
    Decomposition {
        speedup,
        ideal_ns,
        lost_ns,
        gross_ns: gross_worker / threads,
        scale,
        outcome,
        causes,
        gains,
        bugs: evidence::bugs(m),
    }
}

/// The signed terms of `N * TN - T1` (worker time).
fn terms(m: &Measurements) -> Vec<Term> {
    let sequential_per_node = m.sequential_ns_per_node();
    let one_per_node = m.one_thread.busy_per_node();
    let parallel_per_node = m.parallel.busy_per_node();
    let task_nodes = m.parallel.task_nodes;
    let listed_nodes = m.parallel.nodes - task_nodes;
    let mut terms = vec![
        Term {
            kind: TermKind::SearchOverhead,
            worker_ns: (m.parallel.nodes - m.sequential.nodes) * sequential_per_node,
            measured: true,
        },
        Term {
            kind: TermKind::AtOneThread,
            worker_ns: task_nodes * (one_per_node - sequential_per_node),
            measured: true,
        },
    ];
    terms.extend(growth_terms(m, task_nodes * (parallel_per_node - one_per_node)));
    let (idle, measured) = m.idle_split();
    terms.push(Term {
        kind: TermKind::WaitingForFirstTask,
        worker_ns: idle.before_first_task_ns - listed_nodes * sequential_per_node,
        measured,
    });
    // Measured either way: without a split, all idle time is counted here (and says so).
    terms.push(Term { kind: TermKind::IdleBetweenTasks, worker_ns: idle.between_tasks_ns, measured: true });
    terms.push(Term { kind: TermKind::Tail, worker_ns: idle.after_last_task_ns, measured });
    terms
}

/// The growth of the per-node cost from 1 to `N` threads, split into what the CPU clock
/// and the A/B reruns attribute, each clamped to what is left.
fn growth_terms(m: &Measurements, growth: f64) -> Vec<Term> {
    let threads = m.threads.max(1) as f64;
    let term = |kind, worker_ns| Term { kind, worker_ns, measured: true };
    if growth <= 0.0 {
        return vec![term(TermKind::CheaperNodesAtThreads, growth)];
    }
    let mut left = growth;
    let mut take = |wanted: f64| {
        let taken = wanted.clamp(0.0, left);
        left -= taken;
        taken
    };
    let off_cpu = take(m.parallel.busy_ns - m.parallel.cpu_ns);
    let mut terms =
        vec![term(if m.oversubscribed() { TermKind::Oversubscription } else { TermKind::Descheduled }, off_cpu)];
    if let Some((used_ns, padded_ns)) = m.contended_and_padded_ns() {
        terms.push(term(TermKind::Contention, take(threads * (used_ns - padded_ns))));
    }
    if let Some(ab) = m.cloning_ab() {
        terms.push(term(
            TermKind::Allocation,
            take(
                threads * (ab.parallel_clone_ns - ab.parallel_undo_ns)
                    - (ab.sequential_clone_ns - ab.sequential_undo_ns),
            ),
        ));
    }
    terms.push(term(TermKind::MoreThreads, left));
    terms
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::causes::CAUSE_NAMES;
    use crate::explain::measurements::{CounterComparison, IdleSplit, RunMeasure};
    use crate::explain::why_slower::why_slower_text;

    fn run(wall_ns: f64, busy_ns: f64, cpu_ns: f64, nodes: f64) -> RunMeasure {
        RunMeasure { wall_ns, cpu_ns, nodes, task_nodes: nodes, busy_ns }
    }

    /// 1000 nodes in 1000 ns sequentially, the same at 1 thread, a perfect 2 threads.
    fn base() -> Measurements {
        Measurements {
            strategy: "auto".into(),
            threads: 2,
            available_cpus: 2,
            counters: "padded".into(),
            state: "undo".into(),
            exhaustive: true,
            sequential: RunMeasure::sequential(1000.0, 1000.0, 1000.0),
            one_thread: run(1000.0, 1000.0, 1000.0, 1000.0),
            parallel: run(500.0, 1000.0, 1000.0, 1000.0),
            idle: Some(IdleSplit::default()),
            imbalance: 1.0,
            task_ns_median: Some(50_000.0),
            tasks_per_worker: Some(50.0),
            ..Measurements::default()
        }
    }

    fn lost(verdict: &Decomposition, kind: CauseKind) -> f64 {
        verdict.cause(kind).map_or(f64::NAN, |cause| cause.lost_ns)
    }

    fn assert_close(actual: f64, expected: f64) {
        assert!((actual - expected).abs() < 1e-9, "{actual} != {expected}");
    }

    /// The invariants every decomposition keeps.
    fn assert_partition(verdict: &Decomposition) {
        assert!(verdict.causes.iter().all(|cause| cause.share >= 0.0 && cause.lost_ns >= 0.0), "{verdict:#?}");
        assert!(verdict.gains.iter().all(|gain| gain.gained_ns > 0.0), "{verdict:#?}");
        let shares: f64 = verdict.causes.iter().map(|cause| cause.share).sum();
        if verdict.lost_ns > 0.0 {
            assert_close(shares, 1.0);
            let summed: f64 = verdict.causes.iter().map(|cause| cause.lost_ns).sum();
            let gained: f64 = verdict.gains.iter().map(|gain| gain.gained_ns).sum();
            assert!((summed - verdict.gross_ns).abs() < 1e-6, "{summed} vs {}", verdict.gross_ns);
            assert!((summed - gained - verdict.lost_ns).abs() < 1e-6, "{summed} - {gained} vs {}", verdict.lost_ns);
        } else {
            assert_eq!(shares, 0.0);
        }
        for cause in &verdict.causes {
            let parts: f64 = cause.parts.iter().map(|part| part.lost_ns).sum();
            assert!(cause.parts.is_empty() || (parts - cause.lost_ns).abs() < 1e-6, "{cause:#?}");
        }
    }

    #[test]
    fn every_cause_is_listed_once_and_unexplained_is_last() {
        let verdict = decompose(&base());
        let mut names: Vec<&str> = verdict.causes.iter().map(|cause| cause.kind.name()).collect();
        assert_eq!(names.last(), Some(&"unexplained"));
        names.sort_unstable();
        let mut expected = CAUSE_NAMES.to_vec();
        expected.sort_unstable();
        assert_eq!(names, expected);
    }

    #[test]
    fn a_perfect_speedup_loses_nothing_and_is_close_to_ideal() {
        let verdict = decompose(&base());
        assert_eq!(verdict.speedup, 2.0);
        assert_eq!(verdict.lost_ns, 0.0);
        assert_eq!(verdict.outcome, Outcome::CloseToIdeal);
        assert!(verdict.causes.iter().all(|cause| cause.lost_ns == 0.0), "{verdict:#?}");
        assert_partition(&verdict);
        assert!(why_slower_text(&base()).starts_with("not slow: 100.0% of the ideal speedup"));
    }

    #[test]
    fn the_naive_story_partitions_into_nonnegative_shares() {
        // Sequential 1000 nodes in 1000 ns. At 1 thread tasks cost 1.5 ns a node; at 2
        // threads 2 ns a node (2000 ns busy), 600 ns waiting for the first task (of which
        // 100 listed nodes at 1 ns are the listing's own work), 400 ns between tasks.
        let m = Measurements {
            strategy: "naive".into(),
            one_thread: RunMeasure {
                wall_ns: 1800.0,
                cpu_ns: 1800.0,
                nodes: 1000.0,
                task_nodes: 900.0,
                busy_ns: 1350.0,
            },
            parallel: RunMeasure { wall_ns: 1500.0, cpu_ns: 3000.0, nodes: 1000.0, task_nodes: 900.0, busy_ns: 1800.0 },
            idle: Some(IdleSplit { before_first_task_ns: 700.0, between_tasks_ns: 500.0, after_last_task_ns: 0.0 }),
            ..base()
        };
        let verdict = decompose(&m);
        assert_eq!(verdict.outcome, Outcome::SlowerThanSequential);
        assert_close(verdict.lost_ns, 1000.0);
        assert_partition(&verdict);
        // Worker time: at one thread 900 x 0.5 = 450, growth 450, waiting 700 - 100 = 600,
        // between 500: 2000 = 2 x 1000.
        assert_close(lost(&verdict, CauseKind::PerNodeCost), 450.0);
        assert_close(lost(&verdict, CauseKind::WaitingForFirstTask), 300.0);
        assert_close(lost(&verdict, CauseKind::IdleBetweenTasks), 250.0);
        assert_close(lost(&verdict, CauseKind::Unexplained), 0.0);
        assert_eq!(verdict.causes[0].kind, CauseKind::PerNodeCost);
        let parts: Vec<TermKind> = verdict.causes[0].parts.iter().map(|part| part.kind).collect();
        assert_eq!(
            parts,
            [TermKind::AtOneThread, TermKind::MoreThreads],
            "a busy time under the CPU time is no descheduling"
        );
        assert!(verdict.gains.is_empty());
    }

    #[test]
    fn fewer_nodes_in_a_first_solution_search_are_a_gain_not_a_negative_share() {
        let m = Measurements {
            exhaustive: false,
            one_thread: run(1000.0, 1000.0, 1000.0, 1000.0),
            parallel: run(450.0, 600.0, 600.0, 600.0),
            idle: Some(IdleSplit { before_first_task_ns: 300.0, between_tasks_ns: 0.0, after_last_task_ns: 0.0 }),
            ..base()
        };
        let verdict = decompose(&m);
        assert_close(verdict.lost_ns, -50.0);
        assert_eq!(verdict.outcome, Outcome::CloseToIdeal);
        assert_partition(&verdict);
        let slower = Measurements {
            parallel: run(700.0, 600.0, 600.0, 600.0),
            idle: Some(IdleSplit { before_first_task_ns: 800.0, between_tasks_ns: 0.0, after_last_task_ns: 0.0 }),
            ..m
        };
        let verdict = decompose(&slower);
        assert_partition(&verdict);
        assert_eq!(verdict.gains.len(), 1, "{verdict:#?}");
        assert_eq!(verdict.gains[0].kind, TermKind::SearchOverhead);
        assert_close(verdict.gains[0].gained_ns, 200.0);
        assert_close(lost(&verdict, CauseKind::WaitingForFirstTask), 400.0);
        assert_close(verdict.gross_ns, 400.0);
        assert_close(verdict.lost_ns, 200.0);
    }

    #[test]
    fn parts_that_over_explain_the_loss_are_scaled_alike() {
        // Busy and idle medians that add up to more than 2 x wall: 1200 + 400 = 1600 > 1400.
        let m = Measurements {
            parallel: run(700.0, 1200.0, 1200.0, 1000.0),
            idle: Some(IdleSplit { before_first_task_ns: 400.0, between_tasks_ns: 0.0, after_last_task_ns: 0.0 }),
            ..base()
        };
        let verdict = decompose(&m);
        assert_partition(&verdict);
        // Parts 200 (per node) + 400 (waiting) = 600 worker ns for a loss of 400: x 2/3.
        assert_close(verdict.scale, 400.0 / 600.0);
        assert_close(lost(&verdict, CauseKind::WaitingForFirstTask), 400.0 / 3.0);
        assert_close(lost(&verdict, CauseKind::Unexplained), 0.0);
        assert!(verdict.cause(CauseKind::Unexplained).is_some_and(|cause| cause.evidence.contains("scaled by 0.667")));
    }

    #[test]
    fn parts_that_under_explain_leave_an_unexplained_line() {
        let m = Measurements {
            parallel: run(700.0, 1000.0, 1000.0, 1000.0),
            idle: Some(IdleSplit { before_first_task_ns: 200.0, between_tasks_ns: 0.0, after_last_task_ns: 0.0 }),
            ..base()
        };
        let verdict = decompose(&m);
        assert_partition(&verdict);
        assert_close(lost(&verdict, CauseKind::WaitingForFirstTask), 100.0);
        assert_close(lost(&verdict, CauseKind::Unexplained), 100.0);
        assert_close(verdict.cause(CauseKind::Unexplained).map_or(0.0, |cause| cause.share), 0.5);
    }

    #[test]
    fn busy_time_without_cpu_is_descheduled_or_oversubscription() {
        let m = Measurements { parallel: run(700.0, 1400.0, 1000.0, 1000.0), ..base() };
        let verdict = decompose(&m);
        assert_partition(&verdict);
        let parts = &verdict.causes[0].parts;
        assert_eq!(verdict.causes[0].kind, CauseKind::PerNodeCost);
        assert_eq!(parts[0].kind, TermKind::Descheduled);
        assert_close(parts[0].lost_ns, 200.0);
        let over = Measurements { threads: 4, parallel: run(700.0, 2800.0, 1400.0, 1000.0), ..base() };
        let verdict = decompose(&over);
        assert_partition(&verdict);
        assert_eq!(verdict.causes[0].parts[0].kind, TermKind::Oversubscription);
    }

    #[test]
    fn contention_and_allocation_come_from_their_ab_runs_when_used() {
        let m = Measurements {
            counters: "shared".into(),
            parallel: run(900.0, 1800.0, 1800.0, 1000.0),
            counters_ab: Some(CounterComparison { padded_ns: 600.0, shared_ns: Some(900.0), unpadded_ns: Some(650.0) }),
            ..base()
        };
        let verdict = decompose(&m);
        assert_partition(&verdict);
        // Growth 800 worker ns; the shared counters cost 2 x 300 = 600 of it.
        let parts = &verdict.causes[0].parts;
        assert_eq!((parts[0].kind, parts[1].kind), (TermKind::Contention, TermKind::MoreThreads));
        assert_close(parts[0].lost_ns, 300.0);
        assert_close(parts[1].lost_ns, 100.0);
        let padded = Measurements { counters: "padded".into(), ..m };
        assert!(decompose(&padded).causes[0].parts.iter().all(|part| part.kind != TermKind::Contention));
    }

    #[test]
    fn idle_without_a_split_counts_between_tasks_and_says_not_measured() {
        let m = Measurements { idle: None, parallel: run(600.0, 1000.0, 1000.0, 1000.0), ..base() };
        let verdict = decompose(&m);
        assert_partition(&verdict);
        assert_close(lost(&verdict, CauseKind::IdleBetweenTasks), 100.0);
        for kind in [CauseKind::WaitingForFirstTask, CauseKind::Tail] {
            let cause = verdict.cause(kind).expect("listed");
            assert!(!cause.measured && cause.number == "not measured", "{cause:?}");
        }
        assert!(
            why_slower_text(&m).ends_with("not measured here: waiting for first task, tail"),
            "{}",
            why_slower_text(&m)
        );
    }

    #[test]
    fn an_exhaustive_node_mismatch_is_reported_as_a_bug() {
        let m = Measurements { parallel: run(500.0, 1001.0, 1001.0, 1001.0), ..base() };
        let verdict = decompose(&m);
        assert_eq!(verdict.bugs.len(), 1);
        assert!(verdict.bugs[0].contains("node ratio 1.001000"), "{}", verdict.bugs[0]);
    }
}
