//! Where each cell of a notebook's `cells` array lies in the file's bytes, so an edit can
//! splice one cell and leave every other byte as it was (SPEC 24.2). A small scanner that knows
//! strings and nesting, run over JSON that serde_json has already accepted.

/// The byte layout of the top-level `cells` array.
#[derive(Debug, PartialEq, Eq)]
pub struct Layout {
    /// Byte index of the `[` and of the `]`.
    pub open: usize,
    pub close: usize,
    /// `[start, end)` of each element.
    pub cells: Vec<(usize, usize)>,
}

/// Skips a JSON string starting at `i` (a `"`); returns the index after its closing quote.
fn skip_string(b: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// Skips one JSON value starting at `i` (no leading whitespace); returns the index after it.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = skip_string(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => {
            // A number, true, false or null: up to the next delimiter.
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']') && !b[j].is_ascii_whitespace()
            {
                j += 1;
            }
            Some(j)
        }
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The layout of the top-level object's `cells` array, or `None` when there is none.
pub fn layout(b: &[u8]) -> Option<Layout> {
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    loop {
        i = skip_ws(b, i);
        match b.get(i)? {
            b'}' => return None,
            b',' => {
                i += 1;
                continue;
            }
            b'"' => {}
            _ => return None,
        }
        let key_end = skip_string(b, i)?;
        let key = &b[i + 1..key_end - 1];
        i = skip_ws(b, key_end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(b, i + 1);
        if key != b"cells" {
            i = skip_value(b, i)?;
            continue;
        }
        if b.get(i) != Some(&b'[') {
            return None;
        }
        let open = i;
        let mut cells = vec![];
        i += 1;
        loop {
            i = skip_ws(b, i);
            match b.get(i)? {
                b']' => {
                    return Some(Layout {
                        open,
                        close: i,
                        cells,
                    });
                }
                b',' => i += 1,
                _ => {
                    let end = skip_value(b, i)?;
                    cells.push((i, end));
                    i = end;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_cell_past_strings_with_brackets() {
        let text = br#"{"metadata": {"x": "]}"}, "cells": [ {"source": ["a]\"{"]}, {"b": [1, {"c": 2}]} ], "n": 4}"#;
        let l = layout(text).unwrap();
        assert_eq!(l.cells.len(), 2);
        let first = &text[l.cells[0].0..l.cells[0].1];
        assert_eq!(first, br#"{"source": ["a]\"{"]}"#);
        assert_eq!(
            &text[l.cells[1].0..l.cells[1].1],
            br#"{"b": [1, {"c": 2}]}"#
        );
        assert_eq!(text[l.open], b'[');
        assert_eq!(text[l.close], b']');
    }

    #[test]
    fn an_empty_array_and_no_array() {
        let l = layout(br#"{"cells": []}"#).unwrap();
        assert!(l.cells.is_empty());
        assert_eq!(l.close, l.open + 1);
        assert!(layout(br#"{"nbformat": 4}"#).is_none());
        assert!(layout(b"[1]").is_none());
    }
}
