//! Tests of the Hooks family: the published answer, agreement of every knob setting, an
//! independent brute force on small generated instances, subproblem replay, and data
//! errors.

use super::*;
use crate::search::{search_sequentially, Engine, FullCounters, Limits, NoObserver, NoSteering};
use serde_json::json;

fn hooks7_file() -> Value {
    serde_json::from_str(include_str!("../../../instances/hooks_7.json")).expect("instance file is JSON")
}

fn hooks7() -> Hooks {
    Hooks::parse(&hooks7_file()["data"]).expect("valid data")
}

fn config(placement: &str, order: &str, rules: &str, connectivity: &str) -> HooksConfig {
    let knobs: KnobValues = [
        ("placement".to_string(), placement.to_string()),
        ("order".to_string(), order.to_string()),
        ("rules".to_string(), rules.to_string()),
        ("connectivity".to_string(), connectivity.to_string()),
    ]
    .into();
    Hooks::config(&knobs).expect("valid knobs")
}

/// Every combination of placement, order, rules and connectivity (periodic with K = 3),
/// each with both `forced` values, and once more with the recomputed counts and the
/// stranded-cell hook counts.
fn every_config() -> Vec<HooksConfig> {
    let mut configs = Vec::new();
    for placement in ["two-phase", "integrated"] {
        for order in ["row-major", "bottom-up", "spiral", "most-constrained", "tightest-hook"] {
            for rules in ["basic", "derived", "joint"] {
                for connectivity in ["leaves", "periodic:3", "every-node", "incremental"] {
                    let try_both =
                        HooksConfig { forced: ForcedCells::TryBoth, ..config(placement, order, rules, connectivity) };
                    configs.push(try_both);
                    configs.push(HooksConfig { forced: ForcedCells::SingleChild, ..try_both });
                    configs.push(HooksConfig {
                        counts: Bookkeeping::Recompute,
                        stranded: Stranded::HookCount,
                        ..try_both
                    });
                }
            }
        }
    }
    configs
}

/// Nodes and the sorted solutions of an exhaustive search.
fn solve(hooks: &Hooks, config: &HooksConfig) -> (u64, Vec<Vec<u8>>) {
    let model = hooks.models(config).remove(0);
    let result = search_sequentially::<_, FullCounters>(model, Limits::exhaustive());
    let mut solutions = result.solutions;
    solutions.sort();
    assert_eq!(result.stats.solutions as usize, solutions.len());
    (result.stats.nodes, solutions)
}

/// A `data` block of side `size` with regions given by a label per cell.
fn data_block(size: usize, labels: &[usize], region_sum: Value, givens: Value) -> Value {
    let count = labels.iter().max().map_or(0, |&m| m + 1);
    let regions: Vec<Vec<usize>> = (0..count).map(|r| (0..size * size).filter(|&c| labels[c] == r).collect()).collect();
    let map: Vec<Vec<usize>> = labels.chunks(size).map(|row| row.to_vec()).collect();
    json!({
        "size": size,
        "regions": regions,
        "region_map": map,
        "region_sum": region_sum,
        "givens": givens,
        "answer_type": "product_of_empty_region_areas",
    })
}

/// Labels `0..regions` for an `size` x `size` board, from a fixed pseudo-random sequence:
/// every region gets at least one cell, regions need not be connected.
fn scattered_labels(size: usize, regions: usize, seed: u64) -> Vec<usize> {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut labels: Vec<usize> = (0..size * size).map(|cell| cell % regions).collect();
    for index in (1..labels.len()).rev() {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let other = (state >> 33) as usize % (index + 1);
        labels.swap(index, other);
    }
    labels
}

