//! The independent checker: a solution against the definition of a clique, read from the
//! instance's adjacency lists (not from the model's bitsets or colouring).

use super::MaxClique;

/// Checks that `solution` lists vertices of the graph (1-based), ascending without
/// repeats, every two of them adjacent; the error names the first pair that is not.
pub(super) fn check(graph: &MaxClique, solution: &[u32]) -> Result<(), String> {
    let vertices = graph.vertex_count();
    if let Some(&outside) = solution.iter().find(|&&vertex| vertex == 0 || vertex as usize > vertices) {
        return Err(format!("vertex {outside} is not a vertex of the graph (1 to {vertices})"));
    }
    if let Some(pair) = solution.windows(2).find(|pair| pair[0] >= pair[1]) {
        return Err(format!("vertices {} and {} are not strictly ascending", pair[0], pair[1]));
    }
    for (index, &u) in solution.iter().enumerate() {
        for &v in &solution[index + 1..] {
            if !graph.adjacent(u - 1, v - 1) {
                return Err(format!("vertices {u} and {v} are not adjacent"));
            }
        }
    }
    Ok(())
}
