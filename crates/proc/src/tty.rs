//! Terminals for programs that want a person at the keyboard (SPEC 28): the pseudo-terminal a
//! `tty: true` job runs on, the screen its output is applied to, and what its prompt asks for.
//!
//! The pty is opened by the job's supervisor (rustix's `pty`, no new crate) and held by it for
//! the job's life; the keeper hands the slave to the shell, which makes it its controlling
//! terminal (keeper.rs). The screen is `vt100` (MIT, doy/vt100-rust): a small synchronous
//! terminal emulator that takes bytes and answers with rows of text and a cursor — chosen over
//! alacritty_terminal and wezterm-term, which bring an event loop, fonts and config types a
//! headless reader never uses. Measured: +60 KiB (61,880 bytes) on a
//! scratch binary that feeds bytes to it and prints the rows (release, LTO, stripped: 313,560 →
//! 375,440 bytes); rustix's `pty` and `termios` features add only thin wrappers.

use crate::waiting::{Input, Sample};
use rustix::event::{PollFd, PollFlags, poll};
use rustix::fd::{AsFd, OwnedFd};
use rustix::fs::{Mode, OFlags};
use rustix::pty::OpenptFlags;
use rustix::termios::{LocalModes, Winsize};
use serde::{Deserialize, Serialize};
use std::num::NonZeroU16;
use std::os::unix::fs::MetadataExt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The size a terminal gets when the call names none (SPEC 28).
pub const ROWS: u16 = 24;
pub const COLS: u16 = 80;

/// A pseudo-terminal: the master stays with the supervisor, the slave goes to the command.
pub struct Pty {
    pub master: OwnedFd,
    pub slave: OwnedFd,
    /// The slave's device number: the descriptor waiting.rs looks for.
    pub rdev: u64,
    /// The slave's path (`/dev/pts/N`), to ask how much input waits unread.
    pub path: std::ffi::CString,
}

