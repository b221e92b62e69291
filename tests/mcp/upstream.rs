//! `[mcp_servers.NAME]` (SPEC 27.2, 27.3): other MCP servers' tools as `mcp__NAME__TOOL`,
//! called through `call`, `batch`, `schema` and our own `mcp`, under the catalog's policy. The
//! upstream is tests/mcp/fake_upstream.py (a server that prints garbage, fails, dies, hangs),
//! and our own `mcp --http` as a Streamable HTTP upstream.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use testkit::{Env, Out, finish};

fn fake() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mcp/fake_upstream.py")
        .display()
        .to_string()
}

/// A catalog outside the root: `[mcp_servers.fake]` (the fake in `mode`) and `extra`.
fn catalog(env: &Env, fake_mode: &str, extra: &str) -> PathBuf {
    let file = env.root.parent().unwrap().join("catalog.toml");
    let text = format!(
        "[mcp_servers.fake]\ncommand = \"python3\"\nargs = [{:?}, {fake_mode:?}]\ntimeout_ms = 3000\nstartup_timeout_ms = 3000\n{extra}\n",
        fake()
    );
    std::fs::write(&file, text).unwrap();
    file
}

fn with(env: &Env, file: &Path, args: &[&str], stdin: &str) -> Out {
    let mut c = env.cmd();
    c.arg("--config")
        .arg(file)
        .args(args)
        .write_stdin(stdin.to_string());
    finish(c)
}

fn call(env: &Env, file: &Path, tool: &str, input: Value) -> Out {
    with(
        env,
        file,
        &["call"],
        &json!({"name": tool, "input": input}).to_string(),
    )
}

fn batch(env: &Env, file: &Path, calls: Value) -> Vec<Value> {
    let out = with(env, file, &["batch"], &calls.to_string());
    out.json.as_array().unwrap().clone()
}

#[test]
fn upstream_tools_are_offered_and_called_under_their_prefixed_names() {
    let env = Env::new();
    let file = catalog(&env, "ok", "");
    let out = with(&env, &file, &["schema", "--for", "mcp"], "");
    let defs = out.json.as_array().unwrap();
    let echo = defs
        .iter()
        .find(|d| d["name"] == "mcp__fake__echo")
        .expect("listed");
    assert_eq!(echo["description"], "Echoes text.");
    assert_eq!(echo["annotations"]["title"], "echo");
    assert_eq!(echo["inputSchema"]["required"], json!(["text"]));
    assert!(
        defs.iter().any(|d| d["name"] == "read"),
        "ours stay offered"
    );
    // The garbage line the server printed first is skipped.
    let out = call(&env, &file, "mcp__fake__echo", json!({"text": "hi"}));
    out.assert_ok();
    assert_eq!(out.json["tool"], "mcp__fake__echo");
    assert_eq!(out.output(), "echo: hi\n");
    let out = call(&env, &file, "mcp__fake__structured", json!({}));
    assert_eq!(out.data(), &json!({"a": 1, "b": 2}));
}

#[test]
fn upstream_error_is_the_upstreams_is_error_with_its_text() {
    let env = Env::new();
    let file = catalog(&env, "ok", "");
    let out = call(&env, &file, "mcp__fake__fail", json!({}));
    out.assert_err("upstream_error");
    assert_eq!(
        out.json["error"]["message"],
        "the fake tool failed on purpose"
    );
    assert_eq!(out.json["error"]["server"], "fake");
}

#[test]
fn tool_unavailable_when_a_server_will_not_start_and_the_other_tools_go_on() {
    let env = Env::new();
    let file = catalog(&env, "broken", "");
    let out = call(&env, &file, "mcp__fake__echo", json!({"text": "x"}));
    out.assert_err("tool_unavailable");
    let msg = out.json["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("`fake`") && msg.contains("the config file is missing"),
        "{msg}"
    );
    // schema says so on stderr and lists ours.
    let out = with(&env, &file, &["schema"], "");
    assert!(
        out.json
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["name"] == "read")
    );
    // A server that prints only garbage never answers initialize.
    let file = catalog(&env, "garbage", "");
    let out = call(&env, &file, "mcp__fake__echo", json!({"text": "x"}));
    out.assert_err("tool_unavailable");
    assert!(
        out.output().contains("did not answer initialize"),
        "{}",
        out.output()
    );
}

