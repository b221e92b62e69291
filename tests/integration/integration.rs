//! Integration commands (SPEC §14, 16.9, 16.10): schema, call, batch, mcp, other agents' names.

use serde_json::{Value, json};
use testkit::Env;

fn schema(env: &Env, args: &[&str]) -> Vec<Value> {
    let mut a = vec!["schema"];
    a.extend_from_slice(args);
    let out = env.run(&a, "");
    assert_eq!(out.status, 0, "{}", out.stdout);
    out.json
        .as_array()
        .expect("schema prints a bare array")
        .clone()
}

#[test]
fn schema_lists_every_tool_in_three_flavors() {
    let env = Env::new();
    let anthropic = schema(&env, &[]);
    let names: Vec<&str> = anthropic
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    for t in ["read", "write", "session", "todo", "undo"] {
        assert!(names.contains(&t), "{t} missing from {names:?}");
    }
    assert!(
        !names.contains(&"Read") && !names.contains(&"call"),
        "aliases and commands are not tools"
    );
    for d in &anthropic {
        let s = &d["input_schema"];
        assert_eq!(s["type"], "object");
        assert_eq!(s["additionalProperties"], false, "{}", d["name"]);
        assert!(s.get("oneOf").is_none() && s.get("anyOf").is_none() && s.get("$defs").is_none());
        assert!(
            !serde_json::to_string(s).unwrap().contains("$ref"),
            "self-contained"
        );
        assert!(
            d["description"].as_str().unwrap().len() > 80,
            "a description written for a model"
        );
    }
    let read = &anthropic.iter().find(|d| d["name"] == "read").unwrap()["input_schema"];
    // `path` or `paths`: a cross-field rule the tool enforces (no required list can say it).
    assert!(read.get("required").is_none_or(|r| r == &json!([])));
    assert_eq!(read["properties"]["paths"]["maxItems"], 100);
    assert_eq!(read["properties"]["limit"]["maximum"], 100_000);
    assert!(
        read["properties"].get("file_path").is_none(),
        "no aliases in schemas"
    );

    let openai = schema(&env, &["read", "--for", "openai"]);
    assert_eq!(openai.len(), 1);
    assert_eq!(openai[0]["type"], "function");
    assert_eq!(openai[0]["function"]["parameters"], *read);
    let mcp = schema(&env, &["--for", "mcp", "read", "write"]);
    assert_eq!(mcp.len(), 2);
    assert_eq!(mcp[0]["inputSchema"], *read);
    assert_eq!(mcp[0]["annotations"]["readOnlyHint"], true);
    assert_eq!(mcp[1]["annotations"]["readOnlyHint"], false);
    assert_eq!(mcp[1]["annotations"]["destructiveHint"], true);
    let session = &schema(&env, &["session"])[0]["input_schema"];
    assert_eq!(
        session["properties"]["action"]["enum"],
        json!(["show", "clear_reads", "reset", "reopen"])
    );

    let out = env.run(&["schema", "nope"], "");
    out.assert_err("invalid_input");
    let out = env.run(&["schema", "--for", "gemini"], "");
    out.assert_err("invalid_input");
}

