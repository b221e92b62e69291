//! Global options (SPEC 2, 16.2): their flags, their variables, and the `Globals` a call runs
//! under. A flag beats its variable; the catalog's options are read straight off argv, since the
//! catalog decides which subcommands exist before clap is set up.

use crate::catalog;
use crate::context::Globals;
use crate::envelope::Format;
use crate::error::{Result, ToolError};
use clap::{Arg, ArgAction, ArgMatches, Command};
use loopr_core::caps::Client;
use loopr_env_vars::EnvVars;
use std::path::PathBuf;
use std::sync::Arc;

/// Global options that take a value (the only ones whose next word is not the tool's name).
pub(super) const VALUE_GLOBALS: &[&str] = &[
    "--root",
    "--session",
    "--state-dir",
    "--format",
    "--sandbox",
    "--config",
    "--profile",
    "--hub",
    "--client",
    "--permission-mode",
    "--approve",
];

/// Global options that are not run's own business: a tool field of the same name (artifact's
/// `session`) gets no flag, since the flag is the global option wherever it stands (SPEC 2);
/// such a field is given in the JSON input.
pub(super) const GLOBAL_FIELDS: &[&str] = &["root", "session", "state_dir", "format", "pretty"];

pub const ABOUT: &str =
    "File, search, web and shell tools for LLM coding agents: JSON in on stdin, JSON out on stdout";

const AFTER_HELP: &str = "Each tool reads one JSON object on stdin, or its fields as flags, and prints one JSON object:\n  \
     {\"ok\":true,\"tool\":\"read\",\"output\":\"...\",\"data\":{...}}\n\
     Exit status: 0 ok, 1 the tool failed, 2 invalid input. `loopr-tool TOOL --help` lists a tool's fields.";

/// The command line without its subcommands: the global options.
pub fn base_command() -> Command {
    let global = |a: Arg| a.global(true).help_heading("Global options");
    Command::new("loopr-tool")
        .version(env!("CARGO_PKG_VERSION"))
        .about(ABOUT)
        .after_help(AFTER_HELP)
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
        .arg(global(Arg::new("hub").long("hub").value_name("HUB").help("Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog's [loops] hub, else the git repository, else the root]")))
        .arg(global(Arg::new("harness").long("harness").action(ArgAction::SetTrue).help("A harness's own control call: the catalog's offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]")))
        .arg(global(Arg::new("client").long("client").value_name("NAME").help("The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp's clientInfo]")))
        .arg(global(Arg::new("read-only").long("read-only").action(ArgAction::SetTrue).help("Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]")))
        .arg(global(Arg::new("permission-mode").long("permission-mode").value_name("MODE").value_parser(crate::catalog::Mode::WORDS.to_vec()).help("default, read-only, accept-edits, bypass or ask (Claude Code's plan, acceptEdits, bypassPermissions too); over the profile's mode [env: LOOPR_PERMISSION_MODE]")))
        .arg(global(Arg::new("approve").long("approve").value_name("ID").help("Run this call under the approval ID an approval_required answer gave (for that exact input, once)")))
}

/// The top-level `--help`'s closing text: `-h`'s, then every variable the table shows
/// (loopr-env-vars), so the list can never leave one out.
pub fn after_long_help() -> String {
    let shown: Vec<_> = EnvVars::ALL.iter().filter(|v| v.in_help()).collect();
    let width = shown.iter().map(|v| v.name.len()).max().unwrap_or(0);
    let mut text = format!(
        "{AFTER_HELP}\n\nEnvironment (a flag beats its variable; a boolean takes 1/true/yes/on or 0/false/no/off):\n"
    );
    for v in shown {
        text.push_str(&format!("  {:width$}  {}\n", v.name, v.summary()));
    }
    text.pop();
    text
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
            .or_else(|| env_value(EnvVars::LOOPR_CONFIG))
            .map(PathBuf::from),
        profile: sniff_value(args, "--profile").or_else(|| env_value(EnvVars::LOOPR_PROFILE)),
        read_only: args[..stop].iter().any(|a| a == "--read-only")
            || env_flag(EnvVars::LOOPR_READ_ONLY)?,
        permission_mode: permission_mode(args)?,
    })
}

/// `--permission-mode` / `LOOPR_PERMISSION_MODE` (SPEC 29), straight off argv like the rest of
/// the catalog's options.
fn permission_mode(args: &[String]) -> Result<Option<catalog::Mode>> {
    let given = sniff_value(args, "--permission-mode")
        .map(|v| ("--permission-mode", v))
        .or_else(|| {
            env_value(EnvVars::LOOPR_PERMISSION_MODE).map(|v| ("LOOPR_PERMISSION_MODE", v))
        });
    let Some((from, word)) = given else {
        return Ok(None);
    };
    catalog::Mode::parse(&word).map(Some).ok_or_else(|| {
        ToolError::invalid(
            "permission_mode",
            format!(
                "{from} {word:?} is no permission mode; use one of: {}",
                catalog::Mode::WORDS.join(", ")
            ),
        )
    })
}

/// `--harness` / `LOOPR_HARNESS` straight off argv: whether the catalog's offer binds this
/// call must be known before the tool is looked up (SPEC 25.3).
pub fn harness(args: &[String]) -> Result<bool> {
    let stop = args.iter().position(|a| a == "--").unwrap_or(args.len());
    Ok(args[..stop].iter().any(|a| a == "--harness") || env_flag(EnvVars::LOOPR_HARNESS)?)
}

