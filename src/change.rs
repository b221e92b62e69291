//! The change protocol (issue 18; SPEC 2.2, 16.5): the one sequence every tool that changes
//! files goes through, so the no-lost-update rule lives in one place.
//!
//! 1. `lock`: the session's read records of the files are taken *before* waiting for their
//!    file locks (16.5: a concurrent winner's update then never lets the loser through), then
//!    the locks themselves, in sorted order when a call changes several files (24.7).
//! 2. `Locked::require_fresh`: under the lock, the file's current content must be what this
//!    session last read or wrote (`not_read`, `stale_read`).
//! 3. The change itself: `replace` for content (temp file, fsync, rename, fsync of the
//!    directory), or a rename / removal done by the tool.
//! 4. `remember`: the journal entry for `undo` and the read records, under one state lock.
//!
//! Core: it knows files, records, the journal and locks, never a tool.

use crate::context::Ctx;
use crate::error::{Result, ToolError};
use crate::fsx;
use crate::journal::{self, Before, Op};
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
    let mut locks = Vec::with_capacity(sorted.len());
    let mut held: Vec<(u64, u64)> = vec![];
    for p in sorted {
        // A directory this change already holds is not locked again (flock is per open file:
        // a second lock of one directory would wait on the first).
        if let Some((id, lock)) = state::lock_parent(ctx, p, &held)? {
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

/// Replaces `target`'s content with `bytes` (creating it when `existing` is `None`), journaling
/// `before` for undo and recording the new content as read. The caller holds the lock.
///
/// The order is the contract's (SPEC 24.6, 24.7): the new content is staged (a temp file beside
/// the target, fsynced), then the journal entry and the read record are saved, then the temp file
/// is renamed over the target. A change whose entry cannot be saved is therefore not made (the
/// call fails with the state file's errno and path, the temp file removed), and a rename that
/// fails takes its entry back out. A file with several hard links is rewritten in place, room
/// reserved first (fsx::in_place), and journaled after.
pub fn replace(
    ctx: &Ctx,
    tool: &str,
    target: &Resolved,
    bytes: &[u8],
    existing: Option<&Metadata>,
    before: Before,
) -> Result<Fingerprint> {
    let writing = |e: std::io::Error| ToolError::io(&e, &target.shown, "writing");
    let staged = match fsx::stage_resolved(target, bytes, existing, None).map_err(writing)? {
        fsx::Prepared::Staged(staged) => staged,
        fsx::Prepared::Written(fp) => {
            remember(
                ctx,
                tool,
                target,
                before,
                None,
                fp,
                &[(&target.real, Some(fp))],
            );
            return Ok(fp);
        }
    };
    let fp = staged.fp;
    let too_large = matches!(before, Before::TooLarge { .. });
    let lock = StateLock::acquire(ctx)?;
    // Dropping `staged` on any error below removes the temp file: the target never changed.
    let id = journal::push(&lock, tool, &target.real, &target.shown, before, None, fp)?.0;
    let old_record = reads::lookup(ctx, &target.real).ok().flatten();
    if let Err(e) = apply_records(&lock, &[(&target.real, Some(fp))]) {
        let _ = journal::pop(&lock, id);
        return Err(e);
    }
    if let Err(e) = staged.commit() {
        // Not made: the entry goes, and the record names what the file still holds.
        let _ = journal::pop(&lock, id);
        let _ = match old_record {
            Some(r) => reads::record(&lock, &target.real, r.fingerprint),
            None => reads::forget(&lock, &target.real),
        };
        return Err(writing(e));
    }
    note_changed(ctx, Some(target), &[]);
    if too_large {
        ctx.warn(format!(
            "the previous content of {} is over 64 MiB and was not kept: this change cannot be undone",
            target.shown
        ));
    }
    Ok(fp)
}

/// Tells the call which paths exist changed after it (the catalog's post hooks get them, SPEC
/// 19.2, 24.7): the target when it is still there, and each file recorded as now known.
fn note_changed(ctx: &Ctx, target: Option<&Resolved>, records: &[(&Path, Option<Fingerprint>)]) {
    if let Some(t) = target
        && t.real.symlink_metadata().is_ok()
    {
        ctx.note_changed(t.shown.clone());
    }
    for (real, fp) in records {
        if fp.is_some() && target.is_none_or(|t| t.real != *real) {
            ctx.note_changed(ctx.show(real, Some(real)));
        }
    }
}

/// A change that cannot be undone (a permanent delete) is not journaled — undo then steps to
/// the change before it — but the read records still follow it.
pub fn records_only(ctx: &Ctx, records: &[(&Path, Option<Fingerprint>)]) {
    note_changed(ctx, None, records);
    let result = StateLock::acquire(ctx).and_then(|lock| apply_records(&lock, records));
    if let Err(e) = result {
        ctx.warn(format!(
            "the change was made, but the read records could not be updated: {}",
            e.message
        ));
    }
}

/// After a change has landed: journal it (`before`; `op` for changes other than content;
/// `after`, the file as the change left it, which undo checks) and update the read records:
/// `Some(fp)` records a file as now known, `None` forgets it. The change is made, so a state
/// failure becomes a warning, not an error.
pub fn remember(
    ctx: &Ctx,
    tool: &str,
    target: &Resolved,
    before: Before,
    op: Option<Op>,
    after: Fingerprint,
    records: &[(&Path, Option<Fingerprint>)],
) {
    note_changed(ctx, Some(target), records);
    let too_large = matches!(before, Before::TooLarge { .. });
    let result = StateLock::acquire(ctx).and_then(|lock| {
        journal::push(&lock, tool, &target.real, &target.shown, before, op, after)?;
        apply_records(&lock, records)
    });
    if let Err(e) = result {
        ctx.warn(format!(
            "the change was made, but the session state could not be updated: {}",
            e.message
        ));
    } else if too_large {
        ctx.warn(format!(
            "the previous content of {} is over 64 MiB and was not kept: this change cannot be undone",
            target.shown
        ));
    }
}

/// `remember` for a move that also rewrote the file (apply_patch's Update with `Move to`):
/// `source` is what the file held before, so one undo moves it back as it was.
#[allow(clippy::too_many_arguments)]
pub fn remember_moved(
    ctx: &Ctx,
    tool: &str,
    target: &Resolved,
    before: Before,
    op: Op,
    after: Fingerprint,
    source: Before,
    records: &[(&Path, Option<Fingerprint>)],
) {
    note_changed(ctx, Some(target), records);
    let result = StateLock::acquire(ctx).and_then(|lock| {
        journal::push_moved(
            &lock,
            tool,
            &target.real,
            &target.shown,
            before,
            Some(op),
            after,
            Some(source),
        )?;
        apply_records(&lock, records)
    });
    if let Err(e) = result {
        ctx.warn(format!(
            "the change was made, but the session state could not be updated: {}",
            e.message
        ));
    }
}

/// `Some(fp)` records a file as now known, `None` forgets it.
fn apply_records(lock: &StateLock, records: &[(&Path, Option<Fingerprint>)]) -> Result<()> {
    for (p, fp) in records {
        match fp {
            Some(fp) => reads::record(lock, p, *fp)?,
            None => reads::forget(lock, p)?,
        }
    }
    Ok(())
}
