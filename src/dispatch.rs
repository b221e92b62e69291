//! One tool call, from a name and a JSON input to an envelope: the path every entry point takes
//! (the CLI, `call`, `batch`, `mcp`), so none of them has special cases per tool. The catalog's
//! policy (SPEC 19) is applied here, once: which names exist, their limits and their hooks.

use crate::catalog::Admission;
use crate::catalog::{COMMAND_TOOL, Exposure, Policy, READ_ONLY_CALLS, hooks, limits};
use crate::context::{CallPolicy, Ctx, Globals};
use crate::control::Control;
use crate::dialects::{self, Alias};
use crate::envelope::Envelope;
use crate::error::{Result, ToolError};
use crate::tool::{DynTool, Effect};
use crate::tools;
use serde_json::Value;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

/// A name as a caller may give it (ours, another agent's, a catalog key), with what the
/// catalog says about it.
#[derive(Clone)]
pub struct Resolved {
    pub tool: &'static dyn DynTool,
    pub alias: Option<&'static Alias>,
    /// The name called and its catalog entry.
    pub exposure: Exposure,
}

/// The registry's view of a name, without a catalog: ours or an alias.
fn registry(name: &str) -> Option<(&'static dyn DynTool, Option<&'static Alias>)> {
    if let Some(tool) = tools::find(name) {
        return Some((tool, None));
    }
    let alias = dialects::find(name)?;
    Some((tools::find(alias.tool)?, Some(alias)))
}

/// What `name` runs under `policy`, or why it does not: `unknown_tool` (exists nowhere) or
/// `tool_disabled` (exists, not offered). Every entry point asks this (SPEC 19.2).
pub fn find(policy: &Policy, name: &str) -> Result<Resolved> {
    let exposure = policy.admit(name)?;
    Ok(resolved(exposure))
}

fn resolved(exposure: Exposure) -> Resolved {
    if exposure.tool == COMMAND_TOOL {
        return Resolved {
            tool: &tools::command::Command,
            alias: None,
            exposure,
        };
    }
    let (tool, alias) = registry(&exposure.name)
        .or_else(|| registry(exposure.tool))
        .expect("the policy admits only names the registry knows");
    Resolved {
        tool,
        alias,
        exposure,
    }
}

/// What a model is offered, in order: `schema` and `tools/list` list exactly these.
pub fn offered(policy: &Policy) -> Vec<Resolved> {
    policy.exposed().iter().cloned().map(resolved).collect()
}

/// A name as it stands without the catalog (the CLI's `session show` and `catalog`, which a
/// harness may always use from the command line: SPEC 24.3).
pub fn unrestricted(name: &str) -> Option<Resolved> {
    let (tool, alias) = registry(name)?;
    Some(Resolved {
        tool,
        alias,
        exposure: Exposure {
            name: name.to_string(),
            tool: tool.name(),
            entry: None,
        },
    })
}

impl Resolved {
    /// The name the model calls.
    pub fn name(&self) -> &str {
        &self.exposure.name
    }

    /// The name the envelope carries: the tool that ran (a command tool's own name).
    fn shown_name(&self, ran: &'static dyn DynTool) -> &str {
        if ran.name() == COMMAND_TOOL {
            &self.exposure.name
        } else {
            ran.name()
        }
    }

    /// The description a model reads: the catalog's, else the tool's own.
    pub fn description(&self) -> String {
        let entry = self.exposure.entry.as_ref();
        if let Some(d) = entry.and_then(|e| e.description.clone()) {
            return d;
        }
        if self.tool.name() == COMMAND_TOOL {
            return tools::command::describe(&self.exposure.name, entry);
        }
        if let Some(d) = self.alias.and_then(|a| a.description) {
            return d.to_string();
        }
        self.tool.description().to_string()
    }

    /// The input in our own terms, the warnings the translation gave, and the agent's alias
    /// that took it (where agents share a name, the input's fields decide: 24.7).
    pub fn translate(&self, input: Value) -> Result<(Value, Vec<String>, Option<&'static Alias>)> {
        match self.alias {
            Some(a) => a
                .translate(input)
                .map(|t| (t.input, t.warnings, Some(t.alias))),
            None => Ok((input, vec![], None)),
        }
    }

    /// Whether this call only looks; a call that does not parse counts as a writer.
    pub fn is_read_only(&self, input: &Value) -> bool {
        match self.translate(input.clone()) {
            Ok((_, _, Some(a))) if a.declared_effect().is_some() => {
                a.declared_effect() == Some(Effect::Reads)
            }
            Ok((v, _, _)) => self.tool.is_read_only(&v),
            Err(_) => false,
        }
    }

