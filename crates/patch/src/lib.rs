//! The patch format of OpenAI's Codex agents (SPEC 17.3), read the way models write it.
//!
//! The grammar is Codex's (`*** Begin Patch`, `*** Add File:`, `*** Update File:` with an
//! optional `*** Move to:`, hunks under `@@ [anchor]` of ` `/`-`/`+` lines with an optional
//! `*** End of File`, `*** Delete File:`, `*** End Patch`), and so is its lenience: markers may
//! carry spaces around them, the patch may sit in a heredoc (`<<'EOF'` … `EOF`), the first hunk
//! of a file may lack its `@@`, and an empty line inside a hunk is a blank context line. Beyond
//! Codex: a unified-diff hunk header (`@@ -3,7 +3,8 @@`) is taken as a bare `@@` (models mix
//! the two), an empty line inside an added file is a blank line, and an Update with a Move and
//! no hunks is a plain rename. Anything else is an error naming the patch's line (1-based, in
//! the text as given) and what was expected there.

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File:";
const DELETE: &str = "*** Delete File:";
const UPDATE: &str = "*** Update File:";
const MOVE: &str = "*** Move to:";
const EOF: &str = "*** End of File";

/// One file's change, in patch order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileOp {
    Add {
        path: String,
        /// The patch line of the `*** Add File:` marker.
        line: usize,
        /// The added lines, each without its line ending.
        lines: Vec<String>,
    },
    Delete {
        path: String,
        line: usize,
    },
    Update {
        path: String,
        line: usize,
        move_to: Option<String>,
        hunks: Vec<Hunk>,
    },
}

impl FileOp {
    pub fn line(&self) -> usize {
        match self {
            FileOp::Add { line, .. }
            | FileOp::Delete { line, .. }
            | FileOp::Update { line, .. } => *line,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hunk {
    /// The text after `@@ `: a line above the hunk that places it.
    pub anchor: Option<String>,
    /// Context and removed lines, in order: what the file holds.
    pub old: Vec<String>,
    /// Context and added lines, in order: what it will hold.
    pub new: Vec<String>,
    /// `*** End of File`: the hunk ends where the file ends.
    pub end_of_file: bool,
    /// The patch line where the hunk starts (its `@@`, or its first line).
    pub line: usize,
    /// Context lines at the end of the hunk that were empty lines in the patch (no leading
    /// space): often only the blank line a model left before the next marker.
    pub trailing_blank: usize,
}

/// What was wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line of the patch text as given.
    pub line: usize,
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
    }
}

/// A line as models write it: an ending `\r` belongs to the line ending.
fn lines_of(text: &str) -> Vec<&str> {
    text.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

/// Whether `text` looks like a unified diff (`git diff` output), which this format is not.
pub fn looks_like_unified_diff(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim_start);
    lines.any(|l| {
        l.starts_with("diff --git ")
            || l.starts_with("--- a/")
            || l.starts_with("+++ b/")
            || l.starts_with("--- /dev/null")
            || l.starts_with("Index: ")
    })
}

/// The path after a file marker; `None` when the line is not that marker. A marker starts at
/// the line's first column (SPEC 31.4): ` *** Delete File: g.txt` is a context line of a
/// patch that quotes patches, never a command.
fn marker_path<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    line.trim_end().strip_prefix(marker).map(str::trim)
}

/// `@@ -3,7 +3,8 @@ fn x()` of a unified diff: the numbers say nothing here.
fn unified_header(anchor: &str) -> Option<&str> {
    let rest = anchor.strip_prefix('-')?;
    let (ranges, after) = rest.split_once("@@")?;
    let ok = ranges.split_whitespace().enumerate().all(|(i, r)| {
        let r = if i == 0 {
            r
        } else {
            r.strip_prefix('+').unwrap_or("x")
        };
        !r.is_empty() && r.split(',').all(|n| n.bytes().all(|b| b.is_ascii_digit()))
    });
    ok.then(|| after.trim())
}

