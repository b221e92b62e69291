//! Text files: encoding detection and the streaming line scan behind `read` (SPEC §5, 16.4).
//!
//! One pass over the file yields the fingerprint, the line count, line endings, indentation and
//! encoding, and keeps only the lines asked for, so lines 1–2000 of a 1 GiB file cost a 64 KiB
//! buffer. UTF-8 is tried first (the common case, one pass); a file that is not valid UTF-8 is
//! read again to let chardetng guess its encoding, and a third time to decode it.
//!
//! A tail (`offset: -N`, SPEC 24.2) is found by the same pass: it marks where recent lines
//! start (`lines::Marks`), and once the pass knows the line count, the tail's lines are read
//! from the mark — the only bytes read twice are the ones shown. A file that had to be decoded
//! (UTF-16, a legacy encoding) has no byte offsets per line, so its tail is decoded once more.

mod lines;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};
pub use lines::Window;
use lines::{Lines, Marks};
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
            marked(&self.text, self.chars)
        } else {
            self.text.clone()
        }
    }
}

fn marked(kept: &str, chars: usize) -> String {
    format!("{kept}… [line truncated: {chars} chars]")
}

/// A line held whole in memory (a PDF page's, a notebook cell's) cut as read cuts a file's:
/// after `MAX_LINE_CHARS` characters, with the marker. Without it one line longer than the
/// output cap could never be shown.
pub fn cut_line(line: &str) -> String {
    match line.char_indices().nth(MAX_LINE_CHARS) {
        Some((at, _)) => marked(&line[..at], line.chars().count()),
        None => line.to_string(),
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
    /// The number of the first line of `lines` (where the window starts, also when it is empty).
    pub first_line: u64,
    /// Lines from the window's first, in order; fewer than asked when the character budget ran out.
    pub lines: Vec<Line>,
    /// Every line as `summarize`'s function saw it (empty for `scan`).
    pub summary: Vec<u32>,
}

/// What to keep of a text file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// Lines `first..first+limit` (1-based).
    Lines { first: u64, limit: u64 },
    /// The last `count` lines, of which the first `limit` (`tail -n count | head -n limit`).
    Tail { count: u64, limit: u64 },
}

/// The scan's outcome: a text file, or binary content.
pub enum Outcome {
    Text(Scan),
    Binary { size: u64 },
}

