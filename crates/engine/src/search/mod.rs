//! The depth-first search engine: a model trait, the engine that walks it, and the counters.
//!
//! This layer knows no puzzle, no thread and no file format. A puzzle enters only through
//! [`Model`]; a scheduler enters only through [`Steering`], which the engine polls once per
//! node; a viewer enters only through [`Observer`]. Both hooks default to types whose
//! methods are empty and inlined, so the plain sequential search pays nothing for them.

mod callbacks;
mod counters;
mod default_contract;
mod engine;
mod estimate;
mod keeper;
mod model;
mod objective;
mod stats;

pub use callbacks::{Event, NoObserver, NoSteering, Observer, OpenBranches, Steering, SteeringAction};
pub use counters::{FullCounters, NoCounters, RuleCounter, MAX_RULES};
pub use default_contract::{assert_same_as_default_contract, DefaultContract};
pub use engine::{
    position_from, search_sequentially, Engine, Limits, MovesDoNotReplay, ReplayMemory, SearchResult, StopReason,
    DEADLINE_CHECK_INTERVAL,
};
pub use estimate::{
    estimate_tree_size, estimate_tree_size_until, estimate_tree_size_with, EstimateMethod, ProbeRng, ProbesOutOfTime,
    TreeEstimate,
};
pub use model::{Branch, Model, MoveCursor, Opened, RuleId};
pub use objective::{keep_best, Incumbent, Objective, Sense, NO_SCORE};
pub use stats::Stats;