/// Whether the terminal at `path` holds input its reader could take now: a whole line in
/// canonical mode, any byte in raw mode. A reader blocked with such input is not waiting for
/// us; it has not been woken yet. (Asked on a fresh descriptor: the supervisor must not hold
/// the slave, or the master never reads EOF when the job is gone.)
pub fn input_pending(path: &std::ffi::CStr) -> bool {
    rustix::fs::open(
        path,
        OFlags::RDWR | OFlags::NOCTTY | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .is_ok_and(|fd| rustix::io::ioctl_fionread(&fd).is_ok_and(|n| n > 0))
}

/// Opens a pty of `rows` × `cols`.
pub fn open(rows: u16, cols: u16) -> std::io::Result<Pty> {
    let master = rustix::pty::openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY)?;
    rustix::io::fcntl_setfd(&master, rustix::io::FdFlags::CLOEXEC)?;
    rustix::pty::grantpt(&master)?;
    rustix::pty::unlockpt(&master)?;
    let name = rustix::pty::ptsname(&master, Vec::new())?;
    let slave = rustix::fs::open(
        name.as_c_str(),
        OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    rustix::termios::tcsetwinsize(
        &master,
        Winsize {
            ws_row: rows,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        },
    )?;
    let rdev = std::fs::File::from(slave.try_clone()?).metadata()?.rdev();
    Ok(Pty {
        master,
        slave,
        rdev,
        path: name,
    })
}

/// Whether the terminal reads a line with echo off (canonical mode, no echo): `getpass`,
/// `read -s`, ssh's passphrase. Readline programs turn canonical mode off and echo themselves:
/// not secret (SPEC 28). On Linux the master answers with the slave's modes.
pub fn echo_off(master: impl AsFd) -> bool {
    rustix::termios::tcgetattr(master).is_ok_and(|t| {
        t.local_modes.contains(LocalModes::ICANON) && !t.local_modes.contains(LocalModes::ECHO)
    })
}

/// The terminal's foreground process group.
pub fn foreground(master: impl AsFd) -> Option<u32> {
    rustix::termios::tcgetpgrp(master)
        .ok()
        .map(|p| p.as_raw_nonzero().get() as u32)
}

/// The screen a job's output is applied to.
pub struct Screen {
    parser: vt100::Parser,
    /// A pipe's `\n` is a terminal's `\r\n` (a pipe job has no line discipline to add the `\r`).
    lf_is_crlf: bool,
}

impl Screen {
    pub fn new(rows: u16, cols: u16, lf_is_crlf: bool) -> Screen {
        let nz = |n: u16, d: u16| NonZeroU16::new(n).unwrap_or(NonZeroU16::new(d).expect("d"));
        Screen {
            parser: vt100::Parser::new(nz(rows, ROWS), nz(cols, COLS), 0),
            lf_is_crlf,
        }
    }

    pub fn feed(&mut self, bytes: &[u8]) {
        if !self.lf_is_crlf {
            return self.parser.process(bytes);
        }
        for part in bytes.split_inclusive(|&b| b == b'\n') {
            match part.strip_suffix(b"\n") {
                Some(line) => {
                    self.parser.process(line);
                    self.parser.process(b"\r\n");
                }
                None => self.parser.process(part),
            }
        }
    }

    /// The screen as text: its rows, trailing blanks and blank last rows dropped.
    pub fn text(&self) -> String {
        let s = self.parser.screen();
        let (_, cols) = s.size();
        let rows: Vec<String> = s
            .rows(0, cols.get())
            .map(|r| r.trim_end().to_string())
            .collect();
        let used = rows
            .iter()
            .rposition(|r| !r.is_empty())
            .map_or(0, |i| i + 1);
        rows[..used].join("\n")
    }

    /// The last line printed: the cursor's row up to the cursor, or, when that is empty, the
    /// last non-blank row above it.
    pub fn prompt(&self) -> String {
        let s = self.parser.screen();
        let (row, col) = s.cursor_position();
        let (_, cols) = s.size();
        let rows: Vec<String> = s.rows(0, cols.get()).collect();
        let here: String = rows
            .get(row as usize)
            .map(|r| r.chars().take(col as usize).collect())
            .unwrap_or_default();
        if !here.trim().is_empty() {
            return here.trim_end().to_string();
        }
        rows[..(row as usize).min(rows.len())]
            .iter()
            .rev()
            .find(|r| !r.trim().is_empty())
            .map(|r| r.trim_end().to_string())
            .unwrap_or_default()
    }
}

/// A job's state as its supervisor last saw it (`logs/<id>.term`), for any `jobs` call.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// `running`, `waiting_input`, `input_required`, or `ended`.
    pub state: String,
    /// The last line printed, while waiting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// A prompt that wants a secret: what is typed now is never shown or kept.
    #[serde(default)]
    pub secret: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choices: Option<Vec<String>>,
    /// The command name of the process blocked reading (`bash`, `python3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reader: Option<String>,
    pub screen: String,
    pub rows: u16,
    pub cols: u16,
    /// On a terminal (`tty: true`), or a pipe job.
    pub tty: bool,
    /// When the look began, in µs since the epoch: a writer trusts only a look begun after its
    /// bytes went in.
    pub sampled_us: u64,
}

pub const RUNNING: &str = "running";
pub const WAITING: &str = "waiting_input";
pub const REQUIRED: &str = "input_required";
pub const ENDED: &str = "ended";

/// What a waiting program's prompt asks for: `(secret, choices)`.
pub fn classify(prompt: &str, echo_off: bool) -> (bool, Option<Vec<String>>) {
    let p = prompt.trim_end();
    let lower = p.to_lowercase();
    let secret = echo_off
        || lower.ends_with("password:")
        || lower.ends_with("password: ")
        || lower.contains("passphrase")
        || p.contains("Password for")
        || lower.starts_with("[sudo]");
    if secret {
        return (true, None);
    }
    let yes_no = ["[y/n]", "(y/n)", "[yes/no]", "(yes/no)", "y/n?", "[y,n]"];
    let choices = yes_no
        .iter()
        .any(|c| lower.contains(c))
        .then(|| vec!["y".to_string(), "n".to_string()]);
    (false, choices)
}

