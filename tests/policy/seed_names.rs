//! The seeds' names with the seeds' schemas (SPEC 25.6): under a catalog a key the seeds use is
//! offered with that seed's schema and meaning, unless its `dialect` picks another agent's.

use crate::{catalog, with};
use serde_json::{Value, json};
use testkit::{Env, finish};

/// `schema`'s input schema of each name, by name.
fn schemas(env: &Env, file: &std::path::Path) -> serde_json::Map<String, Value> {
    let out = with(env, file, &["schema"], "");
    serde_json::from_str::<Vec<Value>>(&out.stdout)
        .unwrap()
        .into_iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_string(),
                t["input_schema"].clone(),
            )
        })
        .collect()
}

fn fields(schema: &Value) -> Vec<String> {
    let mut f: Vec<String> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    f.sort();
    f
}

#[test]
fn a_seed_name_is_offered_with_the_seeds_schema_and_meaning() {
    let env = Env::new();
    env.write_file("a.txt", "l1\nl2\nl3\n");
    env.write_file("b/c.txt", "x\n");
    env.write_file("Z.txt", "z\n");
    let file = catalog(
        &env,
        "[tools.read_file]\n[tools.list_directory]\n[tools.bash]\n[tools.edit_file]\n[tools.share_data]\n",
    );
    let s = schemas(&env, &file);
    assert_eq!(fields(&s["read_file"]), ["limit", "offset", "path"]);
    assert_eq!(s["read_file"]["required"], json!(["path"]));
    assert_eq!(fields(&s["list_directory"]), ["path"]);
    assert_eq!(s["list_directory"]["properties"]["path"]["default"], ".");
    // Where the seeds' schema is not written down: the tool's, in the seeds' field names.
    assert!(
        fields(&s["bash"]).contains(&"timeout".to_string()),
        "{}",
        s["bash"]
    );
    assert!(!fields(&s["bash"]).contains(&"timeout_ms".to_string()));
    assert!(fields(&s["edit_file"]).contains(&"old_string".to_string()));
    assert!(fields(&s["share_data"]).contains(&"target_exec_ids".to_string()));

    // read_file: 1-based offset; another agent's fields are not this one's.
    let out = with(
        &env,
        &file,
        &["read_file"],
        r#"{"path": "a.txt", "offset": 2, "limit": 1}"#,
    );
    out.assert_ok();
    assert!(
        out.output().contains("l2") && !out.output().contains("l1"),
        "{}",
        out.output()
    );
    with(&env, &file, &["read_file"], r#"{"absolute_path": "a.txt"}"#)
        .assert_invalid("absolute_path");
    // list_directory: one level, sorted by name, `/` after a directory.
    let out = with(&env, &file, &["list_directory"], "{}");
    out.assert_ok();
    assert_eq!(out.output(), "Z.txt\na.txt\nb/\n");
}

#[test]
fn a_dialect_picks_another_agents_schema_and_meaning() {
    let env = Env::new();
    env.write_file("a.txt", "l1\nl2\nl3\n");
    let file = catalog(&env, "[tools.read_file]\ndialect = \"gemini\"\n");
    let s = schemas(&env, &file);
    assert!(
        fields(&s["read_file"]).contains(&"absolute_path".to_string()),
        "{}",
        s["read_file"]
    );
    // Gemini's offset is 0-based, whatever fields the call has.
    let out = with(
        &env,
        &file,
        &["read_file"],
        r#"{"absolute_path": "a.txt", "offset": 1, "limit": 1}"#,
    );
    out.assert_ok();
    assert!(out.output().contains("l2"), "{}", out.output());
    let file = catalog(&env, "[tools.read_file]\ndialect = \"codex\"\n");
    assert!(fields(&schemas(&env, &file)["read_file"]).contains(&"mode".to_string()));
    let file = catalog(&env, "[tools.read_file]\ndialect = \"seed\"\n");
    assert_eq!(
        fields(&schemas(&env, &file)["read_file"]),
        ["limit", "offset", "path"]
    );
}

#[test]
fn a_dialect_that_has_no_such_name_and_a_seed_tool_we_lack_are_catalog_problems() {
    let env = Env::new();
    let file = catalog(
        &env,
        "[tools.grep]\ndialect = \"claude\"\n[tools.Read]\ndialect = \"gemini\"\n[tools.read_file]\ndialect = \"vim\"\n[tools.git_command]\n",
    );
    let mut c = env.cmd();
    c.args(["catalog", "--check"])
        .arg(&file)
        .args(["--format", "text"]);
    let out = finish(c);
    assert_eq!(out.status, 2);
    let text = out.stderr;
    for want in [
        "[tools.grep]: `dialect` is \"claude\", but Claude Code has no `grep`: `grep` is loopr-tool's own tool",
        "[tools.Read]: `dialect` is \"gemini\", but Gemini CLI has no `Read`: `Read` is a tool name of Claude Code only",
        "`dialect` is \"vim\"; use one of: claude, codex, gemini, seed",
        "`git_command` is seed 002's tool, which loopr-tool does not have",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
    // Every call under it is refused, as for any broken catalog.
    with(&env, &file, &["read", "x"], "").assert_err("invalid_input");
}
