//! Tests of maximum clique: the clique number against an exhaustive search written here
//! (independent of the model), every knob setting, parallel runs, the replayed trees, the
//! DIMACS reader's errors, and the instance files' recorded clique numbers.

use super::*;
use crate::knobs::every_combination;
use crate::parallel::{self, ParallelPlan, Pool};
use crate::search::{search_sequentially, Engine, FullCounters, Incumbent, Limits, Model, NoObserver, NoSteering};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The `data` block of G(n, p) drawn with `seed`, plus a clique on `planted` (1-based).
fn random_data(n: usize, p: f64, seed: u64, planted: &[u32]) -> Value {
    let mut random = ChaCha8Rng::seed_from_u64(seed);
    let mut edges = Vec::new();
    for u in 1..=n as u32 {
        for v in u + 1..=n as u32 {
            if random.gen_bool(p) || (planted.contains(&u) && planted.contains(&v)) {
                edges.push(json!([u, v]));
            }
        }
    }
    json!({ "vertices": n, "edges": edges })
}

fn graph(data: &Value) -> MaxClique {
    MaxClique::parse(data).unwrap_or_else(|error| panic!("{error}"))
}

fn config(order: &str, bound: &str) -> CliqueConfig {
    let knobs: KnobValues = [("order".to_string(), order.to_string()), ("bound".to_string(), bound.to_string())].into();
    MaxClique::config(&knobs).expect("valid knobs")
}

/// Every maximum clique (1-based, ascending, in ascending order), by plain recursion over
/// every clique: each clique is extended only by larger vertices adjacent to all of it.
fn brute_force_maximum_cliques(graph: &MaxClique) -> Vec<Vec<u32>> {
    fn extend(graph: &MaxClique, clique: &mut Vec<u32>, from: u32, best: &mut Vec<Vec<u32>>) {
        let best_size = best.first().map_or(0, Vec::len);
        if clique.len() > best_size {
            best.clear();
        }
        if clique.len() >= best_size {
            best.push(clique.iter().map(|&vertex| vertex + 1).collect());
        }
        for vertex in from..graph.vertex_count() as u32 {
            if clique.iter().all(|&member| graph.adjacent(member, vertex)) {
                clique.push(vertex);
                extend(graph, clique, vertex + 1, best);
                clique.pop();
            }
        }
    }
    let mut best = Vec::new();
    extend(graph, &mut Vec::new(), 0, &mut best);
    best.sort();
    best
}

/// The clique number found by a sequential search, after checking the clique it keeps.
fn clique_number(graph: &MaxClique, config: &CliqueConfig) -> i64 {
    let model = graph.models(config).remove(0);
    let result = search_sequentially::<_, FullCounters>(model.clone(), Limits::exhaustive());
    assert_eq!(result.stop, None);
    let best = result.solutions.first().expect("every graph has a clique");
    graph.verify(0, best).unwrap_or_else(|error| panic!("{error}"));
    model.solution_value(best)
}

/// Thirty graphs of 1 to 24 vertices, densities 0.1 to 0.9.
fn small_graphs() -> Vec<MaxClique> {
    let mut random = ChaCha8Rng::seed_from_u64(43);
    (0..30)
        .map(|index| {
            let n = random.gen_range(1..=24);
            let p = [0.1, 0.3, 0.5, 0.7, 0.9][index % 5];
            graph(&random_data(n, p, index as u64, &[]))
        })
        .collect()
}

#[test]
fn the_clique_number_is_the_brute_force_one_under_every_knob_setting() {
    for (index, graph) in small_graphs().iter().enumerate() {
        let expected = brute_force_maximum_cliques(graph)[0].len() as i64;
        for knobs in every_combination(MaxClique::KNOBS, &[3]) {
            let config = MaxClique::config(&knobs).expect("valid knobs");
            assert_eq!(
                MaxClique::describe(&config),
                vec![("order", knobs["order"].clone()), ("bound", knobs["bound"].clone())]
            );
            assert_eq!(clique_number(graph, &config), expected, "graph {index}, {config:?}");
        }
    }
}

