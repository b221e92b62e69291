//! `Toolbox::call` is `loopr-tool call` (SPEC 30.1): serialised with serde_json, its envelope is
//! byte for byte the line the binary prints for the same call without an `id`.

use crate::Scratch;
use loopr_tool::Toolbox;
use serde_json::{Value, json};
use std::io::Write;
use std::process::Stdio;

/// `loopr-tool call` for `{"name", "input"}` with the scratch's settings: the line it printed,
/// less its newline, and its exit status.
fn binary_call(s: &Scratch, name: &str, input: &Value) -> (String, i32) {
    let env = testkit::Env::new();
    let mut child = env
        .std_cmd()
        .arg("--root")
        .arg(&s.root)
        .arg("--state-dir")
        .arg(&s.state)
        .arg("--config")
        .arg(&s.config)
        .arg("call")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let call = json!({"name": name, "input": input}).to_string();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(call.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let line = String::from_utf8(out.stdout).unwrap();
    let line = line.strip_suffix('\n').expect("one line").to_string();
    (line, out.status.code().unwrap())
}

/// Two scratch projects with the same files: one for the binary, one for the library.
fn twins() -> (Scratch, Scratch) {
    let pair = (Scratch::new(), Scratch::new());
    for s in [&pair.0, &pair.1] {
        s.write("a.txt", "alpha\nbeta\n");
        s.write("b.txt", "one\ntwo\n");
        s.write("bad.ipynb", "not json\n");
        s.write("src/lib.rs", "fn main() {\n    println!(\"beta\");\n}\n");
    }
    pair
}

#[test]
fn each_call_serialises_to_the_binarys_line() {
    let (bin, lib) = twins();
    let tools: Toolbox = lib.toolbox();
    let calls = [
        // Success.
        ("read", json!({"path": "a.txt"})),
        // A failure with a hint and extra fields (`path`).
        (
            "edit",
            json!({"path": "b.txt", "old_string": "one", "new_string": "1"}),
        ),
        // invalid_input naming a field.
        ("read", json!({"path": 3})),
        ("read", json!({"path": "a.txt", "colour": "red"})),
        // A warning in data.warnings and at the end of output.
        ("read", json!({"path": "bad.ipynb"})),
        // unknown_tool.
        ("nope", json!({})),
        // A change, then one that needs the read before it.
        ("write", json!({"path": "c.txt", "content": "gamma\n"})),
        (
            "edit",
            json!({"path": "a.txt", "old_string": "alpha", "new_string": "ALPHA"}),
        ),
        ("read", json!({"path": "missing.txt"})),
        // A result that streams itself (grep's matches).
        ("grep", json!({"pattern": "beta", "output_mode": "content"})),
        // Another agent's name and fields.
        ("Glob", json!({"pattern": "**/*.rs"})),
        ("tree", json!({})),
    ];
    for (name, input) in calls {
        let (line, status) = binary_call(&bin, name, &input);
        let env = tools.call(name, input.clone());
        let ours = serde_json::to_string(&env).unwrap();
        assert_eq!(ours, line, "{name} {input}");
        assert_eq!(env.exit_status(), status, "{name} {input}");
    }
}

#[test]
fn an_error_with_a_hint_and_fields_keeps_their_order() {
    let (_, lib) = twins();
    let env = lib.toolbox().call(
        "edit",
        json!({"path": "b.txt", "old_string": "one", "new_string": "1"}),
    );
    let e = env.error.as_ref().unwrap();
    assert_eq!(e.code, "not_read");
    assert!(e.hint.is_some());
    assert_eq!(e.extra["path"], "b.txt");
    let text = serde_json::to_string(&env).unwrap();
    let (code, hint, path) = (
        text.find("\"code\"").unwrap(),
        text.find("\"hint\"").unwrap(),
        text.find("\"path\":\"b.txt\"}").unwrap(),
    );
    assert!(code < hint && hint < path, "{text}");
}

#[test]
fn warnings_stay_in_data() {
    let (_, lib) = twins();
    let env = lib.toolbox().call("read", json!({"path": "bad.ipynb"}));
    assert!(env.ok);
    let warnings = env.warnings();
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("not an nbformat 4 notebook"));
    assert!(env.output.ends_with(&format!("Warning: {}\n", warnings[0])));
}
