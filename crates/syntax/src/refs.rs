//! The uses of a name (SPEC 26.2): identifier leaves whose text is the name. Strings and
//! comments are leaves of their own kinds, so they never match; a macro's body is matched
//! where the grammar parses it into tokens (Rust) and missed where it keeps it as text (C).

use crate::walk;
use tree_sitter::Tree;

/// One use: 1-based line and column (characters), its byte offset and its line's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ref {
    pub line: usize,
    pub column: usize,
    pub at: usize,
    pub text: String,
}

/// A leaf that names something. Every grammar's name leaves end in `identifier` but one: a
/// destructured property (`const { a } = o`, `({ a = 1 }) => a` in JS/TS) is a
/// `shorthand_property_identifier_pattern`, which tsserver counts as a reference to the
/// property `a` (found by bench/lsp_compare.py: 4 of 63 misses against tsserver on rxjs).
fn is_identifier(kind: &str) -> bool {
    kind.ends_with("identifier") || kind == "shorthand_property_identifier_pattern"
}

/// Every identifier named `name`, in document order.
pub fn find(tree: &Tree, src: &[u8], name: &str) -> Vec<Ref> {
    let mut out = vec![];
    walk(tree, |node, _| {
        if node.child_count() == 0
            && is_identifier(node.kind())
            && &src[node.byte_range()] == name.as_bytes()
        {
            let p = node.start_position();
            let line_start = node.start_byte() - p.column;
            let line_end = src[line_start..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(src.len(), |i| line_start + i);
            let text = String::from_utf8_lossy(&src[line_start..line_end]);
            let column = 1 + String::from_utf8_lossy(&src[line_start..node.start_byte()])
                .chars()
                .count();
            out.push(Ref {
                line: p.row + 1,
                column,
                at: node.start_byte(),
                text: text.trim_end_matches('\r').to_string(),
            });
        }
        true
    });
    out
}

/// The identifier at a 1-based line and character (the `LSP` alias's position).
pub fn at_position(tree: &Tree, src: &[u8], line: usize, character: usize) -> Option<String> {
    let start = src
        .split_inclusive(|&b| b == b'\n')
        .take(line.checked_sub(1)?)
        .map(<[u8]>::len)
        .sum::<usize>();
    let rest = src.get(start..)?;
    let line_text = String::from_utf8_lossy(rest.split(|&b| b == b'\n').next()?);
    let col_bytes: usize = line_text
        .chars()
        .take(character.checked_sub(1)?)
        .map(char::len_utf8)
        .sum();
    let at = start + col_bytes;
    let mut found = None;
    walk(tree, |node, _| {
        if !(node.start_byte() <= at && at <= node.end_byte()) {
            return false;
        }
        if node.child_count() == 0 && is_identifier(node.kind()) {
            found = Some(String::from_utf8_lossy(&src[node.byte_range()]).into_owned());
        }
        true
    });
    found
}

/// Every identifier of a file with how often it occurs, except at the byte offsets in `skip`
/// (sorted: the file's own definitions): what map's graph links files by.
pub fn identifiers(tree: &Tree, src: &[u8], skip: &[usize]) -> Vec<(String, u32)> {
    let mut counts: std::collections::HashMap<&[u8], u32> = std::collections::HashMap::new();
    walk(tree, |node, _| {
        if node.child_count() == 0
            && is_identifier(node.kind())
            && skip.binary_search(&node.start_byte()).is_err()
        {
            *counts.entry(&src[node.byte_range()]).or_default() += 1;
        }
        true
    });
    let mut out: Vec<(String, u32)> = counts
        .into_iter()
        .map(|(k, v)| (String::from_utf8_lossy(k).into_owned(), v))
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Lang, parse};

    #[test]
    fn strings_and_comments_are_not_uses() {
        let src = b"def f():\n    pass\n# f here\ns = 'f'\nf()\n";
        let tree = parse(Lang::Python, src).unwrap();
        let lines: Vec<usize> = find(&tree, src, "f").iter().map(|r| r.line).collect();
        assert_eq!(lines, [1, 5]);
    }

    #[test]
    fn destructured_properties_are_uses() {
        let src = b"const { alpha } = o;\nconst { beta: b, alpha: a = 1 } = o;\nf(({ alpha = 2 }) => alpha);\n";
        let tree = parse(Lang::TypeScript, src).unwrap();
        let at: Vec<(usize, usize)> = find(&tree, src, "alpha")
            .iter()
            .map(|r| (r.line, r.column))
            .collect();
        assert_eq!(at, [(1, 9), (2, 18), (3, 6), (3, 22)]);
        assert_eq!(at_position(&tree, src, 1, 10).as_deref(), Some("alpha"));
        let counts = identifiers(&tree, src, &[]);
        assert!(counts.contains(&("alpha".to_string(), 4)), "{counts:?}");
    }

    #[test]
    fn the_name_under_a_position() {
        let src = b"let alpha = beta(1);\n";
        let tree = parse(Lang::JavaScript, src).unwrap();
        assert_eq!(at_position(&tree, src, 1, 14).as_deref(), Some("beta"));
    }
}
