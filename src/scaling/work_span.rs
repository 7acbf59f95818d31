//! Work and span of a search tree: the subtree sizes recorded from one sequential search,
//! the subproblems a split at depth D makes of them, and the bounds those put on a speedup.
//! Pure arithmetic over node counts: it knows no model, no thread and no clock.

/// One recorded node: the size of its subtree and where that subtree ends in preorder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeNode {
    /// Nodes in its subtree, itself included (recorded or not).
    pub size: u64,
    /// Its depth (the root is 0).
    pub depth: u32,
    /// Recorded nodes in its subtree, itself included: its children start at the next
    /// index, and its next sibling at `index + extent`.
    pub extent: u32,
}

/// The subtree sizes of one search, for every node down to `recorded_depth`, in preorder
/// (the order a depth-first search visits them, which is the order a frontier lists them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubtreeTree {
    /// The recorded nodes; `nodes[0]` is the root.
    pub nodes: Vec<TreeNode>,
    /// The deepest depth whose nodes are all recorded; below it subtrees are sizes only.
    pub recorded_depth: usize,
    /// Nodes entered per depth over the whole tree (all depths, recorded or not).
    pub nodes_per_depth: Vec<u64>,
}

/// The subproblems of a split at one depth.
#[derive(Debug, Clone, PartialEq)]
pub struct Frontier {
    /// The split depth.
    pub depth: usize,
    /// Nodes above it, counted by the thread that lists the frontier.
    pub above_nodes: u64,
    /// Each subproblem's nodes (its subtree), in listing order.
    pub task_nodes: Vec<u64>,
}

impl Frontier {
    /// The largest subproblem's nodes (0 when there is none).
    pub fn largest(&self) -> u64 {
        self.task_nodes.iter().copied().max().unwrap_or(0)
    }

    /// The largest subproblem's share of `work` nodes.
    pub fn largest_share(&self, work: u64) -> f64 {
        ratio(self.largest(), work)
    }

    /// The most any number of workers can speed this split up, in nodes: the work over the
    /// listing (serial) plus the largest subproblem (one worker's, at least).
    pub fn ceiling(&self, work: u64) -> f64 {
        ratio(work, self.above_nodes + self.largest())
    }
}

fn ratio(numerator: u64, denominator: u64) -> f64 {
    if denominator == 0 {
        f64::INFINITY
    } else {
        numerator as f64 / denominator as f64
    }
}

impl SubtreeTree {
    /// Nodes of the whole tree (the work, in nodes).
    pub fn total_nodes(&self) -> u64 {
        self.nodes.first().map_or(0, |root| root.size)
    }

    /// The deepest depth with a node.
    pub fn max_depth(&self) -> usize {
        self.nodes_per_depth.iter().rposition(|&count| count > 0).unwrap_or(0)
    }

    /// The span in nodes: the longest root-to-leaf chain, which no split can shorten.
    pub fn span_nodes(&self) -> u64 {
        self.max_depth() as u64 + 1
    }

    /// Whether node `index` has recorded children.
    pub fn has_children(&self, index: usize) -> bool {
        self.nodes[index].extent > 1
    }

    /// The recorded children of node `index`, in visiting order.
    pub fn children(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        let end = index + self.nodes[index].extent as usize;
        let mut next = index + 1;
        std::iter::from_fn(move || {
            (next < end).then(|| {
                let child = next;
                next += self.nodes[child].extent as usize;
                child
            })
        })
    }

    /// Nodes above `depth` (what a frontier listing at `depth` counts).
    pub fn nodes_above(&self, depth: usize) -> u64 {
        self.nodes_per_depth.iter().take(depth).sum()
    }

    /// Subproblems a frontier at `depth` lists (one per node entered at that depth).
    pub fn frontier_len(&self, depth: usize) -> u64 {
        if depth == 0 {
            1
        } else {
            self.nodes_per_depth.get(depth).copied().unwrap_or(0)
        }
    }

    /// The subproblems of a split at `depth`; `None` when that depth was not recorded.
    pub fn frontier(&self, depth: usize) -> Option<Frontier> {
        if depth > self.recorded_depth {
            return None;
        }
        let task_nodes = self.nodes.iter().filter(|node| node.depth as usize == depth).map(|node| node.size).collect();
        Some(Frontier { depth, above_nodes: self.nodes_above(depth), task_nodes })
    }
}

/// Builds a [`SubtreeTree`] from a depth-first walk: [`TreeBuilder::enter`] for every node
/// entered below the root, [`TreeBuilder::leave`] when its subtree is done.
#[derive(Debug, Clone)]
pub struct TreeBuilder {
    nodes: Vec<TreeNode>,
    /// Recorded nodes still open: their index and the node count when they were entered.
    open: Vec<(usize, u64)>,
    entered: u64,
    recorded_depth: usize,
}

