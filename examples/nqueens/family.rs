//! N-Queens as a family of the workbench, written only against the crate's public API: the
//! family itself, shared by the `nqueens` example (its `main.rs`) and by the cost-of-generality
//! bench and example, which run its model next to a hand-written recursion of the same tree.
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
use backtrack_bench::search::{Model, MoveCursor, Opened, RuleCounter, RuleId};
use serde_json::{json, Value};

/// The largest board: the bitmask checks keep both diagonals (2n - 1 bits) in one `u64`.
/// A power of two, so that `% MAX_N` and `% LINKS` on a row index are masks (a compare and a
/// branch fewer than a bounds check at every placement and removal).
const MAX_N: usize = 32;
const _: () = assert!(MAX_N.is_power_of_two());

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

/// The lines that hold a queen, as bits or as flags (the `checks` knob). Both forms are
/// fields of their own rather than variants of an enum: the bit masks then share no memory
/// with the flag arrays, so the compiler can keep them in registers across the engine's
/// loop (as variants, a flag store at a computed index might have hit a mask).
#[derive(Debug, Clone)]
struct Taken {
    checks: Checks,
    columns: u64,
    diagonals: u64,
    anti_diagonals: u64,
    column_flags: [bool; MAX_N],
    diagonal_flags: [bool; 2 * MAX_N],
    anti_diagonal_flags: [bool; 2 * MAX_N],
}

impl Taken {
    fn new(checks: Checks) -> Taken {
        Taken {
            checks,
            columns: 0,
            diagonals: 0,
            anti_diagonals: 0,
            column_flags: [false; MAX_N],
            diagonal_flags: [false; 2 * MAX_N],
            anti_diagonal_flags: [false; 2 * MAX_N],
        }
    }

    #[inline(always)]
    fn first_taken(&self, row: usize, column: usize, n: usize) -> Option<RuleId> {
        match self.checks {
            Checks::Bitmask => {
                if self.columns >> column & 1 == 1 {
                    return Some(RULE_COLUMN);
                }
                if self.diagonals >> (row + column) & 1 == 1 {
                    return Some(RULE_DIAGONAL);
                }
                (self.anti_diagonals >> (row + n - 1 - column) & 1 == 1).then_some(RULE_ANTI_DIAGONAL)
            }
            Checks::Array => {
                if self.column_flags[column % MAX_N] {
                    return Some(RULE_COLUMN);
                }
                if self.diagonal_flags[(row + column) % (2 * MAX_N)] {
                    return Some(RULE_DIAGONAL);
                }
                self.anti_diagonal_flags[(row + n - 1 - column) % (2 * MAX_N)].then_some(RULE_ANTI_DIAGONAL)
            }
        }
    }

