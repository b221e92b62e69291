//! Rung 4 (SPEC 16.5): the one indentation mapping that turns old_string's leading whitespace
//! into the file's, and the re-indentation of new_string by that mapping.
//!
//! A tab counts as N columns for the one N in {2, 4, 8} that makes every non-blank line agree;
//! failing that, one constant column shift must hold for every non-blank line. Blank lines say
//! nothing about indentation and are ignored.

use super::lines::{LineIndex, is_blank, leading_ws};

const TAB_WIDTHS: [usize; 3] = [2, 4, 8];

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Same columns, tabs counted as `n`.
    Tabs,
    /// Every line moved by this many columns (tabs counted as `n`).
    Shift(isize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mapping {
    pub kind: Kind,
    pub n: usize,
    /// Per non-blank line of old_string: its index, its leading whitespace and the file's.
    lines: Vec<(usize, String, String)>,
    /// old_string's lines, to align new_string's lines with.
    old: Vec<String>,
    /// Whether the file indents this region with tabs (new indentation is written so).
    file_tabs: bool,
}

/// What the whole file says about its indentation, for what the matched lines cannot tell.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileIndent {
    /// More indented lines start with a tab than with a space.
    pub tabs: bool,
    /// The tab width the file's own mixed indentation implies, when it implies one.
    pub tab_width: Option<usize>,
}

impl FileIndent {
    pub fn of(text: &str, idx: &LineIndex) -> FileIndent {
        let (mut tabs, mut spaces) = (0usize, 0usize);
        // A file indented in the style of Emacs and GNU indent writes a tab for every full
        // tab width: fewer spaces than that, alone or after the tabs. So where tabs indent,
        // runs of 4 to 7 spaces, and (but for a stray line) none of 8, mean tabs of 8.
        let (mut four_to_seven, mut eight_or_more) = (0usize, 0usize);
        for i in 0..idx.count() {
            let line = idx.content(text, i).as_bytes();
            match line.first() {
                Some(b'\t') => tabs += 1,
                Some(b' ') => spaces += 1,
                _ => continue,
            }
            let after_tabs = line.iter().position(|&b| b != b'\t').unwrap_or(line.len());
            let run = line[after_tabs..]
                .iter()
                .take_while(|&&b| b == b' ')
                .count();
            match line.get(after_tabs + run) {
                Some(b) if !b.is_ascii_whitespace() => {}
                _ => continue,
            }
            match run {
                4..=7 => four_to_seven += 1,
                8.. => eight_or_more += 1,
                _ => {}
            }
        }
        let tab_width = (tabs > 0 && four_to_seven > 10 * eight_or_more).then_some(8);
        FileIndent {
            // such a file has more lines indented by spaces alone, but indents with tabs
            tabs: tabs > spaces || tab_width.is_some(),
            tab_width,
        }
    }
}

pub fn width(ws: &str, n: usize) -> usize {
    ws.chars().map(|c| if c == '\t' { n } else { 1 }).sum()
}

/// How `(old_ws, file_ws)` pairs of non-blank lines map, if by one rule: tabs of some width,
/// or a uniform shift. `tab_width` is the file's own, preferred where the pairs allow several.
pub fn kind_of(pairs: &[(&str, &str)], tab_width: Option<usize>) -> Option<(Kind, usize)> {
    if pairs.is_empty() {
        return None;
    }
    let agree = |n: usize| pairs.iter().all(|(o, f)| width(o, n) == width(f, n));
    let fitting: Vec<usize> = TAB_WIDTHS.into_iter().filter(|&n| agree(n)).collect();
    let preferred = |n: usize| tab_width == Some(n);
    match fitting.as_slice() {
        [n] => Some((Kind::Tabs, *n)),
        // Several widths agree only when each line has as many tabs and spaces on both
        // sides (in another order): the width matters only for lines new_string adds.
        [_, ..] => Some((
            Kind::Tabs,
            tab_width.filter(|n| fitting.contains(n)).unwrap_or(4),
        )),
        [] => {
            let mut order = [4, 8, 2];
            order.sort_by_key(|&n| !preferred(n));
            order.into_iter().find_map(|n| {
                let delta = |(o, f): &(&str, &str)| width(f, n) as isize - width(o, n) as isize;
                let d = delta(&pairs[0]);
                pairs
                    .iter()
                    .all(|p| delta(p) == d)
                    .then_some((Kind::Shift(d), n))
            })
        }
    }
}

