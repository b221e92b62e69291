//! Resolution beneath the root by handle (SPEC 23.5): a path is walked one component at a time
//! from a handle on the root, each step an `openat` relative to the directory handle reached so
//! far, never following a link implicitly (`O_NOFOLLOW`, `AT_SYMLINK_NOFOLLOW`). A link is read
//! and its target walked the same way: a relative target from where the link is, an absolute one
//! from the root handle when it lies inside the root (24.7), `outside_root` otherwise; `..` pops
//! a handle and can never pop the root's. The result is the handle of the directory that holds the
//! last component and that component's name, so the file is then opened, created, renamed or
//! removed relative to a directory that was checked — swapping a directory for a link after the
//! check changes nothing (the race of 23.5). Component by component rather than `openat2`
//! (`RESOLVE_BENEATH` refuses absolute links inside the root with EXDEV, and the walk is needed
//! for those anyway); a handful of syscalls per path.

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;
use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

/// Linux's own limit on links in one resolution (ELOOP).
const MAX_LINKS: usize = 40;

/// Where a path leads, held by handle.
#[derive(Debug)]
pub struct Walked {
    /// The directory that holds `name`, opened `O_PATH`.
    pub dir: OwnedFd,
    /// The last component (`.` when the path is the root itself).
    pub name: OsString,
    /// `dir`'s real path joined with `name`: for records and display, never for access.
    pub real: PathBuf,
    /// Directories to create below `dir` before `name` can exist (a missing tail), outermost
    /// first; `dir` is then the last directory that exists.
    pub missing: Vec<OsString>,
}

#[derive(Debug)]
pub enum Failure {
    /// The walk would leave the root (`..` past it, a link out of it).
    Outside,
    Io(std::io::Error),
}

impl From<Errno> for Failure {
    fn from(e: Errno) -> Self {
        Failure::Io(e.into())
    }
}