#[test]
fn tool_unavailable_when_a_server_dies_mid_call_and_the_next_call_restarts_it() {
    let env = Env::new();
    let file = catalog(&env, "ok", "");
    let calls = json!([
        {"name": "mcp__fake__pid", "input": {}},
        {"name": "mcp__fake__pid", "input": {}},
        {"name": "mcp__fake__die", "input": {}},
        {"name": "mcp__fake__pid", "input": {}},
    ]);
    let r = batch(&env, &file, calls);
    // Kept under batch: one process for both calls.
    assert_eq!(r[0]["output"], r[1]["output"], "{r:?}");
    assert_eq!(r[2]["error"]["code"], "tool_unavailable");
    let died = r[2]["error"]["message"].as_str().unwrap();
    assert!(died.contains("dying during the call"), "{died}");
    // Not retried; the next call started it again.
    assert_eq!(r[3]["ok"], true, "{r:?}");
    assert_ne!(r[3]["output"], r[0]["output"]);
}

#[test]
fn upstream_tools_follow_the_catalogs_policy() {
    let env = Env::new();
    env.write_file("secret.txt", "no\n");
    let extra = r#"disabled_tools = ["structured"]

[tools.mcp__fake__hang]
timeout_ms = 500

[paths]
deny = ["secret.txt"]

[profiles.two]
tools = ["read", "mcp__fake__echo", "mcp__fake__where"]

[[hooks.pre]]
tools = ["mcp__fake__where"]
command = "grep -q forbidden && { echo 'not that one'; exit 2; } || exit 0"

[[hooks.pre]]
matcher = "^mcp__fake__echo$"
command = "grep -q '\"tool\":\"mcp__fake__echo\"' || { echo 'the hook saw another tool name'; exit 2; }"
"#;
    let file = catalog(&env, "ok", extra);
    call(&env, &file, "mcp__fake__structured", json!({})).assert_err("tool_disabled");
    // A hook selected by a matcher sees the upstream tool's own name.
    call(&env, &file, "mcp__fake__echo", json!({"text": "x"})).assert_ok();
    let out = call(&env, &file, "mcp__fake__hang", json!({}));
    out.assert_err("timeout");
    let out = call(
        &env,
        &file,
        "mcp__fake__where",
        json!({"path": "secret.txt"}),
    );
    out.assert_err("path_denied");
    let out = call(
        &env,
        &file,
        "mcp__fake__where",
        json!({"path": "forbidden/x"}),
    );
    out.assert_err("blocked_by_hook");
    assert!(out.output().contains("not that one"));
    let out = call(
        &env,
        &file,
        "mcp__fake__where",
        json!({"path": "sub/ok.txt"}),
    );
    assert_eq!(
        out.output(),
        "given sub/ok.txt\n",
        "relative paths pass as given"
    );
    // A profile offering two of its tools offers exactly those.
    let out = with(&env, &file, &["--profile", "two", "schema"], "");
    let names: Vec<&str> = out
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["read", "mcp__fake__echo", "mcp__fake__where"]);
    let out = with(
        &env,
        &file,
        &["--profile", "two", "call"],
        &json!({"name": "mcp__fake__fail", "input": {}}).to_string(),
    );
    out.assert_err("tool_disabled");
}

