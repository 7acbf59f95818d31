//! Models for testing the strategies: a seeded random tree (any size and shape, every
//! node decided by a hash of its path) and N-queens (a real search with known answers).

use crate::search::{Branch, Model, RuleCounter, RuleId};

/// splitmix64: a fast, well-mixed hash of one word.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const RULE_PRUNED: RuleId = 0;
const RULE_LEAF: RuleId = 1;

/// The shape of a random tree.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TreeShape {
    /// Seed of every hash.
    pub(crate) seed: u64,
    /// Depth of the leaves.
    pub(crate) depth: usize,
    /// Most children per node (each node has 1 to this many, by its hash).
    pub(crate) branching: u32,
    /// Chance in 1000 that a child is pruned by rule 0 when entered.
    pub(crate) prune_per_mille: u64,
    /// Chance in 1000 that a leaf is a solution (else rule 1 rejects it).
    pub(crate) solution_per_mille: u64,
}

impl TreeShape {
    fn child_hash(parent: u64, child: u32) -> u64 {
        mix(parent ^ mix(u64::from(child) + 1))
    }

    fn children(self, hash: u64) -> u32 {
        1 + ((hash >> 32) % u64::from(self.branching.max(1))) as u32
    }

    fn pruned(self, hash: u64) -> bool {
        hash % 1000 < self.prune_per_mille
    }

    fn is_solution_leaf(self, hash: u64) -> bool {
        (hash >> 16) % 1000 < self.solution_per_mille
    }

    /// Checks a solution path independently of the model: every move exists, no node on
    /// it is pruned, it ends at a solution leaf.
    pub(crate) fn verify(self, path: &[u32]) -> Result<(), String> {
        if path.len() != self.depth {
            return Err(format!("path of length {} is not a leaf", path.len()));
        }
        let mut hash = mix(self.seed);
        for (depth, &child) in path.iter().enumerate() {
            if child >= self.children(hash) {
                return Err(format!("no child {child} at depth {depth}"));
            }
            hash = Self::child_hash(hash, child);
            if self.pruned(hash) {
                return Err(format!("node at depth {} is pruned", depth + 1));
            }
        }
        if self.is_solution_leaf(hash) {
            Ok(())
        } else {
            Err("the leaf is no solution".to_string())
        }
    }
}

/// A seeded pseudo-random tree: a solution is a root-to-leaf path of unpruned nodes that
/// ends at a solution leaf.
#[derive(Debug, Clone)]
pub(crate) struct RandomTree {
    shape: TreeShape,
    /// Hash of every node on the current path, the root's first.
    hashes: Vec<u64>,
    path: Vec<u32>,
}

impl RandomTree {
    pub(crate) fn new(shape: TreeShape) -> RandomTree {
        let mut hashes = Vec::with_capacity(shape.depth + 1);
        hashes.push(mix(shape.seed));
        RandomTree { shape, hashes, path: Vec::with_capacity(shape.depth) }
    }
}

impl Model for RandomTree {
    type Move = u32;
    type Solution = Vec<u32>;
    const REJECTS_BEFORE_CHANGING: bool = true;

    fn rule_names(&self) -> &[&'static str] {
        &["pruned", "leaf"]
    }

    fn max_depth(&self) -> usize {
        self.shape.depth
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<u32>, counters: &mut C) -> Branch {
        let hash = self.hashes[self.hashes.len() - 1];
        if self.path.len() == self.shape.depth {
            counters.check(RULE_LEAF);
            return if self.shape.is_solution_leaf(hash) { Branch::Solution } else { Branch::DeadEnd(RULE_LEAF) };
        }
        moves.extend(0..self.shape.children(hash));
        Branch::Moves
    }

    fn apply<C: RuleCounter>(&mut self, child: u32, counters: &mut C) -> Result<(), RuleId> {
        let hash = TreeShape::child_hash(self.hashes[self.hashes.len() - 1], child);
        counters.check(RULE_PRUNED);
        if self.shape.pruned(hash) {
            return Err(RULE_PRUNED);
        }
        self.hashes.push(hash);
        self.path.push(child);
        Ok(())
    }

