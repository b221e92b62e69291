//! Claude Code's tools (SPEC 16.10, 22.5), with the meaning its own package gives them
//! (`@anthropic-ai/claude-code` 2.0.77: `cli.js` and `sdk-tools.d.ts`), not only its field
//! names: Grep searches hidden files, splits `glob` lists and counts `head_limit` in lines; Glob
//! lists oldest first, hidden and ignored files included; Bash keeps its directory; TaskOutput
//! waits; TodoWrite takes several items in progress; MultiEdit may create its file.

use super::Agent::ClaudeCode;
use super::seeds::{NO_SANDBOX, PROMPT, RUN_RENAMES};
use super::{Alias, call_tool, count_field, edit_creates, missing_file, only_fields};
use crate::catalog::Admission;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::state::StateLock;
use crate::tool::parse_input;
use crate::tools::{run, todo};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

pub static ALIASES: &[Alias] = &[
    Alias::new("Read", ClaudeCode, "read").adapt(read_from_zero),
    Alias::new("Write", ClaudeCode, "write"),
    Alias::new("Edit", ClaudeCode, "edit").route(edit_creates),
    Alias::new("MultiEdit", ClaudeCode, "edit")
        .call(multi_edit)
        .runs(multi_edit_runs),
    Alias::new("NotebookEdit", ClaudeCode, "notebook_edit").renames(&[("notebook_path", "path")]),
    Alias::new("Glob", ClaudeCode, "glob").adapt(glob),
    Alias::new("Grep", ClaudeCode, "grep")
        .adapt(grep)
        .call(grep_lines),
    Alias::new("WebFetch", ClaudeCode, "fetch").ignored(&[PROMPT]),
    Alias::new("WebSearch", ClaudeCode, "search"),
    Alias::new("TodoWrite", ClaudeCode, "todo")
        .fixed(&[("action", "\"write\"")])
        .call(todo_write),
    Alias::new("Bash", ClaudeCode, "run")
        .renames(RUN_RENAMES)
        .ignored(&[NO_SANDBOX])
        .call(bash),
    // Without an offset, BashOutput shows what is new since its last call (SPEC 16.10).
    Alias::new("BashOutput", ClaudeCode, "jobs")
        .renames(&[("bash_id", "id"), ("timeout", "timeout_ms")])
        .fixed(&[("action", "\"output\""), ("since_last", "true")]),
    Alias::new("TaskOutput", ClaudeCode, "jobs")
        .adapt(task_output)
        .renames(&[("task_id", "id"), ("timeout", "timeout_ms")])
        .fixed(&[("action", "\"output\"")]),
    Alias::new("KillShell", ClaudeCode, "jobs")
        .renames(&[("shell_id", "id")])
        .fixed(&[("action", "\"kill\"")]),
    Alias::new("KillBash", ClaudeCode, "jobs")
        .renames(&[("shell_id", "id")])
        .fixed(&[("action", "\"kill\"")]),
    Alias::new("TaskStop", ClaudeCode, "jobs")
        .renames(&[("task_id", "id")])
        .fixed(&[("action", "\"kill\"")]),
    // Asks the person and waits, as ask_user does: a call that talks, never queued (24.7).
    Alias::new("AskUserQuestion", ClaudeCode, "ask_user")
        .call(ask_user_question)
        .effect(crate::tool::Effect::Talks),
    // documentSymbol, goToDefinition, findReferences, workspaceSymbol from syntax trees
    // (SPEC 26.2): no language server; `line` and `character` are 1-based, as Claude Code's.
    Alias::new("LSP", ClaudeCode, "symbols")
        .renames(&[("filePath", "path")])
        .call(lsp)
        .effect(crate::tool::Effect::Reads),
];

fn lsp(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    crate::tools::symbols::aliases::lsp(ctx, input)
}

/// Read's `offset: 0` is the first line, as Claude Code reads it (22.5); ours refuses 0.
fn read_from_zero(map: &mut Map<String, Value>, _: &mut Vec<String>) -> Result<()> {
    if map.get("offset").and_then(Value::as_f64) == Some(0.0) {
        map.insert("offset".into(), Value::from(1));
    }
    Ok(())
}

