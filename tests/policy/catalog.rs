//! The catalog (SPEC 19, 24.3, 24.7) through the binary: finding and checking the file, the
//! exposed set by every entry point, limits, path rules, hooks and command tools.

use crate::{by_id, catalog, mcp, with};
use serde_json::{Value, json};
use std::path::PathBuf;
use testkit::{Env, finish};

const PLAN: &str = r#"
[tools.read_file]
description = "Read file contents with line numbers"
[tools.write_file]
[tools.edit]
[tools.glob]
[tools.run_command]
lane = "heavy"

[profiles.plan]
tools = ["read_file", "write_file", "glob"]
mode = "default"
"#;

#[test]
fn a_plan_profile_refuses_run_and_edit_by_every_entry_point() {
    let env = Env::new();
    env.write_file("a.txt", "one\n");
    let file = catalog(&env, PLAN);
    let plan = ["--profile", "plan"];
    // The CLI, by our names and by the aliases the catalog uses or not.
    for (tool, args) in [
        ("run", vec!["run", "echo ran > ran.txt"]),
        (
            "run_command",
            vec!["run_command", "--command", "echo ran > ran.txt"],
        ),
        ("Bash", vec!["Bash", "--command", "echo ran > ran.txt"]),
        (
            "edit",
            vec![
                "edit",
                "a.txt",
                "--old-string",
                "one",
                "--new-string",
                "two",
            ],
        ),
    ] {
        let mut all: Vec<&str> = plan.to_vec();
        all.extend(args);
        let out = with(&env, &file, &all, "");
        out.assert_err("tool_disabled");
        assert_eq!(out.json["error"]["profile"], "plan", "{tool}");
        assert!(
            out.json["error"]["message"]
                .as_str()
                .unwrap()
                .contains("read_file, write_file, glob")
        );
    }
    // call and batch.
    let call = with(
        &env,
        &file,
        &["--profile", "plan", "call"],
        r#"{"name": "run", "input": {"command": "echo ran > ran.txt"}}"#,
    );
    call.assert_err("tool_disabled");
    let batch = with(
        &env,
        &file,
        &["--profile", "plan", "batch"],
        r#"[{"name": "read_file", "input": {"path": "a.txt"}}, {"name": "edit", "input": {"path": "a.txt", "old_string": "one", "new_string": "two"}}]"#,
    );
    assert_eq!(batch.json[0]["ok"], true, "{}", batch.stdout);
    assert_eq!(batch.json[1]["error"]["code"], "tool_disabled");
    assert!(!env.path("ran.txt").exists());
    assert_eq!(env.read_file("a.txt"), b"one\n");
    // schema: exactly the profile's names.
    let schema = with(&env, &file, &["--profile", "plan", "schema"], "");
    let names: Vec<&str> = schema
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["read_file", "write_file", "glob"]);
    assert_eq!(
        schema.json[0]["description"],
        "Read file contents with line numbers"
    );
    // mcp: absent from tools/list; a call of a tool that exists is isError tool_disabled, a
    // name that exists nowhere is -32602.
    let config = file.to_str().unwrap();
    let r = mcp(
        &env,
        &["--config", config, "--profile", "plan"],
        &[
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "run", "arguments": {"command": "echo ran > ran.txt"}}}),
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}}),
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "read_file", "arguments": {"path": "a.txt"}}}),
        ],
    );
    let listed: Vec<&str> = by_id(&r, 1)["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ["read_file", "write_file", "glob"]);
    let disabled = &by_id(&r, 2)["result"];
    assert_eq!(disabled["isError"], true);
    assert!(
        disabled["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("not offered")
    );
    assert_eq!(by_id(&r, 3)["error"]["code"], -32602);
    assert_eq!(by_id(&r, 4)["result"]["isError"], false);
    assert!(!env.path("ran.txt").exists());
}

#[test]
fn catalog_keys_rename_tools_and_without_a_profile_the_keys_are_the_set() {
    let env = Env::new();
    env.write_file("a.txt", "one\n");
    let file = catalog(&env, PLAN);
    let schema = with(&env, &file, &["schema", "--for", "openai"], "");
    let names: Vec<&str> = schema
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["read_file", "write_file", "edit", "glob", "run_command"]
    );
    let read = with(&env, &file, &["read_file", "a.txt"], "");
    read.assert_ok();
    assert_eq!(read.json["tool"], "read");
    // A name not in the catalog whose tool is offered runs (24.7: the tool that runs decides);
    // one whose tool is not offered is disabled.
    with(&env, &file, &["Read", "--file-path", "a.txt"], "").assert_ok();
    with(&env, &file, &["tree"], "").assert_err("tool_disabled");
    // On the command line a word that names nothing is a usage error, as before.
    with(&env, &file, &["nonesuch"], "").assert_err("invalid_input");
    with(
        &env,
        &file,
        &["call"],
        r#"{"name": "nonesuch", "input": {}}"#,
    )
    .assert_err("unknown_tool");
}

