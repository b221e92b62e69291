//! Signals a run must hear (SPEC 23.7, 24.6): SIGTERM, SIGINT or SIGHUP sent to a `loopr-tool`
//! running a foreground command must end the command's tree and still print the envelope, and
//! the keeper (keeper.rs) must wake when a child exits.
//!
//! A handler may do almost nothing, so it does two things: it notes the signal and writes a
//! byte to a pipe. The loops that wait (exec::finish, the keeper) poll that pipe's read end
//! with everything else, so a signal wakes them at once, and they do the real work outside the
//! handler. rustix does not install handlers (only its `runtime` feature has a raw, unsafe
//! sigaction for program runtimes), so this one place uses libc.

use rustix::pipe::{PipeFlags, pipe_with};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, OnceLock};

/// The signal that ended the wait (0: none since the trap was set). SIGCHLD only wakes.
static RECEIVED: AtomicI32 = AtomicI32::new(0);
/// The wake pipe's write end, as the handler sees it.
static WAKE_W: AtomicI32 = AtomicI32::new(-1);
/// The wake pipe, made once and never closed: a handler running late must never write to a
/// descriptor number that has been reused.
static WAKE: OnceLock<(OwnedFd, OwnedFd)> = OnceLock::new();
/// The handlers in place: (signal, the action before us, how many traps want it).
static INSTALLED: Mutex<Vec<(i32, libc::sigaction, usize)>> = Mutex::new(Vec::new());

/// The signals that interrupt a foreground run.
pub const INTERRUPTS: &[i32] = &[libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

extern "C" fn on_signal(sig: libc::c_int) {
    // SAFETY: only async-signal-safe work: atomics, write(2), and errno saved and restored so
    // the interrupted code never sees ours.
    unsafe {
        let errno = *libc::__errno_location();
        if sig != libc::SIGCHLD {
            RECEIVED.store(sig, Ordering::SeqCst);
        }
        let fd = WAKE_W.load(Ordering::SeqCst);
        if fd >= 0 {
            let byte = 1u8;
            libc::write(fd, (&byte as *const u8).cast(), 1);
        }
        *libc::__errno_location() = errno;
    }
}

/// Catches its signals until dropped, when the actions before it come back.
pub struct Trap {
    signals: &'static [i32],
}

impl Trap {
    pub fn set(signals: &'static [i32]) -> std::io::Result<Trap> {
        if WAKE.get().is_none() {
            let pipe = pipe_with(PipeFlags::CLOEXEC | PipeFlags::NONBLOCK)?;
            let _ = WAKE.set(pipe);
        }
        let (_, w) = WAKE.get().expect("made above");
        WAKE_W.store(w.as_raw_fd(), Ordering::SeqCst);
        let mut installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
        if installed.iter().all(|(_, _, n)| *n == 0) {
            RECEIVED.store(0, Ordering::SeqCst);
        }
        for &sig in signals {
            if let Some(entry) = installed.iter_mut().find(|(s, _, n)| *s == sig && *n > 0) {
                entry.2 += 1;
                continue;
            }
            // SAFETY: a zeroed sigaction is valid; the handler is async-signal-safe (above).
            let old = unsafe {
                let mut new: libc::sigaction = std::mem::zeroed();
                new.sa_sigaction = on_signal as *const () as libc::sighandler_t;
                new.sa_flags = libc::SA_RESTART | libc::SA_NOCLDSTOP;
                libc::sigemptyset(&mut new.sa_mask);
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, &new, &mut old) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                old
            };
            installed.retain(|(s, _, _)| *s != sig);
            installed.push((sig, old, 1));
        }
        Ok(Trap { signals })
    }

    /// Readable after a trapped signal came; `drain` empties it.
    pub fn wake_fd(&self) -> BorrowedFd<'_> {
        WAKE.get().expect("a trap is set").0.as_fd()
    }
}

/// Empties the wake pipe (its bytes only say "look again").
pub fn drain() {
    if let Some((r, _)) = WAKE.get() {
        let mut buf = [0u8; 64];
        while matches!(rustix::io::read(r, &mut buf), Ok(n) if n > 0) {}
    }
}

/// The interrupting signal received since the trap was set, if any.
pub fn received() -> Option<i32> {
    Some(RECEIVED.load(Ordering::SeqCst)).filter(|&s| s != 0)
}

impl Drop for Trap {
    fn drop(&mut self) {
        let mut installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
        for sig in self.signals {
            if let Some(entry) = installed.iter_mut().find(|(s, _, _)| s == sig) {
                entry.2 = entry.2.saturating_sub(1);
                if entry.2 == 0 {
                    // SAFETY: puts back the action that sigaction gave us.
                    unsafe { libc::sigaction(*sig, &entry.1, std::ptr::null_mut()) };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trapped_signal_is_noted_and_wakes_and_the_old_action_returns() {
        static ONLY: &[i32] = &[libc::SIGUSR2];
        let trap = Trap::set(ONLY).unwrap();
        // SAFETY: raising a signal we handle.
        unsafe { libc::raise(libc::SIGUSR2) };
        assert_eq!(received(), Some(libc::SIGUSR2));
        let mut buf = [0u8; 8];
        assert_eq!(rustix::io::read(trap.wake_fd(), &mut buf).unwrap(), 1);
        drain();
        drop(trap);
        // SAFETY: reading the current action only.
        let now = unsafe {
            let mut now: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGUSR2, std::ptr::null(), &mut now);
            now
        };
        assert_eq!(now.sa_sigaction, libc::SIG_DFL);
    }
}
