//! The command line's argument types: the subcommands and every flag, as clap parses them.
//! Each command's own file (`*_command.rs`) turns its arguments into run settings and runs;
//! the family knob flags are added at run time from the registry (`knob_args`), and the long
//! help of the parallel flags is built from their forms (`parallel_help`).

use crate::parallel::{CounterLayout, StateRestore, Strategy, ThreadAffinity};
use crate::run::thread_list::parse_thread_count;
use crate::run::RunSettings;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// The workbench's own one-line description (`backtrack-bench --help`).
pub(super) const WORKBENCH_ABOUT: &str =
    "A workbench for backtracking puzzle solvers: exact node counts, toggleable pruning, parallel strategies, sweeps.";

/// The workbench's own long description, before the INSTANCE and exit-code paragraphs.
pub(super) const WORKBENCH_LONG_ABOUT: &str = "A workbench for backtracking puzzle solvers.\n\n\
    It runs the puzzles of the seed posts (Olympic Rings, a 3x3 prime grid, Jane Street's Hooks #7 and \
    Twenty Four Seven) on one depth-first engine, with every optimization behind a knob, and reports exact \
    node counts, per-rule prune counts and wall time. Without a command it runs the default sweep (the \
    `quick` preset) into ./results and regenerates its tables, as `sweep` and `report` would.";

/// The exit codes paragraph of the long help; `{program}` stands for the program's name.
pub(super) const EXIT_CODES_HELP: &str = "Exit codes: 0 success (also --help, --version, and output cut short by \
    a closed pipe); 1 a run or I/O failure (a failed sweep configuration, report --fail-on-change on a \
    regression); 2 bad input (flags, instance or spec file, knob values, a sweep name another run is using, a results \
    folder or CSV file the harness did not write, an output file this user may not write); \
    3 the family's code panicked (a bug in the model) in solve, explain, estimate, watch, split, run-part, merge \
    or scaling-check (one line names the family, the component and the node; a sweep records it as a `panic` \
    row and goes on), or reading the instance's data, the knobs or a short argument in any of them (one \
    line names the family and its function); 101 any other panic: a bug in {program}, printed in one line \
    (please report it), or, before any command runs, a family's faulty declarations found when it is registered \
    (the message names the family and the knob or form); 130 stopped by Ctrl-C (sweep, watch, solve --solutions) \
    or, for sweep, SIGTERM (both stop a sweep after the run in progress, with its summary).";

/// The command line's arguments. Its name, about text and version are the running
/// program's, set when the command is built (`super::command`), so that a user's binary
/// names itself.
#[derive(Parser)]
#[command(name = "backtrack-bench", version)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) command: Option<Command>,
}

#[derive(Subcommand)]
pub(super) enum Command {
    /// Solve one instance and print the solutions, the answer, the counts and the time.
    Solve(SolveArgs),
    /// Animate the search step by step in the terminal (plain frames when not a terminal).
    ///
    /// Exit code 130 when interrupted by Ctrl-C.
    Watch(WatchArgs),
    /// Estimate the tree size and search time with Knuth's random probes, without searching.
    Estimate(EstimateArgs),
    /// Measure why a parallel run is slower than it should be: reruns and a ranked verdict.
    #[command(long_about = EXPLAIN_LONG_ABOUT)]
    Explain(ExplainArgs),
    /// List the short instance names and every family's knobs.
    List(ListArgs),
    /// Run a sweep (a preset or a TOML spec) and append one CSV row per run to the results folder.
    Sweep(SweepArgs),
    /// Regenerate the summaries, plots and README.md of a results folder from its CSV files alone.
    Report(ReportArgs),
    /// Check the scaling prediction against measured runs on this machine (see docs/scaling.md).
    ScalingCheck(ScalingCheckArgs),
    /// Split one search into N parts for a batch system: writes DIR/plan.json (docs/cluster.md).
    Split(SplitArgs),
    /// Run one part of a split search and write DIR/parts/K.json.
    RunPart(RunPartArgs),
    /// Add up the parts of a split search into the report `solve --json` prints.
    Merge(MergeArgs),
}

