//! `edit` by symbol (SPEC 26.4, 26.7): `symbol` names a definition as `symbols` prints it
//! (`Type::method`, `Class.method`, or a bare name) and `part` says what `new_string` replaces —
//! `body` (default: between the braces, or Python's indented suite, re-indented to the body's
//! indentation) or `whole` (the definition with its decorators and doc comments);
//! `insert_before_symbol` / `insert_after_symbol` insert `new_string` as whole lines before the
//! definition's first line (decorators and doc comments included) or after its last. The name
//! must resolve to exactly one definition in the file (`ambiguous_match` lists them).

use crate::error::{Code, Result, ToolError};
use crate::symbols::Name;
use loopr_syntax::Lang;
use loopr_syntax::tags::{self, Symbol};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    #[default]
    Body,
    Whole,
}

/// What a symbol edit does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Where {
    Replace(Part),
    Before,
    After,
}

/// The new content of `src` and the 1-based lines the change covers in it.
pub struct Spliced {
    pub bytes: Vec<u8>,
    pub qualified: String,
    pub first_line: usize,
    pub last_line: usize,
}

/// The one definition `name` names in `src`, or why not.
fn resolve(
    lang: Lang,
    src: &[u8],
    field: &str,
    given: &str,
    shown: &str,
) -> Result<(Symbol, String)> {
    let name = Name::parse(Some(given)).map_err(|e| ToolError::invalid(field, e.message))?;
    let tree = loopr_syntax::parse(lang, src).map_err(|s| {
        ToolError::new(
            Code::TooLarge,
            format!("{shown} cannot be parsed: {}", s.reason()),
        )
        .with("path", shown)
    })?;
    let all = tags::symbols(lang, &tree, src);
    let hits: Vec<&Symbol> = all
        .iter()
        .filter(|s| name.matches(&s.name, s.parent.as_deref()))
        .collect();
    match hits.as_slice() {
        [one] => Ok(((*one).clone(), one.qualified(lang))),
        [] => {
            let known: Vec<String> = all.iter().take(30).map(|s| s.qualified(lang)).collect();
            Err(ToolError::new(
                Code::NoMatch,
                format!("no definition named {given} in {shown}"),
            )
            .with("path", shown)
            .hint(format!(
                "Definitions in the file: {}{}",
                known.join(", "),
                if all.len() > 30 { ", …" } else { "" }
            )))
        }
        many => {
            let lines: Vec<String> = many
                .iter()
                .map(|s| {
                    format!(
                        "{} ({} at lines {}-{})",
                        s.qualified(lang),
                        s.kind.name(),
                        s.line,
                        s.end_line
                    )
                })
                .collect();
            Err(ToolError::new(
                Code::AmbiguousMatch,
                format!(
                    "{given} names {} definitions in {shown}: {}",
                    many.len(),
                    lines.join("; ")
                ),
            )
            .with("path", shown)
            .with("candidates", lines)
            .hint("Qualify the name (Type::method or Class.method) so it names one."))
        }
    }
}

/// Splices `new` into `src` at the symbol `given` names.
pub fn splice(
    shown: &str,
    src: &[u8],
    field: &str,
    given: &str,
    at: Where,
    new: &str,
) -> Result<Spliced> {
    let lang = Lang::detect(std::path::Path::new(shown), src).ok_or_else(|| {
        ToolError::invalid(
            field,
            format!("{shown} is not in a language built in (rust, python, javascript, typescript, tsx, go, java, c, cpp): edit by symbol needs one"),
        )
    })?;
    if std::str::from_utf8(src).is_err() {
        return Err(ToolError::invalid(
            field,
            format!("{shown} is not UTF-8: edit it by old_string"),
        ));
    }
    let (s, qualified) = resolve(lang, src, field, given, shown)?;
    let (start, end, text) = match at {
        Where::Replace(Part::Whole) => (s.start, s.end, new.trim_end_matches('\n').to_string()),
        Where::Replace(Part::Body) => body(lang, src, &s, new, field, given)?,
        Where::Before => (s.start, s.start, lines(new)),
        Where::After => {
            let end = line_end(src, s.end);
            let mut text = lines(new);
            if end == src.len() && !src.ends_with(b"\n") {
                text = format!("\n{}", text.trim_end_matches('\n'));
            }
            (end, end, text)
        }
    };
    let mut bytes = Vec::with_capacity(src.len() + text.len());
    bytes.extend_from_slice(&src[..start]);
    bytes.extend_from_slice(text.as_bytes());
    bytes.extend_from_slice(&src[end..]);
    let first_line = 1 + src[..start].iter().filter(|&&b| b == b'\n').count();
    let last_line = first_line + text.matches('\n').count();
    Ok(Spliced {
        bytes,
        qualified,
        first_line,
        last_line,
    })
}

