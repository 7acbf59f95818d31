//! The plain path of a model that yields its moves one by one, searched with no node limit
//! and no deadline: a loop over an explicit stack of open nodes instead of a recursion, in a
//! function that holds the model and the counters apart from the engine.
//!
//! Why a loop apart: in the recursion every placed move paid a call, the saving and
//! restoring of the callee's registers, and the reloading of the model's state that the call
//! might have changed. Here the model is a `&mut` argument that nothing else in the loop can
//! reach: no call in the loop can change it, and the stores of the walk's own counts cannot
//! either, so the compiler keeps the model's fields in registers while rejected moves go by
//! and reads them again only where the model itself wrote them (it writes every change
//! back: the state must be current when the loop leaves). Only a solution leaves it: the
//! engine records the solution (which reads the model) and the walk resumes where it
//! stood. Nothing in the loop may unwind, for the same reason: a model that goes deeper
//! than its `max_depth` leaves the loop, and the engine panics outside it. The steps and
//! what each gained: `results/cost-of-generality/steps.md`.

use super::Engine;
use crate::search::{Model, MoveCursor, Observer, Opened, RuleCounter, Steering, MAX_RULES};
use std::mem::MaybeUninit;

/// An open node below the walk's root: the cursor of its moves not tried yet, and the move
/// to its child on the path (undone when the child's subtree is done).
#[derive(Debug, Clone, Copy)]
struct Frame<Move> {
    cursor: MoveCursor,
    to_child: Move,
}

/// The walk's memory, one slot per depth, kept by the engine between walks so that a
/// worker's many subproblems allocate it once.
pub(super) struct WalkSpace<Move> {
    /// The open nodes from the walk's root to the parent of the current node, indexed by
    /// depth: `frames[d]` is written when the walk descends from depth `d` and read when it
    /// climbs back (so a descent is two stores, with no capacity test).
    frames: Vec<MaybeUninit<Frame<Move>>>,
    /// Nodes entered at each depth in this walk. Counted here, in memory only the walk
    /// reaches, and added to the counters once when it ends: a count kept per node of the
    /// path had to be added to the counters and zeroed at every descent and climb (about
    /// 30 instructions a placed move), and a count behind the counters' pointer, as the
    /// recursion found, makes the compiler reload the model's state after every prune.
    nodes_at: Vec<u64>,
    /// Prunes at each depth per rule in this walk (unused without rule counts), likewise.
    prunes_at: Vec<[u64; MAX_RULES]>,
}

impl<Move> WalkSpace<Move> {
    /// No memory yet: the first walk sizes it.
    pub(super) fn new() -> Self {
        WalkSpace { frames: Vec::new(), nodes_at: Vec::new(), prunes_at: Vec::new() }
    }
}

/// Where a walk stands between two solutions.
struct Walk<'space, Move> {
    space: &'space mut WalkSpace<Move>,
    /// The depth of the walk's root.
    root_depth: usize,
    /// The current node's depth, and its cursor.
    depth: usize,
    cursor: MoveCursor,
}

/// Why [`Engine::walk_to_solution`] returned.
enum WalkEnd<Move> {
    /// A child at this depth, reached by this move (applied: the caller records and undoes
    /// it), is a solution.
    Solution(usize, Move),
    /// The walk's root has no moves left; the model is back at the root's state.
    Done,
    /// A node at this depth, at least `max_depth`, offered children (the model's bug).
    DepthExceeded(usize),
}

impl<M: Model, C: RuleCounter, S: Steering<M>, O: Observer<M>> Engine<M, C, S, O> {
    /// Searches the subtree of the node at `depth` (entered and counted by the caller): the
    /// same nodes, counts, solutions and order as the recursion of [`Engine::expand_lazy`]
    /// makes with limits.
    pub(super) fn walk_lazy(&mut self, depth: usize) {
        let Some(cursor) = self.open_lazy(depth) else {
            return;
        };
        let mut space = std::mem::replace(&mut self.walk_space, WalkSpace::new());
        // Children are one deeper than their parent: depths up to `max_depth + 1`, the
        // last one's counts zero (a node at `max_depth` with children stopped the walk).
        space.frames.resize(self.max_depth + 1, MaybeUninit::uninit());
        space.nodes_at.resize(self.max_depth + 2, 0);
        space.prunes_at.resize(self.max_depth + 2, [0; MAX_RULES]);
        let mut walk = Walk { space: &mut space, root_depth: depth, depth, cursor };
        loop {
            let (leaf_depth, to_leaf) =
                match Self::walk_to_solution(&mut self.model, &mut self.counters, &mut walk, self.max_depth) {
                    WalkEnd::Solution(leaf_depth, to_leaf) => (leaf_depth, to_leaf),
                    WalkEnd::Done => break,
                    WalkEnd::DepthExceeded(depth) => self.depth_exceeded(depth),
                };
            self.record_solution(leaf_depth);
            self.model.undo(to_leaf);
            // Only a solution stops a search without limits (the first one, or one that
            // reaches the target): the walk's open nodes are closed as the recursion would.
            if self.stop.is_some() {
                for open in (walk.root_depth..walk.depth).rev() {
                    // SAFETY: the walk descended from every depth between its root and the
                    // current node, writing each one's frame.
                    self.model.undo(unsafe { walk.space.frames[open].assume_init() }.to_child);
                }
                break;
            }
        }
        // The walk's counts go to the counters, and its slots are zeroed for the next walk.
        for below in depth + 1..space.nodes_at.len() {
            let nodes = std::mem::take(&mut space.nodes_at[below]);
            let prunes = std::mem::replace(&mut space.prunes_at[below], [0; MAX_RULES]);
            self.nodes += nodes;
            // SAFETY: `below` is at most `max_depth + 1`; the counters have a row for it
            // (their spare row past `max_depth`).
            unsafe {
                self.counters.nodes_within(below, nodes);
                self.counters.add_prunes_within(below, &prunes);
            }
        }
        self.walk_space = space;
    }

