//! Edits by line number (SPEC 17.2, 24.1): the escape hatch when old_string cannot be made
//! unique. Every item counts lines of the file as it was before the call, so the items are
//! placed on the original text at once (which is what applying them bottom-up means);
//! overlapping items are refused. Line endings follow the file, and inserted or replacing text
//! is always whole lines.

use super::apply::{self, Applied, Failure, Outcome, Piece};
use super::encode::Doc;
use super::lines::{Eol, LineIndex, to_crlf, to_lf, trim_ws_end};
use super::matching::{Hit, How, Rung};

#[derive(Debug, Clone, Copy)]
pub enum LineOp<'a> {
    /// Lines `start..=end` (1-based), with the text they must hold now when given.
    Replace {
        start: usize,
        end: usize,
        expected: Option<&'a str>,
    },
    /// After line `after` (0: before the first).
    Insert { after: usize },
}

#[derive(Debug, Clone, Copy)]
pub struct LineSpec<'a> {
    pub op: LineOp<'a>,
    pub new: &'a str,
}

/// `expected` against the lines' text: line endings and trailing whitespace aside, one final
/// newline ignored (24.1).
fn same_text(expected: &str, actual: &str) -> bool {
    let norm = |s: &str| -> Vec<String> {
        let s = to_lf(s);
        let s = s.strip_suffix('\n').unwrap_or(&s).to_string();
        s.split('\n').map(|l| trim_ws_end(l).to_string()).collect()
    };
    norm(expected) == norm(actual)
}

/// One item placed on the text: the hit, and the lines it spans (`first..last`, for overlaps;
/// an insertion spans none and stands between `first - 1` and `first`).
struct Placed {
    index: usize,
    hit: Hit,
    first: usize,
    last: Option<usize>,
}

