//! What edit says: the changed region numbered as read shows it, the diff, and failures that
//! carry the fix (SPEC §7, 16.1).

use super::apply::{Failure, Outcome};
use super::closest::{self, Diff};
use super::encode::Doc;
use super::lines::LineIndex;
use super::matching::Rung;
use crate::caps;
use crate::envelope::Success;
use crate::error::{Code, ToolError};
use crate::text::Line;
use memchr::{memchr, memrchr};
use serde_json::{Value, json};

/// Lines of context around each changed region in `output` (as in the diff).
const CONTEXT: usize = 3;
/// Room kept under the cap for the header and warnings that follow the numbered lines.
const RESERVE: usize = 2_000;
/// Occurrences of an ambiguous match shown in `output` (`lines` holds them all).
const SHOWN_OCCURRENCES: usize = 20;

/// `edit 2 of 3 (edits[1]): ` for the edits form, nothing for one edit.
pub fn which(index: usize, total: usize, edits_form: bool) -> String {
    if edits_form {
        format!("edit {} of {total} (edits[{index}]): ", index + 1)
    } else {
        String::new()
    }
}

/// Names the failing edit, and says that (all or nothing) none was applied.
pub fn with_index(mut err: ToolError, index: usize, edits_form: bool) -> ToolError {
    if !edits_form {
        return err;
    }
    let none = "None of the edits was applied; fix this one and send them all again.";
    err.hint = Some(match err.hint.take() {
        Some(h) => format!("{h} {none}"),
        None => none.to_string(),
    });
    err.with("edit_index", index)
}

/// Lines `first..=last` (0-based) in read's format — number, tab, the line cut at 2,000
/// characters — found from byte `anchor` on line `anchor_line`, so that only the lines shown
/// are looked at, not the whole (maybe 10 MB) text.
fn numbered(text: &str, anchor: (usize, usize), first: usize, last: usize) -> Vec<String> {
    let (pos, anchor_line) = anchor;
    let b = text.as_bytes();
    let mut start = memrchr(b'\n', &b[..pos]).map_or(0, |i| i + 1);
    for _ in first..anchor_line {
        start = memrchr(b'\n', &b[..start.saturating_sub(1)]).map_or(0, |i| i + 1);
    }
    let mut out = Vec::with_capacity(last + 1 - first);
    for i in first..=last {
        let (end, next) = match memchr(b'\n', &b[start..]) {
            Some(e) if e > 0 && b[start + e - 1] == b'\r' => (start + e - 1, start + e + 1),
            Some(e) => (start + e, start + e + 1),
            None => (b.len(), b.len()),
        };
        out.push(format!("{:>6}\t{}", i + 1, shown_line(&text[start..end])));
        start = next;
    }
    out
}

fn shown_line(content: &str) -> String {
    let chars = content.chars().count();
    let text = match content.char_indices().nth(crate::text::MAX_LINE_CHARS) {
        Some((cut, _)) => content[..cut].to_string(),
        None => content.to_string(),
    };
    Line { text, chars }.display()
}

pub fn rung_phrase(rung: Rung) -> &'static str {
    match rung {
        Rung::Exact => "exactly",
        Rung::TrailingWhitespace => "ignoring trailing whitespace",
        Rung::Typography => "with curly quotes, dashes and odd spaces folded to ASCII",
        Rung::Indentation => "ignoring a consistent difference in indentation",
        Rung::LineNumbers => "once the line-number prefixes copied from read were dropped",
        Rung::Unescaped => "once old_string, escaped twice, was unescaped",
        Rung::Lines => "by line numbers",
    }
}

/// Changed lines (0-based, inclusive), and a byte on the first; a removal marks the line
/// where it happened. Changes come in order, so line_of counts on from the last one.
fn spans_of(text: &str, idx: &LineIndex, changed: &[(usize, usize)]) -> Vec<Span> {
    let last_line = idx.count().saturating_sub(1);
    changed
        .iter()
        .map(|&(a, b)| {
            let anchor = a.min(text.len().saturating_sub(1));
            let first = idx.line_of(anchor).min(last_line);
            let last = if b > a { idx.line_of(b - 1) } else { first };
            Span {
                first,
                last: last.max(first),
                anchor: (anchor, first),
            }
        })
        .collect()
}

