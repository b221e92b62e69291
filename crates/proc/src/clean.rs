//! Turning a command's raw output into text a model can read (SPEC §15): ANSI escape sequences
//! removed, carriage-return progress lines collapsed to what a terminal would finally show,
//! invalid UTF-8 replaced.
//!
//! The cleaner is a streaming state machine over bytes, so an escape sequence or a UTF-8
//! character split between two reads comes out right. A line is handled as a terminal would:
//! `\r` moves the cursor to the start, later text overwrites, `\b` steps back, and `ESC [ K`
//! erases to the end of the line — so `10%\r\x1b[K20%` shows `20%`, and `abc\r\n` shows `abc`.
//! Every other escape sequence (colours, cursor moves, titles, hyperlinks) is dropped; the
//! hyperlink's text stays.

/// A line longer than this is handed on in pieces, so one endless line cannot grow memory.
pub const MAX_LINE: usize = 64 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Ground,
    Esc,
    /// `ESC [` … final byte; the first numeric parameter is kept (for `K`).
    Csi,
    /// `ESC ]` … BEL or `ESC \`.
    Osc,
    /// `ESC P`, `ESC X`, `ESC ^`, `ESC _` … `ESC \` (device control and friends).
    Str,
    /// ESC seen inside an OSC or string: `\` ends it.
    StrEsc,
    /// `ESC` + intermediate bytes (0x20–0x2F) … final byte.
    EscIntermediate,
}

/// Bytes of an escape string (OSC, DCS) after which it is taken as garbage and dropped as text.
const MAX_ESCAPE: usize = 4096;

pub struct Cleaner {
    state: State,
    csi_param: u32,
    csi_private: bool,
    escape_len: usize,
    /// Printable bytes since the last control byte; decoded together so a character split between
    /// two reads stays whole.
    pending: Vec<u8>,
    line: Vec<char>,
    cursor: usize,
    /// Raw bytes consumed so far.
    consumed: u64,
}

/// What the cleaner hands on: a piece of text, the raw offset just after the bytes that made it,
/// and whether it ends a line (a `\n`) or is a piece of a longer one.
pub trait Sink {
    /// Returns false to stop: the rest of the current call's input is not cleaned.
    fn piece(&mut self, text: &str, raw_end: u64, ends_line: bool) -> bool;
}

impl<F: FnMut(&str, u64, bool) -> bool> Sink for F {
    fn piece(&mut self, text: &str, raw_end: u64, ends_line: bool) -> bool {
        self(text, raw_end, ends_line)
    }
}

/// A sink that joins the pieces of a long line and hands on whole lines (without their `\n`)
/// with the raw offset after each.
pub struct WholeLines<F> {
    current: String,
    f: F,
}

impl<F: FnMut(String, u64) -> bool> WholeLines<F> {
    pub fn new(f: F) -> Self {
        WholeLines {
            current: String::new(),
            f,
        }
    }
}

impl<F: FnMut(String, u64) -> bool> Sink for WholeLines<F> {
    fn piece(&mut self, text: &str, raw_end: u64, ends_line: bool) -> bool {
        self.current.push_str(text);
        if !ends_line {
            return true;
        }
        (self.f)(std::mem::take(&mut self.current), raw_end)
    }
}

impl Default for Cleaner {
    fn default() -> Self {
        Self::new(0)
    }
}

impl Cleaner {
    /// A cleaner whose raw offsets start at `offset` (where in the log the input begins).
    pub fn new(offset: u64) -> Self {
        Cleaner {
            state: State::Ground,
            csi_param: 0,
            csi_private: false,
            escape_len: 0,
            pending: Vec::new(),
            line: Vec::new(),
            cursor: 0,
            consumed: offset,
        }
    }

    /// Cleans `bytes`. Returns false if the sink asked to stop (the rest of `bytes` is ignored).
    pub fn feed(&mut self, bytes: &[u8], sink: &mut impl Sink) -> bool {
        for &b in bytes {
            self.consumed += 1;
            if !self.byte(b, sink) {
                return false;
            }
        }
        true
    }

    /// Ends the input: a last line without `\n` is handed on (as ending a line).
    pub fn finish(&mut self, sink: &mut impl Sink) -> bool {
        self.commit();
        if self.line.is_empty() {
            return true;
        }
        let text: String = self.line.drain(..).collect();
        self.cursor = 0;
        sink.piece(&text, self.consumed, true)
    }

