//! SPEC 29: permission modes, Claude Code's rules, approvals, and hooks that decide. Every
//! "nothing ran" is checked on disk: the calls under test would create or change a file.

use super::{by_id, catalog, mcp, with};
use serde_json::{Value, json};
use std::io::Write as _;
use std::process::Stdio;
use testkit::{Env, Out};

/// A hook script in the scratch dir (outside the root).
fn script(env: &Env, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let p = env.dir.path().join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p.to_str().unwrap().to_string()
}

fn perms(allow: &[&str], ask: &[&str], deny: &[&str]) -> String {
    let list = |l: &[&str]| serde_json::to_string(l).unwrap();
    format!(
        "[permissions]\nallow = {}\nask = {}\ndeny = {}\n",
        list(allow),
        list(ask),
        list(deny)
    )
}

fn run_cmd(env: &Env, file: &std::path::Path, pre: &[&str], command: &str) -> Out {
    let mut args = pre.to_vec();
    args.push("run");
    with(env, file, &args, &json!({ "command": command }).to_string())
}

fn approval(out: &Out) -> &Value {
    out.assert_err("approval_required");
    &out.json["error"]["approval"]
}

fn id(out: &Out) -> String {
    approval(out)["id"].as_str().unwrap().to_string()
}

#[test]
fn a_deny_rule_holds_in_every_mode_and_nothing_runs() {
    let env = Env::new();
    let file = catalog(&env, &perms(&["Bash"], &[], &["Bash(touch made:*)"]));
    for mode in [
        "default",
        "accept-edits",
        "bypass",
        "ask",
        "acceptEdits",
        "bypassPermissions",
    ] {
        let out = run_cmd(&env, &file, &["--permission-mode", mode], "touch made");
        out.assert_err("denied_by_rule");
        assert_eq!(out.json["error"]["rule"], "Bash(touch made:*)", "{mode}");
        assert!(!env.path("made").exists(), "{mode}: it ran");
    }
    // The same under the environment variable.
    let out = {
        let mut c = env.cmd();
        c.env("LOOPR_PERMISSION_MODE", "bypass").args([
            "--config",
            file.to_str().unwrap(),
            "run",
            "touch made",
        ]);
        testkit::finish(c)
    };
    out.assert_err("denied_by_rule");
    assert!(!env.path("made").exists());
    // A mode nobody knows is refused, naming the flag.
    run_cmd(&env, &file, &["--permission-mode", "yolo"], "true").assert_err("invalid_input");
}

