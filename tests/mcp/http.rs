//! `mcp --http` (SPEC 27.1, 27.3) as a live server on loopback, spoken to by a plain HTTP/1.1
//! client written here (so a test can send what real clients would not: a foreign Host, a
//! 64 MiB Content-Length, a malformed session id) and by the official MCP Python SDK and the
//! official conformance suite (installed by the tests, as `clients` does).

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use testkit::Env;

const TOKEN: &str = "s3cret-token-for-tests";

/// A running `mcp --http 127.0.0.1:0`; killed on drop.
pub(crate) struct Http {
    child: Child,
    pub(crate) port: u16,
    pub(crate) stderr: Arc<Mutex<String>>,
}

impl Drop for Http {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Http {
    /// Starts the server with `args` after `mcp --http 127.0.0.1:0` and the token in
    /// LOOPR_TEST_TOKEN (named by `--token-env` unless `args` says otherwise).
    pub(crate) fn start(env: &Env, args: &[&str]) -> Http {
        let mut cmd = env.std_cmd();
        cmd.args(["mcp", "--http", "127.0.0.1:0"])
            .args(args)
            .env("LOOPR_TEST_TOKEN", TOKEN)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let first = lines.next().expect("a first line on stderr").unwrap();
        let port = first
            .rsplit_once(':')
            .and_then(|(_, p)| p.trim_end_matches("/mcp").parse().ok())
            .unwrap_or_else(|| panic!("no port in {first:?}"));
        let stderr = Arc::new(Mutex::new(first + "\n"));
        let keep = stderr.clone();
        std::thread::spawn(move || {
            for l in lines.map_while(Result::ok) {
                keep.lock().unwrap().push_str(&(l + "\n"));
            }
        });
        Http {
            child,
            port,
            stderr,
        }
    }

    fn with_token(env: &Env) -> Http {
        Http::start(env, &["--token-env", "LOOPR_TEST_TOKEN"])
    }

