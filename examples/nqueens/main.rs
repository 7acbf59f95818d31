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
}
