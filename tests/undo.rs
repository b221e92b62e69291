//! `undo` (SPEC §14, 16.5): chains, creations, staleness, modes.

mod common;

use common::{Env, exists};
use serde_json::json;
use std::os::unix::fs::PermissionsExt;

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
