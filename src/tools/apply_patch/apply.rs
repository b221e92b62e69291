//! Applying a parsed patch (SPEC 17.3, 24.1, 24.7): every file's change is worked out under
//! the locks of all of them before anything is written; then the files are written, trashed or
//! moved in patch order (a failure part-way puts back those already done) and each is
//! journaled on its own, so one `undo` per file takes the patch back.

use super::parse::{FileOp, Hunk};
use super::report;
use crate::change::{self, Locked};
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::fsx;
use crate::journal::{self, Before, Kept, Op};
use crate::reads::Fingerprint;
use crate::sandbox::{self, Resolved};
use crate::state;
use crate::text;
use crate::tools::edit::apply::{self as ladder, HunkPlace, Spec};
use crate::tools::edit::encode::Doc;
use crate::tools::{delete, edit, write};
use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;

const TOOL: &str = "apply_patch";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Add,
    Update,
    Delete,
    Move,
}

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::Add => "add",
            Action::Update => "update",
            Action::Delete => "delete",
            Action::Move => "move",
        }
    }
}

/// One file's change, worked out before anything is written.
pub struct Planned {
    pub action: Action,
    /// Where the file is (for a move: where it goes).
    pub target: Resolved,
    /// A move's source.
    pub from: Option<Resolved>,
    /// The content before (update, move, delete of a regular file) and its metadata.
    pub before: Option<(Vec<u8>, Metadata)>,
    /// The file a move replaces, with its metadata.
    pub replaced: Option<(Vec<u8>, Metadata)>,
    /// The new content (add, update, a move with hunks); `None` keeps the content.
    pub after: Option<Vec<u8>>,
    /// Decoded text before and after, for the diff and the listing.
    pub old_text: String,
    pub new_text: String,
    /// Byte ranges of `new_text` that are new.
    pub changed: Vec<(usize, usize)>,
    /// The rung that placed each hunk.
    pub rungs: Vec<&'static str>,
    /// The session had a read record of the (source) file.
    pub known: bool,
}

/// The ops of one file: an Update may come back for the same file later in the patch (its
/// hunks are then searched from the top again).
struct Work<'p> {
    op: &'p FileOp,
    hunks: Vec<(&'p Hunk, bool)>,
}

pub fn apply(ctx: &Ctx, ops: &[FileOp]) -> Result<Success> {
    let works = group(ops);
    // Resolve every path first: a path outside the root fails before any lock is taken.
    let mut resolved: Vec<(Resolved, Option<Resolved>)> = Vec::with_capacity(works.len());
    for w in &works {
        resolved.push(resolve(ctx, w.op)?);
    }
    refuse_twice(&works, &resolved)?;
    let mut reals: Vec<&std::path::Path> = Vec::new();
    for (t, f) in &resolved {
        reals.push(&t.real);
        if let Some(f) = f {
            reals.push(&f.real);
        }
    }
    let locked = change::lock(ctx, &reals)?;
    let mut planned = Vec::with_capacity(works.len());
    for (w, (target, from)) in works.iter().zip(resolved) {
        planned.push(plan(ctx, &locked, w, target, from)?);
    }
    let changes = planned.iter().any(|p| {
        p.action != Action::Update
            || p.after.as_deref() != p.before.as_ref().map(|b| b.0.as_slice())
    });
    if !changes {
        return Err(ToolError::new(
            Code::NoChange,
            "the patch leaves every file exactly as it was",
        )
        .hint("Each hunk matched, but its + lines equal its - lines; check the patch."));
    }
    if ctx.cancelled() {
        return Err(ToolError::cancelled("apply_patch"));
    }
    let journaled = commit(ctx, &planned)?;
    drop(locked);
    Ok(report::success(&planned, &journaled))
}

fn group(ops: &[FileOp]) -> Vec<Work<'_>> {
    let mut works: Vec<Work> = Vec::new();
    for op in ops {
        if let FileOp::Update {
            path,
            move_to: None,
            hunks,
            ..
        } = op
            && let Some(w) = works.iter_mut().find(
                |w| matches!(w.op, FileOp::Update { path: p, move_to: None, .. } if p == path),
            )
        {
            w.hunks
                .extend(hunks.iter().enumerate().map(|(i, h)| (h, i == 0)));
            continue;
        }
        let hunks = match op {
            FileOp::Update { hunks, .. } => {
                hunks.iter().enumerate().map(|(i, h)| (h, i == 0)).collect()
            }
            _ => vec![],
        };
        works.push(Work { op, hunks });
    }
    works
}

