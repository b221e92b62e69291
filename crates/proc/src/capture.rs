//! What happens to a command's output as it arrives (SPEC §15): every byte goes to the log (up to
//! its cap), and only what the model will see is kept in memory — the cleaned text while it still
//! fits, then a cleaned head and a raw ring of the last bytes for the tail. So memory stays
//! bounded however much the command prints, and the cost per byte after the head is a copy and a
//! newline count.

use super::clean::{Cleaner, WholeLines};
use std::fs::File;
use std::io::Write;

/// A run's log keeps at most this much (SPEC §15: 64 MiB), then a note where it stopped.
pub const LOG_CAP: u64 = 64 * 1024 * 1024;
/// Raw bytes kept for the tail: far more than the tail shows, so escapes and `\r` rewrites
/// still leave enough text.
const RING: usize = 256 * 1024;

struct Cut {
    head: String,
    /// Raw log offset of the first line not wholly in the head: where paging resumes.
    raw_end: u64,
    /// `\n`s before `raw_end`.
    lines: u64,
}

/// A second reader of the output (`Capture::tap`).
type Tap = Box<dyn FnMut(&[u8]) + Send>;
/// A rewrite of the output before anything keeps it (`Capture::scrub`).
type Scrub = Box<dyn FnMut(&mut Vec<u8>) + Send>;

pub struct Capture {
    log: Option<File>,
    log_cap: u64,
    log_bytes: u64,
    total: u64,
    newlines: u64,
    budget: usize,
    head_budget: usize,
    tail_budget: usize,
    cleaner: Option<Cleaner>,
    /// Cleaned text while it fits in `budget`, and the end of each whole line in it:
    /// (byte index after its `\n`, characters up to there, raw offset after it, lines so far).
    kept: String,
    kept_chars: usize,
    line_ends: Vec<(usize, usize, u64, u64)>,
    kept_lines: u64,
    cut: Option<Cut>,
    ring: Vec<u8>,
    ring_start: u64,
    /// The log offset of the first byte fed (`from_offset`), else 0.
    base: u64,
    write_error: Option<std::io::Error>,
    /// Sees every byte as it comes (a terminal job's screen, tty.rs).
    tap: Option<Tap>,
    scrub: Option<Scrub>,
}

/// The output as the model sees it.
pub struct Captured {
    /// Lines, each ending in `\n`.
    pub text: String,
    pub truncated: bool,
    /// Bytes the command printed.
    pub total: u64,
    /// Whether the log stopped at its cap.
    pub log_full: bool,
    /// Why the log could not be written, if it could not.
    pub log_error: Option<String>,
}

impl Capture {
    /// `budget` is the characters of text that may be shown; over it, a head of a third and a
    /// tail of the rest are kept with a line between them.
    pub fn new(log: Option<File>, budget: usize) -> Capture {
        Self::with_log_cap(log, budget, LOG_CAP)
    }

    /// A capture of a log's bytes from `base` on, without a log of its own (`jobs write`): its
    /// cut line names offsets in that log.
    pub fn from_offset(budget: usize, base: u64) -> Capture {
        let mut c = Self::with_log_cap(None, budget, LOG_CAP);
        c.cleaner = Some(Cleaner::new(base));
        c.ring_start = base;
        c.base = base;
        c
    }

    pub fn with_log_cap(log: Option<File>, budget: usize, log_cap: u64) -> Capture {
        let head_budget = budget / 3;
        Capture {
            base: 0,
            log,
            log_cap,
            log_bytes: 0,
            total: 0,
            newlines: 0,
            budget,
            head_budget,
            tail_budget: budget - head_budget,
            cleaner: Some(Cleaner::new(0)),
            kept: String::new(),
            kept_chars: 0,
            line_ends: Vec::new(),
            kept_lines: 0,
            cut: None,
            ring: Vec::with_capacity(RING),
            ring_start: 0,
            write_error: None,
            tap: None,
            scrub: None,
        }
    }

    /// Shows every byte fed from now on to `f` as well.
    pub fn tap(&mut self, f: impl FnMut(&[u8]) + Send + 'static) {
        self.tap = Some(Box::new(f));
    }

    /// Lets `f` rewrite each chunk before the log, the screen or the text see it (a terminal
    /// job's echo of a secret, tty.rs).
    pub fn scrub(&mut self, f: impl FnMut(&mut Vec<u8>) + Send + 'static) {
        self.scrub = Some(Box::new(f));
    }

