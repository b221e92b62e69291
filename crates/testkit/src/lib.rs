//! The end-to-end harness: a scratch root and state dir per test, the binary run as users run
//! it, and its envelope parsed. Snapshots see paths relative to the root, so they hold no temp
//! paths; `redact` covers the rest (times, the state dir).
//!
//! A crate of its own so that it is compiled once for every area harness (tests/<area>/main.rs),
//! not once per test binary.

pub mod redis;
pub mod server;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub struct Env {
    pub dir: tempfile::TempDir,
    pub root: PathBuf,
    pub state: PathBuf,
    /// More environment for every call (`with_var`): a hub, say.
    pub vars: Vec<(String, std::ffi::OsString)>,
}

/// What one call printed and returned.
#[derive(Debug)]
pub struct Out {
    pub status: i32,
    pub json: Value,
    pub stdout: String,
    pub stderr: String,
}

impl Out {
    pub fn ok(&self) -> bool {
        self.json["ok"] == Value::Bool(true)
    }
    pub fn code(&self) -> &str {
        self.json["error"]["code"].as_str().unwrap_or("")
    }
    pub fn output(&self) -> &str {
        self.json["output"].as_str().unwrap_or("")
    }
    pub fn data(&self) -> &Value {
        &self.json["data"]
    }
    #[track_caller]
    pub fn assert_ok(&self) -> &Self {
        assert!(
            self.ok() && self.status == 0,
            "expected success, got status {}: {}",
            self.status,
            self.stdout
        );
        self
    }
    #[track_caller]
    pub fn assert_err(&self, code: &str) -> &Self {
        assert_eq!(self.code(), code, "stdout: {}", self.stdout);
        let want = if code == "invalid_input" { 2 } else { 1 };
        assert_eq!(self.status, want, "exit status for {code}");
        assert_eq!(self.json["ok"], false);
        assert_eq!(
            self.json["output"].as_str().unwrap().lines().next(),
            self.json["error"]["message"]
                .as_str()
                .unwrap()
                .lines()
                .next(),
            "output starts with the message"
        );
        self
    }
    /// `invalid_input` blaming `field` (`error.field`).
    #[track_caller]
    pub fn assert_invalid(&self, field: &str) -> &Self {
        self.assert_err("invalid_input");
        assert_eq!(
            self.json["error"]["field"], field,
            "stdout: {}",
            self.stdout
        );
        self
    }
}

