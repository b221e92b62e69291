//! run's kernel sandbox and `network: none` (SPEC 23.4, 23.7, 24.6, 24.7): Landlock holds a
//! `workspace-write` command to the root, its private TMPDIR and /dev/null, and a `read-only`
//! one to /dev/null; the `--sandbox` floor; `sandbox_unavailable` where the kernel cannot
//! enforce it (a kernel without Landlock is made for real, by a seccomp filter that answers
//! ENOSYS as such a kernel does); and `network: none` that holds for root.
//!
//! Writes that must fail aim at the test's own temporary directory outside the root, never at
//! a real system path, so a broken sandbox harms nothing.

use serde_json::{Value, json};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use testkit::{Env, Out};

/// The binary with TMPDIR inside the test's scratch dir, so the private TMPDIR of a run is too.
fn tmp_base(env: &Env) -> PathBuf {
    let t = env.dir.path().join("tmp");
    std::fs::create_dir_all(&t).unwrap();
    std::fs::canonicalize(t).unwrap()
}

fn run_with(env: &Env, globals: &[&str], vars: &[(&str, &str)], input: Value) -> Out {
    let mut c = env.cmd();
    c.env("TMPDIR", tmp_base(env))
        .env_remove("LOOPR_RUN_SANDBOX");
    for (k, v) in vars {
        c.env(k, v);
    }
    c.args(globals).arg("run").write_stdin(input.to_string());
    testkit::finish(c)
}

fn run(env: &Env, input: Value) -> Out {
    run_with(env, &[], &[], input)
}

#[test]
fn workspace_write_writes_under_the_root_and_its_tmpdir_only() {
    let env = Env::new();
    let outside = env.dir.path().join("outside-x");
    let out = run(
        &env,
        json!({
            "command": format!("echo a > in-root && mkdir -p d/e && echo b > \"$TMPDIR/t\" && echo \"tmp=$TMPDIR\"; touch {0}; echo \"outside=$?\"; echo c >> {0}; echo \"append=$?\"; echo d > /dev/null && echo null-ok; cat /etc/hostname >/dev/null && echo reads-ok", outside.display()),
            "sandbox": "workspace-write",
        }),
    );
    out.assert_ok();
    let text = out.output();
    assert_eq!(
        out.data()["sandbox"],
        json!({"mode": "workspace-write", "enforced_by": "landlock", "network": "inherit"})
    );
    assert!(
        env.path("in-root").exists() && env.path("d/e").is_dir(),
        "{text}"
    );
    assert!(
        !outside.exists(),
        "a write outside the root got through: {text}"
    );
    assert!(
        text.contains("outside=1\n") && text.contains("append=1\n"),
        "{text}"
    );
    assert!(
        text.contains("null-ok\n") && text.contains("reads-ok\n"),
        "{text}"
    );
    // The private TMPDIR: ours alone (0700), given to the command, gone after the run.
    let tmp = text
        .lines()
        .find_map(|l| l.strip_prefix("tmp="))
        .unwrap_or_else(|| panic!("{text}"));
    let tmp = PathBuf::from(tmp);
    assert!(tmp.starts_with(tmp_base(&env)), "{}", tmp.display());
    assert!(
        tmp.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("loopr-run-")
    );
    assert!(!tmp.exists(), "the private TMPDIR is removed after the run");
}

#[test]
fn read_only_writes_nothing_but_dev_null() {
    let env = Env::new();
    env.write_file("existing", "before\n");
    let out = run(
        &env,
        json!({
            "command": "echo x > existing; echo \"write=$?\"; echo y >> existing; echo \"append=$?\"; mkdir new; echo \"mkdir=$?\"; rm existing; echo \"rm=$?\"; echo z > /dev/null; echo \"null=$?\"; echo \"tmpdir=${TMPDIR:-unset}\"",
            "sandbox": "read-only",
        }),
    );
    out.assert_ok();
    let text = out.output();
    for want in ["write=1", "append=1", "mkdir=1", "rm=1", "null=0"] {
        assert!(text.contains(&format!("{want}\n")), "{want}: {text}");
    }
    assert_eq!(env.read_file("existing"), b"before\n");
    assert!(!env.path("new").exists());
    assert_eq!(out.data()["sandbox"]["mode"], "read-only");
    assert_eq!(out.data()["sandbox"]["enforced_by"], "landlock");
    // No private TMPDIR: there is nowhere to write one.
    assert!(
        text.contains("tmpdir=unset\n") || !text.contains("loopr-run-"),
        "{text}"
    );
}

