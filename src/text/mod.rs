//! Text files: encoding detection and the streaming line scan behind `read` (SPEC §5, 16.4).
//!
//! One pass over the file yields the fingerprint, the line count, line endings, indentation and
//! encoding, and keeps only the lines asked for, so lines 1–2000 of a 1 GiB file cost a 64 KiB
//! buffer. UTF-8 is tried first (the common case, one pass); a file that is not valid UTF-8 is
//! read again to let chardetng guess its encoding, and a third time to decode it.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};
use memchr::memchr;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

/// Longest line shown whole; longer lines are cut here (SPEC §5).
pub const MAX_LINE_CHARS: usize = 2000;
/// A NUL byte in this many leading bytes makes a file binary (SPEC §5).
pub const BINARY_SNIFF: usize = 8192;
const CHUNK: usize = 64 * 1024;

/// What the BOM (if any) says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bom {
    None,
    Utf8,
    Utf16Le,
    Utf16Be,
}

pub fn sniff_bom(head: &[u8]) -> Bom {
    if head.starts_with(&[0xEF, 0xBB, 0xBF]) {
        Bom::Utf8
    } else if head.starts_with(&[0xFF, 0xFE]) {
        Bom::Utf16Le
    } else if head.starts_with(&[0xFE, 0xFF]) {
        Bom::Utf16Be
    } else {
        Bom::None
    }
}

/// A NUL byte in the first 8 KiB, outside UTF-16 text.
pub fn looks_binary(head: &[u8]) -> bool {
    matches!(sniff_bom(head), Bom::None | Bom::Utf8)
        && memchr(0, &head[..head.len().min(BINARY_SNIFF)]).is_some()
}

/// The encoding a whole buffer is in, by read's rules: `utf-8`, `utf-8-bom`, `utf-16le`,
/// `utf-16be`, or chardetng's guess in lowercase.
pub fn encoding_name(bytes: &[u8]) -> String {
    match sniff_bom(bytes) {
        Bom::Utf16Le => return "utf-16le".into(),
        Bom::Utf16Be => return "utf-16be".into(),
        Bom::Utf8 => return "utf-8-bom".into(),
        Bom::None => {}
    }
    if std::str::from_utf8(bytes).is_ok() {
        return "utf-8".into();
    }
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    det.feed(bytes, true);
    det.guess(None, chardetng::Utf8Detection::Deny)
        .name()
        .to_ascii_lowercase()
}

/// One line of the window, cut at `MAX_LINE_CHARS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    /// The full length in characters (without the line ending).
    pub chars: usize,
}

impl Line {
    pub fn is_cut(&self) -> bool {
        self.chars > MAX_LINE_CHARS
    }
    /// The line as read shows it: its first 2,000 characters and a marker when cut.
    pub fn display(&self) -> String {
        if self.is_cut() {
            format!("{}… [line truncated: {} chars]", self.text, self.chars)
        } else {
            self.text.clone()
        }
    }
}

#[derive(Debug)]
pub struct Scan {
    pub size: u64,
    pub hash: u64,
    pub encoding: String,
    pub total_lines: u64,
    pub line_ending: &'static str,
    pub indent: &'static str,
    /// Lines from the window's first, in order; fewer than asked when the character budget ran out.
    pub lines: Vec<Line>,
}

/// Which lines to keep: `first..first+limit`, stopping early once `budget` characters of
/// formatted output are reached (the output cap would cut there anyway).
#[derive(Debug, Clone, Copy)]
pub struct Window {
    pub first: u64,
    pub limit: u64,
    pub budget: usize,
}

/// Splits text into lines and keeps the window; counts and classifies every line.
struct Lines {
    first: u64,
    last: u64,
    budget: usize,
    used: usize,
    n: u64,
    in_line: bool,
    last_byte: u8,
    lf: u64,
    crlf: u64,
    spaces: bool,
    tabs: bool,
    cur: Vec<u8>,
    cur_chars: usize,
    out: Vec<Line>,
}

