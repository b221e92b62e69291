//! What an edit call asks for, checked before any file is opened (SPEC §7, 17.2, 22.7, 24.1):
//! string edits (old_string → new_string, maybe `replace_all` or `expected_replacements`) or
//! line edits (`start_line`/`end_line` [+ `expected`], `insert_line`), one edit or an `edits`
//! array of one kind. Every refusal names the field at fault.

use super::apply::Spec;
use super::by_lines::{LineOp, LineSpec};
use super::report;
use super::{EditItem, Input};
use crate::error::{Code, Result, ToolError};

pub enum Plan<'a> {
    Text(Vec<Spec<'a>>),
    Lines(Vec<LineSpec<'a>>),
}

impl Plan<'_> {
    /// Each edit's old_string, for failures that quote it (empty for a line edit).
    pub fn olds(&self) -> Vec<&str> {
        match self {
            Plan::Text(specs) => specs.iter().map(|s| s.old).collect(),
            Plan::Lines(specs) => specs.iter().map(|_| "").collect(),
        }
    }
}

/// The fields one edit may carry, from the call itself or from an item of `edits`.
struct Fields<'a> {
    old: Option<&'a str>,
    new: Option<&'a str>,
    replace_all: Option<bool>,
    expected_replacements: Option<u64>,
    start: Option<u64>,
    end: Option<u64>,
    expected: Option<&'a str>,
    insert: Option<u64>,
}

impl<'a> Fields<'a> {
    fn of_input(i: &'a Input) -> Fields<'a> {
        Fields {
            old: i.old_string.as_deref(),
            new: i.new_string.as_deref(),
            replace_all: i.replace_all,
            expected_replacements: i.expected_replacements,
            start: i.start_line,
            end: i.end_line,
            expected: i.expected.as_deref(),
            insert: i.insert_line,
        }
    }

    fn of_item(e: &'a EditItem) -> Fields<'a> {
        Fields {
            old: e.old_string.as_deref(),
            new: Some(&e.new_string),
            replace_all: e.replace_all,
            expected_replacements: e.expected_replacements,
            start: e.start_line,
            end: e.end_line,
            expected: e.expected.as_deref(),
            insert: e.insert_line,
        }
    }

    fn by_lines(&self) -> bool {
        self.start.is_some()
            || self.end.is_some()
            || self.expected.is_some()
            || self.insert.is_some()
    }

    /// The first field set, of those named.
    fn any_set(&self) -> Option<&'static str> {
        [
            ("old_string", self.old.is_some()),
            ("new_string", self.new.is_some()),
            ("replace_all", self.replace_all.is_some()),
            (
                "expected_replacements",
                self.expected_replacements.is_some(),
            ),
            ("start_line", self.start.is_some()),
            ("end_line", self.end.is_some()),
            ("expected", self.expected.is_some()),
            ("insert_line", self.insert.is_some()),
        ]
        .into_iter()
        .find(|(_, set)| *set)
        .map(|(name, _)| name)
    }
}

pub fn plan(input: &Input) -> Result<Plan<'_>> {
    let single = Fields::of_input(input);
    let Some(items) = &input.edits else {
        return if single.by_lines() {
            Ok(Plan::Lines(vec![line_spec(&single, "", 0, false)?]))
        } else {
            Ok(Plan::Text(vec![text_spec(&single, "", 0, 1, false)?]))
        };
    };
    if let Some(field) = single.any_set() {
        let err = match field {
            "replace_all" | "expected_replacements" => ToolError::invalid(
                field,
                format!("{field} goes inside each item of edits, not beside edits"),
            )
            .hint(format!(
                "Write {{\"edits\": [{{\"old_string\": …, \"new_string\": …, \"{field}\": …}}]}}."
            )),
            _ => ToolError::invalid(
                "edits",
                format!("give either edits or {field} (with its edit's other fields), not both"),
            )
            .hint("For one change give its fields directly; for several, put each in edits."),
        };
        return Err(err);
    }
    if items.is_empty() {
        return Err(ToolError::invalid(
            "edits",
            "edits is empty: give at least one {old_string, new_string}",
        ));
    }
    let fields: Vec<Fields> = items.iter().map(Fields::of_item).collect();
    let lines = fields[0].by_lines();
    if let Some(i) = fields.iter().position(|f| f.by_lines() != lines) {
        return Err(ToolError::invalid(
            "edits",
            format!(
                "edits[0] is a {} edit and edits[{i}] a {} edit: one edits array is all string edits (old_string) or all line edits (start_line, insert_line)",
                if lines { "line" } else { "string" },
                if lines { "string" } else { "line" },
            ),
        )
        .hint("Send the string edits and the line edits in two calls (line numbers as the file is when each call starts)."));
    }
    let total = fields.len();
    if lines {
        let specs = fields
            .iter()
            .enumerate()
            .map(|(i, f)| line_spec(f, &format!("edits[{i}]."), i, true))
            .collect::<Result<_>>()?;
        Ok(Plan::Lines(specs))
    } else {
        let specs = fields
            .iter()
            .enumerate()
            .map(|(i, f)| text_spec(f, &format!("edits[{i}]."), i, total, true))
            .collect::<Result<_>>()?;
        Ok(Plan::Text(specs))
    }
}

