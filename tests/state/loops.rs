//! Loops that work together (SPEC 20, 24.4, 24.7), through separate processes as harnesses run
//! them: completion, shares, queries and their replies, inbox bounds, and the artifacts'
//! checks.

use serde_json::{Value, json};
use std::time::{Duration, Instant};
use testkit::Env;
on_both_hubs!(
    complete_task_once_until_reopened_and_session_show_reports_it,
    two_sessions_exchange_a_query_and_its_reply_while_both_run_other_tools,
    a_query_that_times_out_is_marked_expired_and_a_late_reply_is_refused,
    fifty_concurrent_shares_into_one_inbox_lose_none,
    a_reader_killed_mid_list_loses_nothing,
    an_inbox_keeps_500_never_drops_unread_and_refuses_a_share_when_full,
    share_and_query_fields_aliases_and_json_text_data,
    artifacts_are_stored_listed_read_back_from_another_session_and_rendered,
    artifact_checks_name_the_json_path,
    the_loops_example_runs_end_to_end,
    a_waiting_query_uses_almost_no_cpu,
    an_inbox_call_shows_at_most_a_mebibyte_of_messages_and_says_how_to_get_the_rest,
);

fn inbox_all(env: &Env, session: &str) -> Vec<Value> {
    crate::every_message(env, session)
}

