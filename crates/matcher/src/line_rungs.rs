//! Rungs 2–4 on lines (SPEC 16.5, 17.1): old_string's lines against runs of the file's lines,
//! compared without trailing whitespace, with typography folded, or through one indentation
//! mapping (insides aligned alike with tabs or spaces); a first line may start mid-line. The
//! replacement keeps the file's own bytes for every line new_string keeps.

use super::indent::{self, FileIndent, Mapping};
use super::lines::{LineIndex, fold, is_blank, leading_ws, trim_ws_end};
use super::matching::{Found, Hit, How, Rung, with_line_endings};
use std::borrow::Cow;

/// Runs of spaces and tabs inside a line as one space (rung 4's first, loose comparison; the
/// exact columns are checked per candidate, see `aligned`).
fn collapse(s: &str) -> Cow<'_, str> {
    if !s.contains('\t') && !s.contains("  ") {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut in_ws = false;
    for c in s.chars() {
        if c == ' ' || c == '\t' {
            if !in_ws {
                out.push(' ');
            }
            in_ws = true;
        } else {
            out.push(c);
            in_ws = false;
        }
    }
    Cow::Owned(out)
}

/// A line's key on a rung: what must be equal for two lines to match there.
fn key(line: &str, rung: Rung) -> Cow<'_, str> {
    match rung {
        Rung::TrailingWhitespace => Cow::Borrowed(trim_ws_end(line)),
        Rung::Typography | Rung::Indentation => {
            let folded = match fold(line) {
                Cow::Borrowed(b) => Cow::Borrowed(trim_ws_end(b)),
                Cow::Owned(o) => Cow::Owned(trim_ws_end(&o).to_string()),
            };
            if rung != Rung::Indentation {
                return folded;
            }
            match folded {
                Cow::Borrowed(b) => collapse(b.trim_start_matches([' ', '\t'])),
                Cow::Owned(o) => {
                    Cow::Owned(collapse(o.trim_start_matches([' ', '\t'])).into_owned())
                }
            }
        }
        _ => Cow::Borrowed(line),
    }
}

/// A line as it shows with tabs of `n` (typography folded, trailing whitespace dropped): two
/// lines whose insides are aligned alike by tabs or by spaces show the same (17.1).
fn aligned(line: &str, n: usize) -> String {
    let ws = leading_ws(line);
    aligned_at(&line[ws.len()..], indent::width(ws, n), n)
}

/// `aligned` for text that starts at column `col`.
fn aligned_at(rest: &str, mut col: usize, n: usize) -> String {
    let mut out = String::with_capacity(rest.len());
    for c in fold(rest).chars() {
        if c == '\t' {
            let next = (col / n + 1) * n;
            out.extend(std::iter::repeat_n(' ', next - col));
            col = next;
        } else {
            out.push(c);
            col += 1;
        }
    }
    trim_ws_end(&out).to_string()
}

/// Where in `file_line` old_string's first line begins when it starts mid-line (17.1): the
/// longest suffix after the line's indentation that equals it on `rung`, beginning at a token.
fn suffix_start(file_line: &str, first: &str, rung: Rung) -> Option<usize> {
    let want = key(first.trim_start_matches([' ', '\t']), rung);
    if want.is_empty() {
        return None;
    }
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let body = leading_ws(file_line).len();
    file_line[body..]
        .char_indices()
        .map(|(i, c)| (body + i, c))
        .filter(|(_, c)| *c != ' ' && *c != '\t')
        .find(|&(s, _)| {
            let boundary = s == body
                || !file_line[..s].chars().next_back().is_some_and(word)
                || !want.chars().next().is_some_and(word);
            boundary && key(&file_line[s..], rung) == want
        })
        .map(|(s, _)| s)
}

/// A line match: the first file line, the byte in it where the region starts (0 unless
/// old_string's first line starts mid-line), rung 4's mapping.
pub struct LineMatch {
    first: usize,
    col: usize,
    midline: bool,
    mapping: Option<Mapping>,
}

/// The line rungs' view of one search.
pub struct Lines<'a> {
    pub text: &'a str,
    pub idx: &'a LineIndex<'a>,
    pub old: &'a [&'a str],
    pub ended: bool,
    pub old_raw: &'a str,
    pub new: &'a str,
}

