//! The syntax check of a change (SPEC 26.5): how many errors a tree holds and where the first
//! one is that the change brought.

use crate::{Lang, parse, walk};
use tree_sitter::Tree;

/// One syntax error: 1-based line and column (characters), and the line's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub line: usize,
    pub column: usize,
    pub text: String,
}

/// Counts the errors of a tree: each ERROR subtree once, each MISSING node.
pub fn count(tree: &Tree) -> usize {
    errors(tree, &[]).len()
}

fn errors(tree: &Tree, src: &[u8]) -> Vec<Error> {
    let mut out = vec![];
    if !tree.root_node().has_error() {
        return out;
    }
    walk(tree, |node, _| {
        if node.is_error() || node.is_missing() {
            out.push(at(node.start_byte(), src));
            return false;
        }
        node.has_error()
    });
    out
}

/// The first ERROR node of a tree parsed from `parsed`, shown against `original` (the same text
/// with characters swapped one for one, as a pattern's `$` for `µ`).
pub fn first_error(tree: &Tree, original: &[u8], parsed: &[u8]) -> Option<Error> {
    // A node the parser made up (a missing `;` after a fragment) is no error in a pattern.
    let mut first = None;
    walk(tree, |node, _| {
        if first.is_none() && node.is_error() {
            first = Some(at(node.start_byte(), parsed));
        }
        first.is_none() && node.has_error()
    });
    let mut e = first?;
    let original = String::from_utf8_lossy(original);
    e.text = original
        .lines()
        .nth(e.line.saturating_sub(1))
        .unwrap_or("")
        .to_string();
    Some(e)
}

/// The position of a byte offset (1-based line and character column) and its line's text.
fn at(offset: usize, src: &[u8]) -> Error {
    if src.is_empty() {
        return Error {
            line: 0,
            column: 0,
            text: String::new(),
        };
    }
    let offset = offset.min(src.len());
    let start = src[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let end = src[offset..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(src.len(), |i| offset + i);
    let line = 1 + src[..start].iter().filter(|&&b| b == b'\n').count();
    let column = 1 + String::from_utf8_lossy(&src[start..offset]).chars().count();
    let text = String::from_utf8_lossy(&src[start..end])
        .trim_end_matches('\r')
        .to_string();
    Error { line, column, text }
}

/// The check of one change: errors before and after, and the first error the change brought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub before: usize,
    pub after: usize,
    pub first_new: Option<Error>,
}

/// Parses `old` (`None` for a new file) and `new` as `lang`; `None` when either is skipped.
pub fn compare(lang: Lang, old: Option<&[u8]>, new: &[u8]) -> Option<Report> {
    let (before, after) = match old {
        Some(old) => {
            let mut tree = parse(lang, old).ok()?;
            let before = errors(&tree, old);
            // The new text re-parsed from the old tree: only the changed region is parsed
            // again, not the whole file a second time.
            tree.edit(&edit_between(old, new));
            let after = errors(&crate::parse_after(lang, new, Some(&tree)).ok()?, new);
            (before, after)
        }
        None => (vec![], errors(&parse(lang, new).ok()?, new)),
    };
    // The first error whose line was not already in error: the one this change brought.
    let first_new = (after.len() > before.len())
        .then(|| {
            after
                .iter()
                .find(|e| !before.iter().any(|b| b.text == e.text))
                .or(after.first())
                .cloned()
        })
        .flatten();
    Some(Report {
        before: before.len(),
        after: after.len(),
        first_new,
    })
}

/// The one edit that turns `old` into `new`: everything between their common prefix and
/// common suffix.
fn edit_between(old: &[u8], new: &[u8]) -> tree_sitter::InputEdit {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    let point = |src: &[u8], at: usize| {
        let row = src[..at].iter().filter(|&&b| b == b'\n').count();
        let col = at
            - src[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
        tree_sitter::Point::new(row, col)
    };
    tree_sitter::InputEdit {
        start_byte: prefix,
        old_end_byte: old.len() - suffix,
        new_end_byte: new.len() - suffix,
        start_position: point(old, prefix),
        old_end_position: point(old, old.len() - suffix),
        new_end_position: point(new, new.len() - suffix),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_change_names_its_first_error() {
        let old = b"fn main() {\n    let x = 1;\n}\n";
        let new = b"fn main() {\n    let x = ;\n}\n";
        let r = compare(Lang::Rust, Some(old), new).unwrap();
        assert_eq!((r.before, r.after), (0, 1));
        let e = r.first_new.unwrap();
        assert_eq!(e.line, 2);
        assert_eq!(e.text, "    let x = ;");
    }

    #[test]
    fn the_incremental_parse_sees_what_a_full_one_sees() {
        let old = b"def f():\n    return 1\n\ndef g():\n    return 2\n";
        for new in [
            &b"def f():\n    return (1\n\ndef g():\n    return 2\n"[..],
            b"def f():\n    return 1\n\ndef g():\n    return 2\n\nx = [\n",
            b"x = ]\ndef f():\n    return 1\n\ndef g():\n    return 2\n",
            b"",
        ] {
            let r = compare(Lang::Python, Some(old), new).unwrap();
            let full = errors(&parse(Lang::Python, new).unwrap(), new);
            assert_eq!(r.after, full.len(), "{}", String::from_utf8_lossy(new));
        }
    }

    #[test]
    fn a_fix_says_nothing_new() {
        let r = compare(
            Lang::Python,
            Some(b"def f(:\n  pass\n"),
            b"def f():\n  pass\n",
        )
        .unwrap();
        assert_eq!((r.before, r.after, r.first_new), (1, 0, None));
    }
}
