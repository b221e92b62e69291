//! `apply_patch` (SPEC 17.3, 24.1, 24.7): the multi-file patch format Codex-family models write
//! from training — add, update (with the edit ladder locating every hunk), move and delete in one
//! call, all or nothing, each file journaled so `undo` takes the files back one by one.

mod apply;
mod commit;
// The parser is an engine of its own (crates/patch), under its old path.
pub use loopr_patch as parse;
mod report;

/// The all-or-nothing commit of changes to several files, one journal entry each (rewrite
/// lands its files through it, SPEC 26.4).
pub(crate) use apply::{Action, Planned};
pub(crate) use commit::commit;

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::tool::Tool;
use schemars::JsonSchema;
use serde::Deserialize;

pub struct ApplyPatch;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// The patch: `*** Begin Patch`, then per file `*** Add File: PATH` (+ lines),
    /// `*** Update File: PATH` (optional `*** Move to: PATH`, then hunks: `@@ [a line above the
    /// change]`, lines starting with ' ' context, '-' removed, '+' added, optional
    /// `*** End of File`) or `*** Delete File: PATH`, and `*** End Patch`.
    #[serde(alias = "input")]
    #[schemars(required)]
    pub patch: Option<String>,
    /// Codex's shell form, `["apply_patch", PATCH]`: accepted, not listed.
    #[schemars(skip)]
    pub command: Option<Vec<String>>,
}

impl Tool for ApplyPatch {
    type Input = Input;
    const NAME: &'static str = "apply_patch";
    const SUMMARY: &'static str = "Apply a multi-file patch (Codex's apply_patch format)";
    const DESCRIPTION: &'static str = "Apply a patch: in the apply_patch format, adds, updates, moves and deletes files in one call, all or nothing. \
Format: `*** Begin Patch`, then for each file one of `*** Add File: PATH` followed by its lines each prefixed with '+'; `*** Delete File: PATH`; or `*** Update File: PATH`, optionally `*** Move to: NEW_PATH`, then hunks. \
A hunk starts with `@@` (optionally `@@ TEXT`, where TEXT is a line above the change such as a function's signature, to place it) and has lines prefixed with ' ' (context, unchanged), '-' (removed) or '+' (added); give about 3 lines of context above and below each change; `*** End of File` after a hunk means it ends at the end of the file. The patch ends with `*** End Patch`. \
Paths are relative to the root. Hunks are found like edit's old_string (forgiving trailing whitespace, typography and indentation differences, never guessing): each must match one place, below the previous hunk of the same file (ambiguous_match otherwise; add context or an @@ line), or nothing is written anywhere (no_match shows the closest lines). \
A file read in this session must not have changed since (stale_read); files not read are accepted when each hunk has context or removed lines. Deleted files go to the trash. Each file's change can be undone with undo.";
    const EXAMPLES: &'static str = "  printf '*** Begin Patch\\n*** Update File: src/main.rs\\n@@ fn main() {\\n-    let x = 1;\\n+    let x = 2;\\n*** End Patch\\n' | loopr-tool apply_patch\n  loopr-tool apply_patch --patch \"$(cat change.patch)\"";
    const RAW_STDIN_FIELD: Option<&'static str> = Some("patch");

    fn read_only(_: &Input) -> bool {
        false
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let text = patch_text(input)?;
        parsed_size(&text)?;
        let ops = parse::parse(&text).map_err(|e| report::parse_error(&e, &text))?;
        apply::apply(ctx, &ops)
    }
}

/// What a parsed line costs besides its text: a `String` in the hunk's old lines and one in its
/// new ones (a context line is both).
const PER_LINE: u64 = 2 * std::mem::size_of::<String>() as u64;

/// Refuses, before parsing, a patch whose parsed form would pass twice its text and 16 MiB
/// (SPEC 31.4): a patch of 2 M `+` lines (4 MB) peaked at 278 MB, one `String` a line.
fn parsed_size(text: &str) -> Result<()> {
    let lines = memchr::memchr_iter(b'\n', text.as_bytes()).count() as u64 + 1;
    let bytes = text.len() as u64;
    let limit = 2 * bytes + (16 << 20);
    let size = bytes + PER_LINE * lines;
    if size > limit {
        return Err(ToolError::too_large(
            limit,
            format!(
                "the patch's {lines} lines in {bytes} bytes would take {size} bytes once parsed; at most twice the patch and 16 MiB ({limit} bytes)"
            ),
        )
        .hint("Split the patch, or write a large new file with write."));
    }
    Ok(())
}

/// The patch, from `patch`/`input` or from Codex's `command: ["apply_patch", PATCH]`.
fn patch_text(input: Input) -> Result<String> {
    match (input.patch, input.command) {
        (Some(_), Some(_)) => Err(ToolError::invalid(
            "command",
            "give the patch once: in patch (or input), or as command: [\"apply_patch\", PATCH]",
        )),
        (Some(p), None) => Ok(p),
        (None, Some(argv)) => match argv.as_slice() {
            [tool, patch] if tool == "apply_patch" || tool == "applypatch" => Ok(patch.clone()),
            _ => Err(ToolError::invalid(
                "command",
                "command must be [\"apply_patch\", PATCH]: the tool's name and the patch text",
            )
            .hint("Give the patch in `patch`; to run a command, use run.")),
        },
        (None, None) => Err(ToolError::invalid(
            "patch",
            "apply_patch: missing required field `patch`",
        )
        .hint("Give the patch text in `patch`, starting with `*** Begin Patch`.")),
    }
}