    /// Sends a request; `headers` replace the defaults of the same name (Host, Authorization).
    pub(crate) fn send(&self, method: &str, headers: &[(&str, &str)], body: &[u8]) -> TcpStream {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let host = format!("127.0.0.1:{}", self.port);
        let auth = format!("Bearer {TOKEN}");
        let mut all: Vec<(&str, &str)> = vec![
            ("Host", &host),
            ("Authorization", &auth),
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("Connection", "close"),
        ];
        for (k, v) in headers {
            all.retain(|(n, _)| !n.eq_ignore_ascii_case(k));
            if !v.is_empty() {
                all.push((k, v));
            }
        }
        let mut head = format!("{method} /mcp HTTP/1.1\r\n");
        for (k, v) in &all {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        if !headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("Content-Length"))
        {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(body).unwrap();
        s
    }

    pub(crate) fn post(&self, headers: &[(&str, &str)], msg: &Value) -> Reply {
        Reply::read(self.send("POST", headers, msg.to_string().as_bytes()))
    }

    /// `initialize`: the new session's id.
    pub(crate) fn initialize(&self) -> String {
        let r = self.post(&[], &init(1));
        assert_eq!(r.status, 200, "{}", r.text());
        r.header("mcp-session-id")
            .expect("a session id")
            .to_string()
    }
}

pub(crate) fn init(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
}

pub(crate) fn call(id: i64, name: &str, args: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": args}})
}

fn with_progress(mut msg: Value) -> Value {
    msg["params"]["_meta"] = json!({"progressToken": "tok"});
    msg
}

pub(crate) struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    /// Reads a whole response (the connection is `close`), de-chunked.
    pub(crate) fn read(s: TcpStream) -> Reply {
        let mut r = BufReader::new(s);
        let (status, headers) = read_head(&mut r);
        let mut raw = Vec::new();
        r.read_to_end(&mut raw).unwrap();
        let chunked = headers
            .iter()
            .any(|(k, v)| k == "transfer-encoding" && v == "chunked");
        let body = if chunked { dechunk(&raw) } else { raw };
        Reply {
            status,
            headers,
            body,
        }
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub(crate) fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// The messages of an SSE body.
    fn events(&self) -> Vec<Value> {
        self.text()
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .map(|d| serde_json::from_str(d).unwrap())
            .collect()
    }
}

fn read_head(r: &mut impl BufRead) -> (u16, Vec<(String, String)>) {
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {line:?}"));
    let mut headers = vec![];
    loop {
        line.clear();
        r.read_line(&mut line).unwrap();
        let l = line.trim_end();
        if l.is_empty() {
            return (status, headers);
        }
        let (k, v) = l.split_once(':').unwrap();
        headers.push((k.to_ascii_lowercase(), v.trim().to_string()));
    }
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = vec![];
    while let Some(i) = raw.windows(2).position(|w| w == b"\r\n") {
        let n = usize::from_str_radix(std::str::from_utf8(&raw[..i]).unwrap().trim(), 16).unwrap();
        if n == 0 {
            break;
        }
        out.extend_from_slice(&raw[i + 2..i + 2 + n]);
        raw = &raw[i + 2 + n + 2..];
    }
    out
}

pub(crate) fn session(sid: &str) -> [(&str, &str); 1] {
    [("Mcp-Session-Id", sid)]
}

fn text_of(result: &Value) -> &str {
    result["result"]["content"][0]["text"].as_str().unwrap()
}

#[test]
fn http_refuses_to_start_without_a_token_unless_no_auth_on_loopback() {
    let env = Env::new();
    let refused = |args: &[&str], var: &str| {
        let out = env
            .cmd()
            .args(["mcp", "--http"])
            .args(args)
            .env("LOOPR_TEST_TOKEN", var)
            .timeout(Duration::from_secs(10))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?} started");
        let env: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(env["error"]["code"], "invalid_input");
        env["error"]["message"].as_str().unwrap().to_string()
    };
    assert!(refused(&["127.0.0.1:0"], TOKEN).contains("--token-env"));
    // An empty variable counts as unset, and the message names the variable.
    let empty = refused(&["127.0.0.1:0", "--token-env", "LOOPR_TEST_TOKEN"], "");
    assert!(
        empty.contains("LOOPR_TEST_TOKEN is unset or empty"),
        "{empty}"
    );
    let open = refused(&["0.0.0.0:0", "--no-auth"], TOKEN);
    assert!(open.contains("only on a loopback address"), "{open}");
    // On loopback --no-auth serves, and any request is let in without a token.
    let s = Http::start(&env, &["--no-auth"]);
    assert_eq!(s.post(&[("Authorization", "")], &init(1)).status, 200);
}

#[test]
fn http_a_missing_or_wrong_token_is_401_and_the_token_is_never_shown() {
    let env = Env::new();
    let s = Http::with_token(&env);
    for auth in ["", "Bearer wrong-token", "Basic abc"] {
        let r = s.post(&[("Authorization", auth)], &init(1));
        assert_eq!(r.status, 401, "{auth:?}: {}", r.text());
        assert_eq!(r.header("www-authenticate"), Some("Bearer"));
        assert!(!r.text().contains(TOKEN) && !r.text().contains("wrong-token"));
        assert!(r.header("mcp-session-id").is_none());
    }
    assert_eq!(s.post(&[], &init(1)).status, 200);
    // Nor does the token reach a command: the variable is gone from run's environment.
    let sid = s.initialize();
    let r = s
        .post(&session(&sid), &call(2, "run", json!({"command": "env"})))
        .json();
    let env_text = text_of(&r);
    assert!(env_text.contains("PATH="), "{env_text}");
    assert!(!env_text.contains("LOOPR_TEST_TOKEN") && !env_text.contains(TOKEN));
    assert!(!s.stderr.lock().unwrap().contains(TOKEN));
}

#[test]
fn http_a_foreign_host_or_origin_is_403() {
    let env = Env::new();
    let s = Http::start(
        &env,
        &[
            "--token-env",
            "LOOPR_TEST_TOKEN",
            "--allow-host",
            "tools.example.org",
        ],
    );
    let host = format!("localhost:{}", s.port);
    for h in [
        [("Host", "evil.example.com"), ("Origin", "")],
        [
            ("Host", host.as_str()),
            ("Origin", "http://evil.example.com"),
        ],
    ] {
        let r = s.post(&h, &init(1));
        assert_eq!(r.status, 403, "{h:?}");
        assert!(r.text().contains("DNS rebinding"), "{}", r.text());
    }
    let origin = format!("http://localhost:{}", s.port);
    for h in [
        [("Host", host.as_str()), ("Origin", origin.as_str())],
        [("Host", "[::1]"), ("Origin", "")],
        [
            ("Host", "tools.example.org"),
            ("Origin", "https://tools.example.org"),
        ],
    ] {
        assert_eq!(s.post(&h, &init(1)).status, 200, "{h:?}");
    }
}

#[test]
fn http_a_body_over_64_mib_is_413_and_the_server_goes_on() {
    let env = Env::new();
    let s = Http::with_token(&env);
    // Refused on its Content-Length, before a byte of it is read.
    let big = (64u64 * 1024 * 1024 + 1).to_string();
    let r = Reply::read(s.send("POST", &[("Content-Length", &big)], b""));
    assert_eq!(r.status, 413);
    assert!(r.text().contains("over 67108864 bytes"), "{}", r.text());
    // Garbage is a JSON-RPC parse error, not a crash.
    let r = Reply::read(s.send("POST", &[], b"{not json"));
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["error"]["code"], -32700);
    assert_eq!(s.post(&[], &init(1)).status, 200);
}