#[test]
fn listing_every_optimum_reaches_each_maximum_clique_exactly_once() {
    let limits = Limits { all_optima: true, ..Limits::exhaustive() };
    for (index, graph) in small_graphs().iter().enumerate() {
        let expected = brute_force_maximum_cliques(graph);
        for (order, bound) in [("degree", "colour"), ("index", "colour"), ("degree", "size")] {
            let model = graph.models(&config(order, bound)).remove(0);
            let result = search_sequentially::<_, FullCounters>(model, limits.clone());
            let (_, kept) =
                crate::search::keep_best(&graph.models(&config(order, bound))[0], result.solutions, usize::MAX);
            assert_eq!(kept, expected, "graph {index}, order {order}, bound {bound}");
        }
    }
}

fn strategies() -> Vec<ParallelPlan> {
    ["steal", "auto", "depth:2"]
        .iter()
        .map(|text| ParallelPlan { strategy: text.parse().expect("a strategy"), ..ParallelPlan::default() })
        .collect()
}

#[test]
fn parallel_strategies_find_the_clique_number_at_every_thread_count() {
    let graphs = [graph(&random_data(40, 0.5, 40, &[])), graph(&random_data(60, 0.7, 60, &[]))];
    let expected: Vec<i64> = graphs.iter().map(|graph| clique_number(graph, &config("degree", "colour"))).collect();
    for threads in 1..=3 {
        let pool = Pool::new(threads).expect("a small pool");
        for plan in strategies() {
            for (graph, &omega) in graphs.iter().zip(&expected) {
                let model = graph.models(&config("degree", "colour")).remove(0);
                let outcome = parallel::search::<_, FullCounters>(model.clone(), &plan, &pool, Limits::exhaustive())
                    .expect("no panic");
                let (value, kept) = crate::search::keep_best(&model, outcome.solutions, 1);
                assert_eq!(value, Some(omega), "{} on {threads} threads", plan.strategy);
                graph.verify(0, &kept[0]).unwrap_or_else(|error| panic!("{error}"));
            }
        }
    }
}

/// With the incumbent fixed at the clique number from the start, the tree does not depend
/// on when solutions are found: a replayed subproblem must then search the sequential
/// tree's nodes, and each maximum clique must be reached once over all workers.
#[test]
fn replayed_subproblems_search_the_sequential_tree() {
    for (index, graph) in small_graphs().iter().enumerate().filter(|(index, _)| index % 3 == 0) {
        let expected = brute_force_maximum_cliques(graph);
        let omega = expected[0].len() as i64;
        let limits = || Limits { all_optima: true, incumbent: Some(Incumbent::seeded(omega)), ..Limits::exhaustive() };
        for bound in ["colour", "size"] {
            let model = graph.models(&config("degree", bound)).remove(0);
            let sequential = search_sequentially::<_, FullCounters>(model.clone(), limits());
            assert_eq!(sequential.solutions, expected, "graph {index}, bound {bound}");
            for threads in [2, 3] {
                let pool = Pool::new(threads).expect("a small pool");
                for plan in strategies() {
                    let outcome =
                        parallel::search::<_, FullCounters>(model.clone(), &plan, &pool, limits()).expect("no panic");
                    let context = format!("graph {index}, bound {bound}, {} on {threads} threads", plan.strategy);
                    // The same tree, except that a sibling the sequential search cut unentered
                    // (its bound no better than a cut sibling's before it) may sit in another
                    // subproblem, where it is entered and cut on its own: every extra node is
                    // such a cut, and nothing else differs.
                    let extra_nodes = outcome.stats.nodes - sequential.stats.nodes;
                    let extra_cuts = outcome.stats.rule_prunes[0] - sequential.stats.rule_prunes[0];
                    assert_eq!(extra_nodes, extra_cuts, "{context}");
                    assert_eq!(outcome.stats.solutions, sequential.stats.solutions, "{context}");
                    assert_eq!(outcome.solutions, expected, "{context}");
                }
            }
        }
    }
}

#[test]
fn a_graph_of_300_vertices_finds_its_planted_clique() {
    let planted: Vec<u32> = (0..12).map(|index| 7 + 23 * index).collect();
    let graph = graph(&random_data(300, 0.1, 300, &planted));
    assert_eq!(graph.vertex_count(), 300);
    for bound in ["colour", "size"] {
        let model = graph.models(&config("degree", bound)).remove(0);
        let result = search_sequentially::<_, FullCounters>(model, Limits::exhaustive());
        assert_eq!(result.solutions, vec![planted.clone()], "bound {bound}");
    }
}

