//! Where loops meet (SPEC 25.1): inboxes, queries and their replies, completions and artifacts
//! live in a hub; reads, todos, jobs and the undo journal stay with the root and session.
//!
//! Seeds 000 and 001 run each loop in its own git worktree. Keyed by the root, as before, two
//! worktrees of one repository never met; so by default every root of one repository shares
//! one hub, found from `.git` without starting git (a `git rev-parse` costs 1–2 ms and a
//! process; reading `.git` and `commondir` costs two small reads). Outside git the root is the
//! hub, exactly the layout of before, so existing sessions keep their inboxes.

use crate::context::Ctx;
use crate::error::{Result, ToolError};
use std::path::{Path, PathBuf};

/// Where this call's loops meet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hub {
    /// Outside git: the root's own state directory.
    Root { root: PathBuf, dir: PathBuf },
    /// Every worktree of the repository whose common git directory this is.
    Repository { common: PathBuf, dir: PathBuf },
    /// Every root that names it (`--hub NAME`).
    Name { name: String, dir: PathBuf },
    /// A Redis server (25.2).
    Redis(RedisUrl),
}

/// A Redis hub's address: `url` as given (it may carry a password) and `shown`, the same
/// without user and password — the only form that is ever printed.
#[derive(Clone, PartialEq, Eq)]
pub struct RedisUrl {
    pub url: String,
    pub shown: String,
}

impl std::fmt::Debug for RedisUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the password, even in a debug print.
        write!(f, "RedisUrl({})", self.shown)
    }
}

impl Hub {
    /// `repository`, `root`, `name` or `redis`, as `session show` says it.
    pub fn kind(&self) -> &'static str {
        match self {
            Hub::Root { .. } => "root",
            Hub::Repository { .. } => "repository",
            Hub::Name { .. } => "name",
            Hub::Redis(_) => "redis",
        }
    }

    /// What identifies it: the root, the common git directory, the name, or the URL without
    /// its credentials.
    pub fn id(&self) -> String {
        match self {
            Hub::Root { root, .. } => root.display().to_string(),
            Hub::Repository { common, .. } => common.display().to_string(),
            Hub::Name { name, .. } => name.clone(),
            Hub::Redis(r) => r.shown.clone(),
        }
    }

    /// The directory a file hub keeps its sessions in; None for Redis.
    pub fn dir(&self) -> Option<&Path> {
        match self {
            Hub::Root { dir, .. } | Hub::Repository { dir, .. } | Hub::Name { dir, .. } => {
                Some(dir)
            }
            Hub::Redis(_) => None,
        }
    }
}

/// What a `--hub` value names, before the state dir is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    Name(String),
    Redis(RedisUrl),
}

/// Reads a hub value (`--hub`, `LOOPR_HUB`, `[loops] hub`); the error says what a hub may be.
pub fn parse(value: &str) -> std::result::Result<Choice, String> {
    if value.starts_with("redis://") || value.starts_with("rediss://") {
        return redis_url(value).map(Choice::Redis);
    }
    let name_ok = (1..=64).contains(&value.len())
        && value != "."
        && value != ".."
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if name_ok {
        return Ok(Choice::Name(value.to_string()));
    }
    Err(format!(
        "{:?} is not a hub: give a name (1 to 64 of [A-Za-z0-9._-], not . or ..) or a redis:// or rediss:// URL",
        shown_value(value)
    ))
}

/// A value as an error may show it: a URL-looking value loses everything before its last `@`
/// in the authority (it may be a password).
fn shown_value(value: &str) -> String {
    match value.split_once("://") {
        Some((scheme, rest)) => {
            let end = rest.find('/').unwrap_or(rest.len());
            match rest[..end].rfind('@') {
                Some(at) => format!("{scheme}://{}", &rest[at + 1..]),
                None => value.to_string(),
            }
        }
        None => value.to_string(),
    }
}

fn redis_url(value: &str) -> std::result::Result<RedisUrl, String> {
    let shown = shown_value(value);
    let (scheme, rest) = value.split_once("://").expect("checked by the caller");
    let end = rest.find('/').unwrap_or(rest.len());
    let host_port = match rest[..end].rfind('@') {
        Some(at) => &rest[at + 1..end],
        None => &rest[..end],
    };
    if host_port.is_empty() {
        return Err(format!(
            "{shown:?} names no host: use {scheme}://HOST[:PORT][/DB]"
        ));
    }
    let db = rest[end..].trim_start_matches('/');
    if !db.is_empty() && db.parse::<u32>().is_err() {
        return Err(format!(
            "{shown:?}: the database after the host must be a number, not {db:?}"
        ));
    }
    Ok(RedisUrl {
        url: value.to_string(),
        shown,
    })
}

