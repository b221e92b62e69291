//! Named steps of the change protocol that a test can make fail (SPEC 24.7, 23.2).
//!
//! `LOOPR_DEBUG_FAIL=STEP:ERRNO[:N]` (e.g. `stage:ENOSPC`, `journal:EIO`, `rename:EROFS:2`)
//! makes the Nth time this process reaches that step (the first by default) fail with that
//! errno, as a full disk, a failing device or a read-only mount would — a tiny tmpfs cannot make
//! every step fail on demand. Only that once: what the call then does to put things back runs as
//! it would after a transient fault, and a later N reaches the steps a change takes after the
//! first (the second file of a patch, the second state file saved). `SIGKILL` instead of an
//! errno makes the process kill itself there (`in_place:SIGKILL`: a write cut short). A test
//! switch like `LOOPR_DEBUG_PANIC`; unset, each check is one load of a cached `None`.

use loopr_env_vars::EnvVars;
use std::io;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

/// The steps, in the order a change takes them (the README lists which tools reach each).
pub const STEPS: &[&str] = &[
    // The new content is written to a temp file beside the target (or, for a file with several
    // hard links, its room reserved).
    "stage",
    // That temp file is made durable (for an in-place write: the file, after the write).
    "fsync",
    // Any state file is saved (the undo journal, a kept blob, a read record, the todo list).
    "state",   // The undo journal itself is saved.
    "journal", // A deleted entry is moved into the session's trash.
    "trash",   // mkdir creates its directories.
    "mkdir",
    // The change lands: the temp file renamed over the target, an entry moved (move, undo).
    "rename",   // Halfway through rewriting a hard-linked file in place.
    "in_place", // undo removes what a change created (a file, mkdir's directories).
    "remove",
    // Not a change: grep's temp file for matched lines past its memory budget is made and
    // written (on failure they stay in memory), then read back.
    "spill", "unspill",
];

struct Wanted {
    step: String,
    /// `None`: SIGKILL.
    errno: Option<i32>,
    nth: u32,
    seen: AtomicU32,
}

fn wanted() -> Option<&'static Wanted> {
    static WANTED: OnceLock<Option<Wanted>> = OnceLock::new();
    WANTED
        .get_or_init(|| {
            let v = std::env::var(EnvVars::LOOPR_DEBUG_FAIL).ok()?;
            let mut parts = v.split(':');
            let (step, name) = (parts.next()?, parts.next()?);
            let nth = match parts.next() {
                Some(n) => n.parse().ok().filter(|n| *n > 0)?,
                None => 1,
            };
            let errno = match name {
                "SIGKILL" => None,
                _ => Some(ERRNOS.iter().find(|(n, _)| *n == name)?.1),
            };
            Some(Wanted {
                step: step.to_string(),
                errno,
                nth,
                seen: AtomicU32::new(0),
            })
        })
        .as_ref()
}

/// Fails (or kills the process) when the test switch names `step` and this is its Nth time.
pub fn check(step: &str) -> io::Result<()> {
    debug_assert!(STEPS.contains(&step), "unknown fault step {step}");
    let Some(w) = wanted().filter(|w| w.step == step) else {
        return Ok(());
    };
    if w.seen.fetch_add(1, Ordering::Relaxed) + 1 != w.nth {
        return Ok(());
    }
    match w.errno {
        Some(errno) => Err(io::Error::from_raw_os_error(errno)),
        None => {
            // As `kill -9` from outside would: no destructor, no unwinding, nothing flushed.
            let _ = rustix::process::kill_process(
                rustix::process::getpid(),
                rustix::process::Signal::KILL,
            );
            std::process::abort()
        }
    }
}

const ERRNOS: &[(&str, i32)] = &[
    ("ENOSPC", libc::ENOSPC),
    ("EDQUOT", libc::EDQUOT),
    ("EROFS", libc::EROFS),
    ("EACCES", libc::EACCES),
    ("EPERM", libc::EPERM),
    ("EIO", libc::EIO),
    ("EFBIG", libc::EFBIG),
    ("EMFILE", libc::EMFILE),
    ("ENFILE", libc::ENFILE),
    ("EEXIST", libc::EEXIST),
    ("ENOENT", libc::ENOENT),
    ("ENOTDIR", libc::ENOTDIR),
    ("EISDIR", libc::EISDIR),
    ("ELOOP", libc::ELOOP),
    ("EXDEV", libc::EXDEV),
    ("EBUSY", libc::EBUSY),
    ("ETXTBSY", libc::ETXTBSY),
    ("ENAMETOOLONG", libc::ENAMETOOLONG),
    ("EAGAIN", libc::EAGAIN),
    ("EINVAL", libc::EINVAL),
];

/// The symbolic name of an I/O error's errno (`"ENOSPC"`), for `error.errno` (SPEC 23.2).
/// An error wrapped with a path (as `tempfile` does) still has its errno underneath.
pub fn errno_name(err: &io::Error) -> Option<&'static str> {
    let inner = || {
        let source = std::error::Error::source(err.get_ref()?)?;
        source.downcast_ref::<io::Error>()?.raw_os_error()
    };
    let code = err.raw_os_error().or_else(inner)?;
    ERRNOS.iter().find(|(_, c)| *c == code).map(|(n, _)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        let e = io::Error::from_raw_os_error(libc::ENOSPC);
        assert_eq!(errno_name(&e), Some("ENOSPC"));
        assert_eq!(errno_name(&io::Error::other("x")), None);
        // How tempfile wraps an error with its path.
        #[derive(Debug)]
        struct AtPath(io::Error);
        impl std::fmt::Display for AtPath {
            fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "{} at path x", self.0)
            }
        }
        impl std::error::Error for AtPath {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let wrapped = io::Error::new(io::ErrorKind::StorageFull, AtPath(e));
        assert_eq!(errno_name(&wrapped), Some("ENOSPC"));
    }
}
