//! What one file's search finds (a `Sink`), and the bounded, ordered collection of every file's
//! results.
//!
//! Files finish in any order (the walk is parallel), yet the page asked for (`offset`,
//! `head_limit`) is defined in path order. The collector keeps files in a map ordered by path
//! and drops any file whose first entry already ranks past the page: a file that arrives later
//! can only push it further down. So memory holds about one page of entries, however many lines
//! match, while `total` still counts them all.

use crate::text::MAX_LINE_CHARS;
use crate::tools::walk::PathKey;
use grep_searcher::{Searcher, Sink, SinkContext, SinkContextKind, SinkMatch};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Files,
    Content,
    Count,
}

#[derive(Debug, Clone)]
pub struct Line {
    pub line: u64,
    pub text: String,
}

/// One matching line, with the context lines the searcher attached to it.
#[derive(Debug, Clone)]
pub struct Item {
    pub line: u64,
    pub text: String,
    pub before: Vec<Line>,
    pub after: Vec<Line>,
}

/// One file's findings.
#[derive(Debug, Default)]
pub struct FileResult {
    /// Below the base; the sort key.
    pub rel: PathBuf,
    /// Matching lines (all of them, also those not kept).
    pub lines: usize,
    /// The first matching lines, at most the page's end (content mode only).
    pub items: Vec<Item>,
    /// Where binary data was found, when it was.
    pub binary_at: Option<u64>,
    /// A match was found past the binary data (content mode stops there, as ripgrep's
    /// printer does, and shows no line of it).
    pub binary_matched: bool,
}

impl FileResult {
    /// How many entries (SPEC 16.6) this file contributes.
    pub fn entries(&self, mode: Mode) -> usize {
        match mode {
            Mode::Content => self.lines,
            Mode::Files | Mode::Count => usize::from(self.lines > 0),
        }
    }
}

/// The line as shown: without its terminator, invalid UTF-8 replaced, cut as read cuts it.
pub fn show_line(bytes: &[u8]) -> String {
    let mut b = bytes;
    if let Some(x) = b.strip_suffix(b"\n") {
        b = x;
    }
    if let Some(x) = b.strip_suffix(b"\r") {
        b = x;
    }
    let s = String::from_utf8_lossy(b);
    // Fewer bytes than the limit means fewer characters too: the common case costs no count.
    if s.len() <= MAX_LINE_CHARS {
        return s.into_owned();
    }
    let chars = s.chars().count();
    if chars <= MAX_LINE_CHARS {
        return s.into_owned();
    }
    let cut = s
        .char_indices()
        .nth(MAX_LINE_CHARS)
        .map_or(s.len(), |(i, _)| i);
    format!("{}… [line truncated: {chars} chars]", &s[..cut])
}

/// The sink for one file.
pub struct FileSink {
    pub mode: Mode,
    /// Keep at most this many items (the page's end): later ones can never be shown.
    pub keep: usize,
    pub result: FileResult,
    pending_before: Vec<Line>,
    last_line: u64,
}

impl FileSink {
    pub fn new(mode: Mode, keep: usize, rel: PathBuf) -> Self {
        FileSink {
            mode,
            keep,
            result: FileResult {
                rel,
                ..FileResult::default()
            },
            pending_before: Vec::new(),
            last_line: 0,
        }
    }
}

