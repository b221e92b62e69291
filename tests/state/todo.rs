//! `todo` end to end (SPEC §12, 16.8): every action and error through the binary, sessions,
//! concurrency under the state lock, and a lock holder killed by SIGKILL.

use insta::assert_json_snapshot;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use testkit::{Env, LockHolder, Out, bin, finish, redact};

fn todo(env: &Env, input: Value) -> Out {
    env.call("todo", input)
}

/// Adds items with one call and returns the envelope.
fn add(env: &Env, items: &[&str]) -> Out {
    let out = todo(env, json!({"action": "add", "items": items}));
    out.assert_ok();
    out
}

fn ids(out: &Out) -> Vec<u64> {
    out.data()["todos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_u64().unwrap())
        .collect()
}

/// The todo file's bytes: what "unchanged" means for a failed call.
fn state_bytes(env: &Env) -> Vec<u8> {
    std::fs::read(env.session_dir("default").join("todos.json")).unwrap()
}

#[test]
fn empty_list_in_every_form() {
    let env = Env::new();
    for out in [
        env.run(&["todo"], ""),
        env.run(&["todo", "list"], ""),
        todo(&env, json!({})),
        todo(&env, json!({"action": "list"})),
    ] {
        out.assert_ok();
        assert_eq!(out.output(), "No todos\n");
        assert_eq!(out.data()["todos"], json!([]));
        assert_eq!(
            out.data()["counts"],
            json!({"pending": 0, "in_progress": 0, "completed": 0})
        );
    }
}

#[test]
fn spec_example_renders_exactly() {
    let env = Env::new();
    let out = todo(&env, json!({"action": "add", "content": "Read the config"}));
    out.assert_ok();
    assert_eq!(out.data()["added"], json!([1]));
    let out = add(&env, &["Fix the parser", "Run tests"]);
    assert_eq!(out.data()["added"], json!([2, 3]));
    todo(
        &env,
        json!({"action": "start", "id": 2, "active_form": "Fixing the parser"}),
    )
    .assert_ok();
    let out = todo(&env, json!({"action": "complete", "id": 1}));
    out.assert_ok();
    assert_eq!(
        out.output(),
        "[x] 1. Read the config\n[>] 2. Fix the parser (Fixing the parser)\n[ ] 3. Run tests\n1/3 completed\n"
    );
    assert_eq!(
        out.data()["counts"],
        json!({"pending": 1, "in_progress": 1, "completed": 1})
    );
    let t = &out.data()["todos"][0];
    let created = t["created_at"].as_str().unwrap();
    assert!(created.len() == 24 && created.ends_with('Z') && &created[10..11] == "T");
    assert_json_snapshot!("spec_example", redact(&out.json, &env));
    // list shows the same thing; text format prints output alone.
    let text = env.run(&["--format", "text", "todo"], "");
    assert_eq!(text.stdout, out.output());
}

#[test]
fn active_form_only_on_in_progress_lines_and_alias_accepted() {
    let env = Env::new();
    let out = todo(
        &env,
        json!({"action": "write", "todos": [
            {"content": "Read", "status": "completed", "activeForm": "Reading"},
            {"content": "Fix", "status": "in_progress", "activeForm": "Fixing"},
            {"content": "Test", "status": "pending", "active_form": "Testing"},
            {"content": "Ship", "status": "pending"},
        ]}),
    );
    out.assert_ok();
    assert_eq!(
        out.output(),
        "[x] 1. Read\n[>] 2. Fix (Fixing)\n[ ] 3. Test\n[ ] 4. Ship\n1/4 completed\n"
    );
    let todos = &out.data()["todos"];
    assert_eq!(todos[0]["active_form"], "Reading");
    assert_eq!(todos[2]["active_form"], "Testing");
    assert!(todos[3].get("active_form").is_none());
    // An in-progress item without an active form shows no parentheses.
    todo(&env, json!({"action": "complete", "id": 2})).assert_ok();
    let out = todo(&env, json!({"action": "start", "id": 4}));
    out.assert_ok();
    assert!(out.output().contains("[>] 4. Ship\n"), "{}", out.output());
    // The top-level alias too.
    let out = todo(
        &env,
        json!({"action": "update", "id": 4, "activeForm": "Shipping"}),
    );
    out.assert_ok();
    assert!(out.output().contains("[>] 4. Ship (Shipping)\n"));
}

#[test]
fn update_changes_fields_and_times() {
    let env = Env::new();
    add(&env, &["Old text"]);
    std::thread::sleep(Duration::from_millis(5));
    let out = todo(
        &env,
        json!({"action": "update", "id": 1, "content": "New text", "status": "in_progress", "active_form": "Doing it"}),
    );
    out.assert_ok();
    let t = &out.data()["todos"][0];
    assert_eq!(t["content"], "New text");
    assert_eq!(t["status"], "in_progress");
    assert_ne!(t["created_at"], t["updated_at"]);
    assert_eq!(out.output(), "[>] 1. New text (Doing it)\n0/1 completed\n");
    // An empty active form clears it.
    let out = todo(
        &env,
        json!({"action": "update", "id": 1, "active_form": ""}),
    );
    out.assert_ok();
    assert!(out.data()["todos"][0].get("active_form").is_none());
    let out = todo(
        &env,
        json!({"action": "update", "id": 1, "status": "completed"}),
    );
    out.assert_ok();
    assert_eq!(out.output(), "[x] 1. New text\n1/1 completed\n");
}

#[test]
fn start_and_complete_are_idempotent() {
    let env = Env::new();
    add(&env, &["a", "b"]);
    todo(&env, json!({"action": "start", "id": 1})).assert_ok();
    let before = state_bytes(&env);
    // Starting the item already in progress is not a second one.
    todo(&env, json!({"action": "start", "id": 1})).assert_ok();
    assert_eq!(
        state_bytes(&env),
        before,
        "a no-op leaves the file as it was"
    );
    todo(&env, json!({"action": "complete", "id": 1})).assert_ok();
    let out = todo(&env, json!({"action": "complete", "id": 1}));
    out.assert_ok();
    assert_eq!(out.output(), "[x] 1. a\n[ ] 2. b\n1/2 completed\n");
    // A completed item may be started again.
    let out = todo(&env, json!({"action": "start", "id": 1}));
    out.assert_ok();
    assert_eq!(out.data()["todos"][0]["status"], "in_progress");
}

#[test]
fn ids_are_never_reused() {
    let env = Env::new();
    add(&env, &["a", "b", "c"]);
    let out = todo(&env, json!({"action": "remove", "id": 3}));
    out.assert_ok();
    assert_eq!(ids(&out), vec![1, 2]);
    assert_eq!(out.output(), "[ ] 1. a\n[ ] 2. b\n0/2 completed\n");
    assert_eq!(add(&env, &["d"]).data()["added"], json!([4]));
    let out = todo(&env, json!({"action": "clear"}));
    out.assert_ok();
    assert_eq!(out.output(), "No todos\n");
    assert_eq!(add(&env, &["e"]).data()["added"], json!([5]));
    // A removed id is not found afterwards, and the message says why.
    let out = todo(&env, json!({"action": "complete", "id": 3}));
    out.assert_err("not_found");
    assert!(out.output().contains("removed"), "{}", out.output());
}

#[test]
fn todowrite_round_trip_keeps_ids_of_same_content() {
    let env = Env::new();
    let first = todo(
        &env,
        json!({"action": "write", "todos": [
            {"content": "a", "status": "pending"},
            {"content": "b", "status": "pending"},
            {"content": "c", "status": "pending"},
        ]}),
    );
    first.assert_ok();
    assert_eq!(ids(&first), vec![1, 2, 3]);
    let a_created = first.data()["todos"][0]["created_at"].clone();
    std::thread::sleep(Duration::from_millis(5));
    let out = todo(
        &env,
        json!({"action": "write", "todos": [
            {"content": "c", "status": "completed"},
            {"content": "d", "status": "in_progress", "activeForm": "Doing d"},
            {"content": "a", "status": "pending"},
        ]}),
    );
    out.assert_ok();
    assert_eq!(
        out.output(),
        "[ ] 1. a\n[x] 3. c\n[>] 4. d (Doing d)\n1/3 completed\n"
    );
    let todos = &out.data()["todos"];
    assert_eq!(todos[0]["created_at"], a_created, "a kept its item");
    assert_eq!(todos[0]["updated_at"], a_created, "a did not change");
    assert_ne!(todos[1]["updated_at"], todos[1]["created_at"], "c changed");
    // Writing the same list again changes nothing.
    let before = state_bytes(&env);
    let again = todo(
        &env,
        json!({"action": "write", "todos": [
            {"content": "a", "status": "pending"},
            {"content": "c", "status": "completed"},
            {"content": "d", "status": "in_progress", "active_form": "Doing d"},
        ]}),
    );
    again.assert_ok();
    assert_eq!(again.data()["todos"], out.data()["todos"]);
    assert_eq!(state_bytes(&env), before);
    // Duplicates: the second copy gets a fresh id; an empty write empties the list.
    let out = todo(
        &env,
        json!({"action": "write", "todos": [
            {"content": "a", "status": "pending"}, {"content": "a", "status": "pending"}]}),
    );
    assert_eq!(ids(&out), vec![1, 5]);
    let out = todo(&env, json!({"action": "write", "todos": []}));
    out.assert_ok();
    assert_eq!(out.output(), "No todos\n");
}

#[test]
fn todowrite_item_id_and_priority_are_accepted_with_a_warning() {
    let env = Env::new();
    let out = todo(
        &env,
        json!({"action": "write", "todos": [
            {"content": "a", "status": "pending", "id": "x1", "priority": "high"},
            {"content": "b", "status": "pending"},
        ]}),
    );
    out.assert_ok();
    let warnings = out.data()["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1);
    let w = warnings[0].as_str().unwrap();
    assert!(w.contains("todos[0]") && w.contains("ignored"), "{w}");
    assert!(out.output().contains(&format!("Warning: {w}\n")));
    assert_eq!(ids(&out), vec![1, 2], "their id is not ours");
    // Any other item field is still refused.
    let out = todo(
        &env,
        json!({"action": "write", "todos": [{"content": "a", "status": "pending", "owner": "me"}]}),
    );
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "todos[0].owner");
}

#[test]
fn a_second_in_progress_is_refused_naming_the_first() {
    let env = Env::new();
    add(&env, &["Fix the parser", "Run tests"]);
    todo(&env, json!({"action": "start", "id": 1})).assert_ok();
    let before = state_bytes(&env);
    let out = todo(&env, json!({"action": "start", "id": 2}));
    out.assert_err("invalid_input");
    assert!(
        out.output().contains("item 1") && out.output().contains("Fix the parser"),
        "{}",
        out.output()
    );
    assert_eq!(out.json["error"]["in_progress_id"], 1);
    assert_eq!(out.json["error"]["field"], "id");
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("complete")
    );
    assert_json_snapshot!("second_in_progress", redact(&out.json, &env));
    let out = todo(
        &env,
        json!({"action": "update", "id": 2, "status": "in_progress"}),
    );
    out.assert_err("invalid_input");
    assert!(out.output().contains("item 1"));
    assert_eq!(out.json["error"]["field"], "status");
    assert_eq!(state_bytes(&env), before);
    // Once the first is done, the second may start.
    todo(&env, json!({"action": "complete", "id": 1})).assert_ok();
    todo(&env, json!({"action": "start", "id": 2})).assert_ok();
}

