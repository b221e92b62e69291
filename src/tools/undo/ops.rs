//! Undo of the changes that are not new content (SPEC 18.1): a move is moved back (and a file it
//! overwrote restored), a delete comes back from the trash with its modes, a mkdir's new
//! directories are removed while still empty. Each refuses with `stale_read` when the paths are
//! no longer as the change left them, so nobody's later work is lost.

use crate::change;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::fsx;
use crate::journal::{self, Entry, Journal, Op};
use crate::reads::{self, Fingerprint};
use crate::sandbox;
use crate::state::{self, StateLock};
use serde_json::json;
use std::path::Path;

pub fn undo(ctx: &Ctx, entry: &Entry, op: &Op, real: &Path, shown: &str) -> Result<Success> {
    match op {
        Op::Move {
            from,
            from_shown,
            dir,
            created,
            content,
        } => {
            let moved = Moved {
                from: Path::new(from),
                from_shown,
                dir: *dir,
                content: content.as_ref(),
            };
            let done = undo_move(ctx, entry, &moved, real, shown)?;
            // The directories the move made for its target go again while empty.
            for d in created.iter().rev() {
                let _ = std::fs::remove_dir(d);
            }
            Ok(done)
        }
        Op::Delete { trash } => undo_delete(ctx, entry, trash.as_deref(), real, shown),
        Op::Mkdir { created } => undo_mkdir(ctx, entry, created, shown),
    }
}

fn changed(shown: &str, what: &str) -> ToolError {
    ToolError::new(
        Code::StaleRead,
        format!("{shown} has changed since the {what} this would undo"),
    )
    .with("path", shown)
    .hint(format!(
        "Look at {shown} (stat, read); put it back by hand if you still need to."
    ))
}

/// Takes `entry` off the journal under the state lock (a concurrent undo may have taken it
/// first) and runs `update` with the lock held. Returns the entries left.
fn pop(ctx: &Ctx, entry: &Entry, update: impl FnOnce(&StateLock) -> Result<()>) -> Result<usize> {
    let lock = StateLock::acquire(ctx)?;
    let mut journal: Journal = lock.load(journal::FILE)?;
    if !journal.entries.iter().any(|e| e.id == entry.id) {
        return Err(ToolError::new(
            Code::StaleRead,
            format!("another undo of {} ran at the same time", entry.shown),
        )
        .hint("Run undo again if you want to step further back."));
    }
    journal.entries.retain(|e| e.id != entry.id);
    lock.save(journal::FILE, &journal, true)?;
    update(&lock)?;
    Ok(journal.entries.len())
}

fn done(shown: &str, action: &str, what: String, remaining: usize) -> Success {
    Success::new(
        format!("{what}; {remaining} more change(s) can be undone\n"),
        json!({"path": shown, "action": action, "remaining": remaining}),
    )
}

fn exists(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok()
}

/// The source side of a move entry.
struct Moved<'a> {
    from: &'a Path,
    from_shown: &'a str,
    dir: bool,
    /// The content the file had before a change that rewrote it as it moved.
    content: Option<&'a journal::Previous>,
}

/// A kept blob's bytes, checked against what the journal says of them.
fn blob_bytes(ctx: &Ctx, prev: &journal::Previous, shown: &str) -> Result<Vec<u8>> {
    let blobs = state::session_dir(ctx).join("undo");
    let blob = prev.blob.as_ref().ok_or_else(|| {
        ToolError::usage(format!(
            "the change of {shown} cannot be undone: its previous content was over 64 MiB and not kept"
        ))
    })?;
    let bytes =
        std::fs::read(blobs.join(blob)).map_err(|e| ToolError::state(&e, &blobs.join(blob)))?;
    let hash = prev.hash.map(|_| xxhash_rust::xxh3::xxh3_64(&bytes));
    if hash != prev.hash || bytes.len() as u64 != prev.size {
        return Err(ToolError::new(
            Code::IoError,
            format!("the previous content of {shown} kept for undo has changed since (a program that held the old file open wrote to it); nothing was restored"),
        )
        .with("path", shown)
        .hint("Restore the file from version control or a backup."));
    }
    Ok(bytes)
}

