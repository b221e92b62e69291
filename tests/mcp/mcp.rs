//! `mcp` as a live server (SPEC 22.1, 23.1, 24.5): one process spoken to line by line while it
//! runs, so the tests can see what arrives when — a read answered while a run is still going,
//! no answer for a cancelled call, progress while a call runs, a roots request. The official
//! SDK clients are driven in tests/mcp/mcp_client.rs; this file checks the wire itself.

use testkit::server;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};
use testkit::{Env, Reaper};

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, Value)>,
    /// Everything received so far, with when it came.
    seen: Vec<(Instant, Value)>,
}

impl Server {
    fn start(env: &Env, args: &[&str], vars: &[(&str, &str)]) -> Server {
        let mut cmd = env.std_cmd();
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let v: Value = serde_json::from_str(&line).expect("only JSON-RPC on stdout");
                if tx.send((Instant::now(), v)).is_err() {
                    break;
                }
            }
        });
        Server {
            stdin: child.stdin.take(),
            child,
            lines,
            seen: vec![],
        }
    }

    fn send(&mut self, msg: Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
    }

    fn call(&mut self, id: i64, name: &str, args: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": args}}));
    }

    /// Waits for the first message, new or already seen, that `pick` accepts.
    fn wait_for(&mut self, what: &str, pick: impl Fn(&Value) -> bool) -> (Instant, Value) {
        if let Some(hit) = self.seen.iter().find(|(_, v)| pick(v)) {
            return hit.clone();
        }
        let stop = Instant::now() + Duration::from_secs(20);
        loop {
            let left = stop.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(m) => {
                    self.seen.push(m.clone());
                    if pick(&m.1) {
                        return m;
                    }
                }
                Err(_) => panic!("no {what} within 20 s; seen: {:?}", self.seen),
            }
        }
    }

    fn response(&mut self, id: i64) -> (Instant, Value) {
        self.wait_for(&format!("response {id}"), |v| v["id"] == id)
    }

    /// Collects whatever arrives in `d`.
    fn idle(&mut self, d: Duration) {
        let stop = Instant::now() + d;
        loop {
            match self
                .lines
                .recv_timeout(stop.saturating_duration_since(Instant::now()))
            {
                Ok(m) => self.seen.push(m),
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    /// Closes stdin and waits for the exit status.
    fn close(mut self) -> i32 {
        drop(self.stdin.take());
        self.child.wait().unwrap().code().unwrap_or(-1)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn text(r: &Value) -> &str {
    r["result"]["content"][0]["text"].as_str().unwrap_or("")
}

/// Processes whose command line or environment holds `marker` (a test's own), from /proc: not
/// the tool's own count.
fn alive_with(marker: &str) -> Vec<u32> {
    let mut found = vec![];
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        for f in ["cmdline", "environ"] {
            let hit = std::fs::read(e.path().join(f))
                .is_ok_and(|b| b.windows(marker.len()).any(|w| w == marker.as_bytes()));
            let zombie = std::fs::read_to_string(e.path().join("stat")).is_ok_and(|s| {
                s.rsplit(')')
                    .next()
                    .is_some_and(|r| r.trim_start().starts_with('Z'))
            });
            if hit && !zombie {
                found.push(pid);
                break;
            }
        }
    }
    found
}

#[test]
fn results_carry_the_text_and_structured_mode_adds_it_with_data() {
    let env = Env::new();
    env.write_file("a.txt", "alpha\n");
    let mut s = Server::start(&env, &["mcp"], &[]);
    s.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    s.call(2, "read", json!({"path": "a.txt"}));
    let list = s.response(1).1;
    let tools = list["result"]["tools"].as_array().unwrap();
    let read = tools.iter().find(|t| t["name"] == "read").unwrap();
    assert_eq!(
        read["_meta"],
        json!({"anthropic/alwaysLoad": true, "anthropic/maxResultSizeChars": 100_000})
    );
    assert!(tools.iter().all(|t| t.get("outputSchema").is_none()));
    let grep = tools.iter().find(|t| t["name"] == "grep").unwrap();
    assert_eq!(grep["_meta"]["anthropic/maxResultSizeChars"], 20_000);
    let r = s.response(2).1;
    assert_eq!(
        r["result"],
        json!({"content": [{"type": "text", "text": "     1\talpha\n"}], "isError": false})
    );
    assert_eq!(s.close(), 0);

    for (args, vars) in [
        (&["mcp", "--structured"][..], &[][..]),
        (&["mcp"][..], &[("LOOPR_MCP_STRUCTURED", "1")][..]),
    ] {
        let mut s = Server::start(&env, args, vars);
        s.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
        s.call(2, "read", json!({"path": "a.txt"}));
        s.call(3, "read", json!({"path": "missing.txt"}));
        let list = s.response(1).1;
        let tools = list["result"]["tools"].as_array().unwrap();
        assert!(
            tools
                .iter()
                .all(|t| t["outputSchema"]["required"] == json!(["output"]))
        );
        let ok = s.response(2).1;
        assert_eq!(
            ok["result"]["structuredContent"]["output"],
            "     1\talpha\n"
        );
        assert_eq!(ok["result"]["structuredContent"]["data"]["total_lines"], 1);
        let failed = s.response(3).1;
        assert_eq!(failed["result"]["isError"], true);
        assert_eq!(
            failed["result"]["structuredContent"]["error"]["code"],
            "not_found"
        );
        assert_eq!(
            failed["result"]["structuredContent"]["output"],
            text(&failed)
        );
    }
}

#[test]
fn a_read_is_answered_while_a_run_goes_on() {
    let env = Env::new();
    env.write_file("a.txt", "alpha\n");
    let mut s = Server::start(&env, &["mcp"], &[]);
    let start = Instant::now();
    s.call(1, "run", json!({"command": "sleep 2; echo slept"}));
    for id in 2..=6 {
        s.call(id, "read", json!({"path": "a.txt"}));
    }
    let (run_at, run) = s.response(1);
    assert!(text(&run).starts_with("slept\n"), "{run}");
    for id in 2..=6 {
        let (at, r) = s.response(id);
        assert_eq!(text(&r), "     1\talpha\n");
        assert!(at < run_at, "read {id} answered after the run");
        assert!(at - start < Duration::from_millis(1500), "read {id} waited");
    }
}

#[test]
fn file_changes_keep_their_order_and_reads_wait_for_them() {
    let env = Env::new();
    let mut s = Server::start(&env, &["--no-read-check", "mcp"], &[]);
    // Sent at once: the edit must see the write, the read must see the edit.
    s.call(1, "write", json!({"path": "f.txt", "content": "one\n"}));
    s.call(
        2,
        "edit",
        json!({"path": "f.txt", "old_string": "one", "new_string": "two"}),
    );
    s.call(3, "read", json!({"path": "f.txt"}));
    assert_eq!(s.response(1).1["result"]["isError"], false);
    assert_eq!(s.response(2).1["result"]["isError"], false, "{:?}", s.seen);
    assert_eq!(text(&s.response(3).1), "     1\ttwo\n");
}

#[test]
fn a_cancelled_run_ends_its_tree_and_gets_no_answer() {
    let env = Env::new();
    let marker = format!("loopr-cancel-{}", std::process::id());
    // Whatever the cancel leaves (if the test fails) is SIGKILLed when the test ends.
    let _reaper = Reaper(marker.clone(), vec![]);
    let mut s = Server::start(&env, &["mcp"], &[]);
    s.call(
        1,
        "run",
        json!({"command": "sleep 60 & sleep 60; wait", "env": {"LOOPR_TEST_MARK": marker}}),
    );
    let stop = Instant::now() + Duration::from_secs(10);
    while alive_with(&marker).len() < 2 {
        assert!(Instant::now() < stop, "the run never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    s.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "user"}}));
    let stop = Instant::now() + Duration::from_secs(5);
    while !alive_with(&marker).is_empty() {
        assert!(
            Instant::now() < stop,
            "still alive: {:?}",
            alive_with(&marker)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The server still serves, and never answers the cancelled request.
    s.send(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}));
    s.response(2);
    s.idle(Duration::from_millis(500));
    assert!(
        s.seen.iter().all(|(_, v)| v["id"] != 1),
        "answered: {:?}",
        s.seen
    );
    // A cancel for a request that is not in flight changes nothing.
    s.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}}),
    );
    s.call(3, "run", json!({"command": "echo after"}));
    assert!(text(&s.response(3).1).starts_with("after\n"));
}

#[test]
fn a_call_waiting_its_turn_can_be_cancelled_too() {
    let env = Env::new();
    let mut s = Server::start(&env, &["mcp"], &[]);
    s.call(1, "run", json!({"command": "sleep 1"}));
    s.call(2, "run", json!({"command": "touch ran.txt"}));
    s.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}),
    );
    s.response(1);
    s.idle(Duration::from_millis(500));
    assert!(s.seen.iter().all(|(_, v)| v["id"] != 2));
    assert!(!env.path("ran.txt").exists(), "the cancelled call ran");
}

