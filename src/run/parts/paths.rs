//! Paths between the engine's moves and [`ChildPath`]s: an observer that names every
//! solution by its path as the search finds it, keeping the smallest and counting the
//! answer keys, and the replays of a path on a model.

use super::answers::{AnswerShare, KeyedTally};
use super::found::Found;
use super::{ChildPath, ComponentShare, Counts, ReplayError};
use crate::format::excerpt;
use crate::puzzles::Puzzle;
use crate::search::{
    position_from, Branch, Engine, Event, FullCounters, Model, NoCounters, NoSteering, Observer, Sense, NO_SCORE,
};
use std::collections::BinaryHeap;

/// At most `limit` solutions with their moves, the smallest offered (as the engine's own
/// keeper keeps them, so the kept set is the sequential run's whatever the split); in an
/// optimising search, the smallest of the best-scored offered.
pub(super) struct Keeper<M: Model> {
    limit: usize,
    kept: BinaryHeap<Found<M>>,
    /// The score of the kept solutions of an optimising search (`NO_SCORE` otherwise).
    best: i64,
}

impl<M: Model> Keeper<M> {
    pub(super) fn new(limit: usize) -> Self {
        Keeper { limit, kept: BinaryHeap::new(), best: NO_SCORE }
    }

    /// Whether `solution` would be kept now.
    fn wants(&self, solution: &M::Solution) -> bool {
        self.kept.len() < self.limit || self.kept.peek().is_some_and(|largest| *solution < largest.solution)
    }

    pub(super) fn offer(&mut self, found: Found<M>) {
        if !self.wants(&found.solution) {
            return;
        }
        if self.kept.len() >= self.limit {
            self.kept.pop();
        }
        self.kept.push(found);
    }

    /// Offers a solution of an optimising search with its `score`: a better score than
    /// the kept ones replaces them, a worse one is dropped. True when `score` is a new best.
    fn offer_scored(&mut self, score: i64, found: impl FnOnce() -> Found<M>) -> bool {
        if score < self.best {
            return false;
        }
        let improved = score > self.best;
        if improved {
            self.best = score;
            self.kept.clear();
        }
        let found = found();
        self.offer(found);
        improved
    }

    pub(super) fn absorb(&mut self, other: Keeper<M>) {
        if other.best < self.best {
            return;
        }
        if other.best > self.best {
            self.best = other.best;
            self.kept.clear();
        }
        for found in other.kept {
            self.offer(found);
        }
    }

    /// The kept solutions, smallest first.
    pub(super) fn into_sorted(self) -> Vec<Found<M>> {
        self.kept.into_sorted_vec()
    }
}

/// What a search of one component found: the smallest solutions with their moves, and
/// every solution's answer key, counted.
pub(super) struct Finds<K, M: Model> {
    pub(super) keeper: Keeper<M>,
    pub(super) answers: KeyedTally<K, M>,
}

impl<K: Ord, M: Model> Finds<K, M> {
    pub(super) fn new(keep: usize) -> Self {
        Finds { keeper: Keeper::new(keep), answers: KeyedTally::new() }
    }

    /// Adds what another thread found in the same component.
    pub(super) fn absorb(&mut self, other: Self) {
        self.keeper.absorb(other.keeper);
        self.answers.absorb(other.answers);
    }

    /// The share of `counts` with these finds; `sense`: the objective's, for an optimising
    /// model (the share then names the value of its best).
    pub(super) fn into_share(self, counts: Counts, sense: Option<Sense>) -> ComponentShare {
        let best = sense.filter(|_| self.keeper.best != NO_SCORE).map(|sense| sense.value(self.keeper.best));
        let solutions = self.keeper.into_sorted().into_iter().map(|found| found.path).collect();
        let (keys, unlisted) = self.answers.into_parts();
        ComponentShare { counts, solutions, answers: AnswerShare { keys, unlisted }, best }
    }
}

/// Told of a solution that improves a recorder's best: its objective value and path.
pub(super) type ImprovementSink<'a> = dyn Fn(i64, &[u32]) + 'a;

/// An engine whose observer is a [`PathRecorder`] of `P`'s answer keys.
pub(super) type RecordingEngine<'a, P> = Engine<
    <P as Puzzle>::Model,
    FullCounters,
    NoSteering,
    PathRecorder<'a, <P as Puzzle>::AnswerKey, <P as Puzzle>::Model>,
>;

