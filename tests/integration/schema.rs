//! `schema` (SPEC 22.2, 24.5): every emitted schema is checked, not sampled. Non-strict ones
//! against the JSON Schema meta-schema and the single-type rule; strict ones against both
//! providers' rules (`strict_rules`); and each accepts a sample call of every tool and rejects
//! a bad one, as the parser does: the samples also go through the binary.

mod strict_rules;

use serde_json::{Map, Value, json};
use testkit::Env;

fn schema(env: &Env, args: &[&str]) -> Vec<Value> {
    let mut a = vec!["schema"];
    a.extend_from_slice(args);
    let out = env.run(&a, "");
    assert_eq!(out.status, 0, "{}", out.stdout);
    out.json.as_array().expect("a bare array").clone()
}

/// Each tool: a call in the non-strict form, and one both the schema and the parser refuse
/// (a wrong type, an unknown value or field: what a flat schema can say).
fn samples() -> Vec<(&'static str, Value, Value)> {
    vec![
        (
            "read",
            json!({"path": "a.txt", "offset": 1, "limit": 10}),
            json!({"path": "a.txt", "limit": "ten"}),
        ),
        (
            "write",
            json!({"path": "new.txt", "content": "x\n"}),
            json!({"path": "new.txt", "content": 5}),
        ),
        (
            "edit",
            json!({"path": "a.txt", "edits": [{"old_string": "x", "new_string": "y"}]}),
            json!({"path": "a.txt", "edits": [{"old_string": "x", "new_string": "y", "oops": 1}]}),
        ),
        (
            "apply_patch",
            json!({"patch": "*** Begin Patch\n*** Update File: a.txt\n-x\n+y\n*** End Patch\n"}),
            json!({"patch": 5}),
        ),
        (
            "move",
            json!({"from": "a.txt", "to": "b/a.txt", "overwrite": false}),
            json!({"from": "a.txt", "to": 7}),
        ),
        (
            "delete",
            json!({"path": "a.txt", "recursive": false, "permanent": false}),
            json!({"path": "a.txt", "recursive": "yes"}),
        ),
        ("mkdir", json!({"path": "new/dir"}), json!({"dir": "new"})),
        (
            "notebook_edit",
            json!({"path": "nb.ipynb", "cell_id": "a", "new_source": "x", "edit_mode": "replace"}),
            json!({"path": "nb.ipynb", "cell_id": "a", "edit_mode": "move"}),
        ),
        (
            "stat",
            json!({"paths": ["a.txt", "missing"]}),
            json!({"paths": "a.txt"}),
        ),
        (
            "glob",
            json!({"pattern": "*.txt", "sort": "path", "limit": 5}),
            json!({"pattern": "*.txt", "sort": "size"}),
        ),
        (
            "grep",
            json!({"pattern": "x", "glob": ["*.txt"], "-i": true, "-C": 1, "output_mode": "content"}),
            json!({"pattern": "x", "output_mode": "lines"}),
        ),
        (
            "tree",
            json!({"path": ".", "depth": 2}),
            json!({"depth": "deep"}),
        ),
        (
            "symbols",
            json!({"path": "a.txt", "action": "outline", "kinds": ["function"], "depth": 2, "limit": 10}),
            json!({"path": "a.txt", "action": "everything"}),
        ),
        (
            "map",
            json!({"path": ".", "tokens": 512, "focus": ["a.txt", "main"]}),
            json!({"tokens": "many"}),
        ),
        (
            "rewrite",
            json!({"pattern": "f($A)", "rewrite": "g($A)", "glob": "*.py", "language": "python", "dry_run": true}),
            json!({"pattern": "f($A)", "rewrite": 5}),
        ),
        (
            "fetch",
            json!({"url": "http://127.0.0.1:9/", "mode": "text", "timeout_ms": 1000}),
            json!({"url": "http://127.0.0.1:9/", "mode": "pdf"}),
        ),
        (
            "search",
            json!({"query": "serde flatten", "max_results": 3, "allowed_domains": ["docs.rs"]}),
            json!({"query": "serde flatten", "max_results": "three"}),
        ),
        (
            "run",
            json!({"command": "true", "env": {"A": "1"}, "timeout_ms": 5000}),
            json!({"command": "true", "env": {"A": 1}}),
        ),
        (
            "jobs",
            json!({"action": "write", "id": "1", "chars": "y\n", "timeout_ms": 100}),
            json!({"action": "write", "id": "1", "chars": 5}),
        ),
        (
            "todo",
            json!({"action": "write", "todos": [{"content": "x", "status": "pending"}]}),
            json!({"action": "write", "todos": [{"content": "x", "status": "later"}]}),
        ),
        (
            "session",
            json!({"action": "show"}),
            json!({"action": "explode"}),
        ),
        ("undo", json!({"path": "a.txt"}), json!({"path": 1})),
        (
            "complete_task",
            json!({"summary": "done"}),
            json!({"summary": 5}),
        ),
        (
            // `data` as JSON text: the one form both the open and the strict schema take
            "share",
            json!({"to": ["other"], "data_type": "note", "data": "{\"x\": 1}"}),
            json!({"to": "other", "data_type": "note", "data": "{}"}),
        ),
        (
            "query",
            json!({"to": "other", "question": "?", "timeout_ms": 1}),
            json!({"to": "other", "question": "?", "timeout_ms": "soon"}),
        ),
        (
            "inbox",
            json!({"action": "list"}),
            json!({"action": "delete"}),
        ),
        (
            "create_plan",
            json!({"title": "P", "overview": "o", "replace": true,
                   "specs": [{"name": "a", "title": "A", "description": "d", "dependencies": []}]}),
            json!({"title": "P", "overview": "o", "specs": [{"name": "a", "title": "A"}]}),
        ),
        (
            "create_spec",
            json!({"name": "a", "title": "A", "overview": "o", "replace": true, "phases": [
                {"name": "p1", "title": "T", "description": "d", "validation": "v"},
                {"name": "p2", "title": "T", "description": "d"},
                {"name": "p3", "title": "T", "description": "d"}]}),
            json!({"name": "a", "title": "A", "overview": "o", "phases": [
                {"name": "p1", "title": "T", "description": "d", "validation": 5}]}),
        ),
        (
            "create_phase",
            json!({"name": "p1", "title": "T", "objective": "o", "validation_command": "true",
                   "replace": true, "tasks": [{"description": "d", "file": "a.txt", "action": "modify"}]}),
            json!({"name": "p1", "title": "T", "objective": "o", "validation_command": "true",
                   "tasks": [{"description": "d", "action": "rename"}]}),
        ),
        ("artifact", json!({"kind": "plan"}), json!({"kind": "todo"})),
        (
            "ask_user",
            json!({"question": "?", "options": ["a", "b"], "multi_select": true, "timeout_ms": 1}),
            json!({"question": "?", "multi_select": "yes"}),
        ),
    ]
}

