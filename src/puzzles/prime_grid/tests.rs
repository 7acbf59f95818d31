//! Tests of the prime grid: the seed's published answer and node counts, every mode and order
//! against an independent enumeration, and the errors.

use super::geometry::{blank_order, LINES, LINES_THROUGH, LINE_COUNT};
use super::model::{RULE_BOUND, RULE_DISTINCT, RULE_LINE_BOUND, RULE_LINE_PARITY, RULE_LINE_PRIME};
use super::*;
use crate::search::{
    assert_same_as_default_contract, search_sequentially, FullCounters, Limits, Model, NoCounters, Stats,
};

fn seed_file() -> Value {
    serde_json::from_str(include_str!("../../../instances/prime_grid.json")).expect("instance file is JSON")
}

fn seed() -> PrimeGrid {
    PrimeGrid::parse(&seed_file()["data"]).expect("instance data is valid")
}

/// `mode` with blanks in `order`.
fn config_in(mode: &str, order: &str) -> PrimeGridConfig {
    let knobs = [("mode".to_string(), mode.to_string()), ("order".to_string(), order.to_string())];
    PrimeGrid::config(&knobs.into()).expect("valid knobs")
}

/// `mode` with the post's row-major order, which the node counts below were taken in.
fn config(mode: &str) -> PrimeGridConfig {
    config_in(mode, "row-major")
}

const MODES: [&str; 3] = ["brute", "incremental", "derived"];
const ORDERS: [&str; 2] = ["row-major", "lines-first"];

/// A filled grid as the search reports it.
fn filled(cells: [u32; CELLS]) -> PrimeGridSolution {
    PrimeGridSolution { total: total_of(&cells), cells }
}

/// Every solution of `grid` in `mode`, row-major, sorted, with the counts.
fn solve(grid: &PrimeGrid, mode: &str) -> (Vec<[u32; CELLS]>, Stats) {
    solve_in(grid, mode, "row-major")
}

/// Every solution of `grid` in `mode` with blanks in `order`, sorted, with the counts.
fn solve_in(grid: &PrimeGrid, mode: &str, order: &str) -> (Vec<[u32; CELLS]>, Stats) {
    let model = grid.models(&config_in(mode, order)).remove(0);
    let result = search_sequentially::<_, FullCounters>(model, Limits::exhaustive());
    let mut solutions: Vec<[u32; CELLS]> = result.solutions.iter().map(|solution| solution.cells).collect();
    solutions.sort_unstable();
    (solutions, result.stats)
}

fn instance(givens: [u32; CELLS], cell_bound: u32, sum_bound: u32) -> PrimeGrid {
    PrimeGrid { givens, cell_bound, sum_bound }
}

/// The rules as written, on a filled grid, sharing no code with the model.
fn obeys_rules(grid: &[u32; CELLS], cell_bound: u32, sum_bound: u32) -> bool {
    let is_prime = |n: u32| n >= 2 && (2..n).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d));
    let [a, b, c, d, e, f, g, h, i] = *grid;
    let sums = [a + b + c, d + e + f, g + h + i, a + d + g, b + e + h, c + f + i, a + e + i, c + e + g];
    let mut numbers: Vec<u32> = grid.iter().chain(&sums).copied().collect();
    let total: u32 = numbers.iter().sum();
    numbers.sort_unstable();
    numbers.dedup();
    numbers.len() == 17
        && grid.iter().all(|&value| value < cell_bound && is_prime(value))
        && sums.iter().all(|&sum| sum < sum_bound && is_prime(sum))
        && is_prime(total)
}

