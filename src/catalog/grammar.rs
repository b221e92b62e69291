//! The catalog's grammar as one table (SPEC 24.7), and the reader that checks a file against it.
//!
//! The file is parsed into toml's spanned tree, not through serde: serde stops at the first
//! problem, and `catalog --check` must list every one with its line and column (24.3). Each
//! table's keys are looked up in `TABLES`; anything else is an unknown key.

use super::{Catalog, Hook, Lane, McpServer, Mode, Profile, ToolEntry};
use serde::Serialize;
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// What a key holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Str,
    /// A positive integer.
    Int,
    Bool,
    StrList,
    /// A table of strings (an upstream server's `env`, `http_headers`).
    StrMap,
    /// One of the listed words.
    Word(&'static [&'static str]),
}

const SANDBOX: Kind = Kind::Word(&["none", "workspace-write", "read-only"]);
const LANE: Kind = Kind::Word(&["no-net", "net", "heavy"]);
const MODE: Kind = Kind::Word(Mode::WORDS);
const DIALECT: Kind = Kind::Word(&["claude", "codex", "gemini", "seed"]);
const PROVIDER: Kind = Kind::Word(&["brave", "tavily", "searxng", "duckduckgo"]);

/// The grammar: every table and the keys each may hold. `[tools.NAME]` and `[profiles.NAME]`
/// are tables of such tables; `[[hooks.pre]]` / `[[hooks.post]]` arrays of them.
const TOOL_KEYS: &[(&str, Kind)] = &[
    ("lane", LANE),
    ("timeout_ms", Kind::Int),
    ("max_output_bytes", Kind::Int),
    ("description", Kind::Str),
    ("enabled", Kind::Bool),
    ("command", Kind::Str),
    ("sandbox", SANDBOX),
    ("dialect", DIALECT),
];
const PROFILE_KEYS: &[(&str, Kind)] = &[
    ("tools", Kind::StrList),
    ("mode", MODE),
    ("sandbox", SANDBOX),
];
const PATHS_KEYS: &[(&str, Kind)] = &[("deny", Kind::StrList), ("read_only", Kind::StrList)];
const RUN_KEYS: &[(&str, Kind)] = &[("sandbox", SANDBOX), ("writable_roots", Kind::StrList)];
const HOOK_KEYS: &[(&str, Kind)] = &[
    ("tools", Kind::StrList),
    ("matcher", Kind::Str),
    ("files", Kind::StrList),
    ("command", Kind::Str),
    ("timeout_ms", Kind::Int),
    ("sandbox", SANDBOX),
];
const SEARCH_KEYS: &[(&str, Kind)] = &[
    ("provider", PROVIDER),
    ("endpoint", Kind::Str),
    ("api_key", Kind::Str),
];
const PROJECT_KEYS: &[(&str, Kind)] = &[
    ("build", Kind::Str),
    ("test", Kind::Str),
    ("validate", Kind::Str),
];
const LOOPS_KEYS: &[(&str, Kind)] = &[("hub", Kind::Str)];
const CLIENT_KEYS: &[(&str, Kind)] = &[("max_result_chars", Kind::Int)];
/// A result under this could not say what it holds and how to go on.
const MIN_RESULT_CHARS: u64 = 1_000;
const MCP_SERVER_KEYS: &[(&str, Kind)] = &[
    ("command", Kind::Str),
    ("args", Kind::StrList),
    ("env", Kind::StrMap),
    ("cwd", Kind::Str),
    ("url", Kind::Str),
    ("bearer_token_env_var", Kind::Str),
    ("http_headers", Kind::StrMap),
    ("enabled_tools", Kind::StrList),
    ("disabled_tools", Kind::StrList),
    ("timeout_ms", Kind::Int),
    ("startup_timeout_ms", Kind::Int),
];
const TOP_KEYS: &[&str] = &[
    "tools",
    "profiles",
    "paths",
    "run",
    "hooks",
    "search",
    "project",
    "loops",
    "mcp_servers",
    "client",
    "permissions",
];
const PERMISSIONS_KEYS: &[(&str, Kind)] = &[
    ("allow", Kind::StrList),
    ("ask", Kind::StrList),
    ("deny", Kind::StrList),
];
/// The hook tables: before a call, after a success, after a failure (SPEC 29).
const HOOK_WHEN: &[&str] = &["pre", "post", "post_failure"];

