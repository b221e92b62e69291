//! `move` (SPEC 18.1, 24.2): rename a file, link or directory inside the root, journaled so
//! `undo` moves it back (and restores a file it overwrote). Read records move with the file.

use crate::change;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::fsx;
use crate::journal::{Before, NewEntry, Op};
use crate::reads::{self, Fingerprint};
use crate::sandbox::{self, carried::Side};
use crate::tool::{Hints, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

pub struct Move;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// What to move: a file, a symlink (moved as a link) or a directory (moved whole).
    #[serde(alias = "source")]
    pub from: String,
    /// Where it goes; missing parent directories are created.
    #[serde(alias = "destination")]
    pub to: String,
    /// Replace an existing file at `to` (never a directory); that file must have been read.
    #[schemars(extend("default" = false))]
    pub overwrite: Option<bool>,
}

impl Tool for Move {
    type Input = Input;
    const NAME: &'static str = "move";
    const SUMMARY: &'static str = "Move or rename a file or directory (undoable)";
    const DESCRIPTION: &'static str = "Moves or renames a file, symlink or directory inside the root, creating missing parent directories of `to`. \
An existing `to` is an error unless `overwrite: true` (files only, and that file must have been read in this session and be unchanged). \
A moved file keeps its read record, so it can be edited at its new path at once. Can be undone. Prefer this over `run` with `mv`.";
    const EXAMPLES: &'static str = "  loopr-tool move --from src/old.rs --to src/new.rs\n  echo '{\"from\": \"a.txt\", \"to\": \"b.txt\", \"overwrite\": true}' | loopr-tool move";
    const HINTS: Hints = Hints::DESTRUCTIVE;

    fn read_only(_: &Input) -> bool {
        false
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let from = sandbox::resolve_entry(ctx, "from", &input.from)?;
        let to = sandbox::resolve_entry(ctx, "to", &input.to)?;
        let (fs, ts) = (from.shown.as_str(), to.shown.as_str());
        if from.real == to.real {
            return Err(ToolError::invalid(
                "to",
                format!("{ts} is the same path as from"),
            ));
        }
        if to.real.starts_with(&from.real) {
            return Err(ToolError::invalid(
                "to",
                format!("cannot move {fs} into itself ({ts})"),
            ));
        }
        let locked = change::lock(ctx, &[&from.real, &to.real])?;
        // A directory carries every path below it to new names (SPEC 31.4).
        let (fside, tside) = (Side::of(&from), Side::of(&to));
        sandbox::carried::check(ctx, "from", &from.real, Some(fside), Some(tside))?;
        let meta =
            std::fs::symlink_metadata(&from.real).map_err(|e| ToolError::io(&e, fs, "moving"))?;
        let overwrite = input.overwrite.unwrap_or(false);
        // The target as its checked handle sees it (SPEC 31.4), as it is read and journaled.
        let existing = match fsx::lstat_resolved(&to) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(ToolError::io(&e, ts, "moving to")),
        };
        // What an overwritten target held, kept for undo.
        let mut old: Option<change::Current> = None;
        if let Some(dst) = &existing {
            if dst.is_dir() {
                return Err(ToolError::is_directory(ts)
                    .hint("move never replaces a directory; choose another name inside it or move it away first."));
            }
            if !overwrite {
                return Err(ToolError::invalid(
                    "to",
                    format!("{ts} already exists; nothing was moved"),
                )
                .hint("Pass overwrite: true to replace that file (read it first), or choose another name."));
            }
            if meta.is_dir() {
                return Err(ToolError::invalid(
                    "to",
                    format!("{ts} is a file; a directory cannot replace a file"),
                ));
            }
            if dst.is_file() {
                old = Some(locked.read_fresh(&to, dst.clone())?);
            }
        }

        // The overwritten file's blob is linked before the rename, while it still has a name.
        let kept = old.as_ref().and_then(|c| c.keep(ctx, &to));
        // A rename keeps the content: what undo will check is what `from` holds now.
        let after = if meta.is_file() {
            Fingerprint::of_file(&from.real).map_err(|e| ToolError::io(&e, fs, "reading"))?
        } else {
            Fingerprint::default()
        };
        let before = match &old {
            Some(current) => current.before(kept),
            None => Before::Absent,
        };
        // The parent directories the move will create, so undo removes them again.
        let created = to
            .real
            .parent()
            .map(fsx::missing_dirs)
            .unwrap_or_default()
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let op = Op::Move {
            from: from.real.to_string_lossy().into_owned(),
            from_shown: fs.to_string(),
            dir: meta.is_dir(),
            created,
            content: None,
        };
        // Journal first (SPEC 24.6); the read records move with the file.
        let journaled = change::journal_first(
            ctx,
            vec![NewEntry::new("move", &to.real, ts, before, after).op(op)],
            &[reads::Change::Move(&from.real, &to.real)],
        )?;
        fsx::move_resolved(&from, &to).map_err(|e| ToolError::io(&e, fs, "moving"))?;
        for dir in [from.real.parent(), to.real.parent()].into_iter().flatten() {
            fsx::sync_dir(dir);
        }
        journaled.landed();
        drop(locked);
        let overwrote = existing.is_some();
        let note = if overwrote {
            " (replaced the file there)"
        } else {
            ""
        };
        Ok(Success::new(
            format!("Moved {fs} to {ts}{note}\n"),
            json!({"from": fs, "to": ts, "overwrote": overwrote}),
        ))
    }
}
