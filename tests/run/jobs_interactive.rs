//! Interactive jobs end to end (SPEC 22.6, 24.7): `run` with `interactive: true` keeps a
//! background job's stdin open, `jobs` action `write` types into it from another `loopr-tool`
//! process and answers with what it printed since; Codex's `exec_command` and `write_stdin` on
//! top of them, with Codex's own answer text. Every call is a process of its own, and every job
//! a test starts is killed (a `Reaper` backs that up when an assertion fails first).

use serde_json::{Value, json};
use std::time::{Duration, Instant};
use testkit::{Env, Out, Reaper};

pub(crate) fn mark(name: &str) -> String {
    format!("loopr-interactive-{name}-{}", std::process::id())
}

/// A call whose processes carry the mark: a job inherits the environment of the `loopr-tool`
/// that started it, so the reaper finds what an `exec_command` started too.
pub(crate) fn call(env: &Env, m: &str, tool: &str, input: Value) -> Out {
    let mut c = env.cmd();
    c.env("LOOPR_TEST_MARK", m)
        .arg(tool)
        .write_stdin(input.to_string());
    testkit::finish(c)
}

fn start(env: &Env, m: &str, command: &str, stdin: Option<&str>) -> String {
    let mut input = json!({"command": command, "background": true, "interactive": true});
    if let Some(s) = stdin {
        input["stdin"] = json!(s);
    }
    let out = call(env, m, "run", input);
    out.assert_ok();
    assert_eq!(out.data()["interactive"], true);
    assert!(
        out.output().contains("action \"write\""),
        "{}",
        out.output()
    );
    out.data()["id"].as_str().unwrap().to_string()
}

pub(crate) fn write(env: &Env, id: &str, chars: &str) -> Out {
    env.call(
        "jobs",
        json!({"action": "write", "id": id, "chars": chars, "timeout_ms": 5000}),
    )
}

/// Ends every job of the session and checks nothing of them is left.
pub(crate) fn end_all(env: &Env, m: &str) {
    env.call("session", json!({"action": "reset"})).assert_ok();
    wait_until("the jobs' processes to end", Duration::from_secs(5), || {
        testkit::marked_alive(m).is_empty()
    });
}

