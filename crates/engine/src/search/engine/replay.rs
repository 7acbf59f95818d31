//! The replay of a subproblem's prefix, checked move by move: a subproblem is a path of
//! moves made at its origin (another worker, a frontier listing, another machine's part),
//! and it means the same subtree here only if this model offers the same moves at the same
//! nodes. A model whose `branch` reads something besides the moves from the root (a global
//! counter, a clock, state kept outside do/undo) would otherwise search another tree and
//! report its counts as if it were the same one.

use super::Engine;
use crate::search::{Branch, Model, NoCounters, Observer, RuleCounter, Steering};
use std::fmt;

/// The payload of the panic that stops a search whose subproblem does not replay: the
/// parallel layer reports it as the model's error ("moves do not replay"), with the path
/// to the node where replay and origin parted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovesDoNotReplay {
    /// The depth of the node whose moves differ from what the subproblem's origin saw.
    pub depth: usize,
    /// What differed, as a sentence.
    pub detail: String,
}

impl fmt::Display for MovesDoNotReplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "moves do not replay: {} (the model's branch or apply reads something besides the moves from the \
             root, such as a global counter or state kept outside do/undo)",
            self.detail
        )
    }
}

/// At most this many offered moves are named in a mismatch's message.
const MOVES_NAMED: usize = 8;

impl<M: Model, C: RuleCounter, S: Steering<M>, O: Observer<M>> Engine<M, C, S, O> {
    /// Applies every move of `subproblem` but the last without counting, checking at every
    /// node from the root to the parent of its last move that the model offers the move the
    /// path makes there (and accepts it): each check costs one `branch` of a node the origin
    /// had already branched. A mismatch panics with [`MovesDoNotReplay`], which stops a
    /// parallel run as a model's panic does.
    pub(super) fn replay_checked(&mut self, subproblem: &[M::Move]) {
        let last = subproblem.len().saturating_sub(1);
        let mut silent = NoCounters;
        for (depth, &mv) in subproblem.iter().enumerate() {
            self.replay_moves.clear();
            let branch = self.model.branch(&mut self.replay_moves, &mut silent);
            let offered = matches!(branch, Branch::Moves) && self.replay_moves.contains(&mv);
            if !offered {
                let found = match branch {
                    Branch::Moves => format!("offers {}", self.offered_moves()),
                    Branch::Solution => "is a solution".to_string(),
                    Branch::DeadEnd(rule) => format!("is a dead end (rule {rule})"),
                };
                self.replay_failed(
                    depth,
                    format!("the move {mv:?} at depth {depth} is not offered on replay: the node {found}"),
                );
            }
            if depth == last {
                return;
            }
            if let Err(rule) = self.model.apply(mv, &mut silent) {
                self.replay_failed(
                    depth,
                    format!("the move {mv:?} at depth {depth} is rejected on replay (rule {rule})"),
                );
            }
            self.path.push(mv);
        }
    }

    /// The moves the last replayed node offered, the first few of them by name.
    fn offered_moves(&self) -> String {
        let shown: Vec<String> = self.replay_moves.iter().take(MOVES_NAMED).map(|mv| format!("{mv:?}")).collect();
        let more = self.replay_moves.len().saturating_sub(MOVES_NAMED);
        match more {
            0 => format!("[{}]", shown.join(", ")),
            more => format!("[{}, and {more} more]", shown.join(", ")),
        }
    }

    #[cold]
    #[inline(never)]
    fn replay_failed(&self, depth: usize, detail: String) -> ! {
        std::panic::panic_any(MovesDoNotReplay { depth, detail })
    }
}
