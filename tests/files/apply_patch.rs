//! `apply_patch` end to end (SPEC 17.3, 24.1, 24.7): Codex's format as models write it, every
//! kind of file change, all or nothing across files, undo of each file, and every refusal.

use serde_json::{Value, json};
use testkit::{Env, Out, exists};

fn patch(env: &Env, text: &str) -> Out {
    env.call("apply_patch", json!({ "patch": text }))
}

fn text(env: &Env, rel: &str) -> String {
    String::from_utf8(env.read_file(rel)).unwrap()
}

fn undo(env: &Env) -> Out {
    let out = env.call("undo", json!({}));
    out.assert_ok();
    out
}

const MAIN: &str = "fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n";

/// Three files updated, added, deleted and moved in one patch; `undo` takes each back.
#[test]
fn add_update_delete_and_move_in_one_patch_and_undo_each() {
    let env = Env::new();
    env.write_file("src/main.rs", MAIN);
    env.write_file("notes.txt", "hello\nworld\n");
    env.write_file("old.txt", "obsolete\n");
    let out = patch(
        &env,
        "*** Begin Patch\n\
         *** Update File: src/main.rs\n\
         @@ fn main() {\n\
         -    let x = 1;\n\
         +    let x = 2;\n\
         \x20    println!(\"{x}\");\n\
         *** Add File: docs/new.md\n\
         +# New\n\
         +\n\
         +text\n\
         *** Delete File: old.txt\n\
         *** Update File: notes.txt\n\
         *** Move to: archive/notes.txt\n\
         @@\n\
         \x20hello\n\
         -world\n\
         +there\n\
         *** End Patch\n",
    );
    out.assert_ok();
    assert_eq!(text(&env, "src/main.rs"), MAIN.replace("x = 1", "x = 2"));
    assert_eq!(text(&env, "docs/new.md"), "# New\n\ntext\n");
    assert!(!exists(&env.path("old.txt")));
    assert!(!exists(&env.path("notes.txt")));
    assert_eq!(text(&env, "archive/notes.txt"), "hello\nthere\n");
    let files = out.data()["files"].as_array().unwrap();
    let summary: Vec<(&str, &str)> = files
        .iter()
        .map(|f| (f["action"].as_str().unwrap(), f["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        summary,
        [
            ("update", "src/main.rs"),
            ("add", "docs/new.md"),
            ("delete", "old.txt"),
            ("move", "archive/notes.txt")
        ]
    );
    assert_eq!(files[3]["from"], "notes.txt");
    assert_eq!(
        (files[0]["added"].as_u64(), files[0]["removed"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(files[0]["match"], json!(["exact"]));
    assert_eq!(
        (files[1]["added"].as_u64(), files[1]["removed"].as_u64()),
        (Some(3), Some(0))
    );
    let o = out.output();
    for line in [
        "M src/main.rs",
        "A docs/new.md",
        "D old.txt",
        "R notes.txt -> archive/notes.txt",
    ] {
        assert!(o.contains(&format!("{line}\n")), "{o}");
    }
    assert!(
        o.contains("     2\t    let x = 2;"),
        "numbered as read shows: {o}"
    );
    let diff = out.data()["diff"].as_str().unwrap();
    assert!(
        diff.contains("--- /dev/null\n+++ b/docs/new.md\n"),
        "{diff}"
    );
    assert!(diff.contains("--- a/old.txt\n+++ /dev/null\n"), "{diff}");
    assert!(
        diff.contains("--- a/notes.txt\n+++ b/archive/notes.txt\n"),
        "{diff}"
    );

    // One undo per file, newest first.
    assert_eq!(undo(&env).data()["action"], "moved_back");
    assert_eq!(text(&env, "notes.txt"), "hello\nworld\n");
    assert!(
        !exists(&env.path("archive")),
        "the directory the move made goes too"
    );
    assert_eq!(undo(&env).data()["action"], "restored");
    assert_eq!(text(&env, "old.txt"), "obsolete\n");
    assert_eq!(undo(&env).data()["action"], "removed");
    assert!(!exists(&env.path("docs/new.md")));
    assert_eq!(undo(&env).data()["action"], "restored");
    assert_eq!(text(&env, "src/main.rs"), MAIN);
    env.call("undo", json!({})).assert_err("not_found");
}

/// A hunk that fails in the third file: nothing written anywhere, nothing journaled.
#[test]
fn a_hunk_failing_in_the_third_file_writes_nothing_anywhere() {
    let env = Env::new();
    env.write_file("a.txt", "one\ntwo\n");
    env.write_file("b.txt", "three\n");
    env.write_file("c.txt", "four\nfive\nsix\n");
    let out = patch(
        &env,
        "*** Begin Patch\n*** Update File: a.txt\n-one\n+ONE\n*** Delete File: b.txt\n*** Add File: new/d.txt\n+d\n*** Update File: c.txt\n@@\n four\n-fiev\n+FIVE\n*** End Patch\n",
    );
    out.assert_err("no_match");
    let e = &out.json["error"];
    assert_eq!(e["path"], "c.txt");
    assert_eq!(e["hunk"], 0);
    assert_eq!(e["closest"]["start_line"], 1);
    assert!(e["closest"]["text"].as_str().unwrap().contains("five"));
    assert!(
        out.output().contains("line 9 of the patch"),
        "{}",
        out.output()
    );
    assert!(e["hint"].as_str().unwrap().contains("Nothing was written"));
    assert_eq!(text(&env, "a.txt"), "one\ntwo\n");
    assert!(exists(&env.path("b.txt")));
    assert!(!exists(&env.path("new")), "no file and no directory made");
    assert_eq!(text(&env, "c.txt"), "four\nfive\nsix\n");
    env.call("undo", json!({})).assert_err("not_found");
}

#[test]
fn anchors_place_a_hunk_and_ambiguity_is_refused_without_one() {
    let env = Env::new();
    let body = "def a():\n    x = 1\n    return x\n\ndef b():\n    x = 1\n    return x\n";
    env.write_file("m.py", body);
    let hunk = "-    x = 1\n+    x = 2\n     return x\n";
    let out = patch(
        &env,
        &format!("*** Begin Patch\n*** Update File: m.py\n@@\n{hunk}*** End Patch"),
    );
    out.assert_err("ambiguous_match");
    assert_eq!(out.json["error"]["lines"], json!([2, 6]));
    assert_eq!(out.json["error"]["hunk"], 0);
    assert!(out.json["error"]["hint"].as_str().unwrap().contains("@@"));
    assert_eq!(text(&env, "m.py"), body);

    let out = patch(
        &env,
        &format!("*** Begin Patch\n*** Update File: m.py\n@@ def b():\n{hunk}*** End Patch"),
    );
    out.assert_ok();
    assert_eq!(
        text(&env, "m.py"),
        "def a():\n    x = 1\n    return x\n\ndef b():\n    x = 2\n    return x\n"
    );

    // an anchor on no line is no_match naming it
    let out = patch(
        &env,
        &format!("*** Begin Patch\n*** Update File: m.py\n@@ def c():\n{hunk}*** End Patch"),
    );
    out.assert_err("no_match");
    assert!(out.output().contains("def c():"));
}

#[test]
fn later_hunks_are_found_below_earlier_ones() {
    let env = Env::new();
    env.write_file("f.txt", "head\nx\nend\nx\nend\n");
    // alone, the second hunk matches twice; below the first, once
    let second = "@@\n-x\n+second\n end\n";
    let out = patch(
        &env,
        &format!("*** Begin Patch\n*** Update File: f.txt\n{second}*** End Patch"),
    );
    out.assert_err("ambiguous_match");
    assert_eq!(out.json["error"]["lines"], json!([2, 4]));
    let out = patch(
        &env,
        &format!(
            "*** Begin Patch\n*** Update File: f.txt\n@@\n head\n-x\n+first\n end\n{second}*** End Patch"
        ),
    );
    out.assert_ok();
    assert_eq!(text(&env, "f.txt"), "head\nfirst\nend\nsecond\nend\n");
    assert_eq!(out.data()["files"][0]["match"], json!(["exact", "exact"]));
}

#[test]
fn end_of_file_picks_the_place_that_ends_the_file() {
    let env = Env::new();
    env.write_file("f.txt", "}\nmiddle\n}\n");
    let out = patch(
        &env,
        "*** Begin Patch\n*** Update File: f.txt\n@@\n }\n+// tail\n*** End of File\n*** End Patch",
    );
    out.assert_ok();
    assert_eq!(text(&env, "f.txt"), "}\nmiddle\n}\n// tail\n");
    // a pure addition with no context appends at the end, even to a file without a final newline
    env.write_file("g.txt", "a\nb");
    env.read("g.txt");
    let out = patch(
        &env,
        "*** Begin Patch\n*** Update File: g.txt\n@@\n+c\n*** End Patch",
    );
    out.assert_ok();
    assert_eq!(text(&env, "g.txt"), "a\nb\nc\n");
}

#[test]
fn a_malformed_patch_names_its_line_and_what_was_expected() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    for (p, line, expected) in [
        ("just text", 1, "*** Begin Patch"),
        (
            "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n",
            5,
            "*** End Patch",
        ),
        (
            "*** Begin Patch\n*** Update File: a.txt\n@@\n x\noops\n*** End Patch",
            5,
            "starting with ' '",
        ),
        (
            "*** Begin Patch\n*** Rename File: a.txt\n*** End Patch",
            2,
            "*** Update File: PATH",
        ),
        (
            "*** Begin Patch\n*** Update File: a.txt\n*** End Patch",
            3,
            "no hunk",
        ),
    ] {
        let out = patch(&env, p);
        out.assert_invalid("patch");
        assert_eq!(out.json["error"]["line"], line, "{p:?}: {}", out.stdout);
        let msg = out.json["error"]["message"].as_str().unwrap();
        assert!(msg.contains(&format!("at line {line}")), "{msg}");
        assert!(msg.contains(expected), "{p:?}: {msg}");
    }
    // a unified diff is not this format, and the hint says so
    let out = patch(&env, "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n");
    out.assert_invalid("patch");
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("unified diff")
    );
    assert_eq!(text(&env, "a.txt"), "x\n");
}

/// Shapes taken from Codex transcripts: whitespace around the patch and its markers, a first
/// hunk without `@@`, blank context lines typed as empty lines, a blank line left before the
/// next marker, a heredoc wrapper, CRLF.
#[test]
fn patches_as_models_write_them() {
    let env = Env::new();
    env.write_file(
        "app.py",
        "import os\n\ndef run():\n    pass\n\n\ndef stop():\n    pass\n",
    );
    let p = "\n\n  *** Begin Patch  \n*** Update File: app.py\n import os\n\n-def run():\n+def run(fast=False):\n     pass\n\n@@ def stop():\n-    pass\n+    return None\n\n   *** End Patch\n\n";
    let out = patch(&env, p);
    out.assert_ok();
    assert_eq!(
        text(&env, "app.py"),
        "import os\n\ndef run(fast=False):\n    pass\n\n\ndef stop():\n    return None\n"
    );
    // heredoc, as a model writes it when it thinks of a shell, in CRLF
    env.write_file("w.txt", "a\r\nb\r\n");
    let p = "<<'EOF'\r\n*** Begin Patch\r\n*** Update File: w.txt\r\n a\r\n-b\r\n+c\r\n+d\r\n*** End Patch\r\nEOF\r\n";
    patch(&env, p).assert_ok();
    assert_eq!(
        text(&env, "w.txt"),
        "a\r\nc\r\nd\r\n",
        "CRLF kept, added lines in CRLF"
    );
    // a unified-diff hunk header inside the format counts as a bare @@
    env.write_file("u.txt", "1\n2\n3\n");
    let p =
        "*** Begin Patch\n*** Update File: u.txt\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n*** End Patch";
    patch(&env, p).assert_ok();
    assert_eq!(text(&env, "u.txt"), "1\ntwo\n3\n");
}

/// Codex's input shapes: `patch`, `input`, `command: ["apply_patch", PATCH]`; on the CLI the
/// `--patch` flag and raw stdin.
#[test]
fn every_input_shape_codex_and_the_cli_use() {
    let env = Env::new();
    let add = |name: &str| format!("*** Begin Patch\n*** Add File: {name}\n+hi\n*** End Patch\n");
    env.call("apply_patch", json!({"input": add("a.txt")}))
        .assert_ok();
    env.call(
        "apply_patch",
        json!({"command": ["apply_patch", add("b.txt")]}),
    )
    .assert_ok();
    env.run(&["apply_patch", "--patch", &add("c.txt")], "")
        .assert_ok();
    env.run(&["apply_patch"], &add("d.txt")).assert_ok();
    for f in ["a.txt", "b.txt", "c.txt", "d.txt"] {
        assert_eq!(text(&env, f), "hi\n", "{f}");
    }
    env.call("apply_patch", json!({"command": ["rm", "-rf", "/"]}))
        .assert_invalid("command");
    env.call(
        "apply_patch",
        json!({"patch": add("e.txt"), "command": ["apply_patch", add("e.txt")]}),
    )
    .assert_invalid("command");
    env.call("apply_patch", json!({})).assert_invalid("patch");
    assert!(!exists(&env.path("e.txt")));
}

/// 24.7: no read record is needed, but one the session has must be fresh; without one, every
/// hunk must quote the file.
#[test]
fn read_records_are_honoured_when_present_and_not_required() {
    let env = Env::new();
    env.write_file("f.txt", "a\nb\n");
    env.read("f.txt");
    env.write_file("f.txt", "a\nB\n"); // changed behind the session's back
    let p = "*** Begin Patch\n*** Update File: f.txt\n a\n-B\n+c\n*** End Patch";
    patch(&env, p).assert_err("stale_read");
    assert_eq!(text(&env, "f.txt"), "a\nB\n");
    env.read("f.txt");
    patch(&env, p).assert_ok();

    // unread and a hunk that quotes nothing of the file: not_read
    env.write_file("g.txt", "x\n");
    let out = patch(
        &env,
        "*** Begin Patch\n*** Update File: g.txt\n@@\n+y\n*** End Patch",
    );
    out.assert_err("not_read");
    assert_eq!(out.json["error"]["hunk"], 0);
    // the patch's record is fresh after it: a second patch on the file works without a read
    patch(
        &env,
        "*** Begin Patch\n*** Update File: f.txt\n-c\n+d\n*** End Patch",
    )
    .assert_ok();
    assert_eq!(text(&env, "f.txt"), "a\nd\n");
    // and edit accepts the file too: the patch recorded what it wrote
    env.call(
        "edit",
        json!({"path": "f.txt", "old_string": "d", "new_string": "e"}),
    )
    .assert_ok();
}

#[test]
fn add_refuses_an_existing_file_and_move_an_unread_target() {
    let env = Env::new();
    env.write_file("a.txt", "old\n");
    let out = patch(
        &env,
        "*** Begin Patch\n*** Add File: a.txt\n+new\n*** End Patch",
    );
    out.assert_invalid("patch");
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("*** Update File: a.txt")
    );
    assert_eq!(text(&env, "a.txt"), "old\n");

    env.write_file("src.txt", "s\n");
    let mv =
        "*** Begin Patch\n*** Update File: src.txt\n*** Move to: a.txt\n@@\n-s\n+S\n*** End Patch";
    patch(&env, mv).assert_invalid("patch");
    assert_eq!(text(&env, "a.txt"), "old\n");
    env.read("a.txt");
    patch(&env, mv).assert_ok();
    assert_eq!(text(&env, "a.txt"), "S\n");
    assert!(!exists(&env.path("src.txt")));
    // one undo: the moved file goes back as it was, and the replaced file comes back
    undo(&env);
    assert_eq!(text(&env, "src.txt"), "s\n");
    assert_eq!(text(&env, "a.txt"), "old\n");
}

#[test]
fn a_pure_rename_keeps_the_content_and_moves_the_read_record() {
    let env = Env::new();
    env.write_file("x.txt", "keep\n");
    env.read("x.txt");
    patch(
        &env,
        "*** Begin Patch\n*** Update File: x.txt\n*** Move to: y/x.txt\n*** End Patch",
    )
    .assert_ok();
    assert_eq!(text(&env, "y/x.txt"), "keep\n");
    env.call(
        "edit",
        json!({"path": "y/x.txt", "old_string": "keep", "new_string": "kept"}),
    )
    .assert_ok();
}

#[test]
fn refusals_of_files_that_cannot_be_patched() {
    let env = Env::new();
    patch(
        &env,
        "*** Begin Patch\n*** Update File: missing.txt\n-a\n+b\n*** End Patch",
    )
    .assert_err("not_found");
    patch(
        &env,
        "*** Begin Patch\n*** Delete File: missing.txt\n*** End Patch",
    )
    .assert_err("not_found");
    std::fs::create_dir_all(env.path("dir")).unwrap();
    patch(&env, "*** Begin Patch\n*** Delete File: dir\n*** End Patch").assert_err("is_directory");
    env.write_file("bin.dat", b"\x00\x01\x02binary\n");
    patch(
        &env,
        "*** Begin Patch\n*** Update File: bin.dat\n-binary\n+x\n*** End Patch",
    )
    .assert_err("binary_file");
    patch(
        &env,
        "*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch",
    )
    .assert_err("outside_root");
    patch(
        &env,
        "*** Begin Patch\n*** Add File: n.ipynb\n+{}\n*** End Patch",
    )
    .assert_invalid("patch");
    env.write_file("same.txt", "a\n");
    patch(
        &env,
        "*** Begin Patch\n*** Update File: same.txt\n-a\n+a\n*** End Patch",
    )
    .assert_err("no_change");
    // a file named twice
    let out = patch(
        &env,
        "*** Begin Patch\n*** Delete File: same.txt\n*** Add File: same.txt\n+b\n*** End Patch",
    );
    out.assert_invalid("patch");
    assert_eq!(out.json["error"]["line"], 3);
    assert_eq!(text(&env, "same.txt"), "a\n");
}

/// Too large: a (sparse) file over the update limit, and one over the trash's.
#[test]
fn too_large_files_are_refused() {
    let env = Env::new();
    let big = std::fs::File::create(env.path("big.txt")).unwrap();
    big.set_len(65 * 1024 * 1024).unwrap();
    patch(
        &env,
        "*** Begin Patch\n*** Update File: big.txt\n-a\n+b\n*** End Patch",
    )
    .assert_err("too_large");
    big.set_len(257 * 1024 * 1024).unwrap();
    let out = patch(
        &env,
        "*** Begin Patch\n*** Delete File: big.txt\n*** End Patch",
    );
    out.assert_err("too_large");
    assert!(exists(&env.path("big.txt")));
}

#[test]
fn the_ladder_forgives_hunks_and_says_so() {
    let env = Env::new();
    env.write_file("t.c", "int f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n");
    // typed with spaces for tabs
    let out = patch(
        &env,
        "*** Begin Patch\n*** Update File: t.c\n@@\n     if (x) {\n-        return 1;\n+        return 2;\n     }\n*** End Patch",
    );
    out.assert_ok();
    assert_eq!(out.data()["files"][0]["match"], json!(["indentation"]));
    assert!(
        out.output()
            .contains("hunk 1: matched ignoring a consistent difference in indentation")
    );
    assert_eq!(
        text(&env, "t.c"),
        "int f() {\n\tif (x) {\n\t\treturn 2;\n\t}\n}\n"
    );
}

/// Context lines are kept lines: a hunk typed without the file's trailing whitespace and with
/// spaces for its tabs changes only its `-`/`+` lines.
#[test]
fn context_lines_keep_their_bytes() {
    let env = Env::new();
    env.write_file("k.c", "int f() {  \n\tif (x) {\t\n\t\treturn 1;\n\t}\n}\n");
    let out = patch(
        &env,
        "*** Begin Patch\n*** Update File: k.c\n int f() {\n     if (x) {\n-        return 1;\n+        return 2;\n     }\n*** End Patch",
    );
    out.assert_ok();
    assert_eq!(
        text(&env, "k.c"),
        "int f() {  \n\tif (x) {\t\n\t\treturn 2;\n\t}\n}\n"
    );
}

#[test]
fn a_hunk_already_applied_is_said_so() {
    let env = Env::new();
    env.write_file("f.txt", "a\nnew\nc\n");
    let out = patch(
        &env,
        "*** Begin Patch\n*** Update File: f.txt\n a\n-old\n+new\n c\n*** End Patch",
    );
    out.assert_err("no_match");
    let hint = out.json["error"]["hint"].as_str().unwrap();
    assert!(hint.contains("already applied"), "{hint}");
}

#[test]
fn schema_lists_patch_as_required_and_hides_the_codex_command() {
    let env = Env::new();
    let out = env.run(&["schema", "apply_patch"], "");
    let v: Value = if out.json.is_null() {
        serde_json::from_str(&out.stdout).unwrap()
    } else {
        out.json.clone()
    };
    let text = v.to_string();
    assert!(text.contains("\"required\":[\"patch\"]"), "{text}");
    assert!(!text.contains("\"command\""), "{text}");
}

/// SPEC 31.4: a patch's parsed form is at most twice its text and 16 MiB, refused before it is
/// built: 2 M `+` lines (4 MB) peaked at 278 MB, one `String` a line.
#[test]
fn a_patch_of_millions_of_short_lines_is_too_large_before_parsing() {
    let env = Env::new();
    let patch = format!(
        "*** Begin Patch\n*** Add File: big.txt\n{}*** End Patch\n",
        "+\n".repeat(2_000_000)
    );
    let input = env.dir.path().join("patch.json");
    std::fs::write(&input, serde_json::json!({"patch": patch}).to_string()).unwrap();
    let (stdout, rss) = env.peak_rss(&["apply_patch"], &input);
    let out: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(out["error"]["code"], "too_large", "{stdout}");
    assert!(!env.path("big.txt").exists());
    if let Some(kib) = rss {
        assert!(kib < 80 * 1024, "peak RSS {} MiB", kib / 1024);
    }
    // An ordinary patch of long lines is untouched.
    let patch = format!(
        "*** Begin Patch\n*** Add File: ok.txt\n{}*** End Patch\n",
        format!("+{}\n", "x".repeat(60)).repeat(20_000)
    );
    env.call("apply_patch", serde_json::json!({"patch": patch}))
        .assert_ok();
}

/// SPEC 31.4: the file descriptors a change holds are bounded: a patch adding files in 1,500
/// existing directories (each held open while it applies) is `too_large` before any is
/// written, never an EMFILE half-way; under 1,024 descriptors (a common default) as under the
/// machine's.
#[test]
fn a_patch_over_too_many_directories_is_too_large() {
    let env = Env::new();
    let mut patch = String::from("*** Begin Patch\n");
    for i in 0..1500 {
        std::fs::create_dir_all(env.path(&format!("d{i}"))).unwrap();
        patch.push_str(&format!("*** Add File: d{i}/new.txt\n+x\n"));
    }
    patch.push_str("*** End Patch\n");
    // 1,024 descriptors, a common default: the old code ran out at one a directory.
    let mut std_cmd = env.std_cmd();
    // SAFETY: setrlimit between fork and exec, on a stack struct.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut std_cmd, || {
            let lim = libc::rlimit {
                rlim_cur: 1024,
                rlim_max: 1024,
            };
            libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
            Ok(())
        });
    }
    let mut c: assert_cmd::Command = std_cmd.into();
    c.arg("apply_patch")
        .write_stdin(json!({"patch": patch}).to_string());
    let out = testkit::finish(c);
    out.assert_err("too_large");
    assert!(!env.path("d0/new.txt").exists());
    env.call("apply_patch", json!({"patch": patch}))
        .assert_err("too_large");
    assert!(!env.path("d0/new.txt").exists());
}
