//! What a model is told names what it has (SPEC 25.5): hints name a tool and its fields as
//! this call's model was offered them, or say how to go on without a tool it lacks.

use crate::{call_with as with, catalog};
use serde_json::json;
use testkit::Env;

const LONG: &str = "seq 1 20000";

#[test]
fn a_cut_run_names_the_job_tool_as_offered_or_says_how_to_narrow() {
    let env = Env::new();
    // Our names.
    let out = env.call("run", json!({"command": LONG}));
    assert!(
        out.output().contains("jobs action \"output\", id \""),
        "{}",
        out.output()
    );
    // Claude Code's: BashOutput with bash_id.
    let out = env.call("Bash", json!({"command": LONG}));
    assert!(
        out.output().contains("BashOutput bash_id \""),
        "{}",
        out.output()
    );
    // A catalog whose loop has no job tool: no tool is named.
    let file = catalog(&env, "[tools.run_command]\n[tools.read_file]\n");
    let out = with(&env, &file, "run_command", json!({"command": LONG}));
    out.assert_ok();
    assert!(!out.output().contains("jobs"), "{}", out.output());
    assert!(out.output().contains("| tail -n 50"), "{}", out.output());
    // A catalog key for the job tool is named as the key.
    let file = catalog(&env, "[tools.run_command]\n[tools.BashOutput]\n");
    let out = with(&env, &file, "run_command", json!({"command": LONG}));
    assert!(
        out.output().contains("BashOutput bash_id \""),
        "{}",
        out.output()
    );
}

#[test]
fn background_and_interactive_need_a_job_tool() {
    let env = Env::new();
    let file = catalog(&env, "[tools.run_command]\n[tools.read_file]\n");
    with(
        &env,
        &file,
        "run_command",
        json!({"command": "sleep 5", "background": true}),
    )
    .assert_invalid("background");
    with(
        &env,
        &file,
        "run_command",
        json!({"command": "cat", "background": true, "interactive": true}),
    )
    .assert_invalid("interactive");
    // With one, it starts, and the answer names the job tools as offered.
    let file = catalog(&env, "[tools.run_command]\n[tools.KillShell]\n");
    let out = with(
        &env,
        &file,
        "run_command",
        json!({"command": "true", "background": true}),
    );
    out.assert_ok();
    let id = out.data()["id"].as_str().unwrap().to_string();
    let stop = format!("Stop it with KillShell shell_id \"{id}\".");
    assert!(out.output().contains(&stop), "{}", out.output());
    assert!(!out.output().contains("Page it"), "{}", out.output());
    let out = env.call("run", json!({"command": "true", "background": true}));
    let page = "Page it with jobs action \"output\", id \"";
    assert!(out.output().contains(page), "{}", out.output());
}

#[test]
fn not_read_names_the_read_tool_as_offered_or_says_there_is_none() {
    let env = Env::new();
    env.write_file("a.txt", "one\n");
    let edit = json!({"path": "a.txt", "old_string": "one", "new_string": "two"});
    let file = catalog(&env, "[tools.edit_file]\n[tools.read_file]\n");
    let out = with(&env, &file, "edit_file", edit.clone());
    out.assert_err("not_read");
    assert!(
        out.output().contains("read_file path \"a.txt\""),
        "{}",
        out.output()
    );
    let file = catalog(&env, "[tools.edit_file]\n[tools.grep]\n");
    let out = with(&env, &file, "edit_file", edit.clone());
    out.assert_err("not_read");
    assert!(
        out.output().contains("no tool offered here reads files"),
        "{}",
        out.output()
    );
    assert!(!out.output().contains("(read"), "{}", out.output());
    // Claude Code's Edit without a catalog: its Read, with file_path.
    let out = env.call(
        "Edit",
        json!({"file_path": "a.txt", "old_string": "one", "new_string": "two"}),
    );
    out.assert_err("not_read");
    assert!(
        out.output().contains("Read file_path \"a.txt\""),
        "{}",
        out.output()
    );
    // no_match's advice names the read tool as offered too.
    let file = catalog(&env, "[tools.edit_file]\n[tools.read_file]\n");
    env.write_file("b.txt", "uno\n");
    with(&env, &file, "read_file", json!({"path": "b.txt"})).assert_ok();
    let out = with(
        &env,
        &file,
        "edit_file",
        json!({"path": "b.txt", "old_string": "zzz", "new_string": "two"}),
    );
    out.assert_err("no_match");
    let hint = out.json["error"]["hint"].as_str().unwrap_or("");
    assert!(
        hint.contains("Read b.txt (read_file path \"b.txt\")"),
        "{hint}"
    );
}

