//! `depth:D` and `auto`: the calling thread lists the open subproblems at one depth (and
//! counts the nodes above it), then every subproblem becomes one rayon task, searched by
//! plain depth-first search on the state of whichever pool thread runs it.
//!
//! A listing keeps at most [`MAX_SUBPROBLEMS`] subproblems, fewer for deep ones
//! ([`listing_cap`]: their paths hold at most `MAX_LISTED_MOVES` moves in all), so its memory
//! is bounded whatever the depth asked for: `depth:D` with more subproblems than that stops with
//! [`StopReason::FrontierFull`]; `auto` aims for at most that many and, when a depth
//! overflows, keeps the largest listing that fitted.

use super::accounting::RunClock;
use super::assemble::{assemble, FrontierPart, RunParts};
use super::collect::{Collecting, Collector};
use super::control::{remaining_budget, Control};
use super::model_panic::{self, ModelPanic};
use super::outcome::ParallelOutcome;
use super::pool::Pool;
use super::steering::Splitting;
use super::strategy::{listing_cap, Strategy, MAX_SUBPROBLEMS};
use super::tally::Tally;
use super::worker::{seats, Seat, Slot};
use crate::search::{Engine, Limits, Model, MovesDoNotReplay, NoSteering, RuleCounter, StopReason};

/// How the frontier depth is chosen.
#[derive(Debug, Clone, Copy)]
pub(crate) enum DepthChoice {
    /// This depth.
    Fixed(usize),
    /// The shallowest depth with at least this many subproblems in all.
    AtLeast(usize),
}

/// The frontier and what listing it counted and collected.
pub(crate) struct Listing<M: Model, K> {
    pub(crate) part: FrontierPart<M::Solution>,
    pub(crate) frontier: Vec<Vec<M::Move>>,
    /// The solutions above the frontier, as the listing's own clone of the collector saw them.
    pub(crate) collector: K,
    /// The listing's own incumbent (a fork of the run's), raised by the solutions above
    /// the frontier: a trial listing that is thrown away must not leave the run an
    /// incumbent whose solution it dropped, so only the kept listing's is absorbed.
    pub(crate) incumbent: Option<std::sync::Arc<crate::search::Incumbent>>,
}

impl<M: Model, K> Listing<M, K> {
    /// Raises `shared` (the run's incumbent, when it has one) to what the kept listing
    /// found above the frontier.
    pub(crate) fn share_incumbent(&self, shared: Option<&std::sync::Arc<crate::search::Incumbent>>) {
        if let (Some(shared), Some(listed)) = (shared, &self.incumbent) {
            shared.absorb(listed);
        }
    }
}

/// Lists the subproblems at `depth` with a plain engine on this thread, at most
/// [`listing_cap`] of them (past that the listing stops with
/// [`StopReason::FrontierFull`]), with a clone of `collector`; a panic in the model is
/// returned, at the node where it happened.
pub(crate) fn list<M: Model, C: RuleCounter, K: Collector<M>>(
    model: &M,
    limits: &Limits,
    depth: usize,
    collector: &K,
) -> Result<Listing<M, K>, ModelPanic> {
    let limits = limits.with_forked_incumbent();
    let incumbent = limits.incumbent.clone();
    let mut engine: Engine<M, C, NoSteering, Collecting<K>> =
        model_panic::catch(|| Engine::new(model.clone(), NoSteering, Collecting(collector.clone()), limits))?;
    let frontier = model_panic::catch(|| engine.enumerate_frontier_capped(depth, listing_cap(depth)))
        .map_err(|panic| panic.at_path(engine.path()))?;
    let part = FrontierPart {
        depth,
        stats: engine.stats(),
        solutions: engine.take_solutions(),
        stop: engine.stop_reason(),
        probe_nodes: 0,
    };
    let (_, Collecting(collector)) = engine.into_hooks();
    Ok(Listing { part, frontier, collector, incumbent })
}

/// How many levels below its widest level `auto` lists a frontier that does not widen.
const FLAT_LEVELS: usize = 16;

