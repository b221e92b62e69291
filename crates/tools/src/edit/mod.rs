//! `edit` (SPEC §7, 16.5): replace text in an existing file — one edit or several, all or
//! nothing — matched by a short ladder of ever looser but unambiguous comparisons, written back
//! in the file's own encoding and line endings with every other byte kept.

mod form;
pub mod report;
pub mod symbol;

// The matcher is an engine of its own (crates/matcher), under its old paths.
pub use loopr_matcher::{apply, by_lines, closest, diff, encode, lines, matching, rescue};

use crate::change;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::sandbox;
use crate::text;
use crate::tool::Tool;
use crate::write;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub struct Edit;

/// Largest file edit accepts (SPEC §7).
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// edit's input (public as `loopr_tool::inputs::EditInput`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = loopr_core::input::undocumented)]
pub struct Input {
    /// The file to edit: relative to the root, or absolute inside it. It must exist and have been
    /// read in this session.
    #[serde(alias = "file_path")]
    pub path: String,
    /// The text to replace, copied from the file as read shows it (without the line-number
    /// prefix). It must match exactly one place unless replace_all is set. Not with `edits`.
    #[serde(alias = "old_str")]
    pub old_string: Option<String>,
    /// The text to put in its place (with start_line/end_line: the lines' new text; with
    /// insert_line: the lines to insert). Not with `edits`.
    #[serde(alias = "new_str")]
    pub new_string: Option<String>,
    /// Replace every occurrence of old_string (default false). Not with `edits`: set it per edit.
    pub replace_all: Option<bool>,
    /// Exactly this many occurrences of old_string must be found; all are replaced. Another
    /// count is an error that says how many there are.
    #[schemars(range(min = 1))]
    pub expected_replacements: Option<u64>,
    /// Instead of old_string: the first line to replace (1-based, as read numbers lines), with
    /// end_line and new_string.
    #[schemars(range(min = 1))]
    pub start_line: Option<u64>,
    /// The last line to replace (inclusive; default start_line).
    #[schemars(range(min = 1))]
    pub end_line: Option<u64>,
    /// With start_line: the current text of those lines; if they hold something else, nothing
    /// is changed (no_match shows them).
    pub expected: Option<String>,
    /// Instead of old_string: insert new_string after this line (0: before the first line).
    #[schemars(range(min = 0))]
    pub insert_line: Option<u64>,
    /// Several edits, all or nothing: string edits applied in order, each to the result of the
    /// one before; or line edits, all counting lines of the file as it is before the call.
    /// Instead of old_string/new_string.
    pub edits: Option<Vec<EditItem>>,
    /// Show the diff the edit would make, without writing anything (default false).
    pub dry_run: Option<bool>,
    /// Instead of old_string: the definition to change, named as `symbols` prints it
    /// (`Type::method`, `Class.method`, or a bare name); new_string replaces its `part`.
    pub symbol: Option<String>,
    /// With symbol: `body` (default; inside the braces or Python's indented suite, re-indented)
    /// or `whole` (the definition with its decorators and doc comments).
    pub part: Option<symbol::Part>,
    /// Instead of symbol: insert new_string as whole lines before this definition (its
    /// decorators and doc comments included).
    pub insert_before_symbol: Option<String>,
    /// Instead of symbol: insert new_string as whole lines after this definition.
    pub insert_after_symbol: Option<String>,
}

/// One edit of `edits` (public as `loopr_tool::inputs::EditItem`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = loopr_core::input::undocumented)]
pub struct EditItem {
    /// The text to replace (or give start_line or insert_line).
    #[serde(alias = "old_str")]
    pub old_string: Option<String>,
    /// The text to put in its place.
    #[serde(alias = "new_str")]
    pub new_string: String,
    /// Replace every occurrence (default false).
    pub replace_all: Option<bool>,
    /// Exactly this many occurrences must be found; all are replaced.
    #[schemars(range(min = 1))]
    pub expected_replacements: Option<u64>,
    /// The first line to replace (1-based, in the file as it is before the call).
    #[schemars(range(min = 1))]
    pub start_line: Option<u64>,
    /// The last line to replace (inclusive; default start_line).
    #[schemars(range(min = 1))]
    pub end_line: Option<u64>,
    /// The current text of those lines, checked before anything is changed.
    pub expected: Option<String>,
    /// Insert new_string after this line (0: before the first line).
    #[schemars(range(min = 0))]
    pub insert_line: Option<u64>,
}

