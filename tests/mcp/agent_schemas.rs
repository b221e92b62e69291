//! Every alias replayed from its agent's own schema (SPEC 22.5–22.7, issue 17): the tool
//! schemas are read from the agents' packages, fetched by this test from npm and pinned —
//! Claude Code's `sdk-tools.d.ts` (1.0.128, which still has MultiEdit and BashOutput, and
//! 2.0.77) and Gemini CLI's built tool sources (`@google/gemini-cli-core` 0.1.19, the version
//! whose names SPEC 22.7 uses). Codex publishes no schema package: its schemas are copied from
//! codex-rs into src/dialects/schemas/codex.json and replayed from there.
//!
//! For each tool: the schema we offer under its name (a catalog key, 24.7) has exactly their
//! fields and required fields, and a call that gives every one of their fields — written from
//! their schema, each value of the type they declare — runs through `call` as the agent would
//! send it. LOOPR_SKIP_MCP_CLIENT=1 skips (no npm).

use testkit::server;

use crate::clients;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use testkit::{Env, Out};

const CLAUDE_OLD: &str = "@anthropic-ai/claude-code@1.0.128";
const CLAUDE: &str = "@anthropic-ai/claude-code@2.0.77";
const GEMINI: &str = "@google/gemini-cli-core@0.1.19";

/// One field of theirs: its name, whether required, and its JSON type.
#[derive(Debug, Clone, PartialEq)]
struct Field {
    required: bool,
    kind: &'static str,
    /// Has a `default` (a field Claude Code's types list as required because zod fills it).
    default: bool,
}

type Schema = BTreeMap<String, Field>;

/// The input interfaces of `sdk-tools.d.ts` (generated from the tools' JSON schemas): top-level
/// fields only, at two spaces of indentation.
fn claude_interfaces(dts: &Path) -> BTreeMap<String, Schema> {
    let text = std::fs::read_to_string(dts).unwrap();
    let mut all = BTreeMap::new();
    let mut current: Option<(String, Schema)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("export interface ") {
            if let Some((name, fields)) = current.take() {
                all.insert(name, fields);
            }
            current = Some((rest.trim_end_matches(" {").to_string(), Schema::new()));
            continue;
        }
        let Some((_, fields)) = current.as_mut() else {
            continue;
        };
        let Some(decl) = line.strip_prefix("  ").filter(|l| !l.starts_with(' ')) else {
            continue;
        };
        let Some((name, ty)) = decl.split_once(':') else {
            continue;
        };
        if name.starts_with('/') || name.starts_with('*') || name.starts_with('[') {
            continue;
        }
        let required = !name.ends_with('?');
        let name = name.trim_end_matches('?').trim_matches('"').to_string();
        let ty = ty.trim();
        let kind = if ty.trim_end_matches(';').ends_with("[]") {
            "array"
        } else if ty.starts_with("string") || ty.starts_with('"') {
            "string"
        } else if ty.starts_with("number") {
            "number"
        } else if ty.starts_with("boolean") {
            "boolean"
        } else if ty.starts_with('{') || ty.ends_with("[];") || ty.starts_with("string[]") {
            "array"
        } else {
            "other"
        };
        fields.insert(
            name,
            Field {
                required,
                kind,
                default: false,
            },
        );
    }
    if let Some((name, fields)) = current {
        all.insert(name, fields);
    }
    all
}

/// Gemini's tools, by name, from its built sources (tests/mcp/gemini_schemas.mjs).
fn gemini_tools(package: &Path) -> BTreeMap<String, Schema> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/gemini_schemas.mjs");
    let out = std::process::Command::new("node")
        .arg(script)
        .arg(package.join("dist/src/tools"))
        .output()
        .expect("node is needed to read Gemini CLI's schemas");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let all: Map<String, Value> = serde_json::from_slice(&out.stdout).unwrap();
    all.into_iter()
        .map(|(name, s)| (name, from_json_schema(&s)))
        .collect()
}

fn from_json_schema(s: &Value) -> Schema {
    let required: Vec<&str> = s["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    s["properties"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, p)| {
            let kind = match p["type"].as_str().unwrap_or("other") {
                "string" => "string",
                "number" | "integer" => "number",
                "boolean" => "boolean",
                "array" => "array",
                "object" => "object",
                _ => "other",
            };
            let f = Field {
                required: required.contains(&k.as_str()),
                kind,
                default: p.get("default").is_some(),
            };
            (k.clone(), f)
        })
        .collect()
}

