//! Undo of the changes that are not new content (SPEC 18.1): a move is moved back (and a file it
//! overwrote restored), a delete comes back from the trash with its modes, a mkdir's new
//! directories are removed while still empty. Each refuses with `stale_read` when the paths are
//! no longer as the change left them, so nobody's later work is lost.

use crate::change;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::fsx;
use crate::journal::{self, Entry, Op};
use crate::reads::{self, Fingerprint};
use crate::sandbox::{self, carried::Side};
use crate::state;
use serde_json::json;
use std::path::Path;

pub fn undo(ctx: &Ctx, entry: &Entry, op: &Op, real: &Path, shown: &str) -> Result<Success> {
    match op {
        Op::Move {
            from,
            from_shown,
            dir,
            content,
            ..
        } => {
            let moved = Moved {
                from: Path::new(from),
                from_shown,
                dir: *dir,
                content: content.as_ref(),
            };
            undo_move(ctx, entry, &moved, real, shown)
        }
        Op::Delete { trash } => undo_delete(ctx, entry, trash.as_deref(), real, shown),
        Op::Mkdir { created } => undo_mkdir(ctx, entry, created, shown),
    }
}

fn changed(shown: &str, what: &str) -> ToolError {
    ToolError::stale_read(
        shown,
        format!("{shown} has changed since the {what} this would undo"),
    )
    .hint(format!(
        "Look at {shown} (stat, read); put it back by hand if you still need to."
    ))
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
pub(super) fn blob_bytes(
    ctx: &Ctx,
    prev: &journal::Previous,
    shown: &str,
    tool: &str,
) -> Result<Vec<u8>> {
    let blobs = state::session_dir(ctx).join("undo");
    let blob = prev.blob.as_ref().ok_or_else(|| {
        ToolError::usage(format!(
            "the change of {shown} cannot be undone: its previous content was over 64 MiB and not kept"
        ))
    })?;
    let bytes =
        journal::read_blob(&blobs, blob).map_err(|e| ToolError::state(&e, &blobs.join(blob)))?;
    let hash = prev.hash.map(|_| xxhash_rust::xxh3::xxh3_64(&bytes));
    if hash != prev.hash || bytes.len() as u64 != prev.size {
        return Err(ToolError::new(
            Code::IoError,
            format!("the previous content of {shown} kept for undo has changed since the {tool} (a program that held the old file open wrote to it); nothing was restored"),
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
        return Err(ToolError::stale_read(
            from_shown,
            format!("{from_shown} exists again, so the move to {to_shown} cannot be taken back"),
        )
        .hint(format!(
            "Move or delete {from_shown} first if you still want this undone."
        )));
    }
    let restore = entry
        .previous
        .as_ref()
        .map(|p| {
            if p.blob.is_none() {
                return Err(ToolError::usage(format!(
                    "the move onto {to_shown} cannot be undone: the file it replaced was over 64 MiB and not kept"
                )));
            }
            Ok((blob_bytes(ctx, p, to_shown, &entry.tool)?, p.mode))
        })
        .transpose()?;
    let content = moved
        .content
        .map(|p| blob_bytes(ctx, p, from_shown, &entry.tool).map(|b| (b, p.mode)))
        .transpose()?;
    // Through checked handles (SPEC 23.5): both ends resolved afresh.
    let to_r = sandbox::resolve_entry(ctx, "path", &to.to_string_lossy())?;
    let from_r = sandbox::resolve_entry(ctx, "path", &from.to_string_lossy())?;
    // Moving a tree back carries every path below it as the move did (SPEC 31.4).
    let (back_from, back_to) = (Side::of(&to_r), Side::of(&from_r));
    sandbox::carried::check(ctx, "path", &to_r.real, Some(back_from), Some(back_to))?;
    // Staged before anything moves: the file the move replaced (back at `to`), and the content
    // the file had before a change that rewrote it as it moved (apply_patch's Update + Move to:
    // back at `from` as a new file, and the rewritten one goes).
    let mut at_to = restore
        .as_ref()
        .map(|(b, mode)| fsx::stage_resolved(&to_r, b, None, Some(*mode)))
        .transpose()
        .map_err(|e| restoring(to_shown, e))?;
    let mut at_from = content
        .as_ref()
        .map(|(b, mode)| fsx::stage_resolved(&from_r, b, None, Some(*mode)))
        .transpose()
        .map_err(|e| restoring(from_shown, e))?;
    let mut records = vec![reads::Change::Move(to, from)];
    if let Some(s) = &at_from {
        records.push(reads::Change::Set(from, s.fp));
    }
    if let Some(s) = &at_to {
        records.push(reads::Change::Set(to, s.fp));
    }
    let (journaled, remaining) = change::undo_first(ctx, entry, &records)?;
    // Each step is taken back if a later one fails, so the paths end as they were.
    match at_from.as_mut() {
        Some(staged) => {
            staged.commit().map_err(|e| restoring(from_shown, e))?;
        }
        None => {
            fsx::move_resolved(&to_r, &from_r)
                .map_err(|e| ToolError::io(&e, to_shown, "moving back"))?;
        }
    }
    let second = match (at_to.as_mut(), &at_from) {
        (Some(staged), _) => staged.commit().map(|_| ()),
        (None, Some(_)) => fsx::remove_resolved(&to_r),
        (None, None) => Ok(()),
    };
    if let Err(e) = second {
        let _ = match at_from {
            Some(_) => fsx::remove_resolved(&from_r),
            None => fsx::move_resolved(&from_r, &to_r).map(|_| ()),
        };
        return Err(restoring(to_shown, e));
    }
    journaled.landed();
    // The directories the move made for its target go again while empty.
    if let Some(Op::Move { created, .. }) = &entry.op {
        for d in created.iter().rev() {
            let _ = std::fs::remove_dir(d);
        }
    }
    let extra = if restore.is_some() {
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

fn restoring(shown: &str, e: std::io::Error) -> ToolError {
    ToolError::io(&e, shown, "restoring")
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
        return Err(ToolError::stale_read(
            shown,
            format!("{shown} exists again, so its delete cannot be taken back"),
        )
        .hint(format!(
            "Move or delete the new {shown} first if you still want the old one back."
        )));
    }
    let kept = journal::trash_dir(&state::session_dir(ctx)).join(trash);
    let Ok(kept_meta) = std::fs::symlink_metadata(&kept) else {
        return Err(ToolError::new(
            Code::IoError,
            format!("the trash no longer holds what was deleted from {shown}"),
        )
        .with("path", shown));
    };
    // A restored file is known as it is now (SPEC 24.2), as after a write: a rename keeps
    // what the trash holds.
    let fp = kept_meta
        .is_file()
        .then(|| Fingerprint::of_file(&kept).ok())
        .flatten();
    let records: Vec<reads::Change> = fp
        .map(|fp| reads::Change::Set(real, fp))
        .into_iter()
        .collect();
    let back = sandbox::resolve_entry(ctx, "path", &real.to_string_lossy())?;
    // What comes back from the trash lands below `back` at once (SPEC 31.4).
    sandbox::carried::check(ctx, "path", &kept, None, Some(Side::of(&back)))?;
    let (journaled, remaining) = change::undo_first(ctx, entry, &records)?;
    // The trash keeps its entries private: their own modes come back just before they leave
    // it, and go private again if they cannot (SPEC 31.3).
    journal::unseal(&kept);
    if let Err(e) = fsx::move_in(&kept, &back) {
        journal::seal(std::slice::from_ref(&kept));
        return Err(ToolError::io(&e, shown, "restoring"));
    }
    journal::forget_modes(&kept);
    if let Some(parent) = real.parent() {
        fsx::sync_dir(parent);
    }
    journaled.landed();
    Ok(done(
        shown,
        "restored",
        format!("Undid the delete: restored {shown} from the trash"),
        remaining,
    ))
}

fn undo_mkdir(ctx: &Ctx, entry: &Entry, created: &[String], shown: &str) -> Result<Success> {
    let _locked = change::lock(ctx, &[Path::new(&entry.path)])?;
    // Each directory may hold only the next one it created (they go innermost first); one
    // that holds anything else stays, and undo says so before removing any.
    for (i, d) in created.iter().enumerate() {
        let inner = created.get(i + 1).map(Path::new);
        let Ok(list) = std::fs::read_dir(d) else {
            continue; // gone already
        };
        if list.flatten().any(|e| Some(e.path().as_path()) != inner) {
            let d_shown = ctx.show(Path::new(d), Some(Path::new(d)));
            return Err(ToolError::stale_read(
                &d_shown,
                format!("{d_shown} is no longer empty, so the mkdir cannot be taken back"),
            )
            .hint("Delete what is inside it first if you still want it gone."));
        }
    }
    let (journaled, remaining) = change::undo_first(ctx, entry, &[])?;
    let mut removed: Vec<&String> = vec![];
    for d in created.iter().rev() {
        let gone = crate::fault::check("remove").and_then(|()| std::fs::remove_dir(d));
        match gone {
            Ok(()) => removed.push(d),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                // Not made: what was removed comes back, outermost first.
                for r in removed.iter().rev() {
                    let _ = std::fs::create_dir(r);
                }
                let d_shown = ctx.show(Path::new(d), Some(Path::new(d)));
                return Err(ToolError::io(&e, &d_shown, "removing"));
            }
        }
    }
    journaled.landed();
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
