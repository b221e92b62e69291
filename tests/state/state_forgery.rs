//! State the tools cannot forge (SPEC 23.6): the state dir is out of every tool's reach even
//! inside the root, undo trusts no path or name read back from its journal, state is private,
//! and corrupt files are moved aside without overwriting each other.

use serde_json::{Value, json};
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use testkit::{Env, Reaper};

/// An env whose state dir is inside the root, as with `--root $HOME`.
fn inside() -> Env {
    let env = Env::new();
    env.write_file("a.txt", "alpha\n");
    env
}

fn run_in(env: &Env, args: &[&str], input: Value) -> testkit::Out {
    let state = env.path(".state");
    let mut c = env.cmd();
    c.env("LOOPR_STATE_DIR", &state)
        .args(args)
        .write_stdin(input.to_string());
    testkit::finish(c)
}

#[test]
fn the_state_dir_inside_the_root_is_denied_to_every_tool() {
    let env = inside();
    run_in(&env, &["read"], json!({"path": "a.txt"})).assert_ok();
    let sd = PathBuf::from(
        run_in(&env, &["session"], json!({})).data()["session_dir"]
            .as_str()
            .unwrap(),
    );
    // a read record: one file per record under reads/
    let journal = std::fs::read_dir(sd.join("reads"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let rel = journal
        .strip_prefix(&env.root)
        .unwrap()
        .to_string_lossy()
        .into_owned();
    for (tool, input) in [
        ("read", json!({"path": rel})),
        ("write", json!({"path": rel, "content": "{}"})),
        (
            "edit",
            json!({"path": rel, "old_string": "files", "new_string": "x"}),
        ),
        ("delete", json!({"path": ".state", "recursive": true})),
        ("move", json!({"from": ".state", "to": "elsewhere"})),
        ("move", json!({"from": "a.txt", "to": ".state/a.txt"})),
        ("mkdir", json!({"path": ".state/x"})),
        ("tree", json!({"path": ".state"})),
    ] {
        let out = run_in(&env, &[tool], input);
        out.assert_err("path_denied");
    }
    let stat = run_in(&env, &["stat"], json!({"path": rel}));
    assert_eq!(stat.data()["error"]["code"], "path_denied");
    // walkers never enter it, hidden and ignored files included
    let glob = run_in(
        &env,
        &["glob"],
        json!({"pattern": "**/*", "hidden": true, "no_ignore": true}),
    );
    assert!(!glob.output().contains(".state"), "{}", glob.output());
    let grep = run_in(
        &env,
        &["grep"],
        json!({"pattern": "files", "hidden": true, "no_ignore": true}),
    );
    assert!(!grep.output().contains(".state"), "{}", grep.output());
    let tree = run_in(&env, &["tree"], json!({"hidden": true, "no_ignore": true}));
    assert!(!tree.output().contains(".state"), "{}", tree.output());
    assert!(journal.exists());
}

/// Writes `entries` as the session's journal, as a forger with write access to the state
/// dir would.
fn forge_journal(env: &Env, entries: Value) {
    let sd = env.session_dir("default");
    std::fs::create_dir_all(&sd).unwrap();
    std::fs::write(
        sd.join("undo.json"),
        json!({"next_id": 9, "entries": entries}).to_string(),
    )
    .unwrap();
}

fn entry(path: &str, previous: Value, op: Option<Value>) -> Value {
    let mut e = json!({
        "id": 1, "tool": "write", "path": path, "shown": "x", "at": "2026-01-01T00:00:00Z",
        "previous": previous,
        "after": {"size": 0, "mtime_ns": 0, "hash": "0000000000000000"},
    });
    if let Some(op) = op {
        e["op"] = op;
    }
    e
}

#[test]
fn undo_trusts_no_path_or_name_from_its_journal() {
    let env = Env::new();
    let victim = env.dir.path().join("victim.txt");
    std::fs::write(&victim, "").unwrap();
    let hash = |b: &[u8]| format!("{:016x}", xxh3(b));
    // a forged "created by write" entry naming a file outside the root: undo would delete it
    let mut e = entry(&victim.to_string_lossy(), Value::Null, None);
    e["after"]["hash"] = json!(hash(b""));
    forge_journal(&env, json!([e]));
    env.call("undo", json!({})).assert_err("outside_root");
    assert!(victim.exists());
    // a blob name that walks out of the state dir
    env.write_file("b.txt", "");
    let mut e = entry(
        &env.path("b.txt").to_string_lossy(),
        json!({"mode": 420, "size": 3, "blob": "../../../../victim.txt"}),
        None,
    );
    e["after"]["hash"] = json!(hash(b""));
    forge_journal(&env, json!([e]));
    env.call("undo", json!({})).assert_err("io_error");
    assert!(victim.exists());
    assert_eq!(env.read_file("b.txt"), b"");
    // a forged delete whose trash name is a path
    let e = entry(
        &env.path("restored.txt").to_string_lossy(),
        Value::Null,
        Some(json!({"kind": "delete", "trash": "../../../victim.txt"})),
    );
    forge_journal(&env, json!([e]));
    env.call("undo", json!({})).assert_err("io_error");
    assert!(victim.exists() && !env.path("restored.txt").exists());
    // a forged move back to a place outside the root
    env.write_file("moved.txt", "");
    let mut e = entry(
        &env.path("moved.txt").to_string_lossy(),
        Value::Null,
        Some(
            json!({"kind": "move", "from": env.dir.path().join("stolen.txt"), "from_shown": "s", "dir": false}),
        ),
    );
    e["after"]["hash"] = json!(hash(b""));
    forge_journal(&env, json!([e]));
    env.call("undo", json!({})).assert_err("outside_root");
    assert!(env.path("moved.txt").exists() && !env.dir.path().join("stolen.txt").exists());
}

#[test]
fn undo_refuses_when_a_directory_on_the_way_became_a_link_out() {
    let env = Env::new();
    env.call("write", json!({"path": "d/new.txt", "content": "mine"}))
        .assert_ok();
    // swap d for a link to a directory outside holding a file of the same name
    let outside = env.dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("new.txt"), "mine").unwrap();
    std::fs::rename(env.path("d"), env.dir.path().join("d-away")).unwrap();
    std::os::unix::fs::symlink(&outside, env.path("d")).unwrap();
    env.call("undo", json!({})).assert_err("outside_root");
    assert_eq!(std::fs::read(outside.join("new.txt")).unwrap(), b"mine");
}

#[test]
fn state_is_private_and_corrupt_files_never_overwrite_each_other() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    env.call("read", json!({"path": "a.txt"})).assert_ok();
    let sd = env.session_dir("default");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&sd), 0o700);
    assert_eq!(mode(sd.parent().unwrap()), 0o700);
    assert_eq!(mode(&sd.join("reads")), 0o700);
    let record = std::fs::read_dir(sd.join("reads"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    assert_eq!(mode(&record), 0o600);
    for _ in 0..2 {
        std::fs::write(sd.join("todos.json"), "{not json").unwrap();
        let out = env.call("todo", json!({"action": "list"}));
        out.assert_ok();
        // SPEC 31.3: the call that moved it aside says so.
        let warned = out.data()["warnings"][0].as_str().unwrap_or_default();
        assert!(warned.contains("todos.json was corrupt"), "{}", out.json);
    }
    let aside: Vec<String> = std::fs::read_dir(&sd)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("todos.json.corrupt-"))
        .collect();
    assert_eq!(aside.len(), 2, "{aside:?}");
    // A read record too: the edit is refused as unread, and the call says why.
    std::fs::write(&record, "{not json").unwrap();
    let out = env.call(
        "edit",
        json!({"path": "a.txt", "old_string": "x", "new_string": "y"}),
    );
    out.assert_err("not_read");
    assert!(
        out.output().contains("was corrupt") && !record.exists(),
        "{}",
        out.json
    );
}

