//! The depth-first engine: do/undo recursion over a [`Model`], with counters and limits.

use super::hooks::Level;
use super::keeper::SolutionKeeper;
use super::{Branch, Event, Model, NoCounters, Observer, OpenBranches, RuleCounter, Stats, Steering, SteeringAction};

/// When a search stops before it has seen the whole tree.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Stop at the first solution.
    pub first_solution: bool,
    /// Stop once this many nodes were entered (`u64::MAX`: no limit).
    pub node_limit: u64,
    /// Keep at most this many solutions, the smallest in the model's solution order (all
    /// are counted). Keeping the smallest, not the first found, makes the kept set the
    /// same for every visiting order, strategy and thread count.
    pub solutions_to_keep: usize,
    /// Restore the state by cloning it at every node instead of calling `undo`: a
    /// deliberately slow mode that shows what allocation and copying cost.
    pub clone_state: bool,
}

impl Limits {
    /// Exhaustive search, keeping every solution.
    pub fn exhaustive() -> Limits {
        Limits { first_solution: false, node_limit: u64::MAX, solutions_to_keep: usize::MAX, clone_state: false }
    }

    /// Stop at the first solution.
    pub fn first_solution() -> Limits {
        Limits { first_solution: true, ..Limits::exhaustive() }
    }
}

/// Why a search ended early; a search that saw its whole tree has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// [`Limits::first_solution`] and a solution was found.
    FirstSolution,
    /// [`Limits::node_limit`] was reached.
    NodeLimit,
    /// The [`Steering`] asked to stop (a shared stop flag, a deadline).
    Steered,
}

/// A depth-first search over one model state, generic over what it counts (`C`), who
/// steers it (`S`) and who watches it (`O`).
///
/// One engine can run many subproblems one after another (a worker's life); its counts
/// add up across them, and the model is back at the root state after each.
pub struct Engine<M: Model, C: RuleCounter, S: Steering<M>, O: Observer<M>> {
    model: M,
    counters: C,
    steering: S,
    observer: O,
    limits: Limits,
    /// Moves applied from the root to the current node.
    path: Vec<M::Move>,
    /// The candidates of every open node on the path, one stretch per level.
    candidates: Vec<M::Move>,
    levels: Vec<Level>,
    /// Paths to nodes at `frontier_depth`, collected instead of visited (see
    /// [`Engine::enumerate_frontier`]); `usize::MAX` when not collecting.
    frontier_depth: usize,
    frontier: Vec<Vec<M::Move>>,
    nodes: u64,
    solution_count: u64,
    solutions: SolutionKeeper<M::Solution>,
    stop: Option<StopReason>,
}

impl<M: Model, C: RuleCounter, S: Steering<M>, O: Observer<M>> Engine<M, C, S, O> {
    /// An engine at the root of `model`.
    pub fn new(model: M, steering: S, observer: O, limits: Limits) -> Self {
        let depth = model.max_depth() + 1;
        let solutions_to_keep = limits.solutions_to_keep;
        Engine {
            counters: C::sized(model.rule_names().len(), model.max_depth()),
            model,
            steering,
            observer,
            limits,
            path: Vec::with_capacity(depth),
            candidates: Vec::with_capacity(depth * 8),
            levels: Vec::with_capacity(depth),
            frontier_depth: usize::MAX,
            frontier: Vec::new(),
            nodes: 0,
            solution_count: 0,
            solutions: SolutionKeeper::new(solutions_to_keep),
            stop: None,
        }
    }

    /// Searches the whole tree from the root (the root counts as a node).
    pub fn run(&mut self) {
        if self.stop.is_some() {
            return;
        }
        if !self.enter_node(0) {
            return;
        }
        self.expand();
    }

    /// Searches the subtree under `subproblem`, a path of moves from the root whose last
    /// move has not been visited yet: the prefix is replayed without counting (its nodes
    /// were counted by whoever made the subproblem), then the last move is visited as a
    /// normal child.
    pub fn run_subproblem(&mut self, subproblem: &[M::Move]) {
        let Some((&last, prefix)) = subproblem.split_last() else {
            self.run();
            return;
        };
        if self.stop.is_some() {
            return;
        }
        let mut silent = NoCounters;
        for &mv in prefix {
            let accepted = self.model.apply(mv, &mut silent);
            debug_assert!(accepted.is_ok(), "a subproblem's prefix must replay cleanly");
            self.path.push(mv);
        }
        // Every node on the prefix, the parent of `last` included, has no open candidates
        // here: its other children belong to other subproblems.
        self.levels.resize(prefix.len() + 1, Level { next: 0, end: 0 });
        self.visit_child(last);
        self.levels.clear();
        for &mv in prefix.iter().rev() {
            self.path.pop();
            self.model.undo(mv);
        }
    }

