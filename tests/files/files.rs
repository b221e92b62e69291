//! move, delete, mkdir and stat (SPEC 18.1, 24.2) through the binary, and undo of each.

use serde_json::{Value, json};
use std::os::unix::fs::{PermissionsExt, symlink};
use testkit::Env;

fn mode(p: &std::path::Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777
}

#[test]
fn mkdir_makes_parents_is_idempotent_and_undoes() {
    let env = Env::new();
    let out = env.call("mkdir", json!({"path": "a/b/c"}));
    out.assert_ok();
    assert_eq!(out.data()["directories"], 3);
    assert!(env.path("a/b/c").is_dir());
    let again = env.call("mkdir", json!({"path": "a/b"}));
    again.assert_ok();
    assert_eq!(again.data()["created"], false);
    env.write_file("a/file.txt", "x");
    env.call("mkdir", json!({"path": "a/file.txt"}))
        .assert_err("invalid_input");
    env.call("mkdir", json!({"path": "a/file.txt/sub"}))
        .assert_err("not_a_directory");
    env.call("mkdir", json!({"path": "../escape"}))
        .assert_err("outside_root");
    // undo removes only what mkdir made, and only while empty
    env.run(&["mkdir", "fresh/one"], "").assert_ok();
    env.write_file("fresh/one/keep.txt", "mine");
    env.call("undo", json!({})).assert_err("stale_read");
    assert!(env.path("fresh/one/keep.txt").exists());
    std::fs::remove_file(env.path("fresh/one/keep.txt")).unwrap();
    let u = env.call("undo", json!({}));
    u.assert_ok();
    assert!(!env.path("fresh").exists());
    assert!(env.path("a/b/c").is_dir(), "the earlier mkdir is untouched");
}

#[test]
fn stat_describes_paths_without_reading_them() {
    let env = Env::new();
    env.write_file("t.txt", "one\r\ntwo\r\n");
    std::fs::set_permissions(env.path("t.txt"), std::fs::Permissions::from_mode(0o640)).unwrap();
    env.write_file("bin.dat", b"\x00\x01\x02");
    std::fs::create_dir(env.path("d")).unwrap();
    symlink("t.txt", env.path("link")).unwrap();
    let out = env.call("stat", json!({"path": "t.txt"}));
    out.assert_ok();
    let d = out.data();
    assert_eq!(d["type"], "file");
    assert_eq!(d["size"], 10);
    assert_eq!(d["mode"], "0640");
    assert_eq!(d["lines"], 2);
    assert_eq!(d["line_ending"], "crlf");
    assert_eq!(d["encoding"], "utf-8");
    assert_eq!(d["binary"], false);
    assert!(d["mtime"].as_str().unwrap().ends_with('Z'));
    let many = env.call(
        "stat",
        json!({"paths": ["link", "d", "missing.txt", "bin.dat", "."]}),
    );
    many.assert_ok();
    let e = many.data()["entries"].as_array().unwrap();
    assert_eq!(e[0]["type"], "symlink");
    assert_eq!(e[0]["target"], "t.txt");
    assert_eq!(e[1]["type"], "dir");
    assert_eq!(e[2]["path"], "missing.txt");
    assert_eq!(e[2]["error"]["code"], "not_found");
    assert_eq!(e[3]["binary"], true);
    assert_eq!(e[4]["path"], ".");
    assert!(many.output().contains("missing.txt: error not_found"));
    // stat is no read: edit still needs one
    env.call(
        "edit",
        json!({"path": "t.txt", "old_string": "one", "new_string": "1"}),
    )
    .assert_err("not_read");
    env.call("stat", json!({"path": "t.txt", "paths": ["t.txt"]}))
        .assert_err("invalid_input");
    env.call("stat", json!({})).assert_err("invalid_input");
    let too_many: Vec<String> = (0..1001).map(|i| format!("f{i}")).collect();
    let out = env.call("stat", json!({"paths": too_many}));
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "paths");
    let outside = env.call("stat", json!({"path": "/etc/passwd"}));
    outside.assert_ok();
    assert_eq!(outside.data()["error"]["code"], "outside_root");
}

