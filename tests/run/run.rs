//! `run` end to end (SPEC §15): exit codes, signals, timeouts that end a whole process tree
//! (setsid, nohup and double forks included), leftovers after the shell exits, interleaving,
//! ANSI/CR cleanup, big outputs (capped output, complete log, bounded memory), stdin, the
//! non-interactive environment, cwd and the sandbox, and `network: none`.
//!
//! Every process a test starts carries a unique marker in its environment, so "nothing is left
//! alive" is checked by scanning /proc for that marker — not by trusting the tool's own count.

use serde_json::{Value, json};
use std::time::{Duration, Instant};
use testkit::{Env, Out, Reaper};

/// A marker unique to one test, put into the command's environment.
fn mark(name: &str) -> String {
    format!("loopr-test-{name}-{}", std::process::id())
}

fn alive(mark: &str) -> Vec<u32> {
    testkit::marked_alive(mark)
}

/// Waits up to `within` for every marked process to be gone.
fn none_alive(mark: &str, within: Duration) -> Vec<u32> {
    let stop = Instant::now() + within;
    loop {
        let left = alive(mark);
        if left.is_empty() || Instant::now() >= stop {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn run(env: &Env, input: Value) -> Out {
    env.call("run", input)
}

fn last_line(out: &Out) -> &str {
    out.output().lines().last().unwrap_or("")
}

#[test]
fn exit_codes_the_last_line_and_data() {
    let env = Env::new();
    let ok = run(&env, json!({"command": "echo hello"}));
    ok.assert_ok();
    assert!(
        ok.output().starts_with("hello\nExit code: 0 ("),
        "{}",
        ok.output()
    );
    let d = ok.data();
    assert_eq!(d["exit_code"], 0);
    assert_eq!(d["output_bytes"], 6);
    assert_eq!(d["truncated"], false);
    assert_eq!(d["cwd"], ".");
    assert!(d["id"].is_string() && d["duration_ms"].is_u64());

    let failed = run(&env, json!({"command": "echo partial; exit 3"}));
    failed.assert_err("command_failed");
    assert_eq!(failed.json["error"]["exit_code"], 3);
    assert_eq!(
        failed.data()["exit_code"],
        3,
        "data is there on failure too"
    );
    assert!(failed.output().starts_with("partial\n"));
    assert!(
        last_line(&failed).starts_with("Exit code: 3 ("),
        "{}",
        failed.output()
    );
    assert_ne!(failed.data()["id"], ok.data()["id"]);
}

#[test]
fn a_signal_is_named() {
    let env = Env::new();
    let out = run(&env, json!({"command": "echo before; kill -KILL $$"}));
    out.assert_err("command_failed");
    assert_eq!(out.json["error"]["signal"], "SIGKILL");
    assert_eq!(out.data()["signal"], "SIGKILL");
    assert!(out.data().get("exit_code").is_none());
    assert!(
        last_line(&out).starts_with("Killed by signal SIGKILL ("),
        "{}",
        out.output()
    );
    assert!(out.output().starts_with("before\n"));
}

#[test]
fn stdout_and_stderr_interleave_in_write_order() {
    let env = Env::new();
    let out = run(
        &env,
        json!({"command": "echo 1; echo 2 >&2; echo 3; sleep 0.05; echo 4 >&2; echo 5"}),
    );
    out.assert_ok();
    assert!(
        out.output().starts_with("1\n2\n3\n4\n5\nExit code: 0"),
        "{}",
        out.output()
    );
}

#[test]
fn colours_progress_lines_and_bad_bytes_are_cleaned() {
    let env = Env::new();
    let out = run(
        &env,
        json!({"command": r"printf '\033[1;31merror\033[0m: x\n'; printf 'Downloading 10%%\rDownloading 55%%\rDownloading 100%%\n'; printf 'spin\r\033[Kdone\n'; printf 'bad \377 byte\n'; printf 'no newline'"}),
    );
    out.assert_ok();
    assert_eq!(
        out.output().lines().take(5).collect::<Vec<_>>(),
        [
            "error: x",
            "Downloading 100%",
            "done",
            "bad \u{fffd} byte",
            "no newline"
        ]
    );
    // The log keeps the raw bytes.
    let log = std::fs::read(out.data()["log"].as_str().unwrap()).unwrap();
    assert!(log.starts_with(b"\x1b[1;31merror"));
}

#[test]
fn a_timeout_ends_the_whole_tree_including_setsid_nohup_and_double_forks() {
    let env = Env::new();
    let m = mark("timeout");
    let _reaper = Reaper(m.clone(), vec![]);
    let started = Instant::now();
    let out = run(
        &env,
        json!({
            "command": "setsid sleep 600 & nohup sleep 601 >/dev/null 2>&1 & (sleep 602 &); (setsid sh -c 'sleep 603 & sleep 604' &); trap '' TERM; echo started; sleep 605",
            "timeout_ms": 1000,
            "env": {"LOOPR_TEST_MARK": m},
        }),
    );
    out.assert_err("timeout");
    assert_eq!(out.json["error"]["timeout_ms"], 1000);
    assert!(
        out.output().starts_with("started\n"),
        "output until the timeout is kept: {}",
        out.output()
    );
    let last = last_line(&out);
    assert!(last.starts_with("Timed out after 1.0 s; "), "{last}");
    let n: usize = last
        .split("; ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        n >= 6,
        "the shell, five sleeps and their shells were ended: {last}"
    );
    // The shell ignored SIGTERM: it took the SIGKILL after 2 s.
    assert!(started.elapsed() < Duration::from_secs(8));
    assert_eq!(
        none_alive(&m, Duration::from_millis(200)),
        Vec::<u32>::new(),
        "nothing survives a timeout"
    );
    assert!(out.data()["id"].is_string(), "data on a timeout too");
}

#[test]
fn processes_left_running_after_the_shell_exits_are_ended() {
    let env = Env::new();
    let m = mark("leftover");
    let _reaper = Reaper(m.clone(), vec![]);
    // One holds the output pipe: drained for 2 s, then ended.
    let started = Instant::now();
    let out = run(
        &env,
        json!({"command": "sleep 600 & echo hi", "env": {"LOOPR_TEST_MARK": m}}),
    );
    let took = started.elapsed();
    out.assert_ok();
    assert!(took < Duration::from_secs(4), "returned after {took:?}");
    assert!(
        took >= Duration::from_secs(2),
        "drained for 2 s first: {took:?}"
    );
    assert!(
        out.output()
            .contains("Ended 1 process(es) still running after the shell exited")
    );
    assert!(out.output().contains("background: true"));
    assert_eq!(out.data()["processes_ended"], 1);
    assert!(alive(&m).is_empty());
    // One that does not hold it: ended at once.
    let started = Instant::now();
    let out = run(
        &env,
        json!({"command": "nohup sleep 601 >/dev/null 2>&1 & echo hi", "env": {"LOOPR_TEST_MARK": m}}),
    );
    out.assert_ok();
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "{:?}",
        started.elapsed()
    );
    assert!(alive(&m).is_empty());
}

#[test]
fn stdin_is_given_text_or_dev_null_and_there_is_no_terminal() {
    let env = Env::new();
    let out = run(&env, json!({"command": "cat; echo", "stdin": "fed\nlines"}));
    out.assert_ok();
    assert!(out.output().starts_with("fed\nlines\n"));
    let started = Instant::now();
    let out = run(
        &env,
        json!({"command": "read x; echo \"[$x]\"; cat /dev/tty"}),
    );
    out.assert_err("command_failed");
    assert!(out.output().starts_with("[]\n"), "{}", out.output());
    assert!(
        out.output().contains("/dev/tty"),
        "no controlling terminal: {}",
        out.output()
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    // A command that never reads a big stdin does not hang the call.
    let big = "x".repeat(1 << 20);
    let out = run(&env, json!({"command": "echo ignored", "stdin": big}));
    out.assert_ok();
}

#[test]
fn the_environment_is_non_interactive_and_env_adds_to_it() {
    let env = Env::new();
    let out = run(
        &env,
        json!({"command": "echo $CI $PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT $TERM $NO_COLOR $MINE", "env": {"MINE": "x y"}}),
    );
    out.assert_ok();
    assert!(
        out.output().starts_with("true cat cat 0 dumb 1 x y\n"),
        "{}",
        out.output()
    );
    let out = run(
        &env,
        json!({"command": "echo $TERM", "env": {"TERM": "xterm"}}),
    );
    assert!(out.output().starts_with("xterm\n"));
    // On the command line: --env NAME=VALUE, repeated.
    let out = env.run(&["run", "echo $A,$B", "--env", "A=1", "--env", "B=2=3"], "");
    out.assert_ok();
    assert!(out.output().starts_with("1,2=3\n"), "{}", out.output());
    let out = env.run(&["run", "true", "--env", "A"], "");
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "env");
    let out = run(&env, json!({"command": "true", "env": {"A=B": "1"}}));
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "env");
}

#[test]
fn input_errors_name_the_field() {
    let env = Env::new();
    for (input, field) in [
        (json!({}), "command"),
        (json!({"command": "  "}), "command"),
        (json!({"command": "true", "timeout_ms": 0}), "timeout_ms"),
        (
            json!({"command": "true", "timeout_ms": 600_001}),
            "timeout_ms",
        ),
        (json!({"command": "true", "network": "off"}), "network"),
        (json!({"command": "true", "shell": "zsh"}), "shell"),
        (
            json!({"command": "true", "background": true, "run_in_background": true}),
            "background",
        ),
    ] {
        let out = run(&env, input.clone());
        out.assert_err("invalid_input");
        assert!(
            out.json["error"]["field"] == field || out.output().contains(field),
            "{input}: {}",
            out.stdout
        );
    }
}

#[test]
fn cwd_is_inside_the_sandbox() {
    let env = Env::new();
    env.write_file("sub/f.txt", "x");
    let out = run(&env, json!({"command": "pwd; ls", "cwd": "sub"}));
    out.assert_ok();
    assert!(
        out.output()
            .starts_with(&format!("{}\nf.txt\n", env.path("sub").display()))
    );
    assert_eq!(out.data()["cwd"], "sub");
    run(&env, json!({"command": "pwd", "cwd": ".."})).assert_err("outside_root");
    run(&env, json!({"command": "pwd", "cwd": "/"})).assert_err("outside_root");
    std::os::unix::fs::symlink("/tmp", env.path("out")).unwrap();
    run(&env, json!({"command": "pwd", "cwd": "out"})).assert_err("outside_root");
    run(&env, json!({"command": "pwd", "cwd": "missing"})).assert_err("not_found");
    run(&env, json!({"command": "pwd", "cwd": "sub/f.txt"})).assert_err("not_a_directory");
}

#[test]
fn description_is_echoed() {
    let env = Env::new();
    let out = run(
        &env,
        json!({"command": "true", "description": "Check nothing"}),
    );
    out.assert_ok();
    assert!(out.output().starts_with("Ran: Check nothing\n"));
    assert_eq!(out.data()["description"], "Check nothing");
}

/// Peak RSS of the last child, from `/usr/bin/time -f %M` (KiB), if GNU time is there.
fn peak_rss_kib(env: &Env, input: &Value) -> Option<(u64, Out)> {
    if !std::path::Path::new("/usr/bin/time").exists() {
        eprintln!("GNU time is missing (apt-get install time): RSS not measured");
        return None;
    }
    let rss_file = env.dir.path().join("rss");
    let mut c: assert_cmd::Command = std::process::Command::new("/usr/bin/time").into();
    c.args(["-f", "%M", "-o"])
        .arg(&rss_file)
        .arg(testkit::bin())
        .arg("run")
        .current_dir(&env.root)
        .env("LOOPR_STATE_DIR", &env.state)
        .env("HOME", env.dir.path())
        .write_stdin(input.to_string());
    let out = testkit::finish(c);
    let rss = std::fs::read_to_string(rss_file)
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some((rss, out))
}

#[test]
fn a_200_mb_output_is_capped_logged_to_its_cap_and_memory_stays_bounded() {
    let env = Env::new();
    let input = json!({"command": "echo first line; yes 'a line of output that repeats' | head -c 200000000; echo; echo the very end"});
    let (rss, out) = match peak_rss_kib(&env, &input) {
        Some((rss, out)) => (Some(rss), out),
        None => (None, run(&env, input.clone())),
    };
    out.assert_ok();
    let text = out.output();
    assert!(text.chars().count() <= 30_000, "{}", text.chars().count());
    assert!(text.starts_with("first line\na line of output that repeats\n"));
    assert!(
        text.contains("\nthe very end\n(The log kept the first 64 MiB only.)\n"),
        "{}",
        &text[text.len() - 300..]
    );
    assert!(last_line(&out).starts_with("Exit code: 0 ("));
    let cut = text
        .lines()
        .find(|l| l.starts_with("[… "))
        .expect("a cut line");
    assert!(
        cut.contains("jobs action \"output\"") && cut.contains("offset "),
        "{cut}"
    );
    assert_eq!(out.data()["truncated"], true);
    assert_eq!(out.data()["output_bytes"], 200_000_000u64 + 11 + 1 + 13);
    let log = std::fs::metadata(out.data()["log"].as_str().unwrap())
        .unwrap()
        .len();
    let cap = 64 * 1024 * 1024;
    assert!(
        log > cap && log < cap + 200,
        "the log stops at 64 MiB with a note: {log}"
    );
    if let Some(rss) = rss {
        assert!(rss < 32 * 1024, "peak RSS {rss} KiB");
    }
}

#[test]
fn a_cut_output_is_paged_from_the_offset_it_names() {
    let env = Env::new();
    let out = run(&env, json!({"command": "seq 1 20000"}));
    out.assert_ok();
    let text = out.output().to_string();
    let cut = text.lines().find(|l| l.starts_with("[… ")).unwrap();
    let offset: u64 = cut
        .rsplit("offset ")
        .next()
        .unwrap()
        .trim_end_matches(" …]")
        .parse()
        .unwrap();
    let head_last: u64 = text
        .lines()
        .take_while(|l| !l.starts_with("[… "))
        .last()
        .unwrap()
        .parse()
        .unwrap();
    let id = out.data()["id"].as_str().unwrap();
    let page = env.call(
        "jobs",
        json!({"action": "output", "id": id, "offset": offset}),
    );
    page.assert_ok();
    let first: u64 = page.output().lines().next().unwrap().parse().unwrap();
    assert_eq!(first, head_last + 1, "paging resumes right after the head");
    // Page to the end: every number once, in order.
    let mut seen = head_last;
    let mut offset = offset;
    loop {
        let page = env.call(
            "jobs",
            json!({"action": "output", "id": id, "offset": offset}),
        );
        page.assert_ok();
        for l in page
            .output()
            .lines()
            .take_while(|l| l.parse::<u64>().is_ok())
        {
            seen += 1;
            assert_eq!(l.parse::<u64>().unwrap(), seen);
        }
        if page.data()["truncated"] == false {
            break;
        }
        offset = page.data()["next_offset"].as_u64().unwrap();
    }
    assert_eq!(seen, 20000);
}

#[test]
fn network_none_reaches_no_other_process_and_inherit_does() {
    let env = Env::new();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let probe = format!("exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected");
    let out = run(&env, json!({"command": probe, "network": "none"}));
    if out.code() == "sandbox_unavailable" {
        eprintln!(
            "SKIPPED: this machine cannot make network namespaces: {}",
            out.output()
        );
        return;
    }
    out.assert_err("command_failed");
    assert!(!out.output().contains("connected\n"), "{}", out.output());
    assert!(
        listener.accept().is_err(),
        "the listener saw a connection from network: none"
    );
    // The namespace has one interface, loopback, and it is up (a command's own servers work).
    let out = run(
        &env,
        json!({"command": "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '; cat /sys/class/net/lo/operstate >/dev/null; python3 -c 'import socket; s=socket.socket(); s.bind((\"127.0.0.1\", 0)); s.listen(); print(\"listening\")' 2>/dev/null || echo listening", "network": "none"}),
    );
    out.assert_ok();
    let lines: Vec<&str> = out.output().lines().collect();
    assert_eq!(lines[..2], ["lo", "listening"], "{}", out.output());
    // The control: the same probe with the network.
    let out = run(&env, json!({"command": probe}));
    out.assert_ok();
    assert!(out.output().starts_with("connected\n"));
    std::thread::sleep(Duration::from_millis(50));
    assert!(listener.accept().is_ok());
    // Another agent's name for it.
    let out = env.call(
        "run_command_isolated",
        json!({"command": format!("exec 3<>/dev/tcp/127.0.0.1/{port}")}),
    );
    out.assert_err("command_failed");
}

#[test]
fn other_agents_names_reach_run() {
    let env = Env::new();
    let out = env.call(
        "Bash",
        json!({"command": "echo via bash", "timeout": 5000, "description": "d", "dangerouslyDisableSandbox": true}),
    );
    out.assert_ok();
    assert_eq!(out.json["tool"], "run");
    assert!(out.output().contains("via bash"));
    assert!(
        out.data()["warnings"][0]
            .as_str()
            .unwrap()
            .contains("dangerouslyDisableSandbox")
    );
    for name in ["bash", "run_command", "shell_execute"] {
        env.call(name, json!({"command": "true"})).assert_ok();
    }
    let out = env.run(&["Bash", "echo cli alias"], "");
    out.assert_ok();
    assert!(out.output().starts_with("cli alias\n"));
}

#[test]
fn network_none_that_the_os_refuses_is_sandbox_unavailable_and_nothing_runs() {
    // Inside a user namespace of its own, with no room for more user namespaces and without
    // CAP_SYS_ADMIN, the kernel refuses the user and network namespace `run` makes (SPEC 24.7:
    // sandbox_unavailable with mode network:none, never a run with the network).
    let env = Env::new();
    let state = env.dir.path().join("nsstate");
    let script = format!(
        "echo 0 > /proc/sys/user/max_user_namespaces && for bg in no-background background; do LOOPR_STATE_DIR={state} setpriv --bounding-set=-sys_admin {bin} --root {root} run 'touch ran-$bg' --network none --$bg; echo; done; LOOPR_STATE_DIR={state} {bin} --root {root} jobs",
        state = state.display(),
        bin = testkit::bin().display(),
        root = env.root.display(),
    );
    let o = std::process::Command::new("unshare")
        .args(["-U", "-r", "--fork", "sh", "-c", &script])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<Value> = stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    if lines.len() < 3 {
        eprintln!(
            "SKIPPED: cannot build the refusing namespace here: {stdout} {}",
            String::from_utf8_lossy(&o.stderr)
        );
        return;
    }
    for refused in &lines[..2] {
        assert_eq!(refused["error"]["code"], "sandbox_unavailable", "{refused}");
        assert_eq!(refused["error"]["mode"], "network:none", "{refused}");
        assert!(
            refused["output"]
                .as_str()
                .unwrap()
                .contains("network namespace")
        );
    }
    assert!(
        !env.path("ran-no-background").exists() && !env.path("ran-background").exists(),
        "nothing ran"
    );
    assert_eq!(
        lines[2]["data"]["jobs"],
        json!([]),
        "a refused start leaves no job"
    );
}
