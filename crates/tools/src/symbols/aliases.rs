//! Other agents' code-intelligence tools answered by `symbols` (SPEC 26.2): seed 002's
//! `analyze_code` (classes, functions, imports of a file) and Claude Code's `LSP` operations
//! (by 1-based `line` and `character`: the identifier under the position is the name). The
//! dialect tables name them; the work is here, beside the tool.

use super::Symbols;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::fsx;
use crate::sandbox;
use crate::tool::Tool;
use loopr_syntax::tags::{self, Kind};
use loopr_syntax::{Lang, refs};
use serde_json::{Value, json};

fn run_symbols(ctx: &Ctx, input: Value) -> Result<Success> {
    Symbols::run(ctx, crate::tool::parse_input::<Symbols>(input)?)
}

/// seed 002's `analyze_code` {path}: the file's imports, classes and functions.
pub fn analyze_code(ctx: &Ctx, input: Value) -> Result<Success> {
    let Some(path) = input
        .get("path")
        .and_then(Value::as_str)
        .map(str::to_string)
    else {
        return Err(ToolError::invalid("path", "analyze_code needs `path`"));
    };
    if let Some(extra) = input
        .as_object()
        .and_then(|m| m.keys().find(|k| *k != "path"))
    {
        return Err(ToolError::invalid(
            extra,
            format!("analyze_code takes `path` only, not `{extra}`"),
        ));
    }
    let (shown, lang, src) = read_code(ctx, "path", &path)?;
    let tree = loopr_syntax::parse(lang, &src)
        .map_err(|s| ToolError::invalid("path", format!("{shown} is skipped: {}", s.reason())))?;
    let imports = tags::imports(lang, &tree, &src);
    let symbols = tags::symbols(lang, &tree, &src);
    let is_class = |k: Kind| {
        matches!(
            k,
            Kind::Class | Kind::Struct | Kind::Enum | Kind::Trait | Kind::Interface
        )
    };
    let is_function = |k: Kind| matches!(k, Kind::Function | Kind::Method);
    let entry = |s: &tags::Symbol| json!({"name": s.qualified(lang), "kind": s.kind.name(), "line": s.line, "end_line": s.end_line, "signature": s.signature});
    let classes: Vec<Value> = symbols
        .iter()
        .filter(|s| is_class(s.kind))
        .map(entry)
        .collect();
    let functions: Vec<Value> = symbols
        .iter()
        .filter(|s| is_function(s.kind))
        .map(entry)
        .collect();
    let mut out = format!("{shown} ({})\n", lang.name());
    let mut section = |title: &str, lines: Vec<String>| {
        out.push_str(&format!("{title} ({}):\n", lines.len()));
        for l in lines {
            out.push_str(&format!("  {l}\n"));
        }
    };
    section(
        "Imports",
        imports.iter().map(|(l, t)| format!("{l}: {t}")).collect(),
    );
    let show = |v: &Value| format!("{}: {}", v["line"], v["signature"].as_str().unwrap_or(""));
    section("Classes", classes.iter().map(show).collect());
    section("Functions", functions.iter().map(show).collect());
    let imports: Vec<Value> = imports
        .iter()
        .map(|(l, t)| json!({"line": l, "text": t}))
        .collect();
    Ok(Success::new(
        out,
        json!({"path": shown, "language": lang.name(), "imports": imports, "classes": classes, "functions": functions, "syntactic": true}),
    ))
}

/// A file of a language built in, read through the sandbox.
fn read_code(ctx: &Ctx, field: &str, given: &str) -> Result<(String, Lang, Vec<u8>)> {
    let r = sandbox::resolve(ctx, field, given)?;
    let src = fsx::read_resolved(&r).map_err(|e| ToolError::io(&e, &r.shown, "reading"))?;
    if src.len() as u64 > loopr_syntax::MAX_BYTES {
        return Err(ToolError::too_large(
            loopr_syntax::MAX_BYTES,
            format!("{} is over the 4 MiB that are parsed", r.shown),
        ));
    }
    let lang = Lang::detect(std::path::Path::new(&r.shown), &src).ok_or_else(|| {
        ToolError::invalid(
            field,
            format!(
                "{} is not in a language built in (rust, python, javascript, typescript, tsx, go, java, c, cpp)",
                r.shown
            ),
        )
    })?;
    Ok((r.shown, lang, src))
}

/// Claude Code's `LSP` {operation, filePath (here `path`), line, character}.
pub fn lsp(ctx: &Ctx, input: Value) -> Result<Success> {
    let op = input.get("operation").and_then(Value::as_str).unwrap_or("");
    let Some(path) = input.get("path").and_then(Value::as_str) else {
        return Err(ToolError::invalid("filePath", "LSP needs `filePath`"));
    };
    if op == "documentSymbol" {
        return run_symbols(ctx, json!({"path": path}));
    }
    let action = match op {
        "goToDefinition" | "workspaceSymbol" => "definition",
        "findReferences" => "references",
        other => {
            return Err(ToolError::invalid(
                "operation",
                format!(
                    "operation {other:?} is not answered from syntax trees; these are: documentSymbol, goToDefinition, findReferences, workspaceSymbol"
                ),
            ));
        }
    };
    let position = |f: &str| input.get(f).and_then(Value::as_u64).filter(|&n| n >= 1);
    let (Some(line), Some(character)) = (position("line"), position("character")) else {
        return Err(ToolError::invalid(
            "line",
            format!("{op} needs `line` and `character`, 1-based, at the identifier"),
        ));
    };
    let (shown, lang, src) = read_code(ctx, "filePath", path)?;
    let tree = loopr_syntax::parse(lang, &src).map_err(|s| {
        ToolError::invalid("filePath", format!("{shown} is skipped: {}", s.reason()))
    })?;
    let Some(name) = refs::at_position(&tree, &src, line as usize, character as usize) else {
        return Err(ToolError::new(
            crate::error::Code::NoMatch,
            format!("no identifier at line {line}, character {character} of {shown}"),
        )
        .hint("line and character are 1-based and must point into a name."));
    };
    let mut q = json!({"action": action, "name": name});
    if op != "workspaceSymbol" {
        q["path"] = json!(shown);
    }
    run_symbols(ctx, q)
}