pub fn plan(doc: &Doc, specs: &[LineSpec]) -> Result<Outcome, Failure> {
    let text: &str = &doc.text;
    let idx = LineIndex::new(text);
    let count = idx.count();
    let eol_of = |line: usize| -> Option<&str> {
        let (a, b) = (idx.content_end(text, line), idx.end(line));
        (b > a).then(|| &text[a..b])
    };
    let file_eol = match idx.dominant() {
        Eol::CrLf => "\r\n",
        Eol::Lf => "\n",
    };
    let in_style = |s: &str, eol: &str| -> String {
        let lf = to_lf(s);
        if eol == "\r\n" {
            to_crlf(&lf).into_owned()
        } else {
            lf.into_owned()
        }
    };
    let mut placed: Vec<Placed> = Vec::with_capacity(specs.len());
    for (index, spec) in specs.iter().enumerate() {
        let range = |field: &'static str, value: usize| Failure::Range {
            index,
            field,
            value,
            count,
        };
        match spec.op {
            LineOp::Replace {
                start,
                end,
                expected,
            } => {
                if start == 0 || start > count {
                    return Err(range("start_line", start));
                }
                if end < start || end > count {
                    return Err(range("end_line", end));
                }
                let (first, last) = (start - 1, end - 1);
                let a = idx.start(first);
                let content_end = idx.content_end(text, last);
                if let Some(want) = expected
                    && !same_text(want, &text[a..content_end])
                {
                    let now = to_lf(&text[a..content_end]).into_owned();
                    let want = to_lf(want);
                    let want = want.strip_suffix('\n').unwrap_or(&want);
                    let ratio = similar::TextDiff::from_chars(want, now.as_str()).ratio();
                    return Err(Failure::Expected {
                        index,
                        first,
                        last,
                        text: text[a..content_end].to_string(),
                        similarity: ((f64::from(ratio) * 100.0).round() / 100.0).min(0.99),
                    });
                }
                let ending = eol_of(last);
                let eol = ending.unwrap_or(file_eol);
                let mut new = in_style(spec.new, eol);
                let b = match ending {
                    // The lines' final newline stays, unless the lines go altogether.
                    Some(_) if !new.is_empty() && !new.ends_with('\n') => {
                        new.push_str(eol);
                        idx.end(last)
                    }
                    Some(_) => idx.end(last),
                    // A last line without an ending keeps lacking one.
                    None => {
                        if let Some(t) = new.strip_suffix('\n') {
                            new = t.strip_suffix('\r').unwrap_or(t).to_string();
                        }
                        content_end
                    }
                };
                placed.push(Placed {
                    index,
                    hit: Hit {
                        start: a,
                        end: b,
                        line: first,
                        replacement: new,
                        indent: None,
                        how: How::Built,
                    },
                    first,
                    last: Some(last),
                });
            }
            LineOp::Insert { after } => {
                if after > count {
                    return Err(range("insert_line", after));
                }
                let at = if after == 0 { 0 } else { idx.end(after - 1) };
                let mut new = String::new();
                if after > 0 && eol_of(after - 1).is_none() {
                    new.push_str(file_eol); // the last line gets an ending first
                }
                new.push_str(&in_style(spec.new, file_eol));
                if !new.ends_with('\n') {
                    new.push_str(file_eol);
                }
                placed.push(Placed {
                    index,
                    hit: Hit {
                        start: at,
                        end: at,
                        line: after,
                        replacement: new,
                        indent: None,
                        how: How::Built,
                    },
                    first: after,
                    last: None,
                });
            }
        }
    }
    // In file order; an insertion before a replacement at the same place; items at the same
    // place in the order given.
    placed.sort_by_key(|p| (p.hit.start, p.hit.end > p.hit.start, p.index));
    for pair in placed.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let overlaps = match (a.last, b.last) {
            (Some(al), Some(_)) => b.first <= al,
            // an insertion after line k sits inside a replacement of lines ≤ k < last
            (Some(al), None) => b.first <= al && b.first > a.first,
            (None, _) => false,
        };
        if overlaps {
            let (later, other) = if a.index > b.index {
                (a.index, b.index)
            } else {
                (b.index, a.index)
            };
            return Err(Failure::Overlap {
                index: later,
                other,
            });
        }
    }
    for p in &placed {
        if let Some(ch) = doc.unencodable(&p.hit.replacement) {
            return Err(Failure::Unencodable {
                index: p.index,
                old: false,
                ch,
            });
        }
    }
    let hits: Vec<Hit> = placed.iter().map(|p| p.hit.clone()).collect();
    let pieces = apply::replace(&[Piece::Orig(0, text.len())], text.len(), &hits);
    let size: u64 = pieces.iter().map(|p| p.len() as u64).sum();
    if size > apply::MAX_RESULT {
        return Err(Failure::TooLarge {
            index: specs.len() - 1,
            size,
        });
    }
    let new_text = apply::render(&pieces, text);
    let applied = specs
        .iter()
        .map(|_| Applied {
            rung: Rung::Lines,
            count: 1,
            indent: None,
        })
        .collect();
    apply::finish(doc, &pieces, new_text, applied)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, specs: &[LineSpec]) -> Result<String, Failure> {
        let doc = Doc::decode(text.as_bytes());
        plan(&doc, specs).map(|o| o.text().to_string())
    }

    fn replace<'a>(start: usize, end: usize, new: &'a str) -> LineSpec<'a> {
        LineSpec {
            op: LineOp::Replace {
                start,
                end,
                expected: None,
            },
            new,
        }
    }

    fn insert(after: usize, new: &str) -> LineSpec<'_> {
        LineSpec {
            op: LineOp::Insert { after },
            new,
        }
    }

    #[test]
    fn replace_lines_keeps_endings_and_adds_the_final_newline() {
        assert_eq!(
            run("a\nb\nc\n", &[replace(2, 2, "B")]).unwrap(),
            "a\nB\nc\n"
        );
        assert_eq!(
            run("a\r\nb\r\nc\r\n", &[replace(1, 2, "x\ny")]).unwrap(),
            "x\r\ny\r\nc\r\n"
        );
        // the last line without an ending keeps lacking one
        assert_eq!(run("a\nb", &[replace(2, 2, "z\n")]).unwrap(), "a\nz");
        // an empty new_string removes the lines
        assert_eq!(run("a\nb\nc\n", &[replace(2, 3, "")]).unwrap(), "a\n");
    }

    #[test]
    fn insert_makes_whole_lines() {
        assert_eq!(run("a\nb\n", &[insert(0, "top")]).unwrap(), "top\na\nb\n");
        assert_eq!(run("a\nb\n", &[insert(2, "end")]).unwrap(), "a\nb\nend\n");
        assert_eq!(run("a\nb", &[insert(2, "end")]).unwrap(), "a\nb\nend\n");
        assert_eq!(
            run("a\r\nb\r\n", &[insert(1, "m\nn")]).unwrap(),
            "a\r\nm\r\nn\r\nb\r\n"
        );
        assert_eq!(run("", &[insert(0, "only")]).unwrap(), "only\n");
    }

    #[test]
    fn several_items_count_lines_before_the_call() {
        let text = "1\n2\n3\n4\n5\n";
        let out = run(
            text,
            &[
                replace(4, 4, "four"),
                insert(1, "1.5"),
                replace(2, 2, "two\n2b"),
            ],
        )
        .unwrap();
        assert_eq!(out, "1\n1.5\ntwo\n2b\n3\nfour\n5\n");
        // insertion right after a replaced block is no overlap; inside one is
        assert!(run(text, &[replace(2, 3, "x"), insert(3, "y")]).is_ok());
        match run(text, &[replace(2, 4, "x"), insert(3, "y")]) {
            Err(Failure::Overlap { index, other }) => assert_eq!((index, other), (1, 0)),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            run(text, &[replace(1, 2, "x"), replace(2, 3, "y")]),
            Err(Failure::Overlap { .. })
        ));
    }

    #[test]
    fn ranges_and_expected_are_checked() {
        let text = "a\nb \nc\n";
        assert!(matches!(
            run(text, &[replace(0, 1, "x")]),
            Err(Failure::Range {
                field: "start_line",
                ..
            })
        ));
        assert!(matches!(
            run(text, &[replace(2, 9, "x")]),
            Err(Failure::Range {
                field: "end_line",
                count: 3,
                ..
            })
        ));
        assert!(matches!(
            run(text, &[insert(4, "x")]),
            Err(Failure::Range {
                field: "insert_line",
                ..
            })
        ));
        let with = |e: &'static str| LineSpec {
            op: LineOp::Replace {
                start: 2,
                end: 3,
                expected: Some(e),
            },
            new: "X",
        };
        assert_eq!(run(text, &[with("b\nc\n")]).unwrap(), "a\nX\n");
        match run(text, &[with("b\nd")]) {
            Err(Failure::Expected {
                first, last, text, ..
            }) => {
                assert_eq!((first, last, text.as_str()), (1, 2, "b \nc"))
            }
            other => panic!("{other:?}"),
        }
    }
}
