//! Every solution of a search, seen once by the engine that found it: a [`Collector`] per
//! worker (and per frontier listing), merged when the run is over.
//!
//! The engine keeps only the smallest `solutions_to_keep` solutions; a run that wants a
//! summary of all of them (an answer over every solution, a file of every solution) gives
//! [`search_collecting`](super::search_collecting) a collector. Each engine gets its own
//! clone, so nothing is shared on the search path, and the clones are merged in a fixed
//! order at the end. It rides on the engine's observer hook, which sees only solutions
//! here: every other event compiles to nothing, and [`NoCollector`] compiles the hook away.

use crate::search::{Event, Model, Observer};

/// What a run does with each solution found, per engine; merged at the end.
pub trait Collector<M: Model>: Clone + Send {
    /// Whether it wants solutions at all: false lets the engines skip the hook entirely.
    const ACTIVE: bool = true;
    /// Called with the model at a solution, on the thread of the engine that found it.
    fn found(&mut self, model: &M);
    /// Adds what `other` (another engine's clone) collected into this one.
    fn absorb(&mut self, other: Self);

    /// Adds what each of `others` collected, as absorbing them one by one in order does
    /// (which the default does). A run merges its workers' collectors with this once their
    /// search is over, on one thread, before the next component starts; a collector that
    /// merges many at once in less time (sorted lists in one sort, say) overrides it.
    fn absorb_all(&mut self, others: Vec<Self>) {
        for other in others {
            self.absorb(other);
        }
    }
}

/// The collector of a run that wants nothing beyond the counts and the kept solutions.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoCollector;

impl<M: Model> Collector<M> for NoCollector {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn found(&mut self, _model: &M) {}
    #[inline(always)]
    fn absorb(&mut self, _other: Self) {}
}

/// The engine observer that hands each solution to a collector and ignores every other
/// event (after inlining, those calls are empty).
pub struct Collecting<K>(pub K);

impl<M: Model, K: Collector<M>> Observer<M> for Collecting<K> {
    const ACTIVE: bool = K::ACTIVE;
    const SOLUTIONS_ONLY: bool = true;

    #[inline(always)]
    fn observe(&mut self, event: Event<M::Move>, model: &M) {
        if let Event::Solution { .. } = event {
            self.0.found(model);
        }
    }
}