impl Lines {
    fn new(w: Window) -> Lines {
        Lines {
            first: w.first,
            last: w.first.saturating_add(w.limit).saturating_sub(1),
            budget: w.budget,
            used: 0,
            n: 1,
            in_line: false,
            last_byte: 0,
            lf: 0,
            crlf: 0,
            spaces: false,
            tabs: false,
            cur: Vec::new(),
            cur_chars: 0,
            out: Vec::new(),
        }
    }

    fn capturing(&self) -> bool {
        self.n >= self.first && self.n <= self.last && self.used < self.budget
    }

    /// `s` is UTF-8 (validated or decoded), in pieces that may split a line anywhere but
    /// never a character.
    fn feed(&mut self, mut s: &[u8]) {
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
            // Keep the first MAX_LINE_CHARS characters.
            let mut text = String::from_utf8_lossy(&self.cur).into_owned();
            if let Some((cut, _)) = text.char_indices().nth(MAX_LINE_CHARS) {
                text.truncate(cut);
            }
            self.used += 8 + chars.min(MAX_LINE_CHARS + 40);
            self.out.push(Line { text, chars });
        }
        self.cur.clear();
        self.cur_chars = 0;
        self.n += 1;
        self.in_line = false;
        self.last_byte = 0;
    }

    /// The scan of the whole file, once every byte has been fed.
    fn finish(mut self, size: u64, hash: u64, encoding: String) -> Scan {
        if self.in_line {
            self.end_line(false); // an unterminated last line: counted, with no ending
        }
        let total = self.n - 1;
        let ending = match (self.lf > 0, self.crlf > 0) {
            (true, true) => "mixed",
            (false, true) => "crlf",
            (true, false) => "lf",
            (false, false) => "none",
        };
        let indent = match (self.spaces, self.tabs) {
            (true, true) => "mixed",
            (true, false) => "spaces",
            (false, true) => "tabs",
            (false, false) => "none",
        };
        Scan {
            size,
            hash,
            encoding,
            total_lines: total,
            line_ending: ending,
            indent,
            lines: self.out,
        }
    }
}

/// The scan's outcome: a text file, or binary content.
pub enum Outcome {
    Text(Scan),
    Binary { size: u64 },
}

