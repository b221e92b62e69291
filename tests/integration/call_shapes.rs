//! `call` and `batch` take the call a harness has in hand and answer in its dialect (SPEC 22.3,
//! 24.5, 24.6): our shapes, Anthropic's `tool_use`, Chat Completions' and Responses' function
//! calls; `--result-format anthropic|openai|envelope`.

use serde_json::{Value, json};
use testkit::Env;

fn env_with_file() -> Env {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    env
}

const READ_OUTPUT: &str = "     1\tx\n";

#[test]
fn every_shape_runs_and_carries_its_id_back() {
    let env = env_with_file();
    let shapes = [
        (
            json!({"name": "read", "input": {"path": "a.txt"}, "id": "ours"}),
            json!("ours"),
        ),
        (
            json!({"tool": "read", "input": {"path": "a.txt"}}),
            Value::Null,
        ),
        (
            json!({"type": "tool_use", "id": "toolu_01", "name": "read", "input": {"path": "a.txt"}}),
            json!("toolu_01"),
        ),
        (
            json!({"id": "call_abc", "type": "function",
                   "function": {"name": "read", "arguments": "{\"path\": \"a.txt\"}"}}),
            json!("call_abc"),
        ),
        (
            json!({"type": "function_call", "id": "fc_1", "call_id": "call_def", "name": "read",
                   "arguments": "{\"path\": \"a.txt\"}", "status": "completed"}),
            json!("call_def"),
        ),
    ];
    for (call, id) in shapes {
        let out = env.run(&["call"], &call.to_string());
        out.assert_ok();
        assert_eq!(out.output(), READ_OUTPUT, "{call}");
        assert_eq!(
            out.json.get("id").cloned().unwrap_or(Value::Null),
            id,
            "{call}"
        );
    }
    // Other agents' names work in every shape.
    let out = env.run(
        &["call"],
        &json!({"type": "tool_use", "id": "t", "name": "Read", "input": {"file_path": "a.txt"}})
            .to_string(),
    );
    assert_eq!(
        (out.json["tool"].as_str(), out.output()),
        (Some("read"), READ_OUTPUT)
    );
}

#[test]
fn anthropic_results_are_tool_result_blocks() {
    let env = env_with_file();
    let call =
        json!({"type": "tool_use", "id": "toolu_01", "name": "read", "input": {"path": "a.txt"}});
    let out = env.run(&["call", "--result-format", "anthropic"], &call.to_string());
    assert_eq!(out.status, 0);
    assert_eq!(
        out.json,
        json!({"type": "tool_result", "tool_use_id": "toolu_01", "content": READ_OUTPUT, "is_error": false})
    );
    let call = json!({"type": "tool_use", "id": "toolu_02", "name": "read", "input": {"path": "gone.txt"}});
    let out = env.run(&["call", "--result-format", "anthropic"], &call.to_string());
    assert_eq!(out.status, 1, "the envelope's status: not_found");
    assert_eq!(out.json["is_error"], true);
    assert_eq!(out.json["tool_use_id"], "toolu_02");
    assert!(out.json["content"].as_str().unwrap().contains("gone.txt"));
    // A call that cannot be read is still answered in the harness's dialect, status 2.
    let call = json!({"type": "tool_use", "id": "toolu_03", "name": "read"});
    let out = env.run(&["call", "--result-format", "anthropic"], &call.to_string());
    assert_eq!(out.status, 2);
    assert_eq!(
        (
            out.json["tool_use_id"].as_str(),
            out.json["is_error"].as_bool()
        ),
        (Some("toolu_03"), Some(true))
    );
    assert!(out.json["content"].as_str().unwrap().contains("`input`"));
}

#[test]
fn openai_results_are_tool_messages_or_function_call_outputs() {
    let env = env_with_file();
    let chat = json!({"id": "call_1", "type": "function",
                      "function": {"name": "read", "arguments": "{\"path\": \"a.txt\"}"}});
    let out = env.run(&["call", "--result-format", "openai"], &chat.to_string());
    assert_eq!(out.status, 0);
    assert_eq!(
        out.json,
        json!({"role": "tool", "tool_call_id": "call_1", "content": READ_OUTPUT})
    );
    let responses = json!({"type": "function_call", "call_id": "call_2", "name": "read",
                           "arguments": "{\"path\": \"missing\"}"});
    let out = env.run(
        &["call", "--result-format", "openai"],
        &responses.to_string(),
    );
    assert_eq!(out.status, 1);
    let keys: Vec<&str> = out
        .json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["type", "call_id", "output"]);
    assert_eq!(
        (out.json["type"].as_str(), out.json["call_id"].as_str()),
        (Some("function_call_output"), Some("call_2"))
    );
    assert!(out.json["output"].as_str().unwrap().contains("missing"));
    // --format text still prints the output alone; an unknown format is a usage error.
    let out = env.run(
        &["call", "--result-format", "openai", "--format", "text"],
        &chat.to_string(),
    );
    assert_eq!(out.stdout, READ_OUTPUT);
    env.run(&["call", "--result-format", "xml"], &chat.to_string())
        .assert_err("invalid_input");
}

