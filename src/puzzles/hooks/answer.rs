//! A solution's answer read from the model's cell sets (`answer=from-state`), without the
//! grid: the general code of `answer_type` builds a grid of sums, a board and a list of
//! regions for every solution, which on the enumeration workload cost as much as the
//! search. Here the empty cells are one bitboard, and each empty region one flood fill on
//! it; the same numbers, for what a few dozen shifts cost.

use super::geometry::lowest;
use super::model::HooksModel;
use crate::puzzles::answer_type::GridAnswer;

impl HooksModel {
    /// The answer of the grid at the current node (a solution: every cell decided), as
    /// `answer.of_grids` of the solution's grid gives it.
    pub(super) fn answer_here(&self, answer: GridAnswer) -> u64 {
        match answer {
            GridAnswer::ProductOfEmptyRegionAreas => {
                let board = &self.shared.board;
                let mut empty = board.all() & !self.filled;
                let mut product = 1u64;
                while empty != 0 {
                    let region = board.flood(lowest(empty), empty);
                    product = product.saturating_mul(u64::from(region.count_ones()));
                    empty &= !region;
                }
                product
            }
            GridAnswer::SumOfSquaresOfGridSum => {
                let mut filled = self.filled;
                let mut sum = 0u64;
                while filled != 0 {
                    let digit = u64::from(self.hook_of[filled.trailing_zeros() as usize]);
                    sum += digit * digit;
                    filled &= filled - 1;
                }
                sum
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Hooks;
    use crate::knobs::KnobValues;
    use crate::parallel::{search_collecting, Collector, ParallelPlan, Pool, Strategy};
    use crate::puzzles::answer_type::GridAnswer;
    use crate::puzzles::Puzzle;
    use crate::search::{Limits, Model, NoCounters};

    /// At every solution, the answer from the cell sets against the general code's answer
    /// of the solution grid, under both answer types.
    #[derive(Clone, Default)]
    struct Compare {
        compared: u64,
        products: std::collections::BTreeSet<u64>,
    }

    impl Collector<super::HooksModel> for Compare {
        fn found(&mut self, model: &super::HooksModel) {
            let grid = model.solution();
            for answer in GridAnswer::ALL {
                assert_eq!(model.answer_here(answer), answer.of_grids(7, [&grid[..]]), "{answer:?}: {grid:?}");
            }
            self.products.insert(model.answer_here(GridAnswer::ProductOfEmptyRegionAreas));
            self.compared += 1;
        }
        fn absorb(&mut self, other: Self) {
            self.compared += other.compared;
            self.products.extend(other.products);
        }
    }

    #[test]
    fn the_answer_from_the_cell_sets_is_the_grids_answer_at_every_solution() {
        let file: serde_json::Value =
            serde_json::from_str(include_str!("../../../instances/hooks_enumeration.json")).expect("instance JSON");
        let hooks = Hooks::parse(&file["data"]).expect("valid data");
        let config = Hooks::config(&KnobValues::new()).expect("defaults");
        let model = hooks.models(&config).remove(0);
        let plan = ParallelPlan { strategy: Strategy::Sequential, ..ParallelPlan::default() };
        // The first 300,000 nodes: a few thousand solutions, seconds in a debug build.
        let limits = Limits { node_limit: 300_000, solutions_to_keep: 0, ..Limits::exhaustive() };
        let (outcome, compared) =
            search_collecting::<_, NoCounters, _>(model, &plan, &Pool::calling_thread(), limits, Compare::default())
                .expect("no panic");
        assert_eq!(compared.compared, outcome.stats.solutions);
        assert!(compared.compared > 1_000, "{} solutions compared", compared.compared);
        assert!(compared.products.len() > 3, "several answers compared: {:?}", compared.products);
    }
}
