//! The command line (SPEC §1.1, §2, 16.2): global options, and each tool's fields as flags and
//! positionals, generated from the tool's input schema.
//!
//! Only the subcommand being run is built: a harness spawns us once per tool call, and building
//! every tool's flags would be start-up time spent on nothing.

use crate::catalog;
use crate::context::Globals;
use crate::dispatch;
use crate::envelope::{Envelope, Format};
use crate::error::{Result, ToolError};
use crate::input::{self, Field, Kind};
use crate::integration;
use crate::tool::DynTool;
use crate::tools;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::{Map, Value};
use std::path::PathBuf;
use std::sync::Arc;

/// Global options that take a value (the only ones whose next word is not the tool's name).
const VALUE_GLOBALS: &[&str] = &[
    "--root",
    "--session",
    "--state-dir",
    "--format",
    "--sandbox",
    "--config",
    "--profile",
];

/// Global options that are not run's own business: a tool field of the same name (artifact's
/// `session`) gets no flag, since the flag is the global option wherever it stands (SPEC 2);
/// such a field is given in the JSON input.
const GLOBAL_FIELDS: &[&str] = &["root", "session", "state_dir", "format", "pretty"];

pub const ABOUT: &str =
    "File, search, web and shell tools for LLM coding agents: JSON in on stdin, JSON out on stdout";

fn base_command() -> Command {
    let global = |a: Arg| a.global(true).help_heading("Global options");
    Command::new("loopr-tool")
        .version(env!("CARGO_PKG_VERSION"))
        .about(ABOUT)
        .after_help(
            "Each tool reads one JSON object on stdin, or its fields as flags, and prints one JSON object:\n  \
             {\"ok\":true,\"tool\":\"read\",\"output\":\"...\",\"data\":{...}}\n\
             Exit status: 0 ok, 1 the tool failed, 2 invalid input. `loopr-tool TOOL --help` lists a tool's fields.",
        )
        .subcommand_required(false)
        .disable_help_subcommand(false)
        .arg(global(Arg::new("root").long("root").value_name("DIR").help("Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]")))
        .arg(global(Arg::new("session").long("session").value_name("ID").help("Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]")))
        .arg(global(Arg::new("state-dir").long("state-dir").value_name("DIR").help("Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]")))
        .arg(global(Arg::new("no-sandbox").long("no-sandbox").action(ArgAction::SetTrue).help("Paths may leave the root [env: LOOPR_NO_SANDBOX=1]")))
        .arg(global(Arg::new("no-read-check").long("no-read-check").action(ArgAction::SetTrue).help("write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]")))
        .arg(global(Arg::new("allow-private").long("allow-private").action(ArgAction::SetTrue).help("fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]")))
        .arg(global(Arg::new("allow-dangerous").long("allow-dangerous").action(ArgAction::SetTrue).help("run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]")))
        // Not global: after the tool's name, `--sandbox` is run's own field, which must never
        // be able to lower this floor.
        .arg(Arg::new("sandbox").long("sandbox").value_name("MODE").value_parser(["none", "workspace-write", "read-only"]).help_heading("Global options").help("The weakest sandbox run may use, a floor for its `sandbox` field; give it before the tool's name [env: LOOPR_RUN_SANDBOX] [default: none]"))
        .arg(global(Arg::new("format").long("format").value_name("FORMAT").value_parser(["json", "text"]).help("json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]")))
        .arg(global(Arg::new("pretty").long("pretty").action(ArgAction::SetTrue).help("Indent the JSON")))
        .arg(global(Arg::new("config").long("config").value_name("FILE").help("The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]")))
        .arg(global(Arg::new("profile").long("profile").value_name("NAME").help("The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]")))
        .arg(global(Arg::new("read-only").long("read-only").action(ArgAction::SetTrue).help("Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]")))
}

fn flag_name(field: &str) -> String {
    field.replace('_', "-")
}