#[test]
fn read_only_mode_offers_only_tools_that_change_nothing() {
    let env = Env::new();
    env.write_file("a.txt", "one\n");
    let schema = finish({
        let mut c = env.cmd();
        c.args(["--read-only", "schema"]);
        c
    });
    let names: Vec<&str> = schema
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"read") && names.contains(&"session"),
        "{names:?}"
    );
    assert!(
        !names.contains(&"write") && !names.contains(&"run") && !names.contains(&"edit"),
        "{names:?}"
    );
    let mut c = env.cmd();
    c.args(["--read-only", "write", "b.txt", "--content", "x"]);
    finish(c).assert_err("tool_disabled");
    assert!(!env.path("b.txt").exists());
    // session: show runs, reset does not.
    let mut c = env.cmd();
    c.env("LOOPR_READ_ONLY", "1")
        .args(["call"])
        .write_stdin(r#"{"name": "session", "input": {"action": "reset"}}"#);
    finish(c).assert_err("tool_disabled");
    let mut c = env.cmd();
    c.env("LOOPR_READ_ONLY", "1")
        .args(["call"])
        .write_stdin(r#"{"name": "session", "input": {}}"#);
    finish(c).assert_ok();
}

#[test]
fn problems_come_with_line_and_column_and_check_lists_them_all() {
    let env = Env::new();
    let file = catalog(
        &env,
        "[tools.read]\nlane = \"fast\"\ncolour = 1\n\n[tools.nope]\n\n[profiles.plan]\ntools = [\"read\", \"zzz\"]\n",
    );
    let out = with(&env, &file, &["read", "x"], "");
    out.assert_err("invalid_input");
    let problems = out.json["error"]["problems"].as_array().unwrap();
    let places: Vec<(i64, i64)> = problems
        .iter()
        .map(|p| (p["line"].as_i64().unwrap(), p["column"].as_i64().unwrap()))
        .collect();
    assert_eq!(places, [(2, 8), (3, 1), (5, 8), (8, 1)]);
    assert!(
        out.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains(":2:8:")
    );
    // --check: one FILE:LINE:COLUMN line per problem, exit 2.
    let mut c = env.cmd();
    c.args(["catalog", "--check"])
        .arg(&file)
        .args(["--format", "text"]);
    let checked = c.output().unwrap();
    assert_eq!(checked.status.code(), Some(2));
    // A failure's text goes to stderr, exactly `output`: each problem once (SPEC 31.2).
    assert!(checked.stdout.is_empty());
    let text = String::from_utf8(checked.stderr).unwrap();
    let f = file.display().to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with(&format!("{f}:2:8: ")), "{text}");
    assert!(
        lines[1].starts_with(&format!("{f}:3:1: unknown key `colour`")),
        "{text}"
    );
    // Broken TOML itself.
    let broken = catalog(&env, "[tools.read]\nlane = \n");
    let out = with(&env, &broken, &["read", "x"], "");
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["problems"][0]["line"], 2);
    // The example checks clean.
    let mut c = env.cmd();
    c.args(["catalog", "--check"])
        .arg(example())
        .args(["--format", "text"]);
    let ok = c.output().unwrap();
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
}

#[test]
fn a_catalog_inside_the_root_is_ignored_unless_named() {
    let env = Env::new();
    let cfg = env.path("cfg/loopr/catalog.toml");
    std::fs::create_dir_all(cfg.parent().unwrap()).unwrap();
    std::fs::write(&cfg, "[tools.read]\n").unwrap();
    // Found through XDG_CONFIG_HOME, inside the root: not used (run stays offered).
    let mut c = env.cmd();
    c.env("XDG_CONFIG_HOME", env.path("cfg")).args(["schema"]);
    let all = finish(c);
    assert!(all.json.as_array().unwrap().len() > 5);
    let mut c = env.cmd();
    c.env("XDG_CONFIG_HOME", env.path("cfg"))
        .args(["session"])
        .write_stdin("{}");
    let show = finish(c);
    show.assert_ok();
    assert!(
        show.output().contains("is inside the root"),
        "{}",
        show.output()
    );
    assert_eq!(show.data()["catalog"], Value::Null);
    // Named: used.
    let mut c = env.cmd();
    c.env("LOOPR_CONFIG", &cfg).args(["run", "echo hi"]);
    finish(c).assert_err("tool_disabled");
    // The same file outside the root is found without naming it.
    let outside = env.dir.path().join("xdg/loopr/catalog.toml");
    std::fs::create_dir_all(outside.parent().unwrap()).unwrap();
    std::fs::write(&outside, "[tools.read]\n").unwrap();
    let mut c = env.cmd();
    c.env("XDG_CONFIG_HOME", env.dir.path().join("xdg"))
        .args(["run", "echo hi"]);
    finish(c).assert_err("tool_disabled");
    // `session show` names it and works from the command line even when not offered.
    let mut c = env.cmd();
    c.env("XDG_CONFIG_HOME", env.dir.path().join("xdg"))
        .args(["session"])
        .write_stdin("{}");
    let show = finish(c);
    show.assert_ok();
    assert!(
        show.data()["catalog"]
            .as_str()
            .unwrap()
            .ends_with("xdg/loopr/catalog.toml")
    );
}

