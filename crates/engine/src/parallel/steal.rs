//! `steal` (and the pool `budget` shares): one long-lived worker per pool thread, each with
//! its own task queue (crossbeam-deque). A worker that runs dry steals the oldest task of
//! another queue, and only when none has one announces that it is hungry; a busy worker
//! whose queue is empty answers by moving its shallowest open branches into its queue
//! (stack stealing, as in YewPar). The run ends when every task made has finished, or when
//! it is stopped: a model's panic stops it, since the task that panicked never finishes
//! (see `README.md`).

use super::accounting::RunClock;
use super::assemble::{assemble, RunParts};
use super::collect::Collector;
use super::control::{remaining_budget, Control};
use super::model_panic::ModelPanic;
use super::outcome::ParallelOutcome;
use super::pool::Pool;
use super::steering::{Splitting, Task};
use super::strategy::Strategy;
use super::tally::Tally;
use super::worker::{seats, Flow, Seat, Slot as WorkerSlot, Worker};
use crate::search::{Limits, Model, RuleCounter};
use crossbeam_deque::{Injector, Steal, Stealer, Worker as TaskQueue};
use crossbeam_utils::Backoff;
use std::time::{Duration, Instant};

/// How long a worker that has found nothing for a while sleeps between two looks.
const IDLE_SLEEP: Duration = Duration::from_micros(50);

/// How long a hungry worker only yields between looks before it starts to sleep.
const YIELD_BEFORE_SLEEPING: Duration = Duration::from_millis(1);

/// How the workers of a queue pool split their trees.
#[derive(Debug, Clone, Copy)]
pub(crate) enum SplitRule {
    /// When another worker is hungry (`steal`).
    WhenHungry,
    /// Every this many nodes (`budget`).
    Budget(u64),
}

/// One worker's life on its pool thread, with the tasks it stole from each victim.
struct StealingWorker<'run, M: Model, C: RuleCounter, T: Tally, K: Collector<M>> {
    seat: Seat<'run, M, C, T, K>,
    thefts: Vec<u64>,
}

/// Runs the whole tree, from the root task, on a pool of queue-owning workers, with
/// clones of `collector` merged into the one returned; or the first panic of the model,
/// once every worker has stopped.
pub(crate) fn search<M, C, T, K>(
    model: M,
    limits: Limits,
    pool: &Pool,
    strategy: Strategy,
    rule: SplitRule,
    tally_for: impl Fn(usize) -> T,
    collector: &K,
) -> Result<(ParallelOutcome<M::Solution>, K), ModelPanic>
where
    M: Model,
    C: RuleCounter + Send,
    T: Tally,
    K: Collector<M>,
{
    let threads = pool.threads();
    let clock = RunClock::start();
    let control = Control::new(clock.start, remaining_budget(limits.node_limit, 0), 1);
    let injector: Injector<Task<M::Move>> = Injector::new();
    injector.push(Vec::new());
    let queues: Vec<TaskQueue<Task<M::Move>>> = (0..threads).map(|_| TaskQueue::new_lifo()).collect();
    let stealers: Vec<Stealer<Task<M::Move>>> = queues.iter().map(TaskQueue::stealer).collect();
    let mut queues = queues.into_iter();
    let splitting_for = |_| {
        let queue = queues.next().expect("one queue per worker");
        match rule {
            SplitRule::WhenHungry => Splitting::WhenHungry { queue, retry_at: 0 },
            SplitRule::Budget(interval) => Splitting::Budget { queue, interval, next_at: interval },
        }
    };
    let slots: Vec<WorkerSlot<StealingWorker<'_, M, C, T, K>>> =
        seats(threads, &model, &limits, &control, clock.start, tally_for, splitting_for, collector)
            .into_iter()
            .map(|seat| WorkerSlot::new(StealingWorker { seat, thefts: vec![0; threads] }))
            .collect();
    let announce_hunger = matches!(rule, SplitRule::WhenHungry);
    pool.release();
    pool.run_seats(|me| {
        control.guard(|| {
            // Each seat is run once, by one thread: the lock is never contended.
            let mut slot = slots[me].lock();
            let StealingWorker { seat, thefts } = &mut *slot;
            let worker = seat.worker();
            let thief = Thief { me, stealers: &stealers, injector: &injector, control: &control };
            work(worker, &thief, thefts, announce_hunger);
        })
    });
    let (end, wall, cpu) = clock.stop();
    if let Some(panic) = control.take_panic() {
        return Err(panic);
    }
    let mut given_away = vec![0; threads];
    let mut workers = Vec::with_capacity(threads);
    for slot in slots {
        let StealingWorker { seat, thefts } = slot.into_inner();
        let mut output = seat.finish(end);
        output.report.tasks_stolen = thefts.iter().sum();
        for (victim, count) in thefts.iter().enumerate() {
            given_away[victim] += count;
        }
        workers.push(output);
    }
    for (output, given) in workers.iter_mut().zip(given_away) {
        output.report.tasks_given_away = given;
    }
    let subproblems = 1 + workers.iter().map(|output| output.report.tasks_split_off).sum::<u64>();
    let parts = RunParts {
        strategy,
        threads,
        started: clock.start,
        wall,
        cpu,
        frontier: None,
        subproblems,
        stop: control.stop_reason(),
        collected_solutions: Vec::new(),
    };
    Ok(assemble::<M, K>(workers, parts, limits.solutions_to_keep, collector.clone()))
}

