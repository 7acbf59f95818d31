//! One flat record per run: the row of `<sweep>-runs.csv`.
//!
//! Every field is a plain value with its unit in its name; per-rule and per-worker counts,
//! which differ by family and by thread count, are `;`-separated text in one column each.
//! The column order is the struct's field order; `tests` pins it, because `--resume` and
//! `report` read files written by older builds.

use crate::solve::{RunReport, SearchMode};
use serde::{Deserialize, Serialize};

/// How a run ended.
pub mod status {
    /// The search ran to the end (or to its first solution in first-solution mode).
    pub const OK: &str = "ok";
    /// The node limit stopped the search: counts and time are of a partial search.
    pub const LIMIT: &str = "limit";
    /// The run could not start (instance or knob error); `error` says why.
    pub const ERROR: &str = "error";
    /// The run panicked (a bug); `error` holds the panic message.
    pub const PANIC: &str = "panic";
    /// A kept solution failed the family's independent checker (a model bug).
    pub const VERIFY_FAILED: &str = "verify-failed";
}

/// A run whose search takes less than this is repeated as one batch until the batch has
/// taken this long, and its time is recorded per call: a single call of a few microseconds
/// is dominated by timer and scheduling noise.
pub const BATCH_TARGET_NS: u64 = 1_000_000;

/// Longest `answer` text kept in a record; longer answers are cut and end with `...`.
pub const MAX_ANSWER_CHARS: usize = 200;

/// One run, as one CSV row. See `docs/harness.md` for every column. Columns missing from
/// an older file read as their defaults.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunRecord {
    /// The sweep's name.
    pub sweep: String,
    /// Where the sweep's spec came from (`preset quick`, or the spec file's path).
    pub spec: String,
    /// The configuration's stable id (16 hex digits).
    pub config_id: String,
    /// The configuration's position in the sweep.
    pub config_index: usize,
    /// 0-based repeat number (warm-up runs are not recorded).
    pub repeat: u32,
    /// The shard that ran it (`K/N`), empty when unsharded.
    pub shard: String,
    /// `ok`, `limit`, `error`, `panic` or `verify-failed`.
    pub status: String,
    /// Why the run failed (empty when it did not).
    pub error: String,
    /// The family.
    pub puzzle: String,
    /// The instance's id.
    pub instance: String,
    /// The instance as the spec names it.
    pub source: String,
    /// The instance file's human title (empty when it has none).
    pub instance_title: String,
    /// `defaults`, `baseline` or the knobs that differ from the defaults.
    pub variant: String,
    /// Every knob as `name=value`, `;`-separated.
    pub knobs: String,
    /// `all` or `first`.
    pub mode: String,
    /// Parallel strategy.
    pub strategy: String,
    /// Worker threads.
    pub threads: usize,
    /// Counter layout.
    pub counters: String,
    /// State restoration.
    pub state: String,
    /// Node limit per component.
    pub node_limit: u64,
    /// Timed runs planned for the configuration.
    pub repeats_planned: u32,
    /// Untimed warm-up runs planned before them.
    pub warmup: u32,
    /// Whether every component's search ran to the end.
    pub complete: bool,
    /// Solutions found (product over components).
    pub solutions: u64,
    /// The answer as compact JSON (cut at [`MAX_ANSWER_CHARS`]).
    pub answer: String,
    /// Kept solutions that failed the independent checker.
    pub verify_failures: u64,
    /// Nodes over all components.
    pub nodes: u64,
    /// Wall time of the searches, per call (the mean over the batch).
    pub wall_ns: u64,
    /// Calls of the solve timed together as this run (1, or more for runs under
    /// [`BATCH_TARGET_NS`]); `wall_ns` and the CPU times are per call.
    pub batch: u64,
    /// User CPU time of the process during the run, per call.
    pub user_cpu_ns: u64,
    /// System CPU time of the process during the run, per call.
    pub system_cpu_ns: u64,
    /// Prunes over all rules.
    pub prunes_total: u64,
    /// `rule=checks;...`.
    pub rule_checks: String,
    /// `rule=prunes;...`.
    pub rule_prunes: String,
    /// Nodes at depth 0, 1, 2, ... as `n;n;n`.
    pub nodes_per_depth: String,
    /// Per rule, its prunes at depth 0, 1, 2, ...: `rule=n/n/n;...` (empty without rule counts).
    pub prunes_per_depth: String,
    /// Subproblems the strategy made.
    pub subproblems: u64,
    /// Tasks stolen between workers.
    pub steals: u64,
    /// Busiest worker's busy time over the mean (1 = balanced; 0 when sequential).
    pub imbalance: f64,
    /// Share of worker time spent idle (0..1).
    pub idle_share: f64,
    /// Median task duration.
    pub task_ns_median: u64,
    /// 90th percentile task duration.
    pub task_ns_p90: u64,
    /// Median task size in nodes.
    pub task_nodes_median: u64,
    /// First-solution mode: time to the first solution.
    pub first_solution_ns: u64,
    /// First-solution mode: time from the first solution until every worker stopped.
    pub stop_latency_ns: u64,
    /// First-solution mode: nodes entered after the first solution.
    pub nodes_after_first: u64,
    /// Nodes per worker, `n;n;...`.
    pub worker_nodes: String,
    /// Tasks per worker, `n;n;...`.
    pub worker_tasks: String,
    /// Idle time per worker, `n;n;...` (ns).
    pub worker_idle_ns: String,
    /// Commit the binary was built from.
    pub git_commit: String,
    /// Crate version.
    pub crate_version: String,
    /// Compiler version.
    pub rustc_version: String,
    /// CPU model.
    pub cpu_model: String,
    /// Available parallelism of the machine.
    pub available_parallelism: usize,
    /// Host name.
    pub hostname: String,
    /// When the run finished, RFC 3339 UTC.
    pub timestamp: String,
}

