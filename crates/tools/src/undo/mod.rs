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
    const DESCRIPTION: &'static str = "Takes back this session's most recent change (of `path`, when given): a write or edit puts the file back as it was (a file it created is removed), a move is moved back, a delete restored from the trash, a mkdir's new directories removed. \
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

        // The file must still be exactly what the change left — or what a rewrite in place
        // that was cut short left (SPEC 23.8: a kill mid-write can be undone).
        let meta = std::fs::metadata(&real).ok();
        let current = meta
            .as_ref()
            .map(|_| Fingerprint::of_file(&real))
            .transpose()
            .map_err(|e| ToolError::io(&e, &shown, "reading"))?;
        let as_left =
            current.is_some_and(|c| c.hash == entry.after.hash && c.size == entry.after.size);
        let cut_short = !as_left && meta.is_some() && cut_short(ctx, &entry, &target)?;
        if !as_left && !cut_short {
            return Err(ToolError::stale_read(&shown, format!("{shown} has changed since the {} this would undo", entry.tool))
                .hint(format!("Read {shown} to see its current content; change it back by hand if you still need to.")));
        }

        // Journal first, as for any change (SPEC 24.6): the restore is staged, the entry taken
        // off and the record saved, then the restore lands; if it does not, both go back.
        let restoring = |e: std::io::Error| ToolError::io(&e, &shown, "restoring");
        let (restored, remaining) = match &entry.previous {
            None => {
                let (journaled, remaining) =
                    change::undo_first(ctx, &entry, &[reads::Change::Forget(&real)])?;
                fsx::remove_resolved(&target).map_err(|e| ToolError::io(&e, &shown, "removing"))?;
                journaled.landed();
                // The directories the write made for it go again while empty.
                for d in entry.created.iter().rev() {
                    let _ = std::fs::remove_dir(d);
                }
                (None, remaining)
            }
            Some(prev) => {
                if prev.blob.is_none() {
                    // It can never be undone: take it off the journal, so the next undo
                    // reaches the change before it instead of stopping here for good.
                    let lock = StateLock::acquire(ctx)?;
                    if let Some((e, _)) = journal::take(&lock, entry.id)? {
                        journal::discard(lock.dir(), &e);
                    }
                    return Err(ToolError::usage(format!(
                        "the {} of {shown} cannot be undone: its previous content ({} bytes) was over 64 MiB and not kept; it is dropped from the undo history, so undo again reaches the change before it",
                        entry.tool, prev.size
                    )));
                }
                let bytes = ops::blob_bytes(ctx, prev, &shown, &entry.tool)?;
                let mut staged =
                    fsx::stage_resolved(&target, &bytes, meta.as_ref(), Some(prev.mode))
                        .map_err(restoring)?;
                // A restore in place that fails part-way puts back what the file holds now.
                let now = if staged.in_place() {
                    Some(fsx::read_resolved(&target).map_err(restoring)?)
                } else {
                    None
                };
                let (journaled, remaining) =
                    change::undo_first(ctx, &entry, &[reads::Change::Set(&real, staged.fp)])?;
                if let Err(e) = staged.commit() {
                    if let Some(now) = &now {
                        let _ = staged.put_back(now);
                    }
                    return Err(restoring(e));
                }
                journaled.landed();
                (Some(bytes.len()), remaining)
            }
        };
        let (action, what) = match restored {
            Some(n) if cut_short => (
                "restored",
                format!(
                    "restored its previous content ({n} bytes; the {} had been cut short)",
                    entry.tool
                ),
            ),
            Some(n) => (
                "restored",
                format!("restored its previous content ({n} bytes)"),
            ),
            None => (
                "removed",
                "removed it (that change had created it)".to_string(),
            ),
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

/// Whether the file is what the entry's rewrite in place leaves when a kill cuts it short: the
/// entry kept the new content for this (`journal::cut_short`).
fn cut_short(ctx: &Ctx, entry: &Entry, target: &sandbox::Resolved) -> Result<bool> {
    let (Some(written), Some(prev)) = (&entry.written, &entry.previous) else {
        return Ok(false);
    };
    let blobs = crate::state::session_dir(ctx).join("undo");
    let read = |name: &str| {
        journal::read_blob(&blobs, name).map_err(|e| ToolError::state(&e, &blobs.join(name)))
    };
    let (Some(old), new) = (prev.blob.as_deref().map(read).transpose()?, read(written)?) else {
        return Ok(false);
    };
    let now =
        fsx::read_resolved(target).map_err(|e| ToolError::io(&e, &target.shown, "reading"))?;
    Ok(journal::cut_short(&now, &old, &new))
}

/// Nothing read back from state is trusted (SPEC 23.6): every path of the entry must still
/// resolve, through the sandbox as it is now, to itself (a directory swapped for a symlink since,
/// or a journal forged to name a file elsewhere, is refused), and kept content is named only by
/// names this binary makes (digits, dots), never a path.
fn check_entry(ctx: &Ctx, entry: &Entry) -> Result<()> {
    let mut paths = vec![entry.path.as_str()];
    paths.extend(entry.created.iter().map(String::as_str));
    let mut names: Vec<&str> = vec![];
    if let Some(blob) = entry.previous.as_ref().and_then(|p| p.blob.as_deref()) {
        names.push(blob);
    }
    if let Some(blob) = entry.written.as_deref() {
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
    if let Some(bad) = names.iter().find(|n| !journal::our_name(n)) {
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
