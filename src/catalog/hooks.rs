//! Hooks (SPEC 19.2, 24.3, 24.7): commands that run before a call (and may block it) and after
//! a successful one (a linter's verdict on what was just written), in Claude Code's protocol
//! so users' scripts carry over: the call as JSON on stdin, exit 2 blocks a pre hook's call.
//!
//! A hook runs as run runs commands (`run::to_end`: no terminal, its timeout, the whole process
//! tree ended), in the sandbox the profile's `run` gets unless its own `sandbox` says otherwise. Hooks select the tool that
//! runs, whatever name was called (24.7), by `tools` or by `matcher` (a regex, Claude Code's).

use super::{Hook, Policy};
use crate::context::Ctx;
use crate::envelope::Envelope;
use crate::error::{Code, Result, ToolError};
use crate::shell::quote;
use crate::tools::run::{self, capture::Capture, exec, isolation::Isolation, proc::Exit};
use serde_json::{Value, json};

/// A hook's default time limit (Claude Code's is 60 s).
const DEFAULT_TIMEOUT_MS: u64 = 60_000;
/// The most of a hook's output kept (as run keeps its head and tail).
const OUTPUT_CAP: usize = 10_000;

/// A hook's `matcher` as Claude Code reads it: a regex on the whole tool name; empty or `*`
/// matches every tool.
pub fn matcher_regex(m: &str) -> std::result::Result<regex::Regex, regex::Error> {
    let m = m.trim();
    if m.is_empty() || m == "*" {
        return regex::Regex::new("");
    }
    regex::Regex::new(&format!("^(?:{m})$"))
}

pub fn any(policy: &Policy) -> bool {
    let h = &policy.catalog.hooks;
    !h.pre.is_empty() || !h.post.is_empty() || !h.post_failure.is_empty()
}

/// What the pre hooks said beyond "go on" (Claude Code's `hookSpecificOutput`, SPEC 29).
#[derive(Debug, Default)]
pub struct PreSaid {
    /// A hook answered `ask`: why (the hook and its reason).
    pub ask: Option<String>,
    /// A hook's `updatedInput`: the call's input from now on (validated again).
    pub updated_input: Option<Value>,
    /// `additionalContext`, added after the tool's output.
    pub context: Vec<String>,
}

/// The JSON a hook printed: its whole output, else its last line that is a JSON object (a
/// hook may print other lines on stderr).
fn said(output: &str) -> Option<Value> {
    let whole = output.trim();
    let parsed = serde_json::from_str::<Value>(whole)
        .ok()
        .filter(Value::is_object);
    parsed.or_else(|| {
        whole.lines().rev().find_map(|l| {
            serde_json::from_str::<Value>(l.trim())
                .ok()
                .filter(Value::is_object)
        })
    })
}

/// `hookSpecificOutput.additionalContext`.
fn context_of(v: &Value) -> Option<String> {
    let c = v
        .pointer("/hookSpecificOutput/additionalContext")?
        .as_str()?;
    (!c.trim().is_empty()).then(|| c.to_string())
}

/// Adds the hooks' context after the tool's output.
pub fn add_context(env: &mut Envelope, context: &[String]) {
    for c in context {
        if !env.output.is_empty() && !env.output.ends_with('\n') {
            env.output.push('\n');
        }
        env.output.push_str(c);
        if !c.ends_with('\n') {
            env.output.push('\n');
        }
    }
}

/// Whether `hook` is for this call: `tools` and `matcher` may name a tool that runs (a call
/// of an agent's own may run several: MultiEdit creating its file runs write, then edit) or
/// the name called; a hook with neither is for every call. A hook runs once per call however
/// many of its tools run.
fn selects(hook: &Hook, tools: &[&str], called: &str) -> bool {
    if hook.tools.is_empty() && hook.matcher.is_none() {
        return true;
    }
    let by_list = hook
        .tools
        .iter()
        .any(|t| t == called || tools.contains(&t.as_str()));
    let regex = hook.matcher.as_deref().and_then(|m| matcher_regex(m).ok());
    let by_regex =
        regex.is_some_and(|re| re.is_match(called) || tools.iter().any(|t| re.is_match(t)));
    by_list || by_regex
}

