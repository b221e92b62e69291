//! Typing into an interactive job (SPEC 22.6, 24.7): `jobs` action `write`, and Codex's
//! `exec_command` / `write_stdin` on top of it. The bytes go to the job's stdin FIFO
//! (run/stdin.rs) from whichever `loopr-tool` process is asked; the answer is what the job
//! printed since the last read (the `since_last` bookmark `jobs output` keeps), capped as run's
//! output is, and its state.

use super::find;
use crate::caps;
use crate::context::Ctx;
use crate::error::{Code, Result, ToolError};
use crate::run::capture::Capture;
use crate::run::record::{self, Job, State};
use crate::run::tty::{self, Status};
use crate::run::{self, page_hint, runtime, stdin, term};
use crate::state;
use std::io::{Read, Seek, SeekFrom};
use std::time::{Duration, Instant};

/// `jobs write` waits this long by default (SPEC 28). Codex's `write_stdin` waits 250 ms,
/// always; ours answers as soon as the program waits for input again (read from the kernel,
/// run/term.rs), so a longer ceiling only costs time when the job is busy.
pub const DEFAULT_TIMEOUT_MS: u64 = 2000;
/// Output that has come and then stayed quiet this long is an answer (`Until::Quiet`).
const QUIET: Duration = Duration::from_millis(100);
/// Characters of output a write shows: run's cap, less room for the closing lines.
pub const BUDGET: usize = caps::RUN - 700;

/// When a wait after a write (or a start) is over, short of the job's end or the time limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// Once the job has printed something new and then nothing for `QUIET` (`jobs write`).
    Quiet,
    /// Only at its end (Codex's `exec_command` and `write_stdin` wait their whole yield time).
    End,
}

/// What the job printed since the last read, and its state after the wait.
pub struct Answer {
    pub job: Job,
    /// Cleaned lines, each ending in `\n` (empty when nothing new was printed).
    pub text: String,
    pub truncated: bool,
    /// The log's bytes shown: `[from, to)`; the bookmark is now `to`.
    pub from: u64,
    pub to: u64,
    /// Its terminal's state (an interactive job): `waiting_input`, the prompt, the screen.
    pub term: Option<Status>,
}

/// Whether `name` (a command name or path) is a shell, whose typed lines the guard reads.
fn is_shell(name: &str) -> bool {
    let base = name.rsplit('/').next().unwrap_or(name);
    matches!(
        base.trim_start_matches('-'),
        "bash" | "sh" | "dash" | "zsh" | "ksh" | "mksh" | "ash" | "fish" | "busybox"
    )
}

/// The guard (SPEC 28) on what is typed into a shell — the job's own command is a shell, or a
/// shell is the process reading the terminal: each line is checked as a command would be,
/// before anything is sent. Text typed at a secret prompt is not a command.
fn guard_typed(ctx: &Ctx, job: &Job, chars: &str) -> Result<()> {
    let st = term::read(ctx, &job.id);
    if st.as_ref().is_some_and(|s| s.secret) {
        return Ok(());
    }
    let reader = st
        .as_ref()
        .and_then(|s| s.reader.as_deref())
        .is_some_and(is_shell);
    let command = job.command.split_whitespace().next().is_some_and(is_shell);
    if !(reader || command) {
        return Ok(());
    }
    let cwd = ctx.root_real.join(&job.cwd);
    for line in chars.split(['\n', '\r']).filter(|l| !l.trim().is_empty()) {
        run::guard_line(ctx, line, &cwd, &[]).map_err(|e| e.with("id", job.id.as_str()))?;
    }
    Ok(())
}

/// How many bytes the job's log holds now.
pub fn log_size(ctx: &Ctx, id: &str) -> u64 {
    std::fs::metadata(record::log_path(&state::session_dir(ctx), id)).map_or(0, |m| m.len())
}

