//! `run` (SPEC §15): a shell command for the agent, with a timeout that ends the whole process
//! tree, output cleaned and cut to fit a model's context, the full log kept, and `background`
//! jobs that any later `loopr-tool` process can page, wait for and kill (`jobs`).
//!
//! The parts: `guard` (the destructive-command guard), `isolation` and `confine` (the sandbox
//! and `network: none`), `exec` (spawning and the wait loop), `keeper` (the process between us
//! and the shell that outlives us), `signals`, `proc` (processes by pid and start time),
//! `clean` and `capture` (what the model sees), `record` (the job records), `supervisor` (the
//! detached owner of a background job), `runtime` (what `jobs` does to processes).

pub mod isolation;
pub mod record;
pub mod runtime;
pub mod stdin;
pub mod supervisor;
pub mod term;
pub mod worktree;

// The process runtime is an engine of its own (crates/proc), under its old paths.
pub use loopr_proc::{capture, clean, confine, exec, guard, keeper, proc, signals, tty, waiting};

use crate::caps;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::policy::Lane;
use crate::sandbox;
use crate::state;
use crate::tool::{Effect, Hints, Tool};
use capture::{Capture, Captured};
use confine::Mode;
use exec::{Outcome, Spec};
use isolation::{Fallback, Isolation};
use loopr_env_vars::EnvVars;
use proc::{Exit, ProcId};
use record::{Job, State};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeMap;
use std::fs::File;
use std::time::Duration;

pub struct Run;

/// run's `network` (public as `loopr_tool::inputs::Network`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(transform = loopr_core::input::undocumented)]
pub enum Network {
    /// The machine's network, as any process has it.
    #[default]
    Inherit,
    /// A network namespace of its own, in a user namespace of its own (so root cannot leave
    /// it either), with only loopback: no other host, and none of this machine's services over
    /// TCP, UDP or abstract unix sockets. Unix sockets that are files stay reachable.
    None,
}

/// run's input (public as `loopr_tool::inputs::RunInput`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = loopr_core::input::undocumented)]
pub struct Input {
    /// The command, run by `bash -c` (or `sh -c` where there is no bash).
    pub command: String,
    /// Milliseconds before the command and everything it started are ended (SIGTERM, then
    /// SIGKILL after 2 s). A background job has no time limit unless this is given.
    /// At most 600000, or 3600000 in a catalog's heavy lane.
    #[schemars(range(min = 1, max = 3_600_000), extend("default" = 120_000))]
    pub timeout_ms: Option<u64>,
    /// Working directory, inside the sandbox. Default: the root.
    pub cwd: Option<String>,
    /// Extra environment variables (they may override the non-interactive defaults).
    pub env: Option<BTreeMap<String, String>>,
    /// Text fed to the command's stdin. Without it stdin is /dev/null, so nothing waits for input.
    pub stdin: Option<String>,
    /// Start the command detached and return its job id at once; see `jobs`.
    #[serde(alias = "run_in_background")]
    #[schemars(extend("default" = false))]
    pub background: Option<bool>,
    /// With `background: true` only: keep the job's stdin open, so `jobs` action `write` can
    /// type into it later (a REPL, a prompt). `stdin` is still fed first. No terminal: the
    /// program sees a pipe.
    #[schemars(extend("default" = false))]
    pub interactive: Option<bool>,
    /// With `background` and `interactive` only: run the command on a terminal (a pty held by
    /// the job's supervisor), for REPLs, password prompts, pagers and full-screen programs.
    /// TERM is xterm-256color unless `env` names one. `jobs` then reports `waiting_input` or
    /// `input_required` (a password or y/N prompt) from the kernel, and action `screen` shows
    /// the screen.
    #[schemars(extend("default" = false))]
    pub tty: Option<bool>,
    /// With `tty`: the terminal's rows (default 24).
    #[schemars(range(min = 2, max = 500), extend("default" = 24))]
    pub rows: Option<u16>,
    /// With `tty`: the terminal's columns (default 80).
    #[schemars(range(min = 10, max = 1000), extend("default" = 80))]
    pub cols: Option<u16>,
    /// `inherit` (default) or `none`: no network, only a private loopback. Unix sockets that
    /// are files (e.g. /var/run/docker.sock) are not network: they stay reachable.
    #[schemars(extend("default" = "inherit"))]
    pub network: Option<Network>,
    /// `none` (default), `workspace-write` (writes only under the root, a private TMPDIR and
    /// /dev/null; reads anywhere) or `read-only` (no writes but /dev/null), enforced by the
    /// kernel (Landlock). Where the kernel cannot, the call fails with sandbox_unavailable.
    #[schemars(extend("default" = "none"))]
    pub sandbox: Option<Mode>,
    /// `none`: where the kernel cannot enforce `sandbox`, run without it (with a warning)
    /// instead of failing. Not allowed when loopr-tool was started with a --sandbox floor.
    pub sandbox_fallback: Option<Fallback>,
    /// A few words on what the command is for, shown in the output and in `jobs`.
    pub description: Option<String>,
}