/// The state a look gives.
pub fn status_of(
    waiting: bool,
    prompt: String,
    echo_off: bool,
) -> (String, Option<String>, bool, Option<Vec<String>>) {
    if !waiting {
        return (RUNNING.into(), None, false, None);
    }
    let (secret, choices) = classify(&prompt, echo_off);
    let state = if secret || choices.is_some() {
        REQUIRED
    } else {
        WAITING
    };
    (state.into(), Some(prompt), secret, choices)
}

pub fn now_us() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

/// How long after bytes reach the terminal a look still counts them as unread: the line
/// discipline hands them to the reader from a kernel worker, a moment after the write — a
/// moment that a loaded machine stretched past 5 ms in the tests (a write answered with the
/// prompt it had just answered).
const SETTLE_US: u64 = 30_000;
/// How often the supervisor looks; a look that finds nothing new is published at least this
/// often, so a writer waiting for a look begun after its bytes is never kept longer.
pub const LOOK: std::time::Duration = std::time::Duration::from_millis(20);
const REPUBLISH_US: u64 = 100_000;
/// Looks skipped in a row while a job waits and nothing stirs (`Watch::spawn`).
const IDLE_SKIPS: u32 = 4;

/// Bytes on their way from the job's FIFO to its terminal (the relay below).
#[derive(Default)]
pub struct Relay {
    pub in_flight: AtomicBool,
    pub delivered_us: AtomicU64,
    /// The last published state wants a secret: what is relayed now is one.
    pub secret: AtomicBool,
    /// The secrets relayed so far (each line typed at a secret prompt), whose echo `scrub`
    /// masks: a prompt that matched by its text (`Password:`) may still echo.
    pub secrets: Mutex<Vec<Vec<u8>>>,
    /// The relay turned the terminal's echo off for a secret typed at a prompt that echoes;
    /// the watch turns it back on once the program has left that prompt.
    pub muted: AtomicBool,
}

/// Turns the terminal's echo on or off (through the master, which sets the slave's modes).
fn set_echo(master: impl AsFd, on: bool) {
    if let Ok(mut t) = rustix::termios::tcgetattr(&master) {
        t.local_modes.set(LocalModes::ECHO, on);
        let _ = rustix::termios::tcsetattr(&master, rustix::termios::OptionalActions::Now, &t);
    }
}

/// Secrets remembered per job, at most.
const SECRETS: usize = 32;

impl Relay {
    /// Keeps the lines of `bytes` as secrets when they are typed at a secret prompt: the last
    /// published state said so, or the terminal reads with echo off right now.
    fn remember(&self, bytes: &[u8], echo_off: bool) {
        if !echo_off && !self.secret.load(Ordering::SeqCst) {
            return;
        }
        let mut kept = self.secrets.lock().unwrap_or_else(|e| e.into_inner());
        for line in bytes.split(|&b| b == b'\n' || b == b'\r') {
            // Shorter than 3 bytes, a mask would blot out ordinary text everywhere.
            if line.len() >= 3 && !kept.iter().any(|k| k == line) {
                if kept.len() == SECRETS {
                    kept.remove(0);
                }
                kept.push(line.to_vec());
            }
        }
    }

    /// Masks every secret relayed so far in `chunk` with `*`s: what a terminal echoes of it
    /// never reaches the log, the screen or an answer. (A secret echoed across two reads of the
    /// output is not found; a terminal echoes a typed line in one piece.)
    pub fn scrub(&self, chunk: &mut [u8]) {
        let kept = self.secrets.lock().unwrap_or_else(|e| e.into_inner());
        for s in kept.iter() {
            let mut i = 0;
            while let Some(at) = memchr::memmem::find(&chunk[i..], s) {
                chunk[i + at..i + at + s.len()].fill(b'*');
                i += at + s.len();
            }
        }
    }
}

