//! Tests of the Twenty Four Seven family: the published answer, knob invariance, pinned
//! node counts, the independent checker and enumerator, and data errors.

use super::reference::reference_solutions;
use super::*;
use crate::search::{search_sequentially, FullCounters, Limits, Model, RuleId, Stats};

fn seed_file() -> Value {
    serde_json::from_str(include_str!("../../../instances/twenty_four_seven_2x2_2.json")).expect("instance is JSON")
}

/// The published solution of each seed grid, read from the file's `expected` block.
fn published_solutions() -> Vec<String> {
    let file = seed_file();
    let lists = file["expected"]["per_grid_solutions"].as_array().expect("per_grid_solutions is a list");
    lists.iter().map(|list| list[0].as_str().expect("a solution string").to_string()).collect()
}

fn digits(text: &str) -> Vec<u8> {
    text.bytes().map(|byte| byte - b'0').collect()
}

fn config(order: &str, rules: &str, connectivity: &str) -> TwentyFourSevenConfig {
    config_with(order, rules, connectivity, "incremental")
}

pub(super) fn config_with(order: &str, rules: &str, connectivity: &str, candidates: &str) -> TwentyFourSevenConfig {
    let knobs: KnobValues =
        [("order", order), ("rules", rules), ("connectivity", connectivity), ("candidates", candidates)]
            .into_iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect();
    TwentyFourSeven::config(&knobs).expect("valid knobs")
}

/// A grid's tree as its counts: nodes, per-rule prunes, nodes per depth, prunes per depth.
type TreeCounts = (u64, Vec<u64>, Vec<u64>, Vec<Vec<u64>>);

/// The tree of each grid's search as its counts (the per-rule checks are left out: how
/// many a node counts depends on how it finds its values).
fn tree_counts(stats: &[Stats]) -> Vec<TreeCounts> {
    stats
        .iter()
        .map(|grid| (grid.nodes, grid.rule_prunes.clone(), grid.nodes_per_depth.clone(), grid.prunes_per_depth.clone()))
        .collect()
}

/// Every solution of every grid (each grid's list sorted) and the stats of each grid.
fn solve(puzzle: &TwentyFourSeven, config: &TwentyFourSevenConfig) -> (Vec<Vec<Vec<u8>>>, Vec<Stats>) {
    let mut solutions = Vec::new();
    let mut stats = Vec::new();
    for model in puzzle.models(config) {
        let mut result = search_sequentially::<_, FullCounters>(model, Limits::exhaustive());
        assert_eq!(result.stop, None);
        result.solutions.sort();
        solutions.push(result.solutions);
        stats.push(result.stats);
    }
    (solutions, stats)
}

/// A grid of the seed built from its published solution: every digit given except those
/// at `hidden` (row-major cells), the clues kept or dropped.
fn seed_subgrid(grid: usize, hidden: &[usize], keep_clues: bool, name: &str) -> Value {
    let file = seed_file();
    let solution = digits(&published_solutions()[grid]);
    let original = &file["data"]["grids"][grid];
    let givens: Vec<Vec<u8>> = (0..7)
        .map(|row| {
            (0..7)
                .map(|column| if hidden.contains(&(row * 7 + column)) { 0 } else { solution[row * 7 + column] })
                .collect()
        })
        .collect();
    let mut built = json!({"name": name, "givens": givens});
    if keep_clues {
        for side in ["north", "south", "west", "east"] {
            if let Some(clues) = original.get(side) {
                built[side] = clues.clone();
            }
        }
    }
    built
}

/// The seed's `data` block with `grids` replaced.
fn with_grids(grids: Vec<Value>) -> TwentyFourSeven {
    let mut data = seed_file()["data"].clone();
    data["grids"] = Value::Array(grids);
    TwentyFourSeven::parse(&data).expect("valid data")
}

