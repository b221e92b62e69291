//! OpenAI Codex's tools (SPEC 22.6, 24.7), as `codex-rs` defines them (`core/src/tools/spec.rs`
//! and its handlers): `shell` runs an argv as is (and is how Codex models send apply_patch),
//! `shell_command` a script, `update_plan` is the todo list, `list_dir` and `grep_files` are tree
//! and grep with Codex's defaults, `read_file` reads a slice or the block around a line.

mod exec;

use super::Agent::Codex;
use super::{Alias, call_tool, count_field, only_fields, rename_in, str_field};
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::tool::Effect;
use serde_json::{Map, Value, json};

const ESCALATION: &[(&str, &str)] = &[
    (
        "with_escalated_permissions",
        "`with_escalated_permissions` was ignored: run's sandbox is chosen by its `sandbox` field and the --sandbox floor, never lifted by a call",
    ),
    (
        "sandbox_permissions",
        "`sandbox_permissions` was ignored: run's sandbox is chosen by its `sandbox` field and the --sandbox floor, never lifted by a call",
    ),
    (
        "justification",
        "`justification` was ignored: no one is asked to approve a command here",
    ),
];

pub static ALIASES: &[Alias] = &[
    Alias::new("shell", Codex, "run")
        .renames(&[("workdir", "cwd")])
        .ignored(ESCALATION)
        .route(shell_patch)
        .call(shell)
        .effect(Effect::Commands),
    Alias::new("shell_command", Codex, "run")
        .renames(&[("workdir", "cwd")])
        .ignored(ESCALATION)
        .adapt(login),
    Alias::new("update_plan", Codex, "todo")
        .call(update_plan)
        .effect(Effect::Commands),
    // Codex's image viewer: read shows an image as an image (SPEC 22.6).
    Alias::new("view_image", Codex, "read"),
    Alias::new("list_dir", Codex, "tree")
        .adapt(list_dir)
        .renames(&[("dir_path", "path")])
        .call(list_dir_page)
        .effect(Effect::Reads),
    Alias::new("grep_files", Codex, "grep")
        .adapt(grep_files)
        .renames(&[("include", "glob"), ("limit", "head_limit")])
        .fixed(&[("output_mode", "\"files_with_matches\"")]),
    Alias::new("read_file", Codex, "read")
        .claims(|m| m.contains_key("mode") || m.contains_key("indentation"))
        .adapt(read_file),
    Alias::new("exec_command", Codex, "run")
        .ignored(&[exec::SANDBOX_PERMISSIONS, exec::JUSTIFICATION, exec::PREFIX_RULE])
        .call(exec::exec_command)
        .effect(Effect::Commands)
        .description("Runs a command, returning output or a session ID for ongoing interaction. It waits up to `yield_time_ms` (default 10000) for the command to end; one still running answers with `Process running with session ID N`, and write_stdin types into it. Without `tty` stdin and output are pipes (run REPLs unbuffered, e.g. `python3 -u -i`); `tty: true` runs it on a terminal (password prompts, REPLs, pagers), and the wait also ends as soon as the program waits for input. `max_output_tokens` caps the output at about 4 characters a token."),
    Alias::new("write_stdin", Codex, "jobs")
        .call(exec::write_stdin)
        .effect(Effect::Commands)
        .description("Writes characters to an existing exec_command session and returns what it printed since the last call, after waiting up to `yield_time_ms` (default 250) or until it ends. Empty `chars` only polls (waiting 5 s to 5 min)."),
];

/// `shell` {command: argv}: the argv runs as is — `exec` of the words, each quoted, so no
/// shell of ours reads them (`["bash", "-lc", S]` is bash running S). Codex models also send
/// apply_patch this way: `["apply_patch", PATCH]` or `["bash", "-lc", "apply_patch <<'EOF'…"]`
/// is the apply_patch tool (24.7).
fn shell(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    let Value::Object(mut map) = input else {
        return call_tool(ctx, "run", input);
    };
    let argv: Vec<String> = match map.remove("command") {
        Some(Value::Array(words)) => words
            .iter()
            .map(|w| w.as_str().map(String::from))
            .collect::<Option<_>>()
            .ok_or_else(|| {
                ToolError::invalid(
                    "command",
                    "shell: `command` must be an array of strings (the argv)",
                )
            })?,
        Some(Value::String(s)) => {
            return Err(ToolError::invalid(
                "command",
                "shell: `command` is an argv array, not a string",
            )
            .hint(format!(
                "Give [\"bash\", \"-lc\", {s:?}], or use shell_command for a script."
            )));
        }
        _ => {
            return Err(ToolError::invalid(
                "command",
                "shell: field `command` (the argv array) is missing",
            ));
        }
    };
    if argv.is_empty() {
        return Err(ToolError::invalid(
            "command",
            "shell: `command` is an empty argv",
        ));
    }
    let words: Vec<String> = argv.iter().map(|w| crate::shell::quote(w)).collect();
    map.insert("command".into(), json!(format!("exec {}", words.join(" "))));
    call_tool(ctx, "run", Value::Object(map))
}

