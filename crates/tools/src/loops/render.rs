//! The text a model reads about loops' data: artifacts as short Markdown (SPEC 20.3), capped
//! like every output (SPEC 4) with a last line that says where the rest is.

use serde_json::Value;

/// `text` cut to the output cap after its last whole line, saying so; and whether it was cut.
pub fn cap(text: &str, rest: &str) -> (String, bool) {
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let total = lines.len();
    let (out, k) = crate::caps::fit(&lines, crate::caps::OTHER, |k| {
        (k < total).then(|| format!("[output cut after {k} of {total} lines; {rest}]"))
    });
    (out, k < total)
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn items<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// An artifact as stored (`kind`, `name`, and its kind's fields), as Markdown.
pub fn markdown(a: &Value) -> String {
    let kind = s(a, "kind");
    let mut out = format!(
        "# {} `{}`: {}\n\n",
        match kind {
            "plan" => "Plan",
            "spec" => "Spec",
            _ => "Phase",
        },
        s(a, "name"),
        s(a, "title")
    );
    match kind {
        "plan" => {
            out.push_str(&format!("{}\n\n## Specs\n\n", s(a, "overview")));
            for (i, spec) in items(a, "specs").iter().enumerate() {
                let deps: Vec<&str> = items(spec, "dependencies")
                    .iter()
                    .filter_map(Value::as_str)
                    .collect();
                let after = match deps.is_empty() {
                    true => String::new(),
                    false => format!(" (after {})", deps.join(", ")),
                };
                out.push_str(&format!(
                    "{}. `{}`: {}{after}\n   {}\n",
                    i + 1,
                    s(spec, "name"),
                    s(spec, "title"),
                    one_line(s(spec, "description"))
                ));
            }
        }
        "spec" => {
            out.push_str(&format!("{}\n\n## Phases\n\n", s(a, "overview")));
            for (i, phase) in items(a, "phases").iter().enumerate() {
                out.push_str(&format!(
                    "{}. `{}`: {}\n   {}\n",
                    i + 1,
                    s(phase, "name"),
                    s(phase, "title"),
                    one_line(s(phase, "description"))
                ));
                if let Some(v) = phase.get("validation").and_then(Value::as_str) {
                    out.push_str(&format!("   Validation: {}\n", one_line(v)));
                }
            }
        }
        _ => {
            out.push_str(&format!("Objective: {}\n\n## Tasks\n\n", s(a, "objective")));
            for (i, task) in items(a, "tasks").iter().enumerate() {
                let what = match (
                    task.get("action").and_then(Value::as_str),
                    task.get("file").and_then(Value::as_str),
                ) {
                    (Some(action), Some(file)) => format!("[{action} `{file}`] "),
                    (None, Some(file)) => format!("[`{file}`] "),
                    _ => String::new(),
                };
                out.push_str(&format!(
                    "{}. {what}{}\n",
                    i + 1,
                    one_line(s(task, "description"))
                ));
            }
            out.push_str(&format!("\nValidation: `{}`\n", s(a, "validation_command")));
        }
    }
    out
}

/// Text on one line (a description's newlines would break the numbered list).
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
