//! What to do about a slow parallel run, for the strategy and knobs it used: never advice
//! the run already follows (stealing to a stealing run), plainly "use another strategy"
//! to `naive`, and nothing at all to a run close to the ideal. Text only; it knows the
//! decomposition and the knob names, not how runs are made.

use super::causes::{CauseKind, TermKind};
use super::decompose::{Cause, Decomposition, Outcome};
use super::measurements::{Measurements, StrategyKind};
use crate::format;
use serde::Serialize;

/// Causes at or above this share of the gross loss get their advice.
pub const ADVICE_SHARE: f64 = 0.10;

/// One piece of advice.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Advice {
    /// The cause it is about (`strategy` for the advice about `naive` itself).
    pub about: String,
    /// What to do.
    pub text: String,
}

/// The advice for `verdict` of a run with `m`'s strategy and knobs, pinned or free
/// threads as `affinity` says.
pub fn advice(verdict: &Decomposition, m: &Measurements, affinity: &str) -> Vec<Advice> {
    if verdict.outcome == Outcome::CloseToIdeal {
        return Vec::new();
    }
    let mut advice = Vec::new();
    if m.strategy_kind() == StrategyKind::Naive {
        advice.push(Advice {
            about: "strategy".to_string(),
            text: "`naive` is the deliberately bad baseline, shaped like Perl 6's `.race()`: every leaf is listed on \
                   one thread before any work starts, workers take batches of 64 leaves from one locked iterator and \
                   replay each from the root, and every solution goes through a second lock. Its causes are \
                   what that shape costs; the cure is another strategy: `--parallel auto` or `--parallel steal`"
                .to_string(),
        });
    }
    if m.threads > m.available_cpus.max(1) {
        advice.push(Advice {
            about: "threads".to_string(),
            text: format!(
                "{} threads share {} CPUs, so some wait for a CPU whatever the strategy: use `--threads {}` or fewer",
                m.threads, m.available_cpus, m.available_cpus
            ),
        });
    }
    for cause in verdict.causes.iter().filter(|cause| cause.share >= ADVICE_SHARE) {
        if let Some(text) = cause_advice(cause, m, affinity) {
            advice.push(Advice { about: cause.kind.name().to_string(), text });
        }
    }
    advice
}

fn cause_advice(cause: &Cause, m: &Measurements, affinity: &str) -> Option<String> {
    let kind = m.strategy_kind();
    let naive = kind == StrategyKind::Naive;
    let text = match cause.kind {
        CauseKind::SearchOverhead if m.exhaustive => {
            "an exhaustive search must visit exactly the sequential nodes: this is a bug in the strategy".to_string()
        }
        CauseKind::SearchOverhead => {
            "a first-solution search explores other branches while one worker nears a solution, and a branch and \
             bound cuts what the incumbent allows when each worker reads it; the count changes from run to run: \
             compare several runs, order values so that (good) solutions come earlier, or, for a branch and bound, \
             `--parallel replicable` for the same counts on every run"
                .to_string()
        }
        CauseKind::PerNodeCost => per_node_advice(cause, m)?,
        CauseKind::WaitingForFirstTask if naive => return None,
        CauseKind::WaitingForFirstTask => match kind {
            StrategyKind::Splitting if affinity == "free" => {
                "the workers wait for the first split of the root: with `--affinity pinned` a woken thread starts on \
                 its own CPU"
                    .to_string()
            }
            StrategyKind::Splitting => "the workers wait for the first split of the root (pool wake-up, the first \
                 steal): a fixed cost that a longer search pays less of"
                .to_string(),
            _ => format!(
                "the frontier is listed on one thread before any worker starts: a shallower frontier (`auto:K` with a \
                 smaller K, a smaller D in `depth:D`), or `--parallel steal`, which starts at once (used: `{}`)",
                m.strategy
            ),
        },
        CauseKind::IdleBetweenTasks if naive => return None,
        CauseKind::IdleBetweenTasks => match (kind, m.strategy.as_str()) {
            (StrategyKind::Splitting, "steal") => "hungry workers wait for a busy one to split a branch: `steal` \
                 already splits on demand; many small steals mean the tree is narrow here, which more threads do not \
                 cure"
                .to_string(),
            (StrategyKind::Splitting, _) => {
                "hungry workers wait for the next split: a smaller B in `budget:B` splits more often".to_string()
            }
            _ => format!(
                "taking the next task costs time between tasks ({}): fewer, bigger tasks (`auto:K` with a smaller K, \
                 a smaller D in `depth:D`)",
                cause.number
            ),
        },
        CauseKind::Tail => match kind {
            StrategyKind::Splitting => "the last branches ran alone: the strategy already splits on demand, so they \
                 were too small to split further; nothing to tune"
                .to_string(),
            _ => format!(
                "the last tasks ran alone: more, smaller tasks (`auto:K` with a larger K, a larger D in `depth:D`), \
                 or `--parallel steal`, which splits the last tasks (used: `{}`)",
                m.strategy
            ),
        },
        // Nothing measured to act on.
        CauseKind::Unexplained => return None,
    };
    Some(text)
}

