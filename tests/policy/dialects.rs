//! Other agents' calls with their meaning (SPEC 22.4–22.7, 24.7): one test per rule where the
//! agent's tool means something other than a rename of ours says. The field names themselves
//! are replayed from the agents' own packages in tests/mcp/agent_schemas.rs.

use testkit::server;

use serde_json::{Value, json};
use std::process::Command;
use testkit::{Env, Out};

fn lines(out: &Out) -> Vec<String> {
    out.output().lines().map(String::from).collect()
}

/// The files `rg ARGS --files-with-matches PATTERN` lists in `env`'s root, sorted.
fn rg_files(env: &Env, args: &[&str], pattern: &str) -> Vec<String> {
    let out = Command::new("rg")
        .current_dir(&env.root)
        .args(args)
        .args(["--files-with-matches", pattern])
        .output()
        .expect("rg is installed by .ci/run for the parity tests");
    let mut v: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect();
    v.sort();
    v
}

fn files_of(out: &Out) -> Vec<String> {
    let mut v: Vec<String> = out.data()["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

// ---- Claude Code (22.5) ----

#[test]
fn grep_splits_glob_lists_as_claude_code_and_finds_what_rg_finds() {
    let env = Env::new();
    for f in ["a.py", "b.js", "c.ts", "d.tsx", "e.md", "f.rs", "sub/g.py"] {
        env.write_file(f, "needle\n");
    }
    for (glob, rg_globs) in [
        ("*.py,*.js", vec!["*.py", "*.js"]),
        ("*.{ts,tsx} *.md", vec!["*.{ts,tsx}", "*.md"]),
        ("*.py, *.rs", vec!["*.py", "*.rs"]),
    ] {
        let out = env.call("Grep", json!({"pattern": "needle", "glob": glob}));
        out.assert_ok();
        let args: Vec<&str> = rg_globs.iter().flat_map(|g| ["-g", *g]).collect();
        let want = rg_files(&env, &args, "needle");
        assert!(!want.is_empty());
        assert_eq!(files_of(&out), want, "glob {glob:?}");
    }
    // ours keeps one glob a glob: the comma list matches nothing
    let ours = env.call("grep", json!({"pattern": "needle", "glob": "*.py,*.js"}));
    assert_eq!(ours.data()["files"], json!([]));
}

#[test]
fn grep_searches_hidden_files_as_claude_code_does() {
    let env = Env::new();
    env.write_file(".config/x.txt", "needle\n");
    env.write_file("y.txt", "needle\n");
    let out = env.call("Grep", json!({"pattern": "needle"}));
    assert_eq!(files_of(&out), [".config/x.txt", "y.txt"]);
    assert_eq!(
        files_of(&env.call("grep", json!({"pattern": "needle"}))),
        ["y.txt"]
    );
}

#[test]
fn grep_context_wins_over_after_and_before() {
    let env = Env::new();
    env.write_file("f.txt", "1\n2\n3\nhit\n5\n6\n7\n");
    let out = env.call(
        "Grep",
        json!({"pattern": "hit", "output_mode": "content", "-C": 1, "-A": 3, "-B": 0}),
    );
    out.assert_ok();
    assert_eq!(lines(&out), ["f.txt-3-3", "f.txt:4:hit", "f.txt-5-5"]);
    // ours: -A and -B override -C
    let ours = env.call(
        "grep",
        json!({"pattern": "hit", "output_mode": "content", "-C": 1, "-A": 3, "-B": 0}),
    );
    assert_eq!(ours.output().lines().count(), 4);
}

#[test]
fn grep_head_limit_and_offset_count_lines_of_output() {
    let env = Env::new();
    env.write_file("f.txt", "a\nhit 1\nb\nc\nd\nhit 2\ne\n");
    let all = env.call(
        "Grep",
        json!({"pattern": "hit", "output_mode": "content", "-C": 1}),
    );
    let every = lines(&all);
    assert_eq!(every.len(), 7, "{every:?}"); // 3 + `--` + 3
    let out = env.call(
        "Grep",
        json!({"pattern": "hit", "output_mode": "content", "-C": 1, "head_limit": 2, "offset": 3}),
    );
    out.assert_ok();
    let got = lines(&out);
    assert_eq!(got[..2], every[3..5], "| tail -n +4 | head -2");
    assert!(got[2].contains("use offset=5"), "{got:?}");
    assert_eq!(out.data()["lines"]["total"], 7);
    // files mode: a line is a file; no head_limit means every file (ours stops at 250)
    for n in 0..300 {
        env.write_file(&format!("many/{n:03}.txt"), "hit\n");
    }
    let files = env.call("Grep", json!({"pattern": "hit"}));
    assert_eq!(files.data()["files"].as_array().unwrap().len(), 301);
    let two = env.call(
        "Grep",
        json!({"pattern": "hit", "head_limit": 2, "offset": 1}),
    );
    assert_eq!(
        two.data()["files"],
        json!(["many/000.txt", "many/001.txt"]),
        "f.txt, the first line, is skipped"
    );
}

#[test]
fn glob_lists_oldest_first_with_hidden_and_ignored_files() {
    let env = Env::new();
    env.write_file(".gitignore", "ignored.rs\n");
    for (name, age) in [
        ("new.rs", 10),
        ("old.rs", 1000),
        (".hid/mid.rs", 500),
        ("ignored.rs", 100),
    ] {
        let p = env.write_file(name, "x");
        let t = std::time::SystemTime::now() - std::time::Duration::from_secs(age);
        std::fs::File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }
    let out = env.call("Glob", json!({"pattern": "**/*.rs"}));
    out.assert_ok();
    assert_eq!(
        out.data()["files"],
        json!(["old.rs", ".hid/mid.rs", "ignored.rs", "new.rs"])
    );
    let ours = env.call("glob", json!({"pattern": "**/*.rs"}));
    assert_eq!(ours.data()["files"], json!(["new.rs", "old.rs"]));
    // case-sensitive, as rg --glob
    let upper = env.call("Glob", json!({"pattern": "*.RS"}));
    assert_eq!(upper.data()["count"], 0);
}

#[test]
fn read_offset_0_is_the_first_line() {
    let env = Env::new();
    env.write_file("f.txt", "one\ntwo\n");
    let out = env.call(
        "Read",
        json!({"file_path": env.path("f.txt"), "offset": 0, "limit": 1}),
    );
    out.assert_ok();
    assert!(out.output().contains("one") && !out.output().contains("two"));
    env.call("read", json!({"path": "f.txt", "offset": 0}))
        .assert_invalid("offset");
}

#[test]
fn bash_keeps_its_directory_between_calls_and_never_leaves_the_root() {
    let env = Env::new();
    std::fs::create_dir_all(env.path("sub/deeper")).unwrap();
    let root = std::fs::canonicalize(&env.root).unwrap();
    let pwd = |out: &Out| out.output().lines().next().unwrap().to_string();
    env.call("Bash", json!({"command": "cd sub"})).assert_ok();
    let out = env.call("Bash", json!({"command": "pwd"}));
    assert_eq!(pwd(&out), root.join("sub").to_string_lossy());
    // a failing command still moves the shell, as a shell does
    env.call("Bash", json!({"command": "cd deeper && false"}))
        .assert_err("command_failed");
    let out = env.call("Bash", json!({"command": "pwd"}));
    assert_eq!(pwd(&out), root.join("sub/deeper").to_string_lossy());
    // another session has its own shell
    let other = env.run(&["--session", "other", "Bash"], r#"{"command": "pwd"}"#);
    assert_eq!(pwd(&other), root.to_string_lossy());
    // run keeps its own rule: the root
    let run = env.call("run", json!({"command": "pwd"}));
    assert_eq!(pwd(&run), root.to_string_lossy());
    // leaving the root is not kept
    let out = env.call("Bash", json!({"command": "cd /"}));
    out.assert_ok();
    assert!(
        out.output().contains("outside the root"),
        "{}",
        out.output()
    );
    let out = env.call("Bash", json!({"command": "pwd"}));
    assert_eq!(pwd(&out), root.to_string_lossy());
    // a kept directory that is gone: back to the root, with a warning
    env.call("Bash", json!({"command": "cd sub/deeper"}))
        .assert_ok();
    std::fs::remove_dir(env.path("sub/deeper")).unwrap();
    let out = env.call("Bash", json!({"command": "pwd"}));
    assert_eq!(pwd(&out), root.to_string_lossy());
    assert!(out.output().contains("is gone"), "{}", out.output());
}

#[test]
fn task_output_waits_by_default_and_ignores_timeout_without_block() {
    let env = Env::new();
    let started = env.call(
        "Bash",
        json!({"command": "sleep 0.5; echo done", "run_in_background": true}),
    );
    started.assert_ok();
    let id = started.data()["id"].as_str().unwrap().to_string();
    let out = env.call(
        "TaskOutput",
        json!({"task_id": id, "block": false, "timeout": 5000}),
    );
    out.assert_ok();
    assert!(
        out.data()["warnings"]
            .to_string()
            .contains("`timeout` was ignored"),
        "{}",
        out.data()
    );
    let out = env.call("TaskOutput", json!({"task_id": id}));
    out.assert_ok();
    assert!(out.output().contains("done"), "{}", out.output());
    assert_eq!(out.data()["state"], "exited");
}

#[test]
fn todo_write_takes_several_items_in_progress_with_a_warning() {
    let env = Env::new();
    let todos = json!([
        {"content": "a", "status": "in_progress", "activeForm": "Doing a"},
        {"content": "b", "status": "in_progress", "activeForm": "Doing b"},
    ]);
    let out = env.call("TodoWrite", json!({"todos": todos}));
    out.assert_ok();
    assert_eq!(out.data()["counts"]["in_progress"], 2);
    assert!(out.data()["warnings"].to_string().contains("in_progress"));
    // ours keeps its rule
    env.call("todo", json!({"action": "write", "todos": todos}))
        .assert_invalid("todos[1].status");
}

#[test]
fn multi_edit_creates_a_missing_file_all_or_nothing() {
    let env = Env::new();
    let out = env.call(
        "MultiEdit",
        json!({"file_path": env.path("new.txt"), "edits": [
            {"old_string": "", "new_string": "hello world\n"},
            {"old_string": "world", "new_string": "there"},
        ]}),
    );
    out.assert_ok();
    assert_eq!(env.read_file("new.txt"), b"hello there\n");
    let bad = env.call(
        "MultiEdit",
        json!({"file_path": env.path("other.txt"), "edits": [
            {"old_string": "", "new_string": "hello\n"},
            {"old_string": "absent", "new_string": "x"},
        ]}),
    );
    bad.assert_err("no_match");
    assert!(!env.path("other.txt").exists(), "nothing is left behind");
}

// ---- Codex (22.6) ----

#[test]
fn codex_shell_runs_the_argv_as_is() {
    let env = Env::new();
    let out = env.call(
        "shell",
        json!({"command": ["printf", "%s|", "a b", "$HOME", "*"], "workdir": env.path(".")}),
    );
    out.assert_ok();
    assert!(out.output().starts_with("a b|$HOME|*|"), "{}", out.output());
    let out = env.call(
        "shell",
        json!({"command": ["bash", "-lc", "echo $((6*7))"]}),
    );
    assert!(out.output().starts_with("42"), "{}", out.output());
    let out = env.call(
        "shell",
        json!({"command": ["true"], "with_escalated_permissions": true, "justification": "x"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["warnings"].as_array().unwrap().len(), 2);
    env.call("shell", json!({"command": "ls"}))
        .assert_invalid("command");
    env.call("shell", json!({"command": []}))
        .assert_invalid("command");
}

#[test]
fn codex_shell_heredoc_is_apply_patch() {
    let env = Env::new();
    env.write_file("f.txt", "one\ntwo\n");
    let script = "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: f.txt\n one\n-two\n+TWO\n*** Add File: g.txt\n+new\n*** End Patch\nEOF\n";
    let out = env.call("shell", json!({"command": ["bash", "-lc", script]}));
    out.assert_ok();
    assert_eq!(out.json["tool"], "apply_patch");
    assert_eq!(env.read_file("f.txt"), b"one\nTWO\n");
    assert_eq!(env.read_file("g.txt"), b"new\n");
    let out = env.call(
        "shell",
        json!({"command": ["apply_patch", "*** Begin Patch\n*** Delete File: g.txt\n*** End Patch\n"]}),
    );
    out.assert_ok();
    assert!(!env.path("g.txt").exists());
}

#[test]
fn codex_shell_command_update_plan_list_dir_and_grep_files() {
    let env = Env::new();
    std::fs::create_dir_all(env.path("d/e")).unwrap();
    env.write_file("d/a.rs", "fn needle() {}\n");
    env.write_file("d/b.txt", "needle\n");
    let out = env.call(
        "shell_command",
        json!({"command": "pwd", "workdir": "d", "login": true}),
    );
    out.assert_ok();
    assert!(out.output().lines().next().unwrap().ends_with("/d"));
    assert!(out.data()["warnings"].to_string().contains("login"));

    let out = env.call(
        "update_plan",
        json!({"explanation": "start", "plan": [{"step": "read", "status": "completed"}, {"step": "edit", "status": "in_progress"}]}),
    );
    out.assert_ok();
    assert!(out.output().starts_with("Plan updated: start"));
    let list = env.call("todo", json!({"action": "list"}));
    assert_eq!(list.data()["todos"][1]["content"], "edit");
    env.call(
        "update_plan",
        json!({"plan": [{"task": "x", "status": "pending"}]}),
    )
    .assert_invalid("plan[0].task");

    let out = env.call("list_dir", json!({"dir_path": env.path("d")}));
    out.assert_ok();
    let drawn = out.output().to_string();
    assert!(drawn.contains("e/") && drawn.contains("a.rs") && drawn.contains("b.txt"));
    let paged = env.call(
        "list_dir",
        json!({"dir_path": env.path("d"), "offset": 2, "limit": 1}),
    );
    paged.assert_ok();
    assert!(
        !paged.output().contains("e/") && paged.output().contains("a.rs"),
        "{}",
        paged.output()
    );
    assert!(!paged.output().contains("b.txt"));
    env.call("list_dir", json!({"dir_path": "d", "offset": 0}))
        .assert_invalid("offset");

    let out = env.call(
        "grep_files",
        json!({"pattern": "needle", "include": "*.rs", "limit": 5}),
    );
    assert_eq!(out.data()["files"], json!(["d/a.rs"]));
}

// ---- Gemini CLI (22.7) ----

#[test]
fn gemini_read_file_offsets_are_zero_based() {
    let env = Env::new();
    env.write_file("f.txt", "l1\nl2\nl3\nl4\n");
    let out = env.call(
        "read_file",
        json!({"absolute_path": env.path("f.txt"), "offset": 1, "limit": 2}),
    );
    out.assert_ok();
    assert!(out.output().contains("l2") && out.output().contains("l3"));
    assert!(!out.output().contains("l1") && !out.output().contains("l4"));
    // the seeds' read_file is 1-based
    let seeds = env.call(
        "read_file",
        json!({"path": "f.txt", "offset": 1, "limit": 1}),
    );
    assert!(seeds.output().contains("l1"));
    // the later form: start_line/end_line, inclusive
    let later = env.call(
        "read_file",
        json!({"file_path": env.path("f.txt"), "start_line": 3, "end_line": 4}),
    );
    assert!(
        later.output().contains("l3")
            && later.output().contains("l4")
            && !later.output().contains("l2")
    );
}

#[test]
fn gemini_replace_counts_expected_replacements_and_creates_files() {
    let env = Env::new();
    env.write_file("f.txt", "x x x\n");
    env.read("f.txt");
    env.call(
        "replace",
        json!({"file_path": env.path("f.txt"), "old_string": "x", "new_string": "y", "expected_replacements": 2}),
    )
    .assert_err("ambiguous_match");
    assert_eq!(env.read_file("f.txt"), b"x x x\n");
    env.call(
        "replace",
        json!({"file_path": env.path("f.txt"), "old_string": "x", "new_string": "y", "expected_replacements": 3}),
    )
    .assert_ok();
    assert_eq!(env.read_file("f.txt"), b"y y y\n");
    let out = env.call(
        "replace",
        json!({"file_path": env.path("n.txt"), "old_string": "", "new_string": "new\n", "instruction": "make it"}),
    );
    out.assert_ok();
    assert_eq!(out.json["tool"], "write");
    assert_eq!(env.read_file("n.txt"), b"new\n");
}

#[test]
fn gemini_search_list_shell_and_read_many() {
    let env = Env::new();
    env.write_file("src/a.ts", "const Needle = 1;\n");
    env.write_file("src/b.js", "needle\n");
    env.write_file("notes.log", "needle\n");
    let out = env.call(
        "search_file_content",
        json!({"pattern": "needle", "include": "*.ts"}),
    );
    out.assert_ok();
    assert!(
        out.output().contains("src/a.ts:1:const Needle"),
        "case-insensitive: {}",
        out.output()
    );

    let out = env.call(
        "list_directory",
        json!({"path": env.path("."), "ignore": ["*.log"]}),
    );
    out.assert_ok();
    assert!(out.output().contains("src/") && !out.output().contains("notes.log"));

    let out = env.call(
        "run_shell_command",
        json!({"command": "pwd", "directory": "src", "description": "where"}),
    );
    out.assert_ok();
    assert!(
        out.output().lines().any(|l| l.ends_with("/src")),
        "{}",
        out.output()
    );

    let out = env.call(
        "read_many_files",
        json!({"paths": ["src/**/*.ts", "notes.log"], "include": ["src/*.js"], "exclude": ["*.log"]}),
    );
    out.assert_ok();
    let read: Vec<&str> = out.data()["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(read, ["src/a.ts", "src/b.js"]);
    env.call("read_many_files", json!({"paths": ["*.none"]}))
        .assert_err("not_found");
}

#[test]
fn gemini_web_fetch_takes_its_urls_from_the_prompt() {
    let env = Env::new();
    let site = server::Server::start(|r| {
        server::html(&format!("<html><body><p>page {}</p></body></html>", r.path))
    });
    let prompt = format!(
        "Compare {} and ({}). Say which is longer.",
        site.url("/one"),
        site.url("/two")
    );
    let out = env.run(
        &["--allow-private", "web_fetch"],
        &json!({"prompt": prompt}).to_string(),
    );
    out.assert_ok();
    assert!(
        out.output().contains("page /one") && out.output().contains("page /two"),
        "{}",
        out.output()
    );
    assert_eq!(out.data()["pages"].as_array().unwrap().len(), 2);
    assert!(
        out.data()["warnings"]
            .to_string()
            .contains("instructions were not applied")
    );
    // without --allow-private the URL taken from the prompt is refused as any fetch is
    let out = env.call(
        "web_fetch",
        json!({"prompt": format!("Summarise {}", site.url("/one"))}),
    );
    out.assert_err("blocked_url");
    env.call("web_fetch", json!({"prompt": "no link here"}))
        .assert_invalid("prompt");
    // the seeds' web_fetch (with a url) keeps its meaning: prompt ignored with a warning
    let out = env.run(
        &["--allow-private", "web_fetch"],
        &json!({"url": site.url("/three"), "prompt": "x"}).to_string(),
    );
    out.assert_ok();
    assert!(out.output().contains("page /three"));
}

// ---- catalog keys (24.7) ----

#[test]
fn an_alias_key_offers_its_agents_fields() {
    let env = Env::new();
    let cfg = env.dir.path().join("catalog.toml");
    std::fs::write(
        &cfg,
        "[tools.Grep]\n[tools.read_file]\n[tools.replace]\n[tools.shell]\n",
    )
    .unwrap();
    let out = env.run(&["--config", cfg.to_str().unwrap(), "schema"], "");
    let defs: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let props = |name: &str| -> Vec<String> {
        let d = defs
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["name"] == name)
            .unwrap();
        let mut v: Vec<String> = d["input_schema"]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        v.sort();
        v
    };
    assert!(props("Grep").contains(&"head_limit".to_string()));
    assert!(
        !props("Grep").contains(&"hidden".to_string()),
        "Claude Code's Grep has no `hidden`"
    );
    // A name the seeds use is the seeds' under a catalog (SPEC 25.6; `dialect` picks another).
    assert_eq!(props("read_file"), ["limit", "offset", "path"]);
    assert!(props("replace").contains(&"expected_replacements".to_string()));
    let shell = defs
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "shell")
        .unwrap();
    assert_eq!(
        shell["input_schema"]["properties"]["command"]["type"],
        "array"
    );
    // strict: every property required, optional ones nullable
    let out = env.run(
        &["--config", cfg.to_str().unwrap(), "schema", "--strict"],
        "",
    );
    let strict: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let grep = strict
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "Grep")
        .unwrap();
    assert_eq!(
        grep["input_schema"]["required"].as_array().unwrap().len(),
        grep["input_schema"]["properties"]
            .as_object()
            .unwrap()
            .len()
    );
}

#[test]
fn whole_floats_are_integers_for_the_agents_rules_too() {
    let env = Env::new();
    env.write_file("f.txt", "a\nhit 1\nb\nc\nd\nhit 2\ne\n");
    let ints = env.call(
        "Grep",
        json!({"pattern": "hit", "output_mode": "content", "-C": 1, "head_limit": 2}),
    );
    let floats = env.call(
        "Grep",
        json!({"pattern": "hit", "output_mode": "content", "-C": 1.0, "head_limit": 2.0}),
    );
    assert_eq!(floats.output(), ints.output());
    assert_eq!(lines(&floats).len(), 3, "two lines and the paging line");
    let out = env.call(
        "read_file",
        json!({"absolute_path": env.path("f.txt"), "offset": 1.0, "limit": 1.0}),
    );
    out.assert_ok();
    assert!(out.output().contains("hit 1"));
    env.call(
        "read_file",
        json!({"absolute_path": env.path("f.txt"), "offset": 1.5}),
    )
    .assert_invalid("offset");
}

#[test]
fn a_call_that_is_another_tool_goes_under_that_tools_catalog_entry() {
    let env = Env::new();
    env.write_file("f.txt", "one\n");
    let cfg = env.dir.path().join("catalog.toml");
    std::fs::write(
        &cfg,
        "[tools.shell]\n[tools.Edit]\n[profiles.codex]\ntools = [\"shell\"]\n[profiles.both]\ntools = [\"shell\", \"apply_patch\", \"Edit\"]\n",
    )
    .unwrap();
    let patch =
        "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: g.txt\n+new\n*** End Patch\nEOF\n";
    let call = |profile: &str, name: &str, input: Value| {
        env.run(
            &[
                "--config",
                cfg.to_str().unwrap(),
                "--profile",
                profile,
                "call",
            ],
            &json!({"name": name, "input": input}).to_string(),
        )
    };
    // the shell runs commands, but its patch is apply_patch, which this profile does not offer
    let out = call("codex", "shell", json!({"command": ["bash", "-lc", patch]}));
    out.assert_err("tool_disabled");
    assert!(!env.path("g.txt").exists());
    call("codex", "shell", json!({"command": ["true"]})).assert_ok();
    let out = call("both", "shell", json!({"command": ["bash", "-lc", patch]}));
    out.assert_ok();
    assert_eq!(out.json["tool"], "apply_patch");
    // Edit creating a file is a write: refused where write is not offered
    let out = call(
        "both",
        "Edit",
        json!({"file_path": env.path("h.txt"), "old_string": "", "new_string": "x"}),
    );
    out.assert_err("tool_disabled");
    assert!(!env.path("h.txt").exists());
}

#[test]
fn codex_read_file_reads_the_block_around_a_line() {
    let env = Env::new();
    env.write_file(
        "m.py",
        "import os\n\nclass A:\n    def f(self):\n        x = 1\n        return x\n\n    def g(self):\n        return 2\n",
    );
    let out = env.call(
        "read_file",
        json!({"file_path": env.path("m.py"), "mode": "indentation", "offset": 5, "indentation": {"max_levels": 1, "include_siblings": false}}),
    );
    out.assert_ok();
    let text = out.output();
    assert!(
        text.contains("def f(self)") && text.contains("return x"),
        "{text}"
    );
    assert!(
        !text.contains("def g") && !text.contains("import os"),
        "{text}"
    );
    // slice mode (the default) ignores indentation, as Codex does
    let out = env.call(
        "read_file",
        json!({"file_path": env.path("m.py"), "offset": 8, "limit": 1, "mode": "slice", "indentation": {"max_levels": 1}}),
    );
    assert!(out.output().contains("def g") && !out.output().contains("def f"));
    env.call(
        "read_file",
        json!({"file_path": env.path("m.py"), "mode": "tree"}),
    )
    .assert_invalid("mode");
}
