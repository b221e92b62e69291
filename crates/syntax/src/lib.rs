//! loopr-tool's syntax engine (SPEC 26): tree-sitter grammars built into the binary, the
//! definitions of a file (`tags`), the uses of a name (`refs`), the syntax check of a change
//! (`check`) and ast-grep's structural patterns (`structural`).
//!
//! An engine: it knows bytes and trees, never the sandbox, the state or a tool.
//!
//! Parsing never recurses without a bound (SPEC 23.8, 26.1): tree-sitter's parser and its tree's
//! destructor use heap stacks, every walk here is a cursor loop, and a file whose tree is deeper
//! than `MAX_DEPTH` or over `MAX_BYTES` is refused (`Skip`) before anything walks it.

pub mod check;
pub mod lang;
pub mod refs;
pub mod structural;
pub mod tags;

pub use lang::Lang;
pub use tree_sitter;
use tree_sitter::{Parser, Tree};

/// Files over this size are skipped with a note (SPEC 26.1).
pub const MAX_BYTES: u64 = 4 * 1024 * 1024;
/// Trees deeper than this are skipped with a note. Real code nests a few dozen levels; a
/// generated or hostile file may nest thousands.
pub const MAX_DEPTH: usize = 1_000;

/// Why a file was not parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    TooLarge(u64),
    TooDeep,
    /// The parser gave up (it cannot, without a timeout set, but its API says it may).
    Failed,
}

impl Skip {
    /// The note a caller shows.
    pub fn reason(&self) -> String {
        match self {
            Skip::TooLarge(n) => format!(
                "{n} bytes, over the {} MiB that are parsed",
                MAX_BYTES / 1024 / 1024
            ),
            Skip::TooDeep => format!("nested more than {MAX_DEPTH} levels deep"),
            Skip::Failed => "the parser gave up on it".to_string(),
        }
    }
}

/// Parses `src` as `lang`, refusing a file over `MAX_BYTES` or a tree deeper than `MAX_DEPTH`.
pub fn parse(lang: Lang, src: &[u8]) -> Result<Tree, Skip> {
    parse_after(lang, src, None)
}

/// `parse`, reusing `old` (a tree already `edit`ed to match `src`): tree-sitter then re-parses
/// only what the edit touched (the syntax check's second parse, SPEC 26.5).
pub fn parse_after(lang: Lang, src: &[u8], old: Option<&Tree>) -> Result<Tree, Skip> {
    if src.len() as u64 > MAX_BYTES {
        return Err(Skip::TooLarge(src.len() as u64));
    }
    let mut parser = Parser::new();
    parser
        .set_language(&lang.grammar())
        .map_err(|_| Skip::Failed)?;
    let tree = parser.parse(src, old).ok_or(Skip::Failed)?;
    if depth_exceeds(&tree, MAX_DEPTH) {
        return Err(Skip::TooDeep);
    }
    Ok(tree)
}

/// Whether any node lies deeper than `max` (a cursor loop: no recursion).
pub fn depth_exceeds(tree: &Tree, max: usize) -> bool {
    let mut cursor = tree.walk();
    let mut depth = 0usize;
    loop {
        if cursor.goto_first_child() {
            depth += 1;
            if depth > max {
                return true;
            }
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return false;
            }
            depth -= 1;
        }
    }
}

/// Visits every node in document order with its depth (a cursor loop); `visit` returns whether
/// to go into the node's children.
pub fn walk(tree: &Tree, mut visit: impl FnMut(tree_sitter::Node, usize) -> bool) {
    let mut cursor = tree.walk();
    let mut depth = 0usize;
    let mut enter = visit(cursor.node(), 0);
    loop {
        if enter && cursor.goto_first_child() {
            depth += 1;
            enter = visit(cursor.node(), depth);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                enter = visit(cursor.node(), depth);
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            depth -= 1;
        }
    }
}

/// The 1-based line of a byte offset's row, and the text of a node.
pub fn text<'a>(node: tree_sitter::Node, src: &'a [u8]) -> &'a str {
    std::str::from_utf8(&src[node.byte_range()]).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deep_file_is_skipped_not_overflowed() {
        let src = format!("x = {}1{}\n", "[".repeat(5000), "]".repeat(5000));
        assert_eq!(
            parse(Lang::Python, src.as_bytes()).err(),
            Some(Skip::TooDeep)
        );
    }

    #[test]
    fn a_large_file_is_skipped() {
        let src = vec![b' '; MAX_BYTES as usize + 1];
        assert!(matches!(parse(Lang::C, &src), Err(Skip::TooLarge(_))));
    }
}