/// Every grid of side `size` that has the hook structure (all layouts, every choice of k
/// cells in hook k), built without the model's geometry: the (k-1)-square is the k-square
/// shifted by 0 or 1 row and 0 or 1 column.
fn hook_structured_grids(size: usize) -> Vec<Vec<u8>> {
    fn layouts(size: usize, top: usize, left: usize, side: usize, hook_of: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if side == 1 {
            hook_of[top * size + left] = 1;
            out.push(hook_of.clone());
            return;
        }
        for (down, right) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            let (inner_top, inner_left) = (top + down, left + right);
            for r in top..top + side {
                for c in left..left + side {
                    let inside = (inner_top..inner_top + side - 1).contains(&r)
                        && (inner_left..inner_left + side - 1).contains(&c);
                    if !inside {
                        hook_of[r * size + c] = side as u8;
                    }
                }
            }
            layouts(size, inner_top, inner_left, side - 1, hook_of, out);
        }
    }
    fn fillings(hooks: &[Vec<usize>], k: usize, grid: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if k == 0 {
            out.push(grid.clone());
            return;
        }
        let cells = &hooks[k];
        for choice in 0u32..(1 << cells.len()) {
            if choice.count_ones() as usize != k {
                continue;
            }
            for (bit, &cell) in cells.iter().enumerate() {
                grid[cell] = if (choice >> bit) & 1 == 1 { k as u8 } else { 0 };
            }
            fillings(hooks, k - 1, grid, out);
        }
    }
    let mut all_layouts = Vec::new();
    layouts(size, 0, 0, size, &mut vec![0; size * size], &mut all_layouts);
    assert_eq!(all_layouts.len(), 1 << (2 * (size - 1)));
    let mut grids = Vec::new();
    for hook_of in &all_layouts {
        let hooks: Vec<Vec<usize>> =
            (0..=size).map(|k| (0..size * size).filter(|&c| hook_of[c] as usize == k).collect()).collect();
        fillings(&hooks, size, &mut vec![0; size * size], &mut grids);
    }
    grids
}

/// The solutions of `hooks` by brute force: the hook-structured grids that pass `verify`.
fn brute_force(hooks: &Hooks, structured: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut solutions: Vec<Vec<u8>> = structured.iter().filter(|grid| hooks.verify(0, grid).is_ok()).cloned().collect();
    solutions.sort();
    solutions
}

/// Small instances: one region, scattered regions with a common sum, givens, and
/// instances with no solution (a sum that does not divide the total, a wrong stated sum).
fn small_instances(size: usize) -> Vec<(String, Hooks)> {
    let mut instances = Vec::new();
    let cells = size * size;
    let total = size * (size + 1) * (2 * size + 1) / 6;
    if size <= 4 {
        instances.push(("one region".to_string(), data_block(size, &vec![0; cells], Value::Null, json!([]))));
    }
    let first_divisor = (2..=cells).find(|r| total.is_multiple_of(*r)).unwrap_or(cells);
    for regions in (2..=cells).filter(|r| total.is_multiple_of(*r)).take(3) {
        // The first layouts have the most solutions and the slowest searches: one seed.
        let seeds = if regions == first_divisor { 1 } else { 3 };
        for seed in 0..seeds {
            let labels = scattered_labels(size, regions, seed);
            instances
                .push((format!("{regions} regions, seed {seed}"), data_block(size, &labels, Value::Null, json!([]))));
        }
    }
    let labels = scattered_labels(size, first_divisor, 0);
    let not_a_divisor = (2..cells).find(|r| !total.is_multiple_of(*r)).unwrap_or(cells);
    instances.push((
        "regions that cannot share a sum".to_string(),
        data_block(size, &scattered_labels(size, not_a_divisor, 1), Value::Null, json!([])),
    ));
    instances
        .push(("wrong stated sum".to_string(), data_block(size, &labels, json!(total / first_divisor + 1), json!([]))));
    instances
        .push(("right stated sum".to_string(), data_block(size, &labels, json!(total / first_divisor), json!([]))));
    instances.push((
        "givens".to_string(),
        data_block(size, &labels, Value::Null, json!([{"r": 0, "c": 1, "v": 0}, {"r": size - 1, "c": 1, "v": size}])),
    ));
    instances
        .into_iter()
        .map(|(name, data)| {
            let hooks = Hooks::parse(&data).unwrap_or_else(|error| panic!("{name}: {error}"));
            (name, hooks)
        })
        .collect()
}

