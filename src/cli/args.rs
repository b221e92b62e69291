//! A tool's command line, generated from its input schema (SPEC 1.1, 16.2): positionals, one
//! flag per field, and the JSON object the tool parses made back from what clap matched (or
//! read from stdin when nothing was given).
//!
//! Only the subcommand being run is built: a harness spawns us once per tool call, and building
//! every tool's flags would be start-up time spent on nothing.

use super::globals::GLOBAL_FIELDS;
use crate::error::{Result, ToolError};
use crate::input::{self, Field, Kind};
use crate::tool::DynTool;
use crate::tools;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::{Map, Value};

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

/// clap's complaint as `invalid_input`, naming the flag's field where it can.
pub(super) fn clap_error(tool: &str, e: clap::Error) -> ToolError {
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

/// Seed 001's runner form (SPEC 25.6): `edit_file --path P [--replace-all]` with the content
/// fields as a JSON object on stdin. The tools that take it, with their content fields.
const MERGED_FORMS: &[(&str, &[&str])] = &[("edit", &["old_string", "new_string", "edits"])];

/// The content fields of `tool` when its flags give none of them: stdin may hold them.
fn merged_form(tool: &dyn DynTool, fields: &Map<String, Value>) -> Option<&'static [&'static str]> {
    let (_, content) = MERGED_FORMS.iter().find(|(t, _)| *t == tool.name())?;
    (!content.iter().any(|c| fields.contains_key(*c))).then_some(*content)
}

/// The flags' fields with stdin's JSON object merged in; a field given both ways is
/// `invalid_input` (16.2). Nothing on stdin leaves the flags as they are (the tool says what
/// is missing); a terminal is not read.
fn merge_stdin_json(name: &str, mut fields: Map<String, Value>, content: &[&str]) -> Result<Value> {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() {
        return Ok(Value::Object(fields));
    }
    let bytes = input::read_stdin_bytes()?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Object(fields));
    }
    let Value::Object(given) = input::parse_stdin_json(&bytes)? else {
        return Err(ToolError::usage(format!(
            "{name}: stdin must be a JSON object with {} beside the flags",
            content.join(", ")
        )));
    };
    for (k, v) in given {
        if fields.contains_key(&k) {
            return Err(ToolError::invalid(
                &k,
                format!(
                    "{name}: field `{k}` is given twice: as --{} and on stdin",
                    flag_name(&k)
                ),
            )
            .hint("Give each field once: as a flag or in the JSON on stdin."));
        }
        fields.insert(k, v);
    }
    Ok(Value::Object(fields))
}

pub(super) fn input_for(tool: &dyn DynTool, sub: &ArgMatches) -> Result<Value> {
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
    if let Some(content) = merged_form(tool, &fields) {
        return merge_stdin_json(tool.name(), fields, content);
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
