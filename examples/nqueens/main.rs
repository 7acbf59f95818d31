//! The `nqueens` example: the N-Queens family (`family.rs`) on the workbench's command line.
//! `cargo run --release --example nqueens -- solve 12 --all` counts the 14,200 placements of
//! 12 queens; every other command of the workbench works as well.

mod family;

use backtrack_bench::Workbench;
use family::NQueens;

fn main() -> std::process::ExitCode {
    Workbench::new().family::<NQueens>().run_cli()
}

#[cfg(test)]
mod tests {
    use super::NQueens;
    use backtrack_bench::testing::{assert_parity_across_strategies, ParityCase};

    /// Published counts (OEIS A000170).
    #[test]
    fn counts_of_8_and_10_queens_under_every_strategy_and_knob() {
        for (n, solutions) in [(8, 92), (10, 724)] {
            assert_parity_across_strategies::<NQueens>(ParityCase {
                argument: &n.to_string(),
                knob_settings: &[
                    &[("checks", "array"), ("rows", "plain")],
                    &[("checks", "bitmask"), ("rows", "middle-out")],
                ],
                solutions,
            });
        }
    }

    #[test]
    #[ignore = "seconds: the 12-queens count"]
    fn count_of_12_queens() {
        assert_parity_across_strategies::<NQueens>(ParityCase {
            argument: "12",
            knob_settings: &[&[("checks", "bitmask"), ("rows", "plain")]],
            solutions: 14_200,
        });
    }

    /// A split search of n queens merged from 1, 7, 64 and 256 parts adds up to the
    /// sequential one, per rule and per depth too (`backtrack_bench::testing::merged_against_sequential`).
    fn assert_split_queens_equal_sequential(n: u64) {
        let instance = backtrack_bench::instance_of::<NQueens>(serde_json::json!({ "n": n })).expect("n queens");
        let knobs = backtrack_bench::knobs::KnobValues::new();
        let results = backtrack_bench::testing::merged_against_sequential(&instance, &knobs, &[1, 7, 64, 256])
            .unwrap_or_else(|error| panic!("{error}"));
        for (parts, differences) in results {
            assert!(differences.is_empty(), "{n} queens in {parts} parts: {differences:#?}");
        }
    }

    #[test]
    fn ten_queens_merged_from_1_7_64_256_parts_equals_sequential() {
        assert_split_queens_equal_sequential(10);
    }

    #[test]
    #[ignore = "seconds: 13 queens (73,712 solutions) searched five times (run by .ci/run's slow checks)"]
    fn thirteen_queens_merged_from_1_7_64_256_parts_equals_sequential() {
        assert_split_queens_equal_sequential(13);
    }
}