/// Flags of `split`; the knob flags are added from the families' specs.
#[derive(Args, Debug)]
pub struct SplitArgs {
    /// A short instance name or a path to an instance file (the names are listed when the
    /// command is built, from the families this program offers).
    #[arg(value_name = "INSTANCE")]
    pub instance: String,
    /// Every solution (the default; for a family with an objective, the best one, found by
    /// branch and bound with an incumbent the parts share).
    #[arg(long, conflicts_with = "first")]
    pub all: bool,
    /// Refused: a first-solution search is not split (docs/cluster.md says why).
    #[arg(long)]
    pub first: bool,
    /// The number of parts, 1 to 16666. The tree is cut at the shallowest depth with about 30
    /// subproblems a part; a small tree may have fewer in all (some parts then get none).
    // 16666 is `cluster::MAX_PARTS` (asserted at the end of this file).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=crate::cluster::MAX_PARTS as u64))]
    pub parts: u64,
    /// The folder for plan.json and parts/ (shared by the machines, or copied back). A split
    /// that would write a new key (DIR/key lost) over finished parts of this plan is refused:
    /// restore DIR/key, or remove DIR/parts to run every part again.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Print the plan's summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// For a family with an objective (branch and bound): the value of a solution known
    /// beforehand; every part starts from it and looks only for better ones.
    #[arg(long, value_name = "V")]
    pub incumbent: Option<i64>,
}

/// Flags of `run-part`.
#[derive(Args, Debug)]
pub struct RunPartArgs {
    /// The folder `split` wrote.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The part, from 1; default: SLURM_ARRAY_TASK_ID, else JOB_COMPLETION_INDEX + 1.
    #[arg(value_name = "K")]
    pub part: Option<usize>,
    /// Threads that share the part's subproblems (each takes the next one not yet taken), 1 to 1024.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_thread_count)]
    pub threads: usize,
    /// For a family with an objective: how often, in milliseconds, the part reads the
    /// incumbents the other parts published in DIR/incumbent/ (it publishes its own at
    /// each improvement); 1 to 3,600,000 (an hour).
    #[arg(long, value_name = "MS", default_value_t = crate::cluster::incumbent::EXCHANGE_INTERVAL.as_millis() as u64, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub exchange_ms: u64,
}

/// Flags of `merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The folder `split` wrote and the parts filled.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Print the report as one JSON object (the same as `solve --json`).
    #[arg(long)]
    pub json: bool,
    /// List the parts done and missing, with the commands that run the missing ones.
    #[arg(long, conflicts_with = "json")]
    pub status: bool,
}

