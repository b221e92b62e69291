//! SPEC 31.4: the path rules bind what a directory operation carries. With 19.1's own example
//! catalog a `move` or `delete` of a directory must not carry a denied or read-only path to a
//! new name or away, and neither may undo.

use crate::{call_with as with, catalog};
use serde_json::json;
use testkit::Env;

/// SPEC 19.1's `[paths]`.
const PATHS: &str =
    "[paths]\ndeny = [\".env\", \"secrets/**\"]\nread_only = [\".git/**\", \"vendor/**\"]\n";

fn tree(env: &Env) {
    env.write_file("secrets/api.key", "KEY-4711\n");
    env.write_file("vendor/lib.c", "int v;\n");
    env.write_file(".git/HEAD", "ref: refs/heads/main\n");
    env.write_file("src/a.txt", "free\n");
}

#[test]
fn a_directory_move_or_delete_never_carries_a_denied_or_read_only_path() {
    let env = Env::new();
    tree(&env);
    let file = catalog(&env, PATHS);
    let call = |tool: &str, input| with(&env, &file, tool, input);
    // The reproducer: the secret never becomes readable under another name.
    call("move", json!({"from": "secrets", "to": "pub"})).assert_err("path_denied");
    let read = call("read", json!({"path": "pub/api.key"}));
    assert!(
        !read.ok() && !read.stdout.contains("KEY-4711"),
        "{}",
        read.stdout
    );
    assert!(env.path("secrets/api.key").exists());
    // A read-only tree is not moved away to be edited and moved back.
    call("move", json!({"from": "vendor", "to": "v2"})).assert_err("path_denied");
    assert!(env.path("vendor/lib.c").exists() && !env.path("v2").exists());
    // Nor deleted.
    call("delete", json!({"path": ".git", "recursive": true})).assert_err("path_denied");
    call("delete", json!({"path": "secrets", "recursive": true})).assert_err("path_denied");
    assert!(env.path(".git/HEAD").exists() && env.path("secrets/api.key").exists());
    // A move into a denied or read-only tree's place: all it carries would land there.
    std::fs::remove_dir_all(env.path("vendor")).unwrap();
    let into = call("move", json!({"from": "src", "to": "vendor"}));
    into.assert_err("path_denied");
    assert_eq!(into.json["error"]["field"], "from", "{}", into.stdout);
    assert!(env.path("src/a.txt").exists());
    // A directory the rules say nothing about moves as before.
    call("move", json!({"from": "src", "to": "lib"})).assert_ok();
    assert!(env.path("lib/a.txt").exists());
}

#[test]
fn a_directory_holding_a_file_a_deny_glob_matches_is_not_carried() {
    let env = Env::new();
    env.write_file("keys/deep/id.key", "PRIVATE-99\n");
    env.write_file("keys/readme.txt", "hi\n");
    env.write_file("docs/x.md", "x\n");
    let file = catalog(
        &env,
        "[paths]\ndeny = [\"**/*.key\"]\nread_only = [\"*.lock\"]\n",
    );
    let call = |tool: &str, input| with(&env, &file, tool, input);
    let out = call("move", json!({"from": "keys", "to": "open"}));
    out.assert_err("path_denied");
    // A denied name is not listed, not even in the refusal.
    assert!(!out.stdout.contains("id.key"), "{}", out.stdout);
    call("delete", json!({"path": "keys", "recursive": true})).assert_err("path_denied");
    assert!(env.path("keys/deep/id.key").exists());
    // A read-only file below is named.
    env.write_file("docs/Cargo.lock", "lock\n");
    let out = call("delete", json!({"path": "docs", "recursive": true}));
    out.assert_err("path_denied");
    assert!(out.output().contains("docs/Cargo.lock"), "{}", out.stdout);
    std::fs::remove_file(env.path("docs/Cargo.lock")).unwrap();
    call("delete", json!({"path": "docs", "recursive": true})).assert_ok();
}

#[test]
fn undo_of_a_directory_move_or_delete_is_bound_by_the_rules_as_they_are() {
    let env = Env::new();
    tree(&env);
    env.write_file("src/id.key", "PRIVATE-99\n");
    // Made before the catalog was in force ...
    env.call("move", json!({"from": "src", "to": "lib"}))
        .assert_ok();
    env.call("delete", json!({"path": "vendor", "recursive": true}))
        .assert_ok();
    let file = catalog(
        &env,
        &PATHS.replace("\"secrets/**\"]", "\"secrets/**\", \"*.key\"]"),
    );
    // ... undone under it: restoring vendor/ would write a read-only tree,
    with(&env, &file, "undo", json!({})).assert_err("path_denied");
    assert!(!env.path("vendor").exists());
    // and moving lib/ back would carry a denied file.
    with(&env, &file, "undo", json!({"path": "lib"})).assert_err("path_denied");
    assert!(env.path("lib/id.key").exists() && !env.path("src").exists());
    // Without the catalog both come back.
    env.call("undo", json!({})).assert_ok();
    env.call("undo", json!({})).assert_ok();
    assert!(env.path("vendor/lib.c").exists() && env.path("src/id.key").exists());
}
