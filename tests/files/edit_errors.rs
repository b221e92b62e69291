//! `edit` end to end, the refusals (SPEC §3, §7, 16.5): every error code edit can produce, each
//! leaving the file as it was, and 16 concurrent editors losing no update.

use serde_json::{Value, json};
use testkit::{Env, Out, finish};

fn edit(env: &Env, input: Value) -> Out {
    env.call("edit", input)
}

// ---------------------------------------------------------------- every error code

#[test]
fn input_errors_name_the_field() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    env.read("a.txt");
    let field = |input: Value| {
        let out = edit(&env, input);
        out.assert_err("invalid_input");
        out.json["error"]["field"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    assert_eq!(field(json!({"path": "a.txt"})), "old_string");
    assert_eq!(
        field(json!({"path": "a.txt", "old_string": "x"})),
        "new_string"
    );
    assert_eq!(
        field(json!({"path": "a.txt", "old_string": "", "new_string": "y"})),
        "old_string"
    );
    assert_eq!(
        field(json!({"path": "a.txt", "old_string": "x", "new_string": "y", "edits": []})),
        "edits"
    );
    assert_eq!(field(json!({"path": "a.txt", "edits": []})), "edits");
    assert_eq!(
        field(
            json!({"path": "a.txt", "edits": [{"old_string": "x", "new_string": "y"}], "replace_all": true})
        ),
        "replace_all"
    );
    assert_eq!(
        field(
            json!({"path": "a.txt", "edits": [{"old_string": "x", "new_string": "y"}, {"old_string": "", "new_string": "z"}]})
        ),
        "edits[1].old_string"
    );
    assert_eq!(
        field(json!({"path": "a.txt", "old_string": "x", "new_string": "y", "bogus": 1})),
        "bogus"
    );
    assert_eq!(
        field(json!({"path": "a.txt", "edits": [{"old_string": "x", "new_str": "y", "extra": 1}]})),
        "edits[0].extra"
    );
    assert_eq!(env.read_file("a.txt"), b"x\n");
}

#[test]
fn no_change_when_old_equals_new_or_the_edits_cancel_out() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    env.read("a.txt");
    edit(
        &env,
        json!({"path": "a.txt", "old_string": "x", "new_string": "x"}),
    )
    .assert_err("no_change");
    let out = edit(
        &env,
        json!({"path": "a.txt", "edits": [{"old_string": "x", "new_string": "y"}, {"old_string": "y", "new_string": "x"}]}),
    );
    out.assert_err("no_change");
    let out = edit(
        &env,
        json!({"path": "a.txt", "edits": [{"old_string": "x", "new_string": "y"}, {"old_string": "q", "new_string": "q"}]}),
    );
    out.assert_err("no_change");
    assert_eq!(out.json["error"]["edit_index"], 1);
    assert_eq!(env.run(&["session"], "").data()["undo_depth"], 0);
}

#[test]
fn path_and_file_errors() {
    let env = Env::new();
    let ok = json!({"old_string": "a", "new_string": "b"});
    let with = |path: &str| {
        let mut v = ok.clone();
        v["path"] = json!(path);
        v
    };
    let out = edit(&env, with("missing.txt"));
    out.assert_err("not_found");
    assert_eq!(out.json["error"]["path"], "missing.txt");
    std::fs::create_dir(env.path("dir")).unwrap();
    edit(&env, with("dir")).assert_err("is_directory");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(env.path("fifo"))
            .status()
            .unwrap()
            .success()
    );
    edit(&env, with("fifo")).assert_err("unsupported_file");
    edit(&env, with("../outside.txt")).assert_err("outside_root");
    let big = std::fs::File::create(env.path("big.txt")).unwrap();
    big.set_len(64 * 1024 * 1024 + 1).unwrap();
    let out = edit(&env, with("big.txt"));
    out.assert_err("too_large");
    assert_eq!(out.json["error"]["limit"], 64 * 1024 * 1024);
    env.write_file("bin.dat", b"a\0b");
    edit(&env, with("bin.dat")).assert_err("binary_file");
    env.write_file("new.txt", "a\n");
    edit(&env, with("new.txt")).assert_err("not_read");
    env.read("new.txt");
    env.write_file("new.txt", "a changed\n");
    edit(&env, with("new.txt")).assert_err("stale_read");
    assert_eq!(env.read_file("new.txt"), b"a changed\n");
    // --no-read-check lets a script edit without reading
    env.run(
        &[
            "--no-read-check",
            "edit",
            "new.txt",
            "--old-string",
            "a changed",
            "--new-string",
            "b",
        ],
        "",
    )
    .assert_ok();
    // an unwritable state directory
    let blocker = env.dir.path().join("state-file");
    std::fs::write(&blocker, "").unwrap();
    let out = env.run(
        &[
            "--state-dir",
            blocker.to_str().unwrap(),
            "edit",
            "new.txt",
            "--old-string",
            "b",
            "--new-string",
            "c",
        ],
        "",
    );
    out.assert_err("io_error");
}

