//! Knuth's random-probe estimate of a search tree's size, without searching it.
//!
//! One probe walks from the root to a leaf, choosing a child uniformly at random at each
//! node. With `b_1, b_2, ...` the numbers of children met along the way, the probe's
//! estimate is `1 + b_1 + b_1 b_2 + ...`; its expectation is exactly the number of nodes
//! of the tree (Knuth, "Estimating the efficiency of backtrack programs", 1975). The
//! engine's node definition is used: a child that `apply` rejects is a node (a leaf).
//!
//! Two unbiased refinements cut the variance (see [`EstimateMethod`] and docs/estimate.md):
//! looking one level ahead so that probes only descend into accepted children (a child
//! `c` of `b` accepted ones contributes `b` to the product, and every child, accepted or
//! not, is counted), and stratifying: the top levels are counted exactly and the probes
//! are spread evenly over the subtrees below them, so a probe's luck at the top, where
//! unbalanced trees differ most, no longer multiplies its estimate.

use super::{Branch, Model, NoCounters};
use std::time::Instant;

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

/// How the tree size is estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EstimateMethod {
    /// Knuth's plain estimator: at each node, pick any child uniformly (a child that
    /// `apply` rejects ends the probe). Unbiased but heavy-tailed on unbalanced trees.
    Knuth,
    /// Look one level ahead: apply every child to learn which are accepted, count them
    /// all, and descend into an accepted one chosen uniformly, weighting by the number of
    /// accepted children. Unbiased; no probe is spent on a rejected leaf.
    Accepted,
    /// Count the top levels exactly, down to the deepest level whose accepted nodes number
    /// at most a quarter of the probes, and estimate each subtree below with its share of
    /// the probes (look-ahead probes). Unbiased; the variance of the top levels, where
    /// the imbalance of most trees is, is gone.
    #[default]
    Stratified,
}

impl EstimateMethod {
    /// Every method, in the order of the help text.
    pub const ALL: [EstimateMethod; 3] = [EstimateMethod::Knuth, EstimateMethod::Accepted, EstimateMethod::Stratified];

    /// The method's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EstimateMethod::Knuth => "knuth",
            EstimateMethod::Accepted => "accepted",
            EstimateMethod::Stratified => "stratified",
        }
    }
}

impl std::fmt::Display for EstimateMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for EstimateMethod {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        EstimateMethod::ALL.into_iter().find(|method| method.name() == text).ok_or_else(|| {
            let names: Vec<&str> = EstimateMethod::ALL.iter().map(|method| method.name()).collect();
            format!("unknown estimate method `{text}`; use one of {}", names.join(", "))
        })
    }
}

/// The result of a set of probes.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeEstimate {
    /// Probes made.
    pub probes: usize,
    /// The estimated number of nodes (the exact count of the top levels, if any, plus the
    /// mean of the probes' estimates below them).
    pub nodes: f64,
    /// Standard error of that estimate; NaN where a subtree had a single probe, from which
    /// no error can be told (0 where the count is exact).
    pub standard_error: f64,
    /// Estimated nodes per depth (`nodes_per_depth[d]`).
    pub nodes_per_depth: Vec<f64>,
    /// Depth down to which nodes were counted exactly (0: none, plain probes).
    pub exact_depth: usize,
    /// Subtrees the probes were spread over (1 for plain probes from the root; 0 when the
    /// top levels were the whole tree, so that the count is exact).
    pub subtrees: usize,
}

/// Estimates the size of `model`'s search tree with `probes` plain Knuth probes.
pub fn estimate_tree_size<M: Model>(model: &mut M, probes: usize, seed: u64) -> TreeEstimate {
    estimate_tree_size_with(model, probes, seed, EstimateMethod::Knuth)
}

/// Estimates the size of `model`'s search tree with `probes` probes by `method`. The
/// model is back at the root state afterwards.
pub fn estimate_tree_size_with<M: Model>(
    model: &mut M,
    probes: usize,
    seed: u64,
    method: EstimateMethod,
) -> TreeEstimate {
    match estimate_tree_size_until(model, probes, seed, method, None) {
        Ok(estimate) => estimate,
        Err(_) => unreachable!("an estimate without a deadline runs every probe"),
    }
}