/// Lists the frontier the way `choice` says. For a target count (at most
/// [`MAX_SUBPROBLEMS`]), tries depths 1, 2, ... and keeps the first listing that reaches
/// it (or that stopped). Once the frontier narrows (fewer subproblems than the widest
/// level so far, or none: the tree ended above it), or has not widened for [`FLAT_LEVELS`]
/// levels below its widest, deeper levels are not tried and the
/// widest listing is kept: before, a tree with no level wide enough was listed down to its
/// leaves, and the calling thread searched it alone, over and over (hooks7 at 64 threads:
/// 1.9 M probe nodes for a 32,527-node tree, no subproblem). A listing that overflowed the
/// cap is dropped for the largest one before it, when there is one. Nodes of the listings
/// not kept are reported as probe nodes (and what their collectors saw is dropped).
pub(crate) fn choose<M: Model, C: RuleCounter, K: Collector<M>>(
    model: &M,
    limits: &Limits,
    choice: DepthChoice,
    collector: &K,
) -> Result<Listing<M, K>, ModelPanic> {
    let wanted = match choice {
        DepthChoice::Fixed(depth) => return list::<M, C, K>(model, limits, depth, collector),
        DepthChoice::AtLeast(wanted) => wanted.min(MAX_SUBPROBLEMS),
    };
    let mut probe_nodes = 0;
    let mut best: Option<Listing<M, K>> = None;
    let mut above: Option<ListedAbove> = None;
    for depth in 1..=model.max_depth().max(1) {
        let listing = list::<M, C, K>(model, limits, depth, collector)?;
        above = Some(ListedAbove::check(above, &listing, model)?);
        if listing.part.stop == Some(StopReason::FrontierFull) && best.is_some() {
            probe_nodes += listing.part.stats.nodes;
            break;
        }
        let narrowing =
            best.as_ref().is_some_and(|best| !best.frontier.is_empty() && listing.frontier.len() < best.frontier.len());
        // A level no wider than the widest for `FLAT_LEVELS` levels below it: a path with
        // few branches (a chain 50,000 deep was listed to its end, level after level, each
        // listing as deep as its level: quadratic work, and a recursion as deep as the tree
        // on the calling thread).
        let flat = best.as_ref().is_some_and(|best| depth >= best.part.depth + FLAT_LEVELS);
        if narrowing || flat {
            probe_nodes += listing.part.stats.nodes;
            break;
        }
        let enough = listing.frontier.len() >= wanted || listing.frontier.is_empty() || listing.part.stop.is_some();
        let better = best.as_ref().is_none_or(|best| listing.frontier.len() > best.frontier.len());
        if enough || better {
            if let Some(replaced) = best.replace(listing) {
                probe_nodes += replaced.part.stats.nodes;
            }
        } else {
            probe_nodes += listing.part.stats.nodes;
        }
        if enough {
            break;
        }
    }
    let mut listing = match best {
        Some(listing) => listing,
        None => list::<M, C, K>(model, limits, 1, collector)?,
    };
    listing.part.probe_nodes = probe_nodes;
    Ok(listing)
}

/// What one listing of a frontier saw above and at its depth, to check the next, deeper
/// listing of the same tree against: that one enters the first one's frontier and every
/// node above it, so it enters exactly `nodes + listed` nodes. A model whose branching
/// reads something besides the moves from the root (a global counter) lists another tree
/// each time; the subproblems of the listing kept would then be searched and counted as if
/// they were the whole tree, and the run would end normally with another tree's counts.
/// Compared only for complete listings of a search that cuts nothing by its bound (an
/// incumbent raised by the deeper listing's solutions cuts nodes the shallower one entered).
struct ListedAbove {
    depth: usize,
    nodes: u64,
    listed: u64,
    comparable: bool,
}

