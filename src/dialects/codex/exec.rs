//! Codex's unified exec (SPEC 22.6): `exec_command` and `write_stdin`, a command that may go on
//! running and be typed into later. Here it is an interactive background job (run's
//! `interactive`, jobs' `write`), so the session outlives the `loopr-tool` process that started
//! it. The answers keep Codex's own text shape (`Wall time: …`, `Process exited with code N` or
//! `Process running with session ID N`, `Output:`), which Codex's models are trained on.

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::input;
use crate::tools::jobs::write::{self, Answer, Until};
use crate::tools::run::record::State;
use crate::tools::run::{self, exec, proc, tty};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::{Duration, Instant};

pub const SANDBOX_PERMISSIONS: (&str, &str) = (
    "sandbox_permissions",
    "`sandbox_permissions` was ignored: loopr-tool asks no one for approval; the command runs under the sandbox loopr-tool was started with",
);
pub const JUSTIFICATION: (&str, &str) = (
    "justification",
    "`justification` was ignored: loopr-tool asks no one for approval",
);
pub const PREFIX_RULE: (&str, &str) = (
    "prefix_rule",
    "`prefix_rule` was ignored: loopr-tool keeps no approval rules",
);

/// Codex's bounds on a wait (codex-rs `unified_exec`): 250 ms to 30 s; a `write_stdin` with no
/// `chars` (a poll) waits 5 s to 5 min.
const MIN_YIELD_MS: u64 = 250;
const MAX_YIELD_MS: u64 = 30_000;
const MIN_POLL_MS: u64 = 5_000;
const MAX_POLL_MS: u64 = 300_000;
/// Codex's `exec_command` and `write_stdin` default waits.
const EXEC_YIELD_MS: u64 = 10_000;
const WRITE_YIELD_MS: u64 = 250;
/// Characters per token where `max_output_tokens` is turned into a cap: about 4 in English
/// text and code (Codex's own estimate is bytes / 4).
const CHARS_PER_TOKEN: u64 = 4;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ExecCommand {
    cmd: String,
    workdir: Option<String>,
    yield_time_ms: Option<u64>,
    max_output_tokens: Option<u64>,
    shell: Option<String>,
    login: Option<bool>,
    /// A terminal for the command (SPEC 28): prompts, REPLs, pagers.
    tty: Option<bool>,
    /// Not Codex's: the terminal's size with `tty` (run's fields).
    rows: Option<u16>,
    cols: Option<u16>,
    /// Not Codex's: a catalog's `timeout_ms` for this name (limits::fill_defaults puts run's field
    /// in), the job's time limit.
    timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WriteStdin {
    /// A number in Codex's schema; our job ids are strings of digits, and both are taken.
    session_id: Value,
    chars: Option<String>,
    yield_time_ms: Option<u64>,
    max_output_tokens: Option<u64>,
    /// Not Codex's: a catalog's `timeout_ms` for this name (jobs' field), a ceiling on the wait.
    timeout_ms: Option<u64>,
}

/// `data` of both: the job, as Codex reports its process.
#[derive(Debug, Serialize)]
struct Reply {
    /// The job id (`jobs` takes it).
    id: String,
    /// While it runs: the number `write_stdin` takes.
    #[serde(skip_serializing_if = "Option::is_none")]
    session_id: Option<u64>,
    /// Once it has ended: its exit code (128 + N for a signal, as a shell reports it).
    #[serde(skip_serializing_if = "Option::is_none")]
    exit_code: Option<i32>,
    /// `running`, `exited`, … or, while it waits for input, `waiting_input` / `input_required`
    /// (SPEC 28).
    state: String,
    /// While it waits: the last line printed, and whether it wants a secret or a choice.
    #[serde(skip_serializing_if = "Option::is_none")]
    prompt: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    secret: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    choices: Option<Vec<String>>,
    wall_time_ms: u64,
    /// The log's bytes this answer covers, `[offset, next_offset)`.
    offset: u64,
    next_offset: u64,
    truncated: bool,
}

fn parse<T: serde::de::DeserializeOwned + JsonSchema>(name: &'static str, v: Value) -> Result<T> {
    input::parse::<T>(name, v, input::cached_schema::<T>(name))
}

/// `yield_time_ms` within Codex's bounds, with a warning when a given one was moved (a default
/// below a poll's bounds is moved quietly, as Codex does).
fn clamp_yield(ctx: &Ctx, given: Option<u64>, default: u64, (min, max): (u64, u64)) -> u64 {
    let want = given.unwrap_or(default);
    let ms = want.clamp(min, max);
    if ms != want && given.is_some() {
        ctx.warn(format!(
            "yield_time_ms {want} is outside {min}..={max} (Codex's bounds); waited {ms} ms"
        ));
    }
    ms
}

/// The output cap: run's, or `max_output_tokens` at about 4 characters a token.
fn budget(max_output_tokens: Option<u64>) -> usize {
    max_output_tokens.map_or(write::BUDGET, |t| {
        (t.saturating_mul(CHARS_PER_TOKEN) as usize).clamp(1, write::BUDGET)
    })
}

/// `exec_command`: starts `cmd` as an interactive background job and waits up to
/// `yield_time_ms` for it to end.
pub fn exec_command(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    let started = Instant::now();
    let given: ExecCommand = parse("exec_command", input)?;
    let program = match given.shell.as_deref() {
        None => None,
        Some(name) => Some(exec::find_shell(name).ok_or_else(|| {
            ToolError::invalid(
                "shell",
                format!("exec_command: shell {name:?} is not an executable on this machine"),
            )
            .hint("Name a shell that exists, e.g. \"/bin/bash\" or \"sh\", or leave `shell` out for bash.")
        })?),
    };
    let wait = clamp_yield(
        ctx,
        given.yield_time_ms,
        EXEC_YIELD_MS,
        (MIN_YIELD_MS, MAX_YIELD_MS),
    );
    let budget = budget(given.max_output_tokens);
    let run_input = run::Input {
        command: given.cmd,
        timeout_ms: given.timeout_ms,
        cwd: given.workdir.filter(|w| !w.is_empty()),
        env: None,
        stdin: None,
        background: Some(true),
        interactive: Some(true),
        tty: given.tty,
        rows: given.rows,
        cols: given.cols,
        network: None,
        sandbox: None,
        sandbox_fallback: None,
        description: None,
    };
    let shell = run::Shell {
        program,
        login: given.login.unwrap_or(false),
    };
    let start = run::run_in_shell(ctx, run_input, shell)?;
    let data = start.data.into_value(&[]);
    let id = data["id"].as_str().unwrap_or_default().to_string();
    let left = Duration::from_millis(wait).saturating_sub(started.elapsed());
    let answer = write::collect(ctx, &id, (0, 0), left, Until::End, budget)?;
    Ok(reply(answer, started, given.max_output_tokens))
}

/// `write_stdin`: types `chars` into session `session_id` and waits up to `yield_time_ms`.
pub fn write_stdin(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    let started = Instant::now();
    let given: WriteStdin = parse("write_stdin", input)?;
    let id = match &given.session_id {
        Value::Number(n) if n.as_u64().is_some() => n.to_string(),
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => s.clone(),
        other => {
            return Err(ToolError::invalid(
                "session_id",
                format!(
                    "write_stdin: `session_id` must be the number exec_command gave, got {other}"
                ),
            ));
        }
    };
    let chars = given.chars.unwrap_or_default();
    let bounds = if chars.is_empty() {
        (MIN_POLL_MS, MAX_POLL_MS)
    } else {
        (MIN_YIELD_MS, MAX_YIELD_MS)
    };
    let wait = clamp_yield(ctx, given.yield_time_ms, WRITE_YIELD_MS, bounds);
    let timeout = Duration::from_millis(given.timeout_ms.map_or(wait, |t| wait.min(t)));
    let mark = write::log_size(ctx, &id);
    write::send(ctx, &id, &chars, timeout)?;
    let sent = tty::now_us();
    let left = timeout.saturating_sub(started.elapsed());
    let budget = budget(given.max_output_tokens);
    let answer = write::collect(ctx, &id, (mark, sent), left, Until::End, budget)?;
    Ok(reply(answer, started, given.max_output_tokens))
}

/// Codex's answer (codex-rs `format_response`): the wall time, the exit or the session, then the
/// output.
fn reply(a: Answer, started: Instant, max_output_tokens: Option<u64>) -> Success {
    let running = a.job.state == State::Running;
    let exit_code = (!running).then(|| {
        a.job.exit_code.unwrap_or_else(|| {
            a.job
                .signal
                .as_deref()
                .and_then(proc::signal_number)
                .map_or(-1, |n| 128 + n)
        })
    });
    let wall = started.elapsed();
    let mut out = format!("Wall time: {:.4} seconds\n", wall.as_secs_f64());
    match exit_code {
        Some(c) => out.push_str(&format!("Process exited with code {c}\n")),
        None => out.push_str(&format!("Process running with session ID {}\n", a.job.id)),
    }
    if a.truncated {
        let bytes = a.to - a.from;
        out.push_str(&format!(
            "Original token count: {}\n",
            bytes.div_ceil(CHARS_PER_TOKEN)
        ));
        if let Some(t) = max_output_tokens {
            out.push_str(&format!(
                "(output cut to max_output_tokens {t}, at about {CHARS_PER_TOKEN} characters a token)\n"
            ));
        }
    }
    let waiting = a.term.as_ref().filter(|t| running && write::waits(t));
    out.push_str("Output:\n");
    out.push_str(&a.text);
    // After Codex's own shape, which its models are trained on.
    if let Some(t) = waiting {
        out.push_str(&write::waiting_line(t));
    }
    let state = match waiting {
        Some(t) => t.state.clone(),
        None => serde_json::to_value(a.job.state)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default(),
    };
    let data = Reply {
        prompt: waiting.and_then(|t| t.prompt.clone()),
        secret: waiting.is_some_and(|t| t.secret),
        choices: waiting.and_then(|t| t.choices.clone()),
        session_id: running.then(|| a.job.id.parse().ok()).flatten(),
        id: a.job.id,
        exit_code,
        state,
        wall_time_ms: wall.as_millis() as u64,
        offset: a.from,
        next_offset: a.to,
        truncated: a.truncated,
    };
    Success::new(
        out,
        serde_json::to_value(data).expect("a reply is plain data"),
    )
}
