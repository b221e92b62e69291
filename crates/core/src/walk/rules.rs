//! Which entries a walk selects: ripgrep's rules, applied by our own handle walker.
//!
//! ripgrep's walker (the `ignore` crate) lists directories by path, and a directory swapped for
//! a symlink between its listing and its opening leads the walk out of the root (SPEC 23.5). So
//! the walk is ours (`handles.rs`), and this module keeps ripgrep's selection exactly: the rule
//! files are parsed by the crate's own `Gitignore`, and their precedence is the crate's own
//! (`ignore` 0.4.34, `dir.rs` `matched` / `matched_ignore`) for the options the walkers use —
//! `require_git(false)` (so every `.gitignore` from the base's ancestors down counts, and no
//! repository boundary stops them), parents on, `.rgignore` as the custom ignore file:
//!
//! 1. an override glob (grep's `glob`) that matches decides;
//! 2. the nearest `.rgignore` rule, else the nearest `.ignore`, else the nearest `.gitignore`,
//!    else `.git/info/exclude`, else the global excludes; an ignore rule excludes, a `!` rule
//!    whitelists;
//! 3. a file type (grep's `type`) that excludes decides, one that includes whitelists;
//! 4. a hidden name nothing whitelisted is skipped (unless `hidden`).
//!
//! Rule files are read through the directory handle being walked (`O_NONBLOCK`, regular files
//! only: a FIFO named `.gitignore` never blocks the walk); those of the base's ancestors, which
//! lie above the walk, are read by path as ripgrep reads them.

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::overrides::Override;
use ignore::types::Types;
use rustix::fs::{Mode, OFlags};
use std::ffi::OsStr;
use std::io::{BufRead, Read};
use std::os::fd::BorrowedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What every directory of one walk shares.
pub struct Shared {
    pub honour: bool,
    pub hidden: bool,
    pub overrides: Option<Override>,
    pub types: Option<Types>,
    global: Gitignore,
}

/// The rule files of one directory, linked to its parent's. Directories without rule files
/// share their parent's level.
pub struct Level {
    parent: Option<Arc<Level>>,
    custom: Gitignore,
    ignore: Gitignore,
    git: Gitignore,
    exclude: Gitignore,
}

/// The names in a directory that bring rules.
#[derive(Default)]
pub struct Found {
    pub rgignore: bool,
    pub ignore: bool,
    pub gitignore: bool,
    /// `.git` is there: `Some(true)` a directory, `Some(false)` a file (a worktree's pointer).
    pub git: Option<bool>,
}

impl Found {
    /// Notes `name` (with whether it is a directory, when known).
    pub fn note(&mut self, name: &OsStr, is_dir: impl FnOnce() -> bool) {
        match name.as_encoded_bytes() {
            b".rgignore" => self.rgignore = true,
            b".ignore" => self.ignore = true,
            b".gitignore" => self.gitignore = true,
            b".git" => self.git = Some(is_dir()),
            _ => {}
        }
    }

    fn any(&self) -> bool {
        self.rgignore || self.ignore || self.gitignore || self.git.is_some()
    }
}

/// Problems with rule files are the `ignore` crate's errors, so they read as ripgrep's do.
pub type Errors = Vec<ignore::Error>;

impl Shared {
    pub fn new(
        honour: bool,
        hidden: bool,
        overrides: Option<Override>,
        types: Option<Types>,
    ) -> Shared {
        let global = if honour {
            // As the crate: the global excludes, rooted at the working directory.
            let cwd = std::env::current_dir().unwrap_or_default();
            GitignoreBuilder::new(cwd).build_global().0
        } else {
            Gitignore::empty()
        };
        Shared {
            honour,
            hidden,
            overrides,
            types,
            global,
        }
    }

    /// The levels of the base's ancestors, from `/` down to the base's parent (read by path).
    pub fn ancestors(&self, base: &Path, errors: &mut Errors) -> Option<Arc<Level>> {
        if !self.honour {
            return None;
        }
        let mut chain: Vec<&Path> = base.ancestors().skip(1).collect();
        chain.reverse();
        let mut level = None;
        for dir in chain {
            let mut found = Found::default();
            for name in [".rgignore", ".ignore", ".gitignore", ".git"] {
                if let Ok(m) = std::fs::symlink_metadata(dir.join(name)) {
                    found.note(OsStr::new(name), || m.is_dir());
                }
            }
            level = self.child(level, dir, None, &found, errors);
        }
        level
    }

    /// The level of directory `dir` (its real path; `fd` its handle, `None` to read by path),
    /// whose entries included `found`.
    pub fn child(
        &self,
        parent: Option<Arc<Level>>,
        dir: &Path,
        fd: Option<BorrowedFd<'_>>,
        found: &Found,
        errors: &mut Errors,
    ) -> Option<Arc<Level>> {
        if !self.honour || !found.any() {
            return parent;
        }
        let file = |name: &str, on: bool, errors: &mut Errors| {
            if on {
                rule_file(dir, &dir.join(name), read_rules(fd, dir, name), errors)
            } else {
                Gitignore::empty()
            }
        };
        let custom = file(".rgignore", found.rgignore, errors);
        let ignore = file(".ignore", found.ignore, errors);
        let git = file(".gitignore", found.gitignore, errors);
        let exclude = match found.git {
            Some(is_dir) => match git_common_dir(dir, is_dir) {
                Some(common) => {
                    let path = common.join("info/exclude");
                    let bytes = read_path(&path);
                    rule_file(dir, &path, bytes, errors)
                }
                None => Gitignore::empty(),
            },
            None => Gitignore::empty(),
        };
        if custom.is_empty() && ignore.is_empty() && git.is_empty() && exclude.is_empty() {
            return parent;
        }
        Some(Arc::new(Level {
            parent,
            custom,
            ignore,
            git,
            exclude,
        }))
    }