#[test]
fn write_with_two_in_progress_is_invalid() {
    let env = Env::new();
    add(&env, &["keep me"]);
    let before = state_bytes(&env);
    let out = todo(
        &env,
        json!({"action": "write", "todos": [
            {"content": "a", "status": "in_progress"},
            {"content": "b", "status": "pending"},
            {"content": "c", "status": "in_progress"},
        ]}),
    );
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "todos[2].status");
    assert!(out.output().contains("\"a\"") && out.output().contains("\"c\""));
    assert_eq!(state_bytes(&env), before);
}

#[test]
fn unknown_id_is_not_found_with_the_id() {
    let env = Env::new();
    add(&env, &["a", "b"]);
    let before = state_bytes(&env);
    for input in [
        json!({"action": "start", "id": 99}),
        json!({"action": "complete", "id": 99}),
        json!({"action": "complete", "task": 99}),
        json!({"action": "update", "id": 99, "content": "x"}),
        json!({"action": "remove", "id": 99}),
    ] {
        let out = todo(&env, input.clone());
        out.assert_err("not_found");
        assert_eq!(out.json["error"]["id"], 99, "{input}");
        assert!(
            out.output().contains("the ids are 1, 2"),
            "{}",
            out.output()
        );
        assert!(
            out.json["error"]["hint"]
                .as_str()
                .unwrap()
                .contains("todo list")
        );
    }
    assert_eq!(state_bytes(&env), before);
    let out = env.run(&["todo", "complete", "--id", "7"], "");
    out.assert_err("not_found");
    assert_json_snapshot!("not_found", redact(&out.json, &env));
}