fn read_full(f: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

pub fn scan(f: &mut File, w: Window) -> io::Result<Outcome> {
    let mut buf = vec![0u8; CHUNK + 4];
    let head_len = read_full(f, &mut buf[..CHUNK])?;
    let head = &buf[..head_len];
    let bom = sniff_bom(head);
    if looks_binary(head) {
        let size = f.metadata()?.len();
        return Ok(Outcome::Binary { size });
    }
    match bom {
        Bom::Utf16Le => return decode_pass(f, UTF_16LE, "utf-16le", w).map(Outcome::Text),
        Bom::Utf16Be => return decode_pass(f, UTF_16BE, "utf-16be", w).map(Outcome::Text),
        _ => {}
    }
    if let Some(scan) = utf8_pass(f, &mut buf, head_len, bom == Bom::Utf8, w)? {
        return Ok(Outcome::Text(scan));
    }
    // Not UTF-8: guess the encoding from the whole file, then decode it.
    if bom == Bom::Utf8 {
        return decode_pass(f, UTF_8, "utf-8-bom", w).map(Outcome::Text);
    }
    f.seek(SeekFrom::Start(0))?;
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    loop {
        let n = read_full(f, &mut buf[..CHUNK])?;
        det.feed(&buf[..n], n == 0);
        if n == 0 {
            break;
        }
    }
    let enc = det.guess(None, chardetng::Utf8Detection::Deny);
    let name = enc.name().to_ascii_lowercase();
    decode_pass(f, enc, &name, w).map(Outcome::Text)
}

/// The UTF-8 pass. `buf[..have]` already holds the file's first bytes. `None` when the file
/// turns out not to be UTF-8.
fn utf8_pass(
    f: &mut File,
    buf: &mut [u8],
    mut have: usize,
    bom: bool,
    w: Window,
) -> io::Result<Option<Scan>> {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut lines = Lines::new(w);
    let mut size = 0u64;
    let mut carry = 0usize; // bytes of an incomplete character kept at the front of `buf`
    let mut skip = if bom { 3 } else { 0 };
    loop {
        if have == carry {
            break;
        }
        hasher.update(&buf[carry..have]);
        size += (have - carry) as u64;
        let text = &buf[skip..have];
        skip = 0;
        let valid = match std::str::from_utf8(text) {
            Ok(_) => text.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => return Ok(None),
        };
        lines.feed(&text[..valid]);
        let tail = text.len() - valid;
        buf.copy_within(have - tail..have, 0);
        carry = tail;
        have = carry + read_full(f, &mut buf[carry..carry + CHUNK])?;
    }
    if carry > 0 {
        return Ok(None); // ends inside a character
    }
    let encoding = if bom { "utf-8-bom" } else { "utf-8" };
    Ok(Some(lines.finish(
        size,
        hasher.digest(),
        encoding.to_string(),
    )))
}

/// Decodes the whole file with `enc` (a BOM of it is dropped); `lossy` when anything was replaced.
fn decode_pass(f: &mut File, enc: &'static Encoding, name: &str, w: Window) -> io::Result<Scan> {
    f.seek(SeekFrom::Start(0))?;
    let mut decoder = enc.new_decoder_with_bom_removal();
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut lines = Lines::new(w);
    let mut src = vec![0u8; CHUNK];
    let mut dst = vec![0u8; decoder.max_utf8_buffer_length(CHUNK).unwrap_or(4 * CHUNK)];
    let mut size = 0u64;
    let mut lossy = false;
    loop {
        let n = read_full(f, &mut src)?;
        hasher.update(&src[..n]);
        size += n as u64;
        let last = n == 0;
        let mut input = &src[..n];
        loop {
            let (result, read, written, replaced) = decoder.decode_to_utf8(input, &mut dst, last);
            lossy |= replaced;
            lines.feed(&dst[..written]);
            input = &input[read..];
            if let encoding_rs::CoderResult::InputEmpty = result {
                break;
            }
        }
        if last {
            break;
        }
    }
    let encoding = if lossy { "lossy" } else { name };
    Ok(lines.finish(size, hasher.digest(), encoding.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn scan_bytes(bytes: &[u8], first: u64, limit: u64) -> Scan {
        let mut t = tempfile::tempfile().unwrap();
        t.write_all(bytes).unwrap();
        t.seek(SeekFrom::Start(0)).unwrap();
        match scan(
            &mut t,
            Window {
                first,
                limit,
                budget: usize::MAX,
            },
        )
        .unwrap()
        {
            Outcome::Text(s) => s,
            Outcome::Binary { .. } => panic!("binary"),
        }
    }

    fn texts(s: &Scan) -> Vec<&str> {
        s.lines.iter().map(|l| l.text.as_str()).collect()
    }

    #[test]
    fn line_endings_and_counts() {
        let s = scan_bytes(b"a\r\nb\r\n", 1, 10);
        assert_eq!((s.total_lines, s.line_ending), (2, "crlf"));
        assert_eq!(texts(&s), ["a", "b"]);
        let s = scan_bytes(b"a\nb\r\nc", 1, 10);
        assert_eq!((s.total_lines, s.line_ending), (3, "mixed"));
        assert_eq!(texts(&s), ["a", "b", "c"]);
        let s = scan_bytes(b"one line", 1, 10);
        assert_eq!((s.total_lines, s.line_ending), (1, "none"));
        let s = scan_bytes(b"", 1, 10);
        assert_eq!(
            (s.total_lines, s.line_ending, s.indent),
            (0, "none", "none")
        );
        // a lone CR is part of the line
        let s = scan_bytes(b"a\rb\n", 1, 10);
        assert_eq!((s.total_lines, s.line_ending), (1, "lf"));
        assert_eq!(texts(&s), ["a\rb"]);
    }

    #[test]
    fn indentation_from_first_characters() {
        assert_eq!(scan_bytes(b"\tx\n\ty\n", 1, 9).indent, "tabs");
        assert_eq!(scan_bytes(b"  x\ny\n", 1, 9).indent, "spaces");
        assert_eq!(scan_bytes(b"  x\n\ty\n", 1, 9).indent, "mixed");
        assert_eq!(scan_bytes(b"x\n\n", 1, 9).indent, "none");
    }

    #[test]
    fn window_is_kept_and_the_rest_counted() {
        let body: String = (1..=100).map(|i| format!("line {i}\n")).collect();
        let s = scan_bytes(body.as_bytes(), 10, 3);
        assert_eq!(texts(&s), ["line 10", "line 11", "line 12"]);
        assert_eq!(s.total_lines, 100);
        assert_eq!(s.hash, xxhash_rust::xxh3::xxh3_64(body.as_bytes()));
    }

    #[test]
    fn long_lines_are_cut_at_2000_chars_and_counted_whole() {
        let line = "é".repeat(2500);
        let s = scan_bytes(format!("{line}\r\nshort\n").as_bytes(), 1, 10);
        assert_eq!(s.lines[0].chars, 2500);
        assert_eq!(s.lines[0].text.chars().count(), 2000);
        assert!(
            s.lines[0]
                .display()
                .ends_with("… [line truncated: 2500 chars]")
        );
        assert_eq!(s.lines[1].text, "short");
        // exactly 2000 characters plus CRLF is not cut
        let s = scan_bytes(format!("{}\r\n", "x".repeat(2000)).as_bytes(), 1, 10);
        assert!(!s.lines[0].is_cut());
        assert_eq!(s.lines[0].text.len(), 2000);
    }

    #[test]
    fn characters_split_across_chunks_survive() {
        // Empty lines up to one byte before the 64 KiB boundary, then a 3-byte character across it.
        let mut body = vec![b'\n'; CHUNK - 1];
        body.extend_from_slice("€x\n".as_bytes());
        let s = scan_bytes(&body, CHUNK as u64, 1);
        assert_eq!(s.encoding, "utf-8");
        assert_eq!(texts(&s), ["€x"]);
    }

    #[test]
    fn encodings() {
        assert_eq!(scan_bytes(b"\xEF\xBB\xBFhi\n", 1, 9).encoding, "utf-8-bom");
        assert_eq!(texts(&scan_bytes(b"\xEF\xBB\xBFhi\n", 1, 9)), ["hi"]);
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("hé\r\nx\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let s = scan_bytes(&utf16, 1, 9);
        assert_eq!((s.encoding.as_str(), s.line_ending), ("utf-16le", "mixed"));
        assert_eq!(texts(&s), ["hé", "x"]);
        let utf16be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("ok\n".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(scan_bytes(&utf16be, 1, 9).encoding, "utf-16be");
        // windows-1252: "café – naïve"
        let s = scan_bytes(b"caf\xe9 \x96 na\xefve\n", 1, 9);
        assert_eq!(s.encoding, "windows-1252");
        assert_eq!(texts(&s), ["café – naïve"]);
        let (sjis, _, _) =
            encoding_rs::SHIFT_JIS.encode("日本語のテキストです。これはテストです。\n");
        let s = scan_bytes(&sjis, 1, 9);
        assert_eq!(s.encoding, "shift_jis");
        assert_eq!(texts(&s), ["日本語のテキストです。これはテストです。"]);
        // UTF-16 with an unpaired surrogate can only be shown lossily
        let bad = [0xFF, 0xFE, 0x00, 0xD8, b'a', 0];
        assert_eq!(scan_bytes(&bad, 1, 9).encoding, "lossy");
    }

    #[test]
    fn nul_in_the_head_is_binary_but_not_in_utf16() {
        assert!(looks_binary(b"ab\0cd"));
        assert!(!looks_binary(&[0xFF, 0xFE, b'a', 0]));
        let mut late = vec![b'a'; BINARY_SNIFF];
        late.push(0);
        assert!(!looks_binary(&late));
    }
}
