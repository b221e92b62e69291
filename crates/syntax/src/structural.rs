//! Structural patterns (SPEC 26.4): ast-grep's matcher (`$X` one node, `$$$X` any number) over
//! our grammars, on trees our bounded `parse` made (so a hostile file is refused before the
//! matcher walks it). A pattern is compiled once per language and reused for every file.

use crate::{Lang, check, parse};
use ast_grep_core::matcher::PatternBuilder;
use ast_grep_core::replacer::TemplateFix;
use ast_grep_core::tree_sitter::{LanguageExt, StrDoc, TSLanguage};
use ast_grep_core::{AstGrep, Pattern, PatternError};
use std::borrow::Cow;
use tree_sitter::Tree;

/// A language as ast-grep sees it.
#[derive(Clone)]
pub struct SgLang(pub Lang);

impl SgLang {
    /// The character that stands for `$` while the pattern is parsed: `$` is no identifier
    /// character in these grammars, so ast-grep's languages use `µ` (JS, TS and Java allow `$`).
    fn expando(&self) -> char {
        match self.0 {
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx | Lang::Java => '$',
            _ => 'µ',
        }
    }
}

impl ast_grep_core::Language for SgLang {
    fn kind_to_id(&self, kind: &str) -> u16 {
        self.0.grammar().id_for_node_kind(kind, true)
    }
    fn field_to_id(&self, field: &str) -> Option<u16> {
        self.0.grammar().field_id_for_name(field).map(|f| f.get())
    }
    fn build_pattern(&self, builder: &PatternBuilder) -> Result<Pattern, PatternError> {
        builder.build(|src| StrDoc::try_new(src, self.clone()))
    }
    fn expando_char(&self) -> char {
        self.expando()
    }
    fn pre_process_pattern<'q>(&self, query: &'q str) -> Cow<'q, str> {
        let expando = self.expando();
        if expando == '$' {
            return Cow::Borrowed(query);
        }
        Cow::Owned(with_expando(query, expando))
    }
}

impl LanguageExt for SgLang {
    fn get_ts_language(&self) -> TSLanguage {
        self.0.grammar()
    }
}

/// `$NAME`, `$_` and `$$$` as the grammar can parse them (ast-grep's own rule: a run of `$`
/// before a capital or `_`, or three of them, becomes the expando character).
fn with_expando(query: &str, expando: char) -> String {
    let mut out = String::with_capacity(query.len());
    let mut dollars = 0;
    for c in query.chars() {
        if c == '$' {
            dollars += 1;
            continue;
        }
        let sigil = if c.is_ascii_uppercase() || c == '_' || dollars == 3 {
            expando
        } else {
            '$'
        };
        out.extend(std::iter::repeat_n(sigil, dollars));
        dollars = 0;
        out.push(c);
    }
    let sigil = if dollars == 3 { expando } else { '$' };
    out.extend(std::iter::repeat_n(sigil, dollars));
    out
}

/// Why a pattern cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// It does not parse as code of the language: where.
    Syntax(check::Error),
    /// ast-grep refused it (several nodes, a bare `$$$`, …).
    Refused(String),
}

/// A pattern compiled for one language.
pub struct Compiled {
    pub lang: Lang,
    pattern: Pattern,
}

/// Compiles `pattern` for `lang`, refusing one that does not parse as its code.
pub fn compile(lang: Lang, pattern: &str) -> Result<Compiled, Problem> {
    let sg = SgLang(lang);
    let processed = ast_grep_core::Language::pre_process_pattern(&sg, pattern);
    let tree = parse(lang, processed.as_bytes())
        .map_err(|s| Problem::Refused(format!("the pattern is {}", s.reason())))?;
    if let Some(first) = check::first_error(&tree, pattern.as_bytes(), processed.as_bytes()) {
        return Err(Problem::Syntax(first));
    }
    let pattern = Pattern::try_new(pattern, sg).map_err(|e| Problem::Refused(e.to_string()))?;
    Ok(Compiled { lang, pattern })
}

/// One match: byte range and 1-based start and end positions (lines, character columns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

fn doc(
    c: &Compiled,
    src: &str,
    tree: Option<Tree>,
) -> Result<AstGrep<StrDoc<SgLang>>, crate::Skip> {
    let tree = match tree {
        Some(t) => t,
        None => parse(c.lang, src.as_bytes())?,
    };
    let doc = StrDoc {
        src: src.to_string(),
        lang: SgLang(c.lang),
        tree,
    };
    Ok(AstGrep::doc(doc))
}