    /// What this call does, for mcp's order (SPEC 24.7); a call that does not parse changes
    /// files (it fails at once, and nothing waits long behind it).
    pub fn effect(&self, input: &Value) -> Effect {
        match self.translate(input.clone()) {
            Ok((_, _, Some(a))) if a.declared_effect().is_some() => {
                a.declared_effect().unwrap_or(Effect::ChangesFiles)
            }
            Ok((v, _, _)) => self.tool.effect(&v),
            Err(_) => Effect::ChangesFiles,
        }
    }

    /// Runs the call under `g` and wraps the result in its envelope.
    pub fn run(&self, g: &Globals, input: Value) -> Envelope {
        self.run_with(g, input, Arc::new(Control::new()))
    }

    /// As `run`, with the caller holding the call's cancellation and progress. A panic inside
    /// the tool answers this call `internal_error` and nothing else (SPEC 23.1): its locks are
    /// released as the stack unwinds, and the process goes on serving.
    ///
    /// The catalog wraps the call here, whatever the entry point: its limits, the pre hooks
    /// before (which may block it), the output cap and the post hooks after a success.
    pub fn run_with(&self, g: &Globals, input: Value, control: Arc<Control>) -> Envelope {
        let mut ctx = match Ctx::with_control(g, control) {
            Ok(c) => c,
            Err(e) => return Envelope::failure(self.shown_name(self.tool), e, &[]),
        };
        let hooked = hooks::any(&g.policy);
        let given = hooked.then(|| input.clone());
        let mut ran = self.tool;
        let mut used = None;
        let result = catch_unwind(AssertUnwindSafe(|| {
            self.call(&mut ctx, input, given.as_ref(), &mut ran, &mut used)
        }))
        .unwrap_or_else(|payload| Err(panicked(payload.as_ref())));
        let warnings = ctx.take_warnings();
        let name = self.shown_name(ran).to_string();
        let mut env = match result {
            Ok(success) => Envelope::success(&name, success, &warnings),
            Err(e) => Envelope::failure(&name, e, &warnings),
        };
        if let Some(max) = self
            .exposure
            .entry
            .as_ref()
            .and_then(|e| e.max_output_bytes)
        {
            limits::cap_output(&mut env, max);
        }
        if env.ok
            && let (Some(given), Some(_)) = (&given, &used)
        {
            hooks::post(&ctx, self.name(), ran.name(), given, &mut env);
        }
        env
    }

    fn call(
        &self,
        ctx: &mut Ctx,
        input: Value,
        given: Option<&Value>,
        ran: &mut &'static dyn DynTool,
        used: &mut Option<()>,
    ) -> Result<crate::envelope::Success> {
        let (mut input, warnings, alias) = self.translate(input)?;
        warnings.into_iter().for_each(|w| ctx.warn(w));
        let effect = self.tool.effect(&input);
        if ctx.policy.read_only()
            && READ_ONLY_CALLS.contains(&self.tool.name())
            && effect != Effect::Reads
        {
            return Err(ctx.policy.read_only_refusal(self.name()));
        }
        let entry = self.exposure.entry.clone().unwrap_or_default();
        limits::prepare(
            &entry,
            self.tool.name(),
            self.tool.input_schema(),
            &mut input,
            &ctx.control,
        );
        if let Some(left) = ctx.control.remaining() {
            ctx.lock_wait = ctx.lock_wait.min(left);
        }
        ctx.call = CallPolicy {
            name: self.name().to_string(),
            entry: self.exposure.entry.clone(),
            changes_files: effect == Effect::ChangesFiles,
        };
        // A call that is another of our tools runs as that tool: offered by the catalog, its
        // hooks, its envelope (24.7).
        let route = match alias {
            Some(a) => a.routed(ctx, &input)?,
            None => None,
        };
        let routed = route.is_some();
        if let Some((tool, routed_input)) = route {
            ctx.policy.admit(tool)?;
            *ran = tools::find(tool).expect("a route names a registered tool");
            input = routed_input;
        }
        if let Some(given) = given {
            hooks::pre(ctx, self.name(), ran.name(), given)?;
        }
        let result = match alias.filter(|a| a.has_call() && !routed) {
            // The agent's tool is more than one call of ours, or needs the session.
            Some(a) => {
                let mut name = a.tool;
                let result = a.run(ctx, input, &mut name);
                *ran = tools::find(name).unwrap_or(*ran);
                result
            }
            None => ran.call(ctx, input),
        };
        *used = Some(());
        limits::settle(result, &entry, ran.name(), &ctx.control)
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
