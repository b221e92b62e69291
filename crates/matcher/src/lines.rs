//! Decoded text as lines, line endings, and the typography folding of rung 3 (SPEC 16.5).
//!
//! A line ends at `\n`; a `\r` before it belongs to the ending, not to the line (read's rule,
//! SPEC 16.4), so the line-based rungs compare what read shows.

use memchr::memchr_iter;
use std::borrow::Cow;
use std::cell::{Cell, OnceCell};

/// Where each line of a text starts, and how its lines end. The table of line starts is built
/// on first use: an exact match in a 10 MB file needs at most a count of its line breaks.
#[derive(Debug)]
pub struct LineIndex<'a> {
    text: &'a str,
    starts: OnceCell<Vec<usize>>,
    /// Lines ending in `\r\n`, and in a bare `\n`.
    eols: OnceCell<(usize, usize)>,
    /// `(pos, newlines before pos)` of the last line_of answered by counting: callers ask in
    /// ascending order, so counting goes on from there.
    counted: Cell<(usize, usize)>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> LineIndex<'a> {
        LineIndex {
            text,
            starts: OnceCell::new(),
            eols: OnceCell::new(),
            counted: Cell::new((0, 0)),
        }
    }

    fn starts(&self) -> &[usize] {
        self.starts.get_or_init(|| {
            let bytes = self.text.as_bytes();
            let mut starts = Vec::with_capacity(bytes.len() / 40 + 1);
            let (mut crlf, mut lf) = (0, 0);
            if !bytes.is_empty() {
                starts.push(0);
            }
            for i in memchr_iter(b'\n', bytes) {
                if i > 0 && bytes[i - 1] == b'\r' {
                    crlf += 1;
                } else {
                    lf += 1;
                }
                if i + 1 < bytes.len() {
                    starts.push(i + 1);
                }
            }
            let _ = self.eols.set((crlf, lf));
            starts
        })
    }

    /// How many lines end in `\r\n` and in a bare `\n`.
    pub fn eols(&self) -> (usize, usize) {
        *self.eols.get_or_init(|| {
            let bytes = self.text.as_bytes();
            let all = memchr_iter(b'\n', bytes).count();
            let crlf = memchr::memmem::find_iter(bytes, b"\r\n").count();
            (crlf, all - crlf)
        })
    }

    pub fn count(&self) -> usize {
        if let Some(starts) = self.starts.get() {
            return starts.len();
        }
        let (crlf, lf) = self.eols();
        crlf + lf + usize::from(!self.text.is_empty() && !self.text.ends_with('\n'))
    }

    pub fn start(&self, i: usize) -> usize {
        self.starts()[i]
    }

    /// The end of line `i`, after its terminator.
    pub fn end(&self, i: usize) -> usize {
        self.starts().get(i + 1).copied().unwrap_or(self.text.len())
    }

    /// The end of line `i` without its terminator (`text` is the indexed text).
    pub fn content_end(&self, text: &str, i: usize) -> usize {
        let b = text.as_bytes();
        let start = self.start(i);
        let mut e = self.end(i);
        if e > start && b[e - 1] == b'\n' {
            e -= 1;
            if e > start && b[e - 1] == b'\r' {
                e -= 1;
            }
        }
        e
    }

    /// Line `i` as read shows it: without its terminator.
    pub fn content<'t>(&self, text: &'t str, i: usize) -> &'t str {
        &text[self.start(i)..self.content_end(text, i)]
    }

    /// The 0-based line holding byte `pos`; the end of the text counts as the last line.
    pub fn line_of(&self, pos: usize) -> usize {
        if let Some(starts) = self.starts.get() {
            return starts.partition_point(|&s| s <= pos).saturating_sub(1);
        }
        let bytes = self.text.as_bytes();
        let pos = pos.min(bytes.len());
        let (from, before) = match self.counted.get() {
            (p, n) if p <= pos => (p, n),
            _ => (0, 0),
        };
        let newlines = before + memchr_iter(b'\n', &bytes[from..pos]).count();
        self.counted.set((pos, newlines));
        // a final line break starts no line after it
        if pos == bytes.len() && bytes.ends_with(b"\n") {
            newlines - 1
        } else {
            newlines
        }
    }

    /// The style most lines use: CRLF only when it outnumbers bare LF.
    pub fn dominant(&self) -> Eol {
        let (crlf, lf) = self.eols();
        if crlf > lf { Eol::CrLf } else { Eol::Lf }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eol {
    Lf,
    CrLf,
}

/// Counts `\r\n` and bare `\n` in `s`.
pub fn count_eols(s: &str) -> (usize, usize) {
    let b = s.as_bytes();
    let (mut crlf, mut lf) = (0, 0);
    for i in memchr_iter(b'\n', b) {
        if i > 0 && b[i - 1] == b'\r' {
            crlf += 1;
        } else {
            lf += 1;
        }
    }
    (crlf, lf)
}

/// Every bare `\n` becomes `\r\n`.
pub fn to_crlf(s: &str) -> Cow<'_, str> {
    if count_eols(s).1 == 0 {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + s.len() / 20);
    let mut prev = '\0';
    for c in s.chars() {
        if c == '\n' && prev != '\r' {
            out.push('\r');
        }
        out.push(c);
        prev = c;
    }
    Cow::Owned(out)
}