#[test]
fn catalog_prints_the_effective_catalog_without_secrets() {
    let env = Env::new();
    let file = catalog(
        &env,
        "[tools.read]\ntimeout_ms = 5000\n[tools.test]\ncommand = \"make check\"\n[profiles.p]\ntools = [\"read\", \"test\", \"glob\"]\n[search]\nprovider = \"brave\"\napi_key = \"sk-very-secret\"\n",
    );
    let mut c = env.cmd();
    c.arg("--config")
        .arg(&file)
        .args(["--profile", "p", "catalog", "--format", "text"]);
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("sk-very-secret"), "{text}");
    assert!(text.contains("api_key = \"<set>\""), "{text}");
    let parsed: toml::Table = toml::from_str(&text).unwrap();
    let tools = parsed["tools"].as_table().unwrap();
    assert_eq!(tools.keys().collect::<Vec<_>>(), ["glob", "read", "test"]);
    assert_eq!(tools["read"]["timeout_ms"].as_integer(), Some(5000));
    assert_eq!(tools["glob"]["lane"].as_str(), Some("net"));
    assert_eq!(tools["test"]["command"].as_str(), Some("make check"));
    assert!(text.contains("# profile: p"));
}

fn example() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/catalog.toml")
}

#[test]
fn a_timeout_stops_a_grep_over_a_large_tree_with_what_it_found() {
    let env = Env::new();
    let n = 3000;
    for i in 0..n {
        env.write_file(&format!("d{}/f{i}.txt", i % 30), "needle\n");
    }
    let file = catalog(&env, "[tools.grep]\ntimeout_ms = 3\n");
    let out = with(&env, &file, &["grep", "needle"], "");
    out.assert_err("timeout");
    assert_eq!(out.json["error"]["timeout_ms"], 3);
    let data = &out.json["data"];
    assert_eq!(data["truncated"], true, "{}", out.stdout);
    let found = data["files"].as_array().expect("grep's files so far").len();
    assert!(found < n, "a partial result: {found} of {n}");
    // Without the limit the same grep finds them all.
    let all = env.run(&["grep", "needle", "--head-limit", "0"], "");
    all.assert_ok();
    assert_eq!(all.data()["files"].as_array().unwrap().len(), n);
}

#[test]
fn max_output_bytes_caps_output_in_bytes_and_marks_it() {
    let env = Env::new();
    let text: String = (0..400).map(|i| format!("é line {i}\n")).collect();
    env.write_file("big.txt", &text);
    let file = catalog(
        &env,
        "[tools.read]\nmax_output_bytes = 300\n[tools.grep]\nmax_output_bytes = 300\n",
    );
    // A lone read is cut by read itself, in bytes, with its own way on (SPEC 25.5).
    let out = with(&env, &file, &["read", "big.txt"], "");
    out.assert_ok();
    assert!(out.output().len() <= 300, "{}", out.output().len());
    assert!(
        out.output().contains("; continue with offset="),
        "{}",
        out.output()
    );
    assert_eq!(out.data()["truncated"], true);
    // Other tools are cut by the catalog.
    let out = with(
        &env,
        &file,
        &["grep", "line", "--output-mode", "content", "--no-n"],
        "",
    );
    out.assert_ok();
    assert!(out.output().len() <= 300, "{}", out.output().len());
    assert!(out.output().ends_with("narrow the call to see the rest]\n"));
    assert_eq!(out.data()["truncated"], true);
    // The kept lines are whole.
    let lines: Vec<&str> = out.output().lines().collect();
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.ends_with(|c: char| c.is_ascii_digit()))
    );
}

