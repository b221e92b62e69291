//! The matching ladder (SPEC §7, 16.5, 17.1): exact; whole lines compared without trailing
//! whitespace; typography folded (inside lines, then whole lines); one indentation mapping
//! (with alignment tabs inside lines expanded); then old_string rescued from read's line-number
//! prefixes, or from being escaped twice, and the ladder climbed again. The first rung that
//! finds anything decides; what it finds is every non-overlapping occurrence, left to right,
//! each with the text to put in its place. On the line rungs old_string's first line may start
//! mid-line, and a line new_string keeps from old_string is written as the file's own bytes.

use super::indent::Mapping;
use super::line_rungs::{First, Lines, kept_lines};
use super::lines::{Eol, LineIndex, count_eols, split_lines, to_crlf, to_lf};
use super::{rescue, within};
use std::borrow::Cow;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rung {
    Exact,
    TrailingWhitespace,
    Typography,
    Indentation,
    LineNumbers,
    Unescaped,
    /// Not a rung: an edit by line numbers (17.2), reported under this name.
    Lines,
}

impl Rung {
    pub fn name(self) -> &'static str {
        match self {
            Rung::Exact => "exact",
            Rung::TrailingWhitespace => "trailing_whitespace",
            Rung::Typography => "typography",
            Rung::Indentation => "indentation",
            Rung::LineNumbers => "line_numbers",
            Rung::Unescaped => "unescaped",
            Rung::Lines => "lines",
        }
    }
}

/// One occurrence: a byte range of the text and what replaces it.
#[derive(Debug, Clone)]
pub struct Hit {
    pub start: usize,
    pub end: usize,
    /// 0-based line of `start`.
    pub line: usize,
    /// Empty until `Found::build` writes it (`how` is then `Built`).
    pub replacement: String,
    pub indent: Option<Mapping>,
    pub how: How,
}

/// How a hit's replacement is made from new_string. Finding never makes it (SPEC 31.4): an
/// ambiguous edit of 100,000 places with a 300 KB new_string built 24 GB of replacements only
/// to refuse them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// new_string in the region's line endings.
    Plain,
    /// Rung 3 inside lines: the lines new_string keeps are the file's own.
    Typo,
    /// A line rung (`rung`, which rungs 5 and 6 report under their own names): old_string's
    /// first line started at byte `col` of the line, `midline` when that was looked for.
    Line {
        rung: Rung,
        col: usize,
        midline: bool,
    },
    /// `replacement` holds it.
    Built,
}

#[derive(Debug)]
pub struct Found {
    pub rung: Rung,
    pub hits: Vec<Hit>,
    /// old_string and new_string as this rung matched them (rescued ones from rungs 5, 6).
    pub old: String,
    pub new: String,
    /// Replacing every hit would make at least this many bytes, over `Opts::size_limit`: the
    /// hits were not kept (only the first), and the edit is refused from its size.
    pub too_large: Option<u64>,
}

impl Found {
    /// Hits made elsewhere with their replacements (a patch's insertion, line edits).
    pub fn built(rung: Rung, hits: Vec<Hit>) -> Found {
        Found {
            rung,
            hits,
            old: String::new(),
            new: String::new(),
            too_large: None,
        }
    }

    fn unbuilt(rung: Rung, hits: Vec<Hit>, old: &str, new: &str) -> Found {
        Found {
            rung,
            hits,
            old: old.to_string(),
            new: new.to_string(),
            too_large: None,
        }
    }

    /// Writes each hit's replacement, `text` and `idx` being what it was found in, left to
    /// right while `room` accepts each one's length; `false` when it refused one (the rest
    /// are then not built).
    pub fn build(&mut self, text: &str, idx: &LineIndex, room: impl FnMut(usize) -> bool) -> bool {
        let mut made = Vec::with_capacity(self.hits.len());
        let all = self.each(text, idx, room, |i, r| made.push((i, r)));
        for (i, r) in made {
            self.hits[i].replacement = r;
            self.hits[i].how = How::Built;
        }
        all
    }

