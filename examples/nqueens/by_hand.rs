//! N-Queens by hand: plain searches of exactly the tree the engine searches with the
//! family's model under `checks=bitmask`, `rows=plain` (rows top to bottom, columns tried
//! from the last to the first, each tried placement a node, the column, diagonal and
//! anti-diagonal tests in that order, the first that fails named as the prune). It is the
//! baseline of the cost-of-generality measurement: what the search costs without an engine.
//! Three shapes of it: the recursion passing the taken lines by value ([`count`]), the same
//! recursion over one board changed in place ([`count_in_place`], the model contract's
//! shape), and a loop over an explicit stack of rows passed by value ([`count_by_walk`], the
//! engine's walk's shape with the state as values).

/// What a hand-written search counted: the same figures the engine reports.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct HandCounts {
    /// Nodes: the root and every tried placement, rejected ones included.
    pub nodes: u64,
    /// Complete placements.
    pub solutions: u64,
    /// Tests of each rule (column, diagonal, anti-diagonal); zero without rule counts.
    pub checks: [u64; 3],
    /// Placements each rule rejected; zero without rule counts.
    pub prunes: [u64; 3],
}

/// Counts the placements of `n` queens; `RULES` keeps per-rule checks and prunes. The
/// checks are derived from the prunes at the end, as a hand-written search would.
pub fn count<const RULES: bool>(n: usize) -> HandCounts {
    let mut counts = HandCounts { nodes: 1, ..HandCounts::default() };
    descend::<RULES>(n, 0, 0, 0, 0, &mut counts);
    with_checks::<RULES>(counts)
}

/// `counts` with the checks derived from the prunes (with rule counts): every node but the
/// root tests the column, and each later test follows the ones that passed.
fn with_checks<const RULES: bool>(mut counts: HandCounts) -> HandCounts {
    if RULES {
        let columns = counts.nodes - 1;
        let diagonals = columns - counts.prunes[0];
        counts.checks = [columns, diagonals, diagonals - counts.prunes[1]];
    }
    counts
}

fn descend<const RULES: bool>(n: usize, row: usize, columns: u64, diagonals: u64, anti: u64, counts: &mut HandCounts) {
    if row == n {
        counts.solutions += 1;
        return;
    }
    for column in (0..n).rev() {
        counts.nodes += 1;
        let column_bit = 1 << column;
        if columns & column_bit != 0 {
            if RULES {
                counts.prunes[0] += 1;
            }
            continue;
        }
        let diagonal_bit = 1 << (row + column);
        if diagonals & diagonal_bit != 0 {
            if RULES {
                counts.prunes[1] += 1;
            }
            continue;
        }
        let anti_bit = 1 << (row + n - 1 - column);
        if anti & anti_bit != 0 {
            if RULES {
                counts.prunes[2] += 1;
            }
            continue;
        }
        descend::<RULES>(n, row + 1, columns | column_bit, diagonals | diagonal_bit, anti | anti_bit, counts);
    }
}

/// The board of [`count_in_place`]: the taken lines and the next row, changed in place.
struct Board {
    n: usize,
    row: usize,
    columns: u64,
    diagonals: u64,
    anti_diagonals: u64,
}

impl Board {
    /// Takes or frees (the same flips) the lines of a queen at `column` of `row`.
    #[inline(always)]
    fn flip(&mut self, row: usize, column: usize) {
        self.columns ^= 1 << column;
        self.diagonals ^= 1 << (row + column);
        self.anti_diagonals ^= 1 << (row + self.n - 1 - column);
    }
}

/// [`count`] over a board changed in place: the same tree, tests and counts.
pub fn count_in_place<const RULES: bool>(n: usize) -> HandCounts {
    let mut counts = HandCounts { nodes: 1, ..HandCounts::default() };
    let mut board = Board { n, row: 0, columns: 0, diagonals: 0, anti_diagonals: 0 };
    descend_in_place::<RULES>(&mut board, &mut counts);
    with_checks::<RULES>(counts)
}

