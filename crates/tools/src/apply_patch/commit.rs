//! Writing a worked-out patch (SPEC 17.3, 24.6, 24.7): every file's new content is staged and
//! every file's journal entry saved (one per file, so one `undo` per file takes the patch back)
//! before the first file changes; then the files land in patch order, and a failure part-way
//! puts back those already done and takes the entries back out.

use super::apply::{Action, Planned};
use crate::change;
use crate::context::Ctx;
use crate::delete;
use crate::error::{Result, ToolError};
use crate::fsx::{self, Staged};
use crate::journal::{self, Before, Kept, NewEntry, Op};
use crate::reads::{self, Fingerprint};
use crate::sandbox::{self, Resolved};
use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;

/// What a file's commit did, so that a later failure can put it back.
enum Done {
    Wrote {
        target: Resolved,
        bytes: Vec<u8>,
        mode: u32,
    },
    Created {
        target: Resolved,
        /// The parent directories made for it.
        made: Vec<String>,
    },
    Trashed {
        target: Resolved,
        kept: std::path::PathBuf,
    },
    Moved {
        from: Resolved,
        to: Resolved,
        content: Option<(Vec<u8>, u32)>,
        replaced: Option<(Vec<u8>, u32)>,
    },
}

/// One file made ready to land: its new content staged, the old inodes kept for the journal.
struct Ready<'p> {
    staged: Option<Staged<'p>>,
    kept: Option<Kept>,
    kept_dest: Option<Kept>,
    trash: String,
    created: Vec<String>,
    after: Fingerprint,
}

/// Lands `planned` as `tool` (its journal entries' tool: apply_patch, or rewrite, which shares
/// this all-or-nothing commit).
pub fn commit(ctx: &Ctx, tool: &'static str, planned: &[Planned]) -> Result<()> {
    let mut ready = Vec::with_capacity(planned.len());
    for p in planned {
        ready.push(prepare(ctx, p)?);
    }
    let mut entries = Vec::with_capacity(planned.len());
    let mut records = Vec::with_capacity(planned.len() * 2);
    for (p, r) in planned.iter().zip(&mut ready) {
        journal_one(tool, p, r, &mut entries, &mut records);
    }
    let journaled = change::journal_first(ctx, entries, &records)?;
    let mut done: Vec<Done> = Vec::new();
    for (p, r) in planned.iter().zip(&mut ready) {
        if let Err(e) = land(ctx, p, r, &mut done) {
            rollback(ctx, done);
            return Err(e); // `journaled` takes the entries back out
        }
    }
    journaled.landed();
    Ok(())
}

fn mode_of(m: &Metadata) -> u32 {
    m.mode() & 0o7777
}

fn rewritten(p: &Planned) -> Option<&[u8]> {
    let (bytes, _) = p.before.as_ref()?;
    p.after.as_deref().filter(|a| a != bytes)
}

/// Stages the new content (nothing in the tree changes yet) and keeps the old inodes.
fn prepare<'p>(ctx: &Ctx, p: &'p Planned) -> Result<Ready<'p>> {
    let mut r = Ready {
        staged: None,
        kept: None,
        kept_dest: None,
        trash: String::new(),
        created: vec![],
        after: Fingerprint::default(),
    };
    let stage = |target: &Resolved, bytes: &'p [u8], meta: Option<&Metadata>| {
        fsx::stage_resolved(target, bytes, meta, None)
            .map_err(|e| ToolError::io(&e, &target.shown, "writing"))
    };
    match p.action {
        Action::Add => {
            let staged = stage(&p.target, p.after.as_deref().unwrap_or_default(), None)?;
            r.after = staged.fp;
            r.staged = Some(staged);
        }
        Action::Update | Action::Move => {
            let (bytes, meta) = p.before.as_ref().expect("an update or move reads the file");
            let source = p.from.as_ref().unwrap_or(&p.target);
            r.after = Fingerprint::of_bytes(bytes, meta);
            if let Some(after) = rewritten(p) {
                let hash = xxhash_rust::xxh3::xxh3_64(bytes);
                r.kept = journal::keep(ctx, source, meta, hash);
                let staged = stage(source, after, Some(meta))?;
                r.after = staged.fp;
                r.staged = Some(staged);
            }
            if p.action == Action::Move {
                if let Some((old, m)) = &p.replaced {
                    let hash = xxhash_rust::xxh3::xxh3_64(old);
                    r.kept_dest = journal::keep(ctx, &p.target, m, hash);
                }
                r.created = p
                    .target
                    .real
                    .parent()
                    .map(fsx::missing_dirs)
                    .unwrap_or_default()
                    .iter()
                    .map(|c| c.to_string_lossy().into_owned())
                    .collect();
            }
        }
        Action::Delete => r.trash = delete::trash_name(),
    }
    Ok(r)
}