/// Room kept in the output for the description, the cut line and the closing lines.
const RESERVE: usize = 700;
/// A description longer than this is shortened where it is shown.
const MAX_DESCRIPTION: usize = 200;

impl Tool for Run {
    type Input = Input;
    const NAME: &'static str = "run";
    const SUMMARY: &'static str =
        "Run a shell command (timeout, clean capped output, background jobs)";
    const DESCRIPTION: &'static str = "Run a shell command: runs it with `bash -c` in the sandbox root (or `cwd`) and returns its output: stdout and stderr interleaved as written, colour codes removed, progress lines collapsed, and the last line `Exit code: N (T s)`. A non-zero exit is an error that still carries all the output. \
Prefer the file tools for files: read (not cat/head/tail), edit (not sed/awk), write (not echo >), glob (not find/ls), grep (not grep/rg) — they are faster, safer and track what you read. Use run for git, builds, tests, package managers and programs. \
Nothing can wait for input: stdin is /dev/null (or `stdin`), there is no terminal, and CI=true, PAGER=cat, GIT_TERMINAL_PROMPT=0, TERM=dumb, NO_COLOR=1 are set; pass non-interactive flags (`-y`, `--no-edit`). Quote paths with spaces in double quotes. \
`timeout_ms` (default 120000, max 600000) ends the command and every process it started. A foreground run also ends, 2 s after the shell exits, any process it left running: to keep a server running, start it with `background: true`, which returns a job id at once; then use `jobs` to page its output (`action: output`, `block: true` to wait for the end), and `jobs` `action: kill` to stop it. With `interactive: true` as well, its stdin stays open: `jobs` `action: write` types into it (a REPL, a prompt) and answers with what it printed; add `tty: true` for a program that wants a terminal (password prompts, pagers, full-screen programs), and `jobs` reports when it waits for input (`waiting_input`, `input_required`). \
Output over 30,000 characters keeps its start and its end with a line saying how much was cut; every run's whole log is kept, and `jobs` `action: output` with the run's `id` and an `offset` pages it. \
`network: none` runs the command without network access (unix sockets that are files stay reachable). `sandbox: workspace-write` lets it write only under the root and its own TMPDIR, `read-only` nowhere; both are enforced by the kernel. Commands that would destroy the machine (`rm -rf /`, `mkfs`, `dd` onto a disk, `curl … | sh`, fork bombs) are refused with `blocked_command`.";
    const POSITIONALS: &'static [&'static str] = &["command"];
    const EXAMPLES: &'static str = "  echo '{\"command\": \"cargo test 2>&1\", \"timeout_ms\": 300000}' | loopr-tool run\n  loopr-tool run 'npm run dev' --background --description 'dev server'";
    const HINTS: Hints = Hints {
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
    };

    const OUTPUT_CAP: usize = crate::caps::RUN;

    fn read_only(_: &Input) -> bool {
        false
    }

    fn effect(_: &Input) -> Effect {
        Effect::Commands
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        start(ctx, input, Shell::default(), None)
    }
}

/// Runs `input` as a shell that keeps its directory (Claude Code's Bash, SPEC 22.5): as `run`,
/// and `final_cwd` gets the directory the shell ended in (its real path), when it got that far.
/// A background job's end comes later: it reports none.
pub fn run_keeping_cwd(
    ctx: &Ctx,
    input: Input,
    final_cwd: &mut Option<std::path::PathBuf>,
) -> Result<Success> {
    start(ctx, input, Shell::default(), Some(final_cwd))
}