impl Lines<'_> {
    /// Rungs 2–4 on whole lines, or (2 and 4) with a first line that starts mid-line.
    pub fn rung(&self, rung: Rung, midline: bool) -> Option<Found> {
        if midline && self.old.len() < 2 {
            return None;
        }
        let found = self.matches(rung, midline);
        if found.is_empty() {
            return None;
        }
        let hits = found.into_iter().map(|m| self.hit(rung, m)).collect();
        Some(Found {
            rung,
            hits,
            old: self.old_raw.to_string(),
            new: self.new.to_string(),
            too_large: None,
        })
    }

    /// Starting lines of non-overlapping runs of file lines equal to old_string's on `rung`.
    fn matches(&self, rung: Rung, midline: bool) -> Vec<LineMatch> {
        let (text, idx, old) = (self.text, self.idx, self.old);
        let k = old.len();
        let n = idx.count();
        if k == 0 || k > n {
            return vec![];
        }
        let from = usize::from(midline);
        let old_keys: Vec<Cow<str>> = old.iter().map(|l| key(l, rung)).collect();
        let anchor = (from..k).find(|&j| !old_keys[j].is_empty());
        if (rung == Rung::Indentation || midline) && anchor.is_none() {
            return vec![]; // nothing for a mapping (or a first line) to stand on
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
            let lines_agree = (from..k).all(|j| {
                let file = idx.content(text, first + j);
                // A blank line matches only a blank line, whatever its whitespace.
                key(file, rung) == old_keys[j]
                    && (rung != Rung::Indentation || is_blank(file) == is_blank(old[j]))
            });
            if !lines_agree {
                continue;
            }
            let col = if midline {
                match suffix_start(idx.content(text, first), old[0], rung) {
                    Some(c) => c,
                    None => continue,
                }
            } else {
                0
            };
            let mapping = if rung == Rung::Indentation {
                let hint = *file_indent.get_or_insert_with(|| FileIndent::of(text, idx));
                let file: Vec<&str> = (0..k).map(|j| idx.content(text, first + j)).collect();
                match self.mapping(&file, midline.then_some(col), hint) {
                    Some(m) => Some(m),
                    None => continue,
                }
            } else {
                None
            };
            out.push(LineMatch {
                first,
                col,
                midline,
                mapping,
            });
            next_free = first + k;
        }
        out
    }

    /// Rung 4's mapping for a candidate, if one explains every line — the first line left out
    /// when it starts mid-line — and the lines' insides align alike with tabs of the mapping's
    /// width (or the file's, or 8, when no tab shows it).
    fn mapping(
        &self,
        file: &[&str],
        first_col: Option<usize>,
        hint: FileIndent,
    ) -> Option<Mapping> {
        let midline = first_col.is_some();
        let blank_first = |lines: &[&str]| -> Vec<String> {
            lines
                .iter()
                .enumerate()
                .map(|(j, l)| {
                    if midline && j == 0 {
                        String::new()
                    } else {
                        l.to_string()
                    }
                })
                .collect()
        };
        let (o, f) = (blank_first(self.old), blank_first(file));
        let o: Vec<&str> = o.iter().map(String::as_str).collect();
        let f: Vec<&str> = f.iter().map(String::as_str).collect();
        let m = Mapping::infer(&o, &f, hint)?;
        let shown_tab = o.iter().chain(&f).any(|l| leading_ws(l).contains('\t'));
        let n = if shown_tab {
            m.n
        } else {
            hint.tab_width.unwrap_or(8)
        };
        let from = usize::from(midline);
        // a first line that starts mid-line is aligned from where it starts in the file
        let first_aligned = first_col.is_none_or(|c| {
            let at = file[0][..c].chars().fold(0, |col, ch| match ch {
                '\t' => (col / n + 1) * n,
                _ => col + 1,
            });
            let typed = self.old[0].trim_start_matches([' ', '\t']);
            trim_ws_end(typed) == trim_ws_end(&file[0][c..])
                || aligned_at(typed, at, n) == aligned_at(&file[0][c..], at, n)
        });
        // Insides typed byte for byte as the file's match whatever the columns (a shifted
        // block keeps its own tabs); others must show alike.
        let inside = |l: &str| trim_ws_end(&l[leading_ws(l).len()..]).to_string();
        let rest = (from..o.len())
            .filter(|&j| !is_blank(o[j]))
            .all(|j| inside(o[j]) == inside(f[j]) || aligned(o[j], n) == aligned(f[j], n));
        (first_aligned && rest).then_some(m)
    }

    /// Where a line match lies; its replacement is made by `replacement` once wanted.
    fn hit(&self, rung: Rung, m: LineMatch) -> Hit {
        let (start, end, _) = self.region(m.first, m.col, m.midline);
        Hit {
            start,
            end,
            line: m.first,
            replacement: String::new(),
            indent: m.mapping,
            how: How::Line {
                rung,
                col: m.col,
                midline: m.midline,
            },
        }
    }

    /// The byte range of a line match and where old_string's first line stands in it.
    fn region(&self, first_line: usize, col: usize, midline: bool) -> (usize, usize, First<'_>) {
        let (text, idx) = (self.text, self.idx);
        let last = first_line + self.old.len() - 1;
        // Only the indentation before the first line (the model dropped it): the region is
        // whole lines after all, and a rewritten first line takes the file's indentation.
        // After a token: the file's bytes before it stay.
        let line = idx.content(text, first_line);
        let indent_only = midline && col == leading_ws(line).len();
        let first = match (midline, indent_only) {
            (false, _) => First::Whole,
            (true, true) => First::Indented(leading_ws(line)),
            (true, false) => First::Token,
        };
        let col = if indent_only { 0 } else { col };
        let start = idx.start(first_line) + col;
        let end = if self.ended {
            idx.end(last)
        } else {
            idx.content_end(text, last)
        };
        (start, end, first)
    }

    /// What replaces a line match (`h` from `hit`).
    pub fn replacement(&self, rung: Rung, h: &Hit, col: usize, midline: bool) -> String {
        let (text, idx) = (self.text, self.idx);
        let (start, end, first) = self.region(h.line, col, midline);
        let col = start - idx.start(h.line);
        let file: Vec<&str> = (0..self.old.len())
            .map(|j| {
                let c = idx.content(text, h.line + j);
                if j == 0 { &c[col..] } else { c }
            })
            .collect();
        let mut new = kept_lines(self.new, self.old, &file, rung, h.indent.as_ref(), first);
        // old_string's final newline met the end of a file that has none: the file keeps
        // lacking it (new_string gives up one final newline too)
        if self.ended
            && !text[..end].ends_with('\n')
            && let Some(t) = new.strip_suffix('\n')
        {
            new = t.strip_suffix('\r').unwrap_or(t).to_string();
        }
        with_line_endings(text, idx, start, end, self.old_raw, &new).into_owned()
    }
}