/// The changed regions of `text` (byte ranges of new text) with context, numbered as read
/// shows them (apply_patch shows its files so), and the first changed line (1-based).
pub fn changed_regions(text: &str, changed: &[(usize, usize)]) -> (Vec<String>, usize) {
    let idx = LineIndex::new(text);
    let spans = spans_of(text, &idx, changed);
    let first_line = spans.iter().map(|s| s.first).min().unwrap_or(0) + 1;
    (listing(text, &idx, &spans), first_line)
}

pub fn success(shown: &str, old: &str, out: &Outcome, edits_form: bool, dry_run: bool) -> Success {
    let text = out.text();
    let idx = LineIndex::new(text);
    let spans = spans_of(text, &idx, &out.changed);
    let first_line = spans.iter().map(|s| s.first).min().unwrap_or(0) + 1;
    let last_line_changed = spans.iter().map(|s| s.last).max().unwrap_or(0) + 1;
    let replacements: usize = out.applied.iter().map(|a| a.count).sum();
    let diff_text = super::diff::unified(old, text, shown);

    let mut notes = Vec::new();
    let total = out.applied.len();
    for (i, a) in out.applied.iter().enumerate() {
        if matches!(a.rung, Rung::Exact | Rung::Lines) {
            continue;
        }
        let mut note = format!(
            "{}matched {}",
            which(i, total, edits_form),
            rung_phrase(a.rung)
        );
        if let Some(m) = &a.indent {
            note.push_str(&format!(
                ": {}; new_string was re-indented to match",
                m.describe()
            ));
        }
        note.push('.');
        notes.push(capitalise(note));
    }

    let (output, truncated) = if dry_run {
        let lines: Vec<String> = diff_text.lines().map(str::to_string).collect();
        let all = lines.len();
        let (text, k) = caps::fit(&lines, caps::OTHER - RESERVE, |k| {
            (k < all).then(|| {
                format!("(diff cut at {k} of {all} lines; data.diff holds the whole diff)")
            })
        });
        (text, k < all)
    } else {
        let plural = if replacements == 1 { "" } else { "s" };
        let mut head = format!("Edited {shown}: {replacements} replacement{plural}\n");
        for n in &notes {
            head.push_str(n);
            head.push('\n');
        }
        let listing = listing(text, &idx, &spans);
        let all = listing.len();
        let budget = caps::OTHER - RESERVE - head.chars().count();
        let (text, k) = caps::fit(&listing, budget, |k| {
            (k < all).then(|| {
                format!("(listing cut; read {shown} from line {first_line} to see the rest of the change)")
            })
        });
        (head + &text, k < all)
    };
    let matched: Value = if edits_form {
        out.applied
            .iter()
            .map(|a| Value::from(a.rung.name()))
            .collect()
    } else {
        Value::from(out.applied[0].rung.name())
    };
    let mut data = json!({
        "path": shown,
        "replacements": replacements,
        "first_line": first_line,
        "last_line": last_line_changed,
        "diff": diff_text,
        "dry_run": dry_run,
        "match": matched,
    });
    if truncated {
        data["truncated"] = Value::Bool(true);
    }
    Success::new(output, data)
}

fn capitalise(s: String) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => s,
    }
}

struct Span {
    first: usize,
    last: usize,
    /// A byte on line `first`, and that line.
    anchor: (usize, usize),
}

/// The changed lines with context, numbered; `...` between regions that are apart.
fn listing(text: &str, idx: &LineIndex, spans: &[Span]) -> Vec<String> {
    let n = idx.count();
    if n == 0 {
        return vec!["(the file is now empty)".to_string()];
    }
    let mut ranges: Vec<(usize, usize, (usize, usize))> = spans
        .iter()
        .map(|s| {
            let (a, b) = (
                s.first.saturating_sub(CONTEXT),
                (s.last + CONTEXT).min(n - 1),
            );
            (a, b, s.anchor)
        })
        .collect();
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize, (usize, usize))> = Vec::new();
    for (a, b, anchor) in ranges {
        match merged.last_mut() {
            Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
            _ => merged.push((a, b, anchor)),
        }
    }
    let mut out = Vec::new();
    for (j, (a, b, anchor)) in merged.into_iter().enumerate() {
        if j > 0 {
            out.push("   ...".to_string());
        }
        out.extend(numbered(text, anchor, a, b));
    }
    out
}

/// How a hint tells the model to read the file again: `Read a.txt`, with the read tool as this
/// call's model has it where that is not our `read` (SPEC 25.5).
pub fn read_again(shown: &str, read: Option<&crate::offered::Named>) -> String {
    match read {
        Some(r) if r.name != "read" => {
            format!("Read {shown} ({})", r.call(None, &[("path", shown)]))
        }
        _ => format!("Read {shown}"),
    }
}

