//! One tool call, from a name and a JSON input to an envelope: the path every entry point takes
//! (the CLI, `call`, `batch`, `mcp`), so none of them has special cases per tool. The catalog's
//! policy (SPEC 19) is applied here, once: which names exist, their limits and their hooks.

use crate::catalog::Admission;
use crate::catalog::upstream::{self, UPSTREAM_TOOL};
use crate::catalog::{
    COMMAND_TOOL, Exposure, HARNESS_TOOLS, Policy, READ_ONLY_CALLS, hooks, limits, permit,
};
use crate::context::{CallPolicy, Ctx, Globals};
use crate::control::Control;
use crate::dialects::{self, Alias};
use crate::envelope::Envelope;
use crate::error::{Result, ToolError};
use crate::tool::{DynTool, Effect, Parsed};
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
    /// The alias's meaning holds whatever the call's fields (a catalog key pinned it: 25.6).
    pub pinned: bool,
    /// The name called and its catalog entry.
    pub exposure: Exposure,
}

/// The registry's view of a name, without a catalog: ours, an alias, or (under `policy`) a tool
/// registered through the library.
fn registry(
    policy: Option<&Policy>,
    name: &str,
) -> Option<(&'static dyn DynTool, Option<&'static Alias>)> {
    let extra = || tools::registered(policy?.extra.find(name)?.id);
    if let Some(tool) = tools::find(name).or_else(extra) {
        return Some((tool, None));
    }
    let alias = dialects::find(name)?;
    Some((tools::find(alias.tool)?, Some(alias)))
}

/// Fields a client adds to every tool's schema for its own use, accepted and ignored on every
/// entry point (SPEC 31.1): Gemini CLI adds `wait_for_previous` to each MCP tool, tells the
/// model to set it and forwards it. No warning: the model did what its client asked.
const CLIENT_FIELDS: &[&str] = &["wait_for_previous"];

fn without_client_fields(mut input: Value) -> Value {
    if let Some(fields) = input.as_object_mut() {
        for f in CLIENT_FIELDS {
            fields.remove(*f);
        }
    }
    input
}

/// What `name` runs under `policy`, or why it does not: `unknown_tool` (exists nowhere) or
/// `tool_disabled` (exists, not offered). Every entry point asks this (SPEC 19.2).
pub fn find(policy: &Policy, name: &str) -> Result<Resolved> {
    let exposure = policy.admit(name)?;
    Ok(resolved(policy, exposure))
}

fn resolved(policy: &Policy, exposure: Exposure) -> Resolved {
    if exposure.tool == UPSTREAM_TOOL {
        return Resolved {
            tool: &upstream::UPSTREAM,
            alias: None,
            pinned: false,
            exposure,
        };
    }
    if exposure.tool == COMMAND_TOOL {
        return Resolved {
            tool: &tools::command::Command,
            alias: None,
            pinned: false,
            exposure,
        };
    }
    let (tool, alias) = registry(Some(policy), &exposure.name)
        .or_else(|| registry(Some(policy), exposure.tool))
        .expect("the policy admits only names the registry knows");
    let pin = key_pin(&exposure).filter(|a| a.tool == tool.name());
    Resolved {
        tool,
        alias: pin.or(alias),
        pinned: pin.is_some(),
        exposure,
    }
}

/// The alias a catalog key of this very name pins (SPEC 25.6): its `dialect`'s, else the
/// seeds' for a name the seeds use. A name called beside a key (an alias of a keyed tool) and
/// a call without a catalog keep 24.7's rule: the fields decide.
fn key_pin(exposure: &Exposure) -> Option<&'static Alias> {
    let entry = exposure
        .entry
        .as_ref()
        .filter(|e| e.name == exposure.name)?;
    dialects::pinned(&exposure.name, entry.dialect.as_deref())
}

/// What a model is offered, in order: `schema` and `tools/list` list exactly these.
pub fn offered(policy: &Policy) -> Vec<Resolved> {
    policy
        .exposed()
        .iter()
        .cloned()
        .map(|e| resolved(policy, e))
        .collect()
}

/// What a model is offered with the catalog's upstream MCP servers' tools after ours (SPEC
/// 27.3): each server is asked for its tools (started with cwd `root`; the list kept in the
/// state dir `state` for 10 minutes); one that will not start is said on stderr and left out,
/// and the other tools go on.
pub fn offered_with_upstream(
    policy: &Policy,
    root: &std::path::Path,
    state: Option<&std::path::Path>,
) -> Vec<Resolved> {
    let mut all = offered(policy);
    for server in &policy.catalog.mcp_servers {
        let listed = match upstream::tools_of(server, root, state) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("loopr-tool: {}", e.message);
                continue;
            }
        };
        for t in listed {
            if let Ok(exposure) = policy.admit(&t.offered) {
                all.push(resolved(policy, exposure));
            }
        }
    }
    all
}