/// `sample` as a strict-mode model writes it: every property present, `null` for the absent
/// ones, at every level; a free-form object as its `{name, value}` list.
fn strict_form(sample: &Value, schema: &Value) -> Value {
    let schema = match schema.get("anyOf").and_then(Value::as_array) {
        Some(alts) => {
            let fits = |a: &&Value| match (a["type"].as_str(), sample) {
                (Some("object"), Value::Object(_)) | (Some("array"), Value::Array(_)) => true,
                (Some("array"), Value::Object(_)) => a["items"]["properties"]["name"].is_object(),
                _ => false,
            };
            match alts.iter().find(fits) {
                Some(a) => a,
                None => return sample.clone(),
            }
        }
        None => schema,
    };
    match sample {
        Value::Object(m) if schema["type"] == "array" => Value::Array(
            m.iter()
                .map(|(k, v)| json!({"name": k, "value": v}))
                .collect(),
        ),
        Value::Object(m) => {
            let Some(props) = schema["properties"].as_object() else {
                return sample.clone();
            };
            let mut out = Map::new();
            for (k, p) in props {
                let v = m.get(k).map_or(Value::Null, |v| strict_form(v, p));
                out.insert(k.clone(), v);
            }
            // Unknown fields stay, so a bad sample stays bad.
            for (k, v) in m.iter().filter(|(k, _)| !props.contains_key(*k)) {
                out.insert(k.clone(), v.clone());
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|x| strict_form(x, &schema["items"]))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn by_name<'a>(defs: &'a [Value], name: &str, key: &str) -> &'a Value {
    &defs.iter().find(|d| d["name"] == name).unwrap()[key]
}

/// Where `null` or a type array would show in a schema, anywhere in it.
fn nullables(v: &Value, at: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            match m.get("type") {
                Some(Value::Array(_)) => out.push(format!("{at}: type array")),
                Some(t) if t == "null" => out.push(format!("{at}: null type")),
                _ => {}
            }
            if m.get("enum")
                .and_then(Value::as_array)
                .is_some_and(|e| e.contains(&Value::Null))
            {
                out.push(format!("{at}: null in enum"));
            }
            for (k, x) in m {
                nullables(x, &format!("{at}.{k}"), out);
            }
        }
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| nullables(x, &format!("{at}[{i}]"), out)),
        _ => {}
    }
}