pub use crate::policy::{MAX_TIMEOUT_MS, RUN_MAX_TIMEOUT_MS};

/// One problem in a catalog file, 1-based, pointing at the key (SPEC 24.3).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// A checked value.
enum Val {
    Str(String),
    Int(u64),
    Bool(bool),
    List(Vec<String>),
    Map(Vec<(String, String)>),
}

struct Reader<'s> {
    src: &'s str,
    problems: Vec<Problem>,
    /// Names of tools a library user registered (SPEC 30.1): known as ours are.
    known: &'s [&'s str],
}

/// The checked keys of one table, each with the span of its key.
struct Fields {
    vals: Vec<(String, Val, Range<usize>)>,
}

impl Fields {
    fn take(&mut self, key: &str) -> Option<(Val, Range<usize>)> {
        let i = self.vals.iter().position(|(k, _, _)| k == key)?;
        let (_, v, span) = self.vals.remove(i);
        Some((v, span))
    }
    fn str(&mut self, key: &str) -> Option<String> {
        match self.take(key)?.0 {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }
    fn str_at(&mut self, key: &str) -> Option<(String, Range<usize>)> {
        match self.take(key)? {
            (Val::Str(s), span) => Some((s, span)),
            _ => None,
        }
    }
    fn int_at(&mut self, key: &str) -> Option<(u64, Range<usize>)> {
        match self.take(key)? {
            (Val::Int(n), span) => Some((n, span)),
            _ => None,
        }
    }
    fn bool(&mut self, key: &str) -> Option<bool> {
        match self.take(key)?.0 {
            Val::Bool(b) => Some(b),
            _ => None,
        }
    }
    fn list_at(&mut self, key: &str) -> Option<(Vec<String>, Range<usize>)> {
        match self.take(key)? {
            (Val::List(l), span) => Some((l, span)),
            _ => None,
        }
    }
    fn list(&mut self, key: &str) -> Vec<String> {
        self.list_at(key).map(|(l, _)| l).unwrap_or_default()
    }
    fn map(&mut self, key: &str) -> Vec<(String, String)> {
        match self.take(key) {
            Some((Val::Map(m), _)) => m,
            _ => vec![],
        }
    }
}

/// 1-based line and column (in characters) of byte `at` in `src`.
pub fn line_column(src: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(src.len());
    while !src.is_char_boundary(at) {
        at -= 1;
    }
    let before = &src[..at];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

impl Reader<'_> {
    fn problem(&mut self, span: &Range<usize>, message: impl Into<String>) {
        let (line, column) = line_column(self.src, span.start);
        self.problems.push(Problem {
            line,
            column,
            message: message.into(),
        });
    }

    /// Checks `table` (named `what` in messages) against `keys`.
    fn fields(&mut self, table: &DeTable, what: &str, keys: &[(&str, Kind)]) -> Fields {
        let mut vals = vec![];
        for (k, v) in table.iter() {
            let name = k.get_ref().as_ref();
            let span = k.span();
            let Some((_, kind)) = keys.iter().find(|(n, _)| *n == name) else {
                let known: Vec<&str> = keys.iter().map(|(n, _)| *n).collect();
                self.problem(
                    &span,
                    format!(
                        "unknown key `{name}` in {what}; it takes: {}",
                        known.join(", ")
                    ),
                );
                continue;
            };
            if let Some(val) = self.value(v, *kind, &format!("{what}: `{name}`")) {
                vals.push((name.to_string(), val, span));
            }
        }
        Fields { vals }
    }

    fn value(&mut self, v: &Spanned<DeValue>, kind: Kind, what: &str) -> Option<Val> {
        let span = v.span();
        let got = v.get_ref();
        match (kind, got) {
            (Kind::Str, DeValue::String(s)) => Some(Val::Str(s.to_string())),
            (Kind::Word(words), DeValue::String(s)) => {
                if words.contains(&s.as_ref()) {
                    Some(Val::Str(s.to_string()))
                } else {
                    self.problem(
                        &span,
                        format!("{what} is {s:?}; use one of: {}", words.join(", ")),
                    );
                    None
                }
            }
            (Kind::Bool, DeValue::Boolean(b)) => Some(Val::Bool(*b)),
            (Kind::Int, DeValue::Integer(i)) => {
                let digits = i.as_str().replace('_', "");
                match u64::from_str_radix(&digits, i.radix()) {
                    Ok(n) if n > 0 => Some(Val::Int(n)),
                    _ => {
                        self.problem(&span, format!("{what} must be a positive integer"));
                        None
                    }
                }
            }
            (Kind::StrList, DeValue::Array(items)) => {
                let mut out = vec![];
                for item in items.iter() {
                    match item.get_ref() {
                        DeValue::String(s) => out.push(s.to_string()),
                        other => {
                            self.problem(
                                &item.span(),
                                format!("{what} holds strings, not a {}", other.type_str()),
                            );
                            return None;
                        }
                    }
                }
                Some(Val::List(out))
            }
            (Kind::StrMap, DeValue::Table(t)) => {
                let mut out = vec![];
                for (k, item) in t.iter() {
                    match item.get_ref() {
                        DeValue::String(s) => out.push((k.get_ref().to_string(), s.to_string())),
                        other => {
                            self.problem(
                                &item.span(),
                                format!("{what} holds strings, not a {}", other.type_str()),
                            );
                            return None;
                        }
                    }
                }
                Some(Val::Map(out))
            }
            (kind, other) => {
                let want = match kind {
                    Kind::Str | Kind::Word(_) => "a string",
                    Kind::Int => "an integer",
                    Kind::Bool => "true or false",
                    Kind::StrList => "an array of strings",
                    Kind::StrMap => "a table of strings",
                };
                self.problem(
                    &span,
                    format!("{what} must be {want}, not a {}", other.type_str()),
                );
                None
            }
        }
    }

    /// The table under `key`, or a problem when it is something else.
    fn sub<'t>(&mut self, v: &'t Spanned<DeValue<'t>>, what: &str) -> Option<&'t DeTable<'t>> {
        match v.get_ref() {
            DeValue::Table(t) => Some(t),
            other => {
                self.problem(
                    &v.span(),
                    format!("{what} must be a table, not a {}", other.type_str()),
                );
                None
            }
        }
    }
}