impl RunRecord {
    /// The CSV header line (no newline), derived from the field names.
    pub fn header() -> String {
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.serialize(RunRecord::default()).expect("a default record serializes");
        let bytes = writer.into_inner().expect("writing to memory cannot fail");
        String::from_utf8_lossy(&bytes).lines().next().unwrap_or_default().to_string()
    }

    /// Fills in the outcome of a finished run. `report` is the batch's last call; `batch`
    /// calls took `total_elapsed_ns` of search time and `cpu_ns` of the process's (user,
    /// system) CPU time, measured around the whole batch (used where a single call's
    /// strategy reported none).
    pub fn finish(&mut self, report: &RunReport, batch: u64, total_elapsed_ns: u64, cpu_ns: (u64, u64)) {
        let batch = batch.max(1);
        let verify_failures: usize = report.components.iter().map(|component| component.verify_failures.len()).sum();
        self.status = if verify_failures > 0 {
            status::VERIFY_FAILED
        } else if report.complete {
            status::OK
        } else {
            status::LIMIT
        }
        .to_string();
        if let Some(failure) = report.components.iter().flat_map(|component| &component.verify_failures).next() {
            self.error = failure.clone();
        }
        self.puzzle = report.puzzle.clone();
        self.instance = report.instance.clone();
        self.complete = report.complete;
        self.solutions = report.solutions;
        self.answer = cut(&report.answer.to_string(), MAX_ANSWER_CHARS);
        self.verify_failures = verify_failures as u64;
        self.nodes = report.nodes;
        self.batch = batch;
        self.wall_ns = (total_elapsed_ns + batch / 2) / batch;
        let parallel = &report.parallel;
        let measured_by_strategy = batch == 1 && (parallel.user_cpu_ns > 0 || parallel.system_cpu_ns > 0);
        (self.user_cpu_ns, self.system_cpu_ns) = if measured_by_strategy {
            (parallel.user_cpu_ns, parallel.system_cpu_ns)
        } else {
            (cpu_ns.0 / batch, cpu_ns.1 / batch)
        };
        self.prunes_total = report.rules.iter().map(|rule| rule.prunes).sum();
        self.rule_checks = join_pairs(report.rules.iter().map(|rule| (rule.name.as_str(), rule.checks)));
        self.rule_prunes = join_pairs(report.rules.iter().map(|rule| (rule.name.as_str(), rule.prunes)));
        self.nodes_per_depth = join_numbers(report.nodes_per_depth.iter().copied());
        self.prunes_per_depth = prunes_per_depth_text(report);
        self.subproblems = parallel.subproblems;
        self.steals = parallel.steals;
        self.imbalance = parallel.imbalance;
        self.idle_share = parallel.idle_share;
        self.task_ns_median = parallel.task_ns_median;
        self.task_ns_p90 = parallel.task_ns_p90;
        self.task_nodes_median = parallel.task_nodes_median;
        self.first_solution_ns = parallel.first_solution_ns;
        self.stop_latency_ns = parallel.stop_latency_ns;
        self.nodes_after_first = parallel.nodes_after_first;
        self.worker_nodes = join_numbers(report.workers.iter().map(|worker| worker.nodes));
        self.worker_tasks = join_numbers(report.workers.iter().map(|worker| worker.tasks));
        self.worker_idle_ns = join_numbers(report.workers.iter().map(|worker| worker.idle_ns));
    }