#[test]
fn a_field_the_action_does_not_use_is_invalid_and_named() {
    let env = Env::new();
    add(&env, &["a"]);
    let before = state_bytes(&env);
    for (input, field) in [
        (json!({"content": "x"}), "content"),
        (json!({"action": "list", "todos": []}), "todos"),
        (json!({"action": "add", "content": "x", "id": 1}), "id"),
        (
            json!({"action": "start", "id": 1, "content": "x"}),
            "content",
        ),
        (
            json!({"action": "complete", "id": 1, "status": "completed"}),
            "status",
        ),
        (json!({"action": "remove", "id": 1, "task": "1"}), "task"),
        (json!({"action": "clear", "id": 1}), "id"),
        (
            json!({"action": "write", "todos": [], "content": "x"}),
            "content",
        ),
        (
            json!({"action": "update", "id": 1, "items": ["x"]}),
            "items",
        ),
    ] {
        let out = todo(&env, input.clone());
        out.assert_err("invalid_input");
        assert_eq!(out.json["error"]["field"], field, "{input}");
        assert!(
            out.output().contains(&format!("`{field}`")),
            "{}",
            out.output()
        );
        assert!(out.json["error"]["hint"].as_str().is_some());
    }
    assert_eq!(state_bytes(&env), before);
    let out = todo(&env, json!({"content": "x"}));
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("add, update"),
        "the hint names the actions that take the field: {}",
        out.stdout
    );
}

