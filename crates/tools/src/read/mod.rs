//! `read` (SPEC §5, 16.4, 18.2, 24.2): a text file in `cat -n` form, streamed, with its
//! encoding, line endings and indentation reported; a tail; several files in one call; an
//! image, a PDF's text or a notebook's cells. Every file read is recorded for this session.
//!
//! One tool behind one detection function (`detect`), one file per format; `read`, Claude
//! Code's `Read`, Codex's `view_image` and `paths` all come through `read_one`.

mod detect;
mod image;
pub mod indentation;
mod notebook;
pub use notebook::{MAX_CELLS, VALUE_BYTES, too_many_cells};
mod pdf;
pub mod pdf_text;
mod text;

use crate::caps;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::reads::{self, Fingerprint};
use crate::text::Want;
use crate::tool::{Hints, Tool};
use detect::Format;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub struct Read;

/// read's input (public as `loopr_tool::inputs::ReadInput`). The schema takes its
/// description from the tool, not from here.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = loopr_core::input::undocumented)]
pub struct Input {
    /// The file to read: relative to the root, or absolute inside it. Text, an image (PNG,
    /// JPEG, GIF, WebP), a PDF or a Jupyter notebook.
    #[serde(alias = "file_path")]
    pub path: Option<String>,
    /// Several files to read in one call (up to 100), instead of `path`; each gets a
    /// `==> PATH <==` header, and one that fails shows its error in place.
    #[schemars(length(min = 1, max = 100))]
    pub paths: Option<Vec<String>>,
    /// First line to show, 1-based; negative shows the last lines (-20 is the last 20, as
    /// `tail -n 20`). For a notebook it counts cells.
    #[schemars(extend("not" = {"const": 0}))]
    pub offset: Option<i64>,
    /// How many lines to show (at most 100000); for a notebook, cells.
    #[schemars(range(min = 1, max = 100_000), extend("default" = 2000))]
    pub limit: Option<u64>,
    /// `[first, last]` lines to show, inclusive and 1-based: another way to give offset and limit.
    #[schemars(length(min = 2, max = 2))]
    pub line_range: Option<[u64; 2]>,
    /// PDF pages to show: "3" or "1-5" (default: the first 20).
    pub pages: Option<String>,
    /// Indentation mode, instead of a range: the block of code around this line (1-based),
    /// found by indentation (the function, class or block holding it, with the comments just
    /// above it). Text files only.
    #[schemars(range(min = 1))]
    pub around_line: Option<u64>,
    /// How `around_line` chooses the block; every member is optional.
    pub indentation: Option<Indentation>,
}

/// The block `around_line` shows: Codex's `indentation` options, with its defaults.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Indentation {
    /// How many enclosing blocks to go out from the line: 1 is the innermost block holding
    /// it, 2 the one around that; 0 (the default) goes out to the top-level block.
    #[schemars(extend("default" = 0))]
    pub max_levels: Option<u64>,
    /// Also show the blocks beside it, at its indentation.
    #[schemars(extend("default" = false))]
    pub include_siblings: Option<bool>,
    /// Also show the comments, doc comments, attributes and decorators just above it.
    #[schemars(extend("default" = true))]
    pub include_header: Option<bool>,
    /// Show at most this many lines: a longer block is cut around the line, keeping its
    /// first line.
    #[schemars(range(min = 1, max = 100_000), extend("default" = 2000))]
    pub max_lines: Option<u64>,
}

pub const DEFAULT_LIMIT: u64 = 2000;
/// Files in one call (SPEC 18.2).
const MAX_PATHS: usize = 100;

