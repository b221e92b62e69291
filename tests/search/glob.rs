//! `glob` (SPEC §8, 16.3) through the binary.

use serde_json::{Value, json};
use std::os::unix::fs::symlink;
use std::time::{Duration, SystemTime};
use testkit::{Env, redact};

fn files(out: &testkit::Out) -> Vec<String> {
    out.data()["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn set_mtime(env: &Env, rel: &str, secs_ago: u64) {
    let f = std::fs::File::options()
        .write(true)
        .open(env.path(rel))
        .unwrap();
    f.set_modified(SystemTime::now() - Duration::from_secs(secs_ago))
        .unwrap();
}

#[test]
fn bare_pattern_matches_at_any_depth_snapshot() {
    let env = Env::new();
    env.write_file("main.rs", "");
    env.write_file("src/lib.rs", "");
    env.write_file("src/deep/a.rs", "");
    env.write_file("src/notes.md", "");
    let out = env.call("glob", json!({"pattern": "*.rs", "sort": "path"}));
    out.assert_ok();
    insta::assert_json_snapshot!(redact(&out.json, &env), @r#"
    {
      "ok": true,
      "tool": "glob",
      "output": "main.rs\nsrc/deep/a.rs\nsrc/lib.rs\n",
      "data": {
        "files": [
          "main.rs",
          "src/deep/a.rs",
          "src/lib.rs"
        ],
        "count": 3,
        "truncated": false
      }
    }
    "#);
}

#[test]
fn star_does_not_cross_a_slash_and_doublestar_does() {
    let env = Env::new();
    env.write_file("src/a.rs", "");
    env.write_file("src/x/b.rs", "");
    env.write_file("src/x/y/c.ts", "");
    env.write_file("src/x/y/d.tsx", "");
    let one = |p: &str| files(&env.call("glob", json!({"pattern": p, "sort": "path"})));
    assert_eq!(one("src/*.rs"), ["src/a.rs"]);
    assert_eq!(one("src/**/*.rs"), ["src/a.rs", "src/x/b.rs"]);
    assert_eq!(one("src/**/*.{ts,tsx}"), ["src/x/y/c.ts", "src/x/y/d.tsx"]);
    assert_eq!(one("src/x/?.rs"), ["src/x/b.rs"]);
    assert_eq!(one("[ab].rs"), ["src/a.rs", "src/x/b.rs"]);
    assert_eq!(one("*.RS"), Vec::<String>::new(), "case-sensitive");
    assert_eq!(one("./src/*.rs"), ["src/a.rs"]);
    assert_eq!(
        one("src/x/"),
        ["src/x/b.rs", "src/x/y/c.ts", "src/x/y/d.tsx"]
    );
}

#[test]
fn newest_first_by_default_and_ties_by_path() {
    let env = Env::new();
    for (name, ago) in [
        ("old.txt", 300),
        ("new.txt", 10),
        ("mid.txt", 100),
        ("b-tie.txt", 50),
        ("a-tie.txt", 50),
    ] {
        env.write_file(name, name);
        set_mtime(&env, name, ago);
    }
    let out = env.call("glob", json!({"pattern": "*.txt"}));
    assert_eq!(
        files(&out),
        ["new.txt", "a-tie.txt", "b-tie.txt", "mid.txt", "old.txt"]
    );
    let out = env.call("glob", json!({"pattern": "*.txt", "sort": "path"}));
    assert_eq!(
        files(&out),
        ["a-tie.txt", "b-tie.txt", "mid.txt", "new.txt", "old.txt"]
    );
}

#[test]
fn path_order_is_component_wise() {
    let env = Env::new();
    env.write_file("a/b", "");
    env.write_file("a-c", "");
    env.write_file("B", "");
    let out = env.call("glob", json!({"pattern": "**", "sort": "path"}));
    assert_eq!(files(&out), ["B", "a/b", "a-c"]);
}

#[test]
fn limit_keeps_the_count_and_says_so() {
    let env = Env::new();
    for i in 0..12 {
        env.write_file(&format!("f{i:02}.txt"), "");
    }
    let out = env.call(
        "glob",
        json!({"pattern": "*.txt", "limit": 5, "sort": "path"}),
    );
    out.assert_ok();
    assert_eq!(
        files(&out),
        ["f00.txt", "f01.txt", "f02.txt", "f03.txt", "f04.txt"]
    );
    assert_eq!(out.data()["count"], 12);
    assert_eq!(out.data()["truncated"], true);
    assert!(
        out.output()
            .ends_with("f04.txt\n(showing 5 of 12 matches; narrow the pattern or raise limit)\n"),
        "{}",
        out.output()
    );
}

#[test]
fn output_cap_cuts_whole_lines_with_a_trailer() {
    let env = Env::new();
    let long = "d".repeat(200);
    for i in 0..200 {
        env.write_file(&format!("{long}/{i:03}.txt"), "");
    }
    let out = env.call(
        "glob",
        json!({"pattern": "*.txt", "limit": 1000, "sort": "path"}),
    );
    let text = out.output();
    assert!(text.chars().count() <= 30_000);
    assert!(
        text.lines().last().unwrap().starts_with("(showing "),
        "{text}"
    );
    assert!(
        text.lines().last().unwrap().contains("output cap"),
        "{text}"
    );
    assert_eq!(
        files(&out).len(),
        200,
        "data keeps every file up to the limit"
    );
    assert_eq!(out.data()["truncated"], true);
}

#[test]
fn no_match_is_ok() {
    let env = Env::new();
    env.write_file("a.txt", "");
    let out = env.call("glob", json!({"pattern": "*.rs"}));
    out.assert_ok();
    assert_eq!(out.output(), "No files found\n");
    assert_eq!(out.data()["count"], 0);
}

#[test]
fn ignore_files_apply_without_a_repository() {
    let env = Env::new();
    env.write_file(".gitignore", "target/\n*.log\n!keep.log\n");
    env.write_file("sub/.ignore", "secret.txt\n");
    env.write_file("sub/.rgignore", "local.txt\n");
    env.write_file("sub/deeper/.gitignore", "*.tmp\n");
    for f in [
        "a.txt",
        "keep.log",
        "drop.log",
        "target/out.txt",
        "sub/secret.txt",
        "sub/local.txt",
        "sub/ok.txt",
        "sub/deeper/x.tmp",
        "sub/deeper/y.txt",
    ] {
        env.write_file(f, "");
    }
    let out = env.call("glob", json!({"pattern": "**", "sort": "path"}));
    assert_eq!(
        files(&out),
        ["a.txt", "keep.log", "sub/deeper/y.txt", "sub/ok.txt"]
    );
    let out = env.call(
        "glob",
        json!({"pattern": "**", "sort": "path", "no_ignore": true}),
    );
    assert_eq!(files(&out).len(), 9);
}

#[test]
fn git_info_exclude_applies_and_dot_git_is_never_listed() {
    let env = Env::new();
    env.write_file(".git/HEAD", "ref: refs/heads/main\n");
    env.write_file(".git/info/exclude", "excluded.txt\n");
    env.write_file("excluded.txt", "");
    env.write_file("kept.txt", "");
    env.write_file("sub/.git", "gitdir: elsewhere\n"); // a worktree's .git file
    let out = env.call(
        "glob",
        json!({"pattern": "**", "hidden": true, "sort": "path"}),
    );
    assert_eq!(files(&out), ["kept.txt"]);
}

#[test]
fn hidden_entries_need_hidden_or_a_dot_component() {
    let env = Env::new();
    env.write_file(".github/workflows/ci.yml", "");
    env.write_file(".github/.secret/x.yml", "");
    env.write_file(".env", "");
    env.write_file("app.yml", "");
    env.write_file(".cache/y.yml", "");
    let get = |v: Value| files(&env.call("glob", v));
    assert_eq!(
        get(json!({"pattern": "*.yml", "sort": "path"})),
        ["app.yml"]
    );
    assert_eq!(
        get(json!({"pattern": "*.yml", "sort": "path", "hidden": true})),
        [
            ".cache/y.yml",
            ".github/.secret/x.yml",
            ".github/workflows/ci.yml",
            "app.yml"
        ]
    );
    // A component that starts with a literal `.` opens that name only.
    assert_eq!(
        get(json!({"pattern": ".github/**/*.yml", "sort": "path"})),
        [".github/workflows/ci.yml"]
    );
    assert_eq!(get(json!({"pattern": ".env"})), [".env"]);
}

#[test]
fn symlinks_are_not_followed_listed_or_looped() {
    let env = Env::new();
    let outside = env.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("leak.txt"), "").unwrap();
    env.write_file("real/a.txt", "");
    symlink(&outside, env.path("escape")).unwrap();
    symlink(env.path("real"), env.path("real/loop")).unwrap();
    symlink(env.path("real/a.txt"), env.path("alias.txt")).unwrap();
    let out = env.call("glob", json!({"pattern": "**", "sort": "path"}));
    out.assert_ok();
    assert_eq!(files(&out), ["real/a.txt"]);
}

#[test]
fn base_path_and_its_display() {
    let env = Env::new();
    env.write_file("src/a.rs", "");
    env.write_file("other/b.rs", "");
    let out = env.call("glob", json!({"pattern": "*.rs", "path": "src"}));
    assert_eq!(files(&out), ["src/a.rs"]);
    // A pattern is relative to the base.
    let out = env.call("glob", json!({"pattern": "a.rs", "path": "./src/"}));
    assert_eq!(files(&out), ["src/a.rs"]);
    // Absolute base inside the root: still shown relative.
    let abs = env.path("src").to_string_lossy().into_owned();
    let out = env.call("glob", json!({"pattern": "*.rs", "path": abs}));
    assert_eq!(files(&out), ["src/a.rs"]);
    // A symlinked base keeps its own name.
    symlink(env.path("src"), env.path("via")).unwrap();
    let out = env.call("glob", json!({"pattern": "*.rs", "path": "via"}));
    assert_eq!(files(&out), ["via/a.rs"]);
}

#[test]
fn command_line_positionals_and_flags() {
    let env = Env::new();
    env.write_file("src/a.rs", "");
    env.write_file("b.rs", "");
    let out = env.run(&["glob", "*.rs", "src", "--sort", "path"], "");
    out.assert_ok();
    assert_eq!(files(&out), ["src/a.rs"]);
    let out = env.run(&["glob", "*.rs", "--format", "text", "--sort", "path"], "");
    assert_eq!(out.stdout, "b.rs\nsrc/a.rs\n");
}

#[test]
fn errors() {
    let env = Env::new();
    env.write_file("file.txt", "");
    let outside = env.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    symlink(&outside, env.path("escape")).unwrap();
    env.call("glob", json!({"pattern": "[z-a]"}))
        .assert_err("invalid_glob");
    env.call("glob", json!({"pattern": "/etc/*"}))
        .assert_err("invalid_glob");
    env.call("glob", json!({"pattern": "../*"}))
        .assert_err("invalid_glob");
    let out = env.call("glob", json!({"pattern": "*", "path": "nope"}));
    out.assert_err("not_found");
    assert_eq!(out.json["error"]["path"], "nope");
    let out = env.call("glob", json!({"pattern": "*", "path": "file.txt"}));
    out.assert_err("not_a_directory");
    assert_eq!(out.json["error"]["path"], "file.txt");
    env.call("glob", json!({"pattern": "*", "path": ".."}))
        .assert_err("outside_root");
    env.call("glob", json!({"pattern": "*", "path": "escape"}))
        .assert_err("outside_root");
    let out = env.call("glob", json!({"pattern": "*", "limit": 0}));
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "limit");
    let out = env.call("glob", json!({"pattern": "*", "sort": "size"}));
    out.assert_err("invalid_input");
    let out = env.call("glob", json!({"path": "."}));
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "pattern");
    env.call("glob", json!({"pattern": ""}))
        .assert_err("invalid_input");
}

