//! Processes as Linux shows them: `/proc/<pid>/stat`, pid file descriptors, the child subreaper,
//! and signals that can never reach a reused pid.
//!
//! A pid alone names whoever has it now. Every signal here goes to a process identified by
//! (pid, start time): a pidfd is opened first, then the start time is checked, then the signal
//! goes through the pidfd — so a process that exited and had its pid reused in between is never
//! hit. (This kernel has no `/proc/<pid>/task/<tid>/children`, so children are found by scanning
//! `/proc/*/stat` for the parent pid.)

use std::collections::{HashMap, HashSet};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// A process as recorded: its pid and its start time (clock ticks after boot, field 22 of
/// `/proc/<pid>/stat`), which together name one process for the life of the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ProcId {
    pub pid: u32,
    pub start: u64,
}

#[derive(Debug, Clone, Copy)]
pub struct Stat {
    pub pid: u32,
    pub ppid: u32,
    pub state: u8,
    pub start: u64,
}

/// Parses `/proc/<pid>/stat`. The command name may hold spaces and parentheses, so the fields
/// are read after the last `)`.
pub fn stat(pid: u32) -> Option<Stat> {
    let text = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(pid, &text)
}

fn parse_stat(pid: u32, text: &[u8]) -> Option<Stat> {
    let close = text.iter().rposition(|&b| b == b')')?;
    let rest = std::str::from_utf8(&text[close + 1..]).ok()?;
    let mut fields = rest.split_ascii_whitespace();
    // After the name: state (3), ppid (4), … starttime (22).
    let state = fields.next()?.bytes().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let start = fields.nth(17)?.parse().ok()?;
    Some(Stat {
        pid,
        ppid,
        state,
        start,
    })
}

impl ProcId {
    pub fn of(pid: u32) -> Option<ProcId> {
        stat(pid).map(|s| ProcId {
            pid,
            start: s.start,
        })
    }

    pub fn me() -> ProcId {
        ProcId::of(std::process::id()).unwrap_or(ProcId {
            pid: std::process::id(),
            start: 0,
        })
    }

    /// Whether this very process still runs (a zombie has ended).
    pub fn alive(&self) -> bool {
        stat(self.pid).is_some_and(|s| s.start == self.start && s.state != b'Z' && s.state != b'X')
    }
}

/// Every process on the machine, as far as `/proc` lets us see.
fn all() -> Vec<Stat> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return vec![];
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(stat)
        .collect()
}

/// The live (not zombie) descendants of `root`, parents before children.
pub fn descendants(root: u32) -> Vec<Stat> {
    let procs = all();
    let mut children: HashMap<u32, Vec<Stat>> = HashMap::new();
    for p in procs {
        children.entry(p.ppid).or_default().push(p);
    }
    let mut out = vec![];
    let mut queue = vec![root];
    while let Some(pid) = queue.pop() {
        for c in children.get(&pid).map(Vec::as_slice).unwrap_or_default() {
            queue.push(c.pid);
            if c.state != b'Z' && c.state != b'X' {
                out.push(*c);
            }
        }
    }
    out
}