/// Which of `old`'s lines each of `new`'s rewrites, in order: the pairing of the most similar
/// lines (a character ratio of at least one half), so that a line edited where others were
/// added or removed around it is still known as itself.
fn pair_lines(old: &[&str], new: &[&str]) -> Vec<Option<usize>> {
    let ratio =
        |a: &str, b: &str| f64::from(similar::TextDiff::from_chars(a.trim(), b.trim()).ratio());
    let (m, n) = (old.len(), new.len());
    // best[i][j]: the best total similarity pairing old[..i] with new[..j]
    let mut best = vec![vec![0.0f64; n + 1]; m + 1];
    let mut sim = vec![vec![0.0f64; n]; m];
    for i in 0..m {
        for j in 0..n {
            let r = ratio(old[i], new[j]);
            sim[i][j] = if r >= 0.5 { r } else { f64::NEG_INFINITY };
            best[i + 1][j + 1] = best[i][j + 1]
                .max(best[i + 1][j])
                .max(best[i][j] + sim[i][j]);
        }
    }
    let mut out = vec![None; n];
    let (mut i, mut j) = (m, n);
    while i > 0 && j > 0 {
        if best[i][j] == best[i - 1][j - 1] + sim[i - 1][j - 1] {
            out[j - 1] = Some(i - 1);
            (i, j) = (i - 1, j - 1);
        } else if best[i][j] == best[i - 1][j] {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    out
}

impl Mapping {
    /// The mapping that turns old_string's lines `old` into the file's matched lines `file`
    /// (as many, blank where the other is blank), or `None` when no single mapping explains
    /// them all.
    pub fn infer(old: &[&str], file: &[&str], hint: FileIndent) -> Option<Mapping> {
        let lines: Vec<(usize, &str, &str)> = old
            .iter()
            .zip(file)
            .enumerate()
            .filter(|(_, (o, _))| !is_blank(o))
            .map(|(i, (o, f))| (i, leading_ws(o), leading_ws(f)))
            .collect();
        let pairs: Vec<(&str, &str)> = lines.iter().map(|&(_, o, f)| (o, f)).collect();
        let (kind, n) = kind_of(&pairs, hint.tab_width)?;
        let shown_tabs = pairs.iter().any(|(_, f)| f.contains('\t'));
        // Lines indented by spaces alone, all narrower than a tab, are what a tab-indented
        // file writes there too.
        let narrow = pairs.iter().all(|(_, f)| width(f, n) < n);
        Some(Mapping {
            kind,
            n,
            lines: lines
                .into_iter()
                .map(|(i, o, f)| (i, o.to_string(), f.to_string()))
                .collect(),
            old: old.iter().map(|s| s.to_string()).collect(),
            file_tabs: shown_tabs || (narrow && hint.tabs),
        })
    }

    /// The file's indentation for a line of new_string indented with `ws`, standing at
    /// `anchor` (twice an index of old_string's lines; odd between two of them).
    fn map_ws(&self, ws: &str, anchor: isize) -> String {
        // old_string's line with this indentation nearest to the new line (the one above on a
        // tie) gives the file's own bytes: an unchanged line keeps its exact bytes even where
        // two of the file's indentations were typed alike.
        let nearest = self
            .lines
            .iter()
            .filter(|(_, o, _)| o == ws)
            .min_by_key(|(i, _, _)| (2 * *i as isize - anchor).abs());
        if let Some((_, _, f)) = nearest {
            return f.clone();
        }
        let w = width(ws, self.n) as isize;
        let w = match self.kind {
            Kind::Tabs => w,
            Kind::Shift(d) => w + d,
        }
        .max(0) as usize;
        if self.file_tabs {
            format!("{}{}", "\t".repeat(w / self.n), " ".repeat(w % self.n))
        } else {
            " ".repeat(w)
        }
    }

    /// Where each of `new`'s lines stands among old_string's lines: twice the index of the
    /// line it keeps or rewrites in place, or an odd number between two lines for one added.
    fn anchors(&self, new: &[&str]) -> Vec<isize> {
        let old: Vec<&str> = self.old.iter().map(String::as_str).collect();
        let mut at = vec![0isize; new.len()];
        for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old, new) {
            let (o, n, old_len, new_len) = match op {
                similar::DiffOp::Equal {
                    old_index,
                    new_index,
                    len,
                } => (old_index, new_index, len, len),
                similar::DiffOp::Delete { .. } => continue,
                similar::DiffOp::Insert {
                    old_index,
                    new_index,
                    new_len,
                } => (old_index, new_index, 0, new_len),
                similar::DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => (old_index, new_index, old_len, new_len),
            };
            let paired = if old_len == new_len {
                (0..new_len).map(Some).collect()
            } else {
                pair_lines(&old[o..o + old_len], &new[n..n + new_len])
            };
            // an unpaired line stands just after the last line paired before it
            let mut after = 0;
            for (k, p) in paired.into_iter().enumerate() {
                at[n + k] = match p {
                    Some(i) => {
                        after = i + 1;
                        2 * (o + i) as isize
                    }
                    None => 2 * (o + after) as isize - 1,
                };
            }
        }
        at
    }

    /// new_string with each non-blank line's leading whitespace mapped to the file's.
    pub fn reindent(&self, new: &str) -> String {
        let lines: Vec<&str> = new.split_inclusive('\n').collect();
        let bodies: Vec<&str> = lines
            .iter()
            .map(|l| l.trim_end_matches(['\r', '\n']))
            .collect();
        let anchors = self.anchors(&bodies);
        let mut out = String::with_capacity(new.len() + 16);
        for ((line, body), anchor) in lines.iter().zip(&bodies).zip(anchors) {
            if is_blank(body) {
                out.push_str(line);
                continue;
            }
            let ws = leading_ws(body);
            out.push_str(&self.map_ws(ws, anchor));
            out.push_str(&line[ws.len()..]);
        }
        out
    }

    /// For `output`: what the mapping did.
    pub fn describe(&self) -> String {
        match self.kind {
            Kind::Tabs if self.file_tabs => format!(
                "the file indents with tabs where old_string has spaces (a tab counted as {} columns)",
                self.n
            ),
            Kind::Tabs => format!(
                "the file indents with spaces where old_string has tabs (a tab counted as {} columns)",
                self.n
            ),
            Kind::Shift(d) => format!(
                "the file's lines are indented {} column{} {} than old_string's",
                d.unsigned_abs(),
                if d.unsigned_abs() == 1 { "" } else { "s" },
                if d > 0 { "deeper" } else { "shallower" }
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mapping for lines indented `(old_ws, file_ws)`, each line's text its position.
    fn infer(pairs: &[(&str, &str)], tabs: bool) -> Option<Mapping> {
        let old: Vec<String> = (pairs.iter().enumerate())
            .map(|(i, (o, _))| format!("{o}line{i}"))
            .collect();
        let file: Vec<String> = (pairs.iter().enumerate())
            .map(|(i, (_, f))| format!("{f}line{i}"))
            .collect();
        let old: Vec<&str> = old.iter().map(String::as_str).collect();
        let file: Vec<&str> = file.iter().map(String::as_str).collect();
        let hint = FileIndent {
            tabs,
            tab_width: None,
        };
        Mapping::infer(&old, &file, hint)
    }

    #[test]
    fn spaces_typed_for_tabs_find_the_one_tab_width() {
        let m = infer(&[("    ", "\t"), ("        ", "\t\t")], false).unwrap();
        assert_eq!((m.kind.clone(), m.n), (Kind::Tabs, 4));
        let m = infer(&[("  ", "\t"), ("    ", "\t\t")], false).unwrap();
        assert_eq!(m.n, 2);
        let m = infer(&[("        ", "\t")], false).unwrap();
        assert_eq!((m.kind.clone(), m.n), (Kind::Tabs, 8));
        // new lines: known indentation keeps the file's own bytes; new depth goes to tabs of N
        let m = infer(&[("    ", "\t"), ("        ", "\t\t")], false).unwrap();
        assert_eq!(
            m.reindent("    a\n        b\n            c\n      d\n"),
            "\ta\n\t\tb\n\t\t\tc\n\t  d\n"
        );
    }

    #[test]
    fn tabs_typed_for_spaces() {
        let m = infer(&[("\t", "    "), ("\t\t", "        ")], false).unwrap();
        assert_eq!(m.kind, Kind::Tabs);
        assert_eq!(m.reindent("\tx\n\t\t\ty\r\n"), "    x\n            y\r\n");
    }

    #[test]
    fn a_uniform_shift_moves_new_lines_too_and_clamps_at_zero() {
        let m = infer(&[("", "    "), ("  ", "      ")], false).unwrap();
        assert_eq!(m.kind, Kind::Shift(4));
        assert_eq!(m.reindent("a\n  b\n    c\n"), "    a\n      b\n        c\n");
        let m = infer(&[("        ", "    "), ("          ", "      ")], false).unwrap();
        assert_eq!(m.kind, Kind::Shift(-4));
        assert_eq!(m.reindent("  x\n"), "x\n", "clamped at column 0");
        assert!(m.describe().contains("4 columns shallower"));
    }

    #[test]
    fn unchanged_lines_keep_the_files_exact_bytes() {
        // tab-plus-spaces in the file survive exactly for lines whose indentation old_string had
        let m = infer(&[("      ", "\t  "), ("    ", "\t")], false).unwrap();
        assert_eq!(m.n, 4);
        assert_eq!(m.reindent("      x\n    y\n"), "\t  x\n\ty\n");
    }

    #[test]
    fn inconsistent_indentation_has_no_mapping() {
        assert!(infer(&[("", "    "), ("  ", "    ")], false).is_none());
        assert!(infer(&[("    ", "\t"), ("  ", "\t")], false).is_none());
        assert!(infer(&[], false).is_none());
    }

    #[test]
    fn blank_new_lines_stay_as_given_and_column_zero_regions_follow_the_file() {
        let m = infer(&[("    ", "")], true).unwrap();
        assert_eq!(m.kind, Kind::Shift(-4));
        assert_eq!(
            m.reindent("    a\n\n   \n            b\n"),
            "a\n\n   \n\t\tb\n"
        );
    }

    #[test]
    fn the_file_tells_tabs_of_8_by_its_gnu_style_spaces() {
        let of = |t: &str| FileIndent::of(t, &LineIndex::new(t));
        let gnu = "a\n  b\n    c\n      d\n\te\n\t  f\n";
        assert_eq!(
            of(gnu),
            FileIndent {
                tabs: true,
                tab_width: Some(8)
            }
        );
        // eight spaces where a GNU file has a tab: spaces style, or tabs of another width
        assert_eq!(of("a\n    b\n        c\n\td\n").tab_width, None);
        // but a stray one among many does not
        let stray = format!("{}        x\n", gnu.repeat(6));
        assert_eq!(of(&stray).tab_width, Some(8));
        assert_eq!(
            of("\ta\n\t\tb\n"),
            FileIndent {
                tabs: true,
                tab_width: None
            }
        );
        assert!(!of("    a\n  b\n").tabs);
    }

    #[test]
    fn lines_pair_with_the_ones_they_rewrite() {
        let old = ["{", "  if (i == len)", "    p[i] = 0;"];
        let new = ["  if (i == len)  /* checked */", "    p[i] = 0;"];
        assert_eq!(pair_lines(&old, &new), [Some(1), Some(2)]);
        assert_eq!(pair_lines(&old, &["zzz", "{"]), [None, Some(0)]);
        // GNU typed with tabs of 4: lines 0 and 2 were both typed with six spaces; line 1 is
        // removed and line 2 edited, and line 2 keeps its own indentation, not line 0's
        let pairs = [("      ", "      "), ("    ", "\t"), ("      ", "\t  ")];
        let m = infer(&pairs, false).unwrap();
        assert_eq!(
            m.reindent("      line0\n      line2 changed\n"),
            "      line0\n\t  line2 changed\n"
        );
    }
}
