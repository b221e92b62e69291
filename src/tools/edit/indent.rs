//! Rung 4 (SPEC 16.5): the one indentation mapping that turns old_string's leading whitespace
//! into the file's, and the re-indentation of new_string by that mapping.
//!
//! A tab counts as N columns for the one N in {2, 4, 8} that makes every non-blank line agree;
//! failing that, one constant column shift must hold for every non-blank line. Blank lines say
//! nothing about indentation and are ignored.

use super::lines::{is_blank, leading_ws};

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
    /// old_string's leading whitespace → the file's, per matched non-blank line, first one wins.
    pairs: Vec<(String, String)>,
    /// Whether the file indents this region with tabs (new indentation is written so).
    file_tabs: bool,
}

fn width(ws: &str, n: usize) -> usize {
    ws.chars().map(|c| if c == '\t' { n } else { 1 }).sum()
}

impl Mapping {
    /// The mapping for matched lines given as `(old_ws, file_ws)` of the non-blank lines, or
    /// `None` when no single mapping explains them all. `prefer_tabs` says how the file indents
    /// when the matched lines themselves do not show it (all at column 0).
    pub fn infer(pairs: &[(&str, &str)], prefer_tabs: bool) -> Option<Mapping> {
        if pairs.is_empty() {
            return None;
        }
        let agree = |n: usize| pairs.iter().all(|(o, f)| width(o, n) == width(f, n));
        let fitting: Vec<usize> = TAB_WIDTHS.into_iter().filter(|&n| agree(n)).collect();
        let kind_n = match fitting.as_slice() {
            [n] => Some((Kind::Tabs, *n)),
            // Several widths agree only when each line has as many tabs and spaces on both
            // sides (in another order): the width then changes nothing that is written.
            [_, ..] => Some((Kind::Tabs, 4)),
            [] => [4, 8, 2].into_iter().find_map(|n| {
                let delta = |(o, f): &(&str, &str)| width(f, n) as isize - width(o, n) as isize;
                let d = delta(&pairs[0]);
                pairs
                    .iter()
                    .all(|p| delta(p) == d)
                    .then_some((Kind::Shift(d), n))
            }),
        };
        let (kind, n) = kind_n?;
        let mut owned: Vec<(String, String)> = Vec::new();
        for (o, f) in pairs {
            if !owned.iter().any(|(x, _)| x == o) {
                owned.push((o.to_string(), f.to_string()));
            }
        }
        let shown_tabs = pairs.iter().any(|(_, f)| f.contains('\t'));
        let shown_spaces = pairs.iter().any(|(_, f)| f.starts_with(' '));
        Some(Mapping {
            kind,
            n,
            pairs: owned,
            file_tabs: shown_tabs || (!shown_spaces && prefer_tabs),
        })
    }

    /// The file's indentation for a line of new_string indented with `ws`.
    fn map_ws(&self, ws: &str) -> String {
        if let Some((_, f)) = self.pairs.iter().find(|(o, _)| o == ws) {
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

    /// new_string with each non-blank line's leading whitespace mapped to the file's.
    pub fn reindent(&self, new: &str) -> String {
        let mut out = String::with_capacity(new.len() + 16);
        for line in new.split_inclusive('\n') {
            let body = line.trim_end_matches(['\r', '\n']);
            if is_blank(body) {
                out.push_str(line);
                continue;
            }
            let ws = leading_ws(body);
            out.push_str(&self.map_ws(ws));
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

    #[test]
    fn spaces_typed_for_tabs_find_the_one_tab_width() {
        let m = Mapping::infer(&[("    ", "\t"), ("        ", "\t\t")], false).unwrap();
        assert_eq!((m.kind.clone(), m.n), (Kind::Tabs, 4));
        let m = Mapping::infer(&[("  ", "\t"), ("    ", "\t\t")], false).unwrap();
        assert_eq!(m.n, 2);
        let m = Mapping::infer(&[("        ", "\t")], false).unwrap();
        assert_eq!((m.kind.clone(), m.n), (Kind::Tabs, 8));
        // new lines: known indentation keeps the file's own bytes; new depth goes to tabs of N
        let m = Mapping::infer(&[("    ", "\t"), ("        ", "\t\t")], false).unwrap();
        assert_eq!(
            m.reindent("    a\n        b\n            c\n      d\n"),
            "\ta\n\t\tb\n\t\t\tc\n\t  d\n"
        );
    }

    #[test]
    fn tabs_typed_for_spaces() {
        let m = Mapping::infer(&[("\t", "    "), ("\t\t", "        ")], false).unwrap();
        assert_eq!(m.kind, Kind::Tabs);
        assert_eq!(m.reindent("\tx\n\t\t\ty\r\n"), "    x\n            y\r\n");
    }

    #[test]
    fn a_uniform_shift_moves_new_lines_too_and_clamps_at_zero() {
        let m = Mapping::infer(&[("", "    "), ("  ", "      ")], false).unwrap();
        assert_eq!(m.kind, Kind::Shift(4));
        assert_eq!(m.reindent("a\n  b\n    c\n"), "    a\n      b\n        c\n");
        let m = Mapping::infer(&[("        ", "    "), ("          ", "      ")], false).unwrap();
        assert_eq!(m.kind, Kind::Shift(-4));
        assert_eq!(m.reindent("  x\n"), "x\n", "clamped at column 0");
        assert!(m.describe().contains("4 columns shallower"));
    }

    #[test]
    fn unchanged_lines_keep_the_files_exact_bytes() {
        // tab-plus-spaces in the file survive exactly for lines whose indentation old_string had
        let m = Mapping::infer(&[("      ", "\t  "), ("    ", "\t")], false).unwrap();
        assert_eq!(m.n, 4);
        assert_eq!(m.reindent("      x\n    y\n"), "\t  x\n\ty\n");
    }

    #[test]
    fn inconsistent_indentation_has_no_mapping() {
        assert!(Mapping::infer(&[("", "    "), ("  ", "    ")], false).is_none());
        assert!(Mapping::infer(&[("    ", "\t"), ("  ", "\t")], false).is_none());
        assert!(Mapping::infer(&[], false).is_none());
    }

    #[test]
    fn blank_new_lines_stay_as_given_and_column_zero_regions_follow_the_file() {
        let m = Mapping::infer(&[("    ", "")], true).unwrap();
        assert_eq!(m.kind, Kind::Shift(-4));
        assert_eq!(
            m.reindent("    a\n\n   \n            b\n"),
            "a\n\n   \n\t\tb\n"
        );
    }
}
