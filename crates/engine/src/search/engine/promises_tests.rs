//! Tests of the bound promises: a bound that is not a bound, and moves declared in bound
//! order that are not, stop the search as the model's panic on every path (plain, general,
//! a listed frontier's subproblems); honest bounds find the brute-force optimum.

use super::*;
use crate::search::{FullCounters, NoObserver, NoSteering, Sense};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Items of these values, each taken or left in turn; the value of a full choice is the
/// sum of the items taken (the optimum takes them all: 21).
const VALUES: [i64; 4] = [5, 3, 8, 5];

/// How a [`Picks`] model breaks its bound promises.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lie {
    /// None: the value so far, the item if taken, and every later item.
    Honest,
    /// The later items are left out: solutions below beat the bound.
    TooLow,
    /// The item left before the item taken, from depth 2 on (below the split's frontier,
    /// so that a subproblem meets it): the second move's bound beats the first's.
    LeftFirst,
    /// Honest bounds, but `value_here` one above the solution's value.
    ValueHereHigh,
}

/// The take-or-leave tree of [`VALUES`], maximising the value taken; `ORDERED` declares
/// [`Model::MOVES_IN_BOUND_ORDER`].
#[derive(Clone)]
struct Picks<const ORDERED: bool> {
    lie: Lie,
    taken: Vec<bool>,
    value: i64,
}

impl<const ORDERED: bool> Model for Picks<ORDERED> {
    type Move = bool;
    type Solution = Vec<bool>;
    const REJECTS_BEFORE_CHANGING: bool = true;
    const OPTIMISES: bool = true;
    const MOVES_IN_BOUND_ORDER: bool = ORDERED;
    fn rule_names(&self) -> &[&'static str] {
        &["bound"]
    }
    fn max_depth(&self) -> usize {
        VALUES.len()
    }
    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<bool>, _c: &mut C) -> Branch {
        if self.taken.len() == VALUES.len() {
            return Branch::Solution;
        }
        let left_first = self.lie == Lie::LeftFirst && self.taken.len() >= 2;
        let order: &[bool] = if left_first { &[false, true] } else { &[true, false] };
        moves.extend_from_slice(order);
        Branch::Moves
    }
    fn apply<C: RuleCounter>(&mut self, take: bool, _c: &mut C) -> Result<(), usize> {
        self.value += i64::from(take) * VALUES[self.taken.len()];
        self.taken.push(take);
        Ok(())
    }
    fn undo(&mut self, take: bool) {
        self.taken.pop();
        self.value -= i64::from(take) * VALUES[self.taken.len()];
    }
    fn solution(&self) -> Vec<bool> {
        self.taken.clone()
    }
    fn objective(&self) -> Option<Objective> {
        Some(Objective { sense: Sense::Maximise, bound_rule: 0 })
    }
    fn solution_value(&self, taken: &Vec<bool>) -> i64 {
        taken.iter().zip(VALUES).filter(|(take, _)| **take).map(|(_, value)| value).sum()
    }
    fn value_here(&self) -> Option<i64> {
        (self.lie == Lie::ValueHereHigh).then_some(self.value + 1)
    }
    fn move_bound(&self, take: bool) -> i64 {
        let here = self.taken.len();
        let later: i64 = if self.lie == Lie::TooLow { 0 } else { VALUES[here + 1..].iter().sum() };
        self.value + i64::from(take) * VALUES[here] + later
    }
}

fn picks<const ORDERED: bool>(lie: Lie) -> Picks<ORDERED> {
    Picks { lie, taken: Vec::new(), value: 0 }
}

/// The panic message of a search of `model` under `limits`, split into subproblems at depth
/// `split` when one is given; `None` when it ends normally.
fn panic_of<M: Model>(model: M, limits: Limits, split: Option<usize>) -> Option<String> {
    let searched = catch_unwind(AssertUnwindSafe(|| {
        let mut engine: Engine<M, FullCounters, NoSteering, NoObserver> =
            Engine::new(model.clone(), NoSteering, NoObserver, limits.clone());
        let Some(depth) = split else {
            engine.run();
            return engine.best_value();
        };
        for subproblem in engine.enumerate_frontier(depth) {
            let mut worker: Engine<M, FullCounters, NoSteering, NoObserver> =
                Engine::new(model.clone(), NoSteering, NoObserver, limits.clone());
            worker.run_subproblem(&subproblem);
        }
        engine.best_value()
    }));
    searched.err().map(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|text| text.to_string()))
            .unwrap_or_default()
    })
}

