//! grep's `output` and `data` (SPEC §9, 16.6): the page of entries in ripgrep's layout.
//!
//! `data` holds every entry of the page, which with head_limit 0 is every match of the search;
//! it is serialised straight from the collected files when the envelope is printed, so a large
//! result is held once, compactly (or spilled: `spill.rs`), and never as a `Value` tree.

use super::collect::{Context, FileResult, Match, Mode, Reload};
use super::collector::Found;
use crate::caps;
use crate::context::Ctx;
use crate::envelope::{Data, Success};
use crate::error::{Code, Result, ToolError};
use crate::walk::{self, Base};
use serde_json::Value;
use std::borrow::Cow;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;

#[derive(Clone, Copy)]
pub struct Page {
    pub mode: Mode,
    pub offset: usize,
    /// `usize::MAX` when unlimited.
    pub head_limit: usize,
    pub total: usize,
    pub line_numbers: bool,
    pub before: bool,
    pub after: bool,
}

/// The collected files and the page of their entries that is shown. Each file's path as shown
/// is made when it is written (from the root, it is the file's own path, borrowed), so no list
/// of them is held beside the files.
struct Results {
    found: Found,
    /// How the base is shown, which paths are shown below.
    base_shown: String,
    page: Page,
    truncated: bool,
}

/// One entry of the page: a path, and a file's count or one of its lines (with the file's
/// place among the files).
enum Entry<'p, 'm> {
    File(&'p str, &'p FileResult),
    Line(usize, &'p str, Match<'m>),
}