#[test]
fn progress_arrives_while_a_run_prints() {
    let env = Env::new();
    let mut s = Server::start(&env, &["mcp"], &[]);
    s.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "run",
            "arguments": {"command": "for i in 1 2 3; do echo line$i; sleep 1; done"},
            "_meta": {"progressToken": "tok"},
        }}),
    );
    let (done_at, r) = s.response(1);
    assert!(text(&r).starts_with("line1\nline2\nline3\n"));
    let progress: Vec<&Value> = s
        .seen
        .iter()
        .filter(|(at, v)| v["method"] == "notifications/progress" && *at < done_at)
        .map(|(_, v)| &v["params"])
        .collect();
    assert!(progress.len() >= 2, "{progress:?}");
    assert!(progress.iter().all(|p| p["progressToken"] == "tok"));
    let amounts: Vec<u64> = progress
        .iter()
        .map(|p| p["progress"].as_u64().unwrap())
        .collect();
    assert!(amounts.windows(2).all(|w| w[0] < w[1]), "{amounts:?}");
    assert!(
        progress
            .iter()
            .any(|p| p["message"].as_str().unwrap().contains("last line: line")),
        "{progress:?}"
    );
    // A call without a token hears nothing.
    s.call(2, "run", json!({"command": "sleep 1.5"}));
    let before = s.seen.len();
    s.response(2);
    assert!(
        s.seen[before..]
            .iter()
            .all(|(_, v)| v["method"] != "notifications/progress")
    );
}

