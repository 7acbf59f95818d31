//! Reading the `data` block of a maximum clique instance: `{"vertices": N, "edges":
//! [[u, v], ...]}`, vertices numbered from 1 as in DIMACS files.

use super::MaxClique;
use crate::puzzles::data::{array_of, kind, Fields};
use crate::puzzles::DataError;
use serde_json::Value;

/// The most vertices a graph may have. The model keeps the adjacency as one bitset per
/// vertex, `n * n` bits in all: 128 MiB at this size (the DIMACS benchmarks have at most
/// a few thousand vertices).
pub const MAX_VERTICES: usize = 1 << 15;

/// Reads the `data` block of a maximum clique instance. Self loops and repeated edges
/// are ignored (a DIMACS file may list an edge both ways).
pub(super) fn parse(data: &Value) -> Result<MaxClique, DataError> {
    let fields = Fields::of(data, "")?;
    let vertices = fields.integer("vertices", 1..=MAX_VERTICES as i64)? as usize;
    let edges = fields.array("edges")?;
    let mut neighbours: Vec<Vec<u32>> = vec![Vec::new(); vertices];
    for (index, edge) in edges.iter().enumerate() {
        let (u, v) = endpoints(edge, vertices).ok_or_else(|| edge_error(edge, index, vertices))?;
        if u != v {
            neighbours[u].push(v as u32);
            neighbours[v].push(u as u32);
        }
    }
    for list in &mut neighbours {
        list.sort_unstable();
        list.dedup();
    }
    Ok(MaxClique { neighbours })
}

/// The 0-based endpoints of `edge`, when it is a pair of vertices in `1..=vertices`. The
/// error is built only on failure: formatting a key path per edge would cost more than
/// the rest of the reading.
fn endpoints(edge: &Value, vertices: usize) -> Option<(usize, usize)> {
    let pair = edge.as_array().filter(|pair| pair.len() == 2)?;
    let vertex = |value: &Value| value.as_u64().filter(|&number| (1..=vertices as u64).contains(&number));
    Some((vertex(&pair[0])? as usize - 1, vertex(&pair[1])? as usize - 1))
}

/// Why `edge`, entry `index` of `edges`, is not a pair of vertices in `1..=vertices`.
fn edge_error(edge: &Value, index: usize, vertices: usize) -> DataError {
    let path = format!("edges[{index}]");
    let Ok(pair) = array_of(edge, &path) else {
        return DataError::new(path, format!("expected a pair [u, v] of vertices, found {}", kind(edge)));
    };
    if pair.len() != 2 {
        return DataError::new(path, format!("expected a pair [u, v] of vertices, found {} entries", pair.len()));
    }
    let (side, value) = if pair[0].as_u64().is_some_and(|u| (1..=vertices as u64).contains(&u)) {
        (1, &pair[1])
    } else {
        (0, &pair[0])
    };
    // Past 64 bits a vertex number is still a number out of range, not another type: the
    // reader holds it as a floating point number, whole and larger than any integer.
    let past_64_bits = value.as_f64().is_some_and(|number| number.fract() == 0.0 && number.abs() >= i64::MAX as f64);
    let message = if value.is_i64() || value.is_u64() || past_64_bits {
        format!("vertex {value} is out of range; expected 1 to {vertices}")
    } else if value.is_f64() {
        format!("expected a whole vertex number from 1 to {vertices}, found {value}")
    } else {
        format!("expected a vertex number, found {}", kind(value))
    };
    DataError::new(format!("{path}[{side}]"), message)
}