/// `Edit(...)` holds every tool that changes files, as in Claude Code; `Write(...)` the write
/// tool; our own names work too.
#[test]
fn edit_rules_hold_every_tool_that_changes_files() {
    let env = Env::new();
    env.write_file("keep/a.txt", "one\n");
    env.write_file(
        "keep/n.ipynb",
        r#"{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"#,
    );
    let file = catalog(&env, &perms(&[], &[], &["Edit(/keep/**)"]));
    with(&env, &file, &["read", "keep/a.txt"], "").assert_ok();
    let calls = [
        ("write", json!({"path": "keep/b.txt", "content": "x"})),
        (
            "edit",
            json!({"path": "keep/a.txt", "old_string": "one", "new_string": "two"}),
        ),
        (
            "apply_patch",
            json!({"patch": "*** Begin Patch\n*** Add File: keep/c.txt\n+x\n*** End Patch\n"}),
        ),
        ("move", json!({"from": "keep/a.txt", "to": "moved.txt"})),
        ("delete", json!({"path": "keep/a.txt"})),
        ("mkdir", json!({"path": "keep/d"})),
        (
            "notebook_edit",
            json!({"path": "keep/n.ipynb", "new_source": "x", "edit_mode": "insert", "cell_type": "code"}),
        ),
        (
            "Write",
            json!({"file_path": env.path("keep/e.txt").to_str().unwrap(), "content": "x"}),
        ),
    ];
    for (tool, input) in calls {
        let out = with(&env, &file, &[tool], &input.to_string());
        out.assert_err("denied_by_rule");
        assert_eq!(out.json["error"]["rule"], "Edit(/keep/**)", "{tool}");
    }
    // Nothing changed: the same two files, the same content.
    let mut names: Vec<String> = std::fs::read_dir(env.path("keep"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a.txt", "n.ipynb"]);
    assert_eq!(env.read_file("keep/a.txt"), b"one\n");
    assert!(!env.path("moved.txt").exists());
    // Reads are not edits; a file outside the rule is written.
    with(&env, &file, &["read", "keep/a.txt"], "").assert_ok();
    let w = |tool: &str, path: &str| {
        with(
            &env,
            &file,
            &[tool],
            &json!({"path": path, "content": "x"}).to_string(),
        )
    };
    w("write", "free.txt").assert_ok();
    // Our own name, and Write(...) for write alone.
    let own = catalog(&env, &perms(&[], &[], &["write(/free2*)", "Write(/w/**)"]));
    with(
        &env,
        &own,
        &["write"],
        &json!({"path": "free2.txt", "content": "x"}).to_string(),
    )
    .assert_err("denied_by_rule");
    with(
        &env,
        &own,
        &["write"],
        &json!({"path": "w/a.txt", "content": "x"}).to_string(),
    )
    .assert_err("denied_by_rule");
    with(
        &env,
        &own,
        &["mkdir"],
        &json!({"path": "w/dir"}).to_string(),
    )
    .assert_ok();
    assert!(!env.path("free2.txt").exists() && !env.path("w/a.txt").exists());
}

#[test]
fn deny_wins_then_ask_then_allow() {
    let env = Env::new();
    let all = catalog(
        &env,
        &perms(&["run(touch *)"], &["run(touch *)"], &["run(touch *)"]),
    );
    run_cmd(&env, &all, &[], "touch x").assert_err("denied_by_rule");
    let ask_allow = catalog(&env, &perms(&["run(touch *)"], &["run(touch *)"], &[]));
    run_cmd(&env, &ask_allow, &[], "touch x").assert_err("approval_required");
    let allow = catalog(&env, &perms(&["run(touch *)"], &[], &[]));
    assert!(!env.path("x").exists());
    run_cmd(&env, &allow, &["--permission-mode", "ask"], "touch x").assert_ok();
    assert!(env.path("x").exists());
}

/// `approval_required`, then the approval for that exact input, used once.
#[test]
fn an_approval_runs_that_exact_input_once() {
    let env = Env::new();
    let file = catalog(&env, &perms(&[], &["Bash(touch pushed:*)"], &[]));
    let out = run_cmd(&env, &file, &[], "touch pushed");
    let a = approval(&out).clone();
    assert_eq!(a["tool"], "run");
    assert_eq!(a["summary"], "run: touch pushed");
    assert_eq!(a["input"], json!({"command": "touch pushed"}));
    assert!(a["expires_at"].as_str().unwrap().ends_with('Z'));
    assert!(a.get("diff").is_none());
    assert!(!env.path("pushed").exists(), "it ran without approval");
    let id = a["id"].as_str().unwrap();
    // Asked again, the same call gets the same pending approval.
    assert_eq!(self::id(&run_cmd(&env, &file, &[], "touch pushed")), id);
    // Another input under it: refused, and a new approval for that one.
    let other = run_cmd(&env, &file, &["--approve", id], "touch pushed again");
    assert_ne!(self::id(&other), id);
    assert!(other.output().contains("another call or another input"));
    assert!(!env.path("pushed").exists() && !env.path("again").exists());
    // The exact input: it runs.
    run_cmd(&env, &file, &["--approve", id], "touch pushed").assert_ok();
    assert!(env.path("pushed").exists());
    // Used once.
    std::fs::remove_file(env.path("pushed")).unwrap();
    let again = run_cmd(&env, &file, &["--approve", id], "touch pushed");
    again.assert_err("approval_required");
    assert!(again.output().contains("not pending"));
    assert!(!env.path("pushed").exists());
}

#[test]
fn an_approval_expires_after_ten_minutes() {
    let env = Env::new();
    let file = catalog(&env, &perms(&[], &["run(touch *)"], &[]));
    let at = |now: &str, args: &[&str]| {
        let mut c = env.cmd();
        c.env("LOOPR_DEBUG_NOW", now)
            .arg("--config")
            .arg(&file)
            .args(args)
            .arg("run")
            .write_stdin(json!({"command": "touch late"}).to_string());
        testkit::finish(c)
    };
    let out = at("2026-01-01T00:00:00Z", &[]);
    assert_eq!(approval(&out)["expires_at"], "2026-01-01T00:10:00.000Z");
    let first = id(&out);
    let late = at("2026-01-01T00:10:01Z", &["--approve", &first]);
    late.assert_err("approval_required");
    assert!(late.output().contains("has expired"), "{}", late.stdout);
    assert!(!env.path("late").exists());
    let second = id(&late);
    at("2026-01-01T00:19:59Z", &["--approve", &second]).assert_ok();
    assert!(env.path("late").exists());
    at("not a time", &[]).assert_err("invalid_input");
}

/// The diff of a file change comes with the approval, computed without writing.
#[test]
fn a_file_change_asks_with_its_diff_and_writes_nothing() {
    let env = Env::new();
    env.write_file("src/a.rs", "a\nb\nc\n");
    let file = catalog(&env, &perms(&[], &["Edit(/src/**)"], &[]));
    with(&env, &file, &["read", "src/a.rs"], "").assert_ok();
    let edit = json!({"path": "src/a.rs", "old_string": "b\n", "new_string": "B\nB2\nB3\n"});
    let out = with(&env, &file, &["edit"], &edit.to_string());
    let a = approval(&out);
    assert_eq!(a["summary"], "edit: src/a.rs (+3 -1)");
    assert!(
        a["diff"].as_str().unwrap().contains("-b\n+B\n+B2\n+B3\n"),
        "{a}"
    );
    let write = json!({"path": "src/new.rs", "content": "x\ny\n"});
    let out = with(&env, &file, &["write"], &write.to_string());
    assert_eq!(approval(&out)["summary"], "write: src/new.rs (+2 -0)");
    assert_eq!(env.read_file("src/a.rs"), b"a\nb\nc\n");
    assert!(!env.path("src/new.rs").exists());
    // Approved, the edit is made.
    let id = id(&with(&env, &file, &["edit"], &edit.to_string()));
    with(&env, &file, &["--approve", &id, "edit"], &edit.to_string()).assert_ok();
    assert_eq!(env.read_file("src/a.rs"), b"a\nB\nB2\nB3\nc\n");
}

/// The modes: ask (everything that changes something, unless allowed or granted),
/// accept-edits, bypass, Claude Code's names, the profile's `mode`.
#[test]
fn modes_decide_where_no_rule_does() {
    let env = Env::new();
    env.write_file("a.txt", "one\n");
    let file = catalog(
        &env,
        &format!(
            "{}\n[profiles.careful]\nmode = \"ask\"\n[profiles.planning]\nmode = \"plan\"\n",
            perms(&[], &["run(touch asked*)"], &[])
        ),
    );
    let write = |args: &[&str], path: &str| {
        let mut a = args.to_vec();
        a.push("write");
        with(
            &env,
            &file,
            &a,
            &json!({"path": path, "content": "x"}).to_string(),
        )
    };
    // ask mode: a change asks; a read runs.
    write(&["--permission-mode", "ask"], "w1.txt").assert_err("approval_required");
    with(
        &env,
        &file,
        &["--permission-mode", "ask", "read", "a.txt"],
        "",
    )
    .assert_ok();
    // The profile's mode, and the flag over it.
    write(&["--profile", "careful"], "w1.txt").assert_err("approval_required");
    write(
        &["--profile", "careful", "--permission-mode", "default"],
        "w2.txt",
    )
    .assert_ok();
    assert!(!env.path("w1.txt").exists());
    // plan is read-only (19.2): write is not offered.
    write(&["--permission-mode", "plan"], "w3.txt").assert_err("tool_disabled");
    write(&["--profile", "planning"], "w3.txt").assert_err("tool_disabled");
    // accept-edits: edits inside the root run; an ask rule still asks.
    write(&["--permission-mode", "acceptEdits"], "w4.txt").assert_ok();
    run_cmd(
        &env,
        &file,
        &["--permission-mode", "accept-edits"],
        "touch asked",
    )
    .assert_err("approval_required");
    // bypass: no rule asks.
    run_cmd(&env, &file, &["--permission-mode", "bypass"], "touch asked").assert_ok();
    assert!(env.path("asked").exists());
    assert!(!env.path("w3.txt").exists());
}

/// A harness grants a rule for the session; `permissions` is a harness's call only.
#[test]
fn a_granted_rule_lets_the_session_run_what_the_mode_would_ask() {
    let env = Env::new();
    let file = catalog(&env, &perms(&[], &["run(touch held*)"], &[]));
    // The harness's own calls are not asked about, whatever the mode.
    let harness = |args: &[&str]| {
        let mut a = vec!["--harness", "--permission-mode", "ask", "permissions"];
        a.extend(args);
        with(&env, &file, &a, "")
    };
    let ask = ["--permission-mode", "ask"];
    run_cmd(&env, &file, &ask, "touch granted").assert_err("approval_required");
    // Not a model's tool: absent from schema, refused without --harness.
    let schema = with(&env, &file, &["schema"], "");
    assert!(!schema.stdout.contains("\"permissions\""));
    with(&env, &file, &["permissions", "grant", "Bash"], "").assert_err("tool_disabled");
    let out = with(
        &env,
        &file,
        &["call"],
        r#"{"name": "permissions", "input": {"action": "grant", "rule": "Bash"}}"#,
    );
    out.assert_err("tool_disabled");
    harness(&["grant", "Bash(touch("]).assert_invalid("rule");
    harness(&["grant", "Bash(touch granted:*)"]).assert_ok();
    harness(&["grant", "Bash(touch held:*)"]).assert_ok();
    run_cmd(&env, &file, &ask, "touch granted").assert_ok();
    assert!(env.path("granted").exists());
    // A grant cannot lift an ask rule.
    run_cmd(&env, &file, &ask, "touch held").assert_err("approval_required");
    // Another session has no grants.
    run_cmd(
        &env,
        &file,
        &["--session", "other", "--permission-mode", "ask"],
        "touch granted2",
    )
    .assert_err("approval_required");
    let listed = harness(&["list"]);
    listed.assert_ok();
    assert_eq!(
        listed.data()["granted"],
        json!(["Bash(touch granted:*)", "Bash(touch held:*)"])
    );
    let pending: Vec<&str> = listed.data()["pending"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["summary"].as_str().unwrap())
        .collect();
    assert!(pending.contains(&"run: touch held"), "{pending:?}");
    // session show lists the rules granted and the approvals pending.
    let show = with(&env, &file, &["session"], "");
    assert_eq!(
        show.data()["permissions"]["granted"][0],
        "Bash(touch granted:*)"
    );
    assert_eq!(
        show.data()["permissions"]["pending"],
        listed.data()["pending"]
    );
    assert!(
        show.output()
            .contains(&format!("Pending approvals: {}", pending.len()))
    );
    // Revoked, it asks again; a pending approval can be dropped by its id.
    harness(&["revoke", "Bash(touch granted:*)"]).assert_ok();
    std::fs::remove_file(env.path("granted")).unwrap();
    let pending = run_cmd(&env, &file, &ask, "touch granted");
    harness(&["revoke", &id(&pending)]).assert_ok();
    harness(&["revoke", "nothing"]).assert_err("not_found");
    assert!(!env.path("granted").exists());
    // The state file is the session's own: 0600.
    use std::os::unix::fs::PermissionsExt;
    let dir = std::path::PathBuf::from(show.data()["session_dir"].as_str().unwrap());
    let mode = std::fs::metadata(dir.join("permissions.json"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

/// `call` takes `approval`; each element of a batch has its own.
#[test]
fn call_and_batch_carry_their_own_approvals() {
    let env = Env::new();
    let file = catalog(&env, &perms(&[], &["run(touch *)"], &[]));
    let call = |c: Value| with(&env, &file, &["call"], &c.to_string());
    let one = json!({"name": "run", "input": {"command": "touch c1"}});
    let id1 = id(&call(one.clone()));
    let mut approved = one.clone();
    approved["approval"] = json!(id1);
    call(approved).assert_ok();
    assert!(env.path("c1").exists());
    call(json!({"name": "run", "input": {"command": "x"}, "approval": 5}))
        .assert_invalid("approval");
    let batch = |calls: Value| with(&env, &file, &["batch"], &calls.to_string());
    let two = json!([
        {"name": "run", "input": {"command": "touch b1"}},
        {"name": "run", "input": {"command": "touch b2"}},
        {"name": "read", "input": {"path": "c1"}}
    ]);
    let out = batch(two.clone());
    let results = out.json.as_array().unwrap();
    let ids: Vec<String> = results[..2]
        .iter()
        .map(|r| {
            assert_eq!(r["error"]["code"], "approval_required");
            r["error"]["approval"]["id"].as_str().unwrap().to_string()
        })
        .collect();
    assert_ne!(ids[0], ids[1]);
    assert_eq!(results[2]["ok"], true);
    assert!(!env.path("b1").exists() && !env.path("b2").exists());
    let mut approved = two;
    approved[0]["approval"] = json!(ids[0]);
    let out = batch(approved);
    assert_eq!(out.json[0]["ok"], true);
    assert_eq!(out.json[1]["error"]["code"], "approval_required");
    assert!(env.path("b1").exists() && !env.path("b2").exists());
}

/// mcp: an isError result carrying the approval (no elicitation); `_meta.approval` runs it.
#[test]
fn mcp_answers_is_error_with_the_approval() {
    let env = Env::new();
    let file = catalog(&env, &perms(&[], &["run(touch *)"], &[]));
    let call = |id: i64, meta: Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "run", "arguments": {"command": "touch m"}, "_meta": meta}});
    let config = ["--config", file.to_str().unwrap()];
    let r = mcp(&env, &config, &[call(1, json!({}))]);
    let result = &by_id(&r, 1)["result"];
    assert_eq!(result["isError"], true);
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("needs the person's approval"), "{text}");
    assert!(!env.path("m").exists());
    let approval_id = text
        .split_whitespace()
        .find(|w| w.starts_with("ap-"))
        .unwrap()
        .to_string();
    let r = mcp(&env, &config, &[call(2, json!({"approval": approval_id}))]);
    assert_eq!(by_id(&r, 2)["result"]["isError"], false);
    assert!(env.path("m").exists());
}

/// Claude Code's documented rule examples, replayed through the binary.
#[test]
fn claude_codes_documented_rules_replayed() {
    let env = Env::new();
    env.write_file(".env", "SECRET=1\n");
    env.write_file("docs/a.md", "doc\n");
    std::fs::write(env.dir.path().join(".zshrc"), "x\n").unwrap();
    let secret = env.dir.path().join("secrets/key");
    std::fs::create_dir_all(secret.parent().unwrap()).unwrap();
    std::fs::write(&secret, "k\n").unwrap();
    let abs = format!("Read(/{}/**)", env.dir.path().join("secrets").display());
    let file = catalog(
        &env,
        &perms(
            &["Bash(echo hello:*)", "Bash(ls *)", "Bash(npm run build)"],
            &["Edit(docs/**)"],
            &[
                "Read(./.env)",
                "Read(~/.zshrc)",
                &abs,
                "WebFetch(domain:example.com)",
            ],
        ),
    );
    let ask = ["--permission-mode", "ask"];
    // `Bash(ls *)`: `ls -la` allowed, `lsof` not; `echo hello:*` does not allow a compound.
    run_cmd(&env, &file, &ask, "ls -la").assert_ok();
    run_cmd(&env, &file, &ask, "lsof").assert_err("approval_required");
    run_cmd(&env, &file, &ask, "echo hello world").assert_ok();
    run_cmd(&env, &file, &ask, "echo hello && touch sneaked").assert_err("approval_required");
    run_cmd(&env, &file, &ask, "npm run build:prod").assert_err("approval_required");
    assert!(!env.path("sneaked").exists());
    // Read rules: ./ from the root, ~/ the home, // absolute.
    with(&env, &file, &["read", ".env"], "").assert_err("denied_by_rule");
    with(&env, &file, &["--no-sandbox", "read", "../.zshrc"], "").assert_err("denied_by_rule");
    with(
        &env,
        &file,
        &["--no-sandbox", "read", secret.to_str().unwrap()],
        "",
    )
    .assert_err("denied_by_rule");
    with(&env, &file, &["read", "docs/a.md"], "").assert_ok();
    // Edit(docs/**) asks for a change there.
    let w = json!({"path": "docs/b.md", "content": "x"}).to_string();
    with(&env, &file, &["write"], &w).assert_err("approval_required");
    assert!(!env.path("docs/b.md").exists());
    // WebFetch(domain:example.com): denied before any request is made.
    let f = with(
        &env,
        &file,
        &["fetch"],
        &json!({"url": "https://example.com/x"}).to_string(),
    );
    f.assert_err("denied_by_rule");
    assert_eq!(f.json["error"]["rule"], "WebFetch(domain:example.com)");
    // The same rules under Claude Code's tool names.
    let read = json!({"file_path": env.path(".env").to_str().unwrap()}).to_string();
    with(&env, &file, &["Read"], &read).assert_err("denied_by_rule");
}

/// Validation first; the rules before the pre hook, which sees only what they let through;
/// a hook's allow cannot lift an ask or deny rule.
#[test]
fn validation_then_rules_then_the_pre_hook() {
    let env = Env::new();
    let seen = env.dir.path().join("hook-ran");
    let allow = script(
        &env,
        "allow.sh",
        &format!(
            "touch {}\necho '{{\"hookSpecificOutput\": {{\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"allow\"}}}}'",
            seen.display()
        ),
    );
    let file = catalog(
        &env,
        &format!(
            "{}\n[[hooks.pre]]\ncommand = \"{allow}\"\n",
            perms(&[], &["run(touch asked*)"], &["run(touch denied*)"])
        ),
    );
    // A bad input is invalid_input, whatever the rules.
    with(
        &env,
        &file,
        &["run"],
        r#"{"command": "touch denied", "bogus": 1}"#,
    )
    .assert_err("invalid_input");
    run_cmd(&env, &file, &[], "touch denied").assert_err("denied_by_rule");
    run_cmd(&env, &file, &[], "touch asked").assert_err("approval_required");
    assert!(!seen.exists(), "the pre hook saw a call the rules held");
    assert!(!env.path("denied").exists() && !env.path("asked").exists());
    run_cmd(&env, &file, &[], "touch free").assert_ok();
    assert!(seen.exists() && env.path("free").exists());
}

/// Claude Code's hook JSON: permissionDecision deny / ask, updatedInput, additionalContext,
/// and PostToolUseFailure.
#[test]
fn hooks_decide_as_claude_codes_do() {
    let env = Env::new();
    let deny = script(
        &env,
        "deny.sh",
        r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "Destructive command blocked by hook"}}'"#,
    );
    let ask = script(
        &env,
        "ask.sh",
        r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "Confirm the push"}}'"#,
    );
    let update = script(
        &env,
        "update.sh",
        r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"path": "rewritten.txt", "content": "from the hook"}, "additionalContext": "Pre: the path was rewritten."}}'"#,
    );
    let bad = script(
        &env,
        "bad.sh",
        r#"echo '{"hookSpecificOutput": {"permissionDecision": "allow", "updatedInput": {"path": 7}}}'"#,
    );
    let post = script(
        &env,
        "post.sh",
        r#"echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "Post: remember the tests."}}'"#,
    );
    let failed_stdin = env.dir.path().join("failure.json");
    let failure = script(
        &env,
        "failure.sh",
        &format!(
            "cat > {}\necho '{{\"hookSpecificOutput\": {{\"hookEventName\": \"PostToolUseFailure\", \"additionalContext\": \"Failure: check the path.\"}}}}'",
            failed_stdin.display()
        ),
    );
    let file = catalog(
        &env,
        &format!(
            "[[hooks.pre]]\nmatcher = \"Bash|run\"\ncommand = \"{deny}\"\n\
             [[hooks.pre]]\ntools = [\"mkdir\"]\ncommand = \"{ask}\"\n\
             [[hooks.pre]]\ntools = [\"write\"]\ncommand = \"{update}\"\n\
             [[hooks.pre]]\ntools = [\"delete\"]\ncommand = \"{bad}\"\n\
             [[hooks.post]]\ntools = [\"write\"]\ncommand = \"{post}\"\n\
             [[hooks.post_failure]]\ntools = [\"read\"]\ncommand = \"{failure}\"\n"
        ),
    );
    // deny: blocked_by_hook with the reason.
    let out = run_cmd(&env, &file, &[], "touch ran");
    out.assert_err("blocked_by_hook");
    assert!(out.output().contains("Destructive command blocked by hook"));
    assert!(!env.path("ran").exists());
    // ask: approval_required; approved, it runs.
    let mk = json!({"path": "made"}).to_string();
    let out = with(&env, &file, &["mkdir"], &mk);
    assert!(out.output().contains("Confirm the push"), "{}", out.stdout);
    let id = id(&out);
    assert!(!env.path("made").exists());
    with(&env, &file, &["--approve", &id, "mkdir"], &mk).assert_ok();
    assert!(env.path("made").is_dir());
    // updatedInput replaces the input; additionalContext of pre and post follow the output.
    let out = with(
        &env,
        &file,
        &["write"],
        &json!({"path": "asked.txt", "content": "x"}).to_string(),
    );
    out.assert_ok();
    assert!(!env.path("asked.txt").exists());
    assert_eq!(env.read_file("rewritten.txt"), b"from the hook");
    let text = out.output();
    let (pre, post) = (
        text.find("Pre: the path").unwrap(),
        text.find("Post: remember").unwrap(),
    );
    assert!(text.find("Wrote").unwrap() < pre && pre < post, "{text}");
    // A bad updatedInput: invalid_input, nothing runs.
    env.write_file("victim.txt", "v\n");
    with(
        &env,
        &file,
        &["delete"],
        &json!({"path": "victim.txt"}).to_string(),
    )
    .assert_err("invalid_input");
    assert!(env.path("victim.txt").exists());
    // post_failure: after a failed call, the error on stdin beside Claude Code's fields.
    let out = with(&env, &file, &["read", "missing.txt"], "");
    out.assert_err("not_found");
    assert!(out.output().contains("Failure: check the path."));
    let stdin: Value =
        serde_json::from_str(&std::fs::read_to_string(&failed_stdin).unwrap()).unwrap();
    assert_eq!(stdin["hook_event_name"], "PostToolUseFailure");
    assert_eq!(stdin["tool_name"], "read");
    assert_eq!(stdin["error"]["code"], "not_found");
    assert!(
        stdin["error"]["message"]
            .as_str()
            .unwrap()
            .contains("missing.txt")
    );
}

