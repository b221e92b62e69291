//! `write` (SPEC §6, 16.5) through the binary.

use serde_json::json;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use testkit::{Env, redact};

#[test]
fn new_file_with_parents_snapshot() {
    let env = Env::new();
    let out = env.call(
        "write",
        json!({"path": "deep/er/new.txt", "content": "one\ntwo\n"}),
    );
    insta::assert_json_snapshot!(redact(&out.json, &env), @r#"
    {
      "ok": true,
      "tool": "write",
      "output": "Wrote 8 bytes (2 lines) to deep/er/new.txt (new file)\n",
      "data": {
        "path": "deep/er/new.txt",
        "bytes": 8,
        "lines": 2,
        "created": true,
        "added": 2,
        "removed": 0
      }
    }
    "#);
    assert_eq!(env.read_file("deep/er/new.txt"), b"one\ntwo\n");
}

#[test]
fn overwrite_needs_a_fresh_read_and_reports_the_diff() {
    let env = Env::new();
    env.write_file("a.txt", "keep\nold\n");
    let out = env.call(
        "write",
        json!({"path": "a.txt", "content": "keep\nnew\nmore\n"}),
    );
    out.assert_err("not_read");
    assert_eq!(out.json["error"]["path"], "a.txt");
    assert_eq!(
        env.read_file("a.txt"),
        b"keep\nold\n",
        "a refused write changes nothing"
    );
    env.read("a.txt");
    let out = env.call(
        "write",
        json!({"path": "a.txt", "content": "keep\nnew\nmore\n"}),
    );
    out.assert_ok();
    assert_eq!(
        out.output(),
        "Wrote 14 bytes (3 lines) to a.txt (overwrote; +2 -1 lines)\n"
    );
    assert_eq!(
        (out.data()["added"].as_u64(), out.data()["removed"].as_u64()),
        (Some(2), Some(1))
    );
    // our own write refreshes the record: a second write needs no new read
    env.call("write", json!({"path": "a.txt", "content": "again\n"}))
        .assert_ok();
}

#[test]
fn staleness_is_decided_by_content_not_mtime() {
    let env = Env::new();
    let p = env.write_file("a.txt", "original\n");
    env.read("a.txt");
    // touch: new mtime, same content -> still fresh
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&p)
        .unwrap()
        .set_modified(later)
        .unwrap();
    env.call("write", json!({"path": "a.txt", "content": "mine\n"}))
        .assert_ok();
    // someone else changes it, keeping size and mtime -> stale
    let meta = std::fs::metadata(&p).unwrap();
    std::fs::write(&p, "xxxx\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&p)
        .unwrap()
        .set_modified(meta.modified().unwrap())
        .unwrap();
    assert_eq!(std::fs::metadata(&p).unwrap().len(), meta.len());
    let out = env.call("write", json!({"path": "a.txt", "content": "lost?\n"}));
    out.assert_err("stale_read");
    assert_eq!(env.read_file("a.txt"), b"xxxx\n");
}

#[test]
fn content_is_written_byte_for_byte() {
    let env = Env::new();
    let content = "crlf\r\nno final newline\ttab\u{feff}bom-inside é";
    env.call("write", json!({"path": "raw.txt", "content": content}))
        .assert_ok();
    assert_eq!(env.read_file("raw.txt"), content.as_bytes());
    // raw stdin form: `write PATH` with the content piped in
    let out = env.run(&["write", "piped.txt"], "from stdin\r\n");
    out.assert_ok();
    assert_eq!(env.read_file("piped.txt"), b"from stdin\r\n");
    let out = env.run(&["write", "empty.txt"], "");
    out.assert_ok();
    assert_eq!(out.data()["lines"], 0);
    assert_eq!(env.read_file("empty.txt"), b"");
}

#[test]
fn permissions_are_kept_and_new_files_follow_the_umask() {
    let env = Env::new();
    let p = env.write_file("run.sh", "#!/bin/sh\n");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o750)).unwrap();
    env.read("run.sh");
    env.call(
        "write",
        json!({"path": "run.sh", "content": "#!/bin/sh\necho hi\n"}),
    )
    .assert_ok();
    assert_eq!(std::fs::metadata(&p).unwrap().mode() & 0o7777, 0o750);
    // a new file is 0666 & ~umask, not tempfile's 0600 (the test runner's umask is 022 or 002)
    env.call("write", json!({"path": "fresh.txt", "content": "x"}))
        .assert_ok();
    let mode = std::fs::metadata(env.path("fresh.txt")).unwrap().mode() & 0o777;
    assert!(mode == 0o644 || mode == 0o664, "mode {mode:o}");
}

