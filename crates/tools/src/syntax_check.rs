//! The syntax check after a change (SPEC 26.5): write, edit, apply_patch and rewrite parse the
//! file before and after when its language is built in. A change that adds errors still lands
//! (the model may be mid-refactor), but the output says where the first new one is; a change
//! that adds none says nothing. `data.syntax` holds `{before, after, first_error}`.
//!
//! Two parses of a 2,000-line file cost about 2–4 ms (bench/symbols.sh); files over 4 MiB or
//! nested too deep are not checked.

use crate::envelope::Success;
use loopr_syntax::{Lang, check};
use serde_json::{Value, json};
use std::path::Path;

/// The check of one file's change; `None` when its language is not built in or it was skipped.
pub fn check(shown: &str, old: Option<&[u8]>, new: &[u8]) -> Option<check::Report> {
    let lang = Lang::detect(Path::new(shown), new)?;
    check::compare(lang, old, new)
}

/// `data.syntax` of a report.
pub fn data(r: &check::Report) -> Value {
    let first = r
        .first_new
        .as_ref()
        .map(|e| json!({"line": e.line, "column": e.column}));
    json!({"before": r.before, "after": r.after, "first_error": first})
}

/// The line `output` gains when the change added errors.
pub fn line(shown: &str, r: &check::Report) -> Option<String> {
    let e = r.first_new.as_ref()?;
    let text: String = e.text.trim().chars().take(200).collect();
    Some(format!(
        "Syntax: {shown} now has {} syntax error{} ({} before); the first new one is at line {}, column {}: {text}",
        r.after,
        if r.after == 1 { "" } else { "s" },
        r.before,
        e.line,
        e.column
    ))
}

/// Adds the check of `shown` to a one-file result: `data.syntax`, and the line when it matters.
pub fn attach(success: Success, shown: &str, old: Option<&[u8]>, new: &[u8]) -> Success {
    let Some(r) = check(shown, old, new) else {
        return success;
    };
    let mut data = success.data.into_value(&[]);
    if let Value::Object(m) = &mut data {
        m.insert("syntax".into(), self::data(&r));
    }
    let mut output = success.output;
    if let Some(l) = line(shown, &r) {
        output.push_str(&l);
        output.push('\n');
    }
    Success::new(output, data)
}