/// A name as it stands without the catalog (the CLI's `session show` and `catalog`, which a
/// harness may always use from the command line: SPEC 24.3).
pub fn unrestricted(name: &str) -> Option<Resolved> {
    let (tool, alias) = registry(None, name)?;
    Some(Resolved {
        tool,
        alias,
        pinned: false,
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
        if ran.name() == COMMAND_TOOL || ran.name() == UPSTREAM_TOOL {
            &self.exposure.name
        } else {
            ran.name()
        }
    }

    /// The upstream tool this name calls, as its server listed it (SPEC 27.2).
    pub fn upstream(&self) -> Option<upstream::Listed> {
        (self.tool.name() == UPSTREAM_TOOL)
            .then(|| upstream::listed(&self.exposure.name))
            .flatten()
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
        if let Some(t) = self.upstream() {
            return t.description;
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
                .translate(input, self.pinned)
                .map(|t| (t.input, t.warnings, Some(t.alias))),
            None => Ok((input, vec![], None)),
        }
    }

    /// Makes the call's input ready once (see `Prepared`); `policy` says whether hooks or the
    /// permission rules want the input as given.
    pub fn prepare(self, policy: &Policy, input: Value) -> Prepared {
        self.prepare_hooked(hooks::any(policy) || permit::active(policy), input)
    }

    fn prepare_hooked(self, watched: bool, input: Value) -> Prepared {
        let input = without_client_fields(input);
        let given = watched.then(|| input.clone());
        // An alias's translation is our code on the caller's input: a bug there answers this
        // call alone, as a bug in the tool does (SPEC 23.1).
        let ready = catch_unwind(AssertUnwindSafe(|| self.ready(input, watched)))
            .unwrap_or_else(|payload| Err(panicked(payload.as_ref())));
        Prepared {
            resolved: self,
            given,
            ready,
            approval: None,
        }
    }

    /// `watched`: the translated input is kept for the permission rules (SPEC 29).
    fn ready(&self, input: Value, watched: bool) -> Result<Ready> {
        let (mut input, warnings, alias) = self.translate(input)?;
        if let Some(entry) = &self.exposure.entry {
            limits::fill_defaults(entry, self.tool.input_schema(), &mut input);
        }
        // Routes and calls of their own read the JSON, not the tool's parse.
        let kept = alias
            .filter(|a| a.has_route() || a.has_call())
            .map(|_| input.clone());
        let json = watched.then(|| input.clone());
        Ok(Ready {
            warnings,
            alias,
            input: kept,
            json,
            parsed: self.tool.parse(input),
        })
    }

    /// Whether this call only looks; a call that does not parse counts as a writer (for tests:
    /// a caller that runs the call asks its `Prepared`).
    #[cfg(test)]
    pub fn is_read_only(&self, input: &Value) -> bool {
        self.clone()
            .prepare_hooked(false, input.clone())
            .is_read_only()
    }

    /// What this call does (for tests, as `is_read_only`).
    #[cfg(test)]
    pub fn effect(&self, input: &Value) -> Effect {
        self.clone().prepare_hooked(false, input.clone()).effect()
    }
}

/// A call's input made ready once (SPEC 30.2: each input is parsed once on every path):
/// translated from an agent's dialect, given the catalog's defaults, and parsed into the tool's
/// own type. What a scheduler asks of the call (`effect`, `is_read_only`: batch and mcp ask on
/// the thread that reads the calls) and what runs it come from that one parse.
pub struct Prepared {
    resolved: Resolved,
    /// The input as the caller gave it, for the hooks (only when the catalog has hooks).
    given: Option<Value>,
    /// Its translation's failure is the call's answer.
    ready: Result<Ready>,
    /// The approval it runs under (`approval` in `call`, SPEC 29); else `--approve`.
    approval: Option<String>,
}

struct Ready {
    warnings: Vec<String>,
    /// The agent's alias that took the input.
    alias: Option<&'static Alias>,
    /// The translated input, kept only for an alias that routes or runs a call of its own.
    input: Option<Value>,
    /// The translated input, kept for the permission rules when the catalog has some.
    json: Option<Value>,
    /// The tool's parse of the translated input. A parse error is answered where the tool would
    /// run: after the catalog's refusals, routing and the pre hooks, as before it was kept.
    parsed: Result<Parsed>,
}

impl Prepared {
    /// The approval this call runs under (SPEC 29: `approval` in `call`, each element's own
    /// in `batch`).
    pub fn with_approval(mut self, approval: Option<String>) -> Prepared {
        if approval.is_some() {
            self.approval = approval;
        }
        self
    }

    /// Whether this call only looks; a call that does not parse counts as a writer.
    pub fn is_read_only(&self) -> bool {
        match &self.ready {
            Ok(Ready { alias: Some(a), .. }) if a.declared_effect().is_some() => {
                a.declared_effect() == Some(Effect::Reads)
            }
            Ok(r) => r.parsed.as_ref().is_ok_and(|p| p.read_only),
            Err(_) => false,
        }
    }

    /// What this call does, for mcp's order (SPEC 24.7); a call that does not parse changes
    /// files (it fails at once, and nothing waits long behind it).
    pub fn effect(&self) -> Effect {
        match &self.ready {
            Ok(Ready { alias: Some(a), .. }) if a.declared_effect().is_some() => {
                a.declared_effect().unwrap_or(Effect::ChangesFiles)
            }
            Ok(r) => r.parsed.as_ref().map_or(Effect::ChangesFiles, |p| p.effect),
            Err(_) => Effect::ChangesFiles,
        }
    }

    /// Runs the call under `g` and wraps the result in its envelope.
    pub fn run(self, g: &Globals) -> Envelope {
        self.run_with(g, Arc::new(Control::new()))
    }

    /// As `run`, with the caller holding the call's cancellation and progress. A panic inside
    /// the tool answers this call `internal_error` and nothing else (SPEC 23.1): its locks are
    /// released as the stack unwinds, and the process goes on serving.
    ///
    /// The catalog wraps the call here, whatever the entry point: its limits, the pre hooks
    /// before (which may block it), the output cap and the post hooks after a success.
    pub fn run_with(self, g: &Globals, control: Arc<Control>) -> Envelope {
        let Prepared {
            resolved: r,
            given,
            ready,
            approval,
        } = self;
        let mut ctx = match Ctx::with_control(g, control) {
            Ok(c) => c,
            Err(e) => return Envelope::failure(r.shown_name(r.tool), e, &[]),
        };
        let approval = approval.or_else(|| g.approve.clone());
        let mut trace = Trace {
            ran: r.tool,
            used: None,
            context: vec![],
            started: false,
        };
        let result = catch_unwind(AssertUnwindSafe(|| {
            r.call(
                &mut ctx,
                ready,
                given.as_ref(),
                approval.as_deref(),
                &mut trace,
            )
        }))
        .unwrap_or_else(|payload| Err(panicked(payload.as_ref())));
        let warnings = ctx.take_warnings();
        let name = r.shown_name(trace.ran).to_string();
        let mut env = match result {
            Ok(success) => Envelope::success(&name, success, &warnings),
            Err(mut e) => {
                if let Some(alias) = r.alias() {
                    dialects::speak_as(alias, &mut e);
                }
                Envelope::failure(&name, e, &warnings)
            }
        };
        if let Some(max) = r.exposure.entry.as_ref().and_then(|e| e.max_output_bytes) {
            limits::cap_output(&mut env, max);
        }
        hooks::add_context(&mut env, &trace.context);
        if let (Some(given), Some(tools)) = (&given, &trace.used) {
            if env.ok {
                hooks::post(&ctx, r.name(), tools, given, &mut env);
            } else if trace.started {
                hooks::post_failure(&ctx, r.name(), tools, given, &mut env);
            }
        }
        // The client's own cut would take the middle, our paging line with it (SPEC 31.1):
        // tools that page size themselves to it; anything still over (hooks' context too) is
        // cut here, whole lines.
        if let Some(max) = ctx.result_chars {
            limits::cap_chars(&mut env, max, client_name(g));
        }
        env
    }
}

/// The client as a trailer names it: the agent, or the catalog's `[client]` setting.
fn client_name(g: &Globals) -> &'static str {
    match g.client {
        Some(c) if g.policy.catalog.client.max_result_chars.is_none() => c.name,
        _ => "the catalog's [client] (max_result_chars)",
    }
}

