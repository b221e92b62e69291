//! The one walker behind glob, grep and tree (SPEC 2.1, 16.3, 23.5).
//!
//! It selects what `rg --files --no-require-git -g '!.git'` selects: `.gitignore` with or
//! without a repository, `.ignore`, `.rgignore`, `.git/info/exclude`, the global git excludes,
//! and the ignore files of the base's parent directories (so a search started in a subdirectory
//! of a repository honours the repository's top-level `.gitignore`). The rules are ripgrep's own,
//! parsed by its `ignore` crate (`rules.rs`); the walk is ours, by directory handle
//! (`handles.rs`), because the crate's walker lists directories by path and a directory swapped
//! for a symlink mid-walk would lead it out of the root.
//!
//! Symlinks are never followed: the walk cannot leave the base (which the sandbox has put inside
//! the root) and cannot loop. Results are shown by the path the caller named (SPEC 16.1), so a
//! symlinked base still shows its own name.

mod handles;
mod rules;

pub use handles::{Entry, Kind};

use crate::context::Ctx;
use crate::control::Control;
use crate::error::{Code, Result, ToolError};
use crate::sandbox::{self, Resolved, beneath::Walked};
use ignore::overrides::Override;
use ignore::types::Types;
use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use std::borrow::Cow;
use std::ffi::OsStr;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::Mutex;

/// Decides whether a hidden name may be walked when `hidden` is off (glob's dot components).
pub type HiddenAllow = Arc<dyn Fn(&OsStr) -> bool + Send + Sync>;

#[derive(Default, Clone)]
pub struct Options {
    pub hidden: bool,
    pub no_ignore: bool,
    pub max_depth: Option<usize>,
    pub overrides: Option<Override>,
    pub types: Option<Types>,
    /// When set (and `hidden` is off), hidden names are walked only when this accepts them.
    pub hidden_allow: Option<HiddenAllow>,
}

/// The base of a walk: where it really is, its checked handle, and how its results are shown.
pub struct Base {
    pub real: PathBuf,
    pub shown: String,
    pub kind: Kind,
    /// The checked handle of the directory holding the base (`None` with `--no-sandbox`).
    at: Option<Arc<Walked>>,
    /// The state dir when it lies below the base: the walk never enters it (SPEC 23.6).
    pub skip: Option<PathBuf>,
    /// The catalog's denied paths: skipped silently, as if absent (SPEC 19.2).
    pub deny: Option<Arc<crate::sandbox::rules::Rules>>,
}

/// Resolves `path` (default the root) inside the sandbox and checks that it exists.
pub fn base(ctx: &Ctx, given: Option<&str>) -> Result<Base> {
    let Resolved { real, shown, at } = sandbox::resolve(ctx, "path", given.unwrap_or("."))?;
    let st = match &at {
        Some(w) => rustix::fs::statat(&w.dir, w.name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW),
        None => rustix::fs::stat(&real),
    }
    .map_err(|e| ToolError::io(&e.into(), &shown, "reading"))?;
    let kind = match FileType::from_raw_mode(st.st_mode) {
        FileType::Directory => Kind::Dir,
        FileType::RegularFile => Kind::File,
        FileType::Symlink => Kind::Symlink,
        _ => Kind::Other,
    };
    let skip = Some(ctx.state_real().to_path_buf()).filter(|s| s.starts_with(&real));
    Ok(Base {
        real,
        shown,
        kind,
        at,
        skip,
        deny: ctx.rules_shared(),
    })
}

impl Base {
    /// Refuses a base that is not a directory (glob, tree).
    pub fn require_dir(&self, tool: &str) -> Result<()> {
        if self.kind == Kind::Dir {
            return Ok(());
        }
        Err(ToolError::new(
            Code::NotADirectory,
            format!(
                "{} is a file, not a directory: {tool} walks a directory",
                self.shown
            ),
        )
        .with("path", self.shown.as_str())
        .hint(format!(
            "Give a directory as path (or omit it for the root); use read to see a file{}.",
            if tool == "tree" {
                ""
            } else {
                ", or grep to search one"
            }
        )))
    }