#[test]
fn denied_and_read_only_paths_hold_through_symlinks_and_walkers_skip_them() {
    let env = Env::new();
    env.write_file("secrets/key.txt", "needle hush\n");
    env.write_file(".env", "needle TOKEN=1\n");
    env.write_file("vendor/lib.txt", "needle vendored\n");
    env.write_file("src/a.txt", "needle here\n");
    std::os::unix::fs::symlink("../secrets/key.txt", env.path("src/link.txt")).unwrap();
    std::os::unix::fs::symlink("../secrets", env.path("src/dir")).unwrap();
    std::os::unix::fs::symlink("../vendor", env.path("src/vend")).unwrap();
    let file = catalog(
        &env,
        "[paths]\ndeny = [\".env\", \"secrets/**\"]\nread_only = [\"vendor/**\"]\n",
    );
    let run = |args: &[&str], stdin: &str| with(&env, &file, args, stdin);
    for p in ["secrets/key.txt", "src/link.txt", "src/dir/key.txt", ".env"] {
        let out = run(&["read", p], "");
        out.assert_err("path_denied");
        assert!(
            !out.stdout.contains("hush") && !out.stdout.contains("TOKEN"),
            "{p}: {}",
            out.stdout
        );
    }
    // Writes through a link into a denied or read-only directory are refused too.
    run(&["write", "src/dir/new.txt", "--content", "x"], "").assert_err("path_denied");
    assert!(!env.path("secrets/new.txt").exists());
    run(&["read", "vendor/lib.txt"], "").assert_ok();
    run(&["write", "vendor/lib.txt", "--content", "x"], "").assert_err("path_denied");
    run(&["write", "src/vend/new.txt", "--content", "x"], "").assert_err("path_denied");
    assert!(!env.path("vendor/new.txt").exists());
    assert_eq!(env.read_file("vendor/lib.txt"), b"needle vendored\n");
    // Walkers skip denied paths silently, as if absent; read-only ones are listed.
    let grep = run(&["grep", "needle", "--hidden"], "");
    grep.assert_ok();
    let files: Vec<&str> = grep.data()["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert_eq!(files, ["src/a.txt", "vendor/lib.txt"]);
    let glob = run(&["glob", "**/*", "--hidden"], "");
    assert!(
        !glob.stdout.contains("secrets") && !glob.stdout.contains(".env"),
        "{}",
        glob.stdout
    );
    let tree = run(&["tree", "--hidden"], "");
    // (secrets/ itself is not matched by `secrets/**`, and a link shows its own target text.)
    assert!(
        !tree.output().contains("── key.txt") && !tree.output().contains(".env"),
        "{}",
        tree.output()
    );
    // stat gives the denied path an entry with path_denied.
    let stat = run(&["stat", "secrets/key.txt"], "");
    assert_eq!(
        stat.json["data"]["error"]["code"], "path_denied",
        "{}",
        stat.stdout
    );
}

/// A hook script in the scratch dir (outside the root).
fn script(env: &Env, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let p = env.dir.path().join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn a_pre_hook_blocks_with_exit_2_and_one_that_errors_only_warns() {
    let env = Env::new();
    let seen = env.dir.path().join("seen.json");
    let block = script(
        &env,
        "block.sh",
        &format!(
            "cat > {}\necho 'no writes to .lock files' >&2\nexit 2",
            seen.display()
        ),
    );
    let broken = script(&env, "broken.sh", "echo 'policy server down' >&2\nexit 1");
    let file = catalog(
        &env,
        &format!(
            "[[hooks.pre]]\ntools = [\"write\"]\ncommand = \"{block}\"\n\n[[hooks.pre]]\nmatcher = \"Edit|edit\"\ncommand = \"{broken}\"\n"
        ),
    );
    // Called by Claude Code's name: the hook selects the tool that runs.
    let out = with(
        &env,
        &file,
        &["call"],
        r#"{"name": "Write", "input": {"file_path": "x.lock", "content": "1"}}"#,
    );
    out.assert_err("blocked_by_hook");
    assert!(
        out.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no writes to .lock files")
    );
    assert!(!env.path("x.lock").exists());
    let stdin: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(stdin["tool"], "write");
    assert_eq!(stdin["name"], "Write");
    assert_eq!(stdin["hook_event_name"], "PreToolUse");
    assert_eq!(stdin["tool_name"], "Write");
    assert_eq!(stdin["input"]["file_path"], "x.lock");
    assert_eq!(stdin["tool_input"], stdin["input"]);
    assert_eq!(stdin["session"], "default");
    // An erroring hook is a warning; the call runs.
    env.write_file("a.txt", "one\n");
    with(&env, &file, &["read", "a.txt"], "").assert_ok();
    let out = with(
        &env,
        &file,
        &[
            "edit",
            "a.txt",
            "--old-string",
            "one",
            "--new-string",
            "two",
        ],
        "",
    );
    out.assert_ok();
    assert_eq!(env.read_file("a.txt"), b"two\n");
    let warned = out.data()["warnings"].to_string();
    assert!(
        warned.contains("policy server down") && warned.contains("exit 1"),
        "{warned}"
    );
}

#[test]
fn a_post_hooks_lint_output_reaches_output_and_checks() {
    let env = Env::new();
    let lint = script(&env, "lint.sh", "echo \"lint: $* has 1 problem\"\nexit 1");
    let file = catalog(
        &env,
        &format!(
            "[[hooks.post]]\ntools = [\"write\", \"edit\"]\nfiles = [\"*.py\"]\ncommand = \"{lint} {{paths}}\"\ntimeout_ms = 20000\n"
        ),
    );
    let out = with(
        &env,
        &file,
        &["write", "pkg/my mod.py", "--content", "x = 1\n"],
        "",
    );
    out.assert_ok();
    let checks = out.data()["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 1);
    assert_eq!(checks[0]["exit_code"], 1);
    // Each path as `./path`, so none is read as an option (SPEC 31.4).
    assert_eq!(checks[0]["command"], format!("{lint} './pkg/my mod.py'"));
    assert!(
        checks[0]["output"]
            .as_str()
            .unwrap()
            .contains("lint: ./pkg/my mod.py has 1 problem")
    );
    // After the tool's own output, and the change stays.
    let text = out.output();
    let wrote = text.find("pkg/my mod.py").unwrap();
    let linted = text.find("lint: ./pkg/my mod.py has 1 problem").unwrap();
    assert!(wrote < linted, "{text}");
    assert_eq!(env.read_file("pkg/my mod.py"), b"x = 1\n");
    // A file the hook's `files` do not match runs no hook.
    let other = with(&env, &file, &["write", "notes.md", "--content", "hi\n"], "");
    other.assert_ok();
    assert!(other.data().get("checks").is_none());
}

#[test]
fn a_post_hook_that_times_out_says_so_and_the_call_still_succeeds() {
    let env = Env::new();
    let slow = script(&env, "slow.sh", "sleep 30");
    let file = catalog(
        &env,
        &format!("[[hooks.post]]\ncommand = \"{slow}\"\ntimeout_ms = 300\n"),
    );
    let out = with(&env, &file, &["write", "a.txt", "--content", "x\n"], "");
    out.assert_ok();
    let check = &out.data()["checks"][0];
    assert_eq!(check["exit_code"], Value::Null);
    assert_eq!(check["timed_out"], true);
}

#[test]
fn command_tools_run_their_command_with_args_quoted() {
    let env = Env::new();
    let file = catalog(
        &env,
        "[tools.hello]\ncommand = \"printf '%s|' hello\"\nlane = \"no-net\"\n[tools.validate]\n[tools.build]\n[tools.run]\nlane = \"no-net\"\n",
    );
    let out = with(
        &env,
        &file,
        &["call"],
        r#"{"name": "hello", "input": {"args": ["a b", "$HOME", "it's"]}}"#,
    );
    out.assert_ok();
    assert_eq!(out.json["tool"], "hello");
    assert!(
        out.output().starts_with("hello|a b|$HOME|it's|"),
        "{}",
        out.output()
    );
    assert_eq!(
        out.data()["command"],
        "printf '%s|' hello 'a b' '$HOME' 'it'\\''s'"
    );
    // validate without [project] validate, build with nothing to detect: invalid_input saying how.
    let v = with(&env, &file, &["validate"], "{}");
    v.assert_err("invalid_input");
    assert!(
        v.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("[project] validate")
    );
    let b = with(&env, &file, &["call"], r#"{"name": "build", "input": {}}"#);
    b.assert_err("invalid_input");
    // Detected from the root.
    env.write_file("Makefile", "all:\n\t@echo built-by-make\n");
    let b = with(&env, &file, &["call"], r#"{"name": "build", "input": {}}"#);
    b.assert_ok();
    assert_eq!(b.data()["command"], "make");
    assert!(b.output().contains("built-by-make"));
    // The no-net lane: run may not ask for the network.
    let r = with(
        &env,
        &file,
        &["call"],
        r#"{"name": "run", "input": {"command": "true", "network": "inherit"}}"#,
    );
    r.assert_invalid("network");
}

#[test]
fn the_example_catalog_checks_rust_edits_with_cargo() {
    let env = Env::new();
    // A stub cargo first on PATH: fast and harmless, and it says how it was called.
    let bin = env.dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let calls = env.dir.path().join("cargo-calls");
    {
        use std::os::unix::fs::PermissionsExt;
        let stub = bin.join("cargo");
        std::fs::write(
            &stub,
            format!("#!/bin/sh\necho \"$*\" >> {}\necho \"src/lib.rs:1:5: warning: unused variable: stub\"\n", calls.display()),
        )
        .unwrap();
        std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let go = |args: &[&str], stdin: &str| {
        let mut c = env.cmd();
        c.env("PATH", &path)
            .arg("--config")
            .arg(example())
            .args(args)
            .write_stdin(stdin.to_string());
        finish(c)
    };
    // A code loop writes Rust: the post hook runs cargo check and its verdict is in output.
    let out = go(
        &[
            "--profile",
            "code",
            "write_file",
            "--path",
            "src/lib.rs",
            "--content",
            "fn f() { let stub = 1; }\n",
        ],
        "",
    );
    out.assert_ok();
    assert_eq!(
        out.data()["checks"][0]["command"],
        "cargo check --message-format short"
    );
    assert!(
        out.output().contains("warning: unused variable: stub"),
        "{}",
        out.output()
    );
    // A Markdown write runs no check.
    go(
        &[
            "--profile",
            "code",
            "write_file",
            "--path",
            "notes.md",
            "--content",
            "hi\n",
        ],
        "",
    )
    .assert_ok();
    // test and validate run the [project] commands.
    let t = go(
        &["--profile", "code", "call"],
        r#"{"name": "test", "input": {"args": ["catalog"]}}"#,
    );
    t.assert_ok();
    assert_eq!(t.data()["command"], "cargo test catalog");
    let recorded = std::fs::read_to_string(&calls).unwrap();
    assert_eq!(
        recorded.lines().collect::<Vec<_>>(),
        ["check --message-format short", "test catalog"]
    );
    // A plan loop has no run and no test; the phase loop validates but writes nothing.
    go(
        &["--profile", "plan", "run_command", "--command", "true"],
        "",
    )
    .assert_err("tool_disabled");
    go(
        &["--profile", "plan", "call"],
        r#"{"name": "test", "input": {}}"#,
    )
    .assert_err("tool_disabled");
    go(
        &[
            "--profile",
            "phase",
            "write_file",
            "--path",
            "x.rs",
            "--content",
            "x",
        ],
        "",
    )
    .assert_err("tool_disabled");
    // Path rules: .env is denied.
    env.write_file(".env", "TOKEN=1\n");
    go(&["--profile", "code", "read_file", "--path", ".env"], "").assert_err("path_denied");
}

#[test]
fn the_heavy_lane_runs_commands_at_nice_10_and_allows_long_timeouts() {
    let env = Env::new();
    let file = catalog(
        &env,
        "[tools.niceness]\ncommand = \"nice\"\nlane = \"heavy\"\ntimeout_ms = 1800000\n[tools.run]\nlane = \"heavy\"\n[tools.Bash]\nlane = \"net\"\n",
    );
    let out = with(
        &env,
        &file,
        &["call"],
        r#"{"name": "niceness", "input": {}}"#,
    );
    out.assert_ok();
    // Nice 10 itself (SPEC 19: the heavy lane runs "at nice 10"; run sets it with setpriority),
    // not 10 more than the caller's: the same under `nice cargo test`.
    assert!(out.output().starts_with("10\n"), "{}", out.output());
    // run in the heavy lane may ask for up to an hour; outside it 600,000 is the most.
    with(&env, &file, &["run", "true", "--timeout-ms", "1800000"], "").assert_ok();
    let outside = with(
        &env,
        &file,
        &["call"],
        r#"{"name": "Bash", "input": {"command": "true", "timeout": 1800000}}"#,
    );
    // Bash has a key of its own in the net lane: its entry decides, not run's. The field is
    // named as Claude Code's Bash names it (SPEC 31.1).
    outside.assert_invalid("timeout");
    let file = catalog(&env, "[tools.run]\n");
    with(&env, &file, &["run", "true", "--timeout-ms", "1800000"], "").assert_invalid("timeout_ms");
}

/// SPEC 24.3, 24.7: `validate` without `[project] validate` runs the validation_command of the
/// session's latest phase artifact (or the phase named), only where the profile also offers
/// `run`: a command a model wrote never runs in a loop that may not run commands.
#[test]
fn validate_runs_the_latest_phases_command_only_where_run_is_offered() {
    let env = Env::new();
    let file = catalog(
        &env,
        "[tools.validate]\n[tools.run]\n[tools.create_phase]\n[profiles.code]\ntools = [\"validate\", \"run\", \"create_phase\"]\n[profiles.plan]\ntools = [\"validate\", \"create_phase\"]\n",
    );
    let phase = |name: &str, cmd: &str| {
        json!({"name": name, "title": "T", "objective": "O.", "tasks": [{"description": "d"}], "validation_command": cmd})
            .to_string()
    };
    with(
        &env,
        &file,
        &["--profile", "code", "create_phase"],
        &phase("first", "echo first-phase"),
    )
    .assert_ok();
    std::thread::sleep(std::time::Duration::from_millis(20));
    with(
        &env,
        &file,
        &["--profile", "code", "create_phase"],
        &phase("second", "echo second-phase"),
    )
    .assert_ok();
    let out = with(&env, &file, &["--profile", "code", "validate"], "{}");
    out.assert_ok();
    assert!(out.output().contains("second-phase"), "{}", out.output());
    assert_eq!(out.data()["command"], "echo second-phase");
    let named = with(
        &env,
        &file,
        &["--profile", "code", "validate"],
        r#"{"phase": "first"}"#,
    );
    assert!(named.output().contains("first-phase"), "{}", named.output());
    with(
        &env,
        &file,
        &["--profile", "code", "validate"],
        r#"{"phase": "nope"}"#,
    )
    .assert_err("not_found");
    // The plan profile has no run: the phase's command is not run.
    with(&env, &file, &["--profile", "plan", "validate"], "{}").assert_err("tool_disabled");
}

/// SPEC 25.8: the example catalog holds seed 001's four loop types, each with the loop tools it
/// needs, and every one of them runs under its profile.
#[test]
fn the_example_catalog_runs_seed_001s_four_loops() {
    let env = Env::new();
    let mut check = env.cmd();
    check.args(["catalog", "--check"]).arg(example());
    finish(check).assert_ok();
    // `test` runs [project] test (cargo test): a stub cargo keeps it fast and harmless.
    let bin = env.dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        let stub = bin.join("cargo");
        std::fs::write(&stub, "#!/bin/sh\necho \"cargo $*\"\n").unwrap();
        std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let call = |profile: &str, name: &str, input: Value| {
        let mut c = env.cmd();
        c.env("PATH", &path)
            .arg("--config")
            .arg(example())
            .args(["--profile", profile, "--session", profile, "call"])
            .write_stdin(json!({"name": name, "input": input}).to_string());
        finish(c)
    };
    let done = || json!({"summary": "done"});
    call(
        "plan",
        "create_plan",
        json!({"title": "Parser", "overview": "A parser.", "specs": [{"name": "lexer", "title": "Lexer", "description": "Tokens."}]}),
    )
    .assert_ok();
    call("plan", "complete_task", done()).assert_ok();
    call("plan", "run_command", json!({"command": "true"})).assert_err("tool_disabled");
    let phases: Vec<Value> = (1..=3)
        .map(|i| json!({"name": format!("p{i}"), "title": format!("Phase {i}"), "description": "Work."}))
        .collect();
    call(
        "spec",
        "create_spec",
        json!({"name": "lexer", "title": "Lexer", "overview": "Tokens.", "phases": phases}),
    )
    .assert_ok();
    call(
        "phase",
        "create_phase",
        json!({"name": "p1", "title": "Phase 1", "objective": "Tokens.", "tasks": [{"description": "Write it."}], "validation_command": "true"}),
    )
    .assert_ok();
    call("phase", "write_file", json!({"path": "x", "content": "x"})).assert_err("tool_disabled");
    // The code loop: seed 000's names and fields, the tests, a job tool.
    call(
        "code",
        "share_data",
        json!({"target_exec_ids": ["plan"], "data_type": "note", "data": {"k": 1}}),
    )
    .assert_ok();
    call(
        "code",
        "query_loop",
        json!({"target_exec_id": "plan", "question": "Which lexer?", "timeout_ms": 200}),
    )
    .assert_err("timeout");
    let t = call("code", "test", json!({}));
    t.assert_ok();
    assert!(t.output().contains("cargo test"), "{}", t.output());
    let bg = call(
        "code",
        "run_command",
        json!({"command": "sleep 30", "background": true}),
    );
    bg.assert_ok();
    let id = bg.data()["id"].as_str().unwrap().to_string();
    call("code", "jobs", json!({"action": "kill", "id": id})).assert_ok();
    call("code", "complete_task", done()).assert_ok();
}

/// SPEC 31.2: `catalog` and `catalog --check` print one envelope in JSON mode (the TOML, or
/// every problem once, in `output`), and `--format text` prints exactly that `output`.
#[test]
fn catalog_and_its_check_print_one_envelope_with_every_problem_once() {
    let env = Env::new();
    let bad = catalog(
        &env,
        "[tools.read]\nmax_output_bytes = \"x\"\n[tools.nope]\n",
    );
    let mut c = env.cmd();
    c.args(["catalog", "--check"]).arg(&bad);
    let out = finish(c);
    assert_eq!(out.status, 2, "{}", out.stdout);
    assert_eq!(out.json["ok"], false);
    assert_eq!(out.json["tool"], "catalog");
    let output = out.json["output"].as_str().unwrap();
    assert_eq!(out.json["error"]["problems"].as_array().unwrap().len(), 2);
    assert_eq!(output.lines().count(), 2, "{output}");
    assert_eq!(output.matches("max_output_bytes").count(), 1, "{output}");
    assert_eq!(output.matches("[tools.nope]").count(), 1, "{output}");
    let mut text = env.cmd();
    text.args(["catalog", "--check"])
        .arg(&bad)
        .args(["--format", "text"]);
    let text = finish(text);
    assert_eq!(text.stderr, output);
    // A clean file: an envelope too, not a bare object.
    let good = catalog(&env, "[tools.read]\ndescription = \"x\"\n");
    let mut c = env.cmd();
    c.args(["catalog", "--check"]).arg(&good);
    let out = finish(c);
    out.assert_ok();
    assert_eq!(out.json["data"]["problems"], serde_json::json!([]));
    assert!(out.json["output"].as_str().unwrap().ends_with(": ok\n"));
    // The effective catalog: the TOML in `output`, parseable.
    let mut c = env.cmd();
    c.arg("--config").arg(&good).arg("catalog");
    let out = finish(c);
    out.assert_ok();
    let toml_text = out.json["output"].as_str().unwrap();
    let parsed: toml::Table = toml::from_str(toml_text).unwrap();
    assert_eq!(parsed["tools"]["read"]["description"].as_str(), Some("x"));
    let mut c = env.cmd();
    c.arg("--config")
        .arg(&good)
        .args(["catalog", "--format", "text"]);
    assert_eq!(finish(c).stdout, toml_text);
}

/// SPEC 31.1 on the command line: `--client` / `LOOPR_CLIENT` size results for the agent that
/// passes them on, the catalog's `[client] max_result_chars` overrides any client, a tool that
/// pages (read) pages under it and one that does not is cut to whole lines with a line saying
/// by whom; an unknown client and a size too small are clear errors.
#[test]
fn results_fit_the_client_named_on_the_command_line_or_in_the_catalog() {
    let env = Env::new();
    let body: String = (0..3_000)
        .map(|i| format!("line {i:04} {}\n", "y".repeat(40)))
        .collect();
    env.write_file("big.txt", &body);
    let read = |args: &[&str], vars: &[(&str, &str)]| {
        let mut c = env.cmd();
        c.args(args).args(["read", "big.txt"]);
        for (k, v) in vars {
            c.env(k, v);
        }
        let out = finish(c);
        out.assert_ok();
        out.json["output"].as_str().unwrap().to_string()
    };
    let codex = read(&["--client", "codex"], &[]);
    assert!(codex.chars().count() <= 40_000 && codex.chars().count() > 38_000);
    assert!(codex.trim_end().ends_with(')') && codex.contains("continue with offset="));
    let gemini = read(&[], &[("LOOPR_CLIENT", "gemini")]);
    assert!(gemini.chars().count() <= 36_000 && gemini.chars().count() > 34_000);
    assert!(read(&["--client", "claude-code"], &[]).chars().count() > 99_000);
    // An unknown client: invalid_input naming the field and the clients known.
    let mut c = env.cmd();
    c.args(["--client", "vim", "read", "big.txt"]);
    let out = finish(c);
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "client");
    assert!(
        out.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("codex")
    );
    // The catalog's size wins over the client's.
    let small = catalog(&env, "[client]\nmax_result_chars = 5000\n");
    let cfg = small.to_str().unwrap();
    let out = read(&["--config", cfg, "--client", "codex"], &[]);
    assert!(out.chars().count() <= 5_000, "{}", out.chars().count());
    assert!(out.contains("continue with offset="));
    // glob does not page by offset: cut to whole lines, saying by whom.
    for i in 0..400 {
        env.write_file(&format!("many/file-{i:03}-with-a-longish-name.txt"), "");
    }
    let mut c = env.cmd();
    c.args(["--config", cfg, "glob", "many/*.txt", "--limit", "400"]);
    let out = finish(c);
    out.assert_ok();
    let text = out.json["output"].as_str().unwrap();
    assert!(text.chars().count() <= 5_000, "{}", text.chars().count());
    assert!(
        text.ends_with("[output cut to the 5000 characters the catalog's [client] (max_result_chars) passes on whole; narrow the call to see the rest]\n"),
        "{}",
        &text[text.len() - 200..]
    );
    assert_eq!(out.json["data"]["truncated"], true);
    // Too small to say anything: a catalog problem.
    let tiny = catalog(&env, "[client]\nmax_result_chars = 10\n");
    let mut c = env.cmd();
    c.args(["catalog", "--check"]).arg(&tiny);
    let out = finish(c);
    assert_eq!(out.status, 2);
    assert!(
        out.json["output"]
            .as_str()
            .unwrap()
            .contains("max_result_chars must be at least 1000")
    );
}
