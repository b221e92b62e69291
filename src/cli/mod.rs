//! The command line (SPEC §1.1, §2, 16.2). argv becomes one `Invocation` (invocation.rs), which
//! is then executed: a tool's call through dispatch, an integration command, `generate`, or
//! clap's help. Global options and their variables are globals.rs; a tool's flags, generated
//! from its input schema, are args.rs. The hidden entry points never get here (arg0.rs).

mod args;
mod generate;
mod globals;
mod invocation;

use crate::envelope::Envelope;
use crate::error::ToolError;
use crate::exit_status::ExitStatus;
use crate::integration;
use crate::tools;
use clap::Command;
use invocation::{Failure, Invocation, ToolCall};

/// Runs the command line `args` (argv, the program's name first).
pub fn run(args: Vec<String>) -> ExitStatus {
    match Invocation::parse(&args) {
        Ok(invocation) => execute(invocation, &args),
        Err(Failure { tool, err }) => fail(&tool, err, &args),
    }
}

fn execute(invocation: Invocation, args: &[String]) -> ExitStatus {
    match invocation {
        Invocation::Tool(call) => run_tool(call),
        Invocation::Command { globals, request } => {
            crate::panic_hook::set_panic_context(request.name(), globals.format, globals.pretty);
            integration::run(&globals, request)
        }
        Invocation::Generate(request) => generate::run(&request, &full_command()),
        Invocation::Help(e) | Invocation::Version(e) => {
            let _ = e.print();
            ExitStatus::Success
        }
        Invocation::Done => ExitStatus::Success,
        Invocation::NoTool => {
            let names: Vec<&str> = tools::TOOLS.iter().map(|t| t.name()).collect();
            eprintln!(
                "Usage: loopr-tool [GLOBAL OPTIONS] <TOOL> [FIELDS]   (loopr-tool --help for more)"
            );
            let err = ToolError::usage(format!(
                "no tool given; the tools are: {}",
                names.join(", ")
            ))
            .hint("Name a tool, e.g. `loopr-tool read README.md`.");
            fail("loopr-tool", err, args)
        }
    }
}

/// A failure met before there were globals: printed as `--format`/`--pretty` on argv ask.
fn fail(tool: &str, err: ToolError, args: &[String]) -> ExitStatus {
    let (format, pretty) = globals::sniff_format(args);
    Envelope::failure(tool, err, &[]).print(format, pretty)
}

fn run_tool(call: ToolCall) -> ExitStatus {
    let ToolCall {
        resolved,
        held,
        globals: g,
        matches,
    } = call;
    let name = resolved.tool.name();
    crate::panic_hook::set_panic_context(name, g.format, g.pretty);
    let envelope = match args::input_for(resolved.tool, &matches) {
        Ok(input) => {
            let call = resolved.prepare(&g.policy, input);
            match held {
                Some(e) if !call.is_read_only() => Envelope::failure(name, e, &[]),
                _ => call.run(&g),
            }
        }
        Err(e) => Envelope::failure(name, e, &[]),
    };
    envelope.print(g.format, g.pretty)
}

/// Every tool and command, for `--help` and `help TOOL` (and `generate`): the environment
/// section is only here, so a tool's call does not build it.
pub fn full_command() -> Command {
    let cmd = tools::TOOLS
        .iter()
        .fold(globals::base_command(), |c, t| {
            c.subcommand(args::tool_command(*t))
        })
        .after_long_help(globals::after_long_help());
    integration::Kind::ALL
        .iter()
        .fold(cmd, |c, kind| c.subcommand(kind.command()))
}