#[test]
fn catalog_check_finds_upstream_problems() {
    let env = Env::new();
    let file = env.root.parent().unwrap().join("bad.toml");
    let long = "x".repeat(60);
    std::fs::write(
        &file,
        format!("[mcp_servers.\"a.b\"]\ncommand = \"x\"\n[mcp_servers.a_b]\ncommand = \"y\"\n[mcp_servers.none]\nargs = []\n[mcp_servers.both]\ncommand = \"x\"\nurl = \"http://h/mcp\"\n[mcp_servers.{long}]\ncommand = \"x\"\n[tools.mcp__nope__x]\n"),
    )
    .unwrap();
    let out = env
        .cmd()
        .args(["catalog", "--check"])
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{text}");
    for want in [
        "collide with [mcp_servers.a.b]",
        "needs `command` (stdio) or `url`",
        "has both `command` and `url`",
        "over 64 characters",
        "no [mcp_servers] entry offers it",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
}

/// Our own stdio `mcp` with the catalog: tools/list and tools/call carry the upstream's tools.
#[test]
fn our_mcp_server_offers_and_calls_upstream_tools() {
    let env = Env::new();
    let file = catalog(&env, "ok", "");
    let mut child = env
        .std_cmd()
        .arg("--config")
        .arg(&file)
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut ask = |msg: Value| -> Value {
        writeln!(stdin, "{msg}").unwrap();
        serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap()
    };
    ask(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
    );
    let list = ask(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let tools = list["result"]["tools"].as_array().unwrap();
    let echo = tools
        .iter()
        .find(|t| t["name"] == "mcp__fake__echo")
        .expect("listed");
    assert_eq!(echo["inputSchema"]["properties"]["text"]["type"], "string");
    let r = ask(
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "mcp__fake__echo", "arguments": {"text": "via mcp"}}}),
    );
    assert_eq!(r["result"]["content"][0]["text"], "echo: via mcp\n");
    assert_eq!(r["result"]["isError"], false);
    let r = ask(
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "mcp__fake__fail", "arguments": {}}}),
    );
    assert_eq!(r["result"]["isError"], true);
    // An image block comes back as an image block, after the text.
    let r = ask(
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "mcp__fake__image", "arguments": {}}}),
    );
    let content = &r["result"]["content"];
    assert_eq!(content[0]["text"], "a dot\n[image: image/png]\n");
    assert_eq!(content[1]["type"], "image");
    assert_eq!(content[1]["mimeType"], "image/png");
    assert!(content[1]["data"].as_str().unwrap().starts_with("iVBOR"));
    drop(stdin);
    child.wait().unwrap();
}

/// Our own `mcp --http` with the token `tok-123`, serving `root_file` (name, text): the server
/// and its URL.
fn http_upstream(root_file: (&str, &str)) -> (std::process::Child, String, Env) {
    let env = Env::new();
    env.write_file(root_file.0, root_file.1);
    let mut server = env
        .std_cmd()
        .args([
            "mcp",
            "--http",
            "127.0.0.1:0",
            "--token-env",
            "UPSTREAM_TOKEN",
        ])
        .env("UPSTREAM_TOKEN", "tok-123")
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let url = first.rsplit_once(' ').unwrap().1.to_string();
    (server, url, env)
}

/// A call of `mcp__far__read` through a catalog whose HTTP upstream takes its token from
/// `var` (set to `value`).
fn call_far(url: &str, var: &str, value: &str) -> Out {
    let env = Env::new().with_var(var, value);
    let file = env.root.parent().unwrap().join("catalog.toml");
    let cat = format!("[mcp_servers.far]\nurl = {url:?}\nbearer_token_env_var = {var:?}\n");
    std::fs::write(&file, cat).unwrap();
    call(&env, &file, "mcp__far__read", json!({"path": "far.txt"}))
}

/// A Streamable HTTP upstream: our own `mcp --http` with a token; a wrong token is
/// `tool_unavailable` (HTTP 401).
#[test]
fn a_streamable_http_upstream_with_a_bearer_token() {
    let (mut server, url, _env) = http_upstream(("far.txt", "from the far side\n"));
    let good = call_far(&url, "FAR_TOKEN", "tok-123");
    let bad = call_far(&url, "BAD_TOKEN", "nope");
    let _ = server.kill();
    let _ = server.wait();
    good.assert_ok();
    assert!(
        good.output().contains("from the far side"),
        "{}",
        good.output()
    );
    bad.assert_err("tool_unavailable");
    assert!(bad.output().contains("HTTP 401"), "{}", bad.output());
}