fn text_spec<'a>(
    f: &Fields<'a>,
    prefix: &str,
    i: usize,
    total: usize,
    edits_form: bool,
) -> Result<Spec<'a>> {
    let which = report::which(i, total, edits_form);
    let (Some(old), Some(new)) = (f.old, f.new) else {
        let missing = if f.old.is_none() {
            "old_string"
        } else {
            "new_string"
        };
        let err = ToolError::invalid(
            &format!("{prefix}{missing}"),
            if edits_form {
                format!("{which}missing required field `{missing}` (or give start_line or insert_line)")
            } else {
                format!("edit: missing required field `{missing}` (or give `edits`)")
            },
        )
        .hint("Give old_string and new_string, start_line + end_line + new_string, insert_line + new_string, or edits: [{old_string, new_string}].");
        return Err(report::with_index(err, i, edits_form));
    };
    if old.is_empty() {
        let err = ToolError::invalid(
            &format!("{prefix}old_string"),
            format!("{which}old_string is empty: it must name the text to replace"),
        )
        .hint("To create a file use write; to add lines, use insert_line (or put the neighbouring lines in old_string and in new_string with your addition).");
        return Err(report::with_index(err, i, edits_form));
    }
    if old == new {
        let err = ToolError::new(
            Code::NoChange,
            format!(
                "{which}old_string and new_string are identical: the edit would change nothing"
            ),
        )
        .hint("Put the changed text in new_string.");
        return Err(report::with_index(err, i, edits_form));
    }
    let expected = f
        .expected_replacements
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    Ok(Spec {
        old,
        new,
        replace_all: f.replace_all.unwrap_or(false),
        expected,
        hunk: None,
    })
}

fn line_spec<'a>(f: &Fields<'a>, prefix: &str, i: usize, edits_form: bool) -> Result<LineSpec<'a>> {
    let bad = |field: &str, msg: String| {
        report::with_index(
            ToolError::invalid(&format!("{prefix}{field}"), msg),
            i,
            edits_form,
        )
    };
    if f.old.is_some() {
        let with = if f.insert.is_some() {
            "insert_line"
        } else {
            "start_line"
        };
        return Err(bad(
            "old_string",
            format!(
                "give old_string or {with}, not both: an edit finds its place by text or by line number"
            ),
        ));
    }
    for (field, set) in [
        ("replace_all", f.replace_all.is_some()),
        ("expected_replacements", f.expected_replacements.is_some()),
    ] {
        if set {
            return Err(bad(
                field,
                format!("{field} is for old_string edits; a line edit changes the lines it names"),
            ));
        }
    }
    let Some(new) = f.new else {
        return Err(bad(
            "new_string",
            "missing required field `new_string` (the lines' new text, or the lines to insert)"
                .into(),
        ));
    };
    let n = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
    let op = match (f.start, f.insert) {
        (Some(_), Some(_)) => {
            return Err(bad(
                "insert_line",
                "give start_line (to replace lines) or insert_line (to add lines), not both".into(),
            ));
        }
        (None, Some(after)) => {
            if let Some(field) = [
                ("end_line", f.end.is_some()),
                ("expected", f.expected.is_some()),
            ]
            .into_iter()
            .find_map(|(name, set)| set.then_some(name))
            {
                return Err(bad(
                    field,
                    format!("{field} goes with start_line; insert_line replaces no lines"),
                ));
            }
            LineOp::Insert { after: n(after) }
        }
        (Some(start), None) => {
            let end = f.end.unwrap_or(start);
            if end < start {
                return Err(bad(
                    "end_line",
                    format!("end_line {end} is before start_line {start}"),
                ));
            }
            LineOp::Replace {
                start: n(start),
                end: n(end),
                expected: f.expected,
            }
        }
        (None, None) => {
            return Err(bad(
                "start_line",
                "end_line and expected need start_line, the first line to replace".into(),
            ));
        }
    };
    Ok(LineSpec { op, new })
}
