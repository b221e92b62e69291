//! edit by line numbers (SPEC 17.2, 24.1) and `expected_replacements` (22.7), end to end.

use serde_json::{Value, json};
use testkit::{Env, Out};

/// Writes `body` to `f.txt`, reads it, and edits it with `input` (path filled in).
fn edit(env: &Env, body: &str, mut input: Value) -> Out {
    env.write_file("f.txt", body);
    env.read("f.txt");
    input["path"] = json!("f.txt");
    env.call("edit", input)
}

fn text(env: &Env) -> String {
    String::from_utf8(env.read_file("f.txt")).unwrap()
}

const FIVE: &str = "one\ntwo\nthree\nfour\nfive\n";

#[test]
fn replace_lines_by_number() {
    let env = Env::new();
    let out = edit(
        &env,
        FIVE,
        json!({"start_line": 2, "end_line": 3, "new_string": "TWO\nTHREE"}),
    );
    out.assert_ok();
    assert_eq!(text(&env), "one\nTWO\nTHREE\nfour\nfive\n");
    assert_eq!(out.data()["match"], "lines");
    assert_eq!(out.data()["first_line"], 2);
    assert!(out.output().contains("     3\tTHREE"), "{}", out.output());
    // end_line defaults to start_line; an empty new_string removes the lines
    edit(&env, FIVE, json!({"start_line": 4, "new_string": ""})).assert_ok();
    assert_eq!(text(&env), "one\ntwo\nthree\nfive\n");
    // CRLF stays CRLF, and the final newline of the lines stays
    let out = edit(
        &env,
        "a\r\nb\r\nc\r\n",
        json!({"start_line": 2, "end_line": 2, "new_string": "x\ny"}),
    );
    out.assert_ok();
    assert_eq!(text(&env), "a\r\nx\r\ny\r\nc\r\n");
}

#[test]
fn expected_guards_the_lines() {
    let env = Env::new();
    let ok =
        json!({"start_line": 2, "end_line": 3, "expected": "two\nthree\n", "new_string": "2-3"});
    edit(&env, FIVE, ok).assert_ok();
    assert_eq!(text(&env), "one\n2-3\nfour\nfive\n");
    let out = edit(
        &env,
        FIVE,
        json!({"start_line": 2, "end_line": 3, "expected": "two\nTHREE", "new_string": "x"}),
    );
    out.assert_err("no_match");
    let c = &out.json["error"]["closest"];
    assert_eq!(
        (c["start_line"].as_u64(), c["end_line"].as_u64()),
        (Some(2), Some(3))
    );
    assert_eq!(c["text"], "two\nthree");
    assert!(out.output().contains("     3\tthree"), "{}", out.output());
    assert_eq!(text(&env), FIVE);
}

#[test]
fn insert_line_adds_whole_lines() {
    let env = Env::new();
    edit(&env, FIVE, json!({"insert_line": 0, "new_string": "zero"})).assert_ok();
    assert_eq!(text(&env), format!("zero\n{FIVE}"));
    edit(&env, "a\nb", json!({"insert_line": 2, "new_string": "c"})).assert_ok();
    assert_eq!(
        text(&env),
        "a\nb\nc\n",
        "the last line got its ending first"
    );
    edit(
        &env,
        FIVE,
        json!({"insert_line": 2, "new_string": "2a\n2b\n"}),
    )
    .assert_ok();
    assert_eq!(text(&env), "one\ntwo\n2a\n2b\nthree\nfour\nfive\n");
}

#[test]
fn line_edits_in_one_array_count_lines_before_the_call() {
    let env = Env::new();
    let out = edit(
        &env,
        FIVE,
        json!({"edits": [
            {"start_line": 1, "new_string": "ONE"},
            {"insert_line": 3, "new_string": "3.5"},
            {"start_line": 5, "end_line": 5, "new_string": "FIVE"},
        ]}),
    );
    out.assert_ok();
    assert_eq!(text(&env), "ONE\ntwo\nthree\n3.5\nfour\nFIVE\n");
    assert_eq!(out.data()["match"], json!(["lines", "lines", "lines"]));
    // overlapping items: nothing applied
    let out = edit(
        &env,
        FIVE,
        json!({"edits": [
            {"start_line": 1, "end_line": 3, "new_string": "x"},
            {"start_line": 3, "new_string": "y"},
        ]}),
    );
    out.assert_invalid("edits");
    assert_eq!(out.json["error"]["edit_index"], 1);
    assert_eq!(text(&env), FIVE);
    // string and line items do not mix
    let out = edit(
        &env,
        FIVE,
        json!({"edits": [
            {"old_string": "one", "new_string": "1"},
            {"start_line": 3, "new_string": "y"},
        ]}),
    );
    out.assert_invalid("edits");
}

