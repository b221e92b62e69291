//! `delete` (SPEC 18.1, 24.2): remove a file, a link or a directory tree — into a trash in the
//! session's state directory, so `undo` puts it back with its modes. No peer offers that.
//!
//! The entry itself is removed, never a symlink's target. A file needs a fresh read (as write);
//! a tree does not (the trash makes it undoable). Over 256 MiB the trash is not used:
//! `permanent: true` is then required, so a large deletion is a decision, not an accident.

use crate::change;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::fsx;
use crate::journal::{self, Before, Op};
use crate::reads::Fingerprint;
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
            return Err(ToolError::new(
                Code::TooLarge,
                format!(
                    "{shown} holds {} bytes, more than the trash keeps ({TRASH_LIMIT} bytes); nothing was deleted",
                    m.bytes
                ),
            )
            .with("limit", TRASH_LIMIT)
            .with("path", shown)
            .hint("Pass permanent: true to delete it for good (this cannot be undone)."));
        }
        let trash = if permanent {
            // Taken out of the tree through its checked handle first, then removed where only
            // this call can reach it, so a swapped parent cannot redirect the removal.
            let staged = to_trash(ctx, &target)?;
            let trash = journal::trash_dir(&state::session_dir(ctx)).join(&staged);
            fsx::remove_entry(&trash).map_err(|e| ToolError::state(&e, &trash))?;
            None
        } else {
            Some(to_trash(ctx, &target)?)
        };
        if let Some(parent) = real.parent() {
            fsx::sync_dir(parent);
        }
        let undoable = trash.is_some();
        if undoable {
            change::remember(
                ctx,
                "delete",
                &target,
                Before::Absent,
                Some(Op::Delete { trash }),
                Default::default(),
                &[(real, None)],
            );
        } else {
            change::records_only(ctx, &[(real, None)]);
        }
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

/// Moves `real` into the session's trash under a fresh name; returns that name.
pub(crate) fn to_trash(ctx: &Ctx, target: &sandbox::Resolved) -> Result<String> {
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    let dir = journal::trash_dir(&state::session_dir(ctx));
    state::create_dir(&dir)?;
    let name = format!(
        "{}.{}.{}",
        state::unix_secs(),
        std::process::id(),
        SERIAL.fetch_add(1, Ordering::Relaxed)
    );
    fsx::move_out(target, &dir, &name).map_err(|e| ToolError::io(&e, &target.shown, "deleting"))?;
    fsx::sync_dir(&dir);
    Ok(name)
}
