//! The state store (SPEC §2.2) and `session` (§13, 16.8): layout, locking, corruption, reset.

use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use testkit::{Env, finish, redact};

#[test]
fn session_show_snapshot() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    env.read("a.txt");
    env.call("write", json!({"path": "b.txt", "content": "y\n"}))
        .assert_ok();
    let out = env.run(&["session"], "");
    let mut v = redact(&out.json, &env);
    // the root key's hash differs per temp dir
    let dir = v["data"]["session_dir"].as_str().unwrap().to_string();
    assert!(
        dir.starts_with("[TMP]/state/root-") && dir.ends_with("/default"),
        "{dir}"
    );
    v["data"]["session_dir"] = json!("[SESSION_DIR]");
    v["output"] = json!(v["output"].as_str().unwrap().replace(&dir, "[SESSION_DIR]"));
    insta::assert_json_snapshot!(v, @r#"
    {
      "ok": true,
      "tool": "session",
      "output": "Root: [TMP]/root\nSession: default\nState: [SESSION_DIR]\nHub: root [TMP]/root (0 session(s))\nRead files: 2\n  a.txt (read [TIME])\n  b.txt (read [TIME])\nTodos: 0 pending, 0 in progress, 0 completed\nUndo depth: 1\nRunning jobs: 0\nCompleted: no\n",
      "data": {
        "root": "[TMP]/root",
        "session": "default",
        "state_dir": "[TMP]/state",
        "session_dir": "[SESSION_DIR]",
        "reads": [
          {
            "path": "a.txt",
            "read_at": "[TIME]"
          },
          {
            "path": "b.txt",
            "read_at": "[TIME]"
          }
        ],
        "reads_total": 2,
        "todos": {
          "pending": 0,
          "in_progress": 0,
          "completed": 0
        },
        "undo_depth": 1,
        "jobs_running": 0,
        "catalog": null,
        "profile": null,
        "mode": "default",
        "permissions": {
          "granted": [],
          "pending": []
        },
        "completed": null,
        "artifacts": {
          "plan": [],
          "spec": [],
          "phase": []
        },
        "hub": {
          "kind": "root",
          "id": "[TMP]/root",
          "sessions": []
        }
      }
    }
    "#);
}

#[test]
fn state_is_keyed_by_root_and_session() {
    let env = Env::new();
    std::fs::create_dir_all(env.path("one")).unwrap();
    std::fs::create_dir_all(env.path("two/one")).unwrap();
    let a = env.run(&["--root", "one", "session"], "");
    let b = env.run(&["--root", "two/one", "session"], "");
    let c = env.run(&["--root", "one", "--session", "other", "session"], "");
    let dir = |o: &testkit::Out| o.data()["session_dir"].as_str().unwrap().to_string();
    assert_ne!(dir(&a), dir(&b), "same basename, different roots");
    assert!(
        dir(&a).contains("/one-") && dir(&b).contains("/one-"),
        "readable basename: {}",
        dir(&a)
    );
    assert!(dir(&c).ends_with("/other"));
    assert_eq!(
        PathBuf::from(dir(&a)).parent(),
        PathBuf::from(dir(&c)).parent()
    );
}

#[test]
fn clear_reads_forgets_and_writes_need_a_new_read() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    env.read("a.txt");
    let out = env.run(&["session", "clear_reads"], "");
    out.assert_ok();
    assert_eq!(out.data()["cleared_reads"], 1);
    env.call("write", json!({"path": "a.txt", "content": "y"}))
        .assert_err("not_read");
}

#[test]
fn reset_drops_everything_of_that_session_only() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    env.read("a.txt");
    env.call("write", json!({"path": "a.txt", "content": "y\n"}))
        .assert_ok();
    env.call_in("keep", "read", json!({"path": "a.txt"}))
        .assert_ok();
    env.call("session", json!({"action": "reset"})).assert_ok();
    let s = env.run(&["session"], "");
    assert_eq!(
        (
            s.data()["reads"].as_array().unwrap().len(),
            s.data()["undo_depth"].as_u64()
        ),
        (0, Some(0))
    );
    let k = env.run(&["--session", "keep", "session"], "");
    assert_eq!(k.data()["reads"].as_array().unwrap().len(), 1);
    let out = env.call("session", json!({"action": "explode"}));
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "action");
}

#[test]
fn a_corrupt_state_file_is_moved_aside_with_a_warning() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    env.read("a.txt");
    let dir = env.session_dir("default");
    std::fs::write(dir.join("reads.json"), "{\"files\": {\"trunc").unwrap();
    let out = env.call("read", json!({"path": "a.txt"}));
    out.assert_ok();
    let w = out.data()["warnings"][0].as_str().unwrap();
    assert!(w.contains("reads.json") && w.contains("corrupt"), "{w}");
    let aside: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("reads.json.corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1);
    // and the fresh file works: the read above was recorded
    let s = env.run(&["session"], "");
    assert_eq!(s.data()["reads"].as_array().unwrap().len(), 1);
    assert!(s.data().get("warnings").is_none());
}

