//! "Waiting for input", read from the kernel rather than guessed from the text (SPEC 28).
//!
//! A job waits when none of its processes runs and the terminal's foreground process group (for
//! a pipe job: the processes holding its stdin pipe) is blocked on that descriptor — in `read`,
//! or in `poll`, `select`, `pselect` or `epoll` watching it — each of them either so, or a
//! parent in `wait4`/`waitid`. The syscall a task sleeps in and its arguments come from
//! `/proc/PID/task/TID/syscall`; `poll`'s and `select`'s descriptor sets from `/proc/PID/mem`
//! (both need ptrace access: a job's supervisor is its ancestor, which Yama's scope 1 allows);
//! an epoll instance's descriptors from `fdinfo`. Where `syscall` cannot be read, `wchan` (the
//! kernel function a task sleeps in) and the open descriptors stand in.
//!
//! Why not the text: a pytest run that pauses after `collected 12 items` looks like a prompt,
//! a password prompt that prints nothing looks like a slow program. Measured by bench/tty.py:
//! a sample of a small job costs ~0.1 ms; see the README for the latency and false-positive
//! figures.

use std::os::unix::fs::{FileExt, FileTypeExt, MetadataExt};

/// The descriptor a job's input arrives on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A terminal: the pty's slave (its device number), also when reopened as `/dev/tty`.
    Tty { rdev: u64 },
    /// A pipe or FIFO: its inode.
    Pipe { dev: u64, ino: u64 },
}

/// `/dev/tty`'s device number (5, 0): a process's controlling terminal, whichever it is.
const DEV_TTY: u64 = 5 << 8;

/// One process of the job as `/proc/PID/stat` shows it.
#[derive(Debug, Clone, Copy)]
struct Proc {
    pid: u32,
    pgrp: u32,
    tty_nr: u64,
}

/// What one look found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sample {
    pub waiting: bool,
    /// The command name (`comm`) of a process blocked reading the input, when waiting.
    pub reader: Option<String>,
}

impl Input {
    /// Whether descriptor `fd` of `p` is the job's input.
    fn is(&self, p: &Proc, fd: u64) -> bool {
        let Ok(m) = std::fs::metadata(format!("/proc/{}/fd/{fd}", p.pid)) else {
            return false;
        };
        match *self {
            Input::Tty { rdev } => {
                m.file_type().is_char_device()
                    && (m.rdev() == rdev || (m.rdev() == DEV_TTY && p.tty_nr == rdev))
            }
            Input::Pipe { dev, ino } => m.dev() == dev && m.ino() == ino,
        }
    }

    /// Whether `p` holds the input open at all.
    fn held_by(&self, p: &Proc) -> bool {
        let Ok(dir) = std::fs::read_dir(format!("/proc/{}/fd", p.pid)) else {
            return false;
        };
        dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
            .any(|fd| self.is(p, fd))
    }
}

/// How a process of the candidates stands.
#[derive(Debug, PartialEq, Eq)]
enum Standing {
    /// Blocked on the input.
    Reading,
    /// A parent waiting for a child.
    Parent,
    /// Anything else: asleep on something other than the input.
    Other,
}

/// Looks once at the processes below `root` (the job's keeper, not itself one of them):
/// `foreground` is the terminal's foreground process group, `None` for a pipe job.
pub fn sample(root: u32, input: Input, foreground: Option<u32>) -> Sample {
    let not = Sample::default();
    let procs: Vec<Proc> = below(root).into_iter().filter_map(read_proc).collect();
    if procs.is_empty() || procs.iter().any(|p| running(p.pid)) {
        return not;
    }
    let candidates: Vec<&Proc> = match foreground {
        Some(pg) => procs.iter().filter(|p| p.pgrp == pg).collect(),
        None => procs.iter().filter(|p| input.held_by(p)).collect(),
    };
    let mut reading = vec![];
    for p in &candidates {
        match standing(p, input) {
            Standing::Reading => reading.push(p.pid),
            Standing::Parent => {}
            Standing::Other => return not,
        }
    }
    Sample {
        waiting: !reading.is_empty(),
        reader: reading.first().and_then(|&pid| comm(pid)),
    }
}

/// The processes below `root`, from each thread's `children` list: a few small reads, where a
/// scan of all of /proc (proc::descendants, the fallback) reads one file per process on the
/// machine, every 20 ms.
fn below(root: u32) -> Vec<u32> {
    let mut out = vec![];
    let mut queue = vec![root];
    while let Some(pid) = queue.pop() {
        for t in tasks(pid) {
            let Ok(list) = std::fs::read_to_string(format!("/proc/{pid}/task/{t}/children")) else {
                return crate::proc::descendants(root)
                    .iter()
                    .map(|s| s.pid)
                    .collect();
            };
            for c in list.split_ascii_whitespace().filter_map(|c| c.parse().ok()) {
                out.push(c);
                queue.push(c);
            }
        }
    }
    out
}

