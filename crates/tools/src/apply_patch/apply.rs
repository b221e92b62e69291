//! Applying a parsed patch (SPEC 17.3, 24.1, 24.7): every file's change is worked out under
//! the locks of all of them before anything is written (here); then `commit` writes them.

use super::parse::{FileOp, Hunk};
use super::report;
use crate::change::{self, Locked};
use crate::context::Ctx;
use crate::edit::apply::{self as ladder, HunkPlace, Spec};
use crate::edit::encode::Doc;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::fsx;
use crate::sandbox::{self, Resolved};
use crate::text;
use crate::{delete, edit, write};
use std::fs::Metadata;

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

/// The ops of one file, each hunk with whether its search starts from the top.
struct Work<'p> {
    op: &'p FileOp,
    hunks: Vec<(&'p Hunk, bool)>,
}

/// Files one patch may change. Each is held open from its resolution to the commit (its
/// handle, a move's source, its directory's lock), so the count is bounded by what the process
/// may open (SPEC 31.4: 100,000 added files ran into EMFILE half-way).
fn max_files() -> usize {
    let soft = rustix::process::getrlimit(rustix::process::Resource::Nofile)
        .current
        .unwrap_or(u64::MAX);
    (soft.saturating_sub(64) / 3).clamp(16, 1000) as usize
}

pub fn apply(ctx: &Ctx, ops: &[FileOp]) -> Result<Success> {
    let works = group(ops);
    let most = max_files();
    if works.len() > most {
        return Err(ToolError::too_large(
            most,
            format!(
                "the patch changes {} files; one patch changes at most {most} (each is held open while it applies)",
                works.len()
            ),
        )
        .hint("Split the patch into several."));
    }
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
    super::commit::commit(ctx, "apply_patch", &planned)?;
    drop(locked);
    Ok(report::success(&planned))
}

/// One work per op: two sections for one file are refused by `refuse_twice` (SPEC 31.4), as
/// silently merging them let a second `*** Update File:` re-search a file the first had
/// already changed.
fn group(ops: &[FileOp]) -> Vec<Work<'_>> {
    ops.iter()
        .map(|op| {
            let hunks = match op {
                FileOp::Update { hunks, .. } => {
                    hunks.iter().enumerate().map(|(i, h)| (h, i == 0)).collect()
                }
                _ => vec![],
            };
            Work { op, hunks }
        })
        .collect()
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

/// One file, one change: a file named by two ops (two Updates too) or moved onto another op's
/// file would make the result depend on an order the model may not have meant.
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
        return Err(ToolError::too_large(delete::TRASH_LIMIT, format!("{shown} holds {} bytes, more than the trash keeps ({} bytes); nothing was changed", m.bytes, delete::TRASH_LIMIT))
        .with("path", shown.as_str())
        .hint("Delete it with delete and permanent: true (it cannot be undone), then apply the rest of the patch."));
    }
    let mut p = blank(Action::Delete, target);
    if meta.is_file() {
        let current = locked.read(&p.target, meta)?;
        p.known = locked.has_record(&p.target.real);
        if p.known {
            locked.fresh(&p.target, &current)?;
        }
        p.old_text = Doc::decode(&current.bytes).text.into_owned();
        p.before = Some((current.bytes, current.meta));
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
        return Err(ToolError::not_found(&shown, format!("{shown} does not exist (line {line} of the patch)"))
            .with("line", line)
            .hint(format!("To create it, use `*** Add File: {shown}` with every line prefixed by '+'; check the path with glob.")));
    };
    if meta.len() > edit::MAX_BYTES {
        return Err(ToolError::too_large(
            edit::MAX_BYTES,
            format!(
                "{shown} is {} bytes; apply_patch updates files up to {} bytes (64 MiB)",
                meta.len(),
                edit::MAX_BYTES
            ),
        )
        .with("path", shown.as_str()));
    }
    let current = locked.read(src, meta)?;
    let bytes = &current.bytes;
    if text::looks_binary(bytes) {
        return Err(ToolError::new(
            Code::BinaryFile,
            format!("{shown} is a binary file ({} bytes), not text", bytes.len()),
        )
        .with("path", shown.as_str())
        .hint("apply_patch changes text files only; to replace a binary file, use write or run."));
    }
    let known = locked.has_record(&src.real);
    if known {
        locked.fresh(src, &current)?;
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
    let doc = Doc::decode(bytes);
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
        let outcome = ladder::plan_until(&doc, &specs, &|| ctx.cancelled())
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
    p.before = Some((current.bytes, current.meta));
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
    let current = locked.read_fresh(to, meta)?;
    Ok(Some((current.bytes, current.meta)))
}
