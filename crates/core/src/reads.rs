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
use std::path::{Path, PathBuf};

/// Where a session kept its records before the sharded store (migrated on first use).
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

/// The read records live one per file in `reads/` in the session directory, named by a hash
/// of the file's real path (issue 22): recording, looking up or forgetting one file touches
/// that one small file, so a call costs the same after 10 reads or 100,000. Each record is
/// replaced atomically on its own, so no read-modify-write of a shared file can lose an update.
/// Read records are not fsynced (SPEC 2.2).
pub const DIR: &str = "reads";

/// One record on disk: the real path (the name is only its hash) and what was seen.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Stored {
    path: String,
    #[serde(flatten)]
    record: Record,
}

fn name_of(real: &Path) -> String {
    let h = xxhash_rust::xxh3::xxh3_128(real.as_os_str().as_encoded_bytes());
    format!("{h:032x}.json")
}

fn dir_of(lock: &StateLock) -> std::path::PathBuf {
    let dir = lock.dir().join(DIR);
    migrate(lock, &dir);
    dir
}

/// A session from before the sharded store kept every record in one `reads.json`: its records
/// move into `reads/` on first use, and the old file goes.
fn migrate(lock: &StateLock, dir: &Path) {
    let legacy = lock.dir().join(FILE);
    if std::fs::symlink_metadata(&legacy).is_err() {
        return;
    }
    #[derive(Default, Deserialize)]
    struct Legacy {
        files: BTreeMap<String, Record>,
    }
    if let Ok(old) = lock.load::<Legacy>(FILE) {
        for (path, record) in old.files {
            let _ = store(dir, &Stored { path, record });
        }
    }
    let _ = std::fs::remove_file(legacy);
}

fn store(dir: &Path, s: &Stored) -> Result<()> {
    let bytes = serde_json::to_vec(s).map_err(|e| ToolError::internal(e.to_string()))?;
    let name = name_of(Path::new(&s.path));
    // The first record of a session makes the directory. Several calls race to make it
    // (lock-free reads): a save that failed is tried once more after making sure the directory
    // exists, whether or not it is there by now — checking first lost the race where another
    // call made it between our failure and our check (a read failed "no such file" in CI). A
    // failure that is not the directory fails again and is the caller's (SPEC 24.6: a change
    // whose record cannot be saved is not made).
    crate::state::write_atomic(dir, &name, &bytes, false).or_else(|_| {
        crate::state::create_dir(dir)?;
        crate::state::write_atomic(dir, &name, &bytes, false)
    })
}

fn load(path: &Path) -> Option<Stored> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

/// Records that this session has seen `real` as `fp` (after a read, write or edit). A record
/// that already says exactly this is left as it is: reading a file again costs a lookup, not a
/// write (`read_at` is then when the session first saw this content).
fn record_in(dir: &Path, real: &Path, fp: Fingerprint) -> Result<()> {
    if get_in(dir, real).is_some_and(|r| r.fingerprint == fp) {
        return Ok(());
    }
    let record = Record {
        fingerprint: fp,
        read_at: crate::state::now(),
    };
    store(
        dir,
        &Stored {
            path: key(real),
            record,
        },
    )
}

/// The records' directory without the session's state lock: a record is one file replaced on
/// its own, so nothing is read-modified-written and nothing can be lost — and parallel calls
/// (batch, mcp) no longer queue on the lock. A session still holding a legacy `reads.json`
/// takes the lock once, which migrates it.
fn unlocked_dir(ctx: &Ctx) -> Result<std::path::PathBuf> {
    let session = crate::state::session_dir(ctx);
    if std::fs::symlink_metadata(session.join(FILE)).is_ok() {
        return Ok(dir_of(&StateLock::acquire(ctx)?));
    }
    Ok(session.join(DIR))
}

/// `record` for a `read`, without the state lock (see `unlocked_dir`).
pub fn record_read(ctx: &Ctx, real: &Path, fp: Fingerprint) -> Result<()> {
    record_in(&unlocked_dir(ctx)?, real, fp)
}

