//! Where loops meet (SPEC 25.1, 25.3, 25.4): the worktrees of one repository share a hub, a
//! named hub joins roots outside git, the harness's own calls, `inbox wait`, `validate` of
//! another loop's phase in the caller's root, and questions for the person (`ask_user`).

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};
use testkit::{Env, Out, finish};

// On a file hub and on a Redis hub alike (SPEC 25.2).
on_both_hubs!(
    inbox_wait_wakes_on_a_share_from_another_process_and_times_out_empty,
    validate_runs_another_loops_phase_in_the_callers_root,
    ask_user_waits_for_the_harness_and_its_options_are_checked,
    a_share_reaches_at_most_100_sessions,
);

/// The binary at `root` in `session`, with more arguments and JSON on stdin.
fn at(env: &Env, root: &Path, session: &str, args: &[&str], input: Value) -> Out {
    let mut c = env.cmd();
    c.arg("--root")
        .arg(root)
        .args(["--session", session])
        .args(args)
        .write_stdin(input.to_string());
    finish(c)
}

fn git(dir: &Path, args: &[&str]) {
    let ok = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success());
    assert_eq!(ok.ok(), Some(true), "git {args:?} in {}", dir.display());
}

/// A repository at the env's root with one commit, and a linked worktree beside it.
fn repo_with_worktree(env: &Env) -> Option<PathBuf> {
    if std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: git is not installed, and these tests use a real worktree");
        return None;
    }
    git(&env.root, &["init", "-q"]);
    env.write_file("README", "hello\n");
    git(&env.root, &["add", "README"]);
    git(&env.root, &["commit", "-q", "-m", "first"]);
    let wt = env.dir.path().join("wt-code");
    git(&env.root, &["worktree", "add", "-q", wt.to_str().unwrap()]);
    Some(std::fs::canonicalize(wt).unwrap())
}

#[test]
fn the_worktrees_of_one_repository_meet_in_one_hub() {
    let env = Env::new();
    let Some(wt) = repo_with_worktree(&env) else {
        return;
    };
    let main = env.root.clone();
    let phase = json!({"name": "impl", "title": "Lexer", "objective": "Tokens.",
        "tasks": [{"description": "d"}], "validation_command": "true"});
    at(&env, &main, "phase-1", &["create_phase"], phase).assert_ok();
    let share = at(
        &env,
        &main,
        "phase-1",
        &["share"],
        json!({"to": ["code"], "data_type": "go", "data": "start"}),
    );
    share.assert_ok();
    // The code loop has never called: the share says it made the inbox (a typo shows).
    assert!(
        share
            .output()
            .contains("created an inbox for code, which has not started"),
        "{}",
        share.output()
    );
    // From the worktree: the phase's artifact and the message are there.
    let got = at(
        &env,
        &wt,
        "code",
        &["artifact"],
        json!({"kind": "phase", "session": "phase-1", "name": "impl"}),
    );
    got.assert_ok();
    assert!(got.output().contains("Lexer"), "{}", got.output());
    let inbox = at(&env, &wt, "code", &["inbox"], json!({}));
    assert_eq!(
        inbox.data()["messages"][0]["data"],
        "start",
        "{}",
        inbox.stdout
    );
    // Reads stay with the root: a read in the worktree is not the main checkout's.
    at(&env, &wt, "code", &["read"], json!({"path": "README"})).assert_ok();
    let show = at(&env, &main, "code", &["session"], json!({}));
    assert_eq!(show.data()["reads_total"], 0, "{}", show.stdout);
    // session show names the hub and where each loop lives.
    let hub = &show.data()["hub"];
    assert_eq!(hub["kind"], "repository");
    let common = std::fs::canonicalize(main.join(".git")).unwrap();
    assert_eq!(hub["id"], common.to_str().unwrap());
    let sessions = hub["sessions"].as_array().unwrap();
    let root_of = |s: &str| {
        sessions
            .iter()
            .find(|k| k["session"] == s)
            .map(|k| k["root"].clone())
    };
    assert_eq!(root_of("code"), Some(json!(wt.to_str().unwrap())));
    assert_eq!(root_of("phase-1"), Some(json!(main.to_str().unwrap())));
}

