//! The path rules over what a directory operation carries (SPEC 31.4). A path is judged where
//! it is resolved, but a `move` or `delete` of a directory changes every path below it at once:
//! `move secrets pub` makes `secrets/api.key` readable as `pub/api.key` although neither name
//! the call gave is denied. So the directory's own place and its destination are judged for
//! what they may hold (a pattern covering everything below them), and every entry it holds now
//! is judged at both ends.

use super::rules::Verdict;
use crate::context::Ctx;
use crate::error::{Code, Result, ToolError};
use std::path::{Path, PathBuf};

/// One side of a directory operation: where the entries are, or will be, in the root.
pub struct Side<'a> {
    pub real: &'a Path,
    pub shown: &'a str,
}

impl<'a> Side<'a> {
    pub fn of(r: &'a super::Resolved) -> Side<'a> {
        Side {
            real: &r.real,
            shown: &r.shown,
        }
    }
}

/// Refuses (`path_denied`) a change that carries the tree now at `tree` (its real path: in the
/// root, or the trash for an undo of a delete) away from `from` and to `to` when a denied or
/// read-only path would be carried, or when either end is covered by a pattern. `field` is
/// the input field to blame. Nothing to check without path rules.
pub fn check(
    ctx: &Ctx,
    field: &str,
    tree: &Path,
    from: Option<Side>,
    to: Option<Side>,
) -> Result<()> {
    let Some(rules) = ctx.rules() else {
        return Ok(());
    };
    let Ok(meta) = std::fs::symlink_metadata(tree) else {
        return Ok(()); // gone: the operation itself will say so
    };
    let ends: Vec<&Side> = from.iter().chain(to.iter()).collect();
    for end in &ends {
        refuse(
            ctx,
            field,
            rules.judge(end.real, meta.is_dir()),
            end.shown,
            None,
        )?;
    }
    if !meta.is_dir() {
        return Ok(());
    }
    for end in &ends {
        refuse(ctx, field, rules.judge_below(end.real), end.shown, None)?;
    }
    let mut pending: Vec<PathBuf> = vec![PathBuf::new()];
    while let Some(rel) = pending.pop() {
        for (name, is_dir) in entries(&tree.join(&rel)) {
            let rel = rel.join(name);
            for end in &ends {
                let verdict = rules.judge(&end.real.join(&rel), is_dir);
                refuse(ctx, field, verdict, end.shown, Some(&rel))?;
            }
            if is_dir {
                pending.push(rel);
            }
        }
    }
    Ok(())
}

/// The names in one directory, read whole and closed before the walk goes deeper, so a deep
/// tree never holds more than one descriptor. Links are entries, never followed.
fn entries(dir: &Path) -> Vec<(std::ffi::OsString, bool)> {
    let Ok(list) = std::fs::read_dir(dir) else {
        return vec![];
    };
    list.flatten()
        .map(|e| {
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            (e.file_name(), is_dir)
        })
        .collect()
}

fn refuse(ctx: &Ctx, field: &str, verdict: Verdict, end: &str, below: Option<&Path>) -> Result<()> {
    let why = match verdict {
        Verdict::Free => return Ok(()),
        Verdict::ReadOnly if !ctx.call.changes_files => return Ok(()),
        Verdict::ReadOnly => "paths.read_only",
        Verdict::Denied => "paths.deny",
    };
    let what = match below {
        // A denied name is not listed, not even in a refusal.
        Some(_) if verdict == Verdict::Denied => format!("{end} holds a path that"),
        Some(rel) => format!("{} is a path that", Path::new(end).join(rel).display()),
        None => format!("{end} is a directory whose every entry"),
    };
    Err(ToolError::new(
        Code::PathDenied,
        format!("{what} the catalog's {why} covers; a move or delete of a directory may not carry it, so nothing was changed"),
    )
    .with("path", end)
    .with("field", field)
    .hint("Change the paths the rules allow one by one; the catalog decides which paths tools may touch."))
}
