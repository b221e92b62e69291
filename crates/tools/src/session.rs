//! `session` (SPEC §13, 16.8): what this session holds, and forgetting it.

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::journal;
use crate::loops::store::{self as loops};
use crate::reads;
use crate::state::{self, StateLock};
use crate::tool::{Effect, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::Path;

pub struct Session;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Root, session, state directory, files read, todo counts, undo depth.
    #[default]
    Show,
    /// Forget every read record: files must be read again before they are edited.
    ClearReads,
    /// Drop the session's whole state: read records, todos, undo history, job logs, inbox,
    /// artifacts, completion (running jobs are ended first).
    Reset,
    /// Clear the completion recorded by complete_task, so the loop can complete again.
    Reopen,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// `show` (default), `clear_reads`, `reset` or `reopen`.
    #[schemars(extend("default" = "show"))]
    pub action: Option<Action>,
    /// clear_reads, a harness's call (--harness): the session whose read records go (seed
    /// 000's clear_reads at each iteration), in this root.
    pub session: Option<String>,
}

impl Tool for Session {
    type Input = Input;
    const NAME: &'static str = "session";
    const SUMMARY: &'static str =
        "Show or reset this session's state (reads, todos, undo, completion)";
    const DESCRIPTION: &'static str = "Shows this session's state: the sandbox root, the session id, where state is kept, the read records (which files, when), todo counts, how many changes can be undone, running jobs, the completion recorded by complete_task (or null) and the artifacts handed over (plan, spec, phase names). \
`clear_reads` forgets them (start of a new agent iteration: files must be read again before editing); `reset` drops the session's whole state; `reopen` clears the completion so the loop can complete again.";
    const POSITIONALS: &'static [&'static str] = &["action"];
    const EXAMPLES: &'static str = "  echo '{\"action\": \"show\"}' | loopr-tool session\n  loopr-tool session clear_reads --session agent-2";

    fn read_only(input: &Input) -> bool {
        input.action.unwrap_or_default() == Action::Show
    }

    fn effect(input: &Input) -> Effect {
        // clear_reads and reset change the session's state, not files under the root.
        if Self::read_only(input) {
            Effect::Reads
        } else {
            Effect::Commands
        }
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        // Running jobs end before their records go (SPEC 16.8); that takes the lock itself.
        let ended = if input.action == Some(Action::Reset) {
            crate::jobs::end_all(ctx)?
        } else {
            0
        };
        // The hub's part first: its lock and the session's are not held together (they are one
        // lock outside git, and a process takes its state locks one at a time).
        let action = input.action.unwrap_or_default();
        if let Some(other) = &input.session {
            return clear_reads_of(ctx, action, other);
        }
        let completed = match action {
            Action::Show => loops::completion(ctx, &ctx.session)?,
            Action::Reopen => loops::reopen(ctx)?,
            _ => None,
        };
        let hub_removed = match action {
            Action::Reset => loops::reset(ctx)?,
            _ => 0,
        };
        let lock = StateLock::acquire(ctx)?;
        match action {
            Action::Show => show(ctx, &lock, completed),
            Action::ClearReads => {
                let n = reads::clear(&lock)?;
                let output = format!("Forgot {n} read record(s) of session {}\n", ctx.session);
                Ok(Success::new(
                    output,
                    json!({"session": ctx.session, "cleared_reads": n}),
                ))
            }
            Action::Reopen => {
                let done = completed;
                let output = match &done {
                    Some(d) => {
                        format!(
                            "Reopened session {}: its completion of {} is cleared\n",
                            ctx.session, d.completed_at
                        )
                    }
                    None => format!(
                        "Session {} was not completed; nothing to reopen\n",
                        ctx.session
                    ),
                };
                Ok(Success::new(
                    output,
                    json!({"session": ctx.session, "reopened": done.is_some(), "was": done}),
                ))
            }
            Action::Reset => {
                let removed = clear_dir(lock.dir())? + hub_removed;
                let mut output = String::new();
                if ended > 0 {
                    output.push_str(&format!("Ended {ended} running job(s)\n"));
                }
                output.push_str(&format!(
                    "Reset session {}: dropped its read records, todos, undo history, job logs, inbox, artifacts and completion\n",
                    ctx.session
                ));
                Ok(Success::new(
                    output,
                    json!({"session": ctx.session, "removed_files": removed, "jobs_ended": ended}),
                ))
            }
        }
    }
}