/// The tool's parser takes `input` (it may still fail for other reasons: a file not read yet).
/// Each call runs in a session of its own, so a call allowed once per session (complete_task)
/// is judged on its input alone.
fn parses(env: &Env, tool: &str, input: &Value) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = env.call_in(&format!("parses-{n}"), tool, input.clone());
    assert_ne!(
        out.code(),
        "invalid_input",
        "{tool} {input}: {}",
        out.stdout
    );
}

/// The schema and the binary agree on `input`: both take it (`takes`) or both refuse it.
fn agree(env: &Env, tool: &str, schema: &Value, input: &Value, takes: bool) {
    let v = jsonschema::validator_for(schema).unwrap();
    assert_eq!(v.is_valid(input), takes, "{tool}: the schema on {input}");
    if takes {
        parses(env, tool, input);
    } else {
        env.call(tool, input.clone()).assert_err("invalid_input");
    }
}

#[test]
fn the_samples_cover_every_tool() {
    let env = Env::new();
    let listed: Vec<String> = schema(&env, &[])
        .iter()
        .map(|d| d["name"].as_str().unwrap().to_string())
        .collect();
    let sampled: Vec<&str> = samples().iter().map(|(t, _, _)| *t).collect();
    assert_eq!(listed, sampled, "a new tool needs a sample here");
}

#[test]
fn non_strict_schemas_are_valid_json_schema_with_single_types() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let defs = schema(&env, &[]);
    for (tool, good, bad) in samples() {
        let s = by_name(&defs, tool, "input_schema");
        assert!(
            jsonschema::meta::is_valid(s),
            "{tool}: {:?}",
            jsonschema::meta::validate(s).err()
        );
        let mut found = vec![];
        nullables(s, tool, &mut found);
        assert_eq!(found, Vec::<String>::new(), "optional fields have one type");
        assert_eq!(s["additionalProperties"], false, "{tool}");
        assert!(!s.to_string().contains("$ref"), "{tool}: self-contained");
        agree(&env, tool, s, &good, true);
        agree(&env, tool, s, &bad, false);
        // null still means absent to the parser, though no schema offers it (SPEC 16.2).
        let mut with_null = good.as_object().unwrap().clone();
        for (k, _) in s["properties"].as_object().unwrap() {
            with_null.entry(k.clone()).or_insert(Value::Null);
        }
        parses(&env, tool, &Value::Object(with_null));
    }
}

/// More inputs on both sides of the line: bounds, nested items, empty inputs. Cross-field rules
/// (todo's "a field this action does not use") cannot be said in one flat schema: the
/// descriptions state them and the tool enforces them, so they appear here only as inputs both
/// sides accept or the tool alone refuses.
#[test]
fn bounds_and_nested_items_agree_with_the_parser() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let defs = schema(&env, &[]);
    let valid = [
        ("read", json!({"path": "a.txt"})),
        (
            "read",
            json!({"path": "a.txt", "offset": 1, "limit": 100_000}),
        ),
        ("read", json!({"path": "a.txt", "offset": -5})),
        ("read", json!({"paths": ["a.txt"], "line_range": [1, 1]})),
        (
            "read",
            json!({"path": "a.txt", "around_line": 1, "indentation": {"max_levels": 0, "include_siblings": true, "include_header": false, "max_lines": 100_000}}),
        ),
        ("write", json!({"path": "b.txt", "content": ""})),
        ("session", json!({})),
        ("session", json!({"action": "show"})),
        ("todo", json!({"action": "add", "content": "x"})),
        (
            "todo",
            json!({"action": "write", "todos": [{"content": "x", "status": "pending", "active_form": "Doing x"}]}),
        ),
        ("undo", json!({})),
        ("jobs", json!({"action": "screen", "id": "1"})),
        (
            "jobs",
            json!({"action": "wait", "id": "1", "until": "READY", "timeout_ms": 100}),
        ),
    ];
    let invalid = [
        // `{}` the schema takes: `path` or `paths` is a rule between fields the tool enforces
        ("read", json!({"paths": []})),
        ("read", json!({"path": "a.txt", "line_range": [1]})),
        ("read", json!({"path": "a.txt", "bogus": 1})),
        ("read", json!({"path": 3})),
        ("read", json!({"path": "a.txt", "offset": 0})),
        ("read", json!({"path": "a.txt", "limit": 100_001})),
        ("read", json!({"path": "a.txt", "limit": "ten"})),
        ("read", json!({"path": "a.txt", "around_line": 0})),
        (
            "read",
            json!({"path": "a.txt", "around_line": 1, "indentation": {"max_lines": 0}}),
        ),
        (
            "read",
            json!({"path": "a.txt", "around_line": 1, "indentation": {"anchor_line": 1}}),
        ),
        (
            "read",
            json!({"path": "a.txt", "around_line": 1, "indentation": {"include_header": "yes"}}),
        ),
        ("write", json!({"path": "b.txt"})),
        ("session", json!({"action": "explode"})),
        (
            "todo",
            json!({"action": "write", "todos": [{"content": "x", "status": "later"}]}),
        ),
        (
            "todo",
            json!({"action": "write", "todos": [{"content": "x", "status": "pending", "owner": "me"}]}),
        ),
        ("undo", json!({"path": 1})),
        ("jobs", json!({"action": "wait", "id": "1", "until": 5})),
        ("run", json!({"command": "true", "tty": "yes"})),
        ("run", json!({"command": "true", "rows": 1})),
        ("run", json!({"command": "true", "cols": 5000})),
    ];
    let cases = valid.iter().map(|c| (c, true));
    for ((tool, input), takes) in cases.chain(invalid.iter().map(|c| (c, false))) {
        agree(
            &env,
            tool,
            by_name(&defs, tool, "input_schema"),
            input,
            takes,
        );
    }
}