    /// As `build`, keeping nothing: what the replacements would weigh, one held at a time.
    pub fn measure(&self, text: &str, idx: &LineIndex, room: impl FnMut(usize) -> bool) -> bool {
        self.each(text, idx, room, |_, _| {})
    }

    fn each(
        &self,
        text: &str,
        idx: &LineIndex,
        mut room: impl FnMut(usize) -> bool,
        mut keep: impl FnMut(usize, String),
    ) -> bool {
        let (old, new) = (self.old.as_str(), self.new.as_str());
        let (old_lines, ended) = split_lines(old);
        let lines = Lines {
            text,
            idx,
            old: &old_lines,
            ended,
            old_raw: old,
            new,
        };
        for (i, h) in self.hits.iter().enumerate() {
            let r = match h.how {
                How::Built => continue,
                How::Plain => with_line_endings(text, idx, h.start, h.end, old, new).into_owned(),
                How::Typo => typo_replacement(text, idx, h, old, &old_lines, new),
                How::Line { rung, col, midline } => lines.replacement(rung, h, col, midline),
            };
            if !room(r.len()) {
                return false;
            }
            keep(i, r);
        }
        true
    }
}

/// Rung 3 inside lines: a line new_string keeps from old_string is the region's own.
fn typo_replacement(
    text: &str,
    idx: &LineIndex,
    h: &Hit,
    old: &str,
    old_lines: &[&str],
    new: &str,
) -> String {
    let region: Vec<&str> = text[h.start..h.end]
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let new = if region.len() == old_lines.len() + usize::from(old.ends_with('\n')) {
        kept_lines(
            new,
            old_lines,
            &region,
            Rung::Typography,
            None,
            First::Whole,
        )
    } else {
        new.to_string()
    };
    with_line_endings(text, idx, h.start, h.end, old, &new).into_owned()
}

/// How a search is bounded.
#[derive(Debug, Clone, Copy, Default)]
pub struct Opts {
    /// Only runs of whole lines match (a patch hunk's lines, 17.3): an exact match must start
    /// at a line start.
    pub whole_lines: bool,
    /// Every hit will be replaced (`replace_all`), and a result over this many bytes is
    /// refused: exact hits are weighed before they are kept (SPEC 31.3: a `replace_all` of
    /// `a` in a 1 MB file held a million hits, 169 MB, to refuse a 1 GB result).
    pub size_limit: Option<u64>,
}

/// Climbs the ladder for `old` in `text`; `None` when no rung finds it.
pub fn find(text: &str, idx: &LineIndex, old: &str, new: &str) -> Option<Found> {
    find_with(text, idx, old, new, Opts::default())
}

/// As `find`, bounded by `opts`.
pub fn find_with(text: &str, idx: &LineIndex, old: &str, new: &str, opts: Opts) -> Option<Found> {
    if let Some(f) = climb(text, idx, old, new, opts) {
        return Some(f);
    }
    if let Some(f) = numbered(text, idx, old, new, opts) {
        return Some(f);
    }
    // Rung 6: escaped once too often; a file whose own text holds the escapes was found above.
    if rescue::over_escaped(old) {
        let (o, n) = (rescue::unescape(old), rescue::unescape(new));
        if o != old && !o.is_empty() {
            let found =
                climb(text, idx, &o, &n, opts).or_else(|| numbered(text, idx, &o, &n, opts));
            if let Some(mut f) = found {
                f.rung = Rung::Unescaped;
                return Some(f);
            }
        }
    }
    None
}

/// Rung 5: read's prefixes dropped; only a place whose line numbers are the prefixes counts.
fn numbered(text: &str, idx: &LineIndex, old: &str, new: &str, opts: Opts) -> Option<Found> {
    let (first, o, n) = rescue::strip_numbers(old, new)?;
    if o.trim().is_empty() {
        return None;
    }
    let mut f = climb(text, idx, &o, &n, opts)?;
    f.hits.retain(|h| h.line + 1 == first);
    (!f.hits.is_empty()).then(|| {
        f.rung = Rung::LineNumbers;
        f
    })
}