impl Results {
    /// `f`'s path as shown (SPEC 16.1).
    fn shown<'a>(&self, f: &'a FileResult) -> Cow<'a, str> {
        if self.base_shown == "." && !f.rel.as_os_str().is_empty() {
            return f.rel.to_string_lossy();
        }
        Cow::Owned(walk::show_below(&self.base_shown, &f.rel).0)
    }

    /// The page's files (files and count modes: a file is an entry).
    fn page_files(&self) -> impl Iterator<Item = &FileResult> {
        self.found
            .files()
            .skip(self.page.offset)
            .take(self.page.head_limit)
    }

    /// Hands the page's lines (content mode) to `each` with their file's place and path, in
    /// path, then line, order, until it breaks. A spilled file is read back when its turn comes.
    fn for_each_match(
        &self,
        mut each: impl FnMut(usize, &str, Match<'_>) -> io::Result<ControlFlow<()>>,
    ) -> io::Result<()> {
        let (offset, end) = (
            self.page.offset,
            self.page.offset.saturating_add(self.page.head_limit),
        );
        let mut reload = Reload::default();
        let mut rank = 0usize;
        for (i, f) in self.found.files().enumerate() {
            // Lines past those kept (the page's end) still count: `lines`, not `kept`.
            let first = rank;
            rank += f.lines;
            let skip = offset.saturating_sub(first);
            if first >= end || skip >= f.kept {
                continue; // nothing of it on the page: not read back
            }
            let path = self.shown(f);
            let view = f.view(&self.found.spill, &mut reload)?;
            for m in view.matches().take(end - first).skip(skip) {
                if each(i, &path, m)?.is_break() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// How many entries the page has, without going through the lines.
    fn page_len(&self) -> usize {
        let p = &self.page;
        if p.mode != Mode::Content {
            return self.found.len().saturating_sub(p.offset).min(p.head_limit);
        }
        let end = p.offset.saturating_add(p.head_limit);
        let mut rank = 0usize;
        self.found
            .files()
            .map(|f| {
                let first = rank;
                rank += f.lines;
                // As `for_each_match`: the first `end - first` kept lines, less the first
                // `offset - first`.
                f.kept
                    .min(end.saturating_sub(first))
                    .saturating_sub(p.offset.saturating_sub(first))
            })
            .sum()
    }

    /// Hands the page's entries to `each`, in order, until it breaks.
    fn for_each_entry(
        &self,
        mut each: impl FnMut(Entry<'_, '_>) -> ControlFlow<()>,
    ) -> io::Result<()> {
        match self.page.mode {
            Mode::Content => self.for_each_match(|i, p, m| Ok(each(Entry::Line(i, p, m)))),
            Mode::Files | Mode::Count => {
                for f in self.page_files() {
                    if each(Entry::File(&self.shown(f), f)).is_break() {
                        break;
                    }
                }
                Ok(())
            }
        }
    }
}

pub fn render(ctx: &Ctx, base: &Base, found: Found, p: &Page) -> Result<Success> {
    let lossy = found.files().filter(|f| f.rel.to_str().is_none()).count();
    let mut results = Results {
        found,
        base_shown: base.shown.clone(),
        page: *p,
        truncated: false,
    };
    let (output, shown_entries) = output(&results).map_err(|e| {
        ToolError::new(
            Code::IoError,
            format!(
                "could not read back the matches kept in grep's temp file: {}",
                crate::error::io_cause(&e)
            ),
        )
        .hint("Retry, or narrow the search (a smaller path, a glob, a head_limit).")
    })?;
    let n = results.page_len();
    results.truncated = n > 0 && p.offset + shown_entries < p.total;
    if lossy > 0 {
        ctx.warn(format!(
            "{lossy} path(s) are not valid UTF-8; they are shown with U+FFFD and cannot be passed back as given"
        ));
    }
    Ok(Success::with_data(output, results))
}

/// The text of the page as far as the cap allows, and how many entries it shows in full.
fn output(r: &Results) -> io::Result<(String, usize)> {
    let p = &r.page;
    let context = p.before || p.after;
    let mut lines: Vec<String> = Vec::new();
    // How many entries are complete once line i is printed.
    let mut done: Vec<usize> = Vec::new();
    // The last line shown: its file's place and number.
    let mut last: Option<(usize, u64)> = None;
    let (mut chars, mut counted) = (0usize, 0usize);
    // Entries seen (the page is not empty when one is).
    let mut n = 0;
    r.for_each_entry(|e| {
        let k = n;
        n = k + 1;
        // Lines past the cap can never be shown: with every entry asked for (head_limit 0),
        // formatting them all would cost more than the search.
        chars += lines[counted..]
            .iter()
            .map(|l| l.chars().count() + 1)
            .sum::<usize>();
        counted = lines.len();
        if chars > caps::GREP {
            return ControlFlow::Break(());
        }
        match e {
            Entry::File(path, _) if p.mode == Mode::Files => lines.push(path.to_string()),
            Entry::File(path, f) => lines.push(format!("{path}:{}", f.lines)),
            Entry::Line(i, path, m) => {
                let first = m.before.first_line().unwrap_or(m.line);
                let adjacent = last.is_some_and(|(li, ln)| li == i && first <= ln + 1);
                if context && last.is_some() && !adjacent {
                    lines.push("--".into());
                    done.push(k);
                }
                for (ln, text) in m.before.lines() {
                    lines.push(line(path, ln, text, '-', p.line_numbers));
                    done.push(k);
                }
                lines.push(line(path, m.line, m.text, ':', p.line_numbers));
                done.push(k + 1);
                for (ln, text) in m.after.lines() {
                    lines.push(line(path, ln, text, '-', p.line_numbers));
                    done.push(k + 1);
                }
                last = Some((i, m.after.last_line().unwrap_or(m.line)));
                return ControlFlow::Continue(());
            }
        }
        done.push(k + 1);
        ControlFlow::Continue(())
    })?;
    let total = p.total;
    let next = |shown: usize| p.offset + shown;
    let (output, k) = if total == 0 {
        ("No matches found\n".to_string(), 0)
    } else if n == 0 {
        (
            format!(
                "No entries at offset {} ({total} entries in all; use a smaller offset)\n",
                p.offset
            ),
            0,
        )
    } else {
        caps::fit(&lines, caps::GREP, |k| {
            let shown = if k == 0 { 0 } else { done[k - 1] };
            let cut_by_cap = k < lines.len();
            if !cut_by_cap && next(shown) >= total {
                return None;
            }
            let range = if p.offset == 0 {
                format!("showing {shown} of {total} entries")
            } else {
                format!(
                    "showing entries {}-{} of {total}",
                    p.offset + 1,
                    p.offset + shown
                )
            };
            let why = if cut_by_cap {
                "; output cap reached"
            } else {
                ""
            };
            Some(format!(
                "({range}{why}; use offset={} to see more)",
                next(shown)
            ))
        })
    };
    Ok((output, if k == 0 { 0 } else { done[k - 1] }))
}

fn line(path: &str, n: u64, text: &str, sep: char, numbers: bool) -> String {
    if numbers {
        format!("{path}{sep}{n}{sep}{text}")
    } else {
        format!("{path}{sep}{text}")
    }
}

impl Data for Results {
    fn write_json(self: Box<Self>, out: &mut dyn Write, warnings: &[String]) -> io::Result<()> {
        // A buffer of a concrete type: the writes below are many and small.
        let mut out = BufWriter::with_capacity(64 * 1024, out);
        self.write_data(&mut out, warnings)?;
        out.flush()
    }

    /// Parsed from what `write_json` writes: only `--pretty` asks for it, and one writer keeps
    /// the two forms from drifting apart.
    fn into_value(self: Box<Self>, warnings: &[String]) -> Value {
        let mut json = Vec::new();
        self.write_data(&mut json, warnings)
            .expect("writing to a Vec cannot fail");
        serde_json::from_slice(&json).expect("grep writes valid JSON")
    }
}

impl Results {
    /// `data` (SPEC §9) as serde_json would write the `Value` of it, `warnings` joined.
    ///
    /// Written by hand, because what makes the time after the walk (which runs alone, while
    /// rg prints as it searches) is 47,000 matches' keys, paths and text through serde_json's
    /// escaping, one byte at a time: here keys are literals, each file's path is escaped once,
    /// and text without a character to escape is copied as it is.
    fn write_data(&self, w: &mut impl Write, warnings: &[String]) -> io::Result<()> {
        let p = &self.page;
        match p.mode {
            Mode::Files => {
                w.write_all(br#"{"mode":"files_with_matches","files":["#)?;
                for (i, f) in self.page_files().enumerate() {
                    comma(w, i)?;
                    json_str(w, &self.shown(f))?;
                }
            }
            Mode::Count => {
                w.write_all(br#"{"mode":"count","counts":["#)?;
                for (i, f) in self.page_files().enumerate() {
                    comma(w, i)?;
                    w.write_all(br#"{"path":"#)?;
                    json_str(w, &self.shown(f))?;
                    w.write_all(br#","count":"#)?;
                    serde_json::to_writer(&mut *w, &f.lines)?;
                    w.write_all(b"}")?;
                }
            }
            Mode::Content => {
                w.write_all(br#"{"mode":"content","matches":["#)?;
                // Each file's path is escaped once, for all its lines.
                let (mut last, mut path_json) = (None, Vec::new());
                let mut i = 0;
                self.for_each_match(|file, path, m| {
                    if last != Some(file) {
                        path_json.clear();
                        json_str(&mut path_json, path)?;
                        last = Some(file);
                    }
                    comma(w, i)?;
                    i += 1;
                    w.write_all(br#"{"path":"#)?;
                    w.write_all(&path_json)?;
                    w.write_all(br#","line":"#)?;
                    serde_json::to_writer(&mut *w, &m.line)?;
                    w.write_all(br#","text":"#)?;
                    json_str(w, m.text)?;
                    // Context arrays only when context was asked for, empty or not (SPEC §9).
                    if p.before {
                        w.write_all(br#","before":"#)?;
                        context_json(w, m.before)?;
                    }
                    if p.after {
                        w.write_all(br#","after":"#)?;
                        context_json(w, m.after)?;
                    }
                    w.write_all(b"}")?;
                    Ok(ControlFlow::Continue(()))
                })?;
            }
        }
        w.write_all(br#"],"total":"#)?;
        serde_json::to_writer(&mut *w, &p.total)?;
        w.write_all(if self.truncated {
            br#","truncated":true"#
        } else {
            br#","truncated":false"#
        })?;
        if !warnings.is_empty() {
            w.write_all(br#","warnings":"#)?;
            serde_json::to_writer(&mut *w, warnings)?;
        }
        w.write_all(b"}")
    }
}

fn comma(w: &mut impl Write, i: usize) -> io::Result<()> {
    if i > 0 {
        w.write_all(b",")?;
    }
    Ok(())
}

/// `[{"line":N,"text":"…"},…]`
fn context_json(w: &mut impl Write, c: Context<'_>) -> io::Result<()> {
    w.write_all(b"[")?;
    for (i, (line, text)) in c.lines().enumerate() {
        comma(w, i)?;
        w.write_all(br#"{"line":"#)?;
        serde_json::to_writer(&mut *w, &line)?;
        w.write_all(br#","text":"#)?;
        json_str(w, text)?;
        w.write_all(b"}")?;
    }
    w.write_all(b"]")
}

/// A JSON string as serde_json writes it. It escapes only `"`, `\` and control characters; a
/// string without them, most lines of code, is copied as it is.
fn json_str(w: &mut impl Write, s: &str) -> io::Result<()> {
    if s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        return Ok(serde_json::to_writer(w, s)?);
    }
    w.write_all(b"\"")?;
    w.write_all(s.as_bytes())?;
    w.write_all(b"\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_written_as_serde_json_writes_them() {
        for s in [
            "",
            "plain",
            "a \"quote\"",
            "back\\slash",
            "tab\there",
            "\u{1}\u{1f}\u{7f}é€😀/",
        ] {
            let mut ours = Vec::new();
            json_str(&mut ours, s).unwrap();
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                serde_json::to_string(s).unwrap()
            );
        }
    }
}