/// The catalog's grammar: `[permissions]` rules and `[[hooks.post_failure]]` are checked.
#[test]
fn bad_rules_are_catalog_problems() {
    let env = Env::new();
    let file = catalog(&env, "[permissions]\nallow = [\"Bash(\"]\nmaybe = []\n");
    let out = with(
        &env,
        &file,
        &["catalog", "--check", file.to_str().unwrap()],
        "",
    );
    assert_ne!(out.status, 0);
    let text = format!("{}{}", out.stdout, out.stderr);
    assert!(text.contains("[permissions] allow"), "{text}");
    assert!(text.contains("unknown key `maybe`"), "{text}");
    run_cmd(&env, &file, &[], "true").assert_err("invalid_input");
    // A good one is printed back by `catalog`, with the mode in force.
    let good = catalog(
        &env,
        "[permissions]\nask = [\"Bash(git push:*)\"]\n[[hooks.post_failure]]\ncommand = \"true\"\n",
    );
    let printed = with(
        &env,
        &good,
        &[
            "--permission-mode",
            "acceptEdits",
            "catalog",
            "--format",
            "text",
        ],
        "",
    );
    assert!(
        printed.stdout.contains("# mode: accept-edits"),
        "{}",
        printed.stdout
    );
    assert!(
        printed.stdout.contains("ask = [\"Bash(git push:*)\"]"),
        "{}",
        printed.stdout
    );
    assert!(
        printed.stdout.contains("[[hooks.post_failure]]"),
        "{}",
        printed.stdout
    );
}

