//! `Toolbox`: the tools in-process (SPEC 30.1), built from the settings the CLI's global
//! options give, calling through the same pipeline as `loopr-tool call` (dispatch: names and
//! aliases, the catalog, hooks, limits), so a call here and the same call as a process answer
//! the same envelope.

use super::envelope::Envelope;
use super::error::{Error, Result};
use super::inputs::ToolInput;
use super::tool::{self, Tool};
use crate::catalog::{self, COMMAND_TOOL, Extra, Options, Policy};
use crate::context::{Ctx, Globals};
use crate::envelope::{self as internal, Format};
use crate::error::ToolError;
use crate::integration::{self, call, schema};
use crate::policy::Registered;
use crate::tool::DynTool;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

/// loopr-tool's tools, in-process: what `loopr-tool` does per call, without a process per call.
///
/// Built once from the settings the binary's global options give ([`Toolbox::builder`]), then
/// shared: a `Toolbox` is `Send + Sync`, and calls from many threads take the same locks and
/// keep the same state rules as many processes would (SPEC 2.2).
///
/// ```no_run
/// let tools = loopr_tool::Toolbox::builder()
///     .root("/path/to/project")
///     .session("loop-1")
///     .build()?;
/// let env = tools.call("read", serde_json::json!({"path": "README.md"}));
/// println!("{}", env.output);
/// # Ok::<(), loopr_tool::Error>(())
/// ```
pub struct Toolbox {
    globals: Globals,
}

impl std::fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolbox")
            .field("root", &self.globals.root)
            .field("session", &self.globals.session)
            .field("state_dir", &self.globals.state_dir)
            .field("tools", &self.names())
            .finish_non_exhaustive()
    }
}

/// The settings of a [`Toolbox`]: one setter per global option of `loopr-tool` (its `--root`,
/// `--session`, …), each defaulting as the option does when it is not given. Environment
/// variables (`LOOPR_ROOT`, …) are not read: a harness says what it wants.
///
/// Options that only shape what the binary prints (`--format`, `--pretty`) have no setter.
#[derive(Default)]
#[must_use]
pub struct ToolboxBuilder {
    root: Option<PathBuf>,
    session: Option<String>,
    state_dir: Option<PathBuf>,
    config: Option<PathBuf>,
    profile: Option<String>,
    read_only: bool,
    permission_mode: Option<String>,
    no_sandbox: bool,
    no_read_check: bool,
    allow_private: bool,
    allow_dangerous: bool,
    sandbox: Option<String>,
    hub: Option<String>,
    harness: bool,
    client: Option<String>,
    helper: Option<PathBuf>,
    tools: Vec<Pending>,
}

/// A tool waiting for `build`: its name, and how to adapt it once the names are checked.
struct Pending {
    name: String,
    adapt: Box<dyn Send + Sync + FnOnce() -> &'static dyn DynTool>,
}