/// The shell a command runs in, where an agent's tool names one (Codex's `exec_command`).
#[derive(Debug, Default)]
pub struct Shell {
    /// Instead of bash; a path to an executable (exec::find_shell).
    pub program: Option<std::path::PathBuf>,
    /// `-l`: a login shell.
    pub login: bool,
}

/// As `run`, in the shell given.
pub fn run_in_shell(ctx: &Ctx, input: Input, shell: Shell) -> Result<Success> {
    start(ctx, input, shell, None)
}

fn start(
    ctx: &Ctx,
    input: Input,
    shell: Shell,
    final_cwd: Option<&mut Option<std::path::PathBuf>>,
) -> Result<Success> {
    let background = input.background.unwrap_or(false);
    let interactive = input.interactive.unwrap_or(false);
    if interactive && !background {
        return Err(ToolError::invalid(
            "interactive",
            "field `interactive` needs `background: true`: only a background job can be written to later",
        )
        .hint("Add background: true, then type into it with jobs (action \"write\", id, chars); or give the whole input at once as `stdin`."));
    }
    let tty = terminal(&input, background, interactive)?;
    if background {
        check_job_tool(ctx, interactive)?;
    }
    if input.command.trim().is_empty() {
        return Err(ToolError::invalid("command", "field `command` is empty")
            .hint("Give the shell command to run, e.g. \"git status\"."));
    }
    let mut env = vec![];
    for (k, v) in input.env.unwrap_or_default() {
        if k.is_empty() || k.contains('=') || k.contains('\0') || v.contains('\0') {
            return Err(ToolError::invalid(
                "env",
                format!(
                    "env: {k:?} is not a valid variable (a name without `=` or NUL, a value without NUL)"
                ),
            ));
        }
        env.push((k, v));
    }
    if input.command.contains('\0') || input.stdin.as_deref().is_some_and(|s| s.contains('\0')) {
        let field = if input.command.contains('\0') {
            "command"
        } else {
            "stdin"
        };
        return Err(ToolError::invalid(
            field,
            format!("field `{field}` contains a NUL byte"),
        ));
    }
    let cwd = sandbox::resolve(ctx, "cwd", input.cwd.as_deref().unwrap_or("."))?;
    let meta = std::fs::metadata(&cwd.real).map_err(|e| ToolError::io(&e, &cwd.shown, "using"))?;
    if !meta.is_dir() {
        return Err(ToolError::new(
            Code::NotADirectory,
            format!("cwd {} is a file, not a directory", cwd.shown),
        )
        .with("path", cwd.shown.as_str())
        .hint("Give a directory as cwd (or omit it for the root)."));
    }
    guard_line(ctx, &input.command, &cwd.real, &env)?;
    let lane = ctx.call.lane();
    let max_timeout = if lane == Lane::Heavy {
        crate::policy::MAX_TIMEOUT_MS
    } else {
        crate::policy::RUN_MAX_TIMEOUT_MS
    };
    if let Some(t) = input.timeout_ms.filter(|&t| t > max_timeout) {
        return Err(ToolError::invalid(
            "timeout_ms",
            format!(
                "timeout_ms is {t}; the most a command may take here is {max_timeout} (3600000 only in a catalog's heavy lane)"
            ),
        ));
    }
    // The catalog's no-net lane runs commands without the network (SPEC 19.2).
    let network = match (lane, input.network) {
        (Lane::NoNet, Some(Network::Inherit)) => {
            return Err(ToolError::invalid(
                "network",
                format!("`{}` is in the catalog's no-net lane: its commands run without the network", ctx.call.name),
            )
            .hint("Leave `network` out (or give \"none\"); the catalog decides which tools may reach the network."));
        }
        (Lane::NoNet, _) => Network::None,
        (_, n) => n.unwrap_or_default(),
    };
    let description = input
        .description
        .filter(|d| !d.trim().is_empty())
        .map(|d| one_line(d.trim(), MAX_DESCRIPTION, " "));
    let iso = Isolation::decide(
        ctx,
        input.sandbox,
        input.sandbox_fallback,
        network == Network::None,
    )?;
    if let Some(t) = &iso.tmpdir {
        // Before the caller's env, which may name its own.
        env.insert(0, ("TMPDIR".into(), t.to_string_lossy().into_owned()));
    }
    // Where the shell writes the directory it ended in: the private TMPDIR under
    // workspace-write (the only place it may write), else the session's state dir. A
    // read-only sandbox leaves it nowhere to write: the directory is then not kept.
    let cwd_file = final_cwd.as_ref().filter(|_| !background).and_then(|_| {
        match (&iso.tmpdir, input.sandbox) {
            (Some(t), _) => Some(t.join(".loopr-final-cwd")),
            (None, Some(Mode::ReadOnly)) => None,
            (None, _) => {
                let dir = state::session_dir(ctx);
                state::create_dir(&dir).ok()?;
                Some(dir.join(format!(
                    "shell-cwd.{}.{}",
                    std::process::id(),
                    record::now_ms()
                )))
            }
        }
    });
    let command = match &cwd_file {
        Some(f) => keeping_cwd(&input.command, f),
        None => input.command.clone(),
    };
    let spec = Spec {
        command,
        cwd: cwd.real.clone(),
        env,
        stdin: input.stdin,
        timeout_ms: input.timeout_ms,
        confine: iso.confinement(ctx),
        tmpdir: iso.tmpdir.clone(),
        // A heavy lane's commands yield the machine to the rest (SPEC 19.2).
        nice: (lane == Lane::Heavy).then_some(10),
        shell: shell.program,
        login: shell.login,
        tty,
    };
    let job = Job {
        id: String::new(),
        command: input.command,
        description,
        cwd: cwd.shown,
        background,
        started_at: state::now(),
        started_ms: record::now_ms(),
        state: State::Running,
        exit_code: None,
        signal: None,
        duration_ms: None,
        output_bytes: None,
        owner: Some(ProcId::me()),
        keeper: None,
        kill_requested: false,
        read_offset: 0,
        processes_ended: 0,
        note: None,
        interactive,
        tty: tty.is_some(),
        terminal: None,
    };
    let sandbox = iso.data();
    if job.background {
        supervisor::start(ctx, job, spec, sandbox)
    } else {
        foreground(ctx, job, spec, sandbox, cwd_file.as_deref(), final_cwd)
    }
}

