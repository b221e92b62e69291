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
pub mod print;
pub mod project;

use crate::dialects;
use crate::error::{Code, Result, ToolError};
use crate::tools;
use loopr_env_vars::EnvVars;
use serde::Serialize;
use std::ops::Range;
use std::path::{Path, PathBuf};

pub use grammar::Problem;

/// Seed 001's command tools that find their command when the catalog gives none (24.3).
pub const PROJECT_COMMANDS: &[&str] = &["build", "test", "validate"];

/// The registry name a command tool runs as (it is not in `tools::TOOLS`: without a catalog
/// there are no command tools).
pub const COMMAND_TOOL: &str = "command";

/// Tools that change nothing, exposed in read-only mode (SPEC 19.2, seed 003's plan mode).
const READ_ONLY_TOOLS: &[&str] = &[
    "read",
    "glob",
    "grep",
    "tree",
    "stat",
    "fetch",
    "search",
    "todo",
    "complete_task",
    "artifact",
];
/// Tools exposed in read-only mode for their calls that only look (`session show`, `jobs
/// list/output`, `inbox list`).
pub const READ_ONLY_CALLS: &[&str] = &["session", "jobs", "inbox"];

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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    #[default]
    Default,
    ReadOnly,
}

impl Mode {
    fn parse(s: &str) -> Mode {
        if s == "read-only" {
            Mode::ReadOnly
        } else {
            Mode::Default
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
}

impl ToolEntry {
    /// A command tool: a fixed command under a name of its own.
    pub fn is_command(&self) -> bool {
        self.command.is_some()
            || (target_tool(&self.name).is_none() && PROJECT_COMMANDS.contains(&self.name.as_str()))
    }

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
    tools_at: Option<Range<usize>>,
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
    tools_at: Option<Range<usize>>,
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
}

/// The registry tool a name runs: ours, or the tool an alias stands for.
pub fn target_tool(name: &str) -> Option<&'static str> {
    if let Some(t) = tools::find(name) {
        return Some(t.name());
    }
    let a = dialects::find(name)?;
    tools::find(a.tool).map(|t| t.name())
}

/// How the catalog was asked for (SPEC 19.1): `--config` / `LOOPR_CONFIG`, `--profile` /
/// `LOOPR_PROFILE`, `--read-only` / `LOOPR_READ_ONLY`.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub config: Option<PathBuf>,
    pub profile: Option<String>,
    pub read_only: bool,
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
    exposed: Vec<Exposure>,
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
    let text = std::fs::read_to_string(file).map_err(|e| {
        ToolError::usage(format!(
            "the catalog {} cannot be read: {e}",
            file.display()
        ))
        .with("file", file.to_string_lossy().into_owned())
        .hint("Name a readable TOML file with --config (LOOPR_CONFIG), or unset it.")
    })?;
    Ok(grammar::read(&text))
}