pub fn parse(text: &str) -> Result<Vec<FileOp>, ParseError> {
    let all = lines_of(text);
    // (1-based number, line) of the non-blank span
    let mut lines: Vec<(usize, &str)> = all
        .iter()
        .enumerate()
        .map(|(i, l)| (i + 1, *l))
        .skip_while(|(_, l)| l.trim().is_empty())
        .collect();
    while lines.last().is_some_and(|(_, l)| l.trim().is_empty()) {
        lines.pop();
    }
    let Some(&(first_no, first)) = lines.first() else {
        return Err(err(1, "the patch is empty: expected `*** Begin Patch`"));
    };
    // A heredoc around the patch, as models put it when they think of a shell: `<<'EOF'` …
    // `EOF`.
    if let Some(word) = heredoc_word(first) {
        let last = lines.last().map(|(_, l)| l.trim()).unwrap_or("");
        if lines.len() >= 2 && last == word {
            lines.pop();
            lines.remove(0);
            while lines.first().is_some_and(|(_, l)| l.trim().is_empty()) {
                lines.remove(0);
            }
            while lines.last().is_some_and(|(_, l)| l.trim().is_empty()) {
                lines.pop();
            }
        } else {
            return Err(err(
                first_no,
                format!("the patch opens a heredoc with `{first}` but does not end with `{word}`"),
            ));
        }
    }
    let Some(&(no, first)) = lines.first() else {
        return Err(err(
            first_no,
            "the patch is empty: expected `*** Begin Patch`",
        ));
    };
    if first.trim() != BEGIN {
        let mut msg = format!(
            "expected `{BEGIN}` as the first line, found `{}`",
            clip(first)
        );
        if looks_like_unified_diff(text) {
            msg.push_str(" (this looks like a unified diff, which is not this format)");
        }
        return Err(err(no, msg));
    }
    let &(end_no, last) = lines.last().expect("one line at least");
    if lines.len() < 2 || last.trim() != END {
        return Err(err(
            end_no,
            format!(
                "expected `{END}` as the last line, found `{}`",
                clip(if lines.len() < 2 { "" } else { last })
            ),
        ));
    }
    let body = &lines[1..lines.len() - 1];
    let mut ops = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let (no, line) = body[i];
        if line.trim().is_empty() {
            i += 1;
            continue;
        }
        if let Some(path) = marker_path(line, ADD) {
            let path = non_empty(path, no, ADD)?;
            i += 1;
            let mut added = Vec::new();
            while i < body.len() {
                let (_, l) = body[i];
                if let Some(rest) = l.strip_prefix('+') {
                    added.push(rest.to_string());
                    i += 1;
                } else if l.trim().is_empty() && next_is_added(&body[i..]) {
                    added.push(String::new());
                    i += 1;
                } else {
                    break;
                }
            }
            ops.push(FileOp::Add {
                path,
                line: no,
                lines: added,
            });
        } else if let Some(path) = marker_path(line, DELETE) {
            ops.push(FileOp::Delete {
                path: non_empty(path, no, DELETE)?,
                line: no,
            });
            i += 1;
        } else if let Some(path) = marker_path(line, UPDATE) {
            let path = non_empty(path, no, UPDATE)?;
            i += 1;
            let mut move_to = None;
            if let Some(&(mno, m)) = body.get(i)
                && let Some(to) = marker_path(m, MOVE)
            {
                move_to = Some(non_empty(to, mno, MOVE)?);
                i += 1;
            }
            let (hunks, used) = hunks(&body[i..])?;
            i += used;
            if hunks.is_empty() && move_to.is_none() {
                let at = body.get(i).map_or(end_no, |(n, _)| *n);
                return Err(err(
                    at,
                    format!(
                        "`{UPDATE} {path}` has no hunk: expected `@@` or lines starting with ' ', '-' or '+' after it"
                    ),
                ));
            }
            ops.push(FileOp::Update {
                path,
                line: no,
                move_to,
                hunks,
            });
        } else {
            let found = clip(line);
            let mut msg = format!(
                "expected `{ADD} PATH`, `{UPDATE} PATH`, `{DELETE} PATH` or `{END}`, found `{found}`"
            );
            if line.trim_start().starts_with(MOVE) {
                msg.push_str(&format!(
                    " (`{MOVE}` must follow its `{UPDATE}` line directly)"
                ));
            } else if line.trim_start().starts_with(EOF) {
                msg.push_str(" (`*** End of File` must end a hunk)");
            }
            return Err(err(no, msg));
        }
    }
    if ops.is_empty() {
        return Err(err(
            end_no,
            "the patch holds no file: expected `*** Add File:`, `*** Update File:` or `*** Delete File:` before `*** End Patch`",
        ));
    }
    Ok(ops)
}

