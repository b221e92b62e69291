//! The change protocol (issue 18; SPEC 2.2, 16.5): the one sequence every tool that changes
//! files goes through, so the no-lost-update rule lives in one place.
//!
//! 1. `lock`: the session's read records of the files are taken *before* waiting for their
//!    file locks (16.5: a concurrent winner's update then never lets the loser through), then
//!    the locks themselves, in sorted order when a call changes several files (24.7).
//! 2. `Locked::require_fresh`: under the lock, the file's current content must be what this
//!    session last read or wrote (`not_read`, `stale_read`).
//! 3. The change made ready without touching the target: new content staged (`fsx::Staged`),
//!    the trash name chosen, the directories to create listed.
//! 4. `journal_first`: the journal entry for `undo` and the read records, under one state lock
//!    (SPEC 24.6: a change whose entry, trash copy or record cannot be saved is not made).
//! 5. The change lands (the rename, the move into the trash, the mkdir) and `Journaled::landed`
//!    keeps the state; a change that fails to land drops it, which takes the state back.
//!    `undo` runs the same protocol the other way (`undo_first`).
//!
//! Core: it knows files, records, the journal and locks, never a tool.

use crate::context::Ctx;
use crate::error::{Result, ToolError};
use crate::fsx;
use crate::journal::{self, Before, NewEntry};
use crate::reads::{self, Fingerprint, Record};
use crate::sandbox::Resolved;
use crate::state::{self, StateLock};
use std::fs::{File, Metadata};
use std::path::{Path, PathBuf};

/// The file locks of one change, with the read records taken before them.
pub struct Locked<'a> {
    ctx: &'a Ctx,
    records: Vec<(PathBuf, Option<Record>)>,
    _locks: Vec<File>,
}

/// Directories one change may hold locked, each an open file (SPEC 31.4: 100,000 files added
/// in as many directories ran out of file descriptors, EMFILE, half-way).
pub const MAX_LOCKS: usize = 1000;

/// Takes the records of `paths` (real paths), then their file locks in sorted order.
pub fn lock<'a>(ctx: &'a Ctx, paths: &[&Path]) -> Result<Locked<'a>> {
    let mut records = Vec::with_capacity(paths.len());
    if ctx.read_check {
        // One small file per record: no state lock needed to look them up.
        for p in paths {
            records.push((p.to_path_buf(), reads::lookup(ctx, p)?));
        }
    }
    let mut sorted: Vec<&Path> = paths.to_vec();
    sorted.sort();
    sorted.dedup();
    let mut locks = Vec::with_capacity(sorted.len().min(MAX_LOCKS));
    let mut held: Vec<(u64, u64)> = vec![];
    for p in sorted {
        // A directory this change already holds is not locked again (flock is per open file:
        // a second lock of one directory would wait on the first).
        if let Some((id, lock)) = state::lock_parent(ctx, p, &held)? {
            if locks.len() == MAX_LOCKS {
                return Err(ToolError::too_large(
                    MAX_LOCKS,
                    format!(
                        "the change touches files in more than {MAX_LOCKS} directories, and each is locked (an open file) while it runs"
                    ),
                )
                .hint("Split it into changes of fewer directories."));
            }
            held.push(id);
            locks.push(lock);
        }
    }
    Ok(Locked {
        ctx,
        records,
        _locks: locks,
    })
}

impl Locked<'_> {
    /// Whether this session has a read record of `real` (apply_patch needs none, 24.7, but
    /// one it has must be fresh).
    pub fn has_record(&self, real: &Path) -> bool {
        self.records.iter().any(|(p, r)| p == real && r.is_some())
    }

    /// Under the lock: may this session change `real`, whose content is now `current`?
    pub fn require_fresh(&self, real: &Path, shown: &str, current: &Fingerprint) -> Result<()> {
        let record = self
            .records
            .iter()
            .find(|(p, _)| p == real)
            .and_then(|(_, r)| r.as_ref());
        reads::check_fresh(self.ctx, shown, record, current)
    }
}

/// A file's content as read under the change's lock: what the freshness check compares and
/// what the journal keeps for undo.
pub struct Current {
    pub bytes: Vec<u8>,
    pub meta: Metadata,
    pub fingerprint: Fingerprint,
}

impl Current {
    /// Links the file's inode into the undo directory, to be this change's blob (see
    /// `journal::keep`): call it after the last check that can refuse the change.
    pub fn keep(&self, ctx: &Ctx, target: &Resolved) -> Option<journal::Kept> {
        journal::keep(ctx, target, &self.meta, self.fingerprint.hash)
    }