/// Waits (in the test, not the tool) until `session` has an unanswered query, and returns its id.
fn wait_for_query(env: &Env, session: &str) -> u64 {
    let start = Instant::now();
    loop {
        let open = inbox_all(env, session)
            .into_iter()
            .find(|m| m["kind"] == "query" && m["expired"] == false && m.get("reply").is_none());
        if let Some(m) = open {
            return m["id"].as_u64().unwrap();
        }
        assert!(start.elapsed() < Duration::from_secs(20), "no query came");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn complete_task_once_until_reopened_and_session_show_reports_it(env: &Env) {
    let show = env.call_in("coder", "session", json!({}));
    assert_eq!(show.data()["completed"], Value::Null);
    let out = env.call_in("coder", "complete_task", json!({"summary": "Parser done"}));
    out.assert_ok();
    let at = out.data()["completed_at"].as_str().unwrap().to_string();
    // Another process, another session, sees it through session show.
    let show = env.run(&["--session", "coder", "session", "show"], "");
    assert_eq!(
        show.data()["completed"],
        json!({"summary": "Parser done", "completed_at": at})
    );
    assert!(show.output().contains("Completed: "), "{}", show.output());
    assert_eq!(
        env.call("session", json!({})).data()["completed"],
        Value::Null
    );
    // Twice is refused and changes nothing.
    let again = env.call_in("coder", "complete_task", json!({"summary": "again"}));
    again.assert_err("invalid_input");
    assert!(
        again.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("reopen")
    );
    assert_eq!(
        env.call_in("coder", "session", json!({})).data()["completed"]["summary"],
        "Parser done"
    );
    env.call_in("coder", "complete_task", json!({"summary": " "}))
        .assert_invalid("summary");
    // reopen clears it; a second reopen says there was nothing to clear.
    let r = env.call_in("coder", "session", json!({"action": "reopen"}));
    r.assert_ok();
    assert_eq!(r.data()["reopened"], true);
    assert_eq!(
        env.call_in("coder", "session", json!({})).data()["completed"],
        Value::Null
    );
    let r = env.call_in("coder", "session", json!({"action": "reopen"}));
    assert_eq!(r.data()["reopened"], false);
    env.call_in("coder", "complete_task", json!({"summary": "really done"}))
        .assert_ok();
    // reset drops it with the rest.
    env.call_in("coder", "session", json!({"action": "reset"}))
        .assert_ok();
    assert_eq!(
        env.call_in("coder", "session", json!({})).data()["completed"],
        Value::Null
    );
}

fn two_sessions_exchange_a_query_and_its_reply_while_both_run_other_tools(env: &Env) {
    env.write_file("spec.md", "lexer first\n");
    let asker = env.spawn(
        &["--session", "coder", "query"],
        &[],
        &json!({"to": "planner", "question": "Which spec comes first?", "timeout_ms": 30000})
            .to_string(),
    );
    // While its query waits, the coder's session goes on working in other processes.
    env.call_in(
        "coder",
        "todo",
        json!({"action": "add", "content": "Write the lexer"}),
    )
    .assert_ok();
    env.call_in("coder", "read", json!({"path": "spec.md"}))
        .assert_ok();
    // The planner works too, then finds the question and answers it.
    env.call_in(
        "planner",
        "write",
        json!({"path": "plan.md", "content": "1. lexer\n"}),
    )
    .assert_ok();
    let id = wait_for_query(env, "planner");
    env.call_in("planner", "read", json!({"path": "plan.md"}))
        .assert_ok();
    let listed = env.call_in("planner", "inbox", json!({}));
    listed.assert_ok();
    assert!(
        listed.output().contains("Which spec comes first?"),
        "{}",
        listed.output()
    );
    let reply = env.call_in(
        "planner",
        "inbox",
        json!({"action": "reply", "id": id, "text": "The lexer spec."}),
    );
    reply.assert_ok();
    assert_eq!(reply.data()["to"], "coder");
    let answer = Env::parse(asker);
    assert_eq!(answer["ok"], true, "{answer}");
    assert_eq!(answer["output"], "The lexer spec.\n");
    assert_eq!(answer["data"]["id"], id);
    assert_eq!(answer["data"]["reply"], "The lexer spec.");
    assert_eq!(answer["data"]["from"], "planner");
    // Both sessions' other state is intact.
    let todos = env.call_in("coder", "todo", json!({}));
    assert_eq!(todos.data()["todos"][0]["content"], "Write the lexer");
    // The answered query is listed as such; answering twice is refused.
    let q = inbox_all(env, "planner")
        .into_iter()
        .find(|m| m["id"] == id)
        .unwrap();
    assert_eq!(q["reply"], "The lexer spec.");
    env.call_in(
        "planner",
        "inbox",
        json!({"action": "reply", "id": id, "text": "again"}),
    )
    .assert_invalid("id");
}

fn a_query_that_times_out_is_marked_expired_and_a_late_reply_is_refused(env: &Env) {
    let start = Instant::now();
    let out = env.call_in(
        "coder",
        "query",
        json!({"to": "planner", "question": "Still there?", "timeout_ms": 300}),
    );
    assert!(start.elapsed() >= Duration::from_millis(300));
    out.assert_err("timeout");
    assert_eq!(out.json["error"]["timeout_ms"], 300);
    let id = out.json["error"]["id"].as_u64().unwrap();
    // The question stays, marked expired.
    let listed = env.call_in("planner", "inbox", json!({}));
    let m = &listed.data()["messages"][0];
    assert_eq!(
        (m["id"].as_u64(), &m["kind"], &m["expired"], &m["question"]),
        (
            Some(id),
            &json!("query"),
            &json!(true),
            &json!("Still there?")
        )
    );
    assert!(listed.output().contains("[expired]"), "{}", listed.output());
    // The late answer is refused cleanly, and nothing is recorded for it.
    let late = env.call_in(
        "planner",
        "inbox",
        json!({"action": "reply", "id": id, "text": "Yes!"}),
    );
    late.assert_invalid("id");
    assert!(late.output().contains("expired"), "{}", late.output());
    assert!(inbox_all(env, "planner")[0].get("reply").is_none());
    // Unknown ids are not_found, with the id.
    let unknown = env.call_in(
        "planner",
        "inbox",
        json!({"action": "reply", "id": id + 10, "text": "?"}),
    );
    unknown.assert_err("not_found");
    assert_eq!(unknown.json["error"]["id"], id + 10);
}

#[test]
fn polling_fallback_without_inotify_still_gets_the_answer() {
    let env = Env::new();
    let asker = env.spawn(
        &["--session", "coder", "query"],
        &[("LOOPR_DEBUG_NO_INOTIFY", std::path::Path::new("1"))],
        &json!({"to": "planner", "question": "Poll?", "timeout_ms": 20000}).to_string(),
    );
    let id = wait_for_query(&env, "planner");
    env.call_in(
        "planner",
        "inbox",
        json!({"action": "reply", "id": id, "text": "yes"}),
    )
    .assert_ok();
    let answer = Env::parse(asker);
    assert_eq!(answer["data"]["reply"], "yes", "{answer}");
}

fn fifty_concurrent_shares_into_one_inbox_lose_none(env: &Env) {
    let children: Vec<_> = (0..50)
        .map(|i| {
            env.spawn(
                &["--session", &format!("sender-{i}"), "share"],
                &[],
                &json!({"to": ["hub"], "data_type": "n", "data": {"n": i}}).to_string(),
            )
        })
        .collect();
    for c in children {
        let out = Env::parse(c);
        assert_eq!(out["ok"], true, "{out}");
    }
    let messages = inbox_all(env, "hub");
    assert_eq!(messages.len(), 50);
    let mut ids: Vec<u64> = messages.iter().map(|m| m["id"].as_u64().unwrap()).collect();
    let mut ns: Vec<u64> = messages
        .iter()
        .map(|m| m["data"]["n"].as_u64().unwrap())
        .collect();
    ids.sort();
    ns.sort();
    assert_eq!(
        ids,
        (1..=50).collect::<Vec<_>>(),
        "distinct ids, oldest first"
    );
    assert_eq!(ns, (0..50).collect::<Vec<_>>(), "every share arrived");
    for m in &messages {
        let n = m["data"]["n"].as_u64().unwrap();
        assert_eq!(m["from"], format!("sender-{n}"));
    }
}

fn a_reader_killed_mid_list_loses_nothing(env: &Env) {
    // 300 messages of some size, so a list takes long enough to be killed in the middle.
    let big = "x".repeat(20_000);
    let calls: Vec<Value> = (0..300)
        .map(|i| json!({"name": "share", "input": {"to": ["hub"], "data_type": "n", "data": {"n": i, "pad": big}}}))
        .collect();
    let out = env.run(
        &["--session", "feeder", "batch"],
        &Value::Array(calls).to_string(),
    );
    assert_eq!(
        out.status,
        0,
        "{}",
        &out.stdout[..out.stdout.len().min(500)]
    );
    for i in 0..20u64 {
        let mut reader = env.spawn(&["--session", "hub", "inbox"], &[], "{}");
        std::thread::sleep(Duration::from_millis(i * 3));
        let _ = reader.kill(); // SIGKILL
        let _ = reader.wait();
    }
    let messages = inbox_all(env, "hub");
    assert_eq!(messages.len(), 300);
    for (i, m) in messages.iter().enumerate() {
        assert_eq!(m["id"], i as u64 + 1);
        assert_eq!(m["data"]["n"], i as u64);
        assert_eq!(m["data"]["pad"].as_str().unwrap().len(), 20_000);
    }
}

fn an_inbox_keeps_500_never_drops_unread_and_refuses_a_share_when_full(env: &Env) {
    let calls: Vec<Value> = (0..500)
        .map(|i| json!({"name": "share", "input": {"to": ["hub"], "data_type": "n", "data": i}}))
        .collect();
    let out = env.run(
        &["--session", "feeder", "batch"],
        &Value::Array(calls).to_string(),
    );
    assert_eq!(out.status, 0);
    // 500 unread: the next share is refused, to every target (all or nothing).
    let full = env.call_in(
        "feeder",
        "share",
        json!({"to": ["other", "hub"], "data_type": "n", "data": 500}),
    );
    full.assert_err("too_large");
    assert_eq!(full.json["error"]["limit"], 500);
    assert_eq!(full.json["error"]["field"], "to[1]");
    assert_eq!(full.json["error"]["target"], "hub");
    assert!(full.output().contains("hub"), "{}", full.output());
    // Nothing was made for `other` either (SPEC 31.4): the hub does not know it.
    let show = env.call_in("feeder", "session", json!({}));
    let known: Vec<&str> = show.data()["hub"]["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|k| k["session"].as_str())
        .collect();
    assert!(!known.contains(&"other"), "{known:?}");
    assert_eq!(
        inbox_all(env, "other").len(),
        0,
        "nothing was sent to other"
    );
    // Once read, the oldest make room.
    let listed = env.call_in("hub", "inbox", json!({}));
    assert_eq!(listed.data()["messages"].as_array().unwrap().len(), 500);
    assert_eq!(
        env.call_in("hub", "inbox", json!({})).data()["messages"],
        json!([]),
        "all read now"
    );
    env.call_in(
        "feeder",
        "share",
        json!({"to": ["hub"], "data_type": "n", "data": 500}),
    )
    .assert_ok();
    let all = inbox_all(env, "hub");
    assert_eq!(all.len(), 500);
    assert_eq!(all[0]["data"], 1, "message 1 (data 0) was dropped");
    assert_eq!(all[499]["id"], 501);
    assert_eq!(all[499]["read"], false);
}

fn share_and_query_fields_aliases_and_json_text_data(env: &Env) {
    // seed 000's names and fields
    env.call_in(
        "coder",
        "share_data",
        json!({"target_exec_ids": ["planner"], "data_type": "api", "data": {"v": 2}}),
    )
    .assert_ok();
    // strict schemas send data as JSON text: taken as the JSON it encodes
    env.call_in(
        "coder",
        "share",
        json!({"to": ["planner"], "data_type": "api", "data": "{\"v\": 3}"}),
    )
    .assert_ok();
    env.call_in(
        "coder",
        "share",
        json!({"to": ["planner"], "data_type": "note", "data": "plain words"}),
    )
    .assert_ok();
    let m = inbox_all(env, "planner");
    assert_eq!(m[0]["data"], json!({"v": 2}));
    assert_eq!(m[1]["data"], json!({"v": 3}));
    assert_eq!(m[2]["data"], "plain words");
    assert_eq!(
        (&m[0]["from"], &m[0]["kind"]),
        (&json!("coder"), &json!("share"))
    );
    let q = env.call_in(
        "coder",
        "query_loop",
        json!({"target_exec_id": "planner", "question": "?", "timeout_ms": 1}),
    );
    q.assert_err("timeout");
    // Bad targets name the field.
    env.call_in(
        "coder",
        "share",
        json!({"to": ["ok", "../x"], "data_type": "n", "data": 1}),
    )
    .assert_invalid("to[1]");
    env.call_in(
        "coder",
        "share",
        json!({"to": ["a", "a"], "data_type": "n", "data": 1}),
    )
    .assert_invalid("to[1]");
    env.call_in(
        "coder",
        "share",
        json!({"to": [], "data_type": "n", "data": 1}),
    )
    .assert_invalid("to");
    env.call_in(
        "coder",
        "share",
        json!({"to": ["a"], "data_type": "", "data": 1}),
    )
    .assert_invalid("data_type");
    env.call_in("coder", "share", json!({"to": ["a"], "data_type": "n"}))
        .assert_invalid("data");
    env.call_in("coder", "query", json!({"to": "a b", "question": "?"}))
        .assert_invalid("to");
    env.call_in(
        "coder",
        "query",
        json!({"to": "a", "question": "?", "timeout_ms": 600_001}),
    )
    .assert_invalid("timeout_ms");
    env.call_in("coder", "query", json!({"to": "a", "question": " "}))
        .assert_invalid("question");
    env.call_in("coder", "inbox", json!({"action": "list", "id": 1}))
        .assert_invalid("id");
    env.call_in("coder", "inbox", json!({"action": "reply", "id": 1}))
        .assert_invalid("text");
    env.call_in("coder", "inbox", json!({"action": "reply", "text": "x"}))
        .assert_invalid("id");
    let huge = "y".repeat(1 << 20);
    let big = env.call_in(
        "coder",
        "share",
        json!({"to": ["a"], "data_type": "n", "data": huge}),
    );
    big.assert_err("too_large");
    assert_eq!(big.json["error"]["field"], "data");
    // A field naming another session never changes the calling one (24.7).
    let s = env.call_in("coder", "session", json!({}));
    assert_eq!(s.data()["session"], "coder");
}

fn plan(specs: Value) -> Value {
    json!({"title": "Parser rewrite", "overview": "Faster parsing.", "specs": specs})
}

fn spec(name: &str, deps: &[&str]) -> Value {
    json!({"name": name, "title": name.to_uppercase(), "description": format!("Build {name}."), "dependencies": deps})
}

fn phases(n: usize) -> Value {
    Value::Array(
        (0..n)
            .map(|i| json!({"name": format!("p{i}"), "title": "T", "description": "D"}))
            .collect(),
    )
}

fn phase(tasks: Value) -> Value {
    json!({"name": "p0", "title": "Lexer", "objective": "Tokens.", "tasks": tasks, "validation_command": "cargo test"})
}

fn artifacts_are_stored_listed_read_back_from_another_session_and_rendered(env: &Env) {
    let out = env.call_in(
        "planner",
        "create_plan",
        plan(json!([spec("lexer", &[]), spec("parser", &["lexer"])])),
    );
    out.assert_ok();
    assert_eq!(out.data()["kind"], "plan");
    assert_eq!(out.data()["name"], "parser-rewrite", "the title as a slug");
    assert_eq!(out.data()["specs"][1]["dependencies"], json!(["lexer"]));
    assert!(
        out.output().contains("2. `parser`: PARSER (after lexer)"),
        "{}",
        out.output()
    );
    env.call_in(
        "planner",
        "create_spec",
        json!({"name": "lexer", "title": "Lexer", "overview": "Tokens.", "phases": phases(3)}),
    )
    .assert_ok();
    let ph = env.call_in(
        "planner",
        "create_phase",
        phase(json!([{"description": "Write it", "file": "./src/../src/lexer.rs", "action": "create"}])),
    );
    ph.assert_ok();
    assert_eq!(
        ph.data()["tasks"][0]["file"],
        "src/lexer.rs",
        "stored relative to the root"
    );
    assert!(
        ph.output().contains("[create `src/lexer.rs`] Write it"),
        "{}",
        ph.output()
    );
    assert!(
        ph.output().contains("Validation: `cargo test`"),
        "{}",
        ph.output()
    );
    // session show lists them.
    let show = env.call_in("planner", "session", json!({}));
    assert_eq!(
        show.data()["artifacts"],
        json!({"plan": ["parser-rewrite"], "spec": ["lexer"], "phase": ["p0"]})
    );
    // Another session reads them, and stays itself.
    let list = env.call_in(
        "coder",
        "artifact",
        json!({"kind": "spec", "session": "planner"}),
    );
    assert_eq!(list.data()["names"], json!(["lexer"]));
    let got = env.call_in(
        "coder",
        "artifact",
        json!({"kind": "plan", "name": "parser-rewrite", "session": "planner"}),
    );
    got.assert_ok();
    assert_eq!(got.data(), out.data(), "data is the artifact as stored");
    // From a terminal, --session is the global option wherever it stands: the planner's own.
    let text = env.run(
        &[
            "--format",
            "text",
            "artifact",
            "plan",
            "parser-rewrite",
            "--session",
            "planner",
        ],
        "",
    );
    assert!(
        text.stdout
            .starts_with("# Plan `parser-rewrite`: Parser rewrite\n"),
        "{}",
        text.stdout
    );
    assert_eq!(
        env.call_in("coder", "artifact", json!({"kind": "plan"}))
            .data()["names"],
        json!([])
    );
    let missing = env.call_in(
        "coder",
        "artifact",
        json!({"kind": "plan", "name": "nope", "session": "planner"}),
    );
    missing.assert_err("not_found");
    assert!(
        missing.output().contains("parser-rewrite"),
        "{}",
        missing.output()
    );
    env.call_in(
        "coder",
        "artifact",
        json!({"kind": "plan", "session": "../planner"}),
    )
    .assert_invalid("session");
    env.call_in("coder", "artifact", json!({"kind": "plans"}))
        .assert_invalid("kind");
    // Re-creating needs replace.
    let again = env.call_in("planner", "create_plan", plan(json!([spec("lexer", &[])])));
    again.assert_invalid("name");
    let mut replace = plan(json!([spec("lexer", &[])]));
    replace["replace"] = json!(true);
    let replaced = env.call_in("planner", "create_plan", replace);
    replaced.assert_ok();
    assert!(replaced.output().starts_with("Replaced plan"));
}

/// Every check beyond the schema, each naming the JSON path at fault; and nothing is stored.
fn artifact_checks_name_the_json_path(env: &Env) {
    env.write_file("src/a.rs", "");
    let cases: Vec<(&str, Value, &str)> = vec![
        // unique slugs
        (
            "create_plan",
            plan(json!([spec("a", &[]), spec("a", &[])])),
            "specs[1].name",
        ),
        (
            "create_plan",
            plan(json!([spec("A b", &[])])),
            "specs[0].name",
        ),
        (
            "create_plan",
            plan(json!([spec("-a", &[])])),
            "specs[0].name",
        ),
        (
            "create_plan",
            {
                let mut p = plan(json!([spec("a", &[])]));
                p["name"] = json!("Not_A_Slug");
                p
            },
            "name",
        ),
        (
            "create_plan",
            json!({"title": "!!!", "overview": "o", "specs": [spec("a", &[])]}),
            "title",
        ),
        // dependencies that exist, once, and no cycle
        (
            "create_plan",
            plan(json!([spec("a", &[]), spec("b", &["a", "zz"])])),
            "specs[1].dependencies[1]",
        ),
        (
            "create_plan",
            plan(json!([spec("a", &[]), spec("b", &["a", "a"])])),
            "specs[1].dependencies[1]",
        ),
        (
            "create_plan",
            plan(json!([
                spec("a", &["c"]),
                spec("b", &["a"]),
                spec("c", &["b"])
            ])),
            "specs[1].dependencies[0]",
        ),
        (
            "create_plan",
            plan(json!([spec("a", &["a"])])),
            "specs[0].dependencies[0]",
        ),
        // schema violations, nested ones named by path
        ("create_plan", plan(json!([])), "specs"),
        (
            "create_plan",
            plan(json!([{"name": "a", "title": "A"}])),
            "specs[0].description",
        ),
        (
            "create_plan",
            plan(json!([{"name": "a", "title": "A", "description": "d", "owner": "me"}])),
            "specs[0].owner",
        ),
        (
            "create_plan",
            plan(json!([{"name": "a", "title": "", "description": "d"}])),
            "specs[0].title",
        ),
        (
            "create_plan",
            json!({"title": "T", "specs": [spec("a", &[])]}),
            "overview",
        ),
        (
            "create_spec",
            json!({"name": "s", "title": "S", "overview": "o", "phases": phases(2)}),
            "phases",
        ),
        (
            "create_spec",
            json!({"name": "s", "title": "S", "overview": "o", "phases": phases(8)}),
            "phases",
        ),
        (
            "create_spec",
            json!({"name": "s", "title": "S", "overview": "o", "phases": [
            {"name": "x", "title": "T", "description": "D"},
            {"name": "y", "title": "T", "description": "D"},
            {"name": "x", "title": "T", "description": "D"}]}),
            "phases[2].name",
        ),
        (
            "create_spec",
            json!({"name": "S", "title": "S", "overview": "o", "phases": phases(3)}),
            "name",
        ),
        (
            "create_spec",
            json!({"name": "s", "title": "S", "overview": "o", "phases": [
            {"name": "x", "title": "T", "description": "D", "validation": 1},
            {"name": "y", "title": "T", "description": "D"},
            {"name": "z", "title": "T", "description": "D"}]}),
            "phases[0].validation",
        ),
        // files inside the root
        (
            "create_phase",
            phase(
                json!([{"description": "d", "file": "src/a.rs"}, {"description": "d", "file": "../out.rs"}]),
            ),
            "tasks[1].file",
        ),
        (
            "create_phase",
            phase(json!([{"description": "d", "file": "/etc/passwd"}])),
            "tasks[0].file",
        ),
        (
            "create_phase",
            phase(json!([{"description": "d", "action": "delete"}])),
            "tasks[0].action",
        ),
        (
            "create_phase",
            phase(json!([{"description": "d", "file": "a", "action": "rename"}])),
            "tasks[0].action",
        ),
        ("create_phase", phase(json!([])), "tasks"),
        (
            "create_phase",
            {
                let mut p = phase(json!([{"description": "d"}]));
                p["validation_command"] = json!("  ");
                p
            },
            "validation_command",
        ),
    ];
    for (tool, input, field) in cases {
        let out = env.call_in("planner", tool, input.clone());
        assert_eq!(
            out.code(),
            "invalid_input",
            "{tool} {input}: {}",
            out.stdout
        );
        assert_eq!(
            out.json["error"]["field"], field,
            "{tool} {input}: {}",
            out.stdout
        );
        assert_eq!(out.status, 2);
    }
    // The cycle is spelled out.
    let out = env.call_in(
        "planner",
        "create_plan",
        plan(json!([
            spec("a", &["c"]),
            spec("b", &["a"]),
            spec("c", &["b"])
        ])),
    );
    assert_eq!(out.json["error"]["cycle"], json!(["a", "c", "b", "a"]));
    assert!(out.output().contains("a → c → b → a"), "{}", out.output());
    // A path into the state dir (outside the root here) is refused too, and named.
    let state_file = env.session_dir("planner").join("todos.json");
    let out = env.call_in(
        "planner",
        "create_phase",
        phase(json!([{"description": "d", "file": state_file.to_str().unwrap()}])),
    );
    out.assert_invalid("tasks[0].file");
    // Nothing failed stored anything.
    let show = env.call_in("planner", "session", json!({}));
    assert_eq!(
        show.data()["artifacts"],
        json!({"plan": [], "spec": [], "phase": []})
    );
}

/// examples/loops.sh: a planner hands over a plan and a spec, a coder asks it a question and gets
/// the answer, then completes; all through `batch` and `call`.
fn the_loops_example_runs_end_to_end(env: &Env) {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/loops.sh");
    let out = std::process::Command::new("bash")
        .arg(&script)
        .current_dir(&env.root)
        .env("LOOPR_TOOL", testkit::bin())
        .env("LOOPR_STATE_DIR", &env.state)
        .env("LOOPR_ROOT", &env.root)
        .env("HOME", env.dir.path())
        .env_remove("LOOPR_SESSION")
        .env_remove("LOOPR_HUB")
        .envs(env.vars.iter().map(|(k, v)| (k, v)))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("2. `parser`: Parser (after lexer)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("query from coder"),
        "the planner saw the question: {stdout}"
    );
    assert!(
        stdout.contains("== coder: the answer\nBoth: .5 is accepted and means 0.5.\n"),
        "{stdout}"
    );
    // What a harness checks afterwards, from its own process.
    let coder = env.call_in("coder", "session", json!({}));
    assert_eq!(
        coder.data()["completed"]["summary"],
        "Lexer written per the planner's spec; .5 accepted."
    );
    let planner = env.call_in("planner", "session", json!({}));
    assert_eq!(
        planner.data()["artifacts"],
        json!({"plan": ["calculator"], "spec": ["lexer"], "phase": []})
    );
    assert_eq!(planner.data()["completed"], Value::Null);
}

/// A waiting query sleeps (SPEC 24.7: never a busy loop), on inotify and in the polling
/// fallback alike: over a 1.5 s wait it uses a small fraction of that in CPU time.
fn a_waiting_query_uses_almost_no_cpu(env: &Env) {
    for fallback in ["0", "1"] {
        let child = env.spawn(
            &["--session", "coder", "query"],
            &[("LOOPR_DEBUG_NO_INOTIFY", std::path::Path::new(fallback))],
            &json!({"to": "planner", "question": "?", "timeout_ms": 1500}).to_string(),
        );
        let pid = child.id() as libc::pid_t;
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: our own child, waited for once; `child` is not waited on after this.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        assert_eq!(r, pid);
        let cpu = Duration::from_micros(
            (usage.ru_utime.tv_sec * 1_000_000 + usage.ru_utime.tv_usec) as u64
                + (usage.ru_stime.tv_sec * 1_000_000 + usage.ru_stime.tv_usec) as u64,
        );
        assert!(
            cpu < Duration::from_millis(150),
            "fallback={fallback}: {cpu:?} of CPU over a 1.5 s wait"
        );
        drop(child); // closes its pipes; Drop never waits, and wait4 reaped it
    }
}

/// SPEC 31.4: `inbox` output is paged, at most 1 MiB of messages a call: `list` leaves the rest
/// unread for the next call, `all` gives them with `offset`. (100 messages of 100 KB were 10 MB
/// in one answer.)
fn an_inbox_call_shows_at_most_a_mebibyte_of_messages_and_says_how_to_get_the_rest(env: &Env) {
    let big = "x".repeat(300_000);
    let calls: Vec<Value> = (0..7)
        .map(|i| json!({"name": "share", "input": {"to": ["reader"], "data_type": format!("n{i}"), "data": big}}))
        .collect();
    let out = env.run(
        &["--session", "w", "batch"],
        &Value::Array(calls).to_string(),
    );
    assert_eq!(out.status, 0, "{}", out.stdout);
    // all: three of 300 KB fit a page; offset pages on, marking nothing.
    let mut seen = vec![];
    let mut offset = 0;
    loop {
        let out = env.call_in(
            "reader",
            "inbox",
            json!({"action": "all", "offset": offset}),
        );
        out.assert_ok();
        assert!(
            out.stdout.len() < 2 * (1 << 20) + 100_000,
            "{} bytes",
            out.stdout.len()
        );
        let msgs = out.data()["messages"].as_array().unwrap();
        assert!(!msgs.is_empty() && msgs.len() <= 3, "{}", msgs.len());
        seen.extend(msgs.iter().map(|m| m["id"].as_u64().unwrap()));
        match out.data().get("next_offset") {
            Some(n) => {
                assert!(
                    out.output().contains(&format!("offset {n}")),
                    "{}",
                    out.output()
                );
                offset = n.as_u64().unwrap() as usize;
            }
            None => break,
        }
    }
    assert_eq!(seen, (1..=7).collect::<Vec<u64>>());
    // list: a page at a time, the rest stays unread until the next call.
    let mut unread = vec![];
    for _ in 0..3 {
        let out = env.call_in("reader", "inbox", json!({}));
        out.assert_ok();
        unread.extend(
            out.data()["messages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["id"].as_u64().unwrap()),
        );
    }
    assert_eq!(unread, (1..=7).collect::<Vec<u64>>());
    env.call_in("reader", "inbox", json!({"offset": 1}))
        .assert_invalid("offset");
}