impl Tool for Read {
    type Input = Input;
    const NAME: &'static str = "read";
    const SUMMARY: &'static str =
        "Read a text file with line numbers (also images, PDFs, notebooks, several files)";
    const DESCRIPTION: &'static str = "Read a file: view, open, show or cat a file's lines. Read shows a file's contents (the whole content of a text file, or the part you ask for) with line numbers (`cat -n` form: the number right-aligned in 6 columns, a tab, the line). \
Shows up to 2000 lines from `offset` (1-based) by default; when more follow, the last line says how to continue (`offset=N`). A negative offset shows the end of the file (`offset: -50` is the last 50 lines, numbered). `line_range: [a, b]` is lines a to b. \
Lines over 2000 characters are cut with a marker. Reports the encoding, line endings (lf/crlf) and indentation (tabs/spaces) so you can type edits that match. \
`around_line: N` shows instead the block of code holding line N, found by indentation, with the comments and attributes just above it: by default the top-level function or class, the innermost block with `indentation: {max_levels: 1}` (also `include_siblings`, `include_header`, `max_lines`); `data.block` gives its first and last line. \
`paths` reads up to 100 files in one call, each under a `==> PATH <==` header. \
Images (PNG, JPEG, GIF, WebP) are returned as images (large ones downscaled); a PDF shows its text page by page (`pages`: \"3\" or \"1-5\", first 20 by default); a Jupyter notebook (.ipynb) shows each cell with its outputs. \
A file must be read in this session before it can be edited or overwritten. For a large file, prefer grep to find the lines you need, then read just that range of the file. \
Other binary files are refused; use tree or glob for directories.";
    const POSITIONALS: &'static [&'static str] = &["path"];
    const HINTS: Hints = Hints::READ_ONLY;
    const EXAMPLES: &'static str = "  echo '{\"path\": \"src/main.rs\", \"offset\": 10, \"limit\": 20}' | loopr-tool read\n  loopr-tool read src/main.rs --offset 10 --limit 20 --format text\n  loopr-tool read build.log --offset -50\n  loopr-tool read --paths src/a.rs --paths src/b.rs\n  loopr-tool read src/main.rs --around-line 120 --indentation '{\"max_levels\": 1}'";

    const OUTPUT_CAP: usize = crate::caps::READ;

    fn read_only(_: &Input) -> bool {
        true
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let req = Request::of(&input)?;
        match (input.path, input.paths) {
            (Some(_), Some(_)) => Err(ToolError::invalid(
                "paths",
                "read: give `path` or `paths`, not both",
            )
            .hint("Put every file in `paths`.")),
            (None, None) => Err(ToolError::invalid(
                "path",
                "read: missing required field `path` (or `paths` for several files)",
            )),
            (Some(path), None) => {
                let piece = read_lone(ctx, &path, &req)?;
                record(ctx, &[(piece.real, piece.fp)])?;
                Ok(Success::new(piece.output, piece.data))
            }
            (None, Some(paths)) => {
                if paths.is_empty() || paths.len() > MAX_PATHS {
                    return Err(ToolError::invalid(
                        "paths",
                        format!(
                            "read: `paths` holds {} paths; give 1 to {MAX_PATHS}",
                            paths.len()
                        ),
                    )
                    .hint("Split the files over several calls."));
                }
                many(ctx, &paths, &req)
            }
        }
    }
}

/// What the call asks of each file, checked before any file is opened.
pub struct Request {
    /// Lines (for a notebook, cells) to show.
    pub want: Want,
    /// The field that chose the lines, when one did (a PDF refuses it, an image ignores it).
    pub lines_field: Option<&'static str>,
    pub pages: Option<pdf::Pages>,
    /// Indentation mode: the anchor line and how its block is chosen.
    pub around: Option<(u64, indentation::Options)>,
}

