//! `undo` (SPEC §14, 16.5): put back what this session's most recent write or edit replaced.
//!
//! The journal entry says what the file held before (or that it did not exist) and what the
//! change left. Undo refuses with `stale_read` when the file is no longer what the change left:
//! someone changed it since, and restoring would destroy their work.

use crate::change;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::fsx;
use crate::journal::{self, Entry, Journal};
use crate::reads::{self, Fingerprint};
use crate::sandbox;
use crate::state::StateLock;
use crate::tool::Tool;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::path::Path;

mod ops;

pub struct Undo;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// Undo the most recent change of this file (default: the most recent change of any file).
    #[serde(alias = "file_path")]
    pub path: Option<String>,
}

impl Tool for Undo {
    type Input = Input;
    const NAME: &'static str = "undo";
    const SUMMARY: &'static str =
        "Undo this session's most recent change (write, edit, move, delete, mkdir)";
    const DESCRIPTION: &'static str = "Takes back this session's most recent change (of `path`, when given): a write or edit gets the file's previous content back (a file it created is removed), a move is moved back, a delete restored from the trash, a mkdir's new directories removed. \
Repeat to step further back (the last 50 changes are kept). Refuses with stale_read if the file has changed since that change, so nobody's later work is lost.";
    const POSITIONALS: &'static [&'static str] = &["path"];
    const EXAMPLES: &'static str = "  echo '{}' | loopr-tool undo\n  loopr-tool undo src/main.rs";

    fn read_only(_: &Input) -> bool {
        false
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let wanted = input
            .path
            .as_deref()
            .map(|p| sandbox::resolve(ctx, "path", p))
            .transpose()?;
        let entry = {
            let lock = StateLock::acquire(ctx)?;
            latest(
                &lock.load::<Journal>(journal::FILE)?,
                wanted.as_ref().map(|w| w.real.as_path()),
            )
        };
        let Some(entry) = entry else {
            let what = wanted
                .as_ref()
                .map_or(String::new(), |w| format!(" of {}", w.shown));
            return Err(ToolError::new(
                Code::NotFound,
                format!("nothing to undo{what} in session {}", ctx.session),
            )
            .hint("Only this session's own changes can be undone (the last 50)."));
        };
        let real = Path::new(&entry.path).to_path_buf();
        let shown = ctx.show(&real, Some(&real));
        check_entry(ctx, &entry)?;
        if let Some(op) = &entry.op {
            return ops::undo(ctx, &entry, op, &real, &shown);
        }
        // Every access from here goes through the checked handle (SPEC 23.5).
        let target = sandbox::resolve(ctx, "path", &entry.path)?;
        let _locked = change::lock(ctx, &[&real])?;

        // The file must still be exactly what the change left.
        let meta = std::fs::metadata(&real).ok();
        let current = meta
            .as_ref()
            .map(|_| Fingerprint::of_file(&real))
            .transpose()
            .map_err(|e| ToolError::io(&e, &shown, "reading"))?;
        if current.is_none_or(|c| c.hash != entry.after.hash || c.size != entry.after.size) {
            return Err(ToolError::new(Code::StaleRead, format!("{shown} has changed since the {} this would undo", entry.tool))
                .with("path", shown.as_str())
                .hint(format!("Read {shown} to see its current content; change it back by hand if you still need to.")));
        }

        // Under the state lock from here: the entry must still be there (a concurrent undo
        // may have taken it), and popping it goes with the restore.
        let lock = StateLock::acquire(ctx)?;
        let mut journal: Journal = lock.load(journal::FILE)?;
        if !journal.entries.iter().any(|e| e.id == entry.id) {
            return Err(ToolError::new(
                Code::StaleRead,
                format!("another undo of {shown} ran at the same time"),
            )
            .with("path", shown.as_str())
            .hint("Run undo again if you want to step further back."));
        }
        let blobs = lock.dir().join("undo");
        let (action, restored) = match &entry.previous {
            None => {
                fsx::remove_resolved(&target).map_err(|e| ToolError::io(&e, &shown, "removing"))?;
                ("removed", None)
            }
            Some(prev) => {
                let Some(blob) = &prev.blob else {
                    // It can never be undone: take it off the journal, so the next undo reaches
                    // the change before it instead of stopping here for good.
                    journal.entries.retain(|e| e.id != entry.id);
                    lock.save(journal::FILE, &journal, true)?;
                    return Err(ToolError::usage(format!(
                        "the {} of {shown} cannot be undone: its previous content ({} bytes) was over 64 MiB and not kept; it is dropped from the undo history, so undo again reaches the change before it",
                        entry.tool, prev.size
                    )));
                };
                let bytes = std::fs::read(blobs.join(blob))
                    .map_err(|e| ToolError::state(&e, &blobs.join(blob)))?;
                let hash = prev.hash.map(|_| xxhash_rust::xxh3::xxh3_64(&bytes));
                if hash != prev.hash || bytes.len() as u64 != prev.size {
                    return Err(ToolError::new(
                        Code::IoError,
                        format!("the previous content of {shown} kept for undo has changed since the {} (a program that held the old file open wrote to it); nothing was restored", entry.tool),
                    )
                    .with("path", shown.as_str())
                    .hint("Restore the file from version control or a backup."));
                }
                let fp = fsx::replace_resolved(&target, &bytes, meta.as_ref(), Some(prev.mode))
                    .map_err(|e| ToolError::io(&e, &shown, "restoring"))?;
                ("restored", Some((fp, bytes.len())))
            }
        };

        // Pop the entry and leave the read record matching the file as it now is.
        journal.entries.retain(|e| e.id != entry.id);
        lock.save(journal::FILE, &journal, true)?;
        if let Some(blob) = entry.previous.as_ref().and_then(|p| p.blob.as_ref()) {
            let _ = std::fs::remove_file(blobs.join(blob));
        }
        match restored {
            Some((fp, _)) => reads::record(&lock, &real, fp)?,
            None => reads::forget(&lock, &real)?,
        }
        let remaining = journal.entries.len();
        let what = match restored {
            Some((_, n)) => format!("restored its previous content ({n} bytes)"),
            None => "removed it (that change had created it)".to_string(),
        };
        let output = format!(
            "Undid the {} of {shown}: {what}; {remaining} more change(s) can be undone\n",
            entry.tool
        );
        Ok(Success::new(
            output,
            json!({"path": shown, "action": action, "remaining": remaining}),
        ))
    }
}

