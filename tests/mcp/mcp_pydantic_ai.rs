//! pydantic-ai (PyPI `pydantic-ai-slim[mcp]`, pinned, installed by this test into a venv under
//! the target dir) runs an Agent against `loopr-tool mcp` with its TestModel, which calls every
//! tool with arguments generated from the published input schemas. The driver is
//! tests/mcp/pydantic_ai_agent.py; LOOPR_SKIP_MCP_CLIENT=1 skips it like the other client tests.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use testkit::Env;

const PYDANTIC_AI: &str = "pydantic-ai-slim[mcp]==2.68.0";

fn names<'a>(items: impl IntoIterator<Item = &'a Value>, key: &str) -> BTreeSet<String> {
    items
        .into_iter()
        .map(|v| v[key].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn pydantic_ai_calls_every_tool_and_its_model_sees_a_files_text() {
    if crate::clients::skipped("the pydantic-ai test") {
        return;
    }
    let python = crate::clients::python_venv("pydantic-ai-venv", &[PYDANTIC_AI]);
    let env = Env::new();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/pydantic_ai_agent.py");
    let out = Command::new(python)
        .arg(script)
        .arg(testkit::bin())
        .arg(&env.root)
        .arg(&env.state)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "driver failed:\n{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let read_text = report["read_text"].as_str().unwrap().trim_end();

    for mode in ["default", "structured"] {
        let m = &report[mode];
        assert!(
            m.get("exception").is_none(),
            "{mode}: the agent run failed: {}\n{stderr}",
            m["exception"]
        );

        // What pydantic-ai hands the model for a read holds the file's text (it prefers
        // structuredContent when there is one, so a server that put only `data` there hid it).
        let reads = m["read_only"]["returns"].as_array().unwrap();
        assert_eq!(reads.len(), 1, "{mode}: {reads:?}");
        assert_eq!(reads[0]["outcome"], "success", "{mode}: {reads:?}");
        let seen = reads[0]["model_sees"].as_str().unwrap();
        assert!(
            seen.contains(read_text),
            "{mode}: pydantic-ai shows the model {seen:?} for a read of a file holding {read_text:?}"
        );

        // The run completed, every tool was offered, called and answered.
        let all = &m["all"];
        assert!(all["output"].is_string(), "{mode}: {all}");
        let offered: BTreeSet<String> = all["offered"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert!(offered.len() >= 12, "{mode}: {offered:?}");
        let calls = all["calls"].as_array().unwrap();
        assert_eq!(
            names(calls, "tool"),
            offered,
            "{mode}: every tool was called"
        );
        assert_eq!(
            names(all["returns"].as_array().unwrap(), "tool"),
            offered,
            "{mode}: every call came back as a tool return"
        );
        for c in calls {
            assert_eq!(
                c["valid_under_schema"], true,
                "{mode}: TestModel's arguments break the published schema: {c}"
            );
        }
        // A JSON-RPC error for a tools/call reaches pydantic-ai as a retry prompt.
        assert_eq!(all["retries"], Value::Array(vec![]), "{mode}");

        // On the wire: every request answered; no tools/call answered with a JSON-RPC error.
        // The one JSON-RPC error allowed is to FastMCP's `server/discover` probe (MCP's
        // 2026-07-28 revision), which a server that does not speak that revision answers
        // "method not found", sending the client to the initialize handshake.
        for w in m["wire"].as_array().unwrap() {
            assert_eq!(w["answered"], true, "{mode}: {w}");
            if w["method"] == "server/discover" {
                assert!(
                    w["jsonrpc_error"].is_null() || w["jsonrpc_error"]["code"] == -32601,
                    "{w}"
                );
                continue;
            }
            assert!(w["jsonrpc_error"].is_null(), "{mode}: JSON-RPC error: {w}");
        }
    }

    // Under --structured each failed call names its error code, so a refusal can be told
    // apart. Arguments valid under the schema may fail at the tool: fetch of "a" is no URL, run
    // of "a" no command, move from "a" to "a" the same path (invalid_input, but for the value,
    // which no schema states). What must not happen is a refusal of their shape — an unknown
    // or missing field, a wrong type, a value out of a range the schema did not state — as
    // the parser words them (src/input.rs). The refusals allowed are the rules between fields
    // that a flat schema cannot state (SPEC 16.9), listed here one by one: edit needs
    // old_string/new_string or edits, notebook_edit needs new_source unless it deletes, stat
    // and read need path or paths, so a call with only the fields the schema requires is refused. The arguments are the same in both modes
    // (TestModel is seeded), so the default mode is covered by this too.
    const CROSS_FIELD_RULES: &[(&str, &str)] = &[
        (
            "edit",
            "missing required field `old_string` (or give `edits`)",
        ),
        ("notebook_edit", "missing required field `new_source`"),
        ("stat", "missing required field `path` (or give `paths`)"),
        (
            "read",
            "missing required field `path` (or `paths` for several files)",
        ),
    ];
    const SHAPE: &[&str] = &[
        "unknown field",
        "missing required field",
        "invalid type",
        "unknown variant",
        "out of range",
        "given twice",
    ];
    let structured = report["structured"]["wire"].as_array().unwrap();
    let mut answered = BTreeSet::new();
    for w in structured.iter().filter(|w| w["method"] == "tools/call") {
        let tool = w["tool"].as_str().unwrap();
        answered.insert(tool.to_string());
        let text = w["text"].as_str().unwrap();
        // What each tool made of its generated arguments, for whoever reads the test's output.
        eprintln!(
            "{tool}: {} {}",
            w["code"],
            text.lines().next().unwrap_or("")
        );
        if w["isError"] != true {
            continue;
        }
        let code = w["code"].as_str().unwrap_or_else(|| panic!("{w}"));
        let shape = SHAPE.iter().any(|s| text.contains(s));
        let cross_field_rule = CROSS_FIELD_RULES
            .iter()
            .any(|(t, rule)| *t == tool && text.contains(rule));
        assert!(
            code != "invalid_input" || !shape || cross_field_rule,
            "{tool}: schema-valid arguments refused for their shape: {w}"
        );
    }
    assert_eq!(answered, {
        let mut all = names(
            report["structured"]["all"]["calls"].as_array().unwrap(),
            "tool",
        );
        all.insert("read".into());
        all
    });
}
