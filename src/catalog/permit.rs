//! The permission step of the pipeline (SPEC 29): after validation and before the pre hooks,
//! the catalog's `[permissions]` rules, the session's granted rules and the mode decide whether
//! a call runs, is denied (`denied_by_rule`) or waits for the person (`approval_required`, with
//! a pending approval recorded in the session's state). The rules themselves are core's
//! (`policy::permissions`); this module builds what they look at from a call.

use super::{COMMAND_TOOL, Mode, Policy};
use crate::context::{Ctx, normalize_lexically};
use crate::error::{Code, Result, ToolError};
use crate::policy::approvals::{self, Refused};
use crate::policy::permissions::{self, Decision, Places, Subject};
use crate::tool::Effect;
use crate::tools;
use loopr_env_vars::EnvVars;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Whether this policy can hold a call at all: rules, or a mode that asks. Without, the
/// pipeline skips the step (no state is read).
pub fn active(policy: &Policy) -> bool {
    !policy.catalog.permissions.is_empty() || matches!(policy.mode, Mode::Ask | Mode::AcceptEdits)
}

/// A call as the permission step sees it.
pub struct Call<'a> {
    /// The name called.
    pub called: &'a str,
    /// The tools that run.
    pub runs: &'a [&'static str],
    /// The input in our terms (translated from an agent's dialect).
    pub input: Option<&'a Value>,
    /// The input as the caller gave it: an approval is for exactly this.
    pub given: &'a Value,
    pub effect: Effect,
    /// A command tool's fixed command.
    pub fixed_command: Option<&'a str>,
}

/// Claude Code's names for our tools (SPEC 29: rules apply under both).
fn claude_names(tool: &str) -> &'static [&'static str] {
    match tool {
        "read" => &["Read"],
        "write" => &["Write"],
        "edit" => &["Edit", "MultiEdit"],
        "run" | COMMAND_TOOL => &["Bash"],
        "glob" => &["Glob"],
        "grep" => &["Grep"],
        "tree" => &["LS"],
        "fetch" => &["WebFetch"],
        "search" => &["WebSearch"],
        "notebook_edit" => &["NotebookEdit"],
        "todo" => &["TodoWrite"],
        _ => &[],
    }
}

/// Tools that read files: Claude Code applies `Read(...)` rules to them (the code intelligence
/// tools of SPEC 26 read as grep does).
const READERS: &[&str] = &["read", "glob", "grep", "tree", "stat", "symbols", "map"];
/// Tools whose path defaults to the root.
const WALKERS: &[&str] = &["glob", "grep", "tree", "symbols", "map"];

fn subject(ctx: &Ctx, call: &Call) -> Subject {
    let mut names = vec![call.called.to_string()];
    for t in call.runs {
        names.push(t.to_string());
        names.extend(claude_names(t).iter().map(|n| n.to_string()));
    }
    let changes_files = call.effect == Effect::ChangesFiles;
    if changes_files {
        names.push("Edit".into());
    }
    if call.runs.iter().any(|t| READERS.contains(t)) {
        names.push("Read".into());
    }
    names.dedup();
    let input = call.input.unwrap_or(&Value::Null);
    let runs_command = call.runs.iter().any(|t| *t == "run" || *t == COMMAND_TOOL);
    let command = runs_command
        .then(|| command_of(input, call.fixed_command))
        .flatten();
    let mut shown = paths_of(input);
    if shown.is_empty() && call.runs.iter().any(|t| WALKERS.contains(t)) {
        shown.push(".".into());
    }
    let paths = shown.iter().flat_map(|p| absolute(ctx, p)).collect();
    let host = input
        .get("url")
        .and_then(Value::as_str)
        .and_then(|u| url::Url::parse(u).ok())
        .and_then(|u| u.host_str().map(str::to_string));
    Subject {
        names,
        command,
        paths,
        host,
        changes_files,
        only_reads: call.effect == Effect::Reads,
    }
}

fn command_of(input: &Value, fixed: Option<&str>) -> Option<String> {
    let args = || -> Vec<String> {
        input
            .get("args")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(crate::shell::quote)
                    .collect()
            })
            .unwrap_or_default()
    };
    if let Some(fixed) = fixed {
        let mut line = vec![fixed.to_string()];
        line.extend(args());
        return Some(line.join(" "));
    }
    match input.get("command")? {
        Value::String(s) => Some(s.clone()),
        Value::Array(a) => Some(
            a.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => None,
    }
}

/// The paths an input names, as given: `path`, `paths`, `from`, `to`, and the files of a
/// patch.
fn paths_of(input: &Value) -> Vec<String> {
    let mut out = vec![];
    // Ours, and the fields of an agent's call of its own (Claude Code's `file_path`, Gemini's
    // `absolute_path`, ...), which is not translated before it runs.
    for key in [
        "path",
        "from",
        "to",
        "file_path",
        "notebook_path",
        "absolute_path",
        "dir_path",
        "source",
        "destination",
    ] {
        if let Some(p) = input.get(key).and_then(Value::as_str) {
            out.push(p.to_string());
        }
    }
    if let Some(list) = input.get("paths").and_then(Value::as_array) {
        out.extend(list.iter().filter_map(Value::as_str).map(str::to_string));
    }
    if let Some(patch) = patch_text(input) {
        out.extend(patch_files(patch));
    }
    out
}

