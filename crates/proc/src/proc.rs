//! Processes as Linux shows them: `/proc/<pid>/stat`, pid file descriptors, the child subreaper,
//! and signals that can never reach a reused pid.
//!
//! A pid alone names whoever has it now. Every signal here goes to a process identified by
//! (pid, start time): a pidfd is opened first, then the start time is checked, then the signal
//! goes through the pidfd — so a process that exited and had its pid reused in between is never
//! hit. (This kernel has no `/proc/<pid>/task/<tid>/children`, so children are found by scanning
//! `/proc/*/stat` for the parent pid.)

use rustix::process::{
    Pid, PidfdFlags, Signal, WaitId, WaitIdOptions, WaitOptions, pidfd_open, pidfd_send_signal,
};
use std::collections::{HashMap, HashSet};
use std::os::fd::OwnedFd;

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
    /// The session id: the pid of the session's leader.
    pub session: u32,
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
    // After the name: state (3), ppid (4), pgrp (5), session (6), … starttime (22).
    let state = fields.next()?.bytes().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let session = fields.nth(1)?.parse().ok()?;
    let start = fields.nth(15)?.parse().ok()?;
    Some(Stat {
        pid,
        ppid,
        state,
        session,
        start,
    })
}

impl Stat {
    fn id(&self) -> ProcId {
        ProcId {
            pid: self.pid,
            start: self.start,
        }
    }

    fn live(&self) -> bool {
        self.state != b'Z' && self.state != b'X'
    }
}

impl ProcId {
    pub fn of(pid: u32) -> Option<ProcId> {
        stat(pid).map(|s| s.id())
    }

    pub fn me() -> ProcId {
        ProcId::of(std::process::id()).unwrap_or(ProcId {
            pid: std::process::id(),
            start: 0,
        })
    }

