//! Other agents' tool names with their meaning (SPEC 14, 16.10, 22.4–22.7, 24.7), so a
//! harness built for Claude Code, Codex or Gemini CLI replays its model's calls unchanged
//! through the CLI, `call`, `batch` and `mcp`, and gets what that agent's tool would have done.
//!
//! An alias is data: the tool it stands for, field renames, fields it fixes, fields we accept
//! but cannot honour (each with the warning that says so), and — where the agent's meaning
//! differs from ours in ways a rename cannot say — an `adapt` rule on its input or a `call` of
//! its own (Claude Code's Bash keeps its directory; Codex's `exec_command` is a job and a wait).
//! One file per agent holds its table; this file holds the machinery. Unknown foreign fields
//! still fail: the translated input goes through the tool's own parser.

mod claude;
mod codex;
mod gemini;
mod seeds;

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use serde_json::{Map, Value};

/// Whose name it is: the README's tables are per agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// The design notes' seeds (catalog names of 000–003).
    Seeds,
    ClaudeCode,
    Codex,
    Gemini,
}

/// A rule of the agent's meaning on its input, before the renames: may rewrite fields and add
/// warnings.
pub type Adapt = fn(&mut Map<String, Value>, &mut Vec<String>) -> Result<()>;

/// A call of its own, with the translated input: for an agent's tool that is more than one of
/// ours, or that needs the session. `ran` starts as the alias's tool and names the tool that
/// ran when that differs (the envelope's `tool`).
pub type Call = fn(&Ctx, Value, &mut &'static str) -> Result<Success>;

/// A call that is another of our tools (Codex's shell carrying a patch, an Edit that creates its
/// file): that tool and its input, decided before anything runs, so the call goes under that
/// tool's catalog entry and hooks (24.7: they follow the tool that runs).
pub type Route = fn(&Ctx, &Map<String, Value>) -> Result<Option<(&'static str, Value)>>;

/// The tools a call of its own will run, decided before it runs: their pre hooks run before
/// it and their post hooks after (SPEC 31.4: MultiEdit creating a file runs write's). Without
/// one, the alias's tool.
pub type Runs = fn(&Ctx, &Value) -> Vec<&'static str>;

/// Whether an input is this agent's, where agents share a name (24.7).
pub type Claims = fn(&Map<String, Value>) -> bool;

pub struct Alias {
    pub name: &'static str,
    pub agent: Agent,
    pub tool: &'static str,
    /// Their field → ours.
    renames: &'static [(&'static str, &'static str)],
    /// Fields this alias always sets, as JSON text (a caller's own value for them is refused).
    fixed: &'static [(&'static str, &'static str)],
    /// Fields accepted and dropped, each with the warning given.
    ignored: &'static [(&'static str, &'static str)],
    /// Where agents share a name: whether this input is this agent's (24.7: the fields decide).
    /// The first alias of a name that claims the input wins; one without `claims` takes the rest.
    claims: Option<Claims>,
    adapt: Option<Adapt>,
    route: Option<Route>,
    call: Option<Call>,
    runs: Option<Runs>,
    /// What a call of its own does, for mcp's order and batch's parallel runs (24.7), where its
    /// input is not the tool's and the tool cannot say.
    effect: Option<crate::tool::Effect>,
    /// What a model reads under this name, where the tool's own description would mislead
    /// (the agent's fields and answers differ from the tool's); a catalog's still wins.
    pub description: Option<&'static str>,
}

impl Alias {
    pub const fn new(name: &'static str, agent: Agent, tool: &'static str) -> Alias {
        Alias {
            name,
            agent,
            tool,
            renames: &[],
            fixed: &[],
            ignored: &[],
            claims: None,
            adapt: None,
            route: None,
            call: None,
            runs: None,
            effect: None,
            description: None,
        }
    }
    pub const fn renames(mut self, r: &'static [(&'static str, &'static str)]) -> Alias {
        self.renames = r;
        self
    }
    pub const fn fixed(mut self, f: &'static [(&'static str, &'static str)]) -> Alias {
        self.fixed = f;
        self
    }
    pub const fn ignored(mut self, i: &'static [(&'static str, &'static str)]) -> Alias {
        self.ignored = i;
        self
    }
    pub const fn claims(mut self, c: Claims) -> Alias {
        self.claims = Some(c);
        self
    }
    pub const fn adapt(mut self, a: Adapt) -> Alias {
        self.adapt = Some(a);
        self
    }
    pub const fn route(mut self, r: Route) -> Alias {
        self.route = Some(r);
        self
    }
    pub const fn effect(mut self, e: crate::tool::Effect) -> Alias {
        self.effect = Some(e);
        self
    }
    pub const fn call(mut self, c: Call) -> Alias {
        self.call = Some(c);
        self
    }
    pub const fn runs(mut self, r: Runs) -> Alias {
        self.runs = Some(r);
        self
    }
    pub const fn description(mut self, d: &'static str) -> Alias {
        self.description = Some(d);
        self
    }
}

/// Every alias, each agent's table in turn (the seeds' first: where a name is shared and no
/// field decides, theirs wins, 22.7).
pub fn all() -> impl Iterator<Item = &'static Alias> {
    seeds::ALIASES
        .iter()
        .chain(claude::ALIASES)
        .chain(codex::ALIASES)
        .chain(gemini::ALIASES)
}

/// The first alias of that exact name whose tool is registered (the name's tool and schema).
pub fn find(name: &str) -> Option<&'static Alias> {
    all().find(|a| a.name == name && crate::tools::find(a.tool).is_some())
}

