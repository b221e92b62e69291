//! fetch's entries in the shared 15-minute cache (SPEC §11, 16.7), so paging through a page
//! with `start_index` downloads it once.
//!
//! It keeps the raw body (gzip decoded, charset not yet applied) keyed by the URL and whether
//! private addresses were allowed: a page fetched under `--allow-private` is never served to a
//! call without it. `mode` and `selector` are applied per call, so one entry serves them all.
//! The payload is a JSON line of response facts, then the body.

use crate::context::Ctx;
use crate::error::{Result, ToolError};
use crate::state;
use crate::web::cache;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A successful response, as the network gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub url: String,
    pub status: u16,
    pub content_type: Option<String>,
    pub redirects: Vec<String>,
    pub body: Vec<u8>,
}

/// The first line of the payload; the body follows it.
#[derive(Serialize, Deserialize)]
struct Meta {
    url: String,
    status: u16,
    content_type: Option<String>,
    redirects: Vec<String>,
}

pub fn dir(ctx: &Ctx) -> PathBuf {
    state::root_dir(ctx).join("fetch-cache")
}

fn key(url: &str, allow_private: bool) -> String {
    format!("{allow_private}\n{url}")
}

pub fn load(ctx: &Ctx, url: &str, allow_private: bool) -> Option<Entry> {
    load_at(&dir(ctx), url, allow_private, state::unix_secs())
}

fn load_at(dir: &Path, url: &str, allow_private: bool, now: u64) -> Option<Entry> {
    let bytes = cache::load(dir, &key(url, allow_private), now)?;
    let nl = bytes.iter().position(|&b| b == b'\n')?;
    let meta: Meta = serde_json::from_slice(&bytes[..nl]).ok()?;
    Some(Entry {
        url: meta.url,
        status: meta.status,
        content_type: meta.content_type,
        redirects: meta.redirects,
        body: bytes[nl + 1..].to_vec(),
    })
}

pub fn store(ctx: &Ctx, url: &str, allow_private: bool, entry: &Entry) -> Result<()> {
    store_at(&dir(ctx), url, allow_private, entry, state::unix_secs())
}

fn store_at(dir: &Path, url: &str, allow_private: bool, entry: &Entry, now: u64) -> Result<()> {
    let meta = Meta {
        url: entry.url.clone(),
        status: entry.status,
        content_type: entry.content_type.clone(),
        redirects: entry.redirects.clone(),
    };
    let mut bytes =
        serde_json::to_vec(&meta).map_err(|e| ToolError::internal(format!("cache entry: {e}")))?;
    bytes.push(b'\n');
    bytes.extend_from_slice(&entry.body);
    cache::store(dir, &key(url, allow_private), &bytes, now)
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
        let url = "http://203.0.113.1/start";
        store_at(t.path(), url, false, &entry(), 1_000_000).unwrap();
        assert_eq!(load_at(t.path(), url, false, 1_000_000), Some(entry()));
        assert_eq!(
            load_at(t.path(), url, false, 1_000_000 + 899),
            Some(entry())
        );
        assert_eq!(load_at(t.path(), url, false, 1_000_000 + 900), None);
    }

    #[test]
    fn keyed_by_url_and_by_whether_private_addresses_were_allowed() {
        let t = tempfile::tempdir().unwrap();
        store_at(t.path(), "http://127.0.0.1:1/", true, &entry(), 50).unwrap();
        assert!(load_at(t.path(), "http://127.0.0.1:1/", true, 50).is_some());
        assert_eq!(load_at(t.path(), "http://127.0.0.1:1/", false, 50), None);
        assert_eq!(load_at(t.path(), "http://127.0.0.1:1/x", true, 50), None);
    }
}
