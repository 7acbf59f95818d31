//! One flat record per run: the row of `<sweep>-runs.csv`.
//!
//! Every cell is one plain value with its unit in its column's name, so the file loads in
//! pandas or polars with no option and no cell needs a second parse; an empty cell means
//! "not applicable" (a first-solution time in all-solutions mode, a solution count of a run
//! stopped by its limit). Per-rule, per-depth and per-worker counts, which differ by family
//! and thread count, go to the long-format [`super::counts`] file instead. The column order
//! is the struct's field order; `tests` pins it, because `--resume` and `report` read files
//! written by older builds.

use super::run_columns::row_with_run_columns;
use crate::environment::{is_timestamp, Environment};
use crate::run::settings::{RunSettings, MAX_THREADS, RUN_DIMENSIONS};
use crate::run::{RunReport, SearchMode};
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
    /// Every status a run records.
    pub const ALL: [&str; 5] = [OK, LIMIT, ERROR, PANIC, VERIFY_FAILED];
}

/// A run whose search takes less than this is repeated as one batch until the batch has
/// taken this long, and its time is recorded per call: a single call of a few microseconds
/// is dominated by timer and scheduling noise.
pub const BATCH_TARGET_NS: u64 = 1_000_000;

/// Longest `answer` text kept in a record; longer answers are cut and end with `...`.
pub const MAX_ANSWER_CHARS: usize = 200;

/// The columns every build of the harness has written since its first run log: a file
/// without one of them is not a run log (or an edit removed the column), not an older
/// build's, whose missing columns read as empty.
pub const COLUMNS_OF_EVERY_BUILD: [&str; 42] = [
    "sweep",
    "config_id",
    "config_index",
    "repeat",
    "shard",
    "status",
    "error",
    "puzzle",
    "instance",
    "source",
    "variant",
    "knobs",
    "mode",
    "strategy",
    "threads",
    "counters",
    "state",
    "node_limit",
    "complete",
    "solutions",
    "verify_failures",
    "nodes",
    "wall_ns",
    "user_cpu_ns",
    "system_cpu_ns",
    "prunes_total",
    "subproblems",
    "steals",
    "imbalance",
    "idle_share",
    "task_ns_median",
    "task_nodes_median",
    "first_solution_ns",
    "stop_latency_ns",
    "nodes_after_first",
    "git_commit",
    "crate_version",
    "rustc_version",
    "cpu_model",
    "available_parallelism",
    "hostname",
    "timestamp",
];

row_with_run_columns! {
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
    ..run_columns,
    /// Timed runs planned for the configuration.
    pub repeats_planned: u32,
    /// Untimed warm-up runs planned before them.
    pub warmup: u32,
    /// Whether every component's search ran to the end.
    pub complete: bool,
    /// Solutions found (product over components); empty when the search did not end.
    pub solutions: Option<u64>,
    /// The answer when it is one integer (the published answers are); else empty.
    pub answer_value: Option<i64>,
    /// The answer as compact JSON when it is not one integer (a list, one per combination
    /// of component solutions, or an object), cut at [`MAX_ANSWER_CHARS`]; else empty.
    pub answer_json: String,
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
    /// Prunes over all rules (each rule's count is in the counts file).
    pub prunes_total: u64,
    /// Subproblems the strategy made.
    pub subproblems: u64,
    /// Tasks stolen between workers.
    pub steals: u64,
    /// Busiest worker's busy time over the mean (1 = balanced; a sequential run is 1).
    pub imbalance: f64,
    /// Share of worker time spent idle (0..1).
    pub idle_share: f64,
    /// Median task duration.
    pub task_ns_median: u64,
    /// 90th percentile task duration.
    pub task_ns_p90: u64,
    /// Median task size in nodes.
    pub task_nodes_median: u64,
    /// First-solution mode: time to the first solution; empty in all-solutions mode.
    pub first_solution_ns: Option<u64>,
    /// First-solution mode: time from the first solution until every worker stopped.
    pub stop_latency_ns: Option<u64>,
    /// First-solution mode: nodes entered after the first solution.
    pub nodes_after_first: Option<u64>,
    /// Whether the machine was quiet during the run (no other process using a noticeable
    /// share of the CPUs; see `docs/harness.md`); empty when it could not be read.
    pub machine_quiet: Option<bool>,
    /// Share of all CPUs that other processes used during the run (0..1).
    pub other_cpu_share: Option<f64>,
    /// The 1-minute load average when the run ended.
    pub load_average: Option<f64>,
    /// Peak resident memory of the process during the run, in KiB.
    pub peak_rss_kib: Option<u64>,
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
    // Columns added since: last, so that a file of an older build still reads (its
    // missing columns read as empty).
    /// An optimising family's best value (branch and bound); empty for other runs. Its
    /// node counts vary with a parallel run's schedule: search overhead, not a bug.
    pub objective_best: Option<i64>,
    /// Whether that best value was proven optimal; empty for runs without an objective.
    pub objective_proven: Option<bool>,
    /// Time from the search's start to its best solution; empty without an objective.
    pub time_to_best_ns: Option<u64>,
    /// The machine that measured the run, as booted then
    /// (`environment::machine_id`); `report` compares times only between runs of
    /// one machine. Empty in files written before the column existed: machine unknown.
    pub machine_id: String,
}
}