/// Reads a catalog's text: the catalog as far as it could be read, and every problem.
#[cfg(test)]
fn read(src: &str) -> (Catalog, Vec<Problem>) {
    read_knowing(src, &[])
}

/// Reads a catalog's text, with `known` the names of tools registered through the library
/// (SPEC 30.1): a catalog may offer, limit or disable them as it does ours. Returns the catalog
/// as far as it could be read, and every problem.
pub fn read_knowing(src: &str, known: &[&str]) -> (Catalog, Vec<Problem>) {
    let (doc, errors) = DeTable::parse_recoverable(src);
    let mut r = Reader {
        src,
        problems: vec![],
        known,
    };
    for e in &errors {
        let span = e.span().unwrap_or(0..0);
        r.problem(&span, format!("TOML: {}", e.message().trim()));
    }
    let mut cat = Catalog::default();
    // Keys in file order: toml's map keeps them sorted, the spans say where each was.
    let mut top: Vec<_> = doc.get_ref().iter().collect();
    top.sort_by_key(|(k, _)| k.span().start);
    for (k, v) in top {
        let name = k.get_ref().as_ref();
        match name {
            "tools" => read_tools(&mut r, v, &mut cat),
            "profiles" => read_profiles(&mut r, v, &mut cat),
            "paths" => {
                if let Some(t) = r.sub(v, "[paths]") {
                    let mut f = r.fields(t, "[paths]", PATHS_KEYS);
                    for (key, into) in [
                        ("deny", &mut cat.paths.deny),
                        ("read_only", &mut cat.paths.read_only),
                    ] {
                        let Some((list, span)) = f.list_at(key) else {
                            continue;
                        };
                        for pat in &list {
                            if let Err(e) = crate::sandbox::rules::check_pattern(pat) {
                                r.problem(&span, format!("[paths] {key}: {e}"));
                            }
                        }
                        *into = list;
                    }
                }
            }
            "run" => {
                if let Some(t) = r.sub(v, "[run]") {
                    let mut f = r.fields(t, "[run]", RUN_KEYS);
                    cat.run.sandbox = f.str("sandbox");
                    cat.run.writable_roots = f.list("writable_roots");
                }
            }
            "hooks" => read_hooks(&mut r, v, &mut cat),
            "mcp_servers" => read_mcp_servers(&mut r, v, &mut cat),
            "permissions" => read_permissions(&mut r, v, &mut cat),
            "search" => {
                if let Some(t) = r.sub(v, "[search]") {
                    let mut f = r.fields(t, "[search]", SEARCH_KEYS);
                    cat.search.provider = f.str("provider");
                    cat.search.endpoint = f.str("endpoint");
                    cat.search.api_key = f.str("api_key");
                }
            }
            "project" => {
                if let Some(t) = r.sub(v, "[project]") {
                    let mut f = r.fields(t, "[project]", PROJECT_KEYS);
                    cat.project.build = f.str("build");
                    cat.project.test = f.str("test");
                    cat.project.validate = f.str("validate");
                }
            }
            "loops" => {
                if let Some(t) = r.sub(v, "[loops]") {
                    let mut f = r.fields(t, "[loops]", LOOPS_KEYS);
                    cat.loops.hub = f.str("hub");
                    if let Some(Err(e)) = cat.loops.hub.as_deref().map(crate::hub::parse) {
                        r.problem(&v.span(), format!("[loops] hub: {e}"));
                    }
                }
            }
            "client" => {
                if let Some(t) = r.sub(v, "[client]") {
                    let mut f = r.fields(t, "[client]", CLIENT_KEYS);
                    if let Some((n, at)) = f.int_at("max_result_chars") {
                        if n < MIN_RESULT_CHARS {
                            r.problem(
                                &at,
                                format!(
                                    "[client] max_result_chars must be at least {MIN_RESULT_CHARS}"
                                ),
                            );
                        } else {
                            cat.client.max_result_chars = Some(n);
                        }
                    }
                }
            }
            other => r.problem(
                &k.span(),
                format!(
                    "unknown table `{other}`; a catalog holds: {}",
                    TOP_KEYS.join(", ")
                ),
            ),
        }
    }
    check_names(&mut r, &cat);
    r.problems.sort_by_key(|p| (p.line, p.column));
    (cat, r.problems)
}

