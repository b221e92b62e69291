//! The Redis hub's own faults (SPEC 25.2): a hub that cannot be reached, one that accepts and
//! never answers, one that refuses the credentials, clients killed mid-call, and connections
//! reused within one process. The loops' behaviour on it is tested in `loops` (each test there
//! runs on a file hub and on a Redis hub).

use serde_json::{Value, json};
use std::time::{Duration, Instant};
use testkit::Env;
use testkit::redis::{RedisServer, Silent, free_port};

const SECRET: &str = "s3cret-Pw";

/// No secret anywhere a user or a log could see it.
#[track_caller]
fn assert_no_secret(out: &testkit::Out) {
    for (what, text) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        assert!(!text.contains(SECRET), "the password is in {what}: {text}");
        assert!(
            !text.contains("s3cret"),
            "a part of the password is in {what}: {text}"
        );
    }
}

#[test]
fn an_unreachable_hub_is_a_network_error_naming_it_without_credentials() {
    let port = free_port(); // nobody listens there
    for (url, password) in [
        (format!("redis://loop:{SECRET}@127.0.0.1:{port}/2"), None),
        (format!("redis://127.0.0.1:{port}/"), Some(SECRET)),
    ] {
        let mut env = Env::new().with_var("LOOPR_HUB", &url);
        if let Some(pw) = password {
            env = env.with_var("LOOPR_HUB_PASSWORD", pw);
        }
        let shown = if password.is_some() {
            url.clone()
        } else {
            format!("redis://127.0.0.1:{port}/2")
        };
        let calls = [
            (
                "share",
                json!({"to": ["b"], "data_type": "n", "data": 1}),
                "nothing was sent",
            ),
            ("inbox", json!({}), "the inbox was not read"),
            (
                "query",
                json!({"to": "b", "question": "?", "timeout_ms": 2000}),
                "the question was not asked",
            ),
            (
                "complete_task",
                json!({"summary": "done"}),
                "the completion was not recorded",
            ),
            (
                "artifact",
                json!({"kind": "plan"}),
                "the artifacts were not read",
            ),
        ];
        for (tool, input, not_done) in calls {
            let start = Instant::now();
            let out = env.call_in("a", tool, input);
            out.assert_err("network_error");
            assert_no_secret(&out);
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "{tool} took {:?}",
                start.elapsed()
            );
            assert_eq!(out.json["error"]["hub"], shown.as_str(), "{}", out.stdout);
            let msg = out.json["error"]["message"].as_str().unwrap();
            assert!(msg.contains(&shown), "{msg}");
            assert!(msg.contains("cannot be reached"), "{msg}");
            assert!(msg.contains(not_done), "{tool}: {msg}");
        }
        // The session's own state is still there without the hub.
        env.call_in("a", "todo", json!({"action": "add", "content": "x"}))
            .assert_ok();
    }
}

#[test]
fn a_hub_that_accepts_and_never_answers_is_a_timeout_within_the_calls_bound() {
    let silent = Silent::start();
    let url = format!("redis://127.0.0.1:{}/", silent.port);
    // A query: its timeout_ms bounds the whole wait for the server.
    let env = Env::new().with_var("LOOPR_HUB", &url);
    let start = Instant::now();
    let out = env.call_in(
        "a",
        "query",
        json!({"to": "b", "question": "?", "timeout_ms": 700}),
    );
    let took = start.elapsed();
    out.assert_err("timeout");
    assert!(took >= Duration::from_millis(690), "{took:?}");
    assert!(took < Duration::from_millis(700 + 600), "{took:?}");
    assert!(out.output().contains(&url), "{}", out.output());
    // Other calls: the lock wait bounds them.
    let env = env.with_var("LOOPR_LOCK_TIMEOUT_MS", "500");
    let start = Instant::now();
    let out = env.call_in(
        "a",
        "share",
        json!({"to": ["b"], "data_type": "n", "data": 1}),
    );
    let took = start.elapsed();
    out.assert_err("timeout");
    assert!(took < Duration::from_millis(500 + 600), "{took:?}");
    // With a password in the URL the handshake itself waits; still bounded, still secret.
    let env = Env::new()
        .with_var(
            "LOOPR_HUB",
            format!("redis://:{SECRET}@127.0.0.1:{}/", silent.port),
        )
        .with_var("LOOPR_LOCK_TIMEOUT_MS", "400");
    let start = Instant::now();
    let out = env.call_in("a", "inbox", json!({}));
    out.assert_err("timeout");
    assert_no_secret(&out);
    assert!(start.elapsed() < Duration::from_millis(400 + 600));
}