/// `new` as whole lines: ending in a newline.
fn lines(new: &str) -> String {
    if new.ends_with('\n') || new.is_empty() {
        new.to_string()
    } else {
        format!("{new}\n")
    }
}

fn line_end(src: &[u8], at: usize) -> usize {
    src[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(src.len(), |i| at + i + 1)
}

fn line_start(src: &[u8], at: usize) -> usize {
    src[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1)
}

fn indent_at(src: &[u8], line_start: usize) -> String {
    leading_ws(&src[line_start..])
}

/// The spaces and tabs `bytes` starts with.
fn leading_ws(bytes: &[u8]) -> String {
    bytes
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .map(|&b| b as char)
        .collect()
}

/// `new` with its common indentation taken off and `indent` put on each non-blank line.
fn reindent(new: &str, indent: &str) -> String {
    let common = new
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    new.trim_end_matches('\n')
        .lines()
        .map(|l| {
            if l.trim().is_empty() {
                String::new()
            } else {
                format!(
                    "{indent}{}",
                    &l[common.min(l.len() - l.trim_start().len())..]
                )
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The body's range and its new text, re-indented to the body's indentation.
fn body(
    lang: Lang,
    src: &[u8],
    s: &Symbol,
    new: &str,
    field: &str,
    given: &str,
) -> Result<(usize, usize, String)> {
    let Some((start, end)) = s.body else {
        return Err(ToolError::invalid(
            field,
            format!(
                "{given} has no body to replace (a declaration without one); use part: \"whole\""
            ),
        ));
    };
    if lang == Lang::Python {
        // The suite's lines: its first line's indentation is the body's.
        let indent = indent_at(src, start);
        return Ok((start, end, reindent(new, &indent)));
    }
    let inner = &src[start..end];
    let close_indent = indent_at(src, line_start(src, end));
    let multi_line = inner.contains(&b'\n');
    let body_indent = match inner
        .split(|&b| b == b'\n')
        .skip(1)
        .find(|l| l.iter().any(|b| !b.is_ascii_whitespace()))
    {
        Some(l) => leading_ws(l),
        None => format!("{close_indent}    "),
    };
    if !multi_line && !new.trim().contains('\n') {
        let t = new.trim();
        let text = if t.is_empty() {
            String::new()
        } else {
            format!(" {t} ")
        };
        return Ok((start, end, text));
    }
    if new.trim().is_empty() {
        return Ok((start, end, format!("\n{close_indent}")));
    }
    Ok((
        start,
        end,
        format!("\n{}\n{close_indent}", reindent(new, &body_indent)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(shown: &str, src: &str, name: &str, at: Where, new: &str) -> String {
        String::from_utf8(
            splice(shown, src.as_bytes(), "symbol", name, at, new)
                .unwrap()
                .bytes,
        )
        .unwrap()
    }

    #[test]
    fn body_between_braces_reindented() {
        let src = "impl A {\n    fn f(&self) -> u8 {\n        1\n    }\n}\n";
        let out = run(
            "a.rs",
            src,
            "A::f",
            Where::Replace(Part::Body),
            "let x = 2;\nx",
        );
        assert_eq!(
            out,
            "impl A {\n    fn f(&self) -> u8 {\n        let x = 2;\n        x\n    }\n}\n"
        );
    }

    #[test]
    fn python_suite_and_inserts() {
        let src = "class C:\n    @dec\n    def m(self):\n        return 1\n";
        let out = run(
            "a.py",
            src,
            "C.m",
            Where::Replace(Part::Body),
            "x = 2\nreturn x\n",
        );
        assert_eq!(
            out,
            "class C:\n    @dec\n    def m(self):\n        x = 2\n        return x\n"
        );
        let out = run("a.py", src, "m", Where::Before, "    # before");
        assert_eq!(
            out,
            "class C:\n    # before\n    @dec\n    def m(self):\n        return 1\n"
        );
        let out = run("a.py", src, "C", Where::After, "X = 1");
        assert_eq!(
            out,
            "class C:\n    @dec\n    def m(self):\n        return 1\nX = 1\n"
        );
    }
}