#[test]
fn missing_empty_and_bad_values_are_invalid_and_named() {
    let env = Env::new();
    add(&env, &["a"]);
    let before = state_bytes(&env);
    for (input, field) in [
        (json!({"action": "add"}), "content"),
        (json!({"action": "add", "content": ""}), "content"),
        (json!({"action": "add", "content": "  \n"}), "content"),
        (json!({"action": "add", "items": []}), "items"),
        (json!({"action": "add", "items": ["ok", ""]}), "items[1]"),
        (
            json!({"action": "add", "content": "x", "items": ["y"]}),
            "items",
        ),
        (json!({"action": "add", "task": ""}), "task"),
        (json!({"action": "start"}), "id"),
        (json!({"action": "complete"}), "id"),
        (json!({"action": "complete", "id": 1, "task": 1}), "task"),
        (json!({"action": "complete", "task": "abc"}), "task"),
        (json!({"action": "remove"}), "id"),
        (json!({"action": "update", "id": 1}), "status"),
        (json!({"action": "update", "status": "completed"}), "id"),
        (
            json!({"action": "update", "id": 1, "content": ""}),
            "content",
        ),
        (
            json!({"action": "update", "id": 1, "status": "done"}),
            "status",
        ),
        (json!({"action": "write"}), "todos"),
        (
            json!({"action": "write", "todos": [{"content": "", "status": "pending"}]}),
            "todos[0].content",
        ),
        (
            json!({"action": "write", "todos": [{"content": "x"}]}),
            "todos[0].status",
        ),
        (json!({"action": "remove", "id": 0}), "id"),
        (json!({"action": "remove", "id": -1}), "id"),
        (json!({"action": "remove", "id": "1"}), "id"),
        (json!({"action": "finish"}), "action"),
        (json!({"action": "list", "bogus": 1}), "bogus"),
    ] {
        let out = todo(&env, input.clone());
        out.assert_err("invalid_input");
        assert_eq!(out.json["error"]["field"], field, "{input}: {}", out.stdout);
    }
    assert_eq!(state_bytes(&env), before);
}

