//! The command line as one value: argv is read once into an `Invocation`, which `cli::run` then
//! executes. Which family a word names is decided here, by enums (`integration::Kind`), so no
//! later step matches on strings or has an `unreachable!` arm.

use super::args::{clap_error, tool_command};
use super::generate;
use super::globals::{base_command, globals, harness, load_policy, tool_word};
use crate::catalog;
use crate::context::Globals;
use crate::dispatch::{self, Resolved};
use crate::error::{Code, ToolError};
use crate::integration::{self, Request};
use clap::ArgMatches;
use std::sync::Arc;

/// What the command line asks for.
// One value per process, moved once: boxing the large variant would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum Invocation {
    /// A tool, an agent's alias or a catalog key, its flags matched; its input (flags or stdin)
    /// is read when it runs.
    Tool(ToolCall),
    /// An integration command (`schema`, `call`, `batch`, `mcp`, `catalog`).
    Command { globals: Globals, request: Request },
    /// The hidden `generate`: completions and man pages.
    Generate(generate::Request),
    /// `--help`, `-h`, `help [TOOL]`, `TOOL --help`: clap's text, printed as it is.
    Help(clap::Error),
    /// `--version`.
    Version(clap::Error),
    /// Nothing left to do (clap answered a `help` already).
    Done,
    /// No tool named: the usage, and `invalid_input`.
    NoTool,
}

/// A tool call from the command line, before its input is read.
pub struct ToolCall {
    pub resolved: Resolved,
    /// `session` when the catalog does not offer it: the command line may still look
    /// (SPEC 24.3), and this refusal answers anything else.
    pub held: Option<ToolError>,
    pub globals: Globals,
    /// The tool's own subcommand matches: its fields.
    pub matches: ArgMatches,
}

/// Why argv is not an invocation: the error, and the name its envelope carries.
pub struct Failure {
    pub tool: String,
    pub err: ToolError,
}

impl Failure {
    fn new(tool: &str, err: ToolError) -> Failure {
        Failure {
            tool: tool.to_string(),
            err,
        }
    }
}

type Parsed = Result<Invocation, Failure>;

impl Invocation {
    /// Reads argv. Only the subcommand named is built (see args.rs), and the catalog is read
    /// only for what needs it.
    pub fn parse(args: &[String]) -> Parsed {
        let word = tool_word(args).map(|i| args[i].as_str());
        if let Some(kind) = word.and_then(integration::Kind::from_word) {
            return command(kind, args);
        }
        match word {
            Some("generate") => generate_command(args),
            None | Some("help") => help(args),
            Some(w) => tool(w, args),
        }
    }
}

/// clap's answer when it did not match: help and version are invocations, the rest failures
/// named for `tool` (or `loopr-tool`).
fn clap_answer(e: clap::Error, tool: Option<&str>) -> Parsed {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp => Ok(Invocation::Help(e)),
        ErrorKind::DisplayVersion => Ok(Invocation::Version(e)),
        _ => {
            let name = tool.unwrap_or("loopr-tool");
            Err(Failure::new(name, clap_error(name, e)))
        }
    }
}

fn command(kind: integration::Kind, args: &[String]) -> Parsed {
    let name = kind.name();
    let cmd = base_command().subcommand(kind.command());
    let matches = match cmd.try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => return clap_answer(e, Some(name)),
    };
    let (_, sub) = matches.subcommand().expect("the command was given");
    let request = kind.request(sub);
    // `catalog --check FILE` judges one file, whatever the catalog in use says.
    let policy = if matches!(request, Request::Catalog { check: Some(_) }) {
        Ok(Arc::new(catalog::Policy::default()))
    } else {
        load_policy(args)
    };
    let globals = policy
        .and_then(|p| globals(&matches, p))
        .map_err(|e| Failure::new(name, e))?;
    Ok(Invocation::Command { globals, request })
}

fn generate_command(args: &[String]) -> Parsed {
    let cmd = base_command().subcommand(generate::command());
    match cmd.try_get_matches_from(args) {
        Ok(m) => Ok(Invocation::Generate(generate::request(
            m.subcommand().expect("generate was given").1,
        ))),
        Err(e) => clap_answer(e, Some("generate")),
    }
}

/// `loopr-tool`, `loopr-tool --help` and `loopr-tool help [TOOL]`: the full command line.
fn help(args: &[String]) -> Parsed {
    match super::full_command().try_get_matches_from(args) {
        // `help` took a tool's name and printed its help (clap handles it); nothing to run.
        Ok(m) if m.subcommand().is_some() => Ok(Invocation::Done),
        Ok(_) => Ok(Invocation::NoTool),
        Err(e) => clap_answer(e, None),
    }
}

fn tool(w: &str, args: &[String]) -> Parsed {
    let policy = load_policy(args).map_err(|e| Failure::new(w, e))?;
    // `session show` always works from the command line (a harness inspects a loop with it,
    // SPEC 24.3): a session not offered by the catalog still shows, and only shows.
    let harness = harness(args).map_err(|e| Failure::new(w, e))?;
    let (resolved, held) = match dispatch::find(&policy, w) {
        Ok(r) => (r, None),
        // A harness's control call: the catalog decides what a model is offered, not what the
        // harness may do (SPEC 25.3); the sandbox, path rules and every other check still hold.
        Err(e) if harness && e.code == Code::ToolDisabled => match dispatch::unrestricted(w) {
            Some(r) => (r, None),
            None => return Err(Failure::new(w, e)),
        },
        Err(e) if e.code == Code::ToolDisabled && catalog::target_tool(w) == Some("session") => {
            match dispatch::unrestricted(w) {
                Some(r) => (r, Some(e)),
                None => return Err(Failure::new(w, e)),
            }
        }
        // On the command line a word that names no tool is a usage error (exit 2).
        Err(mut e) if e.code == Code::UnknownTool => {
            e.code = Code::InvalidInput;
            e.hint = Some("Run `loopr-tool --help` for the list of tools.".into());
            return Err(Failure::new(w, e));
        }
        Err(e) => return Err(Failure::new(w, e)),
    };
    let name = resolved.tool.name();
    let cmd = base_command().subcommand(tool_command(resolved.tool).name(w.to_string()));
    let mut matches = match cmd.try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => return clap_answer(e, Some(name)),
    };
    let globals = globals(&matches, policy).map_err(|e| Failure::new(name, e))?;
    let (_, sub) = matches
        .remove_subcommand()
        .expect("the tool's subcommand was given");
    Ok(Invocation::Tool(ToolCall {
        resolved,
        held,
        globals,
        matches: sub,
    }))
}
