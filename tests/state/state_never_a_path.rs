//! SPEC 31.4: state written by anyone but us is never a path. Pruning reads the journal as undo
//! does, job records with ids this binary never gives are not read, and a record naming
//! another session's supervisor signals nothing. Every victim is a scratch file or a `sleep`
//! this test started.

use serde_json::{Value, json};
use testkit::{Env, Reaper, marked_alive};

/// `../` enough times to climb out of any state dir, then `target` from `/`: a name that
/// walks to `target` from wherever it is joined.
fn climbing_to(target: &std::path::Path) -> String {
    format!(
        "{}{}",
        "../".repeat(40),
        target.to_string_lossy().trim_start_matches('/')
    )
}

#[test]
fn pruning_a_forged_journal_deletes_nothing_outside_the_session() {
    let env = Env::new();
    env.write_file("f.txt", "x\n");
    let victim = env.dir.path().join("victim.txt");
    std::fs::write(&victim, "keep me\n").unwrap();
    let tree = env.dir.path().join("victim-tree");
    std::fs::create_dir(&tree).unwrap();
    std::fs::write(tree.join("inner.txt"), "keep me too\n").unwrap();
    // 50 entries, the oldest naming outside things as its blob and its trash: the next two
    // changes prune them.
    let path = env.path("f.txt").to_string_lossy().into_owned();
    let entries: Vec<Value> = (1..=50)
        .map(|id| {
            json!({
                "id": id, "tool": "write", "path": path, "shown": "f.txt",
                "at": "2026-01-01T00:00:00Z",
                "previous": {"mode": 420, "size": 8, "blob": climbing_to(&victim)},
                "after": {"size": 0, "mtime_ns": 0, "hash": "0000000000000000"},
                "written": climbing_to(&victim),
                "op": {"kind": "delete", "trash": climbing_to(&tree)},
            })
        })
        .collect();
    let sd = env.session_dir("default");
    std::fs::write(
        sd.join("undo.json"),
        json!({"next_id": 51, "entries": entries}).to_string(),
    )
    .unwrap();
    env.read("f.txt");
    for content in ["one\n", "two\n"] {
        env.call("write", json!({"path": "f.txt", "content": content}))
            .assert_ok();
    }
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep me\n");
    assert!(tree.join("inner.txt").exists());
}

#[test]
fn a_job_record_whose_id_is_a_path_is_never_read() {
    let env = Env::new();
    let victim = env.dir.path().join("victim.log");
    std::fs::write(&victim, "keep me\n").unwrap();
    let id = climbing_to(&env.dir.path().join("victim"));
    // 20 finished jobs, the oldest with a path for an id: the next run prunes it with its log.
    let jobs: Vec<Value> = (0..20)
        .map(|n| {
            json!({
                "id": if n == 0 { id.clone() } else { n.to_string() },
                "command": "true", "description": null, "cwd": ".", "background": false,
                "started_at": "2026-01-01T00:00:00.000Z", "started_ms": 0, "state": "exited",
                "exit_code": 0, "signal": null, "duration_ms": 1, "output_bytes": 0,
                "owner": null,
            })
        })
        .collect();
    let sd = env.session_dir("default");
    // As any earlier run leaves it.
    std::fs::create_dir_all(sd.join("logs")).unwrap();
    std::fs::write(
        sd.join("jobs.json"),
        json!({"next_id": 20, "jobs": jobs}).to_string(),
    )
    .unwrap();
    env.call("run", json!({"command": "true"})).assert_ok();
    env.call("jobs", json!({"action": "output", "id": id}));
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep me\n");
}

