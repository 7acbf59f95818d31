//! The run-description columns of the CSV rows: the cells of [`RunSettings::COLUMNS`],
//! spliced into the runs record and the summary row by one macro so that neither lists them.

use crate::run::RunSettings;

/// Defines a CSV row struct whose run-description columns (the cells of
/// [`RunSettings::COLUMNS`], in that order) sit as plain fields at the `..run_columns`
/// marker, with `run_columns` and `with_run_columns` to read and replace them together.
/// The runs log and the summary both carry these columns; the csv crate neither writes
/// `#[serde(flatten)]` nor reads a nested struct, so the cells are spliced in as fields
/// here, in one place, instead of being listed in each row.
macro_rules! row_with_run_columns {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$before_meta:meta])* pub $before:ident : $before_type:ty, )*
            ..run_columns,
            $( $(#[$after_meta:meta])* pub $after:ident : $after_type:ty, )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$before_meta])* pub $before: $before_type, )*
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
            /// Where pool threads ran (`pinned` or `free`); empty in files written before
            /// the column existed, which ran `pinned`.
            pub affinity: String,
            /// Node limit per component.
            pub node_limit: u64,
            $( $(#[$after_meta])* pub $after: $after_type, )*
        }

        impl $name {
            /// The run-description cells of this row.
            pub fn run_columns(&self) -> $crate::harness::storing::run_columns::RunColumnCells {
                $crate::harness::storing::run_columns::RunColumnCells {
                    mode: self.mode.clone(),
                    strategy: self.strategy.clone(),
                    threads: self.threads,
                    counters: self.counters.clone(),
                    state: self.state.clone(),
                    affinity: self.affinity.clone(),
                    node_limit: self.node_limit,
                }
            }

            /// The row with its run-description cells replaced by `cells`.
            #[allow(clippy::needless_update)] // `RunColumnCells` itself has no other field.
            pub fn with_run_columns(self, cells: $crate::harness::storing::run_columns::RunColumnCells) -> $name {
                let $crate::harness::storing::run_columns::RunColumnCells { mode, strategy, threads, counters, state, affinity, node_limit } =
                    cells;
                $name { mode, strategy, threads, counters, state, affinity, node_limit, ..self }
            }
        }
    };
}
pub(crate) use row_with_run_columns;

row_with_run_columns! {
/// The run description as CSV cells ([`RunSettings::COLUMNS`], in that order), copied
/// between the row types that carry them (the runs record and the summary row).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunColumnCells {
    ..run_columns,
}
}

impl From<&RunSettings> for RunColumnCells {
    fn from(run: &RunSettings) -> Self {
        // Each cell's text is written once, by `column_values` (what flags and specs
        // write); only the two numeric cells are taken as numbers. The header test in
        // record.rs pins this struct's field order to `RunSettings::COLUMNS`.
        let [mode, strategy, _threads, counters, state, affinity, _node_limit] = run.column_values();
        RunColumnCells { mode, strategy, threads: run.threads, counters, state, affinity, node_limit: run.node_limit }
    }
}