    /// What the journal saves of it: the bytes, the mode, and the inode `keep` linked.
    pub fn before(&self, kept: Option<journal::Kept>) -> Before<'_> {
        use std::os::unix::fs::MetadataExt;
        Before::Content {
            bytes: &self.bytes,
            mode: self.meta.mode() & 0o7777,
            kept,
        }
    }
}

impl Locked<'_> {
    /// Reads `target` — which exists, as `meta` says, taken under this lock — through its
    /// checked handle, and fingerprints what was read.
    pub fn read(&self, target: &Resolved, meta: Metadata) -> Result<Current> {
        let bytes =
            fsx::read_resolved(target).map_err(|e| ToolError::io(&e, &target.shown, "reading"))?;
        let fingerprint = Fingerprint::of_bytes(&bytes, &meta);
        Ok(Current {
            bytes,
            meta,
            fingerprint,
        })
    }

    /// Under the lock: may this session change `target`, now as `current` holds it?
    pub fn fresh(&self, target: &Resolved, current: &Current) -> Result<()> {
        self.require_fresh(&target.real, &target.shown, &current.fingerprint)
    }

    /// `read`, then `fresh`: the two steps every change of an existing file starts with.
    pub fn read_fresh(&self, target: &Resolved, meta: Metadata) -> Result<Current> {
        let current = self.read(target, meta)?;
        self.fresh(target, &current)?;
        Ok(current)
    }
}

/// Replaces `target`'s content with `bytes` (creating it when `existing` is `None`), journaling
/// `before` for undo and recording the new content as read. The caller holds the lock.
///
/// The order is the contract's (SPEC 24.6, 24.7): the new content is staged (a temp file beside
/// the target, fsynced; for a file with several hard links, its room reserved), then the journal
/// entry and the read record are saved, then the change lands (the rename, or the in-place
/// write). A change whose entry cannot be saved is therefore not made, and one that does not
/// land takes its entry back out. An in-place write that fails part-way writes the old content
/// back; a kill part-way leaves the entry, which keeps the old and the new content, so `undo`
/// restores the file (`journal::cut_short`).
pub fn replace(
    ctx: &Ctx,
    tool: &str,
    target: &Resolved,
    bytes: &[u8],
    existing: Option<&Metadata>,
    before: Before,
) -> Result<Fingerprint> {
    let writing = |e: std::io::Error| ToolError::io(&e, &target.shown, "writing");
    // Dropping `staged` on any error below removes the temp file: the target never changed.
    let mut staged = fsx::stage_resolved(target, bytes, existing, None).map_err(writing)?;
    let too_large = matches!(before, Before::TooLarge { .. });
    let old = before.bytes();
    let mut entry = NewEntry::new(tool, &target.real, &target.shown, before, staged.fp);
    if staged.in_place() {
        entry.written = Some(bytes);
    }
    entry.created = staged.made();
    let journaled = journal_first(
        ctx,
        vec![entry],
        &[reads::Change::Set(&target.real, staged.fp)],
    )?;
    match staged.commit() {
        Ok(fp) => {
            journaled.landed();
            if too_large {
                ctx.warn(format!(
                    "the previous content of {} is over 64 MiB and was not kept: this change cannot be undone",
                    target.shown
                ));
            }
            Ok(fp)
        }
        Err(e) if staged.in_place() => {
            let back = old.map(|old| staged.put_back(old));
            if matches!(back, Some(Ok(()))) {
                return Err(writing(e)); // the entry goes with `journaled`
            }
            // The file is neither old nor new: the entry stays, so undo can restore it.
            journaled.landed();
            let hint = match old {
                Some(_) => "`undo` restores its previous content.",
                None => {
                    "Its previous content was over 64 MiB and not kept: restore it from a backup."
                }
            };
            Err(writing(e).hint(format!(
                "The write to {} stopped part-way and could not be undone at once. {hint}",
                target.shown
            )))
        }
        Err(e) => Err(writing(e)),
    }
}

/// A change whose journal entries and read records are saved, with the state lock held, while
/// the change itself is made (SPEC 24.6): `landed` keeps them; dropped without it, the change
/// did not land and they are taken back out (entries popped, or an entry an undo took put
/// back; records as they were).
#[must_use]
pub struct Journaled<'a> {
    ctx: &'a Ctx,
    lock: StateLock<'a>,
    pushed: Vec<u64>,
    /// Entries the push pruned (the journal keeps 50): discarded once the change lands.
    pruned: Vec<journal::Entry>,
    /// What the new entries keep: made private once the change lands.
    kept: Vec<PathBuf>,
    taken: Option<journal::Entry>,
    saved: Option<reads::Saved>,
    /// Paths the change may have made or changed, for post hooks (real, as shown).
    touched: Vec<(PathBuf, String)>,
    landed: bool,
}

