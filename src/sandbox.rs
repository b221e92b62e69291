//! Sandbox path resolution (SPEC §2.1).
//!
//! A path is resolved by real path, the way the kernel would walk it: each existing component is
//! looked at, a symlink is replaced by its target (relative targets against the link's directory),
//! and `..` is applied to what the walk has really reached, not to the text. Past the first
//! component that does not exist the rest is joined lexically (it will be created as written).
//! The result must lie under the root's real path; otherwise `outside_root`, before anything is
//! read or written.

use crate::context::Ctx;
use crate::error::{Code, Result, ToolError};
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

/// A path the sandbox has accepted.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// Where the bytes really are: every symlink resolved.
    pub real: PathBuf,
    /// The path for `output` and `data` (SPEC 16.1).
    pub shown: String,
}

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

/// Resolves a path given in input field `field`, enforcing the sandbox unless it is off.
pub fn resolve(ctx: &Ctx, field: &str, given: &str) -> Result<Resolved> {
    if given.contains('\0') {
        return Err(ToolError::invalid(
            field,
            format!("field `{field}` contains a NUL byte"),
        ));
    }
    if given.is_empty() {
        return Err(
            ToolError::invalid(field, format!("field `{field}` is empty"))
                .hint("Name a file, e.g. \"src/main.rs\"."),
        );
    }
    let joined = ctx.root.join(given);
    let real = real_path(&joined).map_err(|e| {
        ToolError::new(Code::IoError, format!("cannot resolve {given}: {e}")).with("path", given)
    })?;
    if ctx.sandbox && !real.starts_with(&ctx.root_real) {
        let shown = ctx.show(&joined, None);
        return Err(ToolError::new(
            Code::OutsideRoot,
            format!("{shown} is outside the sandbox root {}", ctx.root.display()),
        )
        .with("path", shown)
        .hint("Use a path inside the root (relative paths resolve against it), or run with --root set to a directory that contains it."));
    }
    Ok(Resolved {
        shown: ctx.show(&joined, Some(&real)),
        real,
    })
}

/// Resolves `given` to the directory entry it names, not to what a symlink there points at
/// (SPEC 24.2: delete and move act on the last component itself). The parent is resolved as
/// `resolve` does and must lie inside the root; the root itself is refused (`invalid_input`).
pub fn resolve_entry(ctx: &Ctx, field: &str, given: &str) -> Result<Resolved> {
    let path = Path::new(given);
    // The root named by any spelling (`.`, `sub/..`, its absolute path) is the root itself,
    // whatever its parent is.
    let lexical = crate::context::normalize_lexically(&ctx.root.join(path));
    if !given.is_empty() && (lexical == ctx.root || lexical == ctx.root_real) {
        return Err(root_refused(field, "."));
    }
    let last = path.components().next_back();
    let resolved = match (last, path.parent()) {
        (Some(Component::Normal(name)), Some(parent)) => {
            let parent = if parent.as_os_str().is_empty() {
                "."
            } else {
                parent.to_str().unwrap_or(".")
            };
            let dir = resolve(ctx, field, parent)?;
            if given.contains('\0') {
                return Err(ToolError::invalid(
                    field,
                    format!("field `{field}` contains a NUL byte"),
                ));
            }
            let joined = ctx.root.join(path);
            let real = dir.real.join(name);
            Resolved {
                shown: ctx.show(&joined, Some(&real)),
                real,
            }
        }
        // `.`, `..` or `/` last: the path names a directory reached through the walk itself,
        // so resolving it whole leaves no link at its end.
        _ => resolve(ctx, field, given)?,
    };
    if resolved.real == ctx.root_real {
        return Err(root_refused(field, &resolved.shown));
    }
    Ok(resolved)
}

fn root_refused(field: &str, shown: &str) -> ToolError {
    ToolError::invalid(
        field,
        format!("{shown} is the sandbox root itself, which this tool never moves or deletes"),
    )
    .hint("Name a file or directory inside the root.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn resolves_links_then_dotdot_like_the_kernel() {
        let t = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(t.path()).unwrap();
        std::fs::create_dir_all(base.join("a/b")).unwrap();
        symlink(base.join("a/b"), base.join("l")).unwrap();
        // l/.. is a (the link's target's parent), not base.
        assert_eq!(real_path(&base.join("l/..")).unwrap(), base.join("a"));
        // a missing tail joins lexically below the real prefix
        assert_eq!(
            real_path(&base.join("l/new/file")).unwrap(),
            base.join("a/b/new/file")
        );
        // relative link targets resolve against the link's directory
        symlink("a/b", base.join("rel")).unwrap();
        assert_eq!(real_path(&base.join("rel/x")).unwrap(), base.join("a/b/x"));
    }

    #[test]
    fn link_loops_stop() {
        let t = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(t.path()).unwrap();
        symlink(base.join("y"), base.join("x")).unwrap();
        symlink(base.join("x"), base.join("y")).unwrap();
        assert!(real_path(&base.join("x/z")).is_err());
    }

    #[test]
    fn dangling_link_resolves_to_its_target() {
        let t = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(t.path()).unwrap();
        symlink("/nonexistent-loopr/target", base.join("d")).unwrap();
        assert_eq!(
            real_path(&base.join("d")).unwrap(),
            PathBuf::from("/nonexistent-loopr/target")
        );
    }

    #[test]
    fn missing_then_dotdot_stays_lexical() {
        let t = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(t.path()).unwrap();
        assert_eq!(
            real_path(&base.join("nope/../../x")).unwrap(),
            base.parent().unwrap().join("x")
        );
    }
}