/// Glob runs `rg --files --glob P --sort=modified --no-ignore --hidden`: oldest first, hidden
/// and ignored files listed, case-sensitive, at most 100.
fn glob(map: &mut Map<String, Value>, _: &mut Vec<String>) -> Result<()> {
    for (field, value) in [
        ("sort", json!("oldest")),
        ("hidden", json!(true)),
        ("no_ignore", json!(true)),
    ] {
        map.entry(field).or_insert(value);
    }
    Ok(())
}

/// Grep runs rg with `--hidden`; `-C` is passed instead of `-A`/`-B` when given; `glob` is
/// split on whitespace, then on commas outside braces (`"*.py,*.js"`, `"*.{ts,tsx} *.md"`).
fn grep(map: &mut Map<String, Value>, _: &mut Vec<String>) -> Result<()> {
    map.entry("hidden").or_insert(json!(true));
    if map.get("-C").is_some_and(|c| !c.is_null()) {
        map.remove("-A");
        map.remove("-B");
    }
    if let Some(Value::String(g)) = map.get("glob") {
        let globs = split_globs(g);
        map.insert(
            "glob".into(),
            match globs.len() {
                1 => json!(globs[0]),
                _ => json!(globs),
            },
        );
    }
    Ok(())
}

/// Claude Code's split of Grep's `glob`: on whitespace; a part with braces is kept whole, the
/// others are split on commas; empty parts dropped.
pub fn split_globs(given: &str) -> Vec<String> {
    let mut out = vec![];
    for part in given.split_whitespace() {
        if part.contains('{') && part.contains('}') {
            out.push(part.to_string());
        } else {
            out.extend(part.split(',').filter(|p| !p.is_empty()).map(String::from));
        }
    }
    if out.is_empty() {
        out.push(given.to_string()); // grep says what is wrong with it
    }
    out
}

/// Grep's `head_limit` and `offset` count lines of output, as `| tail -n +N | head -N`, and no
/// `head_limit` means all of them. In files and count modes, and in content mode without
/// context lines or multiline matches, a line is one of our entries: our own paging does it.
/// Otherwise the lines are cut from the whole output.
fn grep_lines(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    let Value::Object(mut map) = input else {
        return call_tool(ctx, "grep", input);
    };
    let content = map.get("output_mode").and_then(Value::as_str) == Some("content");
    let context = ["-A", "-B", "-C"]
        .iter()
        .any(|f| map.get(*f).and_then(Value::as_u64).is_some_and(|n| n > 0));
    let multiline = map.get("multiline") == Some(&Value::Bool(true));
    if !(content && (context || multiline)) {
        if map.get("head_limit").is_none_or(Value::is_null) {
            map.insert("head_limit".into(), json!(0));
        }
        return call_tool(ctx, "grep", Value::Object(map));
    }
    let head = count_field(&map, "head_limit")?.filter(|&n| n > 0);
    let skip = count_field(&map, "offset")?.unwrap_or(0) as usize;
    map.insert("head_limit".into(), json!(0));
    map.remove("offset");
    let whole = call_tool(ctx, "grep", Value::Object(map))?;
    let lines: Vec<&str> = whole.output.lines().collect();
    let total = lines.len();
    let end = head.map_or(total, |h| (skip + h as usize).min(total));
    let shown = &lines[skip.min(total)..end.max(skip.min(total))];
    let mut output = shown.join("\n");
    if !output.is_empty() {
        output.push('\n');
    }
    if end < total {
        output.push_str(&format!(
            "(showing lines {}–{end} of {total}; use offset={end} to see more)\n",
            skip + 1
        ));
    }
    let mut data = whole.data.into_value(&[]);
    data["lines"] = json!({"total": total, "offset": skip, "shown": shown.len()});
    if end < total || skip > 0 {
        data["truncated"] = json!(true);
    }
    Ok(Success::new(output, data))
}

/// MultiEdit whose first edit has an empty `old_string`, on a file that does not exist, creates
/// the file from that edit's `new_string` and applies the rest (22.5). All or nothing: when a
/// later edit fails, the new file is removed again.
fn multi_edit(ctx: &Ctx, input: Value, ran: &mut &'static str) -> Result<Success> {
    let first = input
        .get("edits")
        .and_then(Value::as_array)
        .and_then(|e| e.first());
    let Some(path) = creates(ctx, &input) else {
        return call_tool(ctx, "edit", input);
    };
    let content = first
        .and_then(|e| e.get("new_string"))
        .cloned()
        .unwrap_or(json!(""));
    let rest: Vec<Value> = input["edits"]
        .as_array()
        .map_or(vec![], |e| e[1..].to_vec());
    let fields = input.as_object().cloned().unwrap_or_default();
    only_fields(&fields, "MultiEdit", &["path", "file_path", "edits"])?;
    // Creating the file is a write: the catalog must offer write, as for a routed Edit (24.7).
    ctx.policy.admit("write")?;
    *ran = "write";
    let written = call_tool(ctx, "write", json!({"path": path, "content": content}))?;
    if rest.is_empty() {
        return Ok(written);
    }
    *ran = "edit";
    call_tool(ctx, "edit", json!({"path": path, "edits": rest})).inspect_err(|_| {
        let _ = call_tool(ctx, "undo", json!({"path": path}));
    })
}