#[test]
fn a_second_search_of_the_same_state_finds_the_same_clique() {
    let graph = graph(&random_data(30, 0.6, 5, &[]));
    let model = graph.models(&config("degree", "colour")).remove(0);
    let first = search_sequentially::<_, FullCounters>(model.clone(), Limits::exhaustive());
    // One search leaves the root's row cut (the last child's position); `branch` puts it
    // back when the same state is searched again.
    let mut engine: Engine<_, FullCounters, NoSteering, NoObserver> =
        Engine::new(model, NoSteering, NoObserver, Limits::exhaustive());
    engine.run();
    let searched = engine.model().clone();
    let second = search_sequentially::<_, FullCounters>(searched, Limits::exhaustive());
    assert_eq!(first.solutions, second.solutions);
    assert_eq!(first.stats.nodes, second.stats.nodes);
}

#[test]
fn verify_names_the_pair_that_is_not_adjacent() {
    let graph = graph(&json!({ "vertices": 4, "edges": [[1, 2], [2, 3], [1, 3], [3, 4]] }));
    assert_eq!(graph.verify(0, &vec![1, 2, 3]), Ok(()));
    assert_eq!(graph.verify(0, &vec![2, 3, 4]), Err("vertices 2 and 4 are not adjacent".to_string()));
    assert!(graph.verify(0, &vec![3, 2]).is_err());
    assert!(graph.verify(0, &vec![0, 1]).is_err());
    assert_eq!(graph.solution_text(&vec![1, 2, 3]), "1 2 3");
}

