//! `grep` with `structural: true` and `rewrite` (SPEC 26.4) through the binary.

use serde_json::json;
use testkit::Env;

fn project() -> Env {
    let env = Env::new();
    env.write_file(
        "web/a.js",
        "console.log(a);\n// console.log(in_a_comment)\nfoo(console.log(b,\n  c));\n",
    );
    env.write_file(
        "web/b.ts",
        "const s = 'console.log(x)';\nconsole.log(1, 2);\n",
    );
    env.write_file("tool.py", "print(x)\nprint(y, z)\n");
    env.write_file("notes.md", "console.log(a)\n");
    env
}

#[test]
fn structural_grep_matches_code_not_text() {
    let env = project();
    let out = env.call(
        "grep",
        json!({"pattern": "console.log($$$A)", "structural": true, "output_mode": "content"}),
    );
    out.assert_ok();
    // Not the comment, not the string, not the Markdown; the match over two lines is two items.
    assert_eq!(
        out.output(),
        "web/a.js:1:console.log(a);\nweb/a.js:3:foo(console.log(b,\nweb/a.js:4:  c));\nweb/b.ts:2:console.log(1, 2);\n"
    );
    let m = &out.data()["matches"][1];
    assert_eq!(
        m["range"],
        json!({"start": {"line": 3, "column": 5}, "end": {"line": 4, "column": 5}})
    );
    // One metavariable is one node: `console.log($A)` leaves out the two-argument call.
    let out = env.call(
        "grep",
        json!({"pattern": "console.log($A)", "structural": true, "output_mode": "count", "language": "javascript"}),
    );
    assert_eq!(out.output(), "web/a.js:1\n");
    let out = env.call("grep", json!({"pattern": "print($A)", "structural": true}));
    assert_eq!(out.data()["files"], json!(["tool.py"]));
}

#[test]
fn structural_grep_refuses_what_it_cannot_use() {
    let env = project();
    let out = env.call(
        "grep",
        json!({"pattern": "x = 1\nprint(a))", "structural": true, "language": "python"}),
    );
    out.assert_invalid("pattern");
    assert_eq!(out.json["error"]["line"], 2);
    assert!(
        out.output().contains("syntax error at line 2"),
        "{}",
        out.output()
    );
    env.call(
        "grep",
        json!({"pattern": "f($A)", "structural": true, "language": "cobol"}),
    )
    .assert_invalid("language");
    env.call(
        "grep",
        json!({"pattern": "f($A)", "structural": true, "-i": true}),
    )
    .assert_invalid("-i");
    env.call("grep", json!({"pattern": "f", "language": "python"}))
        .assert_invalid("language");
}

#[test]
fn rewrite_replaces_across_files_and_undo_takes_it_back() {
    let env = project();
    let before_a = env.read_file("web/a.js");
    let out = env.call(
        "rewrite",
        json!({"pattern": "console.log($$$A)", "rewrite": "logger.debug($$$A)", "path": "web"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["total"], 3);
    assert_eq!(
        String::from_utf8(env.read_file("web/a.js")).unwrap(),
        "logger.debug(a);\n// console.log(in_a_comment)\nfoo(logger.debug(b,\n  c));\n"
    );
    assert_eq!(
        String::from_utf8(env.read_file("web/b.ts")).unwrap(),
        "const s = 'console.log(x)';\nlogger.debug(1, 2);\n"
    );
    assert!(
        out.output()
            .starts_with("Rewrote 3 matches in 2 files:\nM web/a.js (2)\nM web/b.ts (1)\n"),
        "{}",
        out.output()
    );
    // Journaled per file: two undos restore both.
    env.call("undo", json!({})).assert_ok();
    env.call("undo", json!({})).assert_ok();
    assert_eq!(env.read_file("web/a.js"), before_a);
    assert!(
        String::from_utf8(env.read_file("web/b.ts"))
            .unwrap()
            .contains("console.log(1, 2)")
    );
}

#[test]
fn rewrite_dry_run_and_unbound_metavariables_write_nothing() {
    let env = project();
    let before = env.read_file("tool.py");
    let out = env.call(
        "rewrite",
        json!({"pattern": "print($A)", "rewrite": "log($A)", "glob": "*.py", "dry_run": true}),
    );
    out.assert_ok();
    assert_eq!(out.data()["dry_run"], true);
    assert!(out.data()["diff"].as_str().unwrap().contains("+log(x)"));
    assert_eq!(env.read_file("tool.py"), before);
    let out = env.call(
        "rewrite",
        json!({"pattern": "print($A)", "rewrite": "log($A, $LEVEL)", "language": "python"}),
    );
    out.assert_invalid("rewrite");
    assert_eq!(out.json["error"]["metavariable"], "$LEVEL");
    assert_eq!(env.read_file("tool.py"), before);
    // A pattern that is not code of the language names where.
    env.call(
        "rewrite",
        json!({"pattern": "print(a))", "rewrite": "x", "language": "python"}),
    )
    .assert_invalid("pattern");
    env.call("undo", json!({})).assert_err("not_found");
}

#[test]
fn rewrite_is_all_or_nothing() {
    let env = project();
    // This session read b.ts, which then changes behind its back: stale, so neither file is
    // rewritten (a.js is fine on its own).
    env.read("web/b.ts").assert_ok();
    env.write_file("web/b.ts", "console.log(3);\n");
    let before_a = env.read_file("web/a.js");
    let out = env.call(
        "rewrite",
        json!({"pattern": "console.log($$$A)", "rewrite": "logger.debug($$$A)"}),
    );
    out.assert_err("stale_read");
    assert_eq!(env.read_file("web/a.js"), before_a);
    assert_eq!(env.read_file("web/b.ts"), b"console.log(3);\n");
}

#[test]
fn rewrite_reports_the_syntax_it_breaks() {
    let env = project();
    let out = env.call(
        "rewrite",
        json!({"pattern": "print($A)", "rewrite": "print($A", "path": "tool.py"}),
    );
    out.assert_ok();
    let f = &out.data()["files"][0];
    assert_eq!(f["syntax"]["before"], 0);
    assert!(f["syntax"]["after"].as_u64().unwrap() >= 1);
    assert!(
        out.output().contains("Syntax: tool.py now has"),
        "{}",
        out.output()
    );
}
