//! The solutions a search keeps: the `limit` smallest in the model's solution order.
//!
//! Keeping the smallest rather than the first found makes the kept set a property of the
//! instance, not of the visiting order or the thread schedule: every strategy and thread
//! count keeps the same solutions, and a merge of per-worker sets is exact (the smallest
//! `limit` of a union are among the smallest `limit` of each part).
//!
//! Newcomers are gathered past the kept ones and sorted out in batches: once `limit` more
//! have come, one selection (linear in the number held) keeps the smallest `limit`, whose
//! largest then bars every later newcomer that is not smaller. A search that finds its
//! solutions in descending order (N-Queens with its columns tried from the last) makes
//! every newcomer the smallest yet: a max-heap paid a sift through all its levels for each
//! (13 queens, 1,000 kept: about 870 instructions a solution, most of them comparisons),
//! the batches a few comparisons each.

use super::Model;

/// Newcomers gathered at least, past the kept ones, before a selection: a small `limit`
/// still sorts out in batches, not at every solution.
const MIN_BATCH: usize = 32;

/// At most `limit` solutions, the smallest seen so far (with at most one batch of
/// newcomers not yet sorted out: `limit + max(limit, 32)` held at most).
#[derive(Debug, Clone)]
pub(crate) struct SolutionKeeper<S: Ord> {
    limit: usize,
    /// The kept solutions, then the newcomers since the last selection. After a selection,
    /// `held[limit - 1]` is the largest of the smallest `limit` seen.
    held: Vec<S>,
    /// Whether a selection has run, so that `held[limit - 1]` bars the newcomers.
    selected: bool,
    /// Solutions the selections dropped, whose buffers the next newcomers are written into
    /// ([`Model::write_solution`]): once the batches are full, keeping allocates nothing.
    spare: Vec<S>,
}

impl<S: Ord> SolutionKeeper<S> {
    /// Keeps nothing yet; will keep at most `limit`.
    pub(crate) fn new(limit: usize) -> Self {
        SolutionKeeper { limit, held: Vec::new(), selected: false, spare: Vec::new() }
    }

    /// Whether a solution offered now could be kept at all (false when `limit` is 0), so
    /// that a caller can skip building it.
    #[inline]
    pub(crate) fn wants_any(&self) -> bool {
        self.limit > 0
    }

    /// Offers `solution`; it is kept when fewer than `limit` smaller or equal ones were
    /// kept (the largest kept one then leaves).
    pub(crate) fn offer(&mut self, solution: S) {
        if self.limit == 0 {
            return;
        }
        if self.barred(&solution) {
            if self.spare.len() < self.batch() {
                self.spare.push(solution);
            }
            return;
        }
        self.gather(solution);
    }

    /// Offers the solution at `model`'s current node, as [`SolutionKeeper::offer`] of
    /// `model.solution()` does, but written into a dropped solution's buffer when there is
    /// one ([`Model::write_solution`]): a solution that is not kept allocates nothing.
    #[inline]
    pub(crate) fn offer_from<M: Model<Solution = S>>(&mut self, model: &M) {
        if self.limit == 0 {
            return;
        }
        let solution = match self.spare.pop() {
            Some(mut spare) => {
                model.write_solution(&mut spare);
                spare
            }
            None => model.solution(),
        };
        self.offer(solution);
    }

    /// Whether `solution` cannot be among the smallest `limit`: `limit` kept ones are no
    /// larger.
    #[inline]
    fn barred(&self, solution: &S) -> bool {
        self.selected && *solution >= self.held[self.limit - 1]
    }

    /// How many newcomers are gathered before a selection (and the most spares kept).
    #[inline]
    fn batch(&self) -> usize {
        self.limit.max(MIN_BATCH)
    }

    /// Holds `solution` and sorts the held ones out once a batch is full.
    fn gather(&mut self, solution: S) {
        self.held.push(solution);
        if self.held.len() == self.limit.saturating_add(self.batch()) {
            self.select();
        }
    }

    /// Keeps the smallest `limit` of the held solutions, the largest of them at
    /// `held[limit - 1]`; the others go to the spares.
    fn select(&mut self) {
        if self.held.len() > self.limit {
            self.held.select_nth_unstable(self.limit - 1);
            let room = self.batch().saturating_sub(self.spare.len());
            self.spare.extend(self.held.drain(self.limit..).take(room));
            self.selected = true;
        }
    }

    /// The kept solutions in ascending order; the keeper is left empty.
    pub(crate) fn take_sorted(&mut self) -> Vec<S> {
        self.select();
        self.spare = Vec::new();
        self.selected = false;
        let mut kept = std::mem::take(&mut self.held);
        kept.sort();
        kept
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

    /// The batches keep what a sort of everything offered keeps: ascending, descending and
    /// scrambled orders with repeated values, limits below, at and past the batch size,
    /// taken out after a partial batch and after several selections.
    #[test]
    fn batches_keep_the_smallest_of_everything_offered() {
        let ascending: Vec<u32> = (0..500).collect();
        let descending: Vec<u32> = (0..500).rev().collect();
        let scrambled: Vec<u32> = (0..500u32).map(|value| value.wrapping_mul(7919) % 211).collect();
        for offered in [&ascending, &descending, &scrambled] {
            let mut sorted = offered.clone();
            sorted.sort();
            for limit in [1, 2, 31, 32, 33, 100, 250, 499, 500, 501] {
                let mut keeper = SolutionKeeper::new(limit);
                for &value in offered {
                    keeper.offer(value);
                }
                assert_eq!(keeper.take_sorted(), sorted[..limit.min(500)], "limit {limit}");
                // The keeper starts over once emptied.
                keeper.offer(7);
                assert_eq!(keeper.take_sorted(), vec![7]);
            }
        }
    }
}