/// `[mcp_servers.NAME]` (SPEC 27.2): stdio or Streamable HTTP, not both; a name that collides
/// with another's after cleaning, or whose tools' prefix leaves no room under 64 characters, is
/// a problem (27.3).
fn read_mcp_servers(r: &mut Reader, v: &Spanned<DeValue>, cat: &mut Catalog) {
    let Some(t) = r.sub(v, "[mcp_servers]") else {
        return;
    };
    for (k, v) in t.iter() {
        let name = k.get_ref().to_string();
        let what = format!("[mcp_servers.{name}]");
        let Some(table) = r.sub(v, &what) else {
            continue;
        };
        let mut f = r.fields(table, &what, MCP_SERVER_KEYS);
        let s = McpServer {
            name: name.clone(),
            command: f.str("command"),
            args: f.list("args"),
            env: f.map("env"),
            cwd: f.str("cwd"),
            url: f.str("url"),
            bearer_token_env_var: f.str("bearer_token_env_var"),
            http_headers: f.map("http_headers"),
            enabled_tools: f.list_at("enabled_tools").map(|(l, _)| l),
            disabled_tools: f.list("disabled_tools"),
            timeout_ms: f.int_at("timeout_ms").map(|(n, _)| n),
            startup_timeout_ms: f.int_at("startup_timeout_ms").map(|(n, _)| n),
        };
        let span = k.span();
        match (&s.command, &s.url) {
            (None, None) => r.problem(
                &span,
                format!("{what} needs `command` (stdio) or `url` (Streamable HTTP)"),
            ),
            (Some(_), Some(_)) => r.problem(
                &span,
                format!("{what} has both `command` and `url`; give one"),
            ),
            _ => {}
        }
        let cleaned = crate::policy::clean_name(&name);
        if let Some(other) = cat
            .mcp_servers
            .iter()
            .find(|o| crate::policy::clean_name(&o.name) == cleaned)
        {
            r.problem(
                &span,
                format!(
                    "{what}: its tools' names (mcp__{cleaned}__…) collide with [mcp_servers.{}]'s",
                    other.name
                ),
            );
        }
        if s.tool_name("x").len() > 64 {
            r.problem(
                &span,
                format!(
                    "{what}: the name is too long: its tools' names would be over 64 characters"
                ),
            );
        }
        cat.mcp_servers.push(s);
    }
}