/// The advice for the largest part of the per-node cost.
fn per_node_advice(cause: &Cause, m: &Measurements) -> Option<String> {
    let largest = cause.parts.first().map_or(TermKind::MoreThreads, |part| part.kind);
    let text = match largest {
        TermKind::AtOneThread if m.strategy_kind() == StrategyKind::Naive => return None,
        TermKind::AtOneThread => match m.strategy_kind() {
            StrategyKind::Splitting => "tasks cost more per node than the sequential search already at one thread \
                 (splitting and per-task setup): `budget:B` with a larger B, or `steal`, which splits only for a \
                 hungry worker"
                .to_string(),
            _ => "each subproblem replays its path from the root and pays a task's setup: fewer, bigger tasks \
                  (`auto:K` with a smaller K, a smaller D in `depth:D`)"
                .to_string(),
        },
        TermKind::Descheduled => {
            "workers were in tasks without a CPU: another process was running. Measure again on a \
             quiet machine"
                .to_string()
        }
        // Said once for the whole run (`threads`), whichever cause it inflated.
        TermKind::Oversubscription => return None,
        TermKind::Contention => format!("the `{}` counters share cache lines: use `--counters padded`", m.counters),
        TermKind::Allocation => {
            "cloning the state allocates per node, and the allocator is shared: use `--state undo`".to_string()
        }
        // The rest of the growth with more threads (also when no part was positive).
        _ if m.strategy_kind() == StrategyKind::Naive => return None,
        _ => format!(
            "nodes cost more with {} threads running ({}): shared writes per node, memory bandwidth or a lower clock \
             with more cores busy{}",
            m.threads,
            cause.number,
            if m.counters == "padded" {
                String::new()
            } else {
                format!("; try `--counters padded` (used: `{}`)", m.counters)
            }
        ),
    };
    Some(text)
}

/// The one line said instead of advice when the run was close to the ideal.
pub fn close_to_ideal_text(speedup: f64, threads: usize) -> String {
    format!(
        "not slow: a speedup of {} on {threads} threads is {} of the ideal; nothing worth curing",
        format::factor(speedup),
        format::percent(speedup / threads.max(1) as f64)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::decompose::decompose;
    use crate::explain::measurements::{IdleSplit, RunMeasure};

    /// 1000 nodes in 1000 ns sequentially; at 2 threads 800 ns with a long tail.
    fn tailing(strategy: &str) -> Measurements {
        Measurements {
            strategy: strategy.into(),
            threads: 2,
            available_cpus: 2,
            counters: "padded".into(),
            state: "undo".into(),
            exhaustive: true,
            sequential: RunMeasure::sequential(1000.0, 1000.0, 1000.0),
            one_thread: RunMeasure::sequential(1000.0, 1000.0, 1000.0),
            parallel: RunMeasure { wall_ns: 800.0, cpu_ns: 1000.0, nodes: 1000.0, task_nodes: 1000.0, busy_ns: 1000.0 },
            idle: Some(IdleSplit { before_first_task_ns: 200.0, between_tasks_ns: 0.0, after_last_task_ns: 400.0 }),
            imbalance: 1.5,
            tasks_per_worker: Some(50.0),
            task_ns_median: Some(50_000.0),
            ..Measurements::default()
        }
    }

    fn texts(m: &Measurements, affinity: &str) -> Vec<(String, String)> {
        advice(&decompose(m), m, affinity).into_iter().map(|advice| (advice.about, advice.text)).collect()
    }

    #[test]
    fn a_stealing_run_is_never_told_to_steal() {
        for strategy in ["steal", "budget:1000"] {
            let advice = texts(&tailing(strategy), "pinned");
            assert!(advice.iter().any(|(about, _)| about == "tail"), "{advice:?}");
            assert!(advice.iter().all(|(_, text)| !text.contains("--parallel steal")), "{strategy}: {advice:?}");
        }
        let frontier = texts(&tailing("auto"), "pinned");
        assert!(
            frontier.iter().any(|(about, text)| about == "tail" && text.contains("--parallel steal")),
            "{frontier:?}"
        );
    }

    #[test]
    fn naive_is_named_the_bad_baseline_first_and_gets_no_tuning_tips() {
        let advice = texts(&tailing("naive"), "pinned");
        assert_eq!(advice[0].0, "strategy");
        assert!(advice[0].1.contains("deliberately bad baseline") && advice[0].1.contains("--parallel auto"));
        assert!(advice.iter().all(|(about, _)| about != "waiting for first task"), "{advice:?}");
    }

    #[test]
    fn a_run_close_to_the_ideal_gets_no_cure() {
        let fast = Measurements {
            parallel: RunMeasure { wall_ns: 560.0, cpu_ns: 1000.0, nodes: 1000.0, task_nodes: 1000.0, busy_ns: 1000.0 },
            idle: Some(IdleSplit { before_first_task_ns: 60.0, between_tasks_ns: 0.0, after_last_task_ns: 60.0 }),
            ..tailing("steal")
        };
        assert!(texts(&fast, "pinned").is_empty());
        assert_eq!(
            close_to_ideal_text(decompose(&fast).speedup, 2),
            "not slow: a speedup of 1.79x on 2 threads is 89.3% of the ideal; nothing worth curing"
        );
    }

    #[test]
    fn knob_advice_names_the_knob_used() {
        let crowded = Measurements { threads: 4, ..tailing("steal") };
        let advice = texts(&crowded, "pinned");
        assert!(advice.iter().any(|(about, text)| about == "threads" && text.contains("--threads 2")), "{advice:?}");
        let free = texts(&tailing("steal"), "free");
        assert!(free.iter().any(|(_, text)| text.contains("--affinity pinned")), "{free:?}");
        let shared = Measurements {
            counters: "shared".into(),
            parallel: RunMeasure { wall_ns: 900.0, cpu_ns: 1800.0, nodes: 1000.0, task_nodes: 1000.0, busy_ns: 1800.0 },
            idle: Some(IdleSplit::default()),
            counters_ab: Some(crate::explain::CounterComparison {
                padded_ns: 600.0,
                shared_ns: Some(900.0),
                unpadded_ns: None,
            }),
            ..tailing("auto")
        };
        let advice = texts(&shared, "pinned");
        assert!(advice.iter().any(|(_, text)| text.contains("--counters padded")), "{advice:?}");
    }
}
