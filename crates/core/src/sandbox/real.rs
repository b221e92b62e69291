//! Real paths, resolved the way the kernel walks them (the rules are in the sandbox's module
//! docs). Apart from `Ctx`, so the context can resolve its own root with it.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Linux's own limit on symlinks in one resolution (ELOOP).
const MAX_LINKS: usize = 40;

/// Resolves `path` the way `open(2)` would, also for a path whose tail does not exist yet.
pub fn real_path(path: &Path) -> io::Result<PathBuf> {
    debug_assert!(path.is_absolute());
    let mut rest: VecDeque<OsString> = VecDeque::new();
    let mut cur = PathBuf::from("/");
    push_components(&mut rest, &mut cur, path);
    let mut links = 0;
    let mut missing = false;
    while let Some(name) = rest.pop_front() {
        if name == ".." {
            cur.pop();
            continue;
        }
        let next = cur.join(&name);
        if missing {
            cur = next;
            continue;
        }
        match std::fs::symlink_metadata(&next) {
            Ok(m) if m.file_type().is_symlink() => {
                links += 1;
                if links > MAX_LINKS {
                    return Err(io::Error::other("too many levels of symbolic links"));
                }
                let target = std::fs::read_link(&next)?;
                let mut queued: VecDeque<OsString> = VecDeque::new();
                push_components(&mut queued, &mut cur, &target);
                queued.extend(rest.drain(..));
                rest = queued;
            }
            Ok(_) => cur = next,
            Err(e)
                if e.kind() == io::ErrorKind::NotFound
                    || e.kind() == io::ErrorKind::NotADirectory =>
            {
                missing = true;
                cur = next;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(cur)
}

/// Queues `p`'s components; an absolute `p` restarts the walk at `/`.
fn push_components(queue: &mut VecDeque<OsString>, cur: &mut PathBuf, p: &Path) {
    for c in p.components() {
        match c {
            Component::RootDir => {
                *cur = PathBuf::from("/");
                queue.clear();
            }
            Component::CurDir | Component::Prefix(_) => {}
            Component::ParentDir => queue.push_back(OsString::from("..")),
            Component::Normal(n) => queue.push_back(n.to_os_string()),
        }
    }
}