impl RunRecord {
    /// The CSV header line (no newline), derived from the field names.
    pub fn header() -> String {
        super::csv_log::header_of(&RunRecord::default())
    }

    /// A record of a finished sequential run of the default settings, for tests to change.
    #[cfg(test)]
    pub(crate) fn plausible() -> RunRecord {
        let record = RunRecord {
            status: status::OK.to_string(),
            threads: 1,
            available_parallelism: 1,
            timestamp: "2026-11-22T04:29:57.123Z".to_string(),
            config_id: "0123456789abcdef".to_string(),
            batch: 1,
            ..RunRecord::default()
        };
        record.with_run_columns(super::run_columns::RunColumnCells::from(&RunSettings::default()))
    }

    /// Refuses a record that no run writes (an edited or damaged file), with the column and
    /// why: tables would otherwise divide by its thread count, call its status a failure of
    /// the run or file it under a mode of its own. Columns every build has written are
    /// checked, and `affinity` where a build wrote it (empty in older files).
    pub fn check_plausible(&self) -> Result<(), String> {
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(format!("column threads: {} is not a thread count (1 to {MAX_THREADS})", self.threads));
        }
        if !status::ALL.contains(&self.status.as_str()) {
            return Err(format!("column status: `{}` is not one of {}", self.status, status::ALL.join(", ")));
        }
        for (column, value) in [("imbalance", self.imbalance), ("idle_share", self.idle_share)] {
            if !value.is_finite() || value < 0.0 {
                return Err(format!("column {column}: {value} is not a share or ratio of times"));
            }
        }
        if self.idle_share > 1.0 {
            return Err(format!("column idle_share: {} is not a share of the workers' time (0 to 1)", self.idle_share));
        }
        // The run description, each column read by its spec key's parser: a value no flag or
        // spec sets would make a table of its own (an unknown mode) or drop the row from its
        // instance's table.
        let described = [
            ("mode", "modes", &self.mode),
            ("state", "states", &self.state),
            ("strategy", "strategies", &self.strategy),
            ("counters", "counters", &self.counters),
            ("affinity", "affinities", &self.affinity),
        ];
        for (column, key, value) in described {
            // Files written before the affinity column existed read it as empty.
            if column == "affinity" && value.is_empty() {
                continue;
            }
            let dimension = RUN_DIMENSIONS.iter().find(|dimension| dimension.key == key);
            if let Some(Err(error)) = dimension.map(|dimension| (dimension.set)(&mut RunSettings::default(), value)) {
                return Err(format!("column {column}: {error}"));
            }
        }
        let shares = [("other_cpu_share", self.other_cpu_share, 1.0), ("load_average", self.load_average, f64::MAX)];
        for (column, value, most) in shares {
            if let Some(value) = value.filter(|value| !(0.0..=most).contains(value)) {
                return Err(format!("column {column}: {value} is not a measured {}", column.replace('_', " ")));
            }
        }
        // Runs are ordered by it ("the later one wins"), as text: another shape sorts wrong.
        if !is_timestamp(&self.timestamp) {
            return Err(format!(
                "column timestamp: `{}` is not a UTC time such as 2026-11-22T04:29:57.123Z",
                self.timestamp
            ));
        }
        if self.node_limit == 0 {
            return Err("column node_limit: 0; a run's node limit is at least 1".to_string());
        }
        // The id joins a row to its configuration (and to its counts rows): 16 hex digits.
        let hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
        if self.config_id.len() != 16 || !self.config_id.bytes().all(hex) {
            return Err(format!("column config_id: `{}` is not a configuration id (16 hex digits)", self.config_id));
        }
        if self.measured() && self.batch == 0 {
            return Err("column batch: 0; a measured run is a batch of at least one search".to_string());
        }
        if self.wall_ns > MOST_WALL_NS {
            return Err(format!("column wall_ns: {} is more than a year of one search", self.wall_ns));
        }
        if self.available_parallelism == 0 {
            return Err("column available_parallelism: 0; a machine has at least one CPU".to_string());
        }
        if self.verify_failures > 0 && self.status != status::VERIFY_FAILED {
            return Err(format!(
                "column verify_failures: {} with status `{}`; a run with failed solutions is `{}`",
                self.verify_failures,
                self.status,
                status::VERIFY_FAILED
            ));
        }
        Ok(())
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
        self.solutions = report.complete.then_some(report.solutions);
        (self.answer_value, self.answer_json) = match report.answer.as_i64() {
            Some(value) => (Some(value), String::new()),
            None if report.answer.is_null() => (None, String::new()),
            None => (None, cut(&report.answer.to_string(), MAX_ANSWER_CHARS)),
        };
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
        self.subproblems = parallel.subproblems;
        self.steals = parallel.steals;
        self.imbalance = parallel.imbalance;
        self.idle_share = parallel.idle_share;
        self.task_ns_median = parallel.task_ns_median;
        self.task_ns_p90 = parallel.task_ns_p90;
        self.task_nodes_median = parallel.task_nodes_median;
        let first_solution_mode = report.mode == SearchMode::First;
        self.first_solution_ns = first_solution_mode.then_some(parallel.first_solution_ns);
        self.stop_latency_ns = first_solution_mode.then_some(parallel.stop_latency_ns);
        self.nodes_after_first = first_solution_mode.then_some(parallel.nodes_after_first);
        self.objective_best = report.objective.as_ref().and_then(|objective| objective.best);
        self.objective_proven = report.objective.as_ref().map(|objective| objective.proven);
        self.time_to_best_ns = report.objective.as_ref().and_then(|objective| objective.time_to_best_ns);
    }

    /// Whether the run optimised (its family declared an objective).
    pub fn optimised(&self) -> bool {
        self.objective_proven.is_some()
    }

    /// Marks the run as failed with `status` and `message`.
    pub fn fail(&mut self, status: &str, message: &str) {
        self.status = status.to_string();
        self.error = cut(message, 500);
    }

    /// The record with the environment's columns (commit, versions, CPU, core count, host
    /// and machine) taken from `environment`: the one place they are copied into a record.
    pub fn with_environment(self, environment: &Environment) -> RunRecord {
        let Environment {
            git_commit,
            crate_version,
            rustc_version,
            cpu_model,
            available_parallelism,
            hostname,
            machine_id,
        } = environment.clone();
        RunRecord {
            git_commit,
            crate_version,
            rustc_version,
            cpu_model,
            available_parallelism,
            hostname,
            machine_id,
            ..self
        }
    }

    /// Whether the run was measured while the machine was busy.
    pub fn machine_busy(&self) -> bool {
        self.machine_quiet == Some(false)
    }

    /// Whether the run measured a search (`ok`, `limit` or `verify-failed`).
    pub fn measured(&self) -> bool {
        matches!(self.status.as_str(), status::OK | status::LIMIT | status::VERIFY_FAILED)
    }
}

