//! Decoded text as lines, line endings, and the typography folding of rung 3 (SPEC 16.5).
//!
//! A line ends at `\n`; a `\r` before it belongs to the ending, not to the line (read's rule,
//! SPEC 16.4), so the line-based rungs compare what read shows.

use memchr::memchr_iter;
use std::borrow::Cow;

/// Where each line of a text starts, and how its lines end.
#[derive(Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
    /// Lines ending in `\r\n`.
    pub crlf: usize,
    /// Lines ending in a bare `\n`.
    pub lf: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
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
        LineIndex {
            starts,
            len: bytes.len(),
            crlf,
            lf,
        }
    }

    pub fn count(&self) -> usize {
        self.starts.len()
    }

    pub fn start(&self, i: usize) -> usize {
        self.starts[i]
    }

    /// The end of line `i`, after its terminator.
    pub fn end(&self, i: usize) -> usize {
        self.starts.get(i + 1).copied().unwrap_or(self.len)
    }

    /// The end of line `i` without its terminator.
    pub fn content_end(&self, text: &str, i: usize) -> usize {
        let b = text.as_bytes();
        let mut e = self.end(i);
        if e > self.starts[i] && b[e - 1] == b'\n' {
            e -= 1;
            if e > self.starts[i] && b[e - 1] == b'\r' {
                e -= 1;
            }
        }
        e
    }

    /// Line `i` as read shows it: without its terminator.
    pub fn content<'a>(&self, text: &'a str, i: usize) -> &'a str {
        &text[self.starts[i]..self.content_end(text, i)]
    }

    /// The 0-based line holding byte `pos`; the end of the text counts as the last line.
    pub fn line_of(&self, pos: usize) -> usize {
        self.starts.partition_point(|&s| s <= pos).saturating_sub(1)
    }

    /// The style most lines use: CRLF only when it outnumbers bare LF.
    pub fn dominant(&self) -> Eol {
        if self.crlf > self.lf {
            Eol::CrLf
        } else {
            Eol::Lf
        }
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
        assert_eq!(idx.count(), 4);
        assert_eq!((idx.crlf, idx.lf), (1, 2));
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