/// Finds this call's hub: `--hub` / `LOOPR_HUB` (given to the context), else the catalog's
/// `[loops] hub`, else the repository, else the root.
pub fn locate(ctx: &Ctx) -> Result<Hub> {
    let given = ctx.hub.as_deref().map(|v| (v, "hub")).or_else(|| {
        ctx.policy
            .catalog
            .loops
            .hub
            .as_deref()
            .map(|v| (v, "[loops] hub"))
    });
    if let Some((value, from)) = given {
        return match parse(value) {
            Ok(Choice::Name(name)) => Ok(Hub::Name {
                dir: ctx.state_dir.join("hubs").join(format!("name-{name}")),
                name,
            }),
            Ok(Choice::Redis(url)) => Ok(Hub::Redis(url)),
            Err(e) => Err(ToolError::usage(format!("{from}: {e}"))
                .with("field", from)
                .hint("Pass --hub NAME (or LOOPR_HUB), or a redis:// URL.")),
        };
    }
    Ok(match common_dir(&ctx.root_real) {
        Some(common) => {
            let base: String = common
                .parent()
                .and_then(Path::file_name)
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "repo".into())
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .take(48)
                .collect();
            let hash = xxhash_rust::xxh3::xxh3_64(common.as_os_str().as_encoded_bytes());
            Hub::Repository {
                dir: ctx
                    .state_dir
                    .join("hubs")
                    .join(format!("repo-{base}-{hash:016x}")),
                common,
            }
        }
        None => Hub::Root {
            root: ctx.root_real.clone(),
            dir: crate::state::root_dir(ctx),
        },
    })
}

/// The common git directory of the repository holding `dir` (as `git rev-parse
/// --git-common-dir` gives it, made absolute and real), found by reading `.git` upward: a
/// directory is the common dir itself; a file `gitdir: X` names the worktree's git dir, whose
/// `commondir` file (if any) names the common one relative to it.
pub fn common_dir(dir: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(git_dirs(dir)?.common).ok()
}

/// Where git keeps a checkout's data, as `.git` names it.
pub struct GitDirs {
    /// A linked worktree's own admin directory (`<common>/worktrees/NAME`); None in the main
    /// checkout.
    pub admin: Option<PathBuf>,
    /// The repository's common directory (objects, refs, config), not made real.
    pub common: PathBuf,
}

/// The git directories of the checkout holding `dir`: the nearest `.git` above it, a directory
/// (the main checkout) or a file `gitdir: X` (a linked worktree, whose `X/commondir` names the
/// common dir). Read from the files, never by running git (its config is not trusted here).
pub fn git_dirs(dir: &Path) -> Option<GitDirs> {
    let at = dir
        .ancestors()
        .find(|a| std::fs::metadata(a.join(".git")).is_ok())?;
    let dot = at.join(".git");
    if std::fs::metadata(&dot).ok()?.is_dir() {
        return Some(GitDirs {
            admin: None,
            common: dot,
        });
    }
    // A relative gitdir is relative to the directory holding `.git`.
    let admin = at.join(first_line(&dot)?.strip_prefix("gitdir:")?.trim());
    let common = match first_line(&admin.join("commondir")) {
        Some(c) => admin.join(c),
        None => admin.clone(),
    };
    Some(GitDirs {
        admin: Some(admin),
        common,
    })
}

/// A small file's first line, trimmed; None for an empty or unreadable one (at most 4 KiB read).
fn first_line(p: &Path) -> Option<String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(p)
        .ok()?
        .take(4096)
        .read_to_string(&mut text)
        .ok()?;
    let line = text.lines().next()?.trim();
    (!line.is_empty()).then(|| line.to_string())
}

/// A hub session's directory in a file hub.
pub fn session_dir(hub_dir: &Path, session: &str) -> PathBuf {
    hub_dir.join(session)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hub_value_is_a_name_or_a_redis_url_and_errors_never_show_a_password() {
        assert_eq!(parse("team-1"), Ok(Choice::Name("team-1".into())));
        let Ok(Choice::Redis(r)) = parse("redis://u:s3cret@h:6379/2") else {
            panic!()
        };
        assert_eq!(r.shown, "redis://h:6379/2");
        assert!(!format!("{r:?}").contains("s3cret"));
        for bad in ["..", "a/b", "", "x y", "redis://", "redis://u:s3cret@/x"] {
            let e = parse(bad).unwrap_err();
            assert!(!e.contains("s3cret"), "{e}");
        }
        assert!(parse("redis://h/notanumber").is_err());
        assert!(parse(&"n".repeat(65)).is_err());
    }

    #[test]
    fn a_linked_worktree_and_its_main_checkout_find_one_common_dir() {
        let tmp = tempfile::tempdir().unwrap();
        let main = tmp.path().join("proj");
        std::fs::create_dir_all(main.join(".git/worktrees/wt")).unwrap();
        std::fs::create_dir_all(main.join("src")).unwrap();
        let wt = tmp.path().join("wt");
        std::fs::create_dir_all(wt.join("deep")).unwrap();
        std::fs::write(
            wt.join(".git"),
            format!("gitdir: {}\n", main.join(".git/worktrees/wt").display()),
        )
        .unwrap();
        std::fs::write(main.join(".git/worktrees/wt/commondir"), "../..\n").unwrap();
        let want = std::fs::canonicalize(main.join(".git")).unwrap();
        assert_eq!(common_dir(&main.join("src")), Some(want.clone()));
        assert_eq!(common_dir(&wt.join("deep")), Some(want));
        assert_eq!(common_dir(tmp.path()), None);
    }
}