/// Every `\r\n` becomes `\n`.
pub fn to_lf(s: &str) -> Cow<'_, str> {
    if s.contains("\r\n") {
        Cow::Owned(s.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(s)
    }
}

/// `s` split into lines by read's rule, less one final line ending; the flag says whether there
/// was one. `"a\r\nb\n"` → `(["a", "b"], true)`.
pub fn split_lines(s: &str) -> (Vec<&str>, bool) {
    let (body, ended) = match s.strip_suffix('\n') {
        Some(b) => (b.strip_suffix('\r').unwrap_or(b), true),
        None => (s, false),
    };
    let lines = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    (lines, ended)
}

pub fn trim_ws_end(s: &str) -> &str {
    s.trim_end_matches([' ', '\t'])
}

/// The leading spaces and tabs of `s`.
pub fn leading_ws(s: &str) -> &str {
    &s[..s.len() - s.trim_start_matches([' ', '\t']).len()]
}

/// Whether `s` holds nothing but spaces and tabs.
pub fn is_blank(s: &str) -> bool {
    trim_ws_end(s).is_empty()
}

/// What rung 3 turns a character into: `None` keeps it, `Some("")` drops it.
pub fn fold_char(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' => "\"",
        '\u{2010}'..='\u{2015}' | '\u{2212}' => "-",
        '\u{2026}' => "...",
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => " ",
        '\u{200B}' | '\u{FEFF}' => "",
        _ => return None,
    })
}

/// Curly quotes, dashes, the ellipsis and odd spaces folded to ASCII (SPEC 16.5).
pub fn fold(s: &str) -> Cow<'_, str> {
    if s.is_ascii() || !s.chars().any(|c| fold_char(c).is_some()) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match fold_char(c) {
            Some(f) => out.push_str(f),
            None => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_follows_reads_line_rule() {
        let t = "a\r\nb\n\nc";
        let idx = LineIndex::new(t);
        assert_eq!(idx.start(0), 0);
        assert_eq!(idx.count(), 4);
        assert_eq!(idx.eols(), (1, 2));
        // counted, before any table exists, as the table answers
        let lazy = LineIndex::new(t);
        let counted: Vec<usize> = (0..=t.len()).map(|p| lazy.line_of(p)).collect();
        let table: Vec<usize> = (0..=t.len()).map(|p| idx.line_of(p)).collect();
        assert!(idx.starts.get().is_some() && lazy.starts.get().is_none());
        assert_eq!(counted, table);
        for t in ["", "x", "x\n", "a\n\n", "\n"] {
            let (lazy, idx) = (LineIndex::new(t), LineIndex::new(t));
            let _ = idx.starts();
            assert_eq!(lazy.count(), idx.count(), "{t:?}");
            assert_eq!(lazy.line_of(t.len()), idx.line_of(t.len()), "{t:?}");
            assert_eq!(lazy.line_of(0), idx.line_of(0), "{t:?}");
        }
        let lines: Vec<&str> = (0..4).map(|i| idx.content(t, i)).collect();
        assert_eq!(lines, ["a", "b", "", "c"]);
        assert_eq!(idx.end(0), 3);
        assert_eq!(idx.line_of(0), 0);
        assert_eq!(idx.line_of(3), 1);
        assert_eq!(idx.line_of(t.len()), 3);
        assert_eq!(LineIndex::new("").count(), 0);
        assert_eq!(LineIndex::new("x\n").count(), 1);
        // a lone CR stays inside the line
        assert_eq!(LineIndex::new("a\rb\n").content("a\rb\n", 0), "a\rb");
    }

    #[test]
    fn line_ending_conversions() {
        assert_eq!(to_crlf("a\nb\r\nc\n"), "a\r\nb\r\nc\r\n");
        assert!(matches!(to_crlf("a\r\nb"), Cow::Borrowed(_)));
        assert_eq!(to_lf("a\r\nb\n"), "a\nb\n");
        assert_eq!(count_eols("a\r\nb\nc\n"), (1, 2));
        assert_eq!(split_lines("a\r\nb\n"), (vec!["a", "b"], true));
        assert_eq!(split_lines("a\n\n"), (vec!["a", ""], true));
        assert_eq!(split_lines("a"), (vec!["a"], false));
    }

    #[test]
    fn typography_folds_to_ascii() {
        assert_eq!(
            fold("\u{201C}hi\u{201D} \u{2018}x\u{2019} a\u{2014}b \u{2212}1\u{2026}"),
            "\"hi\" 'x' a-b -1..."
        );
        assert_eq!(fold("a\u{00A0}b\u{3000}c\u{202F}d"), "a b c d");
        assert_eq!(fold("zero\u{200B}width\u{FEFF}"), "zerowidth");
        assert_eq!(fold("\u{2032}\u{2033}\u{2010}\u{2011}"), "'\"--");
        assert!(matches!(fold("plain é"), Cow::Borrowed(_)));
    }

    #[test]
    fn whitespace_helpers() {
        assert_eq!(leading_ws("\t  x y "), "\t  ");
        assert_eq!(trim_ws_end("x \t"), "x");
        assert!(is_blank(" \t"));
        assert!(!is_blank(" x"));
    }
}