    /// Walks the tree down to `depth` and returns the paths to the nodes there, without
    /// visiting them: nodes above `depth` are counted (and their solutions recorded) here,
    /// nodes at and below it by whoever runs the returned subproblems.
    pub fn enumerate_frontier(&mut self, depth: usize) -> Vec<Vec<M::Move>> {
        self.frontier_depth = depth;
        if depth == 0 {
            self.frontier.push(Vec::new());
        } else {
            self.run();
        }
        self.frontier_depth = usize::MAX;
        std::mem::take(&mut self.frontier)
    }

    /// Counts entry into a node at `depth`; false when the search must stop here.
    #[inline(always)]
    fn enter_node(&mut self, depth: usize) -> bool {
        self.nodes += 1;
        self.counters.node_at(depth);
        if self.nodes > self.limits.node_limit {
            self.nodes -= 1;
            self.stop = Some(StopReason::NodeLimit);
            return false;
        }
        if !self.steering.wants_node(self.nodes) {
            return true;
        }
        let mut open = OpenBranches { path: &self.path, candidates: &self.candidates, levels: &mut self.levels };
        if self.steering.at_node(self.nodes, &mut open) == SteeringAction::Stop {
            self.stop = Some(StopReason::Steered);
            return false;
        }
        true
    }

    /// Visits the child reached by `mv` from the current node.
    #[inline(always)]
    fn visit_child(&mut self, mv: M::Move) {
        let depth = self.path.len() + 1;
        if depth == self.frontier_depth {
            let mut subproblem = self.path.clone();
            subproblem.push(mv);
            self.frontier.push(subproblem);
            return;
        }
        if !self.enter_node(depth) {
            return;
        }
        if self.limits.clone_state {
            let saved = self.model.clone();
            self.visit_applied(mv, depth);
            self.model = saved;
        } else {
            self.visit_applied(mv, depth);
            self.model.undo(mv);
        }
        if O::ACTIVE {
            self.observer.observe(Event::Undo { depth, mv }, &self.model);
        }
    }

    /// Applies `mv` and searches below it; leaves undoing to the caller.
    #[inline(always)]
    fn visit_applied(&mut self, mv: M::Move, depth: usize) {
        if let Err(rule) = self.model.apply(mv, &mut self.counters) {
            self.counters.prune(rule, depth);
            if O::ACTIVE {
                self.observer.observe(Event::Pruned { depth, mv, rule }, &self.model);
            }
            return;
        }
        if O::ACTIVE {
            self.observer.observe(Event::Enter { depth, mv }, &self.model);
        }
        self.path.push(mv);
        self.expand();
        self.path.pop();
    }

    /// Asks the model what to do at the current node and visits its children in order.
    fn expand(&mut self) {
        let depth = self.path.len();
        let start = self.candidates.len();
        match self.model.branch(&mut self.candidates, &mut self.counters) {
            Branch::Solution => {
                self.candidates.truncate(start);
                self.record_solution(depth);
                return;
            }
            Branch::DeadEnd(rule) => {
                self.candidates.truncate(start);
                self.counters.prune(rule, depth);
                if O::ACTIVE {
                    self.observer.observe(Event::DeadEnd { depth, rule }, &self.model);
                }
                return;
            }
            Branch::Moves => {}
        }
        let end = self.candidates.len();
        self.levels.push(Level { next: start, end });
        // The end is re-read every time: a steering may have given the rest away.
        while self.stop.is_none() {
            let level = &mut self.levels[depth];
            if level.next >= level.end {
                break;
            }
            let mv = self.candidates[level.next];
            level.next += 1;
            self.visit_child(mv);
        }
        self.levels.pop();
        self.candidates.truncate(start);
    }

    #[cold]
    fn record_solution(&mut self, depth: usize) {
        self.solution_count += 1;
        if self.solutions.wants_any() {
            self.solutions.offer(self.model.solution());
        }
        if O::ACTIVE {
            self.observer.observe(Event::Solution { depth }, &self.model);
        }
        self.steering.solution_found(self.limits.first_solution);
        if self.limits.first_solution {
            self.stop = Some(StopReason::FirstSolution);
        }
    }

    /// Nodes entered so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Why the search stopped early, if it did.
    pub fn stop_reason(&self) -> Option<StopReason> {
        self.stop
    }

    /// Clears an early stop so the engine can run further subproblems.
    pub fn clear_stop(&mut self) {
        self.stop = None;
    }

    /// The model (at the root state between runs).
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The steering, for schedulers that keep per-worker accounting in it.
    pub fn steering_mut(&mut self) -> &mut S {
        &mut self.steering
    }

    /// The observer.
    pub fn observer_mut(&mut self) -> &mut O {
        &mut self.observer
    }

    /// Solutions kept so far, in ascending order (taken out of the engine).
    pub fn take_solutions(&mut self) -> Vec<M::Solution> {
        self.solutions.take_sorted()
    }

    /// Node and solution counts, with per-rule and per-depth detail when `C` keeps it.
    pub fn stats(&self) -> Stats {
        self.counters.stats(self.nodes, self.solution_count)
    }