impl Policy {
    /// Finds, reads and applies the catalog. `root` is the sandbox root as given: a catalog
    /// found (not named) inside it is ignored, so a model cannot widen its own permissions by
    /// writing a file (19.1).
    pub fn load(o: &Options, root: &Path) -> Result<Policy> {
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
            let mut p = Policy::defaults(o)?;
            p.ignored = ignored;
            return Ok(p);
        };
        let (catalog, problems) = read_file(&file)?;
        if !problems.is_empty() {
            return Err(problems_error(&file, &problems));
        }
        Policy::apply(catalog, Some(file), o)
    }

    /// No catalog: every tool under its own name, with the built-in limits (19.2).
    fn defaults(o: &Options) -> Result<Policy> {
        if let Some(p) = &o.profile {
            return Err(ToolError::usage(format!(
                "profile `{p}` was asked for, but no catalog is in use"
            ))
            .hint("Name the catalog that defines it with --config FILE (LOOPR_CONFIG), or drop --profile."));
        }
        Policy::apply(Catalog::default(), None, o)
    }

    pub fn apply(catalog: Catalog, source: Option<PathBuf>, o: &Options) -> Result<Policy> {
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
        let read_only = o.read_only || profile.as_ref().is_some_and(|p| p.mode == Mode::ReadOnly);
        let listed = profile.as_ref().and_then(|p| p.tools.clone());
        let names: Vec<String> = match listed {
            Some(l) => l,
            None if !catalog.tools.is_empty() => {
                catalog.tools.iter().map(|t| t.name.clone()).collect()
            }
            None => tools::TOOLS.iter().map(|t| t.name().to_string()).collect(),
        };
        let mut exposed: Vec<Exposure> = vec![];
        for name in names {
            if exposed.iter().any(|e| e.name == name) {
                continue;
            }
            let entry = catalog.tools.iter().find(|t| t.name == name).cloned();
            if entry.as_ref().is_some_and(|e| !e.enabled) {
                continue;
            }
            let tool = match &entry {
                Some(e) if e.is_command() => COMMAND_TOOL,
                _ => match target_tool(&name) {
                    Some(t) => t,
                    None => continue,
                },
            };
            if read_only && !(READ_ONLY_TOOLS.contains(&tool) || READ_ONLY_CALLS.contains(&tool)) {
                continue;
            }
            exposed.push(Exposure { name, tool, entry });
        }
        Ok(Policy {
            source,
            ignored: None,
            profile: profile.map(|p| p.name),
            mode: if read_only {
                Mode::ReadOnly
            } else {
                Mode::Default
            },
            catalog,
            exposed,
        })
    }

    /// What the model is offered, in order: `schema` and `tools/list` show exactly this.
    pub fn exposed(&self) -> &[Exposure] {
        &self.exposed
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

    /// The exposure a called name runs under, or why it is refused: `unknown_tool` for a name
    /// that exists nowhere, `tool_disabled` for one that exists but is not offered (19.2).
    /// Path rules, hooks and `tool_disabled` follow the tool that runs, whatever name was
    /// called (24.7): an alias of an exposed tool runs under that tool's entry.
    pub fn admit(&self, name: &str) -> Result<Exposure> {
        if let Some(e) = self.exposed.iter().find(|e| e.name == name) {
            return Ok(e.clone());
        }
        let key = self.catalog.tools.iter().find(|t| t.name == name);
        let tool = match key {
            Some(k) if k.is_command() => Some(COMMAND_TOOL),
            _ => target_tool(name),
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

    fn offered(&self) -> String {
        let names: Vec<&str> = self.exposed.iter().map(|e| e.name.as_str()).collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    }

    pub fn unknown(&self, name: &str) -> ToolError {
        ToolError::new(
            Code::UnknownTool,
            format!("unknown tool `{name}`; the tools are: {}", self.offered()),
        )
        .hint("Use one of the listed names (`loopr-tool schema` describes them).")
    }

    /// Where the refusal comes from, for its message: the profile, the mode, the catalog.
    fn by_whom(&self) -> String {
        let file = self
            .source
            .as_deref()
            .map(|f| format!(" of the catalog {}", f.display()))
            .unwrap_or_default();
        match (&self.profile, self.read_only()) {
            (Some(p), true) => format!("profile `{p}`{file} (read-only mode)"),
            (Some(p), false) => format!("profile `{p}`{file}"),
            (None, true) => format!("read-only mode{file}"),
            (None, false) => format!("the catalog{file}"),
        }
    }

    pub fn disabled(&self, name: &str, tool: &str, off: bool) -> ToolError {
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
                self.by_whom(),
                self.offered()
            ),
        )
        .with("tool", name)
        .hint("Use one of the offered tools; the catalog decides which tools this loop gets.");
        if let Some(p) = &self.profile {
            e = e.with("profile", p.as_str());
        }
        e
    }

    /// A call of a tool offered in read-only mode only for its calls that look (session show,
    /// jobs list/output, inbox list) that would change something.
    pub fn read_only_refusal(&self, name: &str) -> ToolError {
        ToolError::new(
            Code::ToolDisabled,
            format!(
                "`{name}` may only look under {}: this call would change something and was not run",
                self.by_whom()
            ),
        )
        .with("tool", name)
        .hint("In read-only mode only calls that change nothing run (e.g. session show, jobs list or output).")
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
