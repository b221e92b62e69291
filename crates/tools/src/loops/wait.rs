//! Waiting for something to appear in a directory without a busy loop (SPEC 20.2, 24.7): a
//! `query` first looks a few times at growing intervals (1, 2, 4, 8, 16 ms: an answer given at
//! once is seen within milliseconds), then sleeps on inotify until a file is renamed into the
//! inbox that holds its question. Where inotify is unavailable (a full watch table, a kernel
//! without it) it polls on, backing off to 250 ms. Either way the wait wakes at least every
//! 250 ms to notice a cancellation (MCP's `notifications/cancelled`).
//!
//! Why not inotify from the start: tearing a watch down makes the kernel wait for its mark
//! reaper (a jiffy and an SRCU grace period, 8–20 ms measured here), on `close` or at process
//! exit. Paid on every query, that alone would double an immediate round trip; paid only by
//! waits already longer than 30 ms, it is noise. The watch is removed as soon as the wait ends
//! and its descriptor closed later on a thread of its own, so the answer is never held back.

use crate::context::Ctx;
use crate::error::Result;
use loopr_env_vars::EnvVars;
use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::fs::inotify;
use std::os::fd::OwnedFd;
use std::path::Path;
use std::time::{Duration, Instant};

/// How a wait ended.
pub enum Outcome<T> {
    Found(T),
    TimedOut,
    Cancelled,
}

/// The longest sleep between two looks: bounds how late a cancellation is noticed, and is the
/// polling fallback's final interval (≥ 200 ms, 24.7).
const SLICE: Duration = Duration::from_millis(250);

/// Calls `check` until it finds something, `deadline` passes or the call is cancelled; between
/// two checks, sleeps until a file is renamed into one of `dirs` (every store write ends in a
/// rename).
pub fn until<T>(
    ctx: &Ctx,
    dirs: &[&Path],
    deadline: Instant,
    mut check: impl FnMut() -> Result<Option<T>>,
) -> Result<Outcome<T>> {
    let mut watch: Option<Watch> = None;
    let mut tried = false;
    let mut pause = Duration::from_millis(1);
    let outcome = loop {
        if let Some(found) = check()? {
            break Outcome::Found(found);
        }
        if ctx.cancelled() {
            break Outcome::Cancelled;
        }
        let now = Instant::now();
        if now >= deadline {
            break Outcome::TimedOut;
        }
        if !tried && pause >= FAST_POLL_END {
            tried = true;
            watch = Watch::new(dirs);
            if watch.is_some() {
                // Look once more with the watch in place: whatever lands after that look
                // wakes us.
                continue;
            }
        }
        let left = deadline - now;
        match &watch {
            Some(w) => w.sleep(left.min(SLICE)),
            None => {
                std::thread::sleep(left.min(pause));
                pause = (pause * 2).min(SLICE);
            }
        }
    };
    if let Some(w) = watch {
        w.tear_down();
    }
    Ok(outcome)
}

/// When the fast looks end and the watch begins (1 + 2 + 4 + 8 + 16 ms = 31 ms of polling).
const FAST_POLL_END: Duration = Duration::from_millis(32);

/// An inotify descriptor watching renames into some directories.
struct Watch {
    fd: OwnedFd,
    wds: Vec<i32>,
}

impl Watch {
    /// None when inotify cannot be had (or the test switch `LOOPR_DEBUG_NO_INOTIFY=1` asks for
    /// the polling fallback).
    fn new(dirs: &[&Path]) -> Option<Watch> {
        if std::env::var_os(EnvVars::LOOPR_DEBUG_NO_INOTIFY).is_some_and(|v| v == "1") {
            return None;
        }
        let flags = inotify::CreateFlags::CLOEXEC | inotify::CreateFlags::NONBLOCK;
        let fd = inotify::init(flags).ok()?;
        let mut wds = Vec::with_capacity(dirs.len());
        for dir in dirs {
            let flags = inotify::WatchFlags::MOVED_TO | inotify::WatchFlags::ONLYDIR;
            wds.push(inotify::add_watch(&fd, *dir, flags).ok()?);
        }
        Some(Watch { fd, wds })
    }

    /// Sleeps until the watch has an event or `wait` passes, then drains the events: the
    /// caller looks at the store itself, so which file arrived does not matter.
    fn sleep(&self, wait: Duration) {
        let timeout = Timespec::try_from(wait).ok();
        let mut fds = [PollFd::new(&self.fd, PollFlags::IN)];
        if poll(&mut fds, timeout.as_ref()).is_err() {
            // EINTR or worse: sleep the slice rather than spin.
            std::thread::sleep(wait);
            return;
        }
        let mut buf = [0u8; 4096];
        while matches!(rustix::io::read(&self.fd, &mut buf), Ok(n) if n > 0) {}
    }

    /// Removes the watch now, and closes the descriptor once the kernel has had time to reap
    /// the mark (see the module's note); in a CLI call the process exits first, and closes it
    /// after stdout.
    fn tear_down(self) {
        for wd in &self.wds {
            let _ = inotify::remove_watch(&self.fd, *wd);
        }
        let fd = self.fd;
        let spawned = std::thread::Builder::new()
            .name("inotify-close".into())
            .spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                drop(fd);
            });
        // Without a thread the descriptor was dropped with the closure: a slow close, no leak.
        drop(spawned);
    }
}
