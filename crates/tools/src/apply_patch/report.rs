//! What apply_patch says (SPEC 17.3): a line per file and the changed regions numbered as edit
//! shows them; failures that name the patch line, the file and the hunk, with the closest
//! region of the file when a hunk is not found.

use super::apply::{Action, Planned};
use super::parse::{Hunk, ParseError, looks_like_unified_diff};
use crate::caps;
use crate::edit::apply::{Failure, MAX_RESULT, Spec};
use crate::edit::encode::Doc;
use crate::edit::matching::Rung;
use crate::edit::{diff, report as edit_report};
use crate::envelope::Success;
use crate::error::{Code, ToolError};
use crate::write;
use serde::Serialize;
use serde_json::Value;

const FORMAT: &str = "The format: `*** Begin Patch`, then per file `*** Add File: PATH` (lines prefixed '+'), `*** Delete File: PATH`, or `*** Update File: PATH` (optional `*** Move to: PATH`) with hunks of `@@` and lines prefixed ' ', '-' or '+', then `*** End Patch`.";

pub fn parse_error(e: &ParseError, text: &str) -> ToolError {
    let hint = if looks_like_unified_diff(text) {
        "This is a unified diff (as git diff prints), not the apply_patch format. Rewrite it as `*** Begin Patch` / `*** Update File: PATH` / `@@` hunks / `*** End Patch`, or make the change with edit."
            .to_string()
    } else {
        format!("Fix that line and send the whole patch again. {FORMAT}")
    };
    ToolError::invalid(
        "patch",
        format!(
            "the patch is malformed at line {}: {}; nothing was changed",
            e.line, e.message
        ),
    )
    .with("line", e.line)
    .hint(hint)
}

/// "hunk 2 of 3 for src/a.rs (patch line 14)"
fn which(index: usize, hunks: &[&Hunk], shown: &str) -> String {
    format!(
        "hunk {} of {} for {shown} (line {} of the patch)",
        index + 1,
        hunks.len(),
        hunks[index].line
    )
}

const NOTHING: &str =
    "Nothing was written to any file; fix this hunk and send the whole patch again.";

pub fn hunk_failure(
    f: Failure,
    shown: &str,
    hunks: &[&Hunk],
    specs: &[Spec],
    doc: &Doc,
) -> ToolError {
    match f {
        Failure::NoMatch {
            index,
            closest,
            already,
        } => {
            let mut msg = format!(
                "{}: its context and removed lines were not found in {shown}, not even ignoring trailing whitespace, typography or indentation",
                which(index, hunks, shown)
            );
            if hunks[index].anchor.is_some() {
                msg.push_str(" (below its @@ line)");
            } else if index > 0 {
                msg.push_str(" (below the previous hunk)");
            }
            msg.push('.');
            let mut hints = Vec::new();
            if let Some((a, b)) = already {
                hints.push(format!(
                    "Its new lines already stand at {}: this hunk looks already applied. Read {shown} before trying again.",
                    edit_report::line_range(a, b)
                ));
            }
            let closest = match &closest {
                Some(c) => {
                    msg.push_str(&edit_report::closest_block(c));
                    if already.is_none() {
                        hints.push(
                            edit_report::what_differs(c, specs[index].old)
                                .replace("old_string", "the hunk's ' ' and '-' lines"),
                        );
                    }
                    edit_report::closest_value(c)
                }
                None => {
                    msg.push_str(if doc.text.is_empty() {
                        "\nThe file is empty."
                    } else {
                        "\nNo region of the file resembles it."
                    });
                    hints.push(format!("Read {shown} to find the lines you mean."));
                    Value::Null
                }
            };
            hints.push(NOTHING.into());
            ToolError::new(Code::NoMatch, msg)
                .with("path", shown)
                .with("hunk", index)
                .with("closest", closest)
                .hint(hints.join(" "))
        }
        Failure::Ambiguous {
            index, rung, lines, ..
        } => ambiguous(index, rung, &lines, hunks, shown),
        // hunks carry no expected count; as several matches all the same
        Failure::Count {
            index, rung, lines, ..
        } => ambiguous(index, rung, &lines, hunks, shown),
        Failure::Anchor { index, anchor } => ToolError::new(
            Code::NoMatch,
            format!(
                "{}: its @@ line `{anchor}` is on no line of {shown}{}",
                which(index, hunks, shown),
                if index > 0 { " below the previous hunk" } else { "" }
            ),
        )
        .with("path", shown)
        .with("hunk", index)
        .with("closest", Value::Null)
        .hint(format!(
            "The text after @@ must be (part of) a line of {shown} above the change, such as a function's signature; drop it or copy it from the file. {NOTHING}"
        )),
        Failure::Unencodable { index, old, ch } => ToolError::invalid(
            "patch",
            format!(
                "{}: its {} lines contain {ch:?} (U+{:04X}), which {} cannot hold; {shown} is kept in its own encoding",
                which(index, hunks, shown),
                if old { "context or removed" } else { "added" },
                ch as u32,
                doc.name
            ),
        )
        .with("path", shown)
        .with("hunk", index)
        .hint(format!("Use only characters that {} can represent. {NOTHING}", doc.name)),
        Failure::TooLarge { index, size } => ToolError::too_large(MAX_RESULT, format!("{}: the patch would make {shown} {size} bytes; at most {MAX_RESULT} bytes (64 MiB) are written", which(index, hunks, shown)))
        .with("path", shown)
        .with("hunk", index),
        Failure::Stopped { .. } => ToolError::cancelled("apply_patch"),
        // line edits' failures: a patch makes none
        Failure::Range { index, .. } | Failure::Overlap { index, .. } | Failure::Expected { index, .. } => {
            ToolError::internal(format!("{}: a line-edit failure in a patch", which(index, hunks, shown)))
        }
        Failure::Unmappable => ToolError::invalid(
            "patch",
            format!(
                "a hunk would begin or end inside bytes of {shown} that {} cannot decode, and writing it would change bytes outside the hunk",
                doc.name
            ),
        )
        .with("path", shown),
    }
}

