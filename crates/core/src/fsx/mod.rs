//! Replacing a file's content safely (SPEC §6, 16.5), shared by write, edit and undo.
//!
//! Atomic by default: a temp file in the target's directory, fsync, rename over the target, fsync
//! of the directory. The target is the real path, so a symlink is followed and the link kept. A
//! file with several hard links is rewritten in place instead (a rename would split it from its
//! other names). Permission bits and, where allowed, ownership are carried over.

use crate::reads::Fingerprint;
use std::fs::{File, Metadata, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

mod entries;
pub use entries::*;

/// Replaces a resolved file's content (atomic: a temp file, fsync, rename, fsync of the
/// directory), for a path the sandbox resolved: with its checked directory handle
/// (SPEC 23.5) the temp file is created in that directory and renamed over the name there, so a
/// directory swapped for a link since the check cannot redirect the write; with `--no-sandbox`
/// (no handle) the same, from a handle on `/`.
pub fn replace_resolved(
    target: &crate::sandbox::Resolved,
    bytes: &[u8],
    existing: Option<&Metadata>,
    mode: Option<u32>,
) -> io::Result<Fingerprint> {
    stage_resolved(target, bytes, existing, mode)?.commit()
}

/// New content made ready to land, waiting for `commit` (SPEC 24.7: the journal entry is saved
/// in between, so a change whose entry cannot be saved is not made). Dropped without a
/// successful `commit`, it leaves the tree as it was: the temp file and the directories made
/// for it are removed.
pub struct Staged<'b> {
    how: How<'b>,
    /// The target's fingerprint once committed (a rename keeps the size, time and bytes; an
    /// in-place write gets a new time, which no freshness check compares).
    pub fp: Fingerprint,
    done: bool,
}

enum How<'b> {
    /// In a temp file beside the target, fsynced.
    Temp {
        dir: std::os::fd::OwnedFd,
        tmp: String,
        name: std::ffi::OsString,
        made: Vec<std::path::PathBuf>,
    },
    /// A file with several hard links is rewritten in place (a rename would split it from its
    /// other names): opened, its room reserved, written only by `commit`.
    InPlace {
        file: File,
        bytes: &'b [u8],
        mode: Option<u32>,
        /// The file's permission bits before, for `put_back`.
        was: u32,
    },
}

impl Staged<'_> {
    /// The directories made for the temp file (a new file's missing parents), outermost first.
    pub fn made(&self) -> Vec<String> {
        match &self.how {
            How::Temp { made, .. } => made
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect(),
            How::InPlace { .. } => vec![],
        }
    }

    /// Whether the content is written in place (into the file's own inode) by `commit`.
    pub fn in_place(&self) -> bool {
        matches!(self.how, How::InPlace { .. })
    }

    /// Lands the content: renames the temp file over the target and makes the rename durable,
    /// or (in place) writes the file from the start, cuts it to the new length and fsyncs it.
    pub fn commit(&mut self) -> io::Result<Fingerprint> {
        use rustix::fs::{Mode, OFlags};
        use std::os::unix::fs::FileExt;
        crate::fault::check("rename")?;
        let mut fp = self.fp;
        match &self.how {
            How::Temp { dir, tmp, name, .. } => {
                rustix::fs::renameat(dir, tmp.as_str(), dir, name)?;
                self.done = true;
                if let Ok(d) = rustix::fs::openat(
                    dir,
                    ".",
                    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                    Mode::empty(),
                ) {
                    let _ = File::from(d).sync_all();
                }
            }
            How::InPlace {
                file, bytes, mode, ..
            } => {
                let half = bytes.len() / 2;
                file.write_all_at(&bytes[..half], 0)?;
                crate::fault::check("in_place")?;
                file.write_all_at(&bytes[half..], half as u64)?;
                file.set_len(bytes.len() as u64)?;
                if let Some(mode) = mode {
                    file.set_permissions(Permissions::from_mode(*mode))?;
                }
                crate::fault::check("fsync")?;
                file.sync_all()?;
                self.done = true;
                let m = file.metadata()?;
                fp = Fingerprint::of_bytes(bytes, &m);
            }
        }
        self.fp = fp;
        Ok(fp)
    }

    /// After a failed in-place `commit`: writes `old` (what the file held) back. The room is
    /// there (the old content fitted), so this succeeds unless the device itself fails.
    pub fn put_back(&self, old: &[u8]) -> io::Result<()> {
        use std::os::unix::fs::FileExt;
        let How::InPlace { file, was, .. } = &self.how else {
            return Ok(());
        };
        file.write_all_at(old, 0)?;
        file.set_len(old.len() as u64)?;
        file.set_permissions(Permissions::from_mode(*was))?;
        file.sync_all()
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        // Not committed: the tree is left as it was.
        if let How::Temp { dir, tmp, made, .. } = &self.how {
            let _ = rustix::fs::unlinkat(dir, tmp.as_str(), rustix::fs::AtFlags::empty());
            for d in made.iter().rev() {
                let _ = std::fs::remove_dir(d);
            }
        }
    }
}

