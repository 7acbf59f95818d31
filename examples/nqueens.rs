//! N-Queens as a family of the workbench, written only against the crate's public API.
//!
//! The board size is the instance: `cargo run --release --example nqueens -- solve 12 --all`
//! counts the 14,200 placements of 12 queens; an instance file with `"family": "nqueens"` and
//! `"data": {"n": 12}` works too. Knobs: `checks` (array or bitmask conflict tests) and
//! `rows` (plain, middle-out or outside-in row order). Every other command of the workbench works as well.

use backtrack_bench::knob_enum;
use backtrack_bench::knobs::{Knob, KnobError, KnobReader, KnobSpec, KnobValues};
use backtrack_bench::puzzles::answer_tally::AnswerTally;
use backtrack_bench::puzzles::view::{CellView, GridView, View};
use backtrack_bench::puzzles::{DataError, Puzzle};
use backtrack_bench::search::{Branch, Model, RuleCounter, RuleId};
use backtrack_bench::Workbench;
use serde_json::{json, Value};

fn main() -> std::process::ExitCode {
    Workbench::new().family::<NQueens>().run_cli()
}

/// The largest board: the bitmask checks keep both diagonals (2n - 1 bits) in one `u64`.
const MAX_N: usize = 32;

/// An N-Queens instance: the board size.
pub struct NQueens {
    n: usize,
}

knob_enum! {
    /// How a placement is tested against the queens already on the board.
    pub enum Checks {
        /// One `bool` per column and per diagonal.
        Array = "array",
        /// One bit per column and per diagonal.
        Bitmask = "bitmask",
    }
}

knob_enum! {
    /// The order in which rows receive their queen.
    pub enum RowOrder {
        /// Top to bottom.
        Plain = "plain",
        /// From the middle row outwards, where a queen attacks the most cells. Every prefix is
        /// a band of consecutive rows, as in plain order, so the counts equal plain order's
        /// (the attacks depend only on row differences); only the order of the work changes.
        MiddleOut = "middle-out",
        /// Top row, bottom row, second row, second-to-last row, ...: prefixes are not bands,
        /// so the tree differs.
        OutsideIn = "outside-in",
    }
}

/// The knob settings.
#[derive(Debug, Clone)]
pub struct QueensConfig {
    checks: Checks,
    rows: RowOrder,
}

const RULE_COLUMN: RuleId = 0;
const RULE_DIAGONAL: RuleId = 1;
const RULE_ANTI_DIAGONAL: RuleId = 2;
const RULE_NAMES: &[&str] = &["column", "diagonal", "anti-diagonal"];

/// Which columns and diagonals are taken, in one of the two representations.
#[derive(Debug, Clone)]
enum Taken {
    Array { columns: Vec<bool>, diagonals: Vec<bool>, anti_diagonals: Vec<bool> },
    Bitmask { columns: u64, diagonals: u64, anti_diagonals: u64 },
}

impl Taken {
    fn new(checks: Checks, n: usize) -> Taken {
        match checks {
            Checks::Array => Taken::Array {
                columns: vec![false; n],
                diagonals: vec![false; 2 * n - 1],
                anti_diagonals: vec![false; 2 * n - 1],
            },
            Checks::Bitmask => Taken::Bitmask { columns: 0, diagonals: 0, anti_diagonals: 0 },
        }
    }

    /// Whether the column, the diagonal and the anti-diagonal are taken.
    fn lines(&self, column: usize, diagonal: usize, anti_diagonal: usize) -> [bool; 3] {
        match self {
            Taken::Array { columns, diagonals, anti_diagonals } => {
                [columns[column], diagonals[diagonal], anti_diagonals[anti_diagonal]]
            }
            Taken::Bitmask { columns, diagonals, anti_diagonals } => {
                [columns >> column & 1 == 1, diagonals >> diagonal & 1 == 1, anti_diagonals >> anti_diagonal & 1 == 1]
            }
        }
    }