fn read_tools(r: &mut Reader, v: &Spanned<DeValue>, cat: &mut Catalog) {
    let Some(t) = r.sub(v, "[tools]") else { return };
    let mut entries: Vec<_> = t.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    for (k, v) in entries {
        let name = k.get_ref().to_string();
        let what = format!("[tools.{name}]");
        let Some(table) = r.sub(v, &what) else {
            continue;
        };
        let mut f = r.fields(table, &what, TOOL_KEYS);
        let key_span = k.span();
        let lane = f
            .str("lane")
            .map(|l| Lane::parse(&l).expect("checked by the grammar"));
        let timeout = f.int_at("timeout_ms");
        let entry = ToolEntry {
            name: name.clone(),
            lane,
            timeout_ms: timeout.as_ref().map(|(n, _)| *n),
            max_output_bytes: f.int_at("max_output_bytes").map(|(n, _)| n),
            description: f.str("description"),
            enabled: f.bool("enabled").unwrap_or(true),
            command: f.str("command"),
            sandbox: f.str("sandbox"),
            dialect: f.str("dialect"),
        };
        check_tool(r, &entry, &key_span, timeout.map(|(_, s)| s));
        check_dialect(r, &entry, &key_span);
        cat.tools.push(entry);
    }
}

/// A `dialect` names an agent that has a tool of the key's name (SPEC 25.6).
fn check_dialect(r: &mut Reader, e: &ToolEntry, key: &Range<usize>) {
    use crate::dialects::{Agent, agents_of};
    let Some(agent) = e.dialect.as_deref().and_then(Agent::parse) else {
        return;
    };
    let have = agents_of(&e.name);
    if have.contains(&agent) {
        return;
    }
    let whose = if crate::tools::find(&e.name).is_some() {
        format!(
            "`{}` is loopr-tool's own tool; `dialect` is for another agent's name",
            e.name
        )
    } else if have.is_empty() {
        format!("`{}` is no other agent's tool name", e.name)
    } else {
        let names: Vec<&str> = have.iter().map(|a| a.shown()).collect();
        format!("`{}` is a tool name of {} only", e.name, names.join(", "))
    };
    r.problem(
        key,
        format!(
            "[tools.{}]: `dialect` is \"{}\", but {} has no `{}`: {whose}",
            e.name,
            e.dialect.as_deref().unwrap_or(""),
            agent.shown(),
            e.name
        ),
    );
}

/// Seed 002's tools loopr-tool has none of (SPEC 25.6; `analyze_code` is symbols', SPEC 26.2): a key naming one is refused, saying so.
const SEED_TOOLS_NOT_HERE: &[(&str, &str)] = &[(
    "git_command",
    "run git through run (or run_command), or give the key a `command`",
)];