/// The journal entry and read records of one file.
fn journal_one<'p>(
    tool: &'static str,
    p: &'p Planned,
    r: &mut Ready,
    entries: &mut Vec<NewEntry<'p>>,
    records: &mut Vec<reads::Change<'p>>,
) {
    let (real, shown) = (p.target.real.as_path(), p.target.shown.as_str());
    match p.action {
        Action::Add => {
            let mut entry = NewEntry::new(tool, real, shown, Before::Absent, r.after);
            entry.created = r.staged.as_ref().map(Staged::made).unwrap_or_default();
            entries.push(entry);
            records.push(reads::Change::Set(real, r.after));
        }
        Action::Update => {
            let (bytes, meta) = p.before.as_ref().expect("read");
            if rewritten(p).is_none() {
                return; // not written: nothing to undo
            }
            let before = Before::Content {
                bytes,
                mode: mode_of(meta),
                kept: r.kept.take(),
            };
            let mut entry = NewEntry::new(tool, real, shown, before, r.after);
            if r.staged.as_ref().is_some_and(Staged::in_place) {
                entry.written = p.after.as_deref();
            }
            entries.push(entry);
            records.push(reads::Change::Set(real, r.after));
        }
        Action::Delete => {
            let op = Op::Delete {
                trash: Some(r.trash.clone()),
            };
            entries.push(
                NewEntry::new(tool, real, shown, Before::Absent, Fingerprint::default()).op(op),
            );
            records.push(reads::Change::Forget(real));
        }
        Action::Move => {
            let from = p.from.as_ref().expect("a move has a source");
            let (bytes, meta) = p.before.as_ref().expect("read");
            let op = Op::Move {
                from: from.real.to_string_lossy().into_owned(),
                from_shown: from.shown.clone(),
                dir: false,
                created: std::mem::take(&mut r.created),
                content: None,
            };
            let before = match &p.replaced {
                Some((b, m)) => Before::Content {
                    bytes: b,
                    mode: mode_of(m),
                    kept: r.kept_dest.take(),
                },
                None => Before::Absent,
            };
            let mut entry = NewEntry::new(tool, real, shown, before, r.after).op(op);
            // The record follows the file; a file the patch rewrote is known as it now is.
            let rewritten = rewritten(p).is_some();
            if rewritten {
                entry.source = Some(Before::Content {
                    bytes,
                    mode: mode_of(meta),
                    kept: r.kept.take(),
                });
            }
            entries.push(entry);
            records.push(reads::Change::Forget(&from.real));
            records.push(if p.known || rewritten {
                reads::Change::Set(real, r.after)
            } else {
                reads::Change::Forget(real)
            });
        }
    }
}

/// Commits staged content; an in-place write that fails part-way writes the old bytes back.
fn commit_staged(staged: &mut Staged, old: &[u8], shown: &str) -> Result<()> {
    staged.commit().map(|_| ()).map_err(|e| {
        if staged.in_place() {
            let _ = staged.put_back(old);
        }
        ToolError::io(&e, shown, "writing")
    })
}