    pub fn feed(&mut self, chunk: &[u8]) {
        let mut owned;
        let chunk = match &mut self.scrub {
            Some(f) => {
                owned = chunk.to_vec();
                f(&mut owned);
                &owned[..]
            }
            None => chunk,
        };
        if let Some(t) = &mut self.tap {
            t(chunk);
        }
        if let Some(log) = &mut self.log {
            let room = self.log_cap.saturating_sub(self.log_bytes);
            let n = (chunk.len() as u64).min(room) as usize;
            if n > 0 {
                match log.write_all(&chunk[..n]) {
                    Ok(()) => self.log_bytes += n as u64,
                    Err(e) => {
                        self.write_error = Some(e);
                        self.log = None;
                    }
                }
            }
        }
        self.total += chunk.len() as u64;
        self.newlines += memchr::memchr_iter(b'\n', chunk).count() as u64;
        self.ring.extend_from_slice(chunk);
        if self.ring.len() > 2 * RING {
            let drop = self.ring.len() - RING;
            self.ring.drain(..drop);
            self.ring_start += drop as u64;
        }
        if let Some(mut cleaner) = self.cleaner.take() {
            let mut sink = Keep(self);
            if cleaner.feed(chunk, &mut sink) {
                self.cleaner = Some(cleaner);
            }
        }
    }

    /// Bytes the command has printed so far.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The last non-blank line printed so far, roughly cleaned (escapes and control characters
    /// dropped, at most 200 characters): what a progress notification shows.
    pub fn last_line(&self) -> Option<String> {
        let tail = &self.ring[self.ring.len().saturating_sub(4096)..];
        let line = tail
            .split(|b| *b == b'\n' || *b == b'\r')
            .rev()
            .map(|l| {
                let text = String::from_utf8_lossy(l);
                let mut out = String::new();
                let mut escape = false;
                for c in text.chars() {
                    match c {
                        '\u{1b}' => escape = true,
                        c if escape => escape = !c.is_ascii_alphabetic(),
                        c if c.is_control() => {}
                        c => out.push(c),
                    }
                }
                out.trim().to_string()
            })
            .find(|l| !l.is_empty())?;
        Some(line.chars().take(200).collect())
    }

    /// Takes a cleaned piece while the text fits; returns false once it no longer does.
    fn keep(&mut self, text: &str, raw_end: u64, ends_line: bool) -> bool {
        self.kept.push_str(text);
        self.kept_chars += text.chars().count();
        if ends_line {
            self.kept.push('\n');
            self.kept_chars += 1;
            self.kept_lines += 1;
            self.line_ends
                .push((self.kept.len(), self.kept_chars, raw_end, self.kept_lines));
        }
        if self.kept_chars <= self.budget {
            return true;
        }
        // Over the budget: settle the head (whole lines where one fits) and stop cleaning.
        let whole = self
            .line_ends
            .iter()
            .take_while(|(_, chars, _, _)| *chars <= self.head_budget)
            .last()
            .copied();
        let cut = match whole {
            Some((bytes, _, raw_end, lines)) => Cut {
                head: self.kept[..bytes].to_string(),
                raw_end,
                lines,
            },
            None => {
                let mut head: String = self.kept.chars().take(self.head_budget).collect();
                head.push('\n');
                Cut {
                    head,
                    raw_end: self.base,
                    lines: 0,
                }
            }
        };
        self.cut = Some(cut);
        self.kept = String::new();
        self.line_ends = Vec::new();
        false
    }

    /// Ends the capture. `page_hint` says how to page the whole log (named in the cut line).
    pub fn finish(mut self, page_hint: &str) -> Captured {
        if let Some(mut cleaner) = self.cleaner.take() {
            let mut sink = Keep(&mut self);
            cleaner.finish(&mut sink);
        }
        let log_full = self.total > self.log_cap;
        if let Some(log) = &mut self.log
            && log_full
        {
            let note = format!(
                "\n[loopr-tool: the log stops here, at its cap of {} MiB; {} more bytes were printed and not kept]\n",
                self.log_cap / (1024 * 1024),
                self.total - self.log_cap
            );
            let _ = log.write_all(note.as_bytes());
        }
        let log_error = self.write_error.as_ref().map(|e| e.to_string());
        let Some(cut) = self.cut.take() else {
            return Captured {
                text: std::mem::take(&mut self.kept),
                truncated: false,
                total: self.total,
                log_full,
                log_error,
            };
        };
        // The tail: clean the ring from a line start (or from the head's end, if the ring still
        // holds it, so nothing is shown twice or skipped).
        let mut from = cut.raw_end.max(self.ring_start);
        if from > cut.raw_end {
            let ring = &self.ring[(from - self.ring_start) as usize..];
            if let Some(nl) = memchr::memchr(b'\n', ring) {
                from += nl as u64 + 1;
            }
        }
        let (tail, shown_from) = tail_of(
            &self.ring[(from - self.ring_start) as usize..],
            from,
            self.tail_budget,
        );
        let shown_raw = &self.ring[(shown_from - self.ring_start) as usize..];
        let tail_lines = memchr::memchr_iter(b'\n', shown_raw).count() as u64;
        let cut_lines = self.newlines.saturating_sub(cut.lines + tail_lines);
        let cut_bytes = shown_from - cut.raw_end;
        let mut text = cut.head;
        text.push_str(&format!(
            "[… {cut_lines} lines ({cut_bytes} bytes) cut here. {page_hint}, offset {} …]\n",
            cut.raw_end
        ));
        text.push_str(&tail);
        Captured {
            text,
            truncated: true,
            total: self.total,
            log_full,
            log_error,
        }
    }
}