#[test]
fn delete_needs_a_fresh_read_and_undo_restores_bytes_and_mode() {
    let env = Env::new();
    env.write_file("f.sh", "#!/bin/sh\necho hi\n");
    std::fs::set_permissions(env.path("f.sh"), std::fs::Permissions::from_mode(0o754)).unwrap();
    env.call("delete", json!({"path": "f.sh"}))
        .assert_err("not_read");
    env.call("read", json!({"path": "f.sh"})).assert_ok();
    env.write_file("f.sh", "#!/bin/sh\necho changed\n");
    env.call("delete", json!({"path": "f.sh"}))
        .assert_err("stale_read");
    env.call("read", json!({"path": "f.sh"})).assert_ok();
    let out = env.call("delete", json!({"path": "f.sh"}));
    out.assert_ok();
    assert_eq!(out.data()["undoable"], true);
    assert_eq!(out.data()["files"], 1);
    assert!(!env.path("f.sh").exists());
    env.call("delete", json!({"path": "f.sh"}))
        .assert_err("not_found");
    let u = env.call("undo", json!({}));
    u.assert_ok();
    assert_eq!(u.data()["action"], "restored");
    assert_eq!(env.read_file("f.sh"), b"#!/bin/sh\necho changed\n");
    assert_eq!(mode(&env.path("f.sh")), 0o754);
    // the restored file is known as it is: it can be edited without another read
    env.call(
        "edit",
        json!({"path": "f.sh", "old_string": "changed", "new_string": "back"}),
    )
    .assert_ok();
}

#[test]
fn a_directory_needs_recursive_and_comes_back_whole() {
    let env = Env::new();
    env.write_file("tree/a.txt", "a");
    env.write_file("tree/sub/b.txt", "bb");
    std::fs::set_permissions(env.path("tree/sub"), std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::create_dir(env.path("empty")).unwrap();
    let out = env.call("delete", json!({"path": "tree"}));
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "recursive");
    assert!(env.path("tree/sub/b.txt").exists());
    env.call("delete", json!({"path": "empty"})).assert_ok();
    let out = env.call("delete", json!({"path": "tree", "recursive": true}));
    out.assert_ok();
    assert_eq!(out.data()["files"], 2);
    assert_eq!(out.data()["directories"], 2);
    assert_eq!(out.data()["bytes"], 3);
    assert!(!env.path("tree").exists());
    env.call("undo", json!({})).assert_ok();
    assert_eq!(env.read_file("tree/sub/b.txt"), b"bb");
    assert_eq!(mode(&env.path("tree/sub")), 0o700);
    // a new thing in the way: undo refuses rather than overwrite it
    env.call("delete", json!({"path": "tree", "recursive": true}))
        .assert_ok();
    env.write_file("tree", "new file where the tree was");
    env.call("undo", json!({})).assert_err("stale_read");
    assert_eq!(env.read_file("tree"), b"new file where the tree was");
}

#[test]
fn delete_refuses_the_root_and_escapes_and_removes_links_not_targets() {
    let env = Env::new();
    for p in [".", "", "sub/..", "./"] {
        let out = env.call("delete", json!({"path": p, "recursive": true}));
        out.assert_err("invalid_input");
    }
    let absolute = env.root.to_string_lossy().into_owned();
    env.call("delete", json!({"path": absolute, "recursive": true}))
        .assert_err("invalid_input");
    env.call("delete", json!({"path": "../x"}))
        .assert_err("outside_root");
    assert!(env.root.exists());
    // a link out of the root is removed as a link; its target is untouched
    let outside = env.dir.path().join("precious.txt");
    std::fs::write(&outside, "keep").unwrap();
    symlink(&outside, env.path("out-link")).unwrap();
    env.call("delete", json!({"path": "out-link"})).assert_ok();
    assert!(std::fs::symlink_metadata(env.path("out-link")).is_err());
    assert_eq!(std::fs::read(&outside).unwrap(), b"keep");
    // a link to a directory inside: the link goes, the directory stays
    env.write_file("real/inside.txt", "x");
    symlink("real", env.path("dir-link")).unwrap();
    env.call("delete", json!({"path": "dir-link"})).assert_ok();
    assert!(env.path("real/inside.txt").exists());
    // a path through a link that leaves the root is outside
    symlink(env.dir.path(), env.path("up")).unwrap();
    env.call("delete", json!({"path": "up/precious.txt"}))
        .assert_err("outside_root");
    assert!(outside.exists());
}

