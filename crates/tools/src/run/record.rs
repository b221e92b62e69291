//! Job records (SPEC §15, 16.8): every run of a session, foreground or background, in
//! `jobs.json` in the session directory, with its log in `logs/<id>.log`. Any later `loopr-tool`
//! process lists, pages and kills them from here.
//!
//! A running job names its owner — the process that waits for the shell and writes the exit:
//! the `loopr-tool` of a foreground run, the supervisor of a background one — and its keeper
//! (keeper.rs) by pid and start time. A record that says `running` while its owner is gone (killed, machine restarted) is
//! settled as `killed` the next time anyone looks.

use super::proc::ProcId;
use crate::context::Ctx;
use crate::error::Result;
use crate::state::{self, StateLock};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub const FILE: &str = "jobs.json";
/// Runs kept per session (SPEC §15); older finished ones lose their record and log.
pub const KEEP: usize = 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum State {
    #[serde(rename = "running")]
    Running,
    #[serde(rename = "exited")]
    Exited,
    #[serde(rename = "killed")]
    Killed,
    #[serde(rename = "timed out")]
    TimedOut,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    pub id: String,
    pub command: String,
    pub description: Option<String>,
    /// As shown (relative to the root).
    pub cwd: String,
    pub background: bool,
    pub started_at: String,
    pub started_ms: u64,
    pub state: State,
    pub exit_code: Option<i32>,
    pub signal: Option<String>,
    pub duration_ms: Option<u64>,
    pub output_bytes: Option<u64>,
    pub owner: Option<ProcId>,
    /// The command's keeper (keeper.rs), the subreaper its tree hangs from: `jobs kill` ends
    /// what is below it even when the owner is gone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keeper: Option<ProcId>,
    /// `jobs kill` asked for its end: the owner records `killed` whatever the exit.
    #[serde(default)]
    pub kill_requested: bool,
    /// Where BashOutput's "what is new since the last call" starts.
    #[serde(default)]
    pub read_offset: u64,
    /// Processes ended at the end (timeout, kill, or left behind by the shell).
    #[serde(default)]
    pub processes_ended: usize,
    /// Why the record was settled by someone other than its owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Started with `interactive: true`: its stdin is a FIFO (`stdin_path`) that `jobs write`
    /// feeds from any process, open until the job ends.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interactive: bool,
    /// On a terminal (`tty: true`, SPEC 28): its screen and state are in `term_path`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tty: bool,
    /// On a terminal, its shell, which leads a session of its own: what a killed supervisor
    /// and keeper leave behind is found there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminal: Option<ProcId>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Jobs {
    pub next_id: u64,
    /// Oldest first.
    pub jobs: Vec<Job>,
}

pub fn logs_dir(session_dir: &Path) -> PathBuf {
    session_dir.join("logs")
}

pub fn log_path(session_dir: &Path, id: &str) -> PathBuf {
    logs_dir(session_dir).join(format!("{id}.log"))
}

/// An interactive job's stdin: a FIFO beside its log, made and removed by its supervisor
/// (stdin.rs).
pub fn stdin_path(session_dir: &Path, id: &str) -> PathBuf {
    logs_dir(session_dir).join(format!("{id}.stdin"))
}

/// A job's terminal as its supervisor last saw it: state, prompt, screen (term.rs).
pub fn term_path(session_dir: &Path, id: &str) -> PathBuf {
    logs_dir(session_dir).join(format!("{id}.term"))
}

/// What names job `id` of this session to a process that looks: its supervisor carries it as
/// its argument (`loopr-tool __job TAG`), so a record naming another session's supervisor is
/// told apart (SPEC 31.4). The session dir's real path, so every spelling of it agrees.
pub fn tag(ctx: &Ctx, id: &str) -> String {
    let dir = state::session_dir(ctx);
    let real = crate::sandbox::real_path(&dir).unwrap_or(dir);
    format!("{}#{id}", real.display())
}

pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl Job {
    /// How long it ran, or has run so far.
    pub fn duration_ms(&self) -> u64 {
        self.duration_ms
            .unwrap_or_else(|| now_ms().saturating_sub(self.started_ms))
    }

    /// `running`, `exited 0`, `killed (SIGTERM)`, `timed out`: as the list shows it.
    pub fn state_text(&self) -> String {
        match self.state {
            State::Running => "running".into(),
            State::Exited => format!("exited {}", self.exit_code.unwrap_or(-1)),
            State::Killed => match &self.signal {
                Some(s) => format!("killed ({s})"),
                None => "killed".into(),
            },
            State::TimedOut => "timed out".into(),
        }
    }

    pub fn label(&self) -> &str {
        self.description.as_deref().unwrap_or(&self.command)
    }
}

/// Whether `id` is one this binary gives a job (digits): only such an id becomes a file name
/// (`logs/<id>.log`). A record with any other id was written by someone else and is not read
/// at all (SPEC 31.4): `../../x` would name a file outside the session.
fn our_id(id: &str) -> bool {
    (1..=20).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_digit())
}

/// The records as saved, less any with an id this binary never gives.
fn load(lock: &StateLock) -> Result<Jobs> {
    let mut jobs: Jobs = lock.load(FILE)?;
    jobs.jobs.retain(|j| our_id(&j.id));
    Ok(jobs)
}

/// Loads the records, settling running ones whose owner is gone. Saves if it settled any.
pub fn load_settled(lock: &StateLock) -> Result<Jobs> {
    let mut jobs: Jobs = load(lock)?;
    let mut changed = false;
    for j in &mut jobs.jobs {
        if j.state == State::Running && !j.owner.is_some_and(|o| o.alive()) {
            j.state = State::Killed;
            j.duration_ms = Some(j.duration_ms());
            j.note = Some(
                "its loopr-tool process ended without recording an exit (it was killed, or the \
                 machine restarted); its exit status is unknown"
                    .into(),
            );
            changed = true;
        }
    }
    if changed {
        lock.save(FILE, &jobs, false)?;
    }
    Ok(jobs)
}

/// Adds a running job and drops the oldest finished ones beyond `KEEP` with their logs.
pub fn begin(ctx: &Ctx, mut job: Job) -> Result<Job> {
    let lock = StateLock::acquire(ctx)?;
    let mut jobs = load_settled(&lock)?;
    jobs.next_id += 1;
    job.id = jobs.next_id.to_string();
    jobs.jobs.push(job.clone());
    while jobs.jobs.len() > KEEP {
        let Some(i) = jobs.jobs.iter().position(|j| j.state != State::Running) else {
            break;
        };
        let old = jobs.jobs.remove(i);
        let _ = std::fs::remove_file(log_path(lock.dir(), &old.id));
        // A supervisor that was killed leaves its FIFO behind.
        let _ = std::fs::remove_file(stdin_path(lock.dir(), &old.id));
        let _ = std::fs::remove_file(term_path(lock.dir(), &old.id));
    }
    lock.save(FILE, &jobs, false)?;
    Ok(job)
}

/// Changes one job under the lock; returns it as saved (None if it is no longer recorded).
pub fn update(ctx: &Ctx, id: &str, f: impl FnOnce(&mut Job)) -> Result<Option<Job>> {
    let lock = StateLock::acquire(ctx)?;
    let mut jobs: Jobs = load(&lock)?;
    let Some(job) = jobs.jobs.iter_mut().find(|j| j.id == id) else {
        return Ok(None);
    };
    f(job);
    let job = job.clone();
    lock.save(FILE, &jobs, false)?;
    Ok(Some(job))
}

/// Drops one record and its log (a background start that failed).
pub fn forget(ctx: &Ctx, id: &str) -> Result<()> {
    let lock = StateLock::acquire(ctx)?;
    let mut jobs: Jobs = load(&lock)?;
    jobs.jobs.retain(|j| j.id != id);
    let _ = std::fs::remove_file(log_path(lock.dir(), id));
    let _ = std::fs::remove_file(stdin_path(lock.dir(), id));
    let _ = std::fs::remove_file(term_path(lock.dir(), id));
    lock.save(FILE, &jobs, false)
}

/// One job, read without the lock (state files are replaced atomically, so a read never sees
/// half a file): for polling while waiting.
pub fn peek(ctx: &Ctx, id: &str) -> Option<Job> {
    let bytes = std::fs::read(state::session_dir(ctx).join(FILE)).ok()?;
    let jobs: Jobs = serde_json::from_slice(&bytes).ok()?;
    jobs.jobs.into_iter().find(|j| j.id == id && our_id(&j.id))
}