#[test]
fn a_symlink_keeps_being_a_link_to_the_new_content() {
    let env = Env::new();
    env.write_file("target.txt", "old\n");
    std::os::unix::fs::symlink("target.txt", env.path("link.txt")).unwrap();
    env.read("link.txt");
    env.call("write", json!({"path": "link.txt", "content": "new\n"}))
        .assert_ok();
    assert!(
        std::fs::symlink_metadata(env.path("link.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(env.read_file("target.txt"), b"new\n");
}

#[test]
fn hard_links_all_see_the_change() {
    let env = Env::new();
    env.write_file("a.txt", "old\n");
    std::fs::hard_link(env.path("a.txt"), env.path("b.txt")).unwrap();
    env.read("a.txt");
    env.call("write", json!({"path": "a.txt", "content": "new\n"}))
        .assert_ok();
    assert_eq!(env.read_file("b.txt"), b"new\n");
    assert_eq!(std::fs::metadata(env.path("b.txt")).unwrap().nlink(), 2);
}

#[test]
fn directories_are_refused_and_nothing_is_left_behind() {
    let env = Env::new();
    std::fs::create_dir(env.path("d")).unwrap();
    let out = env.call("write", json!({"path": "d", "content": "x"}));
    out.assert_err("is_directory");
    // a parent that is a file: the write fails and leaves no directory or temp file
    env.write_file("file", "f");
    let out = env.call("write", json!({"path": "file/child.txt", "content": "x"}));
    assert!(!out.ok());
    let mut names: Vec<String> = std::fs::read_dir(&env.root)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["d", "file"]);
}

#[test]
fn overwriting_a_legacy_encoded_file_warns() {
    let env = Env::new();
    env.write_file("latin.txt", b"caf\xe9\n");
    env.read("latin.txt");
    let out = env.call("write", json!({"path": "latin.txt", "content": "café\n"}));
    out.assert_ok();
    let w = out.data()["warnings"][0].as_str().unwrap();
    assert!(w.contains("windows-1252"), "{w}");
    assert!(out.output().contains("Warning: "));
}

#[test]
fn no_read_check_lets_scripts_overwrite() {
    let env = Env::new();
    env.write_file("a.txt", "old\n");
    env.run(
        &["--no-read-check", "write", "a.txt", "--content", "new\n"],
        "",
    )
    .assert_ok();
    let mut c = env.cmd();
    c.args(["write", "a.txt", "--content", "newer\n"])
        .env("LOOPR_NO_READ_CHECK", "1");
    testkit::finish(c).assert_ok();
    assert_eq!(env.read_file("a.txt"), b"newer\n");
}

#[test]
fn each_write_is_journaled_for_undo() {
    let env = Env::new();
    env.call("write", json!({"path": "a.txt", "content": "1\n"}))
        .assert_ok();
    env.call("write", json!({"path": "a.txt", "content": "2\n"}))
        .assert_ok();
    let s = env.run(&["session"], "");
    assert_eq!(s.data()["undo_depth"], 2);
    // the previous content is kept durably beside the journal
    let dir = std::path::PathBuf::from(s.data()["session_dir"].as_str().unwrap());
    let journal: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("undo.json")).unwrap()).unwrap();
    let entries = journal["entries"].as_array().unwrap();
    assert!(
        entries[0]["previous"].is_null(),
        "the first write created the file"
    );
    let blob = entries[1]["previous"]["blob"].as_str().unwrap();
    assert_eq!(std::fs::read(dir.join("undo").join(blob)).unwrap(), b"1\n");
}

