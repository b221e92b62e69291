//! The line splitter of read's streaming pass: counts and classifies every line, keeps the
//! window asked for, and for a tail marks where recent lines start (SPEC 16.4, 24.2).
//!
//! Most of a large file is outside any window. Those stretches take a bulk path: whole lines
//! are counted and classified a chunk at a time (a vectorised newline count and a few `memchr`
//! probes) instead of one line at a time, which matters for files of millions of short lines.

use super::{Line, MAX_LINE_CHARS};
use memchr::{memchr, memrchr};
use std::collections::VecDeque;

/// Which lines to keep: `first..first+limit`, stopping early once `budget` characters of
/// formatted output are reached (the output cap would cut there anyway).
#[derive(Debug, Clone, Copy)]
pub struct Window {
    pub first: u64,
    pub limit: u64,
    pub budget: usize,
    /// Keep each line of the window as this number instead of as text (read's indentation
    /// mode needs every line's shape, 4 bytes a line, not the lines of a whole file).
    pub summarize: Option<fn(&str) -> u32>,
}

impl Window {
    /// A window no line falls in: the pass only counts.
    pub const NONE: Window = Window {
        first: u64::MAX,
        limit: 0,
        budget: 0,
        summarize: None,
    };
}

/// How many marks a tail keeps at most, whatever its length: a tail of N lines marks every
/// ⌈N/1024⌉th line, so memory stays small even for `offset: -10000000`.
const MARKS: u64 = 1024;

/// Where recent lines start, for a tail of `count` lines: a ring of (line number, byte offset)
/// for every `step`th line, long enough to reach back past the tail's first line. A tail is
/// found by the one pass that fingerprints the file; its lines are then read from the mark.
#[derive(Debug)]
pub struct Marks {
    count: u64,
    step: u64,
    cap: usize,
    ring: VecDeque<(u64, u64)>,
}

impl Marks {
    pub fn new(count: u64) -> Marks {
        let step = count.div_ceil(MARKS).max(1);
        // One mark may be for the line after the last (begun by a final newline), one more
        // covers rounding: the mark at or before the tail's first line is always kept.
        let cap = (count.div_ceil(step) + 2) as usize;
        Marks {
            count,
            step,
            cap,
            ring: VecDeque::with_capacity(cap),
        }
    }

    fn wants(&self, line: u64) -> bool {
        (line - 1).is_multiple_of(self.step)
    }

    fn push(&mut self, line: u64, pos: u64) {
        if self.ring.len() == self.cap {
            self.ring.pop_front();
        }
        self.ring.push_back((line, pos));
    }

    /// The first line of the tail in a file of `total` lines.
    pub fn first_line(&self, total: u64) -> u64 {
        total.saturating_sub(self.count) + 1
    }

    /// The mark to read the tail from: (line number, byte offset), at or before `first_line`.
    pub fn start(&self, total: u64) -> Option<(u64, u64)> {
        let first = self.first_line(total);
        self.ring.iter().rev().find(|(l, _)| *l <= first).copied()
    }
}

/// Splits text into lines and keeps the window; counts and classifies every line.
pub struct Lines {
    first: u64,
    last: u64,
    budget: usize,
    used: usize,
    /// The number of the line being read.
    pub n: u64,
    /// The byte offset in the file of the next byte fed (meaningful for UTF-8 files only).
    pos: u64,
    in_line: bool,
    last_byte: u8,
    pub lf: u64,
    pub crlf: u64,
    pub spaces: bool,
    pub tabs: bool,
    cur: Vec<u8>,
    cur_chars: usize,
    pub out: Vec<Line>,
    summarize: Option<fn(&str) -> u32>,
    /// The window's lines as `summarize` saw them, when it is set (`out` stays empty).
    pub summary: Vec<u32>,
    pub marks: Option<Marks>,
}

impl Lines {
    /// Lines numbered from `n`, the first of which starts at byte `pos` of the file.
    pub fn new(w: Window, n: u64, pos: u64, marks: Option<Marks>) -> Lines {
        let mut lines = Lines {
            first: w.first,
            last: w.first.saturating_add(w.limit).saturating_sub(1),
            budget: w.budget,
            used: 0,
            n,
            pos,
            in_line: false,
            last_byte: 0,
            lf: 0,
            crlf: 0,
            spaces: false,
            tabs: false,
            cur: Vec::new(),
            cur_chars: 0,
            out: Vec::new(),
            summarize: w.summarize,
            summary: Vec::new(),
            marks,
        };
        lines.mark();
        lines
    }

