//! The 15-minute response cache (SPEC §11, §21): fetch keeps pages so paging with
//! `start_index` downloads once; search keeps a provider's answer so asking again costs the
//! provider (and the user's quota) nothing.
//!
//! One file per entry under the root's state directory (shared by its sessions), in a folder
//! per tool, named by a hash of the key. The first line is `{"key", "fetched_at"}`, the rest is
//! the tool's payload. Each file is replaced atomically, so readers need no lock; a torn or
//! foreign file, a key that does not match (a hash collision) or an old entry reads as a miss.

use crate::error::{Result, ToolError};
use crate::state;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::{Duration, SystemTime};

pub const TTL: Duration = Duration::from_secs(15 * 60);

#[derive(Serialize, Deserialize)]
struct Head {
    key: String,
    fetched_at: u64,
}

fn file_name(key: &str) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(key.as_bytes()))
}

/// The payload stored under `key` in `dir`, if younger than 15 minutes at `now`.
pub fn load(dir: &Path, key: &str, now: u64) -> Option<Vec<u8>> {
    let bytes = std::fs::read(dir.join(file_name(key))).ok()?;
    let nl = bytes.iter().position(|&b| b == b'\n')?;
    let head: Head = serde_json::from_slice(&bytes[..nl]).ok()?;
    // A clock far behind the entry is not trusted either.
    let fresh = head.fetched_at <= now + 60 && now.saturating_sub(head.fetched_at) < TTL.as_secs();
    (head.key == key && fresh).then(|| bytes[nl + 1..].to_vec())
}

/// Stores `payload` under `key` in `dir` (created if missing), dropping expired entries first.
pub fn store(dir: &Path, key: &str, payload: &[u8], now: u64) -> Result<()> {
    state::create_dir(dir)?;
    prune(dir);
    let head = Head {
        key: key.to_string(),
        fetched_at: now,
    };
    let mut bytes =
        serde_json::to_vec(&head).map_err(|e| ToolError::internal(format!("cache entry: {e}")))?;
    bytes.push(b'\n');
    bytes.extend_from_slice(payload);
    state::write_atomic(dir, &file_name(key), &bytes, false)
}

/// Removes expired entries (best effort), so the cache holds at most 15 minutes of answers.
fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let limit = SystemTime::now() - TTL;
    for e in entries.flatten() {
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t < limit);
        if old {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_within_fifteen_minutes_and_not_after() {
        let t = tempfile::tempdir().unwrap();
        let payload = b"line one\nline two\x00\xff";
        store(t.path(), "k", payload, 1_000_000).unwrap();
        assert_eq!(
            load(t.path(), "k", 1_000_000).as_deref(),
            Some(&payload[..])
        );
        assert_eq!(
            load(t.path(), "k", 1_000_000 + 899).as_deref(),
            Some(&payload[..])
        );
        assert_eq!(load(t.path(), "k", 1_000_000 + 900), None);
        assert_eq!(load(t.path(), "k", 1_000_000 - 3600), None);
        assert_eq!(load(t.path(), "other", 1_000_000), None);
    }

    #[test]
    fn a_damaged_or_foreign_entry_is_a_miss() {
        let t = tempfile::tempdir().unwrap();
        store(t.path(), "k", b"x", 50).unwrap();
        let f = t.path().join(file_name("k"));
        std::fs::write(&f, b"{not json\nbody").unwrap();
        assert_eq!(load(t.path(), "k", 50), None);
        std::fs::write(&f, b"no newline at all").unwrap();
        assert_eq!(load(t.path(), "k", 50), None);
        // The right file name with another key inside (a collision) is not this entry.
        std::fs::write(&f, b"{\"key\":\"j\",\"fetched_at\":50}\nbody").unwrap();
        assert_eq!(load(t.path(), "k", 50), None);
    }
}