/// Copies what writers put in the job's FIFO to the terminal, for the job's whole life. A
/// writer in another process cannot reach the master (reopening it through /proc makes a new
/// pty), so the supervisor carries the bytes.
pub fn relay(fifo: OwnedFd, master: OwnedFd, r: Arc<Relay>) {
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        loop {
            let mut fds = [PollFd::new(&fifo, PollFlags::IN)];
            if poll(&mut fds, None).is_err() {
                continue;
            }
            // Marked before the FIFO is emptied, so a look that finds it empty sees the mark.
            r.in_flight.store(true, Ordering::SeqCst);
            let n = match rustix::io::read(&fifo, &mut buf) {
                Ok(0) => return,
                Ok(n) => n,
                Err(rustix::io::Errno::INTR | rustix::io::Errno::AGAIN) => {
                    r.in_flight.store(false, Ordering::SeqCst);
                    continue;
                }
                Err(_) => return,
            };
            let quiet = echo_off(&master);
            let echoes = rustix::termios::tcgetattr(&master)
                .is_ok_and(|t| t.local_modes.contains(LocalModes::ECHO));
            if echoes && r.secret.load(Ordering::SeqCst) {
                // A secret at a prompt that echoes: no echo while it goes in, so the
                // terminal never prints it (the mask below is the second line).
                set_echo(&master, false);
                r.muted.store(true, Ordering::SeqCst);
            }
            r.remember(&buf[..n], quiet);
            let mut sent = 0;
            while sent < n {
                match rustix::io::write(&master, &buf[sent..n]) {
                    Ok(k) => sent += k,
                    Err(rustix::io::Errno::INTR) => {}
                    Err(_) => break,
                }
            }
            r.delivered_us.store(now_us(), Ordering::SeqCst);
            r.in_flight.store(false, Ordering::SeqCst);
        }
    });
}

/// What the supervisor watches: the job's processes below its keeper, its input, its screen.
pub struct Watch {
    pub keeper: u32,
    pub input: Input,
    /// The pty's master (a tty job): its foreground group and its echo.
    pub master: Option<OwnedFd>,
    /// The job's FIFO: bytes still in it are input not yet read.
    pub fifo: Option<OwnedFd>,
    /// The pty's slave, to ask for input not yet read (`input_pending`).
    pub slave: Option<std::ffi::CString>,
    /// The job's output as the supervisor reads it: output still unread is a prompt not yet on
    /// the screen.
    pub output: Option<OwnedFd>,
    pub screen: Arc<Mutex<Screen>>,
    pub relay: Arc<Relay>,
    pub rows: u16,
    pub cols: u16,
}

impl Watch {
    /// Whether anything is on its way in or out: bytes in the FIFO or being relayed, or output
    /// not yet read.
    fn stirred(&self) -> bool {
        let pending = |f: &Option<OwnedFd>| {
            f.as_ref()
                .is_some_and(|f| rustix::io::ioctl_fionread(f).is_ok_and(|n| n > 0))
        };
        self.relay.in_flight.load(Ordering::SeqCst) || pending(&self.fifo) || pending(&self.output)
    }

    /// One look.
    pub fn look(&self) -> Status {
        let started = now_us();
        let unread = self
            .fifo
            .as_ref()
            .is_some_and(|f| rustix::io::ioctl_fionread(f).is_ok_and(|n| n > 0))
            || self.relay.in_flight.load(Ordering::SeqCst)
            || started.saturating_sub(self.relay.delivered_us.load(Ordering::SeqCst)) < SETTLE_US
            || self.slave.as_deref().is_some_and(input_pending)
            || self
                .output
                .as_ref()
                .is_some_and(|f| rustix::io::ioctl_fionread(f).is_ok_and(|n| n > 0));
        let sample = if unread {
            Sample::default()
        } else {
            let fg = self.master.as_ref().and_then(foreground);
            crate::waiting::sample(self.keeper, self.input, fg)
        };
        let (text, prompt) = {
            let s = self.screen.lock().unwrap_or_else(|e| e.into_inner());
            (s.text(), s.prompt())
        };
        let echo = self.master.as_ref().is_some_and(echo_off);
        let (state, prompt, secret, choices) = status_of(sample.waiting, prompt, echo);
        Status {
            state,
            prompt,
            secret,
            choices,
            reader: sample.reader,
            screen: text,
            rows: self.rows,
            cols: self.cols,
            tty: self.master.is_some(),
            sampled_us: started,
        }
    }