/// `tty` (with `rows`, `cols`) checked: only a background interactive job gets a terminal
/// (SPEC 28); the size without `tty`, or out of range, is refused by name.
fn terminal(input: &Input, background: bool, interactive: bool) -> Result<Option<(u16, u16)>> {
    let tty = input.tty.unwrap_or(false);
    if !tty {
        for (field, given) in [("rows", input.rows), ("cols", input.cols)] {
            if given.is_some() {
                return Err(ToolError::invalid(
                    field,
                    format!("field `{field}` is the terminal's size: it needs `tty: true`"),
                ));
            }
        }
        return Ok(None);
    }
    if !background || !interactive {
        return Err(ToolError::invalid(
            "tty",
            "field `tty` needs `background: true` and `interactive: true`: a terminal is for a job you type into later",
        )
        .hint("Add background: true and interactive: true, then type with jobs (action \"write\"); a command that needs no keyboard runs without tty."));
    }
    let rows = input.rows.unwrap_or(tty::ROWS);
    let cols = input.cols.unwrap_or(tty::COLS);
    for (field, n, lo, hi) in [("rows", rows, 2, 500), ("cols", cols, 10, 1000)] {
        if !(lo..=hi).contains(&n) {
            return Err(ToolError::invalid(
                field,
                format!("field `{field}` is {n}; a terminal here has {lo} to {hi} {field}"),
            ));
        }
    }
    Ok(Some((rows, cols)))
}

/// `command` run so that its shell writes the directory it ends in to `file`: in a group of
/// its own (so a trailing comment or heredoc stays the command's), its status kept. A command
/// that calls `exit` or `exec` leaves no directory: the next call starts where this one did.
fn keeping_cwd(command: &str, file: &std::path::Path) -> String {
    let file = crate::shell::quote(&file.to_string_lossy());
    format!(
        "{{ {command}\n}}\n__loopr_status=$?\npwd -P >| {file} 2>/dev/null\nexit $__loopr_status"
    )
}