/// README's approval loop (examples/approve.sh), run as a harness runs it, with the person's
/// answer on a file.
#[test]
fn the_readmes_approval_loop_runs() {
    if std::process::Command::new("jq")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!(
            "skipped: jq is not installed, and examples/approve.sh uses it (.ci/run installs it)"
        );
        return;
    }
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = manifest.join("examples/approve.sh");
    let text = std::fs::read_to_string(&script).unwrap();
    let readme = std::fs::read_to_string(manifest.join("README.md")).unwrap();
    let body: Vec<&str> = text.lines().skip(1).collect();
    assert!(body.len() <= 15, "the loop is {} lines", body.len());
    assert!(
        readme.contains(&body.join("\n")),
        "README.md shows examples/approve.sh as it is"
    );
    let env = Env::new();
    let file = catalog(&env, &perms(&[], &["run(touch *)"], &[]));
    let answer = |yes: &str, marker: &str| {
        let answers = env.dir.path().join("answers");
        std::fs::write(&answers, format!("{yes}\n")).unwrap();
        let mut c = std::process::Command::new("sh");
        c.arg(&script)
            .args(["--config", file.to_str().unwrap(), "run"])
            .current_dir(&env.root)
            .env("LOOPR_STATE_DIR", &env.state)
            .env("LOOPR_TOOL", testkit::bin())
            .env("ANSWERS", &answers)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c.spawn().unwrap();
        let input = json!({"command": format!("touch {marker}")}).to_string();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let no = answer("n", "refused");
    assert!(!no.status.success());
    assert!(String::from_utf8_lossy(&no.stderr).contains("run: touch refused"));
    assert!(!env.path("refused").exists());
    let yes = answer("y", "agreed");
    assert!(
        yes.status.success(),
        "{}",
        String::from_utf8_lossy(&yes.stderr)
    );
    let out: Value = serde_json::from_slice(&yes.stdout).unwrap();
    assert_eq!(out["ok"], true);
    assert!(env.path("agreed").exists());
}