// Not inlined into `count_in_place`, so that the board stays memory the recursion changes,
// as a model's state is, rather than locals the compiler could split into registers.
#[inline(never)]
fn descend_in_place<const RULES: bool>(board: &mut Board, counts: &mut HandCounts) {
    if board.row == board.n {
        counts.solutions += 1;
        return;
    }
    let row = board.row;
    for column in (0..board.n).rev() {
        counts.nodes += 1;
        if board.columns >> column & 1 == 1 {
            if RULES {
                counts.prunes[0] += 1;
            }
            continue;
        }
        if board.diagonals >> (row + column) & 1 == 1 {
            if RULES {
                counts.prunes[1] += 1;
            }
            continue;
        }
        if board.anti_diagonals >> (row + board.n - 1 - column) & 1 == 1 {
            if RULES {
                counts.prunes[2] += 1;
            }
            continue;
        }
        board.flip(row, column);
        board.row += 1;
        descend_in_place::<RULES>(board, counts);
        board.row -= 1;
        board.flip(row, column);
    }
}

/// A row of [`count_by_walk`]'s stack: the lines the queens above it take, by value, and
/// its columns left to try, `0..untried` (they are tried from the last).
#[derive(Debug, Default, Clone, Copy)]
struct OpenRow {
    columns: u64,
    diagonals: u64,
    anti_diagonals: u64,
    untried: usize,
}

/// [`count`] as a loop over an explicit stack of open rows instead of a recursion: the same
/// tree, tests and counts. The state is values (the current row's in locals, its parents'
/// on the stack), as in [`count`]; the loop is the shape of the engine's walk, so that the
/// two can be told apart: what a loop costs against a recursion, and what a state in
/// memory, changed in place, costs against values.
///
/// # Panics
/// When `n` is over 32 (the masks hold 2n - 1 diagonals in 64 bits, and the stack 32 rows).
pub fn count_by_walk<const RULES: bool>(n: usize) -> HandCounts {
    const MAX_ROWS: usize = 32;
    assert!(n <= MAX_ROWS, "at most {MAX_ROWS} rows");
    let mut counts = HandCounts { nodes: 1, ..HandCounts::default() };
    let mut parents = [OpenRow::default(); MAX_ROWS];
    let mut row = 0;
    let mut here = OpenRow { untried: n, ..OpenRow::default() };
    if n == 0 {
        counts.solutions = 1;
        return with_checks::<RULES>(counts);
    }
    loop {
        let mut placed = None;
        while here.untried > 0 {
            here.untried -= 1;
            let column = here.untried;
            counts.nodes += 1;
            let column_bit = 1 << column;
            if here.columns & column_bit != 0 {
                if RULES {
                    counts.prunes[0] += 1;
                }
                continue;
            }
            let diagonal_bit = 1 << (row + column);
            if here.diagonals & diagonal_bit != 0 {
                if RULES {
                    counts.prunes[1] += 1;
                }
                continue;
            }
            let anti_bit = 1 << (row + n - 1 - column);
            if here.anti_diagonals & anti_bit != 0 {
                if RULES {
                    counts.prunes[2] += 1;
                }
                continue;
            }
            placed = Some((column_bit, diagonal_bit, anti_bit));
            break;
        }
        match placed {
            // The queen completes the board: a solution, and the row goes on.
            Some(_) if row + 1 == n => counts.solutions += 1,
            Some((column_bit, diagonal_bit, anti_bit)) => {
                // `row < n <= MAX_ROWS`: the mask is the identity and spares the bounds check
                // that the recursions, with no array, do not pay either.
                parents[row % MAX_ROWS] = here;
                here = OpenRow {
                    columns: here.columns | column_bit,
                    diagonals: here.diagonals | diagonal_bit,
                    anti_diagonals: here.anti_diagonals | anti_bit,
                    untried: n,
                };
                row += 1;
            }
            None if row == 0 => break,
            None => {
                row -= 1;
                here = parents[row % MAX_ROWS];
            }
        }
    }
    with_checks::<RULES>(counts)
}