/// Nothing read back from state is trusted (SPEC 23.6): every path of the entry must still
/// resolve, through the sandbox as it is now, to itself (a directory swapped for a symlink since,
/// or a journal forged to name a file elsewhere, is refused), and kept content is named only by
/// names this binary makes (digits, dots), never a path.
fn check_entry(ctx: &Ctx, entry: &Entry) -> Result<()> {
    let mut paths = vec![entry.path.as_str()];
    let mut names: Vec<&str> = vec![];
    if let Some(blob) = entry.previous.as_ref().and_then(|p| p.blob.as_deref()) {
        names.push(blob);
    }
    match &entry.op {
        Some(journal::Op::Move {
            from,
            created,
            content,
            ..
        }) => {
            paths.push(from);
            paths.extend(created.iter().map(String::as_str));
            if let Some(blob) = content.as_ref().and_then(|p| p.blob.as_deref()) {
                names.push(blob);
            }
        }
        Some(journal::Op::Mkdir { created }) => paths.extend(created.iter().map(String::as_str)),
        Some(journal::Op::Delete { trash: Some(t) }) => names.push(t),
        _ => {}
    }
    for p in paths {
        let r = sandbox::resolve_entry(ctx, "path", p)?;
        if r.real != Path::new(p) {
            return Err(ToolError::new(
                Code::OutsideRoot,
                format!("{} no longer leads where the change was made (a directory on the way was replaced); nothing was undone", r.shown),
            )
            .with("path", r.shown.as_str()));
        }
    }
    if let Some(bad) = names.iter().find(|n| {
        n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit() || b == b'.') || n.starts_with('.')
    }) {
        return Err(ToolError::new(
            Code::IoError,
            format!("the undo journal names kept content {bad:?}, which loopr-tool never writes; nothing was undone"),
        )
        .hint("The session's state was changed by something else; `session reset` starts it afresh."));
    }
    Ok(())
}

/// The most recent entry, of `path` when given.
fn latest(journal: &Journal, path: Option<&Path>) -> Option<Entry> {
    journal
        .entries
        .iter()
        .rev()
        .find(|e| {
            path.is_none_or(|p| {
                Path::new(&e.path) == p
                    || matches!(&e.op, Some(journal::Op::Move { from, .. }) if Path::new(from) == p)
            })
        })
        .cloned()
}
