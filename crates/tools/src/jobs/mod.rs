//! `jobs` (SPEC §15, 16.8): the session's runs — list them, page a log, wait for the end, kill,
//! and type into an interactive one (write.rs). Everything comes from the job records, logs and
//! FIFOs in the state dir, so this works from any `loopr-tool` process, not only the one that
//! started the job.

pub mod write;

use crate::caps;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::run::clean::{Cleaner, WholeLines};
use crate::run::record::{self, Job, State};
use crate::run::runtime;
use crate::run::term;
use crate::run::tty::{self, Status};
use crate::run::{one_line, secs};
use crate::state::{self, StateLock};
use crate::tool::{Effect, Hints, Tool};
use grep_matcher::Matcher;
use grep_regex::RegexMatcher;
use regex::Regex;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use std::io::{Read, Seek, SeekFrom};
use std::time::{Duration, Instant};

pub struct Jobs;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Every run of the session, newest first.
    #[default]
    List,
    /// A job's log from `offset`, cleaned and capped; `block` waits for the job to end first.
    Output,
    /// End the job and everything it started.
    Kill,
    /// Wait for the job to end (up to `timeout_ms`), then show its output: `output` with `block`.
    Wait,
    /// Type `chars` into an interactive job's stdin, then show what it printed since the last
    /// read.
    Write,
    /// An interactive job's screen as text (a `tty` job's terminal: top, a curses menu).
    Screen,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// `list` (default), `output`, `kill`, `wait`, `write` or `screen`.
    #[schemars(extend("default" = "list"))]
    pub action: Option<Action>,
    /// The job's id (from run's `data.id`), for output, kill, wait, write and screen.
    pub id: Option<String>,
    /// write: the text to type into the job's stdin, newlines included (`"yes\n"`); `""` only
    /// looks for new output. The job must have been started with `interactive: true`. On a
    /// terminal (`tty`), keys too: `\u0003` Ctrl-C, `\u0004` Ctrl-D, `\u001b[A` up.
    pub chars: Option<String>,
    /// output/wait: where in the raw log to start, in bytes (a cut output and each page name
    /// the next offset). Default 0.
    pub offset: Option<u64>,
    /// output: wait for the job to end (or `timeout_ms`) before answering. Default false.
    #[schemars(extend("default" = false))]
    pub block: Option<bool>,
    /// output with block, and wait: how long to wait, in milliseconds (default 30000). write:
    /// how long to wait for the job to answer (default 2000); the answer comes as soon as the
    /// program waits for input again, or has ended.
    #[schemars(range(min = 1, max = 600_000), extend("default" = 30_000))]
    pub timeout_ms: Option<u64>,
    /// output/wait: keep only the lines matching this regular expression.
    pub filter: Option<String>,
    /// wait: also return as soon as this regular expression matches the job's cleaned output
    /// (from `offset`), with `data.match`; if the time runs out first, `data.matched` is false.
    pub until: Option<String>,
    /// output/wait without `offset`: start where the previous `since_last` call of this job
    /// stopped, so each call shows only what is new. Default false.
    #[schemars(extend("default" = false))]
    pub since_last: Option<bool>,
}