/// The reference servers from npm (SPEC 27.2), pinned, installed by the test like the other
/// real clients.
const EVERYTHING: &str = "@modelcontextprotocol/server-everything@2026.8.31";
const FILESYSTEM: &str = "@modelcontextprotocol/server-filesystem@2026.8.31";

/// `server-everything` and `server-filesystem` wrapped: called through the CLI, `batch` and
/// our `mcp` driven by the MCP Python SDK, with a profile offering two of their tools and a
/// pre hook that blocks one call.
#[test]
fn the_reference_servers_as_upstreams_through_cli_batch_and_the_python_sdk() {
    if crate::clients::skipped("the reference MCP servers as upstreams") {
        return;
    }
    let dir = crate::clients::npm_install("mcp-reference-servers", &[EVERYTHING, FILESYSTEM]);
    let node = crate::clients::node_at_least((20, 0), "22.23.3");
    let js = |p: &str| {
        dir.join("node_modules/@modelcontextprotocol")
            .join(p)
            .join("dist/index.js")
    };
    let env = Env::new();
    env.write_file("note.txt", "hello from a file\n");
    env.write_file("blocked.txt", "the hook stops this\n");
    let file = env.root.parent().unwrap().join("catalog.toml");
    let cat = format!(
        r#"[mcp_servers.everything]
command = {node:?}
args = [{everything:?}, "stdio"]

[mcp_servers.fs]
command = {node:?}
args = [{fs:?}, "."]

[profiles.two]
tools = ["mcp__everything__echo", "mcp__fs__read_text_file"]

[[hooks.pre]]
tools = ["mcp__fs__read_text_file"]
command = "grep -q blocked.txt && {{ echo 'blocked.txt is off limits'; exit 2; }} || exit 0"
"#,
        node = node.display().to_string(),
        everything = js("server-everything").display().to_string(),
        fs = js("server-filesystem").display().to_string(),
    );
    std::fs::write(&file, cat).unwrap();
    let profile = ["--profile", "two"];
    // CLI
    let out = with(
        &env,
        &file,
        &[&profile[..], &["call"]].concat(),
        &json!({"name": "mcp__everything__echo", "input": {"message": "hi"}}).to_string(),
    );
    out.assert_ok();
    assert_eq!(out.output(), "Echo: hi\n");
    // batch: a read through the filesystem server, and one the hook blocks.
    let calls = json!([
        {"name": "mcp__fs__read_text_file", "input": {"path": "note.txt"}},
        {"name": "mcp__fs__read_text_file", "input": {"path": "blocked.txt"}},
        {"name": "mcp__fs__write_file", "input": {"path": "x.txt", "content": "x"}},
    ]);
    let out = with(
        &env,
        &file,
        &[&profile[..], &["batch"]].concat(),
        &calls.to_string(),
    );
    let r = out.json.as_array().unwrap();
    assert_eq!(r[0]["output"], "hello from a file\n", "{r:?}");
    assert_eq!(r[1]["error"]["code"], "blocked_by_hook");
    assert_eq!(r[2]["error"]["code"], "tool_disabled", "not in the profile");
    assert!(!env.path("x.txt").exists());
    // our mcp, by the official Python SDK
    let python = crate::clients::python_with_mcp_sdk();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/upstream_client.py");
    let calls = json!([["mcp__everything__echo", {"message": "via the SDK"}], ["mcp__fs__read_text_file", {"path": "note.txt"}]]);
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(testkit::bin())
        .arg(&env.root)
        .arg(&env.state)
        .arg(&file)
        .arg("two")
        .arg(calls.to_string())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["tools"],
        json!(["mcp__everything__echo", "mcp__fs__read_text_file"])
    );
    assert_eq!(
        report["calls"][0],
        json!({"isError": false, "text": "Echo: via the SDK\n"})
    );
    assert_eq!(report["calls"][1]["text"], "hello from a file\n");
}

