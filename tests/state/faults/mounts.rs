//! Faults for real (SPEC 23.2): a tiny tmpfs that fills and read-only bind mounts, in a private
//! user and mount namespace (`unshare -rm`); EACCES as an unprivileged user (setpriv). Each test
//! is skipped where the kernel or the test's user cannot do that.

use super::harness::{Tree, state_of, tree};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use testkit::Env;

/// Whether this kernel gives an unprivileged user a private mount namespace; says why `what` is
/// skipped when not.
fn namespaces(what: &str) -> bool {
    let probe = std::process::Command::new("unshare")
        .args(["-rm", "true"])
        .status();
    let ok = probe.is_ok_and(|s| s.success());
    if !ok {
        eprintln!("no unprivileged mount namespace here: skipping {what}");
    }
    ok
}

/// Where a real fault comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    /// The roots on a tmpfs filled to the last page.
    RootFull,
    /// The state dir on a tmpfs filled to the last page.
    StateFull,
    /// The roots bind-mounted read-only.
    RootReadOnly,
    /// The state dir bind-mounted read-only.
    StateReadOnly,
}

/// One call made to fail for real, after its setup calls (made before the fault).
struct Real {
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
    /// Pairs of files to hard-link (`a.txt` → `b.txt`).
    links: &'static [(&'static str, &'static str)],
    setup: Vec<(&'static str, Value)>,
    tool: &'static str,
    input: Value,
}

fn real(name: &'static str, tool: &'static str, input: Value) -> Real {
    Real {
        name,
        files: &[("a.txt", "old line\n"), ("d/x.txt", "x\n")],
        links: &[],
        setup: vec![("read", json!({"path": "a.txt"}))],
        tool,
        input,
    }
}

const NB: &str = "{\n \"cells\": [\n  {\n   \"cell_type\": \"code\",\n   \"execution_count\": null,\n   \"id\": \"calc\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\n    \"print(1)\"\n   ]\n  }\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n";

/// The calls each fault is tried with: each tool, and undo of a write and of a delete.
fn cases(fault: Fault) -> Vec<Real> {
    let patch = "*** Begin Patch\n*** Add File: new/c.txt\n+added\n*** Update File: a.txt\n@@\n-old line\n+new line\n*** Delete File: d/x.txt\n*** End Patch\n";
    let mut v = vec![
        real(
            "write",
            "write",
            json!({"path": "a.txt", "content": "new content\n"}),
        ),
        real(
            "edit",
            "edit",
            json!({"path": "a.txt", "old_string": "old", "new_string": "new"}),
        ),
        Real {
            files: &[("nb.ipynb", NB)],
            setup: vec![("read", json!({"path": "nb.ipynb"}))],
            ..real(
                "notebook_edit",
                "notebook_edit",
                json!({"path": "nb.ipynb", "cell_id": "calc", "new_source": "print(2)\n"}),
            )
        },
        real("apply_patch", "apply_patch", json!({ "patch": patch })),
        Real {
            setup: vec![
                ("read", json!({"path": "a.txt"})),
                ("write", json!({"path": "a.txt", "content": "written\n"})),
            ],
            ..real("undo of a write", "undo", json!({}))
        },
        Real {
            setup: vec![("delete", json!({"path": "d", "recursive": true}))],
            ..real("undo of a delete", "undo", json!({}))
        },
    ];
    // A full tmpfs refuses data, not names: a rename, a removal or a mkdir there still works.
    if fault != Fault::RootFull {
        v.extend([
            real("move", "move", json!({"from": "a.txt", "to": "e/b.txt"})),
            real("delete", "delete", json!({"path": "d", "recursive": true})),
            real("mkdir", "mkdir", json!({"path": "x/y"})),
            Real {
                setup: vec![("mkdir", json!({"path": "x/y"}))],
                ..real("undo of a mkdir", "undo", json!({}))
            },
        ]);
    }
    if matches!(fault, Fault::StateFull | Fault::StateReadOnly) {
        v.push(Real {
            setup: vec![("todo", json!({"action": "add", "content": "first"}))],
            ..real(
                "todo",
                "todo",
                json!({"action": "add", "content": "second"}),
            )
        });
    }
    if matches!(fault, Fault::RootFull | Fault::StateFull) {
        v.push(Real {
            links: &[("a.txt", "b.txt")],
            ..real(
                "write of a hard-linked file",
                "write",
                // Longer than the page the old content has: it needs room.
                json!({"path": "a.txt", "content": "new line\n".repeat(1000)}),
            )
        });
    }
    v
}

/// Runs every case of `fault` in one private namespace: the setup calls, then the fault, then
/// each call (snapshots of its root before and after, and of the state's file list), then the
/// fault taken away and each call again; every state file parsed at the end. Checks that each
/// call failed with `errno` naming a path (under the state dir for a state fault), left its
/// root byte for byte and the state as it was (`harness::state`: every file parsed, no blob,
/// trash entry or temp file added), and succeeded once the fault was gone.
fn run_real(fault: Fault) {
    if !namespaces(&format!("{fault:?}")) {
        return;
    }
    let env = Env::new();
    let base = env.dir.path().canonicalize().unwrap();
    let (out, state, mnt) = (base.join("out"), base.join("state"), base.join("mnt"));
    for d in [&out, &state, &mnt] {
        std::fs::create_dir_all(d).unwrap();
    }
    let cases = cases(fault);
    let on_tmpfs = fault == Fault::RootFull;
    let root_of = |i: usize| -> PathBuf {
        if on_tmpfs {
            mnt.join(format!("r{i}"))
        } else {
            base.join(format!("r{i}"))
        }
    };
    let seed = |i: usize| base.join(format!("seed{i}"));
    let mut sh = String::from("set -e\n");
    let _ = writeln!(sh, "export LOOPR_STATE_DIR={}", state.display());
    match fault {
        Fault::RootFull => {
            let _ = writeln!(sh, "mount -t tmpfs -o size=2m tmpfs {}", mnt.display());
        }
        Fault::StateFull => {
            let _ = writeln!(sh, "mount -t tmpfs -o size=2m tmpfs {}", state.display());
        }
        _ => {}
    }
    let bin = testkit::bin();
    let call = |sh: &mut String, i: usize, tool: &str, input: &Path, to: &str| {
        let _ = writeln!(
            sh,
            "{} --root {} {tool} < {} > {to}",
            bin.display(),
            root_of(i).display(),
            input.display()
        );
    };
    for (i, c) in cases.iter().enumerate() {
        for (rel, text) in c.files {
            let p = seed(i).join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        for (a, b) in c.links {
            std::fs::hard_link(seed(i).join(a), seed(i).join(b)).unwrap();
        }
        let _ = writeln!(sh, "cp -a {} {}", seed(i).display(), root_of(i).display());
        for (j, (tool, input)) in c.setup.iter().enumerate() {
            let f = out.join(format!("{i}-setup-{j}.json"));
            std::fs::write(&f, input.to_string()).unwrap();
            call(&mut sh, i, tool, &f, "/dev/null");
        }
        std::fs::write(out.join(format!("{i}-call.json")), c.input.to_string()).unwrap();
    }
    let roots: Vec<String> = (0..cases.len())
        .map(|i| root_of(i).display().to_string())
        .collect();
    match fault {
        Fault::RootFull => {
            let _ = writeln!(
                sh,
                "cat /dev/zero > {}/filler 2>/dev/null || true",
                mnt.display()
            );
        }
        Fault::StateFull => {
            let _ = writeln!(
                sh,
                "cat /dev/zero > {}/filler 2>/dev/null || true",
                state.display()
            );
        }
        Fault::RootReadOnly => {
            for r in &roots {
                let _ = writeln!(sh, "mount --bind {r} {r}\nmount -o remount,bind,ro {r}");
            }
        }
        Fault::StateReadOnly => {
            let s = state.display();
            let _ = writeln!(sh, "mount --bind {s} {s}\nmount -o remount,bind,ro {s}");
        }
    }
    let (o, s) = (out.display(), state.display());
    for (i, c) in cases.iter().enumerate() {
        let _ = writeln!(sh, "cp -a {} {o}/{i}-before", roots[i]);
        let _ = writeln!(sh, "cp -a {s} {o}/{i}-state-before");
        call(
            &mut sh,
            i,
            c.tool,
            &out.join(format!("{i}-call.json")),
            &format!("{o}/{i}-failed.json || true"),
        );
        let _ = writeln!(sh, "cp -a {} {o}/{i}-after", roots[i]);
        let _ = writeln!(sh, "cp -a {s} {o}/{i}-state-after");
    }
    match fault {
        Fault::RootFull => {
            let _ = writeln!(sh, "rm {}/filler", mnt.display());
        }
        Fault::StateFull => {
            let _ = writeln!(sh, "rm {s}/filler");
        }
        Fault::RootReadOnly => {
            for r in &roots {
                let _ = writeln!(sh, "umount {r}");
            }
        }
        Fault::StateReadOnly => {
            let _ = writeln!(sh, "umount {s}");
        }
    }
    for (i, c) in cases.iter().enumerate() {
        call(
            &mut sh,
            i,
            c.tool,
            &out.join(format!("{i}-call.json")),
            &format!("{o}/{i}-again.json || true"),
        );
    }
    let _ = writeln!(
        sh,
        "find {s} -name '*.json' | while read f; do python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \"$f\" 2>/dev/null || echo \"$f\"; done > {o}/unparsed"
    );
    let ran = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", &sh])
        .output()
        .unwrap();
    assert!(
        ran.status.success(),
        "{fault:?}: the script failed: {}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let (errno, cause) = match fault {
        Fault::RootFull | Fault::StateFull => ("ENOSPC", "no space left on device"),
        _ => ("EROFS", "read-only file system"),
    };
    let read = |name: String| -> Value {
        let text = std::fs::read_to_string(out.join(&name)).unwrap();
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("{fault:?} {name}: {text:?}"))
    };
    for (i, c) in cases.iter().enumerate() {
        let what = format!("{fault:?}: {}", c.name);
        let failed = read(format!("{i}-failed.json"));
        assert_eq!(failed["error"]["code"], "io_error", "{what}: {failed}");
        assert_eq!(failed["error"]["errno"], errno, "{what}: {failed}");
        let message = failed["error"]["message"].as_str().unwrap();
        let path = failed["error"]["path"].as_str().unwrap();
        assert!(
            message.contains(cause) && message.contains(path),
            "{what}: {failed}"
        );
        if matches!(fault, Fault::StateFull | Fault::StateReadOnly) {
            assert!(
                path.starts_with(&*state.to_string_lossy()),
                "{what}: names {path}"
            );
        }
        let snap = |when: &str| -> Tree { tree(&out.join(format!("{i}-{when}"))) };
        assert_eq!(snap("before"), snap("after"), "{what}: the files changed");
        let state = |when: &str| state_of(&out.join(format!("{i}-state-{when}")));
        assert_eq!(state("before"), state("after"), "{what}: the state changed");
        let again = read(format!("{i}-again.json"));
        assert_eq!(again["ok"], true, "{what}: once the fault is gone: {again}");
    }
    let unparsed = std::fs::read_to_string(out.join("unparsed")).unwrap();
    assert!(
        unparsed.is_empty(),
        "{fault:?}: state files that do not parse: {unparsed}"
    );
}

#[test]
fn every_tool_on_a_full_root() {
    run_real(Fault::RootFull);
}

#[test]
fn every_tool_with_a_full_state_dir() {
    run_real(Fault::StateFull);
}

#[test]
fn every_tool_on_a_read_only_root() {
    run_real(Fault::RootReadOnly);
}

#[test]
fn every_tool_with_a_read_only_state_dir() {
    run_real(Fault::StateReadOnly);
}

/// For real: a 1 MiB tmpfs mounted in a private user and mount namespace (`unshare -rm`), a
/// write that does not fit. Skipped where the kernel refuses unprivileged namespaces.
#[test]
fn a_full_tmpfs_leaves_the_file_whole() {
    if !namespaces("the tmpfs test") {
        return;
    }
    let env = Env::new();
    let mnt = env.dir.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let bin = testkit::bin();
    let state = env.dir.path().join("state");
    // Inside the namespace: mount, write a small file, read it, then try to replace it with
    // 4 MiB; print the envelope and the file's content after.
    let script = format!(
        r#"set -e
mount -t tmpfs -o size=1m tmpfs {mnt}
printf 'old line\n' > {mnt}/a.txt
export LOOPR_STATE_DIR={state}
{bin} --root {mnt} read a.txt > /dev/null
head -c 4194304 /dev/zero | tr '\0' 'x' > {dir}/big
python3 -c 'import json,sys; print(json.dumps({{"path":"a.txt","content":open(sys.argv[1]).read()}}))' {dir}/big \
  | {bin} --root {mnt} write || true
echo
echo "CONTENT:$(cat {mnt}/a.txt)"
echo "FILES:$(ls -A {mnt} | tr '\n' ' ')""#,
        mnt = mnt.display(),
        state = state.display(),
        bin = bin.display(),
        dir = env.dir.path().display(),
    );
    let out = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", &script])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("\"code\":\"io_error\"") && text.contains("\"errno\":\"ENOSPC\""),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("CONTENT:old line"), "{text}");
    assert!(
        text.contains("FILES:a.txt \n") || text.trim_end().ends_with("FILES:a.txt"),
        "{text}"
    );
}