/// The missing file a MultiEdit creates: its first edit has an empty `old_string`. (On an
/// existing file edit says why an empty old_string cannot be.)
fn creates(ctx: &Ctx, input: &Value) -> Option<String> {
    let first = input
        .get("edits")
        .and_then(Value::as_array)
        .and_then(|e| e.first());
    if first.and_then(|e| e.get("old_string")) != Some(&json!("")) {
        return None;
    }
    input
        .as_object()
        .and_then(|m| missing_file(ctx, m))
        .map(str::to_string)
}

/// A MultiEdit that creates its file runs write, then edit for the edits after the first.
fn multi_edit_runs(ctx: &Ctx, input: &Value) -> Vec<&'static str> {
    if creates(ctx, input).is_none() {
        return vec!["edit"];
    }
    let more = input
        .get("edits")
        .and_then(Value::as_array)
        .is_some_and(|e| e.len() > 1);
    if more {
        vec!["write", "edit"]
    } else {
        vec!["write"]
    }
}

/// TaskOutput waits for the task by default; a `timeout` without waiting means nothing to
/// Claude Code, so it is dropped with a warning.
fn task_output(map: &mut Map<String, Value>, warnings: &mut Vec<String>) -> Result<()> {
    if map.get("block").is_none_or(Value::is_null) {
        map.insert("block".into(), json!(true));
    }
    if map.get("block") == Some(&json!(false)) && map.contains_key("timeout") {
        map.remove("timeout");
        warnings.push("`timeout` was ignored: it applies only while waiting (block: true)".into());
    }
    Ok(())
}

/// TodoWrite takes the list as given, several items in progress included (24.7).
fn todo_write(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    todo::write_allowing_several(ctx, parse_input::<todo::Todo>(input)?)
}

