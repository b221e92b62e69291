//! Sandbox path resolution (SPEC §2.1).
//!
//! A path is resolved by real path, the way the kernel would walk it: each existing component is
//! looked at, a symlink is replaced by its target (relative targets against the link's directory),
//! and `..` is applied to what the walk has really reached, not to the text. Past the first
//! component that does not exist the rest is joined lexically (it will be created as written).
//! The result must lie under the root's real path; otherwise `outside_root`, before anything is
//! read or written.

pub mod beneath;
pub mod carried;
pub mod real;
pub mod rules;

pub use real::real_path;

use crate::context::Ctx;
use crate::error::{Code, Result, ToolError};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A path the sandbox has accepted.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// Where the bytes really are: every symlink resolved.
    pub real: PathBuf,
    /// The path for `output` and `data` (SPEC 16.1).
    pub shown: String,
    /// The checked handle of the directory holding it, and its name there (SPEC 23.5): the
    /// file is opened, created, renamed and removed through it. `None` with `--no-sandbox`.
    pub at: Option<Arc<beneath::Walked>>,
}

/// Resolves a path given in input field `field`, enforcing the sandbox unless it is off. A link
/// as the last component is followed (the file it leads to is what is read or written).
pub fn resolve(ctx: &Ctx, field: &str, given: &str) -> Result<Resolved> {
    resolve_with(ctx, field, given, true)
}

fn resolve_with(ctx: &Ctx, field: &str, given: &str, follow_last: bool) -> Result<Resolved> {
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
    let outside = || {
        let shown = ctx.show(&joined, None);
        ToolError::new(
            Code::OutsideRoot,
            format!("{shown} is outside the sandbox root {}", ctx.root.display()),
        )
        .with("path", shown)
        .hint("Use a path inside the root (relative paths resolve against it), or run with --root set to a directory that contains it.")
    };
    let cannot = |e: &dyn std::fmt::Display| {
        ToolError::new(Code::IoError, format!("cannot resolve {given}: {e}")).with("path", given)
    };
    let (real, at) = if ctx.sandbox {
        // An absolute path names the root by its given or its real path.
        let rel = match Path::new(given) {
            p if p.is_absolute() => p
                .strip_prefix(&ctx.root)
                .or_else(|_| p.strip_prefix(&ctx.root_real))
                .map_err(|_| outside())?,
            p => p,
        };
        let root = ctx.root_handle().map_err(|e| cannot(&e))?;
        match beneath::walk(root, &ctx.root_real, rel, follow_last) {
            Ok(w) => (w.real.clone(), Some(Arc::new(w))),
            Err(beneath::Failure::Outside) => return Err(outside()),
            Err(beneath::Failure::Io(e)) => return Err(cannot(&e)),
        }
    } else {
        let real = if follow_last {
            real_path(&joined)
        } else {
            match (joined.parent(), joined.file_name()) {
                (Some(dir), Some(name)) => real_path(dir).map(|d| d.join(name)),
                _ => real_path(&joined),
            }
        };
        (real.map_err(|e| cannot(&e))?, None)
    };
    let shown = ctx.show(&joined, Some(&real));
    deny_state(ctx, field, &real, &shown)?;
    apply_rules(ctx, field, &real, &shown)?;
    Ok(Resolved { shown, real, at })
}

/// The catalog's `paths` rules (SPEC 19.2), on the resolved path, after symlinks: a denied path
/// is `path_denied` for every tool; a read-only one for every call that changes files.
fn apply_rules(ctx: &Ctx, field: &str, real: &Path, shown: &str) -> Result<()> {
    let Some(rules) = ctx.rules() else {
        return Ok(());
    };
    let is_dir = std::fs::metadata(real).is_ok_and(|m| m.is_dir());
    let why = match rules.judge(real, is_dir) {
        rules::Verdict::Free => return Ok(()),
        rules::Verdict::ReadOnly if !ctx.call.changes_files => return Ok(()),
        rules::Verdict::ReadOnly => {
            "is read-only under the catalog's paths.read_only: tools may read it, never change it"
        }
        rules::Verdict::Denied => {
            "is denied by the catalog's paths.deny: no tool reads, lists or changes it"
        }
    };
    let mut err = ToolError::new(Code::PathDenied, format!("{shown} {why}"))
        .with("path", shown)
        .with("field", field)
        .hint("Work on other paths; the catalog decides which paths tools may touch.");
    if real.to_string_lossy() != ctx.root_real.join(shown).to_string_lossy() {
        // Reached through a link: say where it leads, so the refusal is not a riddle.
        err = err.with("resolved", ctx.show(real, Some(real)));
    }
    Err(err)
}

/// The state dir holds the journal, read records and job records: a tool that could write
/// there could forge them (SPEC 23.6), also when the state dir is inside the root.
fn deny_state(ctx: &Ctx, field: &str, real: &Path, shown: &str) -> Result<()> {
    if real.starts_with(ctx.state_real()) {
        return Err(ToolError::new(
            Code::PathDenied,
            format!("{shown} is inside loopr-tool's state directory, which no tool may touch"),
        )
        .with("path", shown)
        .with("field", field)
        .hint(
            "The state directory holds the session's records; use session or undo to act on it.",
        ));
    }
    Ok(())
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
    // The last component itself: a link there is what is moved or deleted.
    let resolved = resolve_with(ctx, field, given, false)?;
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
