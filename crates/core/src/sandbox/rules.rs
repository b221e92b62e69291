//! The catalog's path rules (SPEC 19.2, 24.3): `paths.deny` (no tool reads, lists or writes
//! these) and `paths.read_only` (readable, never written by a tool). They live where paths are
//! resolved, so no tool can forget them: the resolver checks every resolved path, after
//! symlinks, and the walkers skip denied entries as if absent.
//!
//! Patterns use gitignore syntax relative to the root: a pattern without a slash matches a name
//! at any depth, a leading `/` or an inner slash anchors it at the root, a trailing `/` matches
//! directories only, `**` spans directories, `!` re-includes, and a path is matched when it or
//! any directory above it is (a denied directory denies all it holds).
//!
//! Matched component by component here, without regexes: ignore's gitignore matcher compiles a
//! regex set, which cost 0.3 ms per call for three patterns — more than the whole catalog's
//! budget (issue 19: at most 0.2 ms).

use crate::policy::PathRules;
use std::path::{Path, PathBuf};

/// One gitignore line, split into components.
#[derive(Debug, Clone)]
struct Pattern {
    parts: Vec<String>,
    negated: bool,
    dir_only: bool,
}

/// A compiled list of patterns.
#[derive(Debug, Clone, Default)]
pub struct Patterns {
    list: Vec<Pattern>,
}

/// Whether `pattern` is a pattern the rules accept (for `catalog --check`).
pub fn check_pattern(pattern: &str) -> Result<(), String> {
    parse(pattern)
        .map(|_| ())
        .map_err(|e| format!("`{pattern}` is not a valid pattern: {e}"))
}

fn parse(line: &str) -> Result<Option<Pattern>, String> {
    let mut p = line.trim_end_matches([' ', '\t']);
    if p.is_empty() || p.starts_with('#') {
        return Ok(None);
    }
    let negated = p.starts_with('!');
    if negated {
        p = &p[1..];
    }
    let dir_only = p.ends_with('/');
    let p = p.trim_end_matches('/');
    let anchored = p.starts_with('/') || p.contains('/');
    let p = p.trim_start_matches('/');
    if p.is_empty() {
        return Err("it names nothing".into());
    }
    let mut parts: Vec<String> = vec![];
    if !anchored {
        parts.push("**".into());
    }
    for c in p.split('/').filter(|c| !c.is_empty()) {
        check_component(c)?;
        parts.push(c.to_string());
    }
    Ok(Some(Pattern {
        parts,
        negated,
        dir_only,
    }))
}

fn check_component(c: &str) -> Result<(), String> {
    let mut chars = c.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' if chars.next().is_none() => return Err("it ends with a lone backslash".into()),
            '[' if !chars.by_ref().any(|x| x == ']') => {
                return Err("a `[` class is not closed".into());
            }
            _ => {}
        }
    }
    Ok(())
}

