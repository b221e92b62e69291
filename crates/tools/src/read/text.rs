//! Text files in `cat -n` form (SPEC 5, 16.4), a window from the top or a tail (24.2), or the
//! block around a line (indentation mode, 22.6).

use super::detect::Opened;
use super::indentation::{self, Block, Shape};
use super::{Piece, Request};
use crate::caps;
use crate::error::{Code, Result, ToolError};
use crate::offered::Named;
use crate::reads::{self, Fingerprint};
use crate::text::{self, Line, Outcome, Want};
use serde_json::json;

/// `way_on`: how the trailer names `offset` for this call's model (SPEC 25.5).
pub fn read(o: &mut Opened, req: &Request, cap: usize, way_on: &Named) -> Result<Piece> {
    let shown = o.shown.as_str();
    // From the start, also after a notebook that did not parse was read whole.
    std::io::Seek::rewind(&mut o.file).map_err(|e| ToolError::io(&e, shown, "reading"))?;
    let scan = match text::scan(&mut o.file, o.meta.len(), req.want, cap)
        .map_err(|e| ToolError::io(&e, shown, "reading"))?
    {
        Outcome::Text(s) => s,
        Outcome::Binary { size } => return Err(binary(shown, size)),
    };
    let fp = Fingerprint {
        size: scan.size,
        mtime_ns: reads::mtime_ns(&o.meta),
        hash: scan.hash,
    };
    let (output, data, shown_lines) = render(shown, &scan, cap, way_on);
    Ok(Piece {
        output,
        data,
        fp,
        real: o.real.clone(),
        shown: o.shown.clone(),
        starved: shown_lines == 0 && scan.first_line <= scan.total_lines,
    })
}

pub fn binary(shown: &str, size: u64) -> ToolError {
    ToolError::new(
        Code::BinaryFile,
        format!("{shown} is a binary file ({size} bytes), not text"),
    )
    .with("path", shown)
    .hint("Binary content cannot be shown as text; use run with a tool such as xxd if you must look inside.")
}

fn render(
    shown: &str,
    scan: &text::Scan,
    cap: usize,
    way_on: &Named,
) -> (String, serde_json::Value, usize) {
    let total = scan.total_lines;
    let first = scan.first_line;
    let formatted: Vec<String> = scan
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{:>6}\t{}", first + i as u64, l.display()))
        .collect();
    let (output, shown_lines) = if total == 0 {
        ("(empty file)\n".to_string(), 0)
    } else if first > total {
        (
            format!("(offset {first} is past the end: {shown} has {total} lines)\n"),
            0,
        )
    } else {
        caps::fit(&formatted, cap, |k| {
            let last = first + k as u64 - 1;
            (last < total).then(|| {
                format!(
                    "(showing lines {first}-{last} of {total}; continue with {}={})",
                    way_on.field("offset"),
                    way_on.line("offset", last + 1)
                )
            })
        })
    };
    // 16.4: past the end or on an empty file, end_line is start_line - 1 (a tail of an empty
    // file starts at line 1).
    let start_line = first;
    let end_line = start_line + shown_lines as u64 - 1;
    let long_lines = scan.lines[..shown_lines]
        .iter()
        .filter(|l| l.is_cut())
        .count();
    let data = json!({
        "path": shown,
        "start_line": start_line,
        "end_line": end_line,
        "total_lines": total,
        "truncated": shown_lines > 0 && end_line < total,
        "long_lines": long_lines,
        "size_bytes": scan.size,
        "encoding": scan.encoding,
        "line_ending": scan.line_ending,
        "indent": scan.indent,
    });
    (output, data, shown_lines)
}

/// Passes over a file that changes under them before indentation mode gives up.
const ATTEMPTS: usize = 3;

/// The lines of one shown range, with their numbers.
type Numbered = Vec<(u64, Line)>;

/// Indentation mode (`around_line`): the block around a line. A first pass keeps every line's
/// shape (4 bytes a line, not its text) and finds the block; the lines shown are then read by
/// a pass per range, which must see the same file (its hash) as the first.
pub fn read_block(o: &mut Opened, req: &Request, cap: usize) -> Result<Piece> {
    let (line, options) = req.around.expect("indentation mode has an anchor");
    let shown = o.shown.clone();
    let io = |e: std::io::Error| ToolError::io(&e, &shown, "reading");
    for _ in 0..ATTEMPTS {
        std::io::Seek::rewind(&mut o.file).map_err(io)?;
        let scan = match text::summarize(&mut o.file, o.meta.len(), Shape::pack).map_err(io)? {
            Outcome::Text(s) => s,
            Outcome::Binary { size } => return Err(binary(&shown, size)),
        };
        let total = scan.total_lines;
        if line > total {
            return Err(ToolError::invalid(
                "around_line",
                format!("read: around_line {line} is past the end: {shown} has {total} lines"),
            )
            .with("total_lines", total)
            .hint("Give a line from 1 to the file's line count."));
        }
        let shapes: Vec<Shape> = scan.summary.iter().map(|&n| Shape::unpack(n)).collect();
        let block = indentation::find(&shapes, line, &options);
        drop(shapes);
        let Some(lines) = block_lines(o, &block, scan.hash, cap).map_err(io)? else {
            continue; // changed since the first pass: again, from the start
        };
        let fp = Fingerprint {
            size: scan.size,
            mtime_ns: reads::mtime_ns(&o.meta),
            hash: scan.hash,
        };
        let (output, data, shown_lines) =
            render_block(&shown, &scan, &block, &lines, &options, cap);
        return Ok(Piece {
            output,
            data,
            fp,
            real: o.real.clone(),
            shown: o.shown.clone(),
            starved: shown_lines == 0,
        });
    }
    Err(ToolError::new(
        Code::IoError,
        format!("{shown} changed while it was being read, {ATTEMPTS} times"),
    )
    .with("path", shown.as_str())
    .hint("Read it again once whatever is writing it has finished."))
}

