//! The plain path of a model that yields its moves one by one, searched with no node limit
//! and no deadline: a loop over an explicit stack of open nodes instead of a recursion, in a
//! function that holds the model and the counters apart from the engine.
//!
//! Why a loop apart: in the recursion every placed move paid a call, the saving and
//! restoring of the callee's registers, and the reloading of the model's state that the call
//! might have changed. Here the model is a `&mut` argument that nothing else in the loop can
//! reach, so the compiler keeps what it read of the model's state in registers from one node
//! to the next (it still writes every change back: the state must be current when the loop
//! leaves). Only a solution leaves it: the engine records the solution (which reads the
//! model) and the walk resumes where it stood. Nothing in the loop may unwind, for the same
//! reason: a model that goes deeper than its `max_depth` leaves the loop, and the engine
//! panics outside it.

use super::Engine;
use crate::search::{Model, MoveCursor, Observer, Opened, RuleCounter, Steering, MAX_RULES};
use std::mem::MaybeUninit;

/// An open node below the walk's root: the cursor of its moves not tried yet, and the move
/// to its child on the path (undone when the child's subtree is done).
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame<Move> {
    cursor: MoveCursor,
    to_child: Move,
}

/// Where a walk stands between two solutions.
struct Walk<Move> {
    /// The open nodes from the walk's root to the parent of the current node, indexed by
    /// depth: `frames[d]` is written when the walk descends from depth `d` and read when it
    /// climbs back. One slot per depth up to `max_depth`, allocated once per engine, so
    /// that a descent is two stores with no capacity test.
    frames: Vec<MaybeUninit<Frame<Move>>>,
    /// The depth of the walk's root.
    root_depth: usize,
    /// The current node's depth, and its cursor.
    depth: usize,
    cursor: MoveCursor,
    /// Nodes entered below the walk's root.
    nodes: u64,
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
        let cursor = match self.model.open(&mut self.counters) {
            Opened::Moves(cursor) => cursor,
            Opened::Solution => {
                self.record_solution(depth);
                return;
            }
            Opened::DeadEnd(rule) => {
                self.dead_end(rule, depth);
                return;
            }
        };
        if depth >= self.max_depth && self.model.next_move(&mut { cursor }).is_some() {
            self.depth_exceeded(depth);
        }
        let mut frames = std::mem::take(&mut self.walk_frames);
        frames.resize(self.max_depth + 1, MaybeUninit::uninit());
        let mut walk = Walk { frames, root_depth: depth, depth, cursor, nodes: 0 };
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
                    self.model.undo(unsafe { walk.frames[open].assume_init() }.to_child);
                }
                break;
            }
        }
        self.nodes += walk.nodes;
        self.walk_frames = walk.frames;
    }

    /// Walks on from where `walk` stands until a child is a solution, a node below
    /// `max_depth` offers children, or the walk's root has no moves left.
    #[inline(never)]
    fn walk_to_solution(
        model: &mut M,
        counters: &mut C,
        walk: &mut Walk<M::Move>,
        max_depth: usize,
    ) -> WalkEnd<M::Move> {
        // The walk's place lives in locals for the loop (registers, where they fit), and is
        // written back when it leaves. The counts of the current node's children start at
        // zero in every call (they are added to the counters before a solution leaves):
        // the compiler then knows that the prune tally's entries no rule names stay zero,
        // and adds only the others.
        let (mut depth, mut cursor) = (walk.depth, walk.cursor);
        let mut entered: u64 = 0;
        let mut prunes = [0u64; MAX_RULES];
        let found = loop {
            let Some((to_child, _)) =
                Self::next_accepted::<false>(model, counters, &mut cursor, &mut entered, u64::MAX, &mut prunes)
            else {
                // The current node is done: its children's counts go to the counters, and
                // the walk climbs back to its parent (or ends at its root).
                Self::add_counts_at(counters, depth + 1, &mut entered, &mut prunes, &mut walk.nodes);
                if depth == walk.root_depth {
                    break WalkEnd::Done;
                }
                depth -= 1;
                debug_assert!(depth < walk.frames.len());
                // SAFETY: the walk descended from `depth` (it is below the root's), writing
                // this frame; `frames` has a slot for every depth up to `max_depth`.
                let frame = unsafe { walk.frames.get_unchecked(depth).assume_init() };
                model.undo(frame.to_child);
                cursor = frame.cursor;
                continue;
            };
            let child_depth = depth + 1;
            match model.open(counters) {
                Opened::Moves(child_cursor) => {
                    if child_depth >= max_depth && model.next_move(&mut { child_cursor }).is_some() {
                        // The panic is the caller's: a call that may unwind inside the loop
                        // would make the compiler keep the model's state in memory current
                        // at every step, for whoever catches it.
                        break WalkEnd::DepthExceeded(child_depth);
                    }
                    // The counts so far belong to this node's children; the child's own
                    // children are counted from zero.
                    Self::add_counts_at(counters, child_depth, &mut entered, &mut prunes, &mut walk.nodes);
                    debug_assert!(depth < walk.frames.len());
                    // SAFETY: `depth < child_depth <= max_depth`, and `frames` has a slot for
                    // every depth up to `max_depth`.
                    unsafe { *walk.frames.get_unchecked_mut(depth) = MaybeUninit::new(Frame { cursor, to_child }) };
                    cursor = child_cursor;
                    depth = child_depth;
                }
                Opened::Solution => {
                    Self::add_counts_at(counters, child_depth, &mut entered, &mut prunes, &mut walk.nodes);
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

    /// Adds `entered` nodes and `prunes` at `depth` to the counters and `entered` to
    /// `nodes`, and zeroes them.
    #[inline(always)]
    fn add_counts_at(
        counters: &mut C,
        depth: usize,
        entered: &mut u64,
        prunes: &mut [u64; MAX_RULES],
        nodes: &mut u64,
    ) {
        // SAFETY: `depth` is a child's depth, at most `max_depth` (a node at `max_depth`
        // offering children stopped the walk), and the counters have rows up to it.
        unsafe {
            counters.nodes_within(depth, *entered);
            counters.add_prunes_within(depth, prunes);
        }
        *nodes += std::mem::take(entered);
        *prunes = [0; MAX_RULES];
    }
}