#[test]
fn a_panicking_call_is_answered_in_its_slot_and_the_server_goes_on() {
    let env = Env::new();
    env.write_file("a.txt", "alpha\n");
    let mut s = Server::start(&env, &["mcp"], &[("LOOPR_DEBUG_PANIC", "grep")]);
    s.call(1, "grep", json!({"pattern": "alpha"}));
    s.call(2, "read", json!({"path": "a.txt"}));
    let r = s.response(1).1;
    assert_eq!(r["result"]["isError"], true);
    assert!(text(&r).contains("bug"), "{r}");
    assert_eq!(text(&s.response(2).1), "     1\talpha\n");
    s.call(3, "grep", json!({"pattern": "alpha"}));
    assert_eq!(s.response(3).1["result"]["isError"], true);
    assert_eq!(s.close(), 0);
}

#[test]
fn batch_and_call_answer_a_panic_in_its_slot() {
    let env = Env::new();
    env.write_file("a.txt", "alpha\n");
    let mut c = env.cmd();
    c.arg("batch")
        .env("LOOPR_DEBUG_PANIC", "grep")
        .write_stdin(r#"[{"name":"read","input":{"path":"a.txt"}},{"name":"grep","input":{"pattern":"a"}},{"name":"read","input":{"path":"a.txt"}}]"#);
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(items[0]["ok"], true);
    assert_eq!(items[1]["error"]["code"], "internal_error");
    assert_eq!(items[1]["tool"], "grep");
    assert_eq!(items[2]["output"], "     1\talpha\n");

    let mut c = env.cmd();
    c.arg("call")
        .env("LOOPR_DEBUG_PANIC", "all")
        .write_stdin(r#"{"name":"read","input":{"path":"a.txt"},"id":"x"}"#);
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["code"], "internal_error");
    assert_eq!(v["id"], "x");
}

#[test]
fn without_a_root_the_clients_first_root_is_the_sandbox() {
    let env = Env::new();
    let project = env.path("project");
    let other = env.path("other");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(project.join("in.txt"), "inside\n").unwrap();
    // The server starts in env.root (cwd), with no --root: the client's root wins.
    let mut s = Server::start(&env, &["mcp"], &[]);
    s.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {"roots": {"listChanged": true}},
        "clientInfo": {"name": "t", "version": "0"}}}),
    );
    s.response(1);
    s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let (_, ask) = s.wait_for("roots/list", |v| v["method"] == "roots/list");
    s.call(2, "read", json!({"path": "in.txt"}));
    s.idle(Duration::from_millis(200));
    assert!(
        s.seen.iter().all(|(_, v)| v["id"] != 2),
        "the call waits for the roots"
    );
    s.send(
        json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"roots": [
            {"uri": format!("file://{}", project.display()), "name": "p"},
            {"uri": format!("file://{}", other.display())},
        ]}}),
    );
    assert_eq!(text(&s.response(2).1), "     1\tinside\n");
    let (_, warning) = s.wait_for("a warning", |v| v["method"] == "notifications/message");
    assert_eq!(warning["params"]["level"], "warning");
    assert!(
        warning["params"]["data"]
            .as_str()
            .unwrap()
            .contains(&other.display().to_string())
    );
    // list_changed asks again, and the new root applies.
    s.send(json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}));
    let asked = s.seen.len();
    let (_, ask2) = s.wait_for("a second roots/list", |v| {
        v["method"] == "roots/list" && v["id"] != ask["id"]
    });
    assert!(s.seen.len() > asked);
    s.send(
        json!({"jsonrpc": "2.0", "id": ask2["id"], "result": {"roots": [
        {"uri": format!("file://{}", other.display())}]}}),
    );
    s.call(3, "read", json!({"path": "in.txt"}));
    let r = s.response(3).1;
    assert_eq!(
        r["result"]["isError"], true,
        "in.txt is not under the new root"
    );

    // With --root, the client's roots are not asked for.
    let mut s = Server::start(&env, &["--root", "project", "mcp"], &[]);
    s.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {"roots": {}}, "clientInfo": {"name": "t", "version": "0"}}}));
    s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    s.call(2, "read", json!({"path": "in.txt"}));
    assert_eq!(text(&s.response(2).1), "     1\tinside\n");
    assert!(s.seen.iter().all(|(_, v)| v["method"] != "roots/list"));
}