/// new_string as written on a line rung (17.1): a line it keeps from old_string (equal on the
/// rung, with the same indentation as typed) is the file's own line, trailing whitespace, tabs
/// and all; the others are written as given, re-indented by rung 4's mapping. When the first
/// line started mid-line, the file's bytes before it stay, so new_string's first line is
/// written without indentation.
/// Where old_string's first line began in the file.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum First<'a> {
    /// At the line's start.
    Whole,
    /// After the line's indentation (this), which old_string's first line lacks.
    Indented(&'a str),
    /// After a token: the bytes before it stay.
    Token,
}

pub fn kept_lines(
    new: &str,
    old: &[&str],
    file: &[&str],
    rung: Rung,
    mapping: Option<&Mapping>,
    first: First,
) -> String {
    let midline = first != First::Whole;
    let reindented = match mapping {
        Some(m) => Cow::Owned(m.reindent(new)),
        None => Cow::Borrowed(new),
    };
    let given: Vec<&str> = new.split_inclusive('\n').collect();
    let written: Vec<&str> = reindented.split_inclusive('\n').collect();
    if given.len() != written.len() {
        return reindented.into_owned(); // cannot happen: re-indenting maps line by line
    }
    let body = |l: &str| l.trim_end_matches(['\r', '\n']).len();
    let kept_key = |j: usize, l: &str| -> String {
        let l = if midline && j == 0 {
            l.trim_start_matches([' ', '\t'])
        } else {
            l
        };
        if rung == Rung::Indentation {
            format!("{}\0{}", leading_ws(l), key(l, rung))
        } else {
            key(l, rung).into_owned()
        }
    };
    let old_keys: Vec<String> = old
        .iter()
        .enumerate()
        .map(|(j, l)| kept_key(j, l))
        .collect();
    let new_keys: Vec<String> = given
        .iter()
        .enumerate()
        .map(|(i, l)| kept_key(i, &l[..body(l)]))
        .collect();
    let mut kept: Vec<Option<usize>> = vec![None; given.len()];
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old_keys, &new_keys) {
        if let similar::DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            for t in 0..len {
                // a first line's suffix after a token stands only where the first line stands
                if first != First::Token || (old_index + t == 0) == (new_index + t == 0) {
                    kept[new_index + t] = Some(old_index + t);
                }
            }
        }
    }
    let mut out = String::with_capacity(new.len() + 16);
    for (i, line) in written.iter().enumerate() {
        let (content, ending) = line.split_at(body(line));
        match kept[i] {
            Some(j) => out.push_str(file[j]),
            None if i == 0 && first == First::Token => {
                out.push_str(content.trim_start_matches([' ', '\t']))
            }
            None if i == 0
                && !is_blank(content)
                && let First::Indented(ws) = first =>
            {
                // typed without indentation like old_string's first line: it takes the
                // indentation of the line it rewrites (the most similar), else the first's
                let body = content.trim_start_matches([' ', '\t']);
                let ratio = |l: &str| similar::TextDiff::from_chars(l.trim(), body.trim()).ratio();
                let best = (0..old.len())
                    .map(|j| (ratio(old[j]), j))
                    .filter(|(r, _)| *r >= 0.5)
                    .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
                let ws = match best {
                    Some((_, j)) if j > 0 => leading_ws(file[j]),
                    _ => ws,
                };
                out.push_str(ws);
                out.push_str(body);
            }
            None => out.push_str(content),
        }
        out.push_str(ending);
    }
    out
}
