//! The catalog (SPEC 19, 24.3, 24.7): one file that says which tools a loop gets, under which
//! names, with which limits, which paths no tool may touch, and what runs around the calls.
//!
//! This module owns the policy and nothing else acts on its own: dispatch asks `Policy::admit`
//! for every call whatever the entry point, the sandbox's resolver applies `paths`, and hooks
//! wrap the call in dispatch. Tools never ask whether they are enabled.
//!
//! Without a catalog the policy is today's behaviour: every tool under its own name.

pub mod grammar;
pub mod hooks;
pub mod limits;
pub mod permit;
pub mod print;
pub mod upstream;
pub use crate::policy::project;

use crate::dialects;
use crate::error::{Code, Result, ToolError};
use crate::tools;
use loopr_env_vars::EnvVars;
use std::path::{Path, PathBuf};

pub use grammar::Problem;

/// Seed 001's command tools that find their command when the catalog gives none (24.3).
pub const PROJECT_COMMANDS: &[&str] = &["build", "test", "validate"];

pub use crate::policy::Extra;
pub use crate::policy::{
    COMMAND_TOOL, Catalog, Exposure, Hook, Lane, McpServer, Mode, Options, Policy, Profile,
    ToolEntry,
};

/// Tools that change nothing, exposed in read-only mode (SPEC 19.2, seed 003's plan mode).
const READ_ONLY_TOOLS: &[&str] = &[
    "read",
    "glob",
    "grep",
    "tree",
    "stat",
    "symbols",
    "map",
    "fetch",
    "search",
    "todo",
    "complete_task",
    "artifact",
];
/// Tools for a harness alone (`--harness`, SPEC 25.3, 29): never offered to a model.
pub const HARNESS_TOOLS: &[&str] = &["permissions"];

/// Tools exposed in read-only mode for their calls that only look (`session show`, `jobs
/// list/output`, `inbox list`).
pub const READ_ONLY_CALLS: &[&str] = &["session", "jobs", "inbox"];

/// A command tool: a fixed command under a name of its own.
pub fn is_command(e: &ToolEntry) -> bool {
    e.command.is_some()
        || (target_tool(&e.name).is_none() && PROJECT_COMMANDS.contains(&e.name.as_str()))
}

/// The tool a name runs: ours or an alias's, else one registered through the library.
fn target(extra: &Extra, name: &str) -> Option<&'static str> {
    target_tool(name).or_else(|| extra.find(name).map(|t| t.name))
}

/// Whether a catalog entry is a command tool under `extra`: not when a registered tool has its
/// name (a harness's own `test` tool is that tool, unless the entry gives a `command`).
fn is_command_beside(extra: &Extra, e: &ToolEntry) -> bool {
    is_command(e) && (e.command.is_some() || extra.find(&e.name).is_none())
}

/// The registry tool a name runs: ours, or the tool an alias stands for.
pub fn target_tool(name: &str) -> Option<&'static str> {
    if let Some(t) = tools::find(name) {
        return Some(t.name());
    }
    let a = dialects::find(name)?;
    tools::find(a.tool).map(|t| t.name())
}

/// Where the catalog is looked for when none is named: `$XDG_CONFIG_HOME/loopr/catalog.toml`,
/// else `~/.config/loopr/catalog.toml` (19.1).
fn default_path() -> Option<PathBuf> {
    if let Some(x) =
        std::env::var_os(EnvVars::XDG_CONFIG_HOME).filter(|x| Path::new(x).is_absolute())
    {
        return Some(PathBuf::from(x).join("loopr/catalog.toml"));
    }
    std::env::var_os(EnvVars::HOME)
        .filter(|h| Path::new(h).is_absolute())
        .map(|h| PathBuf::from(h).join(".config/loopr/catalog.toml"))
}

