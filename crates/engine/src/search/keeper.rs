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
//! the batches a few comparisons each. Such a stream is also recognised: when the
//! newcomers of a batch came in non-increasing order and the largest of them is no larger
//! than every kept one, the last `limit` of them are the smallest, and the selection is a
//! cut instead of a partition (one comparison a newcomer, against about 240 instructions of
//! partitioning a solution for 13 queens).

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
    /// Whether every newcomer since the last selection was no larger than the one before.
    falling: bool,
    /// Whether the kept solutions are in ascending order (after a selection by a cut).
    kept_ascending: bool,
    /// Solutions the selections dropped, whose buffers the next newcomers are written into
    /// ([`Model::write_solution`]): once the batches are full, keeping allocates nothing.
    spare: Vec<S>,
}

impl<S: Ord> SolutionKeeper<S> {
    /// Keeps nothing yet; will keep at most `limit`.
    pub(crate) fn new(limit: usize) -> Self {
        SolutionKeeper {
            limit,
            held: Vec::new(),
            selected: false,
            falling: true,
            kept_ascending: false,
            spare: Vec::new(),
        }
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

    /// Where the newcomers since the last selection start in `held`.
    #[inline]
    fn first_newcomer(&self) -> usize {
        if self.selected {
            self.limit
        } else {
            0
        }
    }

    /// Holds `solution` and sorts the held ones out once a batch is full.
    fn gather(&mut self, solution: S) {
        if self.falling && self.held.len() > self.first_newcomer() {
            self.falling = self.held.last().is_some_and(|previous| solution <= *previous);
        }
        self.held.push(solution);
        if self.held.len() == self.limit.saturating_add(self.batch()) {
            self.select();
        }
    }

    /// Keeps the smallest `limit` of the held solutions, the largest of them at
    /// `held[limit - 1]`; the others go to the spares.
    fn select(&mut self) {
        if self.held.len() > self.limit {
            let room = self.batch().saturating_sub(self.spare.len());
            if self.last_newcomers_are_the_smallest() {
                let dropped = self.held.len() - self.limit;
                self.spare.extend(self.held.drain(..dropped).take(room));
                // Non-increasing, reversed: ascending, the largest kept at `limit - 1`.
                self.held.reverse();
                self.kept_ascending = true;
            } else {
                self.held.select_nth_unstable(self.limit - 1);
                self.spare.extend(self.held.drain(self.limit..).take(room));
                self.kept_ascending = false;
            }
            self.selected = true;
        }
        self.falling = true;
    }

    /// Whether the last `limit` held solutions are the smallest `limit`: at least `limit`
    /// newcomers came in non-increasing order, and the first (largest) of them is no larger
    /// than any kept one.
    fn last_newcomers_are_the_smallest(&self) -> bool {
        let first_newcomer = self.first_newcomer();
        if !self.falling || self.held.len() - first_newcomer < self.limit {
            return false;
        }
        let kept = &self.held[..first_newcomer];
        let smallest_kept = if self.kept_ascending { kept.first() } else { kept.iter().min() };
        smallest_kept.is_none_or(|smallest| self.held[first_newcomer] <= *smallest)
    }

    /// The kept solutions in ascending order; the keeper is left empty.
    pub(crate) fn take_sorted(&mut self) -> Vec<S> {
        self.select();
        self.spare = Vec::new();
        (self.selected, self.falling, self.kept_ascending) = (false, true, false);
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
        // Falling with repeats, and falling in runs that rise between them (a run's first
        // newcomers larger than kept ones, or not, depending on the batch).
        let falling_with_repeats: Vec<u32> = (0..500).rev().map(|value| value / 3).collect();
        let sawtooth: Vec<u32> = (0..500).map(|index| 1000 - (index % 97) * 7 - index / 97).collect();
        for offered in [&ascending, &descending, &scrambled, &falling_with_repeats, &sawtooth] {
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
