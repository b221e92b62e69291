//! `undo` (SPEC §14, 16.5): chains, creations, staleness, modes.

use serde_json::json;
use std::os::unix::fs::PermissionsExt;
use testkit::{Env, exists};

#[test]
fn undo_steps_back_through_a_chain_of_writes() {
    let env = Env::new();
    env.write_file("a.txt", "v0\n");
    env.read("a.txt");
    for v in ["v1\n", "v2\n", "v3\n"] {
        env.call("write", json!({"path": "a.txt", "content": v}))
            .assert_ok();
    }
    let out = env.call("undo", json!({}));
    out.assert_ok();
    assert_eq!(
        out.data(),
        &json!({"path": "a.txt", "action": "restored", "remaining": 2})
    );
    assert_eq!(env.read_file("a.txt"), b"v2\n");
    env.run(&["undo"], "").assert_ok();
    env.run(&["undo", "a.txt"], "").assert_ok();
    assert_eq!(env.read_file("a.txt"), b"v0\n");
    let out = env.call("undo", json!({}));
    out.assert_err("not_found");
    // the read record matches the restored file: a write needs no fresh read
    env.call("write", json!({"path": "a.txt", "content": "after\n"}))
        .assert_ok();
}

#[test]
fn undoing_a_creation_removes_the_file() {
    let env = Env::new();
    env.call("write", json!({"path": "new/file.txt", "content": "x"}))
        .assert_ok();
    let out = env.call("undo", json!({"path": "new/file.txt"}));
    out.assert_ok();
    assert_eq!(out.data()["action"], "removed");
    assert!(!exists(&env.path("new/file.txt")));
    assert!(
        out.output()
            .starts_with("Undid the write of new/file.txt: removed it")
    );
}

#[test]
fn undo_of_a_path_skips_other_files_changes() {
    let env = Env::new();
    env.call("write", json!({"path": "a.txt", "content": "a1"}))
        .assert_ok();
    env.call("write", json!({"path": "b.txt", "content": "b1"}))
        .assert_ok();
    env.call("write", json!({"path": "a.txt", "content": "a2"}))
        .assert_ok();
    env.call("write", json!({"path": "b.txt", "content": "b2"}))
        .assert_ok();
    env.call("undo", json!({"path": "a.txt"})).assert_ok();
    assert_eq!(
        (env.read_file("a.txt"), env.read_file("b.txt")),
        (b"a1".to_vec(), b"b2".to_vec())
    );
    let out = env.call("undo", json!({"path": "c.txt"}));
    out.assert_err("not_found");
    assert_eq!(env.run(&["session"], "").data()["undo_depth"], 3);
}

#[test]
fn a_file_changed_since_is_not_clobbered() {
    let env = Env::new();
    env.call("write", json!({"path": "a.txt", "content": "mine\n"}))
        .assert_ok();
    std::fs::write(env.path("a.txt"), "someone else's\n").unwrap();
    let out = env.call("undo", json!({}));
    out.assert_err("stale_read");
    assert_eq!(out.json["error"]["path"], "a.txt");
    assert_eq!(env.read_file("a.txt"), b"someone else's\n");
    assert_eq!(
        env.run(&["session"], "").data()["undo_depth"],
        1,
        "a refused undo keeps its entry"
    );
    // deleted since: also stale
    std::fs::remove_file(env.path("a.txt")).unwrap();
    env.call("undo", json!({})).assert_err("stale_read");
}

#[test]
fn undo_restores_the_mode_and_stays_in_its_session() {
    let env = Env::new();
    let p = env.write_file("run.sh", "#!/bin/sh\n");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    env.read("run.sh");
    env.call(
        "write",
        json!({"path": "run.sh", "content": "#!/bin/sh\nexit 1\n"}),
    )
    .assert_ok();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
    env.call_in("other", "undo", json!({}))
        .assert_err("not_found");
    env.call("undo", json!({})).assert_ok();
    assert_eq!(
        std::fs::metadata(&p).unwrap().permissions().mode() & 0o777,
        0o755
    );
    assert_eq!(env.read_file("run.sh"), b"#!/bin/sh\n");
}

