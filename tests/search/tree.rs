//! `tree` (SPEC §10, 16.3) through the binary.

use serde_json::json;
use std::os::unix::fs::symlink;
use testkit::{Env, redact};

fn project() -> Env {
    let env = Env::new();
    env.write_file("Cargo.toml", "");
    env.write_file("README.md", "");
    env.write_file("src/main.rs", "");
    env.write_file("src/tools/grep.rs", "");
    env.write_file("src/tools/glob.rs", "");
    env.write_file("src/tools/deep/er/x.rs", "");
    env.write_file("tests/a.rs", "");
    std::fs::create_dir_all(env.path("empty")).unwrap();
    symlink("src/main.rs", env.path("main-link")).unwrap();
    env
}

#[test]
fn drawing_snapshot() {
    let env = project();
    let out = env.call("tree", json!({}));
    out.assert_ok();
    insta::assert_json_snapshot!(redact(&out.json, &env));
}

#[test]
fn the_drawing_in_text() {
    let env = project();
    let out = env.run(&["tree", "--format", "text"], "");
    assert_eq!(
        out.stdout,
        "\
.
├── empty/
├── src/
│   ├── tools/
│   │   ├── deep/
│   │   │   └── … (1 entries)
│   │   ├── glob.rs
│   │   └── grep.rs
│   └── main.rs
├── tests/
│   └── a.rs
├── Cargo.toml
├── README.md
└── main-link -> src/main.rs
5 directories, 7 files
"
    );
}

#[test]
fn depth_and_subdirectory() {
    let env = project();
    let out = env.run(&["tree", "src", "--depth", "1", "--format", "text"], "");
    assert_eq!(
        out.stdout,
        "src\n├── tools/\n│   └── … (3 entries)\n└── main.rs\n1 directory, 1 file\n"
    );
    let out = env.call("tree", json!({"path": "src", "depth": 64}));
    assert_eq!(out.data()["directories"], 3);
    assert_eq!(out.data()["files"], 4);
    assert!(
        out.output()
            .contains("│   │   └── er/\n│   │       └── x.rs\n"),
        "{}",
        out.output()
    );
    let t = &out.data()["tree"];
    assert_eq!(t["name"], "src");
    assert_eq!(t["children"][0]["name"], "tools");
    assert_eq!(
        t["children"][0]["children"][0]["children"][0]["children"][0]["name"],
        "x.rs"
    );
}

#[test]
fn limit_stops_with_a_note() {
    let env = project();
    let out = env.call("tree", json!({"limit": 4}));
    out.assert_ok();
    assert_eq!(
        out.output(),
        ".\n├── empty/\n├── src/\n│   ├── tools/\n│   │   ├── deep/\n│   │   │   └── … (1 entries)\n4 directories, 0 files (stopped at 4 entries)\n"
    );
    assert_eq!(out.data()["truncated"], true);
}

#[test]
fn ignore_hidden_and_dot_git() {
    let env = Env::new();
    env.write_file(".gitignore", "build/\n");
    env.write_file("build/out.o", "");
    env.write_file(".git/HEAD", "");
    env.write_file(".config/x", "");
    env.write_file("a.txt", "");
    let out = env.run(&["tree", "--format", "text"], "");
    assert_eq!(out.stdout, ".\n└── a.txt\n0 directories, 1 file\n");
    let out = env.call("tree", json!({"show_hidden": true, "no_ignore": true}));
    assert_eq!(
        out.output(),
        ".\n├── .config/\n│   └── x\n├── build/\n│   └── out.o\n├── .gitignore\n└── a.txt\n2 directories, 4 files\n"
    );
}

#[test]
fn symlink_loops_and_escapes_are_shown_not_followed() {
    let env = Env::new();
    let outside = env.dir.path().join("outside");
    std::fs::create_dir_all(outside.join("inner")).unwrap();
    env.write_file("d/f.txt", "");
    symlink("..", env.path("d/up")).unwrap();
    symlink(&outside, env.path("out")).unwrap();
    let out = env.call("tree", json!({"depth": 10}));
    out.assert_ok();
    let o = outside.to_string_lossy();
    assert_eq!(
        out.output(),
        format!(
            ".\n├── d/\n│   ├── f.txt\n│   └── up -> ..\n└── out -> {o}\n1 directory, 3 files\n"
        )
    );
    assert_eq!(out.data()["tree"]["children"][1]["type"], "symlink");
    env.call("tree", json!({"path": "out"}))
        .assert_err("outside_root");
}

#[test]
fn errors() {
    let env = project();
    let out = env.call("tree", json!({"path": "Cargo.toml"}));
    out.assert_err("not_a_directory");
    assert_eq!(out.json["error"]["path"], "Cargo.toml");
    env.call("tree", json!({"path": "nope"}))
        .assert_err("not_found");
    env.call("tree", json!({"path": "/"}))
        .assert_err("outside_root");
    for bad in [
        json!({"depth": 0}),
        json!({"depth": 65}),
        json!({"limit": 0}),
        json!({"pattern": "*"}),
    ] {
        env.call("tree", bad).assert_err("invalid_input");
    }
}

#[test]
fn exclude_leaves_out_names_and_what_is_below_them() {
    let env = Env::new();
    env.write_file("node_modules/pkg/index.js", "x");
    env.write_file("src/app.log", "x");
    env.write_file("src/main.rs", "x");
    let out = env.call("tree", json!({"exclude": ["node_modules", "*.log"]}));
    out.assert_ok();
    let text = out.output();
    assert!(text.contains("main.rs"), "{text}");
    assert!(
        !text.contains("node_modules") && !text.contains("index.js") && !text.contains("app.log"),
        "{text}"
    );
    let bad = env.call("tree", json!({"exclude": ["ok", "[z-a]"]}));
    bad.assert_err("invalid_glob");
    assert_eq!(bad.json["error"]["field"], "exclude[1]");
}
