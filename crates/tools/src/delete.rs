//! `delete` (SPEC 18.1, 24.2): remove a file, a link or a directory tree — into a trash in the
//! session's state directory, so `undo` puts it back with its modes. No peer offers that.
//!
//! The entry itself is removed, never a symlink's target. A file needs a fresh read (as write);
//! a tree does not (the trash makes it undoable). Over 256 MiB the trash is not used:
//! `permanent: true` is then required, so a large deletion is a decision, not an accident.

use crate::change;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::fsx;
use crate::journal::{self, Before, NewEntry, Op};
use crate::reads::{self, Fingerprint};
use crate::sandbox;
use crate::state;
use crate::tool::Tool;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::sync::atomic::{AtomicU64, Ordering};

pub struct Delete;

/// The most a trashed deletion may hold (SPEC 18.1).
pub const TRASH_LIMIT: u64 = 256 * 1024 * 1024;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// The file, link or directory to delete.
    #[serde(alias = "file_path")]
    pub path: String,
    /// Delete a directory with everything in it (an empty one needs no flag).
    #[schemars(extend("default" = false))]
    pub recursive: Option<bool>,
    /// Delete for good instead of into the trash: cannot be undone. Required over 256 MiB.
    #[schemars(extend("default" = false))]
    pub permanent: Option<bool>,
}

impl Tool for Delete {
    type Input = Input;
    const NAME: &'static str = "delete";
    const SUMMARY: &'static str = "Delete a file or directory (undoable: it goes to a trash)";
    const DESCRIPTION: &'static str = "Deletes a file, a symlink (the link itself, never what it points to) or, with `recursive: true`, a directory and everything in it. \
Deleting a file requires that you read it in this session and that it has not changed since (as for write). The root itself is never deleted. \
What is deleted goes to a trash in the session state, so `undo` restores it with its permissions; deletions over 256 MiB need `permanent: true` (not undoable). \
Prefer this over `run` with `rm`: it stays inside the sandbox and can be undone.";
    const POSITIONALS: &'static [&'static str] = &["path"];
    const EXAMPLES: &'static str =
        "  loopr-tool delete old/notes.txt\n  loopr-tool delete build/ --recursive";

    fn read_only(_: &Input) -> bool {
        false
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let target = sandbox::resolve_entry(ctx, "path", &input.path)?;
        let shown = target.shown.as_str();
        let real = target.real.as_path();
        let locked = change::lock(ctx, &[real])?;
        // A tree takes every path below it away (SPEC 31.4).
        let side = sandbox::carried::Side::of(&target);
        sandbox::carried::check(ctx, "path", real, Some(side), None)?;
        let meta =
            std::fs::symlink_metadata(real).map_err(|e| ToolError::io(&e, shown, "deleting"))?;
        let recursive = input.recursive.unwrap_or(false);
        let permanent = input.permanent.unwrap_or(false);
        if meta.is_file() {
            let current =
                Fingerprint::of_file(real).map_err(|e| ToolError::io(&e, shown, "reading"))?;
            locked.require_fresh(real, shown, &current)?;
        }
        let m = fsx::measure(real).map_err(|e| ToolError::io(&e, shown, "reading"))?;
        if meta.is_dir() && !recursive && m.files + m.directories > 1 {
            return Err(ToolError::invalid(
                "recursive",
                format!(
                    "{shown} is a directory holding {} files and {} directories; deleting it needs recursive: true",
                    m.files,
                    m.directories - 1
                ),
            )
            .hint("Pass recursive: true to delete the directory and everything in it (undo can restore it)."));
        }
        if m.bytes > TRASH_LIMIT && !permanent {
            return Err(ToolError::too_large(TRASH_LIMIT, format!(
                    "{shown} holds {} bytes, more than the trash keeps ({TRASH_LIMIT} bytes); nothing was deleted",
                    m.bytes
                ))
            .with("path", shown)
            .hint("Pass permanent: true to delete it for good (this cannot be undone)."));
        }
        // Journal first (SPEC 24.6): the entry names the trash entry before it is made.
        let name = trash_name();
        let undoable = !permanent;
        // Permanent: not undoable, so no entry (undo steps to the change before it); the read
        // record still follows.
        let entries = if undoable {
            let op = Op::Delete {
                trash: Some(name.clone()),
            };
            vec![NewEntry::new("delete", real, shown, Before::Absent, Default::default()).op(op)]
        } else {
            vec![]
        };
        let journaled = change::journal_first(ctx, entries, &[reads::Change::Forget(real)])?;
        let kept = to_trash(ctx, &target, &name)?;
        if permanent {
            // Taken out of the tree through its checked handle first, then removed where only
            // this call can reach it, so a swapped parent cannot redirect the removal. What
            // could not be removed goes back where it was.
            if let Err(e) = fsx::remove_entry(&kept) {
                let _ = fsx::move_in(&kept, &target);
                return Err(ToolError::state(&e, &kept));
            }
        }
        if let Some(parent) = real.parent() {
            fsx::sync_dir(parent);
        }
        journaled.landed();
        drop(locked);
        let what = match (meta.is_dir(), meta.file_type().is_symlink()) {
            (true, _) => format!(
                "directory {shown} ({} files, {} directories, {} bytes)",
                m.files, m.directories, m.bytes
            ),
            (_, true) => format!("symlink {shown}"),
            _ => format!("{shown} ({} bytes)", m.bytes),
        };
        let how = if undoable {
            "into the trash; undo restores it"
        } else {
            "permanently"
        };
        Ok(Success::new(
            format!("Deleted {what} {how}\n"),
            json!({
                "path": shown,
                "files": m.files,
                "directories": m.directories,
                "bytes": m.bytes,
                "undoable": undoable,
            }),
        ))
    }
}

/// A fresh name for an entry of the session's trash.
pub fn trash_name() -> String {
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}.{}.{}",
        state::unix_secs(),
        std::process::id(),
        SERIAL.fetch_add(1, Ordering::Relaxed)
    )
}

/// Moves what `target` names into the session's trash as `name`; returns where it is now. A
/// failure to save it there (a full or read-only state dir) names the trash (SPEC 24.6); a
/// failure to take it out of the tree names the path; either way it is still where it was.
pub fn to_trash(ctx: &Ctx, target: &sandbox::Resolved, name: &str) -> Result<std::path::PathBuf> {
    let dir = journal::trash_dir(&state::session_dir(ctx));
    let kept = dir.join(name);
    crate::fault::check("trash").map_err(|e| ToolError::state(&e, &kept))?;
    state::create_dir(&dir)?;
    fsx::move_out(target, &dir, name).map_err(|e| match e.raw_os_error() {
        // Only the trash's side needs room.
        Some(libc::ENOSPC | libc::EDQUOT) => ToolError::state(&e, &kept),
        _ => ToolError::io(&e, &target.shown, "deleting"),
    })?;
    fsx::sync_dir(&dir);
    Ok(kept)
}
