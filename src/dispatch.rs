//! One tool call, from a name and a JSON input to an envelope: the path every entry point takes
//! (the CLI, `call`, `batch`, `mcp`), so none of them has special cases per tool.

use crate::aliases::{self, Alias};
use crate::context::{Ctx, Globals};
use crate::control::Control;
use crate::envelope::Envelope;
use crate::error::{Code, Result, ToolError};
use crate::tool::{DynTool, Effect};
use crate::tools;
use serde_json::Value;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

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

    /// What this call does, for mcp's order (SPEC 24.7); a call that does not parse changes
    /// files (it fails at once, and nothing waits long behind it).
    pub fn effect(&self, input: &Value) -> Effect {
        self.translate(input.clone())
            .map_or(Effect::ChangesFiles, |(v, _)| self.tool.effect(&v))
    }

    /// Runs the call under `g` and wraps the result in its envelope.
    pub fn run(&self, g: &Globals, input: Value) -> Envelope {
        self.run_with(g, input, Arc::new(Control::new()))
    }

    /// As `run`, with the caller holding the call's cancellation and progress. A panic inside
    /// the tool answers this call `internal_error` and nothing else (SPEC 23.1): its locks are
    /// released as the stack unwinds, and the process goes on serving.
    pub fn run_with(&self, g: &Globals, input: Value, control: Arc<Control>) -> Envelope {
        let ctx = match Ctx::with_control(g, control) {
            Ok(c) => c,
            Err(e) => return Envelope::failure(self.tool.name(), e, &[]),
        };
        let mut ran = self.tool;
        let result = catch_unwind(AssertUnwindSafe(|| self.call(&ctx, input, &mut ran)))
            .unwrap_or_else(|payload| Err(panicked(payload.as_ref())));
        let warnings = ctx.take_warnings();
        match result {
            Ok(success) => Envelope::success(ran.name(), success, &warnings),
            Err(e) => Envelope::failure(ran.name(), e, &warnings),
        }
    }

    fn call(
        &self,
        ctx: &Ctx,
        input: Value,
        ran: &mut &'static dyn DynTool,
    ) -> Result<crate::envelope::Success> {
        self.translate(input).and_then(|(input, warnings)| {
            warnings.into_iter().for_each(|w| ctx.warn(w));
            let input = match self.claude_edit_creates(ctx, &input) {
                Some((write, input)) => {
                    *ran = write;
                    input
                }
                None => input,
            };
            ran.call(ctx, input)
        })
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

/// The `internal_error` of a call that panicked, with the panic's own words.
fn panicked(payload: &(dyn std::any::Any + Send)) -> ToolError {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string());
    ToolError::internal(format!("loopr-tool hit a bug in this call and stopped it: {what}"))
        .hint("This is a bug in loopr-tool; please report it with the input that caused it. Other calls are not affected.")
}
