//! Writing a worked-out patch (SPEC 17.3, 24.7): the files are written, trashed or moved in
//! patch order (a failure part-way puts back those already done), then each is journaled on
//! its own, so one `undo` per file takes the patch back.

use super::apply::{Action, Planned};
use crate::change;
use crate::context::Ctx;
use crate::error::{Result, ToolError};
use crate::fsx;
use crate::journal::{self, Before, Kept, Op};
use crate::reads::Fingerprint;
use crate::sandbox::{self, Resolved};
use crate::state;
use crate::tools::delete;
use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;

const TOOL: &str = "apply_patch";

/// What a file's commit did, so that a later failure can put it back.
enum Done {
    Wrote {
        target: Resolved,
        bytes: Vec<u8>,
        mode: u32,
    },
    Created {
        target: Resolved,
    },
    Trashed {
        target: Resolved,
        name: String,
    },
    Moved {
        from: Resolved,
        to: Resolved,
        content: Option<(Vec<u8>, u32)>,
        replaced: Option<(Vec<u8>, u32)>,
    },
}

/// What the journal is given for one file, once every file is done.
pub struct Journaled {
    pub after: Fingerprint,
    kept: Option<Kept>,
    kept_dest: Option<Kept>,
    trash: Option<String>,
    created: Vec<String>,
}

pub fn commit(ctx: &Ctx, planned: &[Planned]) -> Result<Vec<Journaled>> {
    let mut done: Vec<Done> = Vec::new();
    let mut out: Vec<Journaled> = Vec::new();
    for p in planned {
        match commit_one(ctx, p, &mut done) {
            Ok(j) => out.push(j),
            Err(e) => {
                rollback(ctx, done);
                return Err(e);
            }
        }
    }
    for (p, j) in planned.iter().zip(&mut out) {
        journal_one(ctx, p, j);
    }
    Ok(out)
}

fn mode_of(m: &Metadata) -> u32 {
    m.mode() & 0o7777
}

fn commit_one(ctx: &Ctx, p: &Planned, done: &mut Vec<Done>) -> Result<Journaled> {
    let shown = p.target.shown.as_str();
    let mut j = Journaled {
        after: Fingerprint::default(),
        kept: None,
        kept_dest: None,
        trash: None,
        created: vec![],
    };
    match p.action {
        Action::Add => {
            let bytes = p.after.as_deref().unwrap_or_default();
            j.after = fsx::replace_resolved(&p.target, bytes, None, None)
                .map_err(|e| ToolError::io(&e, shown, "writing"))?;
            done.push(Done::Created {
                target: p.target.clone(),
            });
        }
        Action::Update => {
            let (bytes, meta) = p.before.as_ref().expect("an update reads the file");
            match &p.after {
                Some(after) if after != bytes => {
                    j.kept =
                        journal::keep(ctx, &p.target.real, meta, xxhash_rust::xxh3::xxh3_64(bytes));
                    j.after = fsx::replace_resolved(&p.target, after, Some(meta), None)
                        .map_err(|e| ToolError::io(&e, shown, "writing"))?;
                    done.push(Done::Wrote {
                        target: p.target.clone(),
                        bytes: bytes.clone(),
                        mode: mode_of(meta),
                    });
                }
                _ => j.after = Fingerprint::of_bytes(bytes, meta),
            }
        }
        Action::Delete => {
            let name = delete::to_trash(ctx, &p.target)?;
            if let Some(parent) = p.target.real.parent() {
                fsx::sync_dir(parent);
            }
            done.push(Done::Trashed {
                target: p.target.clone(),
                name: name.clone(),
            });
            j.trash = Some(name);
        }
        Action::Move => {
            let from = p.from.as_ref().expect("a move has a source");
            let (bytes, meta) = p.before.as_ref().expect("a move reads the file");
            let mut content = None;
            j.after = Fingerprint::of_bytes(bytes, meta);
            if let Some(after) = p.after.as_ref().filter(|a| *a != bytes) {
                j.kept = journal::keep(ctx, &from.real, meta, xxhash_rust::xxh3::xxh3_64(bytes));
                j.after = fsx::replace_resolved(from, after, Some(meta), None)
                    .map_err(|e| ToolError::io(&e, &from.shown, "writing"))?;
                content = Some((bytes.clone(), mode_of(meta)));
            }
            if let Some((old, m)) = &p.replaced {
                j.kept_dest =
                    journal::keep(ctx, &p.target.real, m, xxhash_rust::xxh3::xxh3_64(old));
            }
            let moved = fsx::move_resolved(from, &p.target);
            let created = match moved {
                Ok(c) => c,
                Err(e) => {
                    if let Some((b, mode)) = &content {
                        let _ = fsx::replace_resolved(from, b, None, Some(*mode));
                    }
                    return Err(ToolError::io(&e, &from.shown, "moving"));
                }
            };
            for dir in [from.real.parent(), p.target.real.parent()]
                .into_iter()
                .flatten()
            {
                fsx::sync_dir(dir);
            }
            j.created = created
                .iter()
                .map(|c| c.to_string_lossy().into_owned())
                .collect();
            done.push(Done::Moved {
                from: from.clone(),
                to: p.target.clone(),
                content,
                replaced: p.replaced.as_ref().map(|(b, m)| (b.clone(), mode_of(m))),
            });
        }
    }
    Ok(j)
}