    /// Marks the run as failed with `status` and `message`.
    pub fn fail(&mut self, status: &str, message: &str) {
        self.status = status.to_string();
        self.error = cut(message, 500);
    }

    /// Whether the run measured a search (`ok`, `limit` or `verify-failed`).
    pub fn measured(&self) -> bool {
        matches!(self.status.as_str(), status::OK | status::LIMIT | status::VERIFY_FAILED)
    }
}

/// `all` or `first`.
pub fn mode_name(mode: SearchMode) -> &'static str {
    match mode {
        SearchMode::All => "all",
        SearchMode::First => "first",
    }
}

/// `prunes_per_depth[depth][rule]` turned around: per rule, its prunes at each depth, as
/// `rule=n/n/n;...` (depths past the deepest prune left out; rules that never pruned too).
fn prunes_per_depth_text(report: &RunReport) -> String {
    let per_rule = report.rules.iter().enumerate().filter_map(|(index, rule)| {
        let counts: Vec<u64> =
            report.prunes_per_depth.iter().map(|depth| depth.get(index).copied().unwrap_or(0)).collect();
        let deepest = counts.iter().rposition(|&count| count > 0)?;
        let joined = counts[..=deepest].iter().map(u64::to_string).collect::<Vec<_>>().join("/");
        Some(format!("{}={joined}", rule.name))
    });
    per_rule.collect::<Vec<_>>().join(";")
}

/// `name=count` pairs joined by `;`.
pub fn join_pairs<'a>(pairs: impl Iterator<Item = (&'a str, u64)>) -> String {
    pairs.map(|(name, count)| format!("{name}={count}")).collect::<Vec<_>>().join(";")
}

/// Numbers joined by `;`.
pub fn join_numbers(numbers: impl Iterator<Item = u64>) -> String {
    numbers.map(|number| number.to_string()).collect::<Vec<_>>().join(";")
}

/// Parses `name=count;...`, skipping malformed entries.
pub fn parse_pairs(text: &str) -> Vec<(String, u64)> {
    text.split(';')
        .filter_map(|pair| {
            let (name, count) = pair.split_once('=')?;
            Some((name.to_string(), count.parse().ok()?))
        })
        .collect()
}

/// Parses `n;n;n`, skipping malformed entries.
pub fn parse_numbers(text: &str) -> Vec<u64> {
    text.split(';').filter_map(|number| number.trim().parse().ok()).collect()
}

fn cut(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        text.to_string()
    } else {
        let kept: String = text.chars().take(limit.saturating_sub(3)).collect();
        format!("{kept}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pinned column list: changing it breaks `--resume` and `report --baseline` on
    /// older files, so change it deliberately (and document the column in docs/harness.md).
    pub const PINNED_HEADER: &str = "sweep,spec,config_id,config_index,repeat,shard,status,error,puzzle,instance,source,instance_title,variant,knobs,mode,strategy,threads,counters,state,node_limit,repeats_planned,warmup,complete,solutions,answer,verify_failures,nodes,wall_ns,batch,user_cpu_ns,system_cpu_ns,prunes_total,rule_checks,rule_prunes,nodes_per_depth,prunes_per_depth,subproblems,steals,imbalance,idle_share,task_ns_median,task_ns_p90,task_nodes_median,first_solution_ns,stop_latency_ns,nodes_after_first,worker_nodes,worker_tasks,worker_idle_ns,git_commit,crate_version,rustc_version,cpu_model,available_parallelism,hostname,timestamp";

    #[test]
    fn the_runs_header_is_pinned() {
        assert_eq!(RunRecord::header(), PINNED_HEADER);
    }

    #[test]
    fn lists_round_trip() {
        assert_eq!(
            parse_pairs(&join_pairs([("a", 1), ("b-c", 20)].into_iter())),
            [("a".into(), 1), ("b-c".into(), 20)]
        );
        assert_eq!(parse_numbers(&join_numbers([3, 0, 9].into_iter())), [3, 0, 9]);
        assert!(parse_numbers("").is_empty());
    }

    #[test]
    fn long_answers_are_cut() {
        assert_eq!(cut("abcdef", 5), "ab...");
        assert_eq!(cut("abc", 5), "abc");
    }
}
