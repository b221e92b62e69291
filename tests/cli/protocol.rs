//! The protocol (SPEC §1–4, 16.1, 16.2): input routes, the envelope, exit codes, global
//! options and their environment variables.

use serde_json::json;
use testkit::{Env, finish};

#[test]
fn envelope_shape_is_one_line_in_documented_order() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let out = env.call("read", json!({"path": "a.txt"}));
    out.assert_ok();
    assert!(
        out.stdout.ends_with("}\n") && out.stdout.lines().count() == 1,
        "{:?}",
        out.stdout
    );
    assert!(
        out.stdout
            .starts_with(r#"{"ok":true,"tool":"read","output":"#),
        "{}",
        out.stdout
    );
    let err = env.call("read", json!({"path": "missing.txt"}));
    assert!(
        err.stdout
            .starts_with(r#"{"ok":false,"tool":"read","output":"#),
        "{}",
        err.stdout
    );
    assert!(err.json.get("data").is_none(), "no data on a read failure");
    assert_eq!(err.json["error"]["path"], "missing.txt");
    assert_eq!(
        err.output(),
        format!(
            "{}\nHint: {}\n",
            err.json["error"]["message"].as_str().unwrap(),
            err.json["error"]["hint"].as_str().unwrap()
        )
    );
}

#[test]
fn command_line_input_leaves_stdin_unread() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    // stdin holds garbage: it must not be read when a field is on the command line
    let out = env.run(&["read", "a.txt"], "this is not json");
    out.assert_ok();
    assert_eq!(out.data()["path"], "a.txt");
    let out = env.run(
        &["read", "--path", "a.txt", "--limit", "1"],
        "{\"path\": \"other\"}",
    );
    out.assert_ok();
}

#[test]
fn empty_or_whitespace_stdin_is_an_empty_object() {
    let env = Env::new();
    let out = env.run(&["read"], "  \n");
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "path");
    assert!(out.output().contains("missing required field `path`"));
    let out = env.run(&["session"], "");
    out.assert_ok();
}

#[test]
fn bad_inputs_are_invalid_input_naming_the_field() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let cases = [
        (json!({"path": "a.txt", "bogus": 1}), "bogus"),
        (json!({}), "path"),
        (json!({"path": 7}), "path"),
        (json!({"path": "a.txt", "offset": "ten"}), "offset"),
        (json!({"path": "a.txt", "offset": 0}), "offset"),
        (json!({"path": "a.txt", "limit": 100_001}), "limit"),
        (json!({"path": "a.txt", "limit": 1.5}), "limit"),
        (json!({"path": "a.txt", "file_path": "a.txt"}), "path"),
        (json!({"path": "a\u{0}b"}), "path"),
    ];
    for (input, field) in cases {
        let out = env.call("read", input.clone());
        out.assert_err("invalid_input");
        assert_eq!(
            out.json["error"]["field"], field,
            "input {input}: {}",
            out.stdout
        );
    }
    // the unknown field's message lists the accepted ones
    let out = env.call("read", json!({"path": "a.txt", "bogus": 1}));
    assert!(
        out.output().contains(
            "accepted fields: path (string), paths (array of strings), offset (integer), limit (integer)"
        ),
        "{}",
        out.output()
    );
}

#[test]
fn bad_json_and_non_objects_are_invalid_input() {
    let env = Env::new();
    for stdin in ["{", "[1,2]", "\"read\"", "null", "{\"path\": \"a\",}"] {
        let out = env.run(&["read"], stdin);
        out.assert_err("invalid_input");
    }
}

#[test]
fn command_line_fields_are_checked_like_json_ones() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let out = env.run(&["read", "a.txt", "--offset", "x"], "");
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "offset");
    let out = env.run(&["read", "a.txt", "--nope"], "");
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "nope");
    assert!(out.output().contains("accepted fields"));
    // given twice: positional and flag, path and file_path
    let out = env.run(&["read", "a.txt", "--path", "a.txt"], "");
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "path");
    let out = env.run(&["read", "--path", "a.txt", "--file-path", "a.txt"], "");
    out.assert_err("invalid_input");
    // file_path alone is path
    env.run(&["read", "--file-path", "a.txt"], "").assert_ok();
    env.call("read", json!({"file_path": "a.txt"})).assert_ok();
}