#[test]
fn batch_answers_every_shape_in_order_in_one_dialect() {
    let env = env_with_file();
    let calls = json!([
        {"type": "tool_use", "id": "t1", "name": "read", "input": {"path": "a.txt"}},
        {"id": "c2", "type": "function", "function": {"name": "read", "arguments": "{\"path\": \"a.txt\"}"}},
        {"type": "function_call", "call_id": "c3", "name": "read", "arguments": "{\"path\": \"nope\"}"},
        {"name": "read", "input": {"path": "a.txt"}, "id": 4},
    ]);
    let out = env.run(&["batch", "--result-format", "openai"], &calls.to_string());
    assert_eq!(out.status, 1, "one call failed");
    let blocks = out.json.as_array().unwrap();
    assert_eq!(
        blocks[0],
        json!({"role": "tool", "tool_call_id": "t1", "content": READ_OUTPUT})
    );
    assert_eq!(blocks[1]["tool_call_id"], "c2");
    assert_eq!(
        (blocks[2]["type"].as_str(), blocks[2]["call_id"].as_str()),
        (Some("function_call_output"), Some("c3"))
    );
    assert_eq!(blocks[3]["tool_call_id"], 4);

    let out = env.run(
        &["batch", "--result-format", "anthropic"],
        &calls.to_string(),
    );
    let flags: Vec<(&Value, bool)> = out
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (&b["tool_use_id"], b["is_error"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        flags,
        [
            (&json!("t1"), false),
            (&json!("c2"), false),
            (&json!("c3"), true),
            (&json!(4), false)
        ]
    );

    // Nothing to answer: the batch's own envelope, status 2, whatever the format.
    let out = env.run(&["batch", "--result-format", "anthropic"], "[{");
    out.assert_err("invalid_input");
    assert_eq!(out.json["tool"], "batch");
}

#[test]
fn a_bad_element_fails_alone_naming_its_field() {
    let env = env_with_file();
    let calls = json!([
        {"name": "read", "input": {"path": "a.txt"}, "id": 1},
        {"type": "function", "id": "c", "function": {"name": "read", "arguments": "[\"a.txt\"]"}},
        {"type": "function_call", "call_id": "d", "name": "read", "arguments": "{\"path\": \"a.txt\"", "id": "fc"},
        {"type": "tool_use", "id": "e", "name": "read", "input": {"path": "a.txt"}, "note": "x"},
        {"type": "text", "text": "hi"},
        {"tool": "read", "name": "read", "input": {}},
        {"type": "function_call", "call_id": "f", "name": "read", "arguments": "{}", "extra": 1},
        {"name": "read", "input": {"path": "a.txt"}, "id": 8},
    ]);
    let out = env.run(&["batch"], &calls.to_string());
    assert_eq!(out.status, 1);
    let r = out.json.as_array().unwrap();
    let fields: Vec<&str> = r[1..7]
        .iter()
        .map(|e| {
            assert_eq!(e["error"]["code"], "invalid_input", "{e}");
            e["error"]["field"].as_str().unwrap_or("")
        })
        .collect();
    assert_eq!(
        fields,
        [
            "function.arguments",
            "arguments",
            "note",
            "type",
            "tool",
            "extra"
        ]
    );
    assert_eq!(
        (r[0]["ok"].as_bool(), r[7]["ok"].as_bool()),
        (Some(true), Some(true)),
        "{} {}",
        r[0],
        r[7]
    );
    assert_eq!(
        (r[1]["id"].as_str(), r[2]["id"].as_str()),
        (Some("c"), Some("d")),
        "ids kept"
    );
    assert!(
        r[1]["output"]
            .as_str()
            .unwrap()
            .contains("`function.arguments`")
    );
}

#[test]
fn a_duplicate_key_fails_its_element_only() {
    let env = env_with_file();
    let text = r#"[{"name": "read", "input": {"path": "a.txt"}, "id": 1},
        {"name": "read", "input": {"path": "a.txt", "path": "b.txt"}, "id": 2},
        {"name": "read", "name": "write", "input": {"path": "a.txt"}, "id": 3},
        {"id": "c", "type": "function", "function": {"name": "read", "arguments": "{\"path\": \"a.txt\", \"path\": \"x\"}"}},
        {"name": "read", "input": {"path": "a.txt"}, "id": 5}]"#;
    let out = env.run(&["batch"], text);
    assert_eq!(out.status, 1);
    let r = out.json.as_array().unwrap();
    let got: Vec<(&str, &str)> = r
        .iter()
        .map(|e| {
            (
                e["error"]["code"].as_str().unwrap_or("ok"),
                e["error"]["field"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("ok", ""),
            ("invalid_input", "input.path"),
            ("invalid_input", "name"),
            ("invalid_input", "function.arguments.path"),
            ("ok", ""),
        ]
    );
    assert_eq!(r[1]["id"], 2);
    // JSON Lines too, and `call`, and a tool's own stdin.
    let lines = "{\"name\": \"read\", \"input\": {\"path\": \"a.txt\"}}\n{\"name\": \"read\", \"input\": {}, \"input\": {}}\n";
    let out = env.run(&["batch"], lines);
    assert_eq!(out.json[1]["error"]["field"], "input");
    assert_eq!(out.json[0]["ok"], true);
    let out = env.run(
        &["call"],
        r#"{"name": "read", "input": {"path": "a.txt", "path": "a.txt"}}"#,
    );
    out.assert_invalid("input.path");
    let out = env.run(&["read"], r#"{"path": "a.txt", "path": "a.txt"}"#);
    out.assert_invalid("path");
}

#[test]
fn arguments_must_hold_a_json_object() {
    let env = env_with_file();
    for (args, kind) in [("7", "a number"), ("", "not valid JSON"), ("null", "null")] {
        let call =
            json!({"type": "function_call", "call_id": "c", "name": "read", "arguments": args});
        let out = env.run(&["call"], &call.to_string());
        out.assert_invalid("arguments");
        assert!(out.output().contains(kind), "{args}: {}", out.output());
        assert_eq!(out.json["id"], "c");
    }
    // An object instead of text, as some OpenAI-compatible servers send, is taken as it is.
    let call = json!({"id": "c", "type": "function", "function": {"name": "read", "arguments": {"path": "a.txt"}}});
    env.run(&["call"], &call.to_string()).assert_ok();
}

/// SPEC 23.8: at most 10,000 calls in a batch, refused before any is parsed (60 MB of
/// `[{},{},…]` once grew to 24 GB).
#[test]
fn a_batch_over_10000_calls_is_too_large() {
    let env = Env::new();
    let many = format!("[{}]", vec!["{}"; 10_001].join(","));
    let out = env.run(&["batch"], &many);
    assert_eq!(out.json["error"]["code"], "too_large", "{}", out.stdout);
    assert_eq!(out.json["error"]["limit"], 10_000);
    let lines = "{\"name\": \"session\"}\n".repeat(10_001);
    let out = env.run(&["batch"], &lines);
    assert_eq!(out.json["error"]["code"], "too_large");
    // exactly 10,000 is fine
    let ok = format!(
        "[{}]",
        vec![r#"{"name":"session","input":{}}"#; 10_000].join(",")
    );
    let out = env.run(&["batch"], &ok);
    assert_eq!(
        out.status,
        0,
        "{}",
        &out.stdout[..200.min(out.stdout.len())]
    );
}

/// SPEC 31.4: a batch has one value budget, its calls' `arguments` texts included (each had
/// its own, and 10,000 small ones grew to 2.3 GB). 200 calls of 20,000 values each: 4 M values
/// from 8 MB, refused with a small peak.
#[test]
fn a_batch_counts_its_argument_values_together() {
    let env = Env::new();
    let args = format!("{{\"path\": [{}]}}", vec!["[]"; 20_000].join(","));
    let call =
        json!({"id": "c", "type": "function", "function": {"name": "read", "arguments": args}});
    let batch = serde_json::to_string(&vec![call; 200]).unwrap();
    let input = env.dir.path().join("batch.json");
    std::fs::write(&input, &batch).unwrap();
    let (stdout, rss) = env.peak_rss(&["batch"], &input);
    let out: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        out["error"]["code"],
        "too_large",
        "{}",
        &stdout[..300.min(stdout.len())]
    );
    if let Some(kib) = rss {
        assert!(kib < 150 * 1024, "peak RSS {} MiB", kib / 1024);
    }
    // A batch of ordinary calls is untouched.
    env.write_file("a.txt", "a\n");
    let ok = json!([{"name": "read", "input": {"path": "a.txt"}}, {"id": "d", "type": "function", "function": {"name": "read", "arguments": "{\"path\": \"a.txt\"}"}}]);
    let out = env.run(&["batch"], &ok.to_string());
    assert_eq!(out.status, 0, "{}", out.stdout);
}
