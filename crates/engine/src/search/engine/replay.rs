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
             root, such as a global counter or state kept outside do/undo, or its undo does not restore what \
             apply changed)",
            self.detail
        )
    }
}

/// At most this many offered moves are named in a mismatch's message.
const MOVES_NAMED: usize = 8;

/// What an engine remembers of the last path it replayed: the moves each node on it
/// offered. Subproblems that one worker runs one after another share the start of their
/// paths (the root at least), and a node reached by the same moves from the root is the
/// same node: its moves, checked once, are not asked for again. A root that lists
/// thousands of moves (the Hooks layouts) is then branched once per worker, not once per
/// subproblem.
///
/// A caller that makes an engine per subproblem (to give each its own observer) hands the
/// memory from one to the next ([`Engine::take_replay_memory`],
/// [`Engine::with_replay_memory`]) when every engine's model is a copy of one root, or the
/// one model handed on ([`Engine::into_model`]): made
/// afresh, each branched the root again (a third of a split max clique search of 32,768
/// root children branched its root 10,923 times: 40.3 s, against 2.1 s handed on).
pub struct ReplayMemory<Mv> {
    /// The moves the last replay applied (its path without the last move).
    applied: Vec<Mv>,
    /// `offered[d]`: the moves the node at depth `d` of that path offered, valid for
    /// `d < valid`.
    offered: Vec<Vec<Mv>>,
    valid: usize,
    /// `found_at[d]`: just past where in `offered[d]` the last lookup found its move. The
    /// next replay looks from there: subproblems come in the order of their listing, so the
    /// next move is mostly the next one offered, and a root of thousands of moves is looked
    /// through once, not once per subproblem.
    found_at: Vec<usize>,
}

impl<Mv> ReplayMemory<Mv> {
    /// A memory of nothing: the next replay branches every node on its path.
    pub fn new() -> Self {
        ReplayMemory { applied: Vec::new(), offered: Vec::new(), valid: 0, found_at: Vec::new() }
    }
}

/// Where `wanted` is in `moves`, looked for from `start` to the end and then from the
/// beginning: the same answer as a search from the beginning when `wanted` is there once,
/// and in one step when `start` is where it is, as it mostly is for moves looked up in the
/// order they are offered (each search starting just past the last one found).
pub fn position_from<Mv: PartialEq>(moves: &[Mv], wanted: &Mv, start: usize) -> Option<usize> {
    let start = start.min(moves.len());
    let (before, after) = moves.split_at(start);
    after.iter().position(|mv| mv == wanted).map(|at| start + at).or_else(|| before.iter().position(|mv| mv == wanted))
}

impl<Mv> Default for ReplayMemory<Mv> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Model, C: RuleCounter, S: Steering<M>, O: Observer<M>> Engine<M, C, S, O> {
    /// What this engine learned of the nodes on the last path it replayed, taken out (the
    /// engine keeps a memory of nothing): for the next engine made from a copy of the same
    /// root model (see [`ReplayMemory`]).
    pub fn take_replay_memory(&mut self) -> ReplayMemory<M::Move> {
        std::mem::take(&mut self.replay)
    }

    /// This engine with `memory`, taken from an engine whose model was a copy of the same
    /// root model as this one's (or this very model, handed on): the nodes it names are not
    /// branched again. A memory of
    /// another root would let a subproblem's moves pass unchecked at those nodes.
    pub fn with_replay_memory(mut self, memory: ReplayMemory<M::Move>) -> Self {
        self.replay = memory;
        self
    }
}

impl<M: Model, C: RuleCounter, S: Steering<M>, O: Observer<M>> Engine<M, C, S, O> {
    /// Applies every move of `subproblem` but the last without counting, checking at every
    /// node from the root to the parent of its last move that the model offers the move the
    /// path makes there (and accepts it). A node on the path of the previous replay is not
    /// branched again (see [`ReplayMemory`]); a new one costs one `branch` of a node the
    /// origin had already branched. A mismatch panics with [`MovesDoNotReplay`], which stops
    /// a parallel run as a model's panic does.
    pub(super) fn replay_checked(&mut self, subproblem: &[M::Move]) {
        let last = subproblem.len().saturating_sub(1);
        let memory = &mut self.replay;
        let shared = subproblem[..last].iter().zip(&memory.applied).take_while(|(new, old)| new == old).count();
        memory.valid = memory.valid.min(shared + 1);
        memory.applied.clear();
        let mut silent = NoCounters;
        for (depth, &mv) in subproblem.iter().enumerate() {
            if depth >= self.replay.valid {
                if self.replay.offered.len() <= depth {
                    self.replay.offered.push(Vec::new());
                    self.replay.found_at.push(0);
                }
                self.replay.found_at[depth] = 0;
                let offered = &mut self.replay.offered[depth];
                offered.clear();
                match self.model.branch(offered, &mut silent) {
                    Branch::Moves => self.replay.valid = depth + 1,
                    Branch::Solution => self.replay_failed(depth, mv, "the node is a solution".to_string()),
                    Branch::DeadEnd(rule) => {
                        self.replay_failed(depth, mv, format!("the node is a dead end (rule {rule})"))
                    }
                }
            }
            // Below `shared` (at most `valid`), the node has not been branched again since a
            // replay found this move among its offered moves, so a lookup cannot fail. Made
            // anyway, from just past the move itself, it cost a pass over the node's moves at
            // every shared depth: the prime grid's `naive` run at 1 thread spent 272.3 M
            // instructions in its 116,280 leaf subproblems, 208.7 M without.
            if depth >= shared {
                match position_from(&self.replay.offered[depth], &mv, self.replay.found_at[depth]) {
                    Some(at) => self.replay.found_at[depth] = at + 1,
                    None => {
                        let found = format!("the node offers {}", offered_text(&self.replay.offered[depth]));
                        self.replay_failed(depth, mv, found);
                    }
                }
            }
            if depth == last {
                return;
            }
            if let Err(rule) = self.model.apply(mv, &mut silent) {
                let rule_name = self.model.rule_names().get(rule).copied().unwrap_or("unnamed");
                let detail =
                    format!("the move {mv:?} at depth {depth} is rejected on replay (rule {rule}, `{rule_name}`)");
                std::panic::panic_any(MovesDoNotReplay { depth, detail })
            }
            self.path.push(mv);
            self.replay.applied.push(mv);
        }
    }

    #[cold]
    #[inline(never)]
    fn replay_failed(&self, depth: usize, mv: M::Move, found: String) -> ! {
        let detail = format!("the move {mv:?} at depth {depth} is not offered on replay: {found}");
        std::panic::panic_any(MovesDoNotReplay { depth, detail })
    }
}

/// The moves a replayed node offered, the first few of them by name.
fn offered_text<Mv: fmt::Debug>(moves: &[Mv]) -> String {
    let shown: Vec<String> = moves.iter().take(MOVES_NAMED).map(|mv| format!("{mv:?}")).collect();
    match moves.len().saturating_sub(MOVES_NAMED) {
        0 => format!("[{}]", shown.join(", ")),
        more => format!("[{}, and {more} more]", shown.join(", ")),
    }
}