#[test]
fn task_is_the_content_for_add_and_the_id_for_complete() {
    let env = Env::new();
    let out = todo(&env, json!({"action": "add", "task": "Write docs"}));
    out.assert_ok();
    assert_eq!(out.data()["todos"][0]["content"], "Write docs");
    add(&env, &["b", "c"]);
    todo(&env, json!({"action": "complete", "task": 1})).assert_ok();
    todo(&env, json!({"action": "complete", "task": "2"})).assert_ok();
    let out = env.run(&["todo", "complete", "--task", "3"], "");
    out.assert_ok();
    assert_eq!(
        out.output(),
        "[x] 1. Write docs\n[x] 2. b\n[x] 3. c\n3/3 completed\n"
    );
    let out = env.run(&["todo", "add", "--task", "From the CLI"], "");
    out.assert_ok();
    assert_eq!(out.data()["added"], json!([4]));
}

#[test]
fn command_line_forms() {
    let env = Env::new();
    let out = env.run(&["todo", "add", "--content", "x"], "");
    out.assert_ok();
    assert_eq!(out.output(), "[ ] 1. x\n0/1 completed\n");
    let out = env.run(&["todo", "add", "--items", "y", "--items", "z"], "");
    assert_eq!(out.data()["added"], json!([2, 3]));
    let out = env.run(&["todo", "add", "--items", r#"["p", "q"]"#], "");
    assert_eq!(out.data()["added"], json!([4, 5]));
    env.run(
        &["todo", "start", "--id", "2", "--active-form", "Doing y"],
        "",
    )
    .assert_ok();
    env.run(&["todo", "complete", "--id", "2"], "").assert_ok();
    env.run(
        &["todo", "update", "--id", "3", "--status", "in_progress"],
        "",
    )
    .assert_ok();
    env.run(&["todo", "remove", "--id", "5"], "").assert_ok();
    let args = [
        "todo",
        "write",
        "--todos",
        r#"[{"content":"x","status":"completed"}]"#,
    ];
    let out = env.run(&args, "");
    out.assert_ok();
    assert_eq!(out.output(), "[x] 1. x\n1/1 completed\n");
    // Flags win: stdin is not read when a field is on the command line.
    let out = env.run(&["todo", "list"], "{\"action\": \"clear\"}");
    assert_eq!(out.output(), "[x] 1. x\n1/1 completed\n");
    let out = env.run(&["todo", "complete", "--id", "two"], "");
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "id");
    env.run(&["todo", "clear"], "").assert_ok();
    assert_eq!(env.run(&["todo"], "").output(), "No todos\n");
}

#[test]
fn a_failed_action_leaves_the_list_exactly_as_it_was() {
    let env = Env::new();
    let out = todo(
        &env,
        json!({"action": "write", "todos": [
            {"content": "a", "status": "completed"},
            {"content": "b", "status": "in_progress", "active_form": "Bee"},
            {"content": "c", "status": "pending"},
        ]}),
    );
    out.assert_ok();
    let file = state_bytes(&env);
    let listed = todo(&env, json!({})).json;
    // Each of these fails at a different stage: parsing, validation, lookup, the
    // in-progress rule — after earlier parts of the same call were already valid.
    for input in [
        json!({"action": "write", "todos": [{"content": "z", "status": "pending"}, {"content": "y"}]}),
        json!({"action": "write", "todos": [{"content": "z", "status": "pending"}, {"content": " ", "status": "pending"}]}),
        json!({"action": "add", "items": ["new", ""]}),
        json!({"action": "update", "id": 3, "content": "changed", "status": "in_progress"}),
        json!({"action": "update", "id": 42, "status": "completed"}),
        json!({"action": "start", "id": 3, "active_form": "Seeing"}),
        json!({"action": "clear", "id": 1}),
    ] {
        let out = todo(&env, input.clone());
        assert!(!out.ok(), "{input} should fail");
        assert_eq!(state_bytes(&env), file, "{input} changed the file");
    }
    assert_eq!(todo(&env, json!({})).json, listed);
}

#[test]
fn sessions_are_isolated() {
    let env = Env::new();
    add(&env, &["default's"]);
    let out = env.call_in("s2", "todo", json!({"action": "add", "content": "s2's"}));
    out.assert_ok();
    assert_eq!(out.data()["added"], json!([1]), "ids are per session");
    assert_eq!(out.output(), "[ ] 1. s2's\n0/1 completed\n");
    let out = env.call_in("s2", "todo", json!({"action": "clear"}));
    out.assert_ok();
    assert_eq!(
        todo(&env, json!({})).output(),
        "[ ] 1. default's\n0/1 completed\n"
    );
    assert_eq!(env.call_in("s2", "todo", json!({})).output(), "No todos\n");
    let out = env.call_in("s3", "todo", json!({"action": "complete", "id": 1}));
    out.assert_err("not_found");
}

#[test]
fn session_show_counts_the_todos_and_reset_drops_them() {
    let env = Env::new();
    add(&env, &["a", "b", "c", "d"]);
    todo(&env, json!({"action": "start", "id": 2})).assert_ok();
    todo(&env, json!({"action": "complete", "id": 3})).assert_ok();
    let out = env.run(&["session"], "");
    out.assert_ok();
    assert_eq!(
        out.data()["todos"],
        json!({"pending": 2, "in_progress": 1, "completed": 1})
    );
    env.call("session", json!({"action": "reset"})).assert_ok();
    assert_eq!(todo(&env, json!({})).output(), "No todos\n");
}

#[test]
fn multi_line_content_stays_on_one_line_of_output() {
    let env = Env::new();
    let out = todo(
        &env,
        json!({"action": "add", "content": "first\nsecond\r\nthird"}),
    );
    out.assert_ok();
    assert_eq!(out.output(), "[ ] 1. first second  third\n0/1 completed\n");
    assert_eq!(out.data()["todos"][0]["content"], "first\nsecond\r\nthird");
}

#[test]
fn output_is_capped_with_a_trailer_and_data_holds_everything() {
    let env = Env::new();
    let long = "x".repeat(200);
    let items: Vec<String> = (0..300).map(|i| format!("{i} {long}")).collect();
    let out = todo(&env, json!({"action": "add", "items": items}));
    out.assert_ok();
    let output = out.output();
    assert!(
        output.chars().count() <= 30_000,
        "{}",
        output.chars().count()
    );
    let last = output.lines().last().unwrap();
    assert!(
        last.starts_with("0/300 completed (") && last.contains("more items not shown"),
        "{last}"
    );
    let shown = output.lines().filter(|l| l.starts_with("[ ] ")).count();
    assert!(shown > 100 && shown < 300, "{shown}");
    assert!(last.contains(&format!("{} more", 300 - shown)), "{last}");
    assert_eq!(out.data()["truncated"], true);
    assert_eq!(out.data()["todos"].as_array().unwrap().len(), 300);
    let small = todo(&env, json!({"action": "clear"}));
    assert_eq!(small.data()["truncated"], false);
}

#[test]
fn a_corrupt_todo_file_is_moved_aside_with_a_warning() {
    let env = Env::new();
    add(&env, &["a"]);
    let dir = env.session_dir("default");
    std::fs::write(dir.join("todos.json"), b"{\"items\": [trunc").unwrap();
    let out = todo(&env, json!({}));
    out.assert_ok();
    assert_eq!(out.output().lines().next(), Some("No todos"));
    assert!(
        out.data()["warnings"][0]
            .as_str()
            .unwrap()
            .contains("corrupt")
    );
    let aside = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("todos.json.corrupt-")
        })
        .count();
    assert_eq!(aside, 1);
    todo(&env, json!({"action": "add", "content": "b"})).assert_ok();
}

