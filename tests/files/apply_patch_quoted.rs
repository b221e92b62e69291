//! SPEC 31.4: apply_patch reads a patch that quotes patches as text, and refuses two sections
//! for one file. Found by feeding flawed edits through apply_patch: a context line
//! ` *** Delete File: g.txt` deleted another file and reported ok.

use serde_json::json;
use testkit::Env;

#[test]
fn a_context_line_that_quotes_a_marker_is_text_and_never_a_command() {
    let env = Env::new();
    env.write_file("g.txt", "keep me\n");
    let doc = "Example\n *** Delete File: g.txt\n @@ def f():\n @@ -24,7 +15,7 @@\nold\n";
    env.write_file("doc.md", doc);
    let patch = "*** Begin Patch\n*** Update File: doc.md\n@@ Example\n  *** Delete File: g.txt\n  @@ def f():\n  @@ -24,7 +15,7 @@\n-old\n+new\n*** End Patch\n";
    env.read("doc.md");
    env.call("apply_patch", json!({ "patch": patch }))
        .assert_ok();
    assert_eq!(env.read_file("g.txt"), b"keep me\n");
    assert_eq!(
        String::from_utf8(env.read_file("doc.md")).unwrap(),
        doc.replace("old", "new")
    );
}

#[test]
fn two_update_sections_for_one_file_are_refused_like_two_adds() {
    let env = Env::new();
    env.write_file("a.txt", "one\ntwo\n");
    env.read("a.txt");
    let patch = "*** Begin Patch\n*** Update File: a.txt\n-one\n+ONE\n*** Update File: a.txt\n-two\n+TWO\n*** End Patch\n";
    let out = env.call("apply_patch", json!({ "patch": patch }));
    out.assert_invalid("patch");
    assert_eq!(out.json["error"]["line"], 5, "{}", out.stdout);
    assert_eq!(env.read_file("a.txt"), b"one\ntwo\n");
}
