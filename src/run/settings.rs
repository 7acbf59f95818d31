//! How one run is set up, apart from the instance: [`RunSettings`], the search mode, and the
//! crate's only thread-count parser (single counts, lists and core-count expressions).
//!
//! Command-line flags (`cli::args`, `cli::knob_args`) and sweep-spec blocks
//! (`harness::sweeping::spec`) are parsed into these types where they enter, with the same
//! parsers (each knob's `FromStr` from the `crate::knobs` vocabulary, `parse_thread_count`,
//! `parse_thread_list`), so a bad value is refused at the boundary (exit code 2) and never
//! travels further as text. The family's knob text is the one exception: it is read into
//! the family's typed config once, by `run::prepare`.
//!
//! A new run knob is its type (with `FromStr` and `Display`) and, here, its [`RunSettings`]
//! field and default, its row in `run_column_table!` (its CSV column, which the runs log,
//! the summary row and `sweep --dry-run` all take from that table) and its entry in
//! `RUN_DIMENSIONS` for sweeps; outside this file, only its flag (`cli::args`).

use crate::knobs::KnobValues;
use crate::parallel::{CounterLayout, ParallelPlan, StateRestore, Strategy, ThreadAffinity};
use serde::Serialize;
use std::fmt::Display;
use std::str::FromStr;

pub use crate::parallel::MAX_THREADS;

crate::run_knob_enum! {
    /// What to search for.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum SearchMode("search mode") {
        /// Every solution (the whole tree).
        All = "all" => "every solution: the whole tree",
        /// The first solution of each component.
        First = "first" => "the first solution of each component",
        /// The best solution of each component, by branch and bound (a family whose model
        /// declares an objective): the first optimal solution found, proven optimal.
        Best = "best" => "the best solution of each component, by branch and bound",
    }
}

impl SearchMode {
    /// What a run of this mode searched for, in words; `optimises`: the model declared an
    /// objective (then `all` lists every optimal solution).
    pub fn words(self, optimises: bool) -> &'static str {
        match (self, optimises) {
            (SearchMode::All, false) => "all solutions",
            // Of an optimising run, the count is of every solution reached, the improving
            // ones included (how many depends on the schedule); the best are the kept ones.
            (SearchMode::All, true) => {
                "reached by a branch and bound that keeps every optimal solution; the count takes in the worse \
                 ones reached on the way, and depends on the order and the schedule"
            }
            (SearchMode::First, _) => "first solution",
            (SearchMode::Best, false) => "the best solution, by branch and bound",
            (SearchMode::Best, true) => "reached by a branch and bound for the best solution",
        }
    }
}

/// The decision form of an optimisation (YewPar's Decision skeleton): stop at the first
/// solution whose objective value reaches a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// A value of at least this (a maximising family): `--at-least V`.
    AtLeast(i64),
    /// A value of at most this (a minimising family): `--at-most V`.
    AtMost(i64),
}

impl Target {
    /// The value aimed at.
    pub fn value(self) -> i64 {
        match self {
            Target::AtLeast(value) | Target::AtMost(value) => value,
        }
    }

    /// The flag that sets it, as help and errors write it.
    pub fn flag(self) -> &'static str {
        match self {
            Target::AtLeast(_) => "--at-least",
            Target::AtMost(_) => "--at-most",
        }
    }

    /// The sense of objective this target fits.
    pub fn sense(self) -> crate::search::Sense {
        match self {
            Target::AtLeast(_) => crate::search::Sense::Maximise,
            Target::AtMost(_) => crate::search::Sense::Minimise,
        }
    }
}

/// How one run is set up, apart from the instance: the one typed run description.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSettings {
    /// Knob values of the family as given (defaults fill the rest); read into the family's
    /// typed config once, by `run::prepare`.
    pub knobs: KnobValues,
    /// Every solution, the first, or the best (branch and bound, for a family with an objective).
    pub mode: SearchMode,
    /// Stop each component after this many nodes (`u64::MAX`: no limit).
    pub node_limit: u64,
    /// Stop the run (all components together) once this much wall time has passed.
    pub time_limit: Option<std::time::Duration>,
    /// Keep per-rule and per-depth counts (off: those counters compile away).
    pub rule_counts: bool,
    /// How many solutions to keep per component for printing (all are counted).
    pub solutions_to_keep: usize,
    /// The parallel strategy.
    pub strategy: Strategy,
    /// Worker threads, from 1 to [`MAX_THREADS`]; `sequential` runs on one whatever it says.
    pub threads: usize,
    /// Counter layout across workers.
    pub counters: CounterLayout,
    /// State restoration.
    pub state: StateRestore,
    /// Where pool threads run.
    pub affinity: ThreadAffinity,
    /// For an optimising family, stop at the first solution reaching this value (the
    /// decision form); `None`: the mode alone says what is searched for. Not a sweep
    /// dimension: runs that set it are single `solve` runs.
    pub target: Option<Target>,
}

impl Default for RunSettings {
    fn default() -> Self {
        RunSettings {
            knobs: KnobValues::new(),
            mode: SearchMode::All,
            node_limit: u64::MAX,
            time_limit: None,
            rule_counts: true,
            solutions_to_keep: 1000,
            strategy: Strategy::Sequential,
            threads: 1,
            counters: CounterLayout::default(),
            state: StateRestore::default(),
            affinity: ThreadAffinity::default(),
            target: None,
        }
    }
}

