//! The plan folder's key and the keyed digests made with it: `split` writes a random key
//! into `DIR/key` (mode 0600), every part signs its file and its incumbent file with a
//! keyed BLAKE3 hash of their content, `merge` and `explain --cluster` refuse a part whose
//! digest does not verify, and `merge` an incumbent file; a running part ignores one.
//!
//! What this detects and what it cannot (docs/cluster.md, "What the merge trusts"): an
//! edit after the part was written, a truncated file, a part of another plan, a part
//! made up by someone without the key. Anyone who can read the key can write a part the
//! merge accepts: it is a shared secret of the folder, not a signature.

use super::ClusterError;
use crate::files::atomic_write::create_temporary;
use crate::files::bounded_read::{read_bounded, ReadKind};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Bytes of a key.
const KEY_BYTES: usize = 32;
/// The prefix of a digest: the hash and the use of a key, so that a file says what
/// its digest is.
const DIGEST_PREFIX: &str = "blake3-keyed:";

/// A plan folder's key.
#[derive(Clone)]
pub struct Key([u8; KEY_BYTES]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never printed: an error message or a log must not carry it.
        f.write_str("Key(..)")
    }
}

/// The key file of the plan folder `dir`.
pub fn key_path(dir: &Path) -> PathBuf {
    dir.join("key")
}

/// Writes a fresh random key to `dir/key`, replacing any there (a folder split again
/// after its plan was removed: the old plan's parts must not verify with the new key).
/// The key is written to a temporary file created anew with mode 0600 (so it is never
/// readable by others, not even for a moment) and renamed into place.
pub fn write_new_key(dir: &Path) -> Result<Key, ClusterError> {
    let mut bytes = [0u8; KEY_BYTES];
    getrandom::getrandom(&mut bytes)
        .map_err(|error| ClusterError::failed(format!("cannot draw a random key for the plan: {error}")))?;
    let path = key_path(dir);
    let text = format!("{}\n", hex(&bytes));
    let cannot = |error: std::io::Error| {
        ClusterError::failed(format!("{}: cannot write the plan's key: {error}", path.display()))
    };
    let (temporary, mut file) = create_temporary(dir, "key", true).map_err(cannot)?;
    let result = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&temporary, &path));
    if let Err(error) = result {
        let _ = std::fs::remove_file(&temporary);
        return Err(cannot(error));
    }
    Ok(Key(bytes))
}

/// Reads the key of the plan folder `dir`; an error names the file and says what to do.
pub fn read_key(dir: &Path) -> Result<Key, ClusterError> {
    let path = key_path(dir);
    if std::fs::symlink_metadata(&path).is_err() {
        return Err(ClusterError::bad_input(format!(
            "{}: missing: the plan folder's key, with which the parts sign their files and the merge checks them; \
             restore it from a copy first (copy it with the plan): splitting again writes a new key, with which no \
             part already run verifies, so every part must run again (a folder split by an earlier version has \
             none: split it again into a new folder and run every part)",
            path.display()
        )));
    }
    let bytes =
        read_bounded(&path, ReadKind::ClusterFile).map_err(|refused| ClusterError::bad_input(refused.to_string()))?;
    let text = String::from_utf8_lossy(&bytes);
    let decoded = unhex(text.trim()).filter(|decoded| decoded.len() == KEY_BYTES);
    let decoded = decoded.ok_or_else(|| {
        ClusterError::bad_input(format!(
            "{}: not a key: expected {} hexadecimal digits (the file `split` wrote)",
            path.display(),
            KEY_BYTES * 2
        ))
    })?;
    let mut key = [0u8; KEY_BYTES];
    key.copy_from_slice(&decoded);
    Ok(Key(key))
}

impl Key {
    /// The keyed digest of `content`, as files write it (`blake3-keyed:<64 hex digits>`).
    pub fn digest(&self, content: &[u8]) -> String {
        format!("{DIGEST_PREFIX}{}", blake3::keyed_hash(&self.0, content).to_hex())
    }

    /// Whether `digest` is this key's digest of `content` (compared in constant time).
    pub fn verifies(&self, content: &[u8], digest: &str) -> bool {
        let Some(found) = digest.strip_prefix(DIGEST_PREFIX).and_then(|text| blake3::Hash::from_hex(text).ok()) else {
            return false;
        };
        // blake3::Hash's equality is constant-time.
        found == blake3::keyed_hash(&self.0, content)
    }
}

/// The file beside `plan.json` that holds the key's digest of the plan's content hash:
/// without it, anyone who can write the folder could edit `plan.json` (a lister's counts,
/// a branch and bound's starting value) before the parts run, and the parts, which record
/// the hash of the plan they ran, would carry the edit into the merge.
pub fn plan_digest_path(dir: &Path) -> PathBuf {
    dir.join("plan.digest")
}

