//! What the parser takes besides the plain form, for every tool alike: integral floats for
//! integers (SPEC 22.4), and `{name, value}` pair lists for a free-form object (SPEC 22.2: how
//! strict schemas give run's `env`).

use serde_json::json;
use testkit::Env;

#[test]
fn an_integral_float_is_an_integer_everywhere() {
    let env = Env::new();
    env.write_file("a.txt", "one\ntwo\nthree\n");
    let out = env.call(
        "read",
        json!({"path": "a.txt", "offset": 2.0, "limit": 1.0}),
    );
    out.assert_ok();
    assert_eq!(out.output().lines().next(), Some("     2\ttwo"));
    let out = env.call(
        "grep",
        json!({"pattern": "o", "output_mode": "content", "head_limit": 1.0, "-C": 0.0}),
    );
    out.assert_ok();
    assert_eq!(out.output().lines().next(), Some("a.txt:1:one"));
    env.call("tree", json!({"depth": 1.0})).assert_ok();
    env.call("run", json!({"command": "true", "timeout_ms": 1000.0}))
        .assert_ok();
    // Other agents' names and nested numbers: Bash's `timeout`, todo's `task`.
    let out = env.run(
        &["call"],
        r#"{"name": "Bash", "input": {"command": "echo hi", "timeout": 2000.0}}"#,
    );
    out.assert_ok();
    env.call("todo", json!({"action": "add", "content": "x"}))
        .assert_ok();
    let out = env.call("todo", json!({"action": "complete", "task": 1.0}));
    out.assert_ok();
    // JavaScript clients write the whole call so: Chat Completions' arguments text.
    let call = json!({"id": "c", "type": "function",
        "function": {"name": "read", "arguments": "{\"path\": \"a.txt\", \"offset\": 3.0}"}});
    let out = env.run(&["call"], &call.to_string());
    assert_eq!(out.output().lines().next(), Some("     3\tthree"));
}

#[test]
fn a_fractional_number_is_refused_naming_the_field() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    for (tool, input, field) in [
        ("read", json!({"path": "a.txt", "offset": 2.5}), "offset"),
        (
            "grep",
            json!({"pattern": "x", "head_limit": 3.5}),
            "head_limit",
        ),
        (
            "run",
            json!({"command": "true", "timeout_ms": 1000.5}),
            "timeout_ms",
        ),
        ("jobs", json!({"action": "list", "offset": 0.5}), "offset"),
        ("tree", json!({"depth": 1e300}), "depth"),
    ] {
        env.call(tool, input).assert_invalid(field);
    }
    env.call("todo", json!({"action": "complete", "task": 1.5}))
        .assert_invalid("task");
}

#[test]
fn a_bad_pair_list_is_refused_naming_its_place() {
    let env = Env::new();
    for (env_value, field) in [
        (json!(["A=1"]), "env[0]"),
        (json!([{"name": "A"}]), "env[0].value"),
        (json!([{"value": "1"}]), "env[0].name"),
        (json!([{"name": 1, "value": "1"}]), "env[0].name"),
        (
            json!([{"name": "A", "value": "1", "note": "x"}]),
            "env[0].note",
        ),
        (
            json!([{"name": "A", "value": "1"}, {"name": "A", "value": "2"}]),
            "env[1].name",
        ),
    ] {
        env.call("run", json!({"command": "true", "env": env_value}))
            .assert_invalid(field);
    }
    // A value of the wrong type is the map's own complaint, after the list became a map.
    env.call(
        "run",
        json!({"command": "true", "env": [{"name": "A", "value": 1}]}),
    )
    .assert_invalid("env.A");
}

/// SPEC 23.8, 24.6: parsing an input costs at most a small multiple of its size. 30 MB of
/// `{},` in a field no tool has once became a 1 GB tree of values before it was refused; now
/// the parse stops at a budget of values for the size, `too_large`, within 2× the input + 16 MB.
#[test]
fn a_huge_input_of_tiny_values_is_refused_in_bounded_memory() {
    let env = Env::new();
    let n = 10_000_000;
    let text = format!(
        "{{\"path\": \"a.txt\", \"junk\": [{}{{}}]}}",
        "{},".repeat(n)
    );
    let file = env.dir.path().join("junk.json");
    std::fs::write(&file, &text).unwrap();
    let (stdout, rss) = env.peak_rss(&["read"], &file);
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(v["error"]["code"], "too_large", "{stdout}");
    assert!(v["output"].as_str().unwrap().contains("values"), "{stdout}");
    match rss {
        Some(kib) => {
            let bound = (2 * text.len() as u64 + (16 << 20)) / 1024;
            assert!(kib <= bound, "peak {kib} KiB over {bound} KiB");
        }
        None => eprintln!("no /usr/bin/time: the memory bound is not measured"),
    }
    // The same through call and mcp's parser: too_large, not a parse error.
    let call = format!("{{\"tool\": \"read\", \"input\": {text}}}");
    std::fs::write(&file, &call).unwrap();
    let (stdout, _) = env.peak_rss(&["call"], &file);
    assert!(
        stdout.contains("too_large"),
        "{}",
        &stdout[..stdout.len().min(300)]
    );
}

/// Seed 001's runner form (SPEC 25.6): `edit_file --path P [--replace-all]` with the content
/// fields as JSON on stdin; the flags and the JSON merge, and a field given both ways is
/// `invalid_input`.
#[test]
fn edit_flags_merge_with_the_content_as_json_on_stdin() {
    let env = Env::new();
    env.write_file("a.txt", "one one\ntwo\n");
    env.read("a.txt").assert_ok();
    let out = env.run(
        &["edit_file", "--path", "a.txt", "--replace-all"],
        r#"{"old_string": "one", "new_string": "1"}"#,
    );
    out.assert_ok();
    assert_eq!(env.read_file("a.txt"), b"1 1\ntwo\n");
    // Seed 002's names, on the same form.
    env.read("a.txt").assert_ok();
    env.run(
        &["edit", "--path", "a.txt"],
        r#"{"old_str": "two", "new_str": "2"}"#,
    )
    .assert_ok();
    assert_eq!(env.read_file("a.txt"), b"1 1\n2\n");
    env.read("a.txt").assert_ok();
    env.run(
        &["edit_file", "--path", "a.txt"],
        r#"{"path": "b.txt", "old_string": "2", "new_string": "3"}"#,
    )
    .assert_invalid("path");
    env.run(&["edit_file", "--path", "a.txt"], "[1]")
        .assert_err("invalid_input");
    assert_eq!(env.read_file("a.txt"), b"1 1\n2\n");
}