#[test]
fn hooks7_has_the_published_unique_solution_and_answer_2200() {
    let file = hooks7_file();
    let hooks = hooks7();
    let default = Hooks::config(&KnobValues::new()).expect("defaults");
    let (_, solutions) = solve(&hooks, &default);
    let expected = file["expected"]["solutions"][0].as_str().expect("expected solution");
    let texts: Vec<String> = solutions.iter().map(|s| hooks.solution_text(s)).collect();
    assert_eq!(texts, vec![expected.to_string()]);
    assert_eq!(file["expected"]["solution_count"], json!(texts.len()));
    assert_eq!(hooks.verify(0, &solutions[0]), Ok(()));
    assert_eq!(hooks.answer_of_solutions(&[solutions]), file["expected"]["answer"]);
}

#[test]
fn hooks7_prefilter_keeps_138_of_65536_layouts_and_default_search_takes_349_nodes() {
    let hooks = hooks7();
    let (examined, survivors) = hooks.prefilter();
    assert_eq!((examined, survivors.len()), (65_536, 138));
    let defaults = Hooks::config(&KnobValues::new()).expect("defaults");
    let (nodes, solutions) = solve(&hooks, &defaults);
    assert_eq!((nodes, solutions.len()), (349, 1));
    // The joint test keeps 3 of the 138 layouts at the root; each default set back alone.
    let model = hooks.models(&defaults).remove(0);
    let result = search_sequentially::<_, FullCounters>(model, Limits::exhaustive());
    assert_eq!(result.stats.nodes_per_depth[1], 3);
    assert_eq!(solve(&hooks, &HooksConfig { forced: ForcedCells::TryBoth, ..defaults }), (440, solutions.clone()));
    assert_eq!(solve(&hooks, &HooksConfig { rules: Rules::Derived, ..defaults }), (5_306, solutions.clone()));
    let most_constrained = HooksConfig { order: CellChoice::MostConstrained, ..defaults };
    assert_eq!(solve(&hooks, &most_constrained), (877, solutions.clone()));
    // The defaults before `tightest-hook`, `joint` and `single-child`.
    let before = HooksConfig { rules: Rules::Derived, forced: ForcedCells::TryBoth, ..most_constrained };
    assert_eq!(solve(&hooks, &before), (32_527, solutions.clone()));
    // Settled cells without their doomed sibling: same solution, fewer nodes.
    let single = HooksConfig { forced: ForcedCells::SingleChild, ..before };
    assert_eq!(solve(&hooks, &single), (24_991, solutions.clone()));
    // Counts kept up to date or recomputed: the same tree.
    assert_eq!(solve(&hooks, &HooksConfig { counts: Bookkeeping::Recompute, ..defaults }), (349, solutions.clone()));
    let recompute = HooksConfig { counts: Bookkeeping::Recompute, ..before };
    assert_eq!(solve(&hooks, &recompute), (32_527, solutions.clone()));
    assert_eq!(
        solve(&hooks, &HooksConfig { forced: ForcedCells::SingleChild, ..recompute }),
        (24_991, solutions.clone())
    );
    // Cells cut off from the digits count as empty in their hooks: one prune, a few nodes.
    assert_eq!(solve(&hooks, &HooksConfig { stranded: Stranded::HookCount, ..defaults }), (348, solutions.clone()));
    let stranded = HooksConfig { stranded: Stranded::HookCount, ..before };
    assert_eq!(solve(&hooks, &stranded), (32_523, solutions.clone()));
    assert_eq!(solve(&hooks, &HooksConfig { forced: ForcedCells::SingleChild, ..stranded }), (24_988, solutions));
    // Root, one child per surviving layout, then cells: the layouts are the first level.
    let bottom_up =
        HooksConfig { forced: ForcedCells::TryBoth, ..config("two-phase", "bottom-up", "derived", "incremental") };
    let result = search_sequentially::<_, FullCounters>(hooks.models(&bottom_up).remove(0), Limits::exhaustive());
    assert_eq!(result.stats.nodes_per_depth[1], 138);
    assert_eq!(result.stats.nodes, 80_295);
}