impl Request {
    fn of(input: &Input) -> Result<Request> {
        let limit = input.limit.unwrap_or(DEFAULT_LIMIT);
        let pages = input.pages.as_deref().map(pdf::Pages::parse).transpose()?;
        if let Some(around) = around(input)? {
            return Ok(Request {
                want: Want::Lines { first: 1, limit },
                lines_field: Some("around_line"),
                pages: None,
                around: Some(around),
            });
        }
        if let Some([a, b]) = input.line_range {
            if let Some(other) = [
                ("offset", input.offset.is_some()),
                ("limit", input.limit.is_some()),
            ]
            .iter()
            .find_map(|(f, given)| given.then_some(*f))
            {
                return Err(ToolError::invalid(
                    "line_range",
                    format!("read: give `line_range` or `{other}`, not both"),
                )
                .hint("line_range [a, b] is offset a with limit b-a+1."));
            }
            let bad = |why: String| {
                Err(
                    ToolError::invalid("line_range", format!("read: line_range [{a}, {b}] {why}"))
                        .hint("Give [first, last], 1-based and inclusive, e.g. [10, 20]."),
                )
            };
            if a == 0 || b == 0 {
                return bad("has a line 0; lines are numbered from 1".into());
            }
            if a > b {
                return bad("ends before it starts".into());
            }
            if b - a >= 100_000 {
                return bad("spans more than 100000 lines".into());
            }
            return Ok(Request {
                want: Want::Lines {
                    first: a,
                    limit: b - a + 1,
                },
                lines_field: Some("line_range"),
                pages,
                around: None,
            });
        }
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
        let lines_field = match (input.offset, input.limit) {
            (Some(_), _) => Some("offset"),
            (None, Some(_)) => Some("limit"),
            (None, None) => None,
        };
        Ok(Request {
            want,
            lines_field,
            pages,
            around: None,
        })
    }
}

/// `around_line` and `indentation`, checked against the fields they cannot go with.
fn around(input: &Input) -> Result<Option<(u64, indentation::Options)>> {
    let Some(line) = input.around_line else {
        if input.indentation.is_some() {
            return Err(ToolError::invalid(
                "around_line",
                "read: `indentation` chooses the block around `around_line`, which is missing",
            )
            .hint("Give around_line: the line whose block to show."));
        }
        return Ok(None);
    };
    let clash = [
        ("offset", input.offset.is_some()),
        ("limit", input.limit.is_some()),
        ("line_range", input.line_range.is_some()),
        ("pages", input.pages.is_some()),
        ("paths", input.paths.is_some()),
    ]
    .into_iter()
    .find_map(|(f, given)| given.then_some(f));
    if let Some(other) = clash {
        return Err(ToolError::invalid(
            other,
            format!("read: give `around_line` or `{other}`, not both"),
        )
        .hint("around_line shows the block around one line of one file; offset and limit (or line_range) show a range. To cap the block, use indentation.max_lines."));
    }
    if line == 0 {
        return Err(ToolError::invalid(
            "around_line",
            "read: around_line 0 is not a line: lines are numbered from 1",
        ));
    }
    let given = input.indentation.as_ref();
    let defaults = indentation::Options::default();
    let max_lines = given
        .and_then(|i| i.max_lines)
        .unwrap_or(defaults.max_lines);
    if !(1..=100_000).contains(&max_lines) {
        return Err(ToolError::invalid(
            "indentation.max_lines",
            format!("read: indentation.max_lines is {max_lines}; give 1 to 100000"),
        ));
    }
    let options = indentation::Options {
        max_levels: given
            .and_then(|i| i.max_levels)
            .unwrap_or(defaults.max_levels),
        include_siblings: given
            .and_then(|i| i.include_siblings)
            .unwrap_or(defaults.include_siblings),
        include_header: given
            .and_then(|i| i.include_header)
            .unwrap_or(defaults.include_header),
        max_lines,
    };
    Ok(Some((line, options)))
}

/// One file read: its text for `output`, its `data`, and what to record.
pub struct Piece {
    pub output: String,
    pub data: Value,
    pub fp: Fingerprint,
    pub real: PathBuf,
    pub shown: String,
    /// The cap left no room for any of the content asked for (only `paths` can cause this:
    /// a lone file has the whole cap).
    pub starved: bool,
}

/// How the model goes on reading: read as this call's model has it (SPEC 25.5); our own name
/// where no other is offered (a read is running, so some name of it was).
fn way_on(ctx: &Ctx) -> crate::offered::Named {
    ctx.offered("read", None)
        .unwrap_or_else(|| crate::offered::Named::own("read"))
}