    /// Marks (or, with `taken` false, frees) the three lines.
    fn set(&mut self, column: usize, diagonal: usize, anti_diagonal: usize, taken: bool) {
        match self {
            Taken::Array { columns, diagonals, anti_diagonals } => {
                columns[column] = taken;
                diagonals[diagonal] = taken;
                anti_diagonals[anti_diagonal] = taken;
            }
            Taken::Bitmask { columns, diagonals, anti_diagonals } => {
                for (mask, bit) in [(columns, column), (diagonals, diagonal), (anti_diagonals, anti_diagonal)] {
                    if taken {
                        *mask |= 1 << bit;
                    } else {
                        *mask &= !(1 << bit);
                    }
                }
            }
        }
    }
}

/// The search state: rows are filled in `row_order`; a move is the next row's column.
#[derive(Debug, Clone)]
pub struct QueensModel {
    n: usize,
    row_order: Vec<usize>,
    /// Column of the queen of each row, `None` while the row is empty.
    queens: Vec<Option<usize>>,
    placed: usize,
    taken: Taken,
    /// Lines broken by the most recent move, so that `undo` frees only what it took.
    broken: Vec<bool>,
}

impl QueensModel {
    fn lines_of(&self, row: usize, column: usize) -> (usize, usize, usize) {
        (column, row + column, row + self.n - 1 - column)
    }
}

impl Model for QueensModel {
    type Move = u8;
    type Solution = Vec<u8>;

    fn rule_names(&self) -> &[&'static str] {
        RULE_NAMES
    }

    fn max_depth(&self) -> usize {
        self.n
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<u8>, _counters: &mut C) -> Branch {
        if self.placed == self.n {
            return Branch::Solution;
        }
        moves.extend((0..self.n as u8).rev());
        Branch::Moves
    }

    fn apply<C: RuleCounter>(&mut self, column: u8, counters: &mut C) -> Result<(), RuleId> {
        let row = self.row_order[self.placed];
        let (column, diagonal, anti_diagonal) = self.lines_of(row, usize::from(column));
        self.queens[row] = Some(column);
        self.placed += 1;
        let lines = self.taken.lines(column, diagonal, anti_diagonal);
        for (rule, taken) in lines.into_iter().enumerate() {
            counters.check(rule);
            if taken {
                self.broken.push(true);
                return Err([RULE_COLUMN, RULE_DIAGONAL, RULE_ANTI_DIAGONAL][rule]);
            }
        }
        self.broken.push(false);
        self.taken.set(column, diagonal, anti_diagonal, true);
        Ok(())
    }

    fn undo(&mut self, column: u8) {
        self.placed -= 1;
        let row = self.row_order[self.placed];
        self.queens[row] = None;
        if !self.broken.pop().expect("undo follows apply") {
            let (column, diagonal, anti_diagonal) = self.lines_of(row, usize::from(column));
            self.taken.set(column, diagonal, anti_diagonal, false);
        }
    }

    fn solution(&self) -> Vec<u8> {
        self.queens.iter().map(|column| column.expect("a solution fills every row") as u8).collect()
    }
}

