//! The steered path against the general path: a steering that splits every few nodes and
//! stops at a given node sees the same splits, counts, solutions and stop either way.

use super::tests::SubsetSum;
use super::*;
use crate::search::{Event, FullCounters, NoObserver, Observer, OpenBranches, SteeringAction};

/// Gives away the shallowest open branches every `every` nodes; stops at node `stop_at`.
struct SplitEvery {
    every: u64,
    stop_at: u64,
    given: Vec<Vec<u32>>,
}

impl<M: Model<Move = u32>> Steering<M> for SplitEvery {
    fn wants_node(&mut self, nodes: u64) -> bool {
        nodes.is_multiple_of(self.every) || nodes >= self.stop_at
    }

    fn at_node(&mut self, nodes: u64, open: &mut OpenBranches<'_, u32>) -> SteeringAction {
        if nodes >= self.stop_at {
            return SteeringAction::Stop;
        }
        open.split_shallowest(|path| self.given.push(path));
        SteeringAction::Continue
    }
}

/// Watches every event and does nothing with them: the engine takes its general path.
struct EveryEvent;

impl<M: Model> Observer<M> for EveryEvent {
    fn observe(&mut self, _event: Event<M::Move>, _model: &M) {}
}

type Steered = (Stats, Vec<Vec<u32>>, Option<StopReason>, Vec<Vec<u32>>);

fn steered<M: Model<Move = u32, Solution = Vec<u32>>, O: Observer<M>>(
    model: M,
    observer: O,
    (every, stop_at): (u64, u64),
    limits: Limits,
) -> Steered {
    let steering = SplitEvery { every, stop_at, given: Vec::new() };
    let mut engine = Engine::<M, FullCounters, SplitEvery, O>::new(model, steering, observer, limits);
    assert_eq!(engine.takes_steered_path(), !O::ACTIVE, "the path under test is the one taken");
    engine.run();
    let (stats, solutions, stop) = (engine.stats(), engine.take_solutions(), engine.stop_reason());
    (stats, solutions, stop, engine.into_hooks().0.given)
}

#[test]
fn the_steered_path_splits_counts_and_stops_as_the_general_path() {
    let subset_sum = |n, target| SubsetSum { n, target, chosen: Vec::new(), sum: 0 };
    let mut splits = 0;
    for (n, target) in [(10, 15), (14, 30)] {
        for schedule in [(1, u64::MAX), (2, u64::MAX), (3, u64::MAX), (7, 40), (50, u64::MAX), (u64::MAX, 25)] {
            for limits in [
                Limits::exhaustive(),
                Limits::first_solution(),
                Limits { node_limit: 100, ..Limits::exhaustive() },
                Limits { solutions_to_keep: 2, ..Limits::exhaustive() },
            ] {
                let fast = steered(subset_sum(n, target), NoObserver, schedule, limits.clone());
                let general = steered(subset_sum(n, target), EveryEvent, schedule, limits.clone());
                assert_eq!(fast, general, "n {n}, target {target}, schedule {schedule:?}, {limits:?}");
                splits += fast.3.len();
            }
        }
    }
    assert!(splits > 100, "the steering gave branches away ({splits})");
}
