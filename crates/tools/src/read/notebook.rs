//! Jupyter notebooks (SPEC 18.2, 24.2, 24.7): each cell as `<cell id=ID type=TYPE>`, its
//! source numbered from 1, then its text outputs (at most 5,000 characters a cell, errors and
//! tracebacks kept, images counted). `offset`/`limit` count cells. nbformat 4; a cell without
//! an id (before 4.5) is `cell-N`, 0-based, the name notebook_edit takes.

use super::detect::{Opened, read_all};
use super::{Piece, Request};
use crate::caps;
use crate::error::Result;
use crate::reads::Fingerprint;
use crate::text::{Want, cut_line};
use serde_json::{Value, json};

/// Text outputs shown per cell (SPEC 24.2).
const MAX_OUTPUT: usize = 5000;
/// Notebooks above this are not parsed (they are one JSON document).
const MAX_FILE: u64 = 64 * 1024 * 1024;
/// Bytes of a notebook's text a JSON value may cost (SPEC 31.4): 64 MiB of `[[],[],…]` would
/// otherwise be 32 M values, over a GB. A notebook of source lines stays far below.
pub const VALUE_BYTES: u64 = 16;
/// Cells a notebook may hold (SPEC 31.4); people's notebooks have hundreds.
pub const MAX_CELLS: usize = 20_000;

/// `too_large` for a notebook of `n` cells.
pub fn too_many_cells(shown: &str, n: usize) -> crate::error::ToolError {
    crate::error::ToolError::too_large(
        MAX_CELLS,
        format!(
            "{shown} holds {n} cells; notebooks of at most {MAX_CELLS} cells are read and edited"
        ),
    )
    .with("path", shown)
    .hint("Split the notebook, or read it as text with grep.")
}

struct Cell {
    id: String,
    cell_type: String,
    source: String,
    outputs_text: String,
}

/// The notebook, or why it is not one (the caller then shows it as text).
pub fn read(
    o: &mut Opened,
    req: &Request,
    cap: usize,
) -> Result<std::result::Result<Piece, String>> {
    let bytes = read_all(o, MAX_FILE, "notebooks")?;
    let fp = Fingerprint::of_bytes(&bytes, &o.meta);
    let nb: Value = match crate::input::json::file_value(&bytes, VALUE_BYTES) {
        Ok(v) => v,
        Err(e @ crate::input::json::Error::TooMany { .. }) => {
            return Err(e.into_tool(&o.shown));
        }
        Err(e) => return Ok(Err(format!("not valid JSON: {e}"))),
    };
    let major = nb["nbformat"].as_u64();
    if major != Some(4) {
        let got = major.map_or("no nbformat".to_string(), |m| format!("nbformat {m}"));
        return Ok(Err(got));
    }
    let Some(raw) = nb["cells"].as_array() else {
        return Ok(Err("no `cells` array".into()));
    };
    if raw.len() > MAX_CELLS {
        return Err(too_many_cells(&o.shown, raw.len()));
    }
    let cells: Vec<Cell> = raw.iter().enumerate().map(|(i, c)| cell(i, c)).collect();
    let total = cells.len() as u64;
    let (first, count) = match req.want {
        Want::Lines { first, limit } => (first, limit),
        Want::Tail { count, limit } => (total.saturating_sub(count) + 1, limit.min(count)),
    };
    let from = (first - 1).min(total) as usize;
    let to = (first - 1).saturating_add(count).min(total) as usize;
    let window = &cells[from..to];
    let mut lines = Vec::new();
    let mut cell_of = Vec::new(); // 1-based cell number of each line
    for (i, c) in window.iter().enumerate() {
        let n = first + i as u64;
        let before = lines.len();
        render(c, &mut lines);
        cell_of.resize(lines.len(), n);
        debug_assert!(lines.len() > before);
    }
    let shown = o.shown.clone();
    let (output, k) = if total == 0 {
        ("(notebook without cells)\n".to_string(), 0)
    } else if window.is_empty() {
        (
            format!("(offset {first} is past the end: {shown} has {total} cells)\n"),
            0,
        )
    } else {
        caps::fit(&lines, cap, |k| {
            if k == lines.len() {
                let last = first + window.len() as u64 - 1;
                return (last < total).then(|| {
                    format!(
                        "(showing cells {first}-{last} of {total}; continue with offset={})",
                        last + 1
                    )
                });
            }
            // The cap cut inside cell `c` (or just before it): continue there, or after it
            // when it is the first cell shown and alone longer than the cap.
            let c = cell_of[k];
            Some(if c > first {
                format!(
                    "(showing cells {first}-{} of {total}, output limit reached; continue with offset={c})",
                    c - 1
                )
            } else if c < total {
                format!(
                    "(cell {c} is longer than the output limit and was cut; its whole source is in data.cells; continue with offset={})",
                    c + 1
                )
            } else {
                format!(
                    "(cell {c} is longer than the output limit and was cut; its whole source is in data.cells)"
                )
            })
        })
    };
    let end_cell = match k {
        0 => first - 1,
        k if k == lines.len() => first + window.len() as u64 - 1,
        // A cell cut short counts as not shown (the trailer sends the reader back to it),
        // unless it is the first: then it is all there is.
        k => cell_of[k].max(first + 1) - 1,
    };
    let data = json!({
        "path": shown,
        "size_bytes": o.meta.len(),
        "nbformat": format!("4.{}", nb["nbformat_minor"].as_u64().unwrap_or(0)),
        "language": nb["metadata"]["language_info"]["name"]
            .as_str()
            .or_else(|| nb["metadata"]["kernelspec"]["language"].as_str()),
        "start_cell": first,
        "end_cell": end_cell,
        "total_cells": total,
        "truncated": end_cell < total && !window.is_empty(),
        "cells": window.iter().map(|c| json!({
            "id": c.id,
            "cell_type": c.cell_type,
            "source": c.source,
            "outputs_text": c.outputs_text,
        })).collect::<Vec<_>>(),
    });
    Ok(Ok(Piece {
        output,
        data,
        fp,
        real: o.real.clone(),
        shown,
        starved: k <= 1 && !window.is_empty(), // a cell's opening tag alone shows nothing
    }))
}