fn resolve(ctx: &Ctx, op: &FileOp) -> Result<(Resolved, Option<Resolved>)> {
    let at = |r: Result<Resolved>| r.map_err(|e| e.with("line", op.line()));
    Ok(match op {
        FileOp::Add { path, .. } => {
            let t = at(sandbox::resolve(ctx, "patch", path))?;
            notebook(&t.shown, op)?;
            (t, None)
        }
        FileOp::Delete { path, .. } => (at(sandbox::resolve_entry(ctx, "patch", path))?, None),
        FileOp::Update {
            path,
            move_to: None,
            ..
        } => {
            let t = at(sandbox::resolve(ctx, "patch", path))?;
            notebook(&t.shown, op)?;
            (t, None)
        }
        FileOp::Update {
            path,
            move_to: Some(to),
            ..
        } => {
            let from = at(sandbox::resolve_entry(ctx, "patch", path))?;
            let t = at(sandbox::resolve_entry(ctx, "patch", to))?;
            notebook(&from.shown, op)?;
            notebook(&t.shown, op)?;
            (t, Some(from))
        }
    })
}

fn notebook(shown: &str, op: &FileOp) -> Result<()> {
    write::refuse_notebook(shown).map_err(|e| e.with("field", "patch").with("line", op.line()))
}

/// One file, one change: a file named by two ops (other than Updates, which are merged) or
/// moved onto another op's file would make the result depend on an order the model may not
/// have meant.
fn refuse_twice(works: &[Work], resolved: &[(Resolved, Option<Resolved>)]) -> Result<()> {
    let mut seen: Vec<(&std::path::Path, usize, &str)> = Vec::new();
    for (w, (t, f)) in works.iter().zip(resolved) {
        for r in std::iter::once(t).chain(f.iter()) {
            if let Some((_, line, shown)) = seen.iter().find(|(p, _, _)| *p == r.real) {
                return Err(ToolError::invalid(
                    "patch",
                    format!(
                        "line {}: {} is already changed at line {line} of the patch; a patch changes each file once",
                        w.op.line(),
                        r.shown
                    ),
                )
                .with("line", w.op.line())
                .with("path", shown.to_string())
                .hint("Put all of a file's hunks under one `*** Update File:`; to replace a file, delete it in one patch and add it in the next."));
            }
            seen.push((&r.real, w.op.line(), &r.shown));
        }
    }
    Ok(())
}

fn plan(
    ctx: &Ctx,
    locked: &Locked,
    w: &Work,
    target: Resolved,
    from: Option<Resolved>,
) -> Result<Planned> {
    match w.op {
        FileOp::Add { lines, line, .. } => plan_add(&target, lines, *line),
        FileOp::Delete { line, .. } => plan_delete(locked, target, *line),
        FileOp::Update { line, .. } => plan_update(ctx, locked, w, target, from, *line),
    }
}

fn blank(action: Action, target: Resolved) -> Planned {
    Planned {
        action,
        target,
        from: None,
        before: None,
        replaced: None,
        after: None,
        old_text: String::new(),
        new_text: String::new(),
        changed: vec![],
        rungs: vec![],
        known: false,
    }
}

fn plan_add(target: &Resolved, lines: &[String], line: usize) -> Result<Planned> {
    let shown = target.shown.as_str();
    if std::fs::symlink_metadata(&target.real).is_ok() {
        return Err(ToolError::invalid(
            "patch",
            format!("line {line}: {shown} already exists; `*** Add File:` creates a new file"),
        )
        .with("line", line)
        .with("path", shown)
        .hint(format!("To change {shown}, use `*** Update File: {shown}` with hunks; to replace it whole, use write.")));
    }
    // Every added line ends with a newline (24.1).
    let content: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let mut p = blank(Action::Add, target.clone());
    p.changed = vec![(0, content.len())];
    p.new_text = content.clone();
    p.after = Some(content.into_bytes());
    Ok(p)
}