#[test]
fn roots_outside_git_meet_only_in_a_named_hub() {
    let env = Env::new();
    let a = env.root.clone();
    let b = env.dir.path().join("other");
    std::fs::create_dir_all(&b).unwrap();
    let send = |args: &[&str]| {
        let mut all = args.to_vec();
        all.push("share");
        at(
            &env,
            &a,
            "s1",
            &all,
            json!({"to": ["s2"], "data_type": "n", "data": 1}),
        )
        .assert_ok();
    };
    let count = |args: &[&str]| {
        let mut all = args.to_vec();
        all.push("inbox");
        let out = at(&env, &b, "s2", &all, json!({}));
        out.assert_ok();
        out.data()["messages"].as_array().unwrap().len()
    };
    // Each root is its own hub.
    send(&[]);
    assert_eq!(count(&[]), 0);
    // --hub, LOOPR_HUB and the catalog's [loops] hub name one, in that order of precedence.
    send(&["--hub", "team"]);
    assert_eq!(count(&["--hub", "team"]), 1);
    let catalog = env.dir.path().join("catalog.toml");
    std::fs::write(&catalog, "[loops]\nhub = \"team\"\n").unwrap();
    send(&["--config", catalog.to_str().unwrap()]);
    let mut c = env.cmd();
    c.env("LOOPR_HUB", "team")
        .args(["--config", catalog.to_str().unwrap(), "--hub", "elsewhere"])
        .args(["--root", b.to_str().unwrap(), "--session", "s2", "inbox"])
        .write_stdin("{}");
    let out = finish(c);
    assert_eq!(
        out.data()["messages"].as_array().unwrap().len(),
        0,
        "--hub wins"
    );
    let mut c = env.cmd();
    c.env("LOOPR_HUB", "team")
        .args(["--config", catalog.to_str().unwrap()])
        .args(["--root", b.to_str().unwrap(), "--session", "s2", "session"])
        .write_stdin("{}");
    let out = finish(c);
    assert_eq!(out.data()["hub"]["kind"], "name");
    assert_eq!(out.data()["hub"]["id"], "team");
}

#[test]
fn a_hub_that_is_not_a_name_or_a_url_is_refused_and_a_password_never_shows() {
    let env = Env::new();
    for bad in ["a/b", "..", "redis://user:s3cret@/x", "redis://h/db"] {
        let out = at(&env, &env.root, "s", &["--hub", bad, "inbox"], json!({}));
        out.assert_err("invalid_input");
        assert!(!out.stdout.contains("s3cret"), "{}", out.stdout);
        assert!(out.stdout.contains("hub"), "{}", out.stdout);
    }
    let catalog = env.dir.path().join("catalog.toml");
    std::fs::write(&catalog, "[loops]\nhub = \"no/slash\"\n").unwrap();
    let out = at(
        &env,
        &env.root,
        "s",
        &["catalog", "--check", catalog.to_str().unwrap()],
        json!({}),
    );
    assert!(out.stdout.contains("[loops] hub"), "{}", out.stdout);
}

#[test]
fn the_harness_calls_what_the_profile_does_not_offer_and_the_path_rules_still_hold() {
    let env = Env::new();
    env.write_file("secrets/key", "k\n");
    let catalog = env.dir.path().join("catalog.toml");
    std::fs::write(
        &catalog,
        "[tools.read]\n[tools.inbox]\n[profiles.code]\ntools = [\"read\"]\n[paths]\ndeny = [\"secrets/**\"]\n",
    )
    .unwrap();
    let cfg = catalog.to_str().unwrap();
    let model = at(
        &env,
        &env.root,
        "code",
        &["--config", cfg, "--profile", "code", "inbox"],
        json!({}),
    );
    model.assert_err("tool_disabled");
    assert!(
        !model.stdout.contains("the catalog of the catalog"),
        "{}",
        model.stdout
    );
    assert!(model.stdout.contains("--harness"), "{}", model.stdout);
    for harness in [vec!["--harness"], vec![]] {
        let mut c = env.cmd();
        if harness.is_empty() {
            c.env("LOOPR_HARNESS", "1");
        }
        c.args(["--config", cfg, "--profile", "code"])
            .args(&harness)
            .args(["--session", "code", "session", "clear_reads"])
            .write_stdin("{}");
        finish(c).assert_ok();
    }
    let denied = at(
        &env,
        &env.root,
        "code",
        &["--config", cfg, "--profile", "code", "--harness", "read"],
        json!({"path": "secrets/key"}),
    );
    denied.assert_err("path_denied");
    // Never in what a model is offered.
    let schema = at(
        &env,
        &env.root,
        "code",
        &["--config", cfg, "--profile", "code", "--harness", "schema"],
        json!({}),
    );
    assert!(!schema.stdout.contains("\"inbox\""), "{}", schema.stdout);
}