    /// Opens the base directory through its checked handle.
    fn open_dir(&self) -> std::io::Result<OwnedFd> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        Ok(match &self.at {
            Some(w) => rustix::fs::openat(&w.dir, w.name.as_os_str(), flags, Mode::empty())?,
            None => rustix::fs::open(&self.real, flags - OFlags::NOFOLLOW, Mode::empty())?,
        })
    }

    /// Opens the base as a file (grep of one file) through its checked handle, as the walk opens
    /// what it lists.
    pub fn open_file(&self) -> std::io::Result<std::fs::File> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let fd = match &self.at {
            Some(w) => rustix::fs::openat(&w.dir, w.name.as_os_str(), flags, Mode::empty())?,
            None => rustix::fs::open(&self.real, flags - OFlags::NOFOLLOW, Mode::empty())?,
        };
        let f = std::fs::File::from(fd);
        if !f.metadata()?.is_file() {
            return Err(std::io::Error::other(
                "not a regular file any more (a FIFO, socket or device)",
            ));
        }
        Ok(f)
    }

    /// The path of `p` (below the real base) relative to the base, as the sort key.
    pub fn rel<'a>(&self, p: &'a Path) -> &'a Path {
        p.strip_prefix(&self.real).unwrap_or(p)
    }

    /// `rel` as shown (SPEC 16.1). The flag says a name was not UTF-8 and was replaced.
    pub fn show(&self, rel: &Path) -> (String, bool) {
        show_below(&self.shown, rel)
    }
}

/// `rel`, a path below a base shown as `shown`, as shown (SPEC 16.1); the flag says a name was
/// not UTF-8 and was replaced. For results kept apart from their `Base`.
pub fn show_below(shown: &str, rel: &Path) -> (String, bool) {
    let (s, lossy) = match rel.to_string_lossy() {
        Cow::Borrowed(s) => (s.to_string(), false),
        Cow::Owned(s) => (s, true),
    };
    let shown = if s.is_empty() {
        shown.to_string()
    } else if shown == "." {
        s
    } else if shown.ends_with('/') {
        format!("{shown}{s}")
    } else {
        format!("{shown}/{s}")
    };
    (shown, lossy)
}

/// Problems met on the way (unreadable directories, bad ignore files, binary files cut short):
/// the walk goes on, as ripgrep's does, and the first few, in path order, become warnings.
#[derive(Default)]
pub struct Problems {
    inner: Mutex<Vec<String>>,
}

const MAX_WARNINGS: usize = 5;

impl Problems {
    pub fn add(&self, base: &Base, err: &ignore::Error) {
        self.add_text(describe(base, err));
    }

    pub fn add_text(&self, text: String) {
        self.inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(text);
    }

    /// Hands the problems to the context as warnings. They arrive in the walk's (racy) order;
    /// sorting makes the same tree give the same warnings.
    pub fn report(self, ctx: &Ctx) {
        let mut list = self.inner.into_inner().unwrap_or_else(|p| p.into_inner());
        list.sort_unstable();
        let n = list.len();
        for w in list.into_iter().take(MAX_WARNINGS) {
            ctx.warn(w);
        }
        if n > MAX_WARNINGS {
            ctx.warn(format!("… and {} more such problems", n - MAX_WARNINGS));
        }
    }
}

/// An ignore error with its paths shown relative to the base.
fn describe(base: &Base, err: &ignore::Error) -> String {
    use ignore::Error as E;
    match err {
        E::Partial(errs) => errs
            .iter()
            .map(|e| describe(base, e))
            .collect::<Vec<_>>()
            .join("; "),
        E::WithDepth { err, .. } => describe(base, err),
        E::WithLineNumber { line, err } => format!("line {line}: {}", describe(base, err)),
        E::WithPath { path, err } => {
            let shown = if path.starts_with(&base.real) {
                base.show(base.rel(path)).0
            } else {
                path.display().to_string()
            };
            format!("{shown}: {}", describe(base, err))
        }
        E::Io(e) => crate::error::io_cause(e),
        other => other.to_string(),
    }
}

