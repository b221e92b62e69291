//! Terminals (SPEC 28): `tty: true` jobs on a pty held by their supervisor; `waiting_input` and
//! `input_required` read from the kernel; secrets typed at an echo-off prompt kept nowhere; `jobs
//! wait` `until`, `jobs screen`, the guard on lines typed into a shell, the sandbox and `network:
//! none` around the terminal's program; the scripted set of interactive programs SPEC 28 names.
//! Every call is a process of its own; every job a test starts is ended (a `Reaper` backs that
//! up when an assertion fails first).

use super::jobs_interactive::{call, end_all, mark, write};
use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};
use testkit::{Env, Out, Reaper};

/// A test's scratch env, its mark, and the reaper that ends what it started.
fn scene(name: &str) -> (Env, String, Reaper) {
    let m = mark(&format!("tty-{name}"));
    (Env::new(), m.clone(), Reaper(m, vec![]))
}

/// Starts `command` on a terminal (`extra` adds fields) and returns its id.
fn start(env: &Env, m: &str, command: &str, extra: Value) -> String {
    let mut input =
        json!({"command": command, "background": true, "interactive": true, "tty": true});
    for (k, v) in extra.as_object().unwrap() {
        input[k] = v.clone();
    }
    let out = call(env, m, "run", input);
    out.assert_ok();
    out.data()["id"].as_str().unwrap().to_string()
}

fn wait(env: &Env, id: &str, ms: u64) -> Out {
    let out = env.call(
        "jobs",
        json!({"action": "wait", "id": id, "timeout_ms": ms}),
    );
    out.assert_ok();
    out
}

/// Types `chars` (the last keys a program needs) and answers with the job's end.
fn to_end(env: &Env, id: &str, chars: &str) -> Out {
    let out = write(env, id, chars);
    let out = if state(&out) == "running" {
        wait(env, id, 10_000)
    } else {
        out
    };
    assert_eq!(state(&out), "exited", "{}", out.output());
    out
}

fn state(out: &Out) -> &str {
    out.data()["state"].as_str().unwrap_or_default()
}

/// Whether `cmd` is missing (the test then skips, saying which package `.ci/run` installs).
fn missing(cmd: &str, package: &str) -> bool {
    if has(cmd) {
        return false;
    }
    eprintln!("skipped: {cmd} is not installed (.ci/run installs {package})");
    true
}