fn open_dir(at: BorrowedFd<'_>, name: &OsStr) -> Result<OwnedFd, Errno> {
    rustix::fs::openat(
        at,
        name,
        OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
}

/// Opens a handle on the root itself.
pub fn open_root(root: &Path) -> std::io::Result<OwnedFd> {
    Ok(rustix::fs::open(
        root,
        OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// Walks `rel` (relative to the root; an absolute path must lie under `root_real`) beneath
/// `root`. `follow_last`: a link as the last component is followed (read, write) or is itself
/// the result (delete, move).
pub fn walk(
    root: BorrowedFd<'_>,
    root_real: &Path,
    path: &Path,
    follow_last: bool,
) -> Result<Walked, Failure> {
    let mut queue: VecDeque<OsString> = VecDeque::new();
    let rel = if path.is_absolute() {
        path.strip_prefix(root_real).map_err(|_| Failure::Outside)?
    } else {
        path
    };
    push(&mut queue, rel);
    // The handles from the root down to where the walk is, and their names.
    let mut stack: Vec<(OwnedFd, OsString)> = vec![(
        root.try_clone_to_owned().map_err(Failure::Io)?,
        OsString::new(),
    )];
    let mut links = 0usize;
    let real_of = |stack: &[(OwnedFd, OsString)]| {
        let mut p = root_real.to_path_buf();
        for (_, n) in &stack[1..] {
            p.push(n);
        }
        p
    };
    while let Some(name) = queue.pop_front() {
        if name == ".." {
            if stack.len() == 1 {
                return Err(Failure::Outside);
            }
            stack.pop();
            continue;
        }
        let last = queue.is_empty();
        let top = stack.last().expect("the root stays").0.as_fd();
        let st = match rustix::fs::statat(top, &*name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => st,
            Err(Errno::NOENT) | Err(Errno::NOTDIR) => {
                return missing_tail(stack, queue, name, root_real);
            }
            Err(e) => return Err(e.into()),
        };
        let kind = FileType::from_raw_mode(st.st_mode);
        if kind == FileType::Symlink && (follow_last || !last) {
            links += 1;
            if links > MAX_LINKS {
                return Err(Failure::Io(Errno::LOOP.into()));
            }
            let target = rustix::fs::readlinkat(top, &*name, Vec::new())?;
            let target = PathBuf::from(OsStr::from_bytes(target.as_bytes()));
            let mut ahead = VecDeque::new();
            if target.is_absolute() {
                let inside = target
                    .strip_prefix(root_real)
                    .map_err(|_| Failure::Outside)?;
                stack.truncate(1);
                push(&mut ahead, inside);
            } else {
                push(&mut ahead, &target);
            }
            ahead.extend(queue.drain(..));
            queue = ahead;
            continue;
        }
        if last {
            let real = real_of(&stack).join(&name);
            let (dir, _) = stack.pop().expect("the root stays");
            return Ok(Walked {
                dir,
                name,
                real,
                missing: vec![],
            });
        }
        if kind != FileType::Directory {
            // A file on the way: what follows cannot exist; creating it fails later with
            // ENOTDIR, as the kernel would have it (mkdir names the file).
            return missing_tail(stack, queue, name, root_real);
        }
        let fd = open_dir(top, &name)?;
        stack.push((fd, name));
    }
    // Nothing left: the path is a directory reached whole (the root, `a/..`).
    let real = real_of(&stack);
    let (dir, _) = stack.pop().expect("the root stays");
    Ok(Walked {
        dir,
        name: ".".into(),
        real,
        missing: vec![],
    })
}

/// The walk met a name that does not exist (or a file where a directory is needed): the rest
/// is created as written, `..` applied lexically, and the result is the deepest directory
/// that exists, with the names still to make.
fn missing_tail(
    mut stack: Vec<(OwnedFd, OsString)>,
    queue: VecDeque<OsString>,
    name: OsString,
    root_real: &Path,
) -> Result<Walked, Failure> {
    let mut missing = vec![name];
    for n in queue {
        if n == ".." {
            if missing.pop().is_none() {
                if stack.len() == 1 {
                    return Err(Failure::Outside);
                }
                stack.pop();
            }
        } else {
            missing.push(n);
        }
    }
    let mut real = root_real.to_path_buf();
    for (_, n) in &stack[1..] {
        real.push(n);
    }
    let (dir, _) = stack.pop().expect("the root stays");
    Ok(match missing.pop() {
        Some(name) => Walked {
            real: missing.iter().fold(real, |p, m| p.join(m)).join(&name),
            dir,
            name,
            missing,
        },
        None => Walked {
            real,
            dir,
            name: ".".into(),
            missing: vec![],
        },
    })
}

/// Queues `p`'s components (`.` dropped).
fn push(queue: &mut VecDeque<OsString>, p: &Path) {
    for c in p.components() {
        match c {
            Component::Normal(n) => queue.push_back(n.to_os_string()),
            Component::ParentDir => queue.push_back("..".into()),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
}

impl Walked {
    /// Creates the missing directories (mode 0777 & ~umask) and returns the handle of the
    /// directory that will hold `name`, with the real paths of the directories made.
    pub fn make_parents(&self) -> std::io::Result<(OwnedFd, Vec<PathBuf>)> {
        let mut dir = self.dir.try_clone()?;
        let mut made = vec![];
        let mut real = self.real.clone();
        for _ in 0..=self.missing.len() {
            real.pop();
        }
        for m in &self.missing {
            real.push(m);
            match rustix::fs::mkdirat(&dir, &**m, Mode::from_raw_mode(0o777)) {
                Ok(()) => made.push(real.clone()),
                Err(Errno::EXIST) => {}
                Err(e) => return Err(e.into()),
            }
            dir = open_dir(dir.as_fd(), m)?;
        }
        Ok((dir, made))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn at(base: &Path, p: &str, follow: bool) -> Result<Walked, Failure> {
        let root = open_root(base).unwrap();
        walk(root.as_fd(), base, Path::new(p), follow)
    }

    fn real(base: &Path, p: &str) -> PathBuf {
        at(base, p, true)
            .map(|w| w.real)
            .unwrap_or_else(|e| panic!("{p}: {e:?}"))
    }

    #[test]
    fn links_dotdot_and_missing_tails() {
        let t = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(t.path()).unwrap();
        std::fs::create_dir_all(base.join("a/b")).unwrap();
        std::fs::write(base.join("a/b/f"), "x").unwrap();
        symlink("a/b", base.join("rel")).unwrap();
        symlink(base.join("a"), base.join("abs")).unwrap();
        assert_eq!(real(&base, "rel/f"), base.join("a/b/f"));
        // `..` after a link is the target's parent, as the kernel has it
        assert_eq!(real(&base, "rel/../b/f"), base.join("a/b/f"));
        // an absolute link inside the root is followed from the root
        assert_eq!(real(&base, "abs/b/f"), base.join("a/b/f"));
        let w = at(&base, "a/new/deeper/x.txt", true).unwrap();
        assert_eq!(w.real, base.join("a/new/deeper/x.txt"));
        assert_eq!(w.missing, vec![OsString::from("new"), "deeper".into()]);
        assert_eq!(w.name, "x.txt");
        let (_, made) = w.make_parents().unwrap();
        assert_eq!(made, vec![base.join("a/new"), base.join("a/new/deeper")]);
        assert!(base.join("a/new/deeper").is_dir());
        // the root itself
        assert_eq!(real(&base, "a/.."), base);
        // the last link itself, not followed
        let w = at(&base, "rel", false).unwrap();
        assert_eq!(w.name, "rel");
    }

    #[test]
    fn escapes_are_refused() {
        let t = tempfile::tempdir().unwrap();
        let outer = std::fs::canonicalize(t.path()).unwrap();
        let base = outer.join("root");
        std::fs::create_dir(&base).unwrap();
        symlink("/etc", base.join("etc")).unwrap();
        symlink("../..", base.join("up")).unwrap();
        std::fs::create_dir(base.join("d")).unwrap();
        for p in [
            "..",
            "d/../../x",
            "etc/passwd",
            "up/x",
            "/etc/passwd",
            "new/../../x",
        ] {
            assert!(
                matches!(at(&base, p, true), Err(Failure::Outside)),
                "{p} escaped"
            );
        }
        symlink("loop2", base.join("loop1")).unwrap();
        symlink("loop1", base.join("loop2")).unwrap();
        assert!(matches!(at(&base, "loop1/x", true), Err(Failure::Io(_))));
    }
}
