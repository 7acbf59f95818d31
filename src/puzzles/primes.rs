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
    if n % 2 == 0 {
        return n == 2;
    }
    let mut divisor = 3;
    while divisor * divisor <= n {
        if n % divisor == 0 {
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
}
