//! What every fault test checks, in one place: the tree byte for byte (contents, modes, links,
//! hard-link counts), the session state as it was (every state file parses, the journal holds
//! the same entries, no blob, trash entry or temp file added), and an error that names the
//! errno, the cause and the path.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use testkit::Env;

/// The errnos each step is made to fail with, and the words their message must hold.
pub const ERRNOS: &[(&str, &str)] = &[
    ("ENOSPC", "no space left on device"),
    ("EIO", "input/output error"),
    ("EROFS", "read-only file system"),
    ("EDQUOT", "quota exceeded"),
];

/// One entry of a tree, as a byte-for-byte comparison needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    File {
        bytes: Vec<u8>,
        mode: u32,
        nlink: u64,
    },
    Dir {
        mode: u32,
    },
    Link {
        target: String,
    },
}

pub type Tree = BTreeMap<String, Node>;

/// Everything under `dir` (relative paths), links not followed.
pub fn tree(dir: &Path) -> Tree {
    let mut out = Tree::new();
    walk(dir, dir, &mut out);
    out
}

fn walk(base: &Path, dir: &Path, out: &mut Tree) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries {
        let p = e.unwrap().path();
        let rel = p.strip_prefix(base).unwrap().to_string_lossy().into_owned();
        let m = std::fs::symlink_metadata(&p).unwrap();
        let node = if m.file_type().is_symlink() {
            Node::Link {
                target: std::fs::read_link(&p)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            }
        } else if m.is_dir() {
            walk(base, &p, out);
            Node::Dir {
                mode: m.mode() & 0o7777,
            }
        } else {
            Node::File {
                bytes: std::fs::read(&p).unwrap(),
                mode: m.mode() & 0o7777,
                nlink: m.nlink(),
            }
        };
        out.insert(rel, node);
    }
}

/// The root's tree, without the state dir when it lives inside.
pub fn files(env: &Env) -> Tree {
    tree(&env.root)
}

/// The session state as a change must leave it when it fails: every JSON file parsed (a file
/// that does not parse fails the test), the journal's entries (its `next_id` may move on),
/// and every other file's bytes (blobs, trash). Lock files and directories are left out: an
/// empty `undo/` or `trash/` made on the way holds nothing.
pub fn state(env: &Env) -> BTreeMap<String, Value> {
    state_of(&env.state)
}

/// `state` of a state dir (or a copy of one).
pub fn state_of(dir: &Path) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for (rel, node) in tree(dir) {
        let Node::File { bytes, .. } = node else {
            continue;
        };
        let name = rel.rsplit('/').next().unwrap();
        if name == "lock" {
            continue;
        }
        let value = if name.ends_with(".json") {
            let v: Value = serde_json::from_slice(&bytes)
                .unwrap_or_else(|e| panic!("state file {rel} does not parse: {e}"));
            match name {
                // No journal and an empty one are the same state.
                "undo.json" if v["entries"] == json!([]) => continue,
                "undo.json" => v["entries"].clone(),
                _ => v,
            }
        } else {
            json!({ "bytes": String::from_utf8_lossy(&bytes) })
        };
        out.insert(rel, value);
    }
    out
}

/// The journal's entries in a `state` view (`[]` for none).
pub fn entries(state: &BTreeMap<String, Value>) -> Value {
    state
        .iter()
        .find(|(k, _)| k.ends_with("undo.json"))
        .map_or(json!([]), |(_, v)| v.clone())
}

/// Runs `tool` with the fault switch set to `switch` (`STEP:ERRNO[:N]`).
pub fn failing(env: &Env, switch: &str, tool: &str, input: &Value) -> testkit::Out {
    let mut c = env.cmd();
    c.env("LOOPR_DEBUG_FAIL", switch)
        .arg(tool)
        .write_stdin(input.to_string());
    testkit::finish(c)
}