/// The probes of an estimate stopped at their deadline: a stratified estimate over part of
/// its subtrees would be biased, so none is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbesOutOfTime {
    /// The probes made before the deadline passed.
    pub probes_done: usize,
}

impl std::fmt::Display for ProbesOutOfTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the estimate's deadline passed after {} probes; no estimate is given", self.probes_done)
    }
}

impl std::error::Error for ProbesOutOfTime {}

/// [`estimate_tree_size_with`], stopped when `deadline` passes (looked at before every
/// probe and every 4,096 children of a look-ahead or of the exact count of the top levels;
/// a probe it stops is abandoned): a bound
/// on the time of any number of probes. An estimate whose probes all ran is given even
/// when the deadline passed during the last, as is a tree counted whole. The model is back
/// at the root state either way.
pub fn estimate_tree_size_until<M: Model>(
    model: &mut M,
    probes: usize,
    seed: u64,
    method: EstimateMethod,
    deadline: Option<Instant>,
) -> Result<TreeEstimate, ProbesOutOfTime> {
    let probes = probes.max(1);
    let mut prober = Prober::new(model, seed, method != EstimateMethod::Knuth);
    prober.deadline = deadline;
    if method != EstimateMethod::Stratified {
        let subtree = prober.probe_subtree(model, &[], probes);
        prober.check_time()?;
        return Ok(TreeEstimate {
            probes,
            nodes: subtree.mean,
            standard_error: (subtree.variance / probes as f64).sqrt(),
            nodes_per_depth: prober.per_depth,
            exact_depth: 0,
            subtrees: 1,
        });
    }
    let top = count_top_levels(model, (probes / 4).max(1), deadline)?;
    for (depth, &count) in top.nodes_per_depth.iter().enumerate() {
        prober.per_depth[depth] += count as f64;
    }
    let mut nodes = top.nodes as f64;
    let mut variance = 0.0;
    let subtrees = top.frontier.len();
    // A tree counted whole needs no probe.
    let probes = if subtrees == 0 { 0 } else { probes };
    for (index, path) in top.frontier.iter().enumerate() {
        // An even share; the first `probes % subtrees` subtrees get one more.
        let share = probes / subtrees + usize::from(index < probes % subtrees);
        let subtree = prober.probe_subtree(model, path, share);
        prober.check_time()?;
        nodes += subtree.mean;
        variance += subtree.variance / share as f64;
    }
    Ok(TreeEstimate {
        probes,
        nodes,
        standard_error: variance.sqrt(),
        nodes_per_depth: prober.per_depth,
        exact_depth: top.depth,
        subtrees,
    })
}

/// The top levels of a tree, counted exactly.
struct TopLevels<M: Model> {
    /// Depth of the frontier.
    depth: usize,
    /// Paths to the accepted nodes at `depth`, whose subtrees (themselves included) are
    /// left to the probes.
    frontier: Vec<Vec<M::Move>>,
    /// Nodes above the frontier, and the rejected nodes at its depth.
    nodes: u64,
    /// Those nodes per depth.
    nodes_per_depth: Vec<u64>,
}

