//! Twenty Four Seven (Jane Street, December 2020, "Twenty Four Seven 2-by-2 #2"; seed post
//! 004): fill some cells of each grid with digits so that it holds one 1, two 2s, ..., `m`
//! copies of `m`, every row and column has `line_filled` digits summing to `line_sum`, the
//! view clues see their value first, the digits are connected and no 2x2 block is full.
//!
//! Each grid is an independent component with its own model. A node decides one open
//! cell: empty or a digit (under `order=shape-first`: empty or filled, then the digits of
//! the filled cells; givens are placed at the root, not decided). The knobs choose
//! the visiting order (`order`), how early the line, view and 2x2 rules act (`rules`) and
//! how often connectivity is checked (`connectivity`) and whether a node recomputes or
//! reads kept-up-to-date value sets (`candidates`); none changes the solutions.

mod bounds;
mod candidates;
mod config;
mod connect;
mod cursor;
mod geometry;
mod kept;
mod model;
mod parse;
mod pattern;
mod placement;
mod upkeep;
mod values;
mod verify;

#[cfg(test)]
mod reference;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod contract_tests;

pub use config::{CandidateUpkeep, Rules, TwentyFourSevenConfig, VisitOrder};
pub use model::{Placement, TwentyFourSevenModel, RULE_NAMES};

use super::answer_tally::{histogram, histogram_of, AnswerTally};
use super::grid::{CellOrder, ConnectivityCheck};
use super::view::{CellView, GridView, View};
use super::{DataError, Puzzle};
use crate::knobs::{Knob, KnobError, KnobReader, KnobSpec, KnobValues};
use geometry::{Geometry, Side};
use model::Shared;
use parse::InstanceData;
use serde_json::{json, Value};
use std::sync::Arc;

/// The most combinations of per-grid solutions for which [`Puzzle::answer`] lists answers.
pub const MAX_ANSWER_COMBINATIONS: u64 = 1000;

/// What the answer keeps of one grid's solution.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum GridKey {
    /// The answer of a single-grid instance's solution: a number per solution suffices.
    Answer(u64),
    /// The solution of one grid of several, which are summed before the answer.
    Grid(Vec<u8>),
}

/// A Twenty Four Seven instance: shared rules and one or more grids.
#[derive(Debug, Clone)]
pub struct TwentyFourSeven {
    instance: InstanceData,
}

