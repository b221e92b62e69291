//! Other agents' tool names (SPEC §14, 16.10), so their recorded tool calls replay unchanged
//! through the CLI, `call`, `batch` and `mcp`.
//!
//! An alias is data: the tool it stands for, field renames, fields it fixes (TodoWrite is always
//! `action: write`), and fields we accept but cannot honour, each with the warning that says so.
//! Unknown foreign fields still fail: the renamed input goes through the tool's own parser.
//! An alias is live only while its tool is registered.

use crate::error::{Result, ToolError};
use serde_json::{Map, Value};

pub struct Alias {
    pub name: &'static str,
    pub tool: &'static str,
    /// Their field → ours.
    renames: &'static [(&'static str, &'static str)],
    /// Fields this alias always sets, as JSON text (a caller's own value for them is refused).
    fixed: &'static [(&'static str, &'static str)],
    /// Fields accepted and dropped, each with the warning given.
    ignored: &'static [(&'static str, &'static str)],
}

const PROMPT: (&str, &str) = (
    "prompt",
    "`prompt` was ignored: fetch returns the page itself, not a model's answer about it",
);
const NO_SANDBOX: (&str, &str) = (
    "dangerouslyDisableSandbox",
    "`dangerouslyDisableSandbox` was ignored: run's sandbox is chosen by its `sandbox` field, within the --sandbox floor, never lifted by a call",
);
const RUN_RENAMES: &[(&str, &str)] = &[("timeout", "timeout_ms")];

pub static ALIASES: &[Alias] = &[
    Alias {
        name: "Read",
        tool: "read",
        renames: &[],
        fixed: &[],
        ignored: &[],
    },
    // Codex's image viewer: read shows an image as an image (SPEC 22.6).
    Alias {
        name: "view_image",
        tool: "read",
        renames: &[],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "read_file",
        tool: "read",
        renames: &[],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "Write",
        tool: "write",
        renames: &[],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "write_file",
        tool: "write",
        renames: &[],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "Edit",
        tool: "edit",
        renames: &[],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "edit_file",
        tool: "edit",
        renames: &[("old_str", "old_string"), ("new_str", "new_string")],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "MultiEdit",
        tool: "edit",
        renames: &[],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "NotebookEdit",
        tool: "notebook_edit",
        renames: &[("notebook_path", "path")],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "Glob",
        tool: "glob",
        renames: &[],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "Grep",
        tool: "grep",
        renames: &[],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "search_files",
        tool: "grep",
        renames: &[("file_pattern", "glob"), ("context", "-C")],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "list_directory",
        tool: "tree",
        renames: &[],
        fixed: &[("depth", "1")],
        ignored: &[],
    },
    Alias {
        name: "list",
        tool: "tree",
        renames: &[],
        fixed: &[("depth", "1")],
        ignored: &[],
    },
    Alias {
        name: "WebFetch",
        tool: "fetch",
        renames: &[],
        fixed: &[],
        ignored: &[PROMPT],
    },
    Alias {
        name: "web_fetch",
        tool: "fetch",
        renames: &[],
        fixed: &[],
        ignored: &[PROMPT],
    },
    // Claude Code's WebSearch (`query`, `allowed_domains`, `blocked_domains`), seed 002's
    // `web_search` and Gemini CLI's `google_web_search` (`query`): our fields (SPEC §21).
    Alias {
        name: "WebSearch",
        tool: "search",
        renames: &[],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "web_search",
        tool: "search",
        renames: &[],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "google_web_search",
        tool: "search",
        renames: &[],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "TodoWrite",
        tool: "todo",
        renames: &[],
        fixed: &[("action", "\"write\"")],
        ignored: &[],
    },
    Alias {
        name: "Bash",
        tool: "run",
        renames: RUN_RENAMES,
        fixed: &[],
        ignored: &[NO_SANDBOX],
    },
    Alias {
        name: "bash",
        tool: "run",
        renames: RUN_RENAMES,
        fixed: &[],
        ignored: &[NO_SANDBOX],
    },
    Alias {
        name: "run_command",
        tool: "run",
        renames: RUN_RENAMES,
        fixed: &[],
        ignored: &[NO_SANDBOX],
    },
    Alias {
        name: "shell_execute",
        tool: "run",
        renames: RUN_RENAMES,
        fixed: &[],
        ignored: &[NO_SANDBOX],
    },
    Alias {
        name: "run_command_isolated",
        tool: "run",
        renames: RUN_RENAMES,
        fixed: &[("network", "\"none\"")],
        ignored: &[NO_SANDBOX],
    },
    Alias {
        name: "BashOutput",
        tool: "jobs",
        renames: &[("bash_id", "id"), ("timeout", "timeout_ms")],
        // Without an offset, BashOutput shows what is new since its last call (SPEC 16.10).
        fixed: &[("action", "\"output\""), ("since_last", "true")],
        ignored: &[],
    },
    Alias {
        name: "TaskOutput",
        tool: "jobs",
        renames: &[("task_id", "id"), ("timeout", "timeout_ms")],
        fixed: &[("action", "\"output\"")],
        ignored: &[],
    },
    Alias {
        name: "KillShell",
        tool: "jobs",
        renames: &[("shell_id", "id")],
        fixed: &[("action", "\"kill\"")],
        ignored: &[],
    },
    Alias {
        name: "KillBash",
        tool: "jobs",
        renames: &[("shell_id", "id")],
        fixed: &[("action", "\"kill\"")],
        ignored: &[],
    },
    Alias {
        name: "TaskStop",
        tool: "jobs",
        renames: &[("task_id", "id")],
        fixed: &[("action", "\"kill\"")],
        ignored: &[],
    },
    // Seed 000's loop tools (SPEC 20.2).
    Alias {
        name: "share_data",
        tool: "share",
        renames: &[("target_exec_ids", "to")],
        fixed: &[],
        ignored: &[],
    },
    Alias {
        name: "query_loop",
        tool: "query",
        renames: &[("target_exec_id", "to")],
        fixed: &[],
        ignored: &[],
    },
];

