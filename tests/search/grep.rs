//! `grep` (SPEC §9, 16.6) through the binary.

use serde_json::{Value, json};
use std::os::unix::fs::symlink;
use testkit::{Env, redact};

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn lines_of(out: &testkit::Out) -> Vec<(String, u64)> {
    out.data()["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["path"].as_str().unwrap().to_string(),
                m["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn sample() -> Env {
    let env = Env::new();
    env.write_file(
        "src/main.rs",
        "fn main() {\n    let x = helper();\n    println!(\"{x}\");\n}\n",
    );
    env.write_file(
        "src/lib.rs",
        "pub fn helper() -> i32 {\n    42\n}\n\n// TODO: more helpers\n",
    );
    env.write_file("README.md", "# Demo\nCall helper() from main.\n");
    env
}

#[test]
fn files_with_matches_is_the_default_snapshot() {
    let env = sample();
    let out = env.call("grep", json!({"pattern": "helper"}));
    out.assert_ok();
    insta::assert_json_snapshot!(redact(&out.json, &env), @r#"
    {
      "ok": true,
      "tool": "grep",
      "output": "README.md\nsrc/lib.rs\nsrc/main.rs\n",
      "data": {
        "mode": "files_with_matches",
        "files": [
          "README.md",
          "src/lib.rs",
          "src/main.rs"
        ],
        "total": 3,
        "truncated": false
      }
    }
    "#);
}

#[test]
fn content_with_context_snapshot() {
    let env = sample();
    let out = env.call(
        "grep",
        json!({"pattern": "helper", "output_mode": "content", "-C": 1}),
    );
    out.assert_ok();
    insta::assert_json_snapshot!(redact(&out.json, &env));
}

#[test]
fn content_lines_and_line_numbers() {
    let env = sample();
    let out = env.call(
        "grep",
        json!({"pattern": "helper", "output_mode": "content"}),
    );
    assert_eq!(
        out.output(),
        "README.md:2:Call helper() from main.\nsrc/lib.rs:1:pub fn helper() -> i32 {\nsrc/lib.rs:5:// TODO: more helpers\nsrc/main.rs:2:    let x = helper();\n"
    );
    assert!(
        out.data()["matches"][0].get("before").is_none(),
        "context arrays only when asked"
    );
    let out = env.call(
        "grep",
        json!({"pattern": "helper", "output_mode": "content", "-n": false, "path": "src/lib.rs"}),
    );
    assert_eq!(
        out.output(),
        "src/lib.rs:pub fn helper() -> i32 {\nsrc/lib.rs:// TODO: more helpers\n"
    );
    assert_eq!(
        out.data()["matches"][1]["line"],
        5,
        "data keeps line numbers"
    );
}

#[test]
fn context_groups_are_separated_like_ripgrep() {
    let env = Env::new();
    let body: String = (1..=20)
        .map(|i| {
            format!(
                "line {i}{}\n",
                if i == 5 || i == 7 || i == 15 {
                    " hit"
                } else {
                    ""
                }
            )
        })
        .collect();
    env.write_file("a.txt", &body);
    env.write_file("b.txt", "hit\n");
    let out = env.call(
        "grep",
        json!({"pattern": "hit", "output_mode": "content", "-C": 1}),
    );
    assert_eq!(
        out.output(),
        "a.txt-4-line 4\na.txt:5:line 5 hit\na.txt-6-line 6\na.txt:7:line 7 hit\na.txt-8-line 8\n--\na.txt-14-line 14\na.txt:15:line 15 hit\na.txt-16-line 16\n--\nb.txt:1:hit\n"
    );
    let m = &out.data()["matches"];
    assert_eq!(m[0]["before"], json!([{"line": 4, "text": "line 4"}]));
    assert_eq!(m[0]["after"], json!([{"line": 6, "text": "line 6"}]));
    assert_eq!(m[1]["before"], json!([]), "a context line is reported once");
    // -A and -B override -C.
    let out = env.call(
        "grep",
        json!({"pattern": "hit", "output_mode": "content", "-C": 3, "-A": 0, "-B": 1, "path": "b.txt"}),
    );
    assert_eq!(out.output(), "b.txt:1:hit\n");
    let out = env.call(
        "grep",
        json!({"pattern": "15 hit", "output_mode": "content", "-C": 3, "-A": 0, "path": "a.txt"}),
    );
    assert_eq!(
        out.output(),
        "a.txt-12-line 12\na.txt-13-line 13\na.txt-14-line 14\na.txt:15:line 15 hit\n"
    );
    assert!(out.data()["matches"][0].get("after").is_none());
}

#[test]
fn count_mode_counts_matching_lines() {
    let env = Env::new();
    env.write_file("a.txt", "x x x\ny\nx\n");
    env.write_file("b.txt", "x\n");
    env.write_file("c.txt", "none\n");
    let out = env.call("grep", json!({"pattern": "x", "output_mode": "count"}));
    assert_eq!(out.output(), "a.txt:2\nb.txt:1\n");
    assert_eq!(
        out.data()["counts"],
        json!([{"path": "a.txt", "count": 2}, {"path": "b.txt", "count": 1}])
    );
    assert_eq!(out.data()["total"], 2);
}

#[test]
fn case_insensitive_and_fixed_strings() {
    let env = Env::new();
    env.write_file("a.txt", "Hello\nHELLO\nhello\nf(x)\nfxx)\n");
    let out = env.call("grep", json!({"pattern": "hello", "output_mode": "count"}));
    assert_eq!(out.output(), "a.txt:1\n");
    let out = env.call(
        "grep",
        json!({"pattern": "hello", "output_mode": "count", "-i": true}),
    );
    assert_eq!(out.output(), "a.txt:3\n");
    let out = env.call(
        "grep",
        json!({"pattern": "f(x)", "output_mode": "content", "fixed_strings": true}),
    );
    assert_eq!(out.output(), "a.txt:4:f(x)\n");
    let out = env.call("grep", json!({"pattern": "f(x)", "output_mode": "content"}));
    assert_eq!(out.output(), "a.txt:5:fxx)\n", "as a regex, f(x) is fx");
}

#[test]
fn multiline_match_gives_one_entry_per_line() {
    let env = Env::new();
    env.write_file("a.rs", "struct A {\n    x: i32,\n}\nfn f() {}\n");
    let out = env.call(
        "grep",
        json!({"pattern": "struct A \\{.*?\\}", "output_mode": "content", "multiline": true}),
    );
    out.assert_ok();
    assert_eq!(
        out.output(),
        "a.rs:1:struct A {\na.rs:2:    x: i32,\na.rs:3:}\n"
    );
    assert_eq!(out.data()["total"], 3);
    let out = env.call(
        "grep",
        json!({"pattern": "struct A \\{.*?\\}", "output_mode": "content", "multiline": true, "head_limit": 2}),
    );
    assert_eq!(lines_of(&out), [("a.rs".into(), 1), ("a.rs".into(), 2)]);
    // Without multiline a pattern with a newline is refused with the reason.
    let out = env.call("grep", json!({"pattern": "A \\{\\n"}));
    out.assert_err("invalid_regex");
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("multiline")
    );
}

#[test]
fn glob_and_type_filters() {
    let env = Env::new();
    for f in [
        "a.rs", "b.ts", "c.tsx", "d.min.js", "e.js", "sub/f.rs", "g.py",
    ] {
        env.write_file(f, "needle\n");
    }
    let get = |v: Value| strs(&env.call("grep", v).data()["files"]);
    assert_eq!(
        get(json!({"pattern": "needle", "glob": "*.rs"})),
        ["a.rs", "sub/f.rs"]
    );
    assert_eq!(
        get(json!({"pattern": "needle", "glob": "*.{ts,tsx}"})),
        ["b.ts", "c.tsx"]
    );
    assert_eq!(
        get(json!({"pattern": "needle", "glob": ["*.js", "!*.min.js"]})),
        ["e.js"]
    );
    assert_eq!(
        get(json!({"pattern": "needle", "type": "rust"})),
        ["a.rs", "sub/f.rs"]
    );
    assert_eq!(get(json!({"pattern": "needle", "type": "py"})), ["g.py"]);
    // Flags: a repeated --glob is an array; a glob that starts with `[` is not JSON.
    let out = env.run(
        &["grep", "needle", "--glob", "*.js", "--glob", "!*.min.js"],
        "",
    );
    assert_eq!(strs(&out.data()["files"]), ["e.js"]);
    let out = env.run(&["grep", "needle", "--glob", "[ab].*"], "");
    assert_eq!(strs(&out.data()["files"]), ["a.rs", "b.ts"]);
    let out = env.call("grep", json!({"pattern": "needle", "type": "klingon"}));
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "type");
    env.call("grep", json!({"pattern": "needle", "glob": "{a,b"}))
        .assert_err("invalid_glob");
}

#[test]
fn head_limit_offset_and_total() {
    let env = Env::new();
    for i in 0..30 {
        env.write_file(&format!("f{i:02}.txt"), "hit\nhit\n");
    }
    let out = env.call("grep", json!({"pattern": "hit"}));
    assert_eq!(out.data()["total"], 30);
    assert_eq!(out.data()["truncated"], false);
    let out = env.call(
        "grep",
        json!({"pattern": "hit", "head_limit": 4, "offset": 10}),
    );
    assert_eq!(
        strs(&out.data()["files"]),
        ["f10.txt", "f11.txt", "f12.txt", "f13.txt"]
    );
    assert_eq!(out.data()["total"], 30);
    assert_eq!(out.data()["truncated"], true);
    assert!(
        out.output()
            .ends_with("(showing entries 11-14 of 30; use offset=14 to see more)\n"),
        "{}",
        out.output()
    );
    let out = env.call(
        "grep",
        json!({"pattern": "hit", "output_mode": "content", "head_limit": 3}),
    );
    assert_eq!(
        out.output(),
        "f00.txt:1:hit\nf00.txt:2:hit\nf01.txt:1:hit\n(showing 3 of 60 entries; use offset=3 to see more)\n"
    );
    let out = env.call(
        "grep",
        json!({"pattern": "hit", "output_mode": "content", "head_limit": 0}),
    );
    assert_eq!(out.data()["matches"].as_array().unwrap().len(), 60);
    assert_eq!(out.data()["truncated"], false);
    let out = env.call("grep", json!({"pattern": "hit", "offset": 100}));
    out.assert_ok();
    assert!(
        out.output()
            .starts_with("No entries at offset 100 (30 entries")
    );
    // The default for files is 250.
    for i in 30..260 {
        env.write_file(&format!("g{i:03}.txt"), "hit\n");
    }
    let out = env.call("grep", json!({"pattern": "hit"}));
    assert_eq!(out.data()["files"].as_array().unwrap().len(), 250);
    assert_eq!(out.data()["total"], 260);
}

#[test]
fn output_cap_keeps_data_and_says_where_to_continue() {
    let env = Env::new();
    let line = format!("hit {}\n", "x".repeat(300));
    env.write_file("big.txt", line.repeat(200));
    let out = env.call("grep", json!({"pattern": "hit", "output_mode": "content"}));
    let text = out.output();
    assert!(text.chars().count() <= 20_000);
    let last = text.lines().last().unwrap();
    assert!(last.contains("output cap reached"), "{last}");
    let shown = text.lines().count() - 1;
    assert!(last.contains(&format!("use offset={shown} ")), "{last}");
    assert_eq!(out.data()["matches"].as_array().unwrap().len(), 200);
    assert_eq!(out.data()["truncated"], true);
}

#[test]
fn long_lines_are_cut_with_a_marker() {
    let env = Env::new();
    env.write_file(
        "min.js",
        format!("{}needle{}\n", "a".repeat(1000), "b".repeat(2000)),
    );
    let out = env.call(
        "grep",
        json!({"pattern": "needle", "output_mode": "content"}),
    );
    let text = out.data()["matches"][0]["text"].as_str().unwrap();
    assert!(text.ends_with("… [line truncated: 3006 chars]"), "{text}");
    assert_eq!(
        text.chars().count(),
        2000 + "… [line truncated: 3006 chars]".chars().count()
    );
    assert!(out.output().contains("… [line truncated: 3006 chars]\n"));
}

#[test]
fn binary_files_are_skipped_as_ripgrep_does() {
    let env = Env::new();
    env.write_file("text.txt", "needle\n");
    env.write_file("bin.dat", b"needle\0\x01\x02");
    // A UTF-16 file with a BOM is text (transcoded), as in ripgrep.
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("needle\n".encode_utf16().flat_map(|u| u.to_le_bytes()))
        .collect();
    env.write_file("wide.txt", utf16);
    let out = env.call("grep", json!({"pattern": "needle"}));
    assert_eq!(strs(&out.data()["files"]), ["text.txt", "wide.txt"]);
    // Named explicitly, a binary file is searched: listed and counted, its lines not shown.
    let out = env.call("grep", json!({"pattern": "needle", "path": "bin.dat"}));
    assert_eq!(strs(&out.data()["files"]), ["bin.dat"]);
    let out = env.call(
        "grep",
        json!({"pattern": "needle", "path": "bin.dat", "output_mode": "count"}),
    );
    assert_eq!(out.output(), "bin.dat:1\n");
    let out = env.call(
        "grep",
        json!({"pattern": "needle", "path": "bin.dat", "output_mode": "content"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["total"], 0);
    assert!(
        out.data()["warnings"][0]
            .as_str()
            .unwrap()
            .contains("binary file matches")
    );
}

#[test]
fn a_named_file_is_searched_whatever_the_filters_say() {
    let env = Env::new();
    env.write_file(".gitignore", "ignored.log\n");
    env.write_file("ignored.log", "needle\n");
    env.write_file(".hidden", "needle\n");
    env.write_file("seen.txt", "needle\n");
    let out = env.call("grep", json!({"pattern": "needle"}));
    assert_eq!(strs(&out.data()["files"]), ["seen.txt"]);
    for f in ["ignored.log", ".hidden"] {
        let out = env.call(
            "grep",
            json!({"pattern": "needle", "path": f, "glob": "*.rs", "type": "rust"}),
        );
        assert_eq!(strs(&out.data()["files"]), [f]);
    }
    let out = env.call(
        "grep",
        json!({"pattern": "needle", "hidden": true, "no_ignore": true}),
    );
    assert_eq!(
        strs(&out.data()["files"]),
        [".hidden", "ignored.log", "seen.txt"]
    );
}

#[test]
fn symlinks_and_loops_are_not_followed() {
    let env = Env::new();
    let outside = env.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("leak.txt"), "needle\n").unwrap();
    env.write_file("d/a.txt", "needle\n");
    symlink(&outside, env.path("escape")).unwrap();
    symlink(env.path("d"), env.path("d/loop")).unwrap();
    symlink(env.path("d/a.txt"), env.path("alias.txt")).unwrap();
    let out = env.call("grep", json!({"pattern": "needle"}));
    out.assert_ok();
    assert_eq!(strs(&out.data()["files"]), ["d/a.txt"]);
    env.call("grep", json!({"pattern": "needle", "path": "escape"}))
        .assert_err("outside_root");
    env.call(
        "grep",
        json!({"pattern": "needle", "path": "escape/leak.txt"}),
    )
    .assert_err("outside_root");
}

#[test]
fn order_is_by_path_then_line_and_repeatable() {
    let env = Env::new();
    for d in ["a", "a-c", "a/b", "B", "z/y/x"] {
        env.write_file(&format!("{d}/f.txt"), "1 hit\n2\n3 hit\n");
    }
    let out = env.call("grep", json!({"pattern": "hit", "output_mode": "content"}));
    let got = lines_of(&out);
    assert_eq!(
        got,
        [
            ("B/f.txt".into(), 1),
            ("B/f.txt".into(), 3),
            ("a/b/f.txt".into(), 1),
            ("a/b/f.txt".into(), 3),
            ("a/f.txt".into(), 1),
            ("a/f.txt".into(), 3),
            ("a-c/f.txt".into(), 1),
            ("a-c/f.txt".into(), 3),
            ("z/y/x/f.txt".into(), 1),
            ("z/y/x/f.txt".into(), 3),
        ]
    );
    for _ in 0..3 {
        let again = env.call("grep", json!({"pattern": "hit", "output_mode": "content"}));
        assert_eq!(again.stdout, out.stdout);
    }
}

#[test]
fn no_match_is_ok() {
    let env = sample();
    let out = env.call("grep", json!({"pattern": "zebra"}));
    out.assert_ok();
    assert_eq!(out.output(), "No matches found\n");
    assert_eq!(out.data()["total"], 0);
}

#[test]
fn command_line_switches() {
    let env = sample();
    // `-n` is a switch: it never eats the pattern.
    let out = env.run(
        &["grep", "-n", "helper", "src", "--output-mode", "content"],
        "",
    );
    out.assert_ok();
    assert_eq!(out.data()["total"], 3);
    let out = env.run(
        &[
            "grep",
            "-i",
            "HELPER",
            "src/lib.rs",
            "--output-mode",
            "content",
            "-N",
            "--format",
            "text",
        ],
        "",
    );
    assert_eq!(
        out.stdout,
        "src/lib.rs:pub fn helper() -> i32 {\nsrc/lib.rs:// TODO: more helpers\n"
    );
    let out = env.run(
        &[
            "grep",
            "helper",
            "src/lib.rs",
            "--output-mode",
            "content",
            "--no-n",
            "-A",
            "1",
        ],
        "",
    );
    assert_eq!(
        out.output(),
        "src/lib.rs:pub fn helper() -> i32 {\nsrc/lib.rs-    42\n--\nsrc/lib.rs:// TODO: more helpers\n"
    );
    let out = env.run(&["grep", "x", "-A", "-1"], "");
    out.assert_err("invalid_input");
}

#[test]
fn errors() {
    let env = sample();
    let out = env.call("grep", json!({"pattern": "fn main("}));
    out.assert_err("invalid_regex");
    let msg = out.json["error"]["message"].as_str().unwrap();
    assert!(msg.contains("unclosed group"), "{msg}");
    assert!(msg.contains("fn main("), "the pattern as given: {msg}");
    let out = env.call("grep", json!({"pattern": "x", "path": "missing"}));
    out.assert_err("not_found");
    assert_eq!(out.json["error"]["path"], "missing");
    env.call("grep", json!({"pattern": "x", "path": "../"}))
        .assert_err("outside_root");
    env.call("grep", json!({"pattern": "x", "glob": "[z-a]"}))
        .assert_err("invalid_glob");
    // (`context` is seed 000's field now, SPEC 25.6: an unknown one is still refused.)
    let out = env.call("grep", json!({"pattern": "x", "contexts": 2}));
    out.assert_err("invalid_input");
    assert!(out.output().contains("-C"), "lists the accepted fields");
    let out = env.call("grep", json!({"pattern": "x", "glob": 3}));
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "glob");
    let out = env.call("grep", json!({"pattern": "x", "output_mode": "lines"}));
    out.assert_err("invalid_input");
    env.call("grep", json!({})).assert_err("invalid_input");
}

/// The text of line `n` of file `i` in `large_result`.
fn large_line(i: usize, n: usize) -> String {
    format!("hit {i:02} {n:03} {}", "é".repeat(30))
}

/// 40 files of 200 matching lines, ~600 KB of kept lines: more than grep holds in memory
/// (256 KiB), so most files' lines wait in a temp file until the page is written.
fn large_result() -> Env {
    let env = Env::new();
    for i in 0..40 {
        let text: String = (1..=200).map(|n| large_line(i, n) + "\n").collect();
        env.write_file(&format!("f{i:02}.txt"), text);
    }
    std::fs::create_dir(env.path("../tmp")).unwrap();
    env
}

/// `grep hit` of everything, with `TMPDIR` in the scratch dir and `fault` as the fault switch.
fn grep_all(env: &Env, fault: Option<&str>) -> testkit::Out {
    let mut c = env.cmd();
    c.env("TMPDIR", env.path("../tmp"));
    if let Some(f) = fault {
        c.env("LOOPR_DEBUG_FAIL", f);
    }
    c.args([
        "grep",
        "hit",
        "--output-mode",
        "content",
        "--head-limit",
        "0",
    ]);
    testkit::finish(c)
}

#[test]
fn a_result_past_the_memory_budget_is_complete_and_in_order() {
    let env = large_result();
    let out = grep_all(&env, None);
    out.assert_ok();
    let matches = out.data()["matches"].as_array().unwrap();
    assert_eq!((matches.len(), &out.data()["total"]), (8000, &json!(8000)));
    for (k, m) in matches.iter().enumerate() {
        let (i, n) = (k / 200, k % 200 + 1);
        let want = json!({"path": format!("f{i:02}.txt"), "line": n, "text": large_line(i, n)});
        assert_eq!(m, &want, "entry {k}");
    }
    assert!(
        out.output()
            .starts_with(&format!("f00.txt:1:{}\n", large_line(0, 1)))
    );
    // The temp file was never a name in TMPDIR (or is gone).
    assert_eq!(std::fs::read_dir(env.path("../tmp")).unwrap().count(), 0);
    // The same when no temp file can be made or written: the lines stay in memory.
    for fault in ["spill:EIO", "spill:ENOSPC:2"] {
        assert_eq!(grep_all(&env, Some(fault)).stdout, out.stdout, "{fault}");
    }
}

#[test]
fn spilled_lines_that_cannot_be_read_back_are_an_io_error() {
    // One file named as the path: its lines alone are past the budget, so they are spilled
    // and read back at once for the output.
    let env = Env::new();
    let text: String = (1..=6000).map(|n| large_line(0, n % 1000) + "\n").collect();
    env.write_file("big.txt", text);
    let mut c = env.cmd();
    c.env("LOOPR_DEBUG_FAIL", "unspill:EIO").args([
        "grep",
        "hit",
        "big.txt",
        "--output-mode",
        "content",
        "--head-limit",
        "0",
    ]);
    let out = testkit::finish(c);
    out.assert_err("io_error");
    let msg = out.json["error"]["message"].as_str().unwrap();
    assert!(msg.contains("temp file"), "{msg}");
    // Without the fault, the same call shows every line.
    let out = env.run(
        &[
            "grep",
            "hit",
            "big.txt",
            "--output-mode",
            "content",
            "--head-limit",
            "0",
        ],
        "",
    );
    out.assert_ok();
    assert_eq!(out.data()["matches"].as_array().unwrap().len(), 6000);
    assert_eq!(out.data()["matches"][5999]["text"], large_line(0, 0));
}

/// Seed 000's grep {pattern, file_pattern, context} (SPEC 25.6): `file_pattern` is `glob`;
/// `context` is `-C` with content output by default and at most 100 matches a file.
#[test]
fn the_seeds_file_pattern_and_context() {
    let env = sample();
    env.write_file("many.txt", "hit\n".repeat(150));
    let out = env.call(
        "grep",
        json!({"pattern": "helper", "file_pattern": "*.rs", "context": 1}),
    );
    out.assert_ok();
    let paths: Vec<String> = lines_of(&out).into_iter().map(|(p, _)| p).collect();
    assert!(paths.iter().all(|p| p.ends_with(".rs")), "{paths:?}");
    assert!(
        out.output().contains("src/main.rs-1-fn main() {"),
        "{}",
        out.output()
    );
    let out = env.call("grep", json!({"pattern": "hit", "context": 0}));
    out.assert_ok();
    assert_eq!(lines_of(&out).len(), 100, "{}", out.output());
    assert!(
        out.json["data"]["warnings"]
            .to_string()
            .contains("stopped at 100 matches"),
        "{}",
        out.json
    );
    // -C is ours and shows every match.
    let out = env.call(
        "grep",
        json!({"pattern": "hit", "-C": 0, "output_mode": "content"}),
    );
    assert_eq!(lines_of(&out).len(), 150);
    // Given both ways, each is one field twice.
    env.call("grep", json!({"pattern": "x", "context": 1, "-C": 1}))
        .assert_invalid("context");
    env.call(
        "grep",
        json!({"pattern": "x", "file_pattern": "*.rs", "glob": "*.md"}),
    )
    .assert_invalid("glob");
}