#[test]
fn a_catalog_cut_on_read_keeps_its_way_on() {
    let env = Env::new();
    let text: String = (1..=100).map(|i| format!("line number {i}\n")).collect();
    env.write_file("long.txt", &text);
    let file = catalog(&env, "[tools.read]\nmax_output_bytes = 300\n");
    let out = with(&env, &file, "read", json!({"path": "long.txt"}));
    out.assert_ok();
    let output = out.output();
    assert!(output.len() <= 300, "{}", output.len());
    let end = out.data()["end_line"].as_u64().unwrap();
    assert!(end > 1 && end < 100, "{end}");
    assert!(
        output
            .trim_end()
            .ends_with(&format!("continue with offset={})", end + 1)),
        "{output}"
    );
    assert!(!output.contains("max_output_bytes"), "{output}");
    assert_eq!(out.data()["truncated"], true);
    // Gemini's read_file counts from 0: its trailer does too.
    let file = catalog(
        &env,
        "[tools.read_file]\ndialect = \"gemini\"\nmax_output_bytes = 300\n",
    );
    let out = with(
        &env,
        &file,
        "read_file",
        json!({"absolute_path": "long.txt"}),
    );
    let end = out.data()["end_line"].as_u64().unwrap();
    assert!(
        out.output()
            .trim_end()
            .ends_with(&format!("continue with offset={})", end)),
        "{}",
        out.output()
    );
}

/// SPEC 31.1: an error of a call made under another agent's tool name says it in that agent's
/// words: its tool name, its field names (in the message, the hint and `error.field`), the
/// fields its schema accepts, and no `action` where its name fixes one.
#[test]
fn errors_under_another_agents_name_use_its_tool_and_field_names() {
    let env = Env::new();
    let cases = [
        (
            "share_data",
            json!({}),
            "share_data: missing required field `target_exec_ids`",
            "target_exec_ids",
        ),
        (
            "KillShell",
            json!({}),
            "KillShell needs the job's `shell_id`",
            "shell_id",
        ),
        (
            "BashOutput",
            json!({}),
            "BashOutput needs the job's `bash_id`",
            "bash_id",
        ),
        (
            "Edit",
            json!({"old_string": "a", "new_string": "b"}),
            "Edit: missing required field `file_path`",
            "file_path",
        ),
        (
            "replace",
            json!({"old_string": "a", "new_string": "b"}),
            "replace: missing required field `file_path`",
            "file_path",
        ),
    ];
    for (tool, input, message, field) in cases {
        let out = env.call(tool, input);
        assert_eq!(
            out.json["error"]["message"], message,
            "{tool}: {}",
            out.json
        );
        assert_eq!(out.json["error"]["field"], field, "{tool}");
        let hint = out.json["error"]["hint"].as_str().unwrap_or_default();
        assert!(
            !hint.contains("`to`") && !hint.contains("Accepted fields: path ("),
            "{tool}: {hint}"
        );
    }
    // The hint lists the agent's own fields, from its schema.
    let out = env.call("Edit", json!({}));
    let hint = out.json["error"]["hint"].as_str().unwrap();
    assert!(
        hint.starts_with("Accepted fields: ") && hint.contains("file_path (string, required)"),
        "{hint}"
    );
    assert!(!hint.contains("expected_replacements"), "{hint}");
    // Our own names keep our words.
    let out = env.call("share", json!({}));
    assert_eq!(
        out.json["error"]["message"],
        "share: missing required field `to`"
    );
}
