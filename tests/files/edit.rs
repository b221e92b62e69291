//! `edit` end to end (SPEC §7, 16.5): the ladder, multi-edit, failures that teach, every byte
//! kept, encodings. The refusals and concurrency are in edit_errors.rs.

use insta::assert_json_snapshot;
use serde_json::{Value, json};
use testkit::{Env, Out, redact};

fn edit(env: &Env, input: Value) -> Out {
    env.call("edit", input)
}

/// Writes `bytes`, reads it in the default session, and edits it; returns the envelope.
fn read_and_edit(env: &Env, name: &str, bytes: &[u8], input: Value) -> Out {
    env.write_file(name, bytes);
    env.read(name);
    let mut input = input;
    input["path"] = json!(name);
    edit(env, input)
}

// ---------------------------------------------------------------- success, output, data

#[test]
fn one_exact_edit_snapshot() {
    let env = Env::new();
    let body = "fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n";
    let out = read_and_edit(
        &env,
        "src/main.rs",
        body.as_bytes(),
        json!({"old_string": "let x = 1;", "new_string": "let x = 2;\n    let y = 3;"}),
    );
    out.assert_ok();
    assert_json_snapshot!("exact", redact(&out.json, &env));
    assert_eq!(
        env.read_file("src/main.rs"),
        b"fn main() {\n    let x = 2;\n    let y = 3;\n    println!(\"{x}\");\n}\n"
    );
}

#[test]
fn output_numbers_the_changed_region_as_read_does() {
    let env = Env::new();
    let body: String = (1..=20).map(|i| format!("line {i}\n")).collect();
    let out = read_and_edit(
        &env,
        "a.txt",
        body.as_bytes(),
        json!({"old_string": "line 10\nline 11\n", "new_string": "ten\neleven\nmore\n"}),
    );
    out.assert_ok();
    assert_eq!(
        (
            out.data()["first_line"].as_u64(),
            out.data()["last_line"].as_u64()
        ),
        (Some(10), Some(12))
    );
    let read = env.call("read", json!({"path": "a.txt", "offset": 7, "limit": 9}));
    let mut expected = "Edited a.txt: 1 replacement\n".to_string();
    expected.push_str(
        &read
            .output()
            .lines()
            .take(9)
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    );
    assert_eq!(out.output(), expected);
}

#[test]
fn replace_all_and_ambiguous_match() {
    let env = Env::new();
    let body = "a = old();\nb = 1;\nc = old();\nd = old();\n";
    let out = read_and_edit(
        &env,
        "x.py",
        body.as_bytes(),
        json!({"old_string": "old()", "new_string": "new()"}),
    );
    out.assert_err("ambiguous_match");
    assert_json_snapshot!("ambiguous", redact(&out.json, &env));
    assert_eq!(env.read_file("x.py"), body.as_bytes());
    let out = edit(
        &env,
        json!({"path": "x.py", "old_string": "old()", "new_string": "new()", "replace_all": true}),
    );
    out.assert_ok();
    assert_eq!(out.data()["replacements"], 3);
    assert!(out.output().starts_with("Edited x.py: 3 replacements\n"));
    assert_eq!(
        env.read_file("x.py"),
        b"a = new();\nb = 1;\nc = new();\nd = new();\n"
    );
    // ambiguity on a lower rung is refused too, never a silent pick
    let out = read_and_edit(
        &env,
        "y.py",
        b"x = 1  \ny\nx = 1\t\ny\n",
        json!({"old_string": "x = 1\ny", "new_string": "z"}),
    );
    out.assert_err("ambiguous_match");
    assert_eq!(out.json["error"]["lines"], json!([1, 3]));
    assert!(
        out.output().contains("ignoring trailing whitespace"),
        "{}",
        out.output()
    );
}