#[test]
fn over_256_mib_needs_permanent() {
    let env = Env::new();
    std::fs::create_dir(env.path("big")).unwrap();
    // Sparse: the size counts, not the blocks.
    let f = std::fs::File::create(env.path("big/huge.bin")).unwrap();
    f.set_len(300 * 1024 * 1024).unwrap();
    let out = env.call("delete", json!({"path": "big", "recursive": true}));
    out.assert_err("too_large");
    assert_eq!(out.json["error"]["limit"], 256 * 1024 * 1024);
    assert!(env.path("big/huge.bin").exists());
    let out = env.call(
        "delete",
        json!({"path": "big", "recursive": true, "permanent": true}),
    );
    out.assert_ok();
    assert_eq!(out.data()["undoable"], false);
    assert!(!env.path("big").exists());
    env.call("undo", json!({})).assert_err("not_found");
}

#[test]
fn move_renames_carries_the_read_record_and_undoes() {
    let env = Env::new();
    env.write_file("a.txt", "alpha\n");
    env.call("read", json!({"path": "a.txt"})).assert_ok();
    let out = env.call("move", json!({"from": "a.txt", "to": "deep/er/b.txt"}));
    out.assert_ok();
    assert_eq!(
        out.data(),
        &json!({"from": "a.txt", "to": "deep/er/b.txt", "overwrote": false})
    );
    assert!(!env.path("a.txt").exists());
    // the read moved with the file
    env.call(
        "edit",
        json!({"path": "deep/er/b.txt", "old_string": "alpha", "new_string": "beta"}),
    )
    .assert_ok();
    env.call("undo", json!({})).assert_ok(); // the edit
    let u = env.call("undo", json!({})); // the move
    u.assert_ok();
    assert_eq!(env.read_file("a.txt"), b"alpha\n");
    assert!(!env.path("deep").exists(), "the parents it made are gone");
    // the record moved back too
    env.call(
        "edit",
        json!({"path": "a.txt", "old_string": "alpha", "new_string": "gamma"}),
    )
    .assert_ok();
}

#[test]
fn move_onto_an_existing_file_needs_overwrite_and_a_read() {
    let env = Env::new();
    env.write_file("src.txt", "new\n");
    env.write_file("dst.txt", "old\n");
    std::fs::create_dir(env.path("dir")).unwrap();
    let out = env.call("move", json!({"from": "src.txt", "to": "dst.txt"}));
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "to");
    env.call(
        "move",
        json!({"from": "src.txt", "to": "dst.txt", "overwrite": true}),
    )
    .assert_err("not_read");
    env.call(
        "move",
        json!({"from": "src.txt", "to": "dir", "overwrite": true}),
    )
    .assert_err("is_directory");
    env.call("read", json!({"path": "dst.txt"})).assert_ok();
    let out = env.call(
        "move",
        json!({"from": "src.txt", "to": "dst.txt", "overwrite": true}),
    );
    out.assert_ok();
    assert_eq!(out.data()["overwrote"], true);
    assert_eq!(env.read_file("dst.txt"), b"new\n");
    env.call("undo", json!({})).assert_ok();
    assert_eq!(env.read_file("src.txt"), b"new\n");
    assert_eq!(env.read_file("dst.txt"), b"old\n");
    // errors that need no file system
    env.call("move", json!({"from": "src.txt", "to": "src.txt"}))
        .assert_err("invalid_input");
    env.call("move", json!({"from": "dir", "to": "dir/inside"}))
        .assert_err("invalid_input");
    env.call("move", json!({"from": "nope.txt", "to": "x.txt"}))
        .assert_err("not_found");
    env.call("move", json!({"from": "src.txt", "to": "../out.txt"}))
        .assert_err("outside_root");
    env.call("move", json!({"from": ".", "to": "x"}))
        .assert_err("invalid_input");
}