#[test]
fn call_returns_the_envelope_with_the_id() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let out = env.run(
        &["call"],
        r#"{"name": "read", "input": {"path": "a.txt"}, "id": "toolu_01"}"#,
    );
    out.assert_ok();
    assert_eq!(out.json["id"], "toolu_01");
    assert_eq!(out.json["tool"], "read");
    let out = env.run(&["call"], r#"{"name": "nope", "input": {}, "id": 7}"#);
    out.assert_err("unknown_tool");
    assert_eq!(out.json["id"], 7);
    let out = env.run(
        &["call"],
        r#"{"name": "read", "input": {"path": "missing"}}"#,
    );
    out.assert_err("not_found");
    let out = env.run(&["call"], r#"{"name": "read", "input": {"bogus": 1}}"#);
    out.assert_err("invalid_input");
    for bad in [
        "{",
        "[]",
        r#"{"input": {}}"#,
        r#"{"name": "read", "extra": 1}"#,
    ] {
        env.run(&["call"], bad).assert_err("invalid_input");
    }
    let out = env.run(
        &["call", "--format", "text"],
        r#"{"name": "read", "input": {"path": "a.txt"}}"#,
    );
    assert_eq!(out.stdout, "     1\tx\n");
}

#[test]
fn batch_keeps_order_reports_each_slot_and_runs_writes_in_sequence() {
    let env = Env::new();
    env.write_file("a.txt", "a\n");
    let calls = json!([
        {"name": "read", "input": {"path": "a.txt"}, "id": 1},
        {"name": "write", "input": {"path": "a.txt", "content": "b\n"}, "id": 2},
        {"name": "read", "input": {"path": "a.txt"}, "id": 3},
        {"name": "batch", "input": {}, "id": 4},
        {"name": "read"},
        "not a call",
        {"name": "Read", "input": {"file_path": "a.txt"}, "id": 7},
    ]);
    let out = env.run(&["batch"], &calls.to_string());
    assert_eq!(out.status, 1, "some calls failed");
    let r = out.json.as_array().unwrap();
    assert_eq!(r.len(), 7);
    let ids: Vec<&Value> = r.iter().map(|e| &e["id"]).collect();
    assert_eq!(ids[..4], [&json!(1), &json!(2), &json!(3), &json!(4)]);
    assert_eq!(
        r[0]["output"], "     1\ta\n",
        "the read before the write sees the old content"
    );
    assert_eq!(r[1]["ok"], true);
    assert_eq!(
        r[2]["output"], "     1\tb\n",
        "the read after the write sees the new content"
    );
    assert_eq!(r[3]["error"]["code"], "unknown_tool");
    assert_eq!(r[4]["error"]["code"], "invalid_input");
    assert_eq!(r[5]["error"]["code"], "invalid_input");
    assert_eq!(
        (r[6]["tool"].as_str(), r[6]["ok"].as_bool()),
        (Some("read"), Some(true))
    );
    // JSON Lines, all ok -> exit 0
    let lines =
        "{\"name\": \"read\", \"input\": {\"path\": \"a.txt\"}}\n\n{\"name\": \"session\"}\n";
    let out = env.run(&["batch"], lines);
    assert_eq!(out.status, 0);
    assert_eq!(out.json.as_array().unwrap().len(), 2);
    // the batch itself unreadable -> exit 2
    env.run(&["batch"], "[1, 2").assert_err("invalid_input");
    env.run(&["batch"], "").assert_err("invalid_input");
}

/// SPEC 23.8, 24.7: each result is written as soon as it and every result before it are done,
/// not held to the end. The first call's envelope is on stdout while the second still runs.
#[test]
fn batch_streams_each_result_as_soon_as_it_and_those_before_are_done() {
    use std::io::Read;
    let env = Env::new();
    env.write_file("a.txt", "alpha\n");
    let calls = json!([
        {"tool": "read", "input": {"path": "a.txt"}},
        {"tool": "run", "input": {"command": "sleep 4; echo late"}},
    ]);
    let started = std::time::Instant::now();
    let mut child = env.spawn(&["batch"], &[], &calls.to_string());
    let mut stdout = child.stdout.take().unwrap();
    let mut first = Vec::new();
    let mut buf = [0u8; 4096];
    while !first.windows(5).any(|w| w == b"alpha") {
        let n = stdout.read(&mut buf).unwrap();
        assert!(n > 0, "stdout ended before the first result");
        first.extend_from_slice(&buf[..n]);
    }
    assert!(
        started.elapsed() < std::time::Duration::from_secs(4),
        "the first result waited for the second call"
    );
    assert!(
        child.try_wait().unwrap().is_none(),
        "the batch is still running"
    );
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    first.extend(rest);
    let all: Value = serde_json::from_slice(&first).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 2);
    assert!(all[1]["output"].as_str().unwrap().contains("late"));
    // Pretty output streams too, and is the same JSON.
    let pretty = env.run(&["--pretty", "batch"], &calls.to_string());
    assert_eq!(
        pretty.json.as_array().unwrap().len(),
        2,
        "{}",
        pretty.stdout
    );
    assert!(
        pretty.stdout.starts_with("[\n  {\n    \""),
        "{}",
        pretty.stdout
    );
}

#[test]
fn batch_runs_many_reads_in_parallel_and_in_order() {
    let env = Env::new();
    let mut calls = vec![];
    for i in 0..100 {
        env.write_file(&format!("f{i}.txt"), format!("file {i}\n"));
        calls.push(json!({"name": "read", "input": {"path": format!("f{i}.txt")}, "id": i}));
    }
    let out = env.run(&["batch"], &Value::Array(calls).to_string());
    assert_eq!(out.status, 0);
    for (i, e) in out.json.as_array().unwrap().iter().enumerate() {
        assert_eq!(e["id"], i);
        assert_eq!(e["output"], format!("     1\tfile {i}\n"));
    }
    // every read was recorded despite running concurrently under one session lock
    let s = env.run(&["session"], "");
    assert_eq!(s.data()["reads"].as_array().unwrap().len(), 100);
}