#[test]
fn a_password_from_the_url_or_the_environment_and_a_wrong_one_refused_unseen() {
    let Some(server) = RedisServer::start_with(&["--requirepass", SECRET]) else {
        return;
    };
    let port = server.port;
    // In the URL.
    let env = Env::new().with_var("LOOPR_HUB", format!("redis://:{SECRET}@127.0.0.1:{port}/"));
    let out = env.call_in(
        "a",
        "share",
        json!({"to": ["b"], "data_type": "n", "data": 1}),
    );
    out.assert_ok();
    assert_no_secret(&out);
    // In LOOPR_HUB_PASSWORD: the same hub.
    let env = Env::new()
        .with_var("LOOPR_HUB", format!("redis://127.0.0.1:{port}/"))
        .with_var("LOOPR_HUB_PASSWORD", SECRET);
    let out = env.call_in("b", "inbox", json!({}));
    out.assert_ok();
    assert_eq!(out.data()["messages"][0]["data"], 1);
    assert_no_secret(&out);
    // Wrong, or none: refused, and the password tried is not shown.
    for env in [
        Env::new().with_var(
            "LOOPR_HUB",
            format!("redis://:s3cret-wrong@127.0.0.1:{port}/"),
        ),
        Env::new().with_var("LOOPR_HUB", format!("redis://127.0.0.1:{port}/")),
    ] {
        let out = env.call_in("b", "inbox", json!({"action": "all"}));
        assert!(
            matches!(out.code(), "permission_denied" | "network_error"),
            "{}",
            out.stdout
        );
        assert_eq!(out.json["ok"], false);
        assert_no_secret(&out);
        assert!(!out.stdout.contains("wrong"), "{}", out.stdout);
    }
    // The database in the URL is another hub on the same server.
    let env = Env::new().with_var("LOOPR_HUB", format!("redis://:{SECRET}@127.0.0.1:{port}/3"));
    let out = env.call_in("b", "inbox", json!({"action": "all"}));
    assert_eq!(out.data()["messages"], json!([]), "{}", out.stdout);
}

#[test]
fn rediss_to_a_server_that_speaks_no_tls_is_a_network_error() {
    let silent = Silent::start();
    // A port that refuses, and one that accepts but never completes the handshake.
    let refused = free_port();
    let env = Env::new()
        .with_var("LOOPR_HUB", format!("rediss://127.0.0.1:{refused}/"))
        .with_var("LOOPR_LOCK_TIMEOUT_MS", "500");
    env.call_in("a", "inbox", json!({}))
        .assert_err("network_error");
    let env = Env::new()
        .with_var(
            "LOOPR_HUB",
            format!("rediss://:{SECRET}@127.0.0.1:{}/", silent.port),
        )
        .with_var("LOOPR_LOCK_TIMEOUT_MS", "500");
    let out = env.call_in("a", "inbox", json!({}));
    out.assert_err("timeout");
    assert_no_secret(&out);
}

/// Clients killed at every moment of their call leave whole messages or none: each message in
/// the inbox is exactly as sent, ids have no gaps, and nothing is reported corrupt.
#[test]
fn clients_killed_mid_call_leave_whole_messages_or_none() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    let env = Env::new().with_var("LOOPR_HUB", server.url());
    let big = "x".repeat(400_000);
    let mut sent = 0;
    for i in 0..40u64 {
        let input = json!({"to": ["hub", "other"], "data_type": "n", "data": {"n": i, "pad": big}});
        let mut child = env.spawn(&["--session", "feeder", "share"], &[], &input.to_string());
        std::thread::sleep(Duration::from_millis(i * 2));
        let _ = child.kill(); // SIGKILL, at a different moment each time
        let status = child.wait().unwrap();
        if status.success() {
            sent += 1;
        }
    }
    eprintln!("{sent} of 40 shares finished before their kill");
    // A query killed while it waits, and a reply racing a killed asker.
    for _ in 0..5 {
        let mut asker = env.spawn(
            &["--session", "asker", "query"],
            &[],
            &json!({"to": "hub", "question": "?", "timeout_ms": 10000}).to_string(),
        );
        std::thread::sleep(Duration::from_millis(60));
        let _ = asker.kill();
        let _ = asker.wait();
    }
    for session in ["hub", "other"] {
        let messages = crate::every_message(&env, session);
        let shares: Vec<&Value> = messages.iter().filter(|m| m["kind"] == "share").collect();
        eprintln!("{session}: {} shares arrived", shares.len());
        assert!(shares.len() >= sent, "{} < {sent}", shares.len());
        for m in &shares {
            assert_eq!(m["data"]["pad"].as_str().unwrap().len(), 400_000);
            assert_eq!(m["from"], "feeder");
        }
        // Both targets got the same shares: a share is all its targets or none.
        let ns: Vec<&Value> = shares.iter().map(|m| &m["data"]["n"]).collect();
        if session == "hub" {
            let other_ns: Vec<Value> = crate::every_message(&env, "other")
                .iter()
                .map(|m| m["data"]["n"].clone())
                .collect();
            assert_eq!(ns.into_iter().cloned().collect::<Vec<_>>(), other_ns);
        }
        let ids: Vec<u64> = messages.iter().map(|m| m["id"].as_u64().unwrap()).collect();
        assert_eq!(ids, (1..=ids.len() as u64).collect::<Vec<_>>(), "no gaps");
    }
    // The killed askers' questions are there whole; answering one still works.
    let open: Vec<u64> = crate::every_message(&env, "hub")
        .iter()
        .filter(|m| m["kind"] == "query")
        .map(|m| m["id"].as_u64().unwrap())
        .collect();
    if let Some(id) = open.first() {
        env.call_in(
            "hub",
            "inbox",
            json!({"action": "reply", "id": id, "text": "late"}),
        )
        .assert_ok();
    }
}

