//! The files a code-intelligence call parses (SPEC 26.1, 26.7): files named by the call, and
//! files found by a walk of a directory or a glob, through the shared walker (in parallel).
//! A named file of another language is skipped with a note; a walked one silently. A file over
//! 4 MiB or nested too deep is skipped with a note either way.

use crate::context::Ctx;
use crate::error::{Code, Result, ToolError};
use crate::walk::{self, Options, Problems};
use ignore::overrides::OverrideBuilder;
use loopr_syntax::tree_sitter::Tree;
use loopr_syntax::{Lang, MAX_BYTES, Skip};
use std::io::Read;
use std::path::Path;
use std::sync::Mutex;

/// A parsed file.
pub struct File<'a> {
    pub shown: &'a str,
    pub lang: Lang,
    pub src: &'a [u8],
    pub tree: &'a Tree,
}

/// A file left out, with the reason shown to the model.
#[derive(Debug, Clone)]
pub struct Skipped {
    pub path: String,
    pub reason: String,
}

/// What a gathering found: one value per parsed file (by path) and the files skipped.
pub struct Gathered<T> {
    pub items: Vec<(String, T)>,
    pub skipped: Vec<Skipped>,
    /// Files parsed.
    pub parsed: usize,
}

/// A value for a file's bytes without parsing them, if one is kept.
pub type Cached<'a, T> = dyn Fn(Lang, &[u8]) -> Option<T> + Sync + 'a;

/// What to parse: where, and a cheap test on the bytes before parsing (a name search parses
/// only files that hold the name).
pub struct Job<'a, T> {
    /// A byte string the file must contain to be parsed (`None`: every file).
    pub needle: Option<&'a [u8]>,
    /// Only files of this language (structural search).
    pub lang: Option<Lang>,
    pub visit: &'a (dyn Fn(&File) -> Option<T> + Sync),
    /// Asked before parsing (path, language, bytes): a value it gives is used without parsing
    /// (map's tag cache, keyed by content).
    pub cached: Option<&'a Cached<'a, T>>,
}

/// Gathers over a path the call named: a file (skipped with a note when its language is not
/// built in) or a directory (walked).
pub fn named<T: Send>(ctx: &Ctx, given: &str, job: &Job<T>) -> Result<Gathered<T>> {
    let base = walk::base(ctx, Some(given))?;
    match base.kind {
        walk::Kind::Dir => Ok(walked(ctx, &base, None, job)),
        walk::Kind::File => {
            let sink = Sink::default();
            let f = base
                .open_file()
                .map_err(|e| ToolError::io(&e, &base.shown, "reading"))?;
            sink.one(job, &base.shown, f, true);
            Ok(sink.finish())
        }
        _ => Err(ToolError::new(
            Code::UnsupportedFile,
            format!(
                "{} is not a regular file or directory (a FIFO, socket or device)",
                base.shown
            ),
        )
        .with("path", base.shown.as_str())),
    }
}

/// Gathers over `scope`: a directory, or a glob (it has `*`, `?`, `[` or `{`) below the root;
/// default the root.
pub fn scope<T: Send>(ctx: &Ctx, scope: Option<&str>, job: &Job<T>) -> Result<Gathered<T>> {
    let is_glob = scope.is_some_and(|s| s.contains(['*', '?', '[', '{']));
    if !is_glob {
        let base = walk::base(ctx, scope)?;
        if base.kind != walk::Kind::Dir {
            return named(ctx, scope.unwrap_or("."), job);
        }
        return Ok(walked(ctx, &base, None, job));
    }
    let glob = scope.unwrap_or_default();
    let mut b = OverrideBuilder::new(&ctx.root_real);
    let bad = |e: ignore::Error| {
        ToolError::new(Code::InvalidGlob, format!("invalid glob {glob:?}: {e}"))
            .with("field", "scope")
    };
    b.add(glob).map_err(bad)?;
    let ov = b.build().map_err(bad)?;
    let base = walk::base(ctx, None)?;
    Ok(walked(ctx, &base, Some(ov), job))
}

/// Gathers below `path` (default the root) with the walk's options (grep's and rewrite's
/// `glob`, `hidden`, `no_ignore`); a file named as `path` is taken whatever they say.
pub fn under<T: Send>(
    ctx: &Ctx,
    path: Option<&str>,
    opts: Options,
    job: &Job<T>,
) -> Result<Gathered<T>> {
    let base = walk::base(ctx, path)?;
    if base.kind != walk::Kind::Dir {
        return named(ctx, path.unwrap_or("."), job);
    }
    Ok(walked_with(ctx, &base, opts, job))
}

fn walked<T: Send>(
    ctx: &Ctx,
    base: &walk::Base,
    overrides: Option<ignore::overrides::Override>,
    job: &Job<T>,
) -> Gathered<T> {
    let opts = Options {
        overrides,
        ..Options::default()
    };
    walked_with(ctx, base, opts, job)
}