/// `clear_reads` of another session of this root (SPEC 25.3): a harness's call only.
fn clear_reads_of(ctx: &Ctx, action: Action, other: &str) -> Result<Success> {
    if action != Action::ClearReads {
        return Err(ToolError::invalid(
            "session",
            "session: the field session is for action clear_reads (for the rest, pass --session)",
        ));
    }
    crate::loops::check_session("session", other)?;
    if !ctx.harness && other != ctx.session {
        return Err(ToolError::invalid(
            "session",
            format!(
                "session: clearing session {other}'s read records is a harness's call: pass --harness (LOOPR_HARNESS=1)"
            ),
        ));
    }
    let n = reads::clear(&StateLock::acquire_for(ctx, other)?)?;
    Ok(Success::new(
        format!("Forgot {n} read record(s) of session {other}\n"),
        json!({"session": other, "cleared_reads": n}),
    ))
}

/// How many read records `session show` lists.
const SHOW_READS: usize = 1000;

fn show(ctx: &Ctx, lock: &StateLock, completed: Option<loops::Completion>) -> Result<Success> {
    let mut list: Vec<(String, String)> = reads::all(lock)
        .iter()
        .map(|(real, r)| {
            (
                ctx.show(Path::new(real), Some(Path::new(real))),
                r.read_at.clone(),
            )
        })
        .collect();
    // The most recent reads first-class, the rest counted: a session that has read 100,000
    // files should not answer with all of them (issue 22).
    let reads_total = list.len();
    if list.len() > SHOW_READS {
        list.sort_by(|a, b| b.1.cmp(&a.1));
        list.truncate(SHOW_READS);
    }
    list.sort();
    let todos = todo_counts(lock.load::<Value>(TODOS_FILE)?);
    let permits: crate::policy::approvals::Store = lock.load(crate::policy::approvals::FILE)?;
    let now = crate::policy::approvals::now()?
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let pending: Vec<Value> = permits
        .pending
        .iter()
        .filter(|p| p.expires > now)
        .map(|p| p.to_value())
        .collect();
    let undo_depth = journal::depth(lock)?;
    let jobs_running = crate::jobs::running(lock)?;
    let mut artifacts = serde_json::Map::new();
    for kind in loops::KINDS {
        let names = loops::artifact_names(ctx, &ctx.session, kind)?;
        artifacts.insert(kind.to_string(), json!(names));
    }

    let mut out = format!(
        "Root: {}\nSession: {}\nState: {}\n",
        ctx.root_real.display(),
        ctx.session,
        state::session_dir(ctx).display()
    );
    // The catalog in use (SPEC 19.1), and one found inside the root and not used.
    let policy = &ctx.policy;
    if let Some(f) = &policy.source {
        let mut line = format!("Catalog: {}", f.display());
        if let Some(p) = &policy.profile {
            line.push_str(&format!(" (profile {p})"));
        }
        out.push_str(&line);
        out.push('\n');
    } else if let Some(f) = &policy.ignored {
        out.push_str(&format!(
            "Catalog: none ({} is inside the root: used only when named with --config)\n",
            f.display()
        ));
    }
    let (line, hub) = hub_line(ctx)?;
    out.push_str(&line);
    out.push_str(&format!("Read files: {reads_total}\n"));
    if reads_total > list.len() {
        out.push_str(&format!("  (the {} most recent are listed)\n", list.len()));
    }
    for (path, at) in &list {
        out.push_str(&format!("  {path} (read {at})\n"));
    }
    out.push_str(&format!(
        "Todos: {} pending, {} in progress, {} completed\nUndo depth: {undo_depth}\nRunning jobs: {jobs_running}\n",
        todos["pending"], todos["in_progress"], todos["completed"]
    ));
    // Said only where there is something to say: a mode other than default, grants, approvals.
    let mode = serde_json::to_value(policy.mode).unwrap_or_default();
    if mode != "default" || !permits.granted.is_empty() || !pending.is_empty() {
        out.push_str(&format!(
            "Permission mode: {}\nGranted rules: {}\nPending approvals: {}\n",
            mode.as_str().unwrap_or(""),
            if permits.granted.is_empty() {
                "none".to_string()
            } else {
                permits.granted.join(", ")
            },
            pending.len()
        ));
    }
    for p in &pending {
        out.push_str(&format!(
            "  {} {} (expires {})\n",
            p["id"].as_str().unwrap_or(""),
            p["summary"].as_str().unwrap_or(""),
            p["expires_at"].as_str().unwrap_or("")
        ));
    }
    match &completed {
        Some(c) => out.push_str(&format!(
            "Completed: {} ({})\n",
            c.completed_at,
            crate::loops::render::one_line(&c.summary)
        )),
        None => out.push_str("Completed: no\n"),
    }
    for (kind, names) in &artifacts {
        let names: Vec<&str> = names
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        if !names.is_empty() {
            out.push_str(&format!("Artifacts ({kind}): {}\n", names.join(", ")));
        }
    }
    let (output, _) = crate::caps::fit(
        &out.lines().map(str::to_string).collect::<Vec<_>>(),
        crate::caps::OTHER,
        |_| None,
    );
    Ok(Success::new(
        output,
        json!({
            "root": ctx.root_real.to_string_lossy(),
            "session": ctx.session,
            "state_dir": ctx.state_dir.to_string_lossy(),
            "session_dir": state::session_dir(ctx).to_string_lossy(),
            "reads": list.iter().map(|(p, at)| json!({"path": p, "read_at": at})).collect::<Vec<_>>(),
            "reads_total": reads_total,
            "todos": todos,
            "undo_depth": undo_depth,
            "jobs_running": jobs_running,
            "catalog": policy.source.as_ref().map(|f| f.to_string_lossy()),
            "profile": policy.profile,
            "mode": policy.mode,
            "permissions": {"granted": permits.granted, "pending": pending},
            "completed": completed,
            "artifacts": artifacts,
            "hub": hub,
        }),
    ))
}