/// Makes one file's change.
fn land(ctx: &Ctx, p: &Planned, r: &mut Ready, done: &mut Vec<Done>) -> Result<()> {
    let shown = p.target.shown.as_str();
    match p.action {
        Action::Add => {
            let mut made = vec![];
            if let Some(staged) = r.staged.as_mut() {
                commit_staged(staged, &[], shown)?;
                made = staged.made();
            }
            done.push(Done::Created {
                target: p.target.clone(),
                made,
            });
        }
        Action::Update => {
            let (bytes, meta) = p.before.as_ref().expect("an update reads the file");
            if let Some(staged) = r.staged.as_mut() {
                commit_staged(staged, bytes, shown)?;
                done.push(Done::Wrote {
                    target: p.target.clone(),
                    bytes: bytes.clone(),
                    mode: mode_of(meta),
                });
            }
        }
        Action::Delete => {
            let kept = delete::to_trash(ctx, &p.target, &r.trash)?;
            if let Some(parent) = p.target.real.parent() {
                fsx::sync_dir(parent);
            }
            done.push(Done::Trashed {
                target: p.target.clone(),
                kept,
            });
        }
        Action::Move => {
            let from = p.from.as_ref().expect("a move has a source");
            let (bytes, meta) = p.before.as_ref().expect("a move reads the file");
            let mut content = None;
            if let Some(staged) = r.staged.as_mut() {
                commit_staged(staged, bytes, &from.shown)?;
                content = Some((bytes.clone(), mode_of(meta)));
            }
            if let Err(e) = fsx::move_resolved(from, &p.target) {
                if let Some((b, mode)) = &content {
                    let now = std::fs::metadata(&from.real).ok();
                    let _ = fsx::replace_resolved(from, b, now.as_ref(), Some(*mode));
                }
                return Err(ToolError::io(&e, &from.shown, "moving"));
            }
            for dir in [from.real.parent(), p.target.real.parent()]
                .into_iter()
                .flatten()
            {
                fsx::sync_dir(dir);
            }
            done.push(Done::Moved {
                from: from.clone(),
                to: p.target.clone(),
                content,
                replaced: p.replaced.as_ref().map(|(b, m)| (b.clone(), mode_of(m))),
            });
        }
    }
    Ok(())
}

/// Puts back what the files already done held, newest first; what cannot be put back is said.
fn rollback(ctx: &Ctx, done: Vec<Done>) {
    // A file with several hard links is written back in place, as it was written.
    let rewrite = |target: &Resolved, bytes: &[u8], mode: u32| {
        let now = std::fs::metadata(&target.real).ok();
        fsx::replace_resolved(target, bytes, now.as_ref(), Some(mode)).map(|_| ())
    };
    for d in done.into_iter().rev() {
        let result = match &d {
            Done::Wrote {
                target,
                bytes,
                mode,
            } => rewrite(target, bytes, *mode),
            // Resolved afresh: the parents made for it did not exist when it was resolved.
            Done::Created { target, made } => {
                sandbox::resolve_entry(ctx, "patch", &target.real.to_string_lossy())
                    .map_err(|e| std::io::Error::other(e.message))
                    .and_then(|t| fsx::remove_resolved(&t))
                    .map(|()| {
                        for d in made.iter().rev() {
                            let _ = std::fs::remove_dir(d);
                        }
                    })
            }
            Done::Trashed { target, kept } => fsx::move_in(kept, target),
            Done::Moved {
                from,
                to,
                content,
                replaced,
            } => (|| {
                let back_to = sandbox::resolve_entry(ctx, "patch", &to.real.to_string_lossy())
                    .map_err(|e| std::io::Error::other(e.message))?;
                let back_from = sandbox::resolve_entry(ctx, "patch", &from.real.to_string_lossy())
                    .map_err(|e| std::io::Error::other(e.message))?;
                fsx::move_resolved(&back_to, &back_from)?;
                if let Some((b, mode)) = content {
                    rewrite(&back_from, b, *mode)?;
                }
                if let Some((b, mode)) = replaced {
                    fsx::replace_resolved(&back_to, b, None, Some(*mode))?;
                }
                Ok(())
            })(),
        };
        if let Err(e) = result {
            let shown = match &d {
                Done::Wrote { target, .. }
                | Done::Created { target, .. }
                | Done::Trashed { target, .. } => &target.shown,
                Done::Moved { to, .. } => &to.shown,
            };
            ctx.warn(format!(
                "the patch failed, and {shown} could not be put back as it was: {e}"
            ));
        }
    }
}
