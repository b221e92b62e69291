//! Command tools (SPEC 19.1, 24.3): a fixed command under a name of its own, as a catalog
//! defines it (`[tools.test] command = "cargo test"`), or seed 001's `build`, `test` and
//! `validate`, whose command comes from `[project]` or the root's project files. The model
//! gives only `args`, appended shell-quoted; the command runs as run runs it.
//!
//! Not in the registry: without a catalog there are no command tools. Dispatch sets the
//! catalog entry (the name called, the command, the lane) on the context before it runs.

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::policy::{self, ToolEntry, project};
use crate::run;
use crate::shell::quote;
use crate::tool::{Effect, Hints, Tool};
use schemars::JsonSchema;
use serde::Deserialize;

pub struct Command;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// Extra arguments, appended to the command shell-quoted (e.g. a test name to run only it).
    pub args: Option<Vec<String>>,
    /// `validate` only: the phase artifact whose `validation_command` runs (default: the
    /// session's latest phase).
    pub phase: Option<String>,
    /// `validate` only: whose phase (default this session's). The command always runs in this
    /// call's root: the worktree with the code under test (SPEC 25.3).
    pub session: Option<String>,
}

/// The description a model reads for a command tool without one of its own.
pub fn describe(name: &str, entry: Option<&ToolEntry>) -> String {
    let what = match entry.and_then(|e| e.command.as_deref()) {
        Some(c) => format!("Runs `{c}` in the project root"),
        None => format!("Runs the project's {name} command in the project root"),
    };
    format!(
        "{what}, as `run` runs commands (no terminal, a time limit, clean capped output; a non-zero exit is an error that still carries the output). `args` are appended to the command, each shell-quoted."
    )
}

impl Tool for Command {
    type Input = Input;
    const NAME: &'static str = policy::COMMAND_TOOL;
    const SUMMARY: &'static str =
        "A command tool of the catalog: a fixed command, extra args appended";
    const DESCRIPTION: &'static str =
        "Runs the catalog's fixed command for this tool, with `args` appended shell-quoted.";
    const HINTS: Hints = Hints {
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
    };
    const OUTPUT_CAP: usize = crate::caps::RUN;

    fn read_only(_: &Input) -> bool {
        false
    }

    fn effect(_: &Input) -> Effect {
        Effect::Commands
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let name = ctx.call.name.clone();
        let entry = ctx.call.entry.clone().unwrap_or_default();
        for (field, given) in [
            ("phase", input.phase.is_some()),
            ("session", input.session.is_some()),
        ] {
            if given && name != "validate" {
                return Err(ToolError::invalid(
                    field,
                    format!("`{field}` is for validate, not {name}"),
                ));
            }
        }
        let owner = input.session.clone().unwrap_or_else(|| ctx.session.clone());
        crate::loops::check_session("session", &owner)?;
        let mut phase_used = None;
        let base = match &entry.command {
            Some(c) => c.clone(),
            None => {
                let found = project::command(&name, &ctx.policy.catalog.project, &ctx.root_real);
                match found {
                    // `phase` names a phase's own check, which the catalog's command replaces
                    // only when no phase is named.
                    Some((c, _)) if input.phase.is_none() && input.session.is_none() => c,
                    _ if name == "validate" => {
                        let (phase, command) = phase_command(ctx, &owner, input.phase.as_deref())?;
                        phase_used = Some(phase);
                        command
                    }
                    _ => return Err(not_found(&name)),
                }
            }
        };
        let mut command = base.clone();
        for a in input.args.unwrap_or_default() {
            if a.contains('\0') {
                return Err(ToolError::invalid(
                    "args",
                    "an argument contains a NUL byte",
                ));
            }
            command.push(' ');
            command.push_str(&quote(&a));
        }
        let run_input = run::Input {
            command: command.clone(),
            timeout_ms: entry.timeout_ms,
            cwd: None,
            env: None,
            stdin: None,
            background: None,
            interactive: None,
            tty: None,
            rows: None,
            cols: None,
            network: None,
            sandbox: entry.sandbox.as_deref().and_then(run::confine::Mode::parse),
            sandbox_fallback: None,
            description: None,
        };
        let validating = name == "validate";
        let with_command = |mut data: serde_json::Value| {
            data["command"] = command.clone().into();
            if validating {
                data["session"] = owner.clone().into();
                data["phase"] = phase_used.clone().into();
                data["root"] = ctx.root.display().to_string().into();
            }
            data
        };
        match <run::Run as Tool>::run(ctx, run_input) {
            Ok(s) => {
                let data = with_command(s.data.into_value(&[]));
                Ok(Success::new(s.output, data))
            }
            Err(mut e) => {
                e.data = e.data.map(with_command);
                Err(e.with("command", command.as_str()))
            }
        }
    }
}

/// The `validation_command` of a phase artifact of this session (SPEC 24.3): the one named, or
/// the latest made. A model wrote it, so it runs only where the profile also offers `run`
/// (24.7): a loop that may not run commands gets no command this way either.
fn phase_command(ctx: &Ctx, owner: &str, named: Option<&str>) -> Result<(String, String)> {
    use crate::loops::store;
    if !ctx.harness && !ctx.policy.offers("run") {
        return Err(ToolError::new(
            crate::error::Code::ToolDisabled,
            "validate would run a phase's validation_command, a command a model wrote; this profile does not offer run, so it does not run it",
        )
        .hint("Set [project] validate in the catalog, or offer run in this profile."));
    }
    let (name, phase) = match named {
        Some(n) => (
            n.to_string(),
            store::load_artifact(ctx, owner, "phase", n)?.ok_or_else(|| {
                ToolError::new(
                    crate::error::Code::NotFound,
                    format!("no phase artifact `{n}` in session {owner}"),
                )
                .with("field", "phase")
                .hint("List them with artifact {\"kind\": \"phase\"}.")
            })?,
        ),
        None => {
            let mut latest: Option<(String, String, serde_json::Value)> = None;
            for n in store::artifact_names(ctx, owner, "phase")? {
                if let Some(v) = store::load_artifact(ctx, owner, "phase", &n)? {
                    let at = v["created_at"].as_str().unwrap_or("").to_string();
                    if latest.as_ref().is_none_or(|(t, _, _)| at >= *t) {
                        latest = Some((at, n, v));
                    }
                }
            }
            latest
                .map(|(_, n, v)| (n, v))
                .ok_or_else(|| not_found("validate"))?
        }
    };
    match phase["validation_command"].as_str() {
        Some(c) if !c.trim().is_empty() => Ok((name, c.to_string())),
        _ => Err(not_found("validate")),
    }
}

fn not_found(name: &str) -> ToolError {
    let why = if name == "validate" {
        "no validation command is set: `validate` runs the catalog's [project] validate, else the validation_command of the session's latest phase artifact (create_phase), and there is neither".to_string()
    } else {
        format!(
            "no {name} command is set and none was found in the root (Cargo.toml, package.json, go.mod, pyproject.toml or pytest.ini, Makefile)"
        )
    };
    ToolError::usage(why).hint(project::how_to_set(name))
}
