//! read's indentation mode (`around_line` + `indentation`, SPEC 22.6) through the binary: the
//! block around a line, its cuts, its record, and every way to call it wrongly.

use serde_json::{Value, json};
use testkit::{Env, redact};

const PY: &str = "\
import os


class Foo:
    \"\"\"A foo.\"\"\"

    @property
    def size(self):
        return self._size

    def double(self, value):
        if value is None:

            return 0
        return value * 2


def main():
    print(Foo().double(2))
";

#[test]
fn the_innermost_block_snapshot() {
    let env = Env::new();
    env.write_file("foo.py", PY);
    let out = env.call(
        "read",
        json!({"path": "foo.py", "around_line": 14, "indentation": {"max_levels": 1}}),
    );
    out.assert_ok();
    insta::assert_json_snapshot!(redact(&out.json, &env), @r#"
    {
      "ok": true,
      "tool": "read",
      "output": "    12\t        if value is None:\n    13\t\n    14\t            return 0\n",
      "data": {
        "path": "foo.py",
        "start_line": 12,
        "end_line": 14,
        "total_lines": 19,
        "truncated": false,
        "long_lines": 0,
        "size_bytes": 245,
        "encoding": "utf-8",
        "line_ending": "lf",
        "indent": "spaces",
        "block": {
          "start_line": 12,
          "end_line": 14
        }
      }
    }
    "#);
}

/// The shown line numbers of a read's output, in order (`None` for a `...` marker).
fn numbers(out: &testkit::Out) -> Vec<Option<u64>> {
    out.output()
        .lines()
        .filter(|l| !l.starts_with('('))
        .map(|l| {
            if l == "..." {
                None
            } else {
                Some(l.split('\t').next().unwrap().trim().parse().unwrap())
            }
        })
        .collect()
}

fn span(a: u64, z: u64) -> Vec<Option<u64>> {
    (a..=z).map(Some).collect()
}

fn block(out: &testkit::Out) -> (u64, u64) {
    let b = &out.data()["block"];
    (
        b["start_line"].as_u64().unwrap(),
        b["end_line"].as_u64().unwrap(),
    )
}

#[test]
fn levels_header_and_siblings_as_codex_defaults_them() {
    let env = Env::new();
    env.write_file("foo.py", PY);
    let read = |indentation: Value| {
        let out = env.call(
            "read",
            json!({"path": "foo.py", "around_line": 9, "indentation": indentation}),
        );
        out.assert_ok();
        out
    };
    // Codex's defaults: every level (the top-level class), the header, no siblings
    let out = env.call("read", json!({"path": "foo.py", "around_line": 9}));
    assert_eq!(numbers(&out), span(4, 15));
    assert_eq!(block(&out), (4, 15));
    assert_eq!(numbers(&read(json!({}))), span(4, 15));
    // one level: the method, with its decorator; without the header, without it
    assert_eq!(numbers(&read(json!({"max_levels": 1}))), span(7, 9));
    assert_eq!(
        numbers(&read(json!({"max_levels": 1, "include_header": false}))),
        span(8, 9)
    );
    // siblings: every method of the class (the lines between them too)
    let out = read(json!({"max_levels": 1, "include_siblings": true}));
    assert_eq!(numbers(&out), span(5, 15));
    assert!(out.output().contains("    def double(self, value):\n"));
    // a line at the top level is its own block
    let out = env.call("read", json!({"path": "foo.py", "around_line": 18}));
    assert_eq!(numbers(&out), span(18, 19));
}

#[test]
fn rust_braces_doc_comments_and_the_cli_flags() {
    let env = Env::new();
    env.write_file(
        "lib.rs",
        "use std::fmt;\n\n/// A point.\n#[derive(Debug)]\npub struct P {\n    x: u32,\n}\n\nimpl P {\n    /// Doubles.\n    pub fn double(&self) -> u32 {\n        if self.x > 0 {\n            self.x * 2\n        } else {\n            0\n        }\n    }\n}\n",
    );
    let out = env.run(&["read", "lib.rs", "--around-line", "13"], "");
    out.assert_ok();
    assert_eq!(numbers(&out), span(9, 18), "{}", out.output());
    let out = env.run(
        &[
            "read",
            "lib.rs",
            "--around-line",
            "13",
            "--indentation",
            r#"{"max_levels": 2}"#,
        ],
        "",
    );
    out.assert_ok();
    // the method with its doc comment and closing brace
    assert_eq!(numbers(&out), span(10, 17), "{}", out.output());
    assert!(out.output().ends_with("    17\t    }\n"));
    // anchored in the `else` branch, one level: the whole if / else
    let out = env.call(
        "read",
        json!({"path": "lib.rs", "around_line": 15, "indentation": {"max_levels": 1}}),
    );
    assert_eq!(numbers(&out), span(12, 16));
    // the struct, from its closing brace: doc comment and attribute above it
    let out = env.call("read", json!({"path": "lib.rs", "around_line": 7}));
    assert_eq!(numbers(&out), span(3, 7));
}

#[test]
fn tabs_crlf_and_a_blank_anchor() {
    let env = Env::new();
    env.write_file(
        "main.go",
        "package main\r\n\r\nfunc main() {\r\n\tfor {\r\n\t\tstep()\r\n\r\n\t\tstep()\r\n\t}\r\n}\r\n",
    );
    let out = env.call(
        "read",
        json!({"path": "main.go", "around_line": 5, "indentation": {"max_levels": 1}}),
    );
    out.assert_ok();
    assert_eq!(numbers(&out), span(4, 8));
    assert_eq!(out.data()["line_ending"], "crlf");
    assert!(out.output().contains("     5\t\t\tstep()\n"), "no CR shown");
    // the blank line 6 stands for the line above it
    let out = env.call(
        "read",
        json!({"path": "main.go", "around_line": 6, "indentation": {"max_levels": 1}}),
    );
    assert_eq!(numbers(&out), span(4, 8));
    // between `package` and `func`: the line above (top level, its own block)
    let out = env.call("read", json!({"path": "main.go", "around_line": 2}));
    assert_eq!(numbers(&out), span(1, 1));
}

#[test]
fn max_lines_cuts_around_the_anchor_keeping_the_first_line() {
    let env = Env::new();
    let body: String = (1..=30).map(|i| format!("    step{i}();\n")).collect();
    env.write_file("long.rs", format!("fn long() {{\n{body}}}\n"));
    let out = env.call(
        "read",
        json!({"path": "long.rs", "around_line": 20, "indentation": {"max_lines": 5}}),
    );
    out.assert_ok();
    let mut expected = vec![Some(1), None];
    expected.extend(span(18, 21));
    assert_eq!(numbers(&out), expected, "{}", out.output());
    assert!(
        out.output()
            .contains("     1\tfn long() {\n...\n    18\t    step17();\n")
    );
    assert!(
        out.output().ends_with(
            "(showing lines 1, 18-21 of the block at lines 1-32: cut to max_lines=5; read the rest with offset and limit)\n"
        ),
        "{}",
        out.output()
    );
    let d = out.data();
    assert_eq!(
        (
            d["start_line"].as_u64(),
            d["end_line"].as_u64(),
            d["truncated"].as_bool()
        ),
        (Some(1), Some(21), Some(true))
    );
    assert_eq!(block(&out), (1, 32));
    // max_lines 1: the anchor alone
    let out = env.call(
        "read",
        json!({"path": "long.rs", "around_line": 20, "indentation": {"max_lines": 1}}),
    );
    assert_eq!(numbers(&out), span(20, 20));
}

#[test]
fn the_output_cap_cuts_a_block_of_long_lines() {
    let env = Env::new();
    // 80 lines of 2000 characters: 160,000 characters, over read's 100,000
    let body: String = (0..80)
        .map(|_| format!("    {}\n", "x".repeat(1996)))
        .collect();
    env.write_file("wide.py", format!("def f():\n{body}"));
    let out = env.call("read", json!({"path": "wide.py", "around_line": 2}));
    out.assert_ok();
    assert!(out.output().chars().count() <= 100_000);
    let d = out.data();
    assert_eq!(d["truncated"], true);
    assert_eq!(block(&out), (1, 81));
    let last = d["end_line"].as_u64().unwrap();
    assert!((40..81).contains(&last), "{last}");
    assert!(
        out.output()
            .ends_with(&format!("(showing lines 1-{last} of the block at lines 1-81: output limit of 100000 characters reached; read the rest with offset and limit)\n")),
        "{}",
        &out.output()[out.output().len() - 300..]
    );
}

#[test]
fn a_block_at_the_end_of_a_large_file() {
    // Many 64 KiB chunks: the shapes pass and the pass that reads the lines must agree.
    let env = Env::new();
    let mut src = String::new();
    for i in 0..20_000 {
        src.push_str(&format!(
            "def f{i}(x):\n    if x:\n        return {i}\n    return 0\n\n"
        ));
    }
    env.write_file("many.py", &src);
    let anchor = 19_999 * 5 + 3; // `return 19999`
    let out = env.call("read", json!({"path": "many.py", "around_line": anchor}));
    out.assert_ok();
    assert_eq!(
        out.output(),
        " 99996\tdef f19999(x):\n 99997\t    if x:\n 99998\t        return 19999\n 99999\t    return 0\n"
    );
    assert_eq!(out.data()["total_lines"], 100_000);
}

#[test]
fn an_indentation_read_is_recorded_like_a_partial_read() {
    let env = Env::new();
    env.write_file("foo.py", PY);
    let edit = json!({"path": "foo.py", "old_string": "return 0", "new_string": "return -1"});
    env.call("edit", edit.clone()).assert_err("not_read");
    env.call(
        "read",
        json!({"path": "foo.py", "around_line": 14, "indentation": {"max_levels": 1}}),
    )
    .assert_ok();
    env.call("edit", edit).assert_ok();
    assert!(
        String::from_utf8(env.read_file("foo.py"))
            .unwrap()
            .contains("return -1")
    );
    // a failed indentation read records nothing
    env.write_file("other.py", "x = 1\n");
    env.call("read", json!({"path": "other.py", "around_line": 5}))
        .assert_invalid("around_line");
    env.call(
        "edit",
        json!({"path": "other.py", "old_string": "x", "new_string": "y"}),
    )
    .assert_err("not_read");
}

#[test]
fn fields_it_cannot_go_with_are_named() {
    let env = Env::new();
    env.write_file("a.py", "x = 1\n");
    env.call(
        "read",
        json!({"path": "a.py", "indentation": {"max_levels": 1}}),
    )
    .assert_invalid("around_line");
    for (field, value) in [
        ("offset", json!(1)),
        ("limit", json!(10)),
        ("line_range", json!([1, 1])),
        ("pages", json!("1")),
    ] {
        let mut input = json!({"path": "a.py", "around_line": 1});
        input[field] = value;
        let out = env.call("read", input);
        out.assert_invalid(field);
        assert!(
            out.json["error"]["message"]
                .as_str()
                .unwrap()
                .contains("around_line")
        );
    }
    env.call("read", json!({"paths": ["a.py"], "around_line": 1}))
        .assert_invalid("paths");
    env.call("read", json!({"path": "a.py", "around_line": 0}))
        .assert_invalid("around_line");
    env.call(
        "read",
        json!({"path": "a.py", "around_line": 1, "indentation": {"max_lines": 0}}),
    )
    .assert_invalid("indentation.max_lines");
    env.call(
        "read",
        json!({"path": "a.py", "around_line": 1, "indentation": {"anchor_line": 1}}),
    )
    .assert_invalid("indentation.anchor_line");
    env.call(
        "read",
        json!({"path": "a.py", "around_line": 1, "indentation": {"max_levels": -1}}),
    )
    .assert_err("invalid_input");
}

#[test]
fn out_of_range_names_the_line_count() {
    let env = Env::new();
    env.write_file("three.txt", "a\nb\nc\n");
    let out = env.call("read", json!({"path": "three.txt", "around_line": 4}));
    out.assert_invalid("around_line");
    assert_eq!(
        out.json["error"]["message"],
        "read: around_line 4 is past the end: three.txt has 3 lines"
    );
    assert_eq!(out.json["error"]["total_lines"], 3);
    env.write_file("empty.txt", "");
    let out = env.call("read", json!({"path": "empty.txt", "around_line": 1}));
    out.assert_invalid("around_line");
    assert!(
        out.json["error"]["message"]
            .as_str()
            .unwrap()
            .ends_with("has 0 lines")
    );
    // the last line is in range
    env.call("read", json!({"path": "three.txt", "around_line": 3}))
        .assert_ok();
}

#[test]
fn images_pdfs_notebooks_and_binary_files_are_refused() {
    let env = Env::new();
    env.write_file("pic.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    env.write_file("doc.pdf", "%PDF-1.4\n%\n");
    env.write_file(
        "nb.ipynb",
        r#"{"cells": [], "nbformat": 4, "nbformat_minor": 5, "metadata": {}}"#,
    );
    for (path, what) in [
        ("pic.png", "a PNG image"),
        ("doc.pdf", "a PDF"),
        ("nb.ipynb", "a notebook"),
    ] {
        let out = env.call("read", json!({"path": path, "around_line": 1}));
        out.assert_invalid("around_line");
        let message = out.json["error"]["message"].as_str().unwrap();
        assert!(message.ends_with(&format!("{path} is {what}")), "{message}");
    }
    env.write_file("blob.bin", b"\0\x01\x02\n");
    env.call("read", json!({"path": "blob.bin", "around_line": 1}))
        .assert_err("binary_file");
}

#[test]
fn a_legacy_encoding_is_decoded() {
    let env = Env::new();
    // windows-1252: "café"
    env.write_file(
        "old.py",
        b"def f():\n    s = 'caf\xe9'\n    return s\nx = 1\n",
    );
    let out = env.call("read", json!({"path": "old.py", "around_line": 2}));
    out.assert_ok();
    assert_eq!(out.data()["encoding"], "windows-1252");
    assert_eq!(
        out.output(),
        "     1\tdef f():\n     2\t    s = 'café'\n     3\t    return s\n"
    );
}