/// A tool's subcommand: its positionals, then one flag per input field.
pub fn tool_command(tool: &dyn DynTool) -> Command {
    let fields = input::fields(tool.input_schema());
    let mut examples = String::new();
    if !tool.examples().is_empty() {
        examples = format!("Examples:\n{}", tool.examples());
    }
    let mut cmd = Command::new(tool.name())
        .about(tool.summary())
        .long_about(tool.description())
        .after_help(examples);
    for (i, p) in tool.positionals().iter().enumerate() {
        cmd = cmd.arg(
            Arg::new(format!("@{p}"))
                .index(i + 1)
                .value_name(p.to_uppercase())
                .help(format!("Same as --{}", flag_name(p))),
        );
    }
    for f in fields
        .iter()
        .filter(|f| !GLOBAL_FIELDS.contains(&f.name.as_str()))
    {
        cmd = cmd.args(field_args(f));
    }
    if fields.iter().any(|f| f.name == "path") {
        cmd = cmd.arg(
            Arg::new("file_path")
                .long("file-path")
                .value_name("PATH")
                .hide(true),
        );
    }
    cmd
}

fn field_args(f: &Field) -> Vec<Arg> {
    let mut help = f.description.clone();
    if f.required {
        help.push_str(" [required]");
    }
    if let Some(d) = &f.default {
        help.push_str(&format!(" [default: {d}]"));
    }
    let short = f.name.strip_prefix('-').and_then(|s| s.chars().next());
    let base = match short {
        Some(c) => Arg::new(f.name.clone()).short(c),
        None => Arg::new(f.name.clone()).long(flag_name(&f.name)),
    };
    match f.kind {
        Kind::Bool => {
            let mut args = vec![base.clone().action(ArgAction::SetTrue).help(help)];
            let neg = format!("no-{}", f.name);
            let mut no = Arg::new(neg.clone())
                .action(ArgAction::SetTrue)
                .conflicts_with(f.name.clone())
                .help(format!("Sets {} to false", f.name));
            no = match short {
                // A short switch that defaults to true (grep's `-n`) must be switchable off:
                // `--no-n`, or the upper-case letter as in ripgrep (`-N`).
                Some(c) => no.long(format!("no-{c}")).short(c.to_ascii_uppercase()),
                None => no.long(format!("no-{}", flag_name(&f.name))),
            };
            args.push(no);
            args
        }
        Kind::StringArray => vec![base.action(ArgAction::Append).value_name("TEXT").help(help)],
        Kind::StringMap => vec![base.action(ArgAction::Append).value_name("K=V").help(help)],
        _ => {
            let mut a = base.num_args(1).allow_hyphen_values(true).help(help);
            a = match f.kind {
                Kind::Integer | Kind::Number => a.value_name("N"),
                Kind::Json => a.value_name("JSON"),
                _ => a.value_name("TEXT"),
            };
            if !f.choices.is_empty() {
                a = a.value_parser(clap::builder::PossibleValuesParser::new(f.choices.clone()));
            }
            vec![a]
        }
    }
}

fn given(m: &ArgMatches, id: &str) -> bool {
    m.value_source(id) == Some(ValueSource::CommandLine)
}