/// The schema `loopr-tool schema` offers for `name` when a catalog makes it a key of
/// `dialect` (SPEC 25.6: without one, a name the seeds use would be the seeds').
fn offered(env: &Env, dialect: &str, name: &str) -> Schema {
    let cfg = env.dir.path().join(format!("{name}.toml"));
    std::fs::write(&cfg, format!("[tools.{name}]\ndialect = \"{dialect}\"\n")).unwrap();
    let out = env.run(&["--config", cfg.to_str().unwrap(), "schema"], "");
    let defs: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let def = defs
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == name)
        .unwrap();
    from_json_schema(&def["input_schema"])
}

/// A value of `kind` for a field no sample names (never used by the samples below, which
/// give every field; it keeps the check honest when a new field appears).
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
        Value::Null => "null",
    }
}

/// Checks that the sample gives exactly their fields, with their types, and that a catalog key
/// of `dialect` offers their schema; then runs it. Returns the envelope.
#[track_caller]
fn replay(
    env: &Env,
    dialect: &str,
    theirs: &Schema,
    name: &str,
    sample: Value,
    args: &[&str],
) -> Out {
    let mut given: Vec<&String> = sample.as_object().unwrap().keys().collect();
    given.sort();
    let want: Vec<&String> = theirs.keys().collect();
    assert_eq!(
        given, want,
        "{name}: the sample must give every field of the agent's schema"
    );
    for (field, f) in theirs {
        let kind = json_kind(&sample[field]);
        if f.kind != "other" {
            assert_eq!(
                kind, f.kind,
                "{name}.{field}: the agent declares {}",
                f.kind
            );
        }
    }
    let ours = offered(env, dialect, name);
    assert_eq!(
        ours.keys().collect::<Vec<_>>(),
        want,
        "{name}: the schema we offer must have the agent's fields"
    );
    for (field, f) in theirs {
        // zod's .default() makes a field required in Claude Code's types, optional to a model
        let same = ours[field].required == f.required || (f.required && ours[field].default);
        assert!(
            same,
            "{name}.{field}: required is {} for the agent",
            f.required
        );
    }
    call(env, name, sample, args)
}

#[track_caller]
fn call(env: &Env, name: &str, sample: Value, args: &[&str]) -> Out {
    let mut cmd = vec!["--allow-private"];
    cmd.extend_from_slice(args);
    cmd.push("call");
    let out = env.run(&cmd, &json!({"name": name, "input": sample}).to_string());
    assert_ne!(out.code(), "invalid_input", "{name}: {}", out.stdout);
    out
}

fn setup() -> (Env, server::Server) {
    let env = Env::new();
    env.write_file("f.txt", "alpha\nbeta\ngamma\n");
    env.write_file("g.txt", "one\ntwo\n");
    env.write_file(
        "nb.ipynb",
        r#"{"cells": [{"cell_type": "code", "execution_count": null, "id": "c1", "metadata": {}, "outputs": [], "source": ["x = 1"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"#,
    );
    std::fs::create_dir_all(env.path("sub")).unwrap();
    let site = server::Server::start(|_| server::html("<html><body><p>the page</p></body></html>"));
    (env, site)
}