/// An observer that follows the path of the current node as child indices, offers every
/// solution, with its path, to a keeper, and counts its answer key (`key_of`).
///
/// The engine visits a node's candidates in the order the model lists them, and each one
/// visited is either entered or pruned, with one event: the index of a move among its
/// parent's candidates is the number of such events seen under that parent before it. So
/// no path is replayed to name a solution.
pub(super) struct PathRecorder<'a, K, M: Model> {
    path: ChildPath,
    /// `seen[d]`: candidates of the current node at depth `d - 1` visited so far.
    seen: Vec<u32>,
    finds: &'a mut Finds<K, M>,
    key_of: &'a dyn Fn(&M::Solution) -> K,
    /// Told of each solution of an optimising search that beats the best this recorder
    /// kept, with its value and path (a part publishes it to the other parts).
    publish: Option<&'a ImprovementSink<'a>>,
}

impl<'a, K, M: Model> PathRecorder<'a, K, M> {
    /// A recorder whose search starts at the node `start` (a subproblem searched whole,
    /// whose last move the engine enters first; the root when empty).
    pub(super) fn new(start: &[u32], finds: &'a mut Finds<K, M>, key_of: &'a dyn Fn(&M::Solution) -> K) -> Self {
        let (path, seen) = match start.split_last() {
            None => (Vec::new(), vec![0, 0]),
            Some((&last, prefix)) => {
                let mut seen = vec![0; start.len() + 1];
                seen[start.len()] = last;
                (prefix.to_vec(), seen)
            }
        };
        PathRecorder { path, seen, finds, key_of, publish: None }
    }

    /// This recorder, telling `publish` of every solution that improves its best.
    pub(super) fn publishing(self, publish: &'a ImprovementSink<'a>) -> Self {
        PathRecorder { publish: Some(publish), ..self }
    }

    /// The index of the candidate visited now at `depth`, counted.
    #[inline]
    fn next_index(&mut self, depth: usize) -> u32 {
        if self.seen.len() <= depth {
            self.seen.resize(depth + 1, 0);
        }
        let index = self.seen[depth];
        self.seen[depth] += 1;
        index
    }
}

impl<K: Ord, M: Model> Observer<M> for PathRecorder<'_, K, M> {
    #[inline]
    fn observe(&mut self, event: Event<M::Move>, model: &M) {
        match event {
            Event::Enter { depth, .. } => {
                let index = self.next_index(depth);
                self.path.truncate(depth - 1);
                self.path.push(index);
                // The new node's children are counted from 0.
                if self.seen.len() <= depth + 1 {
                    self.seen.resize(depth + 2, 0);
                }
                self.seen[depth + 1] = 0;
            }
            Event::Pruned { depth, .. } => {
                self.next_index(depth);
            }
            Event::Solution { depth } => {
                self.path.truncate(depth);
                let solution = model.solution();
                let objective = if M::OPTIMISES { model.objective() } else { None };
                match objective {
                    Some(objective) => {
                        let value = model.solution_value(&solution);
                        let path = &self.path;
                        let found = || Found { solution: solution.clone(), path: path.clone() };
                        if self.finds.keeper.offer_scored(objective.sense.score(value), found) {
                            if let Some(publish) = self.publish {
                                publish(value, path);
                            }
                        }
                    }
                    None if self.finds.keeper.wants(&solution) => {
                        self.finds.keeper.offer(Found { solution: solution.clone(), path: self.path.clone() });
                    }
                    None => {}
                }
                let key = (self.key_of)(&solution);
                self.finds.answers.add(key, solution, &self.path);
            }
            Event::DeadEnd { .. } | Event::Undo { .. } => {}
        }
    }
}

/// The candidates of a model's root, computed once: a family may do much work there (the
/// Hooks model prefilters every hook layout at its root), and every replay starts there.
/// Skipping `branch` before `apply` is what the engine's own replay of a subproblem's
/// prefix does too. The root's are lent, never copied: a root of 32,768 moves copied for
/// each of a part's 10,923 subproblems was most of the part's time.
pub(super) struct RootCandidates<M: Model> {
    root: Option<(Branch, Vec<M::Move>)>,
    /// Per level, just past where the last move looked for was found
    /// ([`RootCandidates::index_of`]).
    found_at: Vec<usize>,
}

impl<M: Model> RootCandidates<M> {
    pub(super) fn new() -> Self {
        RootCandidates { root: None, found_at: Vec::new() }
    }