fn patch_text(input: &Value) -> Option<&str> {
    if let Some(p) = input.get("patch").and_then(Value::as_str) {
        return Some(p);
    }
    // Codex's `["apply_patch", PATCH]` / `["bash", "-lc", "apply_patch <<'EOF'…"]`.
    input
        .get("command")?
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .find(|s| s.contains("*** Begin Patch"))
}

fn patch_files(patch: &str) -> Vec<String> {
    const HEADS: [&str; 4] = [
        "*** Add File: ",
        "*** Update File: ",
        "*** Delete File: ",
        "*** Move to: ",
    ];
    patch
        .lines()
        .filter_map(|l| HEADS.iter().find_map(|h| l.trim_start().strip_prefix(h)))
        .map(|p| p.trim().to_string())
        .collect()
}

/// A path as given, absolute and lexically normal; and its real path (links followed) when it
/// exists, shown under the root as given, so a link cannot slip past a rule.
fn absolute(ctx: &Ctx, shown: &str) -> Vec<PathBuf> {
    let p = Path::new(shown);
    let abs = normalize_lexically(&if p.is_absolute() {
        p.to_path_buf()
    } else {
        ctx.root.join(p)
    });
    let mut out = vec![abs.clone()];
    if let Ok(real) = std::fs::canonicalize(&abs) {
        let real = match real.strip_prefix(&ctx.root_real) {
            Ok(rest) => ctx.root.join(rest),
            Err(_) => real,
        };
        if real != abs {
            out.push(real);
        }
    }
    out
}

fn places(ctx: &Ctx) -> Places {
    Places {
        root: ctx.root.clone(),
        home: std::env::var_os(EnvVars::HOME)
            .map(PathBuf::from)
            .filter(|h| h.is_absolute()),
    }
}

/// Decides the call: `Ok(true)` when it runs under an approval the caller gave, `Ok(false)`
/// when the rules let it through; `denied_by_rule` or `approval_required` otherwise.
pub fn check(ctx: &Ctx, call: &Call, approval: Option<&str>) -> Result<bool> {
    let policy = &ctx.policy;
    let s = subject(ctx, call);
    let at = places(ctx);
    let rules = &policy.catalog.permissions;
    let mut decision = permissions::decide(rules, &[], policy.mode, &s, &at);
    // Granted rules only allow, so they matter only where the mode asks.
    if decision == Decision::Ask(None) {
        let granted = approvals::granted(ctx)?;
        decision = permissions::decide(rules, &granted, policy.mode, &s, &at);
    }
    match decision {
        Decision::Allow => Ok(false),
        Decision::Deny(rule) => Err(denied(call.called, &rule)),
        Decision::Ask(rule) => {
            let why = match rule {
                Some(r) => format!("the ask rule `{r}`"),
                None => format!("permission mode {}", mode_word(policy.mode)),
            };
            approve_or_ask(ctx, call, &s, approval, &why).map(|()| true)
        }
    }
}

/// After a pre hook changed the input: a deny rule still holds it (a hook cannot lift one).
pub fn recheck(ctx: &Ctx, call: &Call) -> Result<()> {
    let s = subject(ctx, call);
    let rules = &ctx.policy.catalog.permissions;
    match permissions::decide(rules, &[], Mode::Bypass, &s, &places(ctx)) {
        Decision::Deny(rule) => Err(denied(call.called, &rule)),
        _ => Ok(()),
    }
}

/// A pre hook answered `ask` (SPEC 29): the call runs only under an approval.
pub fn hook_asks(ctx: &Ctx, call: &Call, approval: Option<&str>, why: &str) -> Result<()> {
    let s = subject(ctx, call);
    approve_or_ask(ctx, call, &s, approval, why)
}

fn mode_word(m: Mode) -> &'static str {
    match m {
        Mode::Default => "default",
        Mode::ReadOnly => "read-only",
        Mode::AcceptEdits => "accept-edits (a file change outside the root)",
        Mode::Bypass => "bypass",
        Mode::Ask => "ask (every call that changes something)",
    }
}

fn denied(called: &str, rule: &str) -> ToolError {
    ToolError::new(
        Code::DeniedByRule,
        format!("`{called}` is denied by the rule `{rule}` of the catalog's [permissions]; it was not run"),
    )
    .with("rule", rule)
    .hint("A deny rule holds in every mode. Do something else; only the person who wrote the catalog can change its rules.")
}

