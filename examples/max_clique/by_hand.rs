//! Maximum clique by a hand-written branch and bound, the tree of the built-in
//! `max_clique` family with its default knobs (`order=degree`, `bound=colour`): vertices
//! renumbered by non-increasing degree (ties in file order), the candidates greedily
//! coloured at every node, tried highest colour first, and a child whose `clique + colour`
//! cannot beat the best so far cut with every later sibling. It counts what the engine
//! counts (every child tried is a node, the root too; the cut child is a node and a
//! bound prune; a node without candidates is a solution) with no engine, trait or
//! counter type: the floor the engine's cost is measured against.

/// What the hand-written search counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CliqueCounts {
    /// Nodes entered, the root included.
    pub nodes: u64,
    /// Nodes without candidates reached (maximal cliques at the time).
    pub solutions: u64,
    /// Children cut by the bound (each cuts its later siblings too).
    pub bound_prunes: u64,
    /// The clique number.
    pub best: u32,
}

/// A graph as adjacency bitsets over renumbered vertices.
pub struct BitGraph {
    words: usize,
    adjacency: Vec<u64>,
    vertices: usize,
}

impl BitGraph {
    /// The graph of a DIMACS text (`p edge N M`, `e u v`, 1-based), renumbered by
    /// non-increasing degree with ties in file order.
    pub fn from_dimacs(text: &str) -> Result<BitGraph, String> {
        let mut vertices = None;
        let mut edges = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let number = |field: usize| -> Result<usize, String> {
                fields.get(field).and_then(|text| text.parse().ok()).ok_or(format!("line {}: a number", index + 1))
            };
            match fields.first() {
                Some(&"p") => vertices = Some(number(2)?),
                Some(&"e") => edges.push((number(1)? - 1, number(2)? - 1)),
                _ => {}
            }
        }
        let n = vertices.ok_or("no `p` line")?;
        let mut neighbours = vec![Vec::new(); n];
        for &(u, v) in &edges {
            if u != v && !neighbours[u].contains(&v) {
                neighbours[u].push(v);
                neighbours[v].push(u);
            }
        }
        let mut by_degree: Vec<usize> = (0..n).collect();
        by_degree.sort_by_key(|&vertex| std::cmp::Reverse(neighbours[vertex].len()));
        let mut renumbered = vec![0; n];
        for (new, &old) in by_degree.iter().enumerate() {
            renumbered[old] = new;
        }
        let words = n.div_ceil(64);
        let mut adjacency = vec![0u64; n * words];
        for (old, list) in neighbours.iter().enumerate() {
            for &other in list {
                let bit = renumbered[other];
                adjacency[renumbered[old] * words + bit / 64] |= 1 << (bit % 64);
            }
        }
        Ok(BitGraph { words, adjacency, vertices: n })
    }
}

/// The search's state: one candidate row per depth, one order and colour list per depth.
struct Search<'g> {
    graph: &'g BitGraph,
    rows: Vec<u64>,
    order: Vec<Vec<u32>>,
    colours: Vec<Vec<u32>>,
    scratch: Vec<u64>,
    counts: CliqueCounts,
}

impl Search<'_> {
    /// Colours row `depth` greedily (class by class, vertices ascending), listing each
    /// vertex and its colour.
    fn colour(&mut self, depth: usize) {
        let words = self.graph.words;
        let (uncoloured, class) = self.scratch.split_at_mut(words);
        uncoloured.copy_from_slice(&self.rows[depth * words..(depth + 1) * words]);
        let (order, colours) = (&mut self.order[depth], &mut self.colours[depth]);
        order.clear();
        colours.clear();
        let mut colour = 0;
        let mut low = 0;
        loop {
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
                    let vertex = word * 64 + bit;
                    uncoloured[word] &= !(1 << bit);
                    let neighbours = &self.graph.adjacency[vertex * words..(vertex + 1) * words];
                    bits &= !(1 << bit) & !neighbours[word];
                    for (open, &adjacent) in class[word + 1..].iter_mut().zip(&neighbours[word + 1..]) {
                        *open &= !adjacent;
                    }
                    order.push(vertex as u32);
                    colours.push(colour);
                }
            }
        }
    }

    /// The node at `depth` (its clique has `depth` vertices, its candidates in row
    /// `depth`).
    fn expand(&mut self, depth: usize) {
        self.colour(depth);
        let listed = self.order[depth].len();
        if listed == 0 {
            self.counts.solutions += 1;
            self.counts.best = self.counts.best.max(depth as u32);
            return;
        }
        let words = self.graph.words;
        for position in (0..listed).rev() {
            self.counts.nodes += 1;
            if depth as u32 + self.colours[depth][position] <= self.counts.best {
                self.counts.bound_prunes += 1;
                return;
            }
            let vertex = self.order[depth][position] as usize;
            let (above, below) = self.rows.split_at_mut((depth + 1) * words);
            let row = &mut above[depth * words..];
            let neighbours = &self.graph.adjacency[vertex * words..(vertex + 1) * words];
            for ((child, &parent), &adjacent) in below[..words].iter_mut().zip(row.iter()).zip(neighbours) {
                *child = parent & adjacent;
            }
            // Its cliques are searched below: the later siblings do without it.
            row[vertex / 64] &= !(1 << (vertex % 64));
            self.expand(depth + 1);
        }
    }
}

/// Searches `graph` for a maximum clique, counting as the engine counts.
pub fn max_clique(graph: &BitGraph) -> CliqueCounts {
    let (n, words) = (graph.vertices, graph.words);
    let depth_rows = n + 1;
    let mut search = Search {
        graph,
        rows: vec![0u64; depth_rows * words],
        order: (0..depth_rows).map(|_| Vec::with_capacity(n)).collect(),
        colours: (0..depth_rows).map(|_| Vec::with_capacity(n)).collect(),
        scratch: vec![0u64; 2 * words],
        counts: CliqueCounts { nodes: 1, solutions: 0, bound_prunes: 0, best: 0 },
    };
    for vertex in 0..n {
        search.rows[vertex / 64] |= 1 << (vertex % 64);
    }
    search.expand(0);
    search.counts
}