#[test]
fn a_held_lock_times_out_and_a_killed_holder_releases_it() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let dir = env.session_dir("default");
    let mut holder = testkit::LockHolder::hold(&dir.join("lock"));
    // A todo change is a read-modify-write of state: it needs the session lock. (A read
    // records on its own file and takes no lock since the sharded store.)
    let mut c = env.cmd();
    c.args(["todo"])
        .env("LOOPR_LOCK_TIMEOUT_MS", "300")
        .write_stdin(r#"{"action": "add", "content": "x"}"#);
    let start = Instant::now();
    let out = finish(c);
    out.assert_err("lock_timeout");
    assert!(start.elapsed() >= Duration::from_millis(300));
    env.read("a.txt"); // reads go on while the lock is held
    // SIGKILL the holder: the kernel drops its lock, and no stale lock file blocks anyone
    holder.kill();
    let start = Instant::now();
    env.call("todo", json!({"action": "add", "content": "y"}))
        .assert_ok();
    assert!(start.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_file_lock_held_elsewhere_blocks_writers_of_that_file() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    env.read("a.txt");
    env.call("write", json!({"path": "a.txt", "content": "y\n"}))
        .assert_ok();
    // The per-file lock is an flock on the file's directory (SPEC 24.7): no lock file is left.
    assert!(
        !env.session_dir("default")
            .parent()
            .unwrap()
            .join("locks")
            .exists()
    );
    let mut holder = testkit::LockHolder::hold(&env.root);
    let mut c = env.cmd();
    c.args(["write", "a.txt", "--content", "z\n"])
        .env("LOOPR_LOCK_TIMEOUT_MS", "300");
    let out = finish(c);
    out.assert_err("lock_timeout");
    assert_eq!(env.read_file("a.txt"), b"y\n");
    holder.kill();
    env.call("write", json!({"path": "a.txt", "content": "z\n"}))
        .assert_ok();
}

#[test]
fn an_unwritable_state_dir_is_an_io_error() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let blocker = env.dir.path().join("not-a-dir");
    std::fs::write(&blocker, "").unwrap();
    let out = env.run(
        &["--state-dir", blocker.to_str().unwrap(), "read", "a.txt"],
        "",
    );
    out.assert_err("io_error");
    assert!(out.output().contains("state directory"));
}

/// Read records are one file each (issue 22); a session dir from before keeps its records: the
/// old `reads.json` is moved into the new layout on first use.
#[test]
fn a_legacy_reads_json_is_migrated() {
    let env = Env::new();
    env.write_file("empty.txt", "");
    let sd = env.session_dir("default");
    std::fs::create_dir_all(&sd).unwrap();
    let real = env.path("empty.txt");
    // xxh3-64 of the empty file, the record's content hash
    let legacy = json!({"files": {real.to_string_lossy(): {
        "size": 0, "mtime_ns": 0, "hash": "2d06800538d394c2", "read_at": "2026-01-01T00:00:00.000Z"}}});
    std::fs::write(sd.join("reads.json"), legacy.to_string()).unwrap();
    env.call("write", json!({"path": "empty.txt", "content": "now\n"}))
        .assert_ok();
    assert!(!sd.join("reads.json").exists());
    assert_eq!(std::fs::read_dir(sd.join("reads")).unwrap().count(), 1);
}

/// SPEC 23.8, 24.7: two agents with different state dirs (or nested roots) editing one file at
/// once: one wins and the other fails stale_read, every round. The per-file lock used to live
/// under each state dir, and both got `ok` with one update lost, 31 of 31 rounds.
#[test]
fn writers_with_other_state_dirs_or_roots_still_lose_no_update() {
    let env = Env::new();
    env.write_file("sub/f.txt", "0\n");
    let other_state = env.dir.path().join("other-state");
    for round in 0..8 {
        // agent A: the root, the default state dir; agent B: root `sub`, its own state dir
        env.call("read", json!({"path": "sub/f.txt"})).assert_ok();
        let mut b_read = env.cmd();
        b_read
            .env("LOOPR_STATE_DIR", &other_state)
            .args(["--root", "sub", "read", "f.txt"]);
        finish(b_read).assert_ok();
        let spawn = |args: &[&str], state: &std::path::Path, input: Value| {
            env.spawn(args, &[("LOOPR_STATE_DIR", state)], &input.to_string())
        };
        let current = String::from_utf8(env.read_file("sub/f.txt")).unwrap();
        let a = spawn(
            &["edit"],
            &env.state,
            json!({"path": "sub/f.txt", "old_string": current.trim(), "new_string": format!("{}a", current.trim())}),
        );
        let b = spawn(
            &["--root", "sub", "edit"],
            &other_state,
            json!({"path": "f.txt", "old_string": current.trim(), "new_string": format!("{}b", current.trim())}),
        );
        let (a, b) = (Env::parse(a), Env::parse(b));
        let wins = [&a, &b].iter().filter(|v| v["ok"] == true).count();
        assert_eq!(wins, 1, "round {round}: exactly one edit lands: {a} {b}");
        let loser = if a["ok"] == true { &b } else { &a };
        assert_eq!(
            loser["error"]["code"], "stale_read",
            "round {round}: {loser}"
        );
    }
}

/// The first reads of a fresh session, made at once (batch threads), race to make the records'
/// directory: none of them fails for it.
#[test]
fn parallel_first_reads_of_a_session_all_record() {
    for round in 0..5 {
        let env = Env::new();
        for i in 0..16 {
            env.write_file(&format!("f{i}.txt"), "x\n");
        }
        let calls: Vec<Value> = (0..16)
            .map(|i| json!({"name": "read", "input": {"path": format!("f{i}.txt")}}))
            .collect();
        let out = env.run(&["batch"], &Value::Array(calls).to_string());
        assert_eq!(out.status, 0, "round {round}: {}", out.stdout);
    }
}