/// A lone file's cap: read's own, or a catalog's `max_output_bytes` below it, so a long file
/// is cut by read itself and keeps its way on (`continue with offset=N`, `data.end_line`)
/// rather than by the catalog's cut after it (SPEC 25.5).
fn lone_cap(ctx: &Ctx) -> usize {
    let catalog = ctx.call.entry.as_ref().and_then(|e| e.max_output_bytes);
    let cap = catalog.map_or(caps::READ, |m| (m as usize).min(caps::READ));
    ctx.result_chars.map_or(cap, |c| c.min(cap))
}

/// The cap `paths` share: read's own, lowered to what the client passes on whole (SPEC 31.1).
fn shared_cap(ctx: &Ctx) -> usize {
    ctx.result_chars.map_or(caps::READ, |c| c.min(caps::READ))
}

/// `read_one` within the catalog's `max_output_bytes` in bytes: read's cap counts characters,
/// so a file of wide characters is read again with less room until its output fits.
fn read_lone(ctx: &Ctx, path: &str, req: &Request) -> Result<Piece> {
    let max = lone_cap(ctx);
    let mut cap = max;
    loop {
        let piece = read_one(ctx, "path", path, req, cap)?;
        let over = piece.output.len().saturating_sub(max);
        if over == 0 || cap <= 64 {
            return Ok(piece);
        }
        cap = cap.saturating_sub(over.max(16)).max(64);
    }
}

/// Reads one file whatever its format, its output within `cap` characters.
fn read_one(ctx: &Ctx, field: &str, path: &str, req: &Request, cap: usize) -> Result<Piece> {
    let mut o = detect::open(ctx, field, path)?;
    let format = detect::format(&o.head, &[Path::new(path), &o.real]);
    if req.pages.is_some() && format != Format::Pdf {
        return Err(ToolError::invalid(
            "pages",
            format!("read: `pages` is for PDF files; {} is not one", o.shown),
        )
        .hint("Use offset and limit (or line_range) to choose lines."));
    }
    if req.around.is_some() && format != Format::Text {
        let what = match format {
            Format::Image(kind) => format!("a {} image", kind.name()),
            Format::Pdf => "a PDF".to_string(),
            _ => "a notebook".to_string(),
        };
        return Err(ToolError::invalid(
            "around_line",
            format!("read: around_line finds a block of a text file by indentation; {} is {what}", o.shown),
        )
        .hint("Read it without around_line (a notebook by cells with offset and limit, a PDF by pages)."));
    }
    match format {
        Format::Text if req.around.is_some() => text::read_block(&mut o, req, cap),
        Format::Text => text::read(&mut o, req, cap, &way_on(ctx)),
        Format::Image(kind) => {
            if let Some(f) = req.lines_field {
                ctx.warn(format!(
                    "`{f}` chooses lines; {} is an image and is shown whole",
                    o.shown
                ));
            }
            image::read(&mut o, kind)
        }
        Format::Pdf => pdf::read(&mut o, req, cap, &ctx.control),
        Format::Notebook => match notebook::read(&mut o, req, cap)? {
            Ok(piece) => Ok(piece),
            Err(why) => {
                // Shown as text, so the model sees what is wrong with it.
                ctx.warn(format!(
                    "{} is not an nbformat 4 notebook ({why}); shown as text",
                    o.shown
                ));
                text::read(&mut o, req, cap, &way_on(ctx))
            }
        },
    }
}

/// Records what this call read: each record is its own file, written without the session's
/// lock, and one that already says the same is left alone (reads::record_read).
fn record(ctx: &Ctx, files: &[(PathBuf, Fingerprint)]) -> Result<()> {
    files
        .iter()
        .try_for_each(|(real, fp)| reads::record_read(ctx, real, *fp))
}

/// Room kept for the last line that names the first file not shown.
const TRAILER_ROOM: usize = 400;
/// A file is not started with less room than this left.
const MIN_ROOM: usize = 300;

