//! Sudoku as a family of the workbench, written only against the crate's public API: a
//! search of a different shape from N-Queens (a cell is chosen at each node, givens fixed).
//!
//! The instance is the 81-character grid, row by row, `0` or `.` for an empty cell:
//! `cargo run --release --example sudoku -- solve 8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..`
//! or an instance file with `"family": "sudoku"` and `"data": {"grid": "..."}`.
//! Knob: `order` (first empty cell, or the cell with the fewest candidates).

use backtrack_bench::knob_enum;
use backtrack_bench::knobs::{Knob, KnobError, KnobReader, KnobSpec, KnobValues};
use backtrack_bench::puzzles::answer_tally::{histogram, AnswerTally};
use backtrack_bench::puzzles::view::{CellView, GridView, View};
use backtrack_bench::puzzles::{DataError, Puzzle};
use backtrack_bench::search::{Branch, Model, RuleCounter, RuleId};
use backtrack_bench::Workbench;
use serde_json::{json, Value};

fn main() -> std::process::ExitCode {
    Workbench::new().family::<Sudoku>().run_cli()
}

/// A Sudoku instance: its givens, row-major, 0 for an empty cell.
pub struct Sudoku {
    givens: [u8; 81],
}

knob_enum! {
    /// Which empty cell the search fills next.
    pub enum CellOrder {
        /// The first empty cell in row-major order.
        RowMajor = "row-major",
        /// The empty cell with the fewest candidates (a cell with none ends the branch).
        FewestCandidates = "fewest",
    }
}

const RULE_ROW: RuleId = 0;
const RULE_COLUMN: RuleId = 1;
const RULE_BOX: RuleId = 2;
const RULE_NO_CANDIDATE: RuleId = 3;
const RULE_NAMES: &[&str] = &["row", "column", "box", "no-candidate"];

fn box_of(cell: usize) -> usize {
    cell / 27 * 3 + cell % 9 / 3
}

/// The search state: digits placed, and per row, column and box the digits used as bits.
#[derive(Debug, Clone)]
pub struct SudokuModel {
    order: CellOrder,
    grid: [u8; 81],
    used: [[u16; 9]; 3],
}

impl SudokuModel {
    fn units(cell: usize) -> [usize; 3] {
        [cell / 9, cell % 9, box_of(cell)]
    }

    fn candidates(&self, cell: usize) -> u16 {
        let [row, column, block] = Self::units(cell);
        !(self.used[0][row] | self.used[1][column] | self.used[2][block]) & 0x3fe
    }

    fn mark(&mut self, cell: usize, digit: u8, taken: bool) {
        for (unit, index) in Self::units(cell).into_iter().enumerate() {
            if taken {
                self.used[unit][index] |= 1 << digit;
            } else {
                self.used[unit][index] &= !(1 << digit);
            }
        }
    }
}

impl Model for SudokuModel {
    /// (cell, digit).
    type Move = (u8, u8);
    type Solution = String;
    const REJECTS_BEFORE_CHANGING: bool = true;

    fn rule_names(&self) -> &[&'static str] {
        RULE_NAMES
    }

    fn max_depth(&self) -> usize {
        self.grid.iter().filter(|&&digit| digit == 0).count()
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<(u8, u8)>, counters: &mut C) -> Branch {
        let empty = (0..81).filter(|&cell| self.grid[cell] == 0);
        let cell = match self.order {
            CellOrder::RowMajor => empty.min(),
            CellOrder::FewestCandidates => empty.min_by_key(|&cell| self.candidates(cell).count_ones()),
        };
        let Some(cell) = cell else { return Branch::Solution };
        if self.order == CellOrder::FewestCandidates {
            counters.check(RULE_NO_CANDIDATE);
            if self.candidates(cell) == 0 {
                return Branch::DeadEnd(RULE_NO_CANDIDATE);
            }
        }
        moves.extend((1..=9).rev().map(|digit| (cell as u8, digit)));
        Branch::Moves
    }

    fn apply<C: RuleCounter>(&mut self, (cell, digit): (u8, u8), counters: &mut C) -> Result<(), RuleId> {
        let cell = usize::from(cell);
        for (unit, index) in Self::units(cell).into_iter().enumerate() {
            let rule = [RULE_ROW, RULE_COLUMN, RULE_BOX][unit];
            counters.check(rule);
            if self.used[unit][index] >> digit & 1 == 1 {
                return Err(rule);
            }
        }
        self.grid[cell] = digit;
        self.mark(cell, digit, true);
        Ok(())
    }

    fn undo(&mut self, (cell, digit): (u8, u8)) {
        let cell = usize::from(cell);
        self.grid[cell] = 0;
        self.mark(cell, digit, false);
    }

    fn solution(&self) -> String {
        self.grid.iter().map(|digit| char::from(b'0' + digit)).collect()
    }
}

/// The givens of an 81-character grid (`0` or `.` for empty), or what is wrong with it.
fn read_grid(text: &str) -> Result<[u8; 81], String> {
    let mut givens = [0u8; 81];
    if text.chars().count() != 81 {
        return Err(format!("expected 81 characters (9 rows of 9), found {}", text.chars().count()));
    }
    for (cell, character) in text.chars().enumerate() {
        givens[cell] = match character {
            '.' | '0' => 0,
            '1'..='9' => character as u8 - b'0',
            other => return Err(format!("character {} is `{other}`; expected 1-9, 0 or .", cell + 1)),
        };
    }
    Ok(givens)
}