/// Uses the caller's approval for this exact call, or records a pending one and answers
/// `approval_required`.
fn approve_or_ask(
    ctx: &Ctx,
    call: &Call,
    s: &Subject,
    approval: Option<&str>,
    why: &str,
) -> Result<()> {
    let mut note = String::new();
    if let Some(id) = approval {
        match approvals::take(ctx, id, call.called, call.given)? {
            Ok(()) => return Ok(()),
            Err(Refused::OtherCall) => {
                note = format!(
                    " ({}; a changed input needs a new approval)",
                    Refused::OtherCall.says(id)
                )
            }
            Err(refused) => note = format!(" ({})", refused.says(id)),
        }
    }
    let (summary, diff) = preview(ctx, call, s);
    let pending = approvals::request(ctx, call.called, call.given, summary, diff)?;
    Err(ToolError::new(
        Code::ApprovalRequired,
        format!(
            "{} needs the person's approval ({why}); it was not run{note}. Approval {} expires at {}",
            pending.summary, pending.id, pending.expires_at
        ),
    )
    .with("approval", pending.to_value())
    .hint("Ask the person; if they agree, call again with the same input and --approve ID (or \"approval\": ID in call), or grant a rule: loopr-tool --harness permissions grant 'RULE'."))
}

/// The one-line summary (`run: git push origin main`, `edit: src/a.rs (+3 -1)`) and, for a
/// file change, its diff, computed without writing anything.
fn preview(ctx: &Ctx, call: &Call, s: &Subject) -> (String, Option<String>) {
    let name = call.called;
    if let Some(cmd) = &s.command {
        return (format!("{name}: {}", one_line(cmd)), None);
    }
    let input = call.input.unwrap_or(&Value::Null);
    let shown = paths_of(input);
    let diff = match call.runs.first().copied() {
        Some("write") => write_diff(ctx, input),
        Some("edit") => edit_diff(ctx, input),
        Some("apply_patch") => patch_text(input).map(str::to_string),
        _ => None,
    };
    let what = if !shown.is_empty() {
        shown.join(", ")
    } else if let Some(url) = input.get("url").and_then(Value::as_str) {
        url.to_string()
    } else {
        one_line(&call.given.to_string())
    };
    match &diff {
        Some(d) => {
            let (added, removed) = counts(d);
            (format!("{name}: {what} (+{added} -{removed})"), diff)
        }
        None => (format!("{name}: {what}"), None),
    }
}

fn one_line(s: &str) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &flat[..i]),
        None => flat,
    }
}

fn counts(diff: &str) -> (usize, usize) {
    let lines = || {
        diff.lines()
            .filter(|l| !l.starts_with("+++") && !l.starts_with("---"))
    };
    (
        lines().filter(|l| l.starts_with('+')).count(),
        lines().filter(|l| l.starts_with('-')).count(),
    )
}

/// The diff a write would make: the file as the sandbox reads it (a denied path gives none).
fn write_diff(ctx: &Ctx, input: &Value) -> Option<String> {
    let path = input.get("path")?.as_str()?;
    let content = input.get("content")?.as_str()?;
    let target = crate::sandbox::resolve(ctx, "path", path).ok()?;
    let old = match loopr_core::fsx::read_resolved(&target) {
        Ok(bytes) => String::from_utf8(bytes).ok()?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(_) => return None,
    };
    Some(tools::edit::diff::unified(&old, content, &target.shown))
}

/// The diff an edit would make: edit's own dry run, which writes nothing.
fn edit_diff(ctx: &Ctx, input: &Value) -> Option<String> {
    let mut dry = input.clone();
    dry.as_object_mut()?
        .insert("dry_run".into(), Value::Bool(true));
    let done = tools::find("edit")?.call(ctx, dry).ok()?;
    let data = done.data.into_value(&[]);
    data.get("diff")?.as_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_patch_names_every_file_it_touches() {
        let patch = "*** Begin Patch\n*** Update File: a.rs\n*** Move to: b.rs\n@@\n-x\n+y\n*** Add File: c.rs\n+z\n*** Delete File: d.rs\n*** End Patch\n";
        assert_eq!(
            paths_of(&json!({"patch": patch})),
            ["a.rs", "b.rs", "c.rs", "d.rs"]
        );
        let codex = json!({"command": ["apply_patch", patch]});
        assert_eq!(paths_of(&codex).len(), 4);
        assert_eq!(counts("--- a/x\n+++ b/x\n@@\n a\n-b\n+c\n+d\n"), (2, 1));
    }

    #[test]
    fn a_command_tool_is_its_fixed_command_and_quoted_args() {
        let input = json!({"args": ["-p", "a b"]});
        assert_eq!(
            command_of(&input, Some("cargo test")).unwrap(),
            "cargo test -p 'a b'"
        );
        assert_eq!(
            command_of(&json!({"command": ["git", "push"]}), None).unwrap(),
            "git push"
        );
        assert_eq!(one_line("a\n  b"), "a b");
    }
}
