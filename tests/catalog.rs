//! The catalog (SPEC 19, 24.3, 24.7) through the binary: finding and checking the file, the
//! exposed set by every entry point, limits, path rules, hooks and command tools.

mod common;

use common::{Env, Out, finish};
use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;
use std::process::Stdio;

/// Writes a catalog outside the root and returns its path.
fn catalog(env: &Env, text: &str) -> PathBuf {
    let p = env.dir.path().join("catalog.toml");
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs the binary with `--config FILE` and more arguments.
fn with(env: &Env, file: &PathBuf, args: &[&str], stdin: &str) -> Out {
    let mut c = env.cmd();
    c.arg("--config")
        .arg(file)
        .args(args)
        .write_stdin(stdin.to_string());
    finish(c)
}

/// Sends JSON-RPC lines to `mcp` and returns the responses by id.
fn mcp(env: &Env, pre: &[&str], calls: &[Value]) -> Vec<Value> {
    let mut cmd = env.std_cmd();
    cmd.args(pre)
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = cmd.spawn().unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
        writeln!(stdin, "{init}").unwrap();
        writeln!(
            stdin,
            "{}",
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
        )
        .unwrap();
        for c in calls {
            writeln!(stdin, "{c}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn by_id(responses: &[Value], id: i64) -> &Value {
    responses
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no response {id} in {responses:#?}"))
}

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
    with(&env, &file, &["nonesuch"], "").assert_err("unknown_tool");
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
    let text = String::from_utf8(checked.stdout).unwrap();
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
        .args(["--profile", "p", "catalog"]);
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