/// Where this session's loops meet, and every session the hub knows (SPEC 25.1).
fn hub_line(ctx: &Ctx) -> Result<(String, Value)> {
    let hub = ctx.hub()?;
    let sessions = loops::sessions(ctx)?;
    let names: Vec<&str> = sessions.iter().map(|k| k.session.as_str()).collect();
    let line = format!(
        "Hub: {} {} ({} session(s){}{})\n",
        hub.kind(),
        hub.id(),
        names.len(),
        if names.is_empty() { "" } else { ": " },
        names.join(", ")
    );
    Ok((
        line,
        json!({"kind": hub.kind(), "id": hub.id(), "sessions": sessions}),
    ))
}

/// The todo list's file; its full format belongs to the todo tool.
pub const TODOS_FILE: &str = "todos.json";

fn todo_counts(todos: Value) -> Value {
    let mut counts = json!({"pending": 0, "in_progress": 0, "completed": 0});
    let items = todos
        .get("items")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for item in items {
        let status = item.get("status").and_then(Value::as_str).unwrap_or("");
        if let Some(n) = counts.get_mut(status) {
            *n = json!(n.as_u64().unwrap_or(0) + 1);
        }
    }
    counts
}

/// Removes everything in the session directory but its lock file.
fn clear_dir(dir: &Path) -> Result<usize> {
    let mut removed = 0;
    let entries = std::fs::read_dir(dir).map_err(|e| ToolError::state(&e, dir))?;
    for entry in entries {
        let entry = entry.map_err(|e| ToolError::state(&e, dir))?;
        if entry.file_name() == "lock" {
            continue;
        }
        let path = entry.path();
        let result = if entry.file_type().is_ok_and(|t| t.is_dir()) {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        result.map_err(|e| ToolError::state(&e, &path))?;
        removed += 1;
    }
    Ok(removed)
}
