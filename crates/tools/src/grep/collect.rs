//! What one file's search finds (a `Sink`), and how its kept lines are held until written.
//!
//! Kept lines wait for the end of the walk (`collector.rs`), and with head_limit 0 they are
//! every matching line: each costs its text and a 10-byte row, a file's buffers are exactly its
//! size, and a file's lines may be spilled to a temp file (`spill.rs`) and read back.

use super::spill::{Spill, Window};
use crate::text::MAX_LINE_CHARS;
use grep_searcher::{Searcher, Sink, SinkContext, SinkContextKind, SinkMatch};
use std::borrow::Cow;
use std::io;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Files,
    Content,
    Count,
}

/// One kept line of a file, in file order: a match, or context for the match next to it. Its
/// text is the next `len` bytes of the file's `text`.
///
/// Kept lines wait for the end of the walk (files finish out of path order), and with
/// head_limit 0 they are every matching line: packed, one costs 10 bytes besides its text (a
/// `String` each would cost more than most lines). Read it through its methods: a reference
/// to a field of a packed struct may be unaligned.
#[derive(Debug, Clone, Copy)]
#[repr(C, packed(2))]
struct Row {
    line: u64,
    /// `len << 2 | kind`
    len_kind: u16,
}

// A shown line is at most MAX_LINE_CHARS characters of up to 4 bytes and the cut marker.
const _: () = assert!(MAX_LINE_CHARS * 4 + 64 < 1 << 14);

impl Row {
    fn new(line: u64, len: usize, kind: Kind) -> Row {
        Row {
            line,
            len_kind: (len as u16) << 2 | kind as u16,
        }
    }

    fn line(self) -> u64 {
        self.line
    }

    fn len(self) -> usize {
        usize::from(self.len_kind >> 2)
    }

    fn kind(self) -> Kind {
        match self.len_kind & 3 {
            0 => Kind::Match,
            1 => Kind::Before,
            _ => Kind::After,
        }
    }

    /// The row as it is spilled: `line` then `len_kind`, little-endian.
    fn encode(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&{ self.line }.to_le_bytes());
        out.extend_from_slice(&{ self.len_kind }.to_le_bytes());
    }

    fn decode(b: &[u8]) -> Row {
        let (line, len_kind) = b.split_at(8);
        Row {
            line: u64::from_le_bytes(line.try_into().unwrap_or_default()),
            len_kind: u16::from_le_bytes(len_kind.try_into().unwrap_or_default()),
        }
    }
}

const ROW_BYTES: usize = std::mem::size_of::<Row>();

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Match = 0,
    Before = 1,
    After = 2,
}

/// One file's findings.
#[derive(Debug, Default)]
pub struct FileResult {
    /// Below the base; the sort key.
    pub rel: PathBuf,
    /// Matching lines (all of them, also those not kept).
    pub lines: usize,
    /// Matching lines kept: the first ones, at most the page's end (content mode only).
    pub kept: usize,
    kept_lines: Kept,
    /// Binary data was found.
    pub binary: bool,
}

/// The kept lines (with their context lines): their text back to back, and their rows.
#[derive(Debug)]
enum Kept {
    Held {
        text: Box<str>,
        rows: Box<[Row]>,
    },
    /// In the spill file from `at`: the text, then the rows.
    Spilled {
        at: u64,
        text: usize,
        rows: usize,
    },
}

impl Default for Kept {
    fn default() -> Self {
        Kept::Held {
            text: "".into(),
            rows: Box::new([]),
        }
    }
}

impl Kept {
    /// Bytes held in memory.
    fn held(&self) -> usize {
        match self {
            Kept::Held { text, rows } => text.len() + rows.len() * ROW_BYTES,
            Kept::Spilled { .. } => 0,
        }
    }

    /// Moves held lines to the spill file.
    fn spill(&mut self, spill: &mut Spill) {
        let Kept::Held { text, rows } = self else {
            return;
        };
        let at = spill.put(text.as_bytes(), |out| {
            rows.iter().for_each(|r| r.encode(out))
        });
        *self = Kept::Spilled {
            at,
            text: text.len(),
            rows: rows.len(),
        };
    }
}

/// A file's kept lines, held or read back.
#[derive(Clone, Copy)]
pub struct View<'a> {
    text: &'a str,
    rows: &'a [Row],
}

/// What a spilled file's lines are read back into, reused from file to file.
#[derive(Default)]
pub struct Reload {
    raw: Vec<u8>,
    rows: Vec<Row>,
    window: Window,
}

impl FileResult {
    /// How many entries (SPEC 16.6) this file contributes.
    pub fn entries(&self, mode: Mode) -> usize {
        match mode {
            Mode::Content => self.lines,
            Mode::Files | Mode::Count => usize::from(self.lines > 0),
        }
    }