impl Tool for Jobs {
    type Input = Input;
    const NAME: &'static str = "jobs";
    const SUMMARY: &'static str = "List, page, wait for and kill the session's runs";
    const DESCRIPTION: &'static str = "Looks after the session's runs, background ones above all. `list` (default): every run, newest first, with its state (running, exited N, killed, timed out). \
`output` with `id`: the run's log from `offset` (bytes; each page names the next offset), cleaned like run's output, with the job's state; `block: true` first waits for the job to end or for `timeout_ms` (default 30000). `wait` is output with block. `filter` keeps matching lines; `since_last: true` shows only what is new since the previous such call. \
`kill` with `id`: ends the job and every process it started (SIGTERM, then SIGKILL after 2 s); a job that already ended is not an error. \
`write` with `id` and `chars`: types `chars` into a job started with run's `interactive: true` (a REPL, a prompt; with run's `tty: true` on a terminal, keys included), then waits up to `timeout_ms` (default 2000) until it waits for input again or ends, and returns what it printed since the last read, with its state. \
An interactive job that waits for input has state `waiting_input` (read from the kernel, with `prompt`, its last line), or `input_required` for a password prompt (`secret: true`: what you type then is never echoed, logged or kept) or a y/N question (`choices`); `wait` returns at once on either. `wait` with `until` (a regex) also returns when the output matches (`data.match`; `data.matched: false` if the time ran out). `screen` with `id`: the terminal's screen as text (top, less, a curses menu), kept after the job ends. Works from any loopr-tool process of the same session.";
    const POSITIONALS: &'static [&'static str] = &["action"];
    const EXAMPLES: &'static str = "  echo '{\"action\": \"output\", \"id\": \"3\", \"block\": true}' | loopr-tool jobs\n  echo '{\"action\": \"write\", \"id\": \"4\", \"chars\": \"print(6*7)\\n\"}' | loopr-tool jobs\n  loopr-tool jobs kill --id 3";
    const HINTS: Hints = Hints::DESTRUCTIVE;

    fn read_only(input: &Input) -> bool {
        // SPEC 16.9: list and output only look (a since_last bookmark is not worth a writer slot).
        matches!(
            input.action.unwrap_or_default(),
            Action::List | Action::Output | Action::Screen
        )
    }

    fn effect(input: &Input) -> Effect {
        // SPEC 24.7: in mcp a wait only looks too, so a read is never held behind it.
        match input.action.unwrap_or_default() {
            Action::List | Action::Output | Action::Wait | Action::Screen => Effect::Reads,
            Action::Kill | Action::Write => Effect::Commands,
        }
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let action = input.action.unwrap_or_default();
        check_fields(action, &input)?;
        match action {
            Action::List => list(ctx),
            Action::Output | Action::Wait => output(ctx, action, &input),
            Action::Kill => kill(ctx, input.id.as_deref().unwrap_or_default()),
            Action::Write => write(ctx, &input),
            Action::Screen => screen(ctx, input.id.as_deref().unwrap_or_default()),
        }
    }
}

/// A field the action does not use is refused by name (SPEC 16.8), as todo does.
fn check_fields(action: Action, i: &Input) -> Result<()> {
    let word = match action {
        Action::List => "list",
        Action::Output => "output",
        Action::Kill => "kill",
        Action::Wait => "wait",
        Action::Write => "write",
        Action::Screen => "screen",
    };
    let given = [
        ("id", i.id.is_some()),
        ("chars", i.chars.is_some()),
        ("offset", i.offset.is_some()),
        ("block", i.block.is_some()),
        ("timeout_ms", i.timeout_ms.is_some()),
        ("filter", i.filter.is_some()),
        ("since_last", i.since_last.is_some()),
        ("until", i.until.is_some()),
    ];
    let allowed: &[&str] = match action {
        Action::List => &[],
        Action::Kill => &["id"],
        Action::Output => &[
            "id",
            "offset",
            "block",
            "timeout_ms",
            "filter",
            "since_last",
        ],
        Action::Wait => &[
            "id",
            "offset",
            "timeout_ms",
            "filter",
            "since_last",
            "until",
        ],
        Action::Write => &["id", "chars", "timeout_ms"],
        Action::Screen => &["id"],
    };
    for (field, present) in given {
        if present && !allowed.contains(&field) {
            return Err(ToolError::invalid(
                field,
                format!("field `{field}` is not used by action `{word}`"),
            )
            .hint(if action == Action::Wait && field == "block" {
                "wait always blocks; use action output with block: false to look without waiting."
            } else {
                "Leave it out, or pick the action that uses it."
            }));
        }
    }
    if action != Action::List && i.id.is_none() {
        return Err(
            ToolError::invalid("id", format!("action `{word}` needs the job's `id`"))
                .hint("`jobs` with action list shows the ids."),
        );
    }
    if action == Action::Write && i.chars.is_none() {
        return Err(ToolError::invalid(
            "chars",
            "action `write` needs `chars`, the text to type (\"\" only looks for new output)",
        )
        .hint("End a line with \\n, as pressing Enter would."));
    }
    if action == Action::Output && i.timeout_ms.is_some() && i.block != Some(true) {
        return Err(ToolError::invalid(
            "timeout_ms",
            "field `timeout_ms` only applies with block: true",
        ));
    }
    Ok(())
}

fn find(ctx: &Ctx, id: &str) -> Result<Job> {
    let lock = StateLock::acquire(ctx)?;
    let jobs = record::load_settled(&lock)?;
    jobs.jobs.into_iter().find(|j| j.id == id).ok_or_else(|| {
        ToolError::new(
            Code::NotFound,
            format!("no job {id:?} in session {}", ctx.session),
        )
        .with("id", id)
        .hint("`jobs` with action list shows the session's jobs (the last 20 runs are kept).")
    })
}

/// A running job's published state when it waits for input (SPEC 28), else None.
fn waiting(ctx: &Ctx, j: &Job) -> Option<Status> {
    if j.state != State::Running || !j.interactive {
        return None;
    }
    term::read(ctx, &j.id).filter(write::waits)
}

/// `item` with a waiting job's state (`waiting_input`, `input_required`) and its prompt.
fn item_now(ctx: &Ctx, j: &Job) -> Value {
    let mut v = item(j);
    if let Some(t) = waiting(ctx, j) {
        v["state"] = json!(t.state);
        v["prompt"] = json!(t.prompt);
        if t.secret {
            v["secret"] = json!(true);
        }
        if let Some(c) = &t.choices {
            v["choices"] = json!(c);
        }
        if let Some(r) = &t.reader {
            v["reader"] = json!(r);
        }
    }
    v
}

fn item(j: &Job) -> Value {
    let mut v = json!({
        "id": j.id,
        "description": j.description,
        "command": j.command,
        "state": j.state,
        "exit_code": j.exit_code,
        "signal": j.signal,
        "started_at": j.started_at,
        "duration_ms": j.duration_ms(),
        "background": j.background,
        "cwd": j.cwd,
        "output_bytes": j.output_bytes,
    });
    if j.interactive {
        v["interactive"] = json!(true);
    }
    if j.tty {
        v["tty"] = json!(true);
    }
    v
}

fn list(ctx: &Ctx) -> Result<Success> {
    let jobs = {
        let lock = StateLock::acquire(ctx)?;
        record::load_settled(&lock)?
    };
    let newest_first: Vec<&Job> = jobs.jobs.iter().rev().collect();
    let mut lines = vec![];
    if newest_first.is_empty() {
        lines.push(format!("No jobs in session {}.", ctx.session));
    }
    for j in &newest_first {
        let label = if j.description.is_some() {
            format!("{} ({})", j.label(), one_line(&j.command, 80, "⏎"))
        } else {
            one_line(&j.command, 120, "⏎")
        };
        let state = waiting(ctx, j).map_or_else(|| j.state_text(), |t| t.state);
        lines.push(format!(
            "{:>4}  {:<14} {:>9}  {}{}  [started {}]",
            j.id,
            state,
            secs(j.duration_ms()),
            if j.interactive {
                "(interactive) "
            } else if j.background {
                "(background) "
            } else {
                ""
            },
            label,
            j.started_at
        ));
    }
    let (output, _) = caps::fit(&lines, caps::OTHER, |k| {
        (k < lines.len()).then(|| {
            format!(
                "({} more jobs not shown; data.jobs has them all)",
                lines.len() - k
            )
        })
    });
    let running = jobs
        .jobs
        .iter()
        .filter(|j| j.state == State::Running)
        .count();
    Ok(Success::new(
        output,
        json!({
            "jobs": newest_first.iter().map(|j| item_now(ctx, j)).collect::<Vec<_>>(),
            "running": running,
        }),
    ))
}

/// How much a job has written to its log so far.
fn log_size(ctx: &Ctx, id: &str) -> Option<u64> {
    let path = record::log_path(&crate::state::session_dir(ctx), id);
    std::fs::metadata(path).ok().map(|m| m.len())
}

/// Waits until the job is no longer running, waits for input (SPEC 28), `until` matches its
/// output from `offset` (the match is returned), or `timeout` passes; returns the record.
fn wait_for_end(
    ctx: &Ctx,
    job: Job,
    timeout: Duration,
    until: Option<(&Regex, u64)>,
) -> Result<(Job, Option<String>)> {
    let stop = Instant::now() + timeout;
    let mut job = job;
    loop {
        if let Some((re, from)) = until
            && let Some(m) = matched(ctx, &job.id, re, from)
        {
            return Ok((job, Some(m)));
        }
        if job.state != State::Running || waiting(ctx, &job).is_some() {
            break;
        }
        // A cancelled wait stops waiting (SPEC 22.1); the job itself goes on.
        if ctx.cancelled() {
            return Err(crate::error::ToolError::cancelled("the wait"));
        }
        // Looks again at least every 250 ms, for a cancel; every 20 ms at a job that may come
        // to wait for input, or whose output is watched.
        let every = if job.interactive || until.is_some() {
            Duration::from_millis(20)
        } else {
            Duration::from_millis(250)
        };
        let left = stop.saturating_duration_since(Instant::now()).min(every);
        if left.is_zero() {
            break;
        }
        if let Some(n) = job.output_bytes.or_else(|| log_size(ctx, &job.id)) {
            ctx.control.set_amount(n);
            ctx.control.set_message(format!(
                "job {} is running; {n} bytes of output so far",
                job.id
            ));
        }
        runtime::nap(&job, left);
        job = find(ctx, &job.id)?;
    }
    Ok((job, None))
}

/// At most this much of the log's end is searched by `until`.
const UNTIL_WINDOW: u64 = 4 << 20;

/// The first match of `re` in job `id`'s cleaned output from `from` (its last 4 MiB).
fn matched(ctx: &Ctx, id: &str, re: &Regex, from: u64) -> Option<String> {
    let path = record::log_path(&state::session_dir(ctx), id);
    let mut file = std::fs::File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    let start = from.max(size.saturating_sub(UNTIL_WINDOW));
    if start >= size {
        return None;
    }
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut raw = vec![];
    file.take(size - start).read_to_end(&mut raw).ok()?;
    let mut text = String::new();
    let mut take = WholeLines::new(|line: String, _| {
        text.push_str(&line);
        text.push('\n');
        true
    });
    let mut cleaner = Cleaner::new(start);
    cleaner.feed(&raw, &mut take);
    cleaner.finish(&mut take);
    re.find(&text).map(|m| m.as_str().to_string())
}

/// A regex field compiled, or `invalid_regex` naming it.
fn compiled<T, E: std::fmt::Display>(
    field: &str,
    given: Option<&str>,
    compile: impl Fn(&str) -> std::result::Result<T, E>,
) -> Result<Option<T>> {
    given
        .map(|p| {
            compile(p).map_err(|e| {
                ToolError::new(Code::InvalidRegex, format!("{field} does not compile: {e}"))
                    .with("field", field)
            })
        })
        .transpose()
}

fn output(ctx: &Ctx, action: Action, input: &Input) -> Result<Success> {
    let id = input.id.as_deref().unwrap_or_default();
    let mut job = find(ctx, id)?;
    let timeout = Duration::from_millis(input.timeout_ms.unwrap_or(30_000));
    let blocked = action == Action::Wait || input.block == Some(true);
    let until = compiled("until", input.until.as_deref(), Regex::new)?;
    let filter = compiled("filter", input.filter.as_deref(), RegexMatcher::new)?;
    let from = input.offset.unwrap_or(if input.since_last == Some(true) {
        job.read_offset
    } else {
        0
    });
    let mut found = None;
    if blocked {
        (job, found) = wait_for_end(ctx, job, timeout, until.as_ref().map(|r| (r, from)))?;
    }
    let since_last = input.since_last == Some(true) && input.offset.is_none();
    let offset = match (input.offset, since_last) {
        (Some(o), _) => o,
        (None, true) => job.read_offset,
        (None, false) => 0,
    };
    let log = record::log_path(&state::session_dir(ctx), &job.id);
    let page = page(&log, offset, caps::OTHER - 600, filter.as_ref())?;
    if since_last {
        record::update(ctx, &job.id, |j| j.read_offset = page.next_offset)?;
    }
    let mut out = page.text.clone();
    if page.text.is_empty() {
        out.push_str(if offset > 0 {
            "(no output past this offset yet)\n"
        } else {
            "(no output yet)\n"
        });
    }
    if page.more {
        out.push_str(&format!(
            "[more output: continue with offset {} (the log holds {} bytes)]\n",
            page.next_offset, page.log_bytes
        ));
    }
    if let Some(n) = &job.note {
        out.push_str(&format!("Note: {n}\n"));
    }
    let waits = waiting(ctx, &job);
    if let Some(m) = &found {
        out.push_str(&format!("Matched `until`: {m:?}\n"));
    } else if until.is_some() {
        out.push_str("`until` did not match (yet).\n");
    }
    if let Some(t) = &waits {
        out.push_str(&write::waiting_line(t));
    }
    out.push_str(&state_line(
        &job,
        blocked && found.is_none() && waits.is_none(),
    ));
    let mut data = item_now(ctx, &job);
    if until.is_some() {
        data["matched"] = json!(found.is_some());
        if let Some(m) = found {
            data["match"] = json!(m);
        }
    }
    data["offset"] = json!(offset);
    data["next_offset"] = json!(page.next_offset);
    data["log_bytes"] = json!(page.log_bytes);
    data["truncated"] = json!(page.more);
    Ok(Success::new(out, data))
}

fn state_line(j: &Job, blocked: bool) -> String {
    let took = secs(j.duration_ms());
    match j.state {
        State::Running if blocked => {
            format!(
                "Job {} is still running ({took} so far); the wait ran out",
                j.id
            )
        }
        State::Running => format!("Job {} is running ({took} so far)", j.id),
        State::Exited => format!(
            "Job {} exited with code {} ({took}){}",
            j.id,
            j.exit_code.unwrap_or(-1),
            if j.processes_ended > 0 {
                format!(
                    "; {} process(es) it left running were ended",
                    j.processes_ended
                )
            } else {
                String::new()
            }
        ),
        State::Killed => format!(
            "Job {} was killed{} ({took})",
            j.id,
            j.signal
                .as_ref()
                .map(|s| format!(" by signal {s}"))
                .unwrap_or_default()
        ),
        State::TimedOut => format!(
            "Job {} timed out ({took}); {} processes ended",
            j.id, j.processes_ended
        ),
    }
}

pub struct Page {
    pub text: String,
    pub next_offset: u64,
    pub log_bytes: u64,
    pub more: bool,
}

/// Whole cleaned lines of the log from `offset` that fit in `budget` characters. A first line
/// longer than the budget shows its start, so paging always moves on.
pub fn page(
    path: &std::path::Path,
    offset: u64,
    budget: usize,
    filter: Option<&RegexMatcher>,
) -> Result<Page> {
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Page {
                text: String::new(),
                next_offset: offset,
                log_bytes: 0,
                more: false,
            });
        }
        Err(e) => return Err(ToolError::state(&e, path)),
    };
    let log_bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    if offset >= log_bytes {
        return Ok(Page {
            text: String::new(),
            next_offset: offset,
            log_bytes,
            more: false,
        });
    }
    file.seek(SeekFrom::Start(offset))
        .map_err(|e| ToolError::state(&e, path))?;
    let mut text = String::new();
    let mut used = 0usize;
    let mut next = offset;
    let mut full = false;
    let mut take = WholeLines::new(|line: String, end: u64| -> bool {
        if full {
            return false;
        }
        if filter.is_some_and(|m| !m.is_match(line.as_bytes()).unwrap_or(false)) {
            next = end;
            return true;
        }
        let n = line.chars().count() + 1;
        if used + n > budget {
            if used == 0 {
                text.extend(line.chars().take(budget.saturating_sub(40)));
                text.push_str(" … [line cut]\n");
                next = end;
            }
            full = true;
            return false;
        }
        used += n;
        text.push_str(&line);
        text.push('\n');
        next = end;
        true
    });
    let mut cleaner = Cleaner::new(offset);
    let mut buf = vec![0u8; 64 * 1024];
    let mut left = log_bytes - offset;
    while left > 0 {
        let want = buf.len().min(left as usize);
        let n = match file.read(&mut buf[..want]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => return Err(ToolError::state(&e, path)),
        };
        left -= n as u64;
        if !cleaner.feed(&buf[..n], &mut take) {
            break;
        }
    }
    cleaner.finish(&mut take);
    Ok(Page {
        text,
        next_offset: next,
        log_bytes,
        more: next < log_bytes,
    })
}