impl Env {
    /// A fresh scratch root and state dir (not a `Default`: each call makes a temp dir).
    #[allow(clippy::new_without_default)]
    pub fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let root = base.join("root");
        let state = base.join("state");
        std::fs::create_dir_all(&root).unwrap();
        Env {
            dir,
            root,
            state,
            vars: vec![],
        }
    }

    /// This env, every call made with `name=value` in its environment.
    pub fn with_var(mut self, name: &str, value: impl Into<std::ffi::OsString>) -> Env {
        self.vars.push((name.to_string(), value.into()));
        self
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    pub fn write_file(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, content).unwrap();
        p
    }

    pub fn read_file(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.root.join(rel)).unwrap()
    }

    /// The binary with a clean environment: root and state dir set, nothing inherited that
    /// could change its behaviour.
    pub fn cmd(&self) -> Command {
        Command::from_std(self.std_cmd())
    }

    /// As `cmd`, as a plain `std::process::Command` (for a process spoken to while it runs).
    /// Runs the binary with `args` and stdin from `stdin_file` under GNU time: stdout and the
    /// peak RSS in KiB (`None` without /usr/bin/time: the caller skips the bound).
    pub fn peak_rss(&self, args: &[&str], stdin_file: &Path) -> (String, Option<u64>) {
        let cmd = self.std_cmd();
        let time = Path::new("/usr/bin/time");
        let mut run = if time.exists() {
            let mut t = std::process::Command::new(time);
            t.args(["-f", "%M"]).arg(cmd.get_program());
            t
        } else {
            std::process::Command::new(cmd.get_program())
        };
        run.args(args)
            .current_dir(&self.root)
            .env_clear()
            .envs(cmd.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
            .stdin(std::fs::File::open(stdin_file).unwrap());
        let out = run.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let rss = time
            .exists()
            .then(|| stderr.lines().last().and_then(|l| l.trim().parse().ok()))
            .flatten();
        (String::from_utf8(out.stdout).unwrap(), rss)
    }

    pub fn std_cmd(&self) -> std::process::Command {
        let mut c = std::process::Command::new(bin());
        // Every variable the binary reads (crates/env-vars) but HOME and PATH; then ours.
        for var in loopr_env_vars::EnvVars::ALL
            .iter()
            .filter(|v| v.cleared_in_tests())
        {
            c.env_remove(var.name);
        }
        c.current_dir(&self.root)
            .env("LOOPR_STATE_DIR", &self.state)
            .env("HOME", self.dir.path());
        for (k, v) in &self.vars {
            c.env(k, v);
        }
        c
    }

    /// Starts `loopr-tool ARGS` (with extra environment `vars`) and hands it `stdin`, without
    /// waiting: for calls that must run at the same time. `Env::parse` waits for it.
    pub fn spawn(&self, args: &[&str], vars: &[(&str, &Path)], stdin: &str) -> std::process::Child {
        use std::io::Write;
        let mut c = self.std_cmd();
        c.args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped());
        for (k, v) in vars {
            c.env(k, v);
        }
        let mut child = c.spawn().unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        child
    }

    /// The envelope a spawned call printed.
    pub fn parse(child: std::process::Child) -> Value {
        serde_json::from_slice(&child.wait_with_output().unwrap().stdout).unwrap()
    }

    /// `loopr-tool ARGS` with `stdin`.
    pub fn run(&self, args: &[&str], stdin: &str) -> Out {
        let mut c = self.cmd();
        c.args(args).write_stdin(stdin.to_string());
        finish(c)
    }

    /// `loopr-tool TOOL` with a JSON input on stdin.
    pub fn call(&self, tool: &str, input: Value) -> Out {
        self.run(&[tool], &input.to_string())
    }

    /// As `call`, in another session.
    pub fn call_in(&self, session: &str, tool: &str, input: Value) -> Out {
        self.run(&["--session", session, tool], &input.to_string())
    }

    /// Where session `session`'s state files live, as `session show` reports it.
    pub fn session_dir(&self, session: &str) -> PathBuf {
        let out = self.run(&["--session", session, "session"], "");
        out.assert_ok();
        PathBuf::from(out.data()["session_dir"].as_str().unwrap())
    }

    /// Reads `rel` so that this session may write it.
    pub fn read(&self, rel: &str) -> Out {
        let out = self.call("read", serde_json::json!({ "path": rel }));
        out.assert_ok();
        out
    }
}

/// The binary under test, where cargo puts it beside the harness running this:
/// `target/<triple>/debug/deps/<harness>-<hash>` → `target/<triple>/debug/loopr-tool` (cargo
/// builds it before it runs the root package's harnesses). `env!("CARGO_BIN_EXE_loopr-tool")` is
/// set only while cargo compiles those harnesses, not this crate, and cargo 1.95 does not set it
/// at run time.
pub fn bin() -> PathBuf {
    let harness = std::env::current_exe().expect("the harness's own path");
    let profile = harness
        .parent()
        .and_then(Path::parent)
        .expect("target/<triple>/<profile>/deps");
    profile.join("loopr-tool")
}

pub fn finish(mut c: Command) -> Out {
    let o = c.output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    Out {
        status: o.status.code().unwrap_or(-1),
        json,
        stdout,
        stderr,
    }
}

/// Replaces what differs between runs (times, temp dirs) so a snapshot can hold the rest.
pub fn redact(v: &Value, env: &Env) -> Value {
    let text = serde_json::to_string(v).unwrap();
    let dir = env.dir.path().to_string_lossy().into_owned();
    let canon = std::fs::canonicalize(env.dir.path())
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let text = text.replace(&canon, "[TMP]").replace(&dir, "[TMP]");
    let time = regex_lite_time(&text);
    serde_json::from_str(&time).unwrap()
}