    /// The branch and candidates of the node at `level` (0: the root) of `model`'s current
    /// path: the root's from the cache, another node's branched into `scratch`.
    pub(super) fn candidates<'a>(
        &'a mut self,
        model: &mut M,
        level: usize,
        scratch: &'a mut Vec<M::Move>,
    ) -> (Branch, &'a [M::Move]) {
        if level > 0 {
            scratch.clear();
            return (model.branch(scratch, &mut NoCounters), scratch.as_slice());
        }
        let (branch, candidates) = self.root.get_or_insert_with(|| {
            let mut candidates = Vec::new();
            (model.branch(&mut candidates, &mut NoCounters), candidates)
        });
        (*branch, candidates.as_slice())
    }

    /// The index of `mv` among the candidates of the node at `level`, if that node offers
    /// it. Looked for from just past the last one found at this level, then from the start:
    /// a split numbers its frontier's paths in order, so a root's moves are looked through
    /// once for all of them, not once each.
    pub(super) fn index_of(
        &mut self,
        model: &mut M,
        level: usize,
        mv: M::Move,
        scratch: &mut Vec<M::Move>,
    ) -> Option<usize> {
        if self.found_at.len() <= level {
            self.found_at.resize(level + 1, 0);
        }
        let start = self.found_at[level];
        let (branch, offered) = self.candidates(model, level, scratch);
        if branch != Branch::Moves {
            return None;
        }
        let found = position_from(offered, &mv, start)?;
        // Just past it: a move a node offers twice gets its two places in turn.
        self.found_at[level] = found + 1;
        Some(found)
    }
}

/// Applies the moves of `path` to `model` (at its root) and returns them, with whether the
/// last was accepted; every move but the last must be, the last may be rejected (a
/// subproblem may be a pruned child). On success the model is left at the node (the caller undoes the moves); on an
/// error it is back at its root.
pub(super) fn descend<M: Model>(
    model: &mut M,
    roots: &mut RootCandidates<M>,
    path: &[u32],
    component: usize,
    candidates: &mut Vec<M::Move>,
) -> Result<(Vec<M::Move>, bool), ReplayError> {
    let mut moves = Vec::with_capacity(path.len());
    let mut failure = None;
    let mut last_accepted = true;
    for (level, &index) in path.iter().enumerate() {
        let (branch, offered) = roots.candidates(model, level, candidates);
        let offered = if branch == Branch::Moves { offered } else { &[] };
        let Some(&mv) = offered.get(index as usize) else {
            failure = Some(format!(
                "component {component}: the path {} leaves the tree at level {}: the node there has {} candidate(s), \
                 not {} (the family's moves do not give the tree they gave when the part ran: changed since, or a \
                 model reading state outside its do/undo, which running the part again does not mend)",
                excerpt(&path_text(path)),
                level + 1,
                offered.len(),
                u64::from(index) + 1
            ));
            break;
        };
        let accepted = model.apply(mv, &mut NoCounters).is_ok();
        moves.push(mv);
        last_accepted = accepted;
        if !accepted && level + 1 < path.len() {
            failure = Some(format!(
                "component {component}: the path {} passes a pruned node at level {}",
                excerpt(&path_text(path)),
                level + 1
            ));
            break;
        }
    }
    match failure {
        None => Ok((moves, last_accepted)),
        Some(message) => {
            undo_all(model, &moves, last_accepted);
            Err(ReplayError { message })
        }
    }
}

/// Undoes `moves`, last first, as the engine would: every move but the last was
/// accepted; the last is undone when it was accepted, or when the model changes its state
/// before it rejects (see `Model::REJECTS_BEFORE_CHANGING`).
pub(super) fn undo_all<M: Model>(model: &mut M, moves: &[M::Move], last_accepted: bool) {
    for (index, &mv) in moves.iter().enumerate().rev() {
        let rejected_without_trace = index + 1 == moves.len() && !last_accepted && M::REJECTS_BEFORE_CHANGING;
        if !rejected_without_trace {
            model.undo(mv);
        }
    }
}

/// The solution at the end of `path` in `model` (at its root, where it is left).
pub(super) fn solution_at<M: Model>(
    model: &mut M,
    roots: &mut RootCandidates<M>,
    path: &[u32],
    component: usize,
    candidates: &mut Vec<M::Move>,
) -> Result<M::Solution, ReplayError> {
    let (moves, accepted) = descend(model, roots, path, component, candidates)?;
    let at_solution = accepted && roots.candidates(model, moves.len(), candidates).0 == Branch::Solution;
    let solution = at_solution.then(|| model.solution());
    undo_all(model, &moves, accepted);
    solution.ok_or_else(|| ReplayError {
        message: format!("component {component}: the path {} does not end at a solution", excerpt(&path_text(path))),
    })
}

/// A path as text: its indices joined by dots (`root` for the empty path).
pub fn path_text(path: &[u32]) -> String {
    if path.is_empty() {
        return "root".to_string();
    }
    // Digits written by hand into one string: a part writes thousands of paths of tens of
    // levels, and the formatting machinery cost more than its search on small parts.
    let mut text = String::with_capacity(path.len() * 2);
    for (level, &index) in path.iter().enumerate() {
        if level > 0 {
            text.push('.');
        }
        let mut digits = [0u8; 10];
        let mut start = digits.len();
        let mut left = index;
        loop {
            start -= 1;
            digits[start] = b'0' + (left % 10) as u8;
            left /= 10;
            if left == 0 {
                break;
            }
        }
        text.extend(digits[start..].iter().map(|&digit| char::from(digit)));
    }
    text
}
