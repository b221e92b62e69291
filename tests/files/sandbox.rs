//! The sandbox matrix (SPEC §2.1): every way out is refused with `outside_root` before anything
//! is read or written, by read and by write.

use serde_json::json;
use std::os::unix::fs::symlink;
use testkit::{Env, exists};

/// A directory beside the root, with a secret in it.
fn outside(env: &Env) -> std::path::PathBuf {
    let o = env.dir.path().join("outside");
    std::fs::create_dir_all(&o).unwrap();
    std::fs::write(o.join("secret.txt"), "secret\n").unwrap();
    std::fs::canonicalize(o).unwrap()
}

#[track_caller]
fn refused(env: &Env, path: &str) {
    let r = env.call("read", json!({"path": path}));
    r.assert_err("outside_root");
    assert!(!r.stdout.contains("secret\\n"), "leaked: {}", r.stdout);
    assert!(r.json["error"]["path"].is_string());
    let w = env.run(
        &["--no-read-check", "write", path, "--content", "pwned"],
        "",
    );
    w.assert_err("outside_root");
}

#[test]
fn dotdot_escapes_are_refused() {
    let env = Env::new();
    outside(&env);
    refused(&env, "../outside/secret.txt");
    refused(&env, "a/../../outside/secret.txt");
    refused(&env, "missing/../../outside/new.txt");
    assert!(!exists(&env.dir.path().join("outside/new.txt")));
}

#[test]
fn absolute_paths_outside_are_refused_and_inside_are_allowed() {
    let env = Env::new();
    let o = outside(&env);
    refused(&env, o.join("secret.txt").to_str().unwrap());
    refused(&env, "/etc/passwd");
    env.write_file("in.txt", "in\n");
    let abs = env.path("in.txt");
    let out = env.call("read", json!({"path": abs.to_str().unwrap()}));
    out.assert_ok();
    assert_eq!(out.data()["path"], "in.txt", "shown relative to the root");
}

#[test]
fn symlinks_pointing_out_are_refused() {
    let env = Env::new();
    let o = outside(&env);
    symlink(o.join("secret.txt"), env.path("file-link")).unwrap();
    symlink(&o, env.path("dir-link")).unwrap();
    symlink("../outside", env.path("rel-link")).unwrap();
    refused(&env, "file-link");
    refused(&env, "dir-link/secret.txt");
    refused(&env, "rel-link/secret.txt");
    // not yet existing paths under a symlinked directory
    refused(&env, "dir-link/new.txt");
    refused(&env, "dir-link/deep/er/new.txt");
    assert!(!exists(&o.join("new.txt")) && !exists(&o.join("deep")));
    assert_eq!(
        std::fs::read_to_string(o.join("secret.txt")).unwrap(),
        "secret\n"
    );
}

#[test]
fn dangling_link_out_of_the_root_cannot_create_a_file_there() {
    let env = Env::new();
    let o = outside(&env);
    symlink(o.join("planted.txt"), env.path("dangling")).unwrap();
    refused(&env, "dangling");
    assert!(!exists(&o.join("planted.txt")));
}

#[test]
fn links_that_stay_inside_are_followed() {
    let env = Env::new();
    env.write_file("real/data.txt", "data\n");
    symlink("real", env.path("alias")).unwrap();
    let out = env.call("read", json!({"path": "alias/data.txt"}));
    out.assert_ok();
    assert_eq!(
        out.data()["path"],
        "alias/data.txt",
        "shown as named, not resolved"
    );
    // a link whose `..` leads back inside
    symlink("real/..", env.path("up")).unwrap();
    env.call("read", json!({"path": "up/real/data.txt"}))
        .assert_ok();
}

#[test]
fn the_root_itself_may_be_a_symlink() {
    let env = Env::new();
    env.write_file("f.txt", "f\n");
    let link = env.dir.path().join("root-link");
    symlink(&env.root, &link).unwrap();
    let out = env.run(&["--root", link.to_str().unwrap(), "read", "f.txt"], "");
    out.assert_ok();
    let abs = link.join("f.txt");
    let out = env.run(
        &[
            "--root",
            link.to_str().unwrap(),
            "read",
            abs.to_str().unwrap(),
        ],
        "",
    );
    out.assert_ok();
    assert_eq!(out.data()["path"], "f.txt");
}

#[test]
fn symlink_loops_are_an_error_not_a_hang() {
    let env = Env::new();
    symlink("b", env.path("a")).unwrap();
    symlink("a", env.path("b")).unwrap();
    let out = env.call("read", json!({"path": "a/x"}));
    assert!(!out.ok());
    assert_eq!(out.status, 1);
}

#[test]
fn nul_bytes_are_invalid_input() {
    let env = Env::new();
    let out = env.call(
        "write",
        json!({"path": "a\u{0}/etc/passwd", "content": "x"}),
    );
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "path");
}

#[test]
fn no_sandbox_lets_paths_leave_and_shows_them_absolute() {
    let env = Env::new();
    let o = outside(&env);
    let out = env.run(&["--no-sandbox", "read", "../outside/secret.txt"], "");
    out.assert_ok();
    assert_eq!(out.data()["path"], o.join("secret.txt").to_str().unwrap());
    let mut c = env.cmd();
    c.args(["read", "../outside/secret.txt"])
        .env("LOOPR_NO_SANDBOX", "1");
    testkit::finish(c).assert_ok();
}
