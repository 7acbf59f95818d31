//! The depth-first engine: do/undo recursion over a [`Model`], with counters and limits.

use super::callbacks::Level;
use super::keeper::SolutionKeeper;
use super::{
    Branch, Event, Incumbent, Model, Objective, Observer, OpenBranches, RuleCounter, Stats, Steering, SteeringAction,
    NO_SCORE,
};
use std::sync::Arc;
use std::time::Instant;

/// Nodes (or subproblems listed) between two looks at the clock when [`Limits::deadline`]
/// is set: a search stops at most this many nodes after its deadline.
pub const DEADLINE_CHECK_INTERVAL: u64 = 1024;

/// When a search stops before it has seen the whole tree; the default is
/// [`Limits::exhaustive`] (a literal's `..Limits::default()` changes only what it names).
#[derive(Debug, Clone)]
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
    /// Stop once this instant has passed (looked at every [`DEADLINE_CHECK_INTERVAL`]
    /// nodes, so the per-node cost is the node-limit comparison alone).
    pub deadline: Option<Instant>,
    /// The incumbent of an optimising model's search, shared by every engine made from
    /// (clones of) these limits: a parallel search's workers read one relaxed atomic per
    /// bound check. `None`: each engine keeps its own.
    pub incumbent: Option<Arc<Incumbent>>,
    /// For an optimising model: cut only children whose bound is *worse* than the
    /// incumbent, so that every optimal solution is reached (and kept, up to
    /// `solutions_to_keep`); otherwise children that cannot *beat* it are cut too.
    pub all_optima: bool,
    /// For an optimising model, the decision form: stop at the first solution whose value
    /// reaches this one (at least it when maximising, at most when minimising).
    pub target: Option<i64>,
}

// Not derived: a node limit of 0 and no solution kept would stop every search at its root.
impl Default for Limits {
    fn default() -> Limits {
        Limits::exhaustive()
    }
}

impl Limits {
    /// Exhaustive search, keeping every solution.
    pub fn exhaustive() -> Limits {
        Limits {
            first_solution: false,
            node_limit: u64::MAX,
            solutions_to_keep: usize::MAX,
            clone_state: false,
            deadline: None,
            incumbent: None,
            all_optima: false,
            target: None,
        }
    }