fn wait_until(what: &str, within: Duration, mut f: impl FnMut() -> bool) {
    let stop = Instant::now() + within;
    while !f() {
        assert!(Instant::now() < stop, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn fifo(env: &Env, id: &str) -> std::path::PathBuf {
    env.session_dir("default")
        .join("logs")
        .join(format!("{id}.stdin"))
}

#[test]
fn an_interactive_job_answers_each_write_with_what_it_printed_since() {
    let env = Env::new();
    let m = mark("loop");
    let _reaper = Reaper(m.clone(), vec![]);
    let id = start(
        &env,
        &m,
        "while read x; do echo \"got $x\"; done",
        Some("first\n"),
    );

    // The stdin is a FIFO of the session's state dir, 0600, while the job runs.
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let meta = std::fs::symlink_metadata(fifo(&env, &id)).unwrap();
    assert!(meta.file_type().is_fifo());
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);

    // `stdin` comes first, then what later processes write, each answer only what is new.
    let one = write(&env, &id, "hello\n");
    one.assert_ok();
    // It answers once the job waits for its stdin again (SPEC 28), and says so.
    assert_eq!(
        one.output(),
        format!("got first\ngot hello\nWaiting for input at \"got hello\".\nJob {id} is running")
            + &one.output()[one.output().find(" (").unwrap()..]
    );
    assert_eq!(one.data()["state"], "waiting_input");
    assert_eq!(one.data()["prompt"], "got hello");
    assert_eq!(one.data()["interactive"], true);
    assert_eq!(one.data()["bytes_written"], 6);
    let two = write(&env, &id, "again\nand more\n");
    assert!(
        two.output()
            .starts_with("got again\ngot and more\nWaiting for input at "),
        "{}",
        two.output()
    );
    assert_eq!(two.data()["offset"], one.data()["next_offset"]);

    // An empty write only looks: at a job that waits for its stdin it answers at once.
    let t = Instant::now();
    let poll = env.call(
        "jobs",
        json!({"action": "write", "id": id, "chars": "", "timeout_ms": 5000}),
    );
    poll.assert_ok();
    assert!(t.elapsed() < Duration::from_millis(4000));
    assert!(
        poll.output()
            .starts_with("(no new output)\nWaiting for input"),
        "{}",
        poll.output()
    );

    // The list marks it; jobs output shares the bookmark.
    let list = env.call("jobs", json!({}));
    assert!(list.output().contains("(interactive) while read"));
    assert_eq!(list.data()["jobs"][0]["interactive"], true);

    // Killed: the FIFO goes with it, and a write says the job has ended.
    env.call("jobs", json!({"action": "kill", "id": id}))
        .assert_ok();
    assert!(!testkit::exists(&fifo(&env, &id)));
    let late = write(&env, &id, "anyone?\n");
    late.assert_invalid("id");
    assert!(
        late.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains(&format!("job {id} has ended (killed")),
        "{}",
        late.stdout
    );
    assert_eq!(late.json["error"]["state"], "killed (SIGTERM)");
    end_all(&env, &m);
}

#[test]
fn a_job_that_ends_on_its_input_answers_with_its_last_words_then_refuses_more() {
    let env = Env::new();
    let m = mark("cat");
    let _reaper = Reaper(m.clone(), vec![]);
    // cat echoes at once (it does not buffer its output), whatever came in one write.
    let cat = start(&env, &m, "cat", None);
    let out = write(&env, &cat, "abc\ndef\n");
    assert!(
        out.output()
            .starts_with("abc\ndef\nWaiting for input at \"def\".\nJob "),
        "{}",
        out.output()
    );
    // A script that ends after two lines: the second write answers with its end.
    let id = start(&env, &m, "read a; echo $a; read b; echo $b", None);
    let out = write(&env, &id, "one\n");
    assert!(out.output().starts_with("one\n"), "{}", out.output());
    let out = write(&env, &id, "two\n");
    out.assert_ok();
    assert!(out.output().starts_with("two\n"), "{}", out.output());
    // The answer comes once the output has settled; the end is recorded a moment later at
    // most (on a loaded machine, after the answer).
    let state = if out.data()["state"] == "running" {
        env.call("jobs", json!({"action": "wait", "id": id})).data()["state"].clone()
    } else {
        assert!(
            out.output()
                .contains(&format!("Job {id} exited with code 0")),
            "{}",
            out.output()
        );
        out.data()["state"].clone()
    };
    assert_eq!(state, "exited");
    wait_until("the FIFO to go", Duration::from_secs(5), || {
        !testkit::exists(&fifo(&env, &id))
    });
    // A job that ends on a write without a word says so, not "nothing within the wait".
    let quiet = start(&env, &m, "read a", None);
    let out = write(&env, &quiet, "bye\n");
    out.assert_ok();
    assert!(
        out.output()
            .starts_with(&format!("(no new output)\nJob {quiet} exited with code 0")),
        "{}",
        out.output()
    );
    let after = write(&env, &id, "three\n");
    after.assert_invalid("id");
    assert_eq!(after.json["error"]["state"], "exited 0");
    assert!(after.stdout.contains("has ended (exited 0)"));
    end_all(&env, &m);
}

#[test]
fn only_an_interactive_running_job_takes_a_write() {
    let env = Env::new();
    let m = mark("plain");
    let _reaper = Reaper(m.clone(), vec![]);
    // A plain background job: its stdin is /dev/null.
    let plain = call(
        &env,
        &m,
        "run",
        json!({"command": "sleep 600", "background": true}),
    );
    plain.assert_ok();
    assert!(plain.data().get("interactive").is_none());
    let id = plain.data()["id"].as_str().unwrap();
    let out = write(&env, id, "x\n");
    out.assert_invalid("id");
    assert!(
        out.stdout
            .contains("was not started with interactive: true")
    );
    // A foreground run's record is no different.
    let fg = env.call("run", json!({"command": "true"}));
    let fg_id = fg.data()["id"].as_str().unwrap();
    write(&env, fg_id, "x\n").assert_invalid("id");
    // Unknown ids, and fields that do not belong.
    write(&env, "99", "x\n").assert_err("not_found");
    for (input, field) in [
        (json!({"action": "write", "id": id}), "chars"),
        (json!({"action": "write", "chars": "x"}), "id"),
        (
            json!({"action": "write", "id": id, "chars": "x", "offset": 0}),
            "offset",
        ),
        (
            json!({"action": "write", "id": id, "chars": "x", "block": true}),
            "block",
        ),
        (json!({"action": "output", "id": id, "chars": "x"}), "chars"),
        (json!({"action": "kill", "id": id, "chars": "x"}), "chars"),
    ] {
        env.call("jobs", input.clone()).assert_invalid(field);
    }
    // interactive without background cannot be written to later: refused, nothing runs.
    let fg = env.call("run", json!({"command": "echo no", "interactive": true}));
    fg.assert_invalid("interactive");
    assert!(fg.stdout.contains("background: true"));
    end_all(&env, &m);
}

#[test]
fn a_stdin_that_is_not_the_jobs_fifo_is_never_written_and_a_fifo_that_cannot_be_made_fails_the_run()
{
    let env = Env::new();
    let m = mark("forged");
    let _reaper = Reaper(m.clone(), vec![]);
    // Where the next job's FIFO would go, a directory: the start fails, nothing is recorded.
    let logs = env.session_dir("default").join("logs");
    std::fs::create_dir_all(logs.join("1.stdin/x")).unwrap();
    let out = call(
        &env,
        &m,
        "run",
        json!({"command": "sleep 600", "background": true, "interactive": true}),
    );
    out.assert_err("io_error");
    assert!(out.stdout.contains("stdin FIFO"), "{}", out.stdout);
    assert_eq!(env.call("jobs", json!({})).data()["jobs"], json!([]));
    assert!(testkit::marked_alive(&m).is_empty());
    // A running job whose FIFO was replaced by a plain file: refused, the file untouched.
    let id = start(&env, &m, "sleep 600", None);
    let path = fifo(&env, &id);
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, "").unwrap();
    let out = write(&env, &id, "x\n");
    out.assert_err("io_error");
    assert!(out.stdout.contains("not a FIFO"), "{}", out.stdout);
    assert_eq!(std::fs::read(&path).unwrap(), b"");
    end_all(&env, &m);
}

#[test]
fn a_job_that_does_not_read_times_the_write_out_saying_how_much_went_in() {
    let env = Env::new();
    let m = mark("full");
    let _reaper = Reaper(m.clone(), vec![]);
    let id = start(&env, &m, "sleep 600", None);
    let big = "y".repeat(1 << 20);
    let t = Instant::now();
    let out = env.call(
        "jobs",
        json!({"action": "write", "id": id, "chars": big, "timeout_ms": 300}),
    );
    out.assert_err("timeout");
    assert!(t.elapsed() >= Duration::from_millis(300));
    let n = out.json["error"]["bytes_written"].as_u64().unwrap();
    assert!(n > 0 && n < 1 << 20, "{n}");
    assert!(out.stdout.contains("is not reading its stdin"));
    end_all(&env, &m);
}

#[test]
fn a_long_answer_is_cut_as_runs_output_is_and_the_rest_stays_in_the_log() {
    let env = Env::new();
    let m = mark("cap");
    let _reaper = Reaper(m.clone(), vec![]);
    let id = start(&env, &m, "read x; seq 1 20000; read y", None);
    let out = write(&env, &id, "go\n");
    out.assert_ok();
    assert_eq!(out.data()["truncated"], true);
    assert!(out.output().chars().count() <= 30_000);
    assert!(out.output().starts_with("1\n2\n3\n"));
    assert!(out.output().contains("\n20000\n"), "the tail is kept");
    let cut = out.output().lines().find(|l| l.starts_with("[… ")).unwrap();
    assert!(cut.contains(&format!("id \"{id}\", offset ")), "{cut}");
    // The offset named is where the cut starts in the log: paging there shows the middle.
    let offset: u64 = cut
        .rsplit("offset ")
        .next()
        .unwrap()
        .trim_end_matches(" …]")
        .parse()
        .unwrap();
    let page = env.call(
        "jobs",
        json!({"action": "output", "id": id, "offset": offset}),
    );
    let first_cut = page
        .output()
        .lines()
        .next()
        .unwrap()
        .parse::<u64>()
        .unwrap();
    let last_shown_head = out
        .output()
        .lines()
        .take_while(|l| !l.starts_with("[… "))
        .last()
        .unwrap()
        .parse::<u64>()
        .unwrap();
    assert_eq!(first_cut, last_shown_head + 1);
    end_all(&env, &m);
}

#[test]
fn exec_command_that_ends_at_once_reports_its_exit_as_codex_does() {
    let env = Env::new();
    let m = mark("exec-end");
    let _reaper = Reaper(m.clone(), vec![]);
    let out = call(
        &env,
        &m,
        "exec_command",
        json!({"cmd": "printf 'a\\nb\\n'"}),
    );
    out.assert_ok();
    let text = out.output();
    assert!(text.starts_with("Wall time: "), "{text}");
    assert!(
        text.ends_with("\nProcess exited with code 0\nOutput:\na\nb\n"),
        "{text}"
    );
    assert_eq!(out.data()["exit_code"], 0);
    assert!(out.data().get("session_id").is_none());
    assert!(!text.contains("session ID"));
    // A non-zero exit is an answer, not a failure, as in Codex.
    let out = call(&env, &m, "exec_command", json!({"cmd": "echo no; exit 3"}));
    out.assert_ok();
    assert!(
        out.output()
            .contains("Process exited with code 3\nOutput:\nno\n")
    );
    assert_eq!(out.data()["exit_code"], 3);
    // workdir, shell and login as Codex gives them.
    std::fs::create_dir(env.path("sub")).unwrap();
    let out = call(
        &env,
        &m,
        "exec_command",
        json!({"cmd": "pwd; echo $0", "workdir": "sub", "shell": "/bin/sh"}),
    );
    assert!(out.output().ends_with("sub\n/bin/sh\n"), "{}", out.output());
    let login = "shopt -q login_shell && echo login || echo plain";
    let out = call(
        &env,
        &m,
        "exec_command",
        json!({"cmd": login, "shell": "bash", "login": true}),
    );
    assert!(
        out.output().ends_with("Output:\nlogin\n"),
        "{}",
        out.output()
    );
    let out = call(&env, &m, "exec_command", json!({"cmd": login}));
    assert!(
        out.output().ends_with("Output:\nplain\n"),
        "{}",
        out.output()
    );
    end_all(&env, &m);
}

#[test]
fn exec_command_then_write_stdin_is_one_session_across_processes() {
    let env = Env::new();
    let m = mark("exec-session");
    let _reaper = Reaper(m.clone(), vec![]);
    let t = Instant::now();
    let started = call(
        &env,
        &m,
        "exec_command",
        json!({"cmd": "bash -c 'read x; echo got $x'", "yield_time_ms": 20000}),
    );
    started.assert_ok();
    // It waits its yield time, unless the command waits for input first (SPEC 28).
    assert!(t.elapsed() < Duration::from_secs(15), "{:?}", t.elapsed());
    assert_eq!(started.data()["state"], "waiting_input");
    let sid = started.data()["session_id"].as_u64().unwrap();
    assert_eq!(started.data()["id"], sid.to_string());
    assert!(
        started.output().contains(&format!(
            "\nProcess running with session ID {sid}\nOutput:\n"
        )),
        "{}",
        started.output()
    );
    assert!(started.data().get("exit_code").is_none());

    let answer = env.call(
        "write_stdin",
        json!({"session_id": sid, "chars": "hi\n", "yield_time_ms": 5000}),
    );
    answer.assert_ok();
    assert!(
        answer
            .output()
            .ends_with("\nProcess exited with code 0\nOutput:\ngot hi\n"),
        "{}",
        answer.output()
    );
    assert_eq!(answer.json["tool"], "jobs");
    assert_eq!(answer.data()["exit_code"], 0);
    assert!(answer.data().get("session_id").is_none());

    // The session is over: Codex's "unknown session", here a clear invalid_input.
    let again = env.call("write_stdin", json!({"session_id": sid, "chars": "x\n"}));
    again.assert_invalid("id");
    assert!(again.stdout.contains("has ended (exited 0)"));
    end_all(&env, &m);
}

#[test]
fn write_stdin_polls_with_empty_chars_and_takes_the_id_as_text() {
    let env = Env::new();
    let m = mark("poll");
    let _reaper = Reaper(m.clone(), vec![]);
    let started = call(
        &env,
        &m,
        "exec_command",
        json!({"cmd": "read x; sleep 0.3; echo late $x", "yield_time_ms": 250}),
    );
    let sid = started.data()["session_id"].as_u64().unwrap();
    // Codex's default wait after a write is 250 ms: too short for the answer here.
    let first = env.call(
        "write_stdin",
        json!({"session_id": sid.to_string(), "chars": "x\n"}),
    );
    first.assert_ok();
    assert!(first.output().ends_with("Output:\n"), "{}", first.output());
    // An empty write polls until the end (at least 5 s of waiting are allowed).
    let poll = env.call("write_stdin", json!({"session_id": sid}));
    poll.assert_ok();
    assert!(
        poll.output()
            .ends_with("Process exited with code 0\nOutput:\nlate x\n"),
        "{}",
        poll.output()
    );
    end_all(&env, &m);
}

#[test]
fn codex_fields_we_cannot_honour_warn_and_bad_ones_are_refused() {
    let env = Env::new();
    let m = mark("fields");
    let _reaper = Reaper(m.clone(), vec![]);
    let out = call(
        &env,
        &m,
        "exec_command",
        json!({"cmd": "echo ok", "sandbox_permissions": "require_escalated",
               "justification": "why not", "yield_time_ms": 100000}),
    );
    out.assert_ok();
    let warnings = out.data()["warnings"].to_string();
    for w in [
        "sandbox_permissions",
        "justification",
        "yield_time_ms 100000",
    ] {
        assert!(warnings.contains(w), "{w}: {warnings}");
    }
    // max_output_tokens caps the output at about 4 characters a token.
    let out = call(
        &env,
        &m,
        "exec_command",
        json!({"cmd": "seq 1 5000", "max_output_tokens": 100}),
    );
    out.assert_ok();
    assert_eq!(out.data()["truncated"], true);
    let shown = out.output().split("Output:\n").nth(1).unwrap();
    assert!(shown.chars().count() <= 400 + 200, "{}", shown.len());
    assert!(out.output().contains("Original token count: "));
    assert!(out.output().contains("max_output_tokens 100"));
    assert!(
        shown.starts_with("1\n2\n") && shown.ends_with("5000\n"),
        "{shown}"
    );

    for (tool, input, field) in [
        (
            "exec_command",
            json!({"cmd": "true", "shell": "/no/such/sh"}),
            "shell",
        ),
        (
            "exec_command",
            json!({"cmd": "true", "shell": "nosuchshell-xyz"}),
            "shell",
        ),
        ("exec_command", json!({"command": "true"}), "command"),
        ("exec_command", json!({}), "cmd"),
        (
            "write_stdin",
            json!({"session_id": "abc", "chars": "x"}),
            "session_id",
        ),
        (
            "write_stdin",
            json!({"session_id": -1, "chars": "x"}),
            "session_id",
        ),
        ("write_stdin", json!({"chars": "x"}), "session_id"),
    ] {
        let out = env.call(tool, input.clone());
        out.assert_invalid(field);
    }
    env.call("write_stdin", json!({"session_id": 99, "chars": "x"}))
        .assert_err("not_found");
    end_all(&env, &m);
}

#[test]
fn a_catalog_offers_exec_command_and_write_stdin_as_codex_defines_them() {
    let env = Env::new();
    let file = env.dir.path().join("catalog.toml");
    std::fs::write(&file, "[tools.exec_command]\n[tools.write_stdin]\n").unwrap();
    let mut c = env.cmd();
    c.arg("--config").arg(&file).arg("schema");
    let out = testkit::finish(c);
    let defs = out.json.as_array().unwrap();
    let names: Vec<&str> = defs.iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["exec_command", "write_stdin"]);
    let exec = &defs[0];
    assert_eq!(exec["input_schema"]["required"], json!(["cmd"]));
    for field in [
        "cmd",
        "workdir",
        "yield_time_ms",
        "max_output_tokens",
        "shell",
        "login",
    ] {
        assert!(
            exec["input_schema"]["properties"].get(field).is_some(),
            "{field}"
        );
    }
    // Its own description, not run's (whose fields it does not have).
    let text = exec["description"].as_str().unwrap();
    assert!(
        text.contains("session ID") && !text.contains("`background: true`"),
        "{text}"
    );
    let write = &defs[1];
    assert_eq!(write["input_schema"]["required"], json!(["session_id"]));
    assert_eq!(
        write["input_schema"]["properties"]["session_id"]["type"],
        "number"
    );
    assert!(
        write["description"]
            .as_str()
            .unwrap()
            .contains("exec_command session")
    );
}