    /// Whether the entry at `path` (absolute, the walk's real path) is left out. `level` holds
    /// the rules of the directory it is in.
    pub fn skips(&self, level: Option<&Arc<Level>>, path: &Path, is_dir: bool) -> bool {
        if let Some(ov) = &self.overrides {
            match ov.matched(path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
                Match::None => {}
            }
        }
        let mut whitelisted = false;
        if self.honour {
            match self.matched_rules(level, path, is_dir) {
                Match::Ignore(()) => return true,
                Match::Whitelist(()) => whitelisted = true,
                Match::None => {}
            }
        }
        if let Some(types) = &self.types {
            match types.matched(path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => whitelisted = true,
                Match::None => {}
            }
        }
        !whitelisted && !self.hidden && is_hidden(path)
    }

    fn matched_rules(&self, level: Option<&Arc<Level>>, path: &Path, is_dir: bool) -> Match<()> {
        let (mut custom, mut ignore, mut git, mut exclude) =
            (Match::None, Match::None, Match::None, Match::None);
        let mut cur = level;
        while let Some(l) = cur {
            if custom.is_none() {
                custom = l.custom.matched(path, is_dir).map(|_| ());
            }
            if ignore.is_none() {
                ignore = l.ignore.matched(path, is_dir).map(|_| ());
            }
            if git.is_none() {
                git = l.git.matched(path, is_dir).map(|_| ());
            }
            if exclude.is_none() {
                exclude = l.exclude.matched(path, is_dir).map(|_| ());
            }
            cur = l.parent.as_ref();
        }
        custom
            .or(ignore)
            .or(git)
            .or(exclude)
            .or(self.global.matched(path, is_dir).map(|_| ()))
    }
}

fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.as_encoded_bytes().first() == Some(&b'.'))
}

/// Parses one rule file's bytes as the crate's `GitignoreBuilder::add` does (a BOM dropped,
/// lines split as `BufRead::lines` splits them, an invalid line reported with its number).
fn rule_file(dir: &Path, path: &Path, bytes: Option<Vec<u8>>, errors: &mut Errors) -> Gitignore {
    let Some(bytes) = bytes else {
        return Gitignore::empty();
    };
    let mut b = GitignoreBuilder::new(dir);
    for (i, line) in bytes.lines().enumerate() {
        let lineno = (i + 1) as u64;
        let tag = |err: ignore::Error| ignore::Error::WithPath {
            path: path.to_path_buf(),
            err: Box::new(ignore::Error::WithLineNumber {
                line: lineno,
                err: Box::new(err),
            }),
        };
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                errors.push(tag(ignore::Error::Io(e)));
                break;
            }
        };
        let line = if i == 0 {
            line.trim_start_matches('\u{feff}')
        } else {
            &line
        };
        if let Err(e) = b.add_line(Some(path.to_path_buf()), line) {
            errors.push(tag(e));
        }
    }
    b.build().unwrap_or_else(|e| {
        errors.push(e);
        Gitignore::empty()
    })
}

/// A rule file of the directory being walked, read through its handle; `None` when it cannot be
/// read (the crate ignores such I/O errors too).
fn read_rules(fd: Option<BorrowedFd<'_>>, dir: &Path, name: &str) -> Option<Vec<u8>> {
    let Some(fd) = fd else {
        return read_path(&dir.join(name));
    };
    let f = rustix::fs::openat(
        fd,
        name,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .ok()?;
    read_regular(std::fs::File::from(f))
}

fn read_path(path: &Path) -> Option<Vec<u8>> {
    let f = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .ok()?;
    read_regular(std::fs::File::from(f))
}

/// Rule files are small: a larger one is read up to this, as a safety bound.
const MAX_RULE_FILE: u64 = 64 << 20;

fn read_regular(f: std::fs::File) -> Option<Vec<u8>> {
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    (&f).take(MAX_RULE_FILE).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// Where `.git/info/exclude` lives: `.git` itself, or for a worktree (`.git` a file saying
/// `gitdir: X`) the common dir that `X/commondir` names — the crate's `resolve_git_commondir`.
fn git_common_dir(dir: &Path, is_dir: bool) -> Option<PathBuf> {
    let dot_git = dir.join(".git");
    if is_dir {
        return Some(dot_git);
    }
    let first = |p: &Path| -> Option<String> {
        let bytes = read_path(p)?;
        bytes.lines().next()?.ok()
    };
    let line = first(&dot_git)?;
    let real_git_dir = PathBuf::from(line.strip_prefix("gitdir: ")?);
    let common = first(&real_git_dir.join("commondir"))?;
    Some(if common.starts_with('.') {
        real_git_dir.join(common)
    } else {
        PathBuf::from(common)
    })
}