/// Every filling of the blanks with distinct primes below the cell bound that are not
/// givens, kept when it obeys the rules: an enumeration independent of the model.
fn enumerate_independently(grid: &PrimeGrid) -> Vec<[u32; CELLS]> {
    fn fill(grid: &mut [u32; CELLS], pool: &[u32], bounds: (u32, u32), found: &mut Vec<[u32; CELLS]>) {
        let Some(blank) = grid.iter().position(|&value| value == 0) else {
            if obeys_rules(grid, bounds.0, bounds.1) {
                found.push(*grid);
            }
            return;
        };
        for &value in pool {
            if !grid.contains(&value) {
                grid[blank] = value;
                fill(grid, pool, bounds, found);
                grid[blank] = 0;
            }
        }
    }
    let pool: Vec<u32> =
        (2..grid.cell_bound).filter(|&n| (2..n).all(|d| !n.is_multiple_of(d)) && !grid.givens.contains(&n)).collect();
    let mut found = Vec::new();
    fill(&mut grid.givens.clone(), &pool, (grid.cell_bound, grid.sum_bound), &mut found);
    found.sort_unstable();
    found
}

#[test]
fn seed_has_four_solutions_and_the_smallest_total_is_541() {
    let file = seed_file();
    let grid = seed();
    let (solutions, _) = solve(&grid, "derived");
    assert_eq!(solutions.len() as u64, file["expected"]["solution_count"].as_u64().unwrap());
    let answer = grid.answer_of_solutions(&[solutions.into_iter().map(filled).collect()]);
    assert_eq!(answer["total"], file["expected"]["answer"]["total"]);
    assert_eq!(answer["grid"], file["expected"]["answer"]["grid"]);
    let totals: Vec<Value> = file["expected"]["all_totals"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|total| json!({"total": total, "solutions": 1}))
        .collect();
    assert_eq!(answer["totals"], json!(totals));
    assert_eq!(answer["total"], json!(541));
}

#[test]
fn every_mode_finds_the_same_verified_solutions_of_the_seed() {
    let grid = seed();
    let (expected, _) = solve(&grid, "brute");
    assert_eq!(expected.len(), 4);
    assert_eq!(expected, enumerate_independently(&grid));
    for mode in MODES {
        let (solutions, stats) = solve(&grid, mode);
        assert_eq!(solutions, expected, "mode {mode}");
        assert_eq!(stats.solutions, 4, "mode {mode}");
        for solution in &solutions {
            assert_eq!(
                grid.verify(0, &filled(*solution)),
                Ok(()),
                "mode {mode}: {}",
                grid.solution_text(&filled(*solution))
            );
        }
    }
    let text = grid.solution_text(&filled(expected.iter().min_by_key(|s| total_of(s)).copied().unwrap()));
    assert_eq!(text, "41,3,17/5,23,19/13,11,7");
}

#[test]
fn seed_node_counts_per_mode() {
    let grid = seed();
    let (_, brute) = solve(&grid, "brute");
    // 1 + 20 + 20*19 + 20*19*18 + 20*19*18*17: every ordered tuple, as the Perl post.
    assert_eq!(brute.nodes, 123_521);
    assert_eq!(brute.nodes_per_depth, vec![1, 20, 380, 6_840, 116_280]);
    assert_eq!(brute.rule_checks[RULE_DISTINCT], 116_280, "one leaf check per tuple");
    let (_, incremental) = solve(&grid, "incremental");
    let (_, derived) = solve(&grid, "derived");
    assert_eq!(incremental.nodes, 1_189);
    assert_eq!(incremental.nodes_per_depth, vec![1, 20, 76, 378, 714]);
    assert_eq!(derived.nodes, 23);
    assert_eq!(derived.nodes_per_depth, vec![1, 4, 7, 7, 4]);
}

/// A small deterministic pseudo-random sequence (64-bit LCG), for generated instances.
struct Sequence(u64);

impl Sequence {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % bound as u64) as usize
    }
}

