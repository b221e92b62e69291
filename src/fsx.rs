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
    match stage_resolved(target, bytes, existing, mode)? {
        Prepared::Staged(staged) => staged.commit(),
        Prepared::Written(fp) => Ok(fp),
    }
}

/// New content made ready: in a temp file beside the target, or (a file with several hard
/// links, rewritten in place) already written.
pub enum Prepared {
    Staged(Staged),
    Written(Fingerprint),
}

/// New content in a temp file beside the target, fsynced, waiting for its rename (SPEC 24.7:
/// the journal entry is saved between the two, so a change whose entry cannot be saved is not
/// made). Dropped without `commit`, it removes the temp file and the directories it made.
pub struct Staged {
    dir: std::os::fd::OwnedFd,
    tmp: String,
    name: std::ffi::OsString,
    made: Vec<std::path::PathBuf>,
    /// The target's fingerprint once renamed (a rename keeps the size, time and bytes).
    pub fp: Fingerprint,
    done: bool,
}

impl Staged {
    /// Renames the temp file over the target and makes the rename durable.
    pub fn commit(mut self) -> io::Result<Fingerprint> {
        use rustix::fs::{Mode, OFlags};
        crate::fault::check("rename")?;
        rustix::fs::renameat(&self.dir, self.tmp.as_str(), &self.dir, &self.name)?;
        self.done = true;
        if let Ok(d) = rustix::fs::openat(
            &self.dir,
            ".",
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        ) {
            let _ = File::from(d).sync_all();
        }
        Ok(self.fp)
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        // Not committed: the tree is left as it was.
        let _ = rustix::fs::unlinkat(&self.dir, self.tmp.as_str(), rustix::fs::AtFlags::empty());
        for d in self.made.iter().rev() {
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// Prepares new content for `target` (see `Prepared`).
pub fn stage_resolved(
    target: &crate::sandbox::Resolved,
    bytes: &[u8],
    existing: Option<&Metadata>,
    mode: Option<u32>,
) -> io::Result<Prepared> {
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

fn stage_at(
    at: &crate::sandbox::beneath::Walked,
    bytes: &[u8],
    existing: Option<&Metadata>,
    mode: Option<u32>,
) -> io::Result<Prepared> {
    use rustix::fs::{Mode, OFlags};
    use std::sync::atomic::{AtomicU64, Ordering};
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    let name = at.name.as_os_str();
    if existing.is_some_and(|m| m.nlink() > 1) {
        return in_place(at, bytes, mode).map(Prepared::Written);
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
        dir,
        tmp,
        name: name.to_os_string(),
        made,
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
    Ok(Prepared::Staged(staged))
}

/// A file with several hard links is rewritten in place (a rename would split it from its
/// other names). The room for the new content is reserved first (`fallocate`, keeping the
/// size), so a full disk fails before a byte of the file changes (SPEC 23.8); then it is
/// overwritten from the start and cut to the new length.
fn in_place(
    at: &crate::sandbox::beneath::Walked,
    bytes: &[u8],
    mode: Option<u32>,
) -> io::Result<Fingerprint> {
    use rustix::fs::{FallocateFlags, Mode, OFlags};
    let fd = rustix::fs::openat(
        &at.dir,
        at.name.as_os_str(),
        OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let mut f = File::from(fd);
    crate::fault::check("stage")?;
    if !bytes.is_empty() {
        match rustix::fs::fallocate(&f, FallocateFlags::KEEP_SIZE, 0, bytes.len() as u64) {
            // A file system without fallocate: written as before, without the reservation.
            Err(e) if e == rustix::io::Errno::OPNOTSUPP || e == rustix::io::Errno::NOSYS => {}
            r => r?,
        }
    }
    f.write_all(bytes)?;
    f.set_len(bytes.len() as u64)?;
    if let Some(mode) = mode {
        f.set_permissions(Permissions::from_mode(mode))?;
    }
    crate::fault::check("fsync")?;
    f.sync_all()?;
    Ok(Fingerprint::of_bytes(bytes, &f.metadata()?))
}

/// Temp files older than this may be a dead writer's; younger ones are never looked at, so a
/// writer between creating its temp file and locking it is never in the way.
const TEMP_AGE: std::time::Duration = std::time::Duration::from_secs(60);

/// Removes what killed writers left in `dir` (SPEC 24.6): our temp files (`*.loopr-tmp`) older
/// than a minute that no live writer holds locked. One directory read per write.
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
        let old = f
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .and_then(|m| m.modified().ok())
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age > TEMP_AGE);
        if old && f.try_lock().is_ok() {
            let _ = rustix::fs::unlinkat(dir, e.file_name(), AtFlags::empty());
        }
    }
}

/// Opens a resolved file for reading through its checked directory handle, never following a
/// link there (a file swapped for a link since the check fails with ELOOP) and never blocking
/// on a FIFO put there (SPEC 23.8: `O_NONBLOCK`, the type checked on the handle).
pub fn open_resolved(target: &crate::sandbox::Resolved) -> io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    let Some(at) = &target.at else {
        return File::open(&target.real);
    };
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

/// What a tree holds: regular files (and links and other non-directories), directories
/// (itself included when it is one) and bytes. Links are counted, never followed.
#[derive(Debug, Default, Clone, Copy)]
pub struct Measure {
    pub files: u64,
    pub directories: u64,
    pub bytes: u64,
}

pub fn measure(path: &Path) -> io::Result<Measure> {
    let meta = std::fs::symlink_metadata(path)?;
    let mut m = Measure::default();
    if !meta.is_dir() {
        m.files = 1;
        m.bytes = meta.len();
        return Ok(m);
    }
    m.directories = 1;
    for e in std::fs::read_dir(path)? {
        let sub = measure(&e?.path())?;
        m.files += sub.files;
        m.directories += sub.directories;
        m.bytes += sub.bytes;
    }
    Ok(m)
}

/// Moves `from` to `to` by rename; across file systems (EXDEV) by copying the tree (modes kept,
/// links copied as links, files fsynced) and then removing `from`.
pub fn move_entry(from: &Path, to: &Path) -> io::Result<()> {
    match std::fs::rename(from, to) {
        Err(e) if e.raw_os_error() == Some(libc::EXDEV) => {
            copy_tree(from, to)?;
            if let Some(d) = to.parent() {
                sync_dir(d);
            }
            remove_entry(from)
        }
        other => other,
    }
}

/// Moves the entry `from` names (itself, not a link's target) to `to`, both resolved: the
/// rename is made between their checked directory handles (SPEC 23.5), creating `to`'s missing
/// parents (returned, outermost first). Across file systems it falls back to copying by path.
pub fn move_resolved(
    from: &crate::sandbox::Resolved,
    to: &crate::sandbox::Resolved,
) -> io::Result<Vec<std::path::PathBuf>> {
    let (Some(f), Some(t)) = (&from.at, &to.at) else {
        if let Some(parent) = to.real.parent() {
            std::fs::create_dir_all(parent)?;
        }
        return move_entry(&from.real, &to.real).map(|()| vec![]);
    };
    let (dir, made) = t.make_parents()?;
    match rustix::fs::renameat(&f.dir, f.name.as_os_str(), &dir, t.name.as_os_str()) {
        Ok(()) => Ok(made),
        Err(rustix::io::Errno::XDEV) => move_entry(&from.real, &to.real).map(|()| made),
        Err(e) => Err(e.into()),
    }
}

/// Moves the entry `from` names into directory `dir` (a path the caller owns, such as the
/// trash) under `name`, renaming from its checked handle.
pub fn move_out(from: &crate::sandbox::Resolved, dir: &Path, name: &str) -> io::Result<()> {
    let Some(f) = &from.at else {
        return move_entry(&from.real, &dir.join(name));
    };
    let to = rustix::fs::open(
        dir,
        rustix::fs::OFlags::PATH | rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )?;
    match rustix::fs::renameat(&f.dir, f.name.as_os_str(), &to, name) {
        Ok(()) => Ok(()),
        Err(rustix::io::Errno::XDEV) => move_entry(&from.real, &dir.join(name)),
        Err(e) => Err(e.into()),
    }
}

/// Moves `from` (a path the caller owns, such as a trash entry) to where `to` resolved,
/// renaming into its checked directory handle and creating its missing parents.
pub fn move_in(from: &Path, to: &crate::sandbox::Resolved) -> io::Result<()> {
    let Some(t) = &to.at else {
        if let Some(parent) = to.real.parent() {
            std::fs::create_dir_all(parent)?;
        }
        return move_entry(from, &to.real);
    };
    let (dir, _) = t.make_parents()?;
    let (Some(src_dir), Some(src_name)) = (from.parent(), from.file_name()) else {
        return Err(io::Error::other("no parent directory"));
    };
    let src = rustix::fs::open(
        src_dir,
        rustix::fs::OFlags::PATH | rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )?;
    match rustix::fs::renameat(&src, src_name, &dir, t.name.as_os_str()) {
        Ok(()) => Ok(()),
        Err(rustix::io::Errno::XDEV) => move_entry(from, &to.real),
        Err(e) => Err(e.into()),
    }
}

/// Removes a file, a link or a whole directory tree (links are removed, never followed).
pub fn remove_entry(path: &Path) -> io::Result<()> {
    if std::fs::symlink_metadata(path)?.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    }
}

fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(from)?;
    let ft = meta.file_type();
    if ft.is_symlink() {
        std::os::unix::fs::symlink(std::fs::read_link(from)?, to)?;
    } else if ft.is_dir() {
        std::fs::create_dir(to)?;
        for e in std::fs::read_dir(from)? {
            let e = e?;
            copy_tree(&e.path(), &to.join(e.file_name()))?;
        }
        std::fs::set_permissions(to, Permissions::from_mode(meta.mode() & 0o7777))?;
    } else {
        std::fs::copy(from, to)?;
        std::fs::set_permissions(to, Permissions::from_mode(meta.mode() & 0o7777))?;
        File::open(to)?.sync_all()?;
    }
    Ok(())
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
