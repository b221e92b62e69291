//! The process's entry point, in place of std's (issue 22).
//!
//! Before a Rust `fn main`, std's start-up also reads `/proc/self/maps` through glibc's
//! `pthread_getattr_np` (a file, a `sscanf` per line) to place the main thread's stack guard and
//! installs a SIGSEGV handler on an alternate stack: 0.05 ms per process, 6% of a small `read`,
//! paid twice by `run` (the keeper is this binary too). main.rs therefore exports the C `main`
//! itself, and this module does the part of std's start-up the tools rely on: fds 0–2 open
//! (a harness may start us with one closed; a file we open must not become our stdout) and
//! SIGPIPE ignored (a reader that goes away is an EPIPE error, not a silent death; std resets it
//! for the commands `run` starts). What is given up: a stack overflow ends the process by a plain
//! SIGSEGV instead of std's message and SIGABRT, and the main thread has no name.

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use std::os::fd::{BorrowedFd, IntoRawFd};

pub fn init() {
    open_standard_fds();
    // SAFETY: setting a signal's disposition to SIG_IGN has no handler to race with.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
}

/// Opens /dev/null on whichever of fds 0, 1 and 2 is closed, as std's start-up does.
fn open_standard_fds() {
    // SAFETY: poll only asks the kernel about these numbers; a closed one answers POLLNVAL.
    let fds = [0, 1, 2].map(|fd| unsafe { BorrowedFd::borrow_raw(fd) });
    let mut polled = fds.map(|fd| PollFd::from_borrowed_fd(fd, PollFlags::empty()));
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    if poll(&mut polled, Some(&now)).is_err() {
        return;
    }
    for p in &polled {
        if p.revents().contains(PollFlags::NVAL) {
            // The lowest free number is the closed one (they are taken in order 0, 1, 2).
            let Ok(null) = rustix::fs::open(
                "/dev/null",
                rustix::fs::OFlags::RDWR,
                rustix::fs::Mode::empty(),
            ) else {
                return;
            };
            let _ = null.into_raw_fd();
        }
    }
}