impl Sink for FileSink {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, m: &SinkMatch<'_>) -> Result<bool, std::io::Error> {
        let first = m.line_number().unwrap_or(0);
        if self.mode == Mode::Content && self.result.binary_at.is_some() {
            self.result.binary_matched = true;
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
            if self.mode == Mode::Content && self.result.items.len() < self.keep {
                self.result.items.push(Item {
                    line: n,
                    text: show_line(line),
                    before: std::mem::take(&mut self.pending_before),
                    after: Vec::new(),
                });
            }
        }
        Ok(true)
    }

    fn context(&mut self, _: &Searcher, c: &SinkContext<'_>) -> Result<bool, std::io::Error> {
        if self.mode != Mode::Content {
            return Ok(true);
        }
        let n = c.line_number().unwrap_or(0);
        match c.kind() {
            SinkContextKind::Before => {
                if self.result.items.len() < self.keep {
                    self.pending_before.push(Line {
                        line: n,
                        text: show_line(c.bytes()),
                    });
                }
            }
            SinkContextKind::After => {
                if let Some(last) = self.result.items.last_mut()
                    && last.line >= self.last_line
                {
                    last.after.push(Line {
                        line: n,
                        text: show_line(c.bytes()),
                    });
                }
            }
            SinkContextKind::Other => {}
        }
        Ok(true)
    }

    fn context_break(&mut self, _: &Searcher) -> Result<bool, std::io::Error> {
        self.pending_before.clear();
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, offset: u64) -> Result<bool, std::io::Error> {
        self.result.binary_at.get_or_insert(offset);
        Ok(true)
    }
}

/// Every file's results, in path order, bounded to the page.
pub struct Collector {
    mode: Mode,
    /// `offset + head_limit`, or `usize::MAX` when unlimited.
    window: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    files: BTreeMap<PathKey, FileResult>,
    /// Entries in `files`.
    kept: usize,
    /// Entries found, kept or not.
    total: usize,
}

impl Collector {
    pub fn new(mode: Mode, window: usize) -> Self {
        Collector {
            mode,
            window,
            state: Mutex::new(State::default()),
        }
    }

    pub fn add(&self, r: FileResult) {
        let n = r.entries(self.mode);
        if n == 0 {
            return;
        }
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.total += n;
        if self.window != usize::MAX
            && s.kept >= self.window
            && s.files
                .last_key_value()
                .is_some_and(|(k, _)| crate::tools::walk::path_cmp(&r.rel, &k.0).is_gt())
        {
            return; // ranks past a full page
        }
        s.kept += n;
        s.files.insert(PathKey(r.rel.clone()), r);
        // Drop trailing files whose first entry ranks at or past the page's end.
        while let Some((_, last)) = s.files.last_key_value() {
            let ln = last.entries(self.mode);
            if s.kept - ln >= self.window {
                s.kept -= ln;
                s.files.pop_last();
            } else {
                break;
            }
        }
    }

    /// The files in path order, and the total number of entries.
    pub fn finish(self) -> (Vec<FileResult>, usize) {
        let s = self.state.into_inner().unwrap_or_else(|p| p.into_inner());
        (s.files.into_values().collect(), s.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, lines: usize) -> FileResult {
        FileResult {
            rel: PathBuf::from(name),
            lines,
            items: (1..=lines as u64)
                .map(|line| Item {
                    line,
                    text: String::new(),
                    before: vec![],
                    after: vec![],
                })
                .collect(),
            binary_at: None,
            binary_matched: false,
        }
    }

    #[test]
    fn keeps_the_first_page_in_path_order_whatever_the_arrival_order() {
        let c = Collector::new(Mode::Content, 4);
        for (name, n) in [("d", 3), ("b", 2), ("e", 9), ("a", 1), ("c", 5)] {
            c.add(file(name, n));
        }
        let (files, total) = c.finish();
        assert_eq!(total, 20);
        let names: Vec<_> = files.iter().map(|f| f.rel.to_str().unwrap()).collect();
        // a(1) b(2) c(5): c's first entry is the 4th, so it stays; d and e rank past the page.
        assert_eq!(names, ["a", "b", "c"]);
    }

    #[test]
    fn files_mode_counts_files() {
        let c = Collector::new(Mode::Files, 2);
        for name in ["z", "y", "x", "w"] {
            c.add(file(name, 3));
        }
        let (files, total) = c.finish();
        assert_eq!(total, 4);
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].rel, PathBuf::from("w"));
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
}
