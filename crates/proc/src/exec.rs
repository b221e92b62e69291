//! Running one command to its end (SPEC §15, 23.7): the keeper (keeper.rs) starts the shell in
//! a session of its own with one pipe for stdout and stderr; this process is a child subreaper
//! too, and its loop reads output, hears the shell's exit from the keeper, drains, and ends
//! whatever is left — at the timeout, after the shell exits, when `jobs kill` ended the shell,
//! when the call was cancelled, or when this process got SIGTERM, SIGINT or SIGHUP.
//!
//! The same loop serves a foreground `run` (this process is the keeper's parent) and a
//! background job (its supervisor is).

use super::capture::Capture;
use super::confine::Confinement;
use super::keeper::{self, Order, Refusal, timespec};
use super::proc::{self, Exit, ProcId};
use super::signals::{self, Trap};
use loopr_control::Control;
use loopr_env_vars::EnvVars;
use rustix::event::{PollFd, PollFlags, poll};
use rustix::process::Signal;
use std::collections::HashSet;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long the keeper may take to leave after the shell's end before the tree is searched.
const KEEPER_LEAVES: Duration = Duration::from_millis(50);
/// How long descendants get between SIGTERM and SIGKILL, and how long output is drained after
/// the shell exits (SPEC §15: 2 s each).
pub const GRACE: Duration = Duration::from_secs(2);

/// What to run.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Spec {
    pub command: String,
    pub cwd: PathBuf,
    pub env: Vec<(String, String)>,
    pub stdin: Option<String>,
    pub timeout_ms: Option<u64>,
    pub confine: Confinement,
    /// `workspace-write`'s private TMPDIR, removed when the command is over.
    pub tmpdir: Option<PathBuf>,
    /// The niceness the command runs at (a catalog's heavy lane: 10).
    #[serde(default)]
    pub nice: Option<i32>,
    /// The shell to run the command with, instead of bash (Codex's `exec_command` `shell`).
    #[serde(default)]
    pub shell: Option<PathBuf>,
    /// Run it as a login shell (`-l`), which reads the user's profile first.
    #[serde(default)]
    pub login: bool,
    /// On a terminal of (rows, cols) (SPEC 28): the supervisor opens it, `spawn_with` gets it.
    #[serde(default)]
    pub tty: Option<(u16, u16)>,
}

/// Where the command's stdin and output go.
pub enum Io {
    /// stdout and stderr on one pipe; stdin `/dev/null` or `spec.stdin`.
    Pipes,
    /// As `Pipes`, stdin this descriptor (an interactive job's FIFO, whose feeding is the
    /// caller's).
    Stdin(OwnedFd),
    /// All three on a pty's slave, which the shell makes its controlling terminal; the output
    /// is read from the master.
    Tty { slave: OwnedFd, master: OwnedFd },
}

/// The environment that makes a command non-interactive by construction (SPEC §15); the
/// caller's `env` comes after and may override it.
pub const NON_INTERACTIVE: &[(&str, &str)] = &[
    ("CI", "true"),
    ("PAGER", "cat"),
    ("GIT_PAGER", "cat"),
    ("GIT_TERMINAL_PROMPT", "0"),
    ("TERM", "dumb"),
    ("NO_COLOR", "1"),
];

/// `bash`, found on PATH (or in /bin, /usr/bin), else `/bin/sh`.
fn shell() -> PathBuf {
    find_shell("bash").unwrap_or_else(|| PathBuf::from("/bin/sh"))
}

/// A shell named by a model (`/bin/zsh`, `bash`): a path must be an executable file; a bare
/// name is looked up on PATH (and in /bin, /usr/bin).
pub fn find_shell(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        let p = PathBuf::from(name);
        return (p.is_absolute() && is_executable(&p)).then_some(p);
    }
    let path = std::env::var_os(EnvVars::PATH).unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin"), PathBuf::from("/bin")])
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A started command.
pub struct Running {
    pub keeper: ProcId,
    pub shell: u32,
    pub started: Instant,
    output: std::fs::File,
    status: Status,
}

/// The keeper's lines, read as they come.
struct Status {
    sock: UnixStream,
    buf: Vec<u8>,
}

impl Status {
    /// The next whole line, if one has come; `Err` when the keeper has closed its end.
    fn line(&mut self) -> Result<Option<String>, ()> {
        loop {
            if let Some(nl) = self.buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=nl).collect();
                return Ok(Some(String::from_utf8_lossy(&line).trim_end().to_string()));
            }
            let mut chunk = [0u8; 256];
            match self.sock.read(&mut chunk) {
                Ok(0) => return Err(()),
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Ok(None),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return Err(()),
            }
        }
    }
}