/// RFC 3339 times → `[TIME]`, without a regex dependency.
fn regex_lite_time(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let is_time = b.len() - i >= 24
            && b[i..i + 4].iter().all(u8::is_ascii_digit)
            && b[i + 4] == b'-'
            && b[i + 10] == b'T'
            && b[i + 23] == b'Z';
        if is_time {
            out.push_str("[TIME]");
            i += 24;
        } else {
            let ch = s[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

pub fn exists(p: &Path) -> bool {
    p.symlink_metadata().is_ok()
}

impl Env {
    /// The binary as a user whom permission bits bind: `nobody` (via setpriv) when the tests run
    /// as root, who would read anything; the plain binary otherwise. The scratch dirs are opened
    /// up so that user can reach the root and the state dir.
    pub fn cmd_unprivileged(&self) -> Command {
        use std::os::unix::fs::PermissionsExt;
        // Root reads a file of mode 000; anyone else cannot.
        let probe = self.dir.path().join(".probe");
        std::fs::write(&probe, "").unwrap();
        std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o000)).unwrap();
        let is_root = std::fs::read(&probe).is_ok();
        std::fs::remove_file(&probe).unwrap();
        if !is_root {
            return self.cmd();
        }
        for d in [self.dir.path(), self.root.as_path()] {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        std::fs::create_dir_all(&self.state).unwrap();
        std::fs::set_permissions(&self.state, std::fs::Permissions::from_mode(0o777)).unwrap();
        let mut c: Command = std::process::Command::new("setpriv").into();
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(bin())
            .current_dir(&self.root)
            .env("LOOPR_STATE_DIR", &self.state);
        c
    }
}

/// Holds a lock file through util-linux `flock` (flock(2), the lock std's `File::lock` takes),
/// in a process group of its own, until killed. SIGKILLed on drop, so a failing test leaves
/// nothing behind.
pub struct LockHolder(Option<std::process::Child>, PathBuf);

impl LockHolder {
    pub fn hold(lock: &Path) -> LockHolder {
        use std::io::BufRead;
        use std::os::unix::process::CommandExt;
        use std::process::Stdio;
        let mut child = std::process::Command::new("flock")
            .arg(lock)
            .args(["-c", "echo locked; exec sleep 30"])
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("util-linux flock is installed");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line, "locked\n", "flock took the lock");
        LockHolder(Some(child), lock.to_path_buf())
    }

    /// SIGKILL to the whole group: flock and its sleep both hold the lock's descriptor. Returns
    /// once the lock is free: the sleep (not our child, so not waited for) may still be exiting
    /// when flock is reaped — a CI run once saw the lock still held.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.0.take() {
            let group = format!("-{}", child.id());
            let _ = std::process::Command::new("kill")
                .args(["-KILL", "--", &group])
                .status();
            let _ = child.wait();
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while std::time::Instant::now() < deadline {
                match std::fs::File::open(&self.1).map(|f| f.try_lock().is_ok()) {
                    Ok(false) => std::thread::sleep(std::time::Duration::from_millis(5)),
                    _ => break,
                }
            }
        }
    }
}

impl Drop for LockHolder {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Live processes (zombies do not count: they have ended) whose environment holds
/// `LOOPR_TEST_MARK=<mark>`: how run's tests see what a command left behind without trusting the
/// tool's own count.
pub fn marked_alive(mark: &str) -> Vec<u32> {
    let needle = format!("LOOPR_TEST_MARK={mark}");
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_string_lossy().parse::<u32>().ok())
        .filter(|pid| {
            let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .map(|s| {
                    s.rsplit(')')
                        .next()
                        .unwrap_or("")
                        .trim_start()
                        .starts_with('Z')
                })
                .unwrap_or(true);
            !zombie
                && std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|env| env.split(|&b| b == 0).any(|kv| kv == needle.as_bytes()))
        })
        .collect()
}

/// SIGKILLs, on drop, every process carrying the mark and the pids listed: a failing test
/// leaves nothing running.
pub struct Reaper(pub String, pub Vec<u32>);

impl Drop for Reaper {
    fn drop(&mut self) {
        for pid in marked_alive(&self.0)
            .into_iter()
            .chain(self.1.iter().copied())
        {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
    }
}
