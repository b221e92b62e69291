//! The undo journal (SPEC §14 `undo`, 16.5): what each write or edit replaced.
//!
//! Entries live in `undo.json` in the session directory, the previous contents beside it in
//! `undo/<id>`. Both are fsynced: after a crash the user still wants them. The journal keeps the
//! last 50 changes; a previous content over 64 MiB is not kept, and the entry says it cannot be
//! undone.
//!
//! edit keeps the previous content by a hard link to the file's old inode, made before the
//! change replaces the file (see `keep`): the bytes are already on disk, and writing and
//! fsyncing a second copy was most of the time of an edit of a large file. Where no link can be
//! made, the previous content is written as a copy.

use crate::context::Ctx;
use crate::error::{Result, ToolError};
use crate::reads::Fingerprint;
use crate::state::StateLock;
use serde::{Deserialize, Serialize};
use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub const FILE: &str = "undo.json";
pub const MAX_ENTRIES: usize = 50;
pub const MAX_ENTRY_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    pub id: u64,
    pub tool: String,
    /// The file's real path.
    pub path: String,
    /// The path as the user named it.
    pub shown: String,
    pub at: String,
    /// What the file held before: `None` when the change created it (for a move: what the
    /// target held before it was overwritten).
    pub previous: Option<Previous>,
    /// The file as the change left it: undo refuses when it has changed since.
    #[serde(default)]
    pub after: Fingerprint,
    /// A change other than new content (move, delete, mkdir); absent for write and edit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op: Option<Op>,
}

/// What a change other than a content change did, so undo can take it back.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Op {
    /// `path` was moved here from `from` (real path; `from_shown` as the user named it).
    Move {
        from: String,
        from_shown: String,
        /// A directory moved (its content is not fingerprinted).
        dir: bool,
        /// Parent directories of `path` the move created (outermost first): undo removes them
        /// again while empty.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        created: Vec<String>,
        /// What the file held before a change that also rewrote it as it moved (apply_patch's
        /// Update with `Move to`): undo puts it back at `from`. Its blob is `<id>.0`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<Previous>,
    },
    /// `path` was deleted into `trash/<trash>` under the session directory; `None`: permanent.
    Delete { trash: Option<String> },
    /// `path` and these directories (real paths, outermost first) were created.
    Mkdir { created: Vec<String> },
}

/// The session's trash, where deleted files wait for undo.
pub fn trash_dir(session: &Path) -> PathBuf {
    session.join("trash")
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Previous {
    pub mode: u32,
    pub size: u64,
    /// Blob name under `undo/`, or `None` when the content was too large to keep.
    pub blob: Option<String>,
    /// xxh3 of the content, for a blob that is a link to the old file: undo checks it, since
    /// a program that still holds the old file open could write to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<u64>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Journal {
    pub next_id: u64,
    pub entries: Vec<Entry>,
}

/// What a change replaced, before the change is made.
pub enum Before<'a> {
    Absent,
    Content {
        bytes: &'a [u8],
        mode: u32,
        /// The old inode, linked by `keep`: it becomes the blob instead of a copy of `bytes`.
        kept: Option<Kept>,
    },
    TooLarge {
        size: u64,
        mode: u32,
    },
}

/// A hard link to a file's inode as it was read, under a pending name in the session's undo
/// directory; removed on drop unless `push` adopted it as a blob.
#[derive(Debug)]
pub struct Kept {
    path: Option<PathBuf>,
    hash: u64,
}

impl Drop for Kept {
    fn drop(&mut self) {
        if let Some(p) = self.path.take() {
            let _ = std::fs::remove_file(p);
        }
    }
}

const PENDING: &str = ".kept.";
/// Pending links older than this were left by a process that died mid-change.
const PENDING_MAX_AGE_SECS: u64 = 3600;

/// Links `real` — read as `meta`, its content hashing to `hash` — into the session's undo
/// directory, to be the blob of the change about to replace it. Call it under the file lock,
/// before the change. `None` where no link will do: a file with several links (rewritten in
/// place, so its inode takes the new content), a file over the journal's limit, another file
/// system, or an inode that is no longer the one read.
pub fn keep(ctx: &Ctx, real: &Path, meta: &Metadata, hash: u64) -> Option<Kept> {
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    if meta.nlink() != 1 || meta.len() > MAX_ENTRY_BYTES {
        return None;
    }
    let dir = crate::state::session_dir(ctx).join("undo");
    crate::state::create_dir(&dir).ok()?;
    let name = format!(
        "{PENDING}{}.{}.{}",
        crate::state::unix_secs(),
        std::process::id(),
        SERIAL.fetch_add(1, Ordering::Relaxed)
    );
    let path = dir.join(name);
    std::fs::hard_link(real, &path).ok()?;
    let kept = Kept {
        path: Some(path),
        hash,
    };
    let linked = std::fs::symlink_metadata(kept.path.as_ref()?).ok()?;
    let same = (
        linked.dev(),
        linked.ino(),
        linked.len(),
        linked.mtime(),
        linked.mtime_nsec(),
    ) == (
        meta.dev(),
        meta.ino(),
        meta.len(),
        meta.mtime(),
        meta.mtime_nsec(),
    );
    same.then_some(kept)
}