#[test]
fn hooks7_every_derived_and_joint_setting_finds_the_same_single_solution() {
    let hooks = hooks7();
    let (_, expected) = solve(&hooks, &config("two-phase", "most-constrained", "derived", "incremental"));
    for placement in ["two-phase", "integrated"] {
        for order in ["row-major", "bottom-up", "most-constrained", "tightest-hook"] {
            for rules in ["derived", "joint"] {
                let (_, solutions) = solve(&hooks, &config(placement, order, rules, "incremental"));
                assert_eq!(solutions, expected, "{placement} {order} {rules}");
            }
        }
    }
    let (_, solutions) = solve(&hooks, &config("integrated", "bottom-up", "derived", "periodic:4"));
    assert_eq!(solutions, expected);
    let single =
        HooksConfig { forced: ForcedCells::SingleChild, ..config("integrated", "bottom-up", "basic", "leaves") };
    assert_eq!(solve(&hooks, &single).1, expected);
}

#[test]
fn four_by_four_instances_match_an_independent_brute_force_under_every_knob_setting() {
    let candidates = hook_structured_grids(4);
    assert_eq!(candidates.len(), 64 * 35 * 10 * 3);
    let instances = small_instances(4);
    // The first instance has one region and no givens: its solutions are the grids that
    // meet the rules common to all instances, so the others need only be checked on those.
    let structured = brute_force(&instances[0].1, &candidates);
    let configs = every_config();
    let mut counts = Vec::new();
    // The one-region instance (6,288 solutions) is the slowest, and the stated-sum one
    // repeats the first two-region layout: they run every placement, rules and
    // connectivity setting under one order, and each order once.
    let mut lighter: Vec<HooksConfig> = configs.iter().filter(|c| c.order == CellChoice::BottomUp).copied().collect();
    for order in ["row-major", "spiral", "most-constrained", "tightest-hook"] {
        lighter.push(config("two-phase", order, "derived", "incremental"));
    }
    lighter.push(config("two-phase", "tightest-hook", "joint", "incremental"));
    for (index, (name, hooks)) in instances.into_iter().enumerate() {
        let expected = brute_force(&hooks, &structured);
        counts.push(expected.len());
        for config in if index == 0 || name == "right stated sum" { &lighter } else { &configs } {
            let (_, solutions) = solve(&hooks, config);
            assert_eq!(solutions, expected, "{name}: {config:?}");
        }
    }
    assert_eq!(counts, vec![6288, 741, 78, 114, 105, 0, 0, 0, 0, 0, 741, 88]);
}

#[test]
fn five_by_five_instances_agree_under_every_knob_setting() {
    let configs = every_config();
    let mut counts = Vec::new();
    let chosen = ["5 regions, seed 0", "11 regions, seed 1", "givens"];
    for (name, hooks) in small_instances(5).into_iter().filter(|(name, _)| chosen.contains(&name.as_str())) {
        let (_, expected) = solve(&hooks, &configs[0]);
        assert!(expected.iter().all(|grid| hooks.verify(0, grid).is_ok()), "{name}");
        counts.push(expected.len());
        for config in &configs[1..] {
            let (_, solutions) = solve(&hooks, config);
            assert_eq!(solutions, expected, "{name}: {config:?}");
        }
    }
    assert_eq!(counts, vec![27, 0, 3]);
}

#[test]
fn subproblems_replayed_from_move_lists_add_up_to_the_whole_search() {
    let hooks = &small_instances(4)[1].1;
    for config in [
        HooksConfig {
            forced: ForcedCells::TryBoth,
            ..config("two-phase", "most-constrained", "derived", "incremental")
        },
        config("two-phase", "tightest-hook", "joint", "incremental"),
        config("integrated", "spiral", "basic", "every-node"),
        HooksConfig { forced: ForcedCells::SingleChild, ..config("two-phase", "bottom-up", "derived", "incremental") },
    ] {
        let mut whole: Engine<_, FullCounters, NoSteering, NoObserver> =
            Engine::new(hooks.models(&config).remove(0), NoSteering, NoObserver, Limits::exhaustive());
        whole.run();
        let mut expected = whole.take_solutions();
        expected.sort();
        for depth in [1, 2, 5] {
            let mut splitter: Engine<_, FullCounters, NoSteering, NoObserver> =
                Engine::new(hooks.models(&config).remove(0), NoSteering, NoObserver, Limits::exhaustive());
            let frontier = splitter.enumerate_frontier(depth);
            let mut found = splitter.take_solutions();
            let mut stats = splitter.stats();
            for subproblem in &frontier {
                let mut worker: Engine<_, FullCounters, NoSteering, NoObserver> =
                    Engine::new(hooks.models(&config).remove(0), NoSteering, NoObserver, Limits::exhaustive());
                worker.run_subproblem(subproblem);
                found.extend(worker.take_solutions());
                stats.merge(&worker.stats());
            }
            found.sort();
            assert_eq!(found, expected, "{config:?} depth {depth}");
            assert_eq!(stats.nodes, whole.stats().nodes, "{config:?} depth {depth}");
        }
    }
}