#[test]
fn every_run_reports_its_sandbox() {
    let env = Env::new();
    let out = run(&env, json!({"command": "true"}));
    out.assert_ok();
    assert_eq!(
        out.data()["sandbox"],
        json!({"mode": "none", "enforced_by": "none", "network": "inherit"})
    );
    let out = run(&env, json!({"command": "exit 3", "network": "none"}));
    out.assert_err("command_failed");
    assert_eq!(
        out.data()["sandbox"],
        json!({"mode": "none", "enforced_by": "none", "network": "none"})
    );
    let out = run(
        &env,
        json!({"command": "sleep 30", "background": true, "sandbox": "read-only"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["sandbox"]["mode"], "read-only");
    env.call("jobs", json!({"action": "kill", "id": out.data()["id"]}))
        .assert_ok();
}

#[test]
fn the_sandbox_floor() {
    let env = Env::new();
    let floor = |mode: &str, input: Value| run_with(&env, &["--sandbox", mode], &[], input);
    // A weaker mode than the floor is refused by name; the floor is the default; a stronger
    // mode is fine.
    floor(
        "workspace-write",
        json!({"command": "true", "sandbox": "none"}),
    )
    .assert_invalid("sandbox");
    let out = floor("read-only", json!({"command": "touch made"}));
    out.assert_err("command_failed");
    assert_eq!(out.data()["sandbox"]["mode"], "read-only");
    assert!(!env.path("made").exists());
    let out = floor(
        "workspace-write",
        json!({"command": "true", "sandbox": "read-only"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["sandbox"]["mode"], "read-only");
    // A floor forbids running without the sandbox.
    floor(
        "workspace-write",
        json!({"command": "true", "sandbox_fallback": "none"}),
    )
    .assert_invalid("sandbox_fallback");
    // The environment variable sets it too.
    run_with(
        &env,
        &[],
        &[("LOOPR_RUN_SANDBOX", "read-only")],
        json!({"command": "true", "sandbox": "workspace-write"}),
    )
    .assert_invalid("sandbox");
    // After the tool's name `--sandbox` is run's own field: it cannot lower the floor.
    let mut c = env.cmd();
    c.args([
        "--sandbox",
        "read-only",
        "run",
        "touch made",
        "--sandbox",
        "none",
    ]);
    testkit::finish(c).assert_invalid("sandbox");
    // Background jobs and other agents' names are held to it as well.
    let out = floor(
        "read-only",
        json!({"command": "touch made-bg", "background": true}),
    );
    out.assert_ok();
    assert_eq!(out.data()["sandbox"]["mode"], "read-only");
    let waited = env.call(
        "jobs",
        json!({"action": "wait", "id": out.data()["id"], "timeout_ms": 10000}),
    );
    assert_eq!(waited.data()["exit_code"], 1, "{}", waited.stdout);
    assert!(!env.path("made-bg").exists());
    let mut c = env.cmd();
    c.args(["--sandbox", "read-only", "Bash"])
        .write_stdin(json!({"command": "touch made-alias", "sandbox": "none"}).to_string());
    testkit::finish(c).assert_invalid("sandbox");
    let mut c = env.cmd();
    c.args(["--sandbox", "read-only", "Bash"])
        .write_stdin(json!({"command": "touch made-alias"}).to_string());
    let out = testkit::finish(c);
    out.assert_err("command_failed");
    assert_eq!(out.data()["sandbox"]["mode"], "read-only");
    assert!(!env.path("made-alias").exists());
}

/// The binary under a seccomp filter that makes one syscall fail with `errno`: how a kernel
/// without Landlock (ENOSYS from landlock_create_ruleset) or one that refuses the domain
/// (landlock_restrict_self) looks to loopr-tool. The filter holds for its children too.
fn under_seccomp(env: &Env, syscall: u32, errno: u32, input: Value) -> Out {
    #[repr(C)]
    struct Filter {
        code: u16,
        jt: u8,
        jf: u8,
        k: u32,
    }
    #[repr(C)]
    struct Prog {
        len: u16,
        filter: *const Filter,
    }
    const LD_ABS: u16 = 0x20;
    const JEQ: u16 = 0x15;
    const RET: u16 = 0x06;
    const ARCH_X86_64: u32 = 0xC000_003E;
    const ALLOW: u32 = 0x7fff_0000;
    const ERRNO: u32 = 0x0005_0000;
    let program = [
        Filter {
            code: LD_ABS,
            jt: 0,
            jf: 0,
            k: 4,
        }, // arch
        Filter {
            code: JEQ,
            jt: 0,
            jf: 3,
            k: ARCH_X86_64,
        },
        Filter {
            code: LD_ABS,
            jt: 0,
            jf: 0,
            k: 0,
        }, // syscall number
        Filter {
            code: JEQ,
            jt: 0,
            jf: 1,
            k: syscall,
        },
        Filter {
            code: RET,
            jt: 0,
            jf: 0,
            k: ERRNO | errno,
        },
        Filter {
            code: RET,
            jt: 0,
            jf: 0,
            k: ALLOW,
        },
    ];
    let prog = Prog {
        len: program.len() as u16,
        filter: program.as_ptr(),
    };
    let prog_addr = &prog as *const Prog as usize;
    let mut c = env.std_cmd();
    c.env("TMPDIR", tmp_base(env)).arg("run");
    // SAFETY: two prctls in the child before exec; `prog` outlives the spawn below.
    unsafe {
        c.pre_exec(move || {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                || libc::prctl(libc::PR_SET_SECCOMP, 2, prog_addr, 0, 0) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut c: assert_cmd::Command = c.into();
    c.write_stdin(input.to_string());
    // `prog` and `program` live on this stack frame until the spawn in `finish` is over.
    testkit::finish(c)
}

const LANDLOCK_CREATE_RULESET: u32 = 444;
const LANDLOCK_RESTRICT_SELF: u32 = 446;

#[test]
fn a_kernel_without_landlock_is_sandbox_unavailable_unless_fallback_none() {
    let env = Env::new();
    for background in [false, true] {
        let out = under_seccomp(
            &env,
            LANDLOCK_CREATE_RULESET,
            libc::ENOSYS as u32,
            json!({"command": "touch ran", "sandbox": "workspace-write", "background": background}),
        );
        out.assert_err("sandbox_unavailable");
        assert_eq!(out.json["error"]["mode"], "workspace-write");
        assert!(out.output().contains("Landlock"), "{}", out.output());
        assert!(
            out.json["error"]["hint"]
                .as_str()
                .unwrap()
                .contains("sandbox_fallback")
        );
    }
    assert!(!env.path("ran").exists(), "nothing ran");
    // With sandbox_fallback none it runs, unsandboxed, and says so.
    let out = under_seccomp(
        &env,
        LANDLOCK_CREATE_RULESET,
        libc::ENOSYS as u32,
        json!({"command": "touch ran", "sandbox": "read-only", "sandbox_fallback": "none"}),
    );
    out.assert_ok();
    assert!(env.path("ran").exists());
    assert_eq!(
        out.data()["sandbox"],
        json!({"mode": "read-only", "enforced_by": "none", "network": "inherit"})
    );
    assert!(
        out.data()["warnings"][0]
            .as_str()
            .unwrap()
            .contains("without it")
    );
}

#[test]
fn a_landlock_domain_the_kernel_refuses_is_sandbox_unavailable() {
    // Landlock is there, but the shell's process cannot enter the domain: the keeper reports
    // the refused step and nothing runs.
    let env = Env::new();
    let out = under_seccomp(
        &env,
        LANDLOCK_RESTRICT_SELF,
        libc::EPERM as u32,
        json!({"command": "touch ran", "sandbox": "read-only"}),
    );
    out.assert_err("sandbox_unavailable");
    assert_eq!(out.json["error"]["mode"], "read-only");
    assert!(out.output().contains("Landlock domain"), "{}", out.output());
    assert!(!env.path("ran").exists());
    let list = env.call("jobs", json!({}));
    assert_eq!(
        list.data()["jobs"],
        json!([]),
        "a refused start leaves no job"
    );
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"))
}

#[test]
fn network_none_holds_for_root_too() {
    if !is_root() {
        eprintln!("SKIPPED: this test is about root, and runs as another user");
        return;
    }
    let env = Env::new();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let host_ns = format!("/proc/{}/ns/net", std::process::id());
    let probe = format!(
        "nsenter --net={host_ns} bash -c 'exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected'; echo \"nsenter=$?\""
    );
    // The control: root without network: none enters the host's namespace and connects.
    let out = run(&env, json!({"command": probe}));
    out.assert_ok();
    assert!(out.output().contains("connected\n"), "{}", out.output());
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert!(listener.accept().is_ok());
    // With network: none, the way back is closed.
    let out = run(&env, json!({"command": probe, "network": "none"}));
    out.assert_ok();
    let text = out.output();
    assert!(!text.contains("connected\n"), "{text}");
    assert!(!text.contains("nsenter=0\n"), "{text}");
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert!(
        listener.accept().is_err(),
        "the host's listener saw a connection from network: none"
    );
    // Root keeps its power over the files of every user (the whole id range is mapped).
    let other = env.write_file("others", "x");
    std::os::unix::fs::chown(&other, Some(65534), Some(65534)).unwrap();
    std::fs::set_permissions(&other, std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = run(
        &env,
        json!({"command": "id -u; echo y >> others && echo wrote", "network": "none"}),
    );
    out.assert_ok();
    assert!(out.output().starts_with("0\nwrote\n"), "{}", out.output());
}

/// The Landlock ABI of this kernel (0 without Landlock).
fn landlock_abi() -> i64 {
    // SAFETY: the version query passes no pointer.
    unsafe { libc::syscall(libc::SYS_landlock_create_ruleset, 0usize, 0usize, 1u32) }.max(0)
}

/// SPEC 31.4: a sandboxed command cannot signal a process outside its job. The victim is a
/// `sleep` this test starts; it must survive the command's `kill`.
#[test]
fn a_sandboxed_command_cannot_signal_outside_its_job() {
    if landlock_abi() < 6 {
        eprintln!("SKIPPED: Landlock's signal scope needs ABI 6");
        return;
    }
    let env = Env::new();
    let mut victim = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    let _reap = testkit::Reaper("loopr-no-mark".into(), vec![victim.id()]);
    let pid = victim.id();
    for mode in ["workspace-write", "read-only"] {
        let out = run(
            &env,
            json!({"command": format!("kill -TERM {pid}; echo \"kill=$?\"; sleep 0.2 & kill $!; echo \"own=$?\""), "sandbox": mode}),
        );
        out.assert_ok();
        assert!(out.output().contains("kill=1"), "{mode}: {}", out.output());
        // Its own children it still signals.
        assert!(out.output().contains("own=0"), "{mode}: {}", out.output());
        assert!(
            victim.try_wait().unwrap().is_none(),
            "{mode}: the sleep was killed"
        );
    }
    // The control: without the sandbox the same kill lands.
    let out = run(
        &env,
        json!({"command": format!("kill -TERM {pid}; echo \"kill=$?\"")}),
    );
    assert!(out.output().contains("kill=0"), "{}", out.output());
    let _ = victim.wait();
}

/// SPEC 31.4: a sandboxed command cannot reach an abstract unix socket of the host. The
/// listener is this test's own; it must see no connection.
#[test]
fn a_sandboxed_command_cannot_reach_a_host_abstract_socket() {
    use std::os::linux::net::SocketAddrExt;
    if landlock_abi() < 6 {
        eprintln!("SKIPPED: Landlock's abstract socket scope needs ABI 6");
        return;
    }
    if std::process::Command::new("python3")
        .arg("-V")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED: python3 connects to the socket");
        return;
    }
    let env = Env::new();
    let name = format!("loopr-test-{}", std::process::id());
    let addr = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
    let listener = std::os::unix::net::UnixListener::bind_addr(&addr).unwrap();
    listener.set_nonblocking(true).unwrap();
    let probe = format!(
        "python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect(\"\\0{name}\"); print(\"connected\")'; echo \"py=$?\""
    );
    for mode in ["workspace-write", "read-only"] {
        let out = run(&env, json!({"command": probe, "sandbox": mode}));
        out.assert_ok();
        assert!(
            !out.output().contains("connected\n"),
            "{mode}: {}",
            out.output()
        );
        assert!(
            listener.accept().is_err(),
            "{mode}: the listener saw a connection"
        );
    }
    // The control: without the sandbox it connects.
    let out = run(&env, json!({"command": probe}));
    assert!(out.output().contains("connected\n"), "{}", out.output());
}

/// SPEC 31.4: under `workspace-write` and `read-only` a command cannot change the mode, owner,
/// times or extended attributes of a file outside the writable directories (Landlock has no
/// right for them: the command's own mount namespace shows every other mount read-only), and
/// still can inside. The victim is a scratch file of the test's own; the control without the
/// sandbox changes it.
#[test]
fn a_sandboxed_command_cannot_change_metadata_outside() {
    use std::os::unix::fs::MetadataExt;
    let env = Env::new();
    let outside = env.dir.path().join("outside-meta");
    std::fs::write(&outside, "x").unwrap();
    std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o644)).unwrap();
    let before = std::fs::metadata(&outside).unwrap();
    let o = outside.display();
    let probe = format!(
        "chmod 600 {o}; echo \"chmod=$?\"; touch -d 2001-01-01 {o}; echo \"touch=$?\"; \
         chown 1:1 {o}; echo \"chown=$?\"; \
         python3 -c 'import os; os.setxattr(\"{o}\", \"user.x\", b\"1\")' 2>/dev/null; echo \"xattr=$?\"; \
         echo y > mine && chmod 600 mine && touch mine && echo inside-ok; true"
    );
    for mode in ["workspace-write", "read-only"] {
        let out = run(&env, json!({"command": probe, "sandbox": mode}));
        out.assert_ok();
        let text = out.output();
        for op in ["chmod", "touch", "chown"] {
            assert!(!text.contains(&format!("{op}=0")), "{mode}: {text}");
        }
        assert!(!text.contains("xattr=0"), "{mode}: {text}");
        if mode == "workspace-write" {
            assert!(text.contains("inside-ok"), "{text}");
        }
        let now = std::fs::metadata(&outside).unwrap();
        assert_eq!(now.mode(), before.mode(), "{mode}");
        assert_eq!(now.mtime(), before.mtime(), "{mode}");
        assert_eq!(now.uid(), before.uid(), "{mode}");
    }
    // As a user without privileges too (a user namespace holds the mount namespace), in a
    // scratch dir of its own that user may use.
    let fresh = Env::new();
    let tmp = tmp_base(&fresh);
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o777)).unwrap();
    let theirs = fresh.dir.path().join("outside-meta");
    std::fs::write(&theirs, "x").unwrap();
    std::fs::set_permissions(&theirs, std::fs::Permissions::from_mode(0o666)).unwrap();
    let before = std::fs::metadata(&theirs).unwrap();
    let mut c = fresh.cmd_unprivileged();
    std::fs::set_permissions(&fresh.root, std::fs::Permissions::from_mode(0o777)).unwrap();
    c.env("TMPDIR", &tmp)
        .env_remove("LOOPR_RUN_SANDBOX")
        .arg("run")
        .write_stdin(json!({"command": format!("touch -d 2001-01-01 {}; echo \"touch=$?\"; echo y > mine && echo inside-ok", theirs.display()), "sandbox": "workspace-write"}).to_string());
    let out = testkit::finish(c);
    out.assert_ok();
    assert!(!out.output().contains("touch=0"), "{}", out.output());
    assert!(out.output().contains("inside-ok"), "{}", out.output());
    assert_eq!(std::fs::metadata(&theirs).unwrap().mtime(), before.mtime());
    // The control: without the sandbox the mode changes.
    let out = run(
        &env,
        json!({"command": format!("chmod 600 {o}; echo \"chmod=$?\"")}),
    );
    assert!(out.output().contains("chmod=0"), "{}", out.output());
}