impl std::fmt::Debug for ToolboxBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolboxBuilder")
            .field("root", &self.root)
            .field("session", &self.session)
            .field("state_dir", &self.state_dir)
            .field("config", &self.config)
            .field("profile", &self.profile)
            .field(
                "tools",
                &self.tools.iter().map(|t| &t.name).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl ToolboxBuilder {
    /// `--root`: the sandbox root; relative paths in calls resolve against it. Default: the
    /// current directory. A relative root is taken against the current directory now.
    pub fn root(mut self, path: impl Into<PathBuf>) -> Self {
        self.root = Some(path.into());
        self
    }

    /// `--session`: scopes read tracking, todos and undo history. Default: `default`.
    pub fn session(mut self, id: impl Into<String>) -> Self {
        self.session = Some(id.into());
        self
    }

    /// `--state-dir`: where state lives. Default: `$XDG_STATE_HOME/loopr-tool`, else
    /// `~/.local/state/loopr-tool`.
    pub fn state_dir(mut self, path: impl Into<PathBuf>) -> Self {
        self.state_dir = Some(path.into());
        self
    }

    /// `--config`: the catalog file (which tools are offered, their limits, path rules and
    /// hooks). Default: `$XDG_CONFIG_HOME/loopr/catalog.toml` or `~/.config/loopr/catalog.toml`
    /// when it exists and is not inside the root.
    pub fn config(mut self, path: impl Into<PathBuf>) -> Self {
        self.config = Some(path.into());
        self
    }

    /// `--profile`: the catalog profile (loop type) whose tools are offered.
    pub fn profile(mut self, name: impl Into<String>) -> Self {
        self.profile = Some(name.into());
        self
    }

    /// `--read-only`: offer only tools that change nothing (plan mode).
    pub fn read_only(mut self, on: bool) -> Self {
        self.read_only = on;
        self
    }

    /// `--permission-mode` (SPEC 29): `default`, `read-only`, `accept-edits`, `bypass` or `ask`
    /// (Claude Code's `plan`, `acceptEdits`, `bypassPermissions` too), over the profile's.
    pub fn permission_mode(mut self, mode: impl Into<String>) -> Self {
        self.permission_mode = Some(mode.into());
        self
    }

    /// `--no-sandbox`: paths may leave the root.
    pub fn no_sandbox(mut self, on: bool) -> Self {
        self.no_sandbox = on;
        self
    }

    /// `--no-read-check`: write and edit do not require a prior read.
    pub fn no_read_check(mut self, on: bool) -> Self {
        self.no_read_check = on;
        self
    }

    /// `--allow-private`: fetch may reach loopback and private addresses.
    pub fn allow_private(mut self, on: bool) -> Self {
        self.allow_private = on;
        self
    }

    /// `--allow-dangerous`: run skips its destructive-command guard.
    pub fn allow_dangerous(mut self, on: bool) -> Self {
        self.allow_dangerous = on;
        self
    }

    /// `--sandbox`: the weakest sandbox `run` may use, a floor for its `sandbox` field:
    /// `none` (the default), `workspace-write` or `read-only`.
    pub fn sandbox(mut self, mode: impl Into<String>) -> Self {
        self.sandbox = Some(mode.into());
        self
    }

    /// `--hub`: where loops meet (SPEC 25.1): a name shared by every root that names it, or a
    /// `redis://` / `rediss://` URL. Without it: the catalog's `[loops] hub`, else the git
    /// repository of the root (all its worktrees meet), else the root.
    pub fn hub(mut self, hub: impl Into<String>) -> Self {
        self.hub = Some(hub.into());
        self
    }

    /// `--harness`: this Toolbox makes a harness's own control calls (SPEC 25.3): the
    /// catalog's offer does not bind them; the sandbox and path rules still do.
    pub fn harness(mut self, on: bool) -> Self {
        self.harness = on;
        self
    }

    /// `--client`: the agent that passes results on to its model (`claude-code`, `codex`,
    /// `gemini-cli`); results are sized so that it never cuts one (SPEC 31.1).
    pub fn client(mut self, name: impl Into<String>) -> Self {
        self.client = Some(name.into());
        self
    }

    /// The program `run` starts its keeper and background jobs' supervisors from (processes
    /// that must outlive a call): a `loopr-tool` binary. Without it they are started from this
    /// process's own executable, which must then call [`helper_main`](crate::helper_main)
    /// first thing in `main`. Process-wide: a second, different helper is refused.
    pub fn helper(mut self, program: impl Into<PathBuf>) -> Self {
        self.helper = Some(program.into());
        self
    }

    /// Adds a tool of the harness's own, offered and called like ours (see [`Tool`]). Its
    /// name is checked by `build`.
    pub fn register<T: Tool>(mut self, tool: T) -> Self {
        self.tools.push(Pending {
            name: tool.name().to_string(),
            adapt: Box::new(move || tool::register(tool)),
        });
        self
    }

    /// The `Toolbox`, or why these settings cannot be used: the root does not exist or is not
    /// a directory, the session id is not valid, the catalog cannot be read or has problems,
    /// the profile is not in it, the sandbox mode is unknown, or a registered tool's name is
    /// invalid or taken. Every such error is `invalid_input`, naming the setting in `field`.
    pub fn build(self) -> Result<Toolbox> {
        let fail = |field: &str, e: ToolError| Error::from_internal(e.with("field", field));
        let root = absolute(self.root.unwrap_or_else(|| PathBuf::from(".")))
            .map_err(|e| fail("root", e))?;
        let state_dir = match self.state_dir {
            Some(d) => Some(absolute(d).map_err(|e| fail("state_dir", e))?),
            None => None,
        };
        if let Some(m) = self
            .sandbox
            .as_deref()
            .filter(|m| !["none", "workspace-write", "read-only"].contains(m))
        {
            return Err(fail(
                "sandbox",
                ToolError::usage(format!(
                    "sandbox {m:?}: use none, workspace-write or read-only"
                )),
            ));
        }
        let client = match self
            .client
            .as_deref()
            .map(|n| (n, loopr_core::caps::Client::named(n)))
        {
            None => None,
            Some((_, Some(c))) => Some(c),
            Some((n, None)) => return Err(fail("client", loopr_core::caps::Client::unknown(n))),
        };
        if let Some(helper) = self.helper {
            set_helper(helper).map_err(|e| fail("helper", e))?;
        }
        let extra = registered(self.tools)?;
        let options = Options {
            config: self
                .config
                .map(absolute)
                .transpose()
                .map_err(|e| fail("config", e))?,
            profile: self.profile,
            read_only: self.read_only,
            permission_mode: match self.permission_mode.as_deref() {
                None => None,
                Some(m) => Some(crate::catalog::Mode::parse(m).ok_or_else(|| {
                    fail(
                        "permission_mode",
                        ToolError::usage(format!(
                            "permission mode {m:?}: use one of {}",
                            crate::catalog::Mode::WORDS.join(", ")
                        )),
                    )
                })?),
            },
        };
        let globals = Globals {
            root: Some(root.clone()),
            session: self.session,
            state_dir,
            no_sandbox: self.no_sandbox,
            no_read_check: self.no_read_check,
            allow_private: self.allow_private,
            allow_dangerous: self.allow_dangerous,
            run_sandbox: self.sandbox,
            format: Format::Json,
            pretty: false,
            policy: Arc::new(Policy::default()),
            hub: self.hub,
            harness: self.harness,
            client,
            approve: None,
        };
        // The root, the session and the state dir are checked as every call checks them.
        if let Err(e) = Ctx::new(&globals) {
            let field = if e.message.starts_with("invalid session id") {
                "session"
            } else if e.message.starts_with("no state directory") {
                "state_dir"
            } else {
                "root"
            };
            return Err(fail(field, e));
        }
        let policy = catalog::load_with(&options, &root, extra).map_err(|e| {
            let m = e.message.as_str();
            let field = if m.starts_with("no profile `") || m.starts_with("profile `") {
                "profile"
            } else {
                "config"
            };
            if e.extra.contains_key("field") {
                Error::from_internal(e)
            } else {
                fail(field, e)
            }
        })?;
        Ok(Toolbox {
            globals: Globals {
                policy: Arc::new(policy),
                ..globals
            },
        })
    }
}

/// Names the program keepers and supervisors are started from (see `ToolboxBuilder::helper`).
fn set_helper(program: PathBuf) -> crate::error::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let real = std::fs::canonicalize(&program)
        .ok()
        .filter(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
        .ok_or_else(|| {
            ToolError::usage(format!(
                "the helper {} is not an executable file",
                program.display()
            ))
            .hint("Name a loopr-tool binary.")
        })?;
    if !crate::tools::run::keeper::set_program(real.clone()) {
        return Err(ToolError::usage(format!(
            "the helper {} differs from the one this process already uses",
            real.display()
        )));
    }
    Ok(())
}

/// `p` made absolute against the current directory, lexically.
fn absolute(p: PathBuf) -> crate::error::Result<PathBuf> {
    if p.is_absolute() {
        return Ok(crate::context::normalize_lexically(&p));
    }
    let cwd = std::env::current_dir().map_err(|e| {
        ToolError::usage(format!(
            "no current directory to resolve {}: {e}",
            p.display()
        ))
    })?;
    Ok(crate::context::normalize_lexically(&cwd.join(p)))
}

/// The harness's tools adapted for the registry, once every name is known to be free.
fn registered(tools: Vec<Pending>) -> Result<Extra> {
    let mut seen: Vec<&str> = vec![];
    for t in &tools {
        let name = t.name.as_str();
        let taken = crate::tools::find(name).is_some()
            || crate::dialects::find(name).is_some()
            || integration::Kind::from_word(name).is_some()
            || name == COMMAND_TOOL;
        let why = if !tool::valid_name(name) {
            Some(format!(
                "the tool name {name:?} is not valid: use 1 to 64 of A-Z a-z 0-9 _ -"
            ))
        } else if taken {
            Some(format!(
                "a tool named `{name}` already exists in loopr-tool; register yours under a name of its own"
            ))
        } else if seen.contains(&name) {
            Some(format!("two tools are registered as `{name}`"))
        } else {
            None
        };
        if let Some(why) = why {
            return Err(Error::from_internal(
                ToolError::invalid("tools", why).with("tool", name),
            ));
        }
        seen.push(name);
    }
    let registered = tools.into_iter().map(|t| {
        let tool = (t.adapt)();
        Registered {
            name: tool.name(),
            read_only: tool.hints().read_only,
            id: crate::tools::register(tool),
        }
    });
    Ok(Extra(registered.collect()))
}

impl Toolbox {
    /// The settings, each at its default until set; `build` checks them.
    pub fn builder() -> ToolboxBuilder {
        ToolboxBuilder::default()
    }

    /// Runs one call of tool `name` (ours, an agent's alias such as `Read` or `shell`, a
    /// catalog's name, or a tool the harness registered) with `input`, the JSON object the
    /// model gave: exactly what `loopr-tool call` answers for `{"name": name, "input": input}`,
    /// the catalog applied (a tool not offered is `tool_disabled`, a name that exists nowhere
    /// `unknown_tool`), hooks and limits included. Never panics on a tool's panic: that call
    /// answers `internal_error`.
    pub fn call(&self, name: &str, input: Value) -> Envelope {
        Envelope::from_internal(call::run_named(&self.globals, name, input))
    }

    /// As [`Toolbox::call`], under the approval `approval` that an `approval_required` answer
    /// gave in `error.approval.id` (SPEC 29): for that exact call, used once, within 10
    /// minutes. `loopr-tool --approve ID` is this.
    pub fn call_approved(&self, name: &str, input: Value, approval: &str) -> Envelope {
        let g = Globals {
            approve: Some(approval.to_string()),
            ..self.globals.clone()
        };
        Envelope::from_internal(call::run_named(&g, name, input))
    }

    /// A harness's own control call (SPEC 25.3), as `loopr-tool --harness TOOL` makes it: the
    /// catalog's offer does not bind it (the sandbox, path rules and permission rules still
    /// do). The way to the harness-only `permissions` tool (SPEC 29):
    /// `control("permissions", json!({"action": "grant", "rule": "Bash(npm test:*)"}))`.
    /// Needs a Toolbox built with [`ToolboxBuilder::harness`]; otherwise `tool_disabled`.
    pub fn control(&self, name: &str, input: Value) -> Envelope {
        let g = &self.globals;
        let found = match crate::dispatch::find(&g.policy, name) {
            Err(e) if g.harness && e.code == crate::error::Code::ToolDisabled => {
                crate::dispatch::unrestricted(name).ok_or(e)
            }
            found => found,
        };
        let env = match found {
            Ok(r) => r.prepare(&g.policy, input).run(g),
            Err(e) => internal::Envelope::failure(name, e, &[]),
        };
        Envelope::from_internal(env)
    }

    /// As [`Toolbox::call`], with a typed input (see [`inputs`](crate::inputs)): the tool is
    /// `I::TOOL`, and the input is sent as the JSON it serialises to, absent fields left out.
    pub fn call_typed<I: ToolInput>(&self, input: I) -> Envelope {
        match serde_json::to_value(&input) {
            Ok(mut v) => {
                // The typed input's `None`s are left out (SPEC 16.2), so what reaches the tool
                // and a catalog's hooks is the JSON a model would have written.
                crate::input::strip_nulls(&mut v);
                self.call(I::TOOL, v)
            }
            Err(e) => Envelope::from_internal(internal::Envelope::failure(
                I::TOOL,
                ToolError::usage(format!("{}: the input did not serialise: {e}", I::TOOL)),
                &[],
            )),
        }
    }

    /// The definitions of the tools offered (the catalog applied, registered tools included),
    /// to hand a model: what `loopr-tool schema --for FORMAT` prints. `format` is `anthropic`,
    /// `openai` (Chat Completions), `openai-responses` or `mcp` (a `tools/list` entry per
    /// tool). Another `format` gives the `invalid_input` envelope as a JSON object instead of
    /// an array.
    pub fn schema(&self, format: &str) -> Value {
        let Some(flavor) = schema::Flavor::parse(format) else {
            let err = ToolError::invalid(
                "format",
                format!(
                    "schema: unknown format {format:?}; use {}",
                    schema::Flavor::NAMES.join(", ")
                ),
            );
            return internal::Envelope::failure("schema", err, &[]).into_value(None);
        };
        let defs = crate::dispatch::offered(&self.globals.policy)
            .iter()
            .map(|r| schema::offered_definition(r, flavor, false))
            .collect();
        Value::Array(defs)
    }

    /// Runs many calls as `loopr-tool batch` does: each element is a call in any shape `call`
    /// reads (`{"name", "input"}`, an Anthropic `tool_use` block, an OpenAI tool call), runs of
    /// read-only calls in parallel, everything else in order. The envelopes come back in the
    /// calls' order, one per call. `Err` when the batch itself is refused (more than 10,000
    /// calls).
    pub fn batch(&self, calls: impl IntoIterator<Item = Value>) -> Result<Vec<Envelope>> {
        let calls: Vec<Value> = calls.into_iter().collect();
        let bytes = serde_json::to_vec(&calls)
            .map_err(|e| Error::from_internal(ToolError::usage(format!("batch: {e}"))))?;
        let mut envelopes = Vec::with_capacity(calls.len());
        drop(calls);
        let status = {
            let mut sink = |r: call::Reply| envelopes.push(r.env);
            call::batch(&self.globals, &bytes, &mut sink)
        };
        match status {
            Ok(_) => Ok(envelopes.into_iter().map(Envelope::from_internal).collect()),
            Err(reply) => Err(Error::from_info(
                Envelope::from_internal(reply.env)
                    .error
                    .expect("a refused batch's envelope is a failure"),
            )),
        }
    }

    /// The names offered, in order: what [`Toolbox::schema`] lists.
    pub fn names(&self) -> Vec<String> {
        self.globals
            .policy
            .exposed()
            .iter()
            .map(|e| e.name.clone())
            .collect()
    }
}
