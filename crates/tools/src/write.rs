//! `write` (SPEC §6, 16.5): create or overwrite a file, byte for byte, atomically; an existing
//! file must have been read in this session and be unchanged since.

use crate::change;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::fsx;
use crate::journal::{self, Before};
use crate::reads::Fingerprint;
use crate::sandbox;
use crate::text;
use crate::tool::{Hints, Tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::os::unix::fs::MetadataExt;

pub struct Write;

/// write's input (public as `loopr_tool::inputs::WriteInput`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = loopr_core::input::undocumented)]
pub struct Input {
    /// The file to write: relative to the root, or absolute inside it. Missing parent
    /// directories are created.
    #[serde(alias = "file_path")]
    pub path: String,
    /// The complete new content, written exactly as given.
    pub content: String,
}

impl Tool for Write {
    type Input = Input;
    const NAME: &'static str = "write";
    const SUMMARY: &'static str = "Create or overwrite a file";
    const DESCRIPTION: &'static str = "Write a file: creates or overwrites it with exactly the text given, creating missing parent directories. \
Overwriting an existing file requires that you read it in this session and that it has not changed since; otherwise the call fails with not_read or stale_read and nothing is written. \
The write is atomic (no half-written file), keeps the file's permissions, follows a symlink to replace its target, and can be undone. \
To change part of an existing file, prefer edit: it sends only the changed text.";
    const POSITIONALS: &'static [&'static str] = &["path"];
    const RAW_STDIN_FIELD: Option<&'static str> = Some("content");
    // Writing the same content twice leaves the same file.
    const HINTS: Hints = Hints {
        idempotent: true,
        ..Hints::DESTRUCTIVE
    };
    const EXAMPLES: &'static str = "  echo '{\"path\": \"notes/todo.md\", \"content\": \"# Todo\\n\"}' | loopr-tool write\n  make_config | loopr-tool write conf.toml     (content from stdin)";

    fn read_only(_: &Input) -> bool {
        false
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let target = sandbox::resolve(ctx, "path", &input.path)?;
        let shown = target.shown.as_str();
        refuse_notebook(shown)?;
        let real = target.real.as_path();
        check_writable(real, shown)?;
        let locked = change::lock(ctx, &[real])?;

        let existing = check_writable(real, shown)?;
        let old = match &existing {
            Some(meta) if meta.len() <= journal::MAX_ENTRY_BYTES => {
                Some(fsx::read_resolved(&target).map_err(|e| ToolError::io(&e, shown, "reading"))?)
            }
            _ => None,
        };
        if let Some(meta) = &existing {
            let current = match &old {
                Some(bytes) => Fingerprint::of_bytes(bytes, meta),
                None => {
                    Fingerprint::of_file(real).map_err(|e| ToolError::io(&e, shown, "reading"))?
                }
            };
            locked.require_fresh(real, shown, &current)?;
        }

        // Over 64 MiB the old content is not held: count its lines before it is replaced.
        let large_old_lines = match (&existing, &old) {
            (Some(_), None) => fsx::count_file_lines(real).unwrap_or(0),
            _ => 0,
        };
        let content = input.content.as_bytes();
        let before = match (&existing, &old) {
            (None, _) => Before::Absent,
            (Some(meta), Some(bytes)) => Before::Content {
                bytes,
                mode: meta.mode() & 0o7777,
                kept: None,
            },
            (Some(meta), None) => Before::TooLarge {
                size: meta.len(),
                mode: meta.mode() & 0o7777,
            },
        };
        change::replace(ctx, "write", &target, content, existing.as_ref(), before)?;
        drop(locked);

        let lines = fsx::count_lines(content);
        let (added, removed) = match (&old, &existing) {
            (Some(old), _) => diff_counts(old, content),
            // Over 64 MiB: not diffed; every old line counts as removed.
            (None, Some(_)) => (lines, large_old_lines),
            (None, None) => (lines, 0),
        };
        if let Some(old) = &old {
            let enc = text::encoding_name(old);
            if enc != "utf-8" && enc != "utf-8-bom" {
                ctx.warn(format!(
                    "{shown} was {enc}; it now holds the new content byte for byte as given"
                ));
            }
        }
        let created = existing.is_none();
        let how = if created {
            "(new file)".to_string()
        } else {
            format!("(overwrote; +{added} -{removed} lines)")
        };
        let output = format!(
            "Wrote {} bytes ({lines} lines) to {shown} {how}\n",
            content.len()
        );
        let success = Success::new(
            output,
            json!({
                "path": shown,
                "bytes": content.len(),
                "lines": lines,
                "created": created,
                "added": added,
                "removed": removed,
            }),
        );
        // Over 64 MiB the old content is not held; the new one is over the 4 MiB parsed anyway.
        let old = if created { None } else { old.as_deref() };
        if !created && old.is_none() {
            return Ok(success);
        }
        Ok(crate::syntax_check::attach(success, shown, old, content))
    }
}

/// Notebooks are JSON whose cells a text edit breaks easily: edit and write leave them to
/// notebook_edit, as Claude Code does (SPEC 24.7).
pub fn refuse_notebook(shown: &str) -> Result<()> {
    if shown.ends_with(".ipynb") {
        return Err(ToolError::invalid(
            "path",
            format!("{shown} is a Jupyter notebook; edit and write do not change notebooks"),
        )
        .hint("Use notebook_edit to replace, insert or delete a cell."));
    }
    Ok(())
}

/// The target's metadata when it exists; refuses what cannot be written as a regular file.
pub fn check_writable(real: &std::path::Path, shown: &str) -> Result<Option<std::fs::Metadata>> {
    match std::fs::metadata(real) {
        Ok(m) if m.is_dir() => Err(ToolError::is_directory(shown)),
        Ok(m) if !m.is_file() => Err(ToolError::new(
            Code::UnsupportedFile,
            format!("{shown} is not a regular file (a FIFO, socket or device)"),
        )
        .with("path", shown)),
        Ok(m) => Ok(Some(m)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(ToolError::io(&e, shown, "writing")),
    }
}

/// Lines added and removed by `similar`'s default line diff.
pub fn diff_counts(old: &[u8], new: &[u8]) -> (u64, u64) {
    let old = String::from_utf8_lossy(old);
    let new = String::from_utf8_lossy(new);
    let diff = similar::TextDiff::configure()
        .timeout(std::time::Duration::from_secs(2))
        .diff_lines(old.as_ref(), new.as_ref());
    let (mut added, mut removed) = (0, 0);
    for change in diff.iter_all_changes() {
        match change.tag() {
            similar::ChangeTag::Insert => added += 1,
            similar::ChangeTag::Delete => removed += 1,
            similar::ChangeTag::Equal => {}
        }
    }
    (added, removed)
}