/// What a tool key may be (SPEC 19.1, 24.3): one of ours or an alias; a command tool of its own
/// (`command`), or seed 001's `build`, `test` and `validate`, whose command is found.
fn check_tool(r: &mut Reader, e: &ToolEntry, key: &Range<usize>, timeout_at: Option<Range<usize>>) {
    let runs =
        super::target_tool(&e.name).or_else(|| r.known.iter().copied().find(|k| *k == e.name));
    match (runs, &e.command) {
        (Some(t), Some(_)) => r.problem(
            key,
            format!("[tools.{}] names loopr-tool's `{t}`, so it cannot have a `command`; give the command tool a name of its own", e.name),
        ),
        (None, None) if let Some((_, instead)) = SEED_TOOLS_NOT_HERE.iter().find(|(n, _)| *n == e.name) => r.problem(
            key,
            format!("[tools.{}]: `{}` is seed 002's tool, which loopr-tool does not have, so it is not offered; {instead}", e.name, e.name),
        ),
        // An upstream tool's key: its server is checked once every table is read.
        (None, None) if e.name.starts_with(crate::policy::UPSTREAM_PREFIX) => {}
        (None, None) if !super::PROJECT_COMMANDS.contains(&e.name.as_str()) => r.problem(
            key,
            format!("[tools.{}]: no tool or alias is named `{}`; give it a `command` to make it a command tool (build, test and validate find theirs)", e.name, e.name),
        ),
        _ => {}
    }
    let run_like = super::is_command(e) || runs == Some("run");
    if e.lane == Some(Lane::NoNet) && matches!(runs, Some("fetch" | "search")) {
        r.problem(
            key,
            format!(
                "[tools.{}]: {} needs the network, so it cannot be in the no-net lane",
                e.name,
                runs.unwrap_or("")
            ),
        );
    }
    if let (Some(n), Some(span)) = (e.timeout_ms, timeout_at) {
        let max = if run_like && e.lane != Some(Lane::Heavy) {
            RUN_MAX_TIMEOUT_MS
        } else {
            MAX_TIMEOUT_MS
        };
        if n > max {
            let why = if max == RUN_MAX_TIMEOUT_MS {
                " (commands may take up to 3600000 in the heavy lane)"
            } else {
                ""
            };
            r.problem(
                &span,
                format!("[tools.{}]: `timeout_ms` is at most {max}{why}", e.name),
            );
        }
    }
}

fn read_profiles(r: &mut Reader, v: &Spanned<DeValue>, cat: &mut Catalog) {
    let Some(t) = r.sub(v, "[profiles]") else {
        return;
    };
    let mut entries: Vec<_> = t.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    for (k, v) in entries {
        let name = k.get_ref().to_string();
        let what = format!("[profiles.{name}]");
        let Some(table) = r.sub(v, &what) else {
            continue;
        };
        let mut f = r.fields(table, &what, PROFILE_KEYS);
        let tools = f.list_at("tools");
        let profile = Profile {
            name,
            tools: tools.as_ref().map(|(l, _)| l.clone()),
            tools_at: tools.map(|(_, s)| s),
            mode: f
                .str("mode")
                .and_then(|m| Mode::parse(&m))
                .unwrap_or_default(),
            sandbox: f.str("sandbox"),
        };
        cat.profiles.push(profile);
    }
}

fn read_hooks(r: &mut Reader, v: &Spanned<DeValue>, cat: &mut Catalog) {
    let Some(t) = r.sub(v, "[hooks]") else { return };
    for (k, v) in t.iter() {
        let when = k.get_ref().as_ref();
        if !HOOK_WHEN.contains(&when) {
            r.problem(
                &k.span(),
                format!(
                    "unknown key `{when}` in [hooks]; it takes: {}",
                    HOOK_WHEN.join(", ")
                ),
            );
            continue;
        }
        let what = format!("[[hooks.{when}]]");
        let tables: Vec<&Spanned<DeValue>> = match v.get_ref() {
            DeValue::Array(items) => items.iter().collect(),
            DeValue::Table(_) => vec![v],
            other => {
                r.problem(
                    &v.span(),
                    format!(
                        "{what} must be an array of tables, not a {}",
                        other.type_str()
                    ),
                );
                continue;
            }
        };
        for item in tables {
            let Some(table) = r.sub(item, &what) else {
                continue;
            };
            let mut f = r.fields(table, &what, HOOK_KEYS);
            let matcher = f.str_at("matcher");
            if let Some((m, span)) = &matcher
                && let Err(e) = super::hooks::matcher_regex(m)
            {
                r.problem(span, format!("{what}: `matcher` is not a valid regex: {e}"));
            }
            let tools = f.list_at("tools");
            let Some(command) = f.str("command") else {
                r.problem(&item.span(), format!("{what} needs a `command`"));
                continue;
            };
            let hook = Hook {
                tools: tools.as_ref().map(|(l, _)| l.clone()).unwrap_or_default(),
                tools_at: tools.map(|(_, s)| s),
                matcher: matcher.map(|(m, _)| m),
                files: f.list("files"),
                command,
                timeout_ms: f.int_at("timeout_ms").map(|(n, _)| n.min(MAX_TIMEOUT_MS)),
                sandbox: f.str("sandbox"),
            };
            match when {
                "pre" => cat.hooks.pre.push(hook),
                "post" => cat.hooks.post.push(hook),
                _ => cat.hooks.post_failure.push(hook),
            }
        }
    }
}

