//! Prime numbers for the prime grid: a sieve kept as a bitset, and plain trial division.

/// The primality of every number up to a limit, one bit per number.
///
/// Numbers above the limit are answered by trial division, so a query is never wrong, only
/// slower; the grid sizes the table so that its hot queries stay inside it.
#[derive(Debug, Clone)]
pub struct PrimeTable {
    /// Bit `n % 64` of word `n / 64` is set when `n` is prime.
    words: Vec<u64>,
    limit: u32,
}

impl PrimeTable {
    /// The sieve of Eratosthenes over `0..=limit`.
    pub fn up_to(limit: u32) -> PrimeTable {
        let size = limit as usize + 1;
        let mut words = vec![u64::MAX; size.div_ceil(64)];
        words[0] &= !0b11; // 0 and 1 are not prime
        let mut factor = 2usize;
        while factor * factor < size {
            if words[factor / 64] >> (factor % 64) & 1 == 1 {
                for multiple in (factor * factor..size).step_by(factor) {
                    words[multiple / 64] &= !(1u64 << (multiple % 64));
                }
            }
            factor += 1;
        }
        // Numbers above the limit share the last word; they are not in the table.
        if !size.is_multiple_of(64) {
            let last = words.len() - 1;
            words[last] &= (1u64 << (size % 64)) - 1;
        }
        PrimeTable { words, limit }
    }

    /// Whether `n` is prime.
    #[inline]
    pub fn is_prime(&self, n: u32) -> bool {
        if n <= self.limit {
            self.words[n as usize / 64] >> (n % 64) & 1 == 1
        } else {
            is_prime_by_trial_division(u64::from(n))
        }
    }

    /// The primality of the 64 numbers from `start + 64 * word` on, as the bits of one word
    /// (bit `i` for `start + 64 * word + i`). Numbers above the limit read as not prime:
    /// callers size the table to cover every window they ask for.
    #[inline]
    pub fn window(&self, start: u32, word: usize) -> u64 {
        let first = start as usize + 64 * word;
        let (index, shift) = (first / 64, first % 64);
        let low = self.words.get(index).copied().unwrap_or(0) >> shift;
        if shift == 0 {
            low
        } else {
            low | self.words.get(index + 1).copied().unwrap_or(0) << (64 - shift)
        }
    }

    /// The primes below `bound`, ascending.
    pub fn primes_below(&self, bound: u32) -> Vec<u32> {
        (2..bound).filter(|&n| self.is_prime(n)).collect()
    }
}

/// Whether `n` is prime, by trial division: slow, simple and independent of any table, so
/// that checkers can use it to re-check what a search found.
pub fn is_prime_by_trial_division(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    if n.is_multiple_of(2) {
        return n == 2;
    }
    let mut divisor = 3;
    while divisor * divisor <= n {
        if n.is_multiple_of(divisor) {
            return false;
        }
        divisor += 2;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sieve_agrees_with_trial_division_and_counts_25_primes_below_100() {
        let table = PrimeTable::up_to(1000);
        for n in 0..1200 {
            assert_eq!(table.is_prime(n), is_prime_by_trial_division(u64::from(n)), "n = {n}");
        }
        assert_eq!(table.primes_below(100).len(), 25);
        assert_eq!(PrimeTable::up_to(0).primes_below(10), vec![2, 3, 5, 7]);
    }

    #[test]
    fn windows_read_64_primality_bits_from_any_start() {
        let table = PrimeTable::up_to(700);
        for start in [0, 1, 63, 64, 65, 130, 500] {
            for word in 0..3 {
                let bits = table.window(start, word);
                for bit in 0..64u32 {
                    let n = start + 64 * word as u32 + bit;
                    let expected = n <= 700 && is_prime_by_trial_division(u64::from(n));
                    assert_eq!(bits >> bit & 1 == 1, expected, "n = {n}");
                }
            }
        }
    }
}