    /// These limits with an incumbent of their own when they share one (a fork at the
    /// same score): for a search whose solutions may be thrown away.
    pub fn with_forked_incumbent(&self) -> Limits {
        Limits { incumbent: self.incumbent.as_ref().map(|shared| shared.fork()), ..self.clone() }
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
    /// The [`Steering`] asked to stop (a shared stop flag).
    Steered,
    /// [`Limits::deadline`] passed.
    TimeLimit,
    /// A frontier listing reached its cap on subproblems (see
    /// [`Engine::enumerate_frontier_capped`]): the listing is incomplete.
    FrontierFull,
    /// A solution reached [`Limits::target`] (the decision form of an optimisation).
    TargetReached,
}

impl StopReason {
    /// The reason as reports write it.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::FirstSolution => "first-solution",
            StopReason::NodeLimit => "node-limit",
            StopReason::Steered => "steered",
            StopReason::TimeLimit => "time-limit",
            StopReason::FrontierFull => "frontier-full",
            StopReason::TargetReached => "target-reached",
        }
    }

    /// Whether a search that stopped for this reason left part of its tree unsearched
    /// (every reason but a first solution or a reached target, which is what the
    /// first-solution and decision searches ask for).
    pub fn cuts_search_short(self) -> bool {
        !matches!(self, StopReason::FirstSolution | StopReason::TargetReached)
    }
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
    /// What the last replayed path's nodes offered (see [`Engine::run_subproblem`]).
    replay: replay::ReplayMemory<M::Move>,
    /// The candidates of every open node on the path, one stretch per level.
    candidates: Vec<M::Move>,
    levels: Vec<Level>,
    /// Paths to nodes at `frontier_depth`, collected instead of visited (see
    /// [`Engine::enumerate_frontier`]); `usize::MAX` when not collecting.
    frontier_depth: usize,
    frontier: Vec<Vec<M::Move>>,
    /// The most subproblems a listing keeps before it stops with
    /// [`StopReason::FrontierFull`].
    frontier_cap: usize,
    /// The model's `max_depth()`, read once.
    max_depth: usize,
    nodes: u64,
    /// The node count past which [`Engine::enter_node`] looks at the limits: the node
    /// limit, or the next look at the clock when a deadline is set, whichever comes first.
    next_limit_check: u64,
    solution_count: u64,
    /// Nodes below the root counted but never applied (entered when a deadline stopped
    /// the search): the moves applied, from which the checks of a model whose rules are
    /// tested in order are derived, are the nodes below the root less these.
    unapplied: u64,
    solutions: SolutionKeeper<M::Solution>,
    stop: Option<StopReason>,
    /// The model's objective when it optimises (read once; always `None` for a model
    /// that does not declare [`Model::OPTIMISES`]).
    objective: Option<Objective>,
    /// The best score found by any engine sharing it.
    incumbent: Arc<Incumbent>,
    /// The score of the solutions this engine keeps (the best it has found).
    kept_score: i64,
    /// [`Limits::target`] as a score.
    target_score: Option<i64>,
    /// Set when a child was cut by the bound of a model whose moves come in bound order:
    /// its later siblings are cut with it.
    siblings_cut: bool,
    /// The memory of the plain lazy walk ([`Engine::walk_lazy`]).
    walk_space: lazy_walk::WalkSpace<M::Move>,
    /// What the bounds on the path promise (see [`promises`]).
    bound_trail: promises::BoundTrail,
}

impl<M: Model, C: RuleCounter, S: Steering<M>, O: Observer<M>> Engine<M, C, S, O> {
    /// An engine at the root of `model`.
    pub fn new(model: M, steering: S, observer: O, limits: Limits) -> Self {
        let max_depth = model.max_depth();
        let depth = max_depth + 1;
        let solutions_to_keep = limits.solutions_to_keep;
        let objective = if M::OPTIMISES { model.objective() } else { None };
        if objective.is_some() && M::RULES_IN_ORDER {
            panic!("a model with an objective cannot declare RULES_IN_ORDER: the bound's cuts are not rule checks in order");
        }
        let incumbent = limits.incumbent.clone().unwrap_or_else(Incumbent::new);
        let target_score = objective.zip(limits.target).map(|(objective, target)| objective.sense.score(target));
        Engine {
            counters: C::sized(model.rule_names().len(), model.max_depth()),
            model,
            steering,
            observer,
            path: Vec::with_capacity(depth),
            replay: replay::ReplayMemory::new(),
            candidates: Vec::with_capacity(depth * 8),
            levels: Vec::with_capacity(depth),
            frontier_depth: usize::MAX,
            frontier: Vec::new(),
            frontier_cap: usize::MAX,
            max_depth,
            nodes: 0,
            next_limit_check: Self::limit_check_after(&limits, 0),
            solution_count: 0,
            unapplied: 0,
            solutions: SolutionKeeper::new(solutions_to_keep),
            stop: None,
            objective,
            incumbent,
            kept_score: NO_SCORE,
            target_score,
            siblings_cut: false,
            walk_space: lazy_walk::WalkSpace::new(),
            bound_trail: promises::BoundTrail::OPEN,
            limits,
        }
    }

    /// The node count after `nodes` at which the limits are looked at next.
    fn limit_check_after(limits: &Limits, nodes: u64) -> u64 {
        match limits.deadline {
            Some(_) => limits.node_limit.min(nodes.saturating_add(DEADLINE_CHECK_INTERVAL)),
            None => limits.node_limit,
        }
    }