fn ambiguous(index: usize, rung: Rung, lines: &[usize], hunks: &[&Hunk], shown: &str) -> ToolError {
    let how = if rung == Rung::Exact {
        String::new()
    } else {
        format!(" ({})", edit_report::rung_phrase(rung))
    };
    let listed: Vec<String> = lines.iter().take(20).map(|l| (l + 1).to_string()).collect();
    ToolError::new(
        Code::AmbiguousMatch,
        format!(
            "{}: its context and removed lines match {} places in {shown}{how}, at lines {}; a hunk must match exactly one.",
            which(index, hunks, shown),
            lines.len(),
            listed.join(", ")
        ),
    )
    .with("path", shown)
    .with("hunk", index)
    .with("count", lines.len())
    .with("lines", lines.iter().map(|l| l + 1).collect::<Vec<_>>())
    .hint(format!(
        "Add context lines around the change, or an `@@ TEXT` line naming a line above it (a function's signature), so the hunk matches only the place you mean. {NOTHING}"
    ))
}

#[derive(Serialize)]
struct FileData {
    path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<String>,
    action: &'static str,
    added: u64,
    removed: u64,
    /// The rung that placed each hunk (edit's names).
    #[serde(rename = "match")]
    matched: Vec<&'static str>,
    /// The syntax check of the file (SPEC 26.5), when its language is built in.
    #[serde(skip_serializing_if = "Option::is_none")]
    syntax: Option<serde_json::Value>,
}

#[derive(Serialize)]
struct Data {
    files: Vec<FileData>,
    diff: String,
}

pub fn success(planned: &[Planned]) -> Success {
    let mut head = format!(
        "Applied the patch: {} file{}\n",
        planned.len(),
        if planned.len() == 1 { "" } else { "s" }
    );
    let mut files = Vec::new();
    let mut diffs = String::new();
    let mut listing: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    for p in planned {
        let shown = p.target.shown.as_str();
        let from = p.from.as_ref().map(|f| f.shown.clone());
        head.push_str(&match (p.action, &from) {
            (Action::Add, _) => format!("A {shown}\n"),
            (Action::Delete, _) => format!("D {shown}\n"),
            (Action::Move, Some(f)) => format!("R {f} -> {shown}\n"),
            _ => format!("M {shown}\n"),
        });
        let (a, b) = match (p.action, &from) {
            (Action::Add, _) => ("/dev/null".to_string(), format!("b/{shown}")),
            (Action::Delete, _) => (format!("a/{shown}"), "/dev/null".to_string()),
            (_, Some(f)) => (format!("a/{f}"), format!("b/{shown}")),
            _ => (format!("a/{shown}"), format!("b/{shown}")),
        };
        let d = diff::unified_named(&p.old_text, &p.new_text, &a, &b);
        if d.is_empty() && p.action == Action::Move {
            diffs.push_str(&format!("--- {a}\n+++ {b}\n"));
        }
        diffs.push_str(&d);
        let (added, removed) = write::diff_counts(p.old_text.as_bytes(), p.new_text.as_bytes());
        for (i, r) in p.rungs.iter().enumerate() {
            if *r != "exact" {
                notes.push(format!("{shown}, hunk {}: matched {}", i + 1, phrase(r)));
            }
        }
        if !p.changed.is_empty() && p.action != Action::Delete {
            let (lines, _) = edit_report::changed_regions(&p.new_text, &p.changed);
            listing.push(format!("{shown}:"));
            listing.extend(lines);
        }
        let syntax = match (p.action, &p.after) {
            (Action::Delete, _) | (_, None) => None,
            (_, Some(after)) => {
                let old = p.before.as_ref().map(|(b, _)| b.as_slice());
                crate::syntax_check::check(shown, old, after)
            }
        };
        if let Some(l) = syntax
            .as_ref()
            .and_then(|r| crate::syntax_check::line(shown, r))
        {
            notes.push(l);
        }
        files.push(FileData {
            syntax: syntax.as_ref().map(crate::syntax_check::data),
            path: shown.to_string(),
            from,
            action: p.action.name(),
            added,
            removed,
            matched: p.rungs.clone(),
        });
    }
    for n in &notes {
        head.push_str(n);
        head.push('\n');
    }
    let all = listing.len();
    let budget = caps::OTHER - 2_000 - head.chars().count();
    let (text, _) = caps::fit(&listing, budget, |k| {
        (k < all)
            .then(|| "(listing cut; data.diff holds every change, or read the files)".to_string())
    });
    let output = if text.is_empty() {
        head
    } else {
        format!("{head}\n{text}")
    };
    Success::new(
        output,
        serde_json::to_value(Data { files, diff: diffs }).expect("plain data serialises"),
    )
}

fn phrase(rung: &str) -> &'static str {
    match rung {
        "trailing_whitespace" => edit_report::rung_phrase(Rung::TrailingWhitespace),
        "typography" => edit_report::rung_phrase(Rung::Typography),
        "indentation" => edit_report::rung_phrase(Rung::Indentation),
        _ => "loosely",
    }
}