/// What a pass over the whole file found, before the tail (if any) is read.
struct Pass {
    lines: Lines,
    size: u64,
    hash: u64,
    /// The decoder, for a file that was not UTF-8 (its tail is decoded again).
    decoded: Option<&'static Encoding>,
    encoding: String,
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

/// The window and tail marks of a first pass.
fn plan(want: Want, budget: usize, utf8: bool, summarize: Summarize) -> (Window, Option<Marks>) {
    match want {
        Want::Lines { first, limit } => (
            Window {
                first,
                limit,
                budget,
                summarize,
            },
            None,
        ),
        // A decoded file's lines have no byte offsets to mark: its tail is decoded again.
        Want::Tail { count, .. } => (Window::NONE, utf8.then(|| Marks::new(count))),
    }
}

/// A function that reduces a line (cut at `MAX_LINE_CHARS`) to a number.
type Summarize = Option<fn(&str) -> u32>;

/// `size` is the file's size as the caller last saw it (the metadata it opened the file with):
/// it only sizes the buffer, so a file that changed since is still read whole.
pub fn scan(f: &mut File, size: u64, want: Want, budget: usize) -> io::Result<Outcome> {
    scan_with(f, size, want, budget, None)
}

/// Every line of the file reduced to a number by `per_line`, in `Scan::summary`, with the
/// same fingerprint, count and classification as `scan` (its `lines` stay empty): a pass that
/// needs something of every line of a file without holding the file.
pub fn summarize(f: &mut File, size: u64, per_line: fn(&str) -> u32) -> io::Result<Outcome> {
    let all = Want::Lines {
        first: 1,
        limit: u64::MAX,
    };
    scan_with(f, size, all, usize::MAX, Some(per_line))
}

/// The pass's buffer: a chunk, and 4 bytes for a character cut at its end. A file smaller than a
/// chunk gets a buffer its size (at least a page): the buffer is zeroed, and zeroing 64 KB for a
/// 2 KB file touched 16 pages, a tenth of a small `read`'s page faults (issue 22). A file that
/// grows after the stat is read in the smaller chunks, as every pass handles any chunk size.
/// The size is the caller's (it has the file's metadata already): no second stat per pass.
fn buffer_for(size: u64) -> Vec<u8> {
    // +1: the read that meets the end of the file is the same one that fills the buffer.
    let chunk = usize::try_from(size.saturating_add(1)).map_or(CHUNK, |s| s.clamp(4096, CHUNK));
    vec![0u8; chunk + 4]
}

fn scan_with(
    f: &mut File,
    size: u64,
    want: Want,
    budget: usize,
    sum: Summarize,
) -> io::Result<Outcome> {
    let mut buf = buffer_for(size);
    let chunk = buf.len() - 4;
    let head_len = read_full(f, &mut buf[..chunk])?;
    let head = &buf[..head_len];
    let bom = sniff_bom(head);
    if looks_binary(head) {
        let size = f.metadata()?.len();
        return Ok(Outcome::Binary { size });
    }
    let pass = match bom {
        Bom::Utf16Le => decode_pass(f, UTF_16LE, "utf-16le", plan(want, budget, false, sum).0)?,
        Bom::Utf16Be => decode_pass(f, UTF_16BE, "utf-16be", plan(want, budget, false, sum).0)?,
        _ => {
            let (w, marks) = plan(want, budget, true, sum);
            match utf8_pass(f, &mut buf, head_len, bom == Bom::Utf8, w, marks)? {
                Some(pass) => pass,
                // Not UTF-8 after all: guess the encoding from the whole file, then decode it.
                None if bom == Bom::Utf8 => {
                    decode_pass(f, UTF_8, "utf-8-bom", plan(want, budget, false, sum).0)?
                }
                None => {
                    let enc = guess(f, &mut buf)?;
                    let name = enc.name().to_ascii_lowercase();
                    decode_pass(f, enc, &name, plan(want, budget, false, sum).0)?
                }
            }
        }
    };
    finish(f, pass, want, budget).map(Outcome::Text)
}

/// chardetng's guess over the whole file.
fn guess(f: &mut File, buf: &mut [u8]) -> io::Result<&'static Encoding> {
    f.seek(SeekFrom::Start(0))?;
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    let chunk = buf.len() - 4;
    loop {
        let n = read_full(f, &mut buf[..chunk])?;
        det.feed(&buf[..n], n == 0);
        if n == 0 {
            break;
        }
    }
    Ok(det.guess(None, chardetng::Utf8Detection::Deny))
}

/// The scan of the whole file, once every byte has been fed; a tail's lines are read here.
fn finish(f: &mut File, mut pass: Pass, want: Want, budget: usize) -> io::Result<Scan> {
    let total = pass.lines.close();
    let l = &pass.lines;
    let ending = match (l.lf > 0, l.crlf > 0) {
        (true, true) => "mixed",
        (false, true) => "crlf",
        (true, false) => "lf",
        (false, false) => "none",
    };
    let indent = match (l.spaces, l.tabs) {
        (true, true) => "mixed",
        (true, false) => "spaces",
        (false, true) => "tabs",
        (false, false) => "none",
    };
    let (first_line, lines) = match want {
        Want::Lines { first, .. } => (first, std::mem::take(&mut pass.lines.out)),
        Want::Tail { count, limit } => {
            let first = total.saturating_sub(count) + 1;
            let w = Window {
                first,
                limit,
                budget,
                summarize: None,
            };
            let lines = match (total, pass.decoded, &pass.lines.marks) {
                (0, _, _) => vec![],
                (_, Some(enc), _) => {
                    let name = pass.encoding.clone();
                    decode_pass(f, enc, &name, w)?.lines.out
                }
                (_, None, Some(marks)) => match marks.start(total) {
                    Some((line, pos)) => reread(f, line, pos, w)?,
                    None => vec![], // unreachable: the ring always reaches back far enough
                },
                (_, None, None) => vec![],
            };
            (first, lines)
        }
    };
    Ok(Scan {
        size: pass.size,
        hash: pass.hash,
        encoding: pass.encoding,
        total_lines: total,
        line_ending: ending,
        indent,
        first_line,
        lines,
        summary: std::mem::take(&mut pass.lines.summary),
    })
}