    /// Searches the whole tree from the root (the root counts as a node).
    pub fn run(&mut self) {
        if self.stop.is_some() {
            return;
        }
        self.bound_trail = promises::BoundTrail::OPEN;
        if !self.enter_node(0) {
            return;
        }
        self.expand();
    }

    /// Searches the subtree under `subproblem`, a path of moves from the root whose last
    /// move has not been visited yet: the prefix is replayed without counting (its nodes
    /// were counted by whoever made the subproblem), each move checked against the moves
    /// the model offers (a mismatch panics with [`MovesDoNotReplay`]), then the last move
    /// is visited as a normal child.
    pub fn run_subproblem(&mut self, subproblem: &[M::Move]) {
        let Some((&last, prefix)) = subproblem.split_last() else {
            self.run();
            return;
        };
        if self.stop.is_some() {
            return;
        }
        self.replay_checked(subproblem);
        self.bound_trail = promises::BoundTrail::OPEN;
        // Every node on the prefix, the parent of `last` included, has no open candidates
        // here: its other children belong to other subproblems.
        self.levels.resize(prefix.len() + 1, Level { next: 0, end: 0 });
        self.visit_child(last);
        // A subproblem has no siblings here: a bound cut of its root cuts nothing else.
        self.siblings_cut = false;
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
        self.enumerate_frontier_capped(depth, usize::MAX)
    }

    /// Like [`Engine::enumerate_frontier`], keeping at most `cap` subproblems: when one
    /// more is found, the walk stops with [`StopReason::FrontierFull`] and the listing is
    /// incomplete. This bounds the memory of a listing whose size is not known ahead.
    pub fn enumerate_frontier_capped(&mut self, depth: usize, cap: usize) -> Vec<Vec<M::Move>> {
        self.frontier_depth = depth;
        self.frontier_cap = cap;
        match (depth, cap) {
            (0, 0) => self.stop = Some(StopReason::FrontierFull),
            (0, _) => self.frontier.push(Vec::new()),
            _ => self.run(),
        }
        self.frontier_depth = usize::MAX;
        self.frontier_cap = usize::MAX;
        std::mem::take(&mut self.frontier)
    }

    /// Counts entry into a node at `depth`; false when the search must stop here.
    #[inline(always)]
    fn enter_node(&mut self, depth: usize) -> bool {
        self.nodes += 1;
        if self.nodes > self.next_limit_check && self.limit_reached() {
            // A node limit leaves this node uncounted; a deadline counts it, entered and
            // not applied.
            if self.stop == Some(StopReason::TimeLimit) {
                self.counters.node_at(depth);
            }
            return false;
        }
        self.counters.node_at(depth);
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

    /// Past the node limit, or past the deadline: stops (the node limit leaves this node
    /// uncounted, so a limit of N enters exactly N nodes; a deadline counts it, entered and
    /// never applied, and it is never the root: the first look comes after the root).
    /// Else schedules the next look.
    #[cold]
    fn limit_reached(&mut self) -> bool {
        if self.nodes > self.limits.node_limit {
            self.nodes -= 1;
            self.stop = Some(StopReason::NodeLimit);
            return true;
        }
        if self.limits.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            self.stop = Some(StopReason::TimeLimit);
            self.unapplied += 1;
            return true;
        }
        self.next_limit_check = Self::limit_check_after(&self.limits, self.nodes);
        false
    }