impl Tool for Edit {
    type Input = Input;
    const NAME: &'static str = "edit";
    const SUMMARY: &'static str = "Replace text in a file";
    const DESCRIPTION: &'static str = "Edit a file: change part of a file in place, keeping the rest of the file as it is. Replaces old_string with new_string in an existing file, or applies `edits`, a list of {old_string, new_string, replace_all?} applied in order, each to the result of the one before, all or nothing. \
Give either old_string + new_string (+ replace_all) or edits, not both. You must have read the file in this session, and it must not have changed since (not_read, stale_read). \
Copy old_string exactly from read's output without the line-number prefix, with enough surrounding lines to match exactly one place; several matches are refused (ambiguous_match, with every line) unless replace_all is true. \
When old_string is not found exactly, whole lines are matched ignoring trailing whitespace, then curly quotes, dashes and odd spaces (also inside a line), then a consistent indentation difference (tabs vs spaces, or a uniform shift, alignment tabs inside lines; new_string is re-indented the same way); its first line may start mid-line; lines new_string keeps unchanged keep the file's exact bytes. Read's line-number prefixes copied into old_string, and text escaped twice, are also forgiven when the result is unique; data.match names the rung used. \
When nothing matches (no_match), the error shows the most similar lines and says what differs. \
With expected_replacements: N, exactly N occurrences must be found, and all are replaced. \
When old_string cannot be made unique, edit by line numbers instead (as read numbers them): start_line + end_line + new_string replaces those lines (expected: their current text, checked first), insert_line + new_string inserts lines after that line (0: at the top); in edits, line items all count lines of the file as it is before the call. \
The file keeps its encoding, line endings (CRLF stays CRLF), BOM and every byte outside the replaced text. dry_run shows the diff without writing. The change can be undone.";
    const POSITIONALS: &'static [&'static str] = &["path"];
    const EXAMPLES: &'static str = "  echo '{\"path\": \"src/main.rs\", \"old_string\": \"let x = 1;\", \"new_string\": \"let x = 2;\"}' | loopr-tool edit\n  loopr-tool edit src/main.rs --old-string 'let x = 1;' --new-string 'let x = 2;' --dry-run";

    fn read_only(_: &Input) -> bool {
        false
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        if let Some((field, given, at)) = by_symbol(&input)? {
            return run_symbol(ctx, &input, field, &given, at);
        }
        let edits_form = input.edits.is_some();
        let plan = form::plan(&input)?;
        let dry_run = input.dry_run.unwrap_or(false);
        let (target, locked, current) = open_locked(ctx, &input.path)?;
        let shown = target.shown.as_str();
        let bytes = &current.bytes;
        if bytes.len() as u64 > MAX_BYTES {
            return Err(too_large(shown, bytes.len() as u64));
        }
        if text::looks_binary(bytes) {
            return Err(ToolError::new(
                Code::BinaryFile,
                format!("{shown} is a binary file ({} bytes), not text", bytes.len()),
            )
            .with("path", shown)
            .hint("edit changes text files only; to replace a binary file, use write or run."));
        }
        locked.fresh(&target, &current)?;

        let doc = encode::Doc::decode(bytes);
        let outcome = match &plan {
            form::Plan::Text(specs) => apply::plan_until(&doc, specs, &|| ctx.cancelled()),
            form::Plan::Lines(specs) => by_lines::plan(&doc, specs),
        }
        .map_err(|f| {
            let read = report::read_again(shown, ctx.offered("read", None).as_ref());
            report::failure(f, shown, &plan.olds(), edits_form, &doc, &read)
        })?;
        if outcome.bytes() == bytes {
            return Err(ToolError::new(
                Code::NoChange,
                format!("the edits leave {shown} exactly as it was"),
            )
            .hint("Each edit matched, but together they change nothing; check new_string."));
        }
        if doc.lossy {
            ctx.warn(format!(
                "{shown} holds bytes that are not valid {}; they were kept exactly as they were",
                doc.name
            ));
        }
        if !dry_run {
            land(ctx, &target, &current, outcome.bytes())?;
        }
        drop(locked);
        let success = report::success(shown, &doc.text, &outcome, edits_form, dry_run);
        Ok(crate::syntax_check::attach(
            success,
            shown,
            Some(bytes.as_slice()),
            outcome.bytes(),
        ))
    }
}

