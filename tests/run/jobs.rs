//! Background jobs and `jobs` end to end (SPEC §15, 16.8): a job started by one `loopr-tool`
//! process is listed, paged, waited for and killed by others; a reused pid is never signalled;
//! the other agents' names (BashOutput, KillShell, …); `session` counts and ends jobs; `batch`.

use serde_json::{Value, json};
use std::time::{Duration, Instant};
use testkit::{Env, Out, Reaper};

fn mark(name: &str) -> String {
    format!("loopr-jobs-{name}-{}", std::process::id())
}

fn alive(mark: &str) -> Vec<u32> {
    testkit::marked_alive(mark)
}

fn start(env: &Env, command: &str, m: &str) -> String {
    let out = env.call(
        "run",
        json!({"command": command, "background": true, "env": {"LOOPR_TEST_MARK": m}, "description": "test job"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["background"], true);
    assert!(out.output().starts_with("Started job "), "{}", out.output());
    out.data()["id"].as_str().unwrap().to_string()
}

fn jobs(env: &Env, input: Value) -> Out {
    env.call("jobs", input)
}

fn wait_until(what: &str, within: Duration, mut f: impl FnMut() -> bool) {
    let stop = Instant::now() + within;
    while !f() {
        assert!(Instant::now() < stop, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_background_job_is_listed_paged_waited_for_and_killed_from_other_processes() {
    let env = Env::new();
    let m = mark("lifecycle");
    let _reaper = Reaper(m.clone(), vec![]);
    let started = Instant::now();
    let id = start(
        &env,
        "setsid sleep 600 & (sleep 601 &); for i in $(seq 1 1000); do echo line $i; sleep 0.05; done",
        &m,
    );
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "run returns at once"
    );

    let list = jobs(&env, json!({}));
    list.assert_ok();
    let item = &list.data()["jobs"][0];
    assert_eq!(item["id"], id.as_str());
    assert_eq!(item["state"], "running");
    assert_eq!(item["description"], "test job");
    assert!(list.output().contains("running"));

    wait_until("two lines of output", Duration::from_secs(5), || {
        jobs(&env, json!({"action": "output", "id": id}))
            .output()
            .contains("line 2\n")
    });
    let page = jobs(&env, json!({"action": "output", "id": id}));
    page.assert_ok();
    assert!(page.output().starts_with("line 1\nline 2\n"));
    assert!(page.output().lines().last().unwrap().contains("is running"));
    assert_eq!(page.data()["state"], "running");

    // A wait that runs out is ok, with the job still running.
    let t = Instant::now();
    let waited = jobs(&env, json!({"action": "wait", "id": id, "timeout_ms": 300}));
    waited.assert_ok();
    assert!(t.elapsed() >= Duration::from_millis(300));
    assert_eq!(waited.data()["state"], "running");

    let killed = jobs(&env, json!({"action": "kill", "id": id}));
    killed.assert_ok();
    assert_eq!(killed.data()["state"], "killed");
    assert!(killed.data()["processes_ended"].as_u64().unwrap() >= 3);
    wait_until(
        "every process of the job to end",
        Duration::from_secs(1),
        || alive(&m).is_empty(),
    );
    let list = jobs(&env, json!({"action": "list"}));
    assert_eq!(list.data()["jobs"][0]["state"], "killed");
    // Killing again is not an error.
    let again = jobs(&env, json!({"action": "kill", "id": id}));
    again.assert_ok();
    assert!(again.output().contains("already ended"));
}

#[test]
fn a_finished_job_records_its_exit_and_its_log_stays_readable() {
    let env = Env::new();
    let m = mark("exit");
    let _reaper = Reaper(m.clone(), vec![]);
    let id = start(&env, "echo out; echo err >&2; exit 5", &m);
    let done = jobs(
        &env,
        json!({"action": "output", "id": id, "block": true, "timeout_ms": 10_000}),
    );
    done.assert_ok(); // a jobs call is ok whatever the job's own exit
    assert_eq!(done.data()["state"], "exited");
    assert_eq!(done.data()["exit_code"], 5);
    assert!(done.output().starts_with("out\nerr\n"));
    assert!(
        done.output()
            .lines()
            .last()
            .unwrap()
            .contains("exited with code 5")
    );
    // A filter keeps matching lines only.
    let filtered = jobs(
        &env,
        json!({"action": "output", "id": id, "filter": "^err"}),
    );
    assert!(
        filtered.output().starts_with("err\nJob "),
        "{}",
        filtered.output()
    );
    // A leftover of a background job is ended when its shell exits, and said so.
    let id = start(&env, "sleep 600 >/dev/null 2>&1 & echo bye", &m);
    let done = jobs(&env, json!({"action": "wait", "id": id}));
    assert_eq!(done.data()["exit_code"], 0);
    assert!(done.output().contains("were ended"), "{}", done.output());
    assert!(alive(&m).is_empty());
}

#[test]
fn a_background_timeout_ends_the_job() {
    let env = Env::new();
    let m = mark("bgtimeout");
    let _reaper = Reaper(m.clone(), vec![]);
    let out = env.call(
        "run",
        json!({"command": "echo go; sleep 600", "background": true, "timeout_ms": 500, "env": {"LOOPR_TEST_MARK": m}}),
    );
    out.assert_ok();
    let id = out.data()["id"].as_str().unwrap();
    let done = jobs(
        &env,
        json!({"action": "wait", "id": id, "timeout_ms": 10_000}),
    );
    assert_eq!(done.data()["state"], "timed out");
    assert!(done.output().contains("timed out"));
    assert!(alive(&m).is_empty());
}

#[test]
fn a_reused_pid_is_never_signalled() {
    let env = Env::new();
    let m = mark("reuse");
    let id = start(&env, "sleep 600", &m);
    // Make the record name the supervisor's pid with another start time: as if that process had
    // ended and its pid had gone to someone else.
    let file = env.session_dir("default").join("jobs.json");
    let mut rec: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let owner = rec["jobs"][0]["owner"].clone();
    let supervisor = owner["pid"].as_u64().unwrap() as u32;
    let _reaper = Reaper(m.clone(), vec![supervisor]);
    rec["jobs"][0]["owner"]["start"] = json!(owner["start"].as_u64().unwrap() + 1);
    std::fs::write(&file, rec.to_string()).unwrap();

    let killed = jobs(&env, json!({"action": "kill", "id": id}));
    killed.assert_ok();
    assert!(
        killed.data()["processes_ended"].as_u64().unwrap_or(0) == 0,
        "{}",
        killed.stdout
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        alive(&m).len(),
        1,
        "the process under the reused pid was left alone"
    );
    assert!(std::path::Path::new(&format!("/proc/{supervisor}")).exists());
    // The record is settled: its owner (as recorded) is gone.
    let list = jobs(&env, json!({}));
    assert_eq!(list.data()["jobs"][0]["state"], "killed");
}

#[test]
fn jobs_input_errors_and_unknown_ids() {
    let env = Env::new();
    let out = jobs(&env, json!({"action": "output", "id": "99"}));
    out.assert_err("not_found");
    assert_eq!(out.json["error"]["id"], "99");
    jobs(&env, json!({"action": "kill", "id": "nope"})).assert_err("not_found");
    for (input, field) in [
        (json!({"action": "output"}), "id"),
        (json!({"action": "list", "offset": 3}), "offset"),
        (json!({"action": "kill", "id": "1", "block": true}), "block"),
        (
            json!({"action": "wait", "id": "1", "block": false}),
            "block",
        ),
        (
            json!({"action": "output", "id": "1", "timeout_ms": 5}),
            "timeout_ms",
        ),
        (json!({"action": "output", "id": 1}), "id"),
        (json!({"action": "stop"}), "action"),
    ] {
        let out = jobs(&env, input.clone());
        out.assert_err("invalid_input");
        assert_eq!(out.json["error"]["field"], field, "{input}: {}", out.stdout);
    }
    let m = mark("regex");
    let _reaper = Reaper(m.clone(), vec![]);
    let id = start(&env, "true", &m);
    jobs(&env, json!({"action": "output", "id": id, "filter": "("})).assert_err("invalid_regex");
    let empty = Env::new();
    let list = jobs(&empty, json!({}));
    list.assert_ok();
    assert!(list.output().starts_with("No jobs"));
}

#[test]
fn bash_output_shows_what_is_new_and_kill_shell_stops() {
    let env = Env::new();
    let m = mark("alias");
    let _reaper = Reaper(m.clone(), vec![]);
    let out = env.call(
        "Bash",
        json!({"command": "echo one; sleep 0.3; echo two; sleep 600", "run_in_background": true, "env": {"LOOPR_TEST_MARK": m}}),
    );
    out.assert_ok();
    let id = out.data()["id"].as_str().unwrap().to_string();
    wait_until("one", Duration::from_secs(5), || {
        env.call("TaskOutput", json!({"task_id": id, "block": false}))
            .output()
            .contains("one\n")
    });
    let first = env.call("BashOutput", json!({"bash_id": id}));
    first.assert_ok();
    assert_eq!(first.json["tool"], "jobs");
    assert!(first.output().starts_with("one\n"));
    wait_until("two", Duration::from_secs(5), || {
        env.call("jobs", json!({"action": "output", "id": id}))
            .output()
            .contains("two\n")
    });
    let second = env.call("BashOutput", json!({"bash_id": id}));
    assert!(
        second.output().starts_with("two\n"),
        "only what is new: {}",
        second.output()
    );
    let third = env.call("BashOutput", json!({"bash_id": id}));
    assert!(
        third
            .output()
            .starts_with("(no output past this offset yet)"),
        "{}",
        third.output()
    );
    let killed = env.call("KillShell", json!({"shell_id": id}));
    killed.assert_ok();
    assert_eq!(killed.data()["state"], "killed");
    wait_until("the job's processes to end", Duration::from_secs(1), || {
        alive(&m).is_empty()
    });
    for (name, field) in [("KillBash", "shell_id"), ("TaskStop", "task_id")] {
        let out = env.call(name, json!({ field: id }));
        out.assert_ok();
        assert!(out.output().contains("already ended"));
    }
}

#[test]
fn session_counts_running_jobs_and_reset_ends_them() {
    let env = Env::new();
    let m = mark("session");
    let _reaper = Reaper(m.clone(), vec![]);
    start(&env, "sleep 600", &m);
    start(&env, "sleep 601", &m);
    let show = env.call("session", json!({}));
    assert_eq!(show.data()["jobs_running"], 2);
    assert!(show.output().contains("Running jobs: 2"));
    let reset = env.call("session", json!({"action": "reset"}));
    reset.assert_ok();
    assert_eq!(reset.data()["jobs_ended"], 2);
    wait_until("the jobs' processes to end", Duration::from_secs(2), || {
        alive(&m).is_empty()
    });
    let show = env.call("session", json!({}));
    assert_eq!(show.data()["jobs_running"], 0);
    assert_eq!(jobs(&env, json!({})).data()["jobs"], json!([]));
}

#[test]
fn only_the_last_20_runs_are_kept() {
    let env = Env::new();
    let mut ids = vec![];
    for i in 0..23 {
        let out = env.call("run", json!({"command": format!("echo {i}")}));
        out.assert_ok();
        ids.push(out.data()["id"].as_str().unwrap().to_string());
    }
    let list = jobs(&env, json!({}));
    let kept: Vec<&str> = list.data()["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["id"].as_str().unwrap())
        .collect();
    assert_eq!(kept.len(), 20);
    assert_eq!(kept[0], ids[22], "newest first");
    assert!(!kept.contains(&ids[0].as_str()));
    jobs(&env, json!({"action": "output", "id": ids[0]})).assert_err("not_found");
    let logs = env.session_dir("default").join("logs");
    assert_eq!(
        std::fs::read_dir(logs).unwrap().count(),
        20,
        "their logs went too"
    );
}

#[test]
fn in_a_batch_runs_are_sequential_and_jobs_list_is_read_only() {
    let env = Env::new();
    let calls = [
        json!({"name": "run", "input": {"command": "echo a > order.txt"}}),
        json!({"name": "run", "input": {"command": "echo b >> order.txt; cat order.txt"}}),
        json!({"name": "jobs", "input": {}}),
    ]
    .map(|c| c.to_string())
    .join("\n");
    let out = env.run(&["batch"], &calls);
    assert_eq!(out.status, 0, "{}", out.stdout);
    let results: Vec<Value> = serde_json::from_str(&out.stdout).unwrap();
    assert!(results[1]["output"].as_str().unwrap().starts_with("a\nb\n"));
    assert_eq!(results[2]["data"]["jobs"].as_array().unwrap().len(), 2);
}

#[test]
fn a_foreground_run_is_seen_and_killed_from_another_process() {
    let env = Env::new();
    let m = mark("foreground");
    let _reaper = Reaper(m.clone(), vec![]);
    let mut c = env.cmd();
    c.arg("run").write_stdin(
        json!({"command": "echo up; sleep 600", "env": {"LOOPR_TEST_MARK": m}}).to_string(),
    );
    let runner = std::thread::spawn(move || testkit::finish(c));
    let mut id = String::new();
    wait_until(
        "the foreground run to be listed",
        Duration::from_secs(5),
        || {
            let list = jobs(&env, json!({}));
            match list.data()["jobs"].get(0) {
                Some(j) if j["state"] == "running" && !alive(&m).is_empty() => {
                    id = j["id"].as_str().unwrap().to_string();
                    true
                }
                _ => false,
            }
        },
    );
    let killed = jobs(&env, json!({"action": "kill", "id": id}));
    killed.assert_ok();
    assert_eq!(killed.data()["state"], "killed");
    let out = runner.join().unwrap();
    out.assert_err("command_failed");
    assert!(out.output().starts_with("up\n"), "{}", out.output());
    assert!(out.output().contains("Ended by `jobs` action kill."));
    assert!(alive(&m).is_empty());
}
