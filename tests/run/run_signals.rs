//! What happens to a command when its `loopr-tool` is told to stop (SPEC 23.7, 24.6): SIGTERM,
//! SIGINT or SIGHUP end the command's whole tree and still print the envelope; SIGKILL leaves
//! nothing running either; a background job whose supervisor was killed can still be stopped.
//!
//! Every command carries a marker in its environment, and "nothing survives" is a scan of /proc
//! for that marker — never the tool's own count. Each tree includes a `setsid` child and a
//! `nohup … &` child, which a process-group kill would miss.

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};
use testkit::{Env, Reaper};

fn mark(name: &str) -> String {
    format!("loopr-signals-{name}-{}", std::process::id())
}

/// A command that leaves three kinds of children and says when they all run.
const TREE: &str = "setsid sleep 600 & nohup sleep 601 >/dev/null 2>&1 & (sleep 602 &); sleep 0.2; touch started; sleep 603";

fn wait_until(what: &str, within: Duration, mut f: impl FnMut() -> bool) {
    let stop = Instant::now() + within;
    while !f() {
        assert!(Instant::now() < stop, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits up to `within` for every marked process to be gone; returns those left.
fn none_alive(mark: &str, within: Duration) -> Vec<u32> {
    let stop = Instant::now() + within;
    loop {
        let left = testkit::marked_alive(mark);
        if left.is_empty() || Instant::now() >= stop {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `loopr-tool run` with `input`, running until the tree it starts is up.
fn start_foreground(env: &Env, input: Value, m: &str) -> Child {
    let mut child = env
        .std_cmd()
        .arg("run")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.to_string().as_bytes()).unwrap();
    drop(stdin);
    wait_until("the tree to start", Duration::from_secs(10), || {
        env.path("started").exists() && testkit::marked_alive(m).len() >= 4
    });
    child
}

fn kill(pid: u32, sig: &str) {
    let ok = std::process::Command::new("kill")
        .args([&format!("-{sig}"), &pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{sig} {pid}");
}

/// The keepers (`loopr-tool __keep`) of this test's loopr-tool, found by its state dir.
fn keepers(env: &Env) -> Vec<u32> {
    let state = format!("LOOPR_STATE_DIR={}", env.state.display());
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_string_lossy().parse::<u32>().ok())
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            cmdline.split(|&b| b == 0).any(|a| a == b"__keep")
                && environ.split(|&b| b == 0).any(|kv| kv == state.as_bytes())
        })
        .collect()
}

#[test]
fn sigterm_sigint_and_sighup_end_the_tree_and_answer_interrupted() {
    for sig in ["TERM", "INT", "HUP"] {
        let env = Env::new();
        let m = mark(sig);
        let _reaper = Reaper(m.clone(), vec![]);
        let mut child = start_foreground(
            &env,
            json!({"command": TREE, "env": {"LOOPR_TEST_MARK": m}}),
            &m,
        );
        kill(child.id(), sig);
        let mut stdout = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut stdout)
            .unwrap();
        let status = child.wait().unwrap();
        let out: Value = serde_json::from_str(&stdout).unwrap_or(Value::Null);
        assert_eq!(status.code(), Some(1), "SIG{sig}: {stdout}");
        assert_eq!(out["error"]["code"], "command_failed", "SIG{sig}: {stdout}");
        assert_eq!(out["error"]["signal"], format!("SIG{sig}"));
        assert_eq!(out["error"]["interrupted"], true);
        assert_eq!(out["data"]["interrupted"], true);
        assert!(out["data"]["id"].is_string(), "the log can still be paged");
        let last = out["output"].as_str().unwrap().lines().last().unwrap();
        assert!(
            last.starts_with(&format!("Interrupted: loopr-tool received SIG{sig}")),
            "{last}"
        );
        assert_eq!(
            none_alive(&m, Duration::from_secs(1)),
            Vec::<u32>::new(),
            "SIG{sig}: nothing of the command survives"
        );
        assert_eq!(keepers(&env), Vec::<u32>::new(), "nor its keeper");
        // The record says so too.
        let list = env.call("jobs", json!({}));
        assert_eq!(list.data()["jobs"][0]["state"], "killed", "SIG{sig}");
    }
}

#[test]
fn sigkill_of_loopr_tool_leaves_nothing_running() {
    let env = Env::new();
    let m = mark("KILL");
    let _reaper = Reaper(m.clone(), vec![]);
    // The shell ignores SIGTERM: only the SIGKILL after the grace time ends it.
    let mut child = start_foreground(
        &env,
        json!({"command": format!("trap '' TERM; {TREE}"), "env": {"LOOPR_TEST_MARK": m}}),
        &m,
    );
    assert_eq!(
        keepers(&env).len(),
        1,
        "one keeper stands between us and the shell"
    );
    kill(child.id(), "KILL");
    child.wait().unwrap();
    assert_eq!(
        none_alive(&m, Duration::from_secs(6)),
        Vec::<u32>::new(),
        "nothing of the command survives SIGKILL of loopr-tool"
    );
    wait_until("the keeper to exit", Duration::from_secs(2), || {
        keepers(&env).is_empty()
    });
}

/// The job's record, as `jobs.json` holds it.
fn record(env: &Env, id: &str) -> Value {
    let file = env.session_dir("default").join("jobs.json");
    let all: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    all["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["id"] == id)
        .unwrap()
        .clone()
}

fn start_background(env: &Env, command: &str, m: &str) -> (String, u32, u32) {
    let out = env.call(
        "run",
        json!({"command": command, "background": true, "env": {"LOOPR_TEST_MARK": m}}),
    );
    out.assert_ok();
    let id = out.data()["id"].as_str().unwrap().to_string();
    wait_until("the job's tree", Duration::from_secs(10), || {
        testkit::marked_alive(m).len() >= 3
    });
    let rec = record(env, &id);
    let pid = |who: &str| rec[who]["pid"].as_u64().unwrap() as u32;
    (id, pid("owner"), pid("keeper"))
}

#[test]
fn a_job_whose_supervisor_was_killed_is_still_stopped_by_jobs_kill() {
    let env = Env::new();
    let m = mark("supervisor");
    let _reaper = Reaper(m.clone(), vec![]);
    let (id, supervisor, _) =
        start_background(&env, "setsid sleep 600 & sleep 601 & sleep 602", &m);
    kill(supervisor, "KILL");
    let killed = env.call("jobs", json!({"action": "kill", "id": id}));
    killed.assert_ok();
    assert_eq!(
        none_alive(&m, Duration::from_secs(5)),
        Vec::<u32>::new(),
        "jobs kill leaves nothing of a job whose supervisor died; {}",
        killed.stdout
    );
    assert_eq!(killed.data()["state"], "killed");
}

#[test]
fn a_job_whose_supervisor_and_keeper_were_killed_is_found_by_its_session() {
    let env = Env::new();
    let m = mark("both");
    let _reaper = Reaper(m.clone(), vec![]);
    let (id, supervisor, keeper) = start_background(&env, "sleep 600 & sleep 601 & sleep 602", &m);
    // The keeper first: its orphans go to the supervisor, then with it to init. Nothing that
    // watched the tree is left; only the session the keeper started still names it.
    kill(keeper, "KILL");
    kill(supervisor, "KILL");
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        testkit::marked_alive(&m).len() >= 3,
        "the tree outlived both (this is what jobs kill must now find)"
    );
    let killed = env.call("jobs", json!({"action": "kill", "id": id}));
    killed.assert_ok();
    assert_eq!(
        none_alive(&m, Duration::from_secs(5)),
        Vec::<u32>::new(),
        "{}",
        killed.stdout
    );
}