/// Which agent's alias of `name` this input is (24.7): the first that claims it, else the first
/// that claims nothing.
fn pick(name: &str, input: &Map<String, Value>) -> Option<&'static Alias> {
    let mut fallback = None;
    for a in all().filter(|a| a.name == name) {
        match a.claims {
            Some(c) if c(input) => return Some(a),
            None if fallback.is_none() => fallback = Some(a),
            _ => {}
        }
    }
    fallback
}

impl Agent {
    /// The agent a catalog's `dialect` names (SPEC 25.6).
    pub fn parse(dialect: &str) -> Option<Agent> {
        match dialect {
            "seed" => Some(Agent::Seeds),
            "claude" => Some(Agent::ClaudeCode),
            "codex" => Some(Agent::Codex),
            "gemini" => Some(Agent::Gemini),
            _ => None,
        }
    }

    /// The agent as a catalog's `dialect` names it.
    pub fn word(self) -> &'static str {
        match self {
            Agent::Seeds => "seed",
            Agent::ClaudeCode => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
        }
    }

    /// Who it is, for messages.
    pub fn shown(self) -> &'static str {
        match self {
            Agent::Seeds => "the seeds",
            Agent::ClaudeCode => "Claude Code",
            Agent::Codex => "Codex",
            Agent::Gemini => "Gemini CLI",
        }
    }
}

/// The alias `name` of `agent`, if that agent has one whose tool is registered.
pub fn find_of(name: &str, agent: Agent) -> Option<&'static Alias> {
    all().find(|a| a.name == name && a.agent == agent && crate::tools::find(a.tool).is_some())
}

/// How `tool` (with `action`) is offered to the model of a call that `dialect`'s alias took
/// (SPEC 25.5): among the names offered, that agent's own alias first, then our name, then
/// any other agent's; without catalog keys, the agent's alias of any tool offered. `None`:
/// not offered, so a hint must not name it.
pub fn named(
    policy: &crate::policy::Policy,
    dialect: Option<&str>,
    tool: &str,
    action: Option<&str>,
) -> Option<crate::offered::Named> {
    let agent = dialect.and_then(Agent::parse);
    let fits = |a: &Alias| a.tool == tool && action.is_none_or(|act| a.fixed_action() == Some(act));
    let rank = |a: &Alias| if Some(a.agent) == agent { 0 } else { 2 };
    let mut best: Option<(u8, crate::offered::Named)> = None;
    let mut consider = |r: u8, n: crate::offered::Named| {
        if best.as_ref().is_none_or(|(b, _)| r < *b) {
            best = Some((r, n));
        }
    };
    for e in policy.exposed().iter().filter(|e| e.tool == tool) {
        if e.name == tool {
            consider(1, crate::offered::Named::own(tool));
            continue;
        }
        let key = e.entry.as_ref().filter(|k| k.name == e.name);
        let alias = key
            .and_then(|k| pinned(&e.name, k.dialect.as_deref()))
            .or_else(|| find(&e.name));
        if let Some(a) = alias.filter(|a| fits(a)) {
            consider(rank(a), a.named());
        }
    }
    let keyed = policy.exposed().iter().any(|e| e.entry.is_some());
    if !keyed
        && policy.offers(tool)
        && let Some(a) = agent.and_then(|ag| all().find(|a| a.agent == ag && fits(a)))
    {
        consider(0, a.named());
    }
    best.map(|(_, n)| n)
}