/// What a hook reads on stdin: ours (24.3) beside Claude Code's fields (24.7).
fn stdin_for(ctx: &Ctx, event: &str, tool: &str, called: &str, input: &Value) -> Value {
    json!({
        "tool": tool,
        "name": called,
        "input": input,
        "session": ctx.session,
        "root": ctx.root.to_string_lossy(),
        "session_id": ctx.session,
        "cwd": ctx.root.to_string_lossy(),
        "hook_event_name": event,
        "tool_name": called,
        "tool_input": input,
    })
}

/// How a hook ended.
struct Ran {
    exit_code: Option<i32>,
    timed_out: bool,
    output: String,
}

/// The sandbox a hook runs in (SPEC 31.4): its own `sandbox`, else the one the profile's `run`
/// gets (`--sandbox`, `[run]` and the profile's `sandbox`, the strongest), since a hook is a
/// program the model's call triggers and may feed. `--sandbox` stays a floor under both.
fn hook_mode(ctx: &Ctx, hook: &Hook) -> (run::confine::Mode, Option<run::confine::Mode>) {
    use run::confine::Mode;
    let floor = run::isolation::given_floor(ctx);
    let own = hook.sandbox.as_deref().and_then(Mode::parse);
    let run_gets = ctx
        .policy
        .sandbox_floors(None)
        .filter_map(Mode::parse)
        .max()
        .map_or(floor, |m| m.max(floor));
    (floor, own.or(Some(run_gets)))
}

fn run_hook(ctx: &Ctx, hook: &Hook, command: &str, stdin: &Value) -> Result<Ran> {
    let (floor, mode) = hook_mode(ctx, hook);
    let iso = Isolation::decide_under(ctx, floor, mode, None, false)?;
    let mut env = vec![];
    if let Some(t) = &iso.tmpdir {
        env.push(("TMPDIR".to_string(), t.to_string_lossy().into_owned()));
    }
    let timeout = hook.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
    let spec = exec::Spec {
        command: command.to_string(),
        cwd: ctx.root_real.clone(),
        env,
        stdin: Some(stdin.to_string()),
        timeout_ms: Some(timeout),
        confine: iso.confinement(ctx),
        tmpdir: iso.tmpdir.clone(),
        nice: None,
        shell: None,
        login: false,
        tty: None,
    };
    let mut capture = Capture::new(None, OUTPUT_CAP);
    // A hook has a time limit of its own: the call's deadline or cancel does not cut it short.
    let control = crate::control::Control::new();
    let outcome = run::to_end(ctx, &spec, &mut capture, &control);
    run::isolation::remove_tmpdir(spec.tmpdir.as_ref());
    let outcome = outcome?;
    let captured = capture.finish("the hook's whole output is not kept");
    Ok(Ran {
        exit_code: match (outcome.timed_out, outcome.exit) {
            (true, _) => None,
            (false, Exit::Code(c)) => Some(c),
            (false, Exit::Signal(_)) => None,
        },
        timed_out: outcome.timed_out,
        output: captured.text,
    })
}

/// Runs the pre hooks of this call in order: exit 2 blocks it (`blocked_by_hook`, the message
/// is what the hook printed); another failure is a warning and the call runs.
pub fn pre(ctx: &Ctx, called: &str, tools: &[&str], given: &Value) -> Result<PreSaid> {
    let tool = tools.first().copied().unwrap_or(called);
    let mut out = PreSaid::default();
    for hook in ctx.policy.catalog.hooks.pre.iter() {
        if !selects(hook, tools, called) {
            continue;
        }
        let stdin = stdin_for(ctx, "PreToolUse", tool, called, given);
        let ran = match run_hook(ctx, hook, &hook.command, &stdin) {
            Ok(ran) => ran,
            Err(e) => {
                ctx.warn(format!(
                    "the pre hook `{}` could not run: {}",
                    hook.command, e.message
                ));
                continue;
            }
        };
        match ran.exit_code {
            Some(0) => decided(hook, &ran.output, &mut out)?,
            Some(2) => {
                let said = ran.output.trim();
                let said = if said.is_empty() {
                    "(it printed nothing)"
                } else {
                    said
                };
                return Err(ToolError::new(
                    Code::BlockedByHook,
                    format!("blocked by the pre hook `{}`: {said}", hook.command),
                )
                .with("hook", hook.command.as_str())
                .hint("The catalog's hook refused this call; change the call as the hook's message says, or do something else."));
            }
            _ => ctx.warn(format!(
                "the pre hook `{}` {}; the call ran anyway{}",
                hook.command,
                if ran.timed_out {
                    "timed out".to_string()
                } else {
                    format!(
                        "failed ({})",
                        ran.exit_code
                            .map_or("killed".into(), |c| format!("exit {c}"))
                    )
                },
                one_line_tail(&ran.output)
            )),
        }
    }
    Ok(out)
}