/// Flags of `sweep`.
#[derive(Args, Debug)]
pub struct SweepArgs {
    /// A built-in preset: quick (the default), enumeration, full, scaling.
    #[arg(long, value_name = "NAME", conflicts_with = "spec")]
    pub preset: Option<String>,
    /// A sweep spec file (TOML; see scripts/sweeps/ and docs/harness.md).
    #[arg(long, value_name = "FILE")]
    pub spec: Option<std::path::PathBuf>,
    /// Thread counts for the parallel strategies, replacing the spec's: `1,2,4`, `cores`, `cores*2`, `cores+1`,
    /// `1..cores` (each from 1 to 1024).
    #[arg(long, value_name = "LIST")]
    pub threads: Option<String>,
    /// Timed runs per configuration, replacing the spec's (at most a million).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::harness::sweeping::spec::MAX_REPEATS)))]
    pub repeats: Option<u32>,
    /// Untimed warm-up runs per configuration, replacing the spec's (at most 10,000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=i64::from(crate::harness::sweeping::spec::MAX_WARMUP)))]
    pub warmup: Option<u32>,
    /// Per-run node limit (per component), replacing the spec's (20,000,000,000 where it sets none; at least 1); a run
    /// reaching it is recorded as `limit`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub node_limit: Option<u64>,
    /// Name the sweep (and its files) NAME instead of the spec's name.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// The results folder.
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub out: std::path::PathBuf,
    /// Keep the folder's run log and run only the configurations (and repeats) not yet recorded.
    #[arg(long)]
    pub resume: bool,
    /// When another run of this sweep (same name, same folder) is running: wait for it to end
    /// instead of refusing with exit code 2.
    #[arg(long)]
    pub wait: bool,
    /// Run only slice K of N (configurations whose index is K-1 modulo N), e.g. for Slurm job arrays.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Print the configurations (of the shard, if given) and exit without running.
    #[arg(long)]
    pub dry_run: bool,
    /// No progress bar and no per-configuration lines.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print the outcome (or, with --dry-run, the configurations) as one JSON object on stdout; implies --quiet.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Print one JSON object (`instances`, `families` with their knobs) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The results folder: reads its *-runs.csv files, writes the summaries, plots/ and README.md there.
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub out: std::path::PathBuf,
    /// An earlier run log (*-runs.csv) or results folder to compare with, configuration by configuration: a time change is flagged when the 95% bootstrap interval of now / before excludes 1 and the change is beyond 10% (15% for calls under 10 µs); a node count when it differs. Without it, each sweep is compared in the same way with its previous run, kept in DIR/history/ by the sweep that replaced it.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<std::path::PathBuf>,
    /// With --baseline: exit with code 1 on a regression (slower beyond the noise, other node counts or another best value), or when no configuration could be compared at all; faster rows pass.
    #[arg(long, requires = "baseline")]
    pub fail_on_change: bool,
    /// Print nothing but errors and the comparison.
    #[arg(long, short)]
    pub quiet: bool,
    /// Link the plots in README.md as BASE/plots/FILE (an absolute address, such as the results folder's raw URL on your forge), for pasting into a pull request; default: relative links.
    #[arg(long, value_name = "BASE")]
    pub image_base: Option<String>,
    /// Print what was written and the comparison (every configuration compared, with its ratio interval and verdict) as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `watch`; the knob flags are added from the families' specs.
#[derive(Args, Debug)]
pub struct WatchArgs {
    /// A short instance name or a path to an instance file (the names are listed when the
    /// command is built, from the families this program offers).
    #[arg(value_name = "INSTANCE")]
    pub instance: String,
    /// Pause after each frame, in milliseconds (terminal only; at most 60,000).
    #[arg(long, value_name = "MS", default_value_t = 80, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub delay: u64,
    /// Stop each component after N steps: N frames, one per step (a child placed or
    /// pruned, a dead end, a solution; the root is not a step).
    #[arg(long, value_name = "N", default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_steps: u64,
    /// Ring radius in terminal columns, 2 to 40 (Olympic Rings).
    #[arg(long, default_value_t = 10)]
    pub radius: i64,
    /// Height/width of a terminal cell's drawing, 0.1 to 4.0: 0.5 for cells twice as tall as
    /// wide (the Olympic Rings post used 0.66 for its font).
    #[arg(long, default_value_t = 0.5)]
    pub aspect: f64,
    /// Print plain frames without colours even on a terminal (as when NO_COLOR is set or
    /// TERM is `dumb`).
    #[arg(long)]
    pub plain: bool,
}

/// Flags of `estimate`; the knob flags are added from the families' specs.
#[derive(Args, Debug)]
pub struct EstimateArgs {
    /// A short instance name or a path to an instance file (the names are listed when the
    /// command is built, from the families this program offers).
    #[arg(value_name = "INSTANCE")]
    pub instance: String,
    /// Random probes per component, 1 to 10,000,000.
    #[arg(long, value_name = "K", default_value_t = 1_000)]
    pub probes: usize,
    /// Seed of the probes' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How the probes estimate the tree: `stratified` (the default: the top levels counted
    /// exactly, down to the deepest level with at most K/4 accepted nodes, and the probes
    /// spread evenly over the subtrees below, each probe descending only into accepted
    /// children), `accepted` (probes from the root, descending only into accepted children),
    /// or `knuth` (Knuth's plain probes: any child, a rejected one ends the probe). All three
    /// are unbiased; docs/estimate.md compares them.
    #[arg(long, value_name = "METHOD", default_value = "stratified")]
    pub method: crate::search::EstimateMethod,
    /// The most seconds the probes of all components may take together: past it, the
    /// estimate stops (exit code 1) and says how many probes it made, instead of running
    /// on; above 0 and at most 86,400 (a day). Each component's node cost is then timed on a
    /// short search that stops at the same deadline, and after 1 s (or 200,000 nodes) at
    /// most. The full search of --compare is not bounded by it.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub time_limit: f64,
    /// Also run the full search (sequential, on models built afresh) and print the actual
    /// node count, the actual time and the ratio of estimate to actual.
    #[arg(long)]
    pub compare: bool,
    /// Print one JSON object (the settings and one entry per component) instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `solve`. The knob flags (`--order`, `--rules`, ...) are added from the
/// families' specs; see `backtrack-bench solve --help`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// A short instance name or a path to an instance file (the names are listed when the
    /// command is built, from the families this program offers).
    #[arg(value_name = "INSTANCE")]
    pub instance: String,
    /// Find every solution (the default): the whole tree is searched, uniqueness proven.
    /// For a family with an objective (max_clique, knapsack, prime_grid with
    /// `--objective min-total`): every optimal solution, by branch and bound (a child is
    /// cut only when its bound is worse than the best value found).
    #[arg(long, conflicts_with_all = ["first", "best"])]
    pub all: bool,
    /// Stop at the first solution of each component (for a family with an objective: any
    /// solution, not the best; see --best and --at-least).
    #[arg(long, conflicts_with = "best")]
    pub first: bool,
    /// The best solution of each component, by branch and bound: the engine keeps the best
    /// value found (the incumbent, shared by every thread) and cuts every child whose bound
    /// cannot beat it; the report gives the best value, whether it is proven optimal, and
    /// the time to the best solution and to the proof. Only for a family with an objective.
    #[arg(long)]
    pub best: bool,
    /// The decision form of a maximisation: stop at the first solution whose value is at
    /// least V, cutting every child whose bound cannot reach V ("is there a clique of V
    /// vertices?"); the report says whether V was reached or proven unreachable.
    #[arg(long, value_name = "V", conflicts_with_all = ["all", "first", "best", "at_most"])]
    pub at_least: Option<i64>,
    /// The decision form of a minimisation: stop at the first solution whose value is at
    /// most V (as --at-least, for a family that minimises).
    #[arg(long, value_name = "V", conflicts_with_all = ["all", "first", "best"])]
    pub at_most: Option<i64>,
    /// Stop each component's search after this many nodes; the run is reported as incomplete.
    /// Sequential runs stop exactly at N; parallel ones may enter up to 1024 nodes per
    /// thread more (the report's `node_limit_overshoot_max`). At least 1, as in `sweep`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub node_limit: Option<u64>,
    /// Stop the run after this many seconds of wall time (decimals allowed); the run is
    /// reported as incomplete, stopped by `time-limit`. The clock is looked at every 1024
    /// nodes, so a run ends that many nodes after the limit at most. Above 0 and at most a year.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<std::time::Duration>,
    /// Do not count checks and prunes per rule or nodes per depth (those counters compile away).
    #[arg(long)]
    pub no_rule_counts: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the run's per-depth profile to FILE (CSV) and its plot to FILE with the
    /// extension `.svg`.
    ///
    /// The CSV has the columns component, depth, nodes, then prunes_RULE for each rule of
    /// the family: one row per depth of each component (multi-grid instances have one
    /// block of rows per grid), so the nodes column adds up to the run's nodes and each
    /// prunes column to that rule's prunes. The SVG shows the run's nodes per depth and
    /// each rule's prunes per depth, on a log scale when the counts span two orders of
    /// magnitude. Both files are written whole or not at all (temporary file + rename).
    /// `-` or /dev/stdout writes the CSV to standard output, and a FIFO or a device gets
    /// the CSV streamed in; neither has a plot beside it.
    #[arg(long, value_name = "FILE", conflicts_with = "no_rule_counts")]
    pub profile: Option<std::path::PathBuf>,
    /// Write every solution found to FILE, one JSON line each (`{"component": NAME,
    /// "solution": TEXT}`), in the order found; the report keeps only a sample of them.
    /// Streamed while the search runs (bounded memory), and FILE is written whole or not at
    /// all (temporary file + rename). `-` or /dev/stdout writes to standard output, and a
    /// FIFO or a device is streamed into, never replaced.
    #[arg(long, value_name = "FILE")]
    pub solutions: Option<std::path::PathBuf>,
    /// How the search is spread over threads.
    #[command(flatten)]
    pub parallel: ParallelArgs,
}

/// A positive, finite number of seconds (at most a year), for `--time-limit`. A value below
/// the nanosecond the limit is kept in would be a limit of 0, which the report would show.
pub(super) fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    const YEAR_S: f64 = 365.0 * 24.0 * 3600.0;
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= YEAR_S => {
            let limit = std::time::Duration::from_secs_f64(seconds);
            if limit.is_zero() {
                return Err(format!("expected a number of seconds above 0 (a nanosecond at least, not {seconds:e})"));
            }
            Ok(limit)
        }
        _ => Err(format!("expected a number of seconds above 0 and at most {YEAR_S} (a year), e.g. 2.5")),
    }
}

