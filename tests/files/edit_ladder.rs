//! The ladder's second edition end to end (SPEC 17.1): what models still get wrong, forgiven
//! when the result is unique, and named in the hint when it is not.

use serde_json::{Value, json};
use testkit::{Env, Out};

fn edit(env: &Env, body: &str, mut input: Value) -> Out {
    env.write_file("f.c", body);
    env.read("f.c");
    input["path"] = json!("f.c");
    env.call("edit", input)
}

fn text(env: &Env) -> String {
    String::from_utf8(env.read_file("f.c")).unwrap()
}

const TWICE: &str = "int a(void) {\n\treturn 1;\n}\n\nint b(void) {\n\treturn 1;\n}\n";

#[test]
fn line_number_prefixes_copied_from_read_pick_the_place() {
    let env = Env::new();
    let out = edit(
        &env,
        TWICE,
        json!({"old_string": "     5\tint b(void) {\n     6\t\treturn 1;", "new_string": "     5\tint b(void) {\n     6\t\treturn 2;"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["match"], "line_numbers");
    assert!(
        out.output().contains("line-number prefixes"),
        "{}",
        out.output()
    );
    assert_eq!(
        text(&env),
        "int a(void) {\n\treturn 1;\n}\n\nint b(void) {\n\treturn 2;\n}\n"
    );
    // prefixes whose numbers are not the lines: no_match, and the hint says why
    let out = edit(
        &env,
        TWICE,
        json!({"old_string": "     3\tint b(void) {\n     4\t\treturn 1;", "new_string": "x"}),
    );
    out.assert_err("no_match");
    let hint = out.json["error"]["hint"].as_str().unwrap();
    assert!(hint.contains("line-number prefixes"), "{hint}");
    assert_eq!(
        out.json["error"]["closest"]["start_line"], 5,
        "closest found without them"
    );
}

#[test]
fn text_escaped_twice_is_unescaped_once() {
    let env = Env::new();
    let body = "puts(\"hi\");\nexit(0);\n";
    let out = edit(
        &env,
        body,
        json!({"old_string": "puts(\\\"hi\\\");\\nexit(0);", "new_string": "puts(\\\"bye\\\");\\nexit(1);"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["match"], "unescaped");
    assert_eq!(text(&env), "puts(\"bye\");\nexit(1);\n");
    let out = edit(
        &env,
        body,
        json!({"old_string": "puts(\\\"ho\\\");\\nexit(0);", "new_string": "x"}),
    );
    out.assert_err("no_match");
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("escaped twice")
    );
}

#[test]
fn kept_lines_keep_trailing_whitespace_and_tabs() {
    let env = Env::new();
    let body = "int f() {  \n\tint x;\t/* x */\n\treturn x;\n}\n";
    let out = edit(
        &env,
        body,
        json!({"old_string": "int f() {\n    int x;  /* x */\n    return x;", "new_string": "int f() {\n    int x;  /* x */\n    return x + 1;"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["match"], "indentation");
    assert_eq!(
        text(&env),
        "int f() {  \n\tint x;\t/* x */\n\treturn x + 1;\n}\n"
    );
}

#[test]
fn typography_and_a_first_line_that_starts_mid_line() {
    let env = Env::new();
    let body = "\tmsg = tr(\u{201C}Hello\u{201D});\n";
    let out = edit(
        &env,
        body,
        json!({"old_string": "tr(\"Hello\")", "new_string": "tr(\"Hi\")"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["match"], "typography");
    assert_eq!(text(&env), "\tmsg = tr(\"Hi\");\n");
    let body = "\tif (ok &&\n\t    ready) {\n\t\tgo();\n";
    let out = edit(
        &env,
        body,
        json!({"old_string": "ready) {\n        go();", "new_string": "ready) {\n        go(1);"}),
    );
    out.assert_ok();
    assert_eq!(text(&env), "\tif (ok &&\n\t    ready) {\n\t\tgo(1);\n");
}

#[test]
fn duplicates_stay_ambiguous_on_every_new_rung() {
    let env = Env::new();
    // the same lines twice: typography inside lines, and text escaped twice
    let out = edit(
        &env,
        "f(\u{201C}a\u{201D});\nf(\u{201C}a\u{201D});\n",
        json!({"old_string": "f(\"a\")", "new_string": "g()"}),
    );
    out.assert_err("ambiguous_match");
    let out = edit(
        &env,
        TWICE,
        json!({"old_string": "{\\n\\treturn 1;", "new_string": "{\\n\\treturn 2;"}),
    );
    out.assert_err("ambiguous_match");
    assert_eq!(text(&env), TWICE);
}