/// A pre hook that exited 0 may decide in JSON, as Claude Code's do:
/// `hookSpecificOutput.permissionDecision` `allow` (the rules already let the call through; it
/// cannot lift an ask or deny rule), `deny` (`blocked_by_hook`, its reason the message), `ask`
/// (the person approves); `updatedInput`; `additionalContext`. The older top-level
/// `decision: "block"` is a deny.
fn decided(hook: &Hook, output: &str, out: &mut PreSaid) -> Result<()> {
    let Some(v) = said(output) else {
        return Ok(());
    };
    let specific = v.get("hookSpecificOutput");
    let field = |k: &str| specific.and_then(|s| s.get(k));
    let reason = field("permissionDecisionReason")
        .or_else(|| v.get("reason"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim()
        .to_string();
    let decision = field("permissionDecision")
        .and_then(Value::as_str)
        .or_else(|| (v.get("decision").and_then(Value::as_str) == Some("block")).then_some("deny"));
    let because = if reason.is_empty() {
        String::new()
    } else {
        format!(": {reason}")
    };
    match decision {
        Some("deny") => {
            return Err(ToolError::new(
                Code::BlockedByHook,
                format!("blocked by the pre hook `{}`{because}", hook.command),
            )
            .with("hook", hook.command.as_str())
            .hint("The catalog's hook refused this call; change the call as the hook's message says, or do something else."));
        }
        Some("ask") => {
            out.ask = Some(format!("the pre hook `{}` asks{because}", hook.command));
        }
        _ => {}
    }
    if let Some(u) = field("updatedInput") {
        out.updated_input = Some(u.clone());
    }
    out.context.extend(context_of(&v));
    Ok(())
}

fn one_line_tail(output: &str) -> String {
    let t = output.trim();
    if t.is_empty() {
        String::new()
    } else {
        format!(": {}", run::one_line(t, 300, " / "))
    }
}

/// Whether `path` (as shown, relative to the root) matches one of `files`: gitignore-style, a
/// pattern without a slash matches the name at any depth.
fn file_matches(files: &[String], path: &str) -> bool {
    crate::sandbox::rules::shown_matches(files, path)
}

/// A changed path as a hook's argument: a relative one as `./path`, so a file the model named
/// `--checkpoint-action=exec=sh p.sh` reaches `tar -cf x {paths}` as a file, never an option
/// (SPEC 31.4).
fn as_argument(shown: &str) -> String {
    if shown.starts_with('/') {
        shown.to_string()
    } else {
        format!("./{shown}")
    }
}

/// After a successful call: each post hook for this tool whose `files` match a changed path
/// runs with `{paths}` replaced by the matching paths; its verdict joins `data.checks` and the
/// end of `output`. It never undoes the change and never makes the call fail.
pub fn post(ctx: &Ctx, called: &str, tools: &[&str], given: &Value, env: &mut Envelope) {
    let tool = tools.first().copied().unwrap_or(called);
    let changed = ctx.changed();
    let mut checks = vec![];
    for hook in ctx.policy.catalog.hooks.post.iter() {
        if !selects(hook, tools, called) {
            continue;
        }
        let paths: Vec<&String> = if hook.files.is_empty() {
            changed.iter().collect()
        } else {
            changed
                .iter()
                .filter(|p| file_matches(&hook.files, p))
                .collect()
        };
        if !hook.files.is_empty() && paths.is_empty() {
            continue;
        }
        let quoted: Vec<String> = paths.iter().map(|p| quote(&as_argument(p))).collect();
        let command = hook.command.replace("{paths}", &quoted.join(" "));
        let mut stdin = stdin_for(ctx, "PostToolUse", tool, called, given);
        stdin["tool_response"] = json!({"ok": env.ok, "output": env.output});
        stdin["paths"] = json!(paths);
        let check = match run_hook(ctx, hook, &command, &stdin) {
            Ok(ran) => {
                let mut c =
                    json!({"command": command, "exit_code": ran.exit_code, "output": ran.output});
                if ran.timed_out {
                    c["timed_out"] = json!(true);
                }
                c
            }
            Err(e) => json!({"command": command, "exit_code": null, "output": e.message}),
        };
        checks.push(check);
    }
    if checks.is_empty() {
        return;
    }
    let context: Vec<String> = checks
        .iter()
        .filter_map(|c| said(c["output"].as_str()?))
        .filter_map(|v| context_of(&v))
        .collect();
    for c in &checks {
        let status = match (c["exit_code"].as_i64(), c.get("timed_out").is_some()) {
            (_, true) => "timed out".to_string(),
            (Some(code), _) => format!("exit {code}"),
            (None, _) => "did not finish".to_string(),
        };
        env.output.push_str(&format!(
            "Check `{}` ({status}):\n",
            c["command"].as_str().unwrap_or("")
        ));
        let out = c["output"].as_str().unwrap_or("");
        env.output.push_str(out);
        if !out.is_empty() && !out.ends_with('\n') {
            env.output.push('\n');
        }
    }
    add_context(env, &context);
    env.edit_data(|m| {
        m.insert("checks".into(), Value::Array(checks));
    });
}

/// After a call that failed (Claude Code's `PostToolUseFailure`, SPEC 29): each
/// `[[hooks.post_failure]]` hook for this tool runs with the error on stdin (`error: {code,
/// message}` beside Claude Code's fields); its `additionalContext` is added after the output.
/// It never changes the answer.
pub fn post_failure(ctx: &Ctx, called: &str, tools: &[&str], given: &Value, env: &mut Envelope) {
    let tool = tools.first().copied().unwrap_or(called);
    let error = match &env.body {
        crate::envelope::Body::Error { error, .. } => error.clone(),
        _ => return,
    };
    let mut context = vec![];
    for hook in ctx.policy.catalog.hooks.post_failure.iter() {
        if !selects(hook, tools, called) {
            continue;
        }
        let mut stdin = stdin_for(ctx, "PostToolUseFailure", tool, called, given);
        stdin["error"] = json!({"code": error["code"], "message": error["message"]});
        match run_hook(ctx, hook, &hook.command, &stdin) {
            Ok(ran) => context.extend(said(&ran.output).and_then(|v| context_of(&v))),
            Err(e) => ctx.warn(format!(
                "the post_failure hook `{}` could not run: {}",
                hook.command, e.message
            )),
        }
    }
    add_context(env, &context);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matchers_match_whole_names_and_star_matches_all() {
        assert!(matcher_regex("Edit|Write").unwrap().is_match("Write"));
        assert!(!matcher_regex("Edit").unwrap().is_match("MultiEdit"));
        assert!(matcher_regex("*").unwrap().is_match("anything"));
        assert!(matcher_regex("(").is_err());
    }

    #[test]
    fn files_match_at_any_depth_without_a_slash() {
        let rs = ["*.rs".to_string()];
        assert!(file_matches(&rs, "src/a/b.rs"));
        assert!(!file_matches(&rs, "src/a/b.py"));
        assert!(file_matches(&["src/**".to_string()], "src/x.txt"));
    }

    #[test]
    fn hook_arguments_are_never_options() {
        assert_eq!(as_argument("--x=y"), "./--x=y");
        assert_eq!(as_argument("-rf"), "./-rf");
        assert_eq!(as_argument("src/a.py"), "./src/a.py");
        assert_eq!(as_argument("/abs/a.py"), "/abs/a.py");
    }

    #[test]
    fn quoting_is_shell_safe() {
        assert_eq!(quote("src/a.rs"), "src/a.rs");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), "'it'\\''s'");
    }
}
