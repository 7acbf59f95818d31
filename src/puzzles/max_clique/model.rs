//! The search state of maximum clique and its [`Model`] implementation: MCQ's colour
//! bound on bitsets (BBMC), one candidate set per depth, preallocated.
//!
//! A node at depth `d` holds a clique `C` of `d` vertices and its candidates `P` (every
//! vertex adjacent to all of `C`, less those already tried at an ancestor). `branch`
//! colours `P` greedily in vertex order and lists it by colour class (the node's *order*);
//! the moves come from the end of that order (highest colour first), the move at position
//! `i` carrying the bound `d + colour`. Trying vertex `v` at position `i` makes the child's
//! candidates `P_i ∩ N(v)`, where `P_i` is `P` without the positions after `i`: the
//! siblings tried before it, whose cliques were all searched (MCQ removes each vertex
//! from `P` once its child is done; otherwise every clique would be found once per order
//! of its vertices).
//!
//! Why the position rather than removal at `undo`: the engine may reach a parent by replay
//! (`apply` alone, for a parallel subproblem or a frontier), where no earlier sibling was
//! undone there, and a worker reuses its state for the next subproblem, so `undo` must
//! be an exact inverse. With the position in the move, `apply` makes the same child from
//! the same parent whatever came before: a replayed subproblem is the same tree as in the
//! sequential search, node for node, and every maximum clique is reached exactly once
//! over all workers. The removal is incremental: row `d` holds `P` less `order[cut..]`,
//! and `apply` moves `cut` to `i + 1` (one bit per sibling in the sequential order, since
//! the siblings come in falling positions). A parent reached by replay has no order yet
//! (`ordered[d]` is false): `apply` colours it then, exactly as `branch` would have.

use super::config::{BoundKind, CliqueConfig, VertexOrder};
use super::MaxClique;
use crate::search::{Model, MoveCursor, Objective, Opened, RuleCounter, RuleId, Sense};
use std::cmp::Reverse;
use std::sync::Arc;

const RULE_BOUND: RuleId = 0;
const RULE_NAMES: &[&str] = &["bound"];

/// Bits per word of a vertex set.
const WORD_BITS: usize = u64::BITS as usize;

/// The graph as the search sees it, shared by every copy of the model: vertices
/// renumbered into the configured order (so that the bits' order is the vertex order of
/// the colouring), one adjacency bitset per vertex.
#[derive(Debug)]
struct Graph {
    /// Words per vertex set.
    words: usize,
    /// `adjacency[v * words..][..words]`: the neighbours of (renumbered) vertex `v`.
    adjacency: Vec<u64>,
    /// `label[v]`: the 1-based number in the file of renumbered vertex `v`.
    label: Vec<u32>,
    bound: BoundKind,
}

impl Graph {
    /// The neighbours of `vertex` as a bitset.
    #[inline(always)]
    fn neighbours(&self, vertex: u32) -> &[u64] {
        let start = vertex as usize * self.words;
        &self.adjacency[start..start + self.words]
    }

    /// Lists the vertices of `set` into `order` (cleared first) as the bound knob orders
    /// them, calling `emit(vertex, position, colour)` for each: by greedy colour class for
    /// the colour bound, by vertex for the size bound (colour 0). `scratch` holds two sets.
    #[inline(always)]
    fn list(&self, set: &[u64], scratch: &mut [u64], order: &mut Vec<u32>, emit: impl FnMut(u32, u32, u32)) {
        order.clear();
        match self.bound {
            BoundKind::Colour => self.colour(set, scratch, order, emit),
            BoundKind::Size => {
                let mut emit = emit;
                for_each_vertex(set, |vertex| {
                    emit(vertex, order.len() as u32, 0);
                    order.push(vertex);
                });
            }
        }
    }

