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

/// What the walk keeps of one depth: the open node there while the walk is below it, and
/// the counts of its children. One record per depth, so that the walk moves one pointer a
/// level down or up instead of computing an address in each of three per-depth vectors
/// from the depth.
#[derive(Debug)]
struct Level<Move> {
    /// Written when the walk descends from this depth, read when it climbs back to it.
    open: MaybeUninit<Frame<Move>>,
    /// Nodes entered one below this depth in this walk. Counted here, in memory only the
    /// walk reaches, and added to the counters once when it ends: a count kept per node of
    /// the path had to be added to the counters and zeroed at every descent and climb
    /// (about 30 instructions a placed move), and a count behind the counters' pointer, as
    /// the recursion found, makes the compiler reload the model's state after every prune.
    children_entered: u64,
    /// Prunes one below this depth per rule in this walk (unused without rule counts),
    /// likewise.
    children_pruned: [u64; MAX_RULES],
}

/// The walk's memory, kept by the engine between walks so that a worker's many subproblems
/// allocate it once.
pub(super) struct WalkSpace<Move> {
    /// One level for every depth from 0 to `max_depth`: the walk descends from a depth
    /// below `max_depth` only, and a node at `max_depth` has children only in a model's bug,
    /// which ends the walk before any is entered.
    levels: Vec<Level<Move>>,
}

impl<Move> WalkSpace<Move> {
    /// No memory yet: the first walk sizes it.
    pub(super) fn new() -> Self {
        WalkSpace { levels: Vec::new() }
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
        let unused = || Level { open: MaybeUninit::uninit(), children_entered: 0, children_pruned: [0; MAX_RULES] };
        space.levels.resize_with(self.max_depth + 1, unused);
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
                    // current node, writing each one's open node.
                    self.model.undo(unsafe { walk.space.levels[open].open.assume_init() }.to_child);
                }
                break;
            }
        }
        // The walk's counts go to the counters, and its levels are zeroed for the next walk.
        for (parent_depth, level) in space.levels.iter_mut().enumerate().skip(depth) {
            let nodes = std::mem::take(&mut level.children_entered);
            let prunes = std::mem::replace(&mut level.children_pruned, [0; MAX_RULES]);
            self.nodes += nodes;
            // SAFETY: `parent_depth + 1` is at most `max_depth + 1`; the counters have a row
            // for it (their spare row past `max_depth`).
            unsafe {
                self.counters.nodes_within(parent_depth + 1, nodes);
                self.counters.add_prunes_within(parent_depth + 1, &prunes);
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
        debug_assert!(walk.root_depth <= walk.depth && walk.depth <= max_depth);
        debug_assert_eq!(walk.space.levels.len(), max_depth + 1);
        let levels = walk.space.levels.as_mut_ptr();
        // The walk's place lives in locals for the loop (registers, where they fit), and is
        // written back when it leaves: `here` is the current node's level, `cursor` its
        // cursor.
        // SAFETY (of every level pointer below): the walk stays between its root's level
        // and `max_depth`'s, the last of `levels` (it leaves before it would enter a child
        // of a node at `max_depth`), and nothing else reaches `levels` while it runs.
        let (root, deepest, mut here) =
            unsafe { (levels.add(walk.root_depth), levels.add(max_depth), levels.add(walk.depth)) };
        let mut cursor = walk.cursor;
        let depth_of = |level: *mut Level<M::Move>| unsafe { level.offset_from(levels) } as usize;
        // The children entered since the walk last came to the current node: a local (a
        // register), added to the level when the walk leaves the node. Counted there
        // directly, the stores made the compiler reload the model's state at every node
        // with children (N-Queens n = 11 without rule counts: 38.7 M instructions against
        // 36.2 M); the prunes, counted at rejected nodes only, cost less there than their
        // addition at every descent and climb.
        let mut entered = 0;
        let found = loop {
            let pruned = unsafe { &mut (*here).children_pruned };
            let Some((to_child, _)) =
                Self::next_accepted::<false>(model, counters, &mut cursor, &mut entered, u64::MAX, pruned)
            else {
                unsafe { (*here).children_entered += std::mem::take(&mut entered) };
                // The current node is done: the walk climbs back to its parent (or ends at
                // its root).
                if here == root {
                    break WalkEnd::Done;
                }
                here = unsafe { here.sub(1) };
                // SAFETY: the walk descended from this level (it is below the root's),
                // writing its open node.
                let parent = unsafe { (*here).open.assume_init() };
                model.undo(parent.to_child);
                cursor = parent.cursor;
                continue;
            };
            match model.open(counters) {
                Opened::Moves(child_cursor) => {
                    let child = unsafe { here.add(1) };
                    if child == deepest && offers_moves(model, child_cursor) {
                        // The panic is the caller's: a call that may unwind inside the loop
                        // would make the compiler keep the model's state in memory current
                        // at every step, for whoever catches it.
                        unsafe { (*here).children_entered += entered };
                        break WalkEnd::DepthExceeded(depth_of(child));
                    }
                    unsafe {
                        (*here).open = MaybeUninit::new(Frame { cursor, to_child });
                        (*here).children_entered += std::mem::take(&mut entered);
                    }
                    cursor = child_cursor;
                    here = child;
                }
                Opened::Solution => {
                    unsafe { (*here).children_entered += entered };
                    break WalkEnd::Solution(depth_of(here) + 1, to_child);
                }
                Opened::DeadEnd(rule) => {
                    Self::count_dead_end(counters, rule, depth_of(here) + 1);
                    model.undo(to_child);
                }
            }
        };
        (walk.depth, walk.cursor) = (depth_of(here), cursor);
        found
    }
}

/// Whether a node whose cursor is `cursor` offers a move: asked of a node at `max_depth`
/// only. A call of its own, so that the compiler does not try the model's move at every
/// descent to save the branch on the depth (7 instructions a descent instead of 2).
#[inline(never)]
fn offers_moves<M: Model>(model: &M, mut cursor: MoveCursor) -> bool {
    model.next_move(&mut cursor).is_some()
}