/// The guard (SPEC 15, 16.8): `command` — a run's, or a line typed into a shell's terminal
/// (SPEC 28) — is `blocked_command` when it matches a destructive rule, unless the guard is off.
pub fn guard_line(
    ctx: &Ctx,
    command: &str,
    cwd: &std::path::Path,
    env: &[(String, String)],
) -> Result<()> {
    if ctx.allow_dangerous {
        return Ok(());
    }
    let Some(rule) = guard::check(command, &guard_places(ctx, cwd, env)) else {
        return Ok(());
    };
    Err(ToolError::new(
        Code::BlockedCommand,
        format!(
            "blocked: the command matches the destructive-command rule `{}` ({}); it was not run",
            rule.name(),
            rule.describe()
        ),
    )
    .with("rule", rule.name())
    .hint("If this is really intended, a person can rerun it with --allow-dangerous (LOOPR_ALLOW_DANGEROUS=1); otherwise narrow the command (e.g. a path inside the project)."))
}

/// What the guard needs to know where the command's paths lead: the root, the cwd, and each
/// home `~` may mean (the command's own `HOME` and ours), as real paths where they exist.
fn guard_places(ctx: &Ctx, cwd: &std::path::Path, env: &[(String, String)]) -> guard::Places {
    let real = |p: &std::path::Path| {
        std::fs::canonicalize(p)
            .unwrap_or_else(|_| p.to_path_buf())
            .to_string_lossy()
            .into_owned()
    };
    let given = env
        .iter()
        .rev()
        .find(|(k, _)| k == "HOME")
        .map(|(_, v)| v.clone());
    let homes = given
        .into_iter()
        .chain(std::env::var(EnvVars::HOME).ok())
        .filter(|h| h.starts_with('/'))
        .map(|h| real(std::path::Path::new(&h)))
        .collect();
    guard::Places {
        root: ctx.root_real.to_string_lossy().into_owned(),
        cwd: real(cwd),
        homes,
    }
}

/// `s` on one line (each newline shown as `newline`), cut to `max` characters with `…`.
pub fn one_line(s: &str, max: usize, newline: &str) -> String {
    let flat = s.replace('\n', newline);
    if flat.chars().count() <= max {
        return flat;
    }
    let mut out: String = flat.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// Opens the run's log in the session's `logs/`. A log that cannot be made costs the paging,
/// not the run: the run goes on with a warning.
pub fn open_log(ctx: &Ctx, id: &str) -> Option<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let session = state::session_dir(ctx);
    // Logs hold whatever a command printed, secrets included: 0600 in a 0700 directory (23.6).
    let made = state::create_dir(&record::logs_dir(&session))
        .map_err(|e| std::io::Error::other(e.message))
        .and_then(|_| {
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(0o600)
                .open(record::log_path(&session, id))
        });
    match made {
        Ok(f) => Some(f),
        Err(e) => {
            ctx.warn(format!(
                "the run's log could not be written ({e}); its output cannot be paged later"
            ));
            None
        }
    }
}

/// What the cut line tells the model to do: page the log with the job tool as this call's
/// model has it (SPEC 25.5), or, with none offered, rerun narrower.
pub fn page_hint(ctx: &Ctx, id: &str) -> String {
    match ctx.offered("jobs", Some("output")) {
        Some(jobs) => format!(
            "The whole output is in the log: {}",
            jobs.call(Some("output"), &[("id", id)])
        ),
        None => "To see the rest, run the command again with its output narrowed (`| tail -n 50`, `| grep PATTERN`, or to a file you then read)".to_string(),
    }
}

/// `background` (and `interactive`) start a job that only a job tool can read, wait for or
/// kill: under a catalog that offers none, they are refused (SPEC 25.5).
fn check_job_tool(ctx: &Ctx, interactive: bool) -> Result<()> {
    if ctx.offered("jobs", None).is_some() {
        return Ok(());
    }
    let field = if interactive {
        "interactive"
    } else {
        "background"
    };
    Err(ToolError::invalid(
        field,
        format!("`{field}: true` starts a job that no tool offered here can read, wait for or kill, so it is refused"),
    )
    .hint("Run the command in the foreground (leave `background` out), with a `timeout_ms` that fits it."))
}

