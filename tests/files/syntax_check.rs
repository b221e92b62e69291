//! The syntax check after a change (SPEC 26.5) through the binary: write, edit and apply_patch.

use serde_json::json;
use testkit::Env;

const GOOD: &str = "fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n";

#[test]
fn an_edit_that_breaks_the_syntax_lands_and_says_where() {
    let env = Env::new();
    env.write_file("a.rs", GOOD);
    env.read("a.rs").assert_ok();
    let out = env.call(
        "edit",
        json!({"path": "a.rs", "old_string": "let x = 1;", "new_string": "let x = ;"}),
    );
    out.assert_ok();
    // The change landed all the same.
    assert!(
        String::from_utf8(env.read_file("a.rs"))
            .unwrap()
            .contains("let x = ;")
    );
    assert_eq!(out.data()["syntax"]["before"], 0);
    assert_eq!(out.data()["syntax"]["after"], 1);
    assert_eq!(out.data()["syntax"]["first_error"]["line"], 2);
    assert!(
        out.output()
            .ends_with("Syntax: a.rs now has 1 syntax error (0 before); the first new one is at line 2, column 11: let x = ;\n"),
        "{}",
        out.output()
    );
}

#[test]
fn a_change_without_new_errors_says_nothing() {
    let env = Env::new();
    env.write_file("a.py", "def f(:\n    pass\n");
    env.read("a.py").assert_ok();
    // Fixing the error: nothing said, the counts in data.
    let out = env.call(
        "edit",
        json!({"path": "a.py", "old_string": "f(:", "new_string": "f():"}),
    );
    out.assert_ok();
    assert!(!out.output().contains("Syntax"), "{}", out.output());
    assert_eq!(
        out.data()["syntax"],
        json!({"before": 1, "after": 0, "first_error": null})
    );
    // A file of another language is not checked.
    env.write_file("notes.txt", "a (\n");
    env.read("notes.txt").assert_ok();
    let out = env.call(
        "edit",
        json!({"path": "notes.txt", "old_string": "a (", "new_string": "a (("}),
    );
    out.assert_ok();
    assert!(out.data().get("syntax").is_none());
}

#[test]
fn a_file_with_errors_reports_when_a_change_adds_more() {
    let env = Env::new();
    env.write_file("a.py", "def f(:\n    pass\n\ndef g():\n    return 1\n");
    env.read("a.py").assert_ok();
    let out = env.call(
        "edit",
        json!({"path": "a.py", "old_string": "return 1", "new_string": "return (1"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["syntax"]["before"], 1);
    assert_eq!(out.data()["syntax"]["after"], 2);
    // The first new error, not the old one on line 1.
    assert_eq!(out.data()["syntax"]["first_error"]["line"], 5);
    assert!(
        out.output().contains("the first new one is at line 5"),
        "{}",
        out.output()
    );
}

#[test]
fn write_and_apply_patch_check_too() {
    let env = Env::new();
    let out = env.call(
        "write",
        json!({"path": "new.js", "content": "function f( {\n"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["syntax"]["before"], 0);
    assert_eq!(out.data()["syntax"]["first_error"]["line"], 1);
    assert!(
        out.output().contains("Syntax: new.js now has"),
        "{}",
        out.output()
    );
    let out = env.call(
        "write",
        json!({"path": "ok.go", "content": "package p\nfunc F() {}\n"}),
    );
    assert_eq!(
        out.data()["syntax"],
        json!({"before": 0, "after": 0, "first_error": null})
    );
    assert!(!out.output().contains("Syntax"));
    let patch = "*** Begin Patch\n*** Add File: b.py\n+def g(:\n+    pass\n*** Update File: ok.go\n@@\n-func F() {}\n+func F() {\n*** End Patch\n";
    env.read("ok.go").assert_ok();
    let out = env.call("apply_patch", json!({"patch": patch}));
    out.assert_ok();
    let files = out.data()["files"].as_array().unwrap();
    let b = files.iter().find(|f| f["path"] == "b.py").unwrap();
    assert_eq!(b["syntax"]["after"], 1);
    let go = files.iter().find(|f| f["path"] == "ok.go").unwrap();
    assert_eq!(go["syntax"]["before"], 0);
    assert!(go["syntax"]["after"].as_u64().unwrap() >= 1);
    assert!(
        out.output().contains("Syntax: b.py now has 1 syntax error"),
        "{}",
        out.output()
    );
    assert!(
        out.output().contains("Syntax: ok.go now has"),
        "{}",
        out.output()
    );
}

#[test]
fn notebook_code_cells_are_checked_in_the_kernels_language() {
    let env = Env::new();
    let nb = json!({
        "cells": [
            {"cell_type": "code", "execution_count": null, "id": "c1", "metadata": {},
             "outputs": [], "source": ["x = 1\n"]},
            {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": ["# (unbalanced"]}
        ],
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5
    });
    env.write_file("n.ipynb", serde_json::to_string_pretty(&nb).unwrap());
    env.read("n.ipynb").assert_ok();
    let out = env.call(
        "notebook_edit",
        json!({"path": "n.ipynb", "cell_id": "c1", "new_source": "def f(:\n    pass\n"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["syntax"]["after"], 1);
    assert_eq!(out.data()["syntax"]["first_error"]["line"], 1);
    assert!(
        out.output()
            .contains("Syntax: n.ipynb's cell now has 1 syntax error"),
        "{}",
        out.output()
    );
    // A markdown cell is not code.
    let out = env.call(
        "notebook_edit",
        json!({"path": "n.ipynb", "cell_id": "m1", "new_source": "# still (unbalanced"}),
    );
    out.assert_ok();
    assert!(out.data().get("syntax").is_none());
}
