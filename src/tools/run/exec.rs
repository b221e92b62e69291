//! Running one command to its end (SPEC §15): the shell in its own session with one pipe for
//! stdout and stderr, this process as the child subreaper, and a loop that reads output, notices
//! the shell's exit, drains, and ends whatever is left — at the timeout, after the shell exits,
//! or when `jobs kill` ended the shell.
//!
//! The same loop serves a foreground `run` (this process is the subreaper) and a background job
//! (its supervisor process is).

use super::capture::Capture;
use super::proc::{self, Exit, ProcId};
use crate::control::Control;
use std::collections::HashSet;
use std::ffi::CString;
use std::io::{Read, Write};
use std::os::fd::{AsFd, AsRawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
    pub network_none: bool,
    pub timeout_ms: Option<u64>,
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
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin"), PathBuf::from("/bin")])
        .map(|d| d.join("bash"))
        .find(|p| is_executable(p))
        .unwrap_or_else(|| PathBuf::from("/bin/sh"))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// What `unshare` needs, made before fork: after it, the child may not allocate.
struct NetNs {
    uid_map: CString,
    gid_map: CString,
}

impl NetNs {
    fn new() -> NetNs {
        // SAFETY: getuid/getgid cannot fail.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        NetNs {
            uid_map: CString::new(format!("{uid} {uid} 1")).expect("no NUL"),
            gid_map: CString::new(format!("{gid} {gid} 1")).expect("no NUL"),
        }
    }

    /// In the child, before exec: a new network namespace (with a user namespace that maps our
    /// own ids where we lack CAP_SYS_ADMIN), then loopback up. Only async-signal-safe calls.
    fn enter(&self) -> std::io::Result<()> {
        // SAFETY: raw syscalls in the single-threaded child; every pointer is to data made
        // before fork.
        unsafe {
            if libc::unshare(libc::CLONE_NEWNET) != 0 {
                if libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                write_file(c"/proc/self/setgroups", b"deny")?;
                write_file(c"/proc/self/uid_map", self.uid_map.as_bytes())?;
                write_file(c"/proc/self/gid_map", self.gid_map.as_bytes())?;
            }
            loopback_up()
        }
    }
}

unsafe fn write_file(path: &std::ffi::CStr, data: &[u8]) -> std::io::Result<()> {
    // SAFETY: open/write/close on a path and buffer that live across the call.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let n = libc::write(fd, data.as_ptr().cast(), data.len());
        let err = std::io::Error::last_os_error();
        libc::close(fd);
        if n != data.len() as isize {
            return Err(err);
        }
    }
    Ok(())
}

/// `ip link set lo up`, by ioctl, so the command's own local servers still work.
unsafe fn loopback_up() -> std::io::Result<()> {
    // SAFETY: a socket, two ioctls on a zeroed ifreq naming "lo", close.
    unsafe {
        let s = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        if s < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let mut req: libc::ifreq = std::mem::zeroed();
        req.ifr_name[0] = b'l' as libc::c_char;
        req.ifr_name[1] = b'o' as libc::c_char;
        let mut r = libc::ioctl(s, libc::SIOCGIFFLAGS, &mut req);
        if r == 0 {
            req.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
            r = libc::ioctl(s, libc::SIOCSIFFLAGS, &mut req);
        }
        let err = std::io::Error::last_os_error();
        libc::close(s);
        if r != 0 {
            return Err(err);
        }
    }
    Ok(())
}

/// A started shell.
pub struct Running {
    pub shell: ProcId,
    pub started: Instant,
    output: std::io::PipeReader,
}

/// Starts the command: `bash -c` in its own session (no controlling terminal), stdout and
/// stderr on one pipe, stdin `/dev/null` or the given text. `die_with_parent` kills the shell if
/// this process dies (a foreground run); the subreaper catches the rest.
pub fn spawn(spec: &Spec, die_with_parent: bool) -> std::io::Result<Running> {
    let (reader, writer) = std::io::pipe()?;
    let mut cmd = Command::new(shell());
    cmd.arg("-c").arg(&spec.command).current_dir(&spec.cwd);
    cmd.envs(NON_INTERACTIVE.iter().copied());
    cmd.envs(spec.env.iter().map(|(k, v)| (k, v)));
    cmd.stdout(writer.try_clone()?).stderr(writer);
    cmd.stdin(if spec.stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let netns = spec.network_none.then(NetNs::new);
    // SAFETY: the closure runs between fork and exec and only makes raw syscalls.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            if die_with_parent {
                libc::prctl(
                    libc::PR_SET_PDEATHSIG,
                    libc::SIGKILL as libc::c_ulong,
                    0,
                    0,
                    0,
                );
            }
            if let Some(ns) = &netns {
                ns.enter()?;
            }
            Ok(())
        });
    }
    let started = Instant::now();
    let mut child = cmd.spawn()?;
    drop(cmd); // our copies of the pipe's write end: EOF must mean every writer is gone
    if let (Some(text), Some(mut stdin)) = (spec.stdin.clone(), child.stdin.take()) {
        // A command that never reads its stdin must not block us: a thread writes it, and
        // gives up with EPIPE when the command is gone.
        std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
    }
    let shell = ProcId::of(child.id()).unwrap_or(ProcId {
        pid: child.id(),
        start: 0,
    });
    Ok(Running {
        shell,
        started,
        output: reader,
    })
}

/// How often a running command's loop looks for a cancel and reports progress.
const LOOK: Duration = Duration::from_millis(250);