/// The lines of the block's shown ranges, numbered; `None` when the file's hash is no longer
/// `hash`.
fn block_lines(
    o: &mut Opened,
    block: &Block,
    hash: u64,
    cap: usize,
) -> std::io::Result<Option<Vec<Numbered>>> {
    let mut ranges = Vec::with_capacity(block.shown.len());
    for &(first, last) in &block.shown {
        std::io::Seek::rewind(&mut o.file)?;
        let want = Want::Lines {
            first,
            limit: last - first + 1,
        };
        let Outcome::Text(part) = text::scan(&mut o.file, o.meta.len(), want, cap)? else {
            return Ok(None);
        };
        if part.hash != hash {
            return Ok(None);
        }
        ranges.push((first..).zip(part.lines).collect());
    }
    Ok(Some(ranges))
}

/// The block's lines in `cat -n` form, `...` between ranges, within `cap` characters; a last
/// line says what was left out, if anything.
fn render_block(
    shown: &str,
    scan: &text::Scan,
    block: &Block,
    ranges: &[Numbered],
    options: &indentation::Options,
    cap: usize,
) -> (String, serde_json::Value, usize) {
    let mut numbers: Vec<Option<u64>> = Vec::new();
    let mut formatted: Vec<String> = Vec::new();
    for (k, range) in ranges.iter().enumerate() {
        if k > 0 {
            numbers.push(None);
            formatted.push("...".to_string());
        }
        for (n, l) in range {
            numbers.push(Some(*n));
            formatted.push(format!("{n:>6}\t{}", l.display()));
        }
    }
    let whole = [(block.start, block.end)];
    let trailer = |k: usize| {
        let kept = spans(&numbers[..k]);
        if kept == whole {
            return None;
        }
        // The scan's budget may already have left lines out: compare with the plan.
        let why = if kept == block.shown {
            format!("cut to max_lines={}", options.max_lines)
        } else {
            format!("output limit of {cap} characters reached")
        };
        Some(format!(
            "(showing lines {} of the block at lines {}-{}: {why}; read the rest with offset and limit)",
            describe(&kept),
            block.start,
            block.end
        ))
    };
    let (mut output, mut k) = caps::fit(&formatted, cap, trailer);
    if k > 0 && numbers[k - 1].is_none() {
        // Never end on the marker: the range after it did not fit at all.
        (output, k) = caps::fit(&formatted[..k - 1], cap, |j| trailer(j.min(k - 1)));
    }
    let kept: Vec<u64> = numbers[..k].iter().flatten().copied().collect();
    let long_lines = ranges
        .iter()
        .flatten()
        .filter(|(n, l)| kept.contains(n) && l.is_cut())
        .count();
    let (start_line, end_line) = match (kept.first(), kept.last()) {
        (Some(a), Some(z)) => (*a, *z),
        _ => (block.start, block.start - 1),
    };
    let data = json!({
        "path": shown,
        "start_line": start_line,
        "end_line": end_line,
        "total_lines": scan.total_lines,
        "truncated": spans(&numbers[..k]) != whole,
        "long_lines": long_lines,
        "size_bytes": scan.size,
        "encoding": scan.encoding,
        "line_ending": scan.line_ending,
        "indent": scan.indent,
        "block": {"start_line": block.start, "end_line": block.end},
    });
    (output, data, kept.len())
}

/// The runs of consecutive line numbers among `numbers` (markers skipped).
fn spans(numbers: &[Option<u64>]) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for &n in numbers.iter().flatten() {
        match out.last_mut() {
            Some((_, z)) if *z + 1 == n => *z = n,
            _ => out.push((n, n)),
        }
    }
    out
}

/// `1, 13-16`.
fn describe(spans: &[(u64, u64)]) -> String {
    spans
        .iter()
        .map(|&(a, z)| {
            if a == z {
                a.to_string()
            } else {
                format!("{a}-{z}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}
