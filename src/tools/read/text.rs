//! Text files in `cat -n` form (SPEC 5, 16.4), a window from the top or a tail (24.2).

use super::detect::Opened;
use super::{Piece, Request};
use crate::caps;
use crate::error::{Code, Result, ToolError};
use crate::reads::{self, Fingerprint};
use crate::text::{self, Outcome};
use serde_json::json;

pub fn read(o: &mut Opened, req: &Request, cap: usize) -> Result<Piece> {
    let shown = o.shown.as_str();
    // From the start, also after a notebook that did not parse was read whole.
    std::io::Seek::rewind(&mut o.file).map_err(|e| ToolError::io(&e, shown, "reading"))?;
    let scan = match text::scan(&mut o.file, req.want, cap)
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
    let (output, data, shown_lines) = render(shown, &scan, cap);
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

fn render(shown: &str, scan: &text::Scan, cap: usize) -> (String, serde_json::Value, usize) {
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
                    "(showing lines {first}-{last} of {total}; continue with offset={})",
                    last + 1
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