impl Puzzle for TwentyFourSeven {
    const FAMILY: &'static str = "twenty_four_seven";
    const KNOBS: &'static [KnobSpec] = &[
        KnobSpec {
            name: "order",
            values: VisitOrder::VALUES,
            default: "adaptive",
            help: "cell order: row-major, column-major, spiral (outside in, as the C++ post), most-constrained (at each node the open cell with the fewest allowed values), shape-first (every cell's filled/empty pattern first, a pending cell's forced digit as soon as it is forced, then the digits most-constrained), or adaptive (per grid: shape-first without view clues, most-constrained with any)",
        },
        KnobSpec {
            name: "rules",
            values: Rules::VALUES,
            default: "derived",
            help: "strict: check a row or column once complete, a 2x2 block once full; derived: before each move, keep only the values that partial counts and sums (with the digits left), the view clues and the 2x2 blocks allow",
        },
        KnobSpec {
            name: "connectivity",
            values: ConnectivityCheck::VALUES,
            default: "incremental",
            help: "when a partial grid is checked for digits that can no longer connect: complete grids only (leaves), every K-th depth, every node (flood fill), or incrementally around each move",
        },
        KnobSpec {
            name: "candidates",
            values: CandidateUpkeep::VALUES,
            default: "incremental",
            help: "recompute: under a most-constrained or shape-first order with derived rules, every node recomputes each line's values, each view clue's first cell and every open cell's values; incremental: the line values, the bound table, the view narrowing and the 2x2 block closers are kept up to date on every move and undo, touching only the changed row and column and their clues (same nodes, fewer instructions)",
        },
    ];
    type Config = TwentyFourSevenConfig;
    type Model = TwentyFourSevenModel;
    type AnswerKey = GridKey;

    fn parse(data: &Value) -> Result<Self, DataError> {
        Ok(TwentyFourSeven { instance: parse::parse(data)? })
    }

    fn config(knobs: &KnobValues) -> Result<TwentyFourSevenConfig, KnobError> {
        let reader = KnobReader::new(Self::FAMILY, Self::KNOBS, knobs)?;
        Ok(TwentyFourSevenConfig {
            order: reader.knob("order")?,
            rules: reader.knob("rules")?,
            connectivity: reader.knob("connectivity")?,
            candidates: reader.knob("candidates")?,
        })
    }

    fn describe(config: &TwentyFourSevenConfig) -> Vec<(&'static str, String)> {
        vec![
            ("order", config.order.name()),
            ("rules", config.rules.name()),
            ("connectivity", config.connectivity.name()),
            ("candidates", config.candidates.name()),
        ]
    }

    fn component_names(&self) -> Vec<String> {
        self.instance.grids.iter().map(|grid| grid.name.clone()).collect()
    }

    fn models(&self, config: &TwentyFourSevenConfig) -> Vec<TwentyFourSevenModel> {
        let instance = &self.instance;
        let n = instance.size;
        let supply_fits = instance.supply_fits_lines();
        // Every grid has the same size: its masks are built once and copied.
        let geometry = Geometry::new(n);
        instance
            .grids
            .iter()
            .map(|grid| {
                let has_view_clue = grid.clues.iter().flatten().any(|&clue| clue != 0);
                let config = TwentyFourSevenConfig { order: config.order.for_grid(has_view_clue), ..*config };
                // An order chosen per node walks the row-major list only to size the tree.
                let cells = config.order.static_order().unwrap_or(CellOrder::RowMajor).cells(n);
                let visit = cells.into_iter().filter(|&cell| grid.givens[cell] == 0).map(|cell| cell as u8).collect();
                let mut clue = [[0u8; super::grid::Board::MAX_SIZE]; 4];
                for side in Side::ALL {
                    for (line, &value) in grid.clues[side as usize].iter().enumerate() {
                        clue[side as usize][line] = value.min(u8::MAX as u16) as u8;
                    }
                }
                let geometry = geometry.clone();
                let shared = Shared {
                    clue_sides: Shared::clue_sides(&geometry, &clue),
                    view_clues: Shared::view_clues(&geometry, &clue),
                    geometry,
                    line_filled: instance.line_filled as i32,
                    line_sum: instance.line_sum as i32,
                    max_value: instance.max_value,
                    clue,
                    visit,
                    given: (0..n * n).filter(|&cell| grid.givens[cell] != 0).map(|cell| 1u128 << cell).sum(),
                    config,
                };
                TwentyFourSevenModel::new(Arc::new(shared), &grid.givens, supply_fits)
            })
            .collect()
    }

    fn solution_text(&self, solution: &Vec<u8>) -> String {
        solution.iter().map(|&value| value_char(value)).collect()
    }

    fn view(&self, model: &TwentyFourSevenModel) -> View {
        let n = self.instance.size;
        let cells = (0..n * n)
            .map(|cell| {
                let bit = 1u128 << cell;
                match model.value[cell] {
                    _ if model.open & bit != 0 => CellView::Open,
                    0 => CellView::Empty,
                    value if model.shared.given & bit != 0 => CellView::Given(value as u32),
                    value => CellView::Placed(value as u32),
                }
            })
            .collect();
        let clues =
            std::array::from_fn(|side| model.shared.clue[side][..n].iter().map(|&clue| u32::from(clue)).collect());
        View::Grid(GridView { size: n, cells, groups: None, clues: Some(clues) })
    }

    fn render(&self, solution: &Vec<u8>) -> String {
        render_grid(&self.instance, solution, None)
    }

    fn verify(&self, component: usize, solution: &Vec<u8>) -> Result<(), String> {
        let grid = self.instance.grids.get(component).ok_or_else(|| format!("there is no grid {component}"))?;
        verify::verify_grid(&self.instance, grid, solution)
    }

    /// A single grid's answer is its own; several grids are summed before the answer, so
    /// each grid's solutions are kept whole (at most [`MAX_ANSWER_COMBINATIONS`] of them
    /// are ever combined).
    fn answer_key(&self, _component: usize, solution: &Vec<u8>) -> GridKey {
        if self.instance.grids.len() == 1 {
            GridKey::Answer(self.answer_of([solution].into_iter()))
        } else {
            GridKey::Grid(solution.clone())
        }
    }

    /// With several grids, a grid of more than [`MAX_ANSWER_COMBINATIONS`] solutions makes
    /// as many combinations, and no answer: its solutions need not be kept as keys (the
    /// enumeration workload's second grid has 4,312, which cost a sort of every one when the
    /// workers' tallies were merged).
    fn answer_keys_read_up_to(&self) -> u64 {
        if self.instance.grids.len() == 1 {
            u64::MAX
        } else {
            MAX_ANSWER_COMBINATIONS
        }
    }

    /// `null` when a grid has no solution or there are more than
    /// [`MAX_ANSWER_COMBINATIONS`] combinations of the grids' solutions (counted over every
    /// solution, not the kept ones); otherwise the answer of the single combination, or how
    /// many combinations have each answer.
    fn answer(&self, tallies: &[AnswerTally<GridKey, Vec<u8>>]) -> Value {
        let combinations = tallies.iter().try_fold(1u64, |product, tally| product.checked_mul(tally.solutions()));
        if let [tally] = tallies {
            return histogram(tally, |key| match key {
                GridKey::Answer(answer) => json!(answer),
                GridKey::Grid(grid) => json!(self.answer_of([grid].into_iter())),
            });
        }
        match combinations {
            Some(0) | None => return Value::Null,
            Some(count) if count > MAX_ANSWER_COMBINATIONS => return Value::Null,
            Some(_) => {}
        }
        let grids: Vec<Vec<&Vec<u8>>> = tallies
            .iter()
            .map(|tally| {
                tally
                    .counts()
                    .filter_map(|(key, _)| match key {
                        GridKey::Grid(grid) => Some(grid),
                        GridKey::Answer(_) => None,
                    })
                    .collect()
            })
            .collect();
        if grids.iter().any(Vec::is_empty) {
            return Value::Null;
        }
        let mut answers = std::collections::BTreeMap::<u64, u64>::new();
        let mut choice = vec![0usize; grids.len()];
        loop {
            let picked = choice.iter().zip(&grids).map(|(&index, grid)| grid[index]);
            *answers.entry(self.answer_of(picked)).or_default() += 1;
            // Advance the last grid's choice first, like an odometer.
            let Some(position) = (0..choice.len()).rev().find(|&g| choice[g] + 1 < grids[g].len()) else {
                break;
            };
            choice[position] += 1;
            choice[position + 1..].iter_mut().for_each(|index| *index = 0);
        }
        let total = answers.values().sum();
        histogram_of(total, answers.into_iter().map(|(answer, count)| (json!(answer), count)), 0)
    }
}