#[test]
fn the_smallest_boards_solve() {
    let one = Hooks::parse(&data_block(1, &[0], Value::Null, json!([]))).expect("valid");
    for config in every_config() {
        let (_, solutions) = solve(&one, &config);
        assert_eq!(solutions, vec![vec![1]]);
    }
    assert_eq!(one.answer_of_solutions(&[vec![vec![1]]]), json!(1));
    let given_blank =
        Hooks::parse(&data_block(1, &[0], Value::Null, json!([{"r": 0, "c": 0, "v": 0}]))).expect("valid");
    assert!(solve(&given_blank, &config("integrated", "spiral", "derived", "leaves")).1.is_empty());
    // 2x2: hook 2 holds two 2s, so exactly one of its three cells is empty and the 2x2
    // rule is met; 4 corners for the 1 times 3 choices of blank.
    let two = Hooks::parse(&data_block(2, &[0, 0, 0, 0], Value::Null, json!([]))).expect("valid");
    let (_, solutions) = solve(&two, &Hooks::config(&KnobValues::new()).expect("defaults"));
    assert_eq!(solutions.len(), 12);
    let answer = two.answer_of_solutions(&[solutions]);
    assert_eq!(answer["solutions"], 12, "every solution is counted in the answer: {answer}");
    let counted: u64 = answer["counts"]
        .as_array()
        .expect("a histogram")
        .iter()
        .map(|entry| entry["solutions"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(counted, 12);
    assert_eq!(two.solution_text(&vec![0, 10, 11, 2]), "0ab2");
}

#[test]
fn no_solution_gives_a_null_answer() {
    let instances = small_instances(4);
    let hooks = &instances.iter().find(|(name, _)| name == "regions that cannot share a sum").expect("listed").1;
    let (nodes, solutions) = solve(hooks, &Hooks::config(&KnobValues::new()).expect("defaults"));
    assert_eq!((nodes, solutions.len()), (1, 0), "a common sum that cannot exist is seen at the root");
    assert_eq!(hooks.answer_of_solutions(&[solutions]), Value::Null);
}

#[test]
fn verify_names_the_broken_rule() {
    let hooks = hooks7();
    let good: Vec<u8> =
        hooks7_file()["expected"]["solutions"][0].as_str().expect("solution").bytes().map(|b| b - b'0').collect();
    assert_eq!(hooks.verify(0, &good), Ok(()));
    let mut wrong_digit = good.clone();
    wrong_digit[3] = 7;
    assert!(hooks.verify(0, &wrong_digit).unwrap_err().contains("copies"));
    let mut moved = good.clone();
    // Move the 1 (row 5, column 4) to an empty cell: hook 1 is no longer inside hook 2.
    moved[5 * 9 + 4] = 0;
    moved[0] = 1;
    assert!(hooks.verify(0, &moved).is_err());
    assert!(hooks.verify(0, &good[..80].to_vec()).is_err());
}

fn expect_error(data: Value, key: &str, words: &str) {
    match Hooks::parse(&data) {
        Ok(_) => panic!("expected an error on {key}"),
        Err(error) => {
            assert_eq!(error.key, key, "{error}");
            assert!(error.message.contains(words), "{error}");
        }
    }
}

#[test]
fn bad_data_is_a_data_error_naming_the_key() {
    let good = data_block(3, &[0, 0, 0, 0, 0, 0, 0, 0, 0], Value::Null, json!([]));
    assert!(Hooks::parse(&good).is_ok());
    let with = |key: &str, value: Value| {
        let mut data = good.clone();
        data[key] = value;
        data
    };
    expect_error(with("size", json!(12)), "size", "1 to 11");
    expect_error(with("size", json!(0)), "size", "0 is out of range: Hooks supports sides 1 to 11");
    expect_error(with("size", json!("9")), "size", "integer");
    expect_error(with("regions", json!([[0, 1, 2, 3, 4, 5, 6, 7, 9]])), "regions[0][8]", "out of range");
    expect_error(with("regions", json!([[0, 1, 2, 3, 4, 5, 6, 7, 7]])), "regions[0][8]", "already in region 0");
    expect_error(
        with("regions", json!([[0, 1, 2, 3, 4, 5, 6, 7]])),
        "regions",
        "cell 8 (row 2, column 2) is in no region",
    );
    expect_error(with("regions", json!([[0, 1, 2, 3, 4, 5, 6, 7, 8], []])), "regions[1]", "at least one cell");
    expect_error(with("region_map", json!([[0, 0, 0], [0, 0, 0]])), "region_map", "3 rows");
    let two_regions = data_block(3, &[0, 0, 0, 0, 0, 0, 1, 1, 1], Value::Null, json!([]));
    let mut wrong_map = two_regions.clone();
    wrong_map["region_map"][2][0] = json!(0);
    expect_error(wrong_map, "region_map[2][0]", "region 1");
    expect_error(with("region_sum", json!(-1)), "region_sum", "out of range");
    expect_error(with("givens", json!([{"r": 3, "c": 0, "v": 1}])), "givens[0].r", "out of range");
    expect_error(with("givens", json!([{"r": 0, "c": 0, "v": 4}])), "givens[0].v", "out of range");
    expect_error(with("givens", json!([{"r": 0, "c": 0}])), "givens[0].v", "missing");
    expect_error(
        with("givens", json!([{"r": 0, "c": 0, "v": 1}, {"r": 0, "c": 0, "v": 1}])),
        "givens[1]",
        "already given",
    );
    expect_error(with("answer_type", json!("sum")), "answer_type", "product_of_empty_region_areas");
    let mut missing = good.clone();
    missing.as_object_mut().map(|object| object.remove("region_sum"));
    expect_error(missing, "region_sum", "missing");
}

fn enumeration_file() -> Value {
    serde_json::from_str(include_str!("../../../instances/hooks_enumeration.json")).expect("instance file is JSON")
}

#[test]
fn enumeration_instance_keeps_1029_of_4096_layouts() {
    let hooks = Hooks::parse(&enumeration_file()["data"]).expect("valid data");
    assert_eq!(hooks.common_sum(), Some(28));
    let (examined, survivors) = hooks.prefilter();
    assert_eq!((examined, survivors.len()), (4096, 1029));
}

/// Seconds in release mode, minutes in debug: `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn enumeration_instance_has_its_expected_solution_count() {
    let file = enumeration_file();
    let hooks = Hooks::parse(&file["data"]).expect("valid data");
    let defaults = Hooks::config(&KnobValues::new()).expect("defaults");
    let model = hooks.models(&defaults).remove(0);
    let result = search_sequentially::<_, crate::search::NoCounters>(model, Limits::exhaustive());
    assert_eq!(json!(result.stats.solutions), file["expected"]["solution_count"]);
    assert_eq!(result.stats.nodes, 3_457_816);
    assert!(result.solutions.iter().all(|grid| hooks.verify(0, grid).is_ok()));
    // The defaults before `tightest-hook`, `joint` and `single-child`: the same solutions.
    let before = HooksConfig {
        order: CellChoice::MostConstrained,
        rules: Rules::Derived,
        forced: ForcedCells::TryBoth,
        ..defaults
    };
    let earlier =
        search_sequentially::<_, crate::search::NoCounters>(hooks.models(&before).remove(0), Limits::exhaustive());
    assert_eq!(earlier.stats.nodes, 21_934_296);
    let (mut now, mut then) = (result.solutions, earlier.solutions);
    now.sort();
    then.sort();
    assert_eq!(now, then);
}