    fn undo(&mut self, _child: u32) {
        self.hashes.pop();
        self.path.pop();
    }

    fn solution(&self) -> Vec<u32> {
        self.path.clone()
    }
}

const RULE_COLUMN: RuleId = 0;
const RULE_DIAGONAL: RuleId = 1;

/// N queens on an N x N board, one row per level, every column tried in order; a queen
/// that shares a column or a diagonal with an earlier one is rejected on placement.
#[derive(Debug, Clone)]
pub(crate) struct Queens {
    size: u32,
    columns: u32,
    diagonals: u64,
    anti_diagonals: u64,
    /// The occupancy masks before each placement, restored by `undo`.
    saved: Vec<(u32, u64, u64)>,
    placed: Vec<u8>,
}

impl Queens {
    /// The board of `size` x `size` (at most 16).
    pub(crate) fn new(size: u32) -> Queens {
        assert!((1..=16).contains(&size), "test boards are 1 to 16 wide");
        Queens {
            size,
            columns: 0,
            diagonals: 0,
            anti_diagonals: 0,
            saved: Vec::with_capacity(size as usize),
            placed: Vec::with_capacity(size as usize),
        }
    }

    /// Checks a solution from the rules alone: one queen per row, none attacking another.
    pub(crate) fn verify(size: usize, columns: &[u8]) -> Result<(), String> {
        if columns.len() != size {
            return Err(format!("{} queens on a board of {size}", columns.len()));
        }
        for (row, &column) in columns.iter().enumerate() {
            if usize::from(column) >= size {
                return Err(format!("row {row}: column {column} is off the board"));
            }
            for (earlier, &other) in columns[..row].iter().enumerate() {
                let (a, b) = (i64::from(column), i64::from(other));
                if a == b || (a - b).abs() == (row - earlier) as i64 {
                    return Err(format!("queens in rows {earlier} and {row} attack each other"));
                }
            }
        }
        Ok(())
    }
}

impl Model for Queens {
    type Move = u8;
    type Solution = Vec<u8>;

    fn rule_names(&self) -> &[&'static str] {
        &["column", "diagonal"]
    }

    fn max_depth(&self) -> usize {
        self.size as usize
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<u8>, _counters: &mut C) -> Branch {
        if self.placed.len() == self.size as usize {
            return Branch::Solution;
        }
        moves.extend(0..self.size as u8);
        Branch::Moves
    }

    fn apply<C: RuleCounter>(&mut self, column: u8, counters: &mut C) -> Result<(), RuleId> {
        let row = self.placed.len() as u32;
        let column32 = u32::from(column);
        // This model changes the state before it tests (the default contract: the engine
        // undoes a rejected move), so the parallel tests cover both kinds of model.
        self.saved.push((self.columns, self.diagonals, self.anti_diagonals));
        self.placed.push(column);
        counters.check(RULE_COLUMN);
        if self.columns & (1 << column32) != 0 {
            return Err(RULE_COLUMN);
        }
        let diagonal = 1u64 << (row + column32);
        let anti_diagonal = 1u64 << (row + self.size - 1 - column32);
        counters.check(RULE_DIAGONAL);
        if self.diagonals & diagonal != 0 || self.anti_diagonals & anti_diagonal != 0 {
            return Err(RULE_DIAGONAL);
        }
        self.columns |= 1 << column32;
        self.diagonals |= diagonal;
        self.anti_diagonals |= anti_diagonal;
        Ok(())
    }

    fn undo(&mut self, _column: u8) {
        self.placed.pop();
        if let Some((columns, diagonals, anti_diagonals)) = self.saved.pop() {
            self.columns = columns;
            self.diagonals = diagonals;
            self.anti_diagonals = anti_diagonals;
        }
    }

    fn solution(&self) -> Vec<u8> {
        self.placed.clone()
    }
}