pub fn budget(job: &Job) -> usize {
    caps::RUN - RESERVE - job.description.as_ref().map_or(0, |d| d.chars().count())
}

/// Runs `spec` to its end in the foreground, its output into `capture`: the one way a command
/// runs here, for `run` and for the catalog's hooks and command tools (SPEC 19.2: "as run runs
/// commands" — no terminal, the timeout, the whole tree ended). `control` may cancel it.
pub fn to_end(
    ctx: &Ctx,
    spec: &Spec,
    capture: &mut Capture,
    control: &crate::control::Control,
) -> Result<Outcome> {
    if let Err(e) = proc::set_subreaper(true) {
        ctx.warn(format!("could not become the child subreaper ({e}); the keeper still ends what the command leaves"));
    }
    // SIGTERM, SIGINT or SIGHUP from now on end the command, not us (SPEC 23.7).
    let trap = signals::Trap::set(signals::INTERRUPTS)
        .map_err(|e| ToolError::new(Code::IoError, format!("could not trap signals: {e}")));
    let running = trap.and_then(|t| Ok((exec::spawn(spec).map_err(isolation::refused)?, t)));
    let (running, trap) = match running {
        Ok(r) => r,
        Err(e) => {
            let _ = proc::set_subreaper(false);
            return Err(e);
        }
    };
    let outcome = exec::finish(
        running,
        capture,
        spec.timeout_ms.or(Some(120_000)).map(Duration::from_millis),
        control,
        Some(&trap),
    );
    drop(trap);
    // Clearing it matters in a long-lived process (batch, mcp): a background job's supervisor,
    // orphaned on purpose, must go to init and not come back to us.
    let _ = proc::set_subreaper(false);
    Ok(outcome)
}

fn foreground(
    ctx: &Ctx,
    job: Job,
    spec: Spec,
    sandbox: serde_json::Value,
    cwd_file: Option<&std::path::Path>,
    final_cwd: Option<&mut Option<std::path::PathBuf>>,
) -> Result<Success> {
    let forget_cwd = || {
        if let Some(f) = cwd_file {
            let _ = std::fs::remove_file(f);
        }
    };
    let job = record::begin(ctx, job).inspect_err(|_| {
        forget_cwd();
        isolation::remove_tmpdir(spec.tmpdir.as_ref());
    })?;
    let mut capture = Capture::new(open_log(ctx, &job.id), budget(&job));
    let outcome = match to_end(ctx, &spec, &mut capture, &ctx.control) {
        Ok(o) => o,
        Err(e) => {
            let _ = record::forget(ctx, &job.id);
            forget_cwd();
            isolation::remove_tmpdir(spec.tmpdir.as_ref());
            return Err(e);
        }
    };
    // The shell's last directory is read before its TMPDIR goes.
    if let (Some(file), Some(out)) = (cwd_file, final_cwd) {
        *out = std::fs::read_to_string(file)
            .ok()
            .map(|s| std::path::PathBuf::from(s.trim_end_matches('\n')))
            .filter(|p| p.is_absolute());
        let _ = std::fs::remove_file(file);
    }
    isolation::remove_tmpdir(spec.tmpdir.as_ref());
    let captured = capture.finish(&page_hint(ctx, &job.id));
    if outcome.exit != Exit::Code(0) {
        warn_refused_write(ctx, &spec, &captured.text);
    }
    let saved = record::update(ctx, &job.id, |j| settle(j, &outcome, captured.total))?;
    if outcome.cancelled {
        return Err(ToolError::cancelled("the run"));
    }
    let job = saved.unwrap_or_else(|| {
        let mut j = job.clone();
        settle(&mut j, &outcome, captured.total);
        j
    });
    report(
        ctx,
        &job,
        &outcome,
        captured,
        spec.timeout_ms.unwrap_or(120_000),
        sandbox,
    )
}