/// The long help of `explain`: what it runs and what it writes.
pub const EXPLAIN_LONG_ABOUT: &str = "Measure why a parallel run is slower than it should be.\n\n\
    Runs the search sequentially, with the --parallel strategy at 1 thread and at --threads, and the A/B \
    reruns: the other counter layouts (padded, shared, unpadded) at --threads, the other state mode (undo or \
    clone) sequentially and at --threads, and, when --threads exceeds the available CPUs, the strategy at as \
    many threads as CPUs; beside `naive`, the good strategy `auto` at --threads. Every configuration runs once \
    per round; rounds go on (at least 6) until the explained run's median time is known within ±3% (95% \
    bootstrap interval), or 20 s of runs, or 50 rounds; --repeats R runs exactly R rounds instead. The lost \
    time (wall time at N threads minus sequential / N) is split into measured causes that partition it \
    (shares >= 0 summing to 100%, gains listed apart), each share with a bootstrap interval; a cause ranks \
    above another only when at least 6 rounds were run, their shares differ by 10 points or more and the \
    interval of the difference, widened for the number of rounds, excludes 0; otherwise they are tied (fewer \
    than 6 rounds rank nothing, and the verdict says so). The verdict is printed (or as JSON with --json) and written as a Markdown report \
    with an SVG plot beside it. See docs/why-slower.md.";