/// A UTF-8 file's window read from byte `pos`, where line `line` starts: the tail's lines
/// after the pass that found them. Stops as soon as the window is kept.
fn reread(f: &mut File, line: u64, pos: u64, w: Window) -> io::Result<Vec<Line>> {
    f.seek(SeekFrom::Start(pos))?;
    let mut lines = Lines::new(w, line, pos, None);
    let mut buf = vec![0u8; CHUNK + 4];
    let mut carry = 0usize;
    while !lines.done() {
        let n = read_full(f, &mut buf[carry..carry + CHUNK])?;
        let have = carry + n;
        if n == 0 {
            if carry > 0 {
                lines.feed(String::from_utf8_lossy(&buf[..carry]).as_bytes());
            }
            break;
        }
        let text = &buf[..have];
        let valid = match std::str::from_utf8(text) {
            Ok(_) => have,
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            // The file changed since the pass validated it: show what is there.
            Err(_) => {
                lines.feed(String::from_utf8_lossy(text).as_bytes());
                carry = 0;
                continue;
            }
        };
        lines.feed(&text[..valid]);
        buf.copy_within(valid..have, 0);
        carry = have - valid;
    }
    lines.close();
    Ok(lines.out)
}

/// The UTF-8 pass. `buf[..have]` already holds the file's first bytes. `None` when the file
/// turns out not to be UTF-8.
fn utf8_pass(
    f: &mut File,
    buf: &mut [u8],
    mut have: usize,
    bom: bool,
    w: Window,
    marks: Option<Marks>,
) -> io::Result<Option<Pass>> {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut skip = if bom { 3 } else { 0 };
    let mut lines = Lines::new(w, 1, skip as u64, marks);
    let mut size = 0u64;
    let mut carry = 0usize; // bytes of an incomplete character kept at the front of `buf`
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
        let end = buf.len() - 4 + carry;
        have = carry + read_full(f, &mut buf[carry..end])?;
    }
    if carry > 0 {
        return Ok(None); // ends inside a character
    }
    let encoding = if bom { "utf-8-bom" } else { "utf-8" };
    Ok(Some(Pass {
        lines,
        size,
        hash: hasher.digest(),
        decoded: None,
        encoding: encoding.to_string(),
    }))
}