/// Prepares new content for `target` (see `Staged`).
pub fn stage_resolved<'b>(
    target: &crate::sandbox::Resolved,
    bytes: &'b [u8],
    existing: Option<&Metadata>,
    mode: Option<u32>,
) -> io::Result<Staged<'b>> {
    match &target.at {
        Some(at) => stage_at(at, bytes, existing, mode),
        None => {
            // --no-sandbox: the same steps, from a handle on `/` (which nothing can leave).
            let root = crate::sandbox::beneath::open_root(Path::new("/"))?;
            let at = crate::sandbox::beneath::walk(
                std::os::fd::AsFd::as_fd(&root),
                Path::new("/"),
                &target.real,
                true,
            )
            .map_err(|e| match e {
                crate::sandbox::beneath::Failure::Io(e) => e,
                crate::sandbox::beneath::Failure::Outside => io::Error::other("outside /"),
            })?;
            stage_at(&at, bytes, existing, mode)
        }
    }
}

fn stage_at<'b>(
    at: &crate::sandbox::beneath::Walked,
    bytes: &'b [u8],
    existing: Option<&Metadata>,
    mode: Option<u32>,
) -> io::Result<Staged<'b>> {
    use rustix::fs::{Mode, OFlags};
    use std::sync::atomic::{AtomicU64, Ordering};
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    let name = at.name.as_os_str();
    if existing.is_some_and(|m| m.nlink() > 1) {
        return in_place(at, bytes, mode);
    }
    crate::fault::check("stage")?;
    let (dir, made) = at.make_parents()?;
    sweep_temps(&dir);
    let tmp = format!(
        ".{}.{}.{}.loopr-tmp",
        name.to_string_lossy(),
        std::process::id(),
        SERIAL.fetch_add(1, Ordering::Relaxed)
    );
    let fd = match rustix::fs::openat(
        &dir,
        tmp.as_str(),
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o666),
    ) {
        Ok(fd) => fd,
        Err(e) => {
            for d in made.iter().rev() {
                let _ = std::fs::remove_dir(d);
            }
            return Err(e.into());
        }
    };
    let mut staged = Staged {
        how: How::Temp {
            dir,
            tmp,
            name: name.to_os_string(),
            made,
        },
        fp: Fingerprint::default(),
        done: false,
    };
    let mut f = File::from(fd);
    // Held while the temp file exists, so a sweep never takes a live writer's.
    let _ = f.try_lock();
    f.write_all(bytes)?;
    if let Some(meta) = existing {
        f.set_permissions(Permissions::from_mode(meta.mode() & 0o7777))?;
        let _ = std::os::unix::fs::fchown(&f, Some(meta.uid()), Some(meta.gid()));
        let _ = f.set_permissions(Permissions::from_mode(meta.mode() & 0o7777));
    }
    if let Some(mode) = mode {
        f.set_permissions(Permissions::from_mode(mode))?;
    }
    crate::fault::check("fsync")?;
    f.sync_all()?;
    staged.fp = Fingerprint::of_bytes(bytes, &f.metadata()?);
    Ok(staged)
}