/// Counts the tree level by level down to the deepest level whose accepted nodes number at
/// most `most_subtrees`; stopped (no probe made) when `deadline` passes, looked at every
/// [`LOOK_AHEAD_DEADLINE_STRIDE`] children tried. A tree of millions of nodes is counted
/// whole when many probes are asked for: it ran for seconds past `--time-limit`.
fn count_top_levels<M: Model>(
    model: &mut M,
    most_subtrees: usize,
    deadline: Option<Instant>,
) -> Result<TopLevels<M>, ProbesOutOfTime> {
    let mut top = TopLevels { depth: 0, frontier: vec![Vec::new()], nodes: 0, nodes_per_depth: vec![0] };
    let mut candidates = Vec::new();
    let mut tried: usize = 0;
    while !top.frontier.is_empty() {
        let mut next = Vec::new();
        let mut rejected = 0;
        'level: for path in &top.frontier {
            replay(model, path);
            candidates.clear();
            if model.branch(&mut candidates, &mut NoCounters) == Branch::Moves {
                for &mv in &candidates {
                    tried = tried.wrapping_add(1);
                    let due = tried.is_multiple_of(LOOK_AHEAD_DEADLINE_STRIDE);
                    if due && deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                        rewind(model, path);
                        return Err(ProbesOutOfTime { probes_done: 0 });
                    }
                    let accepted = model.apply(mv, &mut NoCounters).is_ok();
                    if accepted || !M::REJECTS_BEFORE_CHANGING {
                        model.undo(mv);
                    }
                    if accepted {
                        let mut child = path.clone();
                        child.push(mv);
                        next.push(child);
                        // Too wide to count: the rest of the level is not looked at (a root
                        // of a million children took seconds past a one-probe estimate's
                        // time limit to be found too wide).
                        if next.len() > most_subtrees {
                            rewind(model, path);
                            break 'level;
                        }
                    } else {
                        rejected += 1;
                    }
                }
            }
            rewind(model, path);
        }
        if next.len() > most_subtrees {
            break;
        }
        // The frontier's nodes are expanded: they and their rejected children are counted.
        top.nodes += top.frontier.len() as u64 + rejected;
        top.nodes_per_depth[top.depth] += top.frontier.len() as u64;
        top.nodes_per_depth.push(rejected);
        top.depth += 1;
        top.frontier = next;
    }
    Ok(top)
}

fn replay<M: Model>(model: &mut M, path: &[M::Move]) {
    for &mv in path {
        let accepted = model.apply(mv, &mut NoCounters);
        debug_assert!(accepted.is_ok(), "a frontier path replays cleanly");
    }
}

fn rewind<M: Model>(model: &mut M, path: &[M::Move]) {
    for &mv in path.iter().rev() {
        model.undo(mv);
    }
}

/// The mean and the variance of the probe estimates of one subtree.
struct SubtreeEstimate {
    mean: f64,
    variance: f64,
}

/// Makes probes, reusing its buffers, and sums their per-depth estimates.
struct Prober<M: Model> {
    rng: ProbeRng,
    look_ahead: bool,
    candidates: Vec<M::Move>,
    accepted: Vec<M::Move>,
    path: Vec<M::Move>,
    /// Sum over subtrees of each subtree's mean per-depth estimate.
    per_depth: Vec<f64>,
    /// When the probes stop, if they may stop early.
    deadline: Option<Instant>,
    /// Probes made; `out_of_time` once a probe was skipped for the deadline.
    probes_done: usize,
    out_of_time: bool,
}

impl<M: Model> Prober<M> {
    fn new(model: &M, seed: u64, look_ahead: bool) -> Self {
        Prober {
            rng: ProbeRng::new(seed),
            look_ahead,
            candidates: Vec::new(),
            accepted: Vec::new(),
            path: Vec::new(),
            per_depth: vec![0.0; model.max_depth() + 2],
            deadline: None,
            probes_done: 0,
            out_of_time: false,
        }
    }

    /// Whether the deadline has passed (then every later probe is skipped).
    fn past_deadline(&mut self) -> bool {
        self.out_of_time = self.out_of_time || self.deadline.is_some_and(|deadline| Instant::now() >= deadline);
        self.out_of_time
    }

    /// The estimate's error when a probe was skipped or abandoned for the deadline. Probes
    /// that all ran give their estimate, even when the last one ended past the deadline
    /// (that estimate was thrown away with "1 of its 1 probes" done).
    fn check_time(&mut self) -> Result<(), ProbesOutOfTime> {
        match self.out_of_time {
            true => Err(ProbesOutOfTime { probes_done: self.probes_done }),
            false => Ok(()),
        }
    }