    fn capturing(&self) -> bool {
        self.n >= self.first && self.n <= self.last && self.used < self.budget
    }

    /// Whether every line of the window has been kept (or the budget spent): a reader that
    /// only wants the window may stop.
    pub fn done(&self) -> bool {
        self.n > self.last || self.used >= self.budget
    }

    fn mark(&mut self) {
        if let Some(m) = &mut self.marks
            && m.wants(self.n)
        {
            m.push(self.n, self.pos);
        }
    }

    /// `s` is UTF-8 (validated or decoded), in pieces that may split a line anywhere but
    /// never a character.
    pub fn feed(&mut self, s: &[u8]) {
        // The line under way (or a new one) up to its newline, one line at a time…
        let Some(nl) = memchr(b'\n', s) else {
            return self.feed_lines(s);
        };
        let (head, rest) = s.split_at(nl + 1);
        self.feed_lines(head);
        // …then the whole lines after it, in bulk where no line of them is to be kept…
        let Some(nl) = memrchr(b'\n', rest) else {
            return self.feed_lines(rest);
        };
        let (body, tail) = rest.split_at(nl + 1);
        let scan = classify(body);
        let n_last = self.n + scan.newlines - 1;
        if self.used < self.budget && self.first <= n_last && self.last >= self.n {
            self.feed_lines(body);
        } else {
            self.feed_bulk(body, scan);
        }
        // …and the start of the next line.
        self.feed_lines(tail);
    }

    /// The line-at-a-time path.
    fn feed_lines(&mut self, mut s: &[u8]) {
        while !s.is_empty() {
            let (seg, rest, ended) = match memchr(b'\n', s) {
                Some(i) => (&s[..i], &s[i + 1..], true),
                None => (s, &s[s.len()..], false),
            };
            if let (Some(&first), Some(&last)) = (seg.first(), seg.last()) {
                if !self.in_line {
                    self.in_line = true;
                    match first {
                        b' ' => self.spaces = true,
                        b'\t' => self.tabs = true,
                        _ => {}
                    }
                }
                if self.capturing() {
                    self.take(seg);
                }
                self.last_byte = last;
            }
            self.pos += (seg.len() + usize::from(ended)) as u64;
            if ended {
                let crlf = self.in_line && self.last_byte == b'\r';
                if crlf {
                    self.crlf += 1
                } else {
                    self.lf += 1
                }
                self.end_line(crlf);
            }
            s = rest;
        }
    }

    /// `body` is `count` whole lines, starting at a line start, none of them kept; `scan`
    /// is what `classify` found in it.
    fn feed_bulk(&mut self, body: &[u8], scan: Classified) {
        let count = scan.newlines;
        let crlf = if scan.cr {
            memchr::memmem::find_iter(body, b"\r\n").count() as u64
        } else {
            0
        };
        self.crlf += crlf;
        self.lf += count - crlf;
        self.spaces |= scan.spaces;
        self.tabs |= scan.tabs;
        let n0 = self.n;
        let pos0 = self.pos;
        self.n += count;
        self.pos += body.len() as u64;
        if let Some(m) = &mut self.marks {
            // Only the last marks of the body can survive in the ring: find those lines'
            // starts from the end backwards (a tail of 10 lines costs a dozen probes a chunk).
            let mut found = Vec::new();
            let mut start = body.len(); // where line `j` starts, relative to the body
            let mut j = n0 + count;
            let lowest = (n0 + count).saturating_sub(m.cap as u64 * m.step);
            while j > n0 && j > lowest && found.len() < m.cap {
                if m.wants(j) {
                    found.push((j, pos0 + start as u64));
                }
                start = memrchr(b'\n', &body[..start - 1]).map_or(0, |i| i + 1);
                j -= 1;
            }
            for (line, pos) in found.into_iter().rev() {
                m.push(line, pos);
            }
        }
    }