#[test]
fn the_json_data_names_the_bad_key() {
    let error = |data: Value| MaxClique::parse(&data).unwrap_err().to_string();
    assert_eq!(error(json!({ "vertices": 0, "edges": [] })), "data.vertices: 0 is out of range; expected 1 to 32768");
    assert_eq!(
        error(json!({ "vertices": 3, "edges": [[1, 2], [2, 4]] })),
        "data.edges[1][1]: vertex 4 is out of range; expected 1 to 3"
    );
    // Past 64 bits signed, still a vertex number out of range, not "a number".
    assert_eq!(
        error(json!({ "vertices": 3, "edges": [[1, u64::MAX]] })),
        "data.edges[0][1]: vertex 18446744073709551615 is out of range; expected 1 to 3"
    );
    // Past 64 bits (the reader holds it as a floating point number), and with a fraction.
    assert_eq!(
        error(serde_json::from_str(r#"{ "vertices": 3, "edges": [[1, 99999999999999999999]] }"#).unwrap()),
        "data.edges[0][1]: vertex 1e+20 is out of range; expected 1 to 3"
    );
    assert_eq!(
        error(json!({ "vertices": 3, "edges": [[1, 2.5]] })),
        "data.edges[0][1]: expected a whole vertex number from 1 to 3, found 2.5"
    );
    assert_eq!(
        error(json!({ "vertices": u64::MAX, "edges": [] })),
        "data.vertices: 18446744073709551615 is out of range; expected 1 to 32768"
    );
    assert_eq!(
        error(json!({ "vertices": 3, "edges": [[1, 2, 3]] })),
        "data.edges[0]: expected a pair [u, v] of vertices, found 3 entries"
    );
    assert!(error(json!({ "vertices": 3 })).starts_with("data.edges: missing key"));
}

#[test]
fn dimacs_files_read_into_the_data_block_and_errors_name_the_line() {
    let text = "c a triangle and a pendant\np edge 4 5\ne 1 2\ne 2 3\ne 3 1\ne 3 4\ne 4 4\ne 2 1\n";
    let data = MaxClique::data_from_file(text).expect("a valid file");
    // The self loop and the edge listed again the other way round are dropped as read.
    assert_eq!(data, json!({ "vertices": 4, "edges": [[1, 2], [2, 3], [3, 1], [3, 4]] }));
    assert_eq!(graph(&data).edge_count(), 4);
    assert!(MaxClique::data_from_file("p col 3 0\n").is_ok());
    // A `p` line's edge count is not trusted for what is reserved: the text bounds it.
    let claimed = MaxClique::data_from_file("p edge 2 18446744073709551615\ne 1 2\n").expect("a valid file");
    assert_eq!(claimed, json!({ "vertices": 2, "edges": [[1, 2]] }));
    let error = |text: &str| MaxClique::data_from_file(text).unwrap_err();
    assert_eq!(error("c nothing\n").line, 0);
    assert_eq!(error("c\ne 1 2\np edge 2 1\n").to_string(), "line 2: an edge before the `p edge N M` line");
    assert_eq!(
        error("p edge 3 1\n\ne 1 4\n").to_string(),
        "line 3: vertex 4 is out of range; expected 1 to 3 (the `p` line's count)"
    );
    assert_eq!(error("p edge 3 1\ne 1 x\n").to_string(), "line 2: `x` is not a vertex number");
    assert_eq!(error("p edge 3 1\ne 1\n").line, 2);
    assert_eq!(error("p edge three 1\n").to_string(), "line 1: `three` is not a vertex count");
    assert_eq!(error("p sat 3 1\n").line, 1);
    assert_eq!(error("p edge 3 1\np edge 3 1\n").line, 2);
    assert_eq!(error("p edge 3 1\nx 1 2\n").line, 2);
    assert_eq!(error("p edge 0 0\n").line, 1);
    assert!(error("p edge 2 1\re 1 2\r").to_string().contains("carriage return alone"));
    assert!(MaxClique::data_from_file("p edge 2 1\r\ne 1 2\r\n").is_ok());
}

/// The clique number a `.clq` file records in its comments (`c clique number: K`).
fn recorded_clique_number(text: &str) -> i64 {
    text.lines()
        .find_map(|line| line.strip_prefix("c clique number: "))
        .and_then(|number| number.trim().parse().ok())
        .expect("the file records its clique number")
}

#[test]
fn instance_files_have_their_recorded_clique_numbers() {
    let files = [
        include_str!("../../../instances/max_clique/cycle_5.clq"),
        include_str!("../../../instances/max_clique/petersen.clq"),
        include_str!("../../../instances/max_clique/gnp_40_0.5_1.clq"),
        include_str!("../../../instances/max_clique/gnp_60_0.7_1.clq"),
    ];
    for text in files {
        let graph = graph(&MaxClique::data_from_file(text).expect("a valid file"));
        let expected = recorded_clique_number(text);
        if graph.vertex_count() <= 40 {
            assert_eq!(brute_force_maximum_cliques(&graph)[0].len() as i64, expected);
        }
        assert_eq!(clique_number(&graph, &config("degree", "colour")), expected);
        assert_eq!(clique_number(&graph, &config("index", "size")), expected);
    }
    let file: Value = serde_json::from_str(include_str!("../../../instances/max_clique/paley_17.json")).expect("JSON");
    let paley = graph(&file["data"]);
    let omega = clique_number(&paley, &config("degree", "colour"));
    assert_eq!(json!(omega), file["expected"]["optimum"]);
    let answer = paley.answer_of_solutions(&[vec![vec![0; omega as usize]]]);
    assert_eq!(answer, file["expected"]["answer"]);
}

/// The benchmark graphs' clique numbers, found by `gnp.py --clique-number` (Python's own
/// MCQ), under both bounds in parallel. Seconds in the test profile: `cargo test --release
/// -- --ignored`.
#[test]
#[ignore]
fn benchmark_graphs_have_their_recorded_clique_numbers() {
    let files = [
        include_str!("../../../instances/max_clique/gnp_150_0.9_1.clq"),
        include_str!("../../../instances/max_clique/gnp_200_0.75_1.clq"),
    ];
    let pool = Pool::new(2).expect("a small pool");
    for text in files {
        let graph = graph(&MaxClique::data_from_file(text).expect("a valid file"));
        let expected = recorded_clique_number(text);
        assert_eq!(clique_number(&graph, &config("degree", "colour")), expected);
        for plan in strategies() {
            let model = graph.models(&config("index", "colour")).remove(0);
            let outcome = parallel::search::<_, FullCounters>(model.clone(), &plan, &pool, Limits::exhaustive())
                .expect("no panic");
            assert_eq!(crate::search::keep_best(&model, outcome.solutions, 1).0, Some(expected), "{}", plan.strategy);
        }
    }
}