/// `kill`: asks the job's owner to record `killed`, then ends every process below the owner
/// (SIGTERM, SIGKILL after 2 s), each checked by start time, and waits for the record.
fn kill(ctx: &Ctx, id: &str) -> Result<Success> {
    let job = find(ctx, id)?;
    if job.state != State::Running {
        let left = runtime::end_left_behind(ctx, &job);
        let out = if left > 0 {
            format!(
                "Job {} had already ended ({}), but {left} process(es) it left were still running; they were ended\n",
                job.id,
                job.state_text()
            )
        } else {
            format!(
                "Job {} had already ended ({}); nothing to kill\n",
                job.id,
                job.state_text()
            )
        };
        let mut data = item(&job);
        data["processes_ended"] = json!(left);
        return Ok(Success::new(out, data));
    }
    let ended = runtime::end_job(ctx, &job)?;
    let job = find(ctx, id)?;
    let mut out = format!("Killed job {}: {}\n", job.id, job.label());
    out.push_str(&format!("{} process(es) ended\n", ended));
    out.push_str(&state_line(&job, false));
    let mut data = item(&job);
    data["processes_ended"] = json!(ended);
    Ok(Success::new(out, data))
}

/// `write`: types into an interactive job and answers with what it printed since the last read.
fn write(ctx: &Ctx, input: &Input) -> Result<Success> {
    let id = input.id.as_deref().unwrap_or_default();
    let chars = input.chars.as_deref().unwrap_or_default();
    let timeout = Duration::from_millis(input.timeout_ms.unwrap_or(write::DEFAULT_TIMEOUT_MS));
    let mark = write::log_size(ctx, id);
    let started = Instant::now();
    let before = term::read(ctx, id);
    write::send(ctx, id, chars, timeout)?;
    let sent = tty::now_us();
    let left = timeout.saturating_sub(started.elapsed());
    let a = write::collect(
        ctx,
        id,
        (mark, sent),
        left,
        write::Until::Quiet,
        write::BUDGET,
    )?;
    let mut out = a.text.clone();
    let waits = waiting(ctx, &a.job);
    if a.text.is_empty() && a.job.state == State::Running && waits.is_none() {
        out.push_str(&format!(
            "(no new output within {})\n",
            secs(timeout.as_millis() as u64)
        ));
    } else if a.text.is_empty() {
        out.push_str("(no new output)\n");
    }
    if let Some(t) = &waits {
        out.push_str(&write::waiting_line(t));
    }
    out.push_str(&state_line(&a.job, false));
    let mut data = item_now(ctx, &a.job);
    data["bytes_written"] = json!(chars.len());
    // What was typed at a secret prompt is said to be so, and shown nowhere (SPEC 28).
    if before.is_some_and(|b| b.secret) {
        data["typed_secret"] = json!(true);
    }
    data["offset"] = json!(a.from);
    data["next_offset"] = json!(a.to);
    data["truncated"] = json!(a.truncated);
    Ok(Success::new(out, data))
}