#[test]
fn lines_out_of_range_name_the_field_and_the_line_count() {
    let env = Env::new();
    let out = edit(&env, FIVE, json!({"start_line": 6, "new_string": "x"}));
    out.assert_invalid("start_line");
    assert_eq!(out.json["error"]["line_count"], 5);
    assert!(
        out.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("5 lines")
    );
    edit(
        &env,
        FIVE,
        json!({"start_line": 2, "end_line": 9, "new_string": "x"}),
    )
    .assert_invalid("end_line");
    edit(&env, FIVE, json!({"insert_line": 6, "new_string": "x"})).assert_invalid("insert_line");
    let out = edit(
        &env,
        FIVE,
        json!({"edits": [{"start_line": 1, "new_string": "a"}, {"start_line": 7, "new_string": "b"}]}),
    );
    out.assert_invalid("edits[1].start_line");
    edit(&env, FIVE, json!({"start_line": 0, "new_string": "x"})).assert_invalid("start_line");
    assert_eq!(text(&env), FIVE);
}

#[test]
fn line_fields_that_do_not_go_together() {
    let env = Env::new();
    for (input, field) in [
        (
            json!({"start_line": 1, "old_string": "one", "new_string": "x"}),
            "old_string",
        ),
        (
            json!({"start_line": 1, "insert_line": 1, "new_string": "x"}),
            "insert_line",
        ),
        (json!({"end_line": 2, "new_string": "x"}), "start_line"),
        (json!({"expected": "one", "new_string": "x"}), "start_line"),
        (
            json!({"insert_line": 1, "end_line": 2, "new_string": "x"}),
            "end_line",
        ),
        (
            json!({"start_line": 3, "end_line": 2, "new_string": "x"}),
            "end_line",
        ),
        (
            json!({"start_line": 1, "replace_all": true, "new_string": "x"}),
            "replace_all",
        ),
        (json!({"start_line": 1}), "new_string"),
        (
            json!({"edits": [{"old_string": "a", "new_string": "b"}], "expected_replacements": 2}),
            "expected_replacements",
        ),
        (
            json!({"edits": [{"new_string": "b"}]}),
            "edits[0].old_string",
        ),
    ] {
        edit(&env, FIVE, input.clone()).assert_invalid(field);
    }
    assert_eq!(text(&env), FIVE);
}

#[test]
fn line_edits_need_a_fresh_read() {
    let env = Env::new();
    env.write_file("f.txt", FIVE);
    env.call(
        "edit",
        json!({"path": "f.txt", "start_line": 1, "new_string": "x"}),
    )
    .assert_err("not_read");
}

#[test]
fn expected_replacements_replaces_exactly_that_many() {
    let env = Env::new();
    let body = "x = 1\ny = 1\nx = 1\nx = 1\n";
    let out = edit(
        &env,
        body,
        json!({"old_string": "x = 1", "new_string": "x = 2", "expected_replacements": 3}),
    );
    out.assert_ok();
    assert_eq!(out.data()["replacements"], 3);
    assert_eq!(text(&env), "x = 2\ny = 1\nx = 2\nx = 2\n");
    // more than expected: ambiguous_match saying how many
    let out = edit(
        &env,
        body,
        json!({"old_string": "x = 1", "new_string": "x = 2", "expected_replacements": 2}),
    );
    out.assert_err("ambiguous_match");
    assert_eq!(
        (
            out.json["error"]["count"].as_u64(),
            out.json["error"]["expected"].as_u64()
        ),
        (Some(3), Some(2))
    );
    assert_eq!(out.json["error"]["lines"], json!([1, 3, 4]));
    // fewer: no_match saying how many
    let out = edit(
        &env,
        body,
        json!({"old_string": "y = 1", "new_string": "y = 2", "expected_replacements": 2}),
    );
    out.assert_err("no_match");
    assert!(
        out.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("found 1 time")
    );
    assert_eq!(text(&env), body);
    // inside edits, and 1 is the plain rule
    edit(
        &env,
        body,
        json!({"edits": [{"old_string": "y = 1", "new_string": "y = 3", "expected_replacements": 1}]}),
    )
    .assert_ok();
    assert_eq!(text(&env), "x = 1\ny = 3\nx = 1\nx = 1\n");
    edit(
        &env,
        body,
        json!({"old_string": "y", "new_string": "z", "expected_replacements": 0}),
    )
    .assert_invalid("expected_replacements");
}
