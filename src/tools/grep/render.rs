//! grep's `output` and `data` (SPEC §9, 16.6): the page of entries in ripgrep's layout.

use super::collect::{FileResult, Item, Line, Mode};
use crate::caps;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::tools::walk::Base;
use serde_json::{Value, json};

pub struct Page {
    pub mode: Mode,
    pub offset: usize,
    /// `usize::MAX` when unlimited.
    pub head_limit: usize,
    pub total: usize,
    pub line_numbers: bool,
    pub before: bool,
    pub after: bool,
}

/// One entry of the page, with its file's shown path.
struct Entry<'a> {
    path: &'a str,
    file: &'a FileResult,
    item: Option<&'a Item>,
}

pub fn render(ctx: &Ctx, base: &Base, files: Vec<FileResult>, p: &Page) -> Success {
    let mode_name = match p.mode {
        Mode::Files => "files_with_matches",
        Mode::Content => "content",
        Mode::Count => "count",
    };
    let mut lossy = 0;
    let shown: Vec<String> = files
        .iter()
        .map(|f| {
            let (s, l) = base.show(&f.rel);
            lossy += l as usize;
            s
        })
        .collect();
    // The page: entries offset..offset+head_limit in path, then line, order.
    let mut entries: Vec<Entry> = Vec::new();
    let mut rank = 0usize;
    let end = p.offset.saturating_add(p.head_limit);
    'files: for (f, path) in files.iter().zip(&shown) {
        if p.mode == Mode::Content {
            for item in &f.items {
                if rank >= end {
                    break 'files;
                }
                if rank >= p.offset {
                    entries.push(Entry {
                        path,
                        file: f,
                        item: Some(item),
                    });
                }
                rank += 1;
            }
            rank += f.lines - f.items.len();
        } else {
            if rank >= end {
                break;
            }
            if rank >= p.offset {
                entries.push(Entry {
                    path,
                    file: f,
                    item: None,
                });
            }
            rank += 1;
        }
    }
    let context = p.before || p.after;
    let mut lines: Vec<String> = Vec::new();
    // How many entries are complete once line i is printed.
    let mut done: Vec<usize> = Vec::new();
    let mut last: Option<(&str, u64)> = None;
    let (mut chars, mut counted) = (0usize, 0usize);
    for (k, e) in entries.iter().enumerate() {
        // Lines past the cap can never be shown: with every entry asked for (head_limit 0),
        // formatting them all would cost more than the search.
        chars += lines[counted..]
            .iter()
            .map(|l| l.chars().count() + 1)
            .sum::<usize>();
        counted = lines.len();
        if chars > caps::GREP {
            break;
        }
        match p.mode {
            Mode::Files => lines.push(e.path.to_string()),
            Mode::Count => lines.push(format!("{}:{}", e.path, e.file.lines)),
            Mode::Content => {
                let item = e.item.expect("content entries carry their line");
                let first = item.before.first().map_or(item.line, |l| l.line);
                let adjacent = last.is_some_and(|(lp, ln)| lp == e.path && first <= ln + 1);
                if context && last.is_some() && !adjacent {
                    lines.push("--".into());
                    done.push(k);
                }
                for l in &item.before {
                    lines.push(line(e.path, l.line, &l.text, '-', p.line_numbers));
                    done.push(k);
                }
                lines.push(line(e.path, item.line, &item.text, ':', p.line_numbers));
                done.push(k + 1);
                for l in &item.after {
                    lines.push(line(e.path, l.line, &l.text, '-', p.line_numbers));
                    done.push(k + 1);
                }
                let end_line = item.after.last().map_or(item.line, |l| l.line);
                last = Some((e.path, end_line));
                continue;
            }
        }
        done.push(k + 1);
    }
    let n = entries.len();
    let total = p.total;
    let next = |shown: usize| p.offset + shown;
    let (output, k) = if total == 0 {
        ("No matches found\n".to_string(), 0)
    } else if n == 0 {
        (
            format!(
                "No entries at offset {} ({total} entries in all; use a smaller offset)\n",
                p.offset
            ),
            0,
        )
    } else {
        caps::fit(&lines, caps::GREP, |k| {
            let shown = if k == 0 { 0 } else { done[k - 1] };
            let cut_by_cap = k < lines.len();
            if !cut_by_cap && next(shown) >= total {
                return None;
            }
            let range = if p.offset == 0 {
                format!("showing {shown} of {total} entries")
            } else {
                format!(
                    "showing entries {}-{} of {total}",
                    p.offset + 1,
                    p.offset + shown
                )
            };
            let why = if cut_by_cap {
                "; output cap reached"
            } else {
                ""
            };
            Some(format!(
                "({range}{why}; use offset={} to see more)",
                next(shown)
            ))
        })
    };
    let shown_entries = if k == 0 { 0 } else { done[k - 1] };
    let truncated = n > 0 && next(shown_entries) < total;
    let mut data = serde_json::Map::new();
    data.insert("mode".into(), mode_name.into());
    match p.mode {
        Mode::Files => {
            let files: Vec<&str> = entries.iter().map(|e| e.path).collect();
            data.insert("files".into(), json!(files));
        }
        Mode::Count => {
            let counts: Vec<Value> = entries
                .iter()
                .map(|e| json!({"path": e.path, "count": e.file.lines}))
                .collect();
            data.insert("counts".into(), counts.into());
        }
        Mode::Content => {
            let matches: Vec<Value> = entries
                .iter()
                .map(|e| {
                    let item = e.item.expect("content entries carry their line");
                    let mut m = serde_json::Map::new();
                    m.insert("path".into(), e.path.into());
                    m.insert("line".into(), item.line.into());
                    m.insert("text".into(), item.text.clone().into());
                    if p.before {
                        m.insert("before".into(), context_json(&item.before));
                    }
                    if p.after {
                        m.insert("after".into(), context_json(&item.after));
                    }
                    Value::Object(m)
                })
                .collect();
            data.insert("matches".into(), matches.into());
        }
    }
    data.insert("total".into(), total.into());
    data.insert("truncated".into(), truncated.into());
    if lossy > 0 {
        ctx.warn(format!(
            "{lossy} path(s) are not valid UTF-8; they are shown with U+FFFD and cannot be passed back as given"
        ));
    }
    Success::new(output, Value::Object(data))
}

fn line(path: &str, n: u64, text: &str, sep: char, numbers: bool) -> String {
    if numbers {
        format!("{path}{sep}{n}{sep}{text}")
    } else {
        format!("{path}{sep}{text}")
    }
}

fn context_json(lines: &[Line]) -> Value {
    lines
        .iter()
        .map(|l| json!({"line": l.line, "text": l.text}))
        .collect()
}