/// Every match of the pattern in `src` (outermost matches; document order); `tree` is `src`'s
/// when the caller parsed it already.
pub fn find(c: &Compiled, src: &str, tree: Option<Tree>) -> Result<Vec<Match>, crate::Skip> {
    let root = doc(c, src, tree)?;
    let mut out: Vec<Match> = root
        .root()
        .find_all(&c.pattern)
        .map(|m| {
            let (s, e) = (m.start_pos(), m.end_pos());
            let r = m.range();
            Match {
                start: r.start,
                end: r.end,
                line: s.line() + 1,
                column: 1 + char_column(src, r.start),
                end_line: e.line() + 1,
                end_column: 1 + char_column(src, r.end),
            }
        })
        .collect();
    // Nested matches (`f(f(x))`) are kept once, as their outermost.
    out.sort_by_key(|m| (m.start, std::cmp::Reverse(m.end)));
    let mut kept: Vec<Match> = vec![];
    for m in out {
        if kept.last().is_none_or(|k| m.start >= k.end) {
            kept.push(m);
        }
    }
    Ok(kept)
}

fn char_column(src: &str, at: usize) -> usize {
    let start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    src[start..at].chars().count()
}

/// The metavariables `rewrite` uses that `pattern` does not bind (ast-grep would write an
/// empty string for them).
pub fn unbound(c: &Compiled, rewrite: &str) -> Vec<String> {
    let fix = template(c, rewrite);
    let defined = c.pattern.defined_vars();
    let mut out: Vec<String> = fix
        .used_vars()
        .into_iter()
        .filter(|v| !v.is_empty() && !v.starts_with('_') && !defined.contains(v))
        .map(|v| format!("${v}"))
        .collect();
    out.sort();
    out
}

fn template(c: &Compiled, rewrite: &str) -> TemplateFix {
    match TemplateFix::try_new(rewrite, &SgLang(c.lang)) {
        Ok(t) => t,
        Err(e) => match e {},
    }
}

/// `src` with every match replaced by `rewrite` (its metavariables filled), and the count.
pub fn rewrite(
    c: &Compiled,
    src: &str,
    tree: Option<Tree>,
    rewrite: &str,
) -> Result<(String, usize), crate::Skip> {
    let root = doc(c, src, tree)?;
    let fix = template(c, rewrite);
    let mut edits = root.root().replace_all(&c.pattern, &fix);
    edits.sort_by_key(|e| e.position);
    let mut out = String::with_capacity(src.len());
    let mut at = 0;
    let mut n = 0;
    for e in &edits {
        if e.position < at {
            continue; // nested inside a match already replaced
        }
        out.push_str(&src[at..e.position]);
        out.push_str(&String::from_utf8_lossy(&e.inserted_text));
        at = e.position + e.deleted_length;
        n += 1;
    }
    out.push_str(&src[at..]);
    Ok((out, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metavariables_match_nodes_and_runs() {
        let c = compile(Lang::Python, "print($A)").unwrap();
        let m = find(&c, "print(1)\nx = print(a + b)\nprint(1, 2)\n", None).unwrap();
        assert_eq!(m.iter().map(|m| m.line).collect::<Vec<_>>(), [1, 2]);
        let c = compile(Lang::Rust, "foo($$$ARGS)").unwrap();
        assert_eq!(
            find(&c, "fn f() { foo(); foo(1, 2); }", None)
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn rewrite_fills_metavariables_and_finds_unbound_ones() {
        let c = compile(Lang::JavaScript, "console.log($X)").unwrap();
        let (out, n) = rewrite(
            &c,
            "console.log(a);\nconsole.log(b + 1);\n",
            None,
            "logger.info($X)",
        )
        .unwrap();
        assert_eq!(
            (out.as_str(), n),
            ("logger.info(a);\nlogger.info(b + 1);\n", 2)
        );
        assert_eq!(unbound(&c, "logger.info($X, $Y)"), ["$Y"]);
    }

    #[test]
    fn a_pattern_that_does_not_parse_says_where() {
        let Err(Problem::Syntax(e)) = compile(Lang::Python, "x = 1\nprint(a))") else {
            panic!("accepted a broken pattern");
        };
        assert_eq!((e.line, e.text.as_str()), (2, "print(a))"));
    }
}