#[test]
fn the_stateless_revision_discovers_and_marks_results_complete() {
    let env = Env::new();
    env.write_file("a.txt", "alpha\n");
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}});
    let mut s = Server::start(&env, &["mcp"], &[]);
    s.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}),
    );
    s.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta}}));
    s.send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"_meta": meta, "name": "read", "arguments": {"path": "a.txt"}}}));
    let d = s.response(1).1["result"].clone();
    assert_eq!(d["resultType"], "complete");
    assert_eq!(d["supportedVersions"][0], "2026-07-28");
    assert!(
        d["supportedVersions"]
            .as_array()
            .unwrap()
            .contains(&json!("2025-06-18"))
    );
    assert_eq!(d["serverInfo"]["name"], "loopr-tool");
    assert!(d["capabilities"]["tools"].is_object());
    assert!(d["ttlMs"].as_u64().unwrap() > 0);
    assert_eq!(d["cacheScope"], "public");
    let list = s.response(2).1;
    assert_eq!(list["result"]["resultType"], "complete");
    assert!(list["result"]["ttlMs"].is_u64());
    let r = s.response(3).1;
    assert_eq!(r["result"]["resultType"], "complete");
    assert_eq!(text(&r), "     1\talpha\n");
}

#[test]
fn eof_waits_for_the_calls_in_flight() {
    let env = Env::new();
    let mut c = env.cmd();
    c.arg("mcp").write_stdin(format!(
        "{}\n{}\n",
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "run", "arguments": {"command": "sleep 0.5; echo late"}}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "tree", "arguments": {}}}),
    ));
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let ids: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].clone())
        .collect();
    assert_eq!(ids.len(), 2, "both answered: {ids:?}");
    assert_eq!(ids[0], 2, "the tree does not wait for the run");
}