    /// Consumes the engine, returning its steering and observer.
    pub fn into_hooks(self) -> (S, O) {
        (self.steering, self.observer)
    }
}

/// What a finished sequential search returns.
#[derive(Debug, Clone)]
pub struct SearchResult<Solution> {
    /// The counts.
    pub stats: Stats,
    /// The solutions kept, in ascending order.
    pub solutions: Vec<Solution>,
    /// Why it ended early, if it did.
    pub stop: Option<StopReason>,
}

/// Searches `model` on this thread with counters `C`, no steering and no observer.
pub fn search_sequentially<M: Model, C: RuleCounter>(model: M, limits: Limits) -> SearchResult<M::Solution> {
    let mut engine: Engine<M, C, super::NoSteering, super::NoObserver> =
        Engine::new(model, super::NoSteering, super::NoObserver, limits);
    engine.run();
    SearchResult { stats: engine.stats(), solutions: engine.take_solutions(), stop: engine.stop_reason() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{FullCounters, NoObserver, NoSteering};

    /// Subsets of {1..=n} (chosen in increasing order) whose sum is `target`; the rule
    /// "over" rejects a partial sum above the target.
    #[derive(Clone)]
    struct SubsetSum {
        n: u32,
        target: u32,
        chosen: Vec<u32>,
        sum: u32,
    }

    impl Model for SubsetSum {
        type Move = u32;
        type Solution = Vec<u32>;
        fn rule_names(&self) -> &[&'static str] {
            &["over"]
        }
        fn max_depth(&self) -> usize {
            self.n as usize
        }
        fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<u32>, _c: &mut C) -> Branch {
            if self.sum == self.target {
                return Branch::Solution;
            }
            let from = self.chosen.last().map_or(1, |last| last + 1);
            moves.extend(from..=self.n);
            Branch::Moves
        }
        fn apply<C: RuleCounter>(&mut self, mv: u32, counters: &mut C) -> Result<(), usize> {
            self.chosen.push(mv);
            self.sum += mv;
            counters.check(0);
            if self.sum > self.target {
                Err(0)
            } else {
                Ok(())
            }
        }
        fn undo(&mut self, mv: u32) {
            self.chosen.pop();
            self.sum -= mv;
        }
        fn solution(&self) -> Vec<u32> {
            self.chosen.clone()
        }
    }

    fn model() -> SubsetSum {
        SubsetSum { n: 10, target: 15, chosen: Vec::new(), sum: 0 }
    }

    fn engine(limits: Limits) -> Engine<SubsetSum, FullCounters, NoSteering, NoObserver> {
        Engine::new(model(), NoSteering, NoObserver, limits)
    }

    #[test]
    fn subset_sum_of_ten_to_fifteen_has_twenty_solutions() {
        let mut search = engine(Limits::exhaustive());
        search.run();
        let stats = search.stats();
        assert_eq!(stats.solutions, 20);
        assert_eq!(search.take_solutions().len(), 20);
        assert_eq!(stats.nodes, stats.nodes_per_depth.iter().sum::<u64>());
        assert_eq!(stats.rule_checks[0], stats.nodes - 1, "every non-root node checks the rule once");
    }

    #[test]
    fn frontier_subproblems_add_up_to_the_sequential_counts() {
        let mut whole = engine(Limits::exhaustive());
        whole.run();
        let mut expected = whole.take_solutions();
        expected.sort();
        for depth in 0..5 {
            let mut splitter = engine(Limits::exhaustive());
            let frontier = splitter.enumerate_frontier(depth);
            let mut found = splitter.take_solutions();
            let mut stats = splitter.stats();
            for subproblem in &frontier {
                let mut worker = engine(Limits::exhaustive());
                worker.run_subproblem(subproblem);
                found.extend(worker.take_solutions());
                stats.merge(&worker.stats());
            }
            found.sort();
            assert_eq!(found, expected, "depth {depth}");
            assert_eq!(stats.nodes, whole.stats().nodes, "depth {depth}");
            assert_eq!(stats.rule_prunes, whole.stats().rule_prunes, "depth {depth}");
        }
    }

    #[test]
    fn first_solution_and_node_limit_stop_early() {
        let mut first = engine(Limits::first_solution());
        first.run();
        assert_eq!(first.stop_reason(), Some(StopReason::FirstSolution));
        assert_eq!(first.take_solutions(), vec![vec![1, 2, 3, 4, 5]]);
        let mut limited = engine(Limits { node_limit: 7, ..Limits::exhaustive() });
        limited.run();
        assert_eq!(limited.stop_reason(), Some(StopReason::NodeLimit));
        assert_eq!(limited.nodes(), 7);
    }

    #[test]
    fn clone_state_gives_the_same_counts_as_undo() {
        let mut undo = engine(Limits::exhaustive());
        undo.run();
        let mut cloned = engine(Limits { clone_state: true, ..Limits::exhaustive() });
        cloned.run();
        assert_eq!(undo.stats(), cloned.stats());
    }
}