/// Rungs 1–4.
fn climb(text: &str, idx: &LineIndex, old: &str, new: &str, opts: Opts) -> Option<Found> {
    let patterns = variants(idx, old);
    let at_line_start = |s: usize| s == 0 || text.as_bytes()[s - 1] == b'\n';
    let in_place = |ranges: Vec<(usize, usize)>, rung: Rung| -> Option<Found> {
        let hits: Vec<Hit> = ranges
            .into_iter()
            .filter(|&(s, _)| !opts.whole_lines || at_line_start(s))
            .map(|(start, end)| Hit {
                start,
                end,
                line: idx.line_of(start),
                replacement: String::new(),
                indent: None,
                how: How::Plain,
            })
            .collect();
        (!hits.is_empty()).then(|| Found::unbuilt(rung, hits, old, new))
    };
    let ranges: Vec<(usize, usize)> = exact(text, &patterns)
        .into_iter()
        .filter(|&(s, _)| !opts.whole_lines || at_line_start(s))
        .collect();
    if let Some(size) = over_limit(text, &ranges, new, opts.size_limit) {
        let mut f = in_place(ranges[..1].to_vec(), Rung::Exact)?;
        f.too_large = Some(size);
        return Some(f);
    }
    if let Some(f) = in_place(ranges, Rung::Exact) {
        return Some(f);
    }
    let (old_lines, ended) = split_lines(old);
    let lines = Lines {
        text,
        idx,
        old: &old_lines,
        ended,
        old_raw: old,
        new,
    };
    if let Some(f) = lines.rung(Rung::TrailingWhitespace, false) {
        return Some(f);
    }
    // Rung 3 inside lines: lines new_string keeps are the file's own (curly quotes and all).
    let typo: Vec<(usize, usize)> = within::find(text, &patterns)
        .into_iter()
        .filter(|&(s, _)| !opts.whole_lines || at_line_start(s))
        .collect();
    if !typo.is_empty() {
        let hits = typo
            .into_iter()
            .map(|(start, end)| Hit {
                start,
                end,
                line: idx.line_of(start),
                replacement: String::new(),
                indent: None,
                how: How::Typo,
            })
            .collect();
        return Some(Found::unbuilt(Rung::Typography, hits, old, new));
    }
    lines
        .rung(Rung::Typography, false)
        .or_else(|| lines.rung(Rung::Indentation, false))
        // A first line that starts mid-line only when whole lines found nothing on any rung:
        // a whole-line match on a later rung is the better reading.
        .or_else(|| lines.rung(Rung::TrailingWhitespace, true))
        .or_else(|| lines.rung(Rung::Indentation, true))
}

/// The least a result can be when every range becomes new_string (in the region's line
/// endings: a CRLF of new_string may become LF, never less), when that is over `limit`.
fn over_limit(text: &str, ranges: &[(usize, usize)], new: &str, limit: Option<u64>) -> Option<u64> {
    let limit = limit?;
    let least_new = (new.len() - new.bytes().filter(|&b| b == b'\r').count()) as u64;
    let removed: u64 = ranges.iter().map(|&(s, e)| (e - s) as u64).sum();
    let least = text.len() as u64 - removed + ranges.len() as u64 * least_new;
    (least > limit).then_some(least)
}

/// old_string, and old_string with its line breaks in the file's other style (so `\n` typed
/// against a CRLF file still matches exactly).
fn variants<'a>(idx: &LineIndex, old: &'a str) -> Vec<Cow<'a, str>> {
    let (crlf, lf) = count_eols(old);
    let mut patterns: Vec<Cow<str>> = vec![Cow::Borrowed(old)];
    if lf > 0 && idx.eols().0 > 0 {
        patterns.push(to_crlf(old));
    }
    if crlf > 0 && idx.eols().1 > 0 {
        patterns.push(to_lf(old));
    }
    patterns.dedup();
    patterns
}