    /// Whether this very process still runs (a zombie has ended).
    pub fn alive(&self) -> bool {
        stat(self.pid).is_some_and(|s| s.start == self.start && s.live())
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

/// Children this process keeps on purpose (upstream MCP servers, SPEC 27.2): the ends of a
/// run's or a hook's tree, which signal every descendant of this process, leave them and
/// theirs alone.
static SPARED: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// Keeps `pid` (a child this process started and will end itself) out of every tree's end.
pub fn spare(pid: u32) {
    SPARED.lock().unwrap_or_else(|e| e.into_inner()).push(pid);
}

/// `pid` is gone or ended: a later process with its number is no longer spared.
pub fn unspare(pid: u32) {
    SPARED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|p| *p != pid);
}

/// The live (not zombie) descendants of `root`, parents before children; spared ones and
/// theirs left out.
pub fn descendants(root: u32) -> Vec<Stat> {
    let spared = SPARED.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let procs = all();
    let mut children: HashMap<u32, Vec<Stat>> = HashMap::new();
    for p in procs {
        children.entry(p.ppid).or_default().push(p);
    }
    let mut out = vec![];
    let mut queue = vec![root];
    while let Some(pid) = queue.pop() {
        for c in children.get(&pid).map(Vec::as_slice).unwrap_or_default() {
            if spared.contains(&c.pid) {
                continue; // not the tree's: kept by this process on purpose, with its own
            }
            queue.push(c.pid);
            if c.live() {
                out.push(*c);
            }
        }
    }
    out
}

/// The live processes of the session that `leader` started, where the session is still
/// provably its: the kernel does not hand out a pid while a session still bears it as its id,
/// so members of session `leader.pid` belong to it — unless a different process now has that
/// pid (the session died out and the number was reused).
pub fn session_members(leader: ProcId) -> Vec<ProcId> {
    let procs = all();
    if procs
        .iter()
        .any(|p| p.pid == leader.pid && p.start != leader.start)
    {
        return vec![];
    }
    procs
        .iter()
        .filter(|p| p.session == leader.pid && p.live() && p.start >= leader.start)
        .map(Stat::id)
        .collect()
}

/// Whether `exe` is this executable, or the program keepers and supervisors are started from
/// (the same unless a library user named a `loopr-tool`: keeper::program).
fn ours(exe: &std::path::Path) -> bool {
    let own = std::fs::read_link("/proc/self/exe").ok();
    own.as_deref() == Some(exe) || super::keeper::program_real().as_deref() == Some(exe)
}

/// Whether `who` runs this very executable and is the process the record saw (its start time).
pub fn is_ours(who: ProcId) -> bool {
    let exe = |pid: &str| std::fs::read_link(format!("/proc/{pid}/exe")).ok();
    exe(&who.pid.to_string()).is_some_and(|e| ours(&e))
        && stat(who.pid).is_some_and(|s| s.start == who.start)
}

/// Whether `who` is a keeper (keeper.rs) of this binary: `loopr-tool __keep` running the same
/// executable as we do. A record could name any process; only a keeper is ever swept.
pub fn is_keeper(who: ProcId) -> bool {
    let exe = |pid: &str| std::fs::read_link(format!("/proc/{pid}/exe")).ok();
    let cmdline = std::fs::read(format!("/proc/{}/cmdline", who.pid)).unwrap_or_default();
    cmdline.split(|&b| b == 0).nth(1) == Some(super::keeper::COMMAND.as_bytes())
        && exe(&who.pid.to_string()).is_some_and(|e| ours(&e))
        && stat(who.pid).is_some_and(|s| s.start == who.start)
}

/// The arguments `pid` was started with (empty when it is gone or not ours to read).
pub fn cmdline(pid: u32) -> Vec<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    raw.split(|&b| b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect()
}

fn pid(raw: u32) -> Option<Pid> {
    Pid::from_raw(i32::try_from(raw).ok()?)
}

fn open_pidfd(raw: u32) -> Option<OwnedFd> {
    pidfd_open(pid(raw)?, PidfdFlags::empty()).ok()
}

/// Sends `sig` to exactly the process `who`, if it still runs. Returns whether it was sent.
pub fn signal(who: ProcId, sig: Signal) -> bool {
    match open_pidfd(who.pid) {
        Some(fd) => {
            // The pidfd pins the process: if the start time matches now, the signal below
            // reaches that process or none.
            if stat(who.pid).is_none_or(|s| s.start != who.start) {
                return false;
            }
            pidfd_send_signal(&fd, sig).is_ok()
        }
        // A kernel before 5.3: check, then kill — a window of microseconds instead of none.
        None => {
            stat(who.pid).is_some_and(|s| s.start == who.start)
                && pid(who.pid).is_some_and(|p| rustix::process::kill_process(p, sig).is_ok())
        }
    }
}

/// Signals every live descendant of `root` but `except`; each one newly signalled joins
/// `seen`. Returns how many were signalled.
pub fn signal_descendants(
    root: u32,
    sig: Signal,
    except: Option<ProcId>,
    seen: &mut HashSet<ProcId>,
) -> usize {
    let mut n = 0;
    for p in descendants(root) {
        let id = p.id();
        if Some(id) != except && signal(id, sig) {
            seen.insert(id);
            n += 1;
        }
    }
    n
}

/// While set, orphaned descendants are re-parented to this process instead of init, so
/// `setsid`, `nohup … &` and double forks cannot leave the tree.
pub fn set_subreaper(on: bool) -> std::io::Result<()> {
    let me = on.then(rustix::process::getpid);
    rustix::process::set_child_subreaper(me).map_err(std::io::Error::from)
}

/// How a waited-for process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

impl Exit {
    fn of(status: rustix::process::WaitStatus) -> Option<Exit> {
        status
            .exit_status()
            .map(Exit::Code)
            .or_else(|| status.terminating_signal().map(Exit::Signal))
    }
}

/// Reaps every child that has exited; returns each one's pid with how it ended.
pub fn reap_all() -> Vec<(u32, Exit)> {
    let mut out = vec![];
    while let Ok(Some((pid, status))) = rustix::process::wait(WaitOptions::NOHANG) {
        if let Some(e) = Exit::of(status) {
            out.push((pid.as_raw_nonzero().get() as u32, e));
        }
    }
    out
}

/// Whether this process has any child left (running or not yet reaped). As the subreaper of a
/// run, no child means no descendant at all.
pub fn has_children() -> bool {
    let look = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    // ECHILD: no children. Anything else (EINTR) counts as "some".
    !matches!(
        rustix::process::waitid(WaitId::All, look),
        Err(rustix::io::Errno::CHILD)
    )
}

/// An fd that becomes readable when the process exits (for poll), if the kernel has pidfds.
pub fn exit_fd(pid: u32) -> Option<OwnedFd> {
    open_pidfd(pid)
}

/// Whether `pid` ends within `within` (by its pidfd; false without one).
pub fn ends_within(pid: u32, within: std::time::Duration) -> bool {
    use rustix::event::{PollFd, PollFlags, poll};
    let Some(fd) = exit_fd(pid) else {
        return false;
    };
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    let limit = super::keeper::timespec(within);
    matches!(poll(&mut fds, Some(&limit)), Ok(n) if n > 0)
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

/// The number of a signal named as `signal_name` names it.
pub fn signal_number(name: &str) -> Option<i32> {
    (1..=64).find(|&n| signal_name(n) == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_survives_names_with_spaces_and_parens() {
        let line =
            b"4242 (my (odd) name) S 17 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 0 0";
        let s = parse_stat(4242, line).unwrap();
        assert_eq!(
            (s.ppid, s.state, s.session, s.start),
            (17, b'S', 4242, 987654)
        );
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
        // A signal to the impostor (as to a reused pid) is refused; SIGCONT changes nothing
        // for a running process, so sending it to ourselves only shows that it reaches.
        assert!(!signal(impostor, Signal::CONT));
        assert!(signal(me, Signal::CONT));
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