/// How agents spell a path, where our tools take each spelling as `path` itself.
const PATH_SPELLINGS: &[&str] = &["file_path", "absolute_path", "notebook_path", "dir_path"];

impl Alias {
    /// The agent's name for `path`, where its schema spells it otherwise (Read's `file_path`).
    fn path_field(&self) -> Option<&'static str> {
        let props = table(self.agent)?.get(self.name)?.get("properties")?;
        if props.get("path").is_some() {
            return None;
        }
        PATH_SPELLINGS
            .iter()
            .copied()
            .find(|p| props.get(*p).is_some())
    }
}

/// Names whose line numbers count from 0 (22.7): a hint gives them so. (Claude Code's Read
/// counts from 1 and takes 0 for 1 as well.)
const FROM_ZERO: &[(&str, Agent, &str)] = &[("read_file", Agent::Gemini, "offset")];

impl Alias {
    /// The action this name fixes (`BashOutput`: `output`), if it fixes one.
    fn fixed_action(&self) -> Option<&'static str> {
        self.fixed
            .iter()
            .find(|(f, _)| *f == "action")
            .map(|(_, v)| v.trim_matches('"'))
    }

    /// This alias as a hint names it.
    fn named(&self) -> crate::offered::Named {
        let mut fields: Vec<(String, String)> = self
            .renames
            .iter()
            .map(|(theirs, ours)| (ours.to_string(), theirs.to_string()))
            .collect();
        if let Some(theirs) = self.path_field() {
            fields.push(("path".into(), theirs.into()));
        }
        crate::offered::Named {
            name: self.name.to_string(),
            action_fixed: self.fixed_action().is_some(),
            fields,
            from_zero: FROM_ZERO
                .iter()
                .filter(|(n, a, _)| *n == self.name && *a == self.agent)
                .map(|(_, _, f)| f.to_string())
                .collect(),
        }
    }
}

/// Says a failure of a call made under another agent's tool name in that agent's words (SPEC
/// 31.1): its field names for ours (`shell_id` for `id`, `file_path` for `path`), its tool name
/// for ours as the message's subject, the fields it accepts in the hint, and no `action` where
/// the name fixes it (`KillShell needs the job's `shell_id``).
pub fn speak_as(alias: &Alias, err: &mut ToolError) {
    let named = alias.named();
    let say = |text: &str| -> String {
        let mut text = text.to_string();
        if let Some(rest) = text.strip_prefix(&format!("{}: ", alias.tool)) {
            text = format!("{}: {rest}", alias.name);
        }
        if let Some(action) = alias.fixed_action() {
            text = text.replace(&format!("action `{action}`"), alias.name);
        }
        for (ours, theirs) in &named.fields {
            text = text.replace(&format!("`{ours}`"), &format!("`{theirs}`"));
        }
        text
    };
    err.message = say(&err.message);
    let schema = schema_for(alias).or_else(|| schema_of(alias.name));
    err.hint = err.hint.as_deref().map(|h| match &schema {
        Some(s) if h.starts_with("Accepted fields: ") => {
            format!("Accepted fields: {}.", crate::input::accepted_fields(s))
        }
        _ => say(h),
    });
    if let Some(Value::String(field)) = err.extra.get_mut("field")
        && let Some((_, theirs)) = named.fields.iter().find(|(ours, _)| ours == field)
    {
        *field = theirs.clone();
    }
}

/// The agents that have a tool of this name, in table order.
pub fn agents_of(name: &str) -> Vec<Agent> {
    let mut agents: Vec<Agent> = vec![];
    for a in all().filter(|a| a.name == name) {
        if !agents.contains(&a.agent) {
            agents.push(a.agent);
        }
    }
    agents
}

/// The alias a catalog key pins (SPEC 25.6): its `dialect`'s, else the seeds' for a name the
/// seeds use; `None` leaves the choice to the call's fields (24.7).
pub fn pinned(name: &str, dialect: Option<&str>) -> Option<&'static Alias> {
    match dialect.and_then(Agent::parse) {
        Some(agent) => find_of(name, agent),
        None => find_of(name, Agent::Seeds),
    }
}

