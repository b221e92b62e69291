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
//!
//! Entries are saved before their change is made (SPEC 24.6, `change::journal_first`) and taken
//! back out when it does not land. A file rewritten in place (several hard links) also keeps
//! its new content, so undo can restore a file a kill left half-written (`cut_short`).

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
    /// For a file rewritten in place (several hard links): the blob holding the new content,
    /// so undo can restore a file a kill left half-written (`cut_short`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
    /// Parent directories a write that created the file made (real paths, outermost first):
    /// undo removes them again while empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created: Vec<String>,
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
pub fn keep(
    ctx: &Ctx,
    target: &crate::sandbox::Resolved,
    meta: &Metadata,
    hash: u64,
) -> Option<Kept> {
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
    link_resolved(target, &path).ok()?;
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

/// Links the file `target` names as `to`, through its checked directory handle (SPEC 31.4:
/// the target of a change is journaled through its handle, so a directory swapped for a link
/// since the check never puts an outside file in the journal). The entry itself: a link there
/// is linked as a link, and then is not the inode read.
fn link_resolved(target: &crate::sandbox::Resolved, to: &Path) -> std::io::Result<()> {
    match &target.at {
        Some(at) => Ok(rustix::fs::linkat(
            &at.dir,
            at.name.as_os_str(),
            rustix::fs::CWD,
            to,
            rustix::fs::AtFlags::empty(),
        )?),
        None => std::fs::hard_link(&target.real, to),
    }
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

/// One change to journal, before it is made (see `push_all`).
pub struct NewEntry<'a> {
    pub tool: &'a str,
    pub real: &'a Path,
    pub shown: &'a str,
    pub before: Before<'a>,
    pub op: Option<Op>,
    /// The file as the change will leave it.
    pub after: Fingerprint,
    /// What the file held before a change that also moved it (apply_patch's Update with
    /// `Move to`): kept as the blob `<id>.0` in the move's `content`.
    pub source: Option<Before<'a>>,
    /// The new content of a file rewritten in place (several hard links): kept as `<id>.1`, so
    /// undo can tell the file a write cut short by a kill left (see `cut_short`).
    pub written: Option<&'a [u8]>,
    /// Parent directories a write that creates the file made for it.
    pub created: Vec<String>,
}

impl<'a> NewEntry<'a> {
    pub fn new(
        tool: &'a str,
        real: &'a Path,
        shown: &'a str,
        before: Before<'a>,
        after: Fingerprint,
    ) -> Self {
        NewEntry {
            tool,
            real,
            shown,
            before,
            op: None,
            after,
            source: None,
            written: None,
            created: vec![],
        }
    }

    pub fn op(mut self, op: Op) -> Self {
        self.op = Some(op);
        self
    }
}

impl<'a> Before<'a> {
    /// The content a change replaces, when it is kept.
    pub fn bytes(&self) -> Option<&'a [u8]> {
        match *self {
            Before::Content { bytes, .. } => Some(bytes),
            _ => None,
        }
    }
}

/// Writes `bytes` (or adopts `kept`) as the blob `name`; the blob's path is added to `made`
/// first, so a failure part-way leaves nothing once `made` is cleaned.
fn blob(
    blobs: &Path,
    name: &str,
    bytes: &[u8],
    kept: Option<Kept>,
    made: &mut Vec<PathBuf>,
) -> Result<Option<u64>> {
    crate::state::create_dir(blobs)?;
    made.push(blobs.join(name));
    let hash = kept.and_then(|k| adopt(k, blobs, name));
    if hash.is_none() {
        crate::state::write_atomic(blobs, name, bytes, true)?;
    }
    Ok(hash)
}

/// What `push_all` did: the new entries' ids (and whether each can be undone), and the oldest
/// entries it pruned to stay at 50 — their blobs and trash are kept until the change lands
/// (`discard` them then), so a change that does not land puts them back with `pop_all`.
pub struct Pushed {
    pub ids: Vec<(u64, bool)>,
    pub pruned: Vec<Entry>,
    /// What the new entries keep (blobs, trash entries): made private once the change lands.
    pub kept: Vec<PathBuf>,
}

