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