/// The fields given on the command line, as the JSON object the tool parses.
fn cli_fields(tool: &dyn DynTool, m: &ArgMatches) -> Result<Map<String, Value>> {
    let fields = input::fields(tool.input_schema());
    let mut out = Map::new();
    for f in fields
        .iter()
        .filter(|f| !GLOBAL_FIELDS.contains(&f.name.as_str()))
    {
        let name = f.name.as_str();
        let value = match f.kind {
            Kind::Bool => {
                if given(m, name) {
                    Some(Value::Bool(true))
                } else if given(m, &format!("no-{name}")) {
                    Some(Value::Bool(false))
                } else {
                    None
                }
            }
            _ if !given(m, name) => None,
            Kind::StringArray => {
                let vals: Vec<&String> = m
                    .get_many::<String>(name)
                    .map(|v| v.collect())
                    .unwrap_or_default();
                match vals.as_slice() {
                    // A glob such as `[ch]*.rs` also starts with `[`: text without a quote that
                    // does not parse as JSON is a plain value.
                    [one]
                        if one.trim_start().starts_with('[')
                            && (one.contains('"')
                                || serde_json::from_str::<Value>(one).is_ok()) =>
                    {
                        Some(parse_json(name, one)?)
                    }
                    _ => Some(vals.into_iter().map(|s| Value::String(s.clone())).collect()),
                }
            }
            Kind::StringMap => {
                let vals: Vec<&String> = m
                    .get_many::<String>(name)
                    .map(|v| v.collect())
                    .unwrap_or_default();
                match vals.as_slice() {
                    [one] if one.trim_start().starts_with('{') => Some(parse_json(name, one)?),
                    _ => Some(string_map(name, &vals)?),
                }
            }
            _ => m
                .get_one::<String>(name)
                .map(|s| scalar(f, s))
                .transpose()?,
        };
        if let Some(v) = value {
            out.insert(f.name.clone(), v);
        }
    }
    for p in tool.positionals() {
        if let Some(v) = m.get_one::<String>(&format!("@{p}")) {
            if out.contains_key(*p) {
                return Err(ToolError::invalid(
                    p,
                    format!(
                        "field `{p}` is given twice: positionally and as --{}",
                        flag_name(p)
                    ),
                ));
            }
            let f = fields.iter().find(|f| f.name == *p);
            let v = match f {
                Some(f) => scalar(f, v)?,
                None => Value::String(v.clone()),
            };
            out.insert(p.to_string(), v);
        }
    }
    if let Some(v) = m.try_get_one::<String>("file_path").ok().flatten() {
        out.insert("file_path".into(), Value::String(v.clone()));
    }
    Ok(out)
}

/// `--env K=V --env K2=V2` as a JSON object; a name given twice is refused.
fn string_map(field: &str, pairs: &[&String]) -> Result<Value> {
    let mut map = Map::new();
    for pair in pairs {
        let Some((k, v)) = pair.split_once('=') else {
            return Err(ToolError::invalid(
                field,
                format!(
                    "--{} takes NAME=VALUE (or a JSON object), not {pair:?}",
                    flag_name(field)
                ),
            ));
        };
        if map
            .insert(k.to_string(), Value::String(v.to_string()))
            .is_some()
        {
            return Err(ToolError::invalid(
                field,
                format!("--{}: {k} is given twice", flag_name(field)),
            ));
        }
    }
    Ok(Value::Object(map))
}

fn parse_json(field: &str, text: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| {
        ToolError::invalid(
            field,
            format!("--{} takes JSON text: {e}", flag_name(field)),
        )
    })
}

fn scalar(f: &Field, s: &str) -> Result<Value> {
    match f.kind {
        Kind::Integer => s.trim().parse::<i64>().map(Value::from).map_err(|_| {
            ToolError::invalid(
                &f.name,
                format!("field `{}` takes an integer, not {s:?}", f.name),
            )
        }),
        Kind::Number => s
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(|n| serde_json::Number::from_f64(n).map(Value::Number))
            .ok_or_else(|| {
                ToolError::invalid(
                    &f.name,
                    format!("field `{}` takes a number, not {s:?}", f.name),
                )
            }),
        Kind::Json | Kind::StringArray | Kind::StringMap => parse_json(&f.name, s),
        Kind::Bool => Ok(Value::Bool(true)),
        Kind::String => Ok(Value::String(s.to_string())),
    }
}

fn env_flag(var: &str) -> Result<bool> {
    match std::env::var(var) {
        Err(_) => Ok(false),
        Ok(v) => match v.trim().to_ascii_lowercase().as_str() {
            "" | "0" | "false" | "no" | "off" => Ok(false),
            "1" | "true" | "yes" | "on" => Ok(true),
            other => Err(ToolError::usage(format!(
                "{var}={other:?} is not a boolean: use 1 or 0"
            ))),
        },
    }
}

fn env_value(var: &str) -> Option<String> {
    std::env::var(var).ok().filter(|v| !v.is_empty())
}

/// The value of global option `flag` straight off argv (`--flag V` or `--flag=V`): the catalog
/// must be known before clap is set up, since its command tools are subcommands too.
fn sniff_value(args: &[String], flag: &str) -> Option<String> {
    let eq = format!("{flag}=");
    let mut found = None;
    for (i, a) in args.iter().enumerate().skip(1) {
        if a == "--" {
            break;
        }
        if a == flag {
            found = args.get(i + 1).cloned();
        } else if let Some(v) = a.strip_prefix(&eq) {
            found = Some(v.to_string());
        }
    }
    found
}