fn pidfd_open(pid: u32) -> Option<OwnedFd> {
    // SAFETY: a plain syscall; a non-negative result is a new fd we own.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

/// Sends `sig` to exactly the process `who`, if it still runs. Returns whether it was sent.
pub fn signal(who: ProcId, sig: i32) -> bool {
    match pidfd_open(who.pid) {
        Some(fd) => {
            // The pidfd pins the process: if the start time matches now, the signal below
            // reaches that process or none.
            if stat(who.pid).is_none_or(|s| s.start != who.start) {
                return false;
            }
            // SAFETY: plain syscall on an fd we own.
            let r = unsafe {
                libc::syscall(
                    libc::SYS_pidfd_send_signal,
                    fd.as_raw_fd(),
                    sig,
                    std::ptr::null::<libc::siginfo_t>(),
                    0,
                )
            };
            r == 0
        }
        // A kernel before 5.3: check, then kill — a window of microseconds instead of none.
        None => {
            stat(who.pid).is_some_and(|s| s.start == who.start)
                // SAFETY: plain syscall.
                && unsafe { libc::kill(who.pid as libc::pid_t, sig) } == 0
        }
    }
}

/// Signals every live descendant of `root`; each one newly signalled joins `seen`.
/// Returns how many were signalled.
pub fn signal_descendants(root: u32, sig: i32, seen: &mut HashSet<ProcId>) -> usize {
    let mut n = 0;
    for p in descendants(root) {
        let id = ProcId {
            pid: p.pid,
            start: p.start,
        };
        if signal(id, sig) {
            seen.insert(id);
            n += 1;
        }
    }
    n
}

/// While set, orphaned descendants are re-parented to this process instead of init, so
/// `setsid`, `nohup … &` and double forks cannot leave the tree.
pub fn set_subreaper(on: bool) {
    // SAFETY: plain prctl with integer arguments.
    unsafe {
        libc::prctl(
            libc::PR_SET_CHILD_SUBREAPER,
            libc::c_ulong::from(on),
            0,
            0,
            0,
        );
    }
}

/// How a waited-for process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

/// What `waitid` sees among our children without reaping any: `None` when there are no
/// children at all, else the pid of one that has exited (0 when none has yet).
fn peek_exited() -> Option<u32> {
    // SAFETY: a zeroed siginfo is a valid out-parameter; si_pid is set for CLD_* events and
    // left zero when no child has changed state.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let r = unsafe {
        libc::waitid(
            libc::P_ALL,
            0,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    if r != 0 {
        // ECHILD: no children. Anything else (EINTR) is treated as "none exited yet".
        let errno = std::io::Error::last_os_error().raw_os_error();
        return (errno != Some(libc::ECHILD)).then_some(0);
    }
    Some(unsafe { info.si_pid() } as u32)
}

/// Reaps every child that has exited. `shell`'s status, if it is among them, is returned.
pub fn reap(shell: Option<u32>) -> Option<Exit> {
    let mut found = None;
    while let Some(pid) = peek_exited().filter(|&p| p != 0) {
        let status = wait_pid(pid, false);
        if Some(pid) == shell {
            found = status;
        }
    }
    found
}

/// waitpid on one child; `block` waits for it.
pub fn wait_pid(pid: u32, block: bool) -> Option<Exit> {
    let mut status = 0;
    let flags = if block { 0 } else { libc::WNOHANG };
    // SAFETY: plain syscall with an out-parameter on the stack.
    let r = unsafe { libc::waitpid(pid as libc::pid_t, &mut status, flags) };
    if r != pid as libc::pid_t {
        return None;
    }
    if libc::WIFEXITED(status) {
        Some(Exit::Code(libc::WEXITSTATUS(status)))
    } else if libc::WIFSIGNALED(status) {
        Some(Exit::Signal(libc::WTERMSIG(status)))
    } else {
        None
    }
}

/// Whether this process has any child left (running or not yet reaped). As the subreaper of a
/// run, no child means no descendant at all.
pub fn has_children() -> bool {
    peek_exited().is_some()
}

/// An fd that becomes readable when the process exits (for poll), if the kernel has pidfds.
pub fn exit_fd(pid: u32) -> Option<OwnedFd> {
    pidfd_open(pid)
}

pub fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return format!("SIG{sig}"),
    };
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_survives_names_with_spaces_and_parens() {
        let line =
            b"4242 (my (odd) name) S 17 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 0 0";
        let s = parse_stat(4242, line).unwrap();
        assert_eq!((s.ppid, s.state, s.start), (17, b'S', 987654));
    }

    #[test]
    fn this_process_is_alive_and_a_wrong_start_time_is_not_it() {
        let me = ProcId::me();
        assert!(me.alive());
        let impostor = ProcId {
            pid: me.pid,
            start: me.start + 1,
        };
        assert!(!impostor.alive());
        // A signal to the impostor (as to a reused pid) is refused; signal 0 only checks.
        assert!(!signal(impostor, 0));
        assert!(signal(me, 0));
    }

    #[test]
    fn a_child_is_among_the_descendants() {
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let found = descendants(std::process::id())
            .iter()
            .any(|p| p.pid == child.id());
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(found);
        assert_eq!(signal_name(libc::SIGKILL), "SIGKILL");
        assert_eq!(signal_name(64), "SIG64");
    }
}