/// The error for a failed plan: message (with the numbered lines that help), hint and fields.
/// `olds`: each edit's old_string (empty for a line edit); `read`: `read_again`'s words.
pub fn failure(
    f: Failure,
    shown: &str,
    olds: &[&str],
    edits_form: bool,
    doc: &Doc,
    read: &str,
) -> ToolError {
    let total = olds.len();
    let pre = |i: usize| which(i, total, edits_form);
    let field = |i: usize, name: &str| {
        if edits_form {
            format!("edits[{i}].{name}")
        } else {
            name.to_string()
        }
    };
    match f {
        Failure::NoMatch {
            index,
            closest,
            already,
        } => {
            let old = olds[index];
            let mut msg = format!(
                "{}old_string was not found in {shown}, not even ignoring trailing whitespace, typography or indentation.",
                pre(index)
            );
            let mut hints = causes(old);
            if let Some((a, b)) = already {
                hints.push(format!(
                    "new_string already stands at {}: this edit looks already applied. {read} before trying again.",
                    line_range(a, b)
                ));
            }
            let closest_json = match &closest {
                Some(c) => {
                    msg.push_str(&closest_block(c));
                    if already.is_none() {
                        hints.push(what_differs(c, old));
                    }
                    closest_value(c)
                }
                None => {
                    msg.push_str(if doc.text.is_empty() {
                        "\nThe file is empty."
                    } else {
                        "\nNo region of the file resembles it."
                    });
                    hints.push(format!(
                        "{read} to find the text you mean; check that it is the right file."
                    ));
                    Value::Null
                }
            };
            let err = ToolError::new(Code::NoMatch, msg)
                .with("path", shown)
                .with("closest", closest_json)
                .hint(hints.join(" "));
            with_index(err, index, edits_form)
        }
        Failure::Ambiguous {
            index,
            rung,
            lines,
            previews,
        } => {
            let count = lines.len();
            let how = if rung == Rung::Exact {
                String::new()
            } else {
                format!(" ({})", rung_phrase(rung))
            };
            let mut listed: Vec<String> = lines
                .iter()
                .take(SHOWN_OCCURRENCES)
                .map(|l| (l + 1).to_string())
                .collect();
            if count > SHOWN_OCCURRENCES {
                listed.push(format!("and {} more", count - SHOWN_OCCURRENCES));
            }
            let mut msg = format!(
                "{}old_string matches {count} places in {shown}{how}, at lines {}; it must match exactly one.",
                pre(index),
                listed.join(", ")
            );
            // each occurrence's first line, as read shows it, within half the output cap
            let shown_lines: Vec<String> = lines
                .iter()
                .zip(&previews)
                .take(SHOWN_OCCURRENCES)
                .map(|(l, p)| format!("{:>6}\t{}", l + 1, shown_line(p)))
                .collect();
            let (text, _) = caps::fit(&shown_lines, caps::OTHER / 2, |k| {
                (k < count).then(|| format!("(and {} more)", count - k))
            });
            msg.push('\n');
            msg.push_str(text.trim_end_matches('\n'));
            let all = if edits_form {
                "set replace_all: true on this edit"
            } else {
                "set replace_all: true"
            };
            let err = ToolError::new(Code::AmbiguousMatch, msg)
                .with("path", shown)
                .with("count", count)
                .with("lines", lines.iter().map(|l| l + 1).collect::<Vec<_>>())
                .hint(format!(
                    "Include more of the surrounding lines in old_string so that it matches only the place you mean, or {all} to replace all {count}."
                ));
            with_index(err, index, edits_form)
        }
        Failure::Count {
            index,
            expected,
            rung,
            lines,
        } => {
            let count = lines.len();
            let how = if rung == Rung::Exact {
                String::new()
            } else {
                format!(" ({})", rung_phrase(rung))
            };
            let at: Vec<String> = lines
                .iter()
                .take(SHOWN_OCCURRENCES)
                .map(|l| (l + 1).to_string())
                .collect();
            let (code, hint) = if count > expected {
                (
                    Code::AmbiguousMatch,
                    "Include more of the surrounding lines in old_string so that it matches only the places you mean, or set expected_replacements to the count found.",
                )
            } else {
                (
                    Code::NoMatch,
                    "Read the file to see how many places hold old_string, then set expected_replacements to that count (or widen old_string).",
                )
            };
            let err = ToolError::new(
                code,
                format!(
                    "{}old_string was found {count} time{} in {shown}{how} (at line{} {}), but expected_replacements is {expected}; nothing was replaced",
                    pre(index),
                    if count == 1 { "" } else { "s" },
                    if count == 1 { "" } else { "s" },
                    at.join(", ")
                ),
            )
            .with("path", shown)
            .with("count", count)
            .with("expected", expected)
            .with("lines", lines.iter().map(|l| l + 1).collect::<Vec<_>>())
            .hint(hint);
            with_index(err, index, edits_form)
        }
        Failure::Range {
            index,
            field: name,
            value,
            count,
        } => {
            let what = if name == "insert_line" {
                format!("insert_line {value} is past the end of {shown}, which has {count} line{} (insert_line 0 inserts before the first line, {count} after the last)", plural(count))
            } else {
                format!("{name} {value} is outside {shown}, which has {count} line{} (lines are numbered from 1, as read numbers them)", plural(count))
            };
            with_index(
                ToolError::invalid(&field(index, name), format!("{}{what}", pre(index)))
                    .with("path", shown)
                    .with("line_count", count)
                    .hint(format!("{read} again to see its lines as they are now.")),
                index,
                edits_form,
            )
        }
        Failure::Overlap { index, other } => with_index(
            ToolError::invalid(
                "edits",
                format!("edits[{index}] touches lines that edits[{other}] also changes: line edits of one call may not overlap"),
            )
            .hint("Merge the two into one edit of the whole range."),
            index,
            edits_form,
        ),
        Failure::Expected {
            index,
            first,
            last,
            text,
            similarity,
        } => {
            let c = closest::Closest {
                first,
                last,
                similarity,
                text,
            };
            let mut msg = format!(
                "{}{} of {shown} do not hold the expected text; nothing was changed.",
                pre(index),
                line_range(first, last)
            );
            msg.push_str(&closest_block(&c).replace("The most similar region is", "As they are now,"));
            with_index(
                ToolError::new(Code::NoMatch, msg)
                    .with("path", shown)
                    .with("closest", closest_value(&c))
                    .hint(format!(
                        "The file changed since you read it, or the line numbers are off. {read} again and use its current line numbers."
                    )),
                index,
                edits_form,
            )
        }
        Failure::Anchor { index, anchor } => with_index(
            ToolError::new(
                Code::NoMatch,
                format!("{}the anchor `{anchor}` is on no line of {shown}", pre(index)),
            )
            .with("path", shown)
            .with("closest", Value::Null),
            index,
            edits_form,
        ),
        Failure::Unencodable { index, old, ch } => {
            let name = if old { "old_string" } else { "new_string" };
            let err = ToolError::invalid(
                &field(index, name),
                format!(
                    "{}{name} contains {ch:?} (U+{:04X}), which {} cannot hold; {shown} is kept in its own encoding",
                    pre(index),
                    ch as u32,
                    doc.name
                ),
            )
            .hint(format!(
                "Use only characters that {} can represent (or an escape your language allows); to change the file's encoding, rewrite it whole with write.",
                doc.name
            ));
            with_index(err, index, edits_form)
        }
        Failure::Stopped { .. } => ToolError::cancelled("edit"),
        Failure::TooLarge { index, size } => with_index(
            ToolError::too_large(super::apply::MAX_RESULT, format!(
                    "{}the edit would make {shown} {size} bytes; edit leaves files of at most {} bytes (64 MiB), so nothing was written",
                    pre(index),
                    super::apply::MAX_RESULT
                ))
            .with("path", shown)
            .hint("Check replace_all and new_string: the change multiplies the file's size."),
            index,
            edits_form,
        ),
        Failure::Unmappable => ToolError::invalid(
            &field(0, "old_string"),
            format!(
                "the edit would begin or end inside bytes of {shown} that {} cannot decode (shown as U+FFFD), and writing it would change bytes outside the replaced text",
                doc.name
            ),
        )
        .hint("Make old_string cover whole lines around the undecodable bytes."),
    }
}

