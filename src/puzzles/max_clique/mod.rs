//! Maximum clique: the largest set of pairwise adjacent vertices of a graph. The second
//! family that optimises (after the knapsack): the engine's branch and bound keeps the
//! largest clique found and cuts every child whose bound cannot beat it.
//!
//! The search is MCQ / MCS (Tomita) on bitsets, as San Segundo's BBMC: a node is a clique
//! `C` and its candidate set `P` (the vertices adjacent to all of `C`); it colours `P`
//! greedily and tries the vertices from the last colour class to the first, each move
//! carrying its bound `|C| + colour`. A node with no candidate is a solution (its clique,
//! valued by its size). See `model.rs` for how a move makes its child's `P` so that a
//! replayed subproblem is the same tree as in the sequential search.
//!
//! Knobs: `order` (`degree`: MCQ's non-increasing degree, default; `index`: file order)
//! and `bound` (`colour`, default; `size`: `|C| + |P|`, Carraghan-Pardalos).
//!
//! Instances: `{"vertices": N, "edges": [[u, v], ...]}` with 1-based vertices, or a DIMACS
//! `.clq` file read directly ([`Puzzle::data_from_file`]); `instances/max_clique/` holds
//! small graphs and `scripts/graphs/gnp.py` makes random ones. A solution lists its
//! vertices, 1-based and ascending, as the file numbers them.

mod config;
mod dimacs;
mod model;
mod parse;
#[cfg(test)]
mod tests;
mod verify;

pub use config::{BoundKind, CliqueConfig, VertexOrder};
pub use model::{CliqueModel, Pick};
pub use parse::MAX_VERTICES;

use super::answer_tally::AnswerTally;
use super::{DataError, FileFormatError, Puzzle};
use crate::knobs::{Knob, KnobError, KnobReader, KnobSpec, KnobValues};
use serde_json::{json, Value};
use std::cmp::Reverse;

/// A graph: its vertices `0..n` (1-based in files and solutions) and their neighbours.
#[derive(Debug, Clone)]
pub struct MaxClique {
    /// `neighbours[v]`: the neighbours of vertex `v` (0-based), ascending, without `v`
    /// itself or repeats.
    neighbours: Vec<Vec<u32>>,
}

impl MaxClique {
    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.neighbours.len()
    }

    /// The number of edges (each counted once).
    pub fn edge_count(&self) -> usize {
        self.neighbours.iter().map(Vec::len).sum::<usize>() / 2
    }

    /// Whether the 0-based vertices `u` and `v` are adjacent.
    pub fn adjacent(&self, u: u32, v: u32) -> bool {
        self.neighbours[u as usize].binary_search(&v).is_ok()
    }
}

impl Puzzle for MaxClique {
    const FAMILY: &'static str = "max_clique";
    const KNOBS: &'static [KnobSpec] = &[
        KnobSpec {
            name: "order",
            values: VertexOrder::VALUES,
            default: "degree",
            help: "the vertex order the candidates are coloured in: degree, non-increasing (MCQ); index, as the file numbers them",
        },
        KnobSpec {
            name: "bound",
            values: BoundKind::VALUES,
            default: "colour",
            help: "what bounds a child: colour, the clique plus the vertex's colour in a greedy colouring of the candidates (MCQ); size, the clique plus the candidates left",
        },
    ];
    const FILE_EXTENSIONS: &'static [&'static str] = &["clq"];
    type Config = CliqueConfig;
    type Model = CliqueModel;
    /// The clique's size, reversed so that a tally's smallest keys are the best.
    type AnswerKey = Reverse<i64>;

    fn parse(data: &Value) -> Result<Self, DataError> {
        parse::parse(data)
    }

    fn config(knobs: &KnobValues) -> Result<CliqueConfig, KnobError> {
        let reader = KnobReader::new(Self::FAMILY, Self::KNOBS, knobs)?;
        Ok(CliqueConfig { order: reader.knob("order")?, bound: reader.knob("bound")? })
    }

    fn describe(config: &CliqueConfig) -> Vec<(&'static str, String)> {
        vec![("order", config.order.name()), ("bound", config.bound.name())]
    }

    fn component_names(&self) -> Vec<String> {
        vec!["graph".to_string()]
    }

    fn models(&self, config: &CliqueConfig) -> Vec<CliqueModel> {
        vec![CliqueModel::new(self, config)]
    }

    /// The clique's vertices, 1-based as in the file, ascending, space separated.
    fn solution_text(&self, solution: &Vec<u32>) -> String {
        solution.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
    }

    fn render(&self, solution: &Vec<u32>) -> String {
        let noun = if solution.len() == 1 { "vertex" } else { "vertices" };
        format!("clique of {} {noun}: {}", solution.len(), self.solution_text(solution))
    }

    fn verify(&self, _component: usize, solution: &Vec<u32>) -> Result<(), String> {
        verify::check(self, solution)
    }

    fn answer_key(&self, _component: usize, solution: &Vec<u32>) -> Reverse<i64> {
        Reverse(solution.len() as i64)
    }

    /// `{"size": ω}`: the largest clique among those reached. A branch-and-bound search
    /// reaches a maximum one (it cuts only children that cannot beat what it holds), and
    /// the tally lists the best values first, so this is the clique number.
    fn answer(&self, tallies: &[AnswerTally<Reverse<i64>, Vec<u32>>]) -> Value {
        let best = tallies.first().and_then(|tally| tally.counts().next().map(|(Reverse(size), _)| *size));
        best.map_or(Value::Null, |size| json!({ "size": size }))
    }

    fn data_from_file(text: &str) -> Result<Value, FileFormatError> {
        dimacs::data_from_dimacs(text)
    }
}
