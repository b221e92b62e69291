//! `glob` (SPEC §8, 16.3): files whose path under the base matches a glob, newest first.

use crate::caps;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::tool::{Hints, Tool};
use crate::walk::{self, Options, Problems};
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

pub struct Glob;

#[derive(Debug, Deserialize, JsonSchema, Clone, Copy, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
// No doc comments on the variants: schemars would emit `oneOf` consts, and a plain `enum` is
// what models (and main's schema normaliser) read best.
pub enum Sort {
    #[default]
    Mtime,
    Path,
    Oldest,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// The glob, relative to `path`: `*` `?` `[...]` `{a,b}` `**`; `*` stops at `/`. A pattern
    /// without `/` matches at any depth (`*.rs` finds every Rust file).
    pub pattern: String,
    /// The directory to search in (default: the root).
    #[serde(alias = "file_path", alias = "dir_path")]
    pub path: Option<String>,
    /// How many paths to return (at most 100000); `count` still counts every match.
    #[schemars(range(min = 1, max = 100_000), extend("default" = 100))]
    pub limit: Option<u64>,
    /// `mtime`: newest modification first (ties by path); `path`: by path; `oldest`: oldest
    /// modification first (ripgrep's --sort=modified, Claude Code's Glob).
    #[schemars(extend("default" = "mtime"))]
    pub sort: Option<Sort>,
    /// Match case-sensitively (Gemini CLI's field); false matches `*.RS` to `a.rs`.
    #[schemars(extend("default" = true))]
    pub case_sensitive: Option<bool>,
    /// Also match hidden files and directories.
    #[schemars(extend("default" = false))]
    pub hidden: Option<bool>,
    /// Do not honour .gitignore, .ignore and .rgignore files.
    #[schemars(extend("default" = false))]
    pub no_ignore: Option<bool>,
    /// Honour .gitignore, .ignore and .rgignore (Gemini CLI's field: the opposite of
    /// `no_ignore`).
    #[schemars(extend("default" = true))]
    pub respect_git_ignore: Option<bool>,
}

pub const DEFAULT_LIMIT: u64 = 100;

impl Tool for Glob {
    type Input = Input;
    const NAME: &'static str = "glob";
    const SUMMARY: &'static str = "Find files by glob pattern, newest first";
    const DESCRIPTION: &'static str = "Find files by name pattern: finds files whose path matches a glob, e.g. `**/*.rs`, `src/**/*.{ts,tsx}`, `*.md`. \
The pattern is matched against the path relative to `path` (default: the root); a pattern without `/` matches at any depth, so `*.rs` finds every Rust file. `*` does not cross `/`; `**` does. Matching is case-sensitive unless `case_sensitive` is false. \
Honours .gitignore, .ignore and .rgignore (as ripgrep does, also outside a git repository), skips hidden files unless `hidden` is true (a pattern component that starts with `.`, like `.github/**`, matches those hidden names anyway), never lists `.git/`, and does not follow symlinks. \
Returns files only, newest first (sort=\"path\" for path order, \"oldest\" for oldest first), at most `limit` (default 100); the count of all matches is always given. Use grep to search inside files.";
    const POSITIONALS: &'static [&'static str] = &["pattern", "path"];
    const HINTS: Hints = Hints::READ_ONLY;
    const EXAMPLES: &'static str = "  echo '{\"pattern\": \"**/*.rs\", \"path\": \"src\"}' | loopr-tool glob\n  loopr-tool glob '*.toml' --sort path --format text";

    const OUTPUT_CAP: usize = crate::caps::GLOB;

    fn read_only(_: &Input) -> bool {
        true
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let limit = input.limit.unwrap_or(DEFAULT_LIMIT) as usize;
        let sort = input.sort.unwrap_or_default();
        let no_ignore = match (input.no_ignore, input.respect_git_ignore) {
            (Some(n), Some(r)) if n == r => {
                return Err(ToolError::invalid(
                    "respect_git_ignore",
                    format!(
                        "no_ignore is {n} and respect_git_ignore is {r}: they contradict each other"
                    ),
                )
                .hint("Give one of them."));
            }
            (Some(n), _) => n,
            (None, Some(r)) => !r,
            (None, None) => false,
        };
        let pattern = Pattern::with_case(&input.pattern, input.case_sensitive.unwrap_or(true))?;
        let base = walk::base(ctx, input.path.as_deref())?;
        base.require_dir("glob")?;
        let opts = Options {
            hidden: input.hidden.unwrap_or(false),
            no_ignore,
            hidden_allow: pattern.hidden_allow(),
            ..Options::default()
        };
        let problems = Problems::default();
        let found: Mutex<Vec<(PathBuf, Option<SystemTime>)>> = Mutex::new(Vec::new());
        let want_mtime = sort != Sort::Path;
        walk::run_parallel(&base, &opts, &problems, &ctx.control, || {
            let mut local = walk::Local::new(&found);
            let base = &base;
            let matcher = &pattern.matcher;
            move |e: &walk::Entry| {
                if !e.is_file() || !matcher.is_match(base.rel(e.path)) {
                    return;
                }
                let mtime = if want_mtime { e.modified() } else { None };
                local.items.push((base.rel(e.path).to_path_buf(), mtime));
            }
        });
        let mut found = found.into_inner().unwrap_or_else(|p| p.into_inner());
        match sort {
            Sort::Path => found.sort_unstable_by(|a, b| walk::path_cmp(&a.0, &b.0)),
            // Newest first; a file whose time cannot be read sorts last.
            Sort::Mtime => found
                .sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| walk::path_cmp(&a.0, &b.0))),
            // Oldest first; a file whose time cannot be read sorts last here too.
            Sort::Oldest => found.sort_unstable_by(|a, b| {
                (a.1.is_none(), a.1)
                    .cmp(&(b.1.is_none(), b.1))
                    .then_with(|| walk::path_cmp(&a.0, &b.0))
            }),
        }
        let count = found.len();
        let mut lossy = 0;
        let files: Vec<String> = found
            .iter()
            .take(limit)
            .map(|(rel, _)| {
                let (s, l) = base.show(rel);
                lossy += l as usize;
                s
            })
            .collect();
        problems.report(ctx);
        if lossy > 0 {
            ctx.warn(format!(
                "{lossy} path(s) are not valid UTF-8; they are shown with U+FFFD and cannot be passed back as given"
            ));
        }
        Ok(render(files, count))
    }
}