    #[inline(always)]
    fn set(&mut self, lines: Lines, taken: bool) {
        match self.checks {
            Checks::Array => {
                self.column_flags[lines.column % MAX_N] = taken;
                self.diagonal_flags[lines.diagonal % (2 * MAX_N)] = taken;
                self.anti_diagonal_flags[lines.anti_diagonal % (2 * MAX_N)] = taken;
            }
            Checks::Bitmask => {
                // A queen is placed only on free lines and removed from taken ones, so
                // flipping the bits sets or clears them.
                self.columns ^= 1 << lines.column;
                self.diagonals ^= 1 << lines.diagonal;
                self.anti_diagonals ^= 1 << lines.anti_diagonal;
            }
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Lines {
    column: usize,
    diagonal: usize,
    anti_diagonal: usize,
}

/// The search state: rows are filled in the order of the `rows` knob; a move is the next
/// row's column. A move is tested before anything changes, so a rejected one leaves nothing
/// to undo.
#[derive(Debug, Clone)]
pub struct QueensModel {
    n: usize,
    /// The row order as links, indexed `% LINKS`: `next_row[row]` is the row filled after
    /// `row` (`FULL` after the last), `previous_row[row]` the one before it (the last row's
    /// for `FULL`). A placement or removal reads its next row from the row it stands on, one
    /// load, instead of counting the queens placed and looking that count up in the order:
    /// in memory, a chain of four dependent steps that every node after a removal waited for.
    next_row: [u8; LINKS],
    previous_row: [u8; LINKS],
    /// The first row of the order (where the links start, for [`QueensModel::queen_of`]).
    first_row: usize,
    /// Column of the queen of each row; meaningful for the rows before `row` in the order.
    queens: [u8; MAX_N],
    /// The row the next queen goes to; `FULL` when every row has one.
    row: usize,
    taken: Taken,
}

/// The `row` of a full board: past every row index.
const FULL: usize = MAX_N;
/// The length of the row links: a power of two past `FULL`, so that `% LINKS` is a mask.
const LINKS: usize = 2 * MAX_N;

impl QueensModel {
    #[inline(always)]
    fn lines_of(&self, row: usize, column: usize) -> Lines {
        Lines { column, diagonal: row + column, anti_diagonal: row + self.n - 1 - column }
    }

    /// The column of `row`'s queen, if it has one yet.
    fn queen_of(&self, row: usize) -> Option<usize> {
        let mut filled = self.first_row;
        while filled != self.row {
            if filled == row {
                return Some(usize::from(self.queens[row]));
            }
            filled = usize::from(self.next_row[filled % LINKS]);
        }
        None
    }
}

impl Model for QueensModel {
    type Move = u8;
    type Solution = Vec<u8>;
    const REJECTS_BEFORE_CHANGING: bool = true;
    const LAZY_MOVES: bool = true;
    const RULES_IN_ORDER: bool = true;

    fn rule_names(&self) -> &[&'static str] {
        RULE_NAMES
    }

    fn max_depth(&self) -> usize {
        self.n
    }

    #[inline(always)]
    fn open<C: RuleCounter>(&mut self, _counters: &mut C) -> Opened {
        if self.row == FULL {
            return Opened::Solution;
        }
        // The columns not tried yet are those below the cursor: all n at first.
        Opened::Moves(self.n as MoveCursor)
    }

    /// Columns from the last to the first.
    #[inline(always)]
    fn next_move(&self, cursor: &mut MoveCursor) -> Option<u8> {
        *cursor = cursor.checked_sub(1)?;
        Some(*cursor as u8)
    }

    #[inline(always)]
    fn apply<C: RuleCounter>(&mut self, column: u8, _counters: &mut C) -> Result<(), RuleId> {
        let row = self.row;
        if let Some(rule) = self.taken.first_taken(row, usize::from(column), self.n) {
            return Err(rule);
        }
        self.taken.set(self.lines_of(row, usize::from(column)), true);
        // `row < n <= MAX_N`: the mask is the identity and spares the bounds check.
        self.queens[row % MAX_N] = column;
        self.row = usize::from(self.next_row[row % LINKS]);
        Ok(())
    }

    #[inline(always)]
    fn undo(&mut self, column: u8) {
        self.row = usize::from(self.previous_row[self.row % LINKS]);
        self.taken.set(self.lines_of(self.row, usize::from(column)), false);
    }

    fn solution(&self) -> Vec<u8> {
        self.queens[..self.n].to_vec()
    }

    /// Reuses `into`'s buffer: a solution that is only counted allocates nothing.
    #[inline]
    fn write_solution(&self, into: &mut Vec<u8>) {
        into.clear();
        into.extend_from_slice(&self.queens[..self.n]);
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
        let (mut next_row, mut previous_row) = ([FULL as u8; LINKS], [FULL as u8; LINKS]);
        let mut filled = FULL;
        for &row in row_order.iter().rev() {
            next_row[row] = filled as u8;
            previous_row[filled] = row as u8;
            filled = row;
        }
        vec![QueensModel {
            n,
            next_row,
            previous_row,
            first_row: filled,
            queens: [0; MAX_N],
            row: filled,
            taken: Taken::new(config.checks),
        }]
    }

    fn solution_text(&self, solution: &Vec<u8>) -> String {
        solution.iter().map(|column| (column + 1).to_string()).collect::<Vec<_>>().join(",")
    }

    fn view(&self, model: &QueensModel) -> View {
        let mut cells = vec![CellView::Empty; self.n * self.n];
        for row in 0..self.n {
            if let Some(column) = model.queen_of(row) {
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

    /// The answer is the smallest placement, which every tally keeps: no key needed.
    fn answer_key(&self, _component: usize, _solution: &Vec<u8>) {}

    /// The first placement in column order (solutions are sorted): one small value however
    /// many placements there are.
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
