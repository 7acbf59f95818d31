//! Thread counts as flags and specs write them: one count (`--threads 4`), or a list of
//! counts and expressions of the core count (`1,2,cores*2`, `1..cores`) that `sweep
//! --threads`, a spec's `threads` and `explain --predict` take. Crate-private: the
//! vocabulary of the workbench's own flags, not of the library.

use crate::parallel::{check_thread_count, MAX_THREADS};

/// Parses and checks a thread count given as text (`--threads 4`): the one parser of a
/// single count; the range is the parallel layer's [`check_thread_count`].
pub(crate) fn parse_thread_count(text: &str) -> Result<usize, String> {
    let threads = text
        .trim()
        .parse::<usize>()
        .map_err(|_| format!("`{text}` is not a thread count; a thread count must be between 1 and {MAX_THREADS}"))?;
    check_thread_count(threads)
}

/// One entry of a `threads` list: a number, an expression of the core count, or a range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreadCount {
    /// One thread count.
    Single(ThreadTerm),
    /// Powers of two from the first term below the second, then the second term.
    Range(ThreadTerm, ThreadTerm),
}

/// A thread count: `4`, `cores`, `cores*2`, `cores+1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreadTerm {
    /// A fixed number.
    Fixed(usize),
    /// `cores * times + plus`, where `cores` is `available_parallelism`.
    Cores {
        /// Multiplier.
        times: usize,
        /// Addend.
        plus: usize,
    },
}

impl ThreadTerm {
    fn resolve(self, cores: usize) -> usize {
        match self {
            ThreadTerm::Fixed(count) => count,
            ThreadTerm::Cores { times, plus } => cores * times + plus,
        }
    }

    fn parse(text: &str) -> Option<ThreadTerm> {
        let text = text.trim();
        if text.starts_with(|c: char| c.is_ascii_digit()) {
            return parse_thread_count(text).ok().map(ThreadTerm::Fixed);
        }
        let rest = text.strip_prefix("cores")?;
        if rest.is_empty() {
            return Some(ThreadTerm::Cores { times: 1, plus: 0 });
        }
        if let Some(times) = rest.strip_prefix('*') {
            let times = parse_thread_count(times).ok()?;
            return Some(ThreadTerm::Cores { times, plus: 0 });
        }
        let plus = rest.strip_prefix('+')?.trim().parse::<usize>().ok().filter(|&plus| plus <= MAX_THREADS)?;
        Some(ThreadTerm::Cores { times: 1, plus })
    }
}

impl ThreadCount {
    /// One fixed count, checked.
    pub fn fixed(threads: usize) -> Result<ThreadCount, String> {
        check_thread_count(threads).map(|threads| ThreadCount::Single(ThreadTerm::Fixed(threads)))
    }

    /// Parses `4`, `cores`, `cores*2`, `cores+1` or a range `1..cores`.
    pub fn parse(text: &str) -> Result<ThreadCount, String> {
        let parsed = match text.split_once("..") {
            Some((from, to)) => {
                ThreadTerm::parse(from).zip(ThreadTerm::parse(to)).map(|(a, b)| ThreadCount::Range(a, b))
            }
            None => ThreadTerm::parse(text).map(ThreadCount::Single),
        };
        // A range runs upwards: `5..1` would have run 5 threads only, silently.
        if let Some(ThreadCount::Range(ThreadTerm::Fixed(from), ThreadTerm::Fixed(to))) = parsed {
            if from > to {
                return Err(format!("`{text}`: a range runs from the smaller count up, e.g. `{to}..{from}`"));
            }
        }
        parsed.ok_or_else(|| {
            format!("`{text}` is not a thread count; expected an integer from 1 to {MAX_THREADS}, `cores`, `cores*N`, `cores+N` or a range `A..B` of those")
        })
    }

