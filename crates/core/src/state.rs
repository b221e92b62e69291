//! The state store (SPEC §2.2): `<state-dir>/<root-key>/<session>/`, one exclusive OS lock per
//! session for every read-modify-write, files replaced atomically, corrupt files moved aside.
//!
//! Locks are `flock(2)` through std's `File::lock` family: the kernel drops them when the holder
//! dies, even by SIGKILL, so a stale lock file never blocks anyone. A lock is held only around a
//! read-modify-write of state, never across a command, a download or a blocking wait.

use crate::context::Ctx;
use crate::error::{Code, Result, ToolError};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// `<state-dir>/<root-key>`: a readable basename plus a hash of the canonical root, so two
/// worktrees with the same name never share state.
pub fn root_dir(ctx: &Ctx) -> PathBuf {
    let base: String = ctx
        .root_real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "root".to_string())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(48)
        .collect();
    let hash = xxhash_rust::xxh3::xxh3_64(ctx.root_real.as_os_str().as_encoded_bytes());
    ctx.state_dir.join(format!("{base}-{hash:016x}"))
}

pub fn session_dir(ctx: &Ctx) -> PathBuf {
    root_dir(ctx).join(&ctx.session)
}

/// Another session of the same root (SPEC 20: the sessions of one root are the loops that talk
/// to each other). `session` must be a valid session id: callers check it first.
pub fn session_dir_of(ctx: &Ctx, session: &str) -> PathBuf {
    debug_assert!(crate::context::valid_session(session));
    root_dir(ctx).join(session)
}

/// Reads a file of the state dir as a file of ours: never through a link (a forger's link to
/// a file elsewhere is not read) and never a FIFO or device (SPEC 31.4).
pub fn read_own(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    if !f.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{} is not a file loopr-tool wrote", path.display()),
        ));
    }
    let mut bytes = vec![];
    f.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Whether `name` can be a file name in a state directory: a bare name, not hidden (no `/`,
/// `.`, `..`): a name read back from state or given as input is never a path (SPEC 31.4).
pub fn bare_name(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('.') && !name.contains(['/', '\0'])
}

/// State directories are 0700 (SPEC 23.6): logs and records can hold secrets.
pub fn create_dir(dir: &Path) -> Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| ToolError::state(&e, dir))
}

/// Takes an exclusive lock on `path` (created if missing), waiting up to `wait`.
pub fn lock_file(path: &Path, wait: Duration) -> Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let f = OpenOptions::new()
        .create(true)
        .read(true)
        .write(true)
        .truncate(false)
        .mode(0o600)
        .open(path)
        .map_err(|e| ToolError::state(&e, path))?;
    lock_open(f, path, wait)
}

/// Takes an exclusive `flock` on the open file `f` (named `path` in messages), waiting up to
/// `wait`.
fn lock_open(f: File, path: &Path, wait: Duration) -> Result<File> {
    let deadline = Instant::now() + wait;
    let mut pause = Duration::from_micros(200);
    loop {
        match f.try_lock() {
            Ok(()) => return Ok(f),
            Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(10));
            }
            Err(TryLockError::WouldBlock) => {
                return Err(ToolError::new(
                    Code::LockTimeout,
                    format!(
                        "could not lock {} within {} ms: another loopr-tool process holds it",
                        path.display(),
                        wait.as_millis()
                    ),
                )
                .hint("Retry the call; if it keeps failing, look for a hung loopr-tool process."));
            }
            Err(TryLockError::Error(e)) => return Err(ToolError::state(&e, path)),
        }
    }
}

/// Threads of one process (a batch) queue here before taking the OS lock: flock between two
/// open files of one process works, but the loser would sleep in `lock_file`'s back-off, while a
/// mutex hands the lock over at once.
static IN_PROCESS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The session's state, locked. Dropping it releases the lock.
pub struct StateLock<'a> {
    ctx: &'a Ctx,
    dir: PathBuf,
    _lock: File,
    _in_process: std::sync::MutexGuard<'static, ()>,
}