/// Appends the entries of one change (several for a patch: one per file, so each is undone on
/// its own) in one save of the journal, before the change is made (SPEC 24.6): what they keep
/// is written first, and if anything fails, nothing of them is left. Prunes to the last 50.
pub fn push_all(lock: &StateLock, news: Vec<NewEntry>) -> Result<Pushed> {
    if news.is_empty() {
        return Ok(Pushed {
            ids: vec![],
            pruned: vec![],
            kept: vec![],
        });
    }
    let mut made: Vec<PathBuf> = vec![];
    let result = push_entries(lock, news, &mut made);
    if result.is_err() {
        for p in made {
            let _ = std::fs::remove_file(p);
        }
    }
    result
}

fn push_entries(lock: &StateLock, news: Vec<NewEntry>, made: &mut Vec<PathBuf>) -> Result<Pushed> {
    let mut journal: Journal = lock.load(FILE)?;
    let blobs = lock.dir().join("undo");
    let mut ids = Vec::with_capacity(news.len());
    let mut made_trash = vec![];
    for n in news {
        let id = journal.next_id.max(1);
        journal.next_id = id + 1;
        let mut op = n.op;
        if let (Some(Before::Content { bytes, mode, kept }), Some(Op::Move { content, .. })) =
            (n.source, op.as_mut())
        {
            let name = format!("{id}.0");
            let hash = blob(&blobs, &name, bytes, kept, made)?;
            *content = Some(Previous {
                mode,
                size: bytes.len() as u64,
                blob: Some(name),
                hash,
            });
        }
        let (previous, undoable) = match n.before {
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
                let name = id.to_string();
                let hash = blob(&blobs, &name, bytes, kept, made)?;
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
        let written = match n.written {
            Some(bytes) if undoable && bytes.len() as u64 <= MAX_ENTRY_BYTES => {
                let name = format!("{id}.1");
                blob(&blobs, &name, bytes, None, made)?;
                Some(name)
            }
            _ => None,
        };
        if let Some(Op::Delete { trash: Some(t) }) = &op
            && our_name(t)
        {
            made_trash.push(trash_dir(lock.dir()).join(t));
        }
        journal.entries.push(Entry {
            id,
            tool: n.tool.to_string(),
            path: n.real.to_string_lossy().into_owned(),
            shown: n.shown.to_string(),
            at: crate::state::now(),
            previous,
            after: n.after,
            op,
            written,
            created: n.created,
        });
        ids.push((id, undoable));
    }
    // The trash keeps what the journal's entries need and no more (SPEC 18.1) — once the
    // journal no longer names them and the change has landed.
    let excess = journal.entries.len().saturating_sub(MAX_ENTRIES);
    let pruned: Vec<Entry> = journal.entries.drain(..excess).collect();
    save(lock, &journal)?;
    sweep_pending(&blobs);
    let mut kept = made.clone();
    kept.extend(made_trash);
    Ok(Pushed { ids, pruned, kept })
}

/// Saves the journal: the `journal` step of the fault switch.
fn save(lock: &StateLock, journal: &Journal) -> Result<()> {
    crate::fault::check("journal").map_err(|e| ToolError::state(&e, &lock.dir().join(FILE)))?;
    lock.save(FILE, journal, true)
}

/// Takes entries `ids` back out (their change did not land), with what they kept, and puts
/// back the entries their push pruned.
pub fn pop_all(lock: &StateLock, ids: &[u64], pruned: Vec<Entry>) -> Result<()> {
    let mut journal: Journal = lock.load(FILE)?;
    let (gone, kept): (Vec<Entry>, Vec<Entry>) =
        journal.entries.drain(..).partition(|e| ids.contains(&e.id));
    if gone.is_empty() && pruned.is_empty() {
        journal.entries = kept;
        return Ok(());
    }
    journal.entries = pruned;
    journal.entries.extend(kept);
    save(lock, &journal)?;
    for e in &gone {
        discard(lock.dir(), e);
    }
    Ok(())
}

/// Takes entry `id` off the journal for its undo, keeping what it kept until the undo has
/// landed (then `discard`) or failed (then `put_back`). `None`: another undo took it first.
pub fn take(lock: &StateLock, id: u64) -> Result<Option<(Entry, usize)>> {
    let mut journal: Journal = lock.load(FILE)?;
    let Some(i) = journal.entries.iter().position(|e| e.id == id) else {
        return Ok(None);
    };
    let entry = journal.entries.remove(i);
    save(lock, &journal)?;
    Ok(Some((entry, journal.entries.len())))
}

/// Puts back an entry `take` took, in its place (an undo that did not land).
pub fn put_back(lock: &StateLock, entry: Entry) -> Result<()> {
    let mut journal: Journal = lock.load(FILE)?;
    let at = journal.entries.partition_point(|e| e.id < entry.id);
    journal.entries.insert(at, entry);
    save(lock, &journal)
}

/// Whether `now` is what an in-place rewrite of `old` into `new` can leave when it is cut
/// short (SPEC 23.8: a kill mid-write can be undone): the new content's first k bytes over the
/// old content, for some k — the write goes from the start, and the file is cut to the new
/// length only at the end.
pub fn cut_short(now: &[u8], old: &[u8], new: &[u8]) -> bool {
    if now == new {
        return true;
    }
    let k = now.iter().zip(new).take_while(|(a, b)| a == b).count();
    // Any k' <= k where the old and new bytes agree leaves the same file; past k the file can
    // only be the old content.
    if k > old.len() {
        return now.len() == k;
    }
    now[k..] == old[k..]
}

/// Whether `name` is one this binary gives kept content (a blob under `undo/`, an entry of the
/// trash): digits and dots, not starting with a dot. Anything else in a journal was written by
/// someone else and is never joined to a path (SPEC 31.4): `../../x` or `/etc` would name a
/// file outside the session.
pub fn our_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// `dir/name` when `name` is ours and `dir` is a directory of its own (not a link that could
/// lead out of the session); `None` otherwise, and then nothing is touched.
fn kept_path(dir: &Path, name: &str) -> Option<PathBuf> {
    let meta = std::fs::symlink_metadata(dir).ok()?;
    (our_name(name) && meta.is_dir()).then(|| dir.join(name))
}

/// Reads the blob `name` under `blobs`, never through a link: a blob a forger replaced with a
/// link to a file elsewhere is not restored into the root (SPEC 31.4).
pub fn read_blob(blobs: &Path, name: &str) -> std::io::Result<Vec<u8>> {
    match kept_path(blobs, name) {
        Some(path) => crate::state::read_own(&path),
        None => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{name:?} is not a name loopr-tool gives kept content"),
        )),
    }
}