/// The schema a pinned alias is offered with: its agent's own; for the seeds, the seeds'
/// schema where one is written down (schemas/seeds.json), else the tool's own with the seeds'
/// field names put back and the fields the name fixes left out.
pub fn schema_for(alias: &Alias) -> Option<Value> {
    if let Some(s) = table(alias.agent).and_then(|t| t.get(alias.name)) {
        return Some(s.clone());
    }
    (alias.agent == Agent::Seeds).then(|| seed_schema(alias))?
}

fn seed_schema(alias: &Alias) -> Option<Value> {
    let mut schema = crate::tools::find(alias.tool)?.input_schema().clone();
    let props = schema.get_mut("properties")?.as_object_mut()?;
    for (field, _) in alias.fixed {
        props.remove(*field);
    }
    let mut required: Vec<Value> = schema["required"].as_array().cloned().unwrap_or_default();
    for (theirs, ours) in alias.renames {
        let props = schema["properties"].as_object_mut()?;
        if let Some(v) = props.remove(*ours) {
            props.insert(theirs.to_string(), v);
        }
        for r in required.iter_mut().filter(|r| r == ours) {
            *r = Value::String(theirs.to_string());
        }
    }
    if schema.get("required").is_some() {
        schema["required"] = Value::Array(required);
    }
    Some(schema)
}

/// Each agent's input schemas, by tool name, as its own package or source defines them: what a
/// catalog offers under an alias key (24.7), so the model sees that agent's field names. The
/// seeds' are the few the SPEC writes down (25.6).
fn schemas(agent: Agent) -> Option<&'static str> {
    match agent {
        Agent::Seeds => Some(include_str!("schemas/seeds.json")),
        Agent::ClaudeCode => Some(include_str!("schemas/claude.json")),
        Agent::Codex => Some(include_str!("schemas/codex.json")),
        Agent::Gemini => Some(include_str!("schemas/gemini.json")),
    }
}

/// The agent's schema of a name, without a catalog's pin: of the first agent other than the
/// seeds, in table order, that has one for it (a name only the seeds use is offered with the
/// tool's own schema).
pub fn schema_of(name: &str) -> Option<Value> {
    all()
        .filter(|a| a.name == name && a.agent != Agent::Seeds)
        .find_map(|a| table(a.agent)?.get(name).cloned())
}

/// An agent's schemas, parsed once per process (`tools/list` asks for each alias key).
fn table(agent: Agent) -> Option<&'static Map<String, Value>> {
    static TABLES: [std::sync::OnceLock<Option<Map<String, Value>>>; 4] =
        [const { std::sync::OnceLock::new() }; 4];
    TABLES[agent as usize]
        .get_or_init(|| {
            schemas(agent).map(|s| serde_json::from_str(s).expect("dialect schemas are JSON"))
        })
        .as_ref()
}

/// A translated call: our input, the warnings, and the alias that took it.
pub struct Translated {
    pub input: Value,
    pub warnings: Vec<String>,
    pub alias: &'static Alias,
}

impl Alias {
    /// Rewrites their input into ours, as the agent that owns this input means it: `pinned`,
    /// this alias's agent whatever the fields (a catalog key's, SPEC 25.6), else the agent whose
    /// fields the input has (24.7).
    pub fn translate(&'static self, mut input: Value, pinned: bool) -> Result<Translated> {
        // `2.0` is 2 (22.4) for the agent's rules too, as it is for the tool's parser.
        crate::input::normalize::integral_floats(&mut input);
        let Value::Object(mut map) = input else {
            // the tool's parser says what is wrong with it
            return Ok(Translated {
                input,
                warnings: vec![],
                alias: self,
            });
        };
        let alias = if pinned {
            self
        } else {
            pick(self.name, &map).unwrap_or(self)
        };
        let mut warnings = vec![];
        if let Some(adapt) = alias.adapt {
            adapt(&mut map, &mut warnings)?;
        }
        for (field, warning) in alias.ignored {
            if map.remove(*field).is_some() {
                warnings.push(warning.to_string());
            }
        }
        let mut out = Map::new();
        for (k, v) in map {
            let key = alias
                .renames
                .iter()
                .find(|(theirs, _)| *theirs == k)
                .map_or(k, |(_, ours)| ours.to_string());
            if out.contains_key(&key) {
                return Err(ToolError::invalid(
                    &key,
                    format!(
                        "{}: field `{key}` is given twice (an alias counts)",
                        alias.name
                    ),
                ));
            }
            out.insert(key, v);
        }
        for (field, json) in alias.fixed {
            if out.contains_key(*field) {
                return Err(ToolError::invalid(
                    field,
                    format!(
                        "{}: `{field}` is fixed by this tool name; leave it out",
                        alias.name
                    ),
                ));
            }
            out.insert(
                field.to_string(),
                serde_json::from_str(json).expect("alias constants are JSON"),
            );
        }
        Ok(Translated {
            input: Value::Object(out),
            warnings,
            alias,
        })
    }