/// A loopback proxy to `port` that passes the client's bytes on slowly (16 KiB every 5 ms) and
/// the server's at once; when the client goes, the server's side is closed too. Returns its
/// port and a count of the bytes it passed to the server.
fn slow_proxy(port: u16) -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};
    use std::sync::atomic::Ordering;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let me = listener.local_addr().unwrap().port();
    let passed = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = passed.clone();
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(mut client) = client else { return };
            let mut server = TcpStream::connect(("127.0.0.1", port)).unwrap();
            let (mut c2, mut s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut s2, &mut c2);
            });
            let count = count.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 16 * 1024];
                loop {
                    match client.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            if server.write_all(&buf[..n]).is_err() {
                                break;
                            }
                            count.fetch_add(n, Ordering::SeqCst);
                            std::thread::sleep(Duration::from_millis(5));
                        }
                    }
                }
                let _ = server.shutdown(std::net::Shutdown::Both);
            });
        }
    });
    (me, passed)
}

/// A share whose client dies while its command is half-way to the server is not delivered at
/// all: the server never runs a command it did not receive whole.
#[test]
fn a_share_cut_off_mid_send_is_not_delivered_at_all() {
    use std::sync::atomic::Ordering;
    let Some(server) = RedisServer::start() else {
        return;
    };
    let (proxy, passed) = slow_proxy(server.port);
    let env = Env::new().with_var("LOOPR_HUB", format!("redis://127.0.0.1:{proxy}/"));
    let big = "y".repeat(600_000);
    let input = json!({"to": ["hub", "other"], "data_type": "n", "data": {"pad": big}});
    for _ in 0..3 {
        let mut child = env.spawn(&["--session", "feeder", "share"], &[], &input.to_string());
        // Until a part of the command (over 64 KiB, well under its 1.2 MB) has gone through.
        let start = Instant::now();
        while passed.load(Ordering::SeqCst) < 64 * 1024 {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the share never started"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        let _ = child.kill();
        let _ = child.wait();
        assert!(
            passed.load(Ordering::SeqCst) < 1_000_000,
            "it was not cut off mid-send"
        );
        passed.store(0, Ordering::SeqCst);
    }
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(
        server.command(None, &["EXISTS", "loopr:{hub}:m", "loopr:{other}:m"]),
        "0"
    );
    // Left alone, the same share through the same proxy arrives whole, in both inboxes.
    let out = env.call_in("feeder", "share", input);
    out.assert_ok();
    assert_eq!(out.data()["ids"], json!([1, 1]));
}

/// One process makes one connection and keeps it: a batch of 60 calls connects once (or a few
/// times when calls run at once), not 60 times.
#[test]
fn a_batch_reuses_its_connections() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    let connections = || -> u64 {
        let info = server.command(None, &["INFO", "stats"]);
        info.lines()
            .find_map(|l| l.strip_prefix("total_connections_received:"))
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    };
    let before = connections();
    let env = Env::new().with_var("LOOPR_HUB", server.url());
    let calls: Vec<Value> = (0..60)
        .map(|i| json!({"name": "share", "input": {"to": ["hub"], "data_type": "n", "data": i}}))
        .collect();
    let out = env.run(
        &["--session", "feeder", "batch"],
        &Value::Array(calls).to_string(),
    );
    assert_eq!(out.status, 0, "{}", out.stdout);
    let made = connections() - before - 1; // less the INFO's own
    assert!((1..=4).contains(&made), "{made} connections for 60 calls");
    // And the keys are where the module says.
    assert_eq!(server.command(None, &["ZCARD", "loopr:{hub}:ids"]), "60");
}