    /// Bytes of kept lines held in memory.
    pub fn held(&self) -> usize {
        self.kept_lines.held()
    }

    /// Moves the kept lines to `spill`.
    pub fn spill(&mut self, spill: &mut Spill) {
        self.kept_lines.spill(spill);
    }

    #[cfg(test)]
    pub fn is_spilled(&self) -> bool {
        matches!(self.kept_lines, Kept::Spilled { .. })
    }

    /// The kept lines, read back from `spill` into `into` when they were spilled.
    pub fn view<'a>(&'a self, spill: &Spill, into: &'a mut Reload) -> io::Result<View<'a>> {
        match &self.kept_lines {
            Kept::Held { text, rows } => Ok(View { text, rows }),
            &Kept::Spilled { at, text, rows } => {
                let Reload {
                    raw,
                    rows: decoded,
                    window,
                } = into;
                spill.read(at, text + rows * ROW_BYTES, raw, window)?;
                let (t, r) = raw.split_at(text);
                decoded.clear();
                decoded.extend(r.chunks_exact(ROW_BYTES).map(Row::decode));
                Ok(View {
                    text: std::str::from_utf8(t).map_err(io::Error::other)?,
                    rows: decoded,
                })
            }
        }
    }
}

impl<'a> View<'a> {
    /// The kept matching lines in order, each with its context.
    pub fn matches(self) -> Matches<'a> {
        Matches {
            view: self,
            row: 0,
            at: 0,
        }
    }
}

/// A searching thread's buffers for the file at hand, reused from file to file. The file's
/// findings are copied out at their exact size: growing them in place would leave spare
/// capacity and a trail of outgrown buffers behind every file.
#[derive(Default)]
pub struct Scratch {
    text: String,
    rows: Vec<Row>,
}

impl Scratch {
    fn push(&mut self, line: u64, bytes: &[u8], kind: Kind) {
        let len = push_shown(&mut self.text, bytes);
        self.rows.push(Row::new(line, len, kind));
    }

    /// Forgets the context lines at the end (those still waiting for a match).
    fn drop_pending_before(&mut self) {
        while let Some(r) = self.rows.last().filter(|r| r.kind() == Kind::Before) {
            self.text.truncate(self.text.len() - r.len());
            self.rows.pop();
        }
    }

    fn clear(&mut self) {
        self.text.clear();
        self.rows.clear();
    }
}

/// A kept matching line and its context lines.
pub struct Match<'a> {
    pub line: u64,
    pub text: &'a str,
    pub before: Context<'a>,
    pub after: Context<'a>,
}

/// Consecutive context lines: their rows and their text, back to back.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    rows: &'a [Row],
    text: &'a str,
}

impl<'a> Context<'a> {
    pub fn first_line(&self) -> Option<u64> {
        self.rows.first().map(|r| r.line())
    }

    pub fn last_line(&self) -> Option<u64> {
        self.rows.last().map(|r| r.line())
    }

    pub fn lines(&self) -> impl Iterator<Item = (u64, &'a str)> + 'a {
        let text = self.text;
        self.rows.iter().scan(0usize, move |at, r| {
            let start = *at;
            *at += r.len();
            Some((r.line(), &text[start..*at]))
        })
    }
}

pub struct Matches<'a> {
    view: View<'a>,
    row: usize,
    at: usize,
}

impl<'a> Matches<'a> {
    /// The rows of `kind` from here on, and their text.
    fn run_of(&mut self, kind: Kind) -> Context<'a> {
        let f = self.view;
        let (row, at) = (self.row, self.at);
        while let Some(r) = f.rows.get(self.row).filter(|r| r.kind() == kind) {
            self.at += r.len();
            self.row += 1;
        }
        Context {
            rows: &f.rows[row..self.row],
            text: &f.text[at..self.at],
        }
    }
}

impl<'a> Iterator for Matches<'a> {
    type Item = Match<'a>;

    fn next(&mut self) -> Option<Match<'a>> {
        let f = self.view;
        let before = self.run_of(Kind::Before);
        let r = *f.rows.get(self.row)?;
        // The sink puts before-context right in front of a match and after-context right
        // after one, so the next row is a match.
        debug_assert_eq!(r.kind(), Kind::Match);
        let start = self.at;
        self.at += r.len();
        self.row += 1;
        Some(Match {
            line: r.line(),
            text: &f.text[start..self.at],
            before,
            after: self.run_of(Kind::After),
        })
    }
}

