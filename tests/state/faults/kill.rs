//! A write of a file with several hard links is made in place (a rename would split it from its
//! other names); a kill part-way leaves it neither old nor new. Its journal entry is saved before
//! the write starts, keeping the old content and the new, so `undo` gives the old content back
//! (SPEC 23.8) — and refuses a file someone else changed since.

use super::harness::{Node, files};
use serde_json::{Value, json};
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::ExitStatusExt;
use testkit::Env;

const OLD: &str = "old line one\nold line two\nold line three\n";

fn linked(env: &Env) {
    env.write_file("a.txt", OLD);
    std::fs::hard_link(env.path("a.txt"), env.path("b.txt")).unwrap();
    env.read("a.txt");
}

/// Runs `tool` with `LOOPR_DEBUG_FAIL=in_place:SIGKILL`: it kills itself halfway through the
/// in-place write.
fn killed(env: &Env, tool: &str, input: &Value) {
    let out = env
        .std_cmd()
        .env("LOOPR_DEBUG_FAIL", "in_place:SIGKILL")
        .arg(tool)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .unwrap()
                .write_all(input.to_string().as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(out.status.signal(), Some(9), "{tool} was not killed");
}

#[test]
fn a_hard_linked_file_whose_write_was_killed_is_undone() {
    let new = "a new first line, longer than the old one\nand a second\n";
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-old line one\n+a new first line, longer than the old one\n*** End Patch\n";
    for (tool, input) in [
        ("write", json!({"path": "a.txt", "content": new})),
        (
            "edit",
            json!({"path": "a.txt", "old_string": "old line one", "new_string": "a new first line, longer than the old one"}),
        ),
        ("apply_patch", json!({ "patch": patch })),
    ] {
        let env = Env::new();
        linked(&env);
        let before = files(&env);
        killed(&env, tool, &input);
        let torn = env.read_file("b.txt");
        assert_ne!(
            torn,
            OLD.as_bytes(),
            "{tool}: the kill came before the write"
        );
        assert!(!torn.starts_with(OLD.as_bytes()) || torn.len() != OLD.len());
        // The read check protects the file until it is read again; undo needs no read.
        let out = env.call("undo", json!({}));
        out.assert_ok();
        assert!(out.output().contains("cut short"), "{}", out.stdout);
        assert_eq!(files(&env), before, "{tool}: undo gave the old file back");
        assert_eq!(std::fs::metadata(env.path("a.txt")).unwrap().nlink(), 2);
        assert!(!env.call("undo", json!({})).ok(), "{tool}: one entry only");
    }
}

/// A file changed by someone else after the kill is not what the write left: undo refuses.
#[test]
fn undo_after_a_kill_refuses_a_file_changed_since() {
    let env = Env::new();
    linked(&env);
    killed(
        &env,
        "write",
        &json!({"path": "a.txt", "content": "entirely new content\n"}),
    );
    std::fs::write(env.path("b.txt"), "someone else's work\n").unwrap();
    env.call("undo", json!({})).assert_err("stale_read");
    assert_eq!(env.read_file("a.txt"), b"someone else's work\n");
}

/// For real: a 24 MiB hard-linked file rewritten, `kill -9` as soon as the journal entry is
/// saved (the write is then about to start, under way or done). Whatever the kill interrupted,
/// undo gives the old content back, whole, still one inode.
#[test]
fn a_real_kill_during_a_large_in_place_write_is_undone() {
    const SIZE: usize = 24 * 1024 * 1024;
    let mut interrupted = 0;
    for round in 0..3 {
        let env = Env::new();
        let old: Vec<u8> = (0..SIZE).map(|i| b'a' + (i % 23) as u8).collect();
        env.write_file("a.txt", &old);
        std::fs::hard_link(env.path("a.txt"), env.path("b.txt")).unwrap();
        env.read("a.txt").assert_ok();
        let input = env.dir.path().join("input.json");
        let new = "z".repeat(SIZE);
        std::fs::write(&input, json!({"path": "a.txt", "content": new}).to_string()).unwrap();
        let mut child = env
            .std_cmd()
            .arg("write")
            .stdin(std::fs::File::open(&input).unwrap())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let journaled = loop {
            let saved = journal_saved(&env.state);
            if saved || std::time::Instant::now() > deadline {
                break saved;
            }
            if child.try_wait().unwrap().is_some() {
                break false;
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        };
        let _ = child.kill();
        let status = child.wait().unwrap();
        if !journaled {
            // Done before the poll saw the entry: nothing was interrupted this round.
            assert!(status.success() || status.signal() == Some(9));
            continue;
        }
        let now = env.read_file("b.txt");
        if now != old && now != new.as_bytes() {
            interrupted += 1;
        }
        let out = env.call("undo", json!({}));
        out.assert_ok();
        assert!(
            env.read_file("b.txt") == old,
            "round {round}: undo gave the old content back"
        );
        assert!(matches!(
            files(&env).get("a.txt"),
            Some(Node::File { nlink: 2, .. })
        ));
    }
    eprintln!("{interrupted} of 3 kills landed mid-write");
}

/// Whether the session's journal has been saved (the child is running: no walk that could
/// trip over its temp files).
fn journal_saved(state: &std::path::Path) -> bool {
    std::fs::read_dir(state).is_ok_and(|roots| {
        roots
            .flatten()
            .any(|r| r.path().join("default").join("undo.json").exists())
    })
}