impl ListedAbove {
    /// `listing`'s record, after checking it against `previous`, the record of the listing
    /// one level shallower; a difference is the model's error, as a path that does not replay.
    fn check<M: Model, K>(
        previous: Option<ListedAbove>,
        listing: &Listing<M, K>,
        model: &M,
    ) -> Result<ListedAbove, ModelPanic> {
        let comparable = listing.part.stop.is_none() && !(M::OPTIMISES && model.objective().is_some());
        let here = ListedAbove {
            depth: listing.part.depth,
            nodes: listing.part.stats.nodes,
            listed: listing.frontier.len() as u64,
            comparable,
        };
        let Some(previous) = previous.filter(|previous| previous.comparable && comparable) else {
            return Ok(here);
        };
        let expected = previous.nodes + previous.listed;
        if here.nodes == expected {
            return Ok(here);
        }
        let nodes = |count: u64| format!("{count} node{}", if count == 1 { "" } else { "s" });
        let detail = format!(
            "two listings of the same tree differ: the listing to depth {} entered {}, where the listing to depth {} \
             entered {} above its depth and listed {} at it ({expected} in all)",
            here.depth,
            nodes(here.nodes),
            previous.depth,
            previous.nodes,
            previous.listed
        );
        Err(ModelPanic::moves_do_not_replay(MovesDoNotReplay { depth: previous.depth, detail }))
    }
}

/// Runs `depth:D` or `auto` with tallies made by `tally_for(worker)` and clones of
/// `collector`, merged into the one returned; or the first panic of the model, once every
/// task has ended (the tasks not started by then are skipped).
pub(crate) fn search<M, C, T, K>(
    model: M,
    limits: Limits,
    pool: &Pool,
    strategy: Strategy,
    choice: DepthChoice,
    tally_for: impl Fn(usize) -> T,
    collector: &K,
) -> Result<(ParallelOutcome<M::Solution>, K), ModelPanic>
where
    M: Model,
    C: RuleCounter + Send,
    T: Tally,
    K: Collector<M>,
{
    let clock = RunClock::start();
    let listing = choose::<M, C, K>(&model, &limits, choice, collector)?;
    listing.share_incumbent(limits.incumbent.as_ref());
    let Listing { part, frontier, collector: listed, .. } = listing;
    let node_budget = remaining_budget(limits.node_limit, part.stats.nodes);
    let control = Control::new(clock.start, node_budget, frontier.len());
    let subproblems = frontier.len() as u64;
    let listing_stopped = part.stop.is_some();
    let slots: Vec<Slot<Seat<'_, M, C, T, K>>> =
        seats(pool.threads(), &model, &limits, &control, clock.start, tally_for, |_| Splitting::Never, collector)
            .into_iter()
            .map(Slot::new)
            .collect();
    if !listing_stopped {
        let slots = &slots;
        let control = &control;
        pool.release();
        // FIFO: the subproblems start in the sequential order (rayon's plain `spawn` runs
        // a thread's own tasks newest first, which on one thread searched the last
        // subtree first). The counts of an enumeration do not depend on it; an
        // optimisation's do: a knapsack at 1 thread entered 88 M nodes for the
        // sequential 4 M, its best solutions in the first subtrees found last.
        pool.rayon().scope_fifo(|scope| {
            for task in frontier {
                scope.spawn_fifo(move |_| {
                    if control.stopped() {
                        return;
                    }
                    // Tasks never block inside rayon, so a pool thread runs one task at a
                    // time and its slot's lock is never contended.
                    let index = rayon::current_thread_index().unwrap_or(0) % slots.len();
                    control.guard(|| {
                        slots[index].lock().worker().run_task(&task);
                    });
                });
            }
        });
    }
    let (end, wall, cpu) = clock.stop();
    if let Some(panic) = control.take_panic() {
        return Err(panic);
    }
    let workers = slots.into_iter().map(|slot| slot.into_inner().finish(end)).collect();
    let parts = RunParts {
        strategy,
        threads: pool.threads(),
        started: clock.start,
        wall,
        cpu,
        frontier: Some(part),
        subproblems,
        stop: control.stop_reason(),
        collected_solutions: Vec::new(),
    };
    Ok(assemble::<M, K>(workers, parts, limits.solutions_to_keep, listed))
}