/// A worker's loop: its own queue first (newest task first), then other queues.
fn work<M: Model, C: RuleCounter, T: Tally, K: Collector<M>>(
    worker: &mut Worker<'_, M, C, T, K>,
    thief: &Thief<'_, M::Move>,
    thefts: &mut [u64],
    announce_hunger: bool,
) {
    loop {
        if thief.control.stopped() {
            break;
        }
        let own = worker.engine.steering_mut().queue().and_then(TaskQueue::pop);
        let Some(task) = own.or_else(|| thief.find_work(thefts, announce_hunger)) else {
            break;
        };
        let flow = worker.run_task(&task);
        thief.control.task_finished();
        if flow == Flow::Stop {
            break;
        }
    }
    worker.mark_idle_until_now();
}

/// What a worker needs to take tasks from the others.
struct Thief<'run, Mv> {
    me: usize,
    stealers: &'run [Stealer<Task<Mv>>],
    injector: &'run Injector<Task<Mv>>,
    control: &'run Control,
}

impl<Mv> Thief<'_, Mv> {
    /// Looks for a task until it finds one, the run stops, or every task has finished.
    fn find_work(&self, thefts: &mut [u64], announce_hunger: bool) -> Option<Task<Mv>> {
        // A task already waiting in a queue is taken without a word. Announcing hunger
        // first wrote the signal word twice per steal, and every busy worker then paid a
        // cache miss at its next node and, with an empty queue, split: on a 16-CPU virtual
        // machine, hooks enumeration with 16 threads made 16,670 steals and its nodes cost
        // 2.1 times what they cost at 1 thread (docs/scaling.md).
        if let Some(task) = self.steal_once(thefts) {
            return Some(task);
        }
        if announce_hunger {
            self.control.become_hungry();
        }
        let backoff = Backoff::new();
        let hungry_since = Instant::now();
        let found = loop {
            if self.control.stopped() {
                break None;
            }
            if let Some(task) = self.steal_once(thefts) {
                break Some(task);
            }
            if self.control.all_tasks_finished() {
                break None;
            }
            if !backoff.is_completed() {
                backoff.snooze();
            } else if hungry_since.elapsed() < YIELD_BEFORE_SLEEPING {
                // A split-off branch waits in the owner's queue only until the owner's
                // current task ends (tens of µs on small trees): a thief that slept through
                // it finds the queue empty again.
                std::thread::yield_now();
            } else {
                std::thread::sleep(IDLE_SLEEP);
            }
        };
        if announce_hunger {
            self.control.stop_being_hungry();
        }
        found
    }

    /// One round over the root queue and the other workers' queues, nearest first.
    fn steal_once(&self, thefts: &mut [u64]) -> Option<Task<Mv>> {
        loop {
            let mut contended = false;
            match self.injector.steal() {
                Steal::Success(task) => return Some(task),
                Steal::Retry => contended = true,
                Steal::Empty => {}
            }
            let workers = self.stealers.len();
            for offset in 1..workers {
                let victim = (self.me + offset) % workers;
                match self.stealers[victim].steal() {
                    Steal::Success(task) => {
                        thefts[victim] += 1;
                        return Some(task);
                    }
                    Steal::Retry => contended = true,
                    Steal::Empty => {}
                }
            }
            if !contended {
                return None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thief_takes_a_queued_task_without_a_word_and_announces_hunger_only_when_there_is_none() {
        let control = Control::new(Instant::now(), u64::MAX, 1);
        let injector: Injector<Task<u8>> = Injector::new();
        let own = TaskQueue::<Task<u8>>::new_lifo();
        let victim = TaskQueue::<Task<u8>>::new_lifo();
        victim.push(vec![3, 1]);
        let stealers = [own.stealer(), victim.stealer()];
        let thief = Thief { me: 0, stealers: &stealers, injector: &injector, control: &control };
        let mut thefts = vec![0; 2];
        assert_eq!(thief.find_work(&mut thefts, true), Some(vec![3, 1]));
        assert_eq!(thefts, [0, 1]);
        assert_eq!(control.hunger_announcements(), 0, "a task was waiting: the busy workers are not asked to split");
        // Nothing queued and the last task finished: one announcement, then the run is over.
        control.task_finished();
        assert_eq!(thief.find_work(&mut thefts, true), None);
        assert_eq!(control.hunger_announcements(), 1);
        assert_eq!(control.signal(), 0, "a thief that gives up is no longer hungry");
    }
}