fn render(files: Vec<String>, count: usize) -> Success {
    if count == 0 {
        return Success::new(
            "No files found\n".into(),
            json!({"files": [], "count": 0, "truncated": false}),
        );
    }
    let (output, shown) = caps::fit(&files, caps::GLOB, |k| {
        (k < count).then(|| {
            if k < files.len() {
                format!("(showing {k} of {count} matches; output cap reached; narrow the pattern or use a path)")
            } else {
                format!("(showing {k} of {count} matches; narrow the pattern or raise limit)")
            }
        })
    });
    let truncated = shown < count;
    Success::new(
        output,
        json!({"files": files, "count": count, "truncated": truncated}),
    )
}

/// A glob pattern made ready: relative to the base, `**/` in front when it has no `/`.
pub struct Pattern {
    /// A set of one: unlike `Glob::compile_matcher`, which panics when the regex engine refuses
    /// the glob (400 nested braces: SPEC 23.8), building a set returns that refusal.
    pub matcher: GlobSet,
    /// The pattern's components that start with a literal `.`: they may walk into hidden names.
    dot_components: Option<GlobSet>,
}

fn bad_glob(given: &str, why: impl std::fmt::Display) -> ToolError {
    ToolError::new(Code::InvalidGlob, format!("invalid glob {given:?}: {why}")).hint(
        "Glob syntax: * ? [abc] {a,b} **; `*` stops at `/`. Patterns are relative to path, e.g. \"src/**/*.rs\".",
    )
}

/// Builds a glob as the tools use it: `*` stops at `/`, `\` escapes.
fn compile_with_case(
    glob: &str,
    case_sensitive: bool,
) -> std::result::Result<globset::Glob, globset::Error> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .backslash_escape(true)
        .case_insensitive(!case_sensitive)
        .build()
}