/// A file's problems as the `invalid_input` of every call (24.3): exit 2, `error.problems`.
pub fn problems_error(file: &Path, problems: &[Problem]) -> ToolError {
    let first = &problems[0];
    let more = match problems.len() {
        1 => String::new(),
        2 => " (and 1 more problem)".to_string(),
        n => format!(" (and {} more problems)", n - 1),
    };
    ToolError::usage(format!(
        "the catalog {}:{}:{}: {}{more}",
        file.display(),
        first.line,
        first.column,
        first.message
    ))
    .with("file", file.to_string_lossy().into_owned())
    .with(
        "problems",
        serde_json::to_value(problems).unwrap_or_default(),
    )
    .hint(format!(
        "Fix the catalog; `loopr-tool catalog --check {}` lists every problem.",
        file.display()
    ))
}

/// Reads and checks one catalog file.
pub fn read_file(file: &Path) -> Result<(Catalog, Vec<Problem>)> {
    read_file_knowing(file, &Extra::default())
}

/// As `read_file`, knowing the tools registered through the library.
pub fn read_file_knowing(file: &Path, extra: &Extra) -> Result<(Catalog, Vec<Problem>)> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        ToolError::usage(format!(
            "the catalog {} cannot be read: {e}",
            file.display()
        ))
        .with("file", file.to_string_lossy().into_owned())
        .hint("Name a readable TOML file with --config (LOOPR_CONFIG), or unset it.")
    })?;
    Ok(grammar::read_knowing(&text, &extra.names()))
}

/// Finds, reads and applies the catalog. `root` is the sandbox root as given: a catalog
/// found (not named) inside it is ignored, so a model cannot widen its own permissions by
/// writing a file (19.1).
pub fn load(o: &Options, root: &Path) -> Result<Policy> {
    load_with(o, root, Extra::default())
}

/// As `load`, with the tools registered through the library (SPEC 30.1) beside ours.
pub fn load_with(o: &Options, root: &Path, extra: Extra) -> Result<Policy> {
    let (file, named) = match &o.config {
        Some(f) => (Some(f.clone()), true),
        None => (default_path().filter(|p| p.is_file()), false),
    };
    let mut ignored = None;
    let file = file.filter(|f| {
        if named || !inside(f, root) {
            return true;
        }
        ignored = Some(f.clone());
        false
    });
    let Some(file) = file else {
        let mut p = defaults(o, extra)?;
        p.ignored = ignored;
        return Ok(p);
    };
    let (catalog, problems) = read_file_knowing(&file, &extra)?;
    if !problems.is_empty() {
        return Err(problems_error(&file, &problems));
    }
    apply_with(catalog, Some(file), o, extra)
}

/// No catalog: every tool under its own name, with the built-in limits (19.2).
fn defaults(o: &Options, extra: Extra) -> Result<Policy> {
    if let Some(p) = &o.profile {
        return Err(ToolError::usage(format!(
            "profile `{p}` was asked for, but no catalog is in use"
        ))
        .hint("Name the catalog that defines it with --config FILE (LOOPR_CONFIG), or drop --profile."));
    }
    apply_with(Catalog::default(), None, o, extra)
}