/// Makes a kept link the blob `name`, durable; `None` (and no link left) if that fails.
fn adopt(mut kept: Kept, blobs: &Path, name: &str) -> Option<u64> {
    let from = kept.path.take()?;
    let to = blobs.join(name);
    if std::fs::rename(&from, &to).is_err() {
        let _ = std::fs::remove_file(&from);
        return None;
    }
    // The old file's data may not be on disk yet (saved without fsync a moment ago).
    if std::fs::File::open(&to).and_then(|f| f.sync_all()).is_err() {
        let _ = std::fs::remove_file(&to);
        return None;
    }
    crate::state::sync_dir(blobs);
    Some(kept.hash)
}

/// Removes pending links that a process which died mid-change left behind.
fn sweep_pending(blobs: &Path) {
    let Ok(entries) = std::fs::read_dir(blobs) else {
        return;
    };
    let now = crate::state::unix_secs();
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(PENDING)) else {
            continue;
        };
        let born: u64 = rest
            .split('.')
            .next()
            .and_then(|t| t.parse().ok())
            .unwrap_or(0);
        if now.saturating_sub(born) > PENDING_MAX_AGE_SECS {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Appends an entry for a change of `real` that has just been made; prunes to the last 50.
/// Returns whether the change can be undone.
pub fn push(
    lock: &StateLock,
    tool: &str,
    real: &Path,
    shown: &str,
    before: Before,
    op: Option<Op>,
    after: Fingerprint,
) -> Result<(u64, bool)> {
    push_moved(lock, tool, real, shown, before, op, after, None)
}

/// As `push`, for a move that also changed the file's content: `source` is what it held
/// before, kept as the blob `<id>.0` in the move's `content`.
#[allow(clippy::too_many_arguments)]
pub fn push_moved(
    lock: &StateLock,
    tool: &str,
    real: &Path,
    shown: &str,
    before: Before,
    mut op: Option<Op>,
    after: Fingerprint,
    source: Option<Before>,
) -> Result<(u64, bool)> {
    let mut journal: Journal = lock.load(FILE)?;
    let id = journal.next_id.max(1);
    journal.next_id = id + 1;
    let blobs = lock.dir().join("undo");
    if let (Some(Before::Content { bytes, mode, kept }), Some(Op::Move { content, .. })) =
        (source, op.as_mut())
    {
        crate::state::create_dir(&blobs)?;
        let name = format!("{id}.0");
        let hash = kept.and_then(|k| adopt(k, &blobs, &name));
        if hash.is_none() {
            crate::state::write_atomic(&blobs, &name, bytes, true)?;
        }
        *content = Some(Previous {
            mode,
            size: bytes.len() as u64,
            blob: Some(name),
            hash,
        });
    }
    let (previous, undoable) = match before {
        Before::Absent => (None, true),
        Before::TooLarge { size, mode } => (
            Some(Previous {
                mode,
                size,
                blob: None,
                hash: None,
            }),
            false,
        ),
        Before::Content { bytes, mode, kept } => {
            crate::state::create_dir(&blobs)?;
            let name = id.to_string();
            let hash = kept.and_then(|k| adopt(k, &blobs, &name));
            if hash.is_none() {
                crate::state::write_atomic(&blobs, &name, bytes, true)?;
            }
            sweep_pending(&blobs);
            (
                Some(Previous {
                    mode,
                    size: bytes.len() as u64,
                    blob: Some(name),
                    hash,
                }),
                true,
            )
        }
    };
    journal.entries.push(Entry {
        id,
        tool: tool.to_string(),
        path: real.to_string_lossy().into_owned(),
        shown: shown.to_string(),
        at: crate::state::now(),
        previous,
        after,
        op,
    });
    // The trash keeps what the journal's entries need and no more (SPEC 18.1).
    let excess = journal.entries.len().saturating_sub(MAX_ENTRIES);
    for old in journal.entries.drain(..excess) {
        discard(lock.dir(), &old);
    }
    crate::fault::check("journal").map_err(|e| ToolError::state(&e, &lock.dir().join(FILE)))?;
    lock.save(FILE, &journal, true)?;
    Ok((id, undoable))
}

/// Takes entry `id` back out (its change did not land), with what it kept.
pub fn pop(lock: &StateLock, id: u64) -> Result<()> {
    let mut journal: Journal = lock.load(FILE)?;
    let Some(i) = journal.entries.iter().rposition(|e| e.id == id) else {
        return Ok(());
    };
    let entry = journal.entries.remove(i);
    lock.save(FILE, &journal, true)?;
    discard(lock.dir(), &entry);
    Ok(())
}

/// Removes what an entry kept (its blob, its trash) once undo can no longer need it.
pub fn discard(session: &Path, entry: &Entry) {
    if let Some(blob) = entry.previous.as_ref().and_then(|p| p.blob.as_ref()) {
        let _ = std::fs::remove_file(session.join("undo").join(blob));
    }
    if let Some(Op::Move {
        content: Some(p), ..
    }) = &entry.op
        && let Some(blob) = &p.blob
    {
        let _ = std::fs::remove_file(session.join("undo").join(blob));
    }
    if let Some(Op::Delete { trash: Some(t) }) = &entry.op {
        let p = trash_dir(session).join(t);
        let _ = std::fs::remove_dir_all(&p).or_else(|_| std::fs::remove_file(&p));
    }
}

pub fn depth(lock: &StateLock) -> Result<usize> {
    Ok(lock.load::<Journal>(FILE)?.entries.len())
}