#[test]
fn undo_refuses_paths_outside_the_root() {
    let env = Env::new();
    env.call("undo", json!({"path": "../x"}))
        .assert_err("outside_root");
}

/// edit keeps the previous content as a hard link to the old inode (no second copy written);
/// undo puts those bytes back, and nothing else is left in the undo directory.
#[test]
fn an_edit_keeps_the_old_inode_as_its_undo_copy() {
    use std::os::unix::fs::MetadataExt;
    let env = Env::new();
    let before = std::fs::metadata(env.write_file("a.txt", "one\ntwo\n")).unwrap();
    env.read("a.txt");
    let out = env.call(
        "edit",
        json!({"path": "a.txt", "old_string": "two", "new_string": "2"}),
    );
    out.assert_ok();
    assert!(out.data().get("warnings").is_none(), "{}", out.stdout);
    let undo_dir = env.session_dir("default").join("undo");
    let blobs: Vec<_> = std::fs::read_dir(&undo_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(blobs.len(), 1, "{blobs:?}");
    assert_eq!(std::fs::metadata(&blobs[0]).unwrap().ino(), before.ino());
    assert_eq!(std::fs::read(&blobs[0]).unwrap(), b"one\ntwo\n");
    env.call("undo", json!({})).assert_ok();
    assert_eq!(env.read_file("a.txt"), b"one\ntwo\n");
    assert_eq!(std::fs::read_dir(&undo_dir).unwrap().count(), 0);

    // a file with a second name is rewritten in place: its undo copy must be a copy
    std::fs::hard_link(env.path("a.txt"), env.path("b.txt")).unwrap();
    env.read("a.txt");
    env.call(
        "edit",
        json!({"path": "a.txt", "old_string": "one", "new_string": "1"}),
    )
    .assert_ok();
    assert_eq!(env.read_file("b.txt"), b"1\ntwo\n");
    env.call("undo", json!({})).assert_ok();
    assert_eq!(env.read_file("b.txt"), b"one\ntwo\n");
}

/// A program that held the old file open can still write to the inode kept for undo: undo
/// then refuses rather than restore bytes that were never the file's.
#[test]
fn undo_refuses_a_kept_copy_changed_through_an_open_handle() {
    use std::io::Write;
    let env = Env::new();
    env.write_file("a.txt", "one\n");
    let mut handle = std::fs::OpenOptions::new()
        .append(true)
        .open(env.path("a.txt"))
        .unwrap();
    env.read("a.txt");
    env.call(
        "edit",
        json!({"path": "a.txt", "old_string": "one", "new_string": "1"}),
    )
    .assert_ok();
    handle.write_all(b"late log line\n").unwrap();
    let out = env.call("undo", json!({}));
    out.assert_err("io_error");
    assert!(
        out.output().contains("kept for undo has changed"),
        "{}",
        out.stdout
    );
    assert_eq!(env.read_file("a.txt"), b"1\n");
}

/// A change whose previous content was over 64 MiB cannot be undone; saying so once drops it
/// from the history, so the next undo reaches the change before it instead of stopping there.
#[test]
fn a_change_that_cannot_be_undone_does_not_block_the_ones_before() {
    let env = Env::new();
    env.call("write", json!({"path": "small.txt", "content": "one\n"}))
        .assert_ok();
    let big = env.write_file("big.bin", vec![b'x'; 65 * 1024 * 1024]);
    env.call("read", json!({"path": "big.bin"}));
    env.run(
        &["--no-read-check", "write", "big.bin", "--content", "tiny\n"],
        "",
    )
    .assert_ok();
    let out = env.call("undo", json!({}));
    out.assert_err("invalid_input");
    assert!(out.output().contains("dropped from the undo history"));
    assert_eq!(std::fs::read(&big).unwrap(), b"tiny\n");
    let u = env.call("undo", json!({}));
    u.assert_ok();
    assert!(
        !env.path("small.txt").exists(),
        "the write before it was undone"
    );
}