fn walked_with<T: Send>(ctx: &Ctx, base: &walk::Base, opts: Options, job: &Job<T>) -> Gathered<T> {
    let sink = Sink::default();
    let problems = Problems::default();
    walk::run_parallel(base, &opts, &problems, &ctx.control, || {
        let sink = &sink;
        move |e: &walk::Entry| {
            if !e.is_file() {
                return;
            }
            // Other languages are left alone without opening them; a file without an
            // extension may still say its language in a shebang.
            let has_ext = e.path.extension().is_some();
            if has_ext && Lang::by_extension(e.path).is_none() {
                return;
            }
            if job.lang.is_some_and(|l| !matches_lang(l, e.path)) {
                return;
            }
            let shown = base.show(base.rel(e.path)).0;
            match e.open_file() {
                Ok(f) => sink.one(job, &shown, f, false),
                Err(err) => sink.skip(&shown, crate::error::io_cause(&err)),
            }
        }
    });
    problems.report(ctx);
    sink.finish()
}

/// Whether a path's extension may hold `want` (`.h` may be C or C++).
fn matches_lang(want: Lang, path: &Path) -> bool {
    match Lang::by_extension(path) {
        Some(Lang::C) if path.extension().is_some_and(|e| e == "h") => {
            matches!(want, Lang::C | Lang::Cpp)
        }
        Some(l) => l == want,
        None => true,
    }
}

/// What the visits gave, gathered from the walk's threads.
struct Sink<T> {
    out: Mutex<Vec<(String, T)>>,
    skipped: Mutex<Vec<Skipped>>,
    parsed: Mutex<usize>,
}

impl<T> Default for Sink<T> {
    fn default() -> Self {
        Sink {
            out: Mutex::new(vec![]),
            skipped: Mutex::new(vec![]),
            parsed: Mutex::new(0),
        }
    }
}

impl<T: Send> Sink<T> {
    fn skip(&self, shown: &str, reason: String) {
        let mut s = self.skipped.lock().unwrap_or_else(|p| p.into_inner());
        s.push(Skipped {
            path: shown.to_string(),
            reason,
        });
    }

    /// Reads, detects, parses and visits one file; `named` says the call named it.
    fn one(&self, job: &Job<T>, shown: &str, f: std::fs::File, named: bool) {
        let path = Path::new(shown);
        let len = f.metadata().map(|m| m.len()).unwrap_or(0);
        if len > MAX_BYTES {
            if named || Lang::by_extension(path).is_some() {
                self.skip(shown, Skip::TooLarge(len).reason());
            }
            return;
        }
        let mut src = Vec::with_capacity(len as usize);
        if let Err(e) = f.take(MAX_BYTES + 1).read_to_end(&mut src) {
            self.skip(shown, crate::error::io_cause(&e));
            return;
        }
        let Some(lang) = Lang::detect(path, &src) else {
            if named {
                self.skip(shown, "not in a language built in (rust, python, javascript, typescript, tsx, go, java, c, cpp)".to_string());
            }
            return;
        };
        if job.lang.is_some_and(|l| l != lang) {
            if named {
                self.skip(
                    shown,
                    format!(
                        "{} code, not {}",
                        lang.name(),
                        job.lang.map_or("", Lang::name)
                    ),
                );
            }
            return;
        }
        if memchr::memchr(0, &src).is_some() {
            if named {
                self.skip(shown, "binary (holds NUL bytes)".to_string());
            }
            return;
        }
        if job
            .needle
            .is_some_and(|n| memchr::memmem::find(&src, n).is_none())
        {
            return;
        }
        if let Some(v) = job.cached.and_then(|c| c(lang, &src)) {
            let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
            out.push((shown.to_string(), v));
            return;
        }
        let tree = match loopr_syntax::parse(lang, &src) {
            Ok(t) => t,
            Err(skip) => return self.skip(shown, skip.reason()),
        };
        *self.parsed.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        let file = File {
            shown,
            lang,
            src: &src,
            tree: &tree,
        };
        if let Some(v) = (job.visit)(&file) {
            let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
            out.push((shown.to_string(), v));
        }
    }
}

impl<T> Sink<T> {
    /// The values by path, the skipped files by path.
    fn finish(self) -> Gathered<T> {
        let mut items = self.out.into_inner().unwrap_or_else(|p| p.into_inner());
        items.sort_by(|a, b| walk::path_cmp(Path::new(&a.0), Path::new(&b.0)));
        let mut skipped = self.skipped.into_inner().unwrap_or_else(|p| p.into_inner());
        skipped.sort_by(|a, b| walk::path_cmp(Path::new(&a.path), Path::new(&b.path)));
        Gathered {
            items,
            skipped,
            parsed: self.parsed.into_inner().unwrap_or_else(|p| p.into_inner()),
        }
    }
}

/// Merges the gatherings of several named paths, in the order named.
pub fn merge<T>(all: Vec<Gathered<T>>) -> Gathered<T> {
    let mut out = Gathered {
        items: vec![],
        skipped: vec![],
        parsed: 0,
    };
    for g in all {
        out.items.extend(g.items);
        out.skipped.extend(g.skipped);
        out.parsed += g.parsed;
    }
    out
}