/// Instances made from the seed's solutions: some cells blanked, sometimes a given
/// changed (to a non-prime, a 2, a repeat, a value above the bound), bounds varied.
fn generated_instances() -> Vec<PrimeGrid> {
    let (bases, _) = solve(&seed(), "derived");
    let mut sequence = Sequence(2024);
    let mut instances = Vec::new();
    for round in 0..24 {
        let mut givens = bases[round % bases.len()];
        let blanks = 1 + sequence.below(if round % 6 == 5 { 4 } else { 3 });
        let mut blanked = 0;
        while blanked < blanks {
            let cell = sequence.below(CELLS);
            if givens[cell] != 0 {
                givens[cell] = 0;
                blanked += 1;
            }
        }
        if round % 4 == 3 {
            let cell = (0..CELLS).find(|&cell| givens[cell] != 0).unwrap();
            givens[cell] = [9, 2, 41, 101, 1][sequence.below(5)];
        }
        let cell_bound = [100, 60, 45][sequence.below(3)];
        let sum_bound = [100, 90, 120][sequence.below(3)];
        instances.push(instance(givens, cell_bound, sum_bound));
    }
    instances
}

#[test]
fn generated_instances_agree_with_an_independent_enumeration_in_every_mode() {
    let mut solved_instances = 0;
    for grid in generated_instances() {
        let expected = enumerate_independently(&grid);
        solved_instances += usize::from(!expected.is_empty());
        for (mode, order) in MODES.iter().flat_map(|mode| ORDERS.map(|order| (mode, order))) {
            let (solutions, _) = solve_in(&grid, mode, order);
            assert_eq!(solutions, expected, "mode {mode}, order {order}, instance {grid:?}");
            assert!(solutions.iter().all(|solution| grid.verify(0, &filled(*solution)).is_ok()));
        }
    }
    assert!(solved_instances >= 8, "only {solved_instances} generated instances have solutions");
}

#[test]
fn lines_first_decides_opposite_cells_around_a_given_centre_first() {
    let centre = [0, 0, 0, 0, 5, 0, 0, 0, 0];
    assert_eq!(blank_order(&centre, BlankOrder::RowMajor), vec![0, 1, 2, 3, 5, 6, 7, 8]);
    // 0 then 8 closes the main diagonal; 2 leaves three lines one short; 6 closes the
    // anti-diagonal and leaves two lines one short; then each cell closes lines.
    assert_eq!(blank_order(&centre, BlankOrder::LinesFirst), vec![0, 8, 2, 6, 1, 7, 3, 5]);
    assert_eq!(blank_order(&[0; CELLS], BlankOrder::LinesFirst).len(), CELLS);
}

#[test]
fn lines_first_finds_the_same_solutions_in_fewer_nodes() {
    let grid = instance([0, 0, 0, 0, 5, 0, 0, 0, 0], 60, 100);
    let (row_major, row_major_stats) = solve_in(&grid, "derived", "row-major");
    let (lines_first, lines_first_stats) = solve_in(&grid, "derived", "lines-first");
    // (Both orders against an independent enumeration: the generated-instances test.)
    assert_eq!(lines_first, row_major);
    assert_eq!((row_major.len(), row_major_stats.nodes, lines_first_stats.nodes), (264, 106_733, 30_021));
}

#[test]
fn deeper_instances_agree_between_incremental_and_derived() {
    let cases = [
        instance([0, 0, 0, 5, 0, 0, 13, 0, 7], 60, 120),
        instance([0, 3, 0, 0, 0, 0, 0, 0, 7], 50, 100),
        instance([0; CELLS], 30, 60),
    ];
    let mut counts = Vec::new();
    for grid in cases {
        let (incremental, _) = solve(&grid, "incremental");
        let (derived, _) = solve(&grid, "derived");
        assert_eq!(derived, incremental, "instance {grid:?}");
        assert!(derived.iter().all(|solution| grid.verify(0, &filled(*solution)).is_ok()));
        counts.push(derived.len());
    }
    assert_eq!(counts, vec![42, 21, 0]);
}

/// The 8 symmetries of the square as cell permutations: `grid'[cell] = grid[map[cell]]`.
const SYMMETRIES: [[usize; CELLS]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [6, 3, 0, 7, 4, 1, 8, 5, 2],
    [8, 7, 6, 5, 4, 3, 2, 1, 0],
    [2, 5, 8, 1, 4, 7, 0, 3, 6],
    [2, 1, 0, 5, 4, 3, 8, 7, 6],
    [6, 7, 8, 3, 4, 5, 0, 1, 2],
    [0, 3, 6, 1, 4, 7, 2, 5, 8],
    [8, 5, 2, 7, 4, 1, 6, 3, 0],
];