/// The alias of that exact name whose tool is registered.
pub fn find(name: &str) -> Option<&'static Alias> {
    ALIASES
        .iter()
        .find(|a| a.name == name && crate::tools::find(a.tool).is_some())
}

impl Alias {
    /// Rewrites their input into ours. Returns the warnings for fields we could not honour.
    pub fn translate(&self, input: Value) -> Result<(Value, Vec<String>)> {
        let Value::Object(mut map) = input else {
            return Ok((input, vec![])); // the tool's parser says what is wrong with it
        };
        let mut warnings = vec![];
        if self.name == "Read" && map.get("offset").and_then(Value::as_f64) == Some(0.0) {
            // Claude Code's Read takes offset 0 as the first line (SPEC 22.5); ours refuses 0.
            map.insert("offset".into(), Value::from(1));
        }
        for (field, warning) in self.ignored {
            if map.remove(*field).is_some() {
                warnings.push(warning.to_string());
            }
        }
        let mut out = Map::new();
        for (k, v) in map {
            let key = self
                .renames
                .iter()
                .find(|(theirs, _)| *theirs == k)
                .map_or(k, |(_, ours)| ours.to_string());
            if out.contains_key(&key) {
                return Err(ToolError::invalid(
                    &key,
                    format!(
                        "{}: field `{key}` is given twice (an alias counts)",
                        self.name
                    ),
                ));
            }
            out.insert(key, v);
        }
        for (field, json) in self.fixed {
            if out.contains_key(*field) {
                return Err(ToolError::invalid(
                    field,
                    format!(
                        "{}: `{field}` is fixed by this tool name; leave it out",
                        self.name
                    ),
                ));
            }
            out.insert(
                field.to_string(),
                serde_json::from_str(json).expect("alias constants are JSON"),
            );
        }
        Ok((Value::Object(out), warnings))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn alias(name: &str) -> &'static Alias {
        ALIASES.iter().find(|a| a.name == name).unwrap()
    }

    #[test]
    fn renames_fixes_and_warns() {
        let (v, w) = alias("edit_file")
            .translate(json!({"path": "a", "old_str": "x", "new_str": "y"}))
            .unwrap();
        assert_eq!(
            v,
            json!({"path": "a", "old_string": "x", "new_string": "y"})
        );
        assert!(w.is_empty());
        let (v, w) = alias("WebFetch")
            .translate(json!({"url": "https://x.test/", "prompt": "summarise"}))
            .unwrap();
        assert_eq!(v, json!({"url": "https://x.test/"}));
        assert_eq!(w.len(), 1);
        let (v, _) = alias("TodoWrite").translate(json!({"todos": []})).unwrap();
        assert_eq!(v, json!({"todos": [], "action": "write"}));
        let (v, _) = alias("list_directory")
            .translate(json!({"path": "src"}))
            .unwrap();
        assert_eq!(v["depth"], 1);
    }

    #[test]
    fn claude_codes_read_takes_offset_0_as_line_1() {
        let (v, _) = alias("Read")
            .translate(json!({"file_path": "a", "offset": 0}))
            .unwrap();
        assert_eq!(v, json!({"file_path": "a", "offset": 1}));
        // a tail passes through; other names keep offset 0 for read to refuse
        let (v, _) = alias("Read").translate(json!({"offset": -5})).unwrap();
        assert_eq!(v["offset"], -5);
        let (v, _) = alias("read_file").translate(json!({"offset": 0})).unwrap();
        assert_eq!(v["offset"], 0);
    }

    #[test]
    fn conflicts_are_refused() {
        assert!(
            alias("edit_file")
                .translate(json!({"old_str": "x", "old_string": "y"}))
                .is_err()
        );
        assert!(
            alias("TodoWrite")
                .translate(json!({"action": "list"}))
                .is_err()
        );
    }

    #[test]
    fn every_alias_names_a_tool_the_spec_has() {
        let tools = [
            "read",
            "write",
            "edit",
            "glob",
            "grep",
            "tree",
            "fetch",
            "search",
            "todo",
            "run",
            "jobs",
            "notebook_edit",
            "share",
            "query",
        ];
        assert!(ALIASES.iter().all(|a| tools.contains(&a.tool)));
        for (_, json) in ALIASES.iter().flat_map(|a| a.fixed.iter()) {
            serde_json::from_str::<Value>(json).unwrap();
        }
    }
}