/// A run's end signals every descendant of this process; a kept upstream server is not the
/// run's (it was killed by the first `run` or hook of a batch before it was spared).
#[test]
fn a_run_in_the_same_batch_leaves_the_upstream_server_alive() {
    let env = Env::new();
    let file = catalog(&env, "ok", "");
    let calls = json!([
        {"name": "mcp__fake__pid", "input": {}},
        {"name": "run", "input": {"command": "echo ran"}},
        {"name": "mcp__fake__pid", "input": {}},
    ]);
    let r = batch(&env, &file, calls);
    assert_eq!(r[1]["ok"], true, "{r:?}");
    assert_eq!(r[2]["ok"], true, "{r:?}");
    assert_eq!(
        r[0]["output"], r[2]["output"],
        "the server was restarted: {r:?}"
    );
}

/// The CLI keeps a server's tool list in the state dir for 10 minutes (SPEC 27.3): a second
/// `schema` starts no server; a call still starts it, to call.
#[test]
fn the_cli_keeps_a_servers_tool_list_in_the_state_dir() {
    let env = Env::new();
    let starts = env.root.parent().unwrap().join("starts.txt");
    let extra = format!(
        "env = {{ FAKE_STARTS = {:?} }}",
        starts.display().to_string()
    );
    let file = catalog(&env, "ok", &extra);
    let count = || std::fs::read_to_string(&starts).map_or(0, |s| s.lines().count());
    for _ in 0..2 {
        let out = with(&env, &file, &["schema"], "");
        assert!(
            out.json
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d["name"] == "mcp__fake__echo")
        );
    }
    assert_eq!(count(), 1, "the second schema started the server again");
    let kept = std::fs::read_dir(env.state.join("mcp-tools"))
        .unwrap()
        .count();
    assert_eq!(kept, 1);
    let out = call(&env, &file, "mcp__fake__echo", json!({"text": "cached"}));
    assert_eq!(out.output(), "echo: cached\n");
    assert_eq!(count(), 2);
}

/// A result over `max_output_bytes` is cut, and its whole text kept for `jobs` to page from
/// the offset the trailer names (SPEC 27.3).
#[test]
fn a_cut_upstream_result_is_paged_with_jobs() {
    let env = Env::new();
    let file = catalog(
        &env,
        "ok",
        "\n[tools.mcp__fake__big]\nmax_output_bytes = 1000\n",
    );
    let out = call(&env, &file, "mcp__fake__big", json!({}));
    out.assert_ok();
    let text = out.output();
    assert!(text.len() <= 1000, "{}", text.len());
    assert!(text.starts_with("line 1\nline 2\n"));
    let at = text.find("jobs {").expect("the trailer names jobs");
    let page: Value = serde_json::from_str(text[at + 5..].split(" pages").next().unwrap()).unwrap();
    assert_eq!(page["action"], "output");
    let rest = with(
        &env,
        &file,
        &["call"],
        &json!({"name": "jobs", "input": page}).to_string(),
    );
    rest.assert_ok();
    let kept_lines = text.lines().filter(|l| l.starts_with("line ")).count();
    assert!(
        rest.output()
            .starts_with(&format!("line {}\n", kept_lines + 1)),
        "{}",
        rest.output()
    );
}

/// Calls of different HTTP sessions to one upstream server run side by side: one session's
/// hanging call does not hold back another's (answers are matched by id).
#[test]
fn calls_of_two_sessions_to_one_upstream_run_side_by_side() {
    use crate::http::{Http, Reply, call as rpc, session};
    let env = Env::new();
    let file = catalog(&env, "ok", "");
    let s = Http::start(&env, &["--no-auth", "--config", file.to_str().unwrap()]);
    let (a, b) = (s.initialize(), s.initialize());
    let hang = rpc(1, "mcp__fake__hang", json!({}));
    let started = std::time::Instant::now();
    let pending = s.send("POST", &session(&a), hang.to_string().as_bytes());
    std::thread::sleep(std::time::Duration::from_millis(500));
    let r = s
        .post(
            &session(&b),
            &rpc(2, "mcp__fake__echo", json!({"text": "b"})),
        )
        .json();
    assert!(
        started.elapsed() < std::time::Duration::from_millis(2500),
        "held back"
    );
    assert_eq!(r["result"]["content"][0]["text"], "echo: b\n");
    let timed_out = Reply::read(pending).json();
    assert_eq!(timed_out["result"]["isError"], true);
}