/// Appends the line as shown: without its terminator, invalid UTF-8 replaced, cut as read cuts
/// it. Returns the bytes appended.
fn push_shown(out: &mut String, bytes: &[u8]) -> usize {
    let mut b = bytes;
    if let Some(x) = b.strip_suffix(b"\n") {
        b = x;
    }
    if let Some(x) = b.strip_suffix(b"\r") {
        b = x;
    }
    // from_utf8 checks ASCII a word at a time, the lossy conversion a byte at a time.
    let s = match std::str::from_utf8(b) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(b),
    };
    let before = out.len();
    // Fewer bytes than the limit means fewer characters too: the common case costs no count.
    let chars = if s.len() <= MAX_LINE_CHARS {
        0
    } else {
        s.chars().count()
    };
    if chars <= MAX_LINE_CHARS {
        out.push_str(&s);
    } else {
        let cut = s
            .char_indices()
            .nth(MAX_LINE_CHARS)
            .map_or(s.len(), |(i, _)| i);
        out.push_str(&s[..cut]);
        out.push_str(&format!("… [line truncated: {chars} chars]"));
    }
    out.len() - before
}

/// The sink for one file.
pub struct FileSink<'s> {
    pub mode: Mode,
    /// Keep at most this many matching lines (the page's end): later ones can never be shown.
    pub keep: usize,
    /// All but the kept lines, which are in `scratch` until `finish`.
    pub result: FileResult,
    scratch: &'s mut Scratch,
    last_line: u64,
    /// The last matching line kept.
    last_kept: u64,
    /// Where binary data was found, when it was.
    pub binary_at: Option<u64>,
    /// A match was found past the binary data (content mode stops there, as ripgrep's
    /// printer does, and shows no line of it).
    pub binary_matched: bool,
}

impl<'s> FileSink<'s> {
    pub fn new(mode: Mode, keep: usize, rel: PathBuf, scratch: &'s mut Scratch) -> Self {
        scratch.clear(); // the last file's search may have failed halfway
        FileSink {
            mode,
            keep,
            result: FileResult {
                rel,
                ..FileResult::default()
            },
            scratch,
            last_line: 0,
            last_kept: 0,
            binary_at: None,
            binary_matched: false,
        }
    }

    pub fn finish(self) -> FileResult {
        let s = self.scratch;
        s.drop_pending_before();
        let result = FileResult {
            kept_lines: Kept::Held {
                text: exact_text(&mut s.text),
                rows: exact_rows(&mut s.rows),
            },
            binary: self.binary_at.is_some(),
            ..self.result
        };
        s.clear();
        result
    }
}

impl Sink for FileSink<'_> {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, m: &SinkMatch<'_>) -> Result<bool, std::io::Error> {
        let first = m.line_number().unwrap_or(0);
        if self.mode == Mode::Content && self.binary_at.is_some() {
            self.binary_matched = true;
            return Ok(false);
        }
        if self.mode == Mode::Files {
            self.result.lines = 1;
            return Ok(false);
        }
        // A multiline match is one entry per line it touches (SPEC 16.6); a line that an
        // earlier match already touched is not counted twice.
        for (i, line) in m.lines().enumerate() {
            let n = first + i as u64;
            if n <= self.last_line && self.last_line != 0 {
                continue;
            }
            self.last_line = n;
            self.result.lines += 1;
            if self.mode == Mode::Content && self.result.kept < self.keep {
                self.scratch.push(n, line, Kind::Match);
                self.result.kept += 1;
                self.last_kept = n;
            }
        }
        Ok(true)
    }

    fn context(&mut self, _: &Searcher, c: &SinkContext<'_>) -> Result<bool, std::io::Error> {
        if self.mode != Mode::Content {
            return Ok(true);
        }
        let n = c.line_number().unwrap_or(0);
        let kept = self.result.kept;
        match c.kind() {
            SinkContextKind::Before if kept < self.keep => {
                self.scratch.push(n, c.bytes(), Kind::Before)
            }
            // Context after a match that was not kept belongs to nothing shown.
            SinkContextKind::After if kept > 0 && self.last_kept >= self.last_line => {
                self.scratch.push(n, c.bytes(), Kind::After)
            }
            _ => {}
        }
        Ok(true)
    }

    fn context_break(&mut self, _: &Searcher) -> Result<bool, std::io::Error> {
        self.scratch.drop_pending_before();
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, offset: u64) -> Result<bool, std::io::Error> {
        self.binary_at.get_or_insert(offset);
        Ok(true)
    }
}

/// A scratch buffer this large (a file with many matches) is handed over whole, shrunk in place,
/// instead of being copied out and so held twice; a smaller one is copied and reused.
const HAND_OVER: usize = 64 * 1024;

fn exact_text(buf: &mut String) -> Box<str> {
    if buf.capacity() >= HAND_OVER {
        std::mem::take(buf).into_boxed_str()
    } else {
        buf.as_str().into()
    }
}