/// Flags of `explain`; the knob flags are added from the families' specs.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// A short instance name or a path to an instance file (the names are listed when the
    /// command is built, from the families this program offers).
    #[arg(value_name = "INSTANCE", required_unless_present = "cluster", default_value = "", hide_default_value = true)]
    pub instance: String,
    /// Explain how the parts of a split search in DIR ran on the batch system instead
    /// (from parts/K.json's times): makespan, each worker slot's busy and idle time, the
    /// scheduler's gaps (mean and median), the largest part, the imbalance, and the
    /// predicted makespan at 1 to 1,024 workers, each part costing its time plus the median
    /// gap (docs/cluster.md).
    #[arg(long, value_name = "DIR", conflicts_with = "instance")]
    pub cluster: Option<PathBuf>,
    /// With --cluster: the parts the batch system ran at once (Slurm's `--array=...%W`);
    /// 1 to 1,000,000; default: inferred from the parts that overlapped in time.
    #[arg(long, value_name = "W", requires = "cluster", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub slots: Option<u32>,
    /// Explain the search for the first solution of each component (default: all solutions).
    #[arg(long)]
    pub first: bool,
    /// Explain the search for the best solution of each component, by branch and bound
    /// (a family with an objective): the report adds the anomaly (search overhead with
    /// its sign), the time to the best solution and the time to the proof.
    #[arg(long, conflicts_with = "first")]
    pub best: bool,
    /// Run exactly R rounds (timed runs per configuration) instead of the adaptive default:
    /// at least 6 rounds, then until the explained run's median is within ±3%, 20 s of runs
    /// or 50 rounds. At most 1000.
    #[arg(long, value_name = "R", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeats: Option<u32>,
    /// Print the verdict (causes, shares, intervals, ranks, gains, advice) as one JSON
    /// object instead of text; the report files are written all the same.
    #[arg(long)]
    pub json: bool,
    /// The Markdown report to write (the plot goes beside it, with the extension .svg; a
    /// missing folder is created, as the default's is); default:
    /// results/explain/<instance>[-<knobs>]-<strategy>-<threads>t[-first].md.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The parallel run to explain (--parallel must name a parallel strategy).
    #[command(flatten)]
    pub parallel: ParallelArgs,
    /// Predict the speedup at many thread counts instead (`--predict`, see docs/scaling.md).
    #[command(flatten)]
    pub predict: PredictArgs,
}

