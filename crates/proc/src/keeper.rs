//! The keeper (SPEC 15, 23.7): the process between `loopr-tool` and the command's shell — this
//! same binary as the hidden `__keep` command — so that nothing of a command outlives the
//! process that ran it, even one killed by SIGKILL.
//!
//! A killed process can do nothing, so whoever ends the tree must outlive it and must still
//! find the tree. The keeper is the tree's child subreaper — every orphan in it (`setsid`,
//! `nohup … &`, double forks) becomes the keeper's child, never init's — and it watches its
//! parent through a pidfd. When the parent dies, the keeper ends the tree as at a timeout
//! (SIGTERM, SIGKILL after 2 s) and exits. Chosen over a cgroup (an ordinary user has no
//! delegated cgroup tree to make one in) and over a PID namespace (the command would be pid 1
//! and see a /proc of its own).
//!
//! While the parent lives, the parent is in charge: it is a subreaper as well and ends the tree
//! at a timeout, a kill or after the shell exits (exec::finish). The keeper stays out of its
//! way: it catches the SIGTERM meant for the command (its handlers go back to the defaults in
//! the shell at exec) and lives until the last process below it is gone. The shell's process
//! also enters the confinement (confine.rs) before exec; the keeper itself stays outside, where
//! it can still write the id maps and signal into the namespaces.
//!
//! The protocol, on a socket at fd 3: the parent writes one JSON line (the order); the keeper
//! answers `ok PID` once the shell runs or `err {json}` (then nothing ran), and later `exit N`
//! or `signal N` when the shell ends.

use super::confine::{Confinement, Prepared, Step};
use super::exec::GRACE;
use super::proc::{self, Exit};
use super::signals::{self, Trap};
use rustix::event::{PollFd, PollFlags, poll};
use rustix::process::Signal;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// The hidden subcommand that runs a keeper.
pub const COMMAND: &str = "__keep";

/// The program keepers and job supervisors are started from, when it is not this executable:
/// a library user whose own binary does not answer `__keep` names a `loopr-tool` (SPEC 30.1).
static PROGRAM: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// The program to start a keeper or a supervisor from: this executable unless told otherwise
/// (`/proc/self/exe`, not the path we were started by: it still works if the binary on disk
/// was replaced since).
pub fn program() -> &'static std::path::Path {
    PROGRAM
        .get()
        .map_or(std::path::Path::new("/proc/self/exe"), PathBuf::as_path)
}

/// Sets `program` for the whole process, once: false when another program was set before.
pub fn set_program(p: PathBuf) -> bool {
    PROGRAM.get_or_init(|| p.clone()) == &p
}

/// The real path of `program`: a process running it is one of ours (proc.rs).
pub fn program_real() -> Option<PathBuf> {
    match PROGRAM.get() {
        Some(p) => std::fs::canonicalize(p).ok(),
        None => std::fs::read_link("/proc/self/exe").ok(),
    }
}
/// Where the parent puts the keeper's end of the socket.
pub const FD: RawFd = 3;

#[derive(Serialize, Deserialize)]
pub struct Order {
    /// The process the keeper answers to; when it is gone, so is the command.
    pub parent: u32,
    pub shell: PathBuf,
    /// `-l` before `-c`: a login shell.
    #[serde(default)]
    pub login: bool,
    pub command: String,
    /// Added to the shell's environment (the keeper's own stays ours).
    pub env: Vec<(String, String)>,
    pub confine: Confinement,
    /// The shell's stdin is a terminal it makes its controlling one, in a session of its own.
    #[serde(default)]
    pub tty: bool,
}

/// Why nothing ran. `mode` names the sandbox the kernel refused (`network:none`,
/// `workspace-write`, `read-only`); without it the failure was an ordinary one.
#[derive(Debug, Serialize, Deserialize)]
pub struct Refusal {
    pub mode: Option<String>,
    pub message: String,
}

/// What the keeper traps: the interrupts meant for the command, and its children's exits.
const TRAPPED: &[i32] = &[libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGCHLD];

/// `loopr-tool __keep`, its order on fd 3.
pub fn main() -> i32 {
    // SAFETY: the parent put the socket at fd 3 for us (exec::spawn) and nothing else owns it.
    let sock = unsafe { UnixStream::from_raw_fd(FD) };
    let _ = rustix::io::fcntl_setfd(&sock, rustix::io::FdFlags::CLOEXEC);
    let mut line = String::new();
    if BufReader::new(&sock).read_line(&mut line).is_err() {
        return 1;
    }
    let Ok(order) = serde_json::from_str::<Order>(&line) else {
        return 1;
    };
    let parent = proc::exit_fd(order.parent);
    // The pidfd is open first, so if the parent is still our parent now, the pidfd is it.
    if rustix::process::getppid().map(|p| p.as_raw_nonzero().get() as u32) != Some(order.parent) {
        return 1;
    }
    let mut out = &sock;
    let shell = match start(&order) {
        Ok((pid, trap)) => {
            let _ = writeln!(out, "ok {pid}");
            detach_stdio();
            (pid, trap)
        }
        Err(r) => {
            let _ = writeln!(out, "err {}", serde_json::to_string(&r).unwrap_or_default());
            return 1;
        }
    };
    watch(&order, shell.0, &shell.1, parent.as_ref(), out);
    0
}