#[test]
fn edits_apply_in_order_all_or_nothing() {
    let env = Env::new();
    let body = "alpha\nbeta\ngamma\n";
    let out = read_and_edit(
        &env,
        "m.txt",
        body.as_bytes(),
        json!({"edits": [
            {"old_string": "alpha", "new_string": "ALPHA"},
            {"old_string": "delta", "new_string": "DELTA"}
        ]}),
    );
    out.assert_err("no_match");
    assert_eq!(out.json["error"]["edit_index"], 1);
    assert!(
        out.output().starts_with("edit 2 of 2 (edits[1]): "),
        "{}",
        out.output()
    );
    assert_eq!(env.read_file("m.txt"), body.as_bytes(), "nothing applied");
    assert!(out.output().contains("None of the edits was applied"));
    let out = edit(
        &env,
        json!({"path": "m.txt", "edits": [
            {"old_string": "alpha", "new_string": "ALPHA"},
            {"old_string": "ALPHA\nbeta  ", "new_string": "AB"},
            {"old_string": "gamma", "new_string": "G", "replace_all": true}
        ]}),
    );
    out.assert_ok();
    assert_eq!(
        out.data()["match"],
        json!(["exact", "trailing_whitespace", "exact"])
    );
    assert_eq!(out.data()["replacements"], 3);
    assert!(
        out.output()
            .contains("Edit 2 of 3 (edits[1]): matched ignoring trailing whitespace"),
        "{}",
        out.output()
    );
    assert_eq!(env.read_file("m.txt"), b"AB\nG\n");
}