impl Puzzle for NQueens {
    const FAMILY: &'static str = "nqueens";
    const KNOBS: &'static [KnobSpec] = &[
        KnobSpec {
            name: "checks",
            values: Checks::VALUES,
            default: "bitmask",
            help: "How a queen is tested against the others: a bool per line, or a bit per line.",
        },
        KnobSpec {
            name: "rows",
            values: RowOrder::VALUES,
            default: "plain",
            help: "Row order: top to bottom, from the middle row outwards, or alternately from both edges inwards.",
        },
    ];
    type Config = QueensConfig;
    type Model = QueensModel;
    type AnswerKey = ();

    fn parse(data: &Value) -> Result<NQueens, DataError> {
        let n = data
            .get("n")
            .ok_or_else(|| DataError::new("n", "missing; the board size, 1 to 32"))?
            .as_u64()
            .ok_or_else(|| DataError::new("n", "expected a positive integer (the board size)"))?;
        match usize::try_from(n) {
            Ok(n) if (1..=MAX_N).contains(&n) => Ok(NQueens { n }),
            _ => Err(DataError::new("n", format!("{n} is out of range; the board size is 1 to {MAX_N}"))),
        }
    }

    fn config(knobs: &KnobValues) -> Result<QueensConfig, KnobError> {
        let reader = KnobReader::new(Self::FAMILY, Self::KNOBS, knobs)?;
        Ok(QueensConfig { checks: reader.knob("checks")?, rows: reader.knob("rows")? })
    }

    fn describe(config: &QueensConfig) -> Vec<(&'static str, String)> {
        vec![("checks", config.checks.name()), ("rows", config.rows.name())]
    }

    fn component_names(&self) -> Vec<String> {
        vec![format!("{n}x{n}", n = self.n)]
    }

    fn models(&self, config: &QueensConfig) -> Vec<QueensModel> {
        let n = self.n;
        let row_order = match config.rows {
            RowOrder::Plain => (0..n).collect(),
            // n/2, n/2 - 1, n/2 + 1, n/2 - 2, ...: distance from the middle, upper row first.
            RowOrder::MiddleOut => {
                let mut rows: Vec<usize> = (0..n).collect();
                rows.sort_by_key(|&row| (2 * row).abs_diff(n - 1));
                rows
            }
            RowOrder::OutsideIn => {
                (0..n).map(|index| if index % 2 == 0 { index / 2 } else { n - 1 - index / 2 }).collect()
            }
        };
        vec![QueensModel {
            n,
            row_order,
            queens: vec![None; n],
            placed: 0,
            taken: Taken::new(config.checks, n),
            broken: Vec::with_capacity(n),
        }]
    }

    fn solution_text(&self, solution: &Vec<u8>) -> String {
        solution.iter().map(|column| (column + 1).to_string()).collect::<Vec<_>>().join(",")
    }

    fn view(&self, model: &QueensModel) -> View {
        let mut cells = vec![CellView::Empty; self.n * self.n];
        for (row, column) in model.queens.iter().enumerate() {
            if let Some(column) = column {
                cells[row * self.n + column] = CellView::Placed(1);
            }
        }
        View::Grid(GridView { size: self.n, cells, groups: None, clues: None })
    }

    fn render(&self, solution: &Vec<u8>) -> String {
        let rows = solution.iter().map(|&queen| {
            (0..self.n as u8).map(|column| if column == queen { "Q" } else { "." }).collect::<Vec<_>>().join(" ")
        });
        rows.collect::<Vec<_>>().join("\n")
    }

    fn verify(&self, _component: usize, solution: &Vec<u8>) -> Result<(), String> {
        if solution.len() != self.n {
            return Err(format!("{} queens on a board of {} rows", solution.len(), self.n));
        }
        for (row, &column) in solution.iter().enumerate() {
            for (other_row, &other_column) in solution.iter().enumerate().skip(row + 1) {
                let same_diagonal = usize::from(column).abs_diff(usize::from(other_column)) == other_row - row;
                if column == other_column || same_diagonal {
                    return Err(format!("the queens of rows {} and {} attack each other", row + 1, other_row + 1));
                }
            }
        }
        Ok(())
    }

    /// The first placement in column order (solutions are sorted): one small value however
    /// many placements there are.
    /// The answer is the smallest placement, which every tally keeps: no key needed.
    fn answer_key(&self, _component: usize, _solution: &Vec<u8>) {}

    fn answer(&self, tallies: &[AnswerTally<(), Vec<u8>>]) -> Value {
        match tallies.first().and_then(AnswerTally::smallest) {
            Some(first) => json!(self.solution_text(first)),
            None => Value::Null,
        }
    }

    fn instance_from_argument(text: &str) -> Option<Value> {
        let n: u64 = text.parse().ok()?;
        Some(json!({ "n": n }))
    }
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
