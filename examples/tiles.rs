//! Domino tilings of a rectangular board, as a program of its own: `tiles-bench`, with its
//! own name, about text and version and without the workbench's built-in puzzles. The
//! family writes only its tree, its data and its knobs (plus a drawing for `watch`); the
//! rest is the `Puzzle` trait's defaults.
//!
//! The instance is the board, `RxC` (`4x4`: 36 tilings), or an instance file with
//! `"family": "dominoes"` and `"data": {"rows": R, "columns": C}`:
//! `cargo run --release --example tiles -- solve 4x5`, `... -- watch 2x3 --plain`,
//! `... -- list`, `... -- --help`.

use backtrack_bench::knob_enum;
use backtrack_bench::knobs::{Knob, KnobError, KnobReader, KnobSpec, KnobValues};
use backtrack_bench::puzzles::view::{CellView, GridView, View};
use backtrack_bench::puzzles::{DataError, Puzzle};
use backtrack_bench::search::{Branch, Model, RuleCounter, RuleId};
use backtrack_bench::Workbench;
use serde_json::{json, Value};

/// The workbench this program runs: named `tiles-bench`, its own family only.
pub fn workbench() -> Workbench {
    Workbench::new()
        .name("tiles-bench")
        .about("Domino tilings of rectangular boards, counted node by node.")
        .version("0.1.0")
        .without_builtin_families()
        .family::<Dominoes>()
}

fn main() -> std::process::ExitCode {
    workbench().run_cli()
}

/// The largest board side (cells are numbered in a `u8`).
const MAX_SIDE: usize = 12;

/// A board to tile.
pub struct Dominoes {
    rows: usize,
    columns: usize,
}

knob_enum! {
    /// Which domino is tried first at the first empty cell.
    pub enum FirstTry {
        /// Lying (the cell and the one to its right) first.
        Horizontal = "horizontal",
        /// Standing (the cell and the one below it) first.
        Vertical = "vertical",
    }
}

const RULE_EDGE: RuleId = 0;
const RULE_OVERLAP: RuleId = 1;

/// The board: which domino covers each cell (0 = none yet), and the dominoes placed.
#[derive(Debug, Clone)]
pub struct Board {
    rows: usize,
    columns: usize,
    first: FirstTry,
    cover: Vec<u8>,
    placed: u8,
}

/// A domino at a cell, lying or standing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Domino {
    cell: u8,
    standing: bool,
}

impl Board {
    fn partner(&self, domino: Domino) -> Option<usize> {
        let cell = usize::from(domino.cell);
        match domino.standing {
            true => (cell / self.columns + 1 < self.rows).then_some(cell + self.columns),
            false => (cell % self.columns + 1 < self.columns).then_some(cell + 1),
        }
    }
}

impl Model for Board {
    type Move = Domino;
    /// Each cell's domino number, row by row.
    type Solution = Vec<u8>;
    const REJECTS_BEFORE_CHANGING: bool = true;

    fn rule_names(&self) -> &[&'static str] {
        &["edge", "overlap"]
    }

    fn max_depth(&self) -> usize {
        self.cover.len() / 2
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<Domino>, _: &mut C) -> Branch {
        let Some(cell) = self.cover.iter().position(|&domino| domino == 0) else { return Branch::Solution };
        let order = match self.first {
            FirstTry::Horizontal => [false, true],
            FirstTry::Vertical => [true, false],
        };
        moves.extend(order.map(|standing| Domino { cell: cell as u8, standing }));
        Branch::Moves
    }

    fn apply<C: RuleCounter>(&mut self, domino: Domino, counters: &mut C) -> Result<(), RuleId> {
        counters.check(RULE_EDGE);
        let partner = self.partner(domino).ok_or(RULE_EDGE)?;
        counters.check(RULE_OVERLAP);
        if self.cover[partner] != 0 {
            return Err(RULE_OVERLAP);
        }
        self.placed += 1;
        self.cover[usize::from(domino.cell)] = self.placed;
        self.cover[partner] = self.placed;
        Ok(())
    }

    fn undo(&mut self, domino: Domino) {
        let partner = self.partner(domino).expect("an applied domino has its partner cell");
        self.cover[usize::from(domino.cell)] = 0;
        self.cover[partner] = 0;
        self.placed -= 1;
    }

    fn solution(&self) -> Vec<u8> {
        self.cover.clone()
    }
}

/// `RxC` as (rows, columns).
fn board_size(text: &str) -> Option<(u64, u64)> {
    let (rows, columns) = text.split_once('x')?;
    Some((rows.parse().ok()?, columns.parse().ok()?))
}

/// A domino's letter: `a` to `z`, then `A` to `Z`, then its number.
fn letter(domino: u8) -> String {
    match domino {
        1..=26 => char::from(b'a' + domino - 1).to_string(),
        27..=52 => char::from(b'A' + domino - 27).to_string(),
        _ => domino.to_string(),
    }
}

impl Puzzle for Dominoes {
    const FAMILY: &'static str = "dominoes";
    const KNOBS: &'static [KnobSpec] = &[KnobSpec::new(
        "order",
        FirstTry::VALUES,
        "horizontal",
        "Which domino is tried first at the first empty cell: lying or standing.",
    )];
    const SHORT_FORMS: &'static [&'static str] = &["2x3", "4x5"];
    type Config = FirstTry;
    type Model = Board;
    type AnswerKey = ();

    fn parse(data: &Value) -> Result<Dominoes, DataError> {
        let side = |key: &str| {
            data.get(key)
                .and_then(Value::as_u64)
                .filter(|side| (1..=MAX_SIDE as u64).contains(side))
                .map(|side| side as usize)
                .ok_or_else(|| DataError::new(key, format!("expected a whole number from 1 to {MAX_SIDE}")))
        };
        Ok(Dominoes { rows: side("rows")?, columns: side("columns")? })
    }

    fn config(knobs: &KnobValues) -> Result<FirstTry, KnobError> {
        KnobReader::new(Self::FAMILY, Self::KNOBS, knobs)?.knob("order")
    }

    fn describe(first: &FirstTry) -> Vec<(&'static str, String)> {
        vec![("order", first.name())]
    }

    fn models(&self, first: &FirstTry) -> Vec<Board> {
        let cover = vec![0; self.rows * self.columns];
        vec![Board { rows: self.rows, columns: self.columns, first: *first, cover, placed: 0 }]
    }

    fn answer_key(&self, _: usize, _: &Vec<u8>) {}

    /// The board, each domino a letter: a 2x3 board is drawn as 2 rows of 3 cells.
    fn view(&self, board: &Board) -> View {
        let cells = board
            .cover
            .iter()
            .map(|&domino| if domino == 0 { CellView::Open } else { CellView::text(&letter(domino), false) })
            .collect();
        View::Grid(GridView::new(board.columns, cells))
    }

    fn instance_from_argument(text: &str) -> Option<Value> {
        board_size(text).map(|(rows, columns)| json!({ "rows": rows, "columns": columns }))
    }
}

#[cfg(test)]
mod tests {
    /// Domino tilings of a 4x5 board: 95 (OEIS A099390, T(4,5)), both orders, under every
    /// strategy.
    #[test]
    fn a_4x5_board_has_95_tilings_under_every_strategy() {
        use backtrack_bench::testing::{assert_parity_across_strategies, ParityCase};
        assert_parity_across_strategies::<super::Dominoes>(ParityCase {
            argument: "4x5",
            knob_settings: &[&[("order", "horizontal")], &[("order", "vertical")]],
            solutions: 95,
        });
    }
}
