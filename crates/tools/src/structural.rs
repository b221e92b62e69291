//! A structural pattern (SPEC 26.4) for grep and rewrite: compiled once per language, for the
//! `language` given or for each language the walked files are in (by extension).

use crate::error::{Result, ToolError};
use crate::symbols::files::{File, Gathered, Job};
use loopr_syntax::Lang;
use loopr_syntax::structural::{self, Compiled, Problem};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub struct Patterns<'a> {
    pattern: &'a str,
    /// The `language` given: every file is of it.
    pub fixed: Option<Lang>,
    cache: Mutex<HashMap<Lang, std::result::Result<Arc<Compiled>, Problem>>>,
}

/// `language` as given, checked (SPEC 26.7's lower-case names).
pub fn language(given: Option<&str>) -> Result<Option<Lang>> {
    let Some(name) = given else { return Ok(None) };
    match Lang::from_name(name) {
        Some(l) => Ok(Some(l)),
        None => Err(ToolError::invalid(
            "language",
            format!(
                "unknown language {name:?}; built in: {}",
                Lang::ALL.map(Lang::name).join(", ")
            ),
        )),
    }
}

impl<'a> Patterns<'a> {
    /// With a `language`, the pattern is compiled at once: one that does not parse fails the
    /// call before any file is looked at.
    pub fn new(pattern: &'a str, language: Option<&str>) -> Result<Patterns<'a>> {
        if pattern.trim().is_empty() {
            return Err(ToolError::invalid("pattern", "the pattern is empty"));
        }
        let p = Patterns {
            pattern,
            fixed: self::language(language)?,
            cache: Mutex::new(HashMap::new()),
        };
        if let Some(l) = p.fixed
            && let Err(e) = p.compiled(l)
        {
            return Err(problem(l, &e));
        }
        Ok(p)
    }

    fn compiled(&self, lang: Lang) -> std::result::Result<Arc<Compiled>, Problem> {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .entry(lang)
            .or_insert_with(|| structural::compile(lang, self.pattern).map(Arc::new))
            .clone()
    }

    /// The pattern for a file of `lang`; `None` when it does not parse as that language's code.
    pub fn get(&self, lang: Lang) -> Option<Arc<Compiled>> {
        self.compiled(lang).ok()
    }

    /// The matches in a parsed file (its tree reused), `None` when there are none or the
    /// pattern does not parse as the file's language.
    pub fn matches<'f>(&self, f: &File<'f>) -> Option<(&'f str, Vec<structural::Match>)> {
        let c = self.get(f.lang)?;
        let src = std::str::from_utf8(f.src).ok()?;
        let found = structural::find(&c, src, Some(f.tree.clone())).ok()?;
        (!found.is_empty()).then_some((src, found))
    }

    /// Gathers over `path` with `opts`: every file of the pattern's language(s) with matches
    /// becomes what `visit` makes of them.
    pub fn gather<T: Send>(
        &self,
        ctx: &crate::context::Ctx,
        path: Option<&str>,
        opts: crate::walk::Options,
        visit: &(dyn Fn(&File, &str, Vec<structural::Match>) -> T + Sync),
    ) -> Result<Gathered<T>> {
        let visit = |f: &File| self.matches(f).map(|(src, m)| visit(f, src, m));
        let job = Job {
            needle: None,
            lang: self.fixed,
            visit: &visit,
            cached: None,
        };
        crate::symbols::files::under(ctx, path, opts, &job)
    }

    /// When no language the walk met took the pattern: the first one's problem.
    pub fn none_compiled(&self) -> Option<ToolError> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.values().any(|c| c.is_ok()) {
            return None;
        }
        let mut failed: Vec<(&Lang, &Problem)> = cache
            .iter()
            .filter_map(|(l, c)| c.as_ref().err().map(|p| (l, p)))
            .collect();
        failed.sort_by_key(|(l, _)| l.name());
        failed.first().map(|(l, p)| problem(**l, p))
    }

    /// Every language compiled so far, for rewrite's check of its metavariables.
    pub fn all(&self) -> Vec<Arc<Compiled>> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let mut v: Vec<Arc<Compiled>> = cache.values().filter_map(|c| c.clone().ok()).collect();
        v.sort_by_key(|c| c.lang.name());
        v
    }
}

/// `invalid_input` on `pattern`, with the parser's position when it did not parse.
fn problem(lang: Lang, p: &Problem) -> ToolError {
    match p {
        Problem::Syntax(e) => ToolError::invalid(
            "pattern",
            format!(
                "the pattern does not parse as {} code: syntax error at line {}, column {}: {}",
                lang.name(),
                e.line,
                e.column,
                e.text
            ),
        )
        .with("line", e.line)
        .with("column", e.column)
        .hint("A structural pattern is code of the language with metavariables: $X for one node, $$$X for any number (ast-grep's syntax)."),
        Problem::Refused(why) => ToolError::invalid(
            "pattern",
            format!("the pattern cannot be used as {} code: {why}", lang.name()),
        ),
    }
}