/// Removes what an entry kept (its blob, its trash) once undo can no longer need it. Names are
/// checked as undo checks them: pruning reads the same journal (SPEC 31.4).
pub fn discard(session: &Path, entry: &Entry) {
    let blobs = session.join("undo");
    let mut names: Vec<&String> = vec![];
    names.extend(entry.previous.as_ref().and_then(|p| p.blob.as_ref()));
    if let Some(Op::Move {
        content: Some(p), ..
    }) = &entry.op
    {
        names.extend(p.blob.as_ref());
    }
    names.extend(entry.written.as_ref());
    for blob in names {
        if let Some(p) = kept_path(&blobs, blob) {
            let _ = std::fs::remove_file(p);
        }
    }
    if let Some(Op::Delete { trash: Some(t) }) = &entry.op
        && let Some(p) = kept_path(&trash_dir(session), t)
    {
        let _ = std::fs::remove_dir_all(&p).or_else(|_| std::fs::remove_file(&p));
        let _ = std::fs::remove_file(p.with_file_name(format!("{t}.modes")));
    }
}

/// Makes what a landed change keeps private (SPEC 31.3: every file under the state dir 0600,
/// every directory 0700). A blob linked to the old file's inode had the file's mode, and a
/// deleted tree kept its own; the file is no longer in the tree, so its mode is only ours to
/// keep — undo restores blobs with the journal's `mode`, and a trash entry with the modes its
/// `NAME.modes` list records here. Best effort: a mode left as it was loses nothing.
pub fn seal(kept: &[PathBuf]) {
    for path in kept {
        let in_trash = path.parent().and_then(Path::file_name) == Some("trash".as_ref());
        match std::fs::symlink_metadata(path) {
            Ok(_) if in_trash => seal_tree(path),
            Ok(meta) if meta.is_file() => private(path, &meta),
            _ => {}
        }
    }
}

fn private(path: &Path, meta: &Metadata) {
    use std::os::unix::fs::PermissionsExt;
    let want = if meta.is_dir() { 0o700 } else { 0o600 };
    if meta.mode() & 0o7777 != want {
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(want));
    }
}

