//! FNV-1a, 64 bits: the stable hash behind configuration ids and instance labels. Stable
//! across builds and platforms (unlike `std`'s hasher), cheap, and not a check against
//! deliberate edits: what must resist those (a plan file) is hashed with BLAKE3.

/// FNV-1a of `bytes`, 64 bits, as 16 hex digits.
pub(crate) fn fnv1a(bytes: &[u8]) -> String {
    let hash = bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3));
    format!("{hash:016x}")
}