/// The catalog as the command line and the environment ask for it (SPEC 19.1).
pub fn catalog_options(args: &[String]) -> Result<catalog::Options> {
    let stop = args.iter().position(|a| a == "--").unwrap_or(args.len());
    Ok(catalog::Options {
        config: sniff_value(args, "--config")
            .or_else(|| env_value("LOOPR_CONFIG"))
            .map(PathBuf::from),
        profile: sniff_value(args, "--profile").or_else(|| env_value("LOOPR_PROFILE")),
        read_only: args[..stop].iter().any(|a| a == "--read-only") || env_flag("LOOPR_READ_ONLY")?,
    })
}

/// Reads the catalog for this process.
pub fn load_policy(args: &[String]) -> Result<Arc<catalog::Policy>> {
    let options = catalog_options(args)?;
    let root = sniff_value(args, "--root")
        .or_else(|| env_value("LOOPR_ROOT"))
        .unwrap_or_else(|| ".".to_string());
    catalog::load(&options, std::path::Path::new(&root)).map(Arc::new)
}

fn globals(m: &ArgMatches, policy: Arc<catalog::Policy>) -> Result<Globals> {
    let flag_or_env =
        |id: &str, var: &str| m.get_one::<String>(id).cloned().or_else(|| env_value(var));
    let run_sandbox = flag_or_env("sandbox", "LOOPR_RUN_SANDBOX");
    if let Some(m) = run_sandbox
        .as_deref()
        .filter(|m| !["none", "workspace-write", "read-only"].contains(m))
    {
        return Err(ToolError::usage(format!(
            "LOOPR_RUN_SANDBOX={m:?}: use none, workspace-write or read-only"
        )));
    }
    let format = match flag_or_env("format", "LOOPR_FORMAT").as_deref() {
        None | Some("json") => Format::Json,
        Some("text") => Format::Text,
        Some(other) => {
            return Err(ToolError::usage(format!(
                "LOOPR_FORMAT={other:?}: use json or text"
            )));
        }
    };
    Ok(Globals {
        root: flag_or_env("root", "LOOPR_ROOT").map(PathBuf::from),
        session: flag_or_env("session", "LOOPR_SESSION"),
        state_dir: flag_or_env("state-dir", "LOOPR_STATE_DIR").map(PathBuf::from),
        no_sandbox: m.get_flag("no-sandbox") || env_flag("LOOPR_NO_SANDBOX")?,
        no_read_check: m.get_flag("no-read-check") || env_flag("LOOPR_NO_READ_CHECK")?,
        allow_private: m.get_flag("allow-private") || env_flag("LOOPR_FETCH_ALLOW_PRIVATE")?,
        allow_dangerous: m.get_flag("allow-dangerous") || env_flag("LOOPR_ALLOW_DANGEROUS")?,
        run_sandbox,
        format,
        pretty: m.get_flag("pretty"),
        policy,
    })
}

/// `--format` and `--pretty` read straight off argv, for errors met before clap has parsed.
fn sniff_format(args: &[String]) -> (Format, bool) {
    let mut format = match env_value("LOOPR_FORMAT").as_deref() {
        Some("text") => Format::Text,
        _ => Format::Json,
    };
    let mut pretty = false;
    for (i, a) in args.iter().enumerate() {
        let value = if a == "--format" {
            args.get(i + 1).map(String::as_str)
        } else {
            a.strip_prefix("--format=")
        };
        match value {
            Some("text") => format = Format::Text,
            Some("json") => format = Format::Json,
            _ => {}
        }
        pretty |= a == "--pretty";
    }
    (format, pretty)
}

/// The index of the tool's name in argv: the first word that is neither an option nor an
/// option's value.
fn tool_word(args: &[String]) -> Option<usize> {
    let mut i = 1;
    while i < args.len() {
        let a = args[i].as_str();
        if a == "--" {
            return None;
        }
        if VALUE_GLOBALS.contains(&a) {
            i += 2;
        } else if a.starts_with('-') {
            i += 1;
        } else {
            return Some(i);
        }
    }
    None
}