/// Becomes the subreaper, traps signals, and starts the shell in its confinement.
fn start(order: &Order) -> Result<(u32, Trap), Refusal> {
    let plain = |message: String| Refusal {
        mode: None,
        message,
    };
    proc::set_subreaper(true)
        .map_err(|e| plain(format!("could not become the child subreaper: {e}")))?;
    let trap = Trap::set(TRAPPED).map_err(|e| plain(format!("could not trap signals: {e}")))?;
    let c = &order.confine;
    let prepared = Prepared::new(c).map_err(|(step, e)| refusal(c, Some(step), &e))?;
    let hooks = prepared.hooks();
    let mut cmd = Command::new(&order.shell);
    if order.login {
        cmd.arg("-l");
    }
    cmd.arg("-c").arg(&order.command);
    cmd.envs(order.env.iter().map(|(k, v)| (k, v)));
    if order.tty {
        // SAFETY: setsid and the TIOCSCTTY ioctl are async-signal-safe syscalls on this child.
        // The shell leads a session of its own whose controlling terminal is its stdin (the
        // pty's slave), so job control, /dev/tty and the foreground group all work; it stays
        // below the keeper, which reaps and ends its tree as any other.
        unsafe {
            cmd.pre_exec(|| {
                rustix::process::setsid()?;
                rustix::process::ioctl_tiocsctty(rustix::stdio::stdin())?;
                Ok(())
            })
        };
    }
    // SAFETY: `enter` makes only raw syscalls on numbers made before the fork.
    unsafe { cmd.pre_exec(move || hooks.enter()) };
    let spawned = cmd.spawn();
    let step = prepared.finish();
    match spawned {
        Ok(child) => Ok((child.id(), trap)),
        Err(e) => Err(refusal(c, step, &e)),
    }
}

fn refusal(c: &Confinement, step: Option<Step>, e: &std::io::Error) -> Refusal {
    match step {
        Some(s) => Refusal {
            mode: Some(if s.is_network() {
                "network:none".to_string()
            } else {
                c.fs.as_ref().map_or("none", |(m, _)| m.name()).to_string()
            }),
            message: format!("the kernel refused {}: {e}", s.what()),
        },
        None => Refusal {
            mode: None,
            message: format!("could not start the shell: {e}"),
        },
    }
}

/// The standard descriptors onto /dev/null: the keeper's (and a supervisor's) copies of the
/// command's stdin and output go, so the output pipe reaches EOF when the command's own writers
/// are gone, the starter's pipe reaches EOF, and no write here can raise SIGPIPE.
pub fn detach_stdio() {
    if let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        let _ = rustix::stdio::dup2_stdin(&null);
        let _ = rustix::stdio::dup2_stdout(&null);
        let _ = rustix::stdio::dup2_stderr(&null);
    }
}

/// Reaps, reports the shell's end, and lives until the last process below it is gone — or
/// ends them all if the parent dies first.
fn watch(order: &Order, shell: u32, trap: &Trap, parent: Option<&OwnedFd>, mut out: &UnixStream) {
    let mut reported = false;
    loop {
        for (pid, exit) in proc::reap_all() {
            if pid == shell && !reported {
                let _ = match exit {
                    Exit::Code(c) => writeln!(out, "exit {c}"),
                    Exit::Signal(s) => writeln!(out, "signal {s}"),
                };
                reported = true;
            }
        }
        if reported && !proc::has_children() {
            return;
        }
        let orphaned = rustix::process::getppid()
            .is_none_or(|p| p.as_raw_nonzero().get() as u32 != order.parent);
        if orphaned {
            end_tree();
            return;
        }
        let wake = trap.wake_fd();
        let mut fds = vec![PollFd::new(&wake, PollFlags::IN)];
        if let Some(p) = parent {
            fds.push(PollFd::new(p, PollFlags::IN));
        }
        // Without a pidfd the parent's death is seen by getppid, every 50 ms.
        let wait = if parent.is_some() { 1000 } else { 50 };
        let _ = poll(&mut fds, Some(&timespec(Duration::from_millis(wait))));
        signals::drain();
    }
}

pub fn timespec(d: Duration) -> rustix::event::Timespec {
    rustix::event::Timespec {
        tv_sec: d.as_secs() as i64,
        tv_nsec: d.subsec_nanos() as i64,
    }
}

/// Ends every process below the keeper: SIGTERM, then SIGKILL after the grace time.
fn end_tree() {
    let me = std::process::id();
    let mut seen = HashSet::new();
    proc::signal_descendants(me, Signal::TERM, None, &mut seen);
    let stop = Instant::now() + GRACE;
    while proc::has_children() && Instant::now() < stop {
        proc::reap_all();
        std::thread::sleep(Duration::from_millis(20));
    }
    let stop = Instant::now() + Duration::from_secs(5);
    while proc::has_children() && Instant::now() < stop {
        proc::signal_descendants(me, Signal::KILL, None, &mut seen);
        std::thread::sleep(Duration::from_millis(5));
        proc::reap_all();
    }
}