/// How the run ended.
pub struct Outcome {
    pub exit: Exit,
    pub duration: Duration,
    pub timed_out: bool,
    /// Processes ended by us: at the timeout (all of them) or after the shell exited (those
    /// left behind).
    pub ended: usize,
    /// Whether those were left behind by a shell that had exited.
    pub ended_leftovers: bool,
    /// Ended because the caller cancelled the call (SPEC 22.1), as at a timeout.
    pub cancelled: bool,
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
/// the last line are reported as progress. Polls wake at least every `LOOK` to see both.
pub fn finish(
    run: Running,
    capture: &mut Capture,
    timeout: Option<Duration>,
    control: &Control,
) -> Outcome {
    let me = std::process::id();
    let deadline = timeout.map(|t| run.started + t);
    let exit_fd = proc::exit_fd(run.shell.pid);
    let mut pipe = Some(run.output);
    let mut exit: Option<Exit> = None;
    let mut phase = Phase::Running;
    let mut ended: HashSet<ProcId> = HashSet::new();
    let mut timed_out = false;
    let mut cancelled = false;
    let mut leftovers = false;
    let mut reported = Instant::now();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let now = Instant::now();
        let until = match phase {
            Phase::Running => Some(deadline.map_or(now + LOOK, |d| d.min(now + LOOK))),
            Phase::Draining(t) => Some(t),
            Phase::Ending(t) => Some(t.min(now + Duration::from_millis(20))),
        };
        // Without a pidfd, look at the shell every 5 ms.
        let until = match (&exit_fd, exit) {
            (None, None) => Some(until.map_or(now + Duration::from_millis(5), |u| {
                u.min(now + Duration::from_millis(5))
            })),
            _ => until,
        };
        let mut fds = vec![];
        if let Some(p) = &pipe {
            fds.push(libc::pollfd {
                fd: p.as_fd().as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            });
        }
        let watch_exit = exit.is_none() && exit_fd.is_some();
        if let (true, Some(fd)) = (watch_exit, &exit_fd) {
            fds.push(libc::pollfd {
                fd: fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            });
        }
        let wait_ms = until.map_or(-1, |u| {
            u.saturating_duration_since(now)
                .as_millis()
                .min(i32::MAX as u128) as i32
        });
        let nothing_to_drain = pipe.is_none() && matches!(phase, Phase::Draining(_));
        if !nothing_to_drain && (!fds.is_empty() || wait_ms > 0) {
            // SAFETY: fds is a valid array of pollfd for the call's duration.
            unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, wait_ms) };
        }
        if let Some(p) = &mut pipe
            && fds.first().is_some_and(|f| f.revents != 0)
        {
            match p.read(&mut buf) {
                Ok(0) => pipe = None,
                Ok(n) => capture.feed(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => pipe = None,
            }
        }
        if exit.is_none() {
            exit = proc::reap(Some(run.shell.pid));
        } else {
            proc::reap(None);
        }
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
        phase = match phase {
            Phase::Running | Phase::Draining(_) if control.is_cancelled() && !cancelled => {
                cancelled = true;
                proc::signal_descendants(me, libc::SIGTERM, &mut ended);
                Phase::Ending(now + GRACE)
            }
            Phase::Running if exit.is_some() => Phase::Draining(now + GRACE),
            Phase::Running if deadline.is_some_and(|d| now >= d) => {
                timed_out = true;
                proc::signal_descendants(me, libc::SIGTERM, &mut ended);
                Phase::Ending(now + GRACE)
            }
            Phase::Draining(t) if pipe.is_none() || now >= t => {
                if !proc::has_children() {
                    break;
                }
                leftovers = true;
                proc::signal_descendants(me, libc::SIGTERM, &mut ended);
                Phase::Ending(now + GRACE)
            }
            Phase::Ending(t) => {
                if exit.is_some() && !proc::has_children() {
                    break;
                }
                if now >= t {
                    kill_all(me, run.shell.pid, &mut exit, &mut ended);
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
            let mut fd = [libc::pollfd {
                fd: p.as_fd().as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            }];
            let left = stop.saturating_duration_since(Instant::now()).as_millis() as i32;
            // SAFETY: one valid pollfd.
            if unsafe { libc::poll(fd.as_mut_ptr(), 1, left) } <= 0 {
                break;
            }
            match p.read(&mut buf) {
                Ok(n) if n > 0 => capture.feed(&buf[..n]),
                _ => break,
            }
        }
    }
    Outcome {
        exit: exit.unwrap_or(Exit::Signal(libc::SIGKILL)),
        duration: run.started.elapsed(),
        timed_out,
        ended: ended.len(),
        ended_leftovers: leftovers && !timed_out && !cancelled,
        cancelled,
    }
}

/// SIGKILL to every descendant until none is left (new ones forked meanwhile included), reaping
/// as they die. Bounded, so a machine that cannot kill never hangs us.
fn kill_all(me: u32, shell: u32, exit: &mut Option<Exit>, ended: &mut HashSet<ProcId>) {
    let stop = Instant::now() + Duration::from_secs(5);
    loop {
        proc::signal_descendants(me, libc::SIGKILL, ended);
        std::thread::sleep(Duration::from_millis(5));
        if let Some(e) = proc::reap(Some(shell)) {
            *exit = Some(e);
        }
        if !proc::has_children() || Instant::now() >= stop {
            return;
        }
    }
}