/// The text of `plan.digest` for the plan whose content hash is `plan_hash`.
pub fn plan_digest(key: &Key, plan_hash: &str) -> String {
    format!("{}\n", key.digest(plan_hash.as_bytes()))
}

/// Checks that `plan.json` (its content hash `plan_hash`) is the plan `split` wrote into
/// `dir`: its digest in `plan.digest` verifies with the folder's key (exit 2 otherwise).
pub fn check_plan_digest(dir: &Path, plan_hash: &str) -> Result<(), ClusterError> {
    if plan_digest_verifies(dir, plan_hash)? {
        return Ok(());
    }
    Err(ClusterError::bad_input(format!(
        "{}: does not verify with the plan's key ({}): plan.json was edited after `split`, or the digest was; \
         split again",
        dir.join("plan.json").display(),
        plan_digest_path(dir).display()
    )))
}

/// Whether `plan.digest` in `dir` is the folder key's digest of `plan_hash`; an error when
/// the key or the digest cannot be read.
pub fn plan_digest_verifies(dir: &Path, plan_hash: &str) -> Result<bool, ClusterError> {
    let key = read_key(dir)?;
    let path = plan_digest_path(dir);
    if std::fs::symlink_metadata(&path).is_err() {
        return Err(ClusterError::bad_input(format!(
            "{}: missing: the keyed digest of plan.json that `split` writes (a folder split by an earlier version \
             has none: split again)",
            path.display()
        )));
    }
    let bytes =
        read_bounded(&path, ReadKind::ClusterFile).map_err(|refused| ClusterError::bad_input(refused.to_string()))?;
    Ok(key.verifies(plan_hash.as_bytes(), String::from_utf8_lossy(&bytes).trim()))
}

/// A file that carries a keyed digest of its own content: a part file, an incumbent file.
pub trait SignedFile: Serialize + Clone {
    /// The file's digest field (empty while the digest is computed).
    fn digest_field(&mut self) -> &mut String;
}

/// Signs `file` with `key`: its digest over the file's content with the digest empty, in
/// compact JSON (a canonical form: the same content gives the same bytes however the
/// file's text is laid out).
pub fn sign<F: SignedFile>(key: &Key, file: &mut F) {
    file.digest_field().clear();
    let digest = key.digest(&serde_json::to_vec(file).unwrap_or_default());
    *file.digest_field() = digest;
}

/// Whether `file`'s digest is `key`'s over its content ([`sign`]).
pub fn signed_by<F: SignedFile>(key: &Key, file: &F) -> bool {
    let mut content = file.clone();
    let digest = std::mem::take(content.digest_field());
    key.verifies(&serde_json::to_vec(&content).unwrap_or_default(), &digest)
}

/// The (unkeyed) BLAKE3 hash of `bytes` as files write it (`blake3:<64 hex digits>`): the
/// hash of a plan file, which a part records and its digest covers. Collision-resistant,
/// unlike the FNV hash used before: a plan edited to keep its hash is out of reach.
pub fn content_hash(bytes: &[u8]) -> String {
    format!("blake3:{}", blake3::hash(bytes).to_hex())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len()).step_by(2).map(|index| u8::from_str_radix(&text[index..index + 2], 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_verifies_with_its_key_only_and_only_for_its_content() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let key = write_new_key(dir.path()).expect("a key is written");
        let digest = key.digest(b"content");
        assert!(key.verifies(b"content", &digest));
        assert!(!key.verifies(b"content!", &digest), "an edit is detected");
        assert!(!key.verifies(b"content", &digest.replace("blake3-keyed:", "")), "the prefix is required");
        let again = read_key(dir.path()).expect("the key reads back");
        assert!(again.verifies(b"content", &digest));
        let other = write_new_key(dir.path()).expect("a second key replaces the first");
        assert!(!other.verifies(b"content", &digest), "another key does not verify it");
    }

    #[cfg(unix)]
    #[test]
    fn the_key_file_is_readable_by_its_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temporary folder");
        write_new_key(dir.path()).expect("a key is written");
        let mode = std::fs::metadata(key_path(dir.path())).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_missing_or_malformed_key_is_refused_naming_the_file() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let missing = read_key(dir.path()).expect_err("no key");
        let message = &missing.message;
        assert!(message.contains("key: missing") && message.contains("restore it from a copy first"), "{message}");
        assert!(message.contains("every part must run again"), "{message}");
        std::fs::write(key_path(dir.path()), "abc\n").unwrap();
        let malformed = read_key(dir.path()).expect_err("not a key");
        assert!(malformed.message.contains("key: not a key"), "{malformed}");
    }
}