struct Keep<'a>(&'a mut Capture);

impl super::clean::Sink for Keep<'_> {
    fn piece(&mut self, text: &str, raw_end: u64, ends_line: bool) -> bool {
        self.0.keep(text, raw_end, ends_line)
    }
}

/// The last lines of `raw` (which starts at log offset `from`) that fit in `budget` characters,
/// cleaned, and the raw offset where they start. A last line longer than the budget shows its end.
fn tail_of(raw: &[u8], from: u64, budget: usize) -> (String, u64) {
    let mut lines: Vec<(String, u64)> = vec![];
    let mut sink = WholeLines::new(|line: String, end: u64| {
        lines.push((line, end));
        true
    });
    let mut c = Cleaner::new(from);
    c.feed(raw, &mut sink);
    c.finish(&mut sink);
    let mut used = 0;
    let mut first = lines.len();
    while first > 0 {
        let n = lines[first - 1].0.chars().count() + 1;
        if used + n > budget {
            break;
        }
        used += n;
        first -= 1;
    }
    if first == lines.len() {
        // Not even the last line fits: its end is shown, the rest of it counts as cut.
        let Some((last, _)) = lines.last() else {
            return (String::new(), from + raw.len() as u64);
        };
        let count = last.chars().count();
        let text: String = last
            .chars()
            .skip(count.saturating_sub(budget.saturating_sub(1)))
            .collect();
        let start = if lines.len() > 1 {
            lines[lines.len() - 2].1
        } else {
            from
        };
        return (text + "\n", start);
    }
    let start = if first == 0 { from } else { lines[first - 1].1 };
    let mut text = String::with_capacity(used);
    for (l, _) in &lines[first..] {
        text.push_str(l);
        text.push('\n');
    }
    (text, start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(chunks: &[&[u8]], budget: usize) -> Captured {
        let mut c = Capture::new(None, budget);
        for ch in chunks {
            c.feed(ch);
        }
        c.finish("page it")
    }

    #[test]
    fn small_output_is_kept_whole_and_cleaned() {
        let got = run(
            &[b"a\x1b[31mb\x1b[0m\n", b"10%\r100%\n", b"no newline"],
            1000,
        );
        assert_eq!(got.text, "ab\n100%\nno newline\n");
        assert!(!got.truncated);
        assert_eq!(got.total, 31);
    }

    #[test]
    fn big_output_keeps_head_and_tail_and_names_the_offset() {
        let body: String = (1..=10_000).map(|i| format!("line {i}\n")).collect();
        let chunks: Vec<&[u8]> = body.as_bytes().chunks(4096).collect();
        let got = run(&chunks, 3000);
        assert!(got.truncated);
        assert!(got.text.chars().count() < 3000 + 200, "{}", got.text.len());
        assert!(got.text.starts_with("line 1\nline 2\n"));
        assert!(got.text.ends_with("line 9999\nline 10000\n"));
        let head_lines = got
            .text
            .lines()
            .take_while(|l| l.starts_with("line"))
            .count();
        let offset: usize = (1..=head_lines).map(|i| format!("line {i}\n").len()).sum();
        let middle = got.text.lines().find(|l| l.starts_with("[…")).unwrap();
        assert!(middle.ends_with(&format!("offset {offset} …]")), "{middle}");
        // Nothing is shown twice, nothing is lost: head + cut + tail = every line.
        let tail_lines = got.text.lines().skip(head_lines + 1).count();
        let cut: usize = middle.split(' ').nth(1).unwrap().parse().unwrap();
        assert_eq!(head_lines + cut + tail_lines, 10_000);
    }

    #[test]
    fn one_endless_line_is_cut_too() {
        let big = vec![b'x'; 500_000];
        let got = run(&[&big], 3000);
        assert!(got.truncated);
        assert!(got.text.chars().count() < 3300);
        assert_eq!(got.total, 500_000);
    }

    #[test]
    fn the_log_gets_every_byte_up_to_its_cap_then_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        let mut c = Capture::with_log_cap(Some(File::create(&path).unwrap()), 100, 1000);
        for _ in 0..30 {
            c.feed(&[b'y'; 100]);
        }
        let got = c.finish("page it");
        assert!(got.log_full);
        let log = std::fs::read(&path).unwrap();
        assert!(log.starts_with(&[b'y'; 1000]));
        assert!(String::from_utf8_lossy(&log[1000..]).contains("2000 more bytes"));
    }
}