/// Whether, past blank lines, the next line is an added one (a blank line inside an Add).
fn next_is_added(rest: &[(usize, &str)]) -> bool {
    rest.iter()
        .find(|(_, l)| !l.trim().is_empty())
        .is_some_and(|(_, l)| l.starts_with('+'))
}

fn heredoc_word(line: &str) -> Option<String> {
    let t = line.trim();
    let t = t.strip_prefix("apply_patch").map_or(t, str::trim_start);
    let w = t.strip_prefix("<<")?.trim_start_matches('-').trim();
    let w = w.trim_matches(|c| c == '\'' || c == '"');
    (!w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .then(|| w.to_string())
}

fn non_empty(path: &str, line: usize, marker: &str) -> Result<String, ParseError> {
    if path.is_empty() {
        return Err(err(line, format!("expected a path after `{marker}`")));
    }
    Ok(path.to_string())
}

/// The hunks of one Update, up to the next file marker; returns them and the lines used.
fn hunks(lines: &[(usize, &str)]) -> Result<(Vec<Hunk>, usize), ParseError> {
    let mut out: Vec<Hunk> = Vec::new();
    let mut i = 0;
    let mut current: Option<Hunk> = None;
    // Blank lines seen but not yet placed: inside a hunk they are context, between hunks
    // nothing.
    let mut blanks: Vec<usize> = Vec::new();
    let flush = |h: Option<Hunk>, out: &mut Vec<Hunk>| {
        if let Some(h) = h {
            out.push(h);
        }
    };
    while i < lines.len() {
        let (no, line) = lines[i];
        let t = line.trim();
        // Codex's rule: a line that starts with `*` ends the hunks; one that starts with a
        // space, `-` or `+` is a hunk line whatever follows (SPEC 31.4: ` *** End of File`
        // and ` @@ x` are text a patch may quote).
        if line.starts_with('*') {
            if t == EOF {
                // the line ends the hunk; blank lines before it are context
                let Some(mut h) = current.take() else {
                    return Err(err(no, "`*** End of File` with no hunk before it"));
                };
                push_blanks(&mut h, &mut blanks);
                if h.old.is_empty() && h.new.is_empty() {
                    return Err(err(no, "`*** End of File` ends a hunk that has no lines"));
                }
                h.end_of_file = true;
                out.push(h);
                i += 1;
                continue;
            }
            break; // the next file
        }
        if line.starts_with("@@") && (t == "@@" || t.starts_with("@@ ")) {
            if let Some(h) = current.take() {
                if h.old.is_empty() && h.new.is_empty() {
                    return Err(err(
                        h.line,
                        "a hunk with no lines: expected ' ', '-' or '+' lines after `@@`",
                    ));
                }
                flush(Some(h), &mut out);
            }
            blanks.clear();
            let anchor = t.strip_prefix("@@").map(str::trim).unwrap_or("");
            let anchor = unified_header(anchor).unwrap_or(anchor);
            current = Some(Hunk {
                anchor: (!anchor.is_empty()).then(|| anchor.to_string()),
                line: no,
                ..Hunk::default()
            });
            i += 1;
            continue;
        }
        if line.is_empty() || (t.is_empty() && !line.starts_with(' ')) {
            // a blank context line, unless it only separates hunks
            if current.is_some() {
                blanks.push(no);
            }
            i += 1;
            continue;
        }
        // The first character, whatever its width (a multi-byte one is no tag: a fuzzed patch
        // with `\u{fffd}` there once split a character in two).
        let cut = line.chars().next().map_or(0, char::len_utf8);
        let (tag, rest) = line.split_at(cut);
        if !matches!(tag, " " | "-" | "+") {
            return Err(err(
                no,
                format!(
                    "expected a hunk line starting with ' ' (context), '-' (removed) or '+' (added), `@@`, or a `*** ` marker, found `{}`",
                    clip(line)
                ),
            ));
        }
        let h = current.get_or_insert_with(|| Hunk {
            line: no,
            ..Hunk::default()
        });
        push_blanks(h, &mut blanks);
        match tag {
            " " => {
                h.old.push(rest.to_string());
                h.new.push(rest.to_string());
            }
            "-" => h.old.push(rest.to_string()),
            _ => h.new.push(rest.to_string()),
        }
        h.trailing_blank = 0;
        i += 1;
    }
    if let Some(mut h) = current.take() {
        // blank lines at the end of the last hunk are context the model may not have meant
        let n = blanks.len();
        push_blanks(&mut h, &mut blanks);
        h.trailing_blank = n;
        if h.old.is_empty() && h.new.is_empty() {
            return Err(err(
                h.line,
                "a hunk with no lines: expected ' ', '-' or '+' lines after `@@`",
            ));
        }
        out.push(h);
    }
    Ok((out, i))
}

fn push_blanks(h: &mut Hunk, blanks: &mut Vec<usize>) {
    let n = blanks.len();
    for _ in blanks.drain(..) {
        h.old.push(String::new());
        h.new.push(String::new());
    }
    if n > 0 {
        h.trailing_blank = n;
    }
}

fn clip(s: &str) -> String {
    const MAX: usize = 60;
    match s.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(path: &str, hunks: Vec<Hunk>) -> FileOp {
        FileOp::Update {
            path: path.into(),
            line: 2,
            move_to: None,
            hunks,
        }
    }

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn every_kind_of_file_change() {
        let p = "*** Begin Patch\n*** Add File: a/new.txt\n+one\n+two\n*** Delete File: old.txt\n*** Update File: src/x.py\n*** Move to: src/y.py\n@@ def f():\n-    pass\n+    return 1\n*** End Patch\n";
        let ops = parse(p).unwrap();
        assert_eq!(
            ops,
            vec![
                FileOp::Add {
                    path: "a/new.txt".into(),
                    line: 2,
                    lines: v(&["one", "two"])
                },
                FileOp::Delete {
                    path: "old.txt".into(),
                    line: 5
                },
                FileOp::Update {
                    path: "src/x.py".into(),
                    line: 6,
                    move_to: Some("src/y.py".into()),
                    hunks: vec![Hunk {
                        anchor: Some("def f():".into()),
                        old: v(&["    pass"]),
                        new: v(&["    return 1"]),
                        line: 8,
                        ..Hunk::default()
                    }]
                }
            ]
        );
    }

    #[test]
    fn lenient_as_models_write_it() {
        // spaces around markers, CRLF, leading and trailing blank lines, no first `@@`, blank
        // context lines, a heredoc around it all
        let p = "\n  <<'EOF'\r\n *** Begin Patch \r\n*** Update File: f.txt\r\n a\r\n\r\n-b\r\n+B\r\n\r\n*** End Patch  \r\nEOF\n\n";
        let ops = parse(p).unwrap();
        assert_eq!(
            ops,
            vec![FileOp::Update {
                path: "f.txt".into(),
                line: 4,
                move_to: None,
                hunks: vec![Hunk {
                    old: v(&["a", "", "b", ""]),
                    new: v(&["a", "", "B", ""]),
                    line: 5,
                    trailing_blank: 1,
                    ..Hunk::default()
                }]
            }]
        );
    }

    #[test]
    fn several_hunks_anchors_and_end_of_file() {
        let p = "*** Begin Patch\n*** Update File: f\n@@ class A\n x\n-y\n+z\n\n@@ -10,3 +10,4 @@\n-q\n+r\n*** End of File\n*** End Patch";
        let ops = parse(p).unwrap();
        let FileOp::Update { hunks, .. } = &ops[0] else {
            panic!()
        };
        assert_eq!(hunks.len(), 2);
        assert_eq!(hunks[0].anchor.as_deref(), Some("class A"));
        // the blank line between the hunks belongs to neither
        assert_eq!(hunks[0].old, v(&["x", "y"]));
        assert_eq!(hunks[1].anchor, None, "unified header numbers are dropped");
        assert!(hunks[1].end_of_file && !hunks[0].end_of_file);
        assert_eq!(unified_header("-1 +1 @@ fn main()"), Some("fn main()"));
        assert_eq!(unified_header("-x"), None);
    }

    #[test]
    fn a_pure_rename_and_an_empty_added_file() {
        let p = "*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** Add File: empty\n*** End Patch";
        let ops = parse(p).unwrap();
        assert_eq!(
            ops[0],
            FileOp::Update {
                path: "a".into(),
                line: 2,
                move_to: Some("b".into()),
                hunks: vec![]
            }
        );
        assert_eq!(
            ops[1],
            FileOp::Add {
                path: "empty".into(),
                line: 4,
                lines: vec![]
            }
        );
        let with_blank = "*** Begin Patch\n*** Add File: x\n+a\n\n+b\n*** End Patch";
        let FileOp::Add { lines, .. } = &parse(with_blank).unwrap()[0] else {
            panic!()
        };
        assert_eq!(lines, &v(&["a", "", "b"]));
    }

    #[test]
    fn errors_name_the_line_and_what_was_expected() {
        let e = parse("hello\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("*** Begin Patch"), "{}", e.message);
        let e = parse("*** Begin Patch\n*** Add File: x\n+a\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("*** End Patch"));
        let e =
            parse("*** Begin Patch\n*** Update File: x\n@@\n foo\nbar\n*** End Patch").unwrap_err();
        assert_eq!(e.line, 5);
        assert!(e.message.contains("found `bar`"), "{}", e.message);
        let e = parse("*** Begin Patch\n*** Update File: x\n*** End Patch").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("no hunk"));
        let e = parse("*** Begin Patch\n*** Frobnicate: x\n*** End Patch").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse("*** Begin Patch\n*** End Patch").unwrap_err();
        assert!(e.message.contains("no file"));
        let e =
            parse("*** Begin Patch\n*** Update File: x\n@@\n@@\n-a\n*** End Patch").unwrap_err();
        assert_eq!(e.line, 3);
        let e = parse("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n").unwrap_err();
        assert!(e.message.contains("unified diff"));
        let e = parse("*** Begin Patch\n*** Add File: \n*** End Patch").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse("<<EOF\n*** Begin Patch\n*** Delete File: x\n*** End Patch\n").unwrap_err();
        assert!(e.message.contains("heredoc"));
    }

    #[test]
    fn a_quoted_patch_in_a_hunk_is_text() {
        // A file that documents patches: every line below is context, none a command.
        let p = "*** Begin Patch\n*** Update File: doc.md\n@@ Example\n *** Delete File: g.txt\n *** Add File: x\n @@ def f():\n @@ -24,7 +15,7 @@\n *** End of File\n-old\n+new\n*** End Patch";
        let ops = parse(p).unwrap();
        let quoted = [
            "*** Delete File: g.txt",
            "*** Add File: x",
            "@@ def f():",
            "@@ -24,7 +15,7 @@",
            "*** End of File",
        ];
        let mut old = v(&quoted);
        old.push("old".into());
        let mut new = v(&quoted);
        new.push("new".into());
        assert_eq!(
            ops,
            vec![update(
                "doc.md",
                vec![Hunk {
                    anchor: Some("Example".into()),
                    old,
                    new,
                    line: 3,
                    ..Hunk::default()
                }]
            )]
        );
        // Outside a hunk too, a marker starts at the first column.
        let e = parse("*** Begin Patch\n *** Delete File: g.txt\n*** End Patch").unwrap_err();
        assert!(e.message.contains("expected"), "{}", e.message);
    }

    #[test]
    fn a_hunk_line_starting_with_a_star_ends_the_file_section() {
        // Codex's rule: `*` at column 0 is a marker, so ` *` (a comment line) is context
        let p = "*** Begin Patch\n*** Update File: c.c\n /*\n- * old\n+ * new\n */\n*** End Patch";
        let ops = parse(p).unwrap();
        assert_eq!(
            ops,
            vec![update(
                "c.c",
                vec![Hunk {
                    old: v(&["/*", " * old", "*/"]),
                    new: v(&["/*", " * new", "*/"]),
                    line: 3,
                    ..Hunk::default()
                }]
            )]
        );
    }
}
