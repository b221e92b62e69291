//! `stat` (SPEC 18.1, 24.2): what a path is — type, size, mode, mtime, and for a text file its
//! lines, encoding and line endings from read's own streaming pass. Looks only: no read record.
//! A path that fails is an entry with `error`, not a failed call, so many paths can be asked at
//! once.

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::fsx;
use crate::sandbox;
use crate::state;
use crate::text::{self, Outcome, Want};
use crate::tool::{Hints, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use std::os::unix::fs::MetadataExt;

pub struct Stat;

/// Files larger than this are not scanned for lines and encoding.
const SCAN_LIMIT: u64 = 64 * 1024 * 1024;
const MAX_PATHS: usize = 1000;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// One path to describe.
    #[serde(alias = "file_path")]
    pub path: Option<String>,
    /// Several paths (up to 1000) instead of `path`.
    #[schemars(length(max = 1000))]
    pub paths: Option<Vec<String>>,
}

impl Tool for Stat {
    type Input = Input;
    const NAME: &'static str = "stat";
    const SUMMARY: &'static str = "Describe files: type, size, mode, mtime, lines, encoding";
    const DESCRIPTION: &'static str = "Describes one path (`path`) or up to 1000 (`paths`) without loading them into the conversation: type (file, dir, symlink, other), size in bytes, mode (octal), modification time, and for a text file its line count, encoding, line endings and whether it is binary; a symlink's target. \
A missing path is reported in its entry (`error`), not as a failed call. Does not count as a read (edit still needs one).";
    const POSITIONALS: &'static [&'static str] = &["path"];
    const HINTS: Hints = Hints::READ_ONLY;
    const EXAMPLES: &'static str = "  loopr-tool stat src/main.rs\n  echo '{\"paths\": [\"a.rs\", \"b.rs\"]}' | loopr-tool stat";

    fn read_only(_: &Input) -> bool {
        true
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let many = match (input.path, input.paths) {
            (Some(_), Some(_)) => {
                return Err(ToolError::invalid(
                    "paths",
                    "give either path or paths, not both",
                ));
            }
            (None, None) => {
                return Err(ToolError::invalid(
                    "path",
                    "stat: missing required field `path` (or give `paths`)",
                ));
            }
            (Some(p), None) => return Ok(one(ctx, &p)),
            (None, Some(ps)) => ps,
        };
        if many.is_empty() || many.len() > MAX_PATHS {
            return Err(ToolError::invalid(
                "paths",
                format!("paths holds {} entries; give 1 to {MAX_PATHS}", many.len()),
            ));
        }
        let entries: Vec<Value> = many.iter().map(|p| entry(ctx, p)).collect();
        let lines: Vec<String> = entries.iter().map(line).collect();
        let (output, _) = crate::caps::fit(&lines, crate::caps::OTHER, |k| {
            (k < lines.len()).then(|| format!("({} more entries in data.entries)", lines.len() - k))
        });
        Ok(Success::new(output, json!({"entries": entries})))
    }
}

fn one(ctx: &Ctx, given: &str) -> Success {
    let e = entry(ctx, given);
    Success::new(format!("{}\n", line(&e)), e)
}

/// The entry of one path; a failure becomes its `error`.
fn entry(ctx: &Ctx, given: &str) -> Value {
    // The link itself, not its target (a symlink is reported as one); the root by itself.
    let resolved = sandbox::resolve_entry(ctx, "path", given)
        .or_else(|_| sandbox::resolve(ctx, "path", given));
    match resolved.and_then(|r| describe(&r)) {
        Ok(v) => v,
        Err(e) => json!({
            "path": e.extra.get("path").and_then(Value::as_str).unwrap_or(given),
            "error": {"code": e.code.as_str(), "message": e.message},
        }),
    }
}

fn describe(r: &sandbox::Resolved) -> Result<Value> {
    let shown = r.shown.as_str();
    // Through the checked handle, as read (SPEC 31.4): a swapped path never describes an
    // outside file, and a FIFO put in a file's place never blocks.
    let meta = fsx::lstat_resolved(r).map_err(|e| ToolError::io(&e, shown, "stat of"))?;
    let ft = meta.file_type();
    let kind = if ft.is_symlink() {
        "symlink"
    } else if ft.is_dir() {
        "dir"
    } else if ft.is_file() {
        "file"
    } else {
        "other"
    };
    let mtime = std::time::UNIX_EPOCH
        + std::time::Duration::new(meta.mtime().max(0) as u64, meta.mtime_nsec() as u32);
    let mut v = json!({
        "path": shown,
        "type": kind,
        "size": meta.len(),
        "mode": format!("{:04o}", meta.mode() & 0o7777),
        "mtime": state::rfc3339(mtime),
    });
    if ft.is_symlink() {
        let target = fsx::readlink_resolved(r).map_err(|e| ToolError::io(&e, shown, "reading"))?;
        v["target"] = json!(target.to_string_lossy());
    } else if ft.is_file() && meta.len() <= SCAN_LIMIT {
        let mut f = fsx::open_resolved(r).map_err(|e| ToolError::io(&e, shown, "reading"))?;
        // Counting only: no line is kept.
        let want = Want::Lines { first: 1, limit: 0 };
        match text::scan(&mut f, meta.len(), want, 0)
            .map_err(|e| ToolError::io(&e, shown, "reading"))?
        {
            Outcome::Text(s) => {
                v["binary"] = json!(false);
                v["lines"] = json!(s.total_lines);
                v["encoding"] = json!(s.encoding);
                v["line_ending"] = json!(s.line_ending);
            }
            Outcome::Binary { .. } => v["binary"] = json!(true),
        }
    }
    Ok(v)
}

/// One line of `output` for an entry.
fn line(e: &Value) -> String {
    let path = e["path"].as_str().unwrap_or("");
    if let Some(err) = e.get("error") {
        return format!(
            "{path}: error {}: {}",
            err["code"].as_str().unwrap_or(""),
            err["message"].as_str().unwrap_or("")
        );
    }
    let mut parts = vec![
        e["type"].as_str().unwrap_or("").to_string(),
        format!("{} bytes", e["size"]),
        e["mode"].as_str().unwrap_or("").to_string(),
        format!("modified {}", e["mtime"].as_str().unwrap_or("")),
    ];
    if let Some(t) = e["target"].as_str() {
        parts.push(format!("-> {t}"));
    }
    if e["binary"] == true {
        parts.push("binary".into());
    } else if let Some(n) = e["lines"].as_u64() {
        parts.push(format!(
            "{n} lines, {}, {}",
            e["encoding"].as_str().unwrap_or(""),
            e["line_ending"].as_str().unwrap_or("")
        ));
    }
    format!("{path}: {}", parts.join(", "))
}