#[test]
fn the_os_refusing_is_permission_denied() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    // an unreadable file, with root's override taken away by running as nobody
    let p = env.write_file("locked.txt", "a\n");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).unwrap();
    let mut c = env.cmd_unprivileged();
    c.args([
        "--no-read-check",
        "edit",
        "locked.txt",
        "--old-string",
        "a",
        "--new-string",
        "b",
    ]);
    let out = finish(c);
    out.assert_err("permission_denied");
    assert_eq!(out.json["error"]["path"], "locked.txt"); // SPEC 31.2: like io_error, the OS's own name for it.
    assert_eq!(out.json["error"]["errno"], "EACCES");
}

#[test]
fn a_held_file_lock_is_lock_timeout() {
    let env = Env::new();
    env.write_file("a.txt", "one\n");
    env.read("a.txt");
    edit(
        &env,
        json!({"path": "a.txt", "old_string": "one", "new_string": "two"}),
    )
    .assert_ok();
    // The per-file lock is an flock on the file's directory (SPEC 24.7).
    let mut holder = testkit::LockHolder::hold(&env.root);
    let mut c = env.cmd();
    c.args([
        "edit",
        "a.txt",
        "--old-string",
        "two",
        "--new-string",
        "three",
    ])
    .env("LOOPR_LOCK_TIMEOUT_MS", "300");
    finish(c).assert_err("lock_timeout");
    holder.kill();
    assert_eq!(env.read_file("a.txt"), b"two\n");
}

// ---------------------------------------------------------------- concurrency

/// 16 processes, each in its own session, read the file and edit their own line at once.
/// Every success is in the final file; every other call is `stale_read`.
#[test]
fn concurrent_editors_lose_no_update() {
    let env = Env::new();
    let body: String = (0..16).map(|i| format!("slot {i}: empty\n")).collect();
    env.write_file("shared.txt", &body);
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(16));
    let workers: Vec<_> = (0..16)
        .map(|i| {
            let (root, state, barrier) = (env.root.clone(), env.state.clone(), barrier.clone());
            std::thread::spawn(move || {
                let call = |args: &[&str], stdin: String| {
                    let mut c = assert_cmd::Command::new(testkit::bin());
                    c.args(["--session", &format!("s{i}")])
                        .args(args)
                        .current_dir(&root)
                        .env("LOOPR_STATE_DIR", &state)
                        .write_stdin(stdin);
                    finish(c)
                };
                barrier.wait();
                call(&["read", "shared.txt"], String::new()).assert_ok();
                let input = json!({"path": "shared.txt", "old_string": format!("slot {i}: empty"), "new_string": format!("slot {i}: done by s{i}")});
                (i, call(&["edit"], input.to_string()))
            })
        })
        .collect();
    let mut wins = vec![];
    for w in workers {
        let (i, out) = w.join().unwrap();
        match out.code() {
            "" => {
                out.assert_ok();
                wins.push(i);
            }
            "stale_read" => {}
            other => panic!("unexpected {other}: {}", out.stdout),
        }
    }
    assert!(!wins.is_empty());
    let now = String::from_utf8(env.read_file("shared.txt")).unwrap();
    for i in 0..16 {
        let done = now.contains(&format!("slot {i}: done by s{i}\n"));
        assert_eq!(done, wins.contains(&i), "slot {i} in {now}");
    }
    assert_eq!(now.lines().count(), 16, "no torn content");
}

/// SPEC 23.8: an edit whose result would pass 64 MiB is `too_large` before the result is built
/// (replace_all of `a` by a thousand `b`s in a 1 MB file once wrote 1 GB), and nothing changes.
#[test]
fn an_edit_whose_result_passes_64_mib_is_too_large() {
    let env = Env::new();
    let content = "a\n".repeat(500_000);
    env.write_file("big.txt", &content);
    env.call("read", json!({"path": "big.txt"})).assert_ok();
    let out = env.call(
        "edit",
        json!({"path": "big.txt", "old_string": "a", "new_string": "b".repeat(1000), "replace_all": true}),
    );
    out.assert_err("too_large");
    assert_eq!(out.json["error"]["limit"], 64 * 1024 * 1024);
    assert_eq!(env.read_file("big.txt"), content.as_bytes());
}
