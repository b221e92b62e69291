//! `edit` by symbol (SPEC 26.4, 26.7) through the binary.

use serde_json::json;
use testkit::Env;

const SRC: &str = "class A:\n    def parse(self):\n        return 1\n\nclass B:\n    # B's parser\n    @staticmethod\n    def parse(text):\n        return 2\n";

fn setup() -> Env {
    let env = Env::new();
    env.write_file("m.py", SRC);
    env
}

#[test]
fn a_body_is_replaced_reindented_and_undo_restores_it() {
    let env = setup();
    env.call(
        "edit",
        json!({"path": "m.py", "symbol": "A.parse", "new_string": "x = 1"}),
    )
    .assert_err("not_read");
    env.read("m.py").assert_ok();
    let out = env.call(
        "edit",
        json!({"path": "m.py", "symbol": "A.parse", "new_string": "x = 1\nreturn x\n"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["symbol"], "A.parse");
    assert!(
        out.output()
            .starts_with("Edited m.py: replaced the body of A.parse"),
        "{}",
        out.output()
    );
    let now = String::from_utf8(env.read_file("m.py")).unwrap();
    assert!(
        now.starts_with(
            "class A:\n    def parse(self):\n        x = 1\n        return x\n\nclass B:"
        ),
        "{now}"
    );
    env.call("undo", json!({})).assert_ok();
    assert_eq!(env.read_file("m.py"), SRC.as_bytes());
}

#[test]
fn whole_and_inserts_take_decorators_and_comments_along() {
    let env = setup();
    env.read("m.py").assert_ok();
    env.call(
        "edit",
        json!({"path": "m.py", "insert_before_symbol": "B.parse", "new_string": "    def other(self):\n        pass\n"}),
    )
    .assert_ok();
    let now = String::from_utf8(env.read_file("m.py")).unwrap();
    assert!(
        now.contains(
            "class B:\n    def other(self):\n        pass\n    # B's parser\n    @staticmethod\n"
        ),
        "{now}"
    );
    env.call(
        "edit",
        json!({"path": "m.py", "symbol": "B.parse", "part": "whole", "new_string": "    def parse(text):\n        return 3"}),
    )
    .assert_ok();
    let now = String::from_utf8(env.read_file("m.py")).unwrap();
    assert!(
        now.ends_with("        pass\n    def parse(text):\n        return 3\n"),
        "{now}"
    );
    env.call(
        "edit",
        json!({"path": "m.py", "insert_after_symbol": "A", "new_string": "CONST = 1"}),
    )
    .assert_ok();
    let now = String::from_utf8(env.read_file("m.py")).unwrap();
    assert!(
        now.contains("        return 1\nCONST = 1\n\nclass B:"),
        "{now}"
    );
}

#[test]
fn a_name_must_resolve_to_one_definition() {
    let env = setup();
    env.read("m.py").assert_ok();
    let out = env.call(
        "edit",
        json!({"path": "m.py", "symbol": "parse", "new_string": "pass"}),
    );
    out.assert_err("ambiguous_match");
    assert_eq!(
        out.json["error"]["candidates"],
        json!([
            "A.parse (method at lines 2-3)",
            "B.parse (method at lines 8-9)"
        ])
    );
    env.call(
        "edit",
        json!({"path": "m.py", "symbol": "C.parse", "new_string": "pass"}),
    )
    .assert_err("no_match");
    assert_eq!(env.read_file("m.py"), SRC.as_bytes());
}

#[test]
fn symbol_fields_do_not_mix_with_the_other_forms() {
    let env = setup();
    env.read("m.py").assert_ok();
    env.call(
        "edit",
        json!({"path": "m.py", "symbol": "A", "old_string": "x", "new_string": "y"}),
    )
    .assert_invalid("old_string");
    env.call(
        "edit",
        json!({"path": "m.py", "part": "body", "old_string": "x", "new_string": "y"}),
    )
    .assert_invalid("part");
    env.call("edit", json!({"path": "m.py", "symbol": "A"}))
        .assert_invalid("new_string");
    env.call(
        "edit",
        json!({"path": "m.py", "symbol": "A", "insert_after_symbol": "B", "new_string": "y"}),
    )
    .assert_invalid("insert_after_symbol");
}
