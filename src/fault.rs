//! Named steps of the change protocol that a test can make fail (SPEC 24.7, 23.2).
//!
//! `LOOPR_DEBUG_FAIL=STEP:ERRNO` (e.g. `stage:ENOSPC`, `fsync:EIO`, `rename:EROFS`,
//! `journal:ENOSPC`) makes that step fail with that errno, as a full disk, a failing device or a
//! read-only mount would — a tiny tmpfs cannot make every step fail on demand. A test switch like
//! `LOOPR_DEBUG_PANIC`; unset, each check is one load of a cached `None`.

use std::io;
use std::sync::OnceLock;

// The steps, in the order a change takes them: `stage` (the temp file is made and written),
// `fsync` (it is made durable), `journal` (the undo entry is saved), `rename` (the change lands).

fn wanted() -> Option<&'static (String, i32)> {
    static WANTED: OnceLock<Option<(String, i32)>> = OnceLock::new();
    WANTED
        .get_or_init(|| {
            let v = std::env::var("LOOPR_DEBUG_FAIL").ok()?;
            let (step, name) = v.split_once(':')?;
            let errno = ERRNOS.iter().find(|(n, _)| *n == name)?.1;
            Some((step.to_string(), errno))
        })
        .as_ref()
}

/// Fails when the test switch names `step`.
pub fn check(step: &str) -> io::Result<()> {
    match wanted() {
        Some((s, errno)) if s == step => Err(io::Error::from_raw_os_error(*errno)),
        _ => Ok(()),
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
pub fn errno_name(err: &io::Error) -> Option<&'static str> {
    let code = err.raw_os_error()?;
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
    }
}