fn plan_delete(locked: &Locked, target: Resolved, line: usize) -> Result<Planned> {
    let shown = target.shown.clone();
    let meta = std::fs::symlink_metadata(&target.real).map_err(|e| {
        ToolError::io(&e, &shown, "deleting")
            .with("line", line)
            .hint(format!(
                "Check the path of `*** Delete File: {shown}` with glob or tree."
            ))
    })?;
    if meta.is_dir() {
        return Err(ToolError::is_directory(&shown).with("line", line).hint(
            "`*** Delete File:` deletes files; use delete with recursive: true for a directory.",
        ));
    }
    let m = fsx::measure(&target.real).map_err(|e| ToolError::io(&e, &shown, "reading"))?;
    if m.bytes > delete::TRASH_LIMIT {
        return Err(ToolError::new(
            Code::TooLarge,
            format!("{shown} holds {} bytes, more than the trash keeps ({} bytes); nothing was changed", m.bytes, delete::TRASH_LIMIT),
        )
        .with("limit", delete::TRASH_LIMIT)
        .with("path", shown.as_str())
        .hint("Delete it with delete and permanent: true (it cannot be undone), then apply the rest of the patch."));
    }
    let mut p = blank(Action::Delete, target);
    if meta.is_file() {
        let bytes =
            fsx::read_resolved(&p.target).map_err(|e| ToolError::io(&e, &shown, "reading"))?;
        let current = Fingerprint::of_bytes(&bytes, &meta);
        p.known = locked.has_record(&p.target.real);
        if p.known {
            locked.require_fresh(&p.target.real, &shown, &current)?;
        }
        p.old_text = Doc::decode(&bytes).text.into_owned();
        p.before = Some((bytes, meta));
    }
    Ok(p)
}

/// The strings the ladder is given for one hunk: whole lines, each with its newline.
struct HunkText {
    old: String,
    new: String,
    alt: Option<(String, String)>,
}