#[test]
fn a_cancelled_download_stops_and_its_bytes_were_progress() {
    let env = Env::new();
    let page = server::Server::start(|_| server::Reply::Drip {
        every: Duration::from_millis(10),
    });
    let mut s = Server::start(&env, &["--allow-private", "mcp"], &[]);
    s.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "fetch", "arguments": {"url": page.url("/slow"), "timeout_ms": 4000},
            "_meta": {"progressToken": 5},
        }}),
    );
    let (_, p) = s.wait_for("progress", |v| {
        v["method"] == "notifications/progress" && v["params"]["progress"].as_u64() > Some(10)
    });
    assert!(
        p["params"]["message"]
            .as_str()
            .unwrap()
            .ends_with("bytes downloaded"),
        "{p}"
    );
    s.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}),
    );
    // Uncancelled, the fetch would answer `timeout` at 4 s; cancelled, it never answers.
    s.idle(Duration::from_millis(5000));
    assert!(s.seen.iter().all(|(_, v)| v["id"] != 1), "{:?}", s.seen);
    s.send(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}));
    s.response(2);
}

#[test]
fn a_frame_over_64_mib_or_not_utf8_is_refused_and_the_server_goes_on() {
    let env = Env::new();
    let mut s = Server::start(&env, &["mcp"], &[]);
    let big = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{{\"pad\":\"{}\"}}}}",
        "x".repeat(65 * 1024 * 1024)
    );
    {
        let stdin = s.stdin.as_mut().unwrap();
        stdin.write_all(big.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin
            .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"\xff\xfe\"}\n")
            .unwrap();
    }
    s.send(json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}));
    let (_, refused) = s.wait_for("the refusal", |v| v["error"]["code"] == -32600);
    assert_eq!(refused["id"], Value::Null);
    let (_, bad) = s.wait_for("the parse error", |v| v["error"]["code"] == -32700);
    assert_eq!(bad["id"], Value::Null);
    s.response(3);
    assert!(s.seen.iter().all(|(_, v)| v["id"] != 1));
}

