//! SPEC 31.1 with the agents themselves: Codex's own `tool_search` finds each tool in its top 3
//! for the words a model searches with, and a 98,000-character read reaches the model of Claude
//! Code, Codex and Gemini CLI whole, ending with our paging line. Both run the scripts in
//! bench/ (agents installed from npm, pinned, under the target dir; a fake model API records
//! what each agent sends), which print the figures. Also, without any agent: the openings and
//! the instructions those ranks rest on. And SPEC 27.1: the three reach `mcp --http` with a
//! bearer token (bench/agents_http.py).

use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

const NODE: &str = "22.23.3";

fn bench(script: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("bench")
        .join(script)
}

/// Runs a bench script on the binary under test; its stdout, after asserting it succeeded.
fn run_bench(script: &str, extra: &[&str]) -> String {
    let out = Command::new("python3")
        .arg(bench(script))
        .arg("--binary")
        .arg(testkit::bin())
        .args(extra)
        .output()
        .expect("python3 runs the agent scripts");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    eprintln!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{script} failed:\n{stdout}");
    stdout
}

#[test]
fn codex_tool_search_ranks_each_intended_tool_in_its_top_3() {
    if crate::clients::skipped("codex_tool_search_ranks_each_intended_tool_in_its_top_3") {
        return;
    }
    let out = run_bench("codex_tool_search.py", &[]);
    assert!(out.contains("in the top 3: 14 of 14"), "{out}");
}

#[test]
fn each_agents_model_gets_a_large_read_whole_with_our_paging_line() {
    if crate::clients::skipped("each_agents_model_gets_a_large_read_whole_with_our_paging_line") {
        return;
    }
    // Gemini CLI 0.61 needs node >= 20; CI's Debian node may be older.
    let node = crate::clients::node_at_least((20, 0), NODE);
    let out = run_bench("agents_paging.py", &["--node", node.to_str().unwrap()]);
    for agent in ["Claude Code", "Codex", "Gemini CLI"] {
        let line = out
            .lines()
            .find(|l| l.starts_with(agent))
            .unwrap_or_else(|| panic!("no line for {agent}:\n{out}"));
        assert!(line.contains("whole), paging line seen"), "{line}");
    }
}

/// SPEC 27.1: Claude Code, Codex and Gemini CLI reach `mcp --http` with a bearer token, each in
/// its own config form for an HTTP server with a header, and their model sees the text our
/// `read` returned; with a wrong token (401) none of them lists our tools.
#[test]
fn each_agent_reaches_mcp_over_http_with_a_token_and_not_with_a_wrong_one() {
    if crate::clients::skipped(
        "each_agent_reaches_mcp_over_http_with_a_token_and_not_with_a_wrong_one",
    ) {
        return;
    }
    agents_over_http(&[], "HTTP");
}

/// The same over `--tls-cert`/`--tls-key` (a self-signed certificate made by `openssl req`),
/// each agent trusting it through its runtime's variable (NODE_EXTRA_CA_CERTS,
/// CODEX_CA_CERTIFICATE); without it none of them lists our tools (checked by hand).
#[test]
fn each_agent_reaches_mcp_over_https_trusting_our_certificate() {
    if crate::clients::skipped("each_agent_reaches_mcp_over_https_trusting_our_certificate") {
        return;
    }
    agents_over_http(&["--tls"], "HTTPS");
}

/// Runs bench/agents_http.py with `extra` and checks each agent's two lines.
fn agents_over_http(extra: &[&str], scheme: &str) {
    let node = crate::clients::node_at_least((20, 0), NODE);
    let mut args = vec!["--node", node.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = run_bench("agents_http.py", &args);
    for agent in ["Claude Code", "Codex", "Gemini CLI"] {
        let line = |case: &str| {
            out.lines()
                .find(|l| l.starts_with(agent) && l.contains(case))
                .unwrap_or_else(|| panic!("no {case} line for {agent}:\n{out}"))
        };
        let good = line(&format!("over {scheme} with the token"));
        assert!(
            good.contains("tools listed: True; the model saw the file's text"),
            "{good}"
        );
        let bad = line("with a wrong token");
        assert!(bad.contains("tools listed: False"), "{bad}");
    }
    assert_eq!(
        out.matches("a POST with a wrong token answers 401").count(),
        3,
        "{out}"
    );
}

/// `initialize` and `tools/list` of `loopr-tool mcp`, as Codex names itself.
fn listing() -> (String, Vec<Value>) {
    let mut child = Command::new(testkit::bin())
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for msg in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "codex-mcp-client", "version": "0.171.0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ] {
        writeln!(stdin, "{msg}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let replies: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let by_id = |id: i64| replies.iter().find(|r| r["id"] == id).unwrap().clone();
    let instructions = by_id(1)["result"]["instructions"]
        .as_str()
        .unwrap()
        .to_string();
    let tools = by_id(2)["result"]["tools"].as_array().unwrap().clone();
    (instructions, tools)
}

/// SPEC 31.1: each description opens with the plain words a model searches for.
#[test]
fn descriptions_open_with_the_words_models_search_for() {
    let (_, tools) = listing();
    for (tool, opening) in [
        (
            "read",
            "Read a file: view, open, show or cat a file's lines.",
        ),
        ("tree", "List files and directories as a tree"),
        ("grep", "Search code / file contents for a pattern"),
        ("glob", "Find files by name pattern"),
        ("run", "Run a shell command"),
        ("edit", "Edit a file"),
        ("apply_patch", "Apply a patch"),
        ("todo", "Todo list"),
        ("fetch", "Fetch a URL"),
        ("write", "Write a file"),
    ] {
        let t = tools.iter().find(|t| t["name"] == tool).unwrap();
        let description = t["description"].as_str().unwrap();
        assert!(description.starts_with(opening), "{tool}: {description}");
    }
}

/// Codex appends the server's instructions to every tool's search text, so a searched word in
/// them is in every document and no longer ranks: a word like "file" there put `read` 4th for
/// "read file" (bench/codex_tool_search.py). The tools' own names are the exception the list
/// by task cannot avoid.
#[test]
fn the_instructions_list_tools_by_task_without_the_words_models_search_with() {
    let (instructions, _) = listing();
    let words: Vec<String> = instructions
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\''))
        .map(|w| w.trim_end_matches("'s").to_lowercase())
        .collect();
    for searched in [
        "file",
        "files",
        "view",
        "open",
        "content",
        "contents",
        "list",
        "lists",
        "directory",
        "directories",
        "search",
        "code",
        "coding",
        "find",
        "finds",
        "shell",
        "command",
        "commands",
        "apply",
        "patch",
        "url",
    ] {
        assert!(
            !words.iter().any(|w| w == searched),
            "{searched:?} in the instructions: {instructions}"
        );
    }
    for tool in [
        "read",
        "tree",
        "glob",
        "grep",
        "edit",
        "apply_patch",
        "write",
        "run",
        "fetch",
        "todo",
    ] {
        assert!(
            words.iter().any(|w| w == tool),
            "{tool} missing from the instructions"
        );
    }
}
