//! The search state of Olympic Rings and its [`Model`] implementation: one open spot per
//! level, the unused pool values in ascending order.

use super::config::{Pruning, RingsConfig, SpotOrder};
use super::OlympicRings;
use crate::search::{Model, MoveCursor, Opened, RuleCounter, RuleId};
use std::sync::Arc;

const RULE_RING_SUM: RuleId = 0;
const RULE_BOUNDS: RuleId = 1;
const RULE_NAMES: &[&str] = &["ring-sum", "ring-bounds"];

/// The search state: a value per spot and the pool values in use.
///
/// The moves come one by one from a cursor (`LAZY_MOVES`): whole runs take as many
/// instructions as with a list (callgrind, `solve rings --all`: 827,384 against 827,418;
/// the search is 20 nodes). `apply` places before it tests, so that `watch` draws the
/// value a rule rejects; testing first would save an `undo` on 12 rejections.
#[derive(Debug, Clone)]
pub struct RingsModel {
    instance: Arc<OlympicRings>,
    /// Open spots in visiting order (the static orders), or the candidates of the dynamic one.
    order: Vec<usize>,
    dynamic_order: bool,
    pruning: Pruning,
    /// `rings_of[spot]`: the rings that contain the spot.
    rings_of: Vec<Vec<usize>>,
    pub(super) value: Vec<Option<i32>>,
    /// `used[i]`: pool value `i` (ascending) is placed.
    pub(super) used: Vec<bool>,
    filled: usize,
}

/// A move: put pool value number `pool_index` on `spot`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    spot: u8,
    pool_index: u8,
}

impl RingsModel {
    /// The root state of `rings` under `config`.
    pub(super) fn new(rings: &OlympicRings, config: &RingsConfig) -> RingsModel {
        let order = match config.order {
            SpotOrder::Listed | SpotOrder::MostConstrained => rings.unknowns.clone(),
            SpotOrder::Rings => {
                let mut order = Vec::new();
                for ring in &rings.rings {
                    for &spot in ring {
                        if rings.fixed[spot].is_none() && !order.contains(&spot) {
                            order.push(spot);
                        }
                    }
                }
                // Open spots on no ring still have to be filled; they come last.
                order.extend(rings.unknowns.iter().filter(|spot| !order.contains(spot)).copied().collect::<Vec<_>>());
                order
            }
        };
        let rings_of = (0..rings.spot_names.len())
            .map(|spot| (0..rings.rings.len()).filter(|&ring| rings.rings[ring].contains(&spot)).collect())
            .collect();
        RingsModel {
            instance: Arc::new(rings.clone()),
            order,
            dynamic_order: config.order == SpotOrder::MostConstrained,
            pruning: config.pruning,
            rings_of,
            value: rings.fixed.clone(),
            used: vec![false; rings.pool.len()],
            filled: 0,
        }
    }

    fn ring_sum(&self, ring: usize) -> (i32, usize) {
        let mut sum = 0;
        let mut open = 0;
        for &spot in &self.instance.rings[ring] {
            match self.value[spot] {
                Some(value) => sum += value,
                None => open += 1,
            }
        }
        (sum, open)
    }

    fn next_spot(&self) -> usize {
        let open_spots = self.order.iter().copied().filter(|&spot| self.value[spot].is_none());
        if !self.dynamic_order {
            return open_spots.clone().next().expect("an open spot remains below the leaves");
        }
        open_spots
            .min_by_key(|&spot| {
                self.rings_of[spot].iter().map(|&ring| self.ring_sum(ring).1).min().unwrap_or(usize::MAX)
            })
            .expect("an open spot remains below the leaves")
    }

    /// Whether `open` distinct unused pool values can bring `sum` to the target.
    fn reachable(&self, sum: i32, open: usize) -> bool {
        let unused = self.instance.pool.iter().zip(&self.used).filter(|(_, used)| !**used).map(|(value, _)| *value);
        let smallest: i32 = unused.clone().take(open).sum();
        let largest: i32 = unused.rev().take(open).sum();
        sum + smallest <= self.instance.target && self.instance.target <= sum + largest
    }
}

/// A node's moves as a cursor: the spot in the bits above [`POOL_INDEX_BITS`], the next
/// pool index to look at below them.
const POOL_INDEX_BITS: u32 = 32;

impl Model for RingsModel {
    type Move = Placement;
    type Solution = Vec<i32>;
    const LAZY_MOVES: bool = true;

    fn rule_names(&self) -> &[&'static str] {
        RULE_NAMES
    }

    fn max_depth(&self) -> usize {
        self.instance.unknowns.len()
    }

    fn open<C: RuleCounter>(&mut self, counters: &mut C) -> Opened {
        if self.filled == self.instance.unknowns.len() {
            counters.check(RULE_RING_SUM);
            let all_on_target =
                (0..self.instance.rings.len()).all(|ring| self.ring_sum(ring).0 == self.instance.target);
            return if all_on_target { Opened::Solution } else { Opened::DeadEnd(RULE_RING_SUM) };
        }
        Opened::Moves((self.next_spot() as MoveCursor) << POOL_INDEX_BITS)
    }

    /// The unused pool values in ascending order, each value once.
    fn next_move(&self, cursor: &mut MoveCursor) -> Option<Placement> {
        let spot = (*cursor >> POOL_INDEX_BITS) as u8;
        let mut pool_index = (*cursor & ((1 << POOL_INDEX_BITS) - 1)) as usize;
        let pool = &self.instance.pool;
        while pool_index < pool.len() {
            // Equal pool values would give equal subtrees; try each value once.
            let repeated = pool_index > 0 && pool[pool_index] == pool[pool_index - 1] && !self.used[pool_index - 1];
            if !self.used[pool_index] && !repeated {
                *cursor = (MoveCursor::from(spot) << POOL_INDEX_BITS) | (pool_index as MoveCursor + 1);
                return Some(Placement { spot, pool_index: pool_index as u8 });
            }
            pool_index += 1;
        }
        None
    }

    fn apply<C: RuleCounter>(&mut self, mv: Placement, counters: &mut C) -> Result<(), RuleId> {
        let spot = mv.spot as usize;
        self.value[spot] = Some(self.instance.pool[mv.pool_index as usize]);
        self.used[mv.pool_index as usize] = true;
        self.filled += 1;
        if self.pruning == Pruning::None {
            return Ok(());
        }
        for &ring in &self.rings_of[spot] {
            let (sum, open) = self.ring_sum(ring);
            if open == 0 {
                counters.check(RULE_RING_SUM);
                if sum != self.instance.target {
                    return Err(RULE_RING_SUM);
                }
            } else if self.pruning == Pruning::Bounds {
                counters.check(RULE_BOUNDS);
                if !self.reachable(sum, open) {
                    return Err(RULE_BOUNDS);
                }
            }
        }
        Ok(())
    }

    fn undo(&mut self, mv: Placement) {
        self.value[mv.spot as usize] = None;
        self.used[mv.pool_index as usize] = false;
        self.filled -= 1;
    }

    fn solution(&self) -> Vec<i32> {
        self.instance.unknowns.iter().map(|&spot| self.value[spot].unwrap_or(0)).collect()
    }

    /// Reuses `into`'s buffer: a solution that is only counted allocates nothing.
    #[inline]
    fn write_solution(&self, into: &mut Vec<i32>) {
        into.clear();
        into.extend(self.instance.unknowns.iter().map(|&spot| self.value[spot].unwrap_or(0)));
    }
}
