//! The catalog's policy as data (SPEC 19, 24.3): what the catalog file says and the effective
//! policy of this process. Core: the context, the sandbox's path rules and the tools read these
//! types; loading, profiles and admission (which need the registry of tools) are the catalog's
//! (`catalog/`), a layer above.

pub mod approvals;
pub mod permissions;
pub mod project;

use serde::Serialize;
use std::ops::Range;
use std::path::PathBuf;

/// The longest time limit a catalog may give: a heavy lane's command (SPEC 19.2).
pub const MAX_TIMEOUT_MS: u64 = 3_600_000;
/// run's own maximum outside the heavy lane (SPEC 15, 24.3).
pub const RUN_MAX_TIMEOUT_MS: u64 = 600_000;

/// The registry name a command tool runs as (it is not in `tools::TOOLS`: without a catalog
/// there are no command tools).
pub const COMMAND_TOOL: &str = "command";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lane {
    NoNet,
    Net,
    Heavy,
}

impl Lane {
    pub fn parse(s: &str) -> Option<Lane> {
        match s {
            "no-net" => Some(Lane::NoNet),
            "net" => Some(Lane::Net),
            "heavy" => Some(Lane::Heavy),
            _ => None,
        }
    }
}

/// The permission mode (SPEC 29): `default` (the rules decide; no rule: allowed),
/// `read-only` (seed 003's plan mode, 19.2), `accept-edits`, `bypass` (no rule asks), `ask`
/// (every call that changes something asks unless a rule allows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    #[default]
    Default,
    ReadOnly,
    AcceptEdits,
    Bypass,
    Ask,
}

impl Mode {
    /// Every word a mode may be written as: ours, then Claude Code's.
    pub const WORDS: &'static [&'static str] = &[
        "default",
        "read-only",
        "accept-edits",
        "bypass",
        "ask",
        "plan",
        "acceptEdits",
        "bypassPermissions",
    ];

    /// Ours or Claude Code's name (`plan`, `acceptEdits`, `bypassPermissions`).
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "default" => Some(Mode::Default),
            "read-only" | "plan" => Some(Mode::ReadOnly),
            "accept-edits" | "acceptEdits" => Some(Mode::AcceptEdits),
            "bypass" | "bypassPermissions" => Some(Mode::Bypass),
            "ask" => Some(Mode::Ask),
            _ => None,
        }
    }
}

/// `[tools.NAME]`.
#[derive(Debug, Clone, Default)]
pub struct ToolEntry {
    pub name: String,
    pub lane: Option<Lane>,
    pub timeout_ms: Option<u64>,
    pub max_output_bytes: Option<u64>,
    pub description: Option<String>,
    pub enabled: bool,
    pub command: Option<String>,
    pub sandbox: Option<String>,
    /// Whose schema and meaning an alias key has where agents share the name (SPEC 25.6):
    /// `claude`, `codex`, `gemini` or `seed`; without it a name the seeds use is the seeds'.
    pub dialect: Option<String>,
}

impl ToolEntry {
    /// Without `lane`, a tool is in `net` (24.3).
    pub fn lane(&self) -> Lane {
        self.lane.unwrap_or(Lane::Net)
    }
}

