//! Reading a DIMACS graph file (`.clq`, as the Second DIMACS Challenge's clique
//! benchmarks are written) into the family's `data` block.
//!
//! The format: `c` lines are comments, one `p edge N M` line (`p col` and `p clq` are
//! accepted too) gives the vertex count `N` (the edge count `M` is read but not checked:
//! files in the wild often count an edge listed both ways twice), and each `e u v` line an
//! edge between vertices numbered from 1. Self loops and repeated edges (either way
//! round) are dropped here; `parse` drops repeats of a JSON instance.

use super::parse::MAX_VERTICES;
use crate::puzzles::FileFormatError;
use serde_json::{Map, Value};

/// The fewest bytes an edge line takes (`e 1 2` and its line end): the most edges a text
/// can hold is its length over this, which bounds what is reserved for a `p` line's count.
const SHORTEST_EDGE_LINE: usize = 6;

/// The `data` block (`{"vertices": N, "edges": [[u, v], ...]}`, 1-based) of the DIMACS
/// graph in `text`; an error names the 1-based line at fault.
pub(super) fn data_from_dimacs(text: &str) -> Result<Value, FileFormatError> {
    // Lines ended by CR alone (classic Mac OS text) read as one line, refused for its
    // first words with no word of why.
    if !text.contains('\n') && text.contains('\r') {
        return Err(FileFormatError::new(
            1,
            "its lines end with a carriage return alone (CR); a DIMACS file's lines end with LF (or CR LF)",
        ));
    }
    let mut vertices: Option<u64> = None;
    let mut edges: Vec<Value> = Vec::new();
    let mut seen: std::collections::HashSet<(u64, u64)> = std::collections::HashSet::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let mut words = line.split_whitespace();
        match words.next() {
            None | Some("c") => {}
            Some("p") => {
                if vertices.is_some() {
                    return Err(FileFormatError::new(number, "a second `p` line; a file describes one graph"));
                }
                let (count, declared_edges) = problem_line(words.collect(), number)?;
                vertices = Some(count);
                // Reserved once: grown by doubling, the list of a file of millions of edges
                // held twice its size for a while. A `p` line may count an edge listed both
                // ways twice, or lie: the text's length bounds what is reserved.
                let most = text.len() / SHORTEST_EDGE_LINE;
                edges.reserve(usize::try_from(declared_edges).unwrap_or(usize::MAX).min(most));
            }
            Some("e") => {
                let Some(count) = vertices else {
                    return Err(FileFormatError::new(number, "an edge before the `p edge N M` line"));
                };
                let fields: Vec<&str> = words.collect();
                let [u, v] = fields[..] else {
                    return Err(FileFormatError::new(number, "expected `e u v`: two vertex numbers"));
                };
                let (u, v) = (vertex(u, count, number)?, vertex(v, count, number)?);
                // An edge listed again (either way round) is dropped here, not by `parse`:
                // as a JSON pair each copy took about 100 bytes (a 15 MB file of one edge
                // repeated peaked at 615 MB), against 16 in the set of those seen.
                if u != v && seen.insert((u.min(v), u.max(v))) {
                    edges.push(Value::Array(vec![Value::from(u), Value::from(v)]));
                }
            }
            Some(other) if other.starts_with('c') => {}
            Some(other) => {
                return Err(FileFormatError::new(
                    number,
                    format!("a line starting `{other}`; expected `c` (comment), `p edge N M` or `e u v`"),
                ));
            }
        }
    }
    let Some(vertices) = vertices else {
        return Err(FileFormatError::new(0, "no `p edge N M` line: the vertex count is missing"));
    };
    // Built in place: `json!` would serialise the edge list into a copy of itself, a
    // second 100 bytes or so an edge at the moment the file's memory peaks.
    let mut data = Map::new();
    data.insert("vertices".to_owned(), Value::from(vertices));
    data.insert("edges".to_owned(), Value::Array(edges));
    Ok(Value::Object(data))
}

/// The vertex and edge counts of a `p` line's words after the `p`.
fn problem_line(words: Vec<&str>, line: usize) -> Result<(u64, u64), FileFormatError> {
    let [format, vertices, edges] = words[..] else {
        return Err(FileFormatError::new(line, "expected `p edge N M`: the format, the vertex and the edge counts"));
    };
    if !matches!(format, "edge" | "col" | "clq") {
        return Err(FileFormatError::new(line, format!("format `{format}` is not a graph; expected `p edge N M`")));
    }
    let vertices = count(vertices, line, "a vertex count")?;
    let edges = count(edges, line, "an edge count")?;
    if !(1..=MAX_VERTICES as u64).contains(&vertices) {
        return Err(FileFormatError::new(
            line,
            format!("{vertices} vertices; expected 1 to {MAX_VERTICES} (the adjacency is one bitset per vertex)"),
        ));
    }
    Ok((vertices, edges))
}

/// `word` as a count (`what`: "a vertex count" or "an edge count").
fn count(word: &str, line: usize, what: &str) -> Result<u64, FileFormatError> {
    word.parse().map_err(|_| FileFormatError::new(line, format!("`{word}` is not {what}")))
}

/// `word` as a vertex number in `1..=vertices`.
fn vertex(word: &str, vertices: u64, line: usize) -> Result<u64, FileFormatError> {
    let number: u64 =
        word.parse().map_err(|_| FileFormatError::new(line, format!("`{word}` is not a vertex number")))?;
    if !(1..=vertices).contains(&number) {
        return Err(FileFormatError::new(
            line,
            format!("vertex {number} is out of range; expected 1 to {vertices} (the `p` line's count)"),
        ));
    }
    Ok(number)
}