/// `screen`: the job's terminal as text, rows joined by newlines (SPEC 28); kept after it ends.
fn screen(ctx: &Ctx, id: &str) -> Result<Success> {
    let job = find(ctx, id)?;
    let Some(st) = term::read(ctx, id).filter(|_| job.interactive) else {
        return Err(ToolError::invalid(
            "id",
            format!("job {id} has no screen: only a job started with interactive: true (and best, tty: true) keeps one"),
        )
        .with("id", id)
        .hint("Use action output for its log."));
    };
    let mut out = String::new();
    out.push_str(&st.screen);
    if !st.screen.is_empty() {
        out.push('\n');
    }
    if let Some(t) = waiting(ctx, &job) {
        out.push_str(&write::waiting_line(&t));
    }
    out.push_str(&state_line(&job, false));
    let mut data = item_now(ctx, &job);
    data["screen"] = json!(st.screen);
    data["rows"] = json!(st.rows);
    data["cols"] = json!(st.cols);
    Ok(Success::new(out, data))
}

/// `session reset` ends the session's jobs through run's runtime.
pub use crate::run::runtime::end_all;

/// Running jobs of the session (for `session show`).
pub fn running(lock: &StateLock) -> Result<usize> {
    Ok(record::load_settled(lock)?
        .jobs
        .iter()
        .filter(|j| j.state == State::Running)
        .count())
}
