//! SPEC 31.4: hook arguments are never options, and a hook runs in the sandbox the profile's
//! `run` gets unless its own `sandbox` says otherwise. The hooks' programs are stubs first on
//! PATH that only print what they were given, so nothing the attack names is ever run.

use serde_json::json;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use testkit::{Env, finish};

fn stub(dir: &Path, name: &str, body: &str) {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_file_named_like_an_option_reaches_a_hook_as_a_file_and_hooks_run_in_runs_sandbox() {
    let env = Env::new();
    let bin = env.dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    // `tar` only says what it was given, one argument a line.
    stub(
        &bin,
        "tar",
        "for a in \"$@\"; do printf 'arg[%s]\\n' \"$a\"; done",
    );
    let outside = env.dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    let catalog = env.dir.path().join("hooks.toml");
    std::fs::write(
        &catalog,
        format!(
            "[run]\nsandbox = \"workspace-write\"\n\
             [[hooks.post]]\ntools = [\"write\"]\ncommand = \"tar -cf snap.tar {{paths}}\"\n\
             [[hooks.post]]\ntools = [\"write\"]\ncommand = \"touch {o}/by-default\"\n\
             [[hooks.post]]\ntools = [\"write\"]\nsandbox = \"none\"\ncommand = \"touch {o}/by-choice\"\n",
            o = outside.display()
        ),
    )
    .unwrap();
    let name = "--checkpoint-action=exec=sh p.sh";
    let mut c = env.cmd();
    c.arg("--config")
        .arg(&catalog)
        .arg("write")
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .write_stdin(json!({"path": name, "content": "x\n"}).to_string());
    let out = finish(c);
    out.assert_ok();
    let checks = out.data()["checks"].as_array().unwrap();
    let tar = checks[0]["output"].as_str().unwrap();
    assert!(
        tar.lines().any(|l| l == format!("arg[./{name}]")),
        "{}",
        out.stdout
    );
    assert!(!tar.lines().any(|l| l == format!("arg[{name}]")), "{tar}");
    assert_eq!(checks[0]["exit_code"], 0);
    // Without a `sandbox` of its own the hook is held to the root, as `run` would be; the
    // catalog's author may still let one out.
    assert!(!outside.join("by-default").exists(), "{}", out.stdout);
    assert!(outside.join("by-choice").exists(), "{}", out.stdout);
}

/// SPEC 31.4: a call runs the hooks of the tool that runs — MultiEdit creating its file runs
/// write's, so a pre hook that refuses writes refuses that too.
#[test]
fn multiedit_creating_a_file_runs_writes_pre_and_post_hooks() {
    let env = Env::new();
    let bin = env.dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let seen = env.dir.path().join("seen.txt");
    stub(
        &bin,
        "pre-write",
        &format!("cat >/dev/null; echo pre >> '{}'", seen.display()),
    );
    stub(
        &bin,
        "block-write",
        "cat >/dev/null; echo 'no new files' >&2; exit 2",
    );
    stub(&bin, "post-write", "echo post-write-ran");
    let catalog = |pre: &str| {
        let p = env.dir.path().join("multi.toml");
        std::fs::write(
            &p,
            format!(
                "[[hooks.pre]]\ntools = [\"write\"]\ncommand = \"{pre}\"\n\
                 [[hooks.post]]\ntools = [\"write\"]\ncommand = \"post-write {{paths}}\"\n"
            ),
        )
        .unwrap();
        p
    };
    let call = |file: &Path, input: serde_json::Value| {
        let mut c = env.cmd();
        c.arg("--config")
            .arg(file)
            .arg("call")
            .env(
                "PATH",
                format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
            )
            .write_stdin(json!({"name": "MultiEdit", "input": input}).to_string());
        finish(c)
    };
    let edits = |path: &str| {
        json!({"file_path": path, "edits": [
            {"old_string": "", "new_string": "alpha\n"},
            {"old_string": "alpha", "new_string": "beta"},
        ]})
    };
    let out = call(&catalog("pre-write"), edits("new.txt"));
    out.assert_ok();
    assert_eq!(env.read_file("new.txt"), b"beta\n");
    assert_eq!(std::fs::read_to_string(&seen).unwrap(), "pre\n");
    let checks = out.data()["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 1, "{}", out.stdout);
    assert!(
        checks[0]["output"]
            .as_str()
            .unwrap()
            .contains("post-write-ran")
    );
    // A pre hook refusing writes refuses the file MultiEdit would create.
    call(&catalog("block-write"), edits("other.txt")).assert_err("blocked_by_hook");
    assert!(!env.path("other.txt").exists());
}