/// The flags that turn `explain` into a prediction.
#[derive(Args, Debug, Clone)]
pub struct PredictArgs {
    /// Predict the strategy's speedup at these thread counts (e.g. 1,2,4,8,16,32,64,128,256)
    /// instead of explaining a run: records the tree once, measures the costs of this
    /// machine (--repeats timed sequential searches, alone and side by side), replays the
    /// schedule and names the ceiling. The explain reruns are skipped. A search whose models
    /// have an objective (branch and bound) is refused: its tree is not one recorded tree.
    #[arg(long, value_name = "LIST")]
    pub predict: Option<String>,
    /// With --predict: the CPUs the threads share (default: one CPU per thread, the answer
    /// for a machine as large as the thread count).
    #[arg(long, value_name = "N", requires = "predict", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub cores: Option<u64>,
}

/// Flags of `scaling-check`.
#[derive(Args, Debug)]
pub struct ScalingCheckArgs {
    /// Instances to check (built-in names or files).
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "instances/twenty_four_seven_enumeration.json,instances/hooks_enumeration.json,instances/prime_grid_enumeration.json"
    )]
    pub instances: Vec<String>,
    /// Strategies to check.
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "auto,steal")]
    pub strategies: Vec<String>,
    /// Thread counts; those above the CPUs are marked oversubscribed.
    #[arg(long, value_name = "LIST", default_value = "1,2,3,4")]
    pub threads: String,
    /// Timed runs per configuration (the median is used), and rounds of the calibration; 1 to 1000.
    #[arg(long, value_name = "R", default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeats: u32,
    /// The output folder.
    #[arg(long, value_name = "DIR", default_value = "results/scaling")]
    pub out: PathBuf,
    /// Calibrate on one CPU, as before per-CPU timing: every CPU is taken to be as fast as
    /// the first. By default the sequential search is also timed on each allowed CPU (one
    /// more search per CPU and round) and each pinned worker is predicted at its CPU's
    /// speed (docs/scaling.md, "Calibrated per CPU").
    #[arg(long)]
    pub one_cpu: bool,
    /// Measure nothing: analyse the measurements.json of an earlier check (another
    /// machine's, say) into --out. Each workload's tree is recorded again here (the search
    /// is deterministic) and checked against the node counts in the file; every time and
    /// cost comes from the file, so the table is the one that check wrote, under this
    /// build's prediction. Writes the CSVs, plots and README (not measurements.json: the
    /// file read stays the record, and --out may be its own folder). --threads,
    /// --strategies, --repeats and --one-cpu are not read (the file says what was measured);
    /// --instances names the instances, matched by id, of workloads that name none or whose
    /// recorded instance does not load here (a path on the machine that measured).
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
}

/// How a run is spread over threads. Each flag is parsed by its type's own parser (the one
/// sweep specs use too), so a bad value is a usage error (exit code 2) naming the flag.
#[derive(Args, Debug, Clone)]
pub struct ParallelArgs {
    /// The parallel strategy (see the long help, `--help`, for every form).
    #[arg(long = "parallel", value_name = "STRATEGY", default_value = "sequential")]
    pub strategy: Strategy,
    /// Worker threads for a parallel strategy, 1 to 1024 (default: the available CPUs; ignored by `sequential`).
    #[arg(long, value_name = "N", value_parser = parse_thread_count)]
    pub threads: Option<usize>,
    /// Where workers keep their node counters: padded (default), shared, unpadded.
    #[arg(long, value_name = "LAYOUT", default_value = "padded")]
    pub counters: CounterLayout,
    /// How the state is restored after a child: undo (default) or clone.
    #[arg(long, value_name = "MODE", default_value = "undo")]
    pub state: StateRestore,
    /// Where pool threads run: pinned (default) or free.
    #[arg(long, value_name = "PLACEMENT", default_value = "pinned")]
    pub affinity: ThreadAffinity,
}

impl ParallelArgs {
    /// Writes the flags into `settings`.
    pub fn apply(&self, settings: &mut RunSettings) {
        settings.strategy = self.strategy;
        // `sequential` needs no thread count, and asking for the CPUs reads several files.
        let sequential = self.strategy == Strategy::Sequential;
        settings.threads =
            self.threads.unwrap_or_else(|| if sequential { 1 } else { crate::machine_guard::available_cpus() });
        settings.counters = self.counters;
        settings.state = self.state;
        settings.affinity = self.affinity;
    }
}

// The help of `split --parts` names the largest part count.
const _: () = assert!(crate::cluster::MAX_PARTS == 16_666);