fn parse_exit(line: &str) -> Option<Exit> {
    let (word, n) = line.split_once(' ')?;
    let n = n.parse().ok()?;
    match word {
        "exit" => Some(Exit::Code(n)),
        "signal" => Some(Exit::Signal(n)),
        _ => None,
    }
}

/// Starts the command through a keeper: `bash -c` in the keeper's session (no controlling
/// terminal), stdout and stderr on one pipe, stdin `/dev/null` or the given text, inside its
/// confinement. Returns once the shell runs, or why nothing ran.
pub fn spawn(spec: &Spec) -> Result<Running, Refusal> {
    spawn_with(spec, Io::Pipes)
}

/// As `spawn`, with the stdin and output `how` says; with a given stdin (a FIFO or a
/// terminal) `spec.stdin` is the caller's to write.
pub fn spawn_with(spec: &Spec, how: Io) -> Result<Running, Refusal> {
    let io = |e: std::io::Error| Refusal {
        mode: None,
        message: format!("could not start the command: {e}"),
    };
    let (ours, theirs) = UnixStream::pair().map_err(io)?;
    let mut cmd = Command::new(keeper::program());
    cmd.arg(keeper::COMMAND).current_dir(&spec.cwd);
    let tty = matches!(how, Io::Tty { .. });
    let fed = !matches!(how, Io::Pipes);
    let reader: std::fs::File = match how {
        Io::Tty { slave, master } => {
            cmd.stdin(Stdio::from(slave.try_clone().map_err(io)?));
            cmd.stdout(Stdio::from(slave.try_clone().map_err(io)?));
            cmd.stderr(Stdio::from(slave));
            master.into()
        }
        Io::Pipes | Io::Stdin(_) => {
            let (reader, writer) = std::io::pipe().map_err(io)?;
            cmd.stdout(writer.try_clone().map_err(io)?).stderr(writer);
            cmd.stdin(match how {
                Io::Stdin(fd) => Stdio::from(fd),
                _ if spec.stdin.is_some() => Stdio::piped(),
                _ => Stdio::null(),
            });
            OwnedFd::from(reader).into()
        }
    };
    let theirs_fd = theirs.as_raw_fd();
    let nice = spec.nice;
    // SAFETY: setsid, setpriority, dup2 and fcntl are async-signal-safe and touch only this
    // child.
    unsafe {
        cmd.pre_exec(move || {
            rustix::process::setsid()?;
            if let Some(n) = nice
                && libc::setpriority(libc::PRIO_PROCESS, 0, n) < 0
            {
                return Err(std::io::Error::last_os_error());
            }
            let r = if theirs_fd == keeper::FD {
                libc::fcntl(theirs_fd, libc::F_SETFD, 0)
            } else {
                libc::dup2(theirs_fd, keeper::FD)
            };
            if r < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let started = Instant::now();
    let mut child = cmd.spawn().map_err(io)?;
    drop(cmd); // our copies of the pipe's write end: EOF must mean every writer is gone
    drop(theirs);
    let keeper = ProcId::of(child.id()).unwrap_or(ProcId {
        pid: child.id(),
        start: 0,
    });
    let order = Order {
        parent: std::process::id(),
        shell: spec.shell.clone().unwrap_or_else(shell),
        login: spec.login,
        command: spec.command.clone(),
        env: NON_INTERACTIVE
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            // A terminal's TERM (SPEC 28); the caller's env may still name its own.
            .chain(tty.then(|| ("TERM".to_string(), "xterm-256color".to_string())))
            .chain(spec.env.iter().cloned())
            .collect(),
        confine: spec.confine.clone(),
        tty,
    };
    let mut status = Status {
        sock: ours,
        buf: vec![],
    };
    let answer = serde_json::to_string(&order)
        .map_err(std::io::Error::other)
        .and_then(|o| writeln!(status.sock, "{o}"))
        .map_err(io)
        .and_then(|()| status.line().map_err(|()| ended_early()));
    let answer = match answer {
        Ok(Some(a)) => a,
        // (Ok(None) is not met: the socket blocks until the keeper answers.)
        other => {
            let _ = child.wait();
            return Err(other.err().unwrap_or_else(ended_early));
        }
    };
    if let Some(msg) = answer.strip_prefix("err ") {
        let _ = child.wait();
        return Err(serde_json::from_str(msg).unwrap_or(Refusal {
            mode: None,
            message: msg.to_string(),
        }));
    }
    let Some(shell) = answer.strip_prefix("ok ").and_then(|p| p.parse().ok()) else {
        let _ = child.wait();
        return Err(ended_early());
    };
    if let (Some(text), Some(mut stdin), false) = (spec.stdin.clone(), child.stdin.take(), fed) {
        // A command that never reads its stdin must not block us: a thread writes it, and
        // gives up with EPIPE when the command is gone.
        std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
    }
    status.sock.set_nonblocking(true).map_err(io)?;
    Ok(Running {
        keeper,
        shell,
        started,
        output: reader,
        status,
    })
}

impl Running {
    /// A second descriptor on the output (a pipe, or a pty's master), to ask how much is
    /// still unread (tty.rs).
    pub fn output_fd(&self) -> std::io::Result<OwnedFd> {
        Ok(self.output.try_clone()?.into())
    }
}

fn ended_early() -> Refusal {
    Refusal {
        mode: None,
        message: "the command's keeper process ended before starting it".into(),
    }
}

/// How often a running command's loop looks for a cancel and reports progress.
const LOOK: Duration = Duration::from_millis(250);

/// How the run ended.
pub struct Outcome {
    pub exit: Exit,
    pub duration: Duration,
    pub timed_out: bool,
    /// Processes ended by us: at the timeout (all of them) or after the shell exited (those
    /// left behind). The keeper is not one of the command's processes and is not counted.
    pub ended: usize,
    /// Whether those were left behind by a shell that had exited.
    pub ended_leftovers: bool,
    /// Ended because the caller cancelled the call (SPEC 22.1), as at a timeout.
    pub cancelled: bool,
    /// Ended because this process got this signal (SPEC 24.6), as at a timeout.
    pub interrupted: Option<i32>,
}

enum Phase {
    Running,
    /// The shell has exited; output is read until EOF or the deadline.
    Draining(Instant),
    /// SIGTERM sent; SIGKILL at the deadline.
    Ending(Instant),
}

/// Reads the output into `capture` until the command and every descendant are gone. The caller
/// has made this process the child subreaper.
///
/// `control` is the call's: a cancel ends the tree as a timeout does, and the bytes printed and
/// the last line are reported as progress. With `trap` (a foreground run), SIGTERM, SIGINT or
/// SIGHUP to this process does the same. Polls wake at least every `LOOK` to see them.
pub fn finish(
    run: Running,
    capture: &mut Capture,
    timeout: Option<Duration>,
    control: &Control,
    trap: Option<&Trap>,
) -> Outcome {
    let me = std::process::id();
    let keeper = run.keeper;
    let deadline = timeout.map(|t| run.started + t);
    let mut pipe = Some(run.output);
    let mut status = Some(run.status);
    let mut shell_exit: Option<Exit> = None;
    let mut keeper_exit: Option<Exit> = None;
    let mut phase = Phase::Running;
    let mut ended: HashSet<ProcId> = HashSet::new();
    let (mut timed_out, mut cancelled, mut leftovers) = (false, false, false);
    let mut interrupted = None;
    let mut reported = Instant::now();
    let mut buf = vec![0u8; 64 * 1024];
    // The shell's end, as the keeper told it; or, once the keeper died without a word, the
    // shell's own status if it came to us, else the keeper's when the shell is gone too.
    let shell_gone = || proc::stat(run.shell).is_none_or(|s| s.ppid != me);
    let known = |shell_exit: Option<Exit>, keeper_exit: Option<Exit>, told: bool| {
        shell_exit.or(keeper_exit.filter(|_| !told && shell_gone()))
    };
    loop {
        let exit = known(shell_exit, keeper_exit, status.is_some());
        let now = Instant::now();
        let mut until = match phase {
            Phase::Running => deadline.map_or(now + LOOK, |d| d.min(now + LOOK)),
            Phase::Draining(t) => t,
            Phase::Ending(t) => t.min(now + Duration::from_millis(20)),
        };
        if status.is_none() && exit.is_none() {
            // The keeper died without a word: its shell, now ours, is looked at every 5 ms.
            until = until.min(now + Duration::from_millis(5));
        }
        let nothing_to_drain = pipe.is_none() && matches!(phase, Phase::Draining(_));
        let mut pipe_ready = false;
        if !nothing_to_drain {
            let mut fds = vec![];
            if let Some(p) = &pipe {
                fds.push(PollFd::new(p, PollFlags::IN));
            }
            if let Some(s) = &status {
                fds.push(PollFd::new(&s.sock, PollFlags::IN));
            }
            let wake = trap.map(Trap::wake_fd);
            if let Some(w) = &wake {
                fds.push(PollFd::new(w, PollFlags::IN));
            }
            let _ = poll(
                &mut fds,
                Some(&timespec(until.saturating_duration_since(now))),
            );
            pipe_ready = pipe.is_some() && !fds[0].revents().is_empty();
        }
        if let (true, Some(p)) = (pipe_ready, &mut pipe) {
            match p.read(&mut buf) {
                Ok(0) => pipe = None,
                Ok(n) => capture.feed(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => pipe = None,
            }
        }
        if let Some(s) = &mut status {
            loop {
                match s.line() {
                    Ok(Some(l)) => shell_exit = shell_exit.or(parse_exit(&l)),
                    Ok(None) => break,
                    Err(()) => {
                        status = None;
                        break;
                    }
                }
            }
        }
        if trap.is_some() {
            signals::drain();
        }
        for (pid, e) in proc::reap_all() {
            if pid == keeper.pid {
                keeper_exit = Some(e);
            } else if pid == run.shell {
                shell_exit = shell_exit.or(Some(e));
            }
        }
        let exit = known(shell_exit, keeper_exit, status.is_some());
        let now = Instant::now();
        if now.duration_since(reported) >= LOOK {
            reported = now;
            control.set_amount(capture.total());
            if let Some(line) = capture.last_line() {
                control.set_message(format!(
                    "{} bytes of output; last line: {line}",
                    capture.total()
                ));
            }
        }
        let stopping = matches!(phase, Phase::Running | Phase::Draining(_));
        let signal = trap.and(signals::received());
        let end_all = |ended: &mut HashSet<ProcId>| {
            proc::signal_descendants(me, Signal::TERM, Some(keeper), ended);
        };
        phase = match phase {
            _ if stopping && interrupted.is_none() && !cancelled && signal.is_some() => {
                interrupted = signal;
                end_all(&mut ended);
                Phase::Ending(now + GRACE)
            }
            _ if stopping && !cancelled && interrupted.is_none() && control.is_cancelled() => {
                cancelled = true;
                end_all(&mut ended);
                Phase::Ending(now + GRACE)
            }
            Phase::Running if exit.is_some() => Phase::Draining(now + GRACE),
            Phase::Running if deadline.is_some_and(|d| now >= d) => {
                timed_out = true;
                end_all(&mut ended);
                Phase::Ending(now + GRACE)
            }
            Phase::Draining(t) if pipe.is_none() || now >= t => {
                if !proc::has_children() {
                    break;
                }
                // The keeper leaves as soon as nothing is left below it, just after it reports
                // the shell's end: waiting that moment out spares an empty tree the scan of
                // /proc that finding leftovers takes (one open and read per process).
                if keeper_exit.is_none() && proc::ends_within(keeper.pid, KEEPER_LEAVES) {
                    Phase::Draining(t)
                } else {
                    leftovers = true;
                    end_all(&mut ended);
                    Phase::Ending(now + GRACE)
                }
            }
            Phase::Ending(t) => {
                if exit.is_some() && !proc::has_children() {
                    break;
                }
                if now >= t {
                    kill_all(me, run.shell, &mut shell_exit, &mut ended);
                    break;
                }
                Phase::Ending(t)
            }
            p => p,
        };
    }
    // Whatever the dead left in the pipe. A writer that escaped the tree (it would have to have
    // been handed the pipe by something outside it) gets 100 ms, not forever.
    if let Some(mut p) = pipe {
        let stop = Instant::now() + Duration::from_millis(100);
        loop {
            let left = stop.saturating_duration_since(Instant::now());
            let mut fds = [PollFd::new(&p, PollFlags::IN)];
            if !matches!(poll(&mut fds, Some(&timespec(left))), Ok(n) if n > 0) {
                break;
            }
            match p.read(&mut buf) {
                Ok(n) if n > 0 => capture.feed(&buf[..n]),
                _ => break,
            }
        }
    }
    ended.remove(&keeper);
    Outcome {
        exit: shell_exit
            .or(keeper_exit)
            .unwrap_or(Exit::Signal(libc::SIGKILL)),
        duration: run.started.elapsed(),
        timed_out,
        ended: ended.len(),
        ended_leftovers: leftovers && !timed_out && !cancelled && interrupted.is_none(),
        cancelled,
        interrupted,
    }
}

/// SIGKILL to every descendant (the keeper too) until none is left (new ones forked meanwhile
/// included), reaping as they die. Bounded, so a machine that cannot kill never hangs us.
fn kill_all(me: u32, shell: u32, exit: &mut Option<Exit>, ended: &mut HashSet<ProcId>) {
    let stop = Instant::now() + Duration::from_secs(5);
    loop {
        proc::signal_descendants(me, Signal::KILL, None, ended);
        std::thread::sleep(Duration::from_millis(5));
        for (pid, e) in proc::reap_all() {
            if pid == shell {
                *exit = exit.or(Some(e));
            }
        }
        if !proc::has_children() || Instant::now() >= stop {
            return;
        }
    }
}