    /// Runs the translated call: the alias's own call, else the tool's.
    pub fn run(&self, ctx: &Ctx, input: Value, ran: &mut &'static str) -> Result<Success> {
        match self.call {
            Some(call) => call(ctx, input, ran),
            None => call_tool(ctx, self.tool, input),
        }
    }

    /// The tools a call of its own runs (`Runs`), for their hooks.
    pub fn tools_run(&self, ctx: &Ctx, input: &Value) -> Vec<&'static str> {
        self.runs.map_or_else(|| vec![self.tool], |r| r(ctx, input))
    }

    /// What this call does, when the alias says (a call of its own whose input is not the
    /// tool's).
    pub fn declared_effect(&self) -> Option<crate::tool::Effect> {
        self.effect
    }

    /// Whether this alias runs a call of its own (dispatch asks before it runs the tool).
    pub fn has_call(&self) -> bool {
        self.call.is_some()
    }

    /// Whether this alias may route a call to another tool (dispatch keeps the JSON for it).
    pub fn has_route(&self) -> bool {
        self.route.is_some()
    }

    /// The other tool this call is, if it is one (see `Route`).
    pub fn routed(&self, ctx: &Ctx, input: &Value) -> Result<Option<(&'static str, Value)>> {
        match (self.route, input) {
            (Some(route), Value::Object(map)) => route(ctx, map),
            _ => Ok(None),
        }
    }
}

/// One of our tools, called from inside an alias's own call.
pub fn call_tool(ctx: &Ctx, tool: &str, input: Value) -> Result<Success> {
    crate::tools::find(tool)
        .ok_or_else(|| ToolError::internal(format!("the tool {tool} is not registered")))?
        .call(ctx, input)
}

/// Claude Code's Edit (and the seeds' edit_file, Gemini's replace) with an empty `old_string`
/// on a missing file writes it (16.10); the envelope's `tool` is then `write`. Seed 002's
/// `old_str`/`new_str` are edit's own aliases (25.6), so they count here too.
pub fn edit_creates(ctx: &Ctx, map: &Map<String, Value>) -> Result<Option<(&'static str, Value)>> {
    let either = |a: &str, b: &str| map.get(a).or_else(|| map.get(b));
    if either("old_string", "old_str").and_then(Value::as_str) != Some("") {
        return Ok(None);
    }
    // An existing file: edit says why an empty old_string cannot be.
    let Some(path) = missing_file(ctx, map) else {
        return Ok(None);
    };
    let content = either("new_string", "new_str")
        .cloned()
        .unwrap_or(Value::String(String::new()));
    Ok(Some((
        "write",
        serde_json::json!({"path": path, "content": content}),
    )))
}

/// The call's `path` (or `file_path`) when it names nothing yet, inside the root.
fn missing_file<'a>(ctx: &Ctx, map: &'a Map<String, Value>) -> Option<&'a str> {
    let path = map
        .get("path")
        .or_else(|| map.get("file_path"))
        .and_then(Value::as_str)?;
    crate::sandbox::resolve(ctx, "path", path)
        .is_ok_and(|t| t.real.symlink_metadata().is_err())
        .then_some(path)
}

/// Refuses a field not in `known` (the agent's own schema has `additionalProperties: false`),
/// for a call of its own that takes its input apart by hand.
fn only_fields(map: &Map<String, Value>, tool: &str, known: &[&str]) -> Result<()> {
    match map.keys().find(|k| !known.contains(&k.as_str())) {
        Some(extra) => Err(ToolError::invalid(
            extra,
            format!(
                "{tool}: unknown field `{extra}` (expected {})",
                known.join(", ")
            ),
        )),
        None => Ok(()),
    }
}