#[test]
fn journal_keeps_the_last_50() {
    let env = Env::new();
    for i in 0..53 {
        env.call(
            "write",
            json!({"path": "a.txt", "content": format!("{i}\n")}),
        )
        .assert_ok();
    }
    let s = env.run(&["session"], "");
    assert_eq!(s.data()["undo_depth"], 50);
    let dir = std::path::PathBuf::from(s.data()["session_dir"].as_str().unwrap());
    assert_eq!(
        std::fs::read_dir(dir.join("undo")).unwrap().count(),
        50,
        "old blobs are pruned"
    );
}

/// 16 processes, each in its own session, read the file; then all write it at once. Exactly
/// one wins; the others are `stale_read`; the file holds the winner's whole content.
#[test]
fn concurrent_writers_lose_no_update() {
    let env = Env::new();
    env.write_file("shared.txt", "base\n");
    for i in 0..16 {
        env.call_in(&format!("s{i}"), "read", json!({"path": "shared.txt"}))
            .assert_ok();
    }
    let children: Vec<_> = (0..16)
        .map(|i| {
            let content = format!("writer {i}\n").repeat(2000);
            let mut c = std::process::Command::new(testkit::bin());
            c.args(["--session", &format!("s{i}"), "write", "shared.txt"])
                .current_dir(&env.root)
                .env("LOOPR_STATE_DIR", &env.state)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped());
            let mut child = c.spawn().unwrap();
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(content.as_bytes())
                .unwrap();
            (content, child)
        })
        .collect();
    let mut winners = vec![];
    let mut stale = 0;
    for (content, child) in children {
        let out = child.wait_with_output().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        match v["error"]["code"].as_str() {
            None => winners.push(content),
            Some("stale_read") => stale += 1,
            Some(other) => panic!("unexpected {other}: {v}"),
        }
    }
    assert_eq!((winners.len(), stale), (1, 15));
    assert_eq!(
        env.read_file("shared.txt"),
        winners[0].as_bytes(),
        "no torn or lost content"
    );
}

/// SPEC 24.6: the next write to a directory removes the temp files killed writers left, and
/// only those: an old one nobody holds goes; a young one, or one a live writer holds locked,
/// stays.
#[test]
fn the_next_write_removes_what_killed_writers_left() {
    let env = Env::new();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let temp = |name: &str, aged: bool| {
        let p = env.write_file(name, "half a write");
        if aged {
            std::fs::File::options()
                .write(true)
                .open(&p)
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
        p
    };
    // A live writer's pid (this test's), so the young file is kept for its age alone.
    let live = std::process::id();
    let dead = temp(&format!(".a.txt.{live}.0.loopr-tmp"), true);
    let young = temp(&format!(".b.txt.{live}.1.loopr-tmp"), false);
    let held = temp(&format!(".c.txt.{live}.2.loopr-tmp"), true);
    let mine = temp("notes.loopr-tmp", true); // not our pattern: a user's file
    let mut holder = testkit::LockHolder::hold(&held);
    env.call("write", json!({"path": "new.txt", "content": "x\n"}))
        .assert_ok();
    assert!(!dead.exists(), "a dead writer's temp file stays");
    assert!(young.exists() && held.exists() && mine.exists());
    holder.kill();
    env.call("write", json!({"path": "new2.txt", "content": "x\n"}))
        .assert_ok();
    assert!(!held.exists(), "no longer held: removed");
}

/// SPEC 31.3: a write killed after staging its temp file leaves it; the next write to that
/// directory, for another file and at once (not a minute later), removes it — its writer's
/// pid names no process.
#[test]
fn a_killed_writes_temp_file_goes_with_the_next_write_to_its_directory() {
    let env = Env::new();
    env.write_file("d/keep.txt", "old\n");
    let mut c = env.cmd();
    c.env("LOOPR_DEBUG_FAIL", "fsync:SIGKILL")
        .args(["write", "d/a.txt", "--content", "half\n"]);
    let killed = c.output().unwrap();
    assert_eq!(killed.status.code(), None, "killed by its signal");
    let temps = || -> Vec<String> {
        std::fs::read_dir(env.path("d"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".loopr-tmp"))
            .collect()
    };
    assert_eq!(temps().len(), 1, "the killed write left its temp file");
    env.call("write", json!({"path": "d/b.txt", "content": "x\n"}))
        .assert_ok();
    assert_eq!(temps(), Vec::<String>::new());
    assert_eq!(env.read_file("d/keep.txt"), b"old\n");
}