#[test]
fn fifty_concurrent_adds_give_fifty_items_with_distinct_ids() {
    let env = Env::new();
    let children: Vec<Child> = (0..50)
        .map(|i| {
            Command::new(bin())
                .args(["todo", "add", "--content", &format!("item {i}")])
                .current_dir(&env.root)
                .env("LOOPR_STATE_DIR", &env.state)
                .env("HOME", env.dir.path())
                .env_remove("LOOPR_SESSION")
                .env_remove("LOOPR_LOCK_TIMEOUT_MS")
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut added = BTreeSet::new();
    for child in children {
        let o = child.wait_with_output().unwrap();
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["ok"], true, "{v}");
        added.insert(v["data"]["added"][0].as_u64().unwrap());
    }
    assert_eq!(added.len(), 50, "each process got its own id");
    let out = todo(&env, json!({}));
    let listed: BTreeSet<u64> = ids(&out).into_iter().collect();
    assert_eq!(listed.len(), 50);
    assert_eq!(listed, added);
    assert_eq!(listed, (1..=50).collect::<BTreeSet<u64>>());
    let contents: BTreeSet<String> = out.data()["todos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["content"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(contents, (0..50).map(|i| format!("item {i}")).collect());
}

#[test]
fn a_held_lock_times_out_and_a_killed_holder_blocks_no_one() {
    let env = Env::new();
    add(&env, &["before"]);
    let lock = env.session_dir("default").join("lock");
    let mut holder = LockHolder::hold(&lock);

    let mut c = env.cmd();
    c.env("LOOPR_LOCK_TIMEOUT_MS", "300")
        .args(["todo", "add", "--content", "while locked"]);
    let start = Instant::now();
    let out = finish(c);
    let waited = start.elapsed();
    out.assert_err("lock_timeout");
    assert!(waited >= Duration::from_millis(300), "{waited:?}");
    assert!(out.json["error"]["hint"].as_str().is_some());

    holder.kill();
    assert!(
        lock.exists(),
        "the lock file stays; it is the OS lock that matters"
    );
    let start = Instant::now();
    let out = todo(&env, json!({"action": "add", "content": "after"}));
    out.assert_ok();
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(out.output(), "[ ] 1. before\n[ ] 2. after\n0/2 completed\n");
}

/// SPEC 23.8: the list holds at most 1,000 items; a change past that is `too_large` and leaves
/// the list as it was.
#[test]
fn the_list_is_capped_at_1000_items() {
    let env = Env::new();
    let items: Vec<String> = (0..1000).map(|i| format!("item {i}")).collect();
    env.call("todo", json!({"action": "add", "items": items}))
        .assert_ok();
    let out = env.call("todo", json!({"action": "add", "content": "one more"}));
    out.assert_err("too_large");
    assert_eq!(out.json["error"]["limit"], 1000);
    let todos: Vec<Value> = (0..1001)
        .map(|i| json!({"content": format!("w{i}"), "status": "pending"}))
        .collect();
    env.call("todo", json!({"action": "write", "todos": todos}))
        .assert_err("too_large");
    let list = env.call("todo", json!({"action": "list"}));
    assert_eq!(list.data()["todos"].as_array().unwrap().len(), 1000);
}