/// The catalog with the profile and mode applied: what each name runs, and what is offered.
fn apply_with(
    catalog: Catalog,
    source: Option<PathBuf>,
    o: &Options,
    extra: Extra,
) -> Result<Policy> {
    let profile = match &o.profile {
        None => None,
        Some(name) => Some(
            catalog
                .profiles
                .iter()
                .find(|p| &p.name == name)
                .cloned()
                .ok_or_else(|| {
                    let names: Vec<&str> =
                        catalog.profiles.iter().map(|p| p.name.as_str()).collect();
                    ToolError::usage(format!(
                        "no profile `{name}` in the catalog {}; its profiles: {}",
                        source.as_deref().unwrap_or(Path::new("?")).display(),
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    ))
                })?,
        ),
    };
    let mode = o
        .permission_mode
        .or(profile.as_ref().map(|p| p.mode))
        .unwrap_or_default();
    let read_only = o.read_only || mode == Mode::ReadOnly;
    let listed = profile.as_ref().and_then(|p| p.tools.clone());
    let names: Vec<String> = match listed {
        Some(l) => l,
        // Keys that only tune an upstream tool (27.3) do not narrow ours.
        None if catalog.tools.iter().any(|t| !is_upstream_key(t)) => catalog
            .tools
            .iter()
            .filter(|t| !is_upstream_key(t))
            .map(|t| t.name.clone())
            .collect(),
        None => tools::TOOLS
            .iter()
            .map(|t| t.name())
            .chain(extra.names())
            .map(str::to_string)
            .collect(),
    };
    let mut exposed: Vec<Exposure> = vec![];
    for name in names {
        if exposed.iter().any(|e| e.name == name) || HARNESS_TOOLS.contains(&name.as_str()) {
            continue;
        }
        let entry = catalog.tools.iter().find(|t| t.name == name).cloned();
        if entry.as_ref().is_some_and(|e| !e.enabled) {
            continue;
        }
        let tool = match &entry {
            Some(e) if is_command_beside(&extra, e) => COMMAND_TOOL,
            _ => match target(&extra, &name) {
                Some(t) => t,
                None => continue,
            },
        };
        let looks = READ_ONLY_TOOLS.contains(&tool)
            || READ_ONLY_CALLS.contains(&tool)
            || extra.find(tool).is_some_and(|t| t.read_only);
        if read_only && !looks {
            continue;
        }
        exposed.push(Exposure { name, tool, entry });
    }
    Ok(Policy {
        source,
        ignored: None,
        profile: profile.map(|p| p.name),
        mode: if read_only { Mode::ReadOnly } else { mode },
        catalog,
        exposed,
        extra,
    })
}

/// What the catalog answers for a called name (SPEC 19.2): admitted, or refused with the
/// reason. A trait because `Policy` is core data and admission needs the registry of tools.
pub trait Admission {
    /// The exposure a called name runs under, or why it is refused: `unknown_tool` for a name
    /// that exists nowhere, `tool_disabled` for one that exists but is not offered (19.2).
    /// Path rules, hooks and `tool_disabled` follow the tool that runs, whatever name was
    /// called (24.7): an alias of an exposed tool runs under that tool's entry.
    fn admit(&self, name: &str) -> Result<Exposure>;

    /// `unknown_tool` for `name`, listing the names offered.
    fn unknown(&self, name: &str) -> ToolError;

    /// `tool_disabled` for `name` (running `tool`); `off` when its own key switched it off.
    fn disabled(&self, name: &str, tool: &str, off: bool) -> ToolError;

    /// A call of a tool offered in read-only mode only for its calls that look (session show,
    /// jobs list/output, inbox list) that would change something.
    fn read_only_refusal(&self, name: &str) -> ToolError;
}

impl Admission for Policy {
    /// The exposure a called name runs under, or why it is refused: `unknown_tool` for a name
    /// that exists nowhere, `tool_disabled` for one that exists but is not offered (19.2).
    /// Path rules, hooks and `tool_disabled` follow the tool that runs, whatever name was
    /// called (24.7): an alias of an exposed tool runs under that tool's entry.
    fn admit(&self, name: &str) -> Result<Exposure> {
        if let Some(e) = self.exposed.iter().find(|e| e.name == name) {
            return Ok(e.clone());
        }
        if let Some((server, tool)) = self.catalog.upstream_of(name) {
            return admit_upstream(self, name, server, &tool);
        }
        let key = self.catalog.tools.iter().find(|t| t.name == name);
        let tool = match key {
            Some(k) if is_command_beside(&self.extra, k) => Some(COMMAND_TOOL),
            _ => target(&self.extra, name),
        };
        let Some(tool) = tool else {
            return Err(self.unknown(name));
        };
        let explicitly_off = key.is_some_and(|k| !k.enabled);
        if tool != COMMAND_TOOL
            && !explicitly_off
            && let Some(e) = self.exposed.iter().find(|e| e.tool == tool)
        {
            return Ok(Exposure {
                name: name.to_string(),
                tool,
                entry: e.entry.clone(),
            });
        }
        Err(self.disabled(name, tool, explicitly_off))
    }

    fn unknown(&self, name: &str) -> ToolError {
        ToolError::new(
            Code::UnknownTool,
            format!("unknown tool `{name}`; the tools are: {}", offered(self)),
        )
        .hint("Use one of the listed names (`loopr-tool schema` describes them).")
    }