/// The run description's CSV columns (of the runs log, the summary and `sweep --dry-run`),
/// in their order: the one table of them. Each row is the column's documentation, its
/// name (also the field of the CSV rows that carry it), its cell's type, and how the cell
/// is read from a `&RunSettings`. The table is handed to `$callback!`, after the caller's
/// tokens, so that every list of the columns is generated from it: here,
/// [`RunSettings::COLUMNS`] and [`RunSettings::column_values`]; in
/// `harness::storing::run_columns`, the row fields, `RunColumnCells` and its
/// `From<&RunSettings>`. A row's place in the table is its column's place in the CSV
/// header, which the header test in `harness::storing::record` pins. The knobs have their
/// own `knobs` column, written by the rows themselves.
macro_rules! run_column_table {
    ($callback:path { $($caller:tt)* }) => {
        $callback! {
            $($caller)*
            /// `all`, `first` or `best`.
            mode: String = |run| run.mode.name().to_string();
            /// Parallel strategy.
            strategy: String = |run| run.strategy.to_string();
            /// Worker threads.
            threads: usize = |run| run.threads;
            /// Counter layout.
            counters: String = |run| run.counters.to_string();
            /// State restoration.
            state: String = |run| run.state.to_string();
            /// Where pool threads ran (`pinned` or `free`); empty in files written before
            /// the column existed, which ran `pinned`.
            affinity: String = |run| run.affinity.to_string();
            /// Node limit per component.
            node_limit: u64 = |run| run.node_limit;
        }
    };
}
pub(crate) use run_column_table;

/// Defines [`RunSettings::COLUMNS`] and [`RunSettings::column_values`] from the rows of
/// [`run_column_table!`].
macro_rules! settings_columns {
    ($( $(#[doc = $doc:literal])* $column:ident : $cell:ty = |$run:ident| $value:expr; )*) => {
        /// How many run-description columns there are.
        const RUN_COLUMN_COUNT: usize = [$(stringify!($column)),*].len();

        impl RunSettings {
            /// The run description's CSV columns (of the runs log, the summary and `sweep
            /// --dry-run`), in their order; the knobs have their own `knobs` column.
            pub const COLUMNS: [&'static str; RUN_COLUMN_COUNT] = [$(stringify!($column)),*];

            /// The values under [`RunSettings::COLUMNS`], as their flags and specs write them.
            pub fn column_values(&self) -> [String; RUN_COLUMN_COUNT] {
                [$({
                    let $run = self;
                    let cell: $cell = $value;
                    cell.to_string()
                }),*]
            }
        }
    };
}
run_column_table! { settings_columns {} }

impl RunSettings {
    /// The threads the run uses: 1 for `sequential` (it runs on the calling thread), else
    /// [`RunSettings::threads`].
    pub fn pool_threads(&self) -> usize {
        if self.strategy == Strategy::Sequential {
            1
        } else {
            self.threads
        }
    }

    /// The strategy, counter layout and state mode the parallel layer runs with.
    pub fn parallel_plan(&self) -> ParallelPlan {
        ParallelPlan { strategy: self.strategy, counters: self.counters, state: self.state }
    }
}

/// Which runs a dimension varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Every run: crossed before the thread counts.
    EveryRun,
    /// Only runs of parallel strategies (it concerns pool threads): crossed after the thread
    /// counts; `sequential` runs once, with the first value.
    PoolThreads,
}

/// One run knob a sweep block can list values for.
#[derive(Debug)]
pub(crate) struct RunDimension {
    /// The block key listing its values (`affinities = ["pinned", "free"]`).
    pub key: &'static str,
    /// Which runs it varies.
    pub scope: Scope,
    /// Parses one value, with the parser its command-line flag uses, and sets it on a run
    /// description; the error says what is accepted.
    pub set: fn(&mut RunSettings, &str) -> Result<(), String>,
}

/// The run dimensions, in the order the plan crosses them (the first varies slowest);
/// `EveryRun` ones come first. A block that leaves a key out runs that knob's default.
pub(crate) const RUN_DIMENSIONS: &[RunDimension] = &[
    RunDimension { key: "modes", scope: Scope::EveryRun, set: |run, text| parsed(text).map(|mode| run.mode = mode) },
    RunDimension {
        key: "states",
        scope: Scope::EveryRun,
        set: |run, text| parsed(text).map(|state| run.state = state),
    },
    RunDimension {
        key: "strategies",
        scope: Scope::EveryRun,
        set: |run, text| parsed(text).map(|strategy| run.strategy = strategy),
    },
    RunDimension {
        key: "counters",
        scope: Scope::PoolThreads,
        set: |run, text| parsed(text).map(|counters| run.counters = counters),
    },
    RunDimension {
        key: "affinities",
        scope: Scope::PoolThreads,
        set: |run, text| parsed(text).map(|affinity| run.affinity = affinity),
    },
];

fn parsed<T: FromStr>(text: &str) -> Result<T, String>
where
    T::Err: Display,
{
    text.parse::<T>().map_err(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_runs_on_one_thread_whatever_the_count() {
        let settings = RunSettings { threads: 4, ..RunSettings::default() };
        assert_eq!(settings.pool_threads(), 1);
        let steal = RunSettings { strategy: Strategy::Steal, ..settings };
        assert_eq!(steal.pool_threads(), 4);
    }

    #[test]
    fn search_modes_round_trip_and_refuse_others() {
        for mode in [SearchMode::All, SearchMode::First, SearchMode::Best] {
            assert_eq!(mode.name().parse::<SearchMode>(), Ok(mode));
        }
        let message = "some".parse::<SearchMode>().unwrap_err().to_string();
        assert_eq!(message, "invalid search mode `some`; expected one of: all, first, best");
    }
}