    fn take(&mut self, seg: &[u8]) {
        for (i, &b) in seg.iter().enumerate() {
            if b & 0xC0 != 0x80 {
                self.cur_chars += 1;
                if self.cur_chars == MAX_LINE_CHARS + 2 {
                    // Enough kept (one spare for a CR that may end the line); only count the rest.
                    self.cur_chars += seg[i + 1..].iter().filter(|&&b| b & 0xC0 != 0x80).count();
                    return;
                }
            }
            if self.cur_chars <= MAX_LINE_CHARS + 1 {
                self.cur.push(b);
            }
        }
    }

    fn end_line(&mut self, crlf: bool) {
        if self.capturing() {
            let mut chars = self.cur_chars;
            if crlf {
                chars -= 1;
                if self.cur.last() == Some(&b'\r') {
                    self.cur.pop();
                }
            }
            // Keep the first MAX_LINE_CHARS characters (borrowed: a summary keeps no text).
            let whole = String::from_utf8_lossy(&self.cur);
            let text = match whole.char_indices().nth(MAX_LINE_CHARS) {
                Some((cut, _)) => &whole[..cut],
                None => &whole[..],
            };
            match self.summarize {
                Some(f) => self.summary.push(f(text)),
                None => {
                    self.used += 8 + chars.min(MAX_LINE_CHARS + 40);
                    let text = text.to_string();
                    self.out.push(Line { text, chars });
                }
            }
        }
        self.cur.clear();
        self.cur_chars = 0;
        self.n += 1;
        self.in_line = false;
        self.last_byte = 0;
        self.mark();
    }

    /// Ends an unterminated last line; returns the number of lines.
    pub fn close(&mut self) -> u64 {
        if self.in_line {
            self.end_line(false); // an unterminated last line: counted, with no ending
        }
        self.n - 1
    }
}

/// What the bulk path needs to know of whole lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Classified {
    newlines: u64,
    /// Some line starts with a space, or with a tab.
    spaces: bool,
    tabs: bool,
    /// A CR is somewhere (then CRLF endings are counted).
    cr: bool,
}