/// A command that failed on a path `workspace-write` kept read-only is told which, and how a
/// catalog widens it (SPEC 25.7): the denial alone reads like a broken repository.
fn warn_refused_write(ctx: &Ctx, spec: &Spec, output: &str) {
    let Some((Mode::WorkspaceWrite, writable)) = &spec.confine.fs else {
        return;
    };
    if let Some(p) = worktree::refused_path(output, &spec.cwd, writable) {
        ctx.warn(format!(
            "the command failed on {}, which sandbox \"workspace-write\" keeps read-only; a catalog's [run] writable_roots can make a directory writable",
            p.display()
        ));
    }
}

/// The record of a finished run.
pub fn settle(j: &mut Job, o: &Outcome, total: u64) {
    j.duration_ms = Some(o.duration.as_millis() as u64);
    j.output_bytes = Some(total);
    j.processes_ended = o.ended;
    match o.exit {
        Exit::Code(c) => j.exit_code = Some(c),
        Exit::Signal(s) => j.signal = Some(proc::signal_name(s)),
    }
    j.state = if o.timed_out {
        State::TimedOut
    } else if j.kill_requested || o.cancelled || o.interrupted.is_some() {
        State::Killed
    } else {
        match o.exit {
            Exit::Code(_) => State::Exited,
            Exit::Signal(_) => State::Killed,
        }
    };
}

pub fn secs(ms: u64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

fn report(
    ctx: &Ctx,
    job: &Job,
    o: &Outcome,
    captured: Captured,
    timeout_ms: u64,
    sandbox: serde_json::Value,
) -> Result<Success> {
    let mut out = String::new();
    if let Some(d) = &job.description {
        out.push_str(&format!("Ran: {d}\n"));
    }
    out.push_str(&captured.text);
    if let Some(e) = &captured.log_error {
        ctx.warn(format!("the log could not be written completely ({e})"));
    }
    if captured.log_full {
        out.push_str(&format!(
            "(The log kept the first {} MiB only.)\n",
            capture::LOG_CAP >> 20
        ));
    }
    if o.ended_leftovers && o.ended > 0 {
        out.push_str(&format!(
            "Ended {} process(es) still running after the shell exited; to keep a process running, start it with background: true.\n",
            o.ended
        ));
    }
    if job.kill_requested && !o.timed_out {
        out.push_str("Ended by `jobs` action kill.\n");
    }
    let took = secs(job.duration_ms());
    let last = if let Some(sig) = o.interrupted {
        format!(
            "Interrupted: loopr-tool received {}; the command and every process it started were ended ({took})",
            proc::signal_name(sig)
        )
    } else if o.timed_out {
        format!(
            "Timed out after {}; {} processes ended",
            secs(timeout_ms),
            o.ended
        )
    } else {
        match o.exit {
            Exit::Code(c) => format!("Exit code: {c} ({took})"),
            Exit::Signal(s) => format!("Killed by signal {} ({took})", proc::signal_name(s)),
        }
    };
    out.push_str(&last);
    let mut data = json!({
        "id": job.id,
        "duration_ms": job.duration_ms(),
        "output_bytes": captured.total,
        "truncated": captured.truncated,
        "cwd": job.cwd,
        "log": record::log_path(&state::session_dir(ctx), &job.id).to_string_lossy(),
        "processes_ended": o.ended,
        "sandbox": sandbox,
    });
    match o.exit {
        Exit::Code(c) => data["exit_code"] = json!(c),
        Exit::Signal(s) => data["signal"] = json!(proc::signal_name(s)),
    }
    if let Some(d) = &job.description {
        data["description"] = json!(d);
    }
    if let Some(sig) = o.interrupted {
        data["interrupted"] = json!(true);
        return Err(ToolError::new(Code::CommandFailed, out)
            .with("signal", proc::signal_name(sig))
            .with("interrupted", true)
            .data(data));
    }
    if o.timed_out {
        return Err(ToolError::new(Code::Timeout, out)
            .with("timeout_ms", timeout_ms)
            .data(data));
    }
    match o.exit {
        Exit::Code(0) if !job.kill_requested => Ok(Success::new(out, data)),
        Exit::Code(c) => Err(ToolError::new(Code::CommandFailed, out)
            .with("exit_code", c)
            .data(data)),
        Exit::Signal(s) => Err(ToolError::new(Code::CommandFailed, out)
            .with("signal", proc::signal_name(s))
            .data(data)),
    }
}