/// The plain path, the general one (state cloned) and subproblems of a frontier at depth 2.
fn ways() -> Vec<(&'static str, Limits, Option<usize>)> {
    let cloned = Limits { clone_state: true, ..Limits::exhaustive() };
    vec![("plain", Limits::exhaustive(), None), ("general", cloned, None), ("split", Limits::exhaustive(), Some(2))]
}

#[test]
fn honest_bounds_find_the_optimum_on_every_path() {
    for (way, limits, split) in ways() {
        assert_eq!(panic_of(picks::<true>(Lie::Honest), limits.clone(), split), None, "{way}");
        assert_eq!(panic_of(picks::<false>(Lie::Honest), limits.clone(), split), None, "{way}");
        assert_eq!(panic_of(picks::<false>(Lie::LeftFirst), limits, split), None, "{way}: no order declared");
    }
    let mut engine: Engine<_, FullCounters, NoSteering, NoObserver> =
        Engine::new(picks::<true>(Lie::Honest), NoSteering, NoObserver, Limits::exhaustive());
    engine.run();
    assert_eq!(engine.best_value(), Some(VALUES.iter().sum()));
}

#[test]
fn a_bound_below_a_solution_under_it_is_named_on_every_path() {
    for (way, limits, split) in ways() {
        for message in [
            panic_of(picks::<false>(Lie::TooLow), limits.clone(), split),
            panic_of(picks::<true>(Lie::TooLow), limits.clone(), split),
        ] {
            let message = message.unwrap_or_else(|| panic!("{way}: a lying bound passed"));
            assert!(
                message.starts_with(
                    "the model's move_bound is not a bound: a solution of value 21 by solution_value lies below a move"
                ),
                "{way}: {message}"
            );
        }
    }
}

#[test]
fn a_value_here_above_the_bounds_is_named_beside_move_bound() {
    for (way, limits, split) in ways() {
        let message = panic_of(picks::<true>(Lie::ValueHereHigh), limits, split)
            .unwrap_or_else(|| panic!("{way}: a value_here past the bound passed"));
        let named = "the model's move_bound is not a bound (or value_here is not the value solution_value gives the \
                     solution): a solution of value 22 by value_here lies below a move";
        assert!(message.starts_with(named), "{way}: {message}");
    }
}

#[test]
fn moves_out_of_their_declared_bound_order_are_named_on_every_path() {
    for (way, limits, split) in ways() {
        let message = panic_of(picks::<true>(Lie::LeftFirst), limits, split)
            .unwrap_or_else(|| panic!("{way}: moves out of bound order passed"));
        assert!(
            message.starts_with("the model declares MOVES_IN_BOUND_ORDER but offered a move whose move_bound is"),
            "{way}: {message}"
        );
    }
}

#[test]
fn a_sequential_run_that_raised_its_shared_incumbent_still_names_the_node_of_a_broken_order() {
    // The plain loop keeps no path, so the run searches again to find the node; from the
    // incumbent the run left behind, the first cut would have cut the broken sibling unseen.
    let pool = crate::parallel::Pool::new(1).expect("a pool of one");
    let limits = Limits { incumbent: Some(crate::search::Incumbent::new()), ..Limits::exhaustive() };
    let plan = crate::parallel::ParallelPlan::default();
    let failed = crate::parallel::search::<_, FullCounters>(picks::<true>(Lie::LeftFirst), &plan, &pool, limits)
        .expect_err("moves out of their declared order");
    assert!(failed.message.starts_with("the model declares MOVES_IN_BOUND_ORDER"), "{failed}");
    assert_eq!(failed.path.as_deref(), Some("[true, true, false]"), "{failed}");
}