/// Puts back what the files already done held, newest first; what cannot be put back is said.
fn rollback(ctx: &Ctx, done: Vec<Done>) {
    for d in done.into_iter().rev() {
        let result = match &d {
            Done::Wrote {
                target,
                bytes,
                mode,
            } => fsx::replace_resolved(target, bytes, None, Some(*mode)).map(|_| ()),
            Done::Created { target } => fsx::remove_resolved(target),
            Done::Trashed { target, name } => {
                let kept = journal::trash_dir(&state::session_dir(ctx)).join(name);
                fsx::move_in(&kept, target)
            }
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
                    fsx::replace_resolved(&back_from, b, None, Some(*mode))?;
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
                | Done::Created { target }
                | Done::Trashed { target, .. } => &target.shown,
                Done::Moved { to, .. } => &to.shown,
            };
            ctx.warn(format!(
                "the patch failed, and {shown} could not be put back as it was: {e}"
            ));
        }
    }
}

fn journal_one(ctx: &Ctx, p: &Planned, j: &mut Journaled) {
    let real = p.target.real.as_path();
    match p.action {
        Action::Add => change::remember(
            ctx,
            TOOL,
            &p.target,
            Before::Absent,
            None,
            j.after,
            &[(real, Some(j.after))],
        ),
        Action::Update => {
            let (bytes, meta) = p.before.as_ref().expect("read");
            if p.after.as_deref() == Some(bytes.as_slice()) || p.after.is_none() {
                return; // not written: nothing to undo
            }
            let before = Before::Content {
                bytes,
                mode: mode_of(meta),
                kept: j.kept.take(),
            };
            change::remember(
                ctx,
                TOOL,
                &p.target,
                before,
                None,
                j.after,
                &[(real, Some(j.after))],
            );
        }
        Action::Delete => change::remember(
            ctx,
            TOOL,
            &p.target,
            Before::Absent,
            Some(Op::Delete {
                trash: j.trash.clone(),
            }),
            Fingerprint::default(),
            &[(real, None)],
        ),
        Action::Move => {
            let from = p.from.as_ref().expect("a move has a source");
            let (bytes, meta) = p.before.as_ref().expect("read");
            let op = Op::Move {
                from: from.real.to_string_lossy().into_owned(),
                from_shown: from.shown.clone(),
                dir: false,
                created: std::mem::take(&mut j.created),
                content: None,
            };
            let before = match &p.replaced {
                Some((b, m)) => Before::Content {
                    bytes: b,
                    mode: mode_of(m),
                    kept: j.kept_dest.take(),
                },
                None => Before::Absent,
            };
            // The record follows the file; a file the patch rewrote is known as it now is.
            let rewritten = p.after.as_ref().is_some_and(|a| a != bytes);
            let record = (p.known || rewritten).then_some(j.after);
            let records = [(from.real.as_path(), None), (real, record)];
            if rewritten {
                let source = Before::Content {
                    bytes,
                    mode: mode_of(meta),
                    kept: j.kept.take(),
                };
                change::remember_moved(ctx, TOOL, &p.target, before, op, j.after, source, &records);
            } else {
                change::remember(ctx, TOOL, &p.target, before, Some(op), j.after, &records);
            }
        }
    }
}