fn undo_move(
    ctx: &Ctx,
    entry: &Entry,
    moved: &Moved,
    to: &Path,
    to_shown: &str,
) -> Result<Success> {
    let (from, from_shown, dir) = (moved.from, moved.from_shown, moved.dir);
    let _locked = change::lock(ctx, &[from, to])?;
    // `to` must still hold what was moved there, and `from` must be free again.
    let meta = std::fs::symlink_metadata(to).map_err(|_| changed(to_shown, "move"))?;
    if meta.is_file() && !dir {
        let now = Fingerprint::of_file(to).map_err(|e| ToolError::io(&e, to_shown, "reading"))?;
        if now.hash != entry.after.hash || now.size != entry.after.size {
            return Err(changed(to_shown, "move"));
        }
    }
    if exists(from) {
        return Err(ToolError::new(
            Code::StaleRead,
            format!("{from_shown} exists again, so the move to {to_shown} cannot be taken back"),
        )
        .with("path", from_shown)
        .hint(format!(
            "Move or delete {from_shown} first if you still want this undone."
        )));
    }
    let blobs = state::session_dir(ctx).join("undo");
    let restore = entry
        .previous
        .as_ref()
        .map(|p| {
            let blob = p.blob.as_ref().ok_or_else(|| {
                ToolError::usage(format!(
                    "the move onto {to_shown} cannot be undone: the file it replaced was over 64 MiB and not kept"
                ))
            })?;
            let bytes = std::fs::read(blobs.join(blob))
                .map_err(|e| ToolError::state(&e, &blobs.join(blob)))?;
            Ok::<_, ToolError>((bytes, p.mode))
        })
        .transpose()?;
    let content = moved
        .content
        .map(|p| blob_bytes(ctx, p, from_shown).map(|b| (b, p.mode)))
        .transpose()?;
    // Through checked handles (SPEC 23.5): both ends resolved afresh, the entry itself moved.
    let to_r = sandbox::resolve_entry(ctx, "path", &to.to_string_lossy())?;
    let from_r = sandbox::resolve_entry(ctx, "path", &from.to_string_lossy())?;
    fsx::move_resolved(&to_r, &from_r).map_err(|e| ToolError::io(&e, to_shown, "moving back"))?;
    // The content it had before the change that moved it (apply_patch's Update + Move to).
    let rewritten = match &content {
        Some((bytes, mode)) => {
            let back = sandbox::resolve(ctx, "path", &from.to_string_lossy())?;
            let meta = std::fs::metadata(from).ok();
            Some(
                fsx::replace_resolved(&back, bytes, meta.as_ref(), Some(*mode))
                    .map_err(|e| ToolError::io(&e, from_shown, "restoring"))?,
            )
        }
        None => None,
    };
    let restored = match &restore {
        Some((bytes, mode)) => {
            let back = sandbox::resolve(ctx, "path", &to.to_string_lossy())?;
            Some(
                fsx::replace_resolved(&back, bytes, None, Some(*mode))
                    .map_err(|e| ToolError::io(&e, to_shown, "restoring"))?,
            )
        }
        None => None,
    };
    let remaining = pop(ctx, entry, |lock| {
        reads::move_prefix(lock, to, from)?;
        if let Some(fp) = rewritten {
            reads::record(lock, from, fp)?;
        }
        if let Some(fp) = restored {
            reads::record(lock, to, fp)?;
        }
        journal::discard(lock.dir(), entry);
        Ok(())
    })?;
    let extra = if restored.is_some() {
        format!(" and restored the file it replaced at {to_shown}")
    } else {
        String::new()
    };
    Ok(done(
        from_shown,
        "moved_back",
        format!("Undid the move: moved {to_shown} back to {from_shown}{extra}"),
        remaining,
    ))
}

fn undo_delete(
    ctx: &Ctx,
    entry: &Entry,
    trash: Option<&str>,
    real: &Path,
    shown: &str,
) -> Result<Success> {
    let Some(trash) = trash else {
        return Err(ToolError::usage(format!(
            "the delete of {shown} was permanent and cannot be undone"
        )));
    };
    let _locked = change::lock(ctx, &[real])?;
    if exists(real) {
        return Err(ToolError::new(
            Code::StaleRead,
            format!("{shown} exists again, so its delete cannot be taken back"),
        )
        .with("path", shown)
        .hint(format!(
            "Move or delete the new {shown} first if you still want the old one back."
        )));
    }
    let kept = journal::trash_dir(&state::session_dir(ctx)).join(trash);
    if !exists(&kept) {
        return Err(ToolError::new(
            Code::IoError,
            format!("the trash no longer holds what was deleted from {shown}"),
        )
        .with("path", shown));
    }
    let back = sandbox::resolve_entry(ctx, "path", &real.to_string_lossy())?;
    fsx::move_in(&kept, &back).map_err(|e| ToolError::io(&e, shown, "restoring"))?;
    if let Some(parent) = real.parent() {
        fsx::sync_dir(parent);
    }
    // A restored file is known as it is now (SPEC 24.2), as after a write.
    let fp = std::fs::symlink_metadata(real)
        .ok()
        .filter(|m| m.is_file())
        .and_then(|_| Fingerprint::of_file(real).ok());
    let remaining = pop(ctx, entry, |lock| match fp {
        Some(fp) => reads::record(lock, real, fp),
        None => Ok(()),
    })?;
    Ok(done(
        shown,
        "restored",
        format!("Undid the delete: restored {shown} from the trash"),
        remaining,
    ))
}

fn undo_mkdir(ctx: &Ctx, entry: &Entry, created: &[String], shown: &str) -> Result<Success> {
    let _locked = change::lock(ctx, &[Path::new(&entry.path)])?;
    // Innermost first; a directory that is no longer empty stays, and undo says so.
    for d in created.iter().rev() {
        match std::fs::remove_dir(d) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(_) => {
                let d_shown = ctx.show(Path::new(d), Some(Path::new(d)));
                return Err(ToolError::new(
                    Code::StaleRead,
                    format!("{d_shown} is no longer empty, so the mkdir cannot be taken back"),
                )
                .with("path", d_shown.as_str())
                .hint("Delete what is inside it first if you still want it gone."));
            }
        }
    }
    let remaining = pop(ctx, entry, |_| Ok(()))?;
    Ok(done(
        shown,
        "removed",
        format!(
            "Undid the mkdir: removed {shown} ({} new director{})",
            created.len(),
            if created.len() == 1 { "y" } else { "ies" }
        ),
        remaining,
    ))
}