/// `closest` as the error carries it.
pub fn closest_value(c: &closest::Closest) -> Value {
    json!({
        "start_line": c.first + 1,
        "end_line": c.last + 1,
        "text": c.text,
        "similarity": c.similarity,
    })
}

/// The closest region for a message: a heading line and its lines numbered as read shows them,
/// within half the output cap.
pub fn closest_block(c: &closest::Closest) -> String {
    let mut msg = format!(
        "\nThe most similar region is {} (similarity {:.2}):",
        line_range(c.first, c.last),
        c.similarity
    );
    let lines: Vec<String> = c
        .text
        .split('\n')
        .enumerate()
        .map(|(j, l)| {
            let l = l.strip_suffix('\r').unwrap_or(l);
            format!("{:>6}\t{}", c.first + j + 1, shown_line(l))
        })
        .collect();
    let all = lines.len();
    let (text, _) = caps::fit(&lines, caps::OTHER / 2, |k| {
        (k < all).then(|| {
            format!(
                "(region cut; it goes on to line {}: read from line {})",
                c.last + 1,
                c.first + k + 1
            )
        })
    });
    msg.push('\n');
    msg.push_str(text.trim_end_matches('\n'));
    msg
}

/// What no rung could forgive but the model can fix at once (17.1): prefixes copied from a
/// read whose numbers are not the lines, and text escaped twice.
pub fn causes(old: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some((first, _, _)) = super::rescue::strip_numbers(old, "") {
        out.push(format!(
            "old_string's lines start with line-number prefixes copied from read's output (`{first:>6}\\t` …), and the text without them is not at those lines. Drop the prefixes: old_string is the file's text only."
        ));
    }
    if super::rescue::over_escaped(old) {
        out.push("old_string looks escaped twice: it holds `\\n` or `\\\"` as two characters, and even unescaped it was not found. Send real newlines and quotes (escape them once, as JSON requires).".to_string());
    }
    out
}