#[test]
fn other_agents_names_replay_with_their_fields() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let call = |name: &str, input: Value| {
        env.run(
            &["call"],
            &json!({"name": name, "input": input}).to_string(),
        )
    };
    let out = call(
        "Read",
        json!({"file_path": "a.txt", "offset": 1, "limit": 5}),
    );
    assert_eq!((out.json["tool"].as_str(), out.ok()), (Some("read"), true));
    call("read_file", json!({"path": "a.txt"})).assert_ok();
    let out = call("Write", json!({"file_path": "a.txt", "content": "y\n"}));
    assert_eq!(out.json["tool"], "write");
    out.assert_ok();
    call("write_file", json!({"path": "new.txt", "content": "n"})).assert_ok();
    let out = call(
        "TodoWrite",
        json!({"todos": [{"content": "Ship", "status": "in_progress", "activeForm": "Shipping"}]}),
    );
    out.assert_ok();
    assert_eq!(out.json["tool"], "todo");
    assert_eq!(out.output(), "[>] 1. Ship (Shipping)\n0/1 completed\n");
    // unknown foreign fields still fail, and the CLI takes the names too
    call("Read", json!({"file_path": "a.txt", "pages": 2})).assert_err("invalid_input");
    let out = env.run(&["Read", "a.txt"], "");
    assert_eq!((out.json["tool"].as_str(), out.ok()), (Some("read"), true));
    // case matters: names are exact
    call("READ", json!({"file_path": "a.txt"})).assert_err("unknown_tool");
}

/// The server's answers, in id order (calls may answer out of order, SPEC 22.1).
fn mcp(env: &Env, args: &[&str], messages: &[Value]) -> Vec<Value> {
    let stdin: String = messages.iter().map(|m| format!("{m}\n")).collect();
    let out = env.run(args, &stdin);
    assert_eq!(out.status, 0, "clean exit on EOF: {}", out.stderr);
    let mut replies: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("stdout holds JSON-RPC lines only"))
        .collect();
    replies.sort_by_key(|r| r["id"].as_i64().unwrap_or(-1));
    replies
}

#[test]
fn mcp_speaks_json_rpc() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let replies = mcp(
        &env,
        &["mcp"],
        &[
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "a.txt"}}}),
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "gone.txt"}}}),
            json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "nope", "arguments": {}}}),
            json!({"jsonrpc": "2.0", "id": 7, "method": "resources/list"}),
            json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"arguments": {}}}),
        ],
    );
    assert_eq!(replies.len(), 8, "the notification gets no answer");
    assert_eq!(replies[0]["result"]["protocolVersion"], "2025-03-26");
    assert_eq!(replies[0]["result"]["serverInfo"]["name"], "loopr-tool");
    assert_eq!(replies[1]["result"], json!({}));
    let tools = replies[2]["result"]["tools"].as_array().unwrap();
    assert!(
        tools
            .iter()
            .any(|t| t["name"] == "read" && t["inputSchema"]["type"] == "object")
    );
    assert_eq!(
        replies[3]["result"]["content"][0],
        json!({"type": "text", "text": "     1\tx\n"})
    );
    assert_eq!(replies[3]["result"]["isError"], false);
    // The model must see the text: no structuredContent unless asked for (SPEC 22.1).
    assert!(replies[3]["result"].get("structuredContent").is_none());
    assert_eq!(replies[4]["result"]["isError"], true);
    assert!(
        replies[4]["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("gone.txt does not exist")
    );
    assert_eq!(replies[5]["error"]["code"], -32602);
    assert_eq!(replies[6]["error"]["code"], -32601);
    assert_eq!(replies[7]["error"]["code"], -32602);
    assert!(
        replies
            .iter()
            .zip(1..)
            .all(|(r, id)| r["id"] == id || r["id"] == id + 1)
    );
}