#[test]
fn strict_schemas_keep_both_providers_rules_and_take_strict_calls() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    let defs = schema(&env, &["--strict"]);
    for (tool, good, bad) in samples() {
        let def = defs.iter().find(|d| d["name"] == tool).unwrap();
        assert_eq!(
            def["strict"], true,
            "Anthropic's strict flag is on the tool"
        );
        let s = &def["input_schema"];
        assert_eq!(strict_rules::violations(s), Vec::<String>::new(), "{tool}");
        assert!(jsonschema::meta::is_valid(s), "{tool}");
        agree(&env, tool, s, &strict_form(&good, s), true);
        agree(&env, tool, s, &strict_form(&bad, s), false);
    }
}

#[test]
fn strict_run_env_is_a_pair_list_the_parser_takes() {
    let env = Env::new();
    let defs = schema(&env, &["--strict", "run"]);
    let e = &defs[0]["input_schema"]["properties"]["env"];
    assert_eq!(e["anyOf"][0]["type"], "array");
    assert_eq!(e["anyOf"][0]["items"]["required"], json!(["name", "value"]));
    let out = env.call(
        "run",
        json!({"command": "echo \"$GREETING\"", "env": [{"name": "GREETING", "value": "hi there"}]}),
    );
    out.assert_ok();
    assert!(out.output().starts_with("hi there\n"), "{}", out.output());
    // The same through the non-strict object form.
    let out = env.call(
        "run",
        json!({"command": "echo \"$G\"", "env": {"G": "obj"}}),
    );
    assert!(out.output().starts_with("obj\n"), "{}", out.output());
}

#[test]
fn strict_is_where_each_api_looks_for_it() {
    let env = Env::new();
    let chat = schema(&env, &["--strict", "read", "edit", "--for", "openai"]);
    assert_eq!(chat.len(), 2, "only the named tools");
    assert_eq!(chat[0]["function"]["strict"], true);
    assert!(chat[0].get("strict").is_none());
    assert_eq!(
        strict_rules::violations(&chat[1]["function"]["parameters"]),
        Vec::<String>::new()
    );
    let plain = schema(&env, &["read", "--for", "openai"]);
    assert!(
        plain[0]["function"].get("strict").is_none(),
        "non-strict, as 16.9 has it"
    );
    assert!(schema(&env, &["read"])[0].get("strict").is_none());

    for (args, strict) in [(vec!["read"], false), (vec!["read", "--strict"], true)] {
        let mut a = args.clone();
        a.extend(["--for", "openai-responses"]);
        let r = schema(&env, &a);
        let keys: Vec<&str> = r[0]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            ["type", "name", "description", "parameters", "strict"]
        );
        assert_eq!(
            (r[0]["type"].as_str(), r[0]["strict"].as_bool()),
            (Some("function"), Some(strict))
        );
    }
    let mcp = schema(&env, &["--strict", "--for", "mcp", "run"]);
    assert_eq!(
        strict_rules::violations(&mcp[0]["inputSchema"]),
        Vec::<String>::new()
    );
    assert!(mcp[0].get("strict").is_none(), "MCP has no strict flag");
}

#[test]
fn strict_descriptions_keep_what_the_dropped_keywords_said() {
    let env = Env::new();
    let read = &schema(&env, &["--strict", "read"])[0]["input_schema"];
    assert_eq!(
        read["properties"]["limit"]["description"],
        "How many lines to show (at most 100000); for a notebook, cells. Default: 2000."
    );
    // The parser still holds the bounds the strict schema cannot state.
    env.write_file("a.txt", "x\n");
    let out = env.call("read", json!({"path": "a.txt", "offset": 0, "limit": null}));
    out.assert_invalid("offset");
}
