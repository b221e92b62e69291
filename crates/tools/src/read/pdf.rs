//! PDFs (SPEC 18.2, 24.2, 24.7): the text of each page as `--- page N ---` blocks, `pages`
//! choosing which ("3", "1-5"; the first 20 by default), from a pure-Rust extractor (lopdf
//! and `pdf_text`). Lines are not addressable in a PDF, so `offset`/`limit` are refused.

use super::detect::{Opened, read_all};
use super::pdf_text::{Budget, Cut, PageText};
use super::{Piece, Request};
use crate::caps;
use crate::control::Control;
use crate::error::{Code, Result, ToolError};
use crate::reads::Fingerprint;
use crate::text::cut_line;
use serde_json::json;

/// Pages shown when `pages` is not given.
const DEFAULT_PAGES: u32 = 20;
/// Pages read by one call, whatever `pages` asks (SPEC 31.4): the rest is named in the trailer.
pub const MAX_PAGES: u32 = 100;
/// PDFs above this are not parsed (lopdf holds the whole document in memory).
const MAX_FILE: u64 = 256 * 1024 * 1024;

/// A page range, 1-based and inclusive, as parsed from `pages`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pages {
    first: u32,
    last: u32,
}

impl Pages {
    /// `"3"` or `"1-5"` (spaces allowed around the numbers).
    pub fn parse(s: &str) -> Result<Pages> {
        let bad = |why: &str| {
            Err(
                ToolError::invalid("pages", format!("read: pages {s:?} {why}"))
                    .hint("Give one page (\"3\") or a range (\"1-5\"), numbered from 1."),
            )
        };
        let (a, b) = s.split_once('-').unwrap_or((s, s));
        let (Ok(first), Ok(last)) = (a.trim().parse::<u32>(), b.trim().parse::<u32>()) else {
            return bad("is not a page or a range of pages");
        };
        if first == 0 {
            return bad("has a page 0; pages are numbered from 1");
        }
        if first > last {
            return bad("ends before it starts");
        }
        Ok(Pages { first, last })
    }
}

pub fn read(o: &mut Opened, req: &Request, cap: usize, control: &Control) -> Result<Piece> {
    let shown = o.shown.clone();
    if let Some(field) = req.lines_field {
        return Err(ToolError::invalid(
            field,
            format!("read: {shown} is a PDF; `{field}` chooses lines, which a PDF does not have"),
        )
        .hint("Use pages (\"3\" or \"1-5\") to choose what to read."));
    }
    let bytes = read_all(o, MAX_FILE, "PDFs")?;
    let fp = Fingerprint::of_bytes(&bytes, &o.meta);
    let unsupported = |what: String, hint: &str| {
        ToolError::new(Code::UnsupportedFile, format!("{shown} {what}"))
            .with("path", shown.as_str())
            .hint(hint.to_string())
    };
    let encrypted = || {
        unsupported(
            "is an encrypted PDF that needs a password; its text cannot be read".into(),
            "Ask the user for a decrypted copy (e.g. `qpdf --decrypt --password=... in.pdf out.pdf`).",
        )
    };
    let options = lopdf::LoadOptions {
        max_decompressed_size: Some(super::pdf_text::MAX_CONTENT),
        ..Default::default()
    };
    let doc = match lopdf::Document::load_mem_with_options(&bytes, options) {
        Ok(doc) => doc,
        Err(_) if memchr::memmem::find(&bytes, b"/Encrypt").is_some() => return Err(encrypted()),
        Err(e) => {
            return Err(unsupported(
                format!("starts like a PDF but could not be parsed: {e}"),
                "The file may be truncated or damaged; `qpdf --check` through run can tell more.",
            ));
        }
    };
    // lopdf opens a PDF encrypted without a user password (permissions only) as every viewer
    // does; one that needs a password stays encrypted.
    if doc.is_encrypted() && doc.encryption_state.is_none() {
        return Err(encrypted());
    }
    let ids = doc.get_pages();
    let total = ids.len() as u32;
    if total == 0 {
        return Err(unsupported(
            "is a PDF without pages".into(),
            "Nothing to read here.",
        ));
    }
    let range = match req.pages {
        None => Pages {
            first: 1,
            last: total.min(DEFAULT_PAGES),
        },
        Some(p) if p.first > total => {
            return Err(ToolError::invalid(
                "pages",
                format!(
                    "read: pages {}-{} are past the end: {shown} has {total} pages",
                    p.first, p.last
                ),
            )
            .hint(format!("Pages run from 1 to {total}.")));
        }
        Some(p) => Pages {
            first: p.first,
            last: p.last.min(total).min(p.first.saturating_add(MAX_PAGES - 1)),
        },
    };
    // The text of each page, or why it has none; no more pages once the output is full.
    let mut texts = Vec::new();
    let mut any_text = false;
    let mut budget = Budget::new(control);
    let mut chars = 0;
    let mut range = range;
    for n in range.first..=range.last {
        if budget.stopped() || chars > cap {
            range.last = n - 1;
            break;
        }
        let text = ids
            .get(&n)
            .ok_or(lopdf::Error::PageNumberNotFound(n))
            .and_then(|id| super::pdf_text::page_text(&doc, *id, &mut budget));
        if let Ok(t) = &text {
            // A page cut short says why, rather than passing for a scanned one.
            any_text |= !t.text.trim().is_empty() || t.cut.is_some();
            chars += t.text.len();
        }
        texts.push((n, text));
    }
    if !any_text {
        let which = if range.first == range.last {
            format!("page {}", range.first)
        } else {
            format!("pages {}-{}", range.first, range.last)
        };
        return Err(unsupported(
            format!("has no text on {which} of {total}: a scanned or image-only PDF"),
            "Its pages are pictures; render one to PNG (e.g. `pdftoppm -png -r 100 -f 1 -l 1 FILE page` through run) and read the image.",
        ));
    }
    let (lines, page_of) = layout(&texts);
    let (output, k) = caps::fit(&lines, cap, |k| trailer(k, &page_of, range, total));
    let last_shown = if k == lines.len() {
        range.last
    } else {
        // The page whose header or text the cut fell in or after.
        page_of[k.saturating_sub(1)]
    };
    let pages_shown = if range.first == last_shown {
        range.first.to_string()
    } else {
        format!("{}-{last_shown}", range.first)
    };
    let data = json!({
        "path": shown,
        "size_bytes": o.meta.len(),
        "truncated": k < lines.len() || range.last < total,
        "pdf": {"pages_total": total, "pages_shown": pages_shown},
    });
    Ok(Piece {
        output,
        data,
        fp,
        real: o.real.clone(),
        shown,
        starved: k <= 1, // a page header alone is not a page shown
    })
}