impl Puzzle for Sudoku {
    const FAMILY: &'static str = "sudoku";
    const KNOBS: &'static [KnobSpec] = &[KnobSpec {
        name: "order",
        values: CellOrder::VALUES,
        default: "fewest",
        help: "Next cell: the first empty one, or the one with the fewest candidates.",
    }];
    type Config = CellOrder;
    type Model = SudokuModel;
    type AnswerKey = String;

    fn parse(data: &Value) -> Result<Sudoku, DataError> {
        let text = data.get("grid").and_then(Value::as_str).ok_or_else(|| {
            DataError::new("grid", "missing or not a string; expected 81 characters, row by row, 0 or . for empty")
        })?;
        let givens = read_grid(text).map_err(|message| DataError::new("grid", message))?;
        let mut model = SudokuModel { order: CellOrder::RowMajor, grid: [0; 81], used: [[0; 9]; 3] };
        for (cell, &digit) in givens.iter().enumerate().filter(|(_, &digit)| digit != 0) {
            if model.candidates(cell) >> digit & 1 == 0 {
                return Err(DataError::new("grid", format!("the given {digit} at character {} repeats", cell + 1)));
            }
            model.mark(cell, digit, true);
        }
        Ok(Sudoku { givens })
    }

    fn config(knobs: &KnobValues) -> Result<CellOrder, KnobError> {
        KnobReader::new(Self::FAMILY, Self::KNOBS, knobs)?.knob("order")
    }

    fn describe(config: &CellOrder) -> Vec<(&'static str, String)> {
        vec![("order", config.name())]
    }

    fn models(&self, config: &CellOrder) -> Vec<SudokuModel> {
        let mut model = SudokuModel { order: *config, grid: self.givens, used: [[0; 9]; 3] };
        for (cell, &digit) in self.givens.iter().enumerate().filter(|(_, &digit)| digit != 0) {
            model.mark(cell, digit, true);
        }
        vec![model]
    }

    /// The 81 digits as they are (the default would quote them, as `Debug` does).
    fn solution_text(&self, solution: &String) -> String {
        solution.clone()
    }

    fn view(&self, model: &SudokuModel) -> View {
        let cells = (0..81)
            .map(|cell| match (self.givens[cell], model.grid[cell]) {
                (0, 0) => CellView::Open,
                (0, digit) => CellView::Placed(u32::from(digit)),
                (given, _) => CellView::Given(u32::from(given)),
            })
            .collect();
        View::Grid(GridView::new(9, cells))
    }

    fn render(&self, solution: &String) -> String {
        let rows: Vec<&str> = (0..9).map(|row| &solution[row * 9..row * 9 + 9]).collect();
        rows.join("\n")
    }

    fn verify(&self, _component: usize, solution: &String) -> Result<(), String> {
        let digits = read_grid(solution)?;
        for (cell, (&given, &digit)) in self.givens.iter().zip(&digits).enumerate() {
            if given != 0 && digit != given {
                return Err(format!("cell {} changes the given {given}", cell + 1));
            }
        }
        for (unit, name) in ["row", "column", "box"].into_iter().enumerate() {
            for index in 0..9 {
                let cells = (0..81).filter(|&cell| SudokuModel::units(cell)[unit] == index);
                let seen = cells.fold(0u16, |seen, cell| seen | 1 << digits[cell]);
                if seen != 0x3fe {
                    return Err(format!("{name} {} does not hold 1 to 9", index + 1));
                }
            }
        }
        Ok(())
    }

    /// The filled grid is the answer.
    fn answer_key(&self, _component: usize, solution: &String) -> String {
        solution.clone()
    }

    fn answer(&self, tallies: &[AnswerTally<String, String>]) -> Value {
        tallies.first().map_or(Value::Null, |tally| histogram(tally, |grid| json!(grid)))
    }

    fn instance_from_argument(text: &str) -> Option<Value> {
        read_grid(text).ok().map(|_| json!({ "grid": text }))
    }
}

#[cfg(test)]
mod tests {
    use super::Sudoku;
    use backtrack_bench::puzzles::Puzzle;
    use backtrack_bench::search::{search_sequentially, Limits, NoCounters};
    use backtrack_bench::testing::{assert_parity_across_strategies, ParityCase};
    use backtrack_bench::{count_nodes, knob_values};

    /// Arto Inkala's 2012 puzzle, published as "the world's hardest Sudoku".
    const INKALA_2012: &str = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    #[test]
    fn inkala_2012_has_one_solution_under_every_strategy() {
        assert_parity_across_strategies::<Sudoku>(ParityCase {
            argument: INKALA_2012,
            knob_settings: &[&[("order", "fewest")]],
            solutions: 1,
        });
    }

    #[test]
    #[ignore = "seconds: row-major order takes 18,619,021 nodes per run"]
    fn inkala_2012_in_row_major_order_under_every_strategy() {
        assert_parity_across_strategies::<Sudoku>(ParityCase {
            argument: INKALA_2012,
            knob_settings: &[&[("order", "row-major")]],
            solutions: 1,
        });
    }

    /// Its published solution.
    const INKALA_2012_SOLUTION: &str =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

    #[test]
    fn inkala_2012_solution_is_the_published_one() {
        let puzzle = Sudoku::parse(&Sudoku::instance_from_argument(INKALA_2012).expect("81 characters")).unwrap();
        let config = Sudoku::config(&knob_values(&[("order", "fewest")])).unwrap();
        let model = puzzle.models(&config).remove(0);
        let result = search_sequentially::<_, NoCounters>(model, Limits::exhaustive());
        assert_eq!(result.solutions, [INKALA_2012_SOLUTION.to_string()]);
        assert_eq!(result.stats.nodes, count_nodes(&puzzle, &[("order", "fewest")]));
    }
}