/// The file an edit changes, resolved, locked and read (not yet checked fresh: the caller
/// checks what it must first).
fn open_locked<'a>(
    ctx: &'a Ctx,
    path: &str,
) -> Result<(sandbox::Resolved, change::Locked<'a>, change::Current)> {
    let target = sandbox::resolve(ctx, "path", path)?;
    let (shown, real) = (target.shown.as_str(), target.real.as_path());
    write::refuse_notebook(shown)?;
    existing(real, shown)?;
    let locked = change::lock(ctx, &[real])?;
    let current = locked.read(&target, existing(real, shown)?)?;
    Ok((target, locked, current))
}

/// Writes `bytes` over the file as read under the lock (`current`), journaled for undo.
fn land(
    ctx: &Ctx,
    target: &sandbox::Resolved,
    current: &change::Current,
    bytes: &[u8],
) -> Result<()> {
    // Linked before the rename, while the old inode still has its name; a failed write drops
    // the link again.
    let before = current.before(current.keep(ctx, target));
    change::replace(ctx, "edit", target, bytes, Some(&current.meta), before)?;
    Ok(())
}

/// The symbol form's field, name and place, when the call names a symbol; the other forms'
/// fields refused beside it.
fn by_symbol(input: &Input) -> Result<Option<(&'static str, String, symbol::Where)>> {
    let named = [
        ("symbol", &input.symbol),
        ("insert_before_symbol", &input.insert_before_symbol),
        ("insert_after_symbol", &input.insert_after_symbol),
    ];
    let given: Vec<(&'static str, &String)> = named
        .iter()
        .filter_map(|(f, v)| v.as_ref().map(|v| (*f, v)))
        .collect();
    let (field, name) = match given.as_slice() {
        [] if input.part.is_some() => {
            return Err(ToolError::invalid("part", "`part` goes with `symbol`"));
        }
        [] => return Ok(None),
        [one] => *one,
        [a, b, ..] => {
            return Err(ToolError::invalid(
                b.0,
                format!("give one of {} and {}, not both", a.0, b.0),
            ));
        }
    };
    let others = [
        ("old_string", input.old_string.is_some()),
        ("replace_all", input.replace_all.is_some()),
        (
            "expected_replacements",
            input.expected_replacements.is_some(),
        ),
        ("start_line", input.start_line.is_some()),
        ("end_line", input.end_line.is_some()),
        ("expected", input.expected.is_some()),
        ("insert_line", input.insert_line.is_some()),
        ("edits", input.edits.is_some()),
        ("part", input.part.is_some() && field != "symbol"),
    ];
    if let Some((f, _)) = others.iter().find(|(_, set)| *set) {
        return Err(ToolError::invalid(
            f,
            format!("`{f}` does not go with `{field}`: an edit by symbol takes new_string only"),
        ));
    }
    if input.new_string.is_none() {
        return Err(ToolError::invalid(
            "new_string",
            format!("edit: `{field}` needs `new_string`"),
        ));
    }
    let at = match field {
        "symbol" => symbol::Where::Replace(input.part.unwrap_or_default()),
        "insert_before_symbol" => symbol::Where::Before,
        _ => symbol::Where::After,
    };
    Ok(Some((field, name.clone(), at)))
}

/// An edit by symbol: the change protocol as for any edit (read record, lock, journal), the
/// place found in the file's syntax tree.
fn run_symbol(
    ctx: &Ctx,
    input: &Input,
    field: &'static str,
    name: &str,
    at: symbol::Where,
) -> Result<Success> {
    let dry_run = input.dry_run.unwrap_or(false);
    let (target, locked, current) = open_locked(ctx, &input.path)?;
    let shown = target.shown.as_str();
    locked.fresh(&target, &current)?;
    let new = input.new_string.as_deref().unwrap_or_default();
    let out = symbol::splice(shown, &current.bytes, field, name, at, new)?;
    if out.bytes == current.bytes {
        return Err(ToolError::new(
            Code::NoChange,
            format!("the edit leaves {shown} exactly as it was"),
        ));
    }
    if !dry_run {
        land(ctx, &target, &current, &out.bytes)?;
    }
    drop(locked);
    let old = String::from_utf8_lossy(&current.bytes);
    let new_text = String::from_utf8_lossy(&out.bytes);
    let diff = diff::unified(&old, &new_text, shown);
    let what = match at {
        symbol::Where::Replace(symbol::Part::Body) => {
            format!("replaced the body of {}", out.qualified)
        }
        symbol::Where::Replace(symbol::Part::Whole) => format!("replaced {}", out.qualified),
        symbol::Where::Before => format!("inserted before {}", out.qualified),
        symbol::Where::After => format!("inserted after {}", out.qualified),
    };
    let verb = if dry_run { "Would edit" } else { "Edited" };
    let mut output = format!(
        "{verb} {shown}: {what} (lines {}-{} now)\n",
        out.first_line, out.last_line
    );
    output.push_str(&diff);
    let success = Success::new(
        crate::envelope::terminate_lines(output),
        serde_json::json!({
            "path": shown,
            "symbol": out.qualified,
            "first_line": out.first_line,
            "last_line": out.last_line,
            "diff": diff,
            "dry_run": dry_run,
        }),
    );
    Ok(crate::syntax_check::attach(
        success,
        shown,
        Some(&current.bytes),
        &out.bytes,
    ))
}

/// The target's metadata: it must exist, be a regular file, and not exceed the size limit.
fn existing(real: &std::path::Path, shown: &str) -> Result<std::fs::Metadata> {
    let meta = write::check_writable(real, shown)?.ok_or_else(|| {
        ToolError::not_found(shown, format!("{shown} does not exist"))
            .hint("Check the path with glob or tree; to create a new file, use write.")
    })?;
    if meta.len() > MAX_BYTES {
        return Err(too_large(shown, meta.len()));
    }
    Ok(meta)
}

fn too_large(shown: &str, size: u64) -> ToolError {
    ToolError::too_large(
        MAX_BYTES,
        format!("{shown} is {size} bytes; edit handles files up to {MAX_BYTES} bytes (64 MiB)"),
    )
    .with("path", shown)
    .hint("Edit it with run (sed, a script), or rewrite it whole with write.")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SPEC 16.9: one flat object of canonical fields; aliases are accepted, not listed.
    #[test]
    fn the_schema_is_flat_and_lists_canonical_fields_only() {
        let schema = loopr_core::input::schema_of::<Input>();
        let props: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        assert_eq!(
            props,
            [
                "path",
                "old_string",
                "new_string",
                "replace_all",
                "expected_replacements",
                "start_line",
                "end_line",
                "expected",
                "insert_line",
                "edits",
                "dry_run",
                "symbol",
                "part",
                "insert_before_symbol",
                "insert_after_symbol"
            ]
        );
        assert_eq!(schema["required"], serde_json::json!(["path"]));
        assert!(schema.get("oneOf").is_none() && schema.get("anyOf").is_none());
        let text = schema.to_string();
        assert!(!text.contains("old_str\"") && !text.contains("file_path"));
    }
}