/// What happened on the way through `Resolved::call`, for what follows it.
struct Trace {
    /// The tool that ran (a route or an agent's call may run another).
    ran: &'static dyn DynTool,
    /// The tools whose hooks apply, once decided.
    used: Option<Vec<&'static str>>,
    /// The pre hooks' `additionalContext`.
    context: Vec<String>,
    /// The tool was started (the rules and hooks let it through).
    started: bool,
}

impl Resolved {
    /// The other agent's tool this call was made under, if it was (a catalog key's `dialect`
    /// pins the agent, 25.6).
    fn alias(&self) -> Option<&'static dialects::Alias> {
        let dialect = self
            .exposure
            .entry
            .as_ref()
            .and_then(|e| e.dialect.as_deref());
        let name = self.name();
        dialects::pinned(name, dialect)
            .or_else(|| dialects::find(name))
            .filter(|a| a.name != a.tool)
    }

    fn call(
        &self,
        ctx: &mut Ctx,
        ready: Result<Ready>,
        given: Option<&Value>,
        approval: Option<&str>,
        trace: &mut Trace,
    ) -> Result<crate::envelope::Success> {
        let Ready {
            warnings,
            alias,
            mut input,
            json,
            mut parsed,
        } = ready?;
        warnings.into_iter().for_each(|w| ctx.warn(w));
        // Validation comes first (SPEC 29): a call that does not parse is answered before the
        // rules, the mode and the hooks see it.
        let plain = !alias.is_some_and(|a| a.has_route() || a.has_call());
        if plain && let Err(e) = &parsed {
            return Err(e.clone());
        }
        let effect = parsed.as_ref().map_or(Effect::ChangesFiles, |p| p.effect);
        if ctx.policy.read_only()
            && READ_ONLY_CALLS.contains(&self.tool.name())
            && effect != Effect::Reads
        {
            return Err(ctx.policy.read_only_refusal(self.name()));
        }
        let entry = self.exposure.entry.clone().unwrap_or_default();
        limits::start(&entry, self.tool.name(), &ctx.control);
        if let Some(left) = ctx.control.remaining() {
            ctx.lock_wait = ctx.lock_wait.min(left);
        }
        ctx.call = CallPolicy {
            name: self.name().to_string(),
            entry: self.exposure.entry.clone(),
            changes_files: effect == Effect::ChangesFiles,
            namer: Some(dialects::named),
            dialect: alias.map(|a| a.agent.word()),
        };
        let mut plan = self.plan(ctx, alias, input.as_ref())?;
        if let Some(given) = given {
            let gate = Gate {
                given,
                approval,
                alias,
                plain,
                judged: alias.and_then(|a| a.declared_effect()).unwrap_or(effect),
                fixed: entry.command.as_deref(),
            };
            if let Some(again) = self.gate(ctx, &gate, &mut plan, json.as_ref(), trace)? {
                (input, parsed) = (again.input, again.parsed);
            }
        }
        let Plan {
            routed,
            own_call,
            runs,
        } = plan;
        trace.started = true;
        let result = match (routed, own_call, input) {
            // Routed: another tool, another input, parsed by that tool.
            (Some((tool, routed)), _, _) => {
                trace.ran = tools::find(tool).expect("a route names a registered tool");
                trace.ran.call(ctx, routed)
            }
            // The agent's tool is more than one call of ours, or needs the session.
            (None, Some(a), Some(input)) => {
                let mut name = a.tool;
                let result = a.run(ctx, input, &mut name);
                trace.ran = tools::find(name).unwrap_or(trace.ran);
                result
            }
            _ => parsed.and_then(|p| trace.ran.run_parsed(ctx, p)),
        };
        trace.used = Some(runs);
        limits::settle(result, &entry, trace.ran.name(), &ctx.control)
    }

    /// The permission step, then the pre hooks (SPEC 29): the rules and the mode decide (a
    /// call that needs approval runs only under one), and the pre hooks see only a call they
    /// let through. A hook's `ask` needs an approval too; its `updatedInput` is made ready and
    /// validated again, and returned (a deny rule still holds it).
    fn gate(
        &self,
        ctx: &mut Ctx,
        gate: &Gate,
        plan: &mut Plan,
        json: Option<&Value>,
        trace: &mut Trace,
    ) -> Result<Option<Ready>> {
        let called = self.name();
        // The harness's own `permissions` calls are how it answers the person's decisions:
        // a mode that asks must not ask about them.
        let gated = !HARNESS_TOOLS.contains(&self.tool.name());
        let approved = gated
            && permit::active(&ctx.policy)
            && permit::check(ctx, &plan.seen(called, json, gate), gate.approval)?;
        let said = hooks::pre(ctx, called, &plan.runs, gate.given)?;
        if let Some(why) = &said.ask
            && !approved
        {
            permit::hook_asks(ctx, &plan.seen(called, json, gate), gate.approval, why)?;
        }
        trace.context = said.context;
        let Some(updated) = said.updated_input else {
            return Ok(None);
        };
        let again = self.ready(updated.clone(), true)?;
        if gate.plain
            && let Err(e) = &again.parsed
        {
            return Err(e.clone());
        }
        *plan = self.plan(ctx, gate.alias, again.input.as_ref())?;
        let now = Gate {
            given: &updated,
            ..*gate
        };
        permit::recheck(ctx, &plan.seen(called, again.json.as_ref(), &now))?;
        Ok(Some(again))
    }

    /// Where the call goes: another of our tools (an alias's route, offered by the catalog),
    /// an agent's call of its own, and the tools whose hooks apply (SPEC 24.7, 31.4), decided
    /// before anything runs.
    fn plan(
        &self,
        ctx: &Ctx,
        alias: Option<&'static Alias>,
        input: Option<&Value>,
    ) -> Result<Plan> {
        let routed = match (alias, input) {
            (Some(a), Some(input)) => a.routed(ctx, input)?,
            _ => None,
        };
        if let Some((tool, _)) = &routed
            && !ctx.harness
        {
            ctx.policy.admit(tool)?;
        }
        let own_call = alias.filter(|a| a.has_call() && routed.is_none());
        let runs = match (own_call, input, &routed) {
            (_, _, Some((tool, _))) => vec![*tool],
            (Some(a), Some(input), None) => a.tools_run(ctx, input),
            // An upstream tool is known to the hooks by the name called (27.3).
            _ if self.tool.name() == UPSTREAM_TOOL => vec![],
            _ => vec![self.tool.name()],
        };
        Ok(Plan {
            routed,
            own_call,
            runs,
        })
    }
}