/// Writes `chars` to job `id`'s stdin, waiting up to `timeout` while its pipe is full. The job
/// must be interactive and running; empty `chars` writes nothing (a poll).
pub fn send(ctx: &Ctx, id: &str, chars: &str, timeout: Duration) -> Result<Job> {
    let job = find(ctx, id)?;
    if !job.interactive {
        return Err(ToolError::invalid(
            "id",
            format!(
                "job {id} was not started with interactive: true: its stdin is not open for writing"
            ),
        )
        .with("id", id)
        .hint("Start the command with run (background: true, interactive: true) to type into it later."));
    }
    if job.state != State::Running {
        return Err(ended(ctx, &job, 0));
    }
    if chars.is_empty() {
        return Ok(job);
    }
    guard_typed(ctx, &job, chars)?;
    let path = record::stdin_path(&state::session_dir(ctx), id);
    match stdin::send(&path, chars.as_bytes(), Instant::now() + timeout) {
        Ok(()) => Ok(job),
        Err(stdin::Refused::Ended(n)) => {
            // The FIFO goes just before the record is settled: give the supervisor a moment,
            // so the error can say how the job ended.
            let job = settled(ctx, job, Duration::from_secs(3));
            Err(ended(ctx, &job, n))
        }
        Err(stdin::Refused::Full(n)) => Err(ToolError::new(
            Code::Timeout,
            format!(
                "job {id} is not reading its stdin: {n} of {} bytes were written before timeout_ms ran out; the rest was not",
                chars.len()
            ),
        )
        .with("id", id)
        .with("bytes_written", n)
        .hint(stuck_hint(ctx, id))),
        Err(stdin::Refused::Other(m)) => Err(ToolError::new(
            Code::IoError,
            format!("job {id}: {m}"),
        )
        .with("id", id)),
    }
}

/// The error for a write to a job that has ended.
fn ended(ctx: &Ctx, job: &Job, written: usize) -> ToolError {
    let how = if job.state == State::Running {
        "its shell has exited".to_string()
    } else {
        job.state_text()
    };
    let mut msg = format!(
        "job {} has ended ({how}): its stdin is closed, so nothing more can be written to it",
        job.id
    );
    if written > 0 {
        msg.push_str(&format!(" ({written} bytes went in before it closed)"));
    }
    ToolError::invalid("id", msg)
        .with("id", job.id.as_str())
        .with("state", job.state_text())
        .hint(match ctx.offered("jobs", Some("output")) {
            Some(o) => format!(
                "What it printed: {}. To go on, start it again.",
                o.call(Some("output"), &[("id", &job.id)])
            ),
            None => "To go on, start it again.".to_string(),
        })
}

/// What to do with a job that does not read its stdin, in the names the model has (25.5).
fn stuck_hint(ctx: &Ctx, id: &str) -> String {
    let output = ctx.offered("jobs", Some("output"));
    let kill = ctx.offered("jobs", Some("kill"));
    let mut parts = vec![];
    if let Some(o) = output {
        parts.push(format!(
            "Its output may say why ({})",
            o.call(Some("output"), &[("id", id)])
        ));
    }
    if let Some(k) = kill {
        parts.push(format!(
            "end it with {}",
            k.call(Some("kill"), &[("id", id)])
        ));
    }
    if parts.is_empty() {
        return "It may be waiting for something else than its stdin.".to_string();
    }
    format!("{}.", parts.join("; "))
}

/// The job's record once it is no longer running, or as it is after `within`.
fn settled(ctx: &Ctx, mut job: Job, within: Duration) -> Job {
    let stop = Instant::now() + within;
    while job.state == State::Running && Instant::now() < stop {
        runtime::nap(&job, Duration::from_millis(50));
        match find(ctx, &job.id) {
            Ok(j) => job = j,
            Err(_) => break,
        }
    }
    job
}