#[test]
fn http_session_lifecycle_initialize_call_delete_and_unknown_ids() {
    let env = Env::new();
    env.write_file("a.txt", "alpha\n");
    let s = Http::with_token(&env);
    let read = call(2, "read", json!({"path": "a.txt"}));
    let missing = s.post(&[], &read);
    assert_eq!(missing.status, 400);
    assert!(missing.text().contains("Mcp-Session-Id is missing"));
    let malformed = s.post(&[("Mcp-Session-Id", "bad id\u{7f}")], &read);
    assert_eq!(malformed.status, 400);
    assert!(malformed.text().contains("malformed Mcp-Session-Id"));
    assert_eq!(s.post(&session("no-such-session"), &read).status, 404);

    let sid = s.initialize();
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let r = s.post(&session(&sid), &note);
    assert_eq!((r.status, r.body.len()), (202, 0));
    let r = s.post(&session(&sid), &read);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert!(text_of(&r.json()).contains("alpha"));

    let del = Reply::read(s.send("DELETE", &session(&sid), b""));
    assert_eq!(del.status, 200);
    assert_eq!(s.post(&session(&sid), &read).status, 404);
    assert_eq!(
        Reply::read(s.send("DELETE", &session(&sid), b"")).status,
        404
    );
    // An unsupported protocol version header is refused, a known one accepted.
    let sid = s.initialize();
    let r = s.post(
        &[
            ("Mcp-Session-Id", &sid),
            ("MCP-Protocol-Version", "1999-01-01"),
        ],
        &read,
    );
    assert_eq!(r.status, 400);
    let r = s.post(
        &[
            ("Mcp-Session-Id", &sid),
            ("MCP-Protocol-Version", "2025-06-18"),
        ],
        &read,
    );
    assert_eq!(r.status, 200);
}

#[test]
fn http_idle_sessions_expire() {
    let env = Env::new();
    let s = Http::start(
        &env,
        &["--token-env", "LOOPR_TEST_TOKEN", "--session-idle-s", "1"],
    );
    let sid = s.initialize();
    let ping = json!({"jsonrpc": "2.0", "id": 5, "method": "ping"});
    assert_eq!(s.post(&session(&sid), &ping).status, 200);
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(s.post(&session(&sid), &ping).status, 404);
}

#[test]
fn http_stateless_2026_requests_need_no_session() {
    let env = Env::new();
    env.write_file("a.txt", "alpha\n");
    let s = Http::with_token(&env);
    let read = call(3, "read", json!({"path": "a.txt"}));
    let r = s.post(&[("MCP-Protocol-Version", "2026-07-28")], &read);
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.header("mcp-session-id").is_none());
    assert_eq!(r.json()["result"]["resultType"], "complete");
    // The _meta of the revision says the same without the header.
    let mut meta = read.clone();
    meta["params"]["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}});
    let r = s.post(&[], &meta).json();
    assert!(text_of(&r).contains("alpha"));
    let discover = json!({"jsonrpc": "2.0", "id": 4, "method": "server/discover"});
    let r = s.post(&[], &discover).json();
    let versions = &r["result"]["supportedVersions"];
    for v in ["2026-07-28", "2025-11-25", "2025-06-18"] {
        assert!(
            versions.as_array().unwrap().iter().any(|x| x == v),
            "{versions}"
        );
    }
}

#[test]
fn http_a_call_with_progress_is_an_sse_stream_ending_with_its_result() {
    let env = Env::new();
    let s = Http::with_token(&env);
    let sid = s.initialize();
    let run = with_progress(call(
        7,
        "run",
        json!({"command": "echo one; sleep 2.5; echo two"}),
    ));
    let r = s.post(&session(&sid), &run);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("text/event-stream"));
    let events = r.events();
    let (last, progress) = events.split_last().unwrap();
    assert_eq!(last["id"], 7);
    assert!(text_of(last).contains("two"));
    assert!(!progress.is_empty(), "no progress before the result");
    assert!(
        progress
            .iter()
            .all(|p| p["method"] == "notifications/progress")
    );
    assert!(
        progress[0]["params"]["message"]
            .as_str()
            .unwrap()
            .contains("one")
    );
}