    /// The thread counts for a machine with `cores` available threads, ascending.
    pub fn resolve(self, cores: usize) -> Vec<usize> {
        match self {
            ThreadCount::Single(term) => vec![term.resolve(cores)],
            ThreadCount::Range(from, to) => {
                let (from, to) = (from.resolve(cores), to.resolve(cores));
                let mut counts = Vec::new();
                let mut count = from.max(1);
                while count < to {
                    counts.push(count);
                    count *= 2;
                }
                counts.push(to.max(from));
                counts
            }
        }
    }
}

/// Parses a comma-separated thread list (`1,2,cores*2`), as `--threads` of `sweep` and
/// `--predict` of `explain` take it.
pub(crate) fn parse_thread_list(text: &str) -> Result<Vec<ThreadCount>, String> {
    text.split(',').map(ThreadCount::parse).collect()
}

/// A thread list resolved for a machine with `cores` available threads, in the order given.
pub(crate) fn resolve_thread_list(list: &[ThreadCount], cores: usize) -> Vec<usize> {
    list.iter().flat_map(|count| count.resolve(cores)).collect()
}

/// Refuses a list with a count past the pool's cap on a machine with `cores` available
/// threads (`cores*4` on a 512-core machine), saying which: refused once, where the list
/// is given, rather than run by run. The caller names the flag or the spec's key.
/// A range that starts at an expression of the core count and runs downwards on this
/// machine (`cores..1`) is refused, as a range of numbers that runs downwards is where it is
/// parsed: it ran its first count only. One that starts at a number (`8..cores`, shared
/// between machines) runs that number where the machine has fewer cores.
pub(crate) fn check_the_cap(list: &[ThreadCount], cores: usize) -> Result<(), String> {
    for count in list {
        if let ThreadCount::Range(from @ ThreadTerm::Cores { .. }, to) = count {
            let (low, high) = (from.resolve(cores), to.resolve(cores));
            if low > high {
                return Err(format!(
                    "a range from {low} down to {high} threads on this machine ({cores} cores); a range runs from \
                     the smaller count up"
                ));
            }
        }
    }
    match resolve_thread_list(list, cores).into_iter().find(|&count| count > MAX_THREADS) {
        Some(count) => Err(format!("{count} threads on this machine ({cores} cores); at most {MAX_THREADS}")),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(text: &str) -> Vec<usize> {
        resolve_thread_list(&parse_thread_list(text).unwrap(), 6)
    }

    #[test]
    fn thread_lists_resolve_core_expressions_and_ranges() {
        assert_eq!(resolved("1,cores,cores*2,cores+1"), vec![1, 6, 12, 7]);
        assert_eq!(resolved("1..cores"), vec![1, 2, 4, 6]);
        assert_eq!(resolved("1..cores*4"), vec![1, 2, 4, 8, 16, 24]);
        assert_eq!(resolved("1,2, 4"), vec![1, 2, 4]);
        assert_eq!(
            parse_thread_list("5..1").unwrap_err(),
            "`5..1`: a range runs from the smaller count up, e.g. `1..5`"
        );
        assert_eq!(check_the_cap(&parse_thread_list("1,cores*2").unwrap(), 6), Ok(()));
        let downwards = check_the_cap(&parse_thread_list("cores..1").unwrap(), 6).unwrap_err();
        assert!(downwards.contains("from 6 down to 1"), "{downwards}");
        assert_eq!(check_the_cap(&parse_thread_list("8..cores").unwrap(), 6), Ok(()));
        assert_eq!(
            check_the_cap(&parse_thread_list("1,cores+1024").unwrap(), 6).unwrap_err(),
            "1030 threads on this machine (6 cores); at most 1024"
        );
    }

    #[test]
    fn thread_counts_out_of_range_or_malformed_are_refused() {
        assert!(parse_thread_list("0").is_err());
        assert!(parse_thread_list("cores*0").is_err());
        assert!(parse_thread_list("2,x").is_err());
        assert!(parse_thread_list(&(MAX_THREADS + 1).to_string()).is_err());
        assert!(parse_thread_list("many").unwrap_err().contains("`many` is not a thread count"));
        assert!(parse_thread_count("0").unwrap_err().contains("between 1 and"));
        assert_eq!(parse_thread_count(" 3 "), Ok(3));
    }
}