/// A multiline string of nbformat: one string, or a list of strings to join.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

fn cell(i: usize, c: &Value) -> Cell {
    let mut text = String::new();
    let mut errors = String::new();
    let mut images = 0usize;
    let mut other: Vec<String> = Vec::new();
    for out in c["outputs"].as_array().into_iter().flatten() {
        match out["output_type"].as_str() {
            Some("stream") => text.push_str(&text_of(&out["text"])),
            Some("execute_result" | "display_data") => {
                let data = &out["data"];
                let mimes: Vec<&String> = data
                    .as_object()
                    .map(|m| m.keys().collect())
                    .unwrap_or_default();
                if mimes.iter().any(|m| m.starts_with("image/")) {
                    images += 1;
                }
                if data.get("text/plain").is_some() {
                    text.push_str(&text_of(&data["text/plain"]));
                    if !text.ends_with('\n') {
                        text.push('\n');
                    }
                } else if let Some(m) = mimes.iter().find(|m| !m.starts_with("image/")) {
                    other.push(m.to_string());
                }
            }
            Some("error") => {
                let name = out["ename"].as_str().unwrap_or("Error");
                let value = out["evalue"].as_str().unwrap_or("");
                let trace: Vec<String> = out["traceback"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(strip_ansi)
                    .collect();
                if trace.is_empty() {
                    errors.push_str(&format!("{name}: {value}\n"));
                } else {
                    errors.push_str(&trace.join("\n"));
                    errors.push('\n');
                }
            }
            _ => {}
        }
    }
    let mut outputs_text = cap_outputs(&text, &errors);
    if images > 0 {
        let s = if images == 1 { "" } else { "s" };
        outputs_text.push_str(&format!("[{images} image output{s} not shown]\n"));
    }
    if !other.is_empty() {
        outputs_text.push_str(&format!("[outputs not shown: {}]\n", other.join(", ")));
    }
    Cell {
        id: c["id"]
            .as_str()
            .map_or_else(|| format!("cell-{i}"), str::to_string),
        cell_type: c["cell_type"].as_str().unwrap_or("code").to_string(),
        source: text_of(&c["source"]),
        outputs_text,
    }
}

/// Printed text first, errors after it; at most `MAX_OUTPUT` characters in all. The printed
/// text gives way first: an error is what the model needs. A traceback over the limit keeps its
/// end (the frame that raised and the message).
fn cap_outputs(text: &str, errors: &str) -> String {
    let count = |s: &str| s.chars().count();
    let mut errors = errors.to_string();
    if count(&errors) > MAX_OUTPUT {
        let n = count(&errors);
        let skip = errors
            .char_indices()
            .nth(n - MAX_OUTPUT)
            .map_or(0, |(i, _)| i);
        errors = format!("… [traceback truncated: {n} chars]\n{}", &errors[skip..]);
    }
    let room = MAX_OUTPUT.saturating_sub(count(&errors));
    let mut out = if count(text) > room {
        let at = text.char_indices().nth(room).map_or(text.len(), |(i, _)| i);
        let mut t = text[..at].to_string();
        if !t.is_empty() && !t.ends_with('\n') {
            t.push('\n');
        }
        t.push_str(&format!("… [output truncated: {} chars]\n", count(text)));
        t
    } else {
        text.to_string()
    };
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&errors);
    out
}

/// Terminal colour codes (IPython colours its tracebacks).
fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            // Parameters and intermediates, up to the final byte (@ to ~).
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn render(c: &Cell, lines: &mut Vec<String>) {
    lines.push(format!("<cell id={} type={}>", c.id, c.cell_type));
    for (i, l) in c.source.lines().enumerate() {
        lines.push(format!("{:>6}\t{}", i + 1, cut_line(l)));
    }
    if !c.outputs_text.is_empty() {
        lines.push("<output>".into());
        lines.extend(c.outputs_text.lines().map(cut_line));
        lines.push("</output>".into());
    }
    lines.push("</cell>".into());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_kept_when_printed_text_is_cut() {
        let text = "x".repeat(20_000);
        let err = "Traceback\nValueError: bad\n";
        let out = cap_outputs(&text, err);
        assert!(out.chars().count() <= MAX_OUTPUT + 100, "{}", out.len());
        assert!(out.contains("… [output truncated: 20000 chars]"));
        assert!(out.ends_with("ValueError: bad\n"));
        // a huge traceback keeps its end
        let long = format!("{}\nKeyError: 'k'\n", "frame\n".repeat(2000));
        let out = cap_outputs("", &long);
        assert!(out.starts_with("… [traceback truncated:"));
        assert!(out.ends_with("KeyError: 'k'\n"));
    }

    #[test]
    fn ansi_colours_are_stripped() {
        assert_eq!(
            strip_ansi("\u{1b}[0;31mValueError\u{1b}[0m: x"),
            "ValueError: x"
        );
    }

    #[test]
    fn cells_without_ids_are_numbered_from_zero() {
        let c = cell(
            3,
            &json!({"cell_type": "markdown", "source": ["# T\n", "x"]}),
        );
        assert_eq!((c.id.as_str(), c.source.as_str()), ("cell-3", "# T\nx"));
    }
}