#[test]
fn claude_codes_tools_replay_from_its_own_schemas() {
    if clients::skipped("claude_codes_tools_replay_from_its_own_schemas") {
        return;
    }
    let new = claude_interfaces(&clients::npm_pack(CLAUDE).join("sdk-tools.d.ts"));
    let old = claude_interfaces(&clients::npm_pack(CLAUDE_OLD).join("sdk-tools.d.ts"));
    let (env, site) = setup();
    let abs = |rel: &str| env.path(rel).to_string_lossy().into_owned();
    let root = abs(".");
    let job = env.call(
        "run",
        json!({"command": "echo job; sleep 0.2", "background": true}),
    );
    let id = job.data()["id"].as_str().unwrap().to_string();

    let cases: Vec<(&str, &BTreeMap<String, Schema>, &str, Value)> = vec![
        (
            "Read",
            &new,
            "FileReadInput",
            json!({"file_path": abs("f.txt"), "offset": 0, "limit": 2}),
        ),
        (
            "Write",
            &new,
            "FileWriteInput",
            json!({"file_path": abs("w.txt"), "content": "written\n"}),
        ),
        (
            "Edit",
            &new,
            "FileEditInput",
            json!({"file_path": abs("f.txt"), "old_string": "beta", "new_string": "BETA", "replace_all": false}),
        ),
        (
            "MultiEdit",
            &old,
            "FileMultiEditInput",
            json!({"file_path": abs("f.txt"), "edits": [{"old_string": "gamma", "new_string": "GAMMA", "replace_all": false}]}),
        ),
        (
            "Glob",
            &new,
            "GlobInput",
            json!({"pattern": "*.txt", "path": root}),
        ),
        (
            "Grep",
            &new,
            "GrepInput",
            json!({"pattern": "one", "path": root, "glob": "*.txt,*.md", "output_mode": "content", "-B": 1, "-A": 1, "-C": 1, "-n": true, "-i": true, "type": "txt", "head_limit": 10, "offset": 0, "multiline": false}),
        ),
        (
            "NotebookEdit",
            &new,
            "NotebookEditInput",
            json!({"notebook_path": abs("nb.ipynb"), "cell_id": "c1", "new_source": "x = 2", "cell_type": "code", "edit_mode": "replace"}),
        ),
        (
            "TodoWrite",
            &new,
            "TodoWriteInput",
            json!({"todos": [{"content": "a", "status": "in_progress", "activeForm": "Doing a"}]}),
        ),
        (
            "WebFetch",
            &new,
            "WebFetchInput",
            json!({"url": site.url("/p"), "prompt": "summarise"}),
        ),
        (
            "Bash",
            &new,
            "BashInput",
            json!({"command": "echo hi", "timeout": 10000, "description": "Say hi", "run_in_background": false, "dangerouslyDisableSandbox": false}),
        ),
        (
            "BashOutput",
            &old,
            "BashOutputInput",
            json!({"bash_id": id, "filter": "job"}),
        ),
        (
            "TaskOutput",
            &new,
            "TaskOutputInput",
            json!({"task_id": id, "block": true, "timeout": 5000}),
        ),
        ("KillShell", &new, "KillShellInput", json!({"shell_id": id})),
        (
            "WebSearch",
            &new,
            "WebSearchInput",
            json!({"query": "loopr", "allowed_domains": ["a.test"], "blocked_domains": ["b.test"]}),
        ),
    ];
    // Edit and MultiEdit need a read first, as in Claude Code.
    env.read("f.txt");
    env.read("nb.ipynb");
    for (name, table, interface, sample) in cases {
        let theirs = table
            .get(interface)
            .unwrap_or_else(|| panic!("{interface} is not in the package"));
        let out = replay(&env, "claude", theirs, name, sample, &[]);
        if name != "WebSearch" {
            // a search needs the internet: reaching the provider may fail here, never parsing
            out.assert_ok();
        }
    }
    assert_eq!(env.read_file("f.txt"), b"alpha\nBETA\nGAMMA\n");
    assert_eq!(env.read_file("w.txt"), b"written\n");
}

