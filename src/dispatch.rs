//! One tool call, from a name and a JSON input to an envelope: the path every entry point takes
//! (the CLI, `call`, `batch`, `mcp`), so none of them has special cases per tool.

use crate::aliases::{self, Alias};
use crate::context::{Ctx, Globals};
use crate::envelope::Envelope;
use crate::error::{Code, Result, ToolError};
use crate::tool::DynTool;
use crate::tools;
use serde_json::Value;

/// A name as a caller may give it: ours, or another agent's.
#[derive(Clone, Copy)]
pub struct Resolved {
    pub tool: &'static dyn DynTool,
    pub alias: Option<&'static Alias>,
}

pub fn lookup(name: &str) -> Option<Resolved> {
    if let Some(tool) = tools::find(name) {
        return Some(Resolved { tool, alias: None });
    }
    let alias = aliases::find(name)?;
    Some(Resolved {
        tool: tools::find(alias.tool)?,
        alias: Some(alias),
    })
}

pub fn unknown_tool(name: &str) -> ToolError {
    let names: Vec<&str> = tools::TOOLS.iter().map(|t| t.name()).collect();
    ToolError::new(
        Code::UnknownTool,
        format!("unknown tool `{name}`; the tools are: {}", names.join(", ")),
    )
    .hint("Use one of the listed names (`loopr-tool schema` describes them).")
}

impl Resolved {
    /// The input in our own terms, and the warnings the translation gave.
    pub fn translate(&self, input: Value) -> Result<(Value, Vec<String>)> {
        match self.alias {
            Some(a) => a.translate(input),
            None => Ok((input, vec![])),
        }
    }

    /// Whether this call only looks; a call that does not parse counts as a writer.
    pub fn is_read_only(&self, input: &Value) -> bool {
        self.translate(input.clone())
            .is_ok_and(|(v, _)| self.tool.is_read_only(&v))
    }

    /// Runs the call under `g` and wraps the result in its envelope.
    pub fn run(&self, g: &Globals, input: Value) -> Envelope {
        let ctx = match Ctx::new(g) {
            Ok(c) => c,
            Err(e) => return Envelope::failure(self.tool.name(), e, &[]),
        };
        let mut ran = self.tool;
        let result = self.translate(input).and_then(|(input, warnings)| {
            warnings.into_iter().for_each(|w| ctx.warn(w));
            let input = match self.claude_edit_creates(&ctx, &input) {
                Some((write, input)) => {
                    ran = write;
                    input
                }
                None => input,
            };
            if std::env::var_os("LOOPR_DEBUG_PANIC").is_some() {
                panic!("LOOPR_DEBUG_PANIC is set: panicking on purpose to test the panic envelope");
            }
            ran.call(&ctx, input)
        });
        let warnings = ctx.take_warnings();
        match result {
            Ok(success) => Envelope::success(ran.name(), success, &warnings),
            Err(e) => Envelope::failure(ran.name(), e, &warnings),
        }
    }

    /// Claude Code's Edit with an empty `old_string` on a missing file writes it (SPEC 16.10).
    fn claude_edit_creates(
        &self,
        ctx: &Ctx,
        input: &Value,
    ) -> Option<(&'static dyn DynTool, Value)> {
        let alias = self.alias?;
        if !matches!(alias.name, "Edit" | "edit_file") || input.get("old_string")? != "" {
            return None;
        }
        let path = input
            .get("path")
            .or_else(|| input.get("file_path"))?
            .as_str()?;
        let target = crate::sandbox::resolve(ctx, "path", path).ok()?;
        if target.real.symlink_metadata().is_ok() {
            return None; // an existing file: edit refuses the empty old_string itself
        }
        let content = input
            .get("new_string")
            .cloned()
            .unwrap_or(Value::String(String::new()));
        Some((
            tools::find("write")?,
            serde_json::json!({"path": path, "content": content}),
        ))
    }
}