fn fail(tool: &str, err: ToolError, args: &[String]) -> i32 {
    let (format, pretty) = sniff_format(args);
    Envelope::failure(tool, err, &[]).print(format, pretty)
}

/// clap's complaint as `invalid_input`, naming the flag's field where it can.
fn clap_error(tool: &str, e: clap::Error) -> ToolError {
    use clap::error::{ContextKind, ContextValue};
    let rendered = e.render().to_string();
    let first = rendered
        .lines()
        .next()
        .unwrap_or("invalid command line")
        .trim_start_matches("error: ")
        .to_string();
    let mut err = ToolError::usage(format!("{tool}: {first}")).hint(format!(
        "Run `loopr-tool {tool} --help` for the accepted fields and flags."
    ));
    if let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) {
        let field = arg
            .trim_start_matches('-')
            .split([' ', '='])
            .next()
            .unwrap_or("")
            .replace('-', "_");
        if !field.is_empty() && !field.starts_with('<') {
            err = err.with("field", field);
        }
    }
    if let Some(tool) = tools::find(tool) {
        err.message.push_str(&format!(
            "; accepted fields: {}",
            input::accepted_fields(tool.input_schema())
        ));
    }
    err
}

pub fn run(args: Vec<String>) -> i32 {
    let word = tool_word(&args).map(|i| args[i].clone());
    if let Some(cmd) = word
        .as_deref()
        .filter(|w| integration::COMMANDS.contains(w))
    {
        return run_integration(cmd, &args);
    }
    if word.as_deref() == Some(crate::tools::run::supervisor::COMMAND) && args.len() == 2 {
        return crate::tools::run::supervisor::main();
    }
    if word.as_deref() == Some(crate::tools::run::keeper::COMMAND) && args.len() == 2 {
        return crate::tools::run::keeper::main();
    }
    if word.as_deref() == Some("generate") {
        let cmd = base_command().subcommand(crate::generate::command());
        return match cmd.try_get_matches_from(&args) {
            Ok(m) => crate::generate::run(m.subcommand().expect("generate was given").1),
            Err(e) => clap_failure(e, Some("generate"), &args),
        };
    }
    let Some(w) = word.clone().filter(|w| w != "help") else {
        return help_or_usage(&args);
    };
    let policy = match load_policy(&args) {
        Ok(p) => p,
        Err(e) => return fail(&w, e, &args),
    };
    // `session show` always works from the command line (a harness inspects a loop with it,
    // SPEC 24.3): a session not offered by the catalog still shows, and only shows.
    let (resolved, held) = match dispatch::find(&policy, &w) {
        Ok(r) => (r, None),
        Err(e)
            if e.code == crate::error::Code::ToolDisabled
                && catalog::target_tool(&w) == Some("session") =>
        {
            match dispatch::unrestricted(&w) {
                Some(r) => (r, Some(e)),
                None => return fail(&w, e, &args),
            }
        }
        // On the command line a word that names no tool is a usage error (exit 2).
        Err(mut e) if e.code == crate::error::Code::UnknownTool => {
            e.code = crate::error::Code::InvalidInput;
            e.hint = Some("Run `loopr-tool --help` for the list of tools.".into());
            return fail(&w, e, &args);
        }
        Err(e) => return fail(&w, e, &args),
    };
    let cmd = base_command().subcommand(tool_command(resolved.tool).name(w.clone()));
    let matches = match cmd.try_get_matches_from(&args) {
        Ok(m) => m,
        Err(e) => return clap_failure(e, Some(resolved.tool.name()), &args),
    };
    let (_, sub) = matches
        .subcommand()
        .expect("the tool's subcommand was given");
    let g = match globals(&matches, policy) {
        Ok(g) => g,
        Err(e) => return fail(resolved.tool.name(), e, &args),
    };
    integration::panic::set_panic_context(resolved.tool.name(), g.format, g.pretty);
    let envelope = match input_for(resolved.tool, sub) {
        Ok(input) => match held {
            Some(e) if !resolved.is_read_only(&input) => {
                Envelope::failure(resolved.tool.name(), e, &[])
            }
            _ => resolved.run(&g, input),
        },
        Err(e) => Envelope::failure(resolved.tool.name(), e, &[]),
    };
    envelope.print(g.format, g.pretty)
}