fn has(cmd: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {cmd}")])
        .stdout(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_python_repl_waits_on_its_terminal_and_answers_each_line() {
    let (env, m, _reaper) = scene("python");
    let id = start(&env, &m, "python3 -q", json!({"rows": 30, "cols": 100}));
    // `wait` returns at once on waiting_input, the prompt read from the screen.
    let t = Instant::now();
    let out = wait(&env, &id, 20_000);
    assert!(t.elapsed() < Duration::from_secs(10));
    assert_eq!(state(&out), "waiting_input", "{}", out.output());
    assert_eq!(out.data()["prompt"], ">>>");
    assert_eq!(out.data()["reader"], "python3");
    assert_eq!(out.data()["tty"], true);
    let list = env.call("jobs", json!({}));
    assert_eq!(list.data()["jobs"][0]["state"], "waiting_input");
    assert!(list.output().contains("waiting_input"), "{}", list.output());
    let out = write(&env, &id, "print(6*7)\n");
    out.assert_ok();
    assert!(out.output().contains("42\n"), "{}", out.output());
    assert_eq!(state(&out), "waiting_input");
    // A terminal: TERM, isatty, and the size asked for.
    let out = write(
        &env,
        &id,
        "import os,sys; print(os.environ['TERM'], sys.stdin.isatty(), os.get_terminal_size())\n",
    );
    assert!(
        out.output()
            .contains("xterm-256color True os.terminal_size(columns=100, lines=30)"),
        "{}",
        out.output()
    );
    // Ctrl-D ends the REPL; the log, the exit and the last screen are kept.
    let out = to_end(&env, &id, "\u{4}");
    assert_eq!(out.data()["exit_code"], 0);
    let screen = env.call("jobs", json!({"action": "screen", "id": id}));
    screen.assert_ok();
    let text = screen.data()["screen"].as_str().unwrap();
    assert!(text.starts_with(">>> print(6*7)\n42\n"), "{text}");
    assert_eq!(screen.data()["rows"], 30);
    let log = env.call("jobs", json!({"action": "output", "id": id}));
    assert!(log.output().contains("42\n"), "{}", log.output());
    end_all(&env, &m);
}

#[test]
fn bash_on_a_terminal_runs_typed_lines_and_the_guard_blocks_a_destructive_one() {
    let (env, m, _reaper) = scene("bash");
    // Harmless if the guard were broken: `rm` is a stub first on PATH that only leaves a mark,
    // and HOME is a scratch directory.
    let bin = env.path("stub-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let stub = bin.join("rm");
    std::fs::write(&stub, "#!/bin/sh\ntouch \"$(dirname \"$0\")/rm-ran\"\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let home = env.path("home");
    std::fs::create_dir_all(&home).unwrap();
    let id = start(
        &env,
        &m,
        "bash --norc --noprofile",
        json!({"env": {"PATH": path, "HOME": home, "PS1": "$ "}}),
    );
    let out = wait(&env, &id, 20_000);
    assert_eq!(state(&out), "waiting_input", "{}", out.output());
    assert_eq!(out.data()["reader"], "bash");
    // bash's own default prompt when PS1 is not taken from the environment.
    let prompt = out.data()["prompt"].as_str().unwrap();
    assert!(prompt.ends_with('$') || prompt.ends_with('#'), "{prompt}");
    let out = write(&env, &id, "echo $((6*7)) $TERM\n");
    assert!(
        out.output().contains("42 xterm-256color\n"),
        "{}",
        out.output()
    );
    // A parent waiting in wait4 for a child reading the terminal counts as waiting.
    let out = write(&env, &id, "cat\n");
    assert_eq!(state(&out), "waiting_input", "{}", out.output());
    assert_eq!(out.data()["reader"], "cat");
    write(&env, &id, "\u{3}").assert_ok();
    for line in ["rm -rf /", "echo ok; rm -rf ~"] {
        let out = write(&env, &id, &format!("{line}\n"));
        out.assert_err("blocked_command");
        assert_eq!(out.json["error"]["rule"], "rm_root");
    }
    assert!(
        !bin.join("rm-ran").exists(),
        "a blocked line reached the shell"
    );
    // A harmless rm still goes through (the stub runs).
    write(&env, &id, "rm -f nothing\n").assert_ok();
    assert!(bin.join("rm-ran").exists());
    end_all(&env, &m);
}

/// Every file under `dir` (recursively), whatever its kind of content.
fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        let t = e.file_type().unwrap();
        if t.is_dir() {
            out.extend(files(&p));
        } else if t.is_file() {
            out.push(p);
        }
    }
    out
}

/// No file under `dir` holds `secret`.
fn assert_nowhere(dir: &Path, secret: &str) {
    for f in files(dir) {
        let bytes = std::fs::read(&f).unwrap();
        let found = bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
        assert!(!found, "the secret is in {}", f.display());
    }
}

#[test]
fn a_read_s_password_is_input_required_and_the_secret_is_kept_nowhere() {
    let (env, m, _reaper) = scene("secret");
    let secret = "hunter2-xyzzy-SECRET";
    let id = start(
        &env,
        &m,
        "read -s -p 'Password: ' pw; echo; echo \"got ${#pw} chars\"; read -p 'Overwrite? [y/N] ' a; echo \"answer $a\"",
        json!({}),
    );
    let out = wait(&env, &id, 20_000);
    assert_eq!(state(&out), "input_required", "{}", out.output());
    assert_eq!(out.data()["secret"], true);
    assert_eq!(out.data()["prompt"], "Password:");
    let typed = write(&env, &id, &format!("{secret}\n"));
    typed.assert_ok();
    assert!(
        typed.output().contains("got 20 chars"),
        "{}",
        typed.output()
    );
    assert_eq!(typed.data()["typed_secret"], true);
    // The y/N question that follows.
    assert_eq!(state(&typed), "input_required");
    assert_eq!(typed.data()["choices"], json!(["y", "n"]));
    assert!(typed.data().get("secret").is_none());
    let last = to_end(&env, &id, "y\n");
    assert!(last.output().contains("answer y"), "{}", last.output());
    // Nothing typed at the echo-off prompt reached any answer or any file of the state dir.
    for out in [&out, &typed, &last] {
        assert!(!out.json.to_string().contains(secret));
    }
    let all = files(&env.state);
    assert!(
        all.iter()
            .any(|f| f.extension().is_some_and(|e| e == "log"))
    );
    assert_nowhere(&env.state, secret);
    end_all(&env, &m);
}

#[test]
fn a_password_prompt_that_echoes_gets_no_echo_of_the_secret() {
    let (env, m, _reaper) = scene("echoed");
    let secret = "s3cr3t-ECHOED-pw";
    // No -s: the terminal echoes; the prompt's text alone makes it secret.
    let id = start(
        &env,
        &m,
        "read -p 'Password: ' pw; echo \"len ${#pw}\"",
        json!({}),
    );
    let out = wait(&env, &id, 20_000);
    assert_eq!(out.data()["secret"], true, "{}", out.output());
    let done = to_end(&env, &id, &format!("{secret}\n"));
    assert!(done.output().contains("len 16"), "{}", done.output());
    assert!(!done.json.to_string().contains(secret));
    let screen = env.call("jobs", json!({"action": "screen", "id": id}));
    let text = screen.data()["screen"].as_str().unwrap();
    // The terminal's echo was off while the secret went in: not even masked, absent.
    assert!(text.contains("Password: len 16"), "{text}");
    assert_nowhere(&env.state, secret);
    end_all(&env, &m);
}

#[test]
fn ssh_keygen_asks_for_its_passphrase_as_a_secret() {
    if missing("ssh-keygen", "openssh-client") {
        return;
    }
    let (env, m, _reaper) = scene("sshkeygen");
    let id = start(
        &env,
        &m,
        "ssh-keygen -q -t ed25519 -f key -C test",
        json!({}),
    );
    let out = wait(&env, &id, 20_000);
    assert_eq!(state(&out), "input_required", "{}", out.output());
    assert_eq!(out.data()["secret"], true);
    assert!(
        out.data()["prompt"]
            .as_str()
            .unwrap()
            .contains("passphrase")
    );
    let again = write(&env, &id, "correct horse\n");
    assert_eq!(state(&again), "input_required", "{}", again.output());
    assert!(again.data()["prompt"].as_str().unwrap().contains("again"));
    let done = to_end(&env, &id, "correct horse\n");
    assert_eq!(done.data()["exit_code"], 0);
    assert!(env.path("key").exists() && env.path("key.pub").exists());
    end_all(&env, &m);
}

#[test]
fn git_asks_for_a_username_then_a_password_on_the_terminal() {
    if missing("git", "git") {
        return;
    }
    let (env, m, _reaper) = scene("git");
    let home = env.path("home");
    std::fs::create_dir_all(&home).unwrap();
    // No helper, no config: git asks on the terminal (GIT_TERMINAL_PROMPT=1 undoes run's 0).
    let id = start(
        &env,
        &m,
        "printf 'protocol=https\\nhost=git.example.com\\n\\n' | git credential fill",
        json!({"env": {"HOME": home, "GIT_TERMINAL_PROMPT": "1", "GIT_CONFIG_NOSYSTEM": "1",
                        "GIT_ASKPASS": "", "SSH_ASKPASS": ""}}),
    );
    let out = wait(&env, &id, 20_000);
    assert_eq!(state(&out), "waiting_input", "{}", out.output());
    assert_eq!(
        out.data()["prompt"],
        "Username for 'https://git.example.com':"
    );
    let pw = write(&env, &id, "bob\n");
    assert_eq!(state(&pw), "input_required", "{}", pw.output());
    assert_eq!(pw.data()["secret"], true);
    assert!(
        pw.data()["prompt"]
            .as_str()
            .unwrap()
            .starts_with("Password for 'https://bob@git.example.com'")
    );
    let done = to_end(&env, &id, "pw\n");
    assert!(done.output().contains("username=bob"), "{}", done.output());
    end_all(&env, &m);
}

#[test]
fn less_waits_for_a_key_and_its_screen_is_the_page() {
    if missing("less", "it") {
        return;
    }
    let (env, m, _reaper) = scene("less");
    let lines: String = (1..=200).map(|i| format!("line {i}\n")).collect();
    env.write_file("f.txt", lines);
    let id = start(&env, &m, "less f.txt", json!({"rows": 10}));
    let out = wait(&env, &id, 20_000);
    assert_eq!(state(&out), "waiting_input", "{}", out.output());
    assert_eq!(out.data()["reader"], "less");
    let screen = env.call("jobs", json!({"action": "screen", "id": id}));
    let text = screen.data()["screen"].as_str().unwrap().to_string();
    assert!(text.starts_with("line 1\nline 2\n"), "{text}");
    assert!(
        text.contains("line 9") && !text.contains("line 11"),
        "{text}"
    );
    // A space pages on; q quits.
    write(&env, &id, " ").assert_ok();
    let screen = env.call("jobs", json!({"action": "screen", "id": id}));
    let text = screen.data()["screen"].as_str().unwrap().to_string();
    assert!(
        text.contains("line 15") && !text.contains("line 2\n"),
        "{text}"
    );
    to_end(&env, &id, "q");
    end_all(&env, &m);
}

#[test]
fn top_on_a_terminal_waits_for_a_key_and_top_b_stays_running() {
    if missing("top", "procps") {
        return;
    }
    let (env, m, _reaper) = scene("top");
    let home = env.path("home");
    std::fs::create_dir_all(&home).unwrap();
    let vars = json!({"env": {"HOME": home}});
    let batch = start(&env, &m, "top -b -d 0.2", vars.clone());
    let out = wait(&env, &batch, 1500);
    assert_eq!(state(&out), "running", "{}", out.output());
    let id = start(&env, &m, "top -d 5", vars);
    let out = wait(&env, &id, 20_000);
    assert_eq!(state(&out), "waiting_input", "{}", out.output());
    let screen = env.call("jobs", json!({"action": "screen", "id": id}));
    let text = screen.data()["screen"].as_str().unwrap();
    assert!(text.contains("PID") && text.contains("COMMAND"), "{text}");
    to_end(&env, &id, "q");
    end_all(&env, &m);
}

#[test]
fn a_busy_command_is_never_waiting_and_a_sleep_is_running() {
    let (env, m, _reaper) = scene("busy");
    // Long output, as pytest's; and a program that sleeps before it reads.
    let busy = start(
        &env,
        &m,
        "i=0; while :; do i=$((i+1)); echo \"test_$i PASSED\"; done",
        json!({}),
    );
    let slow = start(&env, &m, "sleep 30; read x", json!({}));
    for _ in 0..25 {
        let list = env.call("jobs", json!({}));
        for j in list.data()["jobs"].as_array().unwrap() {
            assert_eq!(j["state"], "running", "{j}");
        }
    }
    assert_eq!(state(&wait(&env, &busy, 300)), "running");
    assert_eq!(state(&wait(&env, &slow, 300)), "running");
    end_all(&env, &m);
}

#[test]
fn wait_until_returns_on_a_match_and_says_when_it_did_not() {
    let (env, m, _reaper) = scene("until");
    let out = call(
        &env,
        &m,
        "run",
        json!({"command": "echo starting; sleep 0.3; echo 'READY port=8080'; sleep 30",
               "background": true}),
    );
    let id = out.data()["id"].as_str().unwrap().to_string();
    let t = Instant::now();
    let out = env.call(
        "jobs",
        json!({"action": "wait", "id": id, "until": "READY port=\\d+", "timeout_ms": 20000}),
    );
    out.assert_ok();
    assert!(t.elapsed() < Duration::from_secs(10));
    assert_eq!(out.data()["matched"], true);
    assert_eq!(out.data()["match"], "READY port=8080");
    let out = env.call(
        "jobs",
        json!({"action": "wait", "id": id, "until": "NEVER", "timeout_ms": 300}),
    );
    out.assert_ok();
    assert_eq!(out.data()["matched"], false);
    assert_eq!(state(&out), "running");
    env.call(
        "jobs",
        json!({"action": "wait", "id": id, "until": "(", "timeout_ms": 300}),
    )
    .assert_err("invalid_regex");
    env.call("jobs", json!({"action": "output", "id": id, "until": "x"}))
        .assert_invalid("until");
    end_all(&env, &m);
}

#[test]
fn tty_needs_a_background_interactive_run_and_a_sane_size() {
    let env = Env::new();
    for (input, field) in [
        (json!({"command": "true", "tty": true}), "tty"),
        (
            json!({"command": "true", "tty": true, "background": true}),
            "tty",
        ),
        (
            json!({"command": "true", "rows": 30, "background": true, "interactive": true}),
            "rows",
        ),
        (
            json!({"command": "true", "tty": true, "background": true, "interactive": true, "cols": 5}),
            "cols",
        ),
    ] {
        env.call("run", input).assert_invalid(field);
    }
    // A job without a screen says so.
    let out = env.call("run", json!({"command": "true"}));
    let id = out.data()["id"].as_str().unwrap().to_string();
    env.call("jobs", json!({"action": "screen", "id": id}))
        .assert_invalid("id");
}

#[test]
fn the_sandbox_and_network_none_wrap_the_terminals_program() {
    let (env, m, _reaper) = scene("confined");
    let id = start(
        &env,
        &m,
        "cat /proc/net/dev; touch made-here; read x",
        json!({"network": "none", "sandbox": "read-only"}),
    );
    let out = wait(&env, &id, 20_000);
    assert_eq!(state(&out), "waiting_input", "{}", out.output());
    let log = env.call("jobs", json!({"action": "output", "id": id}));
    // /proc/net/dev's interface lines: `name: counters…`.
    let ifaces: Vec<&str> = log
        .output()
        .lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(_, rest)| rest.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|(name, _)| name.trim())
        .collect();
    assert_eq!(ifaces, ["lo"], "{}", log.output());
    assert!(!env.path("made-here").exists());
    end_all(&env, &m);
}

#[test]
fn exec_command_with_tty_returns_at_a_prompt_and_write_stdin_answers() {
    let (env, m, _reaper) = scene("exec");
    let t = Instant::now();
    let out = call(
        &env,
        &m,
        "exec_command",
        json!({"cmd": "python3 -q", "tty": true, "yield_time_ms": 20000}),
    );
    out.assert_ok();
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert_eq!(state(&out), "waiting_input", "{}", out.output());
    assert!(out.output().contains("Process running with session ID"));
    let sid = out.data()["session_id"].clone();
    let out = env.call(
        "write_stdin",
        json!({"session_id": sid, "chars": "import getpass; getpass.getpass('Token password: ')\n", "yield_time_ms": 20000}),
    );
    assert_eq!(state(&out), "input_required", "{}", out.output());
    assert_eq!(out.data()["secret"], true);
    let out = env.call(
        "write_stdin",
        json!({"session_id": sid, "chars": "abc\n", "yield_time_ms": 20000}),
    );
    // The REPL prints the value getpass returned: on a terminal, a secret typed is masked
    // wherever it comes back.
    assert!(out.output().contains("'***'"), "{}", out.output());
    end_all(&env, &m);
}

#[test]
fn a_tty_job_whose_supervisor_and_keeper_were_killed_is_found_by_its_shells_session() {
    let (env, m, _reaper) = scene("orphans");
    // Immune to the hangup their terminal gets when its supervisor dies.
    let id = start(
        &env,
        &m,
        "nohup sleep 600 >/dev/null 2>&1 & nohup sleep 601 >/dev/null 2>&1 & wait",
        json!({}),
    );
    let sleeps = || {
        testkit::marked_alive(&m)
            .into_iter()
            .filter(|p| {
                std::fs::read_to_string(format!("/proc/{p}/comm")).is_ok_and(|c| c == "sleep\n")
            })
            .count()
    };
    let stop = Instant::now() + Duration::from_secs(10);
    while sleeps() < 2 {
        assert!(Instant::now() < stop, "the job's sleeps did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    let file = env.session_dir("default").join("jobs.json");
    let all: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    let rec = all["jobs"].as_array().unwrap()[0].clone();
    assert!(rec["terminal"]["pid"].is_u64(), "{rec}");
    for who in ["keeper", "owner"] {
        let pid = rec[who]["pid"].as_u64().unwrap().to_string();
        std::process::Command::new("kill")
            .args(["-KILL", &pid])
            .status()
            .unwrap();
    }
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(sleeps(), 2, "the sleeps outlived both");
    env.call("jobs", json!({"action": "kill", "id": id}))
        .assert_ok();
    let stop = Instant::now() + Duration::from_secs(5);
    while sleeps() > 0 {
        assert!(
            Instant::now() < stop,
            "jobs kill left the terminal's session running"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
