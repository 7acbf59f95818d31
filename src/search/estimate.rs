//! Knuth's random-probe estimate of a search tree's size, without searching it.
//!
//! One probe walks from the root to a leaf, choosing a child uniformly at random at each
//! node. With `b_1, b_2, ...` the numbers of children met along the way, the probe's
//! estimate is `1 + b_1 + b_1 b_2 + ...`; its expectation is exactly the number of nodes
//! of the tree (Knuth, "Estimating the efficiency of backtrack programs", 1975). The
//! engine's node definition is used: a child that `apply` rejects is a node (a leaf).

use super::{Branch, Model, NoCounters};

/// A small, fast, seedable pseudo-random generator (xorshift64*), enough for probes.
#[derive(Debug, Clone)]
pub struct ProbeRng(u64);

impl ProbeRng {
    /// A generator from `seed` (any value; zero is mapped to a fixed non-zero state).
    pub fn new(seed: u64) -> ProbeRng {
        ProbeRng(if seed == 0 { 0x9E37_79B9_7F4A_7C15 } else { seed })
    }

    /// A uniform integer in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let value = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        ((value as u128 * bound as u128) >> 64) as usize
    }
}

/// The result of a set of probes.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeEstimate {
    /// Probes made.
    pub probes: usize,
    /// Mean of the probes' estimates: the estimated number of nodes.
    pub nodes: f64,
    /// Standard error of that mean.
    pub standard_error: f64,
    /// Estimated nodes per depth (`nodes_per_depth[d]`, mean over probes).
    pub nodes_per_depth: Vec<f64>,
}

/// Estimates the size of `model`'s search tree with `probes` random probes.
pub fn estimate_tree_size<M: Model>(model: &mut M, probes: usize, seed: u64) -> TreeEstimate {
    let mut rng = ProbeRng::new(seed);
    let mut candidates = Vec::new();
    let mut path = Vec::new();
    let mut per_depth = vec![0.0; model.max_depth() + 2];
    let mut sum = 0.0;
    let mut sum_of_squares = 0.0;
    for _ in 0..probes.max(1) {
        let mut weight = 1.0;
        let mut estimate = 1.0;
        per_depth[0] += 1.0;
        loop {
            candidates.clear();
            if model.branch(&mut candidates, &mut NoCounters) != Branch::Moves || candidates.is_empty() {
                break;
            }
            weight *= candidates.len() as f64;
            estimate += weight;
            let depth = path.len() + 1;
            if depth >= per_depth.len() {
                per_depth.resize(depth + 1, 0.0);
            }
            per_depth[depth] += weight;
            let chosen = candidates[rng.below(candidates.len())];
            let accepted = model.apply(chosen, &mut NoCounters).is_ok();
            path.push(chosen);
            if !accepted {
                break;
            }
        }
        while let Some(mv) = path.pop() {
            model.undo(mv);
        }
        sum += estimate;
        sum_of_squares += estimate * estimate;
    }
    let count = probes.max(1) as f64;
    let mean = sum / count;
    let variance = (sum_of_squares / count - mean * mean).max(0.0);
    TreeEstimate {
        probes: probes.max(1),
        nodes: mean,
        standard_error: (variance / count).sqrt(),
        nodes_per_depth: per_depth.into_iter().map(|total| total / count).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{search_sequentially, Limits, RuleCounter, RuleId};

    /// An irregular tree: at depth d a node has (its path hash mod 4) children, and a
    /// child whose hash is 0 mod 5 is rejected by `apply`.
    #[derive(Clone)]
    struct IrregularTree {
        path: Vec<u64>,
        /// When set, every inner node has exactly this many children and none is rejected.
        uniform_branching: Option<u64>,
    }

    fn hash(path: &[u64]) -> u64 {
        path.iter().fold(1469598103934665603u64, |h, &x| (h ^ x).wrapping_mul(1099511628211))
    }

    impl Model for IrregularTree {
        type Move = u64;
        type Solution = Vec<u64>;
        fn rule_names(&self) -> &[&'static str] {
            &["hash"]
        }
        fn max_depth(&self) -> usize {
            9
        }
        fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<u64>, _c: &mut C) -> Branch {
            if self.path.len() == 9 {
                return Branch::Solution;
            }
            moves.extend(0..self.uniform_branching.unwrap_or(hash(&self.path) % 4 + 1));
            Branch::Moves
        }
        fn apply<C: RuleCounter>(&mut self, mv: u64, _c: &mut C) -> Result<(), RuleId> {
            self.path.push(mv);
            if self.uniform_branching.is_none() && hash(&self.path).is_multiple_of(5) {
                Err(0)
            } else {
                Ok(())
            }
        }
        fn undo(&mut self, _mv: u64) {
            self.path.pop();
        }
        fn solution(&self) -> Vec<u64> {
            self.path.clone()
        }
    }

    #[test]
    fn mean_of_many_probes_converges_to_the_true_tree_size() {
        let mut model = IrregularTree { path: Vec::new(), uniform_branching: None };
        let actual = search_sequentially::<_, NoCounters>(model.clone(), Limits::exhaustive()).stats.nodes as f64;
        let estimate = estimate_tree_size(&mut model, 200_000, 7);
        let relative_error = (estimate.nodes - actual).abs() / actual;
        assert!(relative_error < 0.03, "estimate {} vs actual {actual}", estimate.nodes);
        assert!((estimate.nodes - actual).abs() < 5.0 * estimate.standard_error + 1.0);
        assert!(model.path.is_empty(), "probes leave the model at the root");
    }

    #[test]
    fn a_uniform_tree_is_estimated_exactly_by_every_probe() {
        let mut model = IrregularTree { path: Vec::new(), uniform_branching: Some(3) };
        let actual: f64 = (0..=9).map(|depth| 3f64.powi(depth)).sum();
        let estimate = estimate_tree_size(&mut model, 5, 1);
        assert_eq!(estimate.nodes, actual);
        assert_eq!(estimate.standard_error, 0.0);
        assert_eq!(estimate.nodes_per_depth[9], 3f64.powi(9));
    }
}