impl<'a> StateLock<'a> {
    pub fn acquire(ctx: &'a Ctx) -> Result<StateLock<'a>> {
        Self::acquire_for(ctx, &ctx.session)
    }

    /// The state lock of another session of the root (a share into its inbox, SPEC 20.2).
    pub fn acquire_for(ctx: &'a Ctx, session: &str) -> Result<StateLock<'a>> {
        Self::acquire_in(ctx, session_dir_of(ctx, session))
    }

    /// The lock of a session directory elsewhere: a hub session's (SPEC 25.1).
    pub fn acquire_in(ctx: &'a Ctx, dir: PathBuf) -> Result<StateLock<'a>> {
        create_dir(&dir)?;
        // Poisoning means another thread panicked while holding it; the state files, not the
        // mutex, are the truth, so go on.
        let in_process = IN_PROCESS.lock().unwrap_or_else(|e| e.into_inner());
        let lock = lock_file(&dir.join("lock"), ctx.lock_wait)?;
        Ok(StateLock {
            ctx,
            dir,
            _lock: lock,
            _in_process: in_process,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Loads a state file; a missing one is the default. A corrupt one is moved aside to
    /// `<name>.corrupt-<unix-ts>` with a warning, and the default is returned.
    pub fn load<T: DeserializeOwned + Default>(&self, name: &str) -> Result<T> {
        let path = self.dir.join(name);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(T::default()),
            Err(e) => return Err(ToolError::state(&e, &path)),
        };
        match serde_json::from_slice(&bytes) {
            Ok(v) => Ok(v),
            Err(err) => {
                move_aside(self.ctx, &self.dir, name, &err)?;
                Ok(T::default())
            }
        }
    }

    /// Replaces a state file atomically. `durable` adds fsync of the file and the directory, for
    /// what a user would miss after a power cut (todos, the undo journal).
    pub fn save<T: Serialize>(&self, name: &str, value: &T, durable: bool) -> Result<()> {
        let bytes = serde_json::to_vec(value)
            .map_err(|e| ToolError::internal(format!("serialising {name}: {e}")))?;
        write_atomic(&self.dir, name, &bytes, durable)
    }
}

/// Moves the corrupt state file `dir/name` aside to `<name>.corrupt-<unix-ts>` and says so in
/// the call's warnings (SPEC 2.2, 31.3).
pub fn move_aside(ctx: &Ctx, dir: &Path, name: &str, err: &serde_json::Error) -> Result<()> {
    let path = dir.join(name);
    // Never over an earlier one (SPEC 23.6): a second corruption within the same second gets
    // its own name.
    let ts = unix_secs();
    let aside = (0..)
        .map(|n| match n {
            0 => dir.join(format!("{name}.corrupt-{ts}")),
            n => dir.join(format!("{name}.corrupt-{ts}-{n}")),
        })
        .find(|p| std::fs::symlink_metadata(p).is_err())
        .expect("some name is free");
    match std::fs::rename(&path, &aside) {
        // Another call moved it aside first, and says so.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        r => r.map_err(|e| ToolError::state(&e, &path))?,
    }
    ctx.warn(format!(
        "state file {name} was corrupt ({err}); moved aside to {} and started fresh",
        aside.display()
    ));
    Ok(())
}

/// The state locks of several sessions at once (a share to many targets checks every inbox's
/// cap before delivering to any). Taken in sorted order, so two processes locking overlapping
/// sets never deadlock; one in-process turn for the whole set, since the mutex is not reentrant.
pub struct SessionsLock {
    // Declared first so the file locks go before the in-process turn is handed on.
    held: Vec<(String, PathBuf, File)>,
    _in_process: std::sync::MutexGuard<'static, ()>,
}

impl SessionsLock {
    /// Locks each distinct session of `sessions` (valid session ids).
    pub fn acquire(ctx: &Ctx, sessions: &[&str]) -> Result<SessionsLock> {
        Self::acquire_in(ctx, sessions, |s| session_dir_of(ctx, s))
    }

    /// The same for sessions whose directories `dir_of` names (a hub's, SPEC 25.1).
    pub fn acquire_in(
        ctx: &Ctx,
        sessions: &[&str],
        dir_of: impl Fn(&str) -> PathBuf,
    ) -> Result<SessionsLock> {
        let mut names: Vec<&str> = sessions.to_vec();
        names.sort_unstable();
        names.dedup();
        let dirs = names
            .iter()
            .map(|s| {
                let dir = dir_of(s);
                create_dir(&dir).map(|()| dir)
            })
            .collect::<Result<Vec<_>>>()?;
        let in_process = IN_PROCESS.lock().unwrap_or_else(|e| e.into_inner());
        let mut held = Vec::with_capacity(names.len());
        for (name, dir) in names.into_iter().zip(dirs) {
            let lock = lock_file(&dir.join("lock"), ctx.lock_wait)?;
            held.push((name.to_string(), dir, lock));
        }
        Ok(SessionsLock {
            held,
            _in_process: in_process,
        })
    }

    /// The directory of a locked session.
    pub fn dir(&self, session: &str) -> &Path {
        self.held
            .iter()
            .find(|(name, _, _)| name == session)
            .map(|(_, dir, _)| dir.as_path())
            .expect("only locked sessions are asked for")
    }
}

/// Writes `dir/name` by temp file and rename.
pub fn write_atomic(dir: &Path, name: &str, bytes: &[u8], durable: bool) -> Result<()> {
    let target = dir.join(name);
    crate::fault::check("state").map_err(|e| ToolError::state(&e, &target))?;
    // Errors name the state file being saved, not its temp file (which is gone after).
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .tempfile_in(dir)
        .map_err(|e| ToolError::state(&e, &target))?;
    // Through the file itself: tempfile's own `Write` wraps errors with its path, hiding the
    // errno (SPEC 23.2 wants it).
    tmp.as_file_mut()
        .write_all(bytes)
        .map_err(|e| ToolError::state(&e, &target))?;
    if durable {
        tmp.as_file()
            .sync_all()
            .map_err(|e| ToolError::state(&e, &target))?;
    }
    let tmp = tmp.into_temp_path();
    if exchange(&tmp, &target) {
        // `tmp` now names the old content; dropping it removes that.
        drop(tmp);
    } else {
        tmp.persist(&target)
            .map_err(|e| ToolError::state(&e.error, &target))?;
    }
    if durable {
        sync_dir(dir);
    }
    Ok(())
}

/// Swaps two names atomically (`renameat2(RENAME_EXCHANGE)`). Why not a plain rename over the
/// old file: ext4 (`auto_da_alloc`) takes rename-over-an-existing-file as a cue to start
/// writing the new file's data out at once, which cost 0.2–0.5 ms per state save here, more
/// than the rest of a `read`; an exchange is an atomic swap just the same (a reader sees the
/// old file or the new one, never neither) without that cue. False when the kernel or the file
/// system cannot swap, or there is no old file yet: then a plain rename does the job.
fn exchange(a: &Path, b: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let (Ok(a), Ok(b)) = (
        std::ffi::CString::new(a.as_os_str().as_bytes()),
        std::ffi::CString::new(b.as_os_str().as_bytes()),
    ) else {
        return false;
    };
    // SAFETY: two NUL-terminated paths that outlive the call.
    unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        ) == 0
    }
}

/// fsyncs a directory so a rename in it survives a power cut. Best effort: some file systems
/// refuse to open directories for this.
pub fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// The lock that serialises writers of one file (SPEC 2.2, 24.7): an `flock` on the file's
/// parent directory (the deepest one that exists, for a path still to be created). It lives on
/// the file system itself, so writers with another state dir or a nested root are excluded
/// too (two such agents once both got `ok` and lost an update), and it leaves no lock file
/// behind. Returns the directory's identity with the lock, so one change never locks a
/// directory twice (two `flock`s of one process on one directory would wait on each other).
/// `held` are the directories this change has locked already: one of them is not locked again
/// (`None`).
pub fn lock_parent(
    ctx: &Ctx,
    real: &Path,
    held: &[(u64, u64)],
) -> Result<Option<((u64, u64), File)>> {
    use std::os::unix::fs::MetadataExt;
    if let Some(f) = open_parent_beneath(ctx, real) {
        let d = real.parent().unwrap_or(real);
        let meta = f.metadata().map_err(|e| ToolError::state(&e, d))?;
        let id = (meta.dev(), meta.ino());
        if held.contains(&id) {
            return Ok(None);
        }
        return Ok(Some((id, lock_open(f, d, ctx.lock_wait)?)));
    }
    let mut dir = real.parent();
    while let Some(d) = dir {
        if let Ok(f) = File::open(d) {
            let meta = f.metadata().map_err(|e| ToolError::state(&e, d))?;
            if meta.is_dir() {
                let id = (meta.dev(), meta.ino());
                if held.contains(&id) {
                    return Ok(None);
                }
                return Ok(Some((id, lock_open(f, d, ctx.lock_wait)?)));
            }
        }
        dir = d.parent();
    }
    Err(ToolError::new(
        Code::IoError,
        format!("no directory above {} to lock", real.display()),
    ))
}

/// The parent directory of `real` (the deepest one that exists), opened through the root's
/// handle as the sandbox resolves paths (SPEC 24.7: the lock is taken through the checked
/// handle, so a parent swapped for a link locks nothing outside). `None` without the sandbox or
/// for a path outside the root (the lock then goes by path).
fn open_parent_beneath(ctx: &Ctx, real: &Path) -> Option<File> {
    use rustix::fs::{Mode, OFlags};
    if !ctx.sandbox || !real.starts_with(&ctx.root_real) {
        return None;
    }
    let parent = real.parent()?;
    let root = ctx.root_handle().ok()?;
    let w = crate::sandbox::beneath::walk(root, &ctx.root_real, parent, true).ok()?;
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    // A parent still to be created: its deepest existing directory is locked.
    let fd = rustix::fs::openat(&w.dir, w.name.as_os_str(), flags, Mode::empty())
        .or_else(|_| rustix::fs::openat(&w.dir, ".", flags, Mode::empty()))
        .ok()?;
    Some(File::from(fd))
}

pub fn unix_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// RFC 3339 in UTC with milliseconds, e.g. `2026-11-22T20:14:03.123Z`.
pub fn rfc3339(t: SystemTime) -> String {
    let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_millis()
    )
}

pub fn now() -> String {
    rfc3339(SystemTime::now())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_known_instants() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(951_782_400_123); // leap day 2000
        assert_eq!(rfc3339(t), "2000-02-29T00:00:00.123Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_795_305_600 + 3_723);
        assert_eq!(rfc3339(t), "2026-11-22T01:02:03.000Z");
    }

    #[test]
    fn second_lock_waits_then_times_out_and_drop_releases() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("l");
        let held = lock_file(&p, Duration::from_millis(10)).unwrap();
        let start = Instant::now();
        let err = lock_file(&p, Duration::from_millis(50)).unwrap_err();
        assert_eq!(err.code, Code::LockTimeout);
        assert!(start.elapsed() >= Duration::from_millis(50));
        drop(held);
        assert!(lock_file(&p, Duration::from_millis(10)).is_ok());
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp() {
        // The first write has no old file to swap with (a rename); the next ones swap.
        let t = tempfile::tempdir().unwrap();
        write_atomic(t.path(), "s.json", b"{}", true).unwrap();
        write_atomic(t.path(), "s.json", b"[1]", false).unwrap();
        assert_eq!(std::fs::read(t.path().join("s.json")).unwrap(), b"[1]");
        write_atomic(t.path(), "s.json", b"[2]", true).unwrap();
        assert_eq!(std::fs::read(t.path().join("s.json")).unwrap(), b"[2]");
        assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 1);
    }
}
