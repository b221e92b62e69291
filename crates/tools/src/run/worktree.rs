//! A linked git worktree under `workspace-write` (SPEC 25.7): git keeps a worktree's index,
//! HEAD and reflog in the repository's `worktrees/NAME` and its objects and refs in the
//! repository's common dir, both outside the root, so a commit needs them writable. The common
//! dir's top (`config`, `hooks`, `info`, `packed-refs`) stays read-only: a command must not plant
//! a hook or a config that runs later outside the sandbox.
//!
//! Found by reading `.git` (a file `gitdir: X` in a linked worktree, and `X/commondir`), never
//! by running git: the command is not trusted yet and git would read the repository's config.

use std::path::{Path, PathBuf};

/// The directories a command in a linked worktree at (or above) `root` needs writable to
/// commit, as real paths that exist; empty outside a linked worktree.
pub fn writable(root: &Path) -> Vec<PathBuf> {
    let Some(crate::hub::GitDirs {
        admin: Some(admin),
        common,
    }) = crate::hub::git_dirs(root)
    else {
        return vec![];
    };
    if admin == common {
        // A submodule's gitdir, not a linked worktree.
        return vec![];
    }
    ["objects", "refs", "logs"]
        .iter()
        .map(|d| common.join(d))
        .chain(std::iter::once(admin))
        .filter_map(|d| std::fs::canonicalize(d).ok())
        .filter(|d| d.is_dir())
        .collect()
}

/// Where a failed command's output says a write was refused on a path outside `writable`: the
/// first such path (absolute), for a warning that names it.
pub fn refused_path(output: &str, cwd: &Path, writable: &[PathBuf]) -> Option<PathBuf> {
    const REFUSALS: [&str; 3] = [
        "Permission denied",
        "Operation not permitted",
        "Read-only file system",
    ];
    output
        .lines()
        .filter_map(|l| {
            let at = REFUSALS.iter().filter_map(|r| l.find(r)).min()?;
            named_path(&l[..at])
        })
        .map(|t| cwd.join(t))
        .find(|p| !writable.iter().any(|w| real_or_parent(p).starts_with(w)))
}

/// The path an error line names just before its reason: the last word with a `/` in the last
/// `: `-separated part that has one (`bash: line 1: /a/b: Permission denied`, `error: could
/// not lock config file /a/config: Permission denied`, `Unable to create '/a/x.lock': …`).
fn named_path(before: &str) -> Option<&str> {
    before
        .rsplit(": ")
        .find_map(|part| {
            part.split_whitespace()
                .map(|w| w.trim_matches(|c| "'\"`,;():".contains(c)))
                .rev()
                .find(|w| w.contains('/') && !w.contains("://"))
        })
        .filter(|w| !w.is_empty())
}

/// `p` with symlinks resolved as far as it exists (a refused write often names a missing file).
fn real_or_parent(p: &Path) -> PathBuf {
    p.ancestors()
        .find_map(|a| {
            let real = std::fs::canonicalize(a).ok()?;
            Some(real.join(p.strip_prefix(a).ok()?))
        })
        .unwrap_or_else(|| p.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_the_path_outside_the_writable_dirs() {
        let w = vec![PathBuf::from("/")];
        assert_eq!(
            refused_path(
                "sh: 1: cannot create /x/y: Permission denied\n",
                Path::new("/"),
                &w
            ),
            None
        );
        let w = vec![PathBuf::from("/nonexistent-root")];
        let out = "/usr/bin/bash: line 1: /nonexistent-repo/.git/hooks/x: Permission denied\n";
        assert_eq!(
            refused_path(out, Path::new("/"), &w),
            Some(PathBuf::from("/nonexistent-repo/.git/hooks/x"))
        );
        let out =
            "error: Unable to create '/nonexistent-repo/.git/packed-refs.lock': Permission denied";
        assert_eq!(
            refused_path(out, Path::new("/"), &w),
            Some(PathBuf::from("/nonexistent-repo/.git/packed-refs.lock"))
        );
        let out =
            "error: could not lock config file /nonexistent-repo/.git/config: Permission denied\n";
        assert_eq!(
            refused_path(out, Path::new("/"), &w),
            Some(PathBuf::from("/nonexistent-repo/.git/config"))
        );
        assert_eq!(
            refused_path("fatal: no such file /a/b\n", Path::new("/"), &w),
            None
        );
    }
}
