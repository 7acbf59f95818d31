//! Sets of values as bitsets indexed by value, 64 values per word.

/// The positions of the set bits of a bitset, ascending.
pub(super) struct SetBits<'a> {
    words: &'a [u64],
    word_index: usize,
    /// What is left of `words[word_index]`.
    word: u64,
}

impl<'a> SetBits<'a> {
    #[inline]
    pub(super) fn new(words: &'a [u64]) -> SetBits<'a> {
        SetBits { words, word_index: 0, word: words.first().copied().unwrap_or(0) }
    }
}

impl Iterator for SetBits<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        while self.word == 0 {
            self.word_index += 1;
            self.word = *self.words.get(self.word_index)?;
        }
        let bit = self.word.trailing_zeros();
        self.word &= self.word - 1;
        Some(self.word_index as u32 * 64 + bit)
    }
}

/// Whether no bit of `words` is set.
#[inline]
pub(super) fn is_empty(words: &[u64]) -> bool {
    words.iter().fold(0, |any, &word| any | word) == 0
}

/// The bits of word `word` of a bitset that stand for numbers below `bound`.
#[inline]
pub(super) fn bits_below(bound: u32, word: usize) -> u64 {
    let first = 64 * word as u64;
    match u64::from(bound).saturating_sub(first) {
        0 => 0,
        room if room >= 64 => u64::MAX,
        room => (1 << room) - 1,
    }
}