/// Codex models send apply_patch through `shell` (24.7): `["apply_patch", PATCH]` or
/// `["bash", "-lc", "apply_patch <<'EOF'…"]` is the apply_patch tool. Its paths are relative
/// to the root, so a workdir elsewhere is refused rather than guessed.
fn shell_patch(ctx: &Ctx, map: &Map<String, Value>) -> Result<Option<(&'static str, Value)>> {
    let Some(Value::Array(words)) = map.get("command") else {
        return Ok(None);
    };
    let argv: Option<Vec<String>> = words.iter().map(|w| w.as_str().map(String::from)).collect();
    let Some(patch) = argv.as_deref().and_then(patch_of) else {
        return Ok(None);
    };
    if let Some(cwd) = map.get("cwd").and_then(Value::as_str) {
        let at = crate::sandbox::resolve(ctx, "workdir", cwd)?;
        if at.real != ctx.root_real {
            return Err(ToolError::invalid(
                "workdir",
                format!("shell: apply_patch paths are relative to the root; workdir {} is not the root", at.shown),
            )
            .hint("Give the patch's paths relative to the root and leave workdir out (or set it to the root)."));
        }
    }
    Ok(Some(("apply_patch", json!({"patch": patch}))))
}

/// The patch an argv carries to apply_patch, if it is one.
fn patch_of(argv: &[String]) -> Option<String> {
    match argv {
        [tool, patch] if tool == "apply_patch" || tool == "applypatch" => Some(patch.clone()),
        [shell, flag, script]
            if matches!(shell.rsplit('/').next(), Some("bash" | "sh" | "zsh"))
                && matches!(flag.as_str(), "-lc" | "-c")
                && script.trim_start().starts_with("apply_patch")
                && script.contains("<<") =>
        {
            Some(script.trim_start().to_string())
        }
        _ => None,
    }
}

/// shell_command's `login` (default true in Codex) asks for a login shell; ours is a plain
/// non-interactive bash, so the profile is not read.
fn login(map: &mut Map<String, Value>, warnings: &mut Vec<String>) -> Result<()> {
    if map.remove("login") == Some(Value::Bool(true)) {
        warnings.push(
            "`login` was ignored: commands run in a non-login bash (no profile is read)".into(),
        );
    }
    Ok(())
}

/// update_plan {explanation?, plan: [{step, status}]} is the whole todo list, written.
fn update_plan(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    let Value::Object(mut map) = input else {
        return call_tool(ctx, "todo", input);
    };
    let explanation = map.remove("explanation");
    let Some(Value::Array(plan)) = map.remove("plan") else {
        return Err(ToolError::invalid(
            "plan",
            "update_plan: field `plan` (an array of {step, status}) is missing",
        ));
    };
    only_fields(&map, "update_plan", &["explanation", "plan"])?;
    let mut todos = vec![];
    for (n, item) in plan.iter().enumerate() {
        let Some(item) = item.as_object() else {
            return Err(ToolError::invalid(
                &format!("plan[{n}]"),
                "update_plan: each plan item is {step, status}",
            ));
        };
        if let Some(extra) = item.keys().find(|k| *k != "step" && *k != "status") {
            return Err(ToolError::invalid(
                &format!("plan[{n}].{extra}"),
                format!("update_plan: unknown field `{extra}` (expected step, status)"),
            ));
        }
        todos.push(json!({"content": item.get("step").cloned().unwrap_or(Value::Null), "status": item.get("status").cloned().unwrap_or(Value::Null)}));
    }
    // An error names `todos[n]`: the n-th plan item.
    let mut done = call_tool(ctx, "todo", json!({"action": "write", "todos": todos}))?;
    if let Some(Value::String(why)) =
        explanation.filter(|e| e.as_str().is_some_and(|s| !s.trim().is_empty()))
    {
        done.output = format!("Plan updated: {}\n{}", why.trim(), done.output);
    } else {
        done.output = format!("Plan updated\n{}", done.output);
    }
    Ok(done)
}

/// list_dir: depth 2 and 25 entries unless given (Codex's defaults); `offset` is 1-based.
fn list_dir(map: &mut Map<String, Value>, _: &mut Vec<String>) -> Result<()> {
    map.entry("depth").or_insert(json!(2));
    map.entry("limit").or_insert(json!(25));
    if let Some(off) = count_field(map, "offset")? {
        if off == 0 {
            return Err(ToolError::invalid(
                "offset",
                "list_dir: `offset` is 1-based: the entry number to start from",
            ));
        }
        map.insert("offset".into(), json!(off));
    }
    Ok(())
}