/// The random tree as a maximisation: every node weighs 0 to 99 (from its hash), a
/// solution's value is the weight of its path, and a child's bound is the path's weight
/// so far, the child's, and 99 for each level below it. With `ORDERED`, a node's children
/// come heaviest first, so their bounds do not increase and the model says so
/// ([`Model::MOVES_IN_BOUND_ORDER`]).
#[derive(Debug, Clone)]
pub(crate) struct ValuedTree<const ORDERED: bool> {
    tree: RandomTree,
    /// The weight of the path to each node on the current path, the root's (0) first.
    weights: Vec<i64>,
}

/// The heaviest weight of a node.
const MAX_WEIGHT: i64 = 99;

impl<const ORDERED: bool> ValuedTree<ORDERED> {
    pub(crate) fn new(shape: TreeShape) -> Self {
        ValuedTree { tree: RandomTree::new(shape), weights: vec![0] }
    }

    fn weight(hash: u64) -> i64 {
        ((hash >> 40) % 100) as i64
    }

    fn child_weight(&self, child: u32) -> i64 {
        Self::weight(TreeShape::child_hash(self.tree.hashes[self.tree.hashes.len() - 1], child))
    }

    /// Every solution's path and value, by a plain recursion over the shape (no model).
    pub(crate) fn every_solution(shape: TreeShape) -> Vec<(i64, Vec<u32>)> {
        fn walk(shape: TreeShape, hash: u64, value: i64, path: &mut Vec<u32>, found: &mut Vec<(i64, Vec<u32>)>) {
            if path.len() == shape.depth {
                if shape.is_solution_leaf(hash) {
                    found.push((value, path.clone()));
                }
                return;
            }
            for child in 0..shape.children(hash) {
                let child_hash = TreeShape::child_hash(hash, child);
                if !shape.pruned(child_hash) {
                    path.push(child);
                    walk(shape, child_hash, value + ((child_hash >> 40) % 100) as i64, path, found);
                    path.pop();
                }
            }
        }
        let mut found = Vec::new();
        walk(shape, mix(shape.seed), 0, &mut Vec::new(), &mut found);
        found
    }
}

impl<const ORDERED: bool> Model for ValuedTree<ORDERED> {
    type Move = u32;
    type Solution = Vec<u32>;
    const REJECTS_BEFORE_CHANGING: bool = true;
    const OPTIMISES: bool = true;
    const MOVES_IN_BOUND_ORDER: bool = ORDERED;

    fn rule_names(&self) -> &[&'static str] {
        &["pruned", "leaf", "bound"]
    }

    fn max_depth(&self) -> usize {
        self.tree.max_depth()
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<u32>, counters: &mut C) -> Branch {
        let start = moves.len();
        let branch = self.tree.branch(moves, counters);
        if ORDERED {
            moves[start..].sort_by_key(|&child| std::cmp::Reverse(self.child_weight(child)));
        }
        branch
    }

    fn apply<C: RuleCounter>(&mut self, child: u32, counters: &mut C) -> Result<(), RuleId> {
        let weight = self.child_weight(child);
        self.tree.apply(child, counters)?;
        self.weights.push(self.weights[self.weights.len() - 1] + weight);
        Ok(())
    }

    fn undo(&mut self, child: u32) {
        self.tree.undo(child);
        self.weights.pop();
    }

    fn solution(&self) -> Vec<u32> {
        self.tree.solution()
    }

    fn objective(&self) -> Option<crate::search::Objective> {
        Some(crate::search::Objective { sense: crate::search::Sense::Maximise, bound_rule: 2 })
    }

    fn solution_value(&self, path: &Vec<u32>) -> i64 {
        let mut hash = mix(self.tree.shape.seed);
        let mut value = 0;
        for &child in path {
            hash = TreeShape::child_hash(hash, child);
            value += Self::weight(hash);
        }
        value
    }

    fn move_bound(&self, child: u32) -> i64 {
        let below = (self.tree.shape.depth - self.tree.path.len() - 1) as i64;
        self.weights[self.weights.len() - 1] + self.child_weight(child) + MAX_WEIGHT * below
    }
}