    fn disabled(&self, name: &str, tool: &str, off: bool) -> ToolError {
        let why = if off {
            " (enabled = false)".to_string()
        } else {
            String::new()
        };
        let shown = if name == tool || tool == COMMAND_TOOL {
            format!("`{name}`")
        } else {
            format!("`{name}` ({tool})")
        };
        let mut e = ToolError::new(
            Code::ToolDisabled,
            format!(
                "{shown} is not offered under {}{why}; it was not run. The tools offered: {}",
                by_whom(self),
                offered(self)
            ),
        )
        .with("tool", name)
        .hint("Use one of the offered tools; the catalog decides which tools this loop gets. A harness's own control call passes --harness (LOOPR_HARNESS=1).");
        if let Some(p) = &self.profile {
            e = e.with("profile", p.as_str());
        }
        e
    }

    /// A call of a tool offered in read-only mode only for its calls that look (session show,
    /// jobs list/output, inbox list) that would change something.
    fn read_only_refusal(&self, name: &str) -> ToolError {
        ToolError::new(
            Code::ToolDisabled,
            format!(
                "`{name}` may only look under {}: this call would change something and was not run",
                by_whom(self)
            ),
        )
        .with("tool", name)
        .hint("In read-only mode only calls that change nothing run (e.g. session show, jobs list or output).")
    }
}

/// The names offered, for messages.
fn is_upstream_key(t: &ToolEntry) -> bool {
    t.name.starts_with(crate::policy::UPSTREAM_PREFIX)
}

/// An upstream MCP server's tool (SPEC 27.3): offered from `[mcp_servers]` whatever `[tools]`
/// holds, narrowed by the profile's list, its `[tools.NAME]` key's `enabled`, the server's
/// `enabled_tools`/`disabled_tools`, and read-only mode (an upstream tool may change anything).
fn admit_upstream(p: &Policy, name: &str, server: &McpServer, tool: &str) -> Result<Exposure> {
    let key = p.catalog.tools.iter().find(|t| t.name == name);
    let off = key.is_some_and(|k| !k.enabled);
    let profile_list = p
        .profile
        .as_ref()
        .and_then(|n| p.catalog.profiles.iter().find(|x| &x.name == n))
        .and_then(|x| x.tools.as_ref());
    let left_out = !server.allows(tool);
    if off
        || left_out
        || p.read_only()
        || profile_list.is_some_and(|l| !l.iter().any(|t| t == name))
    {
        let mut e = p.disabled(name, name, off);
        if left_out {
            e.message = format!(
                "`{name}` is left out by enabled_tools/disabled_tools of [mcp_servers.{}]",
                server.name
            );
        }
        return Err(e);
    }
    Ok(Exposure {
        name: name.to_string(),
        tool: upstream::UPSTREAM_TOOL,
        entry: key.cloned(),
    })
}

fn offered(p: &Policy) -> String {
    let names: Vec<&str> = p.exposed.iter().map(|e| e.name.as_str()).collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// Where a refusal comes from, for its message: the profile, the mode, the catalog.
fn by_whom(p: &Policy) -> String {
    let file = p
        .source
        .as_deref()
        .map(|f| format!(" of the catalog {}", f.display()))
        .unwrap_or_default();
    match (&p.profile, p.read_only()) {
        (Some(p), true) => format!("profile `{p}`{file} (read-only mode)"),
        (Some(p), false) => format!("profile `{p}`{file}"),
        (None, true) => format!("read-only mode{file}"),
        // "the catalog of the catalog F" read badly (issue 32).
        (None, false) => match &p.source {
            Some(f) => format!("the catalog {}", f.display()),
            None => "the catalog".to_string(),
        },
    }
}

/// Whether `file` lies inside `root`, by real paths (a link into the root counts as inside).
fn inside(file: &Path, root: &Path) -> bool {
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let root = real(root);
    real(file).starts_with(&root)
        || crate::context::normalize_lexically(
            &std::env::current_dir().unwrap_or_default().join(file),
        )
        .starts_with(&root)
}