/// Exact occurrences of any of `patterns`, non-overlapping, left to right.
fn exact(text: &str, patterns: &[Cow<str>]) -> Vec<(usize, usize)> {
    let mut all: Vec<(usize, usize)> = Vec::new();
    for p in patterns {
        all.extend(
            memchr::memmem::find_iter(text.as_bytes(), p.as_bytes()).map(|s| (s, s + p.len())),
        );
    }
    if patterns.len() > 1 {
        all.sort_unstable();
    }
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (s, e) in all {
        if out.last().is_none_or(|&(_, pe)| s >= pe) {
            out.push((s, e));
        }
    }
    out
}

/// The line ending a replacement is written with: the matched region's own, or the file's
/// usual one when the region has none or both. Only when that is CRLF and new_string has bare
/// `\n` (or LF and old_string was typed in CRLF) is new_string changed.
pub fn with_line_endings<'a>(
    text: &str,
    idx: &LineIndex,
    start: usize,
    end: usize,
    old: &str,
    new: &'a str,
) -> Cow<'a, str> {
    if !new.contains('\n') {
        return Cow::Borrowed(new); // no line break to write either way
    }
    let eol = match count_eols(&text[start..end]) {
        (c, 0) if c > 0 => Eol::CrLf,
        (0, l) if l > 0 => Eol::Lf,
        _ => idx.dominant(),
    };
    match eol {
        Eol::CrLf => to_crlf(new),
        Eol::Lf => {
            let (crlf, lf) = count_eols(old);
            if crlf > 0 && lf == 0 {
                to_lf(new)
            } else {
                Cow::Borrowed(new)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `find` with the replacements built.
    fn found(text: &str, idx: &LineIndex, old: &str, new: &str) -> Option<Found> {
        let mut f = find(text, idx, old, new)?;
        assert!(f.build(text, idx, |_| true));
        Some(f)
    }

    fn run(text: &str, old: &str, new: &str) -> Option<(Rung, Vec<(String, String)>)> {
        let idx = LineIndex::new(text);
        found(text, &idx, old, new).map(|f| {
            (
                f.rung,
                f.hits
                    .iter()
                    .map(|h| (text[h.start..h.end].to_string(), h.replacement.clone()))
                    .collect(),
            )
        })
    }

    fn apply(text: &str, old: &str, new: &str) -> (Rung, String) {
        let idx = LineIndex::new(text);
        let f = found(text, &idx, old, new).expect("a match");
        assert_eq!(f.hits.len(), 1, "one match");
        let h = &f.hits[0];
        (
            f.rung,
            format!("{}{}{}", &text[..h.start], h.replacement, &text[h.end..]),
        )
    }

    #[test]
    fn exact_counts_non_overlapping_left_to_right() {
        let (rung, hits) = run("aaaa", "aa", "b").unwrap();
        assert_eq!(rung, Rung::Exact);
        assert_eq!(hits.len(), 2);
        let idx = LineIndex::new("x\nfoo\nfoo bar\n");
        let f = find("x\nfoo\nfoo bar\n", &idx, "foo", "z").unwrap();
        let lines: Vec<usize> = f.hits.iter().map(|h| h.line).collect();
        assert_eq!(lines, [1, 2]);
    }

    #[test]
    fn crlf_file_with_lf_strings_keeps_crlf() {
        let (rung, out) = apply("a\r\nb\r\nc\r\n", "a\nb\n", "x\ny\nz\n");
        assert_eq!(rung, Rung::Exact);
        assert_eq!(out, "x\r\ny\r\nz\r\nc\r\n");
        // a single-line edit that adds lines follows the file too
        let (_, out) = apply("a\r\nb\r\n", "b", "b\nb2");
        assert_eq!(out, "a\r\nb\r\nb2\r\n");
        // an LF file gets new_string as given
        let (_, out) = apply("a\nb\n", "b", "b\r\nc");
        assert_eq!(out, "a\nb\r\nc\n");
        // CRLF-typed strings against an LF file are matched and written with LF
        let (rung, out) = apply("a\nb\nc\n", "a\r\nb", "x\r\ny");
        assert_eq!(rung, Rung::Exact);
        assert_eq!(out, "x\ny\nc\n");
    }

    #[test]
    fn mixed_endings_each_region_keeps_its_own() {
        let text = "one\r\ntwo\r\nthree\nfour\n";
        let (_, out) = apply(text, "three\nfour\n", "3\n4\n");
        assert_eq!(out, "one\r\ntwo\r\n3\n4\n");
        let (_, out) = apply(text, "one\ntwo\n", "1\n2\n");
        assert_eq!(out, "1\r\n2\r\nthree\nfour\n");
    }

    #[test]
    fn trailing_whitespace_rung_and_its_negative() {
        let text = "fn a() {  \n    x();\t\n}\n";
        let (rung, out) = apply(text, "fn a() {\n    x();\n}", "fn b() {}");
        assert_eq!(rung, Rung::TrailingWhitespace);
        assert_eq!(out, "fn b() {}\n");
        // leading whitespace is not trailing whitespace, and one line moved alone is no
        // consistent indentation mapping either
        assert!(run(text, "fn a() {\n  x();\n}", "z").is_none());
        // a different word is no match on any rung
        assert!(run(text, "fn a() {\n    y();\n}", "z").is_none());
    }

    #[test]
    fn whole_lines_region_keeps_the_last_terminator_unless_old_ends_with_one() {
        let text = "a \nb \nc\n";
        let (_, out) = apply(text, "a\nb", "X");
        assert_eq!(out, "X\nc\n");
        let (_, out) = apply(text, "a\nb\n", "X\n");
        assert_eq!(out, "X\nc\n");
    }

    #[test]
    fn a_missing_final_newline_stays_missing() {
        let (rung, out) = apply("a\nb  ", "b\n", "c\n");
        assert_eq!(rung, Rung::TrailingWhitespace);
        assert_eq!(out, "a\nc");
        let (_, out) = apply("a\r\nb\t", "a\nb\n", "x\ny\n");
        assert_eq!(out, "x\r\ny");
    }

    #[test]
    fn typography_rung_and_its_negative() {
        let text = "say(\u{201C}hi\u{201D});\u{00A0}\nx = a \u{2014} b\u{2026}\n";
        let (rung, out) = apply(text, "say(\"hi\");\nx = a - b...", "done");
        assert_eq!(rung, Rung::Typography);
        assert_eq!(out, "done\n");
        // straight quotes typed for curly ones, the other way round
        let (rung, _) = apply("it's\n", "it\u{2019}s", "it is");
        assert_eq!(rung, Rung::Typography);
        // folding does not make a different word equal
        assert!(run(text, "say(\"ho\");", "z").is_none());
    }

    #[test]
    fn indentation_rung_maps_tabs_and_reindents_new_string() {
        let text = "fn f() {\n\tif x {\n\t\ty();\n\t}\n}\n";
        let old = "    if x {\n        y();\n    }";
        let new = "    if x {\n        y();\n        z();\n    }";
        let (rung, out) = apply(text, old, new);
        assert_eq!(rung, Rung::Indentation);
        assert_eq!(out, "fn f() {\n\tif x {\n\t\ty();\n\t\tz();\n\t}\n}\n");
    }

    #[test]
    fn indentation_rung_shift_and_its_negative() {
        let text = "class A:\n    def f(self):\n        return 1\n";
        let (rung, out) = apply(
            text,
            "def f(self):\n    return 1",
            "def f(self):\n    return 2",
        );
        assert_eq!(rung, Rung::Indentation);
        assert_eq!(out, "class A:\n    def f(self):\n        return 2\n");
        // lines moved by different amounts: no single mapping, no match
        let text3 = "class A:\n    def f(self):\n        x = 1\n        return x\n";
        assert!(run(text3, "    def f(self):\n  x = 1\n    return x\n", "z").is_none());
        // but a first line typed without its indentation takes no part in the mapping (17.1)
        let (rung, out) = apply(
            text,
            "def f(self):\n  return 1\n",
            "def f(self):\n  return 2\n",
        );
        assert_eq!(rung, Rung::Indentation);
        assert_eq!(out, "class A:\n    def f(self):\n        return 2\n");
    }

    #[test]
    fn a_first_line_may_start_mid_line_and_bytes_before_it_stay() {
        // from a token on: `foo(a,` is the end of a longer line
        let text = "fn g() {\n    let v = foo(a,\n        b);\n}\n";
        let (rung, out) = apply(text, "foo(a,\n        b);  \n", "foo(a,\n        c);\n");
        assert_eq!(rung, Rung::TrailingWhitespace);
        assert_eq!(out, "fn g() {\n    let v = foo(a,\n        c);\n}\n");
        // not from inside a word
        assert!(run(text, "oo(a,\n        b);  \n", "z").is_none());
        // the first line without indentation, the rest with spaces for tabs
        let text = "f() {\n\tif (x) {\n\t\ty();\n\t}\n}\n";
        let (rung, out) = apply(
            text,
            "if (x) {\n        y();\n    }",
            "if (x) {\n        z();\n    }",
        );
        assert_eq!(rung, Rung::Indentation);
        assert_eq!(out, "f() {\n\tif (x) {\n\t\tz();\n\t}\n}\n");
    }

    /// Edit benchmark regressions: the first line typed without its indentation and then
    /// deleted leaves no indentation behind; a rewritten one takes its own line's.
    #[test]
    fn a_dedented_first_line_deleted_or_rewritten() {
        let text = "f() {\n\tif (x) {\n\t\ty();\n\t}\n}\n";
        let old = "if (x) {\n        y();\n    }";
        let (_, out) = apply(text, old, "        y();\n    }");
        assert_eq!(out, "f() {\n\t\ty();\n\t}\n}\n");
        let (_, out) = apply(text, old, "y(1);\n    }");
        assert_eq!(out, "f() {\n\t\ty(1);\n\t}\n}\n");
        let (_, out) = apply(text, old, "if (z) {\n        y();\n    }");
        assert_eq!(out, "f() {\n\tif (z) {\n\t\ty();\n\t}\n}\n");
    }

    #[test]
    fn kept_lines_keep_their_bytes() {
        // rung 2: the unchanged lines keep their trailing whitespace
        let text = "a = 1  \nb = 2\t\nc = 3 \n";
        let (rung, out) = apply(text, "a = 1\nb = 2\nc = 3", "a = 1\nb = 20\nc = 3");
        assert_eq!(rung, Rung::TrailingWhitespace);
        assert_eq!(out, "a = 1  \nb = 20\nc = 3 \n");
        // rung 4: alignment tabs and trailing whitespace of kept lines stay; a line whose
        // indentation the model changed is not kept
        let text = "\tint a;\t/* x */ \n\tint b;\n";
        let (rung, out) = apply(
            text,
            "    int a;  /* x */\n    int b;",
            "    int a;  /* x */\n        int b;",
        );
        assert_eq!(rung, Rung::Indentation);
        assert_eq!(out, "\tint a;\t/* x */ \n\t\tint b;\n");
    }

    #[test]
    fn alignment_tabs_inside_lines() {
        let text = "#define A\t1\n#define BB\t2\n";
        let (rung, out) = apply(
            text,
            "#define A       1\n#define BB      2",
            "#define A       1\n#define BB      3",
        );
        assert_eq!(rung, Rung::Indentation);
        assert_eq!(out, "#define A\t1\n#define BB      3\n");
        // spaces that reach another column are not the tab
        assert!(run(text, "#define A   1\n#define BB      2", "z").is_none());
    }

    #[test]
    fn typography_inside_a_line() {
        let text = "x = f(\u{201C}hello\u{201D}, 1)\n";
        let (rung, out) = apply(text, "f(\"hello\", 1)", "g(\"hi\", 1)");
        assert_eq!(rung, Rung::Typography);
        assert_eq!(out, "x = g(\"hi\", 1)\n");
    }

    #[test]
    fn line_number_prefixes_and_over_escaped_text() {
        let text = "a\nfn f() {\n    x();\n}\nfn f() {\n    x();\n}\n";
        // the prefixes say which of the two places
        let (rung, out) = apply(
            text,
            "     5\tfn f() {\n     6\t    x();",
            "     5\tfn f() {\n     6\t    y();",
        );
        assert_eq!(rung, Rung::LineNumbers);
        assert_eq!(out, "a\nfn f() {\n    x();\n}\nfn f() {\n    y();\n}\n");
        // numbers that are not the lines: no match
        assert!(run(text, "     3\tfn f() {\n     4\t    x();", "z").is_none());
        let text = "say(\"hi\");\nnext();\n";
        let (rung, out) = apply(
            text,
            "say(\\\"hi\\\");\\nnext();",
            "say(\\\"yo\\\");\\nnext();",
        );
        assert_eq!(rung, Rung::Unescaped);
        assert_eq!(out, "say(\"yo\");\nnext();\n");
        // a file that holds the escapes itself is matched exactly
        let text = "s = \"a\\nb\"\n";
        let (rung, _) = apply(text, "\"a\\nb\"", "\"c\"");
        assert_eq!(rung, Rung::Exact);
    }

    /// Edit benchmark regression (GNU style, a tab seen as 4 columns): `\t  ` and six spaces
    /// were both typed as six spaces; each unchanged line keeps its own bytes, where the first
    /// pair used to decide for every line.
    #[test]
    fn indentation_typed_alike_keeps_each_lines_own_bytes() {
        let text = "  if (a)\n      {\n\t  run ();\n      }\n";
        let old = "      {\n      run ();\n      }";
        let (rung, out) = apply(text, old, "      {\n      run (1);\n      }");
        assert_eq!(rung, Rung::Indentation);
        assert_eq!(out, "  if (a)\n      {\n\t  run (1);\n      }\n");
        // an added line takes the indentation of its nearest neighbour typed alike
        let (_, out) = apply(text, old, "      {\n      run ();\n      more ();\n      }");
        assert_eq!(
            out,
            "  if (a)\n      {\n\t  run ();\n\t  more ();\n      }\n"
        );
    }

    /// Edit benchmark regression: a block quoted without its indentation in a GNU-style file
    /// (tabs of 8, spaces below them) gets a new deeper line in tabs of 8, not of 4.
    #[test]
    fn a_shift_in_a_gnu_file_writes_new_depths_in_tabs_of_8() {
        let text = "f ()\n{\n  if (x)\n    {\n      y ();\n\t  if (z)\n\t    w ();\n    }\n}\n";
        let (rung, out) = apply(
            text,
            "  if (z)\n    w ();",
            "  if (z)\n    {\n      w ();\n      v ();\n    }",
        );
        assert_eq!(rung, Rung::Indentation);
        assert!(out.contains("\t  if (z)\n\t    {\n\t      w ();\n\t      v ();\n\t    }\n    }"));
    }

    #[test]
    fn blank_lines_are_ignored_by_the_mapping_but_must_stay_blank() {
        let text = "\ta\n\n\tb\n";
        let (rung, _) = apply(text, "    a\n\n    b", "x");
        assert_eq!(rung, Rung::Indentation);
        assert!(run("\ta\n\tq\n\tb\n", "    a\n\n    b", "x").is_none());
    }

    #[test]
    fn every_rung_reports_all_occurrences() {
        let text = "x  \ny\nx \ny\n";
        let idx = LineIndex::new(text);
        let f = find(text, &idx, "x\ny", "z").unwrap();
        assert_eq!(f.rung, Rung::TrailingWhitespace);
        assert_eq!(f.hits.iter().map(|h| h.line).collect::<Vec<_>>(), [0, 2]);
        let text = "\tq\n  q\n";
        let idx = LineIndex::new(text);
        let f = find(text, &idx, "    q\n", "z\n").unwrap();
        assert_eq!(f.rung, Rung::Indentation);
        assert_eq!(f.hits.len(), 2);
    }
}