/// Waits up to `timeout` for job `id` to end or to wait for input in a look begun after
/// `after_us` (SPEC 28; or, for a job without a published state, with `Until::Quiet`, to print
/// something new past the log's `mark` and fall quiet), then takes what it printed since the
/// last read.
pub fn collect(
    ctx: &Ctx,
    id: &str,
    (mark, after_us): (u64, u64),
    timeout: Duration,
    until: Until,
    budget: usize,
) -> Result<Answer> {
    // Within a catalog's time limit for the call, a wait ends a little before it, so the
    // answer is what came by then rather than a `timeout`.
    let timeout = match ctx.control.remaining() {
        Some(left) => timeout.min(left.saturating_sub(Duration::from_millis(50))),
        None => timeout,
    };
    let stop = Instant::now() + timeout;
    let mut last = (mark, Instant::now());
    loop {
        // A cancelled wait stops waiting (SPEC 22.1); the job goes on.
        if ctx.cancelled() {
            return Err(ToolError::cancelled("the wait"));
        }
        // Lock-free looks while waiting; `find` below settles a job whose owner died.
        let Some(job) = record::peek(ctx, id) else {
            break;
        };
        let owner_alive = job.owner.is_some_and(|o| o.alive());
        if job.state != State::Running || !owner_alive {
            break;
        }
        let now = Instant::now();
        if now >= stop {
            break;
        }
        let st = term::read(ctx, id);
        if st
            .as_ref()
            .is_some_and(|s| s.sampled_us > after_us && waits(s))
        {
            break;
        }
        if until == Until::Quiet && st.is_none() {
            let size = log_size(ctx, id);
            if size != last.0 {
                last = (size, now);
            } else if size > mark && now.duration_since(last.1) >= QUIET {
                break;
            }
        }
        ctx.control.set_message(format!("job {id} is running"));
        runtime::nap(&job, (stop - now).min(Duration::from_millis(25)));
    }
    let job = find(ctx, id)?;
    let (text, truncated, from, to) = since_last(ctx, &job, budget)?;
    let job = record::update(ctx, id, |j| j.read_offset = j.read_offset.max(to))?.unwrap_or(job);
    Ok(Answer {
        term: term::read(ctx, id),
        job,
        text,
        truncated,
        from,
        to,
    })
}

/// One line saying what the program waits for (SPEC 28).
pub fn waiting_line(st: &Status) -> String {
    let prompt = st.prompt.as_deref().unwrap_or("");
    if prompt.is_empty() && !st.secret && st.choices.is_none() {
        return "Waiting for input.\n".to_string();
    }
    if st.secret {
        format!(
            "Waiting for a secret (input_required) at {prompt:?}: what is typed now is not echoed, logged or kept.\n"
        )
    } else if let Some(c) = &st.choices {
        format!(
            "Waiting for a choice (input_required: {}) at {prompt:?}.\n",
            c.join("/")
        )
    } else {
        format!("Waiting for input at {prompt:?}.\n")
    }
}

/// Whether a published state is a program waiting for its input.
pub fn waits(st: &Status) -> bool {
    st.state == tty::WAITING || st.state == tty::REQUIRED
}

/// The log from the job's bookmark to its end, cleaned and cut as run's output is (head and
/// tail, with a line naming the offset to page the middle from).
fn since_last(ctx: &Ctx, job: &Job, budget: usize) -> Result<(String, bool, u64, u64)> {
    let path = record::log_path(&state::session_dir(ctx), &job.id);
    let from = job.read_offset;
    let mut file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((String::new(), false, from, from));
        }
        Err(e) => return Err(ToolError::state(&e, &path)),
    };
    let to = file.metadata().map_or(from, |m| m.len());
    if to <= from {
        return Ok((String::new(), false, from, from.max(to)));
    }
    file.seek(SeekFrom::Start(from))
        .map_err(|e| ToolError::state(&e, &path))?;
    let mut capture = Capture::from_offset(budget, from);
    let mut left = to - from;
    let mut buf = vec![0u8; 64 * 1024];
    while left > 0 {
        let want = buf.len().min(left as usize);
        match file.read(&mut buf[..want]) {
            Ok(0) => break,
            Ok(n) => {
                capture.feed(&buf[..n]);
                left -= n as u64;
            }
            Err(e) => return Err(ToolError::state(&e, &path)),
        }
    }
    let read_to = to - left;
    let captured = capture.finish(&page_hint(ctx, &job.id));
    Ok((captured.text, captured.truncated, from, read_to))
}
