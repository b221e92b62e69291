//! Rung 3 inside lines (SPEC 17.1): old_string with typography folded is searched in the file's
//! text with typography folded, as `exact` searches, and each match maps back to the file's own
//! characters — `print("hello")` finds `print(“hello”)` in the middle of a line.

use super::lines::{fold, fold_char};
use std::borrow::Cow;

/// The folded text and where its folded characters came from.
pub struct Folded<'a> {
    pub text: Cow<'a, str>,
    /// For every character that folding changed: its offset in the folded text, its offset in
    /// the original, its folded length and its original length.
    marks: Vec<(usize, usize, usize, usize)>,
}

impl<'a> Folded<'a> {
    pub fn of(original: &'a str) -> Folded<'a> {
        if original.is_ascii() || !original.chars().any(|c| fold_char(c).is_some()) {
            return Folded {
                text: Cow::Borrowed(original),
                marks: vec![],
            };
        }
        let mut text = String::with_capacity(original.len());
        let mut marks = Vec::new();
        for (i, c) in original.char_indices() {
            match fold_char(c) {
                Some(f) => {
                    marks.push((text.len(), i, f.len(), c.len_utf8()));
                    text.push_str(f);
                }
                None => text.push(c),
            }
        }
        Folded {
            text: Cow::Owned(text),
            marks,
        }
    }

    /// The original offset of folded offset `k`; `None` inside the expansion of one character
    /// (a match may not begin or end between the dots of a folded `…`).
    pub fn original(&self, k: usize) -> Option<usize> {
        let at = self.marks.partition_point(|m| m.0 <= k);
        let Some(&(fp, op, fl, ol)) = at.checked_sub(1).map(|i| &self.marks[i]) else {
            return Some(k);
        };
        if k == fp {
            Some(op)
        } else if k < fp + fl {
            None
        } else {
            Some(op + ol + (k - fp - fl))
        }
    }
}

/// Occurrences of `old` folded in `text` folded, non-overlapping, left to right, as byte ranges
/// of `text`; `patterns` are old_string's line-ending variants (see `exact`).
pub fn find(text: &str, patterns: &[Cow<str>]) -> Vec<(usize, usize)> {
    let folded_patterns: Vec<String> = patterns.iter().map(|p| fold(p).into_owned()).collect();
    let folded = Folded::of(text);
    if folded_patterns
        .iter()
        .zip(patterns)
        .all(|(f, p)| f == p.as_ref())
        && matches!(folded.text, Cow::Borrowed(_))
    {
        return vec![]; // nothing folds on either side: this is exact, which found nothing
    }
    let mut all: Vec<(usize, usize)> = Vec::new();
    for p in folded_patterns.iter().filter(|p| !p.is_empty()) {
        for s in memchr::memmem::find_iter(folded.text.as_bytes(), p.as_bytes()) {
            if let (Some(a), Some(b)) = (folded.original(s), folded.original(s + p.len())) {
                all.push((a, b));
            }
        }
    }
    all.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (s, e) in all {
        if out.last().is_none_or(|&(_, pe)| s >= pe) {
            out.push((s, e));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one<'a>(text: &'a str, old: &str) -> Vec<&'a str> {
        find(text, &[Cow::Borrowed(old)])
            .into_iter()
            .map(|(a, b)| &text[a..b])
            .collect()
    }

    #[test]
    fn finds_within_lines_and_maps_back_to_the_files_characters() {
        assert_eq!(
            one("x = print(\u{201C}hello\u{201D}) + 1\n", "print(\"hello\")"),
            ["print(\u{201C}hello\u{201D})"]
        );
        // the other way round: curly typed where the file has straight quotes
        assert_eq!(one("say('hi')\n", "say(\u{2018}hi\u{2019})"), ["say('hi')"]);
        // an ellipsis is one character of the file, three of the fold
        assert_eq!(
            one("wait\u{2026} done\n", "wait... done"),
            ["wait\u{2026} done"]
        );
        assert!(
            one("wait\u{2026} done\n", ".. done").is_empty(),
            "not from inside the …"
        );
        assert!(
            one("plain text\n", "plain text").is_empty(),
            "exact's business"
        );
    }

    #[test]
    fn original_offsets_across_marks() {
        let f = Folded::of("a\u{2014}b\u{2026}c");
        assert_eq!(f.text, "a-b...c");
        assert_eq!(f.original(0), Some(0));
        assert_eq!(f.original(1), Some(1));
        assert_eq!(f.original(2), Some(4)); // after the 3-byte em dash
        assert_eq!(f.original(3), Some(5));
        assert_eq!(f.original(4), None);
        assert_eq!(f.original(6), Some(8));
        assert_eq!(f.original(7), Some(9));
    }
}