impl TreeBuilder {
    /// A builder at the root (entered), recording nodes down to `recorded_depth`.
    pub fn new(recorded_depth: usize) -> TreeBuilder {
        TreeBuilder {
            nodes: vec![TreeNode { size: 0, depth: 0, extent: 0 }],
            open: vec![(0, 1)],
            entered: 1,
            recorded_depth,
        }
    }

    /// A node at `depth` (at least 1) was entered.
    pub fn enter(&mut self, depth: usize) {
        self.entered += 1;
        if depth <= self.recorded_depth {
            self.open.push((self.nodes.len(), self.entered));
            self.nodes.push(TreeNode { size: 0, depth: depth as u32, extent: 0 });
        }
    }

    /// The subtree of the node at `depth` (entered last among those open) is done.
    pub fn leave(&mut self, depth: usize) {
        if depth <= self.recorded_depth {
            self.close();
        }
    }

    fn close(&mut self) {
        if let Some((index, entered_at)) = self.open.pop() {
            let extent = u32::try_from(self.nodes.len() - index).unwrap_or(u32::MAX);
            let node = &mut self.nodes[index];
            node.size = self.entered - entered_at + 1;
            node.extent = extent;
        }
    }

    /// The tree, with the root closed, and `nodes_per_depth` of the whole search.
    pub fn finish(mut self, nodes_per_depth: Vec<u64>) -> SubtreeTree {
        while !self.open.is_empty() {
            self.close();
        }
        SubtreeTree { nodes: self.nodes, recorded_depth: self.recorded_depth, nodes_per_depth }
    }
}

/// The deepest depth whose nodes, with all those above, number at most `cap`.
pub fn recordable_depth(nodes_per_depth: &[u64], cap: u64) -> usize {
    let mut total = 0;
    let mut depth = 0;
    for (at, &count) in nodes_per_depth.iter().enumerate() {
        total += count;
        if total > cap {
            break;
        }
        depth = at;
    }
    depth
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A tree given as the children counts of a complete walk: each entry is a node's
    /// depth, in preorder (the root, depth 0, first).
    pub(crate) fn tree_from_preorder(depths: &[usize], recorded_depth: usize) -> SubtreeTree {
        let mut builder = TreeBuilder::new(recorded_depth);
        let mut open: Vec<usize> = vec![0];
        let mut per_depth = vec![0u64; depths.iter().copied().max().unwrap_or(0) + 1];
        per_depth[0] = 1;
        for &depth in &depths[1..] {
            while open.last().is_some_and(|&top| top >= depth) {
                builder.leave(open.pop().expect("checked"));
            }
            builder.enter(depth);
            per_depth[depth] += 1;
            open.push(depth);
        }
        while open.len() > 1 {
            builder.leave(open.pop().expect("checked"));
        }
        builder.finish(per_depth)
    }

    #[test]
    fn subtree_sizes_and_frontiers_add_up() {
        // root -> a (a1, a2), b, c (c1 (c11))
        let tree = tree_from_preorder(&[0, 1, 2, 2, 1, 1, 2, 3], 3);
        assert_eq!(tree.total_nodes(), 8);
        assert_eq!(tree.nodes.iter().map(|node| node.size).collect::<Vec<_>>(), vec![8, 3, 1, 1, 1, 3, 2, 1]);
        assert_eq!(tree.children(0).collect::<Vec<_>>(), vec![1, 4, 5]);
        let frontier = tree.frontier(1).expect("recorded");
        assert_eq!(frontier.task_nodes, vec![3, 1, 3]);
        assert_eq!(frontier.above_nodes, 1);
        assert_eq!(frontier.ceiling(8), 8.0 / 4.0);
        assert_eq!(tree.frontier(2).expect("recorded").task_nodes, vec![1, 1, 2]);
        assert_eq!(tree.span_nodes(), 4);
    }

    #[test]
    fn unrecorded_depths_keep_their_sizes_in_the_recorded_parents() {
        let tree = tree_from_preorder(&[0, 1, 2, 2, 1, 1, 2, 3], 1);
        assert_eq!(tree.nodes.len(), 4);
        assert_eq!(tree.frontier(1).expect("recorded").task_nodes, vec![3, 1, 3]);
        assert!(tree.frontier(2).is_none());
        assert_eq!(recordable_depth(&[1, 3, 3, 1], 4), 1);
        assert_eq!(recordable_depth(&[1, 3, 3, 1], 100), 3);
    }
}