#[test]
fn a_record_naming_another_sessions_supervisor_signals_nothing() {
    let env = Env::new();
    let mark = format!("loopr-foreign-{}", std::process::id());
    let _reaper = Reaper(mark.clone(), vec![]);
    // Session "other" runs a real background job.
    let mut c = env.cmd();
    c.env("LOOPR_TEST_MARK", &mark)
        .args(["--session", "other", "run"])
        .write_stdin(json!({"command": "sleep 60", "background": true}).to_string());
    testkit::finish(c).assert_ok();
    let stop = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while marked_alive(&mark).is_empty() {
        assert!(std::time::Instant::now() < stop, "the job did not start");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let before = marked_alive(&mark).len();
    // Session "default" gets a copy of its record, as a forger would write it.
    let theirs: Value =
        serde_json::from_slice(&std::fs::read(env.session_dir("other").join("jobs.json")).unwrap())
            .unwrap();
    std::fs::write(
        env.session_dir("default").join("jobs.json"),
        theirs.to_string(),
    )
    .unwrap();
    let id = theirs["jobs"][0]["id"].as_str().unwrap().to_string();
    env.call("jobs", json!({"action": "kill", "id": id}));
    env.call("session", json!({"action": "reset"}));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        marked_alive(&mark).len(),
        before,
        "a forged record ended another session's job"
    );
    let list = env.call_in("other", "jobs", json!({"action": "list"}));
    assert_eq!(list.data()["running"], 1, "{}", list.stdout);
    // Its own session still ends it.
    env.call_in("other", "jobs", json!({"action": "kill", "id": id}))
        .assert_ok();
    assert!(marked_alive(&mark).is_empty());
}

#[test]
fn an_artifact_or_inbox_file_is_read_by_its_own_name_and_never_through_a_link() {
    let env = Env::new();
    // A phase "named" by a path to a file the model wrote elsewhere: its command never runs.
    env.write_file(
        "evil.json",
        json!({"name": "evil", "validation_command": "touch pwned"}).to_string(),
    );
    let catalog = env.dir.path().join("v.toml");
    std::fs::write(&catalog, "[tools.validate]\n[tools.run]\n").unwrap();
    let mut c = env.cmd();
    c.arg("--config")
        .arg(&catalog)
        .arg("validate")
        .write_stdin(json!({"phase": climbing_to(&env.path("evil"))}).to_string());
    testkit::finish(c).assert_err("not_found");
    assert!(!env.path("pwned").exists());
    // An inbox message that is a link to a file outside is not shown.
    env.call(
        "share",
        json!({"to": ["default"], "data_type": "t", "data": "hello"}),
    )
    .assert_ok();
    let inbox = env.session_dir("default").join("inbox");
    let message = std::fs::read_dir(&inbox)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with('m'))
        .unwrap()
        .path();
    let secret = env.dir.path().join("secret.json");
    // The message as stored, with other data: only the link keeps it from being shown.
    let stored = std::fs::read_to_string(&message).unwrap();
    assert!(stored.contains("hello"));
    std::fs::write(&secret, stored.replace("hello", "SECRET-77")).unwrap();
    std::fs::remove_file(&message).unwrap();
    std::os::unix::fs::symlink(&secret, &message).unwrap();
    let out = env.call("inbox", json!({"action": "all"}));
    assert!(!out.stdout.contains("SECRET-77"), "{}", out.stdout);
}

#[test]
fn runs_workspace_write_sandbox_never_holds_the_state_dir() {
    // `--root $HOME`: the default state dir (~/.local/state) would be inside the root, so it
    // moves out, where a confined command cannot write.
    let env = Env::new();
    let home = env.dir.path();
    let session = |args: &[&str]| {
        let mut c = env.cmd();
        c.env_remove("LOOPR_STATE_DIR")
            .arg("--root")
            .arg(home)
            .args(args);
        testkit::finish(c)
    };
    let out = session(&["session"]);
    out.assert_ok();
    let sd = std::path::PathBuf::from(out.data()["session_dir"].as_str().unwrap());
    let key_dir = sd.parent().unwrap().to_path_buf();
    let _cleanup = Cleanup(key_dir.clone());
    assert!(!sd.starts_with(home), "{}", sd.display());
    let journal = sd.join("undo.json");
    let out = session(&[
        "run",
        "--sandbox",
        "workspace-write",
        "--command",
        &format!("echo forged > '{}'", journal.display()),
    ]);
    assert!(!journal.exists(), "{}", out.stdout);
    // A state dir named inside the root: such a run is refused before anything runs.
    let inside = env.path(".state");
    let mut c = env.cmd();
    c.env("LOOPR_STATE_DIR", &inside)
        .args(["run", "--sandbox", "workspace-write", "--command"])
        .arg(format!(
            "mkdir -p '{0}' && echo forged > '{0}/x'",
            inside.display()
        ));
    testkit::finish(c).assert_err("sandbox_unavailable");
    assert!(!inside.join("x").exists());
}

/// Removes a state dir this test made outside its scratch dir.
struct Cleanup(std::path::PathBuf);

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