    /// Looks every `LOOK` until `stop`, calling `publish` with each look that differs from the
    /// last one published, or that is `REPUBLISH_US` newer. A job is published as waiting only
    /// when two looks in a row find it so: what the program wrote just before it blocked may
    /// still be on its way through the pty to the screen at the first.
    pub fn spawn(
        self,
        stop: Arc<AtomicBool>,
        mut publish: impl FnMut(&Status) + Send + 'static,
    ) -> std::thread::JoinHandle<Watch> {
        std::thread::spawn(move || {
            let mut last: Option<Status> = None;
            let mut before = false;
            let mut skipped = 0;
            let mut delivered = 0;
            while !stop.load(Ordering::SeqCst) {
                // A program that waits stays so until something stirs: input on its way, or
                // output from it (a redraw). Until then a full look every 100 ms will do: an
                // idle job's supervisor then costs a fifth of the CPU.
                let d = self.relay.delivered_us.load(Ordering::SeqCst);
                if before && skipped < IDLE_SKIPS && d == delivered && !self.stirred() {
                    skipped += 1;
                    std::thread::sleep(LOOK);
                    continue;
                }
                (skipped, delivered) = (0, d);
                let mut now = self.look();
                let waits = now.state != RUNNING;
                if waits && !before {
                    (now.state, now.prompt, now.secret, now.choices) =
                        (RUNNING.into(), None, false, None);
                }
                before = waits;
                let same = last.as_ref().is_some_and(|l| {
                    Status {
                        sampled_us: now.sampled_us,
                        ..l.clone()
                    } == now
                        && now.sampled_us - l.sampled_us < REPUBLISH_US
                });
                self.relay.secret.store(now.secret, Ordering::SeqCst);
                if !now.secret
                    && now.state != RUNNING
                    && self.relay.muted.swap(false, Ordering::SeqCst)
                    && let Some(m) = &self.master
                {
                    set_echo(m, true);
                }
                if !same {
                    publish(&now);
                    last = Some(now);
                }
                std::thread::sleep(LOOK);
            }
            self
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_that_want_a_secret_or_a_choice_are_told_apart() {
        let c = |p: &str| classify(p, false);
        assert_eq!(c("Password:"), (true, None));
        assert_eq!(c("[sudo] password for bob: "), (true, None));
        assert_eq!(
            c("Enter passphrase (empty for no passphrase): "),
            (true, None)
        );
        assert_eq!(c("Password for 'https://x@example.com': "), (true, None));
        assert_eq!(c("Username for 'https://example.com': "), (false, None));
        let yn = Some(vec!["y".to_string(), "n".to_string()]);
        assert_eq!(c("Continue? [y/N] "), (false, yn.clone()));
        assert_eq!(c("Proceed (y/n)?"), (false, yn));
        assert_eq!(c(">>> "), (false, None));
        // Echo off in canonical mode is a secret whatever the text.
        assert_eq!(classify("Token: ", true), (true, None));
    }

    #[test]
    fn the_screen_applies_escapes_and_the_prompt_is_the_cursor_line() {
        let mut s = Screen::new(5, 20, false);
        s.feed(b"one\r\ntwo\x1b[1mbold\x1b[0m\r\nabc\x08\x08X\r\n>>> ");
        assert_eq!(s.text(), "one\ntwobold\naXc\n>>>");
        assert_eq!(s.prompt(), ">>>");
        // A pipe's bare \n starts a new line at its start.
        let mut p = Screen::new(5, 20, true);
        p.feed(b"Name?\n");
        assert_eq!(p.text(), "Name?");
        assert_eq!(p.prompt(), "Name?");
        // A full-screen program's clear leaves only what it drew after.
        let mut f = Screen::new(3, 10, false);
        f.feed(b"old\r\n\x1b[2J\x1b[Hnew");
        assert_eq!(f.text(), "new");
    }

    #[test]
    fn a_pty_reports_echo_off_and_its_size() {
        let pty = open(30, 100).unwrap();
        assert!(!echo_off(&pty.master));
        let mut t = rustix::termios::tcgetattr(&pty.slave).unwrap();
        t.local_modes.remove(LocalModes::ECHO);
        rustix::termios::tcsetattr(&pty.slave, rustix::termios::OptionalActions::Now, &t).unwrap();
        assert!(echo_off(&pty.master));
        let w = rustix::termios::tcgetwinsize(&pty.slave).unwrap();
        assert_eq!((w.ws_row, w.ws_col), (30, 100));
    }
}
