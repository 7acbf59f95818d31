//! Whether a region can still reach its target: a bounded subset sum over the digits its
//! undecided cells may take.

/// Between `least` and `most` more cells holding `digit`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DigitRange {
    /// The digit (a hook number).
    pub digit: u32,
    /// Fewest cells that must still take it.
    pub least: u32,
    /// Most cells that may still take it.
    pub most: u32,
}

impl DigitRange {
    /// What a hook numbered `digit` can still give one region: it has `quota` digits left to
    /// place, `in_region` undecided cells in the region and `elsewhere` outside it. At most
    /// all its cells here (and no more than its digits); at least the digits its other cells
    /// cannot hold. `None` when even that is more than it has here (its cells are too few).
    #[inline]
    pub fn for_hook(digit: u32, quota: u32, in_region: u32, elsewhere: u32) -> Option<DigitRange> {
        let least = quota.saturating_sub(elsewhere);
        let most = in_region.min(quota);
        (least <= most).then_some(DigitRange { digit, least, most })
    }
}

/// Largest shortfall tested exactly, one bit per reachable sum in a `u128`. A larger one is
/// tested by its bounds only, which can keep a hopeless branch but never cuts a good one.
pub const EXACT_LIMIT: u32 = 127;

/// Whether `needed` = sum of `x * digit` over `ranges` (each `x` in `least..=most`) plus
/// a wildcard part anywhere in `0..=wildcard` (cells whose digit is not known yet).
#[inline]
pub fn reachable(needed: u32, ranges: &[DigitRange], wildcard: u32) -> bool {
    let mut least_total = 0;
    let mut most_total = wildcard;
    for range in ranges {
        least_total += range.least * range.digit;
        most_total += range.most * range.digit;
    }
    if needed < least_total || needed > most_total {
        return false;
    }
    if needed > EXACT_LIMIT {
        return true;
    }
    // The same test on half the width when the sums fit: the usual case, and cheaper.
    if needed < u64::BITS {
        reachable_exactly::<u64>(needed, ranges, wildcard)
    } else {
        reachable_exactly::<u128>(needed, ranges, wildcard)
    }
}

/// An unsigned integer used as a set of sums, one bit per sum.
pub(super) trait SumSet:
    Copy
    + PartialEq
    + std::ops::BitOr<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::BitAnd<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::ShlAssign<u32>
    + Into<u128>
{
    const NONE: Self;
    const ONLY_ZERO: Self;
    const EVERY: Self;
    const BITS: u32;

    /// The sums 0..=`largest` (every sum the set can hold when `largest` is past its end).
    #[inline]
    fn up_to(largest: u32) -> Self {
        if largest >= Self::BITS - 1 {
            Self::EVERY
        } else {
            !(Self::EVERY << (largest + 1))
        }
    }
}

impl SumSet for u64 {
    const NONE: u64 = 0;
    const ONLY_ZERO: u64 = 1;
    const EVERY: u64 = u64::MAX;
    const BITS: u32 = u64::BITS;
}

impl SumSet for u128 {
    const NONE: u128 = 0;
    const ONLY_ZERO: u128 = 1;
    const EVERY: u128 = u128::MAX;
    const BITS: u32 = u128::BITS;
}

/// The sums of `sums` plus between `range.least` and `range.most` copies of
/// `range.digit`, only those in `keep` (sums past the set's end are dropped).
#[inline]
pub(super) fn add_copies<S: SumSet>(sums: S, range: DigitRange, keep: S) -> S {
    let first = range.least * range.digit;
    if first >= S::BITS {
        return S::NONE;
    }
    let mut shifted = sums << first;
    let mut next = S::NONE;
    for _ in range.least..=range.most {
        next |= shifted;
        // A digit is at most 11 < S::BITS; the bits shifted out are past the set's end.
        shifted <<= range.digit;
    }
    next & keep
}

/// The exact part of [`reachable`] once the bounds pass, `needed < S::BITS`: the sums the
/// ranges can make, one bit each, added range by range.
#[inline]
fn reachable_exactly<S: SumSet>(needed: u32, ranges: &[DigitRange], wildcard: u32) -> bool {
    let keep = S::up_to(needed);
    let mut sums = S::ONLY_ZERO;
    for &range in ranges {
        sums = add_copies(sums, range, keep);
        if sums == S::NONE {
            return false;
        }
    }
    let lowest = needed.saturating_sub(wildcard);
    sums & keep & (S::EVERY << lowest) != S::NONE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(digit: u32, least: u32, most: u32) -> DigitRange {
        DigitRange { digit, least, most }
    }

    /// The same question answered by trying every combination.
    fn by_enumeration(needed: u32, ranges: &[DigitRange], wildcard: u32) -> bool {
        fn go(needed: i64, ranges: &[DigitRange], wildcard: i64) -> bool {
            match ranges.split_first() {
                None => (0..=wildcard).contains(&needed),
                Some((first, rest)) => {
                    (first.least..=first.most).any(|x| go(needed - i64::from(x * first.digit), rest, wildcard))
                }
            }
        }
        go(i64::from(needed), ranges, i64::from(wildcard))
    }

    #[test]
    fn fifteen_from_sevens_and_eights_needs_one_of_each() {
        assert!(reachable(15, &[range(7, 0, 1), range(8, 0, 1)], 0));
        assert!(!reachable(15, &[range(7, 0, 2), range(9, 0, 1)], 0));
        assert!(!reachable(14, &[range(7, 0, 1), range(8, 0, 1)], 0));
        assert!(reachable(17, &[range(7, 0, 1), range(8, 0, 1)], 3));
        assert!(!reachable(15, &[range(9, 1, 1)], 5), "9 forced, 6 more from a wildcard of 5: no");
    }

    #[test]
    fn agrees_with_enumeration_on_small_cases() {
        let cases = [
            vec![range(9, 0, 3), range(4, 1, 2)],
            vec![range(2, 0, 2), range(3, 1, 3), range(5, 0, 1)],
            vec![range(6, 2, 2)],
            vec![],
        ];
        for ranges in &cases {
            for wildcard in [0, 2, 7] {
                for needed in 0..=60 {
                    assert_eq!(
                        reachable(needed, ranges, wildcard),
                        by_enumeration(needed, ranges, wildcard),
                        "{needed} {ranges:?} {wildcard}"
                    );
                }
            }
        }
        // Shortfalls of 64 and more take the 128-bit path.
        let wide = [range(11, 0, 6), range(10, 1, 3), range(7, 0, 4)];
        for needed in 50..=127 {
            assert_eq!(reachable(needed, &wide, 3), by_enumeration(needed, &wide, 3), "{needed}");
        }
        assert!(reachable(200, &[range(11, 0, 11), range(10, 0, 10)], 0), "large: bounds only");
        assert!(!reachable(300, &[range(11, 0, 11), range(10, 0, 10)], 0));
    }
}