    /// Greedy sequential colouring of `set` (MCQ's number sort, BBMC's word form): colour
    /// class `k` takes, in vertex order, every uncoloured vertex not adjacent to one
    /// already in it. Each vertex is listed into `order` as it is coloured.
    #[inline(always)]
    fn colour(&self, set: &[u64], scratch: &mut [u64], order: &mut Vec<u32>, mut emit: impl FnMut(u32, u32, u32)) {
        let words = self.words;
        let (uncoloured, class) = scratch.split_at_mut(words);
        uncoloured.copy_from_slice(set);
        let mut low = 0;
        let mut colour = 0;
        loop {
            // Words below `low` are coloured: each class scans from the first open word.
            while low < words && uncoloured[low] == 0 {
                low += 1;
            }
            if low == words {
                return;
            }
            colour += 1;
            class[low..].copy_from_slice(&uncoloured[low..]);
            for word in low..words {
                let mut bits = class[word];
                while bits != 0 {
                    let bit = bits.trailing_zeros() as usize;
                    let vertex = (word * WORD_BITS + bit) as u32;
                    uncoloured[word] &= !(1 << bit);
                    let neighbours = self.neighbours(vertex);
                    // The class stays independent: drop the vertex's neighbours from it
                    // (those in earlier words were dropped or taken already).
                    bits &= !(1 << bit) & !neighbours[word];
                    for (open, &adjacent) in class[word + 1..].iter_mut().zip(&neighbours[word + 1..]) {
                        *open &= !adjacent;
                    }
                    emit(vertex, order.len() as u32, colour);
                    order.push(vertex);
                }
            }
        }
    }
}

/// Calls `visit` with each vertex of `set`, ascending.
#[inline(always)]
fn for_each_vertex(set: &[u64], mut visit: impl FnMut(u32)) {
    for (word, &bits) in set.iter().enumerate() {
        let mut bits = bits;
        while bits != 0 {
            visit((word * WORD_BITS) as u32 + bits.trailing_zeros());
            bits &= bits - 1;
        }
    }
}

/// A move: add `vertex` (renumbered) to the clique. `position` is its place in the
/// parent's order, which says which siblings were tried before it; `bound` is the largest
/// clique the child can reach, so that the engine can read it at a parent reached by
/// replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pick {
    vertex: u32,
    position: u32,
    bound: u32,
}

/// The search state: the clique and, per depth, the candidates and their order.
#[derive(Debug, Clone)]
pub struct CliqueModel {
    graph: Arc<Graph>,
    /// Row `d` (`candidates[d * words..][..words]`): the candidates at depth `d`, less
    /// `order[d][cut[d]..]` when `ordered[d]`.
    candidates: Vec<u64>,
    /// `order[d]`: the candidates of depth `d` as the bound lists them, when `ordered[d]`.
    /// Preallocated (at most `n` at the root, a vertex's degree below it).
    order: Vec<Vec<u32>>,
    /// `reach[d][i]`: how many vertices the candidate at `order[d][i]` can add with those
    /// listed before it (its colour, or `i + 1` under the size bound): a child's bound is
    /// `d + reach`. Kept beside the order so that a move is made only when it is tried.
    reach: Vec<Vec<u32>>,
    /// `ordered[d]`: `order[d]` and `cut[d]` belong to the candidates of row `d`; false
    /// once `apply` writes a new row, until `branch` (or a replaying `apply`) lists it.
    ordered: Vec<bool>,
    /// `cut[d]`: the positions of `order[d]` from here on are out of row `d` (siblings
    /// tried before the current child).
    cut: Vec<u32>,
    /// The clique, renumbered vertices in the order they were added.
    clique: Vec<u32>,
    /// Two sets of scratch for the colouring.
    scratch: Vec<u64>,
    max_depth: usize,
}