/// `[permissions]` (SPEC 29): Claude Code's rule strings, each checked.
fn read_permissions(r: &mut Reader, v: &Spanned<DeValue>, cat: &mut Catalog) {
    let Some(t) = r.sub(v, "[permissions]") else {
        return;
    };
    let mut f = r.fields(t, "[permissions]", PERMISSIONS_KEYS);
    let rules = &mut cat.permissions;
    for (key, into) in [
        ("allow", &mut rules.allow),
        ("ask", &mut rules.ask),
        ("deny", &mut rules.deny),
    ] {
        let Some((list, span)) = f.list_at(key) else {
            continue;
        };
        for text in &list {
            match crate::policy::permissions::parse(text) {
                Ok(rule) => into.push(rule),
                Err(e) => r.problem(&span, format!("[permissions] {key}: {e}")),
            }
        }
    }
}

/// Names that must name something: a profile's tools and a hook's tools (SPEC 24.3).
fn check_names(r: &mut Reader, cat: &Catalog) {
    let extra = r.known;
    let known = |n: &str| {
        cat.upstream_of(n).is_some()
            || cat.tools.iter().any(|t| t.name == n)
            || super::target_tool(n).is_some()
            || extra.contains(&n)
    };
    for t in &cat.tools {
        if t.name.starts_with(crate::policy::UPSTREAM_PREFIX) && cat.upstream_of(&t.name).is_none()
        {
            let at = r.src.find(&format!("[tools.{}]", t.name)).unwrap_or(0);
            r.problem(
                &(at..at),
                format!(
                    "[tools.{}]: no [mcp_servers] entry offers it (mcp__SERVER__TOOL)",
                    t.name
                ),
            );
        }
    }
    for p in &cat.profiles {
        if let (Some(tools), Some(span)) = (&p.tools, &p.tools_at) {
            for t in tools.iter().filter(|t| !known(t)) {
                r.problem(
                    span,
                    format!("[profiles.{}]: `{t}` is neither a key of [tools] nor a loopr-tool tool or alias", p.name),
                );
            }
        }
    }
    let hooks = &cat.hooks;
    for h in hooks
        .pre
        .iter()
        .chain(&hooks.post)
        .chain(&hooks.post_failure)
    {
        if let Some(span) = &h.tools_at {
            for t in h.tools.iter().filter(|t| !known(t)) {
                r.problem(span, format!("hook tools: `{t}` is neither a key of [tools] nor a loopr-tool tool or alias"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_from_one() {
        let src = "a = 1\nébc = 2\n";
        assert_eq!(line_column(src, 0), (1, 1));
        assert_eq!(line_column(src, 6), (2, 1));
        assert_eq!(line_column(src, 8), (2, 2)); // after the two-byte é
    }

    #[test]
    fn every_problem_is_listed_with_its_place() {
        let src = "[tools.read]\nlane = \"fast\"\ncolour = 1\n\n[tools.nope]\n\n[profiles.plan]\ntools = [\"read\", \"zzz\"]\n";
        let (_, problems) = read(src);
        let places: Vec<(usize, usize)> = problems.iter().map(|p| (p.line, p.column)).collect();
        assert_eq!(places, [(2, 8), (3, 1), (5, 8), (8, 1)], "{problems:#?}");
        assert!(problems[1].message.contains("unknown key `colour`"));
    }

    #[test]
    fn seed_format_reads_clean() {
        let src = include_str!("../../examples/catalog.toml");
        let (cat, problems) = read(src);
        assert!(problems.is_empty(), "{problems:#?}");
        assert!(cat.tools.iter().any(|t| t.name == "read_file"));
        assert_eq!(cat.profiles.len(), 4);
    }
}
