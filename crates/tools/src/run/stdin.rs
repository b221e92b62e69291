//! An interactive job's stdin (SPEC 22.6, 24.7): a FIFO in the session's state dir, so that
//! `jobs write` in any later `loopr-tool` process can feed a job that another process started.
//!
//! The supervisor makes the FIFO (0600, beside the job's log in a 0700 directory), hands its
//! read end to the command as stdin and keeps a write end open itself for the job's whole life:
//! the command never reads EOF between two writers, whoever they are. When the job ends the
//! supervisor closes its end and removes the FIFO, so a late writer finds nothing to open
//! (`ENOENT`) — or, when the supervisor was killed and the FIFO stayed, nobody reading (`ENXIO`).
//! Either means the job has ended.
//!
//! A pipe would not do: its write end cannot be reached from another process, and a relay
//! socket would need the supervisor to serve it while it waits for the command.

use super::keeper::timespec;
use rustix::event::{PollFd, PollFlags, poll};
use rustix::fs::{FileType, Mode, OFlags};
use rustix::io::Errno;
use std::os::fd::OwnedFd;
use std::path::Path;
use std::time::{Duration, Instant};

/// The two ends the supervisor holds: `read` goes to the command, `write` stays with it.
pub struct Ends {
    pub read: OwnedFd,
    pub write: OwnedFd,
}

/// Makes the FIFO at `path` (replacing a stale one) and opens both ends.
pub fn make(path: &Path) -> std::io::Result<Ends> {
    if let Some(dir) = path.parent() {
        crate::state::create_dir(dir).map_err(|e| std::io::Error::other(e.message))?;
    }
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        FileType::Fifo,
        Mode::RUSR | Mode::WUSR,
        0,
    )?;
    let opened = (|| {
        // Non-blocking, or the open would wait for a writer; then blocking again, for the
        // command reads as from any pipe.
        let base = OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let read = rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::NONBLOCK | base,
            Mode::empty(),
        )?;
        let write = rustix::fs::open(path, OFlags::WRONLY | base, Mode::empty())?;
        rustix::fs::fcntl_setfl(&read, OFlags::empty())?;
        Ok(Ends { read, write })
    })();
    if opened.is_err() {
        let _ = std::fs::remove_file(path);
    }
    opened
}

/// Feeds `text` (run's `stdin`) first, before the command starts and before any `jobs write`
/// can: what fits in the FIFO's buffer is written now, in order; the rest by a thread, so a
/// command that never reads cannot block the supervisor.
pub fn feed(path: &Path, ends: &Ends, text: &str) -> std::io::Result<()> {
    let flags = OFlags::WRONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let now = rustix::fs::open(path, flags, Mode::empty())?;
    let bytes = text.as_bytes();
    let mut sent = 0;
    while sent < bytes.len() {
        match rustix::io::write(&now, &bytes[sent..]) {
            Ok(n) => sent += n,
            Err(Errno::INTR) => {}
            Err(Errno::AGAIN) => break,
            Err(e) => return Err(e.into()),
        }
    }
    if sent < bytes.len() {
        let rest = bytes[sent..].to_vec();
        let w = ends.write.try_clone()?;
        std::thread::spawn(move || {
            use std::io::Write;
            let _ = std::fs::File::from(w).write_all(&rest);
        });
    }
    Ok(())
}

/// Why bytes could not all be written.
#[derive(Debug)]
pub enum Refused {
    /// No FIFO, or nobody reading it: the job has ended. Holds how many bytes went in first.
    Ended(usize),
    /// The command did not read them before the deadline (its stdin is full). Holds how many
    /// went in.
    Full(usize),
    /// Something that is not this job's FIFO, or an I/O failure.
    Other(String),
}

/// Writes `bytes` to the job's FIFO at `path`, waiting until `deadline` while it is full.
pub fn send(path: &Path, bytes: &[u8], deadline: Instant) -> Result<(), Refused> {
    let flags = OFlags::WRONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = match rustix::fs::open(path, flags, Mode::empty()) {
        Ok(fd) => fd,
        Err(Errno::NOENT | Errno::NXIO) => return Err(Refused::Ended(0)),
        Err(e) => return Err(Refused::Other(format!("could not open its stdin: {e}"))),
    };
    // Only a FIFO of ours is written to: the state dir is 0700, but a record is not a proof.
    match rustix::fs::fstat(&fd) {
        Ok(st)
            if FileType::from_raw_mode(st.st_mode) == FileType::Fifo
                && st.st_uid == rustix::process::geteuid().as_raw() => {}
        Ok(_) => {
            return Err(Refused::Other(
                "its stdin is not a FIFO of this user; nothing was written".into(),
            ));
        }
        Err(e) => return Err(Refused::Other(format!("could not check its stdin: {e}"))),
    }
    let mut sent = 0;
    while sent < bytes.len() {
        match rustix::io::write(&fd, &bytes[sent..]) {
            Ok(n) => sent += n,
            Err(Errno::INTR) => {}
            Err(Errno::AGAIN) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(Refused::Full(sent));
                }
                let mut fds = [PollFd::new(&fd, PollFlags::OUT)];
                let _ = poll(&mut fds, Some(&timespec(left.min(Duration::from_secs(1)))));
            }
            Err(Errno::PIPE) => return Err(Refused::Ended(sent)),
            Err(e) => return Err(Refused::Other(format!("could not write to its stdin: {e}"))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_fifo_is_fed_by_later_writers_and_never_reads_eof_while_held() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("logs/1.stdin");
        let ends = make(&path).unwrap();
        let meta = std::fs::symlink_metadata(&path).unwrap();
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        assert!(meta.file_type().is_fifo());
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        let soon = || Instant::now() + Duration::from_secs(1);
        send(&path, b"one\n", soon()).unwrap();
        send(&path, b"two\n", soon()).unwrap();
        // Both writers are gone, the held end keeps the reader from EOF: a non-blocking read
        // after the data says "nothing yet", not "end".
        let mut read = std::fs::File::from(ends.read);
        let mut buf = [0u8; 64];
        let n = read.read(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"one\ntwo\n");
        rustix::fs::fcntl_setfl(&read, OFlags::NONBLOCK).unwrap();
        let again = read.read(&mut buf);
        assert_eq!(again.unwrap_err().kind(), std::io::ErrorKind::WouldBlock);
        // A full FIFO: the rest waits for the deadline, then says how much went in.
        let big = vec![b'x'; 1 << 20];
        match send(&path, &big, Instant::now() + Duration::from_millis(50)) {
            Err(Refused::Full(n)) => assert!(n > 0 && n < big.len()),
            other => panic!("{other:?}"),
        }
        // Nobody reading: ended. No FIFO: ended.
        drop(read);
        assert!(matches!(send(&path, b"x", soon()), Err(Refused::Ended(_))));
        drop(ends.write);
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(send(&path, b"x", soon()), Err(Refused::Ended(0))));
        // Not a FIFO: refused, nothing written.
        std::fs::write(&path, "").unwrap();
        assert!(matches!(send(&path, b"x", soon()), Err(Refused::Other(_))));
        assert_eq!(std::fs::read(&path).unwrap(), b"");
    }
}
