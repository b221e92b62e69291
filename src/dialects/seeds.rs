//! The design notes' own names (SPEC 14, 16.10, 20.2): the catalog names of seeds 000–003,
//! with their field names. Where another agent shares a name and no field decides, these win.

use super::Agent::Seeds;
use super::{Alias, edit_creates};

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
    Alias::new("edit_file", Seeds, "edit")
        .renames(&[("old_str", "old_string"), ("new_str", "new_string")])
        .route(edit_creates),
    // grep takes the seeds' `file_pattern` and `context` itself (SPEC 25.6).
    Alias::new("search_files", Seeds, "grep"),
    Alias::new("list_directory", Seeds, "tree").fixed(&[("depth", "1")]),
    Alias::new("list", Seeds, "tree").fixed(&[("depth", "1")]),
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
];