/// Saves the journal entries of a change about to be made (one per file) and the read records
/// it will leave, under the state lock, which the result holds until the change lands.
pub fn journal_first<'a>(
    ctx: &'a Ctx,
    entries: Vec<NewEntry>,
    records: &[reads::Change],
) -> Result<Journaled<'a>> {
    let lock = StateLock::acquire(ctx)?;
    let touched = touched(ctx, &entries, records);
    let journal::Pushed { ids, pruned, kept } = journal::push_all(&lock, entries)?;
    let pushed: Vec<u64> = ids.into_iter().map(|(id, _)| id).collect();
    let saved = match reads::apply(&lock, records) {
        Ok(saved) => saved,
        Err(e) => {
            let _ = journal::pop_all(&lock, &pushed, pruned);
            return Err(e);
        }
    };
    Ok(Journaled {
        ctx,
        lock,
        pushed,
        pruned,
        kept,
        taken: None,
        saved: Some(saved),
        touched,
        landed: false,
    })
}

/// For `undo`: takes `entry` off the journal and saves the read records the undo will leave,
/// before the files are touched. `stale_read` when another undo took the entry first.
pub fn undo_first<'a>(
    ctx: &'a Ctx,
    entry: &journal::Entry,
    records: &[reads::Change],
) -> Result<(Journaled<'a>, usize)> {
    let lock = StateLock::acquire(ctx)?;
    let Some((taken, remaining)) = journal::take(&lock, entry.id)? else {
        return Err(ToolError::stale_read(
            &entry.shown,
            format!("another undo of {} ran at the same time", entry.shown),
        )
        .hint("Run undo again if you want to step further back."));
    };
    let saved = match reads::apply(&lock, records) {
        Ok(saved) => saved,
        Err(e) => {
            let _ = journal::put_back(&lock, taken);
            return Err(e);
        }
    };
    let touched = touched(ctx, &[], records);
    Ok((
        Journaled {
            ctx,
            lock,
            pushed: vec![],
            pruned: vec![],
            kept: vec![],
            taken: Some(taken),
            saved: Some(saved),
            touched,
            landed: false,
        },
        remaining,
    ))
}

fn touched(ctx: &Ctx, entries: &[NewEntry], records: &[reads::Change]) -> Vec<(PathBuf, String)> {
    let mut out: Vec<(PathBuf, String)> = entries
        .iter()
        .map(|e| (e.real.to_path_buf(), e.shown.to_string()))
        .collect();
    for r in records {
        let p = match r {
            reads::Change::Set(p, _) => p,
            reads::Change::Move(_, to) => to,
            reads::Change::Forget(_) => continue,
        };
        if !out.iter().any(|(q, _)| q == p) {
            out.push((p.to_path_buf(), ctx.show(p, Some(p))));
        }
    }
    out
}

impl Journaled<'_> {
    /// The change landed: its entries and records stay; an undo's entry lets go of what it
    /// kept. Tells the call which paths exist changed after it (the catalog's post hooks get
    /// them, SPEC 19.2, 24.7).
    pub fn landed(mut self) {
        self.landed = true;
        journal::seal(&self.kept);
        for entry in self.taken.take().into_iter().chain(self.pruned.drain(..)) {
            journal::discard(self.lock.dir(), &entry);
        }
        for (real, shown) in &self.touched {
            if real.symlink_metadata().is_ok() {
                self.ctx.note_changed(shown.clone());
            }
        }
    }
}

impl Drop for Journaled<'_> {
    fn drop(&mut self) {
        if self.landed {
            return;
        }
        // Not landed: the state goes back to what it was before the change.
        let mut failed = None;
        if let Some(saved) = self.saved.take()
            && let Err(e) = saved.restore(&self.lock)
        {
            failed = Some(e);
        }
        let journal = match self.taken.take() {
            Some(entry) => journal::put_back(&self.lock, entry),
            None => journal::pop_all(&self.lock, &self.pushed, std::mem::take(&mut self.pruned)),
        };
        if let Err(e) = journal {
            failed = Some(e);
        }
        if let Some(e) = failed {
            self.ctx.warn(format!(
                "the change was not made, but the session state could not be put back as it was: {}",
                e.message
            ));
        }
    }
}