    /// Walks on from where `walk` stands until a child is a solution, a node below
    /// `max_depth` offers children, or the walk's root has no moves left.
    #[inline(never)]
    fn walk_to_solution(
        model: &mut M,
        counters: &mut C,
        walk: &mut Walk<'_, M::Move>,
        max_depth: usize,
    ) -> WalkEnd<M::Move> {
        // The walk's place lives in locals for the loop (registers, where they fit), and is
        // written back when it leaves.
        let (mut depth, mut cursor, root_depth) = (walk.depth, walk.cursor, walk.root_depth);
        let WalkSpace { frames, nodes_at, prunes_at } = &mut *walk.space;
        debug_assert!(depth < frames.len() && frames.len() + 1 == nodes_at.len() && nodes_at.len() == prunes_at.len());
        // As slices, whose addresses stay in locals: through the vectors, a count stored
        // might have changed a vector's address, which was read again after every store.
        let (frames, nodes_at, prunes_at) = (frames.as_mut_slice(), nodes_at.as_mut_slice(), prunes_at.as_mut_slice());
        // The counts of the current node's children, at the depth below it.
        // SAFETY (here and at every depth change below): `depth + 1 <= max_depth + 1`, and
        // the counts have a slot for every depth up to `max_depth + 1`.
        let mut pruned = unsafe { slot(prunes_at, depth + 1) };
        // The children entered since the walk last came to the current node: a local (a
        // register), added to `nodes_at` when the walk leaves the node. Counted there
        // directly, the stores made the compiler reload the model's state at every node
        // with children (N-Queens n = 11 without rule counts: 38.7 M instructions against
        // 36.2 M); the prunes, counted at rejected nodes only, cost less there than their
        // addition at every descent and climb.
        let mut entered = 0;
        let found = loop {
            let Some((to_child, _)) =
                Self::next_accepted::<false>(model, counters, &mut cursor, &mut entered, u64::MAX, pruned)
            else {
                unsafe { *slot(nodes_at, depth + 1) += std::mem::take(&mut entered) };
                // The current node is done: the walk climbs back to its parent (or ends at
                // its root).
                if depth == root_depth {
                    break WalkEnd::Done;
                }
                depth -= 1;
                // SAFETY: the walk descended from `depth` (it is below the root's), writing
                // this frame; `frames` has a slot for every depth up to `max_depth`.
                let frame = unsafe { slot(frames, depth).assume_init() };
                model.undo(frame.to_child);
                cursor = frame.cursor;
                pruned = unsafe { slot(prunes_at, depth + 1) };
                continue;
            };
            let child_depth = depth + 1;
            match model.open(counters) {
                Opened::Moves(child_cursor) => {
                    if child_depth >= max_depth && model.next_move(&mut { child_cursor }).is_some() {
                        // The panic is the caller's: a call that may unwind inside the loop
                        // would make the compiler keep the model's state in memory current
                        // at every step, for whoever catches it.
                        unsafe { *slot(nodes_at, child_depth) += entered };
                        break WalkEnd::DepthExceeded(child_depth);
                    }
                    // SAFETY: `depth < child_depth <= max_depth`, and `frames` has a slot for
                    // every depth up to `max_depth`.
                    unsafe { *slot(frames, depth) = MaybeUninit::new(Frame { cursor, to_child }) };
                    unsafe { *slot(nodes_at, child_depth) += std::mem::take(&mut entered) };
                    cursor = child_cursor;
                    depth = child_depth;
                    pruned = unsafe { slot(prunes_at, depth + 1) };
                }
                Opened::Solution => {
                    unsafe { *slot(nodes_at, child_depth) += entered };
                    break WalkEnd::Solution(child_depth, to_child);
                }
                Opened::DeadEnd(rule) => {
                    Self::count_dead_end(counters, rule, child_depth);
                    model.undo(to_child);
                }
            }
        };
        (walk.depth, walk.cursor) = (depth, cursor);
        found
    }
}

/// The slot of `depth` in one of the walk's per-depth vectors, without a bounds check.
///
/// # Safety
/// `depth < slots.len()`: the walk's frames have a slot for every depth up to `max_depth`,
/// its counts for every depth up to `max_depth + 1`, and it never goes deeper than that (a
/// node at `max_depth` offering children ends the walk).
#[inline(always)]
unsafe fn slot<T>(slots: &mut [T], depth: usize) -> &mut T {
    debug_assert!(depth < slots.len());
    // SAFETY: the caller's contract.
    unsafe { slots.get_unchecked_mut(depth) }
}