/// `[profiles.NAME]`.
#[derive(Debug, Clone)]
pub struct Profile {
    pub name: String,
    pub tools: Option<Vec<String>>,
    pub tools_at: Option<Range<usize>>,
    pub mode: Mode,
    pub sandbox: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct PathRules {
    pub deny: Vec<String>,
    pub read_only: Vec<String>,
}

#[derive(Debug, Clone, Default)]
pub struct RunTable {
    pub sandbox: Option<String>,
    pub writable_roots: Vec<String>,
}

/// `[[hooks.pre]]` / `[[hooks.post]]`.
#[derive(Debug, Clone)]
pub struct Hook {
    pub tools: Vec<String>,
    pub tools_at: Option<Range<usize>>,
    pub matcher: Option<String>,
    pub files: Vec<String>,
    pub command: String,
    pub timeout_ms: Option<u64>,
    pub sandbox: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Hooks {
    pub pre: Vec<Hook>,
    pub post: Vec<Hook>,
    /// After a call that failed (Claude Code's `PostToolUseFailure`, SPEC 29).
    pub post_failure: Vec<Hook>,
}

/// `[search]`: read by the search tool (SPEC 21, 24.3). The key never leaves the process:
/// `catalog` prints `<set>` in its place (24.7).
#[derive(Debug, Clone, Default)]
pub struct Search {
    pub provider: Option<String>,
    pub endpoint: Option<String>,
    pub api_key: Option<String>,
}

/// `[project]`: the commands behind seed 001's `build`, `test` and `validate`.
#[derive(Debug, Clone, Default)]
pub struct Project {
    pub build: Option<String>,
    pub test: Option<String>,
    pub validate: Option<String>,
}

/// `[loops]`: where the catalog's loops meet (SPEC 25.1), a hub name or a Redis URL.
#[derive(Debug, Clone, Default)]
pub struct Loops {
    pub hub: Option<String>,
}

/// `[client]`: how much of a result the client in front of the model keeps (SPEC 31.1).
#[derive(Debug, Clone, Default)]
pub struct ClientTable {
    pub max_result_chars: Option<u64>,
}

/// `[mcp_servers.NAME]` (SPEC 27.2, Codex's keys): another MCP server whose tools are offered
/// as `mcp__NAME__TOOL`. Stdio (`command`, `args`, `env`, `cwd`) or Streamable HTTP (`url`,
/// `bearer_token_env_var`, `http_headers`).
#[derive(Debug, Clone, Default)]
pub struct McpServer {
    pub name: String,
    pub command: Option<String>,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub cwd: Option<String>,
    pub url: Option<String>,
    pub bearer_token_env_var: Option<String>,
    pub http_headers: Vec<(String, String)>,
    /// Only these of its tools (by the upstream's own name), when given.
    pub enabled_tools: Option<Vec<String>>,
    pub disabled_tools: Vec<String>,
    pub timeout_ms: Option<u64>,
    pub startup_timeout_ms: Option<u64>,
}

/// The prefix of every upstream tool's name.
pub const UPSTREAM_PREFIX: &str = "mcp__";

/// A name as offered: characters outside `[A-Za-z0-9_-]` become `_` (27.2).
pub fn clean_name(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl McpServer {
    /// The name its tool `tool` is offered under.
    pub fn tool_name(&self, tool: &str) -> String {
        format!(
            "{UPSTREAM_PREFIX}{}__{}",
            clean_name(&self.name),
            clean_name(tool)
        )
    }

    /// Whether `enabled_tools` / `disabled_tools` let the upstream tool `tool` through.
    pub fn allows(&self, tool: &str) -> bool {
        let listed = |l: &[String]| l.iter().any(|t| t == tool || clean_name(t) == tool);
        self.enabled_tools.as_deref().is_none_or(listed) && !listed(&self.disabled_tools)
    }
}

/// A catalog file as read.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub tools: Vec<ToolEntry>,
    pub profiles: Vec<Profile>,
    pub paths: PathRules,
    pub run: RunTable,
    pub hooks: Hooks,
    pub search: Search,
    pub project: Project,
    pub loops: Loops,
    pub client: ClientTable,
    pub mcp_servers: Vec<McpServer>,
    /// `[permissions]` (SPEC 29).
    pub permissions: permissions::Rules,
}

impl Catalog {
    /// The upstream server and its tool's (cleaned) name a name `mcp__NAME__TOOL` stands for.
    pub fn upstream_of(&self, name: &str) -> Option<(&McpServer, String)> {
        let rest = name.strip_prefix(UPSTREAM_PREFIX)?;
        self.mcp_servers.iter().find_map(|s| {
            let tool = rest
                .strip_prefix(&clean_name(&s.name))?
                .strip_prefix("__")?;
            (!tool.is_empty()).then(|| (s, tool.to_string()))
        })
    }
}

/// How the catalog was asked for (SPEC 19.1): `--config` / `LOOPR_CONFIG`, `--profile` /
/// `LOOPR_PROFILE`, `--read-only` / `LOOPR_READ_ONLY`.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub config: Option<PathBuf>,
    pub profile: Option<String>,
    pub read_only: bool,
    /// `--permission-mode` / `LOOPR_PERMISSION_MODE` (SPEC 29): over the profile's `mode`.
    pub permission_mode: Option<Mode>,
}

/// One name the model is offered, and the tool it runs.
#[derive(Debug, Clone)]
pub struct Exposure {
    /// The name called (a catalog key, or a tool's own name without a catalog).
    pub name: String,
    /// The registry tool it runs (`command` for a command tool).
    pub tool: &'static str,
    /// Its catalog entry, when it has one.
    pub entry: Option<ToolEntry>,
}

/// The effective policy of this process: the catalog (or the built-in defaults) with the
/// profile and mode applied.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// The file in use.
    pub source: Option<PathBuf>,
    /// A file found inside the root and not used (19.1): said by `catalog` and `session show`.
    pub ignored: Option<PathBuf>,
    pub catalog: Catalog,
    pub profile: Option<String>,
    pub mode: Mode,
    pub exposed: Vec<Exposure>,
    /// Tools registered through the library (SPEC 30.1).
    pub extra: Extra,
}