/// A query waiting on the Redis hub inside `mcp` notices `notifications/cancelled` within its
/// 250 ms slice: the question is marked expired, no response is sent for it, and the server
/// goes on serving.
#[test]
fn a_cancelled_query_in_mcp_stops_waiting_on_the_server_within_a_slice() {
    use std::io::{BufRead, BufReader, Write};
    let Some(server) = RedisServer::start() else {
        return;
    };
    let env = Env::new().with_var("LOOPR_HUB", server.url());
    let mut mcp = env
        .std_cmd()
        .args(["--session", "coder", "mcp"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = mcp.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Value>();
    let stdout = mcp.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Ok(v) = serde_json::from_str(&line) {
                let _ = tx.send(v);
            }
        }
    });
    let mut send = |v: Value| {
        stdin.write_all(format!("{v}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}}),
    );
    let init = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(init["id"], 1, "{init}");
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "query", "arguments": {"to": "planner", "question": "?", "timeout_ms": 60000}}}),
    );
    // The question is there, waiting.
    let start = Instant::now();
    let expired = |env: &Env| -> Option<bool> {
        let all = env.call_in("planner", "inbox", json!({"action": "all"}));
        all.data()["messages"][0]["expired"].as_bool()
    };
    while expired(&env).is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no question came"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(expired(&env), Some(false));
    std::thread::sleep(Duration::from_millis(300)); // well into its blocking read
    send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 2, "reason": "test"}}),
    );
    let cancelled = Instant::now();
    while expired(&env) != Some(true) {
        assert!(
            cancelled.elapsed() < Duration::from_secs(2),
            "the query did not stop waiting"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let took = cancelled.elapsed();
    // Each check above is a process of its own (a few ms); the wait itself ends within a slice.
    assert!(took < Duration::from_millis(1000), "{took:?}");
    send(json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}));
    let next = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(next["id"], 3, "no response for the cancelled call: {next}");
    drop(stdin); // the server ends at the end of its input
    let _ = mcp.wait();
}

/// `session show` names a Redis hub by its URL without credentials and lists the sessions it
/// knows with their roots; a share to a session never seen says it created its inbox.
#[test]
fn session_show_gives_the_redis_hub_and_its_sessions_without_the_password() {
    let Some(server) = RedisServer::start_with(&["--requirepass", SECRET]) else {
        return;
    };
    let url = format!("redis://:{SECRET}@127.0.0.1:{}/", server.port);
    let env = Env::new().with_var("LOOPR_HUB", &url);
    let out = env.call_in(
        "coder",
        "share",
        json!({"to": ["planner"], "data_type": "n", "data": 1}),
    );
    out.assert_ok();
    assert!(
        out.output().contains("created an inbox for planner"),
        "{}",
        out.output()
    );
    let again = env.call_in(
        "coder",
        "share",
        json!({"to": ["planner"], "data_type": "n", "data": 2}),
    );
    assert!(!again.output().contains("created"), "{}", again.output());
    let show = env.call_in("coder", "session", json!({}));
    show.assert_ok();
    assert_no_secret(&show);
    eprintln!(
        "{}",
        show.output()
            .lines()
            .find(|l| l.starts_with("Hub"))
            .unwrap_or("")
    );
    let hub = &show.data()["hub"];
    assert_eq!(hub["kind"], "redis");
    assert_eq!(hub["id"], format!("redis://127.0.0.1:{}/", server.port));
    let root = env.root.display().to_string();
    assert_eq!(
        hub["sessions"],
        json!([{"session": "coder", "root": root}, {"session": "planner", "root": ""}])
    );
}

/// SPEC 25.8: examples/worktrees.sh, seeds 000/001's flow with one worktree per loop, with its
/// loops meeting on a Redis hub (`hub::the_worktrees_example_…` runs it on the repository's).
#[test]
fn the_worktrees_example_runs_the_seeds_flow_on_a_redis_hub() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    let Some(text) = crate::hub::run_worktrees_example(Some(&server.url())) else {
        return;
    };
    let want = format!("Hub: redis {}", server.url());
    assert!(text.contains(&want), "{want:?} missing from:\n{text}");
    // It all lives on the server: the phase loop's artifacts, the code loop's inbox.
    assert_eq!(
        server.command(None, &["HEXISTS", "loopr:sessions", "code-1"]),
        "1"
    );
}