#[test]
fn null_for_an_optional_field_means_absent() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let out = env.call(
        "read",
        json!({"path": "a.txt", "offset": null, "limit": null}),
    );
    out.assert_ok();
    assert_eq!(out.data()["start_line"], 1);
}

#[test]
fn unknown_tool_is_invalid_input_with_the_word_as_tool() {
    let env = Env::new();
    let out = env.run(&["frobnicate", "x"], "");
    out.assert_err("invalid_input");
    assert_eq!(out.json["tool"], "frobnicate");
    assert!(out.output().contains("read, write"));
    let out = env.run(&[], "");
    out.assert_err("invalid_input");
}

#[test]
fn format_text_prints_output_alone_and_errors_on_stderr() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let out = env.run(&["read", "a.txt", "--format", "text"], "");
    assert_eq!((out.status, out.stdout.as_str()), (0, "     1\tx\n"));
    let out = env.run(&["--format", "text", "read", "nope"], "");
    assert_eq!(out.status, 1);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr.starts_with("nope does not exist\n"),
        "{}",
        out.stderr
    );
    let mut c = env.cmd();
    c.args(["read", "a.txt"]).env("LOOPR_FORMAT", "text");
    assert_eq!(finish(c).stdout, "     1\tx\n");
    // the flag beats the variable
    let mut c = env.cmd();
    c.args(["read", "a.txt", "--format", "json"])
        .env("LOOPR_FORMAT", "text");
    assert!(finish(c).ok());
}

#[test]
fn pretty_indents_the_same_envelope() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let plain = env.run(&["read", "a.txt"], "");
    let pretty = env.run(&["--pretty", "read", "a.txt"], "");
    assert!(pretty.stdout.lines().count() > 5);
    assert_eq!(plain.json, pretty.json);
}

#[test]
fn help_and_version_are_plain_text() {
    let env = Env::new();
    let out = env.run(&["--help"], "");
    assert_eq!(out.status, 0);
    assert!(
        out.stdout.contains("read") && out.stdout.contains("Read a text file with line numbers"),
        "{}",
        out.stdout
    );
    let out = env.run(&["read", "--help"], "");
    assert_eq!(out.status, 0);
    assert!(
        out.stdout.contains("--offset") && out.stdout.contains("Examples:"),
        "{}",
        out.stdout
    );
    let out = env.run(&["--version"], "");
    assert_eq!(
        out.stdout,
        format!("loopr-tool {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn global_options_stand_before_or_after_the_tool() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let a = env.run(&["--session", "s1", "read", "a.txt"], "");
    let b = env.run(&["read", "a.txt", "--session", "s2"], "");
    a.assert_ok();
    b.assert_ok();
    let s1 = env.run(&["session", "--session", "s1"], "");
    assert_eq!(s1.data()["session"], "s1");
    assert_eq!(s1.data()["reads"].as_array().unwrap().len(), 1);
    let s3 = env.run(&["session", "--session", "s3"], "");
    assert_eq!(s3.data()["reads"].as_array().unwrap().len(), 0);
}

#[test]
fn root_and_session_come_from_the_environment_and_flags_win() {
    let env = Env::new();
    env.write_file("sub/inner.txt", "inner\n");
    let mut c = env.cmd();
    c.args(["read", "inner.txt"])
        .env("LOOPR_ROOT", env.path("sub"))
        .env("LOOPR_SESSION", "from-env");
    let out = finish(c);
    out.assert_ok();
    assert_eq!(out.data()["path"], "inner.txt");
    let mut c = env.cmd();
    c.args(["session"])
        .env("LOOPR_ROOT", env.path("sub"))
        .env("LOOPR_SESSION", "from-env");
    let out = finish(c);
    assert_eq!(out.data()["session"], "from-env");
    assert_eq!(out.data()["root"], env.path("sub").to_str().unwrap());
    let mut c = env.cmd();
    c.args(["session", "--session", "flag", "--root", "."])
        .env("LOOPR_SESSION", "from-env")
        .env("LOOPR_ROOT", env.path("sub"));
    let out = finish(c);
    assert_eq!(out.data()["session"], "flag");
    assert_eq!(out.data()["root"], env.root.to_str().unwrap());
}

#[test]
fn invalid_session_ids_and_roots_are_refused() {
    let env = Env::new();
    for bad in ["..", ".", "a/b", "", &"x".repeat(129), "sp ace"] {
        let out = env.run(&["--session", bad, "session"], "");
        out.assert_err("invalid_input");
    }
    // Seed 000's ids carry `:` (SPEC 25.6), up to 128 characters.
    for good in ["Agent_1.v-2", "exec:phase:1", &"x".repeat(128)] {
        let out = env.run(&["--session", good, "session"], "");
        out.assert_ok();
        assert_eq!(out.data()["session"], good);
    }
    let out = env.run(&["--root", "no-such-dir", "session"], "");
    out.assert_err("invalid_input");
    let mut c = env.cmd();
    c.args(["session"]).env("LOOPR_NO_SANDBOX", "maybe");
    finish(c).assert_err("invalid_input");
}

#[test]
fn default_state_dir_follows_xdg_then_home_and_stays_out_of_the_root() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let home = env.dir.path().join("home");
    let mut c = env.cmd();
    c.args(["read", "a.txt"])
        .env_remove("LOOPR_STATE_DIR")
        .env("HOME", &home);
    finish(c).assert_ok();
    assert!(home.join(".local/state/loopr-tool").is_dir());
    let xdg = env.dir.path().join("xdg");
    let mut c = env.cmd();
    c.args(["session"])
        .env_remove("LOOPR_STATE_DIR")
        .env("XDG_STATE_HOME", &xdg);
    let out = finish(c);
    assert!(
        out.data()["state_dir"]
            .as_str()
            .unwrap()
            .starts_with(xdg.to_str().unwrap())
    );
    // the root holds only what the user wrote
    let names: Vec<_> = std::fs::read_dir(&env.root)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("a.txt")]);
}

