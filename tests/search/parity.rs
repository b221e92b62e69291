//! Parity with ripgrep and fd (SPEC 16.3, §9) on a fixture tree full of edge cases: ignore files
//! at several levels, negations, hidden entries, binary and UTF-16 files, symlinks. Skipped (and
//! passing) when `rg` or `fd`/`fdfind` is not installed. The large-codebase check is
//! `bench/parity.py CORPUS`.

use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::os::unix::fs::symlink;
use std::process::Command;
use testkit::Env;

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

fn fd() -> Option<&'static str> {
    ["fd", "fdfind"].into_iter().find(|t| have(t))
}

fn lines(env: &Env, prog: &str, args: &[&str]) -> BTreeSet<String> {
    let out = Command::new(prog)
        .args(args)
        .current_dir(&env.root)
        .env("HOME", env.dir.path())
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.strip_prefix("./").unwrap_or(l).to_string())
        .collect()
}

fn set(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

fn fixture() -> Env {
    let env = Env::new();
    env.write_file(".gitignore", "*.log\n!keep.log\nbuild/\n/rooted.txt\n");
    env.write_file("keep.log", "needle\n");
    env.write_file("drop.log", "needle\n");
    env.write_file("rooted.txt", "needle\n");
    env.write_file("sub/rooted.txt", "needle\n");
    env.write_file("build/out.txt", "needle\n");
    env.write_file("sub/build/x.txt", "needle\n");
    env.write_file("sub/.ignore", "*.tmp\n");
    env.write_file("sub/a.tmp", "needle\n");
    env.write_file("sub/.rgignore", "secret\n");
    env.write_file("sub/secret", "needle\n");
    env.write_file("sub/deep/.gitignore", "!*.tmp\n");
    env.write_file("sub/deep/b.tmp", "needle\n");
    env.write_file(".hidden/h.txt", "needle\n");
    env.write_file(".dotfile", "needle\n");
    env.write_file("bin.dat", b"needle\0\x01");
    env.write_file(
        "late.bin",
        [
            b"needle\n".as_slice(),
            &vec![b'x'; 100_000],
            b"\n\0needle\n",
        ]
        .concat(),
    );
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("needle\n".encode_utf16().flat_map(|u| u.to_le_bytes()))
        .collect();
    env.write_file("wide.txt", utf16);
    env.write_file("src/a.rs", "fn needle() {}\n// Needle\n");
    env.write_file("src/b.c", "needle(1);\n");
    env.write_file("a-c/x.txt", "needle\n");
    env.write_file("a/b.txt", "needle\n");
    symlink(env.path("src"), env.path("link-dir")).unwrap();
    symlink(env.path("src/a.rs"), env.path("link-file.rs")).unwrap();
    env
}

#[test]
fn walker_selection_equals_rg_files() {
    if !have("rg") {
        eprintln!("rg not installed: skipping");
        return;
    }
    let env = fixture();
    for (field, flag) in [
        (None, None),
        (Some("hidden"), Some("--hidden")),
        (Some("no_ignore"), Some("--no-ignore")),
    ] {
        let mut input = json!({"pattern": "**", "limit": 1000});
        let mut args = vec!["--files", "--no-require-git", "-g", "!.git"];
        if let (Some(f), Some(a)) = (field, flag) {
            input[f] = json!(true);
            args.push(a);
        }
        let ours = set(&env.call("glob", input).data()["files"]);
        assert!(
            ours.contains("keep.log") && ours.contains("sub/rooted.txt"),
            "{ours:?}"
        );
        // .ignore outranks a deeper .gitignore's negation (ripgrep's precedence).
        assert_eq!(ours.contains("sub/deep/b.tmp"), field == Some("no_ignore"));
        assert!(!ours.contains("link-file.rs"), "symlinks are not listed");
        assert_eq!(ours, lines(&env, "rg", &args), "{field:?}");
    }
}

/// The rules our handle walker applies are ripgrep's also where they come from above the base
/// (a parent's `.gitignore`), from `.git/info/exclude`, and through a directory pattern that a
/// deeper file whitelists again.
#[test]
fn walker_selection_below_a_subdirectory_equals_rg_there() {
    if !have("rg") {
        eprintln!("rg not installed: skipping");
        return;
    }
    let env = fixture();
    env.write_file(".git/info/exclude", "excluded.txt\n");
    env.write_file("excluded.txt", "x\n");
    env.write_file("sub/excluded.txt", "x\n");
    env.write_file("sub/deep/keep.log", "x\n");
    env.write_file("sub/deep/.ignore", "!keep*.log\n");
    env.write_file("sub/deep/other.log", "x\n");
    env.write_file("sub/gen/.gitignore", "*\n!.gitignore\n!wanted.rs\n");
    env.write_file("sub/gen/wanted.rs", "x\n");
    env.write_file("sub/gen/unwanted.rs", "x\n");
    let ours = set(&env
        .call(
            "glob",
            json!({"pattern": "**", "path": "sub", "limit": 1000}),
        )
        .data()["files"]);
    let ours: BTreeSet<String> = ours
        .iter()
        .map(|p| p.strip_prefix("sub/").unwrap_or(p).to_string())
        .collect();
    let out = Command::new("rg")
        .args(["--files", "--no-require-git", "-g", "!.git"])
        .current_dir(env.root.join("sub"))
        .env("HOME", env.dir.path())
        .output()
        .unwrap();
    let theirs: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect();
    assert!(!ours.contains("excluded.txt"), "{ours:?}");
    assert!(
        ours.contains("gen/wanted.rs") && !ours.contains("gen/unwanted.rs"),
        "{ours:?}"
    );
    assert_eq!(ours, theirs);
    let all = set(&env
        .call("glob", json!({"pattern": "**", "limit": 1000}))
        .data()["files"]);
    assert_eq!(
        all,
        lines(&env, "rg", &["--files", "--no-require-git", "-g", "!.git"])
    );
}

#[test]
fn grep_files_and_lines_equal_rg() {
    if !have("rg") {
        eprintln!("rg not installed: skipping");
        return;
    }
    let env = fixture();
    let base = ["--no-require-git", "-g", "!.git"];
    for (input, args) in [
        (json!({}), vec![]),
        (json!({"-i": true}), vec!["-i"]),
        (json!({"hidden": true}), vec!["--hidden"]),
        (json!({"no_ignore": true}), vec!["--no-ignore"]),
        (json!({"glob": "*.rs"}), vec!["-g", "*.rs"]),
        (json!({"type": "c"}), vec!["-t", "c"]),
    ] {
        let mut i = input.clone();
        i["pattern"] = json!("needle");
        i["head_limit"] = json!(0);
        let ours = set(&env.call("grep", i.clone()).data()["files"]);
        let theirs = lines(
            &env,
            "rg",
            &[&base[..], &["-l"], &args[..], &["needle"]].concat(),
        );
        assert_eq!(ours, theirs, "files {input}");
        i["output_mode"] = json!("content");
        let out = env.call("grep", i);
        let ours: BTreeSet<String> = out.data()["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| format!("{}:{}", m["path"].as_str().unwrap(), m["line"]))
            .collect();
        let theirs: BTreeSet<String> = lines(
            &env,
            "rg",
            &[
                &base[..],
                &["-n", "--no-heading", "--with-filename"],
                &args[..],
                &["needle"],
            ]
            .concat(),
        )
        .into_iter()
        .filter(|l| !l.contains("WARNING") && !l.contains("binary file matches"))
        .map(|l| l.splitn(3, ':').take(2).collect::<Vec<_>>().join(":"))
        .collect();
        assert_eq!(ours, theirs, "content {input}");
        if input == json!({}) {
            // A walked binary file shows the lines before its NUL byte, as rg does.
            assert!(
                ours.contains("late.bin:1") && !ours.contains("bin.dat:1"),
                "{ours:?}"
            );
            assert!(ours.contains("wide.txt:1"), "{ours:?}");
        }
    }
}

#[test]
fn glob_equals_fd() {
    let (Some(fd), true) = (fd(), have("rg")) else {
        eprintln!("fd not installed: skipping");
        return;
    };
    let env = fixture();
    // fd honours .gitignore only in a git repository unless told otherwise; make one.
    std::fs::create_dir_all(env.path(".git")).unwrap();
    for pat in ["*.txt", "*.{rs,c}", "*.tmp", "b*"] {
        let ours = set(&env
            .call("glob", json!({"pattern": pat, "limit": 1000}))
            .data()["files"]);
        assert_eq!(ours, lines(&env, fd, &["-t", "f", "-g", pat]), "{pat}");
    }
}
