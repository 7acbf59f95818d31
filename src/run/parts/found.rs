//! A solution found by a part with its path from the root: what the kept solutions and
//! the answer keys' representatives hold.

use super::ChildPath;
use crate::search::Model;
use std::cmp::Ordering;

/// A solution with its path from the root, ordered by the solution alone.
pub(super) struct Found<M: Model> {
    pub(super) solution: M::Solution,
    pub(super) path: ChildPath,
}

impl<M: Model> PartialEq for Found<M> {
    fn eq(&self, other: &Self) -> bool {
        self.solution == other.solution
    }
}

impl<M: Model> Eq for Found<M> {}

impl<M: Model> PartialOrd for Found<M> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<M: Model> Ord for Found<M> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.solution.cmp(&other.solution)
    }
}