    fn byte(&mut self, b: u8, sink: &mut impl Sink) -> bool {
        match self.state {
            State::Ground => return self.ground(b, sink),
            State::Esc => {
                self.state = match b {
                    b'[' => {
                        self.csi_param = 0;
                        self.csi_private = false;
                        State::Csi
                    }
                    b']' => {
                        self.escape_len = 0;
                        State::Osc
                    }
                    b'P' | b'X' | b'^' | b'_' => {
                        self.escape_len = 0;
                        State::Str
                    }
                    0x1b => State::Esc,
                    0x20..=0x2f => State::EscIntermediate,
                    0x30..=0x7e => State::Ground,
                    // A control byte cuts the sequence short and acts as itself.
                    _ => {
                        self.state = State::Ground;
                        return self.ground(b, sink);
                    }
                };
            }
            State::Csi => match b {
                b'0'..=b'9' => {
                    self.csi_param = self
                        .csi_param
                        .saturating_mul(10)
                        .saturating_add(u32::from(b - b'0'));
                }
                b';' | b':' => {}
                b'<'..=b'?' => self.csi_private = true,
                0x20..=0x2f => {}
                0x40..=0x7e => {
                    self.state = State::Ground;
                    if b == b'K' && !self.csi_private {
                        self.erase_line();
                    }
                }
                _ => {
                    self.state = State::Ground;
                    return self.ground(b, sink);
                }
            },
            State::Osc | State::Str => match b {
                0x07 if self.state == State::Osc => self.state = State::Ground,
                0x1b => self.state = State::StrEsc,
                // A newline in a title is malformed output, not a title: keep the line.
                b'\n' => {
                    self.state = State::Ground;
                    return self.ground(b, sink);
                }
                _ => {
                    self.escape_len += 1;
                    if self.escape_len > MAX_ESCAPE {
                        self.state = State::Ground;
                    }
                }
            },
            State::StrEsc => {
                self.state = State::Ground;
                if b != b'\\' {
                    // `ESC` began a new sequence inside the string.
                    self.state = State::Esc;
                    return self.byte(b, sink);
                }
            }
            State::EscIntermediate => {
                if !(0x20..=0x2f).contains(&b) {
                    self.state = State::Ground;
                    if b < 0x20 {
                        return self.ground(b, sink);
                    }
                }
            }
        }
        true
    }

    fn ground(&mut self, b: u8, sink: &mut impl Sink) -> bool {
        match b {
            b'\n' => {
                self.commit();
                let text: String = self.line.drain(..).collect();
                self.cursor = 0;
                return sink.piece(&text, self.consumed, true);
            }
            b'\r' => {
                self.commit();
                self.cursor = 0;
            }
            0x08 => {
                self.commit();
                self.cursor = self.cursor.saturating_sub(1);
            }
            0x1b => {
                self.commit();
                self.state = State::Esc;
            }
            b'\t' => self.pending.push(b),
            0x00..=0x1f | 0x7f => {} // bells, form feeds and the like say nothing to a model
            _ => {
                self.pending.push(b);
                if self.pending.len() + self.line.len() > MAX_LINE && self.cursor >= self.line.len()
                {
                    self.commit();
                    let text: String = self.line.drain(..).collect();
                    self.cursor = 0;
                    return sink.piece(&text, self.consumed, false);
                }
            }
        }
        true
    }

    /// Writes the pending bytes into the line at the cursor, overwriting what is there.
    fn commit(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let text = String::from_utf8_lossy(&self.pending);
        if self.cursor == self.line.len() {
            self.line.extend(text.chars());
            self.cursor = self.line.len();
        } else {
            for c in text.chars() {
                if self.cursor < self.line.len() {
                    self.line[self.cursor] = c;
                } else {
                    self.line.push(c);
                }
                self.cursor += 1;
            }
        }
        self.pending.clear();
    }

    /// `ESC [ K`: 0 erases from the cursor to the end, 1 from the start to the cursor (as
    /// blanks), 2 the whole line.
    fn erase_line(&mut self) {
        self.commit();
        match self.csi_param {
            0 => self.line.truncate(self.cursor),
            1 => {
                let end = self.cursor.min(self.line.len());
                self.line[..end].iter_mut().for_each(|c| *c = ' ');
            }
            _ => {
                self.line.clear();
                self.line.resize(self.cursor, ' ');
            }
        }
    }
}