/// Runs the walk below the base; `make` builds one visitor per thread. Errors go to `problems`.
/// The walk stops early when the call is cancelled, and counts the entries it has seen as
/// progress.
pub fn run_parallel<F>(
    base: &Base,
    o: &Options,
    problems: &Problems,
    control: &Control,
    make: impl Fn() -> F,
) where
    F: FnMut(&Entry) + Send,
{
    control.set_message_unit("entries walked");
    let fd = match base.open_dir() {
        Ok(fd) => fd,
        Err(e) => {
            problems.add_text(format!("{}: {}", base.shown, crate::error::io_cause(&e)));
            return;
        }
    };
    let honour = !o.no_ignore;
    let plan = handles::Plan {
        rules: rules::Shared::new(
            honour,
            o.hidden || o.hidden_allow.is_some(),
            o.overrides.clone(),
            o.types.clone(),
        ),
        max_depth: o.max_depth,
        skip: base.skip.as_deref(),
        deny: base.deny.as_deref(),
        hidden_allow: (!o.hidden).then(|| o.hidden_allow.clone()).flatten(),
    };
    handles::run(&plan, base, fd, problems, control, make);
}

/// Per-thread results, handed over in one lock when the thread's visitor is dropped.
pub struct Local<'a, T> {
    pub items: Vec<T>,
    into: &'a Mutex<Vec<T>>,
}

impl<'a, T> Local<'a, T> {
    pub fn new(into: &'a Mutex<Vec<T>>) -> Self {
        Local {
            items: Vec::new(),
            into,
        }
    }
}

impl<T> Drop for Local<'_, T> {
    fn drop(&mut self) {
        let mut all = self.into.lock().unwrap_or_else(|p| p.into_inner());
        all.append(&mut self.items);
    }
}

/// "By path" (SPEC 16.1): component-wise byte order, as `rg --sort path` (`a/b` before `a-c`).
/// For normal relative paths that is byte order with `/` below every other byte, which needs
/// no component parsing (std's `Path` order parses both paths at every comparison).
pub fn path_cmp(a: &Path, b: &Path) -> std::cmp::Ordering {
    let (a, b) = (
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    );
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let key = |s: &[u8]| {
        s.get(common)
            .map(|&c| if c == b'/' { 0 } else { u16::from(c) + 1 })
    };
    key(a).cmp(&key(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_order_is_component_wise_bytes() {
        // rg --sort path: `a/b` before `a-c` ('/' would sort after '-' as a plain byte), and
        // upper case before lower case.
        let mut v: Vec<PathBuf> = ["a-c", "a/b", "B", "a/a/z", "a.rs", "b"]
            .iter()
            .map(PathBuf::from)
            .collect();
        v.sort();
        let got: Vec<&str> = v.iter().map(|p| p.to_str().unwrap()).collect();
        assert_eq!(got, ["B", "a/a/z", "a/b", "a-c", "a.rs", "b"]);
    }

    #[test]
    fn the_fast_order_is_the_component_order() {
        let names = [
            "a", "a/b", "a-c", "a/b/c", "a.b/c", "ab", "a/", "B", "é/x", "e/x", "a/b-c", "a/b/",
            "a b",
        ];
        for x in names {
            for y in names {
                let (px, py) = (Path::new(x), Path::new(y));
                if x.ends_with('/') || y.ends_with('/') {
                    continue; // the walkers never produce a trailing slash
                }
                assert_eq!(path_cmp(px, py), px.cmp(py), "{x} vs {y}");
            }
        }
    }
}