#[test]
fn dry_run_shows_the_diff_and_changes_nothing() {
    let env = Env::new();
    let body = "one\ntwo\nthree\n";
    env.write_file("d.txt", body);
    env.read("d.txt");
    let reads = env.run(&["session"], "").data()["reads"].clone();
    let out = edit(
        &env,
        json!({"path": "d.txt", "old_string": "two", "new_string": "2", "dry_run": true}),
    );
    out.assert_ok();
    let diff = "--- a/d.txt\n+++ b/d.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n";
    assert_eq!(out.output(), diff);
    assert_eq!(out.data()["diff"], diff);
    assert_eq!(out.data()["dry_run"], true);
    assert_eq!(env.read_file("d.txt"), body.as_bytes());
    let s = env.run(&["session"], "");
    assert_eq!(s.data()["undo_depth"], 0, "no journal entry");
    assert_eq!(s.data()["reads"], reads, "no read-record change");
    // a real edit afterwards still works from the same read record, and is journaled
    let out = edit(
        &env,
        json!({"path": "d.txt", "old_string": "two", "new_string": "2"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["diff"], diff);
    let s = env.run(&["session"], "");
    assert_eq!(s.data()["undo_depth"], 1);
    assert_ne!(s.data()["reads"], reads, "the edit updated the read record");
    // and a second edit needs no new read
    edit(
        &env,
        json!({"path": "d.txt", "old_string": "2", "new_string": "two"}),
    )
    .assert_ok();
}

#[test]
fn flags_positionals_and_other_agents_field_names() {
    let env = Env::new();
    env.write_file("f.txt", "a b c\n");
    env.read("f.txt");
    env.run(
        &["edit", "f.txt", "--old-string", "b", "--new-string", "B"],
        "",
    )
    .assert_ok();
    env.run(
        &[
            "edit",
            "f.txt",
            "--edits",
            r#"[{"old_string": "a", "new_string": "A"}]"#,
        ],
        "",
    )
    .assert_ok();
    edit(
        &env,
        json!({"file_path": "f.txt", "old_str": "c", "new_str": "C"}),
    )
    .assert_ok();
    assert_eq!(env.read_file("f.txt"), b"A B C\n");
}

// ---------------------------------------------------------------- the ladder, per rung

#[test]
fn rung_trailing_whitespace_and_its_near_miss() {
    let env = Env::new();
    let body = "if x:   \n    go()\t\nend\n";
    let out = read_and_edit(
        &env,
        "t.py",
        body.as_bytes(),
        json!({"old_string": "if x:\n    go()", "new_string": "if y:\n    stop()"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["match"], "trailing_whitespace");
    assert!(
        out.output()
            .contains("Matched ignoring trailing whitespace.")
    );
    assert_eq!(env.read_file("t.py"), b"if y:\n    stop()\nend\n");
    let out = edit(
        &env,
        json!({"path": "t.py", "old_string": "if y:\n    stop( )", "new_string": "z"}),
    );
    out.assert_err("no_match");
}

#[test]
fn rung_typography_and_its_near_miss() {
    let env = Env::new();
    let body = "msg = \u{201C}it\u{2019}s done\u{201D} \u{2014} ok\u{2026}\n";
    let out = read_and_edit(
        &env,
        "q.txt",
        body.as_bytes(),
        json!({"old_string": "msg = \"it's done\" - ok...", "new_string": "msg = \"done\""}),
    );
    out.assert_ok();
    assert_eq!(out.data()["match"], "typography");
    assert_eq!(env.read_file("q.txt"), b"msg = \"done\"\n");
    // folding quotes does not excuse a different word
    env.write_file("r.txt", body);
    env.read("r.txt");
    let out = edit(
        &env,
        json!({"path": "r.txt", "old_string": "msg = \"it's gone\" - ok...", "new_string": "z"}),
    );
    out.assert_err("no_match");
    let hint = out.json["error"]["hint"].as_str().unwrap();
    assert!(
        hint.contains("quotes") && hint.contains("the text itself"),
        "{hint}"
    );
}

#[test]
fn rung_indentation_tabs_typed_as_spaces() {
    let env = Env::new();
    let body = "all:\n\tcc -o app main.c\n\tstrip app\n";
    let out = read_and_edit(
        &env,
        "Makefile",
        body.as_bytes(),
        json!({"old_string": "    cc -o app main.c\n    strip app", "new_string": "    cc -O2 -o app main.c\n    strip app\n        # nested"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["match"], "indentation");
    assert!(
        out.output().contains("tabs where old_string has spaces"),
        "{}",
        out.output()
    );
    assert_eq!(
        env.read_file("Makefile"),
        b"all:\n\tcc -O2 -o app main.c\n\tstrip app\n\t\t# nested\n"
    );
}

#[test]
fn rung_indentation_shift_and_its_near_miss() {
    let env = Env::new();
    let body = "class A:\n    def f(self):\n        return 1\n";
    let out = read_and_edit(
        &env,
        "a.py",
        body.as_bytes(),
        json!({"old_string": "def f(self):\n    return 1\n", "new_string": "def f(self):\n    x = 1\n    return x\n"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["match"], "indentation");
    assert_eq!(
        env.read_file("a.py"),
        b"class A:\n    def f(self):\n        x = 1\n        return x\n"
    );
    // lines moved by different amounts are no single mapping
    let out = edit(
        &env,
        json!({"path": "a.py", "old_string": "def f(self):\n  x = 1\n    return x", "new_string": "z"}),
    );
    out.assert_err("no_match");
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("whitespace"),
        "{}",
        out.stdout
    );
}

// ---------------------------------------------------------------- failures that teach

#[test]
fn no_match_shows_the_closest_region_snapshot() {
    let env = Env::new();
    let body = "use std::io;\n\nfn read_config(path: &str) -> io::Result<String> {\n    std::fs::read_to_string(path)\n}\n";
    let out = read_and_edit(
        &env,
        "src/config.rs",
        body.as_bytes(),
        json!({"old_string": "fn read_config(path: &Path) -> io::Result<String> {\n    std::fs::read_to_string(path)\n}", "new_string": "x"}),
    );
    out.assert_err("no_match");
    assert_json_snapshot!("no_match", redact(&out.json, &env));
    let c = &out.json["error"]["closest"];
    assert_eq!(
        (c["start_line"].as_u64(), c["end_line"].as_u64()),
        (Some(3), Some(5))
    );
}

#[test]
fn no_match_hints_name_what_differs() {
    let env = Env::new();
    let hint = |out: &Out| out.json["error"]["hint"].as_str().unwrap_or("").to_string();
    // whitespace inside a line is forgiven by no rung
    let out = read_and_edit(
        &env,
        "w.txt",
        b"let total = a + b;\n",
        json!({"old_string": "let total  =  a + b;", "new_string": "x"}),
    );
    out.assert_err("no_match");
    assert!(
        hint(&out).contains("whitespace") && !hint(&out).contains("text itself"),
        "{}",
        hint(&out)
    );
    // tabs vs spaces without one consistent width
    let out = read_and_edit(
        &env,
        "t.txt",
        b"if a {\n\tb();\n\t\tc();\n}\n",
        json!({"old_string": "if a {\n    b();\n      c();\n}", "new_string": "x"}),
    );
    out.assert_err("no_match");
    assert!(hint(&out).contains("tabs vs spaces"), "{}", hint(&out));
    // a file with old Mac line endings (CR alone)
    let out = read_and_edit(
        &env,
        "cr.txt",
        b"first\rsecond\rthird\r",
        json!({"old_string": "first\nsecond", "new_string": "x"}),
    );
    out.assert_err("no_match");
    assert!(hint(&out).contains("line endings"), "{}", hint(&out));
    // the text itself, with the line that differs
    let out = read_and_edit(
        &env,
        "x.txt",
        b"alpha = 1\nbeta = 2\n",
        json!({"old_string": "alpha = 1\nbeta = 3", "new_string": "x"}),
    );
    out.assert_err("no_match");
    assert!(
        hint(&out).contains("line 2 reads `beta = 2` where old_string has `beta = 3`"),
        "{}",
        hint(&out)
    );
    // new_string already where old_string would be
    let out = read_and_edit(
        &env,
        "done.txt",
        b"a\nvalue = 2\nb\n",
        json!({"old_string": "value = 1", "new_string": "value = 2"}),
    );
    out.assert_err("no_match");
    assert!(
        hint(&out).contains("looks already applied"),
        "{}",
        hint(&out)
    );
    assert!(hint(&out).contains("line 2"), "{}", hint(&out));
    // nothing alike at all
    let out = read_and_edit(
        &env,
        "z.txt",
        b"abc\n",
        json!({"old_string": "zzz", "new_string": "x"}),
    );
    out.assert_err("no_match");
    assert_eq!(out.json["error"]["closest"], Value::Null);
    let out = read_and_edit(
        &env,
        "empty.txt",
        b"",
        json!({"old_string": "a", "new_string": "b"}),
    );
    out.assert_err("no_match");
    assert!(
        out.output().contains("The file is empty."),
        "{}",
        out.output()
    );
}

// ---------------------------------------------------------------- every byte kept

#[test]
fn a_missing_final_newline_stays_missing() {
    let env = Env::new();
    let out = read_and_edit(
        &env,
        "n.txt",
        b"a\nlast line  ",
        json!({"old_string": "last line\n", "new_string": "final line\n"}),
    );
    out.assert_ok();
    assert_eq!(env.read_file("n.txt"), b"a\nfinal line");
}

#[test]
fn crlf_files_edited_with_lf_strings_stay_crlf() {
    let env = Env::new();
    let out = read_and_edit(
        &env,
        "w.bat",
        b"@echo off\r\nset A=1\r\nset B=2\r\n",
        json!({"old_string": "set A=1\nset B=2\n", "new_string": "set A=10\nset B=20\nset C=30\n"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["match"], "exact");
    assert_eq!(
        env.read_file("w.bat"),
        b"@echo off\r\nset A=10\r\nset B=20\r\nset C=30\r\n"
    );
}

#[test]
fn bom_final_newline_mixed_endings_and_invalid_bytes_elsewhere_are_kept() {
    let env = Env::new();
    // BOM, a CRLF line, an LF line, invalid UTF-8, no final newline
    let body = b"\xEF\xBB\xBFkeep\r\nchange me\nbad \xFF\xFE bytes\r\nlast";
    let out = read_and_edit(
        &env,
        "k.txt",
        body,
        json!({"old_string": "change me", "new_string": "changed"}),
    );
    out.assert_ok();
    assert_eq!(
        env.read_file("k.txt"),
        b"\xEF\xBB\xBFkeep\r\nchanged\nbad \xFF\xFE bytes\r\nlast"
    );
    assert!(
        out.output().contains("kept exactly"),
        "a warning names the undecodable bytes"
    );
    let out = edit(
        &env,
        json!({"path": "k.txt", "old_string": "last", "new_string": "final"}),
    );
    out.assert_ok();
    assert_eq!(
        env.read_file("k.txt"),
        b"\xEF\xBB\xBFkeep\r\nchanged\nbad \xFF\xFE bytes\r\nfinal"
    );
}

#[test]
fn legacy_encodings_are_edited_in_their_own_encoding() {
    let env = Env::new();
    let latin = b"titre = \"caf\xe9\"\nprix = 5\x80\n";
    let out = read_and_edit(
        &env,
        "l.txt",
        latin,
        json!({"old_string": "café", "new_string": "crème brûlée"}),
    );
    out.assert_ok();
    assert_eq!(
        env.read_file("l.txt"),
        b"titre = \"cr\xe8me br\xfbl\xe9e\"\nprix = 5\x80\n"
    );
    let out = edit(
        &env,
        json!({"path": "l.txt", "old_string": "5€", "new_string": "5 → 6 €"}),
    );
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "new_string");
    assert!(out.output().contains("windows-1252"), "{}", out.output());
    assert_eq!(
        env.read_file("l.txt"),
        b"titre = \"cr\xe8me br\xfbl\xe9e\"\nprix = 5\x80\n"
    );
    let (sjis, _, _) =
        encoding_rs::SHIFT_JIS.encode("日本語のテキストです。\nこれはテストです。\n");
    let out = read_and_edit(
        &env,
        "j.txt",
        &sjis,
        json!({"old_string": "テスト", "new_string": "試験"}),
    );
    out.assert_ok();
    assert_eq!(
        env.read_file("j.txt"),
        encoding_rs::SHIFT_JIS
            .encode("日本語のテキストです。\nこれは試験です。\n")
            .0
            .as_ref()
    );
}

#[test]
fn utf16_with_bom_is_written_back_as_utf16() {
    let env = Env::new();
    let le = |s: &str| -> Vec<u8> {
        [0xFF, 0xFE]
            .into_iter()
            .chain(s.encode_utf16().flat_map(u16::to_le_bytes))
            .collect()
    };
    let be = |s: &str| -> Vec<u8> {
        [0xFE, 0xFF]
            .into_iter()
            .chain(s.encode_utf16().flat_map(u16::to_be_bytes))
            .collect()
    };
    let out = read_and_edit(
        &env,
        "le.txt",
        &le("[main]\r\nname=old\r\n"),
        json!({"old_string": "name=old\n", "new_string": "name=né\n"}),
    );
    out.assert_ok();
    assert_eq!(env.read_file("le.txt"), le("[main]\r\nname=né\r\n"));
    let out = read_and_edit(
        &env,
        "be.txt",
        &be("x = 1\n"),
        json!({"old_string": "1", "new_string": "😀"}),
    );
    out.assert_ok();
    assert_eq!(env.read_file("be.txt"), be("x = 😀\n"));
}

#[test]
fn links_and_permissions_are_kept() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let env = Env::new();
    let p = env.write_file("run.sh", "#!/bin/sh\necho old\n");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o750)).unwrap();
    std::os::unix::fs::symlink("run.sh", env.path("link.sh")).unwrap();
    std::fs::hard_link(&p, env.path("hard.sh")).unwrap();
    env.read("link.sh");
    edit(
        &env,
        json!({"path": "link.sh", "old_string": "old", "new_string": "new"}),
    )
    .assert_ok();
    assert!(
        std::fs::symlink_metadata(env.path("link.sh"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(env.read_file("hard.sh"), b"#!/bin/sh\necho new\n");
    assert_eq!(std::fs::metadata(&p).unwrap().mode() & 0o7777, 0o750);
}
