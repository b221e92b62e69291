//! `map` (SPEC 26.3, 26.7) through the binary.

use serde_json::json;
use testkit::Env;

fn project() -> Env {
    let env = Env::new();
    env.write_file(
        "core/engine.py",
        "class StorageEngine:\n    def write_record(self, r):\n        pass\n\ndef open_engine():\n    return StorageEngine()\n",
    );
    for (i, name) in ["api", "cli", "jobs"].iter().enumerate() {
        env.write_file(
            &format!("app/{name}.py"),
            format!("from core.engine import open_engine, StorageEngine\n\ndef handler_{i}():\n    e = open_engine()\n    e.write_record({i})\n"),
        );
    }
    env.write_file("lonely/leaf.py", "def unused_helper():\n    pass\n");
    env
}

fn paths(out: &testkit::Out) -> Vec<String> {
    out.data()["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_file_everyone_uses_comes_first() {
    let env = project();
    let out = env.call("map", json!({}));
    out.assert_ok();
    assert_eq!(paths(&out)[0], "core/engine.py");
    assert!(
        out.output().starts_with(
            "core/engine.py:\n    1: class StorageEngine\n    2:   def write_record(self, r)\n"
        ),
        "{}",
        out.output()
    );
    assert_eq!(out.data()["files_mapped"], 5);
}

#[test]
fn focus_files_are_shown_first_and_the_budget_holds() {
    let env = project();
    let out = env.call("map", json!({"focus": ["lonely/leaf.py"], "tokens": 40}));
    out.assert_ok();
    assert_eq!(paths(&out)[0], "lonely/leaf.py");
    assert!(out.output().chars().count() <= 160, "{}", out.output());
    // A focus identifier pulls its definition in before the others.
    let out = env.call("map", json!({"focus": ["handler_2"], "tokens": 20}));
    assert!(out.output().contains("def handler_2()"), "{}", out.output());
}

#[test]
fn an_unchanged_tree_is_not_parsed_again() {
    let env = project();
    let first = env.call("map", json!({}));
    assert_eq!(first.data()["files_parsed"], 5);
    let again = env.call("map", json!({}));
    assert_eq!(again.data()["files_parsed"], 0);
    assert_eq!(again.output(), first.output());
    env.write_file("app/cli.py", "def renamed():\n    pass\n");
    let changed = env.call("map", json!({}));
    assert_eq!(changed.data()["files_parsed"], 1);
    assert!(changed.output().contains("def renamed()"));
}

#[test]
fn bad_input_names_its_field() {
    let env = project();
    env.call("map", json!({"tokens": 0}))
        .assert_invalid("tokens");
    env.call("map", json!({"tokens": 16385}))
        .assert_invalid("tokens");
    env.call("map", json!({"path": "core/engine.py"}))
        .assert_err("not_a_directory");
}