#[test]
fn gemini_clis_tools_replay_from_its_own_schemas() {
    if clients::skipped("gemini_clis_tools_replay_from_its_own_schemas") {
        return;
    }
    let tools = gemini_tools(&clients::npm_pack(GEMINI));
    let (env, site) = setup();
    let abs = |rel: &str| env.path(rel).to_string_lossy().into_owned();
    env.read("f.txt");
    let cases = vec![
        (
            "read_file",
            json!({"absolute_path": abs("f.txt"), "offset": 1, "limit": 1}),
        ),
        (
            "write_file",
            json!({"file_path": abs("w.txt"), "content": "written\n"}),
        ),
        (
            "replace",
            json!({"file_path": abs("f.txt"), "old_string": "alpha", "new_string": "ALPHA", "expected_replacements": 1}),
        ),
        (
            "search_file_content",
            json!({"pattern": "ALPHA", "path": abs("."), "include": "*.txt"}),
        ),
        (
            "glob",
            json!({"pattern": "*.TXT", "path": abs("."), "case_sensitive": false, "respect_git_ignore": true}),
        ),
        (
            "list_directory",
            json!({"path": abs("."), "ignore": ["*.ipynb"], "file_filtering_options": {"respect_git_ignore": true}}),
        ),
        (
            "run_shell_command",
            json!({"command": "pwd", "description": "where", "directory": "sub"}),
        ),
        (
            "web_fetch",
            json!({"prompt": format!("Summarise {}", site.url("/p"))}),
        ),
        (
            "read_many_files",
            json!({"paths": ["*.txt"], "include": ["g.txt"], "exclude": ["w.txt"], "recursive": true, "useDefaultExcludes": true, "file_filtering_options": {"respect_git_ignore": true}}),
        ),
        ("google_web_search", json!({"query": "loopr"})),
    ];
    for (name, sample) in cases {
        let theirs = tools
            .get(name)
            .unwrap_or_else(|| panic!("{name} is not in the package"));
        let out = if name == "glob" || name == "write_file" {
            // names that are ours (glob) or the seeds' (write_file): no schema of Gemini's is
            // offered for them, so only the call is replayed
            env.run(
                &["--allow-private", "call"],
                &json!({"name": name, "input": sample}).to_string(),
            )
        } else {
            replay(&env, "gemini", theirs, name, sample, &[])
        };
        if name != "google_web_search" {
            out.assert_ok();
        }
        match name {
            "read_file" => {
                assert!(out.output().contains("beta") && !out.output().contains("alpha"))
            }
            "glob" => assert_eq!(out.data()["count"], 3, "f, g and w.txt"),
            "list_directory" => assert!(!out.output().contains("nb.ipynb")),
            "run_shell_command" => assert!(out.output().lines().any(|l| l.ends_with("/sub"))),
            "web_fetch" => assert!(out.output().contains("the page")),
            "read_many_files" => assert_eq!(out.data()["files"].as_array().unwrap().len(), 2),
            _ => {}
        }
    }
    assert_eq!(env.read_file("f.txt"), b"ALPHA\nbeta\ngamma\n");
}

#[test]
fn codexs_tools_replay_from_the_schemas_copied_from_codex_rs() {
    let table: Map<String, Value> = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("src/dialects/schemas/codex.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let (env, _site) = setup();
    let cases = vec![
        (
            "shell",
            json!({"command": ["bash", "-lc", "echo hi"], "workdir": env.path(".").to_string_lossy(), "timeout_ms": 5000, "with_escalated_permissions": false, "sandbox_permissions": "use_default", "justification": "none"}),
        ),
        (
            "shell_command",
            json!({"command": "echo hi", "workdir": "sub", "login": false, "timeout_ms": 5000, "with_escalated_permissions": false, "sandbox_permissions": "use_default", "justification": "none"}),
        ),
        (
            "update_plan",
            json!({"explanation": "e", "plan": [{"step": "s", "status": "pending"}]}),
        ),
        (
            "list_dir",
            json!({"dir_path": env.path(".").to_string_lossy(), "offset": 1, "limit": 5, "depth": 1}),
        ),
        (
            "grep_files",
            json!({"pattern": "alpha", "include": "*.txt", "path": ".", "limit": 5}),
        ),
        ("view_image", json!({"path": "f.txt"})),
        (
            "read_file",
            json!({"file_path": env.path("f.txt").to_string_lossy(), "offset": 2, "limit": 10, "mode": "indentation", "indentation": {"anchor_line": 2, "max_levels": 1, "include_siblings": true, "include_header": true, "max_lines": 5}}),
        ),
        (
            "exec_command",
            json!({"cmd": "read line; echo got $line", "workdir": "sub", "shell": "bash", "login": false, "tty": true, "yield_time_ms": 300, "max_output_tokens": 1000, "sandbox_permissions": "use_default", "justification": "none"}),
        ),
    ];
    for (name, sample) in cases {
        let theirs = from_json_schema(&table[name]);
        // view_image of a text file reads it as text; images are tests/files/read_image.rs's
        let out = replay(&env, "codex", &theirs, name, sample, &[]);
        out.assert_ok();
        if name == "exec_command" {
            let session = out.data()["session_id"].clone();
            assert!(session.is_number(), "still running: {}", out.stdout);
            let theirs = from_json_schema(&table["write_stdin"]);
            let sample = json!({"session_id": session, "chars": "hi\n", "yield_time_ms": 2000, "max_output_tokens": 100});
            let answer = replay(&env, "codex", &theirs, "write_stdin", sample, &[]);
            answer.assert_ok();
            assert!(answer.output().contains("got hi"), "{}", answer.stdout);
        }
    }
}