#[test]
fn an_empty_grid_has_16_solutions_closed_under_the_symmetries_of_the_square() {
    // Row-major filling is not symmetric, so a pruning slip would likely break the closure.
    let grid = instance([0; CELLS], 40, 80);
    let (solutions, stats) = solve(&grid, "derived");
    // Incremental mode agrees (16 solutions, 2,138,313 nodes; too slow for a debug test).
    assert_eq!((solutions.len(), stats.nodes), (16, 161_704));
    for solution in &solutions {
        assert_eq!(grid.verify(0, &filled(*solution)), Ok(()));
        for map in &SYMMETRIES {
            let image: [u32; CELLS] = std::array::from_fn(|cell| solution[map[cell]]);
            assert!(solutions.binary_search(&image).is_ok(), "{image:?} is missing");
        }
    }
}

#[test]
fn enumeration_instance_file_is_consistent() {
    let file: Value = serde_json::from_str(include_str!("../../../instances/prime_grid_enumeration.json"))
        .expect("instance file is JSON");
    let grid = PrimeGrid::parse(&file["data"]).expect("instance data is valid");
    let expected = &file["expected"];
    let best: Vec<u32> = expected["answer"]["grid"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32))
        .collect();
    let best: [u32; CELLS] = best.try_into().expect("a 3x3 grid");
    assert_eq!(grid.verify(0, &filled(best)), Ok(()));
    assert_eq!(json!(total_of(&best)), expected["answer"]["total"]);
    assert_eq!(expected["solution_count"].as_u64().unwrap() % 8, 0, "the centre-only given is symmetric");
    // The 8 images of the best grid tie; the smallest of them is the answer.
    let images: Vec<[u32; CELLS]> = SYMMETRIES.iter().map(|map| std::array::from_fn(|cell| best[map[cell]])).collect();
    assert_eq!(images.iter().min(), Some(&best));
    assert!(images.iter().all(|image| grid.verify(0, &filled(*image)).is_ok()));
}

#[test]
fn a_full_grid_of_givens_is_its_own_only_solution() {
    let grid = instance([41, 3, 17, 5, 23, 19, 13, 11, 7], 100, 100);
    for mode in MODES {
        let (solutions, stats) = solve(&grid, mode);
        assert_eq!(solutions, vec![[41, 3, 17, 5, 23, 19, 13, 11, 7]], "mode {mode}");
        assert_eq!(stats.nodes, 1, "mode {mode}");
    }
    let broken = instance([41, 3, 17, 5, 23, 19, 13, 11, 7], 100, 70); // a diagonal sums to 71
    for mode in MODES {
        assert!(solve(&broken, mode).0.is_empty(), "mode {mode}");
    }
}

#[test]
fn givens_that_break_the_rules_give_no_solution_in_any_mode() {
    let broken_givens = [
        [0, 3, 17, 5, 0, 0, 13, 0, 9],   // 9 is not prime
        [0, 3, 17, 5, 0, 0, 13, 0, 2],   // 2 makes two lines even
        [0, 3, 17, 5, 0, 0, 13, 0, 17],  // a repeated given
        [0, 3, 17, 5, 0, 0, 13, 0, 101], // above the cell bound
    ];
    for givens in &broken_givens {
        let grid = instance(*givens, 100, 100);
        for mode in MODES {
            let model = grid.models(&config(mode)).remove(0);
            let result = search_sequentially::<_, NoCounters>(model, Limits::exhaustive());
            assert_eq!(result.stats.solutions, 0, "mode {mode}, givens {givens:?}");
        }
    }
    let (_, derived) = solve(&instance(broken_givens[1], 100, 100), "derived");
    assert_eq!((derived.nodes, derived.rule_prunes[RULE_LINE_PARITY]), (1, 1), "parity rejects the root");
}