#[test]
fn global_git_excludes_apply() {
    let env = Env::new();
    // The harness points HOME at the scratch directory; git's default global excludes file.
    let global = env.dir.path().join(".config/git/ignore");
    std::fs::create_dir_all(global.parent().unwrap()).unwrap();
    std::fs::write(&global, "*.swp\n").unwrap();
    env.write_file("a.txt", "");
    env.write_file("a.txt.swp", "");
    let out = env
        .cmd()
        .env_remove("XDG_CONFIG_HOME")
        .args(["glob", "*"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["data"]["files"], json!(["a.txt"]));
    let out = env.call(
        "glob",
        json!({"pattern": "*", "no_ignore": true, "sort": "path"}),
    );
    assert_eq!(files(&out), ["a.txt", "a.txt.swp"]);
}

#[test]
fn a_name_that_is_not_utf8_is_shown_with_a_replacement_and_a_warning() {
    use std::os::unix::ffi::OsStrExt;
    let env = Env::new();
    let name = std::ffi::OsStr::from_bytes(b"bad\xff.txt");
    std::fs::write(env.root.join(name), "").unwrap();
    let out = env.call("glob", json!({"pattern": "*.txt"}));
    out.assert_ok();
    assert_eq!(files(&out), ["bad\u{FFFD}.txt"]);
    assert!(
        out.data()["warnings"][0]
            .as_str()
            .unwrap()
            .contains("not valid UTF-8")
    );
    assert!(
        out.output()
            .contains("Warning: 1 path(s) are not valid UTF-8")
    );
}

/// SPEC 23.8: a pattern the regex engine refuses (400 nested braces made globset panic inside an
/// `expect`) is `invalid_glob`, never a panic.
#[test]
fn a_glob_too_complex_for_the_engine_is_invalid_glob() {
    let env = Env::new();
    env.write_file("a.txt", "x");
    let deep = format!("{}a{}", "{".repeat(400), "}".repeat(400));
    let out = env.call("glob", json!({"pattern": deep}));
    out.assert_err("invalid_glob");
    assert!(out.output().contains("too complex"), "{}", out.output());
    let out = env.call("grep", json!({"pattern": "x", "glob": deep}));
    assert_eq!(out.code(), "invalid_glob");
}

#[test]
fn gemini_fields_case_sensitive_and_respect_git_ignore() {
    let env = Env::new();
    env.write_file(".gitignore", "skip.RS\n");
    env.write_file("a.RS", "x");
    env.write_file("skip.RS", "x");
    let files = |input: serde_json::Value| env.call("glob", input).data()["files"].clone();
    assert_eq!(files(json!({"pattern": "*.rs"})), json!([]));
    assert_eq!(
        files(json!({"pattern": "*.rs", "case_sensitive": false})),
        json!(["a.RS"])
    );
    let mut all = files(
        json!({"pattern": "*.rs", "case_sensitive": false, "respect_git_ignore": false, "sort": "path"}),
    );
    assert_eq!(all.take(), json!(["a.RS", "skip.RS"]));
    env.call(
        "glob",
        json!({"pattern": "*", "no_ignore": true, "respect_git_ignore": true}),
    )
    .assert_invalid("respect_git_ignore");
}