/// A tool a library user registered on a `Toolbox` (SPEC 30.1), as the policy knows it: its
/// name, whether it only looks, and its number in the tools layer's table of registered tools.
#[derive(Debug, Clone, Copy)]
pub struct Registered {
    pub name: &'static str,
    pub read_only: bool,
    pub id: usize,
}

/// The tools one `Toolbox` registered, beside ours: the catalog offers, limits and disables
/// them as it does ours. Empty for the binary.
#[derive(Debug, Clone, Default)]
pub struct Extra(pub Vec<Registered>);

impl Extra {
    pub fn find(&self, name: &str) -> Option<Registered> {
        self.0.iter().copied().find(|t| t.name == name)
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|t| t.name).collect()
    }
}

impl Policy {
    /// The most characters of one result `client` passes on whole (SPEC 31.1): the catalog's
    /// `[client] max_result_chars` overrides the client's own limit.
    pub fn result_chars(&self, client: Option<crate::caps::Client>) -> Option<usize> {
        let set = self.catalog.client.max_result_chars;
        set.map(|n| usize::try_from(n).unwrap_or(usize::MAX))
            .or_else(|| client.and_then(|c| c.max_chars))
    }

    /// What the model is offered, in order: `schema` and `tools/list` show exactly this.
    pub fn exposed(&self) -> &[Exposure] {
        &self.exposed
    }

    /// Whether a call of the registry tool `tool` by its own name would be admitted: the name
    /// is offered, or (not switched off by its own key) an alias of the tool is. The same
    /// answer as the catalog's `admit` for a registry name, from the data alone, so a tool can
    /// ask it (the command tool: `validate` runs a model's command only where `run` is offered).
    pub fn offers(&self, tool: &str) -> bool {
        if self.exposed.iter().any(|e| e.name == tool) {
            return true;
        }
        let off = self
            .catalog
            .tools
            .iter()
            .any(|t| t.name == tool && !t.enabled);
        !off && self.exposed.iter().any(|e| e.tool == tool)
    }

    pub fn read_only(&self) -> bool {
        self.mode == Mode::ReadOnly
    }

    /// The catalog's sandbox floors for run-like calls (24.7): `[run] sandbox`, the profile's
    /// and the tool's own `sandbox`.
    pub fn sandbox_floors<'a>(
        &'a self,
        entry: Option<&'a ToolEntry>,
    ) -> impl Iterator<Item = &'a str> {
        let profile = self
            .profile
            .as_ref()
            .and_then(|p| self.catalog.profiles.iter().find(|x| &x.name == p))
            .and_then(|p| p.sandbox.as_deref());
        self.catalog
            .run
            .sandbox
            .as_deref()
            .into_iter()
            .chain(profile)
            .chain(entry.and_then(|e| e.sandbox.as_deref()))
    }
}