/// The error of a call a fault stopped: `io_error` with `errno`, a message naming the cause and
/// the path it gives in `error.path`.
#[track_caller]
pub fn assert_names_the_fault(out: &testkit::Out, errno: &str, cause: &str, what: &str) {
    out.assert_err("io_error");
    assert_eq!(out.json["error"]["errno"], errno, "{what}: {}", out.stdout);
    let message = out.json["error"]["message"].as_str().unwrap();
    assert!(message.contains(cause), "{what}: {message}");
    let path = out.json["error"]["path"].as_str().unwrap_or_default();
    assert!(
        !path.is_empty() && message.contains(path),
        "{what}: the message must name error.path: {}",
        out.stdout
    );
}

/// One call to make fail at each of its steps.
pub struct Case {
    pub name: &'static str,
    /// Makes the files (and reads, and earlier changes) the call needs; for an `undo`, returns
    /// the tree the undo must give back.
    pub setup: fn(&Env) -> Option<Tree>,
    pub tool: &'static str,
    pub input: Value,
    /// The steps the call takes (each is made to fail at every time it is reached).
    pub steps: &'static [&'static str],
    /// How many `undo` calls take the call back (one per file; 0: todo, a permanent delete,
    /// an undo itself).
    pub undos: usize,
}

/// For each step: the Nth time it is reached fails, for N = 1, 2, ... until the call gets past
/// every time (each errno at N = 1, one of them in turn after). After each failure: the tree
/// and the state as before, then the same call succeeds (the state still works) and undo
/// takes it back to the tree before (no entry of the failed call was left behind). Returns the
/// (step, N) pairs it made fail.
pub fn each_step(case: &Case) -> Vec<(String, u32)> {
    let mut failed = vec![];
    for step in case.steps {
        let mut n = 1;
        loop {
            let errnos: Vec<&(&str, &str)> = if n == 1 {
                ERRNOS.iter().collect()
            } else {
                vec![&ERRNOS[(n as usize) % ERRNOS.len()]]
            };
            let mut reached = false;
            for &&(errno, cause) in &errnos {
                reached = one(case, step, n, errno, cause);
            }
            if !reached {
                assert!(n > 1, "{}: the step {step} was never reached", case.name);
                break;
            }
            failed.push((step.to_string(), n));
            n += 1;
            assert!(n < 20, "{}: {step} reached too often", case.name);
        }
    }
    failed
}

/// One failing run; false when the call got past the Nth time (it succeeded).
fn one(case: &Case, step: &str, n: u32, errno: &str, cause: &str) -> bool {
    let env = Env::new();
    let original = (case.setup)(&env);
    let before = files(&env);
    let state_before = state(&env);
    let switch = format!("{step}:{errno}:{n}");
    let what = format!("{} failing at {switch}", case.name);
    let out = failing(&env, &switch, case.tool, &case.input);
    if out.ok() {
        return false;
    }
    assert_names_the_fault(&out, errno, cause, &what);
    assert_eq!(files(&env), before, "{what}: the files changed");
    assert_eq!(state(&env), state_before, "{what}: the state changed");
    // The state still works: the same call now succeeds...
    let again = env.call(case.tool, case.input.clone());
    assert!(again.ok(), "{what}: the call then fails: {}", again.stdout);
    match (case.tool, original) {
        // ... an undo gives back what the change had replaced ...
        ("undo", Some(original)) => assert_eq!(files(&env), original, "{what}: after undo"),
        // ... and undo takes the call back to where it started, and only it.
        _ if case.undos > 0 => {
            for _ in 0..case.undos {
                env.call("undo", json!({})).assert_ok();
            }
            assert_eq!(files(&env), before, "{what}: after undo");
            // (At the journal's cap the call that landed dropped the oldest entry.)
            let mut was = entries(&state_before);
            if was.as_array().is_some_and(|a| a.len() == 50) {
                was.as_array_mut().unwrap().remove(0);
            }
            assert_eq!(entries(&state(&env)), was, "{what}: the journal after undo");
        }
        _ => {}
    }
    true
}