/// What the permission step and the pre hooks know of a call.
#[derive(Clone, Copy)]
struct Gate<'a> {
    /// The input as the caller gave it.
    given: &'a Value,
    approval: Option<&'a str>,
    alias: Option<&'static Alias>,
    /// Not an alias that routes or makes a call of its own: the tool's parse validates it.
    plain: bool,
    /// What the call does, as the rules judge it.
    judged: Effect,
    /// A command tool's fixed command.
    fixed: Option<&'a str>,
}

/// Where a call goes, decided before it runs.
struct Plan {
    routed: Option<(&'static str, Value)>,
    own_call: Option<&'static Alias>,
    runs: Vec<&'static str>,
}

impl Plan {
    /// The call as the permission step sees it.
    fn seen<'a>(
        &'a self,
        called: &'a str,
        json: Option<&'a Value>,
        gate: &Gate<'a>,
    ) -> permit::Call<'a> {
        permit::Call {
            called,
            runs: &self.runs,
            input: self.routed.as_ref().map(|(_, v)| v).or(json),
            given: gate.given,
            effect: gate.judged,
            fixed_command: gate.fixed,
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::Format;
    use crate::tool::PARSES;
    use serde_json::json;

    /// One input, one parse (SPEC 30.2): the scheduler's questions (`effect`, `is_read_only`)
    /// and the run share it. Before `Prepared` the run alone parsed twice (its effect, then the
    /// tool's input), so a CLI call parsed 2 times and a `batch` or `mcp` call 3 (the
    /// scheduler's question first); what this test does parsed 4.
    #[test]
    fn a_call_parses_its_input_once() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "one\n").unwrap();
        let g = Globals {
            root: Some(dir.path().to_path_buf()),
            session: None,
            state_dir: Some(dir.path().join(".state")),
            no_sandbox: false,
            no_read_check: false,
            allow_private: false,
            allow_dangerous: false,
            run_sandbox: None,
            format: Format::Json,
            pretty: false,
            policy: Default::default(),
            hub: None,
            harness: false,
            client: None,
            approve: None,
        };
        for name in ["read", "Read"] {
            PARSES.with(|n| n.set(0));
            let call = unrestricted(name)
                .unwrap()
                .prepare(&g.policy, json!({"file_path": "a.txt"}));
            assert_eq!(call.effect(), Effect::Reads);
            assert!(call.is_read_only());
            let env = call.run(&g);
            assert!(env.ok, "{}", env.output);
            assert_eq!(PARSES.with(|n| n.get()), 1, "{name}");
        }
    }
}
