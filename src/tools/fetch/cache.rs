//! The 15-minute response cache (SPEC §11, 16.7), so paging through a page with `start_index`
//! downloads it once.
//!
//! It keeps the raw body (gzip decoded, charset not yet applied) keyed by the URL and whether
//! private addresses were allowed: a page fetched under `--allow-private` is never served to a
//! call without it. `mode` and `selector` are applied per call, so one entry serves them all.
//! It lives under the root's state directory, shared by its sessions. Each entry is one file,
//! replaced atomically, so readers need no lock; a torn or foreign file reads as a miss.

use crate::context::Ctx;
use crate::error::Result;
use crate::state;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

pub const TTL: Duration = Duration::from_secs(15 * 60);

/// A successful response, as the network gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub url: String,
    pub status: u16,
    pub content_type: Option<String>,
    pub redirects: Vec<String>,
    pub body: Vec<u8>,
}

/// The first line of an entry file; the body follows it.
#[derive(Serialize, Deserialize)]
struct Meta {
    key: String,
    allow_private: bool,
    fetched_at: u64,
    url: String,
    status: u16,
    content_type: Option<String>,
    redirects: Vec<String>,
}

pub fn dir(ctx: &Ctx) -> PathBuf {
    state::root_dir(ctx).join("fetch-cache")
}

fn file_name(key: &str, allow_private: bool) -> String {
    let h = xxhash_rust::xxh3::xxh3_128(format!("{allow_private}\n{key}").as_bytes());
    format!("{h:032x}")
}

fn now() -> u64 {
    state::unix_secs()
}

pub fn load(ctx: &Ctx, key: &str, allow_private: bool) -> Option<Entry> {
    load_at(&dir(ctx), key, allow_private, now())
}

fn load_at(dir: &Path, key: &str, allow_private: bool, now: u64) -> Option<Entry> {
    let bytes = std::fs::read(dir.join(file_name(key, allow_private))).ok()?;
    let nl = bytes.iter().position(|&b| b == b'\n')?;
    let meta: Meta = serde_json::from_slice(&bytes[..nl]).ok()?;
    let fresh = meta.fetched_at <= now + 60 && now.saturating_sub(meta.fetched_at) < TTL.as_secs();
    if meta.key != key || meta.allow_private != allow_private || !fresh {
        return None;
    }
    Some(Entry {
        url: meta.url,
        status: meta.status,
        content_type: meta.content_type,
        redirects: meta.redirects,
        body: bytes[nl + 1..].to_vec(),
    })
}

pub fn store(ctx: &Ctx, key: &str, allow_private: bool, entry: &Entry) -> Result<()> {
    store_at(&dir(ctx), key, allow_private, entry, now())
}

fn store_at(dir: &Path, key: &str, allow_private: bool, entry: &Entry, now: u64) -> Result<()> {
    crate::state::create_dir(dir)?;
    prune(dir);
    let meta = Meta {
        key: key.to_string(),
        allow_private,
        fetched_at: now,
        url: entry.url.clone(),
        status: entry.status,
        content_type: entry.content_type.clone(),
        redirects: entry.redirects.clone(),
    };
    let mut bytes = serde_json::to_vec(&meta)
        .map_err(|e| crate::error::ToolError::internal(format!("cache entry: {e}")))?;
    bytes.push(b'\n');
    bytes.extend_from_slice(&entry.body);
    state::write_atomic(dir, &file_name(key, allow_private), &bytes, false)
}

/// Removes expired entries (best effort), so the cache holds at most 15 minutes of pages.
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

    fn entry() -> Entry {
        Entry {
            url: "http://203.0.113.1/final".into(),
            status: 200,
            content_type: Some("text/html; charset=utf-8".into()),
            redirects: vec!["http://203.0.113.1/start".into()],
            body: b"<p>line one\nline two</p>\x00\xff".to_vec(),
        }
    }

    #[test]
    fn round_trip_within_fifteen_minutes_and_not_after() {
        let t = tempfile::tempdir().unwrap();
        let key = "http://203.0.113.1/start";
        store_at(t.path(), key, false, &entry(), 1_000_000).unwrap();
        assert_eq!(load_at(t.path(), key, false, 1_000_000), Some(entry()));
        assert_eq!(
            load_at(t.path(), key, false, 1_000_000 + 899),
            Some(entry())
        );
        assert_eq!(load_at(t.path(), key, false, 1_000_000 + 900), None);
        // A clock far behind the entry is not trusted either.
        assert_eq!(load_at(t.path(), key, false, 1_000_000 - 3600), None);
    }

    #[test]
    fn keyed_by_url_and_by_whether_private_addresses_were_allowed() {
        let t = tempfile::tempdir().unwrap();
        store_at(t.path(), "http://127.0.0.1:1/", true, &entry(), 50).unwrap();
        assert!(load_at(t.path(), "http://127.0.0.1:1/", true, 50).is_some());
        assert_eq!(load_at(t.path(), "http://127.0.0.1:1/", false, 50), None);
        assert_eq!(load_at(t.path(), "http://127.0.0.1:1/x", true, 50), None);
    }

    #[test]
    fn a_damaged_entry_is_a_miss() {
        let t = tempfile::tempdir().unwrap();
        let key = "http://203.0.113.1/";
        store_at(t.path(), key, false, &entry(), 50).unwrap();
        let f = t.path().join(file_name(key, false));
        std::fs::write(&f, b"{not json\nbody").unwrap();
        assert_eq!(load_at(t.path(), key, false, 50), None);
        std::fs::write(&f, b"no newline at all").unwrap();
        assert_eq!(load_at(t.path(), key, false, 50), None);
    }
}
