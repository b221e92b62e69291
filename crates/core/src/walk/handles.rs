//! The walk by handle behind glob, grep and tree (SPEC 23.5).
//!
//! Each directory is opened relative to its parent's handle, by its name there, with
//! `O_NOFOLLOW | O_DIRECTORY`: a directory swapped for a symlink after its parent was listed
//! fails to open (and is reported) instead of leading the walk out of the root. Files are opened
//! and looked at the same way (`Entry::open_file`, `modified`, `read_link`), so what grep reads
//! is the file the walk listed in a directory the walk verified — never a path resolved anew.
//!
//! Work is shared by a stack (last in, first out, as ripgrep's walker) among the threads; a
//! queued directory holds its parent's handle, and depth-first order keeps the number of open
//! handles near depth × threads.

use super::rules::{Errors, Found, Level, Shared};
use super::{Base, HiddenAllow, Problems};
use crate::control::Control;
use rustix::fs::{AtFlags, FileType, Mode, OFlags, RawDir};
use std::ffi::{OsStr, OsString};
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, SystemTime};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Dir,
    File,
    Symlink,
    /// FIFOs, sockets, devices.
    Other,
}

/// One entry below the base, as the walk listed it.
pub struct Entry<'a> {
    /// The real path: for matching and display, never for access.
    pub path: &'a Path,
    /// 1 for the base's own entries.
    pub depth: usize,
    pub kind: Kind,
    dir: BorrowedFd<'a>,
    name: &'a OsStr,
}

impl Entry<'_> {
    pub fn is_file(&self) -> bool {
        self.kind == Kind::File
    }

    /// Opens the file through the handle of the directory it was listed in, never following a
    /// link and never blocking on a FIFO swapped in since (SPEC 23.8: `O_NONBLOCK`, the type
    /// checked on the handle; left on, as it changes nothing for a regular file's reads).
    pub fn open_file(&self) -> io::Result<std::fs::File> {
        let fd = rustix::fs::openat(
            self.dir,
            self.name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        let f = std::fs::File::from(fd);
        if !f.metadata()?.is_file() {
            return Err(io::Error::other(
                "not a regular file any more (a FIFO, socket or device)",
            ));
        }
        Ok(f)
    }

    /// The entry's modification time (of a link itself, not its target).
    pub fn modified(&self) -> Option<SystemTime> {
        let st = rustix::fs::statat(self.dir, self.name, AtFlags::SYMLINK_NOFOLLOW).ok()?;
        let since = Duration::new(
            u64::try_from(st.st_mtime).ok()?,
            u32::try_from(st.st_mtime_nsec).ok()?,
        );
        SystemTime::UNIX_EPOCH.checked_add(since)
    }

    /// A symlink's target, as written.
    pub fn read_link(&self) -> Option<PathBuf> {
        let target = rustix::fs::readlinkat(self.dir, self.name, Vec::new()).ok()?;
        Some(PathBuf::from(OsString::from_vec(target.into_bytes())))
    }
}

/// What one walk is asked to do.
pub struct Plan<'a> {
    pub rules: Shared,
    pub max_depth: Option<usize>,
    /// Never entered: the state dir when it lies below the base (SPEC 23.6).
    pub skip: Option<&'a Path>,
    /// The catalog's denied paths: skipped silently, as if absent (SPEC 19.2).
    pub deny: Option<&'a crate::sandbox::rules::Rules>,
    /// With `hidden` off, hidden names this accepts are walked (glob's dot components).
    pub hidden_allow: Option<HiddenAllow>,
}

/// Where a queued directory is: the base's own handle, or a name in a verified directory.
enum At {
    Open(OwnedFd),
    In(Arc<OwnedFd>, OsString),
}

struct Work {
    at: At,
    path: PathBuf,
    depth: usize,
    /// The rules in force in the directory that holds it.
    level: Option<Arc<Level>>,
}

#[derive(Default)]
struct Stack {
    work: Vec<Work>,
    busy: usize,
    done: bool,
}

/// Walks below `base` (whose handle is `fd`); `make` builds one visitor per thread.
pub fn run<F>(
    plan: &Plan,
    base: &Base,
    fd: OwnedFd,
    problems: &Problems,
    control: &Control,
    make: impl Fn() -> F,
) where
    F: FnMut(&Entry) + Send,
{
    let mut errors = Errors::new();
    let level = plan.rules.ancestors(&base.real, &mut errors);
    for e in &errors {
        problems.add(base, e);
    }
    if plan.max_depth == Some(0) {
        return;
    }
    let stack = Mutex::new(Stack {
        work: vec![Work {
            at: At::Open(fd),
            path: base.real.clone(),
            depth: 0,
            level,
        }],
        ..Stack::default()
    });
    let wake = Condvar::new();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(12);
    let worker = |mut visit: F| {
        let mut buf = vec![MaybeUninit::<u8>::uninit(); 32 * 1024];
        loop {
            let work = {
                let mut s = stack.lock().unwrap_or_else(|p| p.into_inner());
                loop {
                    if s.done {
                        return;
                    }
                    if let Some(w) = s.work.pop() {
                        s.busy += 1;
                        break w;
                    }
                    if s.busy == 0 {
                        s.done = true;
                        wake.notify_all();
                        return;
                    }
                    s = wake.wait(s).unwrap_or_else(|p| p.into_inner());
                }
            };
            let children = if control.is_cancelled() {
                Vec::new()
            } else {
                one_dir(plan, base, work, &mut buf, problems, control, &mut visit)
            };
            let mut s = stack.lock().unwrap_or_else(|p| p.into_inner());
            s.busy -= 1;
            let woken = !children.is_empty() || s.busy == 0;
            s.work.extend(children);
            if control.is_cancelled() {
                s.done = true;
            }
            if woken || s.done {
                wake.notify_all();
            }
        }
    };
    // The visitors are made here, one per thread, as ripgrep's walker makes them.
    let mut visitors: Vec<F> = (0..threads).map(|_| make()).collect();
    let first = visitors.pop().expect("at least one thread");
    std::thread::scope(|scope| {
        for visit in visitors {
            let worker = &worker;
            scope.spawn(move || worker(visit));
        }
        worker(first);
    });
}