#[test]
fn mcp_answers_bad_messages_and_negotiates_versions() {
    let env = Env::new();
    let out = env.run(
        &["mcp"],
        "{not json\n[1]\n{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": {\"protocolVersion\": \"1999-01-01\"}}\n{\"jsonrpc\": \"1.0\", \"id\": 2, \"method\": \"ping\"}\n",
    );
    let r: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(r[0]["error"]["code"], -32700);
    assert_eq!(r[0]["id"], Value::Null);
    assert_eq!(r[1]["error"]["code"], -32600);
    assert_eq!(
        r[2]["result"]["protocolVersion"], "2025-11-25",
        "unknown version: our newest"
    );
    assert_eq!(r[3]["error"]["code"], -32600);
    assert_eq!(out.status, 0);
}

#[test]
fn mcp_uses_the_global_session_and_sandbox() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let stdin = format!(
        "{}\n",
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "/etc/passwd"}}})
    );
    let out = env.run(&["--session", "mcp-s", "mcp", "--structured"], &stdin);
    let r: Value = serde_json::from_str(out.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(
        r["result"]["structuredContent"]["error"]["code"],
        "outside_root"
    );
    let stdin = format!(
        "{}\n",
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "a.txt"}}})
    );
    env.run(&["--session", "mcp-s", "mcp"], &stdin);
    let s = env.run(&["--session", "mcp-s", "session"], "");
    assert_eq!(s.data()["reads"].as_array().unwrap().len(), 1);
}

/// A hand-written transcript of Claude Code tool calls (its names and fields, absolute paths)
/// replays unchanged through `call`, driven by the example agent loop.
#[test]
fn a_claude_code_transcript_replays_through_the_example_loop() {
    let env = Env::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let out = std::process::Command::new("python3")
        .arg(dir.join("agent_loop.py"))
        .arg("--loopr")
        .arg(testkit::bin())
        .arg("--root")
        .arg(&env.root)
        .arg(dir.join("claude_code_transcript.json"))
        .env("LOOPR_STATE_DIR", &env.state)
        .output()
        .expect("python3 runs the example");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(results.len(), 6);
    assert!(
        results
            .iter()
            .all(|r| r["is_error"] == false && r["type"] == "tool_result")
    );
    assert_eq!(
        results[2]["content"],
        "     2\t    return f\"Hello, {name}\"\n"
    );
    assert_eq!(
        results[5]["content"],
        "[x] 1. Add a docstring to greet\n[>] 2. Run the tests (Running the tests)\n1/2 completed\n"
    );
    assert_eq!(
        env.read_file("src/greet.py"),
        b"def greet(name):\n    \"\"\"Say hello.\"\"\"\n    return f\"Hello, {name}\"\n"
    );
}

#[test]
fn claude_code_edit_names_replay() {
    let env = Env::new();
    env.write_file("a.py", "x = 1\ny = 2\n");
    env.read("a.py");
    let call = |name: &str, input: Value| {
        env.run(
            &["call"],
            &json!({"name": name, "input": input}).to_string(),
        )
    };
    let out = call(
        "Edit",
        json!({"file_path": env.path("a.py"), "old_string": "x = 1", "new_string": "x = 10"}),
    );
    out.assert_ok();
    assert_eq!(out.json["tool"], "edit");
    let out = call(
        "MultiEdit",
        json!({"file_path": "a.py", "edits": [{"old_string": "x = 10", "new_string": "x = 11"}, {"old_string": "y = 2", "new_string": "y = 22", "replace_all": false}]}),
    );
    out.assert_ok();
    call(
        "edit_file",
        json!({"path": "a.py", "old_str": "y = 22", "new_str": "y = 23"}),
    )
    .assert_ok();
    assert_eq!(env.read_file("a.py"), b"x = 11\ny = 23\n");
    // Claude Code's Edit with an empty old_string on a missing file writes it ...
    let out = call(
        "Edit",
        json!({"file_path": "new.py", "old_string": "", "new_string": "print('hi')\n"}),
    );
    out.assert_ok();
    assert_eq!(out.json["tool"], "write");
    assert_eq!(env.read_file("new.py"), b"print('hi')\n");
    // ... but on an existing file it is edit's own invalid_input, and our edit never creates
    call(
        "Edit",
        json!({"file_path": "a.py", "old_string": "", "new_string": "z"}),
    )
    .assert_err("invalid_input");
    env.call(
        "edit",
        json!({"path": "other.py", "old_string": "", "new_string": "z"}),
    )
    .assert_err("invalid_input");
    assert!(!env.path("other.py").exists());
}
