//! Prime grid (seed post 003): fill the blanks of a 3x3 grid with primes so that the 9 cells
//! and the 8 line sums (3 rows, 3 columns, 2 diagonals) are 17 distinct primes below their
//! bounds, and the total of those 17 numbers is prime.
//!
//! A blank takes a prime below the cell bound that is neither a given nor already placed
//! (the post's "candidates"). The `order` knob says in which order the blanks are decided:
//! - `row-major`, the post's order;
//! - `lines-first` (default), a static order picked greedily before the search: next the
//!   blank that completes the most lines, then the one that leaves the most lines one cell
//!   short, then the first in row-major order. Lines are checked as they complete, so this
//!   moves the checks up the tree: with only the centre given, the diagonals and the middle
//!   column and row complete as soon as two opposite cells are filled.
//!
//! The `mode` knob says how early the rules are applied:
//! - `brute` is the Perl post's program: every ordered tuple of distinct candidates, all
//!   rules checked at the leaf (123,521 nodes for the seed instance);
//! - `incremental` checks the givens at the root and rejects a line (bound, prime) as soon
//!   as its last cell is placed; distinctness and the total wait for the leaf;
//! - `derived` uses everything that follows from the rules as early as it can: no cell can
//!   hold 2 (a line holding it would have an even sum above 2), a value must keep every
//!   line it completes prime, below the bound and distinct from the other numbers, a
//!   partial line whose smallest completion reaches the bound is dead, and the last value
//!   must make the total prime. It filters each cell's values before offering them
//!   (whole-set rules on bitsets of free values, 64 at a time), so rejected values show
//!   in the rule checks, not as nodes.
//!
//! The `objective` knob says what the search is after: `none` (default), every solution,
//! or `min-total`, the seed's question "which grid has the smallest total?" (541 for the
//! seed) by branch and bound: a child is cut when the total so far, its value and the
//! smallest free values on the blanks left cannot go below the best total found. The total
//! of the 17 numbers weighs each cell by the lines through it, plus one (a corner 4, an
//! edge 3, the centre 5), so the smallest free values go on the heaviest blanks left.
//!
//! The free values are kept as a bitset indexed by value, so a model's state is a few
//! fixed arrays plus two bitsets of `cell_bound / 64` words.

mod bitset;
mod config;
mod derived;
mod geometry;
mod model;
mod parse;
#[cfg(test)]
mod tests;
mod verify;

pub use config::{BlankOrder, GridObjective, Mode, PrimeGridConfig};
pub use model::{Placement, PrimeGridModel, PrimeGridSolution};
pub use parse::MAX_BOUND;

use super::answer_tally::AnswerTally;
use super::view::{CellView, GridView, View};
use super::{DataError, Puzzle};
use crate::knobs::{Knob, KnobError, KnobReader, KnobSpec, KnobValues};
use geometry::{line_sums_of, total_of, CELLS};
use serde_json::{json, Value};

/// A prime grid instance: the givens and the two bounds.
#[derive(Debug, Clone)]
pub struct PrimeGrid {
    /// Row-major; 0 = blank.
    givens: [u32; CELLS],
    cell_bound: u32,
    sum_bound: u32,
}