/// Lists one directory, visits its entries, and returns the directories to walk next.
fn one_dir<F: FnMut(&Entry)>(
    plan: &Plan,
    base: &Base,
    work: Work,
    buf: &mut [MaybeUninit<u8>],
    problems: &Problems,
    control: &Control,
    visit: &mut F,
) -> Vec<Work> {
    let shown = |p: &Path| base.show(base.rel(p)).0;
    let fd = match work.at {
        At::Open(fd) => fd,
        At::In(parent, name) => match rustix::fs::openat(
            &*parent,
            &name,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        ) {
            Ok(fd) => fd,
            Err(e) if e == rustix::io::Errno::NOTDIR || e == rustix::io::Errno::LOOP => {
                problems.add_text(format!(
                    "{}: not a directory any more (replaced during the walk); skipped",
                    shown(&work.path)
                ));
                return Vec::new();
            }
            Err(e) => {
                problems.add_text(format!("{}: {}", shown(&work.path), errno_text(e)));
                return Vec::new();
            }
        },
    };
    let mut names: Vec<(OsString, FileType)> = Vec::new();
    let mut found = Found::default();
    let mut dir = RawDir::new(&fd, buf);
    while let Some(entry) = dir.next() {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                problems.add_text(format!("{}: {}", shown(&work.path), errno_text(e)));
                break;
            }
        };
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        let name = OsStr::from_bytes(name).to_os_string();
        let mut ft = entry.file_type();
        if ft == FileType::Unknown {
            ft = rustix::fs::statat(&fd, &name, AtFlags::SYMLINK_NOFOLLOW)
                .map(|st| FileType::from_raw_mode(st.st_mode))
                .unwrap_or(FileType::Unknown);
        }
        found.note(&name, || ft == FileType::Directory);
        names.push((name, ft));
    }
    let mut errors = Errors::new();
    let level = plan.rules.child(
        work.level,
        &work.path,
        Some(fd.as_fd()),
        &found,
        &mut errors,
    );
    for e in &errors {
        problems.add(base, e);
    }
    let fd = Arc::new(fd);
    let depth = work.depth + 1;
    let descend = plan.max_depth.is_none_or(|m| depth < m);
    let mut next = Vec::new();
    for (name, ft) in names {
        if control.is_cancelled() {
            break;
        }
        control.advance(1);
        if name == ".git" {
            continue;
        }
        let kind = match ft {
            FileType::Directory => Kind::Dir,
            FileType::RegularFile => Kind::File,
            FileType::Symlink => Kind::Symlink,
            _ => Kind::Other,
        };
        let path = work.path.join(&name);
        if plan.rules.skips(level.as_ref(), &path, kind == Kind::Dir)
            || plan.skip == Some(path.as_path())
            || plan.deny.is_some_and(|d| {
                d.judge(&path, kind == Kind::Dir) == crate::sandbox::rules::Verdict::Denied
            })
        {
            continue;
        }
        if let Some(allow) = &plan.hidden_allow
            && name.as_bytes().first() == Some(&b'.')
            && !allow(&name)
        {
            continue;
        }
        visit(&Entry {
            path: &path,
            depth,
            kind,
            dir: fd.as_fd(),
            name: &name,
        });
        if kind == Kind::Dir && descend {
            next.push(Work {
                at: At::In(fd.clone(), name),
                path,
                depth,
                level: level.clone(),
            });
        }
    }
    next
}

fn errno_text(e: rustix::io::Errno) -> String {
    crate::error::io_cause(&e.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry_in<'a>(dir: &'a OwnedFd, name: &'a OsStr, path: &'a Path) -> Entry<'a> {
        Entry {
            path,
            depth: 1,
            kind: Kind::File,
            dir: dir.as_fd(),
            name,
        }
    }

    #[test]
    fn a_fifo_is_refused_at_once_and_a_file_opens() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        std::fs::write(t.path().join("f"), "x").unwrap();
        std::os::unix::fs::symlink(t.path().join("f"), t.path().join("l")).unwrap();
        let dir =
            rustix::fs::open(t.path(), OFlags::RDONLY | OFlags::DIRECTORY, Mode::empty()).unwrap();
        // A plain open would block here for good: nobody writes to the pipe.
        let start = std::time::Instant::now();
        assert!(
            entry_in(&dir, OsStr::new("pipe"), &fifo)
                .open_file()
                .is_err()
        );
        assert!(start.elapsed() < Duration::from_secs(1));
        assert!(entry_in(&dir, OsStr::new("f"), &fifo).open_file().is_ok());
        // A file swapped for a link since the listing is not followed.
        assert!(entry_in(&dir, OsStr::new("l"), &fifo).open_file().is_err());
        assert_eq!(
            entry_in(&dir, OsStr::new("l"), &fifo).read_link(),
            Some(t.path().join("f"))
        );
    }
}
