//! The run-description columns of the CSV rows, spliced into the runs record and the
//! summary row from the one table of them (`run::settings::run_column_table!`), so that
//! neither row, nor anything here, lists them.

use crate::run::settings::run_column_table;
use crate::run::RunSettings;

/// Defines a CSV row struct whose run-description columns (the rows of
/// `run_column_table!`, in that order) sit as plain fields at the `..run_columns` marker,
/// with `run_columns` and `with_run_columns` to read and replace them together. The runs
/// log and the summary both carry these columns; the csv crate neither writes
/// `#[serde(flatten)]` nor reads a nested struct, so the cells are spliced in as fields.
macro_rules! row_with_run_columns {
    ($($row:tt)*) => {
        $crate::run::settings::run_column_table! {
            $crate::harness::storing::run_columns::spliced_row { { $($row)* } }
        }
    };
}
pub(crate) use row_with_run_columns;

/// [`row_with_run_columns!`]'s work, once `run_column_table!` has appended its rows to the
/// row's definition.
macro_rules! spliced_row {
    (
        {
            $(#[$meta:meta])*
            pub struct $name:ident {
                $( $(#[$before_meta:meta])* pub $before:ident : $before_type:ty, )*
                ..run_columns,
                $( $(#[$after_meta:meta])* pub $after:ident : $after_type:ty, )*
            }
        }
        $( $(#[doc = $doc:literal])* $column:ident : $cell:ty = |$run:ident| $value:expr; )*
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$before_meta])* pub $before: $before_type, )*
            $( $(#[doc = $doc])* pub $column: $cell, )*
            $( $(#[$after_meta])* pub $after: $after_type, )*
        }

        impl $name {
            /// The run-description cells of this row.
            pub fn run_columns(&self) -> $crate::harness::storing::run_columns::RunColumnCells {
                $crate::harness::storing::run_columns::RunColumnCells {
                    $( $column: ::std::clone::Clone::clone(&self.$column), )*
                }
            }

            /// The row with its run-description cells replaced by `cells`.
            #[allow(clippy::needless_update)] // `RunColumnCells` itself has no other field.
            pub fn with_run_columns(self, cells: $crate::harness::storing::run_columns::RunColumnCells) -> $name {
                let $crate::harness::storing::run_columns::RunColumnCells { $($column),* } = cells;
                $name { $($column,)* ..self }
            }
        }
    };
}
pub(crate) use spliced_row;

row_with_run_columns! {
/// The run description as CSV cells ([`RunSettings::COLUMNS`], in that order), copied
/// between the row types that carry them (the runs record and the summary row).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunColumnCells {
    ..run_columns,
}
}

/// Defines `From<&RunSettings>` for [`RunColumnCells`] from the rows of
/// `run_column_table!`: each cell as the table reads it, the same cell that
/// [`RunSettings::column_values`] writes as text.
macro_rules! cells_from_settings {
    ($( $(#[doc = $doc:literal])* $column:ident : $cell:ty = |$run:ident| $value:expr; )*) => {
        impl From<&RunSettings> for RunColumnCells {
            fn from(settings: &RunSettings) -> Self {
                RunColumnCells {
                    $( $column: {
                        let $run = settings;
                        $value
                    }, )*
                }
            }
        }
    };
}
run_column_table! { cells_from_settings {} }