#[test]
fn no_blank_can_be_filled_without_candidates() {
    for mode in MODES {
        assert!(solve(&instance([0, 3, 17, 5, 0, 0, 13, 0, 7], 0, 100), mode).0.is_empty());
        assert!(solve(&instance([0, 3, 17, 5, 0, 0, 13, 0, 7], 100, 0), mode).0.is_empty());
    }
}

#[test]
fn malformed_data_is_an_error_naming_the_key() {
    let cases = [
        (
            json!({"givens": [[0, 3], [5, 0, 0], [13, 0, 7]], "cell_bound_exclusive": 100, "sum_bound_exclusive": 100}),
            "givens[0]",
        ),
        (json!({"givens": [[0, 3, 17], [5, 0, 0]], "cell_bound_exclusive": 100, "sum_bound_exclusive": 100}), "givens"),
        (
            json!({"givens": [[0, 3, 17], [5, -1, 0], [13, 0, 7]], "cell_bound_exclusive": 100, "sum_bound_exclusive": 100}),
            "givens[1][1]",
        ),
        (
            json!({"givens": [[0, 3, 17], [5, 0, 0], [13, 0, 7]], "cell_bound_exclusive": 2_000_000, "sum_bound_exclusive": 100}),
            "cell_bound_exclusive",
        ),
        (
            json!({"givens": [[0, 3, 17], [5, 0, 0], [13, 0, 7]], "cell_bound_exclusive": 100, "sum_bound_exclusive": -5}),
            "sum_bound_exclusive",
        ),
        (
            json!({"givens": [[0, 3, 17], [5, 0, 0], [13, 0, 7]], "cell_bound_exclusive": "100", "sum_bound_exclusive": 100}),
            "cell_bound_exclusive",
        ),
        (json!({"givens": [[0, 3, 17], [5, 0, 0], [13, 0, 7]], "cell_bound_exclusive": 100}), "sum_bound_exclusive"),
        (
            json!({"givens": [[0, 3, 17], [5, 0, 0], [13, 0, 7]], "cell_bound_exclusive": 100, "sum_bound_exclusive": 100, "answer_type": "assignment"}),
            "answer_type",
        ),
        (json!([1, 2, 3]), ""),
        (
            json!({"givens": [[0, 3, 17], [5, 0, 0], [13, 0, 7]], "cell_bound_exclusive": 0, "sum_bound_exclusive": 100}),
            "cell_bound_exclusive",
        ),
    ];
    for (data, key) in cases {
        let error = PrimeGrid::parse(&data).expect_err("malformed data is refused");
        assert_eq!(error.key, key, "{error}");
    }
    let too_large = json!({"givens": [[0, 3, 17], [5, 0, 0], [13, 0, 7]], "cell_bound_exclusive": 2_000_000, "sum_bound_exclusive": 100});
    let message = PrimeGrid::parse(&too_large).unwrap_err().message;
    assert!(message.contains("1000000"), "the limit is stated: {message}");
    let below_a_given =
        json!({"givens": [[0, 3, 17], [5, 0, 0], [13, 0, 7]], "cell_bound_exclusive": 10, "sum_bound_exclusive": 100});
    let message = PrimeGrid::parse(&below_a_given).unwrap_err().message;
    assert!(message.starts_with("10 is not above the given 17 at givens[0][2]"), "{message}");
    let all_blank =
        json!({"givens": [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "cell_bound_exclusive": 0, "sum_bound_exclusive": 100});
    assert!(PrimeGrid::parse(&all_blank).is_ok(), "blanks are within any bound");
}

#[test]
fn render_draws_the_post_layout() {
    let drawing = seed().render(&filled([41, 3, 17, 5, 23, 19, 13, 11, 7]));
    let expected = [
        "     |  41 |   3 |  17 |    61",
        "     +-----+-----+-----+",
        "     |   5 |  23 |  19 |    47",
        "     +-----+-----+-----+",
        "     |  13 |  11 |   7 |    31",
        "    /                   \\",
        "  53    59    37    43    71",
        "",
        "             541",
    ];
    assert_eq!(drawing, expected.join("\n"));
}

#[test]
fn verify_names_the_broken_rule() {
    let grid = seed();
    assert_eq!(grid.verify(0, &filled([41, 3, 17, 5, 23, 19, 13, 11, 7])), Ok(()));
    assert!(grid.verify(0, &filled([43, 3, 17, 5, 23, 19, 13, 11, 7])).unwrap_err().contains("row 1"));
    assert!(grid.verify(0, &filled([41, 3, 17, 5, 23, 19, 13, 11, 9])).unwrap_err().contains("given"));
    assert_eq!(grid.answer_of_solutions(&[Vec::new()]), Value::Null);
}

#[test]
fn view_shows_givens_placed_values_and_open_cells() {
    let grid = seed();
    let mut model = grid.models(&config("derived")).remove(0);
    model.apply(Placement { cell: 0, value: 41 }, &mut NoCounters).expect("41 fits the first blank");
    let View::Grid(view) = grid.view(&model) else { panic!("a grid view") };
    assert_eq!(view.size, 3);
    assert_eq!(view.cells[..3], [CellView::Placed(41), CellView::Given(3), CellView::Given(17)]);
    assert_eq!(view.cells[4], CellView::Open);
}

#[test]
fn line_tables_agree() {
    for (cell, expected) in LINES_THROUGH.iter().enumerate() {
        let through: Vec<usize> = (0..LINE_COUNT).filter(|&line| LINES[line].contains(&cell)).collect();
        assert_eq!(&through, expected, "cell {cell}");
    }
}

#[test]
fn mode_defaults_to_derived_and_rejects_unknown_values() {
    assert_eq!(PrimeGrid::config(&KnobValues::new()).unwrap().mode, Mode::Derived);
    let bad: KnobValues = [("mode".to_string(), "fast".to_string())].into();
    assert!(PrimeGrid::config(&bad).unwrap_err().message.contains("brute, incremental, derived"));
    assert_eq!(
        PrimeGrid::describe(&config("brute")),
        vec![("mode", "brute".to_string()), ("order", "row-major".to_string()), ("objective", "none".to_string())]
    );
    assert_eq!(PrimeGrid::config(&KnobValues::new()).unwrap().order, BlankOrder::LinesFirst);
}

/// Everything a move may change.
fn state_of(model: &PrimeGridModel) -> ([u32; CELLS], [u32; LINE_COUNT], [u8; LINE_COUNT], usize, Vec<u64>) {
    (model.cells, model.line_sums, model.line_open, model.decided, model.unplaced.clone())
}

#[test]
fn a_rejected_move_leaves_the_state_as_it_was_and_the_counts_equal_the_default_contract() {
    let mut rejections = 0;
    for grid in std::iter::once(seed()).chain(generated_instances()) {
        for (mode, order) in MODES.iter().flat_map(|mode| ORDERS.map(|order| (mode, order))) {
            let model = grid.models(&config_in(mode, order)).remove(0);
            let stats = assert_same_as_default_contract(model, state_of);
            if *mode == "incremental" {
                // Below the root, incremental mode prunes by line rules only in `apply`.
                let below_root = &stats.prunes_per_depth[1..];
                rejections += below_root.iter().map(|row| row[RULE_LINE_BOUND] + row[RULE_LINE_PRIME]).sum::<u64>();
            }
        }
    }
    assert!(rejections > 0, "moves were rejected, so the state check above ran");
}

/// `mode` with blanks in `order` and the smallest total sought by branch and bound.
fn min_total_config(mode: &str, order: &str) -> PrimeGridConfig {
    PrimeGridConfig { objective: GridObjective::MinTotal, ..config_in(mode, order) }
}

/// Asserts that `objective=min-total` finds the smallest total of the solutions that the
/// enumeration lists, in each of `modes` and every order; returns per setting the nodes of the
/// enumeration and of the bounded search, and the bound's cuts.
fn assert_min_total_is_the_enumerations(grid: &PrimeGrid, modes: &[&str]) -> Vec<(u64, u64, u64)> {
    let mut counts = Vec::new();
    for (mode, order) in modes.iter().flat_map(|mode| ORDERS.map(|order| (mode, order))) {
        let context = format!("mode {mode}, order {order}, instance {grid:?}");
        let (listed, listing) = solve_in(grid, mode, order);
        let model = grid.models(&min_total_config(mode, order)).remove(0);
        assert_eq!(model.rule_names()[RULE_BOUND], "bound", "{context}");
        let result = search_sequentially::<_, FullCounters>(model.clone(), Limits::exhaustive());
        let values: Vec<i64> = result.solutions.iter().map(|solution| model.solution_value(solution)).collect();
        match listed.iter().map(total_of).min() {
            None => assert!(result.solutions.is_empty(), "{context}"),
            Some(smallest) => {
                assert!(!values.is_empty() && values.iter().all(|&value| value == i64::from(smallest)), "{context}");
                assert!(result.solutions.iter().all(|solution| grid.verify(0, solution).is_ok()), "{context}");
            }
        }
        assert!(result.stats.nodes <= listing.nodes, "{context}: a cut child is a node, never more");
        counts.push((listing.nodes, result.stats.nodes, result.stats.rule_prunes[RULE_BOUND]));
    }
    counts
}

#[test]
fn min_total_proves_541_by_bound_in_fewer_nodes_than_the_enumeration() {
    let grid = seed();
    let counts = assert_min_total_is_the_enumerations(&grid, &MODES);
    // (nodes listed, nodes bounded, bound cuts) per mode, row-major then lines-first: the
    // seed's two orders coincide (both decide cells 0, 4, 5, 7).
    assert_eq!(blank_order(&grid.givens, BlankOrder::LinesFirst), vec![0, 4, 5, 7]);
    let brute = (123_521, 20_064, 8_797);
    let incremental = (1_189, 829, 500);
    let derived = (23, 19, 4);
    assert_eq!(counts, vec![brute, brute, incremental, incremental, derived, derived]);
    for (listing, bounded, cuts) in counts {
        assert!(bounded < listing && cuts > 0, "{listing} nodes listed, {bounded} bounded with {cuts} cuts");
    }
    let model = grid.models(&min_total_config("derived", "lines-first")).remove(0);
    let result = search_sequentially::<_, FullCounters>(model, Limits::exhaustive());
    assert_eq!(result.solutions.len(), 1);
    assert_eq!(grid.solution_text(&result.solutions[0]), "41,3,17/5,23,19/13,11,7");
    assert_eq!(result.solutions[0].total, 541);
}

#[test]
fn min_total_agrees_with_the_enumeration_on_generated_instances() {
    // Eight blanks: the brute and incremental listings run to hundreds of millions of nodes.
    let centre = instance([0, 0, 0, 0, 5, 0, 0, 0, 0], 60, 100);
    let counts = assert_min_total_is_the_enumerations(&centre, &["derived"]);
    assert_eq!(counts, vec![(106_733, 71_997, 21_804), (30_021, 16_439, 4_843)]);
    for (listing, bounded, cuts) in counts {
        assert!(bounded < listing && cuts > 0, "{listing} nodes listed, {bounded} bounded with {cuts} cuts");
    }
    for grid in generated_instances() {
        assert_min_total_is_the_enumerations(&grid, &MODES);
    }
}

#[test]
fn without_an_objective_the_rules_and_counts_are_the_enumerations() {
    let model = seed().models(&config("derived")).remove(0);
    assert_eq!(model.objective(), None);
    assert_eq!(model.rule_names().len(), RULE_BOUND, "no bound rule listed");
    let knobs: KnobValues = [("objective".to_string(), "min-total".to_string())].into();
    assert_eq!(PrimeGrid::config(&knobs).unwrap().objective, GridObjective::MinTotal);
    assert_eq!(PrimeGrid::config(&KnobValues::new()).unwrap().objective, GridObjective::None);
}