/// Gemini CLI adds `wait_for_previous` to every MCP tool's schema, tells the model to set it and
/// forwards it in `tools/call` (SPEC 31.1): accepted and ignored, under our names and its own,
/// with no warning; any other unknown field is still refused, naming it.
#[test]
fn gemini_clis_wait_for_previous_is_accepted_and_ignored() {
    let env = Env::new();
    env.write_file("a.txt", "alpha\n");
    let mut s = Server::start(&env, &["mcp"], &[]);
    s.call(
        1,
        "read",
        json!({"path": "a.txt", "wait_for_previous": true}),
    );
    s.call(
        2,
        "read_file",
        json!({"absolute_path": env.path("a.txt"), "wait_for_previous": false}),
    );
    s.call(3, "read", json!({"path": "a.txt", "wait_for_it": true}));
    let ours = s.response(1).1;
    assert_eq!(
        ours["result"],
        json!({"content": [{"type": "text", "text": "     1\talpha\n"}], "isError": false})
    );
    let gemini = s.response(2).1;
    assert_eq!(gemini["result"]["isError"], false, "{gemini}");
    assert!(
        gemini["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("alpha"),
        "{gemini}"
    );
    let other = s.response(3).1;
    assert_eq!(other["result"]["isError"], true, "{other}");
    assert!(
        other["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("unknown field `wait_for_it`"),
        "{other}"
    );
    assert_eq!(s.close(), 0);

    // The same on the other entry points: `call`, and a tool's JSON on stdin.
    let out = env.run(
        &["call"],
        &json!({"name": "read", "input": {"path": "a.txt", "wait_for_previous": true}}).to_string(),
    );
    out.assert_ok();
    assert!(out.json.get("warnings").is_none() && out.data().get("warnings").is_none());
    env.call("read", json!({"path": "a.txt", "wait_for_previous": true}))
        .assert_ok();
}

/// SPEC 31.4: at most 64 calls run at once per server; more wait in order for a thread. Before,
/// each call in flight had a thread of its own: 100 waiting queries held 100 threads.
#[test]
fn at_most_64_calls_run_at_once_and_the_rest_wait_their_turn() {
    let env = Env::new();
    let mut s = Server::start(&env, &["mcp"], &[]);
    let n = 100;
    for id in 1..=n {
        s.call(
            id,
            "query",
            json!({"to": "nobody", "question": "?", "timeout_ms": 1500}),
        );
    }
    std::thread::sleep(Duration::from_millis(700));
    let status = std::fs::read_to_string(format!("/proc/{}/status", s.child.id())).unwrap();
    let threads: usize = status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // The pool's 64, the reading thread and a few of the runtime's own.
    assert!(threads <= 64 + 4, "{threads} threads for {n} calls");
    let (first_at, _) = s.response(1);
    let (last_at, last) = s.response(n);
    assert!(text(&last).contains("did not answer"), "{last}");
    // The last 36 started only when the first 64 had timed out.
    assert!(
        last_at - first_at >= Duration::from_millis(1000),
        "{:?}",
        last_at - first_at
    );
    for id in 1..=n {
        s.response(id);
    }
}

/// CPU time the process has used so far, in milliseconds (utime + stime of /proc/PID/stat).
fn cpu_ms(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after_name = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<u64> = after_name
        .split(' ')
        .skip(11)
        .take(2)
        .map(|n| n.parse().unwrap())
        .collect();
    let tick = 1000 / unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
    (f[0] + f[1]) * tick
}

/// SPEC 31.4: a cancel stops a page's conversion, not only its download: the server's CPU
/// falls quiet within 100 ms of the cancel, and the call is never answered.
#[test]
fn a_cancel_stops_a_long_conversion() {
    let env = Env::new();
    let unit = "<div><p>Some words <b>here</b> and <a href=\"/x\">there</a>.</p><ul><li>one</li><li>two</li></ul></div>";
    let page = format!("<html><body>{}</body></html>", unit.repeat(90_000));
    let site = server::Server::start(move |_| server::html(&page));
    let mut s = Server::start(&env, &["--allow-private", "mcp"], &[]);
    let pid = s.child.id();
    s.call(1, "fetch", json!({"url": site.url("/big")}));
    // Busy converting: 400 ms of CPU spent since the call (the download takes a few).
    let start = cpu_ms(pid);
    let deadline = Instant::now() + Duration::from_secs(20);
    while cpu_ms(pid) < start + 400 {
        assert!(Instant::now() < deadline, "the fetch never got busy");
        std::thread::sleep(Duration::from_millis(20));
    }
    s.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}),
    );
    std::thread::sleep(Duration::from_millis(100));
    let stopped = cpu_ms(pid);
    s.idle(Duration::from_millis(1000));
    let spent = cpu_ms(pid) - stopped;
    // A clock tick of slack (10 ms) and what answering the idle loop costs.
    assert!(
        spent <= 50,
        "{spent} ms of CPU in the second after a cancel"
    );
    assert!(s.seen.iter().all(|(_, v)| v["id"] != 1), "{:?}", s.seen);
    s.send(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}));
    s.response(2);
}