    /// `probes` probes of the subtree under `root` (a path of accepted moves).
    fn probe_subtree(&mut self, model: &mut M, root: &[M::Move], probes: usize) -> SubtreeEstimate {
        replay(model, root);
        let mut sum = 0.0;
        let mut sum_of_squares = 0.0;
        let mut per_depth = vec![0.0; self.per_depth.len()];
        for _ in 0..probes {
            if self.past_deadline() {
                break;
            }
            let Some(estimate) = self.probe(model, root.len(), &mut per_depth) else {
                break;
            };
            self.probes_done += 1;
            sum += estimate;
            sum_of_squares += estimate * estimate;
        }
        rewind(model, root);
        let count = probes as f64;
        if self.per_depth.len() < per_depth.len() {
            self.per_depth.resize(per_depth.len(), 0.0);
        }
        for (total, depth_sum) in self.per_depth.iter_mut().zip(per_depth) {
            *total += depth_sum / count;
        }
        let mean = sum / count;
        // The unbiased sample variance; unknown (NaN) from a single probe, which cannot show
        // any: taken as zero, it made a one-probe estimate look exact.
        let variance =
            if probes > 1 { ((sum_of_squares - count * mean * mean) / (count - 1.0)).max(0.0) } else { f64::NAN };
        SubtreeEstimate { mean, variance }
    }

    /// One probe from the current node at `start_depth`: its estimate of the subtree's
    /// size (the node included), with each depth's share added to `per_depth`.
    fn probe(&mut self, model: &mut M, start_depth: usize, per_depth: &mut Vec<f64>) -> Option<f64> {
        let mut weight = 1.0;
        let mut estimate = 1.0;
        per_depth[start_depth] += 1.0;
        loop {
            self.candidates.clear();
            if model.branch(&mut self.candidates, &mut NoCounters) != Branch::Moves || self.candidates.is_empty() {
                break;
            }
            // Every child is a node, accepted or not.
            let children = weight * self.candidates.len() as f64;
            estimate += children;
            let depth = start_depth + self.path.len() + 1;
            if depth >= per_depth.len() {
                per_depth.resize(depth + 1, 0.0);
            }
            per_depth[depth] += children;
            if self.look_ahead {
                self.accepted.clear();
                for (index, &mv) in self.candidates.iter().enumerate() {
                    // A node of a million children takes seconds to look ahead from: the
                    // deadline is looked at as it goes, and the probe abandoned past it.
                    let due = index % LOOK_AHEAD_DEADLINE_STRIDE == LOOK_AHEAD_DEADLINE_STRIDE - 1;
                    if due && self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                        self.out_of_time = true;
                        break;
                    }
                    let accepted = model.apply(mv, &mut NoCounters).is_ok();
                    if accepted || !M::REJECTS_BEFORE_CHANGING {
                        model.undo(mv);
                    }
                    if accepted {
                        self.accepted.push(mv);
                    }
                }
                if self.out_of_time || self.accepted.is_empty() {
                    break;
                }
                weight *= self.accepted.len() as f64;
                let chosen = self.accepted[self.rng.below(self.accepted.len())];
                let accepted = model.apply(chosen, &mut NoCounters).is_ok();
                debug_assert!(accepted, "a move accepted once is accepted again");
                self.path.push(chosen);
            } else {
                weight = children;
                let chosen = self.candidates[self.rng.below(self.candidates.len())];
                if model.apply(chosen, &mut NoCounters).is_err() {
                    // Rejected: the probe ends here, the move undone unless it left no trace.
                    if !M::REJECTS_BEFORE_CHANGING {
                        model.undo(chosen);
                    }
                    break;
                }
                self.path.push(chosen);
            }
        }
        while let Some(mv) = self.path.pop() {
            model.undo(mv);
        }
        (!self.out_of_time).then_some(estimate)
    }
}