/// A file with several hard links is rewritten in place (a rename would split it from its
/// other names). The room for the new content is reserved here (`fallocate`, keeping the
/// size), so a full disk fails before a byte of the file changes (SPEC 23.8); `commit` then
/// overwrites it from the start and cuts it to the new length.
fn in_place<'b>(
    at: &crate::sandbox::beneath::Walked,
    bytes: &'b [u8],
    mode: Option<u32>,
) -> io::Result<Staged<'b>> {
    use rustix::fs::{FallocateFlags, Mode, OFlags};
    let fd = rustix::fs::openat(
        &at.dir,
        at.name.as_os_str(),
        OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let file = File::from(fd);
    crate::fault::check("stage")?;
    if !bytes.is_empty() {
        match rustix::fs::fallocate(&file, FallocateFlags::KEEP_SIZE, 0, bytes.len() as u64) {
            // A file system without fallocate: written as before, without the reservation.
            Err(e) if e == rustix::io::Errno::OPNOTSUPP || e == rustix::io::Errno::NOSYS => {}
            r => r?,
        }
    }
    let meta = file.metadata()?;
    Ok(Staged {
        fp: Fingerprint::of_bytes(bytes, &meta),
        how: How::InPlace {
            file,
            bytes,
            mode,
            was: meta.mode() & 0o7777,
        },
        done: false,
    })
}

/// A temp file whose writer may be alive is looked at only after this: a writer between
/// creating its temp file and locking it is never in the way.
const TEMP_AGE: std::time::Duration = std::time::Duration::from_secs(60);

/// Removes what killed writers left in `dir` (SPEC 24.6, 31.3): our temp files
/// (`.NAME.PID.N.loopr-tmp`) that no writer holds locked and whose writer is gone (no process
/// has its pid) or that are over a minute old. The next write to the directory removes a
/// killed write's temp file, whichever file it is for. One directory read per write.
fn sweep_temps(dir: &std::os::fd::OwnedFd) {
    use rustix::fs::{AtFlags, Mode, OFlags};
    let Ok(listing) = rustix::fs::openat(
        dir,
        ".",
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    ) else {
        return;
    };
    let Ok(entries) = rustix::fs::Dir::read_from(&listing) else {
        return;
    };
    let now = std::time::SystemTime::now();
    for e in entries.flatten() {
        let name = e.file_name().to_bytes();
        if !(name.starts_with(b".") && name.ends_with(b".loopr-tmp")) {
            continue;
        }
        let Ok(fd) = rustix::fs::openat(
            dir,
            e.file_name(),
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        ) else {
            continue;
        };
        let f = File::from(fd);
        let Some(meta) = f.metadata().ok().filter(|m| m.is_file()) else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age > TEMP_AGE);
        if (old || writer_gone(name)) && f.try_lock().is_ok() {
            let _ = rustix::fs::unlinkat(dir, e.file_name(), AtFlags::empty());
        }
    }
}

/// True when the pid in a temp file's name `.NAME.PID.N.loopr-tmp` names no process: its
/// writer was killed (a pid this process cannot see, or cannot signal, counts as alive).
fn writer_gone(name: &[u8]) -> bool {
    let Some(stem) = name.strip_suffix(b".loopr-tmp") else {
        return false;
    };
    let mut parts = stem.rsplitn(3, |b| *b == b'.');
    let (Some(_serial), Some(pid)) = (parts.next(), parts.next()) else {
        return false;
    };
    let pid = std::str::from_utf8(pid)
        .ok()
        .and_then(|p| p.parse::<i32>().ok());
    let Some(pid) = pid.and_then(rustix::process::Pid::from_raw) else {
        return false;
    };
    rustix::process::test_kill_process(pid) == Err(rustix::io::Errno::SRCH)
}

/// Opens a resolved file for reading through its checked directory handle, never following a
/// link there (a file swapped for a link since the check fails with ELOOP) and never blocking
/// on a FIFO put there (SPEC 23.8: `O_NONBLOCK`, the type checked on the handle).
pub fn open_resolved(target: &crate::sandbox::Resolved) -> io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    let Some(at) = &target.at else {
        return File::open(&target.real);
    };
    absent_below(at)?;
    let fd = rustix::fs::openat(
        &at.dir,
        at.name.as_os_str(),
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let f = File::from(fd);
    let ft = f.metadata()?.file_type();
    if !ft.is_file() && !ft.is_dir() {
        return Err(io::Error::other(
            "not a regular file (a FIFO, socket or device)",
        ));
    }
    // Back to blocking reads for a regular file (O_NONBLOCK is only for the open).
    rustix::fs::fcntl_setfl(&f, OFlags::empty())?;
    Ok(f)
}

/// A path whose walk stopped at a missing directory names nothing yet: its handle is the last
/// directory that exists, where `name` may well be some other file.
fn absent_below(at: &crate::sandbox::beneath::Walked) -> io::Result<()> {
    if at.missing.is_empty() {
        Ok(())
    } else {
        Err(io::Error::from(io::ErrorKind::NotFound))
    }
}