/// Reads the catalog for this process.
pub fn load_policy(args: &[String]) -> Result<Arc<catalog::Policy>> {
    let options = catalog_options(args)?;
    let root = sniff_value(args, "--root")
        .or_else(|| env_value(EnvVars::LOOPR_ROOT))
        .unwrap_or_else(|| ".".to_string());
    catalog::load(&options, std::path::Path::new(&root)).map(Arc::new)
}

/// The globals a call runs under: each flag, else its variable.
pub fn globals(m: &ArgMatches, policy: Arc<catalog::Policy>) -> Result<Globals> {
    let flag_or_env =
        |id: &str, var: &str| m.get_one::<String>(id).cloned().or_else(|| env_value(var));
    let run_sandbox = flag_or_env("sandbox", EnvVars::LOOPR_RUN_SANDBOX);
    if let Some(m) = run_sandbox
        .as_deref()
        .filter(|m| !["none", "workspace-write", "read-only"].contains(m))
    {
        return Err(ToolError::usage(format!(
            "LOOPR_RUN_SANDBOX={m:?}: use none, workspace-write or read-only"
        )));
    }
    let format = match flag_or_env("format", EnvVars::LOOPR_FORMAT).as_deref() {
        None | Some("json") => Format::Json,
        Some("text") => Format::Text,
        Some(other) => {
            return Err(ToolError::usage(format!(
                "LOOPR_FORMAT={other:?}: use json or text"
            )));
        }
    };
    Ok(Globals {
        root: flag_or_env("root", EnvVars::LOOPR_ROOT).map(PathBuf::from),
        session: flag_or_env("session", EnvVars::LOOPR_SESSION),
        state_dir: flag_or_env("state-dir", EnvVars::LOOPR_STATE_DIR).map(PathBuf::from),
        no_sandbox: m.get_flag("no-sandbox") || env_flag(EnvVars::LOOPR_NO_SANDBOX)?,
        no_read_check: m.get_flag("no-read-check") || env_flag(EnvVars::LOOPR_NO_READ_CHECK)?,
        allow_private: m.get_flag("allow-private") || env_flag(EnvVars::LOOPR_FETCH_ALLOW_PRIVATE)?,
        allow_dangerous: m.get_flag("allow-dangerous") || env_flag(EnvVars::LOOPR_ALLOW_DANGEROUS)?,
        run_sandbox,
        format,
        pretty: m.get_flag("pretty"),
        policy,
        hub: flag_or_env("hub", EnvVars::LOOPR_HUB),
        harness: m.get_flag("harness") || env_flag(EnvVars::LOOPR_HARNESS)?,
        client: match flag_or_env("client", EnvVars::LOOPR_CLIENT) {
            None => None,
            Some(name) => Some(Client::named(&name).ok_or_else(|| Client::unknown(&name))?),
        },
        approve: m.get_one::<String>("approve").cloned(),
    })
}

/// `--format` and `--pretty` read straight off argv, for errors met before clap has parsed.
pub fn sniff_format(args: &[String]) -> (Format, bool) {
    let mut format = match env_value(EnvVars::LOOPR_FORMAT).as_deref() {
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
pub fn tool_word(args: &[String]) -> Option<usize> {
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

#[cfg(test)]
mod tests {
    use loopr_env_vars::EnvVars;
    use std::path::{Path, PathBuf};

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name();
            if p.is_dir() && name != "target" && name != "env-vars" {
                rust_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }

    /// Every environment variable the program reads is a constant of the table (SPEC 30.2):
    /// in src/ and crates/, a read names `EnvVars::X` (or a helper's parameter, whose callers
    /// are held by the second rule), and every `"LOOPR_…"` name written out is in the table.
    #[test]
    fn every_variable_read_is_in_the_table() {
        let known = |name: &str| EnvVars::ALL.iter().any(|v| v.name == name);
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = vec![];
        rust_files(&root.join("src"), &mut files);
        rust_files(&root.join("crates"), &mut files);
        assert!(files.len() > 50, "found only {} source files", files.len());
        // Spelled so that this file does not match itself.
        let reads = [format!("env::{}(", "var"), format!("env::{}_os(", "var")];
        let mut bad = vec![];
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            let at = file.strip_prefix(root).unwrap().display().to_string();
            for needle in &reads {
                for (i, _) in text.match_indices(needle.as_str()) {
                    let rest = &text[i + needle.len()..];
                    let arg = rest[..rest.find(')').unwrap_or(0)].trim();
                    let ok = match arg.strip_prefix("EnvVars::") {
                        Some(name) => known(name),
                        None => arg.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                    };
                    if !ok {
                        bad.push(format!("{at}: {needle}{arg})"));
                    }
                }
            }
            for (i, _) in text.match_indices("\"LOOPR_") {
                let name: String = text[i + 1..]
                    .chars()
                    .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                let closed = text[i + 1 + name.len()..].starts_with('"');
                if closed && name.len() > "LOOPR_".len() && !known(&name) {
                    bad.push(format!("{at}: \"{name}\" is not in loopr-env-vars"));
                }
            }
        }
        assert!(
            bad.is_empty(),
            "environment variables read outside the table (crates/env-vars/src/lib.rs):\n{}",
            bad.join("\n")
        );
    }

    #[test]
    fn the_long_help_lists_every_shown_variable() {
        let help = super::after_long_help();
        for v in EnvVars::ALL {
            let listed = help
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{} ", v.name)));
            assert_eq!(listed, v.in_help(), "{}", v.name);
        }
    }
}