/// For real: a read-only bind mount (EROFS) in a private namespace. The write fails with
/// `io_error` and errno EROFS, the file is whole, and nothing is left beside it.
#[test]
fn a_read_only_mount_refuses_the_write_and_leaves_the_file_whole() {
    if !namespaces("the read-only mount test") {
        return;
    }
    let env = Env::new();
    let dir = env.dir.path().join("ro");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("a.txt"), "old line\n").unwrap();
    let script = format!(
        r#"set -e
export LOOPR_STATE_DIR={state}
{bin} --root {dir} read a.txt > /dev/null
mount --bind {dir} {dir}
mount -o remount,bind,ro {dir}
printf '%s' '{{"path":"a.txt","content":"new"}}' | {bin} --root {dir} write || true
echo
echo "CONTENT:$(cat {dir}/a.txt)"
echo "FILES:$(ls -A {dir} | tr '\n' ' ')""#,
        state = env.dir.path().join("state").display(),
        bin = testkit::bin().display(),
        dir = dir.display(),
    );
    let out = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", &script])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("\"errno\":\"EROFS\""),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("CONTENT:old line"), "{text}");
    assert!(text.trim_end().ends_with("FILES:a.txt"), "{text}");
}

/// EACCES as an unprivileged user (SPEC 24.7: setpriv, never as root): a file in a directory
/// that user may not write is refused with `permission_denied`, the file whole, nothing left
/// beside it. Runs only where the test runs as root and setpriv exists (it needs to switch).
#[test]
fn a_directory_the_user_may_not_write_refuses_the_write_cleanly() {
    let is_root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout == b"0\n");
    let have_setpriv = std::process::Command::new("setpriv")
        .arg("--version")
        .output()
        .is_ok();
    if !is_root || !have_setpriv {
        eprintln!("not root or no setpriv: skipping the EACCES test");
        return;
    }
    let env = Env::new();
    let (dir, state) = (env.dir.path().join("locked"), env.dir.path().join("state"));
    std::fs::create_dir(&dir).unwrap();
    std::fs::create_dir(&state).unwrap();
    std::fs::write(dir.join("a.txt"), "old line\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    // Readable by everyone, writable by no one but root; the state dir is nobody's own.
    for p in [env.dir.path(), dir.as_path()] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::set_permissions(dir.join("a.txt"), std::fs::Permissions::from_mode(0o644)).unwrap();
    std::process::Command::new("chown")
        .args(["65534:65534"])
        .arg(&state)
        .status()
        .unwrap();
    let as_nobody = |tool: &str, input: &str| {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(testkit::bin())
            .args(["--root"])
            .arg(&dir)
            .arg(tool)
            .env("LOOPR_STATE_DIR", &state)
            .env("HOME", &state)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped());
        let mut child = c.spawn().unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    assert_eq!(as_nobody("read", r#"{"path":"a.txt"}"#)["ok"], true);
    let out = as_nobody("write", r#"{"path":"a.txt","content":"new"}"#);
    assert_eq!(out["error"]["code"], "permission_denied", "{out}");
    assert_eq!(std::fs::read(dir.join("a.txt")).unwrap(), b"old line\n");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 1, "something was left beside the file");
}