/// list_dir's `offset`: tree draws entries from the first, so the entries before the offset
/// are drawn and then left out.
fn list_dir_page(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    let Value::Object(mut map) = input else {
        return call_tool(ctx, "tree", input);
    };
    let skip = count_field(&map, "offset")?.map_or(0, |o| o.saturating_sub(1));
    map.remove("offset");
    if skip == 0 {
        return call_tool(ctx, "tree", Value::Object(map));
    }
    let limit = count_field(&map, "limit")?.unwrap_or(25);
    map.insert("limit".into(), json!(skip + limit));
    let whole = call_tool(ctx, "tree", Value::Object(map))?;
    let mut seen = 0u64;
    let mut output = String::new();
    for (n, line) in whole.output.lines().enumerate() {
        let entry = n > 0 && line.starts_with(['├', '└', '│', ' ']);
        if entry {
            seen += 1;
            if seen <= skip {
                continue;
            }
        }
        output.push_str(line);
        output.push('\n');
    }
    let mut data = whole.data.into_value(&[]);
    data["offset"] = json!(skip + 1);
    Ok(Success::new(output, data))
}

/// grep_files lists at most 100 files unless `limit` says otherwise.
fn grep_files(map: &mut Map<String, Value>, _: &mut Vec<String>) -> Result<()> {
    map.entry("limit").or_insert(json!(100));
    Ok(())
}

/// Codex's read_file: `mode: "slice"` (the default) is an offset/limit read, and Codex ignores
/// `indentation` there; `mode: "indentation"` reads the block around `indentation.anchor_line`
/// (default `offset`, then 1) — our `around_line` + `indentation` — at most `min(max_lines,
/// limit)` lines, `limit` being 2000 unless given, as Codex caps it.
fn read_file(map: &mut Map<String, Value>, _: &mut Vec<String>) -> Result<()> {
    rename_in(map, "file_path", "path");
    let mode = str_field(map, "mode").map(String::from);
    map.remove("mode");
    match mode.as_deref() {
        None | Some("slice") => {
            map.remove("indentation");
            return Ok(());
        }
        Some("indentation") => {}
        Some(other) => {
            return Err(ToolError::invalid(
                "mode",
                format!("read_file: mode {other:?} is not one of slice, indentation"),
            ));
        }
    }
    let mut opts = match map.remove("indentation") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(o)) => o,
        Some(_) => {
            return Err(ToolError::invalid(
                "indentation",
                "read_file: `indentation` must be an object",
            ));
        }
    };
    let anchor = opts.remove("anchor_line").filter(|a| !a.is_null());
    let offset = map.remove("offset");
    map.insert("around_line".into(), anchor.or(offset).unwrap_or(json!(1)));
    let limit = count_field(map, "limit")?.unwrap_or(CODEX_READ_LIMIT);
    map.remove("limit");
    let max = match opts.remove("max_lines") {
        None | Some(Value::Null) => limit,
        Some(v) => v
            .as_u64()
            .ok_or_else(|| {
                ToolError::invalid(
                    "indentation.max_lines",
                    format!("field `indentation.max_lines` must be a whole number ≥ 1, got {v}"),
                )
            })?
            .min(limit),
    };
    if max != CODEX_READ_LIMIT {
        opts.insert("max_lines".into(), json!(max.min(100_000)));
    }
    map.insert("indentation".into(), Value::Object(opts));
    Ok(())
}

/// Codex's read_file reads at most this many lines unless `limit` says otherwise.
const CODEX_READ_LIMIT: u64 = 2000;

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn apply_patch_is_found_in_both_of_codexs_shell_forms() {
        assert_eq!(
            patch_of(&words(&["apply_patch", "P"])).as_deref(),
            Some("P")
        );
        let s = "apply_patch <<'EOF'\n*** Begin Patch\n*** End Patch\nEOF";
        assert_eq!(patch_of(&words(&["bash", "-lc", s])).as_deref(), Some(s));
        assert_eq!(
            patch_of(&words(&["/bin/bash", "-lc", s])).as_deref(),
            Some(s)
        );
        assert!(patch_of(&words(&["bash", "-lc", "echo apply_patch"])).is_none());
        assert!(patch_of(&words(&["ls", "-la"])).is_none());
    }

    #[test]
    fn read_file_modes_become_ours() {
        let mut m = json!({"file_path": "a.py", "offset": 7, "limit": 40, "mode": "indentation", "indentation": {"max_levels": 1}})
            .as_object().cloned().unwrap();
        read_file(&mut m, &mut vec![]).unwrap();
        assert_eq!(
            Value::Object(m),
            json!({"path": "a.py", "around_line": 7, "indentation": {"max_levels": 1, "max_lines": 40}})
        );
        let mut m = json!({"file_path": "a.py", "offset": 3, "mode": "slice", "indentation": {"max_levels": 2}})
            .as_object()
            .cloned()
            .unwrap();
        read_file(&mut m, &mut vec![]).unwrap();
        assert_eq!(Value::Object(m), json!({"path": "a.py", "offset": 3}));
        let mut m =
            json!({"file_path": "a", "mode": "indentation", "indentation": {"anchor_line": 9}})
                .as_object()
                .cloned()
                .unwrap();
        read_file(&mut m, &mut vec![]).unwrap();
        assert_eq!(
            Value::Object(m),
            json!({"path": "a", "around_line": 9, "indentation": {}})
        );
    }
}