/// The pattern after the rules of SPEC §8 and 16.3.
pub fn normalize(given: &str) -> Result<String> {
    if given.is_empty() {
        return Err(ToolError::invalid("pattern", "field `pattern` is empty")
            .hint("Give a glob such as \"**/*.rs\"."));
    }
    if given.contains('\0') {
        return Err(ToolError::invalid(
            "pattern",
            "field `pattern` contains a NUL byte",
        ));
    }
    if given.starts_with('/') {
        return Err(bad_glob(given, "an absolute pattern; patterns are relative to path")
            .hint("Put the directory in path and keep the pattern relative, e.g. path=\"src\", pattern=\"**/*.rs\"."));
    }
    let mut p = given;
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    if p.split('/').any(|c| c == "..") {
        return Err(
            bad_glob(given, "`..` is not allowed; patterns are relative to path").hint(
                "Set path to the directory you mean instead of climbing out of it with `..`.",
            ),
        );
    }
    let mut p = p.to_string();
    // `src/` means everything below src (glob lists files, never the directory itself).
    if p.ends_with('/') {
        p.push_str("**");
    }
    if p.is_empty() || p == "." {
        p = "**".into();
    }
    if !p.contains('/') && p != "**" {
        p = format!("**/{p}");
    }
    Ok(p)
}

impl Pattern {
    pub fn with_case(given: &str, case_sensitive: bool) -> Result<Pattern> {
        let p = normalize(given)?;
        let mut one = GlobSetBuilder::new();
        one.add(compile_with_case(&p, case_sensitive).map_err(|e| bad_glob(given, e.kind()))?);
        let matcher = one.build().map_err(|_| {
            bad_glob(
                given,
                "too complex for the pattern engine (nested too deeply or too large)",
            )
        })?;
        let mut dots = GlobSetBuilder::new();
        let mut any = false;
        for c in p.split('/') {
            if c.starts_with('.') || c.starts_with("{.") {
                dots.add(
                    compile_with_case(c, case_sensitive).map_err(|e| bad_glob(given, e.kind()))?,
                );
                any = true;
            }
        }
        let dot_components = if any {
            Some(dots.build().map_err(|e| bad_glob(given, e))?)
        } else {
            None
        };
        Ok(Pattern {
            matcher,
            dot_components,
        })
    }

    pub fn hidden_allow(&self) -> Option<walk::HiddenAllow> {
        let set = self.dot_components.clone()?;
        Some(Arc::new(move |name| set.is_match(name)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn normalisation() {
        assert_eq!(normalize("*.rs").unwrap(), "**/*.rs");
        assert_eq!(normalize("./src/*.rs").unwrap(), "src/*.rs");
        assert_eq!(normalize("src/").unwrap(), "src/**");
        assert_eq!(normalize("**").unwrap(), "**");
        assert_eq!(normalize(".").unwrap(), "**");
        assert_eq!(normalize("/etc/*").unwrap_err().code, Code::InvalidGlob);
        assert_eq!(normalize("a/../b").unwrap_err().code, Code::InvalidGlob);
        assert_eq!(normalize("..").unwrap_err().code, Code::InvalidGlob);
        assert_eq!(normalize("").unwrap_err().code, Code::InvalidInput);
    }

    #[test]
    fn star_stays_in_its_component_and_bare_names_match_anywhere() {
        let m = |pat: &str, path: &str| {
            Pattern::with_case(pat, true)
                .unwrap()
                .matcher
                .is_match(Path::new(path))
        };
        assert!(m("*.rs", "a.rs"));
        assert!(m("*.rs", "src/deep/a.rs"));
        assert!(!m("src/*.rs", "src/deep/a.rs"));
        assert!(m("src/**/*.rs", "src/a.rs"));
        assert!(m("src/**/*.rs", "src/deep/a.rs"));
        assert!(m("*.{ts,tsx}", "web/app.tsx"));
        assert!(!m("*.RS", "a.rs"), "case-sensitive");
        assert!(m("src/", "src/x/y.c"));
        assert!(Pattern::with_case("src/[z-a].rs", true).is_err());
    }

    #[test]
    fn dot_components_open_only_their_own_hidden_names() {
        let p = Pattern::with_case(".github/**/*.yml", true).unwrap();
        let allow = p.hidden_allow().unwrap();
        assert!(allow(".github".as_ref()));
        assert!(!allow(".git".as_ref()));
        assert!(
            Pattern::with_case("src/*.rs", true)
                .unwrap()
                .hidden_allow()
                .is_none()
        );
        let p = Pattern::with_case(".env*", true).unwrap();
        assert!(p.hidden_allow().unwrap()(".env.local".as_ref()));
    }
}
