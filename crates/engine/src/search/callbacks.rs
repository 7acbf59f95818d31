//! The two ways in which code outside the engine takes part in a search: steering
//! (schedulers that stop it or take work from it) and observing (viewers that watch it).

use super::Model;

/// What a [`Steering`] tells the engine at a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SteeringAction {
    /// Go on.
    Continue,
    /// Stop the whole search now (a stop flag was raised, a deadline passed).
    Stop,
}

/// The candidate moves a search has not tried yet, level by level, which a scheduler may
/// take away and hand to another worker. Levels are indexed by the depth of the node whose
/// children they are; moves taken are never visited by this engine.
pub struct OpenBranches<'a, Mv> {
    pub(super) path: &'a [Mv],
    pub(super) candidates: &'a [Mv],
    pub(super) levels: &'a mut [Level],
}

/// The untried candidates of one node: `candidates[next..end]`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Level {
    pub(super) next: usize,
    pub(super) end: usize,
}

impl<Mv: Copy> OpenBranches<'_, Mv> {
    /// Depth of the current node.
    pub fn depth(&self) -> usize {
        self.path.len()
    }

    /// Gives away every untried candidate of the shallowest level that has any, each as a
    /// path of moves from the root passed to `give`; returns how many were given.
    pub fn split_shallowest(&mut self, mut give: impl FnMut(Vec<Mv>)) -> usize {
        let Some(depth) = self.levels.iter().position(|level| level.next < level.end) else {
            return 0;
        };
        let level = self.levels[depth];
        for &candidate in &self.candidates[level.next..level.end] {
            let mut subproblem = Vec::with_capacity(depth + 1);
            subproblem.extend_from_slice(&self.path[..depth]);
            subproblem.push(candidate);
            give(subproblem);
        }
        self.levels[depth].end = level.next;
        level.end - level.next
    }
}

/// A scheduler's hook, polled once at every node before the node's move is applied.
pub trait Steering<M: Model> {
    /// Whether this steering takes part at all; `false` lets the engine take its plain
    /// path, which keeps no open-branch bookkeeping (only [`NoSteering`] says so).
    const ACTIVE: bool = true;

    /// The cheap per-node poll, with the node count so far (this engine's): false lets the
    /// engine skip [`Steering::at_node`] at this node, and the building of its arguments.
    #[inline(always)]
    fn wants_node(&mut self, _nodes: u64) -> bool {
        true
    }

    /// Called with the node count so far (this engine's) and the open branches, at every
    /// node where [`Steering::wants_node`] returned true.
    #[inline(always)]
    fn at_node(&mut self, _nodes: u64, _open: &mut OpenBranches<'_, M::Move>) -> SteeringAction {
        SteeringAction::Continue
    }

    /// Called when the engine records a solution; `stops_search` names the reason when that
    /// solution ends the search (first-solution mode, or a decision run's target reached),
    /// so a scheduler can tell the other workers at once rather than after this engine has
    /// unwound.
    #[inline(always)]
    fn solution_found(&mut self, _stops_search: Option<super::StopReason>) {}
}

/// The steering of a plain sequential search: never stops, never splits.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoSteering;

impl<M: Model> Steering<M> for NoSteering {
    const ACTIVE: bool = false;

    #[inline(always)]
    fn wants_node(&mut self, _nodes: u64) -> bool {
        false
    }
}

/// One step of the search, as an [`Observer`] sees it. `depth` is the depth of the node
/// concerned, `mv` the move that leads to it, `rule` an index into the model's rule names.
#[derive(Debug, Clone, Copy)]
#[allow(missing_docs)]
pub enum Event<Mv> {
    /// A move was applied and accepted; the search is now at `depth`.
    Enter { depth: usize, mv: Mv },
    /// A move was applied and rule `rule` rejected it.
    Pruned { depth: usize, mv: Mv, rule: usize },
    /// The node at `depth` is a dead end named by `rule` (for example a failed leaf check).
    DeadEnd { depth: usize, rule: usize },
    /// The node at `depth` is a solution.
    Solution { depth: usize },
    /// The move leading to `depth` was undone.
    Undo { depth: usize, mv: Mv },
}

/// A viewer's hook; the engine calls it with the model state after each event.
pub trait Observer<M: Model> {
    /// Whether this observer wants events at all (lets the engine skip building them).
    const ACTIVE: bool = true;
    /// Whether it wants only [`Event::Solution`]: the engine then builds no other event and
    /// may take its plain path, which hands it the solutions (a collector of answers).
    const SOLUTIONS_ONLY: bool = false;
    /// Called after each event.
    fn observe(&mut self, event: Event<M::Move>, model: &M);
}

/// The observer of a search nobody watches.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoObserver;

impl<M: Model> Observer<M> for NoObserver {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn observe(&mut self, _event: Event<M::Move>, _model: &M) {}
}