    /// Visits the child reached by `mv` from the current node.
    #[inline(always)]
    fn visit_child(&mut self, mv: M::Move) {
        let depth = self.path.len() + 1;
        if depth == self.frontier_depth {
            if M::OPTIMISES && self.bound_would_cut(mv) {
                // Cut here as the sequential search cuts it (a node and a prune, its later
                // siblings unentered), not handed out as a subproblem that is entered only
                // to be cut.
                if self.enter_node(depth) && self.bound_unless_cut(mv, depth).is_none() {
                    self.observe_bound_cut(mv, depth);
                    self.siblings_cut = M::MOVES_IN_BOUND_ORDER;
                }
                return;
            }
            if self.frontier.len() >= self.frontier_cap {
                self.stop = Some(StopReason::FrontierFull);
                return;
            }
            // Listed, not entered: the node count's look at the deadline never comes here.
            let due = (self.frontier.len() as u64).is_multiple_of(DEADLINE_CHECK_INTERVAL);
            if due && self.limits.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                self.stop = Some(StopReason::TimeLimit);
                return;
            }
            // Sized for the move past the path: a clone and a push allocated twice (the
            // push grew the clone), half of the instructions of the prime grid's `naive`
            // listing of 116,280 leaves (66.5 M, now 34.5 M).
            let mut subproblem = Vec::with_capacity(self.path.len() + 1);
            subproblem.extend_from_slice(&self.path);
            subproblem.push(mv);
            self.frontier.push(subproblem);
            return;
        }
        if !self.enter_node(depth) {
            return;
        }
        let Some(bound) = self.bound_unless_cut(mv, depth) else {
            self.observe_bound_cut(mv, depth);
            self.siblings_cut = M::MOVES_IN_BOUND_ORDER;
            return;
        };
        let trail = self.descend_bound_trail(bound);
        if self.limits.clone_state {
            let saved = self.model.clone();
            self.visit_applied(mv, depth);
            self.model = saved;
        } else if self.visit_applied(mv, depth) || !M::REJECTS_BEFORE_CHANGING {
            self.model.undo(mv);
        }
        self.climb_bound_trail(trail);
        if O::ACTIVE && !O::SOLUTIONS_ONLY {
            self.observer.observe(Event::Undo { depth, mv }, &self.model);
        }
    }

    /// Applies `mv` and searches below it; true when the move was accepted. The caller
    /// undoes it, and a rejected one too unless the model rejects before changing anything.
    #[inline(always)]
    fn visit_applied(&mut self, mv: M::Move, depth: usize) -> bool {
        if let Err(rule) = self.model.apply(mv, &mut self.counters) {
            self.counters.prune(rule, depth);
            if O::ACTIVE && !O::SOLUTIONS_ONLY {
                self.observer.observe(Event::Pruned { depth, mv, rule }, &self.model);
            }
            return false;
        }
        if O::ACTIVE && !O::SOLUTIONS_ONLY {
            self.observer.observe(Event::Enter { depth, mv }, &self.model);
        }
        self.path.push(mv);
        self.expand();
        self.path.pop();
        true
    }

    /// Asks the model what to do at the current node and visits its children in order.
    fn expand(&mut self) {
        let depth = self.path.len();
        if M::OPTIMISES && self.objective.is_some() && !self.keeps_path() {
            self.expand_bounded_node(depth);
            return;
        }
        // Nothing watches (beyond the solutions), steers or lists: the plain path, which keeps no
        // open-branch bookkeeping (the path and the levels only serve those three), nor, for a
        // model that yields its moves one by one, a candidate stack. Only a steering: the steered one.
        match (self.keeps_path(), self.takes_steered_path()) {
            (false, _) if M::LAZY_MOVES => return self.expand_lazy(depth),
            (false, _) => return self.expand_plain(depth),
            (true, true) => return self.expand_steered(depth),
            (true, false) => {}
        }
        let start = self.candidates.len();
        let Some(end) = self.branch_at(depth, start) else {
            return;
        };
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
            if M::MOVES_IN_BOUND_ORDER && std::mem::take(&mut self.siblings_cut) {
                // The later siblings' bounds are no better: cut with this one, unentered.
                break;
            }
        }
        self.levels.pop();
        self.candidates.truncate(start);
    }

    /// Asks the model about the node at `depth`, whose candidates go on the stack from
    /// `start`: the end of its stretch when it has children to try, `None` when it is a
    /// solution or a dead end (recorded here).
    #[inline(always)]
    fn branch_at(&mut self, depth: usize, start: usize) -> Option<usize> {
        match self.model.branch(&mut self.candidates, &mut self.counters) {
            Branch::Moves => {
                let end = self.candidates.len();
                if depth >= self.max_depth && end > start {
                    self.depth_exceeded(depth);
                }
                Some(end)
            }
            Branch::Solution => {
                self.candidates.truncate(start);
                self.record_solution(depth);
                None
            }
            Branch::DeadEnd(rule) => {
                self.candidates.truncate(start);
                self.dead_end(rule, depth);
                if O::ACTIVE && !O::SOLUTIONS_ONLY {
                    self.observer.observe(Event::DeadEnd { depth, rule }, &self.model);
                }
                None
            }
        }
    }

    #[cold]
    fn record_solution(&mut self, depth: usize) {
        if M::OPTIMISES && self.at_or_below_floor() {
            return; // Short of the target or a user's known value: no solution of this search.
        }
        self.solution_count += 1;
        if M::OPTIMISES && self.objective.is_some() {
            self.record_valued_solution();
        } else if self.solutions.wants_any() {
            self.solutions.offer_from(&self.model);
        }
        if O::ACTIVE {
            self.observer.observe(Event::Solution { depth }, &self.model);
        }
        let reached = self.target_score.is_some_and(|target| self.kept_score >= target);
        let stop = match (self.limits.first_solution, reached) {
            (true, _) => Some(StopReason::FirstSolution),
            (false, true) => Some(StopReason::TargetReached),
            (false, false) => None,
        };
        self.steering.solution_found(stop);
        if stop.is_some() {
            self.stop = stop;
        }
    }

    /// Whether the search keeps the path of moves from the root (see [`Engine::path`]): when
    /// something steers, watches beyond the solutions or lists the frontier, or the state is
    /// cloned. Otherwise it takes its plain path, which keeps none.
    #[inline(always)]
    pub fn keeps_path(&self) -> bool {
        S::ACTIVE || (O::ACTIVE && !O::SOLUTIONS_ONLY) || self.frontier_depth != usize::MAX || self.limits.clone_state
    }

    /// Nodes entered so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Why the search stopped early, if it did.
    pub fn stop_reason(&self) -> Option<StopReason> {
        self.stop
    }

    /// The moves from the root to the node being searched, kept when a steering, an
    /// observer of every event, a frontier listing or `clone_state` needs them (the plain
    /// loop keeps none). After a panic in the model, the node where it happened.
    pub fn path(&self) -> &[M::Move] {
        &self.path
    }

    /// The model (at the root state between runs).
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The steering, for schedulers that keep per-worker accounting in it.
    pub fn steering_mut(&mut self) -> &mut S {
        &mut self.steering
    }

    /// Solutions kept so far, in ascending order (taken out of the engine).
    pub fn take_solutions(&mut self) -> Vec<M::Solution> {
        self.solutions.take_sorted()
    }

    /// Node and solution counts, with per-rule and per-depth detail when `C` keeps it.
    pub fn stats(&self) -> Stats {
        let mut stats = self.counters.stats(self.nodes, self.solution_count);
        if M::RULES_IN_ORDER && C::ENABLED {
            stats.derive_checks_in_rule_order(self.unapplied);
        }
        stats
    }

    /// Consumes the engine, returning its steering and observer.
    pub fn into_hooks(self) -> (S, O) {
        (self.steering, self.observer)
    }

    /// Consumes the engine, returning its model, at its root after a run that returned (each
    /// undoes what it applied; not after a panic): a caller that makes an engine per
    /// subproblem hands one model on instead of copying the root's, every subproblem.
    pub fn into_model(self) -> M {
        self.model
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

mod bounded;
mod lazy_walk;
mod plain;
mod promises;
mod replay;
mod steered;

pub use replay::{position_from, MovesDoNotReplay, ReplayMemory};

#[cfg(test)]
mod promises_tests;
#[cfg(test)]
mod replay_tests;
#[cfg(test)]
mod steered_tests;
#[cfg(test)]
mod tests;
