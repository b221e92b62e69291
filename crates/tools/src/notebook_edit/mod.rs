//! `notebook_edit` (SPEC 18.3, 24.2): replace, insert or delete one cell of a Jupyter notebook,
//! splicing only that cell's bytes, written in the file's own style (its indentation, its
//! escaping, `source` as a list of lines), so every other byte stays and a diff shows one cell.
//! Goes through the change protocol like write: a fresh read, the lock, the journal.

mod spans;

use crate::change;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::sandbox;
use crate::tool::{Hints, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

pub struct NotebookEdit;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Replace the cell's source (a code cell's outputs and execution count are cleared).
    #[default]
    Replace,
    /// Insert a new cell after `cell_id` (first when `cell_id` is absent); needs `cell_type`.
    Insert,
    /// Delete the cell.
    Delete,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CellType {
    Code,
    Markdown,
}

impl CellType {
    fn as_str(self) -> &'static str {
        match self {
            CellType::Code => "code",
            CellType::Markdown => "markdown",
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// The notebook (.ipynb).
    #[serde(alias = "file_path")]
    pub path: String,
    /// The cell to edit (its id, or `cell-N` for the N-th cell, 0-based); for insert, the cell
    /// to insert after (absent: insert first).
    pub cell_id: Option<String>,
    /// The cell's new source: required for replace and insert, not used by delete.
    pub new_source: Option<String>,
    /// `code` or `markdown`: needed to insert; for replace, changes the cell's type.
    pub cell_type: Option<CellType>,
    /// `replace` (default), `insert` or `delete`.
    #[schemars(extend("default" = "replace"))]
    pub edit_mode: Option<Mode>,
}

impl Tool for NotebookEdit {
    type Input = Input;
    const NAME: &'static str = "notebook_edit";
    const SUMMARY: &'static str = "Replace, insert or delete a cell of a Jupyter notebook";
    const DESCRIPTION: &'static str = "Edits one cell of a Jupyter notebook (.ipynb, nbformat 4): `replace` (default) sets the cell's source to `new_source` (a code cell's outputs and execution count are cleared), `insert` adds a new cell with `new_source` after `cell_id` (or first, when `cell_id` is absent; `cell_type` is required), `delete` removes the cell (no `new_source`). `cell_id` is required for replace and delete. \
Cells are named by their id as read shows it (`<cell id=...>`), or `cell-N` (0-based) for a notebook without ids. Read the notebook first; it must not have changed since. \
Only the edited cell's text changes in the file: everything else stays byte for byte. Use this, not edit or write, for notebooks. Can be undone.";
    const POSITIONALS: &'static [&'static str] = &["path"];
    const EXAMPLES: &'static str = "  echo '{\"path\": \"analysis.ipynb\", \"cell_id\": \"a1b2\", \"new_source\": \"df.describe()\"}' | loopr-tool notebook_edit";
    const HINTS: Hints = Hints::DESTRUCTIVE;

    fn read_only(_: &Input) -> bool {
        false
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let mode = input.edit_mode.unwrap_or_default();
        if mode != Mode::Delete && input.new_source.is_none() {
            return Err(ToolError::invalid(
                "new_source",
                "notebook_edit: missing required field `new_source` (the cell's new text)",
            ));
        }
        if mode == Mode::Insert && input.cell_type.is_none() {
            return Err(ToolError::invalid(
                "cell_type",
                "inserting a cell needs cell_type: code or markdown",
            ));
        }
        if mode != Mode::Insert && input.cell_id.is_none() {
            return Err(ToolError::invalid(
                "cell_id",
                "notebook_edit: missing required field `cell_id` (the cell to change)",
            ));
        }
        let target = sandbox::resolve(ctx, "path", &input.path)?;
        let shown = target.shown.as_str();
        let real = target.real.as_path();
        let locked = change::lock(ctx, &[real])?;
        let meta = crate::write::check_writable(real, shown)?
            .ok_or_else(|| ToolError::not_found(shown, format!("{shown} does not exist")))?;
        let current = locked.read_fresh(&target, meta)?;
        let nb = Notebook::parse(&current.bytes, shown)?;
        let (new_bytes, report) = nb.apply(&input, mode, shown)?;
        let syntax = nb.check(&input, mode);
        let before = current.before(current.keep(ctx, &target));
        change::replace(
            ctx,
            "notebook_edit",
            &target,
            &new_bytes,
            Some(&current.meta),
            before,
        )?;
        drop(locked);
        Ok(match syntax {
            Some(r) => with_syntax(report, shown, &r),
            None => report,
        })
    }
}

/// `data.syntax` and the line of a code cell's check.
fn with_syntax(report: Success, shown: &str, r: &loopr_syntax::check::Report) -> Success {
    let mut data = report.data.into_value(&[]);
    if let Value::Object(m) = &mut data {
        m.insert("syntax".into(), crate::syntax_check::data(r));
    }
    let mut output = report.output;
    if let Some(l) = crate::syntax_check::line(&format!("{shown}'s cell"), r) {
        output.push_str(&l);
        output.push('\n');
    }
    Success::new(output, data)
}

/// A cell's source: a string, or an array of lines.
fn cell_source(cell: &Value) -> String {
    match &cell["source"] {
        Value::String(s) => s.clone(),
        Value::Array(lines) => lines.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

/// A notebook as text and as JSON, with where its cells are.
struct Notebook<'a> {
    text: &'a str,
    cells: Vec<Value>,
    layout: spans::Layout,
    /// nbformat 4.5 and later give cells ids.
    has_ids: bool,
    /// The kernel's language (`metadata.language_info.name` or the kernelspec's), for the
    /// syntax check of code cells (SPEC 26.5).
    language: Option<String>,
}

impl<'a> Notebook<'a> {
    fn parse(bytes: &'a [u8], shown: &str) -> Result<Notebook<'a>> {
        let bad = |why: String| {
            ToolError::invalid("path", format!("{shown} is not a Jupyter notebook: {why}"))
        };
        let text = std::str::from_utf8(bytes).map_err(|_| bad("it is not UTF-8".into()))?;
        let v: Value = match crate::input::json::file_value(bytes, crate::read::VALUE_BYTES) {
            Ok(v) => v,
            Err(e @ crate::input::json::Error::TooMany { .. }) => return Err(e.into_tool(shown)),
            Err(e) => return Err(bad(format!("bad JSON ({e})"))),
        };
        let major = v["nbformat"].as_u64().unwrap_or(0);
        if major != 4 {
            return Err(bad(format!(
                "nbformat {major}; notebook_edit handles nbformat 4"
            )));
        }
        let minor = v["nbformat_minor"].as_u64().unwrap_or(0);
        let cells = v["cells"]
            .as_array()
            .cloned()
            .ok_or_else(|| bad("no cells array".into()))?;
        if cells.len() > crate::read::MAX_CELLS {
            return Err(crate::read::too_many_cells(shown, cells.len()));
        }
        let layout = spans::layout(bytes).ok_or_else(|| bad("no cells array".into()))?;
        if layout.cells.len() != cells.len() {
            return Err(ToolError::internal(
                "the notebook's cells were not all located",
            ));
        }
        let meta = &v["metadata"];
        let language = meta["language_info"]["name"]
            .as_str()
            .or(meta["kernelspec"]["language"].as_str())
            .map(str::to_lowercase);
        Ok(Notebook {
            text,
            cells,
            layout,
            has_ids: minor >= 5,
            language,
        })
    }

    /// The syntax check of a code cell's new source against its old one, when the kernel's
    /// language is built in (SPEC 26.5).
    fn check(&self, input: &Input, mode: Mode) -> Option<loopr_syntax::check::Report> {
        let lang = loopr_syntax::Lang::from_name(self.language.as_deref()?)?;
        let new = input.new_source.as_deref()?;
        let old = match mode {
            Mode::Delete => return None,
            Mode::Insert => None,
            Mode::Replace => Some(cell_source(
                &self.cells[self
                    .find(input.cell_id.as_deref().unwrap_or_default())
                    .ok()?],
            )),
        };
        let kind = match (input.cell_type, &old) {
            (Some(k), _) => k.as_str().to_string(),
            (None, Some(_)) => self.cells[self.find(input.cell_id.as_deref()?).ok()?]["cell_type"]
                .as_str()
                .unwrap_or("code")
                .to_string(),
            (None, None) => "code".to_string(),
        };
        if kind != "code" {
            return None;
        }
        loopr_syntax::check::compare(lang, old.as_deref().map(str::as_bytes), new.as_bytes())
    }

    fn id_of(&self, i: usize) -> String {
        self.cells[i]["id"]
            .as_str()
            .map_or_else(|| format!("cell-{i}"), str::to_string)
    }

    /// The index of the cell named `id` (its id, or `cell-N`).
    fn find(&self, id: &str) -> Result<usize> {
        if let Some(i) = (0..self.cells.len()).find(|&i| self.cells[i]["id"] == id) {
            return Ok(i);
        }
        if let Some(i) = id
            .strip_prefix("cell-")
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&i| i < self.cells.len())
        {
            return Ok(i);
        }
        let ids: Vec<String> = (0..self.cells.len()).map(|i| self.id_of(i)).collect();
        Err(ToolError::invalid(
            "cell_id",
            format!("no cell `{id}`; the cells are: {}", ids.join(", ")),
        )
        .hint("Read the notebook to see each cell's id."))
    }

    /// The indentation of one nesting level, from the line that holds `"cells"`; `None` for a
    /// notebook written on one line.
    fn unit(&self) -> Option<String> {
        let line_start = self.text[..self.layout.open].rfind('\n')? + 1;
        let ws: String = self.text[line_start..]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        Some(if ws.is_empty() { " ".into() } else { ws })
    }

    /// A cell written as the file writes cells (at nesting depth 2).
    fn render(&self, cell: &Value) -> String {
        let mut out = match self.unit() {
            Some(unit) => {
                let mut buf = Vec::new();
                let fmt = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
                let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
                serde::Serialize::serialize(cell, &mut ser).expect("a Value serialises");
                let pretty = String::from_utf8(buf).expect("serde_json writes UTF-8");
                // Strings hold no raw newline, so each line break is the formatter's own.
                pretty.replace('\n', &format!("\n{unit}{unit}"))
            }
            None => cell.to_string(),
        };
        // A file written with ensure_ascii keeps its non-ASCII characters as \u escapes.
        if self.text.is_ascii() && self.text.contains("\\u") {
            out = out
                .chars()
                .flat_map(|c| {
                    if c.is_ascii() {
                        vec![c.to_string()]
                    } else {
                        let mut units = [0u16; 2];
                        c.encode_utf16(&mut units)
                            .iter()
                            .map(|u| format!("\\u{u:04x}"))
                            .collect()
                    }
                })
                .collect();
        }
        out
    }

    /// What stands between two cells (`,\n  ` in a Jupyter-written file).
    fn separator(&self) -> String {
        match self.layout.cells.as_slice() {
            [a, b, ..] => self.text[a.1..b.0].to_string(),
            _ => match self.unit() {
                Some(u) => format!(",\n{u}{u}"),
                None => ",".into(),
            },
        }
    }

    fn fresh_id(&self) -> String {
        let seed = format!("{:?}{}", std::time::SystemTime::now(), std::process::id());
        let mut n = xxhash_rust::xxh3::xxh3_64(seed.as_bytes());
        loop {
            let id = format!("{:08x}", n as u32);
            if !self.cells.iter().any(|c| c["id"] == id.as_str()) {
                return id;
            }
            n = n.rotate_left(13).wrapping_add(0x9e37_79b9);
        }
    }

    fn apply(&self, input: &Input, mode: Mode, shown: &str) -> Result<(Vec<u8>, Success)> {
        let t = self.text;
        let source = source_lines(input.new_source.as_deref().unwrap_or(""));
        let (text, id, kind, verb) = match mode {
            Mode::Replace => {
                let i = self.find(input.cell_id.as_deref().unwrap_or_default())?;
                let mut cell = self.cells[i].as_object().cloned().unwrap_or_default();
                let kind = input.cell_type.map_or_else(
                    || {
                        cell.get("cell_type")
                            .and_then(Value::as_str)
                            .unwrap_or("code")
                            .to_string()
                    },
                    |k| k.as_str().to_string(),
                );
                cell.insert("cell_type".into(), json!(kind));
                cell.insert("source".into(), source);
                if kind == "code" {
                    cell.insert("execution_count".into(), Value::Null);
                    cell.insert("outputs".into(), json!([]));
                } else {
                    cell.remove("execution_count");
                    cell.remove("outputs");
                }
                let cell = sorted_like(&self.cells[i], cell);
                let (s, e) = self.layout.cells[i];
                let text = format!("{}{}{}", &t[..s], self.render(&cell), &t[e..]);
                (text, self.id_of(i), kind, "Replaced")
            }
            Mode::Insert => {
                let kind = input.cell_type.unwrap_or(CellType::Code);
                let mut cell = Map::new();
                cell.insert("cell_type".into(), json!(kind.as_str()));
                if kind == CellType::Code {
                    cell.insert("execution_count".into(), Value::Null);
                }
                let id = if self.has_ids {
                    let id = self.fresh_id();
                    cell.insert("id".into(), json!(id));
                    id
                } else {
                    String::new()
                };
                cell.insert("metadata".into(), json!({}));
                if kind == CellType::Code {
                    cell.insert("outputs".into(), json!([]));
                }
                cell.insert("source".into(), source);
                let rendered = self.render(&Value::Object(cell));
                let sep = self.separator();
                let (text, at) = match (input.cell_id.as_deref(), self.layout.cells.first()) {
                    (Some(after), _) => {
                        let i = self.find(after)?;
                        let e = self.layout.cells[i].1;
                        (format!("{}{sep}{rendered}{}", &t[..e], &t[e..]), i + 1)
                    }
                    (None, Some(&(s, _))) => (format!("{}{rendered}{sep}{}", &t[..s], &t[s..]), 0),
                    (None, None) => {
                        let (o, c) = (self.layout.open, self.layout.close);
                        let inner = match self.unit() {
                            Some(u) => format!("[\n{u}{u}{rendered}\n{u}]"),
                            None => format!("[{rendered}]"),
                        };
                        (format!("{}{inner}{}", &t[..o], &t[c + 1..]), 0)
                    }
                };
                let id = if id.is_empty() {
                    format!("cell-{at}")
                } else {
                    id
                };
                (text, id, kind.as_str().to_string(), "Inserted")
            }
            Mode::Delete => {
                let i = self.find(input.cell_id.as_deref().unwrap_or_default())?;
                let cells = &self.layout.cells;
                let (s, e) = cells[i];
                let text = if cells.len() == 1 {
                    format!(
                        "{}[]{}",
                        &t[..self.layout.open],
                        &t[self.layout.close + 1..]
                    )
                } else if i + 1 < cells.len() {
                    format!("{}{}", &t[..s], &t[cells[i + 1].0..])
                } else {
                    format!("{}{}", &t[..cells[i - 1].1], &t[e..])
                };
                let kind = self.cells[i]["cell_type"]
                    .as_str()
                    .unwrap_or("")
                    .to_string();
                (text, self.id_of(i), kind, "Deleted")
            }
        };
        let count = match mode {
            Mode::Replace => self.cells.len(),
            Mode::Insert => self.cells.len() + 1,
            Mode::Delete => self.cells.len() - 1,
        };
        let output = format!("{verb} {kind} cell {id} in {shown} ({count} cells now)\n");
        let data = json!({
            "path": shown,
            "cell_id": id,
            "cell_type": kind,
            "edit_mode": match mode { Mode::Replace => "replace", Mode::Insert => "insert", Mode::Delete => "delete" },
            "cells": count,
        });
        Ok((text.into_bytes(), Success::new(output, data)))
    }
}

/// `source` as Jupyter writes it: a list of lines, each but the last ending in `\n`.
fn source_lines(s: &str) -> Value {
    Value::Array(s.split_inclusive('\n').map(|l| json!(l)).collect())
}

/// `cell`'s keys in the order the original cell had them, new keys in sorted order after
/// (Jupyter sorts keys, so a Jupyter-written cell stays sorted).
fn sorted_like(original: &Value, cell: Map<String, Value>) -> Value {
    let mut keys: Vec<&String> = cell.keys().collect();
    let pos = |k: &str| {
        original
            .as_object()
            .and_then(|o| o.keys().position(|x| x == k))
    };
    let sorted_file = original
        .as_object()
        .is_some_and(|o| o.keys().zip(o.keys().skip(1)).all(|(a, b)| a <= b));
    if sorted_file {
        keys.sort();
    } else {
        keys.sort_by_key(|k| (pos(k).unwrap_or(usize::MAX), (*k).clone()));
    }
    Value::Object(
        keys.into_iter()
            .map(|k| (k.clone(), cell[k].clone()))
            .collect(),
    )
}
