//! The solutions a search keeps: the `limit` smallest in the model's solution order.
//!
//! Keeping the smallest rather than the first found makes the kept set a property of the
//! instance, not of the visiting order or the thread schedule: every strategy and thread
//! count keeps the same solutions, and a merge of per-worker sets is exact (the smallest
//! `limit` of a union are among the smallest `limit` of each part).

use super::Model;
use std::collections::BinaryHeap;

/// At most `limit` solutions, the smallest seen so far.
#[derive(Debug, Clone)]
pub(crate) struct SolutionKeeper<S: Ord> {
    limit: usize,
    /// A max-heap, so the largest kept solution is the one a smaller newcomer replaces.
    kept: BinaryHeap<S>,
    /// Where [`SolutionKeeper::offer_from`] writes a newcomer once the keeper is full: a
    /// newcomer that is kept swaps buffers with the solution it replaces, one that is not
    /// stays here to be overwritten, so a full keeper allocates nothing per solution.
    scratch: Option<S>,
}

impl<S: Ord> SolutionKeeper<S> {
    /// Keeps nothing yet; will keep at most `limit`.
    pub(crate) fn new(limit: usize) -> Self {
        SolutionKeeper { limit, kept: BinaryHeap::new(), scratch: None }
    }

    /// Whether a solution offered now could be kept at all (false when `limit` is 0), so
    /// that a caller can skip building it.
    #[inline]
    pub(crate) fn wants_any(&self) -> bool {
        self.limit > 0
    }

    /// Offers `solution`; it is kept when fewer than `limit` are kept or it is smaller
    /// than the largest kept one (which is then dropped).
    pub(crate) fn offer(&mut self, solution: S) {
        if self.kept.len() < self.limit {
            self.kept.push(solution);
        } else if self.kept.peek().is_some_and(|largest| solution < *largest) {
            self.kept.pop();
            self.kept.push(solution);
        }
    }

    /// Offers the solution at `model`'s current node, as [`SolutionKeeper::offer`] of
    /// `model.solution()` does, but once the keeper is full through its scratch buffer
    /// ([`Model::write_solution`]): a solution that is not kept allocates nothing.
    #[inline]
    pub(crate) fn offer_from<M: Model<Solution = S>>(&mut self, model: &M) {
        if self.kept.len() < self.limit {
            self.kept.push(model.solution());
            return;
        }
        let Some(mut largest) = self.kept.peek_mut() else {
            return;
        };
        let scratch = match &mut self.scratch {
            Some(scratch) => {
                model.write_solution(scratch);
                scratch
            }
            none => none.insert(model.solution()),
        };
        if *scratch < *largest {
            // The largest kept solution leaves through the scratch buffer; dropping the
            // `PeekMut` restores the heap order.
            std::mem::swap(&mut *largest, scratch);
        }
    }

    /// The kept solutions in ascending order; the keeper is left empty.
    pub(crate) fn take_sorted(&mut self) -> Vec<S> {
        self.scratch = None;
        std::mem::take(&mut self.kept).into_sorted_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::SolutionKeeper;

    #[test]
    fn keeps_the_smallest_whatever_the_arrival_order() {
        let mut forward = SolutionKeeper::new(3);
        let mut backward = SolutionKeeper::new(3);
        for value in 0..10 {
            forward.offer(value);
            backward.offer(9 - value);
        }
        assert_eq!(forward.take_sorted(), vec![0, 1, 2]);
        assert_eq!(backward.take_sorted(), vec![0, 1, 2]);
    }

    #[test]
    fn a_zero_limit_keeps_nothing_and_a_large_one_keeps_everything() {
        let mut none = SolutionKeeper::new(0);
        assert!(!none.wants_any());
        none.offer(1);
        assert!(none.take_sorted().is_empty());
        let mut all = SolutionKeeper::new(usize::MAX);
        for value in [5, 3, 5, 1] {
            all.offer(value);
        }
        assert_eq!(all.take_sorted(), vec![1, 3, 5, 5]);
    }
}