/// The record of `real`, if this session has one. A record that does not parse, or that is
/// filed under another path's name, counts as none (it is never trusted).
pub fn get(lock: &StateLock, real: &Path) -> Option<Record> {
    get_in(&dir_of(lock), real)
}

/// `get` without the state lock (see `unlocked_dir`): what a change looks up before its locks.
/// A state dir that cannot be read is an error here (not "no record"), as taking the state
/// lock made it before.
pub fn lookup(ctx: &Ctx, real: &Path) -> Result<Option<Record>> {
    let dir = unlocked_dir(ctx)?;
    let name = name_of(real);
    let path = dir.join(&name);
    match std::fs::read(&path) {
        Ok(bytes) => match serde_json::from_slice::<Stored>(&bytes) {
            Ok(s) => Ok((s.path == key(real)).then_some(s.record)),
            // Corrupt: no record, and the call says so (SPEC 31.3).
            Err(err) => crate::state::move_aside(ctx, &dir, &name, &err).map(|()| None),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(ToolError::state(&e, &path)),
    }
}

fn get_in(dir: &Path, real: &Path) -> Option<Record> {
    load(&dir.join(name_of(real)))
        .filter(|s| s.path == key(real))
        .map(|s| s.record)
}

/// Every record, for `session show` and directory moves: the only costs that grow with the
/// session, paid where the answer is the whole list.
pub fn all(lock: &StateLock) -> Vec<(String, Record)> {
    let Ok(entries) = std::fs::read_dir(dir_of(lock)) else {
        return vec![];
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .filter_map(|e| load(&e.path()))
        .map(|s| (s.path, s.record))
        .collect()
}

/// Forgets every record; returns how many there were.
pub fn clear(lock: &StateLock) -> Result<usize> {
    let dir = dir_of(lock);
    let n = std::fs::read_dir(&dir).map_or(0, |d| d.count());
    match std::fs::remove_dir_all(&dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(ToolError::state(&e, &dir)),
        _ => Ok(n),
    }
}

fn key(real: &Path) -> String {
    real.to_string_lossy().into_owned()
}

/// Records move with their files (move, and its undo): `from`, and everything below it when it
/// is a directory, is recorded under `to` instead. A file's own record is one lookup; only a
/// directory's needs the whole list. What each touched record held goes to `saved`.
fn move_saving(lock: &StateLock, from: &Path, to: &Path, saved: &mut Saved) -> Result<()> {
    let dir = dir_of(lock);
    let hits: Vec<(String, Record)> = match get(lock, from) {
        Some(r) => vec![(key(from), r)],
        None => all(lock)
            .into_iter()
            .filter(|(k, _)| Path::new(k).starts_with(from))
            .collect(),
    };
    for (old, record) in hits {
        let rest = Path::new(&old).strip_prefix(from).unwrap_or(Path::new(""));
        // `to.join("")` would add a trailing slash: a file's own record lands on `to`.
        let new = if rest.as_os_str().is_empty() {
            to.to_path_buf()
        } else {
            to.join(rest)
        };
        saved.note(&dir, Path::new(&old));
        saved.note(&dir, &new);
        store(
            &dir,
            &Stored {
                path: key(&new),
                record,
            },
        )?;
        let _ = std::fs::remove_file(dir.join(name_of(Path::new(&old))));
    }
    Ok(())
}

/// One change to the read records that goes with a change of the files.
pub enum Change<'p> {
    /// The file is now known as this.
    Set(&'p Path, Fingerprint),
    /// The file is gone (or no longer known).
    Forget(&'p Path),
    /// The file (or directory, with everything below it) moved: its records follow.
    Move(&'p Path, &'p Path),
}

/// The records a change touched, as they were before it, so a change that does not land can
/// put them back exactly (SPEC 24.6: the session's state as it was).
#[derive(Default)]
#[must_use]
pub struct Saved(Vec<(PathBuf, Option<Record>)>);

impl Saved {
    fn note(&mut self, dir: &Path, real: &Path) {
        if !self.0.iter().any(|(p, _)| p == real) {
            self.0.push((real.to_path_buf(), get_in(dir, real)));
        }
    }

    /// Puts every touched record back as it was.
    pub fn restore(self, lock: &StateLock) -> Result<()> {
        let dir = dir_of(lock);
        let mut first = Ok(());
        for (real, record) in self.0.into_iter().rev() {
            let r = match record {
                Some(record) => store(
                    &dir,
                    &Stored {
                        path: key(&real),
                        record,
                    },
                ),
                None => match std::fs::remove_file(dir.join(name_of(&real))) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        Err(ToolError::state(&e, &dir))
                    }
                    _ => Ok(()),
                },
            };
            if first.is_ok() {
                first = r;
            }
        }
        first
    }
}

/// Applies `changes` in order. On failure, what was already applied is put back and the error
/// returned; on success, what they replaced, for `Saved::restore`.
pub fn apply(lock: &StateLock, changes: &[Change]) -> Result<Saved> {
    let dir = dir_of(lock);
    let mut saved = Saved::default();
    let mut result = Ok(());
    for c in changes {
        result = match *c {
            Change::Set(real, fp) => {
                saved.note(&dir, real);
                record_in(&dir, real, fp)
            }
            Change::Forget(real) => {
                saved.note(&dir, real);
                forget(lock, real)
            }
            Change::Move(from, to) => move_saving(lock, from, to, &mut saved),
        };
        if result.is_err() {
            break;
        }
    }
    match result {
        Ok(()) => Ok(saved),
        Err(e) => {
            let _ = saved.restore(lock);
            Err(e)
        }
    }
}

/// Drops the record of a file that no longer exists (undo of a creation).
pub fn forget(lock: &StateLock, real: &Path) -> Result<()> {
    match std::fs::remove_file(dir_of(lock).join(name_of(real))) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(ToolError::state(&e, &dir_of(lock)))
        }
        _ => Ok(()),
    }
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
        None => Err(ToolError::new(
            Code::NotRead,
            format!("{shown} has not been read in this session"),
        )
        .with("path", shown)
        .hint(read_first(ctx, shown))),
        Some(r) if r.fingerprint.hash != current.hash || r.fingerprint.size != current.size => {
            Err(ToolError::stale_read(
                shown,
                format!("{shown} has changed since this session last read or wrote it"),
            )
            .hint(format!(
                "Read {shown} again to see its current content, then redo the change."
            )))
        }
        Some(_) => Ok(()),
    }
}

/// How the model reads the file first (SPEC 25.5): with the read tool as it was offered, or,
/// where none is, that none here can.
fn read_first(ctx: &Ctx, shown: &str) -> String {
    match ctx.offered("read", None) {
        Some(read) => format!(
            "Read {shown} first ({}), then retry; its current content may differ from what you expect.",
            read.call(None, &[("path", shown)])
        ),
        None => format!(
            "{shown} must be read in this session before it is changed, and no tool offered here reads files: this change cannot be made here."
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Many first records of one session at once: each lands, none fails on the directory
    /// another call is making (the CI failure of stop 39).
    #[test]
    fn first_records_racing_to_make_the_directory_all_land() {
        for round in 0..50 {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join("reads");
            let errors: Vec<String> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..8)
                    .map(|i| {
                        let dir = dir.clone();
                        s.spawn(move || {
                            let real = PathBuf::from(format!("/r{round}/f{i}"));
                            let fp = Fingerprint::default();
                            record_in(&dir, &real, fp).err().map(|e| e.to_string())
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .filter_map(|h| h.join().unwrap())
                    .collect()
            });
            assert!(errors.is_empty(), "round {round}: {errors:?}");
            assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 8);
        }
    }
}