#[test]
fn a_catalog_time_limit_is_the_sessions_life_and_a_ceiling_on_a_writes_wait() {
    let env = Env::new();
    let m = mark("limit");
    let _reaper = Reaper(m.clone(), vec![]);
    let file = env.dir.path().join("catalog.toml");
    std::fs::write(
        &file,
        "[tools.exec_command]\ntimeout_ms = 800\n[tools.write_stdin]\ntimeout_ms = 300\n",
    )
    .unwrap();
    let with = |tool: &str, input: Value| {
        let mut c = env.cmd();
        c.env("LOOPR_TEST_MARK", &m)
            .arg("--config")
            .arg(&file)
            .arg(tool)
            .write_stdin(input.to_string());
        testkit::finish(c)
    };
    let out = with(
        "exec_command",
        json!({"cmd": "read x; echo $x; sleep 600", "yield_time_ms": 200}),
    );
    out.assert_ok();
    let sid = out.data()["session_id"].as_u64().unwrap();
    let t = Instant::now();
    let out = with(
        "write_stdin",
        json!({"session_id": sid, "chars": "hi\n", "yield_time_ms": 20000}),
    );
    out.assert_ok();
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "the catalog's 300 ms bound the wait"
    );
    assert!(out.output().ends_with("Output:\nhi\n"), "{}", out.output());
    // At 800 ms the job is ended as a run at its timeout is.
    let done = env.call("jobs", json!({"action": "wait", "id": sid.to_string()}));
    assert_eq!(done.data()["state"], "timed out");
    end_all(&env, &m);
}