impl Patterns {
    pub fn new(lines: &[String]) -> Patterns {
        Patterns {
            // Checked when the catalog was read; a line refused there matches nothing here.
            list: lines
                .iter()
                .filter_map(|l| parse(l).ok().flatten())
                .collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Whether `rel` (components relative to the root) or a directory above it is matched.
    pub fn matches(&self, rel: &[&str], is_dir: bool) -> bool {
        if self.list.is_empty() {
            return false;
        }
        (1..=rel.len()).any(|n| self.verdict(&rel[..n], n < rel.len() || is_dir))
    }

    /// Whether a pattern (not a re-include) matches every path strictly below the directory
    /// `rel`: `secrets/**` covers `secrets`, `**/*.key` covers nothing. What a directory there
    /// will hold is then matched whatever it holds now (SPEC 31.4).
    pub fn covers(&self, rel: &[&str]) -> bool {
        self.list
            .iter()
            .any(|p| !p.negated && covers_below(&p.parts, rel))
    }

    /// The last pattern matching exactly `path` decides (gitignore's rule).
    fn verdict(&self, path: &[&str], is_dir: bool) -> bool {
        let mut hit = false;
        for p in &self.list {
            if (!p.dir_only || is_dir) && match_parts(&p.parts, path) {
                hit = !p.negated;
            }
        }
        hit
    }
}

/// Components against components; `**` spans zero or more of them, but a trailing `**` at
/// least one (gitignore's `dir/**` is what `dir` holds, not `dir` itself).
fn match_parts(pat: &[String], path: &[&str]) -> bool {
    match pat.split_first() {
        None => path.is_empty(),
        Some((first, rest)) if first == "**" => {
            let min = usize::from(rest.is_empty());
            (min..=path.len()).any(|skip| match_parts(rest, &path[skip..]))
        }
        Some((first, rest)) => match path.split_first() {
            Some((name, more)) => {
                wildcard(first.as_bytes(), name.as_bytes()) && match_parts(rest, more)
            }
            None => false,
        },
    }
}

/// Whether `pat` matches every path that extends `path` by at least one component: what is
/// left of the pattern once `path` is consumed is a lone `**`.
fn covers_below(pat: &[String], path: &[&str]) -> bool {
    match pat.split_first() {
        None => false,
        Some((first, rest)) if first == "**" => {
            rest.is_empty() || (0..=path.len()).any(|skip| covers_below(rest, &path[skip..]))
        }
        Some((first, rest)) => match path.split_first() {
            Some((name, more)) => {
                wildcard(first.as_bytes(), name.as_bytes()) && covers_below(rest, more)
            }
            None => false,
        },
    }
}

/// One component: `*`, `?`, `[...]` (with `!` or `^` to negate, and ranges), `\` escapes.
fn wildcard(p: &[u8], s: &[u8]) -> bool {
    match p.first() {
        None => s.is_empty(),
        Some(b'*') => (0..=s.len()).any(|i| wildcard(&p[1..], &s[i..])),
        Some(b'?') => !s.is_empty() && wildcard(&p[1..], &s[1..]),
        Some(b'[') => {
            let Some(close) = p[1..].iter().position(|&c| c == b']').map(|i| i + 1) else {
                return false;
            };
            let Some(&c) = s.first() else { return false };
            let mut class = &p[1..close];
            let negate = matches!(class.first(), Some(b'!' | b'^'));
            if negate {
                class = &class[1..];
            }
            let mut found = false;
            let mut i = 0;
            while i < class.len() {
                if i + 2 < class.len() && class[i + 1] == b'-' {
                    found |= (class[i]..=class[i + 2]).contains(&c);
                    i += 3;
                } else {
                    found |= class[i] == c;
                    i += 1;
                }
            }
            found != negate && wildcard(&p[close + 1..], &s[1..])
        }
        Some(b'\\') if p.len() > 1 => s.first() == Some(&p[1]) && wildcard(&p[2..], &s[1..]),
        Some(&c) => s.first() == Some(&c) && wildcard(&p[1..], &s[1..]),
    }
}

/// The compiled rules for one root.
pub struct Rules {
    root: PathBuf,
    deny: Patterns,
    read_only: Patterns,
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
        let deny = Patterns::new(&rules.deny);
        let read_only = Patterns::new(&rules.read_only);
        if deny.is_empty() && read_only.is_empty() {
            return None;
        }
        Some(Rules {
            root: root_real.to_path_buf(),
            deny,
            read_only,
        })
    }

    /// The verdict on `real` (a resolved path); a path outside the root is no rule's business.
    pub fn judge(&self, real: &Path, is_dir: bool) -> Verdict {
        self.judge_by(real, |p, parts| p.matches(parts, is_dir))
    }

    /// The verdict on what the directory `real` may hold (`Patterns::covers`).
    pub fn judge_below(&self, real: &Path) -> Verdict {
        self.judge_by(real, Patterns::covers)
    }

    fn judge_by(&self, real: &Path, hit: impl Fn(&Patterns, &[&str]) -> bool) -> Verdict {
        let Ok(rel) = real.strip_prefix(&self.root) else {
            return Verdict::Free;
        };
        let parts: Vec<&str> = rel
            .components()
            .map(|c| c.as_os_str().to_str().unwrap_or("\u{fffd}"))
            .collect();
        if hit(&self.deny, &parts) {
            Verdict::Denied
        } else if hit(&self.read_only, &parts) {
            Verdict::ReadOnly
        } else {
            Verdict::Free
        }
    }
}

/// Whether the relative path `shown` matches one of `patterns` (post hooks' `files`).
pub fn shown_matches(patterns: &[String], shown: &str) -> bool {
    let parts: Vec<&str> = shown
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    Patterns::new(patterns).matches(&parts, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pats: &[&str], path: &str, is_dir: bool) -> bool {
        let pats: Vec<String> = pats.iter().map(|s| s.to_string()).collect();
        let parts: Vec<&str> = path.split('/').collect();
        Patterns::new(&pats).matches(&parts, is_dir)
    }

    #[test]
    fn gitignore_rules() {
        // No slash: at any depth.
        assert!(m(&[".env"], ".env", false));
        assert!(m(&[".env"], "a/b/.env", false));
        assert!(m(&["*.rs"], "src/x.rs", false));
        assert!(!m(&["*.rs"], "src/x.rsx", false));
        // Anchored by a slash.
        assert!(m(&["/build"], "build/out", false));
        assert!(!m(&["/build"], "x/build", false));
        assert!(m(&["secrets/**"], "secrets/a/b", false));
        assert!(!m(&["secrets/**"], "secrets", true));
        assert!(!m(&["secrets/**"], "x/secrets/a", false));
        assert!(m(&["**/cache"], "a/b/cache/x", false));
        assert!(m(&["a/**/z"], "a/z", false));
        assert!(m(&["a/**/z"], "a/b/c/z", false));
        // A directory above matches: everything below is matched.
        assert!(m(&["vendor"], "vendor/lib/x.c", false));
        // Directory-only patterns.
        assert!(m(&["logs/"], "logs/x", false));
        assert!(!m(&["logs/"], "logs", false));
        // Negation: the last match decides.
        assert!(!m(&["*.key", "!public.key"], "public.key", false));
        assert!(m(&["*.key", "!public.key"], "private.key", false));
        // Classes and ?.
        assert!(m(&["file[0-9].txt"], "file7.txt", false));
        assert!(!m(&["file[!0-9].txt"], "file7.txt", false));
        assert!(m(&["?.md"], "a.md", false));
    }

    fn covers(pats: &[&str], path: &str) -> bool {
        let pats: Vec<String> = pats.iter().map(|s| s.to_string()).collect();
        let parts: Vec<&str> = path.split('/').filter(|c| !c.is_empty()).collect();
        Patterns::new(&pats).covers(&parts)
    }

    #[test]
    fn a_pattern_covers_a_directory_when_it_matches_all_it_could_hold() {
        assert!(covers(&["secrets/**"], "secrets"));
        assert!(covers(&["secrets/**"], "secrets/deep"));
        assert!(!covers(&["secrets/**"], "pub"));
        assert!(!covers(&["secrets/**"], ""));
        assert!(covers(&["**"], ""));
        assert!(covers(&["s*/**"], "secrets"));
        assert!(covers(&["a/**/b/**"], "a/x/b"));
        // A pattern for some names below covers nothing: the walk finds those.
        assert!(!covers(&["*.key"], "d"));
        assert!(!covers(&["a/**/z"], "a"));
        // A re-include covers nothing.
        assert!(!covers(&["!secrets/**"], "secrets"));
    }

    #[test]
    fn bad_patterns_are_refused() {
        assert!(check_pattern("a[b").is_err());
        assert!(check_pattern("/").is_err());
        assert!(check_pattern("ok/**").is_ok());
    }
}
