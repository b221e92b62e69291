//! Waiting for something to appear in a directory without a busy loop (SPEC 20.2, 24.7): a
//! `query` sleeps on inotify until a file is renamed into the inbox that holds its question,
//! and falls back to polling that backs off to 250 ms where inotify is unavailable (a full
//! watch table, a kernel without it). Either way the wait wakes at least every 250 ms to notice
//! a cancellation (MCP's `notifications/cancelled`).

use crate::context::Ctx;
use crate::error::Result;
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
/// two checks, sleeps until a file is renamed into `dir` (every store write ends in a rename).
pub fn until<T>(
    ctx: &Ctx,
    dir: &Path,
    deadline: Instant,
    mut check: impl FnMut() -> Result<Option<T>>,
) -> Result<Outcome<T>> {
    // The watch is in place before the first look: whatever lands after that look wakes us.
    let watch = watch(dir);
    let mut pause = Duration::from_millis(5);
    loop {
        if let Some(found) = check()? {
            return Ok(Outcome::Found(found));
        }
        if ctx.cancelled() {
            return Ok(Outcome::Cancelled);
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(Outcome::TimedOut);
        }
        let left = deadline - now;
        match &watch {
            Some(fd) => sleep_on(fd, left.min(SLICE)),
            None => {
                std::thread::sleep(left.min(pause));
                pause = (pause * 2).min(SLICE);
            }
        }
    }
}

/// An inotify descriptor watching renames into `dir`; None when inotify cannot be had (or the
/// test switch `LOOPR_DEBUG_NO_INOTIFY=1` asks for the polling fallback).
fn watch(dir: &Path) -> Option<OwnedFd> {
    if std::env::var_os("LOOPR_DEBUG_NO_INOTIFY").is_some_and(|v| v == "1") {
        return None;
    }
    let fd = inotify::init(inotify::CreateFlags::CLOEXEC | inotify::CreateFlags::NONBLOCK).ok()?;
    inotify::add_watch(
        &fd,
        dir,
        inotify::WatchFlags::MOVED_TO | inotify::WatchFlags::ONLYDIR,
    )
    .ok()?;
    Some(fd)
}

/// Sleeps until the watch has an event or `wait` passes, then drains the events: the caller
/// looks at the store itself, so which file arrived does not matter.
fn sleep_on(fd: &OwnedFd, wait: Duration) {
    let timeout = Timespec::try_from(wait).ok();
    let mut fds = [PollFd::new(fd, PollFlags::IN)];
    if poll(&mut fds, timeout.as_ref()).is_err() {
        // EINTR or worse: sleep the slice rather than spin.
        std::thread::sleep(wait);
        return;
    }
    let mut buf = [0u8; 4096];
    while matches!(rustix::io::read(fd, &mut buf), Ok(n) if n > 0) {}
}