#[test]
fn a_chain_of_moves_undoes_in_order_and_links_move_as_links() {
    let env = Env::new();
    env.write_file("d/f.txt", "x");
    symlink("d/f.txt", env.path("l")).unwrap();
    for (from, to) in [("d", "e"), ("e", "g/h"), ("l", "m")] {
        env.call("move", json!({"from": from, "to": to}))
            .assert_ok();
    }
    assert_eq!(
        std::fs::read_link(env.path("m")).unwrap(),
        std::path::Path::new("d/f.txt")
    );
    assert!(env.path("g/h/f.txt").exists());
    for _ in 0..3 {
        env.call("undo", json!({})).assert_ok();
    }
    assert!(env.path("d/f.txt").exists());
    assert_eq!(
        std::fs::read_link(env.path("l")).unwrap(),
        std::path::Path::new("d/f.txt")
    );
    assert!(!env.path("g").exists() && !env.path("e").exists());
    // moved on since: undo of a move refuses
    env.call("move", json!({"from": "d", "to": "e"}))
        .assert_ok();
    env.write_file("d/new.txt", "in the way");
    env.call("undo", json!({})).assert_err("stale_read");
}

#[test]
fn delete_and_edit_at_once_lose_nothing() {
    let env = Env::new();
    for round in 0..6 {
        let content = format!("round {round}\n");
        env.write_file("race.txt", &content);
        env.call("read", json!({"path": "race.txt"})).assert_ok();
        let spawn = |tool: &str, input: Value| env.spawn(&[tool], &[], &input.to_string());
        let edit = spawn(
            "edit",
            json!({"path": "race.txt", "old_string": "round", "new_string": "edited"}),
        );
        let delete = spawn("delete", json!({"path": "race.txt"}));
        let parse = Env::parse;
        let (e, d) = (parse(edit), parse(delete));
        let (e_ok, d_ok) = (e["ok"] == true, d["ok"] == true);
        assert!(e_ok || d_ok, "one wins: {e} {d}");
        if e_ok && d_ok {
            // The edit went first, then the delete saw... nothing else is allowed: the delete
            // must have read the edited file, which this session recorded as its own write.
            assert!(!env.path("race.txt").exists());
            env.call("undo", json!({})).assert_ok();
            assert_eq!(
                env.read_file("race.txt"),
                format!("edited {round}\n").as_bytes()
            );
        } else if d_ok {
            assert_eq!(e["error"]["code"], "not_found", "{e}");
            env.call("undo", json!({})).assert_ok();
            assert_eq!(env.read_file("race.txt"), content.as_bytes());
        } else {
            assert_eq!(d["error"]["code"], "stale_read", "{d}");
            assert_eq!(
                env.read_file("race.txt"),
                format!("edited {round}\n").as_bytes()
            );
        }
        let _ = std::fs::remove_file(env.path("race.txt"));
    }
}

#[test]
fn the_new_tools_are_listed_and_stat_is_read_only_in_a_batch() {
    let env = Env::new();
    let out = env.run(&["schema"], "");
    let names: Vec<String> = serde_json::from_str::<Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    for t in ["move", "delete", "mkdir", "stat"] {
        assert!(names.contains(&t.to_string()), "{t} not in {names:?}");
    }
    env.write_file("a.txt", "a");
    let out = env.run(
        &["batch"],
        r#"[{"name":"stat","input":{"path":"a.txt"}},{"name":"mkdir","input":{"path":"n"}},{"name":"stat","input":{"path":"n"}}]"#,
    );
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v[0]["data"]["type"], "file");
    assert_eq!(v[2]["data"]["type"], "dir", "the stat after mkdir sees it");
}