/// The modes of a deleted tree, saved beside it (`NAME.modes`: one `MODE PATH` line each, in
/// octal, paths relative to the tree), then the tree made private.
fn seal_tree(tree: &Path) {
    let mut listed = String::new();
    let walk = walk_all(tree);
    for (path, meta) in &walk {
        let rel = path.strip_prefix(tree).unwrap_or(path);
        listed.push_str(&format!("{:o} {}\n", meta.mode() & 0o7777, rel.display()));
    }
    let Some(name) = tree.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let Some(dir) = tree.parent() else { return };
    if crate::state::write_atomic(dir, &format!("{name}.modes"), listed.as_bytes(), true).is_err() {
        return;
    }
    for (path, meta) in walk.iter().rev() {
        private(path, meta);
    }
}

/// Every directory and regular file of `tree`, the tree first, parents before children;
/// links are neither followed nor listed.
fn walk_all(tree: &Path) -> Vec<(PathBuf, Metadata)> {
    let mut out = vec![];
    let mut todo = vec![tree.to_path_buf()];
    while let Some(p) = todo.pop() {
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if meta.is_dir()
            && let Ok(list) = std::fs::read_dir(&p)
        {
            todo.extend(list.flatten().map(|e| e.path()));
        }
        if meta.is_dir() || meta.is_file() {
            out.push((p, meta));
        }
    }
    out
}

/// Puts back the modes `seal_tree` saved for the trash entry `tree` (undo, before it moves the
/// tree back), children before their directories. The list stays until `forget_modes`: an
/// undo that fails seals the entry again from it.
pub fn unseal(tree: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let Some(name) = tree.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let list = tree.with_file_name(format!("{name}.modes"));
    let Ok(bytes) = crate::state::read_own(&list) else {
        return;
    };
    let text = String::from_utf8_lossy(&bytes);
    for line in text.lines().rev() {
        let Some((mode, rel)) = line.split_once(' ') else {
            continue;
        };
        let Ok(mode) = u32::from_str_radix(mode, 8) else {
            continue;
        };
        let rel = Path::new(rel);
        // Only inside the tree: a list someone else wrote names nothing outside it.
        if rel
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            continue;
        }
        // The tree itself is listed with an empty path (`tree.join("")` would add a `/`).
        let path = if rel.as_os_str().is_empty() {
            tree.to_path_buf()
        } else {
            tree.join(rel)
        };
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir() || m.is_file()) {
            let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode & 0o7777));
        }
    }
}

/// The modes list of a trash entry that has left the trash.
pub fn forget_modes(tree: &Path) {
    if let Some(name) = tree.file_name().and_then(|n| n.to_str()) {
        let _ = std::fs::remove_file(tree.with_file_name(format!("{name}.modes")));
    }
}

pub fn depth(lock: &StateLock) -> Result<usize> {
    Ok(lock.load::<Journal>(FILE)?.entries.len())
}

#[cfg(test)]
mod tests {
    use super::cut_short;

    #[test]
    fn a_write_cut_short_is_recognised_at_every_point() {
        let cases: [(&[u8], &[u8]); 4] = [
            (b"old content here", b"NEW"),
            (b"old", b"a much longer new content"),
            (b"same prefix, old tail", b"same prefix, new tail!"),
            (b"", b"new"),
        ];
        for (old, new) in cases {
            // The in-place write: the new bytes from the start, the length cut at the end.
            for k in 0..=new.len() {
                let mut now = new[..k].to_vec();
                now.extend_from_slice(old.get(k..).unwrap_or_default());
                assert!(cut_short(&now, old, new), "{old:?} -> {new:?} at {k}");
            }
            assert!(cut_short(new, old, new), "complete");
        }
    }

    #[test]
    fn anything_else_is_not() {
        let (old, new) = (&b"old content"[..], &b"new content"[..]);
        assert!(!cut_short(b"someone else's", old, new));
        assert!(!cut_short(b"xld content", old, new), "a byte of neither");
        assert!(!cut_short(b"nex content", old, new), "new, then neither");
        assert!(
            !cut_short(b"new", old, new),
            "cut to a length the write never had"
        );
        assert!(!cut_short(b"old content and more", old, new));
    }
}