/// Four sub-grids of the seed (two with two solutions each, two with clues) on which even
/// the `strict` rules finish quickly in a debug build.
pub(super) fn small_instance() -> TwentyFourSeven {
    with_grids(vec![
        seed_subgrid(0, &[5, 9, 18, 27, 28, 31, 35, 37], false, "grid1_eight_hidden"),
        seed_subgrid(1, &[0, 12, 16, 23, 28, 36, 45, 46], false, "grid2_eight_hidden"),
        seed_subgrid(3, &[0, 1, 2, 3, 4, 5, 6, 10, 24, 38], true, "grid4_top_row_hidden"),
        seed_subgrid(2, &[7, 8, 9, 10, 11, 12, 13, 15, 22, 29, 36], true, "grid3_second_row_hidden"),
    ])
}

pub(super) const ORDERS: [&str; 6] =
    ["row-major", "column-major", "spiral", "most-constrained", "shape-first", "adaptive"];
const RULES: [&str; 2] = ["strict", "derived"];
const CONNECTIVITY: [&str; 5] = ["leaves", "periodic:1", "periodic:3", "every-node", "incremental"];
const CANDIDATES: [&str; 2] = ["recompute", "incremental"];

#[test]
fn seed_answer_is_8520_and_each_grid_has_its_published_unique_solution() {
    let file = seed_file();
    let puzzle = TwentyFourSeven::parse(&file["data"]).expect("valid data");
    let names: Vec<String> = file["data"]["grids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|grid| grid["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(puzzle.component_names(), names);
    let (solutions, _) = solve(&puzzle, &TwentyFourSeven::config(&KnobValues::new()).unwrap());
    for (grid, (found, published)) in solutions.iter().zip(published_solutions()).enumerate() {
        assert_eq!(found.len(), 1, "grid {grid} is unique");
        assert_eq!(puzzle.solution_text(&found[0]), published, "grid {grid}");
        assert_eq!(puzzle.verify(grid, &found[0]), Ok(()));
    }
    assert_eq!(puzzle.answer_of_solutions(&solutions), file["expected"]["answer"]);
    assert_eq!(puzzle.answer_of_solutions(&solutions), json!(8520));
}

#[test]
fn default_configuration_visits_6081_nodes_on_the_seed() {
    let puzzle = TwentyFourSeven::parse(&seed_file()["data"]).unwrap();
    let defaults = TwentyFourSeven::config(&KnobValues::new()).unwrap();
    assert_eq!(defaults, config_with("adaptive", "derived", "incremental", "incremental"));
    let (_, stats) = solve(&puzzle, &defaults);
    let nodes: Vec<u64> = stats.iter().map(|stats| stats.nodes).collect();
    assert_eq!(nodes, vec![126, 1748, 633, 3574]);
    assert_eq!(nodes.iter().sum::<u64>(), 6081);
    for grid in &stats {
        assert_eq!(grid.nodes, grid.nodes_per_depth.iter().sum::<u64>());
    }
    // Every seed grid has view clues: the adaptive order searches each most-constrained.
    let (_, most_constrained) = solve(&puzzle, &config("most-constrained", "derived", "incremental"));
    assert_eq!(most_constrained.iter().map(|stats| stats.nodes).collect::<Vec<_>>(), nodes);
}

#[test]
fn kept_candidates_build_the_recomputed_tree_on_the_seed_under_every_derived_order() {
    let puzzle = TwentyFourSeven::parse(&seed_file()["data"]).unwrap();
    for order in ORDERS {
        let (kept, kept_stats) = solve(&puzzle, &config_with(order, "derived", "incremental", "incremental"));
        let (recomputed, recomputed_stats) = solve(&puzzle, &config_with(order, "derived", "incremental", "recompute"));
        assert_eq!(kept, recomputed, "{order}");
        assert_eq!(tree_counts(&kept_stats), tree_counts(&recomputed_stats), "{order}");
    }
    // The pinned trees: most-constrained (the default's) and shape-first, with 561 and
    // 545 prunes for no candidate and connectivity on the former.
    let (_, recomputed) = solve(&puzzle, &config_with("adaptive", "derived", "incremental", "recompute"));
    assert_eq!(recomputed.iter().map(|stats| stats.nodes).collect::<Vec<_>>(), vec![126, 1748, 633, 3574]);
    let prunes = |rule: RuleId| recomputed.iter().map(|stats| stats.rule_prunes[rule]).sum::<u64>();
    assert_eq!((prunes(model::RULE_NO_CANDIDATE), prunes(model::RULE_CONNECTIVITY)), (561, 545));
    let (_, shape_first) = solve(&puzzle, &config_with("shape-first", "derived", "incremental", "recompute"));
    assert_eq!(shape_first.iter().map(|stats| stats.nodes).sum::<u64>(), 15_593);
}

#[test]
fn adaptive_order_searches_a_grid_without_view_clues_shape_first() {
    // Grid 1 of the seed twice: with its clues, and without them.
    let corner = [0, 1, 2, 3, 7, 8, 9, 10, 14, 15, 16, 17, 21, 22, 23, 24, 28, 29, 30, 31];
    let puzzle = with_grids(vec![
        seed_subgrid(0, &corner, true, "grid1_corner_hidden_with_clues"),
        seed_subgrid(0, &corner, false, "grid1_corner_hidden"),
    ]);
    let nodes = |order: &str| -> Vec<u64> {
        let (_, stats) = solve(&puzzle, &config(order, "derived", "incremental"));
        stats.iter().map(|stats| stats.nodes).collect()
    };
    let (adaptive, most_constrained, shape_first) =
        (nodes("adaptive"), nodes("most-constrained"), nodes("shape-first"));
    assert_eq!(adaptive, vec![most_constrained[0], shape_first[1]]);
    assert_ne!(most_constrained, shape_first, "the two orders differ on both grids");
}

#[test]
fn spiral_order_visits_134256_nodes_on_the_seed() {
    let puzzle = TwentyFourSeven::parse(&seed_file()["data"]).unwrap();
    let (solutions, stats) = solve(&puzzle, &config("spiral", "derived", "incremental"));
    let nodes: Vec<u64> = stats.iter().map(|stats| stats.nodes).collect();
    assert_eq!(nodes, vec![1393, 11554, 9090, 112219]);
    assert_eq!(puzzle.answer_of_solutions(&solutions), json!(8520));
}

#[test]
fn shape_first_order_visits_15593_nodes_on_the_seed() {
    let puzzle = TwentyFourSeven::parse(&seed_file()["data"]).unwrap();
    let (solutions, stats) = solve(&puzzle, &config("shape-first", "derived", "incremental"));
    let nodes: Vec<u64> = stats.iter().map(|stats| stats.nodes).collect();
    assert_eq!(nodes, vec![293, 2074, 2218, 11008]);
    assert_eq!(puzzle.answer_of_solutions(&solutions), json!(8520));
    for grid in &stats {
        assert_eq!(grid.nodes, grid.nodes_per_depth.iter().sum::<u64>());
    }
}

#[test]
fn every_knob_combination_finds_the_same_solutions_as_the_reference_enumerator() {
    let puzzle = small_instance();
    let expected: Vec<Vec<Vec<u8>>> =
        puzzle.instance.grids.iter().map(|grid| reference_solutions(&puzzle.instance, grid)).collect();
    let counts: Vec<usize> = expected.iter().map(Vec::len).collect();
    assert_eq!(counts, vec![2, 2, 1, 1]);
    for order in ORDERS {
        for rules in RULES {
            for connectivity in CONNECTIVITY {
                for candidates in CANDIDATES {
                    let (found, _) = solve(&puzzle, &config_with(order, rules, connectivity, candidates));
                    assert_eq!(
                        found, expected,
                        "order={order} rules={rules} connectivity={connectivity} candidates={candidates}"
                    );
                }
            }
        }
    }
    for (grid, solutions) in expected.iter().enumerate() {
        for solution in solutions {
            assert_eq!(puzzle.verify(grid, solution), Ok(()));
        }
    }
}

#[test]
fn derived_knobs_agree_with_the_reference_enumerator_on_a_grid_with_14_solutions() {
    // Grid 1 of the seed without clues, the digits of its top-left 5x4 corner hidden.
    let corner = [0, 1, 2, 3, 7, 8, 9, 10, 14, 15, 16, 17, 21, 22, 23, 24, 28, 29, 30, 31];
    let puzzle = with_grids(vec![seed_subgrid(0, &corner, false, "grid1_corner_hidden")]);
    let expected = reference_solutions(&puzzle.instance, &puzzle.instance.grids[0]);
    assert_eq!(expected.len(), 14);
    for order in ORDERS {
        for connectivity in CONNECTIVITY {
            let (found, stats) = solve(&puzzle, &config(order, "derived", connectivity));
            assert_eq!(found[0], expected, "order={order} connectivity={connectivity}");
            let (recomputed, recomputed_stats) =
                solve(&puzzle, &config_with(order, "derived", connectivity, "recompute"));
            assert_eq!((recomputed, tree_counts(&recomputed_stats)), (found, tree_counts(&stats)), "{order}");
        }
    }
    for solution in &expected {
        assert_eq!(puzzle.verify(0, solution), Ok(()));
    }
    // 14 solutions of one grid: every one is counted in the answer.
    assert_eq!(puzzle.answer_of_solutions(&[expected])["solutions"], json!(14));
}

#[test]
fn five_by_five_instances_have_no_solution() {
    // The two consistent 5x5 settings: ten digits 1-4, two per line summing to 6; fifteen
    // digits 1-5, three per line summing to 11. No connected pattern without a full 2x2
    // block has the right counts, which the plain enumerator confirms.
    for (line_filled, line_sum, max_value) in [(2, 6, 4), (3, 11, 5)] {
        let data = json!({
            "size": 5, "line_filled": line_filled, "line_sum": line_sum, "max_value": max_value,
            "answer_type": "sum_of_squares_of_grid_sum",
            "grids": [{"name": "blank", "givens": vec![vec![0; 5]; 5]}]
        });
        let puzzle = TwentyFourSeven::parse(&data).unwrap();
        assert!(puzzle.instance.supply_fits_lines());
        assert!(reference_solutions(&puzzle.instance, &puzzle.instance.grids[0]).is_empty());
        let (found, _) = solve(&puzzle, &TwentyFourSeven::config(&KnobValues::new()).unwrap());
        assert!(found[0].is_empty());
        assert_eq!(puzzle.answer_of_solutions(&found), Value::Null);
    }
}

#[test]
fn data_errors_name_the_key() {
    let error = |edit: &dyn Fn(&mut Value)| {
        let mut data = seed_file()["data"].clone();
        edit(&mut data);
        TwentyFourSeven::parse(&data).expect_err("invalid data")
    };
    let too_large = error(&|data| data["size"] = json!(12));
    assert_eq!(too_large.key, "size");
    assert!(too_large.message.contains("up to 11x11"), "{}", too_large.message);
    let given = error(&|data| data["grids"][0]["givens"][2][3] = json!(8));
    assert_eq!(
        (given.key.as_str(), given.message.as_str()),
        ("grids[0].givens[2][3]", "8 is out of range; expected 0 to 7")
    );
    let short = error(&|data| {
        data["grids"][1]["givens"].as_array_mut().unwrap().pop();
    });
    assert_eq!((short.key.as_str(), short.message.as_str()), ("grids[1].givens", "expected 7 rows, found 6"));
    let narrow = error(&|data| {
        data["grids"][2]["givens"][4].as_array_mut().unwrap().push(json!(0));
    });
    assert_eq!((narrow.key.as_str(), narrow.message.as_str()), ("grids[2].givens[4]", "expected 7 entries, found 8"));
    let clues = error(&|data| {
        data["grids"][3]["west"].as_array_mut().unwrap().pop();
    });
    assert_eq!((clues.key.as_str(), clues.message.as_str()), ("grids[3].west", "expected 7 entries, found 6"));
    let clue = error(&|data| data["grids"][0]["north"][1] = json!(-1));
    assert_eq!(clue.key, "grids[0].north[1]");
    let answer = error(&|data| data["answer_type"] = json!("min_total_solution"));
    assert_eq!(answer.key, "answer_type");
    assert!(answer.message.contains("`sum_of_squares_of_grid_sum` or `product_of_empty_region_areas`"));
    let missing = error(&|data| {
        data.as_object_mut().unwrap().remove("max_value");
    });
    assert_eq!((missing.key.as_str(), missing.message.as_str()), ("max_value", "missing key"));
    let empty = error(&|data| data["grids"] = json!([]));
    assert_eq!(empty.key, "grids");
    let line = error(&|data| data["line_filled"] = json!(8));
    assert_eq!(line.key, "line_filled");
}

#[test]
fn absent_clue_lists_mean_no_clues() {
    let mut data = seed_file()["data"].clone();
    for side in ["north", "south", "west", "east"] {
        data["grids"][0].as_object_mut().unwrap().remove(side);
    }
    data["grids"][0]["east"] = Value::Null;
    let puzzle = TwentyFourSeven::parse(&data).expect("clue lists are optional");
    assert!(puzzle.instance.grids[0].clues.iter().all(|side| side.iter().all(|&clue| clue == 0)));
}

#[test]
fn a_supply_that_cannot_fill_the_lines_gives_no_solution_not_an_error() {
    // 1 + 4 + ... + 49 = 140 is not 7 lines of 21.
    let mut data = seed_file()["data"].clone();
    data["line_sum"] = json!(21);
    let puzzle = TwentyFourSeven::parse(&data).expect("valid data");
    assert!(!puzzle.instance.supply_fits_lines());
    let (found, stats) = solve(&puzzle, &TwentyFourSeven::config(&KnobValues::new()).unwrap());
    assert!(found.iter().all(Vec::is_empty));
    assert!(stats.iter().all(|grid| grid.nodes == 1 && grid.rule_prunes[model::RULE_SUPPLY] == 1));
    assert_eq!(puzzle.answer_of_solutions(&found), Value::Null);
}

#[test]
fn givens_that_break_a_rule_end_the_search_at_the_root() {
    let mut data = seed_file()["data"].clone();
    // Two given 1s (the supply has one); a full 2x2 block of givens; a given that the
    // west clue of its row cannot see first.
    data["grids"][0]["givens"][0][0] = json!(1);
    data["grids"][0]["givens"][5][3] = json!(1);
    data["grids"][1]["givens"][2][0] = json!(5);
    data["grids"][1]["givens"][2][1] = json!(6);
    data["grids"][1]["givens"][1][1] = json!(7);
    data["grids"][2]["givens"][3][0] = json!(5);
    data["grids"].as_array_mut().unwrap().truncate(3);
    let puzzle = TwentyFourSeven::parse(&data).expect("valid data");
    let (found, stats) = solve(&puzzle, &config("spiral", "strict", "leaves"));
    assert!(found.iter().all(Vec::is_empty));
    let rules: Vec<usize> =
        stats.iter().map(|grid| grid.rule_prunes.iter().position(|&prunes| prunes == 1).unwrap()).collect();
    assert_eq!(rules, vec![model::RULE_SUPPLY, model::RULE_TWO_BY_TWO, model::RULE_VIEW]);
    assert!(stats.iter().all(|grid| grid.nodes == 1));
}

#[test]
fn answer_lists_every_combination_up_to_1000() {
    let puzzle = TwentyFourSeven::parse(&seed_file()["data"]).unwrap();
    let grid = |value: u8| {
        let mut cells = vec![0u8; 49];
        cells[0] = value;
        cells[1] = 1;
        cells
    };
    // (1 + 2)^2 + (1 + 1)^2 = 13, (3 + 2)^2 + 4 = 29.
    let two = json!({"solutions": 2, "distinct": 2, "counts": [{"answer": 13, "solutions": 1}, {"answer": 29, "solutions": 1}]});
    assert_eq!(puzzle.answer_of_solutions(&[vec![grid(1), grid(3)], vec![grid(2)]]), two);
    assert_eq!(puzzle.answer_of_solutions(&[vec![grid(1)], vec![grid(2)]]), json!(13));
    assert_eq!(puzzle.answer_of_solutions(&[vec![grid(1)], vec![]]), Value::Null);
    let six: Vec<Vec<u8>> = (1..=6).map(grid).collect();
    assert_eq!(puzzle.answer_of_solutions(&[six.clone(), six.clone(), six.clone()])["solutions"], json!(216));
    assert_eq!(puzzle.answer_of_solutions(&[six.clone(), six.clone(), six.clone(), six]), Value::Null);
}

#[test]
fn verify_names_the_rule_a_wrong_grid_breaks() {
    let puzzle = TwentyFourSeven::parse(&seed_file()["data"]).unwrap();
    let published = digits(&published_solutions()[0]);
    assert_eq!(puzzle.verify(0, &published), Ok(()));
    let broken = |edit: &dyn Fn(&mut Vec<u8>), puzzle: &TwentyFourSeven| {
        let mut grid = published.clone();
        edit(&mut grid);
        puzzle.verify(0, &grid).expect_err("broken grid")
    };
    let swap_rows = |a: usize, b: usize| {
        move |grid: &mut Vec<u8>| {
            for column in 0..7 {
                grid.swap(a * 7 + column, b * 7 + column);
            }
        }
    };
    assert!(broken(&|grid| grid[3] = 1, &puzzle).contains("digit 1 appears 2 times"));
    assert!(broken(&|grid| grid.swap(0, 2), &puzzle).contains("holds 5, but 4 is given"));
    // Swapping two rows keeps every count and sum; without givens or clues, only the
    // shape can break.
    let bare = with_grids(vec![json!({"name": "bare", "givens": vec![vec![0; 7]; 7]})]);
    assert!(broken(&swap_rows(0, 1), &bare).contains("2x2 block"));
    assert!(broken(&swap_rows(0, 4), &bare).contains("not connected"));
    assert_eq!(
        bare.verify(0, &{
            let mut grid = published.clone();
            swap_rows(0, 2)(&mut grid);
            grid
        }),
        Ok(())
    );
    let clues_only = with_grids(vec![seed_subgrid(0, &(0..49).collect::<Vec<_>>(), true, "clues")]);
    assert!(broken(&swap_rows(0, 2), &clues_only).contains("clue"));
    assert!(broken(&|grid| grid.swap(0, 1), &bare).contains("column 0 has 4 digits summing to 19"));
}

#[test]
fn knobs_parse_describe_and_reject_unknown_values() {
    for order in ORDERS {
        for rules in RULES {
            for connectivity in CONNECTIVITY {
                for candidates in CANDIDATES {
                    let parsed = config_with(order, rules, connectivity, candidates);
                    let described = TwentyFourSeven::describe(&parsed);
                    assert_eq!(
                        described,
                        vec![
                            ("order", order.to_string()),
                            ("rules", rules.to_string()),
                            ("connectivity", connectivity.to_string()),
                            ("candidates", candidates.to_string())
                        ]
                    );
                }
            }
        }
    }
    let knobs: KnobValues = [("order".to_string(), "diagonal".to_string())].into();
    let error = TwentyFourSeven::config(&knobs).unwrap_err();
    assert!(error.message.contains("row-major, column-major, spiral, most-constrained"), "{}", error.message);
    assert_eq!(
        TwentyFourSeven::KNOBS.iter().map(|knob| knob.name).collect::<Vec<_>>(),
        ["order", "rules", "connectivity", "candidates"]
    );
}

#[test]
fn render_frames_a_grid_with_its_clues() {
    let puzzle = TwentyFourSeven::parse(&seed_file()["data"]).unwrap();
    let drawing = puzzle.render_component(3, &digits(&published_solutions()[3]));
    let lines: Vec<&str> = drawing.lines().collect();
    assert_eq!(lines.len(), 9);
    assert_eq!(lines[1], "1 . . . 1 5 7 7  ");
    assert_eq!(lines[8], "    6   5   4");
    assert_eq!(puzzle.render(&digits(&published_solutions()[3])).lines().next(), Some(". . . 1 5 7 7"));
}

#[test]
fn view_marks_givens_placements_and_open_cells() {
    let puzzle = TwentyFourSeven::parse(&seed_file()["data"]).unwrap();
    let mut model = puzzle.models(&config("row-major", "derived", "incremental")).remove(0);
    let mut moves = Vec::new();
    let mut counters = crate::search::NoCounters;
    assert_eq!(model.branch(&mut moves, &mut counters), crate::search::Branch::Moves);
    let first = *moves.iter().find(|mv| mv.value != 0).expect("a digit at the first cell");
    assert_eq!(model.apply(first, &mut counters), Ok(()));
    let View::Grid(view) = puzzle.view(&model) else { panic!("a grid view") };
    assert_eq!(view.cells[0], CellView::Placed(first.value as u32));
    assert_eq!(view.cells[1], CellView::Open);
    assert_eq!(view.cells[2], CellView::Given(4));
    model.undo(first);
    let View::Grid(view) = puzzle.view(&model) else { panic!("a grid view") };
    assert_eq!(view.cells[0], CellView::Open);
}

fn enumeration_file() -> Value {
    serde_json::from_str(include_str!("../../../instances/twenty_four_seven_enumeration.json"))
        .expect("instance is JSON")
}

/// The per-grid counts recorded in the enumeration instance's `expected` block.
fn enumeration_counts(file: &Value) -> Vec<usize> {
    let counts = file["expected"]["per_grid_solution_counts"].as_array().expect("per_grid_solution_counts");
    counts.iter().map(|count| count.as_u64().expect("a count") as usize).collect()
}

#[test]
#[ignore = "a few seconds in release: cargo test --release -- --ignored"]
fn enumeration_instance_has_the_recorded_counts_with_default_knobs() {
    let file = enumeration_file();
    let puzzle = TwentyFourSeven::parse(&file["data"]).expect("valid data");
    let (found, stats) = solve(&puzzle, &TwentyFourSeven::config(&KnobValues::new()).unwrap());
    assert_eq!(found.iter().map(Vec::len).collect::<Vec<_>>(), enumeration_counts(&file));
    let product: u64 = found.iter().map(|grid| grid.len() as u64).product();
    assert_eq!(json!(product), file["expected"]["solution_count"]);
    let nodes: Vec<Value> = stats.iter().map(|grid| json!(grid.nodes)).collect();
    assert_eq!(Value::Array(nodes), file["expected"]["default_knobs_nodes_per_grid"]);
    assert_eq!(puzzle.answer_of_solutions(&found), Value::Null, "more than 1000 combinations");
    for (grid, solutions) in found.iter().enumerate() {
        assert!(solutions.iter().all(|solution| puzzle.verify(grid, solution).is_ok()));
    }
}

#[test]
#[ignore = "about 20 s in release: cargo test --release -- --ignored"]
fn enumeration_instance_agrees_with_the_reference_enumerator() {
    let file = enumeration_file();
    let puzzle = TwentyFourSeven::parse(&file["data"]).expect("valid data");
    let (found, _) = solve(&puzzle, &TwentyFourSeven::config(&KnobValues::new()).unwrap());
    for (grid, solutions) in puzzle.instance.grids.iter().zip(&found) {
        assert_eq!(&reference_solutions(&puzzle.instance, grid), solutions, "{}", grid.name);
    }
    assert_eq!(found.iter().map(Vec::len).collect::<Vec<_>>(), enumeration_counts(&file));
}

#[test]
fn shape_first_and_adaptive_find_the_recorded_enumeration_counts_in_347670_nodes() {
    let file = enumeration_file();
    let puzzle = TwentyFourSeven::parse(&file["data"]).expect("valid data");
    let (found, stats) = solve(&puzzle, &config("shape-first", "derived", "incremental"));
    assert_eq!(found.iter().map(Vec::len).collect::<Vec<_>>(), enumeration_counts(&file));
    let nodes: Vec<u64> = stats.iter().map(|grid| grid.nodes).collect();
    assert_eq!(nodes, vec![68765, 214528, 64377]);
    // Recomputed candidates: the same tree.
    let (recomputed, recomputed_stats) =
        solve(&puzzle, &config_with("shape-first", "derived", "incremental", "recompute"));
    assert_eq!((recomputed, tree_counts(&recomputed_stats)), (found.clone(), tree_counts(&stats)));
    // No grid of the workload has a view clue: the adaptive order is shape-first on each.
    let (adaptive_found, adaptive_stats) = solve(&puzzle, &config("adaptive", "derived", "incremental"));
    assert_eq!(adaptive_found, found);
    assert_eq!(adaptive_stats.iter().map(|grid| grid.nodes).collect::<Vec<_>>(), nodes);
    for (grid, solutions) in found.iter().enumerate() {
        assert!(solutions.iter().all(|solution| puzzle.verify(grid, solution).is_ok()));
    }
}