/// A field's value when it is a string.
fn str_field<'a>(map: &'a Map<String, Value>, field: &str) -> Option<&'a str> {
    map.get(field).and_then(Value::as_str)
}

/// Moves `from` to `to` unless `to` is already given (then both are kept, and the tool's parser
/// or the rename check says which is extra).
fn rename_in(map: &mut Map<String, Value>, from: &str, to: &str) {
    if !map.contains_key(to)
        && let Some(v) = map.remove(from)
    {
        map.insert(to.into(), v);
    }
}

/// A field that must be a non-negative whole number, as the agent's schema has it.
fn count_field(map: &Map<String, Value>, field: &str) -> Result<Option<u64>> {
    match map.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| {
            ToolError::invalid(
                field,
                format!("field `{field}` must be a whole number ≥ 0, got {v}"),
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alias_names_a_registered_tool_and_shared_names_share_it() {
        for a in all() {
            assert!(
                crate::tools::find(a.tool).is_some(),
                "{} → {}",
                a.name,
                a.tool
            );
            let first = find(a.name).unwrap();
            assert_eq!(first.tool, a.tool, "{} is shared with another tool", a.name);
            for (_, json) in a.fixed {
                serde_json::from_str::<Value>(json).unwrap();
            }
            if a.agent != Agent::Seeds {
                let s = schema_of(a.name).unwrap_or_else(|| panic!("{} has no schema", a.name));
                assert_eq!(s["type"], "object", "{}", a.name);
            }
        }
    }

    #[test]
    fn every_schema_is_of_an_alias_of_its_agent() {
        for agent in [Agent::Seeds, Agent::ClaudeCode, Agent::Codex, Agent::Gemini] {
            let table: Map<String, Value> = serde_json::from_str(schemas(agent).unwrap()).unwrap();
            for name in table.keys() {
                assert!(
                    all().any(|a| a.agent == agent && a.name == name),
                    "{name} has a schema but no alias of {agent:?}"
                );
            }
        }
    }

    #[test]
    fn a_call_of_its_own_whose_input_is_not_the_tools_declares_its_effect() {
        // Without it mcp would take the call for one that changes files (24.7).
        for a in all().filter(|a| a.call.is_some()) {
            let declared = a.effect.is_some();
            let parses = matches!(
                a.name,
                "Edit" | "edit_file" | "replace" | "MultiEdit" | "Grep" | "Bash" | "TodoWrite"
            );
            assert!(
                declared || parses,
                "{} runs a call of its own: give it an effect",
                a.name
            );
        }
    }

    #[test]
    fn calls_of_their_own_are_scheduled_by_what_they_do() {
        use crate::tool::Effect;
        let effect = |name: &str, input: Value| {
            let r = crate::dispatch::unrestricted(name).unwrap();
            (r.effect(&input), r.is_read_only(&input))
        };
        use serde_json::json as j;
        assert_eq!(
            effect("list_dir", j!({"dir_path": ".", "offset": 2})),
            (Effect::Reads, true)
        );
        assert_eq!(
            effect("read_many_files", j!({"paths": ["*.rs"]})),
            (Effect::Reads, true)
        );
        assert_eq!(
            effect("web_fetch", j!({"prompt": "see https://a.test"})),
            (Effect::Reads, true)
        );
        assert_eq!(
            effect("exec_command", j!({"cmd": "ls"})),
            (Effect::Commands, false)
        );
        assert_eq!(
            effect("write_stdin", j!({"session_id": 1, "chars": "x"})),
            (Effect::Commands, false)
        );
        assert_eq!(
            effect("shell", j!({"command": ["ls"]})),
            (Effect::Commands, false)
        );
        assert_eq!(effect("Grep", j!({"pattern": "x"})), (Effect::Reads, true));
        assert_eq!(
            effect("MultiEdit", j!({"file_path": "a", "edits": []})),
            (Effect::ChangesFiles, false)
        );
    }

    #[test]
    fn no_alias_shadows_one_of_our_tools_unless_it_is_that_tool() {
        for a in all() {
            if let Some(t) = crate::tools::find(a.name) {
                assert_eq!(t.name(), a.tool, "{} would shadow our {}", a.name, t.name());
            }
        }
    }
}