/// `paths`: each file read as alone, in order, sharing read's cap; the files that no longer fit
/// are named in a last line and not read (nor recorded).
fn many(ctx: &Ctx, paths: &[String], req: &Request) -> Result<Success> {
    let mut output = String::new();
    let mut used = 0usize; // characters of `output`
    let mut files: Vec<Value> = Vec::with_capacity(paths.len());
    let mut records = Vec::new();
    let mut first_error: Option<ToolError> = None;
    let mut failed = 0usize;
    let mut unread_from = None;
    // The last file read, when the shared cap cut it: (its name, the line to go on from).
    let mut cut: Option<(String, u64)> = None;
    for (i, path) in paths.iter().enumerate() {
        let sep = if i == 0 { "" } else { "\n" };
        let room = shared_cap(ctx).saturating_sub(used + TRAILER_ROOM + path.chars().count() + 12);
        if room < MIN_ROOM {
            unread_from = Some(i);
            break;
        }
        let field = format!("paths[{i}]");
        let (shown, text) = match read_one(ctx, &field, path, req, room) {
            Ok(piece) if piece.starved => {
                // Nothing of it fits: it is the first file not shown, and is not recorded.
                unread_from = Some(i);
                break;
            }
            Ok(piece) => {
                cut = cut_by_cap(&piece, room);
                files.push(piece.data);
                records.push((piece.real, piece.fp));
                (piece.shown, piece.output)
            }
            Err(e) => {
                cut = None;
                let shown = e
                    .extra
                    .get("path")
                    .and_then(Value::as_str)
                    .unwrap_or(path)
                    .to_string();
                let mut text = format!("Error: {}\n", e.message);
                if let Some(h) = &e.hint {
                    text.push_str(&format!("Hint: {h}\n"));
                }
                files.push(json!({
                    "path": shown,
                    "error": {"code": e.code.as_str(), "message": e.message},
                }));
                failed += 1;
                first_error.get_or_insert(e);
                (shown, clip(text, room))
            }
        };
        let block = format!("{sep}==> {shown} <==\n{text}");
        used += block.chars().count();
        output.push_str(&block);
    }
    if records.is_empty() {
        // Nothing was read: the call fails with the first file's error.
        return Err(first_error.expect("at least one path was tried"));
    }
    record(ctx, &records)?;
    let unread = unread_from.map_or(0, |k| paths.len() - k);
    let mut way_on = vec![];
    if let Some((shown, next)) = &cut {
        let read = self::way_on(ctx);
        let offset = read.line("offset", *next).to_string();
        let again = read.call(None, &[("path", shown), ("offset", &offset)]);
        way_on.push(format!("{shown} was cut: continue it with {again}"));
    }
    if let Some(k) = unread_from {
        let first = &paths[k];
        let more = match unread - 1 {
            0 => String::new(),
            1 => " and 1 more file".to_string(),
            n => format!(" and {n} more files"),
        };
        way_on.push(format!(
            "not shown: {first}{more}; read them with paths starting at {first}"
        ));
        files.extend(
            paths[k..]
                .iter()
                .map(|p| json!({"path": p, "unread": true})),
        );
    }
    if !way_on.is_empty() {
        // SPEC 31.2: the last line names every file to go on with, the cut one first.
        output.push_str(&format!(
            "\n(output limit of {} characters reached; {})\n",
            shared_cap(ctx),
            way_on.join("; ")
        ));
    }
    let data = json!({
        "files": files,
        "read": records.len(),
        "failed": failed,
        "unread": unread,
        "truncated": unread > 0,
    });
    Ok(Success::new(output, data))
}

/// Where a file of `paths` stopped when the shared cap, not its own `limit`, cut it: its
/// output filled `room` but for less than a long line's worth.
fn cut_by_cap(piece: &Piece, room: usize) -> Option<(String, u64)> {
    const LONG_LINE: usize = 2_500;
    let d = &piece.data;
    let cut = d["truncated"] == true && piece.output.chars().count() + LONG_LINE >= room;
    let end = d["end_line"].as_u64()?;
    (cut && end < d["total_lines"].as_u64()?).then(|| (piece.shown.clone(), end + 1))
}

/// An error's text cut to `room` characters, after a whole line.
fn clip(text: String, room: usize) -> String {
    if text.chars().count() <= room {
        return text;
    }
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    caps::fit(&lines, room, |_| None).0
}
