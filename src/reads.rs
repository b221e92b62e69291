//! Read records (SPEC §5, 16.4, 16.5): what this session last saw of each file.
//!
//! Freshness is decided by content. A record holds size, mtime and a content hash; a file is
//! fresh when its current content hashes the same, whatever its mtime says (no false
//! `stale_read` after a `touch` or a checkout), and stale when the content differs even if size
//! and mtime were put back.

use crate::context::Ctx;
use crate::error::{Code, Result, ToolError};
use crate::state::StateLock;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

pub const FILE: &str = "reads.json";

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    pub size: u64,
    pub mtime_ns: i64,
    /// xxh3-64 of the whole content, as 16 hex digits.
    #[serde(with = "hex_u64")]
    pub hash: u64,
}

mod hex_u64 {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{v:016x}"))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let s = String::deserialize(d)?;
        u64::from_str_radix(&s, 16).map_err(serde::de::Error::custom)
    }
}

pub fn mtime_ns(m: &std::fs::Metadata) -> i64 {
    m.mtime()
        .saturating_mul(1_000_000_000)
        .saturating_add(m.mtime_nsec())
}

impl Fingerprint {
    pub fn of_bytes(bytes: &[u8], meta: &std::fs::Metadata) -> Fingerprint {
        Fingerprint {
            size: bytes.len() as u64,
            mtime_ns: mtime_ns(meta),
            hash: xxhash_rust::xxh3::xxh3_64(bytes),
        }
    }

    /// Streams the file through the hash without holding it in memory.
    pub fn of_file(path: &Path) -> std::io::Result<Fingerprint> {
        let mut f = std::fs::File::open(path)?;
        let meta = f.metadata()?;
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        let mut buf = vec![0u8; 64 * 1024];
        let mut size = 0u64;
        loop {
            let n = f.read(&mut buf)?;
            if n == 0 {
                break;
            }
            size += n as u64;
            hasher.update(&buf[..n]);
        }
        Ok(Fingerprint {
            size,
            mtime_ns: mtime_ns(&meta),
            hash: hasher.digest(),
        })
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    #[serde(flatten)]
    pub fingerprint: Fingerprint,
    pub read_at: String,
}

/// The session's records, keyed by real path.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Reads {
    pub files: BTreeMap<String, Record>,
}

fn key(real: &Path) -> String {
    real.to_string_lossy().into_owned()
}

/// Records that this session has seen `real` as `fp` (after a read, write or edit).
pub fn record(lock: &StateLock, real: &Path, fp: Fingerprint) -> Result<()> {
    record_all(lock, &[(real.to_path_buf(), fp)])
}

/// Records several files with one load and one save of the records (read's `paths`).
pub fn record_all(lock: &StateLock, files: &[(std::path::PathBuf, Fingerprint)]) -> Result<()> {
    let mut reads: Reads = lock.load(FILE)?;
    let now = crate::state::now();
    for (real, fp) in files {
        reads.files.insert(
            key(real),
            Record {
                fingerprint: *fp,
                read_at: now.clone(),
            },
        );
    }
    lock.save(FILE, &reads, false)
}

/// Drops the record of a file that no longer exists (undo of a creation).
pub fn forget(lock: &StateLock, real: &Path) -> Result<()> {
    let mut reads: Reads = lock.load(FILE)?;
    if reads.files.remove(&key(real)).is_some() {
        lock.save(FILE, &reads, false)?;
    }
    Ok(())
}

/// Under the file lock: may this session overwrite `real`, whose current content is `current`?
/// `record` is what `lookup` returned before the lock was taken.
pub fn check_fresh(
    ctx: &Ctx,
    shown: &str,
    record: Option<&Record>,
    current: &Fingerprint,
) -> Result<()> {
    if !ctx.read_check {
        return Ok(());
    }
    match record {
        None => Err(ToolError::new(Code::NotRead, format!("{shown} has not been read in this session")).with("path", shown).hint(
            format!("Read {shown} first (read tool), then retry; its current content may differ from what you expect."),
        )),
        Some(r) if r.fingerprint.hash != current.hash || r.fingerprint.size != current.size => Err(ToolError::new(
            Code::StaleRead,
            format!("{shown} has changed since this session last read or wrote it"),
        )
        .with("path", shown)
        .hint(format!("Read {shown} again to see its current content, then redo the change."))),
        Some(_) => Ok(()),
    }
}
