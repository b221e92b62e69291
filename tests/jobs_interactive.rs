//! Interactive jobs end to end (SPEC 22.6, 24.7): `run` with `interactive: true` keeps a
//! background job's stdin open, `jobs` action `write` types into it from another `loopr-tool`
//! process and answers with what it printed since. Every call is a process of its own, and
//! every job a test starts is killed (a `Reaper` backs that up when an assertion fails first).

mod common;

use common::{Env, Out, Reaper};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn mark(name: &str) -> String {
    format!("loopr-interactive-{name}-{}", std::process::id())
}

/// A call whose processes carry the mark: a job inherits the environment of the `loopr-tool`
/// that started it, so the reaper finds what an `exec_command` started too.
fn call(env: &Env, m: &str, tool: &str, input: Value) -> Out {
    let mut c = env.cmd();
    c.env("LOOPR_TEST_MARK", m)
        .arg(tool)
        .write_stdin(input.to_string());
    common::finish(c)
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

fn write(env: &Env, id: &str, chars: &str) -> Out {
    env.call(
        "jobs",
        json!({"action": "write", "id": id, "chars": chars, "timeout_ms": 5000}),
    )
}

/// Ends every job of the session and checks nothing of them is left.
fn end_all(env: &Env, m: &str) {
    env.call("session", json!({"action": "reset"})).assert_ok();
    wait_until("the jobs' processes to end", Duration::from_secs(5), || {
        common::marked_alive(m).is_empty()
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
    assert_eq!(
        one.output(),
        format!("got first\ngot hello\nJob {id} is running")
            + &one.output()[one.output().find(" (").unwrap()..]
    );
    assert_eq!(one.data()["state"], "running");
    assert_eq!(one.data()["interactive"], true);
    assert_eq!(one.data()["bytes_written"], 6);
    let two = write(&env, &id, "again\nand more\n");
    assert!(
        two.output().starts_with("got again\ngot and more\nJob "),
        "{}",
        two.output()
    );
    assert_eq!(two.data()["offset"], one.data()["next_offset"]);

    // An empty write only looks: nothing new within the wait, said so.
    let t = Instant::now();
    let poll = env.call(
        "jobs",
        json!({"action": "write", "id": id, "chars": "", "timeout_ms": 300}),
    );
    poll.assert_ok();
    assert!(t.elapsed() >= Duration::from_millis(300));
    assert!(
        poll.output().starts_with("(no new output within 0.3 s)\n"),
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
    assert!(!common::exists(&fifo(&env, &id)));
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
        out.output().starts_with("abc\ndef\nJob "),
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
        !common::exists(&fifo(&env, &id))
    });
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
    assert!(common::marked_alive(&m).is_empty());
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