/// How many children a look-ahead, or the count of the top levels, tries between two looks
/// at the deadline.
const LOOK_AHEAD_DEADLINE_STRIDE: usize = 4096;

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
        const REJECTS_BEFORE_CHANGING: bool = true;
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
                self.path.pop();
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

    fn actual_size(model: &IrregularTree) -> f64 {
        search_sequentially::<_, NoCounters>(model.clone(), Limits::exhaustive()).stats.nodes as f64
    }

    /// Checks that the mean over `seeds` independent estimates of `probes` probes each
    /// is within 3% and 5 standard errors of the true size: the estimator is unbiased.
    fn assert_mean_converges(method: EstimateMethod, probes: usize, seeds: u64) {
        let mut model = IrregularTree { path: Vec::new(), uniform_branching: None };
        let actual = actual_size(&model);
        let estimates: Vec<f64> =
            (1..=seeds).map(|seed| estimate_tree_size_with(&mut model, probes, seed, method).nodes).collect();
        assert!(model.path.is_empty(), "probes leave the model at the root");
        let count = estimates.len() as f64;
        let mean = estimates.iter().sum::<f64>() / count;
        let variance = estimates.iter().map(|estimate| (estimate - mean).powi(2)).sum::<f64>() / (count - 1.0);
        let standard_error = (variance / count).sqrt();
        assert!((mean - actual).abs() / actual < 0.03, "{method}: mean {mean} vs actual {actual}");
        assert!(
            (mean - actual).abs() < 5.0 * standard_error + 1.0,
            "{method}: mean {mean} ± {standard_error} vs {actual}"
        );
    }

    #[test]
    fn look_ahead_probes_into_accepted_children_converge_to_the_true_tree_size() {
        assert_mean_converges(EstimateMethod::Accepted, 100, 2_000);
    }

    #[test]
    fn stratified_estimates_are_unbiased_the_mean_of_many_converges_to_the_true_tree_size() {
        // 40 probes: at most 10 subtrees, so most of the tree is left to the probes.
        assert_mean_converges(EstimateMethod::Stratified, 40, 3_000);
        let mut model = IrregularTree { path: Vec::new(), uniform_branching: None };
        let one = estimate_tree_size_with(&mut model, 40, 1, EstimateMethod::Stratified);
        assert!(one.exact_depth >= 1 && (1..=10).contains(&one.subtrees), "{one:?}");
    }

    #[test]
    fn stratified_estimate_of_a_narrow_tree_is_its_exact_count() {
        let mut model = IrregularTree { path: Vec::new(), uniform_branching: None };
        let actual = actual_size(&model);
        // With more probes than four times the widest level, every level is counted.
        let estimate = estimate_tree_size_with(&mut model, 4 * actual as usize, 3, EstimateMethod::Stratified);
        assert_eq!(estimate.nodes, actual);
        assert_eq!(estimate.subtrees, 0);
        assert_eq!(estimate.standard_error, 0.0);
        let per_depth = search_sequentially::<_, crate::search::FullCounters>(model.clone(), Limits::exhaustive())
            .stats
            .nodes_per_depth;
        for (depth, &count) in per_depth.iter().enumerate() {
            assert_eq!(estimate.nodes_per_depth[depth], count as f64, "depth {depth}");
        }
    }

    #[test]
    fn counting_the_top_levels_stops_at_the_deadline() {
        // 29,524 nodes, all counted exactly when four times as many probes are asked for.
        let mut model = IrregularTree { path: Vec::new(), uniform_branching: Some(3) };
        let probes = 4 * 29_524;
        let past = Some(Instant::now());
        let stopped = estimate_tree_size_until(&mut model, probes, 1, EstimateMethod::Stratified, past);
        assert_eq!(stopped.unwrap_err(), ProbesOutOfTime { probes_done: 0 });
        assert!(model.path.is_empty(), "the count leaves the model at the root");
        let whole =
            estimate_tree_size_until(&mut model, probes, 1, EstimateMethod::Stratified, None).expect("no limit");
        assert_eq!((whole.nodes, whole.subtrees), (29_524.0, 0));
    }

    #[test]
    fn one_probe_tells_no_standard_error() {
        let mut model = IrregularTree { path: Vec::new(), uniform_branching: None };
        for method in [EstimateMethod::Knuth, EstimateMethod::Stratified] {
            let estimate = estimate_tree_size_with(&mut model, 1, 1, method);
            assert!(estimate.nodes > 0.0 && estimate.standard_error.is_nan(), "{method:?}: {estimate:?}");
        }
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
