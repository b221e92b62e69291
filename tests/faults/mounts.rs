//! Faults for real (SPEC 23.2): a tiny tmpfs that fills and read-only bind mounts, in a private
//! user and mount namespace (`unshare -rm`); EACCES as an unprivileged user (setpriv). Each test
//! is skipped where the kernel or the test's user cannot do that.

use super::common::{self, Env};
use serde_json::Value;

/// For real: a 1 MiB tmpfs mounted in a private user and mount namespace (`unshare -rm`), a
/// write that does not fit. Skipped where the kernel refuses unprivileged namespaces.
#[test]
fn a_full_tmpfs_leaves_the_file_whole() {
    let probe = std::process::Command::new("unshare")
        .args(["-rm", "true"])
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!("no unprivileged mount namespace here: skipping the tmpfs test");
        return;
    }
    let env = Env::new();
    let mnt = env.dir.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let bin = common::bin();
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
    let probe = std::process::Command::new("unshare")
        .args(["-rm", "true"])
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!("no unprivileged mount namespace here: skipping the read-only mount test");
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
        bin = common::bin().display(),
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
            .arg(common::bin())
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
