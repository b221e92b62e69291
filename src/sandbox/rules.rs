//! The catalog's path rules (SPEC 19.2, 24.3): `paths.deny` (no tool reads, lists or writes
//! these) and `paths.read_only` (readable, never written by a tool). They live where paths are
//! resolved, so no tool can forget them: the resolver checks every resolved path, after
//! symlinks, and the walkers skip denied entries as if absent.
//!
//! Patterns use gitignore syntax relative to the root (a pattern without a slash matches at any
//! depth), matched by the same engine as `.gitignore` files.

use crate::catalog::PathRules;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use std::path::Path;

/// The compiled rules for one root.
pub struct Rules {
    deny: Gitignore,
    read_only: Gitignore,
}

/// Whether `pattern` is a pattern the rules accept (for `catalog --check`).
pub fn check_pattern(pattern: &str) -> Result<(), String> {
    GitignoreBuilder::new("/")
        .add_line(None, pattern)
        .map(|_| ())
        .map_err(|e| format!("`{pattern}` is not a valid pattern: {e}"))
}

fn compile(root: &Path, patterns: &[String]) -> Gitignore {
    let mut b = GitignoreBuilder::new(root);
    for p in patterns {
        // Checked when the catalog was read; a pattern refused here matches nothing.
        let _ = b.add_line(None, p);
    }
    b.build().unwrap_or_else(|_| Gitignore::empty())
}

/// What a rule says about one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Free,
    ReadOnly,
    Denied,
}

impl Rules {
    pub fn new(root_real: &Path, rules: &PathRules) -> Option<Rules> {
        if rules.deny.is_empty() && rules.read_only.is_empty() {
            return None;
        }
        Some(Rules {
            deny: compile(root_real, &rules.deny),
            read_only: compile(root_real, &rules.read_only),
        })
    }

    /// The verdict on `real` (a resolved path); a path outside the root is no rule's business.
    pub fn judge(&self, real: &Path, is_dir: bool) -> Verdict {
        let Ok(rel) = real.strip_prefix(self.deny.path()) else {
            return Verdict::Free;
        };
        if rel.as_os_str().is_empty() {
            return Verdict::Free;
        }
        if self
            .deny
            .matched_path_or_any_parents(rel, is_dir)
            .is_ignore()
        {
            Verdict::Denied
        } else if self
            .read_only
            .matched_path_or_any_parents(rel, is_dir)
            .is_ignore()
        {
            Verdict::ReadOnly
        } else {
            Verdict::Free
        }
    }
}