/// The lines of `output` and the page each belongs to: a header per page, its text with
/// trailing blanks trimmed and runs of blank lines kept to one.
fn layout(texts: &[(u32, lopdf::Result<PageText>)]) -> (Vec<String>, Vec<u32>) {
    let mut lines = Vec::new();
    let mut page_of = Vec::new();
    for (n, text) in texts {
        let mut push = |l: String| {
            lines.push(l);
            page_of.push(*n);
        };
        push(format!("--- page {n} ---"));
        match text {
            Ok(t) if t.text.trim().is_empty() && t.cut.is_none() => {
                push("(no text on this page)".into())
            }
            Ok(t) => {
                let mut blank = true; // no blank line right after the header
                for l in t.text.trim_end().lines().map(str::trim_end) {
                    if l.is_empty() && blank {
                        continue;
                    }
                    blank = l.is_empty();
                    push(cut_line(l));
                }
                if let Some(cut) = t.cut {
                    push(cut_note(cut));
                }
            }
            Err(e) => push(format!(
                "(the text of this page could not be extracted: {e})"
            )),
        }
    }
    (lines, page_of)
}

/// Why a page's text stops before its end.
fn cut_note(cut: Cut) -> String {
    let why = match cut {
        Cut::Operators => format!(
            "it draws more than {} operators (forms included), or the call more than {}",
            super::pdf_text::MAX_PAGE_OPS,
            super::pdf_text::MAX_CALL_OPS
        ),
        Cut::Content => format!(
            "its content and forms decompress to more than {} MiB",
            super::pdf_text::MAX_CONTENT >> 20
        ),
        Cut::Stopped => "the call was stopped".into(),
    };
    format!("(the rest of this page was not read: {why})")
}

/// The last line when `k` of the lines are shown: where to continue, if anything is left.
fn trailer(k: usize, page_of: &[u32], range: Pages, total: u32) -> Option<String> {
    let next_range = |from: u32| {
        let to = (from + DEFAULT_PAGES - 1).min(total);
        if from == to {
            format!("pages=\"{from}\"")
        } else {
            format!("pages=\"{from}-{to}\"")
        }
    };
    if k == page_of.len() {
        return (range.last < total).then(|| {
            let shown = if range.first == range.last {
                format!("page {}", range.first)
            } else {
                format!("pages {}-{}", range.first, range.last)
            };
            format!(
                "(showing {shown} of {total}; continue with {})",
                next_range(range.last + 1)
            )
        });
    }
    // Cut by the output cap: continue with the page the cut fell in (again, if begun).
    let page = page_of[k];
    Some(format!(
        "(output limit reached in page {page} of {total}; continue with {})",
        next_range(page)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_parse_one_or_a_range() {
        assert_eq!(Pages::parse("3").unwrap(), Pages { first: 3, last: 3 });
        assert_eq!(
            Pages::parse(" 1 - 5 ").unwrap(),
            Pages { first: 1, last: 5 }
        );
        for bad in ["", "0", "x", "5-1", "1-", "-3", "1-2-3", "1.5"] {
            let e = Pages::parse(bad).unwrap_err();
            assert_eq!(e.extra["field"], "pages", "{bad:?}");
        }
    }

    #[test]
    fn blank_runs_shrink_and_long_lines_are_cut() {
        let long = "x".repeat(2500);
        let page = |t: String| Ok(PageText { text: t, cut: None });
        let texts = vec![
            (1, page(format!("\n\na\n\n\n\nb  \n{long}\n"))),
            (2, page("  \n".to_string())),
        ];
        let (lines, pages) = layout(&texts);
        assert_eq!(lines[..4], ["--- page 1 ---", "a", "", "b"]);
        assert!(lines[4].ends_with("… [line truncated: 2500 chars]"));
        assert_eq!(lines[5..], ["--- page 2 ---", "(no text on this page)"]);
        assert_eq!(pages, [1, 1, 1, 1, 1, 2, 2]);
    }

    #[test]
    fn trailers_say_where_to_continue() {
        let pages = [1, 1, 2, 2, 3];
        let all = Pages { first: 1, last: 3 };
        assert_eq!(trailer(5, &pages, all, 3), None);
        assert_eq!(
            trailer(5, &pages, all, 30).unwrap(),
            "(showing pages 1-3 of 30; continue with pages=\"4-23\")"
        );
        assert_eq!(
            trailer(3, &pages, all, 3).unwrap(),
            "(output limit reached in page 2 of 3; continue with pages=\"2-3\")"
        );
    }
}
