//! `loopr-tool mcp` against a client no one here wrote: the official MCP Python SDK (PyPI
//! `mcp`, pinned), installed by this test into a venv under cargo's target dir. The client
//! script is tests/mcp/client.py. Set LOOPR_SKIP_MCP_CLIENT=1 to skip on a machine without
//! python3 or PyPI (CI never sets it).

use serde_json::Value;
use std::path::Path;
use std::process::Command;
use testkit::Env;

#[test]
fn the_official_python_sdk_lists_and_calls_every_tool() {
    if crate::clients::skipped("the real-client MCP test") {
        return;
    }
    let python = crate::clients::python_with_mcp_sdk();
    let env = Env::new();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client.py");
    let out = Command::new(python)
        .arg(script)
        .arg(testkit::bin())
        .arg(&env.root)
        .arg(&env.state)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "client failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();

    assert_eq!(report["server"], "loopr-tool");
    assert!(
        report["protocol_version"]
            .as_str()
            .unwrap()
            .starts_with("20")
    );
    let listed = report["tools"].as_array().unwrap();
    for t in ["read", "write", "session", "todo", "undo"] {
        assert!(listed.iter().any(|x| x == t), "{t} not listed: {listed:?}");
    }
    assert_eq!(
        report["annotated"], report["tools"],
        "every tool carries annotations"
    );
    assert_eq!(
        report["missing_samples"],
        Value::Array(vec![]),
        "add a sample call to tests/mcp/client.py"
    );
    let calls = report["calls"].as_object().unwrap();
    assert_eq!(calls.len(), listed.len(), "every listed tool was called");
    for (name, c) in calls {
        let expected = name == "notebook_edit"; // its sample names a text file on purpose
        assert_eq!(c["isError"], expected, "{name}: {}", c["text"]);
    }
    assert!(
        calls["notebook_edit"]["text"]
            .as_str()
            .unwrap()
            .contains("is not a Jupyter notebook")
    );
    assert_eq!(calls["read"]["text"], "     1\talpha\n     2\tbeta\n");
    // The query was answered by calls made through the same server while it waited.
    assert_eq!(calls["query"]["text"], "Here.\n");
    assert_eq!(calls["query"]["structured"]["from"], "mcp-client");
    // Under --structured the text is inside structuredContent too (SPEC 22.1).
    assert_eq!(calls["read"]["structured_output"], calls["read"]["text"]);
    assert_eq!(
        calls["fetch"]["text"],
        "# Sample page\n\nServed by the test.\n"
    );
    assert_eq!(calls["fetch"]["structured"]["title"], "Sample");
    assert_eq!(
        calls["search"]["text"],
        "1. Sample result\n   https://docs.example/sample\n   Found by the test.\n"
    );
    assert_eq!(calls["search"]["structured"]["provider"], "searxng");
    assert_eq!(calls["write"]["structured"]["created"], true);
    assert_eq!(calls["stat"]["structured"]["lines"], 2);
    assert_eq!(calls["delete"]["structured"]["directories"], 2);
    assert!(!env.path("made").exists() && !env.path("moved").exists());
    // undo runs last: it takes back the edit when there is one, else the write that created the file
    if calls.contains_key("edit") {
        assert_eq!(calls["undo"]["structured"]["action"], "restored");
        assert_eq!(
            std::fs::read_to_string(env.path("notes/a.txt")).unwrap(),
            "alpha\nbeta\n"
        );
    } else {
        assert_eq!(calls["undo"]["structured"]["action"], "removed");
        assert!(!env.path("notes/a.txt").exists());
    }
    assert_eq!(report["failed_call"]["isError"], true);
    assert_eq!(
        report["failed_call"]["structured"]["error"]["code"],
        "not_found"
    );
    assert!(
        report["unknown_tool"]
            .as_str()
            .unwrap()
            .contains("unknown tool"),
        "{}",
        report["unknown_tool"]
    );
}
