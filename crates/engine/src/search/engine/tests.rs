//! Tests of the engine on a small subset-sum tree: counts, frontiers, limits, deadlines.

use super::*;
use crate::search::{FullCounters, NoCounters, NoObserver, NoSteering};

/// Subsets of {1..=n} (chosen in increasing order) whose sum is `target`; the rule
/// "over" rejects a partial sum above the target.
#[derive(Clone)]
pub(super) struct SubsetSum {
    pub(super) n: u32,
    pub(super) target: u32,
    pub(super) chosen: Vec<u32>,
    pub(super) sum: u32,
}

impl Model for SubsetSum {
    type Move = u32;
    type Solution = Vec<u32>;
    const REJECTS_BEFORE_CHANGING: bool = true;
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
        counters.check(0);
        if self.sum + mv > self.target {
            return Err(0);
        }
        self.chosen.push(mv);
        self.sum += mv;
        Ok(())
    }
    fn undo(&mut self, mv: u32) {
        self.chosen.pop();
        self.sum -= mv;
    }
    fn solution(&self) -> Vec<u32> {
        self.chosen.clone()
    }
}

/// The same tree with its moves yielded one by one: the cursor is the next number to try.
#[derive(Clone)]
struct LazySubsetSum(SubsetSum);

impl Model for LazySubsetSum {
    type Move = u32;
    type Solution = Vec<u32>;
    const REJECTS_BEFORE_CHANGING: bool = true;
    const LAZY_MOVES: bool = true;
    fn rule_names(&self) -> &[&'static str] {
        self.0.rule_names()
    }
    fn max_depth(&self) -> usize {
        self.0.max_depth()
    }
    fn open<C: RuleCounter>(&mut self, _c: &mut C) -> super::super::Opened {
        if self.0.sum == self.0.target {
            return super::super::Opened::Solution;
        }
        super::super::Opened::Moves(self.0.chosen.last().map_or(1, |last| u64::from(*last) + 1))
    }
    fn next_move(&self, cursor: &mut u64) -> Option<u32> {
        let mv = u32::try_from(*cursor).ok().filter(|&mv| mv <= self.0.n)?;
        *cursor += 1;
        Some(mv)
    }
    fn apply<C: RuleCounter>(&mut self, mv: u32, counters: &mut C) -> Result<(), usize> {
        self.0.apply(mv, counters)
    }
    fn undo(&mut self, mv: u32) {
        self.0.undo(mv);
    }
    fn solution(&self) -> Vec<u32> {
        self.0.solution()
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
fn default_limits_search_the_whole_tree_and_keep_every_solution() {
    // `..Limits::default()` in a literal must change only the fields it names.
    let mut search = engine(Limits::default());
    search.run();
    assert_eq!((search.stop_reason(), search.stats().solutions, search.take_solutions().len()), (None, 20, 20));
    let mut first = engine(Limits { first_solution: true, ..Limits::default() });
    first.run();
    assert_eq!(first.stop_reason(), Some(StopReason::FirstSolution));
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
fn a_passed_deadline_stops_at_the_first_look_at_the_clock() {
    let past = Some(Instant::now());
    // The subset-sum tree is smaller than one check interval: no look, no stop.
    let mut small = engine(Limits { deadline: past, ..Limits::exhaustive() });
    small.run();
    assert_eq!((small.stop_reason(), small.stats().solutions), (None, 20));
    let mut large = Engine::<_, FullCounters, NoSteering, NoObserver>::new(
        SubsetSum { n: 20, target: 100, chosen: Vec::new(), sum: 0 },
        NoSteering,
        NoObserver,
        Limits { deadline: past, ..Limits::exhaustive() },
    );
    large.run();
    assert_eq!(large.stop_reason(), Some(StopReason::TimeLimit));
    assert_eq!(large.nodes(), DEADLINE_CHECK_INTERVAL + 1);
    // With a node limit below the first look, the node limit stays exact.
    let mut limited = engine(Limits { node_limit: 7, deadline: past, ..Limits::exhaustive() });
    limited.run();
    assert_eq!((limited.stop_reason(), limited.nodes()), (Some(StopReason::NodeLimit), 7));
}

#[test]
fn a_capped_frontier_listing_stops_when_one_more_subproblem_is_found() {
    let mut whole = engine(Limits::exhaustive());
    let all = whole.enumerate_frontier(2);
    assert_eq!(whole.stop_reason(), None);
    let mut exact = engine(Limits::exhaustive());
    assert_eq!(exact.enumerate_frontier_capped(2, all.len()), all);
    assert_eq!(exact.stop_reason(), None);
    let mut capped = engine(Limits::exhaustive());
    assert_eq!(capped.enumerate_frontier_capped(2, all.len() - 1), all[..all.len() - 1]);
    assert_eq!(capped.stop_reason(), Some(StopReason::FrontierFull));
}

#[test]
fn clone_state_gives_the_same_counts_as_undo() {
    let mut undo = engine(Limits::exhaustive());
    undo.run();
    let mut cloned = engine(Limits { clone_state: true, ..Limits::exhaustive() });
    cloned.run();
    assert_eq!(undo.stats(), cloned.stats());
}

/// Runs `model` under `limits` with rule counts: stats, solutions and stop reason.
fn outcome<M: Model>(model: M, limits: Limits) -> (Stats, Vec<M::Solution>, Option<StopReason>) {
    let mut search = Engine::<_, FullCounters, NoSteering, NoObserver>::new(model, NoSteering, NoObserver, limits);
    search.run();
    (search.stats(), search.take_solutions(), search.stop_reason())
}

#[test]
fn a_model_that_yields_its_moves_one_by_one_searches_the_same_tree() {
    let lazy = || LazySubsetSum(model());
    // The default `branch` drains the cursor: the same moves in the same order.
    let (mut pushed, mut drained) = (Vec::new(), Vec::new());
    model().branch(&mut pushed, &mut NoCounters);
    lazy().branch(&mut drained, &mut NoCounters);
    assert_eq!(pushed, drained);
    let (whole, _, _) = outcome(model(), Limits::exhaustive());
    let past = Some(Instant::now());
    for limits in [
        Limits::exhaustive(),
        Limits::first_solution(),
        Limits { solutions_to_keep: 3, ..Limits::exhaustive() },
        Limits { clone_state: true, ..Limits::exhaustive() },
        Limits { deadline: past, ..Limits::exhaustive() },
    ]
    .into_iter()
    .chain((1..=whole.nodes + 1).map(|node_limit| Limits { node_limit, ..Limits::exhaustive() }))
    {
        let described = format!("{limits:?}");
        assert_eq!(outcome(lazy(), limits.clone()), outcome(model(), limits), "{described}");
    }
    let large = |n| SubsetSum { n, target: 100, chosen: Vec::new(), sum: 0 };
    for limits in
        [Limits { deadline: past, ..Limits::exhaustive() }, Limits { node_limit: 5000, ..Limits::exhaustive() }]
    {
        assert_eq!(outcome(LazySubsetSum(large(20)), limits.clone()), outcome(large(20), limits));
    }
    let without_counts = |limits| {
        let mut search = Engine::<_, NoCounters, NoSteering, NoObserver>::new(lazy(), NoSteering, NoObserver, limits);
        search.run();
        search.stats()
    };
    assert_eq!(without_counts(Limits::exhaustive()).nodes, whole.nodes);
    // A node limit never reached takes the inner loop that compares with the limit, no
    // limit at all the copy without the comparison: the same search either way.
    let unreached = Limits { node_limit: u64::MAX - 1, ..Limits::exhaustive() };
    assert_eq!(outcome(lazy(), unreached.clone()), outcome(lazy(), Limits::exhaustive()));
    assert_eq!(outcome(LazySubsetSum(large(20)), unreached), outcome(LazySubsetSum(large(20)), Limits::exhaustive()));
    // Frontier listings and subproblems go through the general path and `branch`.
    assert_eq!(split_at_depth_two(lazy), whole);
}

/// The stats of the listing of `model`'s frontier at depth 2 and of every subproblem on
/// it, each searched by an engine of its own, added up.
fn split_at_depth_two<M: Model>(model: impl Fn() -> M) -> Stats {
    let engine = || {
        Engine::<_, FullCounters, NoSteering, NoObserver>::new(model(), NoSteering, NoObserver, Limits::exhaustive())
    };
    let mut splitter = engine();
    let frontier = splitter.enumerate_frontier(2);
    let mut stats = splitter.stats();
    for subproblem in &frontier {
        let mut worker = engine();
        worker.run_subproblem(subproblem);
        stats.merge(&worker.stats());
    }
    stats
}

#[test]
#[should_panic(expected = "max_depth()")]
fn a_lazy_model_that_goes_deeper_than_its_max_depth_is_named() {
    #[derive(Clone)]
    struct TooShallow(LazySubsetSum);
    impl Model for TooShallow {
        type Move = u32;
        type Solution = Vec<u32>;
        const LAZY_MOVES: bool = true;
        fn rule_names(&self) -> &[&'static str] {
            self.0.rule_names()
        }
        fn max_depth(&self) -> usize {
            2
        }
        fn open<C: RuleCounter>(&mut self, c: &mut C) -> super::super::Opened {
            self.0.open(c)
        }
        fn next_move(&self, cursor: &mut u64) -> Option<u32> {
            self.0.next_move(cursor)
        }
        fn apply<C: RuleCounter>(&mut self, mv: u32, counters: &mut C) -> Result<(), usize> {
            self.0.apply(mv, counters)
        }
        fn undo(&mut self, mv: u32) {
            self.0.undo(mv);
        }
        fn solution(&self) -> Vec<u32> {
            self.0.solution()
        }
    }
    outcome(TooShallow(LazySubsetSum(model())), Limits::exhaustive());
}

/// The subset-sum tree with a second rule, tested after the first: no three consecutive
/// numbers. `IN_ORDER` declares [`Model::RULES_IN_ORDER`] and counts no check; otherwise
/// each check is counted as it is made.
#[derive(Clone)]
struct TwoRules<const IN_ORDER: bool>(LazySubsetSum);

impl<const IN_ORDER: bool> Model for TwoRules<IN_ORDER> {
    type Move = u32;
    type Solution = Vec<u32>;
    const REJECTS_BEFORE_CHANGING: bool = true;
    const LAZY_MOVES: bool = true;
    const RULES_IN_ORDER: bool = IN_ORDER;
    fn rule_names(&self) -> &[&'static str] {
        &["over", "three in a row"]
    }
    fn max_depth(&self) -> usize {
        self.0.max_depth()
    }
    fn open<C: RuleCounter>(&mut self, c: &mut C) -> super::super::Opened {
        self.0.open(c)
    }
    fn next_move(&self, cursor: &mut u64) -> Option<u32> {
        self.0.next_move(cursor)
    }
    fn apply<C: RuleCounter>(&mut self, mv: u32, counters: &mut C) -> Result<(), usize> {
        let state = &mut self.0 .0;
        if !IN_ORDER {
            counters.check(0);
        }
        if state.sum + mv > state.target {
            return Err(0);
        }
        if !IN_ORDER {
            counters.check(1);
        }
        if let [.., before_last, last] = state.chosen[..] {
            if before_last + 2 == mv && last + 1 == mv {
                return Err(1);
            }
        }
        state.chosen.push(mv);
        state.sum += mv;
        Ok(())
    }
    fn undo(&mut self, mv: u32) {
        self.0.undo(mv);
    }
    fn solution(&self) -> Vec<u32> {
        self.0.solution()
    }
}

#[test]
fn checks_derived_from_rules_tested_in_order_equal_the_counted_checks() {
    let two_rules = |n, target| LazySubsetSum(SubsetSum { n, target, chosen: Vec::new(), sum: 0 });
    let (whole, _, _) = outcome(TwoRules::<false>(two_rules(10, 15)), Limits::exhaustive());
    assert!(whole.rule_prunes.iter().all(|&prunes| prunes > 0), "both rules prune: {whole:?}");
    let past = Some(Instant::now());
    for limits in [Limits::exhaustive(), Limits::first_solution(), Limits { clone_state: true, ..Limits::exhaustive() }]
        .into_iter()
        .chain((1..=whole.nodes + 1).map(|node_limit| Limits { node_limit, ..Limits::exhaustive() }))
        // The general path (which `clone_state` takes) as well as the plain one.
        .chain((1..=whole.nodes + 1).map(|node_limit| Limits { node_limit, clone_state: true, ..Limits::exhaustive() }))
    {
        let described = format!("{limits:?}");
        let derived = outcome(TwoRules::<true>(two_rules(10, 15)), limits.clone());
        assert_eq!(derived.0.nodes, derived.0.nodes_per_depth.iter().sum::<u64>(), "{described}");
        assert_eq!(derived, outcome(TwoRules::<false>(two_rules(10, 15)), limits), "{described}");
    }
    // A deadline stops the search at a node it counts but does not apply.
    for limits in
        [Limits { deadline: past, ..Limits::exhaustive() }, Limits { node_limit: 5000, ..Limits::exhaustive() }]
    {
        let derived = outcome(TwoRules::<true>(two_rules(20, 100)), limits.clone());
        assert_eq!(derived, outcome(TwoRules::<false>(two_rules(20, 100)), limits));
    }
    // Workers' derived checks add up to the whole search's.
    assert_eq!(split_at_depth_two(|| TwoRules::<true>(two_rules(10, 15))), whole);
}

#[test]
#[should_panic(expected = "RULES_IN_ORDER")]
fn a_dead_end_named_by_a_model_whose_rules_are_tested_in_order_is_its_bug() {
    #[derive(Clone)]
    struct DeadEndInOrder(SubsetSum);
    impl Model for DeadEndInOrder {
        type Move = u32;
        type Solution = Vec<u32>;
        const RULES_IN_ORDER: bool = true;
        fn rule_names(&self) -> &[&'static str] {
            self.0.rule_names()
        }
        fn max_depth(&self) -> usize {
            self.0.max_depth()
        }
        fn branch<C: RuleCounter>(&mut self, _moves: &mut Vec<u32>, _c: &mut C) -> Branch {
            Branch::DeadEnd(0)
        }
        fn apply<C: RuleCounter>(&mut self, mv: u32, counters: &mut C) -> Result<(), usize> {
            self.0.apply(mv, counters)
        }
        fn undo(&mut self, mv: u32) {
            self.0.undo(mv);
        }
        fn solution(&self) -> Vec<u32> {
            self.0.solution()
        }
    }
    outcome(DeadEndInOrder(model()), Limits::exhaustive());
}

/// A binary tree `depth` levels deep whose leaves are neither solutions nor dead ends: they
/// offer moves, none of them (the empty `Moves` a model may give where nothing is left to
/// decide). Lazy or pushed as `LAZY` says.
#[derive(Clone)]
struct EmptyLeaves<const LAZY: bool> {
    depth: usize,
    placed: usize,
}

impl<const LAZY: bool> Model for EmptyLeaves<LAZY> {
    type Move = u8;
    type Solution = usize;
    const LAZY_MOVES: bool = LAZY;
    fn rule_names(&self) -> &[&'static str] {
        &[]
    }
    fn max_depth(&self) -> usize {
        self.depth
    }
    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<u8>, _c: &mut C) -> Branch {
        if self.placed < self.depth {
            moves.extend([0, 1]);
        }
        Branch::Moves
    }
    fn open<C: RuleCounter>(&mut self, _c: &mut C) -> super::super::Opened {
        super::super::Opened::Moves(if self.placed < self.depth { 2 } else { 0 })
    }
    fn next_move(&self, cursor: &mut u64) -> Option<u8> {
        *cursor = cursor.checked_sub(1)?;
        Some(*cursor as u8)
    }
    fn apply<C: RuleCounter>(&mut self, _mv: u8, _counters: &mut C) -> Result<(), usize> {
        self.placed += 1;
        Ok(())
    }
    fn undo(&mut self, _mv: u8) {
        self.placed -= 1;
    }
    fn solution(&self) -> usize {
        self.placed
    }
}

#[test]
fn leaves_at_the_maximum_depth_that_offer_no_moves_are_counted_at_their_depth() {
    // Before, the plain loops added the leaves' (empty) children's count one row past the
    // counters' last (depth `max_depth + 1`): a debug assertion, and an out-of-bounds write
    // without it.
    let expected = [1, 2, 4, 8];
    for limits in [Limits::exhaustive(), Limits { node_limit: 1_000, ..Limits::exhaustive() }] {
        for (stats, kind) in [
            (outcome(EmptyLeaves::<true> { depth: 3, placed: 0 }, limits.clone()).0, "lazy"),
            (outcome(EmptyLeaves::<false> { depth: 3, placed: 0 }, limits.clone()).0, "pushed"),
            (
                outcome(EmptyLeaves::<true> { depth: 3, placed: 0 }, Limits { clone_state: true, ..limits.clone() }).0,
                "general path",
            ),
        ] {
            assert_eq!(stats.nodes_per_depth, expected, "{kind}");
            assert_eq!((stats.nodes, stats.solutions), (15, 0), "{kind}");
        }
    }
}