impl CliqueModel {
    /// The root state of `graph` under `config`: the clique empty, every vertex a candidate.
    pub(super) fn new(graph: &MaxClique, config: &CliqueConfig) -> CliqueModel {
        let n = graph.vertex_count();
        let mut by_order: Vec<u32> = (0..n as u32).collect();
        if config.order == VertexOrder::Degree {
            // Stable: equal degrees keep the file order.
            by_order.sort_by_key(|&vertex| Reverse(graph.neighbours[vertex as usize].len()));
        }
        let mut renumbered = vec![0u32; n];
        for (new, &old) in by_order.iter().enumerate() {
            renumbered[old as usize] = new as u32;
        }
        let words = n.div_ceil(WORD_BITS);
        let mut adjacency = vec![0u64; n * words];
        for (old, neighbours) in graph.neighbours.iter().enumerate() {
            let row = renumbered[old] as usize * words;
            for &neighbour in neighbours {
                let bit = renumbered[neighbour as usize] as usize;
                adjacency[row + bit / WORD_BITS] |= 1 << (bit % WORD_BITS);
            }
        }
        let label = by_order.iter().map(|&old| old + 1).collect();
        let mut everyone = vec![u64::MAX; words];
        if !n.is_multiple_of(WORD_BITS) {
            everyone[words - 1] = (1 << (n % WORD_BITS)) - 1;
        }
        // No clique has more vertices than a proper colouring has colours: the depth of
        // the deepest node, and the number of rows to preallocate.
        let colouring = Graph { words, adjacency, label, bound: BoundKind::Colour };
        let mut scratch = vec![0u64; 2 * words];
        let mut root_order = Vec::with_capacity(n);
        let mut colours = 0;
        colouring.colour(&everyone, &mut scratch, &mut root_order, |_, _, colour| colours = colour);
        let max_depth = colours as usize;
        let graph = Arc::new(Graph { bound: config.bound, ..colouring });
        let max_degree = graph.adjacency.chunks(words.max(1)).map(count).max().unwrap_or(0);
        let mut candidates = vec![0u64; (max_depth + 1) * words];
        candidates[..words].copy_from_slice(&everyone);
        let order = (0..=max_depth).map(|depth| Vec::with_capacity(if depth == 0 { n } else { max_degree })).collect();
        let reach = (0..=max_depth).map(|depth| Vec::with_capacity(if depth == 0 { n } else { max_degree })).collect();
        CliqueModel {
            graph,
            candidates,
            order,
            reach,
            ordered: vec![false; max_depth + 1],
            cut: vec![0; max_depth + 1],
            clique: Vec::with_capacity(max_depth),
            scratch,
            max_depth,
        }
    }

    /// Puts the positions cut from row `depth` back: the row is the node's candidates.
    #[cold]
    #[inline(never)]
    fn restore(&mut self, depth: usize) {
        let words = self.graph.words;
        let row = &mut self.candidates[depth * words..(depth + 1) * words];
        for &vertex in &self.order[depth][self.cut[depth] as usize..] {
            row[vertex as usize / WORD_BITS] |= 1 << (vertex as usize % WORD_BITS);
        }
        self.cut[depth] = self.order[depth].len() as u32;
    }

    /// Lists row `depth` (into `order` and `reach`) as the bound orders it; the number
    /// of candidates listed.
    #[inline(always)]
    fn list_row(&mut self, depth: usize) -> u32 {
        let words = self.graph.words;
        let row = &self.candidates[depth * words..(depth + 1) * words];
        let reach = &mut self.reach[depth];
        reach.clear();
        match self.graph.bound {
            BoundKind::Colour => {
                self.graph.list(row, &mut self.scratch, &mut self.order[depth], |_, _, colour| reach.push(colour))
            }
            BoundKind::Size => self
                .graph
                .list(row, &mut self.scratch, &mut self.order[depth], |_, position, _| reach.push(position + 1)),
        }
        let listed = self.order[depth].len() as u32;
        self.ordered[depth] = true;
        self.cut[depth] = listed;
        listed
    }

    /// Lists row `depth` as `open` would have, for a parent reached by replay.
    #[cold]
    #[inline(never)]
    fn order_for_replay(&mut self, depth: usize) {
        self.list_row(depth);
    }
}

/// The number of vertices in `set`.
fn count(set: &[u64]) -> usize {
    set.iter().map(|bits| bits.count_ones() as usize).sum()
}

impl Model for CliqueModel {
    type Move = Pick;
    /// The clique's vertices, 1-based as in the file, ascending.
    type Solution = Vec<u32>;
    const REJECTS_BEFORE_CHANGING: bool = true;
    const LAZY_MOVES: bool = true;
    const OPTIMISES: bool = true;
    /// Both bounds fall along a node's moves: the colour bound lists the last colour class
    /// first, the size bound the longest candidate prefix first.
    const MOVES_IN_BOUND_ORDER: bool = true;