/// A live process's ids (None for a zombie or one gone).
fn read_proc(pid: u32) -> Option<Proc> {
    let text = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
    let close = text.iter().rposition(|&b| b == b')')?;
    let rest = std::str::from_utf8(&text[close + 1..]).ok()?;
    // After the name: state (3), ppid (4), pgrp (5), session (6), tty_nr (7).
    let mut f = rest.split_ascii_whitespace();
    if matches!(f.next(), Some("Z" | "X")) {
        return None;
    }
    let mut f = f.skip(1);
    let pgrp = f.next()?.parse().ok()?;
    let tty_nr = f.nth(1)?.parse().ok()?;
    Some(Proc { pid, pgrp, tty_nr })
}

fn tasks(pid: u32) -> Vec<u32> {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Whether any thread of `pid` is on a CPU or in uninterruptible sleep (disk I/O): busy.
fn running(pid: u32) -> bool {
    tasks(pid).into_iter().any(|t| {
        std::fs::read(format!("/proc/{pid}/task/{t}/stat"))
            .ok()
            .and_then(|s| {
                let close = s.iter().rposition(|&b| b == b')')?;
                s.get(close + 2).copied()
            })
            .is_some_and(|state| state == b'R' || state == b'D')
    })
}

fn comm(pid: u32) -> Option<String> {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .ok()
        .map(|s| s.trim_end().to_string())
}

fn standing(p: &Proc, input: Input) -> Standing {
    let mut parent = false;
    for t in tasks(p.pid) {
        match task_standing(p, t, input) {
            Standing::Reading => return Standing::Reading,
            Standing::Parent => parent = true,
            Standing::Other => {}
        }
    }
    if parent {
        Standing::Parent
    } else {
        Standing::Other
    }
}

/// The syscalls a task can sleep in while waiting for its input, as the kernel numbers them.
enum Call {
    Read,
    Poll,
    Select,
    Epoll,
    Wait,
}

fn call(nr: i64) -> Option<Call> {
    #[cfg(target_arch = "x86_64")]
    match nr {
        libc::SYS_poll => return Some(Call::Poll),
        libc::SYS_select => return Some(Call::Select),
        libc::SYS_epoll_wait => return Some(Call::Epoll),
        _ => {}
    }
    match nr {
        libc::SYS_read | libc::SYS_readv | libc::SYS_pread64 => Some(Call::Read),
        libc::SYS_ppoll => Some(Call::Poll),
        libc::SYS_pselect6 => Some(Call::Select),
        libc::SYS_epoll_pwait | libc::SYS_epoll_pwait2 => Some(Call::Epoll),
        libc::SYS_wait4 | libc::SYS_waitid => Some(Call::Wait),
        _ => None,
    }
}

fn task_standing(p: &Proc, tid: u32, input: Input) -> Standing {
    let Ok(text) = std::fs::read_to_string(format!("/proc/{}/task/{tid}/syscall", p.pid)) else {
        return by_wchan(p, tid, input);
    };
    let mut words = text.split_ascii_whitespace();
    let Some(nr) = words.next().and_then(|w| w.parse::<i64>().ok()) else {
        return Standing::Other; // "running"
    };
    let args: Vec<u64> = words
        .take(6)
        .filter_map(|w| u64::from_str_radix(w.trim_start_matches("0x"), 16).ok())
        .collect();
    let arg = |i: usize| args.get(i).copied().unwrap_or(0);
    let reading = match call(nr) {
        Some(Call::Wait) => return Standing::Parent,
        Some(Call::Read) => input.is(p, arg(0)),
        Some(Call::Poll) => polled(p, arg(0), arg(1), input),
        Some(Call::Select) => selected(p, arg(0), arg(1), input),
        Some(Call::Epoll) => epolled(p, arg(0), input),
        None => false,
    };
    if reading {
        Standing::Reading
    } else {
        Standing::Other
    }
}

/// `count` bytes of `p`'s memory at `addr`.
fn memory(p: &Proc, addr: u64, count: usize) -> Option<Vec<u8>> {
    let f = std::fs::File::open(format!("/proc/{}/mem", p.pid)).ok()?;
    let mut buf = vec![0u8; count];
    f.read_exact_at(&mut buf, addr).ok()?;
    Some(buf)
}

/// `poll(fds, nfds)`: any `struct pollfd` asking for input on the job's input.
fn polled(p: &Proc, addr: u64, nfds: u64, input: Input) -> bool {
    let n = nfds.min(1024) as usize;
    let Some(mem) = memory(p, addr, n * 8) else {
        return false;
    };
    mem.chunks_exact(8).any(|c| {
        let fd = i32::from_ne_bytes([c[0], c[1], c[2], c[3]]);
        let events = i16::from_ne_bytes([c[4], c[5]]);
        fd >= 0 && events & (libc::POLLIN | libc::POLLPRI) != 0 && input.is(p, fd as u64)
    })
}

/// `select(nfds, readfds, …)`: a bit set for the job's input in the read set.
fn selected(p: &Proc, nfds: u64, readfds: u64, input: Input) -> bool {
    if readfds == 0 {
        return false;
    }
    let n = nfds.min(1024) as usize;
    let Some(mem) = memory(p, readfds, n.div_ceil(64) * 8) else {
        return false;
    };
    // fd_set is an array of longs, bit fd % 64 of long fd / 64: on a little-endian machine,
    // byte fd / 8, bit fd % 8.
    (0..n).any(|fd| {
        let word = fd / 64;
        let bit = fd % 64;
        let w = u64::from_ne_bytes(mem[word * 8..word * 8 + 8].try_into().unwrap_or([0; 8]));
        w & (1 << bit) != 0 && input.is(p, fd as u64)
    })
}

/// `epoll_wait(epfd, …)`: the instance watches the job's input for reading (`fdinfo` lists each
/// watched descriptor as `tfd: N events: HEX`).
fn epolled(p: &Proc, epfd: u64, input: Input) -> bool {
    let Ok(info) = std::fs::read_to_string(format!("/proc/{}/fdinfo/{epfd}", p.pid)) else {
        return false;
    };
    info.lines().any(|l| {
        let mut w = l.split_ascii_whitespace();
        if w.next() != Some("tfd:") {
            return false;
        }
        let fd = w.next().and_then(|s| s.parse().ok());
        let events = w
            .nth(1)
            .and_then(|s| u32::from_str_radix(s, 16).ok())
            .unwrap_or(0);
        fd.is_some_and(|fd| events & libc::EPOLLIN as u32 != 0 && input.is(p, fd))
    })
}

/// Without `syscall` (no ptrace access): the kernel function the task sleeps in, and whether
/// the process holds the input open at all. Coarser: a process that holds the terminal and
/// polls something else is taken as reading it.
fn by_wchan(p: &Proc, tid: u32, input: Input) -> Standing {
    let wchan =
        std::fs::read_to_string(format!("/proc/{}/task/{tid}/wchan", p.pid)).unwrap_or_default();
    match wchan.trim() {
        "do_wait" | "kernel_wait4" | "do_waitid" => Standing::Parent,
        "n_tty_read" | "wait_woken" | "pipe_read" | "pipe_wait" | "pipe_wait_readable"
        | "do_select" | "core_sys_select" | "do_sys_poll" | "ep_poll"
            if input.held_by(p) =>
        {
            Standing::Reading
        }
        _ => Standing::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    fn pipe_input(fd: &impl AsRawFd) -> Input {
        let m = std::fs::metadata(format!("/proc/self/fd/{}", fd.as_raw_fd())).unwrap();
        Input::Pipe {
            dev: m.dev(),
            ino: m.ino(),
        }
    }

    /// Runs `script` in a child of a wrapper shell (the root the sampler looks below, as a
    /// keeper), its stdin a pipe we hold, and samples until `want` (or 2 s; 0.8 s looking for a wrong "waiting").
    fn reaches(script: &str, want: bool) -> bool {
        let within = Duration::from_millis(if want { 2000 } else { 800 });
        let (r, w) = std::io::pipe().unwrap();
        let input = pipe_input(&r);
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("sh -c \"$0\"; true")
            .arg(script)
            .stdin(Stdio::from(r))
            .stdout(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        let stop = Instant::now() + within;
        let mut seen = false;
        while Instant::now() < stop {
            if sample(child.id(), input, None).waiting == want {
                seen = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // The wrapper's own group, which its children share: ours by id.
        // SAFETY: kill(2) on a process group we created.
        unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
        let _ = child.wait();
        drop(w);
        seen
    }

    #[test]
    fn a_read_of_the_pipe_is_waiting_and_a_sleep_or_a_busy_loop_is_not() {
        assert!(reaches("read x", true));
        // A sleep holds the pipe and reads nothing: never waiting within the window.
        assert!(!reaches("sleep 2", true));
        assert!(!reaches("while :; do :; done", true));
        // A parent in wait4 above a reader counts as waiting.
        assert!(reaches("sh -c 'read x'; echo done", true));
        // `sleep` then `read`: not waiting while it sleeps.
        assert!(!reaches("sleep 5; read x", true));
    }
}