fn exact_rows(buf: &mut Vec<Row>) -> Box<[Row]> {
    if buf.capacity() * ROW_BYTES >= HAND_OVER {
        std::mem::take(buf).into_boxed_slice()
    } else {
        buf.as_slice().into()
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A file `name` of `lines` kept matching lines, `x` each.
    pub fn file(name: &str, lines: usize) -> FileResult {
        let mut scratch = Scratch::default();
        let mut sink = FileSink::new(Mode::Content, usize::MAX, PathBuf::from(name), &mut scratch);
        for line in 1..=lines as u64 {
            sink.scratch.push(line, b"x\n", Kind::Match);
        }
        sink.result.lines = lines;
        sink.result.kept = lines;
        sink.finish()
    }

    fn show_line(bytes: &[u8]) -> String {
        let mut s = String::from("earlier ");
        let n = push_shown(&mut s, bytes);
        assert_eq!(n, s.len() - "earlier ".len());
        s.split_off("earlier ".len())
    }

    /// Searches `text` with `pattern` and one line of context, keeping `keep` matching lines.
    pub fn search(text: &str, pattern: &str, keep: usize) -> FileResult {
        let matcher = grep_regex::RegexMatcher::new_line_matcher(pattern).unwrap();
        let mut searcher = grep_searcher::SearcherBuilder::new()
            .line_number(true)
            .before_context(1)
            .after_context(1)
            .build();
        let mut scratch = Scratch::default();
        let mut sink = FileSink::new(Mode::Content, keep, PathBuf::from("f"), &mut scratch);
        searcher
            .search_slice(&matcher, text.as_bytes(), &mut sink)
            .unwrap();
        sink.finish()
    }

    fn lines(c: Context<'_>) -> Vec<(u64, String)> {
        c.lines().map(|(n, t)| (n, t.to_string())).collect()
    }

    #[test]
    fn matches_carry_their_own_context_lines() {
        let text = "a\nhit 2\nb\nc\nhit 5\nhit 6\nd\ne\nf\nhit 10\ng\n";
        let f = search(text, "hit", 3);
        assert_eq!((f.lines, f.kept), (4, 3));
        let (spill, mut reload) = (Spill::default(), Reload::default());
        let got: Vec<_> = f
            .view(&spill, &mut reload)
            .unwrap()
            .matches()
            .map(|m| (m.line, m.text.to_string(), lines(m.before), lines(m.after)))
            .collect();
        let s = |n: u64, t: &str| (n, t.to_string());
        assert_eq!(
            got,
            [
                (2, "hit 2".into(), vec![s(1, "a")], vec![s(3, "b")]),
                (5, "hit 5".into(), vec![s(4, "c")], vec![]),
                (6, "hit 6".into(), vec![], vec![s(7, "d")]),
            ],
            "line 10 is past `keep`: neither it nor its context is kept"
        );
        assert_eq!(
            f.view(&spill, &mut reload).unwrap().text,
            "ahit 2bchit 5hit 6d"
        );
    }

    #[test]
    fn a_row_keeps_any_line_number_and_the_longest_shown_line() {
        let longest = MAX_LINE_CHARS * 4 + "… [line truncated: 18446744073709551615 chars]".len();
        let r = Row::new(u64::MAX, longest, Kind::After);
        assert_eq!(
            (r.line(), r.len(), r.kind()),
            (u64::MAX, longest, Kind::After)
        );
        assert_eq!(std::mem::size_of::<Row>(), 10);
    }

    #[test]
    fn long_lines_are_cut_with_the_marker_and_line_endings_dropped() {
        assert_eq!(show_line(b"abc\r\n"), "abc");
        let long = "é".repeat(2500);
        let shown = show_line(long.as_bytes());
        assert!(shown.ends_with("… [line truncated: 2500 chars]"));
        assert_eq!(
            shown.chars().count(),
            2000 + "… [line truncated: 2500 chars]".chars().count()
        );
        assert_eq!(show_line(b"a\xffb"), "a\u{FFFD}b");
    }

    /// A kept match: its line, text, context lines before, and how many after.
    pub type Shown = (u64, String, Vec<(u64, String)>, usize);

    /// Every kept match of `f`.
    pub fn all(f: &FileResult, spill: &Spill) -> Vec<Shown> {
        let mut reload = Reload::default();
        let view = f.view(spill, &mut reload).unwrap();
        view.matches()
            .map(|m| {
                (
                    m.line,
                    m.text.to_string(),
                    lines(m.before),
                    m.after.lines().count(),
                )
            })
            .collect()
    }

    #[test]
    fn rows_spill_as_they_were() {
        for r in [
            Row::new(0, 0, Kind::Match),
            Row::new(u64::MAX, 8000, Kind::After),
            Row::new(12345, 17, Kind::Before),
        ] {
            let mut b = Vec::new();
            r.encode(&mut b);
            assert_eq!(b.len(), ROW_BYTES);
            let back = Row::decode(&b);
            assert_eq!(
                (back.line(), back.len(), back.kind()),
                (r.line(), r.len(), r.kind())
            );
        }
    }
}