pub fn line_range(a: usize, b: usize) -> String {
    if a == b {
        format!("line {}", a + 1)
    } else {
        format!("lines {}-{}", a + 1, b + 1)
    }
}

/// The hint's account of the closest region: each kind of difference, then how to fix it.
pub fn what_differs(c: &closest::Closest, old: &str) -> String {
    let (kinds, first) = closest::differences(&c.text, old);
    let mut parts: Vec<String> = Vec::new();
    for k in &kinds {
        parts.push(match k {
            Diff::TabsVsSpaces => {
                "tabs vs spaces in the indentation, not by one consistent mapping".to_string()
            }
            Diff::Whitespace => {
                "whitespace (inside the lines, or indentation that does not shift every line alike)"
                    .to_string()
            }
            Diff::LineEndings => {
                "line endings (the file's lines end differently from old_string's)".to_string()
            }
            Diff::Typography => "quotes, dashes or other typographic characters".to_string(),
            Diff::Text => match &first {
                Some((j, file, mine)) => format!(
                    "the text itself: line {} reads `{}` where old_string has `{}`",
                    c.first + j + 1,
                    clip(file),
                    clip(mine)
                ),
                None => "the text itself (a different number of lines)".to_string(),
            },
        });
    }
    let range = line_range(c.first, c.last);
    if parts.is_empty() {
        return format!(
            "Copy old_string exactly from a fresh read of {range}, without the line-number prefix."
        );
    }
    format!(
        "The closest region ({range}) differs from old_string in {}. Copy old_string exactly from a fresh read of {range}, without the line-number prefix.",
        parts.join("; ")
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn clip(s: &str) -> String {
    const MAX: usize = 80;
    match s.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The listing found from anchors equals one read off a full table of lines, at the
    /// edges too: first and last lines, CRLF, no final newline, a removal at the very end.
    #[test]
    fn listing_from_anchors_equals_a_full_table() {
        let texts = [
            "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n",
            "a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng",
            "only",
            "x\n\n\ny\n",
        ];
        for text in texts {
            let idx = LineIndex::new(text);
            let n = idx.count();
            for a in 0..=text.len() {
                for b in [a, (a + 3).min(text.len())] {
                    if !text.is_char_boundary(a) || !text.is_char_boundary(b) {
                        continue;
                    }
                    let anchor = a.min(text.len() - 1);
                    let first = idx.line_of(anchor).min(n - 1);
                    let last = if b > a { idx.line_of(b - 1) } else { first };
                    let span = Span {
                        first,
                        last: last.max(first),
                        anchor: (anchor, first),
                    };
                    let got = listing(text, &LineIndex::new(text), &[span]);
                    let table = LineIndex::new(text);
                    let (lo, hi) = (first.saturating_sub(CONTEXT), (last + CONTEXT).min(n - 1));
                    let want: Vec<String> = (lo..=hi)
                        .map(|i| format!("{:>6}\t{}", i + 1, table.content(text, i)))
                        .collect();
                    assert_eq!(got, want, "{text:?} {a}..{b}");
                }
            }
        }
    }
}