impl TwentyFourSeven {
    /// The instance's answer for one solution of each grid.
    fn answer_of<'a>(&self, grids: impl Iterator<Item = &'a Vec<u8>>) -> u64 {
        self.instance.answer_type.of_grids(self.instance.size, grids.map(Vec::as_slice))
    }

    /// A solution drawn with the clues of grid `component` around it.
    pub fn render_component(&self, component: usize, solution: &[u8]) -> String {
        render_grid(&self.instance, solution, self.instance.grids.get(component))
    }
}

/// One character per value: `0`-`9`, then `a`, `b`, ... for 10 and up.
fn value_char(value: u8) -> char {
    char::from_digit(value as u32, 36).unwrap_or('?')
}

/// The grid as text, `.` for empty, framed by the clues of `grid` when given.
fn render_grid(instance: &InstanceData, solution: &[u8], grid: Option<&parse::GridData>) -> String {
    let n = instance.size;
    let clue = |grid: &parse::GridData, side: Side, line: usize| -> String {
        match grid.clues[side as usize][line] {
            0 => " ".to_string(),
            value => value.to_string(),
        }
    };
    let row_text = |row: usize| -> String {
        let cells: Vec<String> = (0..n)
            .map(|column| match solution.get(row * n + column) {
                Some(0) | None => ".".to_string(),
                Some(&value) => value_char(value).to_string(),
            })
            .collect();
        cells.join(" ")
    };
    let Some(grid) = grid else {
        return (0..n).map(row_text).collect::<Vec<_>>().join("\n");
    };
    let ends = |side: Side| -> String {
        let clues: Vec<String> = (0..n).map(|line| clue(grid, side, line)).collect();
        format!("  {}", clues.join(" ")).trim_end().to_string()
    };
    let mut lines = vec![ends(Side::North)];
    for row in 0..n {
        lines.push(format!("{} {} {}", clue(grid, Side::West, row), row_text(row), clue(grid, Side::East, row)));
    }
    lines.push(ends(Side::South));
    lines.join("\n")
}
