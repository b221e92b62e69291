//! Command tools (SPEC 19.1, 24.3): a fixed command under a name of its own, as a catalog
//! defines it (`[tools.test] command = "cargo test"`), or seed 001's `build`, `test` and
//! `validate`, whose command comes from `[project]` or the root's project files. The model
//! gives only `args`, appended shell-quoted; the command runs as run runs it.
//!
//! Not in the registry: without a catalog there are no command tools. Dispatch sets the
//! catalog entry (the name called, the command, the lane) on the context before it runs.

use crate::catalog::{self, ToolEntry, hooks::quote, project};
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::tool::{Effect, Hints, Tool};
use crate::tools::run;
use schemars::JsonSchema;
use serde::Deserialize;

pub struct Command;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// Extra arguments, appended to the command shell-quoted (e.g. a test name to run only it).
    pub args: Option<Vec<String>>,
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
    const NAME: &'static str = catalog::COMMAND_TOOL;
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
        let base = match &entry.command {
            Some(c) => c.clone(),
            None => {
                let found = project::command(&name, &ctx.policy.catalog.project, &ctx.root_real);
                match found {
                    Some((c, _)) => c,
                    None => return Err(not_found(&name)),
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
            network: None,
            sandbox: entry.sandbox.as_deref().and_then(run::confine::Mode::parse),
            sandbox_fallback: None,
            description: None,
        };
        let with_command = |mut data: serde_json::Value| {
            data["command"] = command.clone().into();
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

fn not_found(name: &str) -> ToolError {
    let why = if name == "validate" {
        "no validation command is set: `validate` runs the catalog's [project] validate (a phase artifact's validation_command comes with the loop artifacts, not built yet)".to_string()
    } else {
        format!(
            "no {name} command is set and none was found in the root (Cargo.toml, package.json, go.mod, pyproject.toml or pytest.ini, Makefile)"
        )
    };
    ToolError::usage(why).hint(project::how_to_set(name))
}