fn cut(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        text.to_string()
    } else {
        let kept: String = text.chars().take(limit.saturating_sub(3)).collect();
        format!("{kept}...")
    }
}

/// A year in nanoseconds: no run's search takes longer (a sweep's time budgets are days).
const MOST_WALL_NS: u64 = 365 * 86_400 * 1_000_000_000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::storing::run_columns::RunColumnCells;
    use crate::run::RunSettings;

    // The pinned column list: changing it breaks `--resume` and `report --baseline` on
    // older files, so change it deliberately (and document the column in docs/harness.md).
    // A new run knob adds its column to `run_column_table!` (src/run/settings.rs), which
    // makes `RunSettings::COLUMNS`, which this list takes in.
    /// The pinned columns before the run description ([`RunSettings::COLUMNS`]).
    const PINNED_BEFORE_RUN_COLUMNS: &str = "sweep,spec,config_id,config_index,repeat,shard,status,error,puzzle,instance,source,instance_title,variant,knobs";
    /// The pinned columns after the run description.
    const PINNED_AFTER_RUN_COLUMNS: &str = "repeats_planned,warmup,complete,solutions,answer_value,answer_json,verify_failures,nodes,wall_ns,batch,user_cpu_ns,system_cpu_ns,prunes_total,subproblems,steals,imbalance,idle_share,task_ns_median,task_ns_p90,task_nodes_median,first_solution_ns,stop_latency_ns,nodes_after_first,machine_quiet,other_cpu_share,load_average,peak_rss_kib,git_commit,crate_version,rustc_version,cpu_model,available_parallelism,hostname,timestamp,objective_best,objective_proven,time_to_best_ns,machine_id";

    #[test]
    fn the_runs_header_is_pinned() {
        let run_columns = RunSettings::COLUMNS.join(",");
        let pinned = format!("{PINNED_BEFORE_RUN_COLUMNS},{run_columns},{PINNED_AFTER_RUN_COLUMNS}");
        assert_eq!(RunRecord::header(), pinned);
        let header = RunRecord::header();
        let missing: Vec<&str> =
            COLUMNS_OF_EVERY_BUILD.iter().copied().filter(|column| !header.split(',').any(|c| c == *column)).collect();
        assert!(missing.is_empty(), "columns every build writes, not written now: {missing:?}");
    }

    /// A record's CSV cells by column name.
    fn cells(record: &RunRecord) -> std::collections::HashMap<String, String> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.serialize(record).unwrap();
        let text = String::from_utf8(writer.into_inner().unwrap()).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().unwrap().clone();
        let row = reader.records().next().unwrap().unwrap();
        header.iter().zip(row.iter()).map(|(name, cell)| (name.to_string(), cell.to_string())).collect()
    }

    #[test]
    fn the_run_cells_are_the_settings_column_values() {
        let settings = RunSettings {
            mode: SearchMode::First,
            strategy: crate::parallel::Strategy::Budget(500),
            threads: 4,
            counters: crate::parallel::CounterLayout::Shared,
            state: crate::parallel::StateRestore::Clone,
            affinity: crate::parallel::ThreadAffinity::Free,
            node_limit: 123_456,
            ..RunSettings::default()
        };
        let record = RunRecord::default().with_run_columns(RunColumnCells::from(&settings));
        let cells = cells(&record);
        let written: Vec<&str> = RunSettings::COLUMNS.iter().map(|column| cells[*column].as_str()).collect();
        assert_eq!(written, ["first", "budget:500", "4", "shared", "clone", "free", "123456"]);
        assert_eq!(written, settings.column_values());
        assert_eq!(record.run_columns(), RunColumnCells::from(&settings));
    }

    #[test]
    fn the_environment_columns_come_from_the_environment() {
        let environment = Environment {
            git_commit: "0123456789ab".into(),
            crate_version: "9.8.7".into(),
            rustc_version: "rustc 1.2.3".into(),
            cpu_model: "Test CPU".into(),
            available_parallelism: 12,
            hostname: "host-a".into(),
            machine_id: "machine-a".into(),
        };
        let record = RunRecord { sweep: "s".into(), ..RunRecord::default() }.with_environment(&environment);
        let cells = cells(&record);
        let expected = [
            ("git_commit", "0123456789ab"),
            ("crate_version", "9.8.7"),
            ("rustc_version", "rustc 1.2.3"),
            ("cpu_model", "Test CPU"),
            ("available_parallelism", "12"),
            ("hostname", "host-a"),
            ("machine_id", "machine-a"),
            ("sweep", "s"),
        ];
        for (column, value) in expected {
            assert_eq!(cells[column], value, "{column}");
        }
    }

    #[test]
    fn records_no_run_writes_are_skipped_naming_line_and_column() {
        let good = RunRecord { threads: 2, ..RunRecord::plausible() };
        assert_eq!(good.check_plausible(), Ok(()));
        let bad = [
            (RunRecord { threads: 0, ..good.clone() }, "column threads: 0 is not a thread count"),
            (RunRecord { status: "fine".to_string(), ..good.clone() }, "column status: `fine` is not one of"),
            (RunRecord { imbalance: f64::NAN, ..good.clone() }, "column imbalance: NaN"),
            (RunRecord { idle_share: -1.0, ..good.clone() }, "column idle_share: -1"),
            (RunRecord { idle_share: 7.0, ..good.clone() }, "column idle_share: 7 is not a share"),
            (RunRecord { mode: "sideways".to_string(), ..good.clone() }, "column mode: "),
            (RunRecord { strategy: "bogus:9".to_string(), ..good.clone() }, "column strategy: "),
            (RunRecord { affinity: "loose".to_string(), ..good.clone() }, "column affinity: "),
            (RunRecord { node_limit: 0, ..good.clone() }, "column node_limit: 0"),
            (RunRecord { available_parallelism: 0, ..good.clone() }, "column available_parallelism: 0"),
            (RunRecord { verify_failures: 5, ..good.clone() }, "column verify_failures: 5 with status `ok`"),
            (RunRecord { other_cpu_share: Some(-1.0), ..good.clone() }, "column other_cpu_share: -1 is not"),
            (RunRecord { other_cpu_share: Some(f64::NAN), ..good.clone() }, "column other_cpu_share: NaN"),
            (RunRecord { load_average: Some(f64::INFINITY), ..good.clone() }, "column load_average: inf"),
            (RunRecord { timestamp: "abc".to_string(), ..good.clone() }, "column timestamp: `abc` is not a UTC"),
            (RunRecord { timestamp: "2026-11-22 04:29:57Z".to_string(), ..good.clone() }, "column timestamp: "),
            (RunRecord { timestamp: "2026-99-99T99:99:99.999Z".to_string(), ..good.clone() }, "column timestamp: "),
            (RunRecord { config_id: "zz".to_string(), ..good.clone() }, "column config_id: `zz` is not"),
            (RunRecord { config_id: "0123456789ABCDEF".to_string(), ..good.clone() }, "column config_id: "),
            (RunRecord { batch: 0, ..good.clone() }, "column batch: 0"),
            (RunRecord { wall_ns: u64::MAX, ..good.clone() }, "column wall_ns: 18446744073709551615 is more"),
        ];
        let failed = RunRecord { status: status::ERROR.to_string(), batch: 0, ..good.clone() };
        assert_eq!(failed.check_plausible(), Ok(()), "a run that failed measured no batch");
        let older =
            RunRecord { timestamp: "2026-11-22T04:29:57Z".to_string(), load_average: Some(3.5), ..good.clone() };
        assert_eq!(older.check_plausible(), Ok(()), "no fraction of a second, a busy machine");
        let folder = tempfile::tempdir().unwrap();
        let file = folder.path().join("t-runs.csv");
        let mut records = vec![good.clone()];
        records.extend(bad.iter().map(|(record, _)| record.clone()));
        super::super::csv_log::write_rows(&file, &records, &RunRecord::header()).unwrap();
        let (read, notes) = super::super::results_folder::read_runs(std::slice::from_ref(&file)).unwrap();
        assert_eq!(read, [good]);
        assert_eq!(notes.len(), bad.len());
        for ((_, reason), (note, line)) in bad.iter().zip(notes.iter().zip(3..)) {
            assert!(note.contains(&format!("skipped a row: line {line}: {reason}")), "{note}");
        }
    }

    #[test]
    fn long_answers_are_cut() {
        assert_eq!(cut("abcdef", 5), "ab...");
        assert_eq!(cut("abc", 5), "abc");
    }
}