/// One pass over `s` (which starts at a line start) in 64-byte blocks, written so the
/// compiler vectorises it: byte-wide counters and flags, no early exit. About 20 ms a GiB,
/// against 120 ms for a `memchr` call per line and 40 ms for two `memmem` probes.
fn classify(s: &[u8]) -> Classified {
    let mut c = Classified {
        newlines: 0,
        spaces: s.first() == Some(&b' '),
        tabs: s.first() == Some(&b'\t'),
        cr: false,
    };
    let (mut sp, mut tb, mut cr) = (0u8, 0u8, 0u8);
    let mut i = 1;
    while i + 64 <= s.len() {
        let (cur, prev) = (&s[i..i + 64], &s[i - 1..i + 63]);
        let mut k = 0u8;
        for j in 0..64 {
            let (x, p) = (cur[j], prev[j]);
            k += u8::from(x == b'\n');
            sp |= u8::from(p == b'\n') & u8::from(x == b' ');
            tb |= u8::from(p == b'\n') & u8::from(x == b'\t');
            cr |= u8::from(x == b'\r');
        }
        c.newlines += u64::from(k);
        i += 64;
    }
    for j in i.min(s.len())..s.len() {
        let (x, p) = (s[j], s[j - 1]);
        c.newlines += u64::from(x == b'\n');
        sp |= u8::from(p == b'\n' && x == b' ');
        tb |= u8::from(p == b'\n' && x == b'\t');
        cr |= u8::from(x == b'\r');
    }
    c.newlines += u64::from(s.first() == Some(&b'\n'));
    c.cr |= cr != 0 || s.first() == Some(&b'\r');
    c.spaces |= sp != 0;
    c.tabs |= tb != 0;
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `text` in pieces of `piece` bytes (never splitting a character: the tests use
    /// ASCII) and returns the splitter.
    fn run(text: &[u8], w: Window, marks: Option<Marks>, piece: usize) -> Lines {
        let mut l = Lines::new(w, 1, 0, marks);
        for p in text.chunks(piece) {
            l.feed(p);
        }
        l.close();
        l
    }

    fn summary(l: &Lines) -> (u64, u64, u64, bool, bool, Vec<String>) {
        (
            l.n,
            l.lf,
            l.crlf,
            l.spaces,
            l.tabs,
            l.out.iter().map(|x| x.text.clone()).collect(),
        )
    }

    #[test]
    fn the_bulk_path_agrees_with_the_line_path() {
        // Every mix of endings, indentation and empty lines, cut into pieces of every size.
        let text = b"a\r\n\n  b\n\tc\r\n\r\nd\n e\nf\r\ng\n\n\t\th\nlast";
        let w = Window {
            first: 3,
            limit: 4,
            budget: usize::MAX,
            summarize: None,
        };
        let whole = {
            let mut l = Lines::new(w, 1, 0, None);
            l.feed_lines(text);
            l.close();
            summary(&l)
        };
        for piece in 1..=text.len() {
            assert_eq!(summary(&run(text, w, None, piece)), whole, "piece {piece}");
            let counted = summary(&run(text, Window::NONE, None, piece));
            let five = |s: &(u64, u64, u64, bool, bool, Vec<String>)| (s.0, s.1, s.2, s.3, s.4);
            assert_eq!(five(&counted), five(&whole), "piece {piece}");
        }
        assert_eq!(whole.5, ["  b", "\tc", "", "d"]);
    }

    #[test]
    fn counting_only_classifies_like_keeping() {
        let text = b"x\n y\r\n\tz\n";
        let l = run(text, Window::NONE, None, 64);
        assert_eq!(
            (l.n - 1, l.lf, l.crlf, l.spaces, l.tabs),
            (3, 2, 1, true, true)
        );
        assert!(l.out.is_empty());
    }

    /// Where each line of `text` starts.
    fn starts(text: &[u8]) -> Vec<u64> {
        std::iter::once(0)
            .chain(
                text.iter()
                    .enumerate()
                    .filter(|(_, b)| **b == b'\n')
                    .map(|(i, _)| i as u64 + 1),
            )
            .collect()
    }

    #[test]
    fn a_tail_mark_is_at_or_just_before_the_tails_first_line() {
        let text: Vec<u8> = (1..=5000)
            .flat_map(|i| format!("{}\n", "x".repeat(i % 7)).into_bytes())
            .collect();
        let at = starts(&text);
        for count in [1, 3, 10, 1023, 1024, 1025, 4999, 5000, 9999] {
            for piece in [7, 100, 4096, text.len()] {
                let l = run(&text, Window::NONE, Some(Marks::new(count)), piece);
                let total = l.n - 1;
                assert_eq!(total, 5000);
                let m = l.marks.as_ref().unwrap();
                let first = m.first_line(total);
                let (line, pos) = m.start(total).expect("a mark");
                assert!(line <= first && first - line < m.step, "{count} {piece}");
                assert_eq!(pos, at[line as usize - 1], "line {line} starts there");
                assert!(m.ring.len() <= m.cap);
            }
        }
    }

    #[test]
    fn marks_stay_few_for_a_long_tail() {
        let m = Marks::new(10_000_000);
        assert!(m.cap <= MARKS as usize + 2);
        assert_eq!(Marks::new(10).step, 1);
    }

    #[test]
    fn classify_sees_every_byte_once() {
        // Lengths around the 64-byte blocks, with the interesting byte at every position.
        for len in [0usize, 1, 2, 63, 64, 65, 127, 128, 129, 200] {
            for at in 0..len {
                for byte in [b'\n', b'\r', b' ', b'\t'] {
                    let mut s = vec![b'a'; len];
                    s[at] = byte;
                    if at > 0 && byte != b'\n' && byte != b'\r' {
                        s[at - 1] = b'\n'; // a line starting with it
                    }
                    let naive = Classified {
                        newlines: s.iter().filter(|&&b| b == b'\n').count() as u64,
                        spaces: s.first() == Some(&b' ') || s.windows(2).any(|w| w == b"\n "),
                        tabs: s.first() == Some(&b'\t') || s.windows(2).any(|w| w == b"\n\t"),
                        cr: s.contains(&b'\r'),
                    };
                    assert_eq!(classify(&s), naive, "len {len} at {at} byte {byte}");
                }
            }
        }
    }
}
