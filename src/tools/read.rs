//! `read` (SPEC §5, 16.4): a text file in `cat -n` form, streamed, with its encoding, line
//! endings and indentation reported, and the read recorded for this session.

use crate::caps;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::reads::{self, Fingerprint};
use crate::sandbox;
use crate::state::StateLock;
use crate::text::{self, Outcome, Want};
use crate::tool::{Hints, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::os::unix::fs::FileTypeExt;

pub struct Read;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// The file to read: relative to the root, or absolute inside it.
    #[serde(alias = "file_path")]
    pub path: String,
    /// First line to show, 1-based; negative shows the last lines (-20 is the last 20, as
    /// `tail -n 20`).
    #[schemars(extend("not" = {"const": 0}))]
    pub offset: Option<i64>,
    /// How many lines to show (at most 100000).
    #[schemars(range(min = 1, max = 100_000), extend("default" = 2000))]
    pub limit: Option<u64>,
}

pub const DEFAULT_LIMIT: u64 = 2000;

impl Tool for Read {
    type Input = Input;
    const NAME: &'static str = "read";
    const SUMMARY: &'static str = "Read a text file with line numbers";
    const DESCRIPTION: &'static str = "Reads a text file and shows it with line numbers (`cat -n` form: the number right-aligned in 6 columns, a tab, the line). \
Shows up to 2000 lines from `offset` (1-based) by default; when more follow, the last line says how to continue (`offset=N`). A negative offset shows the end of the file (`offset: -50` is the last 50 lines, numbered). \
Lines over 2000 characters are cut with a marker. Reports the encoding, line endings (lf/crlf) and indentation (tabs/spaces) so you can type edits that match. \
A file must be read in this session before it can be edited or overwritten. For large files, prefer grep to find the lines you need, then read just that range. \
Binary files are refused; use tree or glob for directories.";
    const POSITIONALS: &'static [&'static str] = &["path"];
    const HINTS: Hints = Hints::READ_ONLY;
    const EXAMPLES: &'static str = "  echo '{\"path\": \"src/main.rs\", \"offset\": 10, \"limit\": 20}' | loopr-tool read\n  loopr-tool read src/main.rs --offset 10 --limit 20 --format text";

    const OUTPUT_CAP: usize = crate::caps::READ;

    fn read_only(_: &Input) -> bool {
        true
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let limit = input.limit.unwrap_or(DEFAULT_LIMIT);
        let want = match input.offset {
            None => Want::Lines { first: 1, limit },
            Some(0) => {
                return Err(ToolError::invalid(
                    "offset",
                    "read: offset 0 is not a line: lines are numbered from 1, and a negative offset counts from the end",
                )
                .hint("Use offset 1 for the start, or -N for the last N lines."));
            }
            Some(n) if n > 0 => Want::Lines {
                first: n as u64,
                limit,
            },
            Some(n) => Want::Tail {
                count: n.unsigned_abs(),
                limit,
            },
        };
        let target = sandbox::resolve(ctx, "path", &input.path)?;
        let shown = target.shown.as_str();
        // Type first, from metadata, so a FIFO is refused without opening (and blocking on) it.
        let meta =
            std::fs::metadata(&target.real).map_err(|e| ToolError::io(&e, shown, "reading"))?;
        let ft = meta.file_type();
        if ft.is_dir() {
            return Err(ToolError::is_directory(shown));
        }
        if ft.is_fifo()
            || ft.is_socket()
            || ft.is_block_device()
            || ft.is_char_device()
            || !ft.is_file()
        {
            return Err(ToolError::new(
                Code::UnsupportedFile,
                format!("{shown} is not a regular file (a FIFO, socket or device)"),
            )
            .with("path", shown)
            .hint("Only regular files can be read."));
        }
        let mut file =
            std::fs::File::open(&target.real).map_err(|e| ToolError::io(&e, shown, "reading"))?;
        let scan = match text::scan(&mut file, want, caps::READ)
            .map_err(|e| ToolError::io(&e, shown, "reading"))?
        {
            Outcome::Text(s) => s,
            Outcome::Binary { size } => {
                return Err(ToolError::new(Code::BinaryFile, format!("{shown} is a binary file ({size} bytes), not text"))
                    .with("path", shown)
                    .hint("Binary content cannot be shown as text; use run with a tool such as xxd if you must look inside."));
            }
        };
        let fp = Fingerprint {
            size: scan.size,
            mtime_ns: reads::mtime_ns(&meta),
            hash: scan.hash,
        };
        {
            let lock = StateLock::acquire(ctx)?;
            reads::record(&lock, &target.real, fp)?;
        }
        Ok(render(shown, &scan))
    }
}

fn render(shown: &str, scan: &text::Scan) -> Success {
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
        caps::fit(&formatted, caps::READ, |k| {
            let last = first + k as u64 - 1;
            (last < total).then(|| {
                format!(
                    "(showing lines {first}-{last} of {total}; continue with offset={})",
                    last + 1
                )
            })
        })
    };
    let end_line = first + shown_lines as u64 - 1;
    let long_lines = scan.lines[..shown_lines]
        .iter()
        .filter(|l| l.is_cut())
        .count();
    let data = json!({
        "path": shown,
        "start_line": first,
        "end_line": end_line,
        "total_lines": total,
        "truncated": shown_lines > 0 && end_line < total,
        "long_lines": long_lines,
        "size_bytes": scan.size,
        "encoding": scan.encoding,
        "line_ending": scan.line_ending,
        "indent": scan.indent,
    });
    Success::new(output, data)
}