/// `loopr-tool`, `loopr-tool --help` and `loopr-tool help [TOOL]`: the full command line.
fn help_or_usage(args: &[String]) -> i32 {
    let matches = match full_command().try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => return clap_failure(e, None, args),
    };
    if matches.subcommand().is_some() {
        // `help` took a tool's name and printed its help (clap handles it); nothing to run.
        return 0;
    }
    let names: Vec<&str> = tools::TOOLS.iter().map(|t| t.name()).collect();
    eprintln!("Usage: loopr-tool [GLOBAL OPTIONS] <TOOL> [FIELDS]   (loopr-tool --help for more)");
    let err = ToolError::usage(format!(
        "no tool given; the tools are: {}",
        names.join(", ")
    ))
    .hint("Name a tool, e.g. `loopr-tool read README.md`.");
    fail("loopr-tool", err, args)
}

/// Every tool and command, for `--help` and `help TOOL`.
pub fn full_command() -> Command {
    let cmd = tools::TOOLS
        .iter()
        .fold(base_command(), |c, t| c.subcommand(tool_command(*t)));
    integration::COMMANDS
        .iter()
        .fold(cmd, |c, name| c.subcommand(integration::command(name)))
}

fn clap_failure(e: clap::Error, tool: Option<&str>, args: &[String]) -> i32 {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return 0;
    }
    let name = tool.unwrap_or("loopr-tool");
    fail(name, clap_error(name, e), args)
}

fn run_integration(name: &str, args: &[String]) -> i32 {
    let cmd = base_command().subcommand(integration::command(name));
    let matches = match cmd.try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => return clap_failure(e, Some(name), args),
    };
    let (_, sub) = matches.subcommand().expect("the command was given");
    // `catalog --check FILE` judges one file, whatever the catalog in use says.
    let policy = if name == "catalog" && sub.get_one::<String>("check").is_some() {
        Ok(Arc::new(catalog::Policy::default()))
    } else {
        load_policy(args)
    };
    let g = match policy.and_then(|p| globals(&matches, p)) {
        Ok(g) => g,
        Err(e) => return fail(name, e, args),
    };
    integration::panic::set_panic_context(name, g.format, g.pretty);
    integration::run(name, &g, sub)
}

fn input_for(tool: &dyn DynTool, sub: &ArgMatches) -> Result<Value> {
    let mut fields = cli_fields(tool, sub)?;
    if fields.is_empty() {
        // Nothing on the command line: the input is stdin's JSON object — or, for a tool that
        // takes a raw field, stdin that is not a JSON object is that field (`git diff`-style
        // piping: `cat fix.patch | loopr-tool apply_patch`).
        let bytes = input::read_stdin_bytes()?;
        let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
        if let Some(field) = tool.raw_stdin_field()
            && first.is_some_and(|&b| b != b'{')
        {
            let text = String::from_utf8(bytes).map_err(|_| {
                ToolError::invalid(
                    field,
                    format!("{}: the {field} on stdin is not UTF-8", tool.name()),
                )
            })?;
            fields.insert(field.into(), Value::String(text));
            return Ok(Value::Object(fields));
        }
        return input::parse_stdin_json(&bytes);
    }
    // `write PATH` without --content takes the content raw from stdin (SPEC 16.2).
    if let Some(field) = tool.raw_stdin_field().filter(|f| !fields.contains_key(*f)) {
        use std::io::IsTerminal;
        let name = tool.name();
        if std::io::stdin().is_terminal() {
            return Err(ToolError::invalid(
                field,
                format!("{name}: no {field}: give --{field} TEXT or pipe it on stdin"),
            ));
        }
        let bytes = input::read_stdin_bytes()?;
        let text = String::from_utf8(bytes).map_err(|_| {
            ToolError::invalid(field, format!("{name}: the {field} on stdin is not UTF-8"))
        })?;
        fields.insert(field.into(), Value::String(text));
    }
    Ok(Value::Object(fields))
}