fn joined(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

fn hunk_text(h: &Hunk) -> HunkText {
    let alt = (h.trailing_blank > 0 && h.old.len() > h.trailing_blank).then(|| {
        (
            joined(&h.old[..h.old.len() - h.trailing_blank]),
            joined(&h.new[..h.new.len().saturating_sub(h.trailing_blank)]),
        )
    });
    HunkText {
        old: joined(&h.old),
        new: joined(&h.new),
        alt,
    }
}

fn plan_update(
    ctx: &Ctx,
    locked: &Locked,
    w: &Work,
    target: Resolved,
    from: Option<Resolved>,
    line: usize,
) -> Result<Planned> {
    let moving = from.is_some();
    let src = from.as_ref().unwrap_or(&target);
    let shown = src.shown.clone();
    let meta = if moving {
        match std::fs::symlink_metadata(&src.real) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(ToolError::invalid(
                    "patch",
                    format!(
                        "line {line}: {shown} is a symlink; `*** Move to:` moves regular files"
                    ),
                )
                .with("line", line)
                .hint("Move the link with move, then update the file it points to."));
            }
            Ok(m) if m.is_dir() => return Err(ToolError::is_directory(&shown).with("line", line)),
            Ok(m) => Some(m),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(ToolError::io(&e, &shown, "reading")),
        }
    } else {
        write::check_writable(&src.real, &shown)?
    };
    let Some(meta) = meta else {
        return Err(ToolError::new(Code::NotFound, format!("{shown} does not exist (line {line} of the patch)"))
            .with("path", shown.as_str())
            .with("line", line)
            .hint(format!("To create it, use `*** Add File: {shown}` with every line prefixed by '+'; check the path with glob.")));
    };
    if meta.len() > edit::MAX_BYTES {
        return Err(ToolError::new(
            Code::TooLarge,
            format!(
                "{shown} is {} bytes; apply_patch updates files up to {} bytes (64 MiB)",
                meta.len(),
                edit::MAX_BYTES
            ),
        )
        .with("limit", edit::MAX_BYTES)
        .with("path", shown.as_str()));
    }
    let bytes = fsx::read_resolved(src).map_err(|e| ToolError::io(&e, &shown, "reading"))?;
    if text::looks_binary(&bytes) {
        return Err(ToolError::new(
            Code::BinaryFile,
            format!("{shown} is a binary file ({} bytes), not text", bytes.len()),
        )
        .with("path", shown.as_str())
        .hint("apply_patch changes text files only; to replace a binary file, use write or run."));
    }
    let current = Fingerprint::of_bytes(&bytes, &meta);
    let known = locked.has_record(&src.real);
    if known {
        locked.require_fresh(&src.real, &shown, &current)?;
    } else if ctx.read_check
        && let Some(i) = w.hunks.iter().position(|(h, _)| h.old.is_empty())
    {
        // The patch proves the model saw the file only where a hunk quotes it (24.7).
        return Err(ToolError::new(
            Code::NotRead,
            format!("{shown} has not been read in this session, and hunk {} of it (line {} of the patch) quotes none of its lines", i + 1, w.hunks[i].0.line),
        )
        .with("path", shown.as_str())
        .with("hunk", i)
        .hint(format!("Read {shown} first, or give the hunk context lines (' ') or removed lines ('-') from the file.")));
    }
    let mut p = blank(if moving { Action::Move } else { Action::Update }, target);
    p.known = known;
    let doc = Doc::decode(&bytes);
    if !w.hunks.is_empty() {
        let texts: Vec<HunkText> = w.hunks.iter().map(|(h, _)| hunk_text(h)).collect();
        let specs: Vec<Spec> = w
            .hunks
            .iter()
            .zip(&texts)
            .map(|((h, from_top), t)| Spec {
                old: &t.old,
                new: &t.new,
                replace_all: false,
                expected: None,
                hunk: Some(HunkPlace {
                    anchor: h.anchor.as_deref(),
                    from_top: *from_top,
                    end_of_file: h.end_of_file,
                    without_trailing_blanks: t.alt.as_ref().map(|(o, n)| (o.as_str(), n.as_str())),
                }),
            })
            .collect();
        let hunks: Vec<&Hunk> = w.hunks.iter().map(|(h, _)| *h).collect();
        let outcome = ladder::plan(&doc, &specs)
            .map_err(|f| report::hunk_failure(f, &shown, &hunks, &specs, &doc))?;
        if doc.lossy {
            ctx.warn(format!(
                "{shown} holds bytes that are not valid {}; they were kept exactly as they were",
                doc.name
            ));
        }
        p.rungs = outcome.applied.iter().map(|a| a.rung.name()).collect();
        p.changed = outcome.changed.clone();
        p.new_text = outcome.text().to_string();
        p.after = Some(outcome.bytes().to_vec());
    } else {
        p.new_text = doc.text.to_string();
    }
    p.old_text = doc.text.into_owned();
    if let Some(from) = &from {
        p.replaced = replaced(locked, &p.target, from, line)?;
    }
    p.from = from;
    p.before = Some((bytes, meta));
    Ok(p)
}

/// What a `Move to` replaces: only a file this session has read, unchanged since (24.7).
fn replaced(
    locked: &Locked,
    to: &Resolved,
    from: &Resolved,
    line: usize,
) -> Result<Option<(Vec<u8>, Metadata)>> {
    let ts = to.shown.as_str();
    let meta = match std::fs::symlink_metadata(&to.real) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ToolError::io(&e, ts, "moving to")),
    };
    if meta.is_dir() {
        return Err(ToolError::is_directory(ts)
            .with("line", line)
            .hint("`*** Move to:` names the file's new path, never a directory."));
    }
    if !meta.is_file() || !locked.has_record(&to.real) {
        return Err(ToolError::invalid(
            "patch",
            format!("line {}: {ts} already exists, and {} cannot replace it: this session has not read it", line + 1, from.shown),
        )
        .with("line", line + 1)
        .with("path", ts)
        .hint(format!("Read {ts} first if it should be replaced, or choose another `*** Move to:` path.")));
    }
    let bytes = fsx::read_resolved(to).map_err(|e| ToolError::io(&e, ts, "reading"))?;
    locked.require_fresh(&to.real, ts, &Fingerprint::of_bytes(&bytes, &meta))?;
    Ok(Some((bytes, meta)))
}

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

fn commit(ctx: &Ctx, planned: &[Planned]) -> Result<Vec<Journaled>> {
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