/// What a resolved path names, the entry itself (a link is not followed), described through
/// its checked directory handle (SPEC 31.4): like a read, a stat never describes what a
/// directory swapped for a link since the check leads to.
pub fn lstat_resolved(target: &crate::sandbox::Resolved) -> io::Result<std::fs::Metadata> {
    use rustix::fs::{Mode, OFlags};
    let Some(at) = &target.at else {
        return std::fs::symlink_metadata(&target.real);
    };
    absent_below(at)?;
    let fd = rustix::fs::openat(
        &at.dir,
        at.name.as_os_str(),
        OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    File::from(fd).metadata()
}

/// A resolved symlink's target text, read through its checked directory handle.
pub fn readlink_resolved(target: &crate::sandbox::Resolved) -> io::Result<std::path::PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    let Some(at) = &target.at else {
        return std::fs::read_link(&target.real);
    };
    absent_below(at)?;
    let text = rustix::fs::readlinkat(&at.dir, at.name.as_os_str(), Vec::new())?;
    Ok(std::ffi::OsString::from_vec(text.into_bytes()).into())
}

/// The whole content of a resolved file, read through its checked handle.
pub fn read_resolved(target: &crate::sandbox::Resolved) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut f = open_resolved(target)?;
    let mut buf = Vec::new();
    f.read_to_end(&mut buf)?;
    Ok(buf)
}

/// Removes the file a resolved path names, through its checked directory handle.
pub fn remove_resolved(target: &crate::sandbox::Resolved) -> io::Result<()> {
    crate::fault::check("remove")?;
    match &target.at {
        Some(at) => Ok(rustix::fs::unlinkat(
            &at.dir,
            at.name.as_os_str(),
            rustix::fs::AtFlags::empty(),
        )?),
        None => std::fs::remove_file(&target.real),
    }
}

pub fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Counts lines by read's rule: each `\n` ends one, and a final unterminated run is one more.
pub fn count_lines(bytes: &[u8]) -> u64 {
    let newlines = memchr::memchr_iter(b'\n', bytes).count() as u64;
    newlines + u64::from(!bytes.is_empty() && !bytes.ends_with(b"\n"))
}

/// `count_lines` of a file, streamed.
pub fn count_file_lines(path: &Path) -> io::Result<u64> {
    use std::io::Read;
    let mut f = File::open(path)?;
    let mut buf = vec![0u8; 64 * 1024];
    let (mut lines, mut last) = (0u64, b'\n');
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            return Ok(lines + u64::from(last != b'\n'));
        }
        lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        last = buf[n - 1];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replace(real: &Path, bytes: &[u8], existing: Option<&Metadata>) {
        let target = crate::sandbox::Resolved {
            real: real.to_path_buf(),
            shown: String::new(),
            at: None,
        };
        replace_resolved(&target, bytes, existing, None).unwrap();
    }

    #[test]
    fn hard_links_share_the_new_content() {
        let t = tempfile::tempdir().unwrap();
        let a = t.path().join("a");
        std::fs::write(&a, "old").unwrap();
        std::fs::hard_link(&a, t.path().join("b")).unwrap();
        let meta = std::fs::metadata(&a).unwrap();
        replace(&a, b"new", Some(&meta));
        assert_eq!(std::fs::read(t.path().join("b")).unwrap(), b"new");
    }

    #[test]
    fn mode_is_kept_and_no_temp_is_left() {
        let t = tempfile::tempdir().unwrap();
        let a = t.path().join("x.sh");
        std::fs::write(&a, "old").unwrap();
        std::fs::set_permissions(&a, Permissions::from_mode(0o751)).unwrap();
        let meta = std::fs::metadata(&a).unwrap();
        replace(&a, b"new", Some(&meta));
        assert_eq!(std::fs::metadata(&a).unwrap().mode() & 0o7777, 0o751);
        assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 1);
    }

    #[test]
    fn line_counting() {
        assert_eq!(count_lines(b""), 0);
        assert_eq!(count_lines(b"a"), 1);
        assert_eq!(count_lines(b"a\n"), 1);
        assert_eq!(count_lines(b"a\nb"), 2);
        assert_eq!(count_lines(b"\n\n"), 2);
    }
}