/// A file of 98,000 characters: 1,400 numbered lines of 69 characters and a newline.
fn big_file(env: &Env) {
    let body: String = (0..1_400)
        .map(|i| format!("{i:05} {}\n", "x".repeat(63)))
        .collect();
    assert_eq!(body.chars().count(), 98_000);
    env.write_file("big.txt", &body);
}

fn initialize(s: &mut Server, client: &str) {
    s.send(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": client, "version": "1"}}}),
    );
    s.response(0);
    s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
}

fn declared(s: &mut Server, id: i64, tool: &str) -> u64 {
    s.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"}));
    let list = s.response(id).1;
    let tools = list["result"]["tools"].as_array().unwrap().clone();
    let t = tools.iter().find(|t| t["name"] == tool).unwrap();
    t["_meta"]["anthropic/maxResultSizeChars"].as_u64().unwrap()
}

/// SPEC 31.1: `mcp` learns the client from `initialize` and sizes each result under what that
/// client passes on whole — Codex 40,000 characters, Gemini CLI 36,000, Claude Code as before —
/// so a 98,000-character read ends with its own paging line, not the client's cut.
#[test]
fn results_are_sized_to_what_the_client_passes_on() {
    let env = Env::new();
    big_file(&env);
    for (client, max) in [
        ("codex-mcp-client", 40_000),
        ("gemini-cli-mcp-client", 36_000),
        ("claude-code", 100_000),
    ] {
        let mut s = Server::start(&env, &["mcp"], &[]);
        initialize(&mut s, client);
        assert_eq!(declared(&mut s, 1, "read"), max as u64, "{client}");
        s.call(2, "read", json!({"path": "big.txt"}));
        let r = s.response(2).1;
        let out = text(&r);
        assert!(
            out.chars().count() <= max,
            "{client}: {}",
            out.chars().count()
        );
        assert!(
            out.chars().count() > max - 2_000,
            "{client}: the room is used"
        );
        assert!(
            out.trim_end().ends_with(&format!(
                "continue with offset={})",
                out.lines().rev().nth(1).unwrap()[..6]
                    .trim()
                    .parse::<u64>()
                    .unwrap()
                    + 1
            )),
            "{client}: {}",
            &out[out.len() - 200..]
        );
        // The same through the stateless revision's `_meta`.
        s.send(
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "read", "arguments": {"path": "big.txt"},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientInfo": {"name": client}}}}),
        );
        let r = s.response(3).1;
        assert!(text(&r).chars().count() <= max, "{client} stateless");
        s.close();
    }
    // --client names it whatever clientInfo says.
    let mut s = Server::start(&env, &["--client", "gemini-cli", "mcp"], &[]);
    initialize(&mut s, "claude-code");
    assert_eq!(declared(&mut s, 1, "read"), 36_000);
    s.close();
}

/// SPEC 31.1: in `--structured` mode the text goes twice, inside JSON, with `data`: the size
/// declared to Claude Code counts that, so a whole 98,000-character read is never spilled.
#[test]
fn the_structured_size_counts_the_json_around_the_text() {
    let env = Env::new();
    big_file(&env);
    let mut s = Server::start(&env, &["mcp", "--structured"], &[]);
    initialize(&mut s, "claude-code");
    let declared = declared(&mut s, 1, "read");
    s.call(2, "read", json!({"path": "big.txt", "limit": 100_000}));
    let r = s.response(2).1;
    assert_eq!(r["result"]["isError"], false);
    let sent = serde_json::to_string(&r["result"]).unwrap().chars().count() as u64;
    assert!(sent > 100_000, "the text was sent whole, twice: {sent}");
    assert!(sent <= declared, "{sent} > {declared}");
    assert!(declared <= 500_000);
    s.close();
}