/// Decodes the whole file with `enc` (a BOM of it is dropped); `lossy` when anything was replaced.
fn decode_pass(f: &mut File, enc: &'static Encoding, name: &str, w: Window) -> io::Result<Pass> {
    f.seek(SeekFrom::Start(0))?;
    let mut decoder = enc.new_decoder_with_bom_removal();
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut lines = Lines::new(w, 1, 0, None);
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
    Ok(Pass {
        lines,
        size,
        hash: hasher.digest(),
        decoded: Some(enc),
        encoding: encoding.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn scan_want(bytes: &[u8], want: Want) -> Scan {
        let mut t = tempfile::tempfile().unwrap();
        t.write_all(bytes).unwrap();
        t.seek(SeekFrom::Start(0)).unwrap();
        let size = bytes.len() as u64;
        match scan(&mut t, size, want, usize::MAX).unwrap() {
            Outcome::Text(s) => s,
            Outcome::Binary { .. } => panic!("binary"),
        }
    }

    fn scan_bytes(bytes: &[u8], first: u64, limit: u64) -> Scan {
        scan_want(bytes, Want::Lines { first, limit })
    }

    fn tail(bytes: &[u8], count: u64, limit: u64) -> (u64, Vec<String>) {
        let s = scan_want(bytes, Want::Tail { count, limit });
        let head = scan_bytes(bytes, 1, 9);
        // A tail's pass classifies the file exactly as a window's does.
        assert_eq!(
            (s.total_lines, s.hash, &s.encoding, s.line_ending, s.indent),
            (
                head.total_lines,
                head.hash,
                &head.encoding,
                head.line_ending,
                head.indent
            )
        );
        (s.first_line, s.lines.into_iter().map(|l| l.text).collect())
    }

    #[test]
    fn tails_show_the_last_lines_with_their_numbers() {
        let body: String = (1..=100).map(|i| format!("line {i}\n")).collect();
        assert_eq!(
            tail(body.as_bytes(), 3, 9),
            (
                98,
                vec!["line 98".into(), "line 99".into(), "line 100".into()]
            )
        );
        // limit takes the first of the tail's lines
        assert_eq!(
            tail(body.as_bytes(), 10, 2),
            (91, vec!["line 91".into(), "line 92".into()])
        );
        // longer than the file: from line 1
        let (first, lines) = tail(body.as_bytes(), 500, 1000);
        assert_eq!((first, lines.len()), (1, 100));
        assert_eq!(tail(b"", 5, 9), (1, vec![]));
        // an unterminated last line, CRLF, a BOM
        assert_eq!(
            tail(b"a\r\nb\r\nc", 2, 9),
            (2, vec!["b".into(), "c".into()])
        );
        assert_eq!(
            tail(b"\xEF\xBB\xBFx\ny\n", 2, 9),
            (1, vec!["x".into(), "y".into()])
        );
    }

    #[test]
    fn tails_of_decoded_files() {
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "un\ndeux\ntrois\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        assert_eq!(tail(&utf16, 2, 9), (2, vec!["deux".into(), "trois".into()]));
        assert_eq!(
            tail(b"caf\xe9\nna\xefve\n", 1, 9),
            (2, vec!["naïve".into()])
        );
    }

    #[test]
    fn a_tail_across_many_chunks_reads_back_only_its_lines() {
        // Long enough for the bulk path and the marks' ring to matter.
        let body: String = (1..=200_000).map(|i| format!("{i}\n")).collect();
        let (first, lines) = tail(body.as_bytes(), 5, 9);
        assert_eq!(first, 199_996);
        assert_eq!(lines, ["199996", "199997", "199998", "199999", "200000"]);
        let (first, lines) = tail(body.as_bytes(), 150_000, 3);
        assert_eq!(
            (first, lines),
            (50_001, vec!["50001".into(), "50002".into(), "50003".into()])
        );
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
    fn a_small_file_gets_a_small_buffer_and_a_large_one_a_chunk() {
        let mut t = tempfile::tempfile().unwrap();
        t.write_all(&[b'x'; 2048]).unwrap();
        assert_eq!(buffer_for(t.metadata().unwrap().len()).len(), 4096 + 4);
        t.write_all(&vec![b'x'; 2 * CHUNK]).unwrap();
        assert_eq!(buffer_for(t.metadata().unwrap().len()).len(), CHUNK + 4);
    }

    #[test]
    fn every_chunk_size_reads_the_same_text() {
        // A file that grew after its size was taken is read in chunks of the smaller size:
        // characters of 2, 3 and 4 bytes then fall across every kind of boundary.
        let body: String = (0..400).map(|i| format!("{i} aé€😀\n")).collect();
        let whole = scan_bytes(body.as_bytes(), 1, 1000);
        let want = Want::Lines {
            first: 1,
            limit: 1000,
        };
        for chunk in [5, 6, 7, 4096] {
            let mut t = tempfile::tempfile().unwrap();
            t.write_all(body.as_bytes()).unwrap();
            t.seek(SeekFrom::Start(0)).unwrap();
            let mut buf = vec![0u8; chunk + 4];
            let have = read_full(&mut t, &mut buf[..chunk]).unwrap();
            let (w, marks) = plan(want, usize::MAX, true, None);
            let pass = utf8_pass(&mut t, &mut buf, have, false, w, marks).unwrap();
            let s = finish(&mut t, pass.expect("utf-8"), want, usize::MAX).unwrap();
            assert_eq!(
                (s.size, s.hash, s.total_lines),
                (whole.size, whole.hash, 400)
            );
            assert_eq!(texts(&s), texts(&whole), "chunk {chunk}");
        }
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
    fn summarize_sees_every_line_once_whatever_the_encoding() {
        fn len(line: &str) -> u32 {
            line.chars().count() as u32
        }
        let check = |bytes: &[u8], expected: &[u32]| {
            let mut t = tempfile::tempfile().unwrap();
            t.write_all(bytes).unwrap();
            t.seek(SeekFrom::Start(0)).unwrap();
            let Outcome::Text(s) = summarize(&mut t, bytes.len() as u64, len).unwrap() else {
                panic!("binary")
            };
            assert_eq!(s.summary, expected);
            assert!(s.lines.is_empty());
            let plain = scan_bytes(bytes, 1, 1);
            assert_eq!((s.total_lines, s.hash), (plain.total_lines, plain.hash));
        };
        // across many 64 KiB chunks (where a plain scan takes the bulk path), CRLF, no final newline
        let body: String = (0..50_000)
            .map(|i| format!("{}\r\n", "x".repeat(i % 9)))
            .collect();
        let expected: Vec<u32> = (0..50_000).map(|i| (i % 9) as u32).collect();
        check(body.as_bytes(), &expected);
        check(b"ab\n\ncde", &[2, 0, 3]);
        check(b"", &[]);
        // a line longer than MAX_LINE_CHARS is seen cut
        check(
            format!("{}\n", "y".repeat(3000)).as_bytes(),
            &[MAX_LINE_CHARS as u32],
        );
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("un\ndeux\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        check(&utf16, &[2, 4]);
        check(b"caf\xe9\n", &[4]);
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