#[test]
fn http_a_cancelled_call_ends_its_exchange_without_a_message() {
    let env = Env::new();
    let s = Http::with_token(&env);
    let sid = s.initialize();
    let cancel = |id: i64| {
        let c = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}});
        assert_eq!(s.post(&session(&sid), &c).status, 202);
    };
    // JSON: the pending response becomes 202 with an empty body.
    let started = Instant::now();
    let pending = s.send(
        "POST",
        &session(&sid),
        call(8, "run", json!({"command": "sleep 30"}))
            .to_string()
            .as_bytes(),
    );
    std::thread::sleep(Duration::from_millis(700));
    cancel(8);
    let r = Reply::read(pending);
    assert_eq!((r.status, r.text()), (202, String::new()));
    assert!(started.elapsed() < Duration::from_secs(15));
    // SSE: the stream closes after the progress it sent, with no message for the call's id.
    let run = with_progress(call(9, "run", json!({"command": "echo started; sleep 30"})));
    let pending = s.send("POST", &session(&sid), run.to_string().as_bytes());
    std::thread::sleep(Duration::from_millis(1500));
    cancel(9);
    let r = Reply::read(pending);
    assert_eq!(r.status, 200);
    assert!(
        r.events().iter().all(|e| e.get("id").is_none()),
        "{}",
        r.text()
    );
    assert!(started.elapsed() < Duration::from_secs(25));
}

#[test]
fn http_sessions_run_side_by_side_and_each_client_gets_its_own_results() {
    let env = Env::new();
    for i in 0..16 {
        env.write_file(&format!("f{i}.txt"), format!("file number {i}\n"));
    }
    let s = Arc::new(Http::with_token(&env));
    // A long run in one session holds back no read of another.
    let busy = s.initialize();
    let long = s.send(
        "POST",
        &session(&busy),
        call(1, "run", json!({"command": "sleep 3"}))
            .to_string()
            .as_bytes(),
    );
    let started = Instant::now();
    let threads: Vec<_> = (0..16)
        .map(|i| {
            let s = s.clone();
            std::thread::spawn(move || {
                let sid = s.initialize();
                for n in 0..10 {
                    let r = s
                        .post(
                            &session(&sid),
                            &call(n, "read", json!({"path": format!("f{i}.txt")})),
                        )
                        .json();
                    assert_eq!(r["id"], n);
                    assert!(text_of(&r).contains(&format!("file number {i}\n")), "{r}");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "reads waited for the run"
    );
    assert_eq!(Reply::read(long).status, 200);
}

#[test]
fn http_the_official_python_sdk_connects_with_a_token_and_sees_the_text() {
    if crate::clients::skipped("the MCP Python SDK over HTTP") {
        return;
    }
    let python = crate::clients::python_with_mcp_sdk();
    let env = Env::new();
    env.write_file("hello.txt", "hi there\n");
    let s = Http::with_token(&env);
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/http_client.py");
    let url = format!("http://127.0.0.1:{}/mcp", s.port);
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(&url)
        .arg(TOKEN)
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
        report["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "read")
    );
    assert_eq!(
        report["read"],
        json!({"isError": false, "text": "     1\thi there\n"})
    );
    assert!(
        report["run"]["text"]
            .as_str()
            .unwrap()
            .contains("one\ntwo\n")
    );
    assert!(
        report["progress"][0].as_str().unwrap().contains("one"),
        "{report}"
    );
    assert!(
        report["wrong_token"]
            .as_str()
            .unwrap()
            .contains("bearer token is wrong")
    );
}

/// The official conformance suite (npm `@modelcontextprotocol/conformance`): its generic server
/// scenarios (SPEC 27.3) against `mcp --http --no-auth` on loopback. Version 0.1.16, the newest
/// published, has no `server-session-lifecycle`, `server-stateless` or `caching` scenario yet.
const CONFORMANCE: &str = "@modelcontextprotocol/conformance@0.1.16";
const GENERIC: &[&str] = &[
    "server-initialize",
    "ping",
    "tools-list",
    "logging-set-level",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
];

#[test]
fn http_the_official_conformance_suite_passes_its_generic_server_scenarios() {
    if crate::clients::skipped("the MCP conformance suite") {
        return;
    }
    // It needs Node 22 (fs.globSync).
    let node = crate::clients::node_at_least((22, 0), "22.23.3");
    let dir = crate::clients::npm_install("mcp-conformance", &[CONFORMANCE]);
    let cli = dir.join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    let env = Env::new();
    let s = Http::start(&env, &["--no-auth"]);
    let url = format!("http://localhost:{}/mcp", s.port);
    for scenario in GENERIC {
        let out = std::process::Command::new(&node)
            .arg(&cli)
            .args(["server", "--url", &url, "--scenario", scenario])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{scenario} failed:\n{text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains(" 0 failed"), "{scenario}:\n{text}");
    }
}