/// Cleans input fed in the given reads into lines joined by `\n` (the last one terminated too):
/// the cleaner's whole behaviour in one call, for tests and fuzzing.
pub fn clean_reads(reads: &[&[u8]]) -> String {
    let mut out = String::new();
    let mut sink = |t: &str, _: u64, nl: bool| {
        out.push_str(t);
        if nl {
            out.push('\n');
        }
        true
    };
    let mut c = Cleaner::new(0);
    for r in reads {
        c.feed(r, &mut sink);
    }
    c.finish(&mut sink);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(b: &[u8]) -> String {
        clean_reads(&[b])
    }

    #[test]
    fn colours_and_cursor_codes_go_text_stays() {
        assert_eq!(clean(b"\x1b[1;31merror\x1b[0m: bad\n"), "error: bad\n");
        assert_eq!(
            clean(b"\x1b[?25lhidden cursor\x1b[?25h\n"),
            "hidden cursor\n"
        );
        assert_eq!(clean(b"a\x1b(Bb\x1b=c\n"), "abc\n");
        // A title (OSC ended by BEL) and a hyperlink (OSC ended by ST): the link text stays.
        assert_eq!(clean(b"\x1b]0;my title\x07ok\n"), "ok\n");
        assert_eq!(
            clean(b"\x1b]8;;https://x.example\x1b\\link\x1b]8;;\x1b\\\n"),
            "link\n"
        );
        assert_eq!(clean(b"\x1bPq#0;2;0;0;0\x1b\\after\n"), "after\n");
    }

    #[test]
    fn carriage_returns_show_the_last_state_of_the_line() {
        assert_eq!(clean(b"10%\r20%\r100%\n"), "100%\n");
        assert_eq!(clean(b"abc\r\n"), "abc\n");
        assert_eq!(clean(b"line one\r\nline two\r\n"), "line one\nline two\n");
        // Overwriting as a terminal does: a shorter text leaves the tail of the longer one…
        assert_eq!(clean(b"long line\rshort\n"), "shortline\n");
        // …unless the program erased the line, as progress bars do.
        assert_eq!(clean(b"long line\r\x1b[Kshort\n"), "short\n");
        assert_eq!(clean(b"long line\r\x1b[2Kshort\n"), "short\n");
        assert_eq!(clean(b"Downloading 50%\r\x1b[KDone\n"), "Done\n");
        assert_eq!(clean(b"abc\x08\x08X\n"), "aXc\n");
        assert_eq!(clean(b"progress\r"), "progress\n");
    }

    #[test]
    fn invalid_utf8_is_replaced_and_split_characters_survive() {
        assert_eq!(clean(b"a\xffb\n"), "a\u{fffd}b\n");
        let text = "héllo wörld ✓\n".as_bytes();
        for cut in 0..text.len() {
            assert_eq!(clean_split(text, cut), "héllo wörld ✓\n", "cut at {cut}");
        }
    }

    /// Cleans `raw` fed in two reads, split at `cut`.
    fn clean_split(raw: &[u8], cut: usize) -> String {
        clean_reads(&[&raw[..cut], &raw[cut..]])
    }

    #[test]
    fn escapes_split_between_reads_are_still_removed() {
        let raw = b"x\x1b[38;5;196mred\x1b[0m\x1b]0;t\x07y\n";
        for cut in 0..raw.len() {
            assert_eq!(clean_split(raw, cut), "xredy\n", "cut at {cut}");
        }
    }

    #[test]
    fn tabs_stay_other_controls_go_and_a_newline_ends_a_broken_title() {
        assert_eq!(clean(b"a\tb\x07\x0c\x00c\n"), "a\tbc\n");
        assert_eq!(clean(b"\x1b]0;never ended\nnext\n"), "\nnext\n");
    }

    #[test]
    fn raw_offsets_point_after_each_line() {
        let mut ends = vec![];
        let mut sink = |_: &str, end: u64, _: bool| {
            ends.push(end);
            true
        };
        let mut c = Cleaner::new(100);
        c.feed(b"ab\n\x1b[0mcd\nef", &mut sink);
        c.finish(&mut sink);
        assert_eq!(ends, vec![103, 110, 112]);
    }

    #[test]
    fn an_endless_line_comes_out_in_bounded_pieces() {
        let raw = vec![b'x'; MAX_LINE * 3 + 10];
        let mut pieces = vec![];
        let mut sink = |t: &str, _: u64, nl: bool| {
            pieces.push((t.len(), nl));
            true
        };
        let mut c = Cleaner::new(0);
        c.feed(&raw, &mut sink);
        c.finish(&mut sink);
        assert!(pieces.iter().all(|(n, _)| *n <= MAX_LINE + 1));
        assert_eq!(pieces.iter().map(|(n, _)| n).sum::<usize>(), raw.len());
        assert!(pieces.last().unwrap().1);
    }
}