/// One question of Claude Code's AskUserQuestion.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Question {
    question: String,
    header: String,
    options: Vec<QuestionOption>,
    #[serde(rename = "multiSelect")]
    multi_select: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuestionOption {
    label: String,
    #[allow(dead_code)] // shown by Claude Code's own dialog; the person sees the labels here
    description: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AskUserQuestion {
    questions: Vec<Question>,
    /// Answers Claude Code's own dialog collected: given, nobody is asked again.
    answers: Option<Map<String, Value>>,
}

/// AskUserQuestion (SPEC 25.4): each question is asked of the person in turn, through
/// ask_user (the harness answers as session `user`); the answers come back together, keyed by
/// question as Claude Code's `answers` are.
fn ask_user_question(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    let input: AskUserQuestion = serde_json::from_value(input).map_err(|e| {
        ToolError::usage(format!("AskUserQuestion: {e}"))
            .hint("Give questions: 1 to 4 of {question, header, options: 2 to 4 of {label, description}, multiSelect}.")
    })?;
    if !(1..=4).contains(&input.questions.len()) {
        return Err(ToolError::invalid(
            "questions",
            format!(
                "AskUserQuestion: {} questions; ask 1 to 4",
                input.questions.len()
            ),
        ));
    }
    let mut answers = input.answers.unwrap_or_default();
    for (i, q) in input.questions.iter().enumerate() {
        if !(2..=4).contains(&q.options.len()) {
            return Err(ToolError::invalid(
                &format!("questions[{i}].options"),
                format!(
                    "AskUserQuestion: question {} has {} options; give 2 to 4",
                    i + 1,
                    q.options.len()
                ),
            ));
        }
    }
    for q in &input.questions {
        if answers.contains_key(&q.question) {
            continue;
        }
        let asked = json!({
            "question": format!("[{}] {}", q.header, q.question),
            "options": q.options.iter().map(|o| o.label.as_str()).collect::<Vec<_>>(),
            "multi_select": q.multi_select,
        });
        let answer = call_tool(ctx, "ask_user", asked)?;
        answers.insert(q.question.clone(), answer.output.trim_end().into());
    }
    let lines: Vec<String> = input
        .questions
        .iter()
        .map(|q| {
            format!(
                "\"{}\"=\"{}\"",
                q.question,
                answers[&q.question].as_str().unwrap_or("")
            )
        })
        .collect();
    Ok(Success::new(
        format!(
            "The person answered your questions: {}. Go on with these answers in mind.",
            lines.join(", ")
        ),
        json!({"questions": input.questions.len(), "answers": answers}),
    ))
}

/// The directory Claude Code's shell is in, kept per session (state file `shell`).
#[derive(Debug, Default, Serialize, Deserialize)]
struct Shell {
    /// Relative to the root; "" is the root.
    cwd: Option<String>,
}

const SHELL_FILE: &str = "shell";

/// Bash's shell keeps its directory from one call to the next (22.5): a call without `cwd`
/// starts where the last one ended, when that is still a directory inside the root. The
/// directory is kept after every call that reaches its end (a command that calls `exit` leaves
/// it where it was); one outside the root is not kept, and the next call starts at the root.
fn bash(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    let Value::Object(mut map) = input else {
        return call_tool(ctx, "run", input);
    };
    if !map.contains_key("cwd") {
        let shell: Shell = StateLock::acquire(ctx)?.load(SHELL_FILE)?;
        if let Some(dir) = shell.cwd.filter(|d| !d.is_empty()) {
            let usable = crate::sandbox::resolve(ctx, "cwd", &dir).is_ok_and(|t| t.real.is_dir());
            if usable {
                map.insert("cwd".into(), json!(dir));
            } else {
                ctx.warn(format!(
                    "the shell's directory {dir} is gone; this command starts at the root"
                ));
            }
        }
    }
    let parsed = parse_input::<run::Run>(Value::Object(map))?;
    let mut ended = None;
    let result = run::run_keeping_cwd(ctx, parsed, &mut ended);
    if let Some(real) = ended {
        let kept = match real.strip_prefix(&ctx.root_real) {
            Ok(rel) => Some(rel.to_string_lossy().into_owned()),
            Err(_) => {
                ctx.warn(format!(
                    "the shell ended in {}, outside the root; the next command starts at the root",
                    real.display()
                ));
                None
            }
        };
        let lock = StateLock::acquire(ctx)?;
        lock.save(SHELL_FILE, &Shell { cwd: kept }, false)?;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_lists_split_as_claude_code_splits_them() {
        assert_eq!(split_globs("*.py,*.js"), ["*.py", "*.js"]);
        assert_eq!(split_globs("*.{ts,tsx} *.md"), ["*.{ts,tsx}", "*.md"]);
        assert_eq!(split_globs("*.rs"), ["*.rs"]);
        assert_eq!(split_globs(" *.a ,, *.b,"), ["*.a", "*.b"]);
        assert_eq!(split_globs("src/**/*.{c,h},*.md"), ["src/**/*.{c,h},*.md"]);
    }

    #[test]
    fn context_wins_and_hidden_is_searched() {
        let mut m = json!({"pattern": "x", "-A": 3, "-B": 1, "-C": 2})
            .as_object()
            .cloned()
            .unwrap();
        grep(&mut m, &mut vec![]).unwrap();
        assert_eq!(
            Value::Object(m),
            json!({"pattern": "x", "-C": 2, "hidden": true})
        );
        let mut m = json!({"pattern": "x", "-A": 3, "hidden": false})
            .as_object()
            .cloned()
            .unwrap();
        grep(&mut m, &mut vec![]).unwrap();
        assert_eq!(
            Value::Object(m),
            json!({"pattern": "x", "-A": 3, "hidden": false})
        );
    }

    #[test]
    fn task_output_blocks_unless_told_not_to() {
        let mut w = vec![];
        let mut m = json!({"task_id": "1"}).as_object().cloned().unwrap();
        task_output(&mut m, &mut w).unwrap();
        assert_eq!(m["block"], true);
        let mut m = json!({"task_id": "1", "block": false, "timeout": 5})
            .as_object()
            .cloned()
            .unwrap();
        task_output(&mut m, &mut w).unwrap();
        assert!(!m.contains_key("timeout"));
        assert_eq!(w.len(), 1);
    }
}