/// SPEC 31.3: every file under the state dir is 0600 in 0700 directories — undo blobs (a link
/// to the replaced file's inode had its mode) and the trash (a deleted tree kept its own)
/// included — and undo still gives each file its own mode back.
#[test]
fn blobs_and_the_trash_are_private_and_undo_gives_the_modes_back() {
    let env = Env::new();
    let set = |p: &str, m: u32| {
        std::fs::set_permissions(env.path(p), std::fs::Permissions::from_mode(m)).unwrap()
    };
    env.write_file("run.sh", "echo hi\n");
    set("run.sh", 0o755);
    env.write_file("tree/bin/tool", "x\n");
    set("tree/bin/tool", 0o751);
    set("tree/bin", 0o750);
    env.call("read", json!({"path": "run.sh"})).assert_ok();
    env.call(
        "edit",
        json!({"path": "run.sh", "old_string": "hi", "new_string": "ho"}),
    )
    .assert_ok();
    env.call("delete", json!({"path": "tree", "recursive": true}))
        .assert_ok();
    let state = env.session_dir("default");
    let mut seen = 0;
    let mut todo = vec![state.clone()];
    while let Some(p) = todo.pop() {
        let meta = std::fs::symlink_metadata(&p).unwrap();
        let mode = meta.permissions().mode() & 0o7777;
        if meta.is_dir() {
            assert_eq!(mode, 0o700, "{}", p.display());
            todo.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else {
            assert_eq!(mode, 0o600, "{}", p.display());
            seen += 1;
        }
    }
    assert!(seen >= 4, "blobs, trash and journal were scanned: {seen}");
    env.call("undo", json!({})).assert_ok();
    env.call("undo", json!({})).assert_ok();
    let mode = |p: &str| std::fs::metadata(env.path(p)).unwrap().permissions().mode() & 0o7777;
    assert_eq!(
        (mode("run.sh"), mode("tree/bin"), mode("tree/bin/tool")),
        (0o755, 0o750, 0o751)
    );
    assert_eq!(env.read_file("run.sh"), b"echo hi\n");
}

/// The journal's content hash (xxh3-64) of the only content these forgeries use, the empty
/// file: a published constant, so a forged entry is otherwise valid and only the checks under
/// test can stop it.
fn xxh3(b: &[u8]) -> u64 {
    assert!(b.is_empty());
    0x2d06_8005_38d3_94c2
}

/// The start time of `pid` (field 22 of /proc/PID/stat), as the job records keep it.
fn start_of(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let rest = stat.rsplit_once(')').unwrap().1;
    rest.split_ascii_whitespace()
        .nth(19)
        .unwrap()
        .parse()
        .unwrap()
}

fn alive_with(marker: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter(|e| {
            std::fs::read(e.path().join("environ"))
                .is_ok_and(|b| b.windows(marker.len()).any(|w| w == marker.as_bytes()))
        })
        .filter(|e| {
            std::fs::read_to_string(e.path().join("stat")).is_ok_and(|s| {
                !s.rsplit(')')
                    .next()
                    .unwrap_or("")
                    .trim_start()
                    .starts_with('Z')
            })
        })
        .count()
}

#[test]
fn a_forged_job_record_signals_no_foreign_process() {
    forged_record_signals_nothing(&[]);
}

/// SPEC 31.3 (23.6): a record whose keeper names a live process that is not this binary's —
/// here a session leader of the test's own, with its real start time copied — signals nothing,
/// not even the members of that session found by scanning /proc.
#[test]
fn a_forged_keeper_that_leads_a_session_signals_nothing_found_by_scanning() {
    forged_record_signals_nothing(&["setsid"]);
}

fn forged_record_signals_nothing(wrapper: &[&str]) {
    let env = Env::new();
    let marker = format!("LOOPR_VICTIM_{}_{}", std::process::id(), wrapper.len());
    // The victim: a process tree this test owns, not loopr-tool's. Its sleeps are SIGKILLed when
    // the test ends, passed or failed: left running, they held cargo's output pipe for a minute.
    let program: Vec<&str> = wrapper
        .iter()
        .copied()
        .chain(["sh", "-c", "sleep 60 & sleep 60; wait"])
        .collect();
    let mut victim = std::process::Command::new(program[0])
        .args(&program[1..])
        .env(&marker, "1")
        .env("LOOPR_TEST_MARK", &marker)
        .spawn()
        .unwrap();
    let _reaper = Reaper(marker.clone(), vec![]);
    let stop = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while alive_with(&marker) < 3 {
        assert!(std::time::Instant::now() < stop, "the victim did not start");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let owner = json!({"pid": victim.id(), "start": start_of(victim.id())});
    let sd = env.session_dir("default");
    std::fs::create_dir_all(&sd).unwrap();
    std::fs::write(
        sd.join("jobs.json"),
        json!({"next_id": 2, "jobs": [{
            "id": "1", "command": "sleep 60", "description": null, "cwd": ".", "background": true,
            "started_at": "2026-01-01T00:00:00.000Z", "started_ms": 0, "state": "running",
            "exit_code": null, "signal": null, "duration_ms": null, "output_bytes": null,
            "owner": owner, "keeper": owner,
        }]})
        .to_string(),
    )
    .unwrap();
    env.call("jobs", json!({"action": "kill", "id": "1"}));
    env.call("session", json!({"action": "reset"}));
    std::thread::sleep(std::time::Duration::from_millis(300));
    let left = alive_with(&marker);
    let _ = victim.kill();
    let _ = victim.wait();
    assert_eq!(left, 3, "a forged record signalled the victim's tree");
}

#[test]
fn run_logs_are_private() {
    let env = Env::new();
    let out = env.call("run", json!({"command": "echo secret"}));
    out.assert_ok();
    let log = PathBuf::from(out.data()["log"].as_str().unwrap());
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&log), 0o600);
    assert_eq!(mode(log.parent().unwrap()), 0o700);
}