    fn rule_names(&self) -> &[&'static str] {
        RULE_NAMES
    }

    fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// A node without candidates is a solution (its clique cannot grow); otherwise its
    /// candidates, to be tried highest colour (or position) first: the cursor counts the
    /// positions not yet given, and `next_move` makes each move only when it is tried, so
    /// the siblings after a bound cut are never made.
    #[inline]
    fn open<C: RuleCounter>(&mut self, _counters: &mut C) -> Opened {
        let depth = self.clique.len();
        if self.ordered[depth] {
            // Listed before at this state (a second search of the same root, say): the
            // row lacks the positions cut since. Never so in one search.
            self.restore(depth);
        }
        match self.list_row(depth) {
            0 => Opened::Solution,
            listed => Opened::Moves(MoveCursor::from(listed)),
        }
    }

    #[inline(always)]
    fn next_move(&self, cursor: &mut MoveCursor) -> Option<Pick> {
        if *cursor == 0 {
            return None;
        }
        *cursor -= 1;
        let depth = self.clique.len();
        let position = *cursor as usize;
        Some(Pick {
            vertex: self.order[depth][position],
            position: position as u32,
            bound: depth as u32 + self.reach[depth][position],
        })
    }

    /// Cuts the siblings after `mv`'s position from the parent's row, then makes the
    /// child's row: what is left of the parent's, within the vertex's neighbours.
    #[inline]
    fn apply<C: RuleCounter>(&mut self, mv: Pick, _counters: &mut C) -> Result<(), RuleId> {
        let depth = self.clique.len();
        if !self.ordered[depth] {
            self.order_for_replay(depth);
        }
        let words = self.graph.words;
        let (above, below) = self.candidates.split_at_mut((depth + 1) * words);
        let row = &mut above[depth * words..];
        let order = &self.order[depth];
        debug_assert_eq!(order[mv.position as usize], mv.vertex, "a move names its vertex's position");
        let keep = mv.position + 1;
        let mut cut = self.cut[depth];
        while cut > keep {
            cut -= 1;
            let vertex = order[cut as usize] as usize;
            row[vertex / WORD_BITS] &= !(1 << (vertex % WORD_BITS));
        }
        while cut < keep {
            let vertex = order[cut as usize] as usize;
            row[vertex / WORD_BITS] |= 1 << (vertex % WORD_BITS);
            cut += 1;
        }
        self.cut[depth] = cut;
        let neighbours = self.graph.neighbours(mv.vertex);
        for ((child, &parent), &adjacent) in below[..words].iter_mut().zip(row.iter()).zip(neighbours) {
            *child = parent & adjacent;
        }
        self.ordered[depth + 1] = false;
        self.clique.push(mv.vertex);
        Ok(())
    }

    /// The parent's row keeps its cut: with `cut` it still describes the parent's
    /// candidates, and the next `apply` there moves the cut as it needs.
    #[inline]
    fn undo(&mut self, _mv: Pick) {
        self.clique.pop();
    }

    fn solution(&self) -> Vec<u32> {
        let mut vertices: Vec<u32> = self.clique.iter().map(|&vertex| self.graph.label[vertex as usize]).collect();
        vertices.sort_unstable();
        vertices
    }

    fn objective(&self) -> Option<Objective> {
        Some(Objective { sense: Sense::Maximise, bound_rule: RULE_BOUND })
    }

    fn solution_value(&self, solution: &Vec<u32>) -> i64 {
        solution.len() as i64
    }

    /// The clique's size: a maximal clique no larger than the best kept is never built.
    #[inline]
    fn value_here(&self) -> Option<i64> {
        Some(self.clique.len() as i64)
    }

    /// Carried by the move: `|C| + colour` (or `|C| + |P|` under the size bound).
    #[inline(always)]
    fn move_bound(&self, mv: Pick) -> i64 {
        i64::from(mv.bound)
    }
}