#[test]
fn clear_reads_of_another_session_is_the_harnesss_call() {
    let env = Env::new();
    env.write_file("a.txt", "a\n");
    at(
        &env,
        &env.root,
        "loop-1",
        &["read"],
        json!({"path": "a.txt"}),
    )
    .assert_ok();
    let out = at(
        &env,
        &env.root,
        "h",
        &["session"],
        json!({"action": "clear_reads", "session": "loop-1"}),
    );
    out.assert_invalid("session");
    let show = at(&env, &env.root, "loop-1", &["session"], json!({}));
    assert_eq!(show.data()["reads_total"], 1);
    let out = at(
        &env,
        &env.root,
        "h",
        &["--harness", "session"],
        json!({"action": "clear_reads", "session": "loop-1"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["cleared_reads"], 1);
    let show = at(&env, &env.root, "loop-1", &["session"], json!({}));
    assert_eq!(show.data()["reads_total"], 0);
    // A write now needs a read again.
    at(
        &env,
        &env.root,
        "loop-1",
        &["edit"],
        json!({"path": "a.txt", "old_string": "a", "new_string": "b"}),
    )
    .assert_err("not_read");
}

fn spawn(
    env: &Env,
    root: &Path,
    session: &str,
    args: &[&str],
    input: Value,
) -> std::process::Child {
    let mut c = env.std_cmd();
    c.arg("--root")
        .arg(root)
        .args(["--session", session])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    child
}

fn json_of(child: std::process::Child) -> Value {
    let out = child.wait_with_output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "not JSON: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn inbox_wait_wakes_on_a_share_from_another_process_and_times_out_empty(env: &Env) {
    let root = env.root.clone();
    let t = Instant::now();
    let waiter = spawn(
        env,
        &root,
        "code",
        &["inbox"],
        json!({"action": "wait", "timeout_ms": 20000}),
    );
    std::thread::sleep(Duration::from_millis(400));
    at(
        env,
        &root,
        "plan",
        &["share"],
        json!({"to": ["code"], "data_type": "n", "data": "go"}),
    )
    .assert_ok();
    let got = json_of(waiter);
    assert_eq!(got["ok"], true, "{got}");
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert_eq!(got["data"]["messages"][0]["data"], "go");
    assert_eq!(got["data"]["session"], "code");
    assert_eq!(got["data"]["timed_out"], false);
    // Marked read: a second wait finds nothing and says so when its time runs out.
    let t = Instant::now();
    let out = at(
        env,
        &root,
        "code",
        &["inbox"],
        json!({"action": "wait", "timeout_ms": 300}),
    );
    out.assert_ok();
    assert!(t.elapsed() >= Duration::from_millis(300));
    assert_eq!(out.data()["timed_out"], true);
    // Bounds and fields.
    for bad in [json!(0), json!(600_001)] {
        at(
            env,
            &root,
            "code",
            &["inbox"],
            json!({"action": "wait", "timeout_ms": bad}),
        )
        .assert_invalid("timeout_ms");
    }
    at(env, &root, "code", &["inbox"], json!({"timeout_ms": 5})).assert_invalid("timeout_ms");
    // One harness watches several loops: the first inbox with something unread answers.
    at(
        env,
        &root,
        "code",
        &["inbox"],
        json!({"action": "wait", "sessions": ["a", "b"]}),
    )
    .assert_invalid("sessions[0]");
    at(
        env,
        &root,
        "plan",
        &["share"],
        json!({"to": ["b"], "data_type": "n", "data": 2}),
    )
    .assert_ok();
    let out = at(
        env,
        &root,
        "h",
        &["--harness", "inbox"],
        json!({"action": "wait", "sessions": ["a", "b"], "timeout_ms": 5000}),
    );
    out.assert_ok();
    assert_eq!(out.data()["session"], "b", "{}", out.stdout);
}

fn validate_runs_another_loops_phase_in_the_callers_root(env: &Env) {
    let code_root = env.dir.path().join("wt-code");
    std::fs::create_dir_all(&code_root).unwrap();
    std::fs::write(code_root.join("marker"), "").unwrap();
    let phase = json!({"name": "p1", "title": "T", "objective": "O.",
        "tasks": [{"description": "d"}], "validation_command": "test -f marker && echo in-$(basename \"$PWD\")"});
    at(
        env,
        &env.root,
        "phase-1",
        &["--hub", "h", "create_phase"],
        phase,
    )
    .assert_ok();
    let catalog = env.dir.path().join("catalog.toml");
    std::fs::write(
        &catalog,
        "[tools.validate]\n[profiles.check]\ntools = [\"validate\"]\n",
    )
    .unwrap();
    let cfg = catalog.to_str().unwrap();
    let args = [
        "--hub",
        "h",
        "--config",
        cfg,
        "--profile",
        "check",
        "validate",
    ];
    // A model's profile without run never runs a phase's command (24.7)...
    at(env, &code_root, "val", &args, json!({"session": "phase-1"})).assert_err("tool_disabled");
    // ...the harness's call does, in its own root.
    let mut harness = vec!["--harness"];
    harness.extend(args);
    let out = at(
        env,
        &code_root,
        "val",
        &harness,
        json!({"session": "phase-1"}),
    );
    out.assert_ok();
    assert!(out.output().contains("in-wt-code"), "{}", out.stdout);
    assert_eq!(out.data()["session"], "phase-1");
    assert_eq!(out.data()["phase"], "p1");
    assert_eq!(out.data()["root"], code_root.to_str().unwrap());
    // A session with no phase: nothing to validate, said so.
    at(
        env,
        &code_root,
        "val",
        &harness,
        json!({"session": "nobody"}),
    )
    .assert_err("invalid_input");
    at(env, &code_root, "val", &harness, json!({"session": "a/b"})).assert_invalid("session");
}

fn ask_user_waits_for_the_harness_and_its_options_are_checked(env: &Env) {
    let root = env.root.clone();
    let asker = spawn(
        env,
        &root,
        "code",
        &["ask_user"],
        json!({"question": "Keep the old API?", "options": ["keep", "drop"]}),
    );
    // The harness sees the question in the person's inbox.
    let start = Instant::now();
    let id = loop {
        let out = at(
            env,
            &root,
            "user",
            &["--harness", "inbox"],
            json!({"action": "all"}),
        );
        if let Some(m) = out.data()["messages"].as_array().and_then(|m| m.first()) {
            assert!(out.output().contains("keep | drop"), "{}", out.output());
            break m["id"].as_u64().unwrap();
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no question came"
        );
        std::thread::sleep(Duration::from_millis(30));
    };
    let reply = |args: &[&str], answer: Value| {
        let mut input = json!({"action": "reply", "id": id});
        input
            .as_object_mut()
            .unwrap()
            .extend(answer.as_object().unwrap().clone());
        at(env, &root, "user", args, input)
    };
    // Only the harness answers for the person; an option not offered is its error.
    reply(&["inbox"], json!({"selected": ["keep"]})).assert_invalid("session");
    reply(&["--harness", "inbox"], json!({"selected": ["maybe"]})).assert_invalid("selected[0]");
    reply(
        &["--harness", "inbox"],
        json!({"selected": ["keep", "drop"]}),
    )
    .assert_invalid("selected");
    reply(
        &["--harness", "inbox"],
        json!({"selected": ["drop"], "text": "it is unused"}),
    )
    .assert_ok();
    let got = json_of(asker);
    assert_eq!(got["ok"], true, "{got}");
    assert_eq!(got["data"]["selected"], json!(["drop"]));
    assert_eq!(got["output"], "drop (it is unused)\n");
    // Bad questions, and no answer in time.
    for (input, field) in [
        (json!({"question": "q", "options": ["only"]}), "options"),
        (
            json!({"question": "q", "options": ["a", "a"]}),
            "options[1]",
        ),
        (
            json!({"question": "q", "multi_select": true}),
            "multi_select",
        ),
        (
            json!({"question": "q", "timeout_ms": 3_600_001}),
            "timeout_ms",
        ),
    ] {
        at(env, &root, "code", &["ask_user"], input).assert_invalid(field);
    }
    at(
        env,
        &root,
        "code",
        &["ask_user"],
        json!({"question": "q", "timeout_ms": 200}),
    )
    .assert_err("timeout");
}

fn a_share_reaches_at_most_100_sessions(env: &Env) {
    let to: Vec<String> = (0..101).map(|i| format!("s{i}")).collect();
    let out = at(
        env,
        &env.root,
        "a",
        &["share"],
        json!({"to": to, "data_type": "n", "data": 1}),
    );
    out.assert_err("too_large");
    assert_eq!(out.json["error"]["field"], "to");
    // Nothing was made for any of them.
    let show = at(env, &env.root, "a", &["session"], json!({}));
    assert_eq!(show.data()["hub"]["sessions"], json!([]), "{}", show.stdout);
}

/// Runs examples/worktrees.sh with its loops meeting on `hub` (None: the repository's), checks
/// what every hub must show, and returns what it printed; None (said why) without git or cargo.
pub fn run_worktrees_example(hub: Option<&str>) -> Option<String> {
    for tool in ["git", "cargo"] {
        if std::process::Command::new(tool)
            .arg("--version")
            .output()
            .is_err()
        {
            eprintln!("skipped: {tool} is not installed, and examples/worktrees.sh uses it");
            return None;
        }
    }
    let env = Env::new();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/worktrees.sh");
    let mut cmd = std::process::Command::new("bash");
    cmd.arg(&script)
        .env("LOOPR_TOOL", testkit::bin())
        .env("TMPDIR", env.dir.path());
    match hub {
        Some(h) => cmd.env("LOOPR_HUB", h),
        None => cmd.env_remove("LOOPR_HUB"),
    };
    let out = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for want in [
        "test result: ok. 1 passed",
        "code loop got: No: plain addition",
        "4 session(s): code-1, phase-1, plan-1, spec-1",
        "Completed: ",
        // validate ran in the code loop's worktree
        "validated in wt-code",
    ] {
        assert!(text.contains(want), "{want:?} missing from:\n{text}");
    }
    Some(text)
}

/// SPEC 25.8: examples/worktrees.sh runs seeds 000/001's flow, one worktree per loop, as a user
/// copies it. (The Redis hub's run is in the Redis tests.)
#[test]
fn the_worktrees_example_runs_the_seeds_flow_on_the_repositorys_hub() {
    let Some(text) = run_worktrees_example(None) else {
        return;
    };
    assert!(text.contains("Hub: repository"), "{text}");
    // The commit landed in the worktree's branch.
    assert!(text.contains(" add\nExit code: 0"), "{text}");
}

/// SPEC 25.4: Claude Code's AskUserQuestion asks each of its questions in turn through
/// ask_user, the harness answering as session `user`; the answers come back together, keyed by
/// question. Answers Claude Code's own dialog already collected are not asked again.
#[test]
fn ask_user_question_asks_each_question_in_turn() {
    let env = Env::new();
    let root = env.root.clone();
    let option = |l: &str| json!({"label": l, "description": format!("use {l}")});
    let asker = spawn(
        &env,
        &root,
        "code",
        &["AskUserQuestion"],
        json!({"questions": [
            {"question": "Which database?", "header": "DB", "options": [option("pg"), option("sqlite")], "multiSelect": false},
            {"question": "Which checks?", "header": "CI", "options": [option("lint"), option("test"), option("fmt")], "multiSelect": true},
        ]}),
    );
    let mut asked = vec![];
    for answer in [
        json!({"selected": ["sqlite"]}),
        json!({"selected": ["lint", "test"]}),
    ] {
        let start = Instant::now();
        let (id, text) = loop {
            let out = at(
                &env,
                &root,
                "user",
                &["--harness", "inbox"],
                json!({"action": "list"}),
            );
            if let Some(m) = out.data()["messages"].as_array().and_then(|m| m.first()) {
                break (m["id"].as_u64().unwrap(), out.output().to_string());
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "no question came"
            );
            std::thread::sleep(Duration::from_millis(30));
        };
        asked.push(text);
        let mut reply = json!({"action": "reply", "id": id});
        reply
            .as_object_mut()
            .unwrap()
            .extend(answer.as_object().unwrap().clone());
        at(&env, &root, "user", &["--harness", "inbox"], reply).assert_ok();
    }
    assert!(
        asked[0].contains("[DB] Which database?") && asked[0].contains("pg | sqlite"),
        "{}",
        asked[0]
    );
    assert!(asked[1].contains("[CI] Which checks?"), "{}", asked[1]);
    let got = json_of(asker);
    assert_eq!(got["ok"], true, "{got}");
    assert_eq!(
        got["data"]["answers"],
        json!({"Which database?": "sqlite", "Which checks?": "lint, test"})
    );
    assert!(
        got["output"]
            .as_str()
            .unwrap()
            .contains("\"Which checks?\"=\"lint, test\"")
    );
    // Already answered by Claude Code's dialog: nobody is asked.
    let out = at(
        &env,
        &root,
        "code",
        &["AskUserQuestion"],
        json!({"questions": [{"question": "Go?", "header": "Go", "options": [option("yes"), option("no")], "multiSelect": false}],
               "answers": {"Go?": "yes"}}),
    );
    out.assert_ok();
    assert_eq!(out.data()["answers"], json!({"Go?": "yes"}));
    // Bad shapes are the model's invalid_input, naming the field.
    at(
        &env,
        &root,
        "code",
        &["AskUserQuestion"],
        json!({"questions": []}),
    )
    .assert_invalid("questions");
}