#[test]
fn a_panic_still_prints_an_internal_error_envelope() {
    let env = Env::new();
    let mut c = env.cmd();
    c.args(["session"]).env("LOOPR_DEBUG_PANIC", "1");
    let out = finish(c);
    assert_eq!(out.status, 1);
    assert_eq!(out.code(), "internal_error");
    assert_eq!(out.json["tool"], "session");
}

#[test]
fn stdin_over_64_mib_is_too_large() {
    let env = Env::new();
    let big = format!("{{\"path\": \"{}\"}}", "a".repeat(64 * 1024 * 1024));
    let mut c = env.cmd();
    c.arg("read").write_stdin(big);
    let out = finish(c);
    out.assert_err("too_large");
    assert_eq!(out.json["error"]["limit"], 64 * 1024 * 1024);
}

#[test]
fn a_closed_stdout_ends_quietly() {
    use std::process::{Command, Stdio};
    let env = Env::new();
    env.write_file("big.txt", "line\n".repeat(50_000));
    let mut child = Command::new(testkit::bin())
        .args(["read", "big.txt", "--format", "text", "--limit", "100000"])
        .current_dir(&env.root)
        .env("LOOPR_STATE_DIR", &env.state)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away at once, like `| head -0`
    let out = child.wait_with_output().unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.code().is_some(),
        "ended by a signal: {:?}",
        out.status
    );
}

/// A harness may start us with stdin, stdout or stderr closed. As std's start-up did before
/// `main` became ours (src/entry.rs), a closed one is opened on /dev/null, so the first file we
/// open (the root's handle, the state's lock, a temp file) never takes its number.
#[test]
fn closed_standard_fds_are_opened_on_dev_null() {
    use std::os::unix::process::CommandExt;
    let env = Env::new();
    let mut c = env.std_cmd();
    c.args(["--no-sandbox", "stat", "/proc/self/fd/0"]);
    // SAFETY: close is async-signal-safe; it runs in the child before exec.
    unsafe {
        c.pre_exec(|| {
            libc::close(0);
            Ok(())
        });
    }
    let out = c.output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["data"]["target"], "/dev/null", "{v}");

    // All three closed: the call still works and its file and state take no stray bytes.
    let mut c = env.std_cmd();
    c.args(["write", "out.txt", "--content", "payload\n"]);
    // SAFETY: as above.
    unsafe {
        c.pre_exec(|| {
            libc::close(0);
            libc::close(1);
            libc::close(2);
            Ok(())
        });
    }
    let status = c.status().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert_eq!(env.read_file("out.txt"), b"payload\n");
    env.read("out.txt").assert_ok();
    let undo = env.call("undo", json!({}));
    undo.assert_ok();
    assert!(!testkit::exists(&env.path("out.txt")), "{}", undo.stdout);
}
