//! The design notes' own names (SPEC 14, 16.10, 20.2): the catalog names of seeds 000–003,
//! with their field names. Where another agent shares a name and no field decides, these win.

use super::Agent::Seeds;
use super::{Alias, call_tool, edit_creates};
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::Result;
use crate::tool::Effect;
use serde_json::{Map, Value};

/// WebFetch's and web_fetch's `prompt` needs a model; we return the page.
pub const PROMPT: (&str, &str) = (
    "prompt",
    "`prompt` was ignored: fetch returns the page itself, not a model's answer about it",
);
pub const NO_SANDBOX: (&str, &str) = (
    "dangerouslyDisableSandbox",
    "`dangerouslyDisableSandbox` was ignored: run's sandbox is chosen by its `sandbox` field, within the --sandbox floor, never lifted by a call",
);
pub const RUN_RENAMES: &[(&str, &str)] = &[("timeout", "timeout_ms")];

pub static ALIASES: &[Alias] = &[
    Alias::new("read_file", Seeds, "read"),
    Alias::new("write_file", Seeds, "write"),
    // edit takes seed 002's old_str/new_str itself; seed 001's are old_string/new_string.
    Alias::new("edit_file", Seeds, "edit").route(edit_creates),
    // grep takes the seeds' `file_pattern` and `context` itself (SPEC 25.6).
    Alias::new("search_files", Seeds, "grep"),
    Alias::new("list_directory", Seeds, "tree")
        .fixed(&[("depth", "1")])
        .call(one_level)
        .effect(Effect::Reads),
    Alias::new("list", Seeds, "tree")
        .fixed(&[("depth", "1")])
        .call(one_level)
        .effect(Effect::Reads),
    // Seed 002's names for tools of ours, with our fields: its schemas are not written down.
    Alias::new("glob_find", Seeds, "glob"),
    Alias::new("ripgrep_search", Seeds, "grep"),
    Alias::new("delete_file", Seeds, "delete"),
    Alias::new("move_file", Seeds, "move"),
    Alias::new("task_tracker", Seeds, "todo"),
    Alias::new("web_fetch", Seeds, "fetch").ignored(&[PROMPT]),
    Alias::new("web_search", Seeds, "search"),
    Alias::new("bash", Seeds, "run")
        .renames(RUN_RENAMES)
        .ignored(&[NO_SANDBOX]),
    Alias::new("run_command", Seeds, "run")
        .renames(RUN_RENAMES)
        .ignored(&[NO_SANDBOX]),
    Alias::new("shell_execute", Seeds, "run")
        .renames(RUN_RENAMES)
        .ignored(&[NO_SANDBOX]),
    Alias::new("run_command_isolated", Seeds, "run")
        .renames(RUN_RENAMES)
        .fixed(&[("network", "\"none\"")])
        .ignored(&[NO_SANDBOX]),
    Alias::new("share_data", Seeds, "share").renames(&[("target_exec_ids", "to")]),
    Alias::new("query_loop", Seeds, "query").renames(&[("target_exec_id", "to")]),
    // Seed 002's analyze_code {path}: classes, functions and imports (SPEC 26.2).
    Alias::new("analyze_code", Seeds, "symbols")
        .call(analyze_code)
        .effect(Effect::Reads),
    // Serena's symbol tools (SPEC 26.2), with its field names: `relative_path`, `name_path`
    // ("Class/method"), and a `depth` that counts from 0.
    Alias::new("get_symbols_overview", Seeds, "symbols")
        .renames(&[("relative_path", "path")])
        .fixed(&[("action", "\"outline\"")])
        .adapt(serena_depth)
        .ignored(&[MAX_ANSWER]),
    Alias::new("find_symbol", Seeds, "symbols")
        .renames(&[("relative_path", "scope")])
        .fixed(&[("action", "\"definition\"")])
        .adapt(serena_name)
        .ignored(&[
            MAX_ANSWER,
            ("include_body", "`include_body` was ignored: definitions come with lines and signature; read the lines for the body"),
            ("substring_matching", "`substring_matching` was ignored: names match whole"),
            ("include_kinds", "`include_kinds` was ignored (LSP kind numbers): use `kinds`"),
            ("exclude_kinds", "`exclude_kinds` was ignored (LSP kind numbers): use `kinds`"),
            ("depth", "`depth` was ignored: definitions are listed without their children"),
        ]),
    Alias::new("find_referencing_symbols", Seeds, "symbols")
        .renames(&[("relative_path", "path")])
        .fixed(&[("action", "\"references\"")])
        .adapt(serena_name)
        .ignored(&[
            MAX_ANSWER,
            ("include_kinds", "`include_kinds` was ignored (LSP kind numbers): use `kinds`"),
            ("exclude_kinds", "`exclude_kinds` was ignored (LSP kind numbers): use `kinds`"),
        ]),
];

const MAX_ANSWER: (&str, &str) = (
    "max_answer_chars",
    "`max_answer_chars` was ignored: the output has its own cap, and `limit` caps the entries",
);

/// Serena's `name_path` ("Class/method", "/Class" anchored at the top) as our qualified name.
fn serena_name(map: &mut Map<String, Value>, _: &mut Vec<String>) -> Result<()> {
    if let Some(Value::String(p)) = map.remove("name_path") {
        map.insert(
            "name".into(),
            Value::String(p.trim_start_matches('/').replace('/', ".")),
        );
    }
    Ok(())
}

/// Serena's overview `depth` counts the levels below the top (0: top level only); ours counts
/// the levels shown.
fn serena_depth(map: &mut Map<String, Value>, _: &mut Vec<String>) -> Result<()> {
    if let Some(d) = map.get("depth").and_then(Value::as_u64) {
        map.insert("depth".into(), Value::from(d + 1));
    }
    Ok(())
}

fn analyze_code(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    crate::tools::symbols::aliases::analyze_code(ctx, input)
}

/// The seeds' list_directory (SPEC 25.6): one level, sorted by name, `/` after a directory —
/// a plain list, where tree draws directories first.
fn one_level(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    let tree = call_tool(ctx, "tree", input)?;
    let data = tree.data.into_value(&[]);
    let mut names: Vec<String> = data["tree"]["children"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| {
            let name = c["name"].as_str()?;
            Some(match c["type"].as_str() {
                Some("dir") => format!("{name}/"),
                _ => name.to_string(),
            })
        })
        .collect();
    names.sort();
    let mut output = names.join("\n");
    if names.is_empty() {
        output.push_str("(empty directory)");
    }
    output.push('\n');
    if data["truncated"] == true {
        output.push_str("(more entries not shown)\n");
    }
    Ok(Success::new(output, data))
}
