//! The matching ladder (SPEC §7, 16.5): exact, then whole lines compared without trailing
//! whitespace, then with typography folded, then with one indentation mapping. The first rung
//! that finds anything decides; what it finds is every non-overlapping occurrence, left to
//! right, each with the text to put in its place.

use super::indent::{FileIndent, Mapping};
use super::lines::{
    Eol, LineIndex, count_eols, fold, is_blank, split_lines, to_crlf, to_lf, trim_ws_end,
};
use std::borrow::Cow;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rung {
    Exact,
    TrailingWhitespace,
    Typography,
    Indentation,
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
    pub replacement: String,
    pub indent: Option<Mapping>,
}

#[derive(Debug)]
pub struct Found {
    pub rung: Rung,
    pub hits: Vec<Hit>,
}

/// How a search is bounded.
#[derive(Debug, Clone, Copy, Default)]
pub struct Opts {
    /// Only runs of whole lines match (a patch hunk's lines, 17.3): an exact match must start
    /// at a line start.
    pub whole_lines: bool,
}

/// Climbs the ladder for `old` in `text`; `None` when no rung finds it.
pub fn find(text: &str, idx: &LineIndex, old: &str, new: &str) -> Option<Found> {
    find_with(text, idx, old, new, Opts::default())
}

/// As `find`, bounded by `opts`.
pub fn find_with(text: &str, idx: &LineIndex, old: &str, new: &str, opts: Opts) -> Option<Found> {
    let mut exact = exact(text, idx, old);
    if opts.whole_lines {
        exact.retain(|&(s, _)| s == 0 || text.as_bytes()[s - 1] == b'\n');
    }
    if !exact.is_empty() {
        let hits = exact
            .into_iter()
            .map(|(start, end)| Hit {
                start,
                end,
                line: idx.line_of(start),
                replacement: with_line_endings(text, idx, start, end, old, new).into_owned(),
                indent: None,
            })
            .collect();
        return Some(Found {
            rung: Rung::Exact,
            hits,
        });
    }
    let (old_lines, ended) = split_lines(old);
    for rung in [
        Rung::TrailingWhitespace,
        Rung::Typography,
        Rung::Indentation,
    ] {
        let found = line_rung(text, idx, &old_lines, rung);
        if found.is_empty() {
            continue;
        }
        let k = old_lines.len();
        let hits = found
            .into_iter()
            .map(|(first, mapping)| {
                let last = first + k - 1;
                let start = idx.start(first);
                let end = if ended {
                    idx.end(last)
                } else {
                    idx.content_end(text, last)
                };
                let mut new = match &mapping {
                    Some(m) => Cow::Owned(m.reindent(new)),
                    None => Cow::Borrowed(new),
                };
                // old_string's final newline met the end of a file that has none: the file
                // keeps lacking it (new_string gives up one final newline too)
                if ended && !text[..end].ends_with('\n') {
                    let trimmed = new
                        .strip_suffix('\n')
                        .map(|t| t.strip_suffix('\r').unwrap_or(t));
                    if let Some(t) = trimmed {
                        new = Cow::Owned(t.to_string());
                    }
                }
                Hit {
                    start,
                    end,
                    line: first,
                    replacement: with_line_endings(text, idx, start, end, old, &new).into_owned(),
                    indent: mapping,
                }
            })
            .collect();
        return Some(Found { rung, hits });
    }
    None
}

/// Exact occurrences, non-overlapping, left to right. old_string is also tried with its line
/// breaks in the file's other style, so `\n` typed against a CRLF file still matches exactly.
fn exact(text: &str, idx: &LineIndex, old: &str) -> Vec<(usize, usize)> {
    let (crlf, lf) = count_eols(old);
    let mut patterns: Vec<Cow<str>> = vec![Cow::Borrowed(old)];
    if lf > 0 && idx.eols().0 > 0 {
        patterns.push(to_crlf(old));
    }
    if crlf > 0 && idx.eols().1 > 0 {
        patterns.push(to_lf(old));
    }
    patterns.dedup();
    let mut all: Vec<(usize, usize)> = Vec::new();
    for p in &patterns {
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
fn with_line_endings<'a>(
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

/// A line's key on a rung: what must be equal for two lines to match there.
fn key(line: &str, rung: Rung) -> Cow<'_, str> {
    match rung {
        Rung::Exact | Rung::Lines => Cow::Borrowed(line),
        Rung::TrailingWhitespace => Cow::Borrowed(trim_ws_end(line)),
        Rung::Typography | Rung::Indentation => {
            let folded = match fold(line) {
                Cow::Borrowed(b) => Cow::Borrowed(trim_ws_end(b)),
                Cow::Owned(o) => Cow::Owned(trim_ws_end(&o).to_string()),
            };
            if rung == Rung::Indentation {
                match folded {
                    Cow::Borrowed(b) => Cow::Borrowed(b.trim_start_matches([' ', '\t'])),
                    Cow::Owned(o) => Cow::Owned(o.trim_start_matches([' ', '\t']).to_string()),
                }
            } else {
                folded
            }
        }
    }
}

/// The starting lines (0-based) of non-overlapping runs of file lines equal to `old` on `rung`,
/// with rung 4's mapping for each.
fn line_rung(
    text: &str,
    idx: &LineIndex,
    old: &[&str],
    rung: Rung,
) -> Vec<(usize, Option<Mapping>)> {
    let k = old.len();
    let n = idx.count();
    if k == 0 || k > n {
        return vec![];
    }
    let old_keys: Vec<Cow<str>> = old.iter().map(|l| key(l, rung)).collect();
    let anchor = old_keys.iter().position(|k| !k.is_empty());
    if rung == Rung::Indentation && anchor.is_none() {
        return vec![]; // all blank: nothing for a mapping to act on, and rung 2 saw it already
    }
    let j0 = anchor.unwrap_or(0);
    let mut file_indent: Option<FileIndent> = None;
    let mut out = Vec::new();
    let mut next_free = 0;
    for p in j0..=(n - k + j0) {
        let first = p - j0;
        if first < next_free || key(idx.content(text, p), rung) != old_keys[j0] {
            continue;
        }
        let lines_agree = (0..k).all(|j| {
            let file = idx.content(text, first + j);
            let fk = key(file, rung);
            // A blank line matches only a blank line, whatever its whitespace.
            fk == old_keys[j] && (rung != Rung::Indentation || is_blank(file) == is_blank(old[j]))
        });
        if !lines_agree {
            continue;
        }
        let mapping = if rung == Rung::Indentation {
            let file: Vec<&str> = (0..k).map(|j| idx.content(text, first + j)).collect();
            let hint = *file_indent.get_or_insert_with(|| FileIndent::of(text, idx));
            match Mapping::infer(old, &file, hint) {
                Some(m) => Some(m),
                None => continue,
            }
        } else {
            None
        };
        out.push((first, mapping));
        next_free = first + k;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, old: &str, new: &str) -> Option<(Rung, Vec<(String, String)>)> {
        let idx = LineIndex::new(text);
        find(text, &idx, old, new).map(|f| {
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
        let f = find(text, &idx, old, new).expect("a match");
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
        // two lines moved by different amounts: no single mapping, no match
        assert!(run(text, "def f(self):\n  return 1\n", "z").is_none());
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