impl Puzzle for PrimeGrid {
    const FAMILY: &'static str = "prime_grid";
    const KNOBS: &'static [KnobSpec] = &[
        KnobSpec {
            name: "mode",
            values: Mode::VALUES,
            default: "derived",
            help: "brute: every ordered tuple of distinct candidates, all rules at the leaf, as the Perl post (123,521 nodes); incremental: reject a line once it is complete; derived: also no 2 anywhere (parity), bounds on partial lines and distinctness as the grid fills",
        },
        KnobSpec {
            name: "order",
            values: BlankOrder::VALUES,
            default: "lines-first",
            help: "the order the blanks are decided in: lines-first, the blank that completes the most lines next (then the one that leaves the most lines one cell short); row-major, the post's order",
        },
        KnobSpec {
            name: "objective",
            values: GridObjective::VALUES,
            default: "none",
            help: "none: every solution; min-total: the grid with the smallest total of its 17 numbers, by branch and bound (a child is cut when its smallest possible total cannot beat the best found)",
        },
    ];
    type Config = PrimeGridConfig;
    type Model = PrimeGridModel;
    type AnswerKey = u32;

    fn parse(data: &Value) -> Result<Self, DataError> {
        parse::parse(data)
    }

    fn config(knobs: &KnobValues) -> Result<PrimeGridConfig, KnobError> {
        let reader = KnobReader::new(Self::FAMILY, Self::KNOBS, knobs)?;
        Ok(PrimeGridConfig {
            mode: reader.knob("mode")?,
            order: reader.knob("order")?,
            objective: reader.knob("objective")?,
        })
    }

    fn describe(config: &PrimeGridConfig) -> Vec<(&'static str, String)> {
        vec![("mode", config.mode.name()), ("order", config.order.name()), ("objective", config.objective.name())]
    }

    fn component_names(&self) -> Vec<String> {
        vec!["grid".to_string()]
    }

    fn models(&self, config: &PrimeGridConfig) -> Vec<PrimeGridModel> {
        vec![PrimeGridModel::new(self, config)]
    }

    fn solution_text(&self, solution: &PrimeGridSolution) -> String {
        solution
            .cells
            .chunks(3)
            .map(|row| row.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
            .join("/")
    }

    fn view(&self, model: &PrimeGridModel) -> View {
        let cells = (0..CELLS)
            .map(|cell| match (self.givens[cell], model.cells[cell]) {
                (0, 0) => CellView::Open,
                (0, value) => CellView::Placed(value),
                (given, _) => CellView::Given(given),
            })
            .collect();
        View::Grid(GridView { size: 3, cells, groups: None, clues: None })
    }

    /// The Perl post's drawing: row sums at the right, then the anti-diagonal, the column
    /// sums and the main diagonal below, and the total under the middle column.
    fn render(&self, solution: &PrimeGridSolution) -> String {
        let solution = &solution.cells;
        let sums = line_sums_of(solution);
        let total = total_of(solution);
        let width = total.to_string().len().max(3);
        // The left margin leaves room for the anti-diagonal sum under the `/`.
        let margin = " ".repeat(width + 2);
        let number = |value: u32| format!("{value:>width$}");
        let separator = format!("{margin}+{}", format!("{}+", "-".repeat(width + 2)).repeat(3));
        let mut lines = Vec::new();
        for row in 0..3 {
            let cells: Vec<String> = solution[row * 3..row * 3 + 3].iter().map(|&value| number(value)).collect();
            lines.push(format!("{margin}| {} |   {}", cells.join(" | "), number(sums[row])));
            if row < 2 {
                lines.push(separator.clone());
            }
        }
        lines.push(format!("{}/{}\\", " ".repeat(width + 1), " ".repeat(3 * (width + 3) + 1)));
        let bottom = [sums[7], sums[3], sums[4], sums[5], sums[6]].map(number);
        lines.push(format!(" {}", bottom.join("   ")));
        lines.push(String::new());
        lines.push(format!("{}{}", " ".repeat(2 * width + 7), number(total)));
        lines.join("\n")
    }

    fn verify(&self, _component: usize, solution: &PrimeGridSolution) -> Result<(), String> {
        verify::check(self, solution)
    }

    fn answer_key(&self, _component: usize, solution: &PrimeGridSolution) -> u32 {
        solution.total
    }

    /// `{"total", "grid", "totals"}`: the solution with the smallest total (ties broken by
    /// the smaller grid, row-major), and how many solutions have each total, ascending
    /// (`[{"total": T, "solutions": N}, ...]`), counted over every solution found, however
    /// many were kept; `"unlisted_solutions"` counts those whose total did not fit in the
    /// list (more than 10,000 distinct totals). With `objective=min-total` the counts are
    /// of the solutions the bound let through, and the smallest is still the answer.
    fn answer(&self, tallies: &[AnswerTally<u32, PrimeGridSolution>]) -> Value {
        let Some(tally) = tallies.first() else {
            return Value::Null;
        };
        let Some(best) = tally.smallest() else {
            return Value::Null;
        };
        let totals: Vec<Value> =
            tally.counts().map(|(total, count)| json!({"total": total, "solutions": count})).collect();
        let grid: Vec<&[u32]> = best.cells.chunks(3).collect();
        let mut answer = json!({"total": best.total, "grid": grid, "totals": totals});
        if tally.unlisted() > 0 {
            answer["unlisted_solutions"] = json!(tally.unlisted());
        }
        answer
    }
}
