//! `call_typed` with the core tools' own input structs (`loopr_tool::inputs`).

use crate::Scratch;
use loopr_tool::ToolInput;
use loopr_tool::inputs::{EditInput, EditItem, Indentation, ReadInput, RunInput, WriteInput};
use serde::Serialize;
use serde_json::json;

#[test]
fn typed_calls_are_the_json_calls() {
    let s = Scratch::new();
    s.write("a.txt", "alpha\nbeta\n");
    let tools = s.toolbox();
    let typed = tools.call_typed(ReadInput {
        path: Some("a.txt".into()),
        limit: Some(1),
        ..Default::default()
    });
    let json = tools.call("read", json!({"path": "a.txt", "limit": 1}));
    assert_eq!(typed, json);
    assert!(
        typed.output.starts_with("     1\talpha\n"),
        "{}",
        typed.output
    );
}

#[test]
fn a_loops_turn_in_typed_calls() {
    let s = Scratch::new();
    s.write("src/lib.rs", "fn answer() -> u32 {\n    41\n}\n");
    let tools = s.toolbox();
    let read = tools.call_typed(ReadInput {
        path: Some("src/lib.rs".into()),
        around_line: Some(2),
        indentation: Some(Indentation {
            max_levels: Some(1),
            ..Default::default()
        }),
        ..Default::default()
    });
    assert!(read.ok, "{}", read.output);
    let edit = tools.call_typed(EditInput {
        path: "src/lib.rs".into(),
        edits: Some(vec![EditItem {
            old_string: Some("41".into()),
            new_string: "42".into(),
            ..Default::default()
        }]),
        ..Default::default()
    });
    assert!(edit.ok, "{}", edit.output);
    assert!(s.read("src/lib.rs").contains("42"));
    let write = tools.call_typed(WriteInput {
        path: "notes.md".into(),
        content: "# Notes\n".into(),
    });
    assert!(write.ok, "{}", write.output);
    let run = tools.call_typed(RunInput {
        command: "cat notes.md".into(),
        ..Default::default()
    });
    assert!(run.ok, "{}", run.output);
    assert!(run.output.starts_with("# Notes\n"), "{}", run.output);
}

#[test]
fn a_typed_input_with_a_bad_value_is_refused_naming_the_field() {
    let s = Scratch::new();
    let env = s.toolbox().call_typed(ReadInput {
        path: Some("a.txt".into()),
        limit: Some(0),
        ..Default::default()
    });
    let e = env.error.unwrap();
    assert_eq!(
        (e.code.as_str(), &e.extra["field"]),
        ("invalid_input", &json!("limit"))
    );
}

/// A harness's own struct for one of our tools.
#[derive(Serialize)]
struct Lines {
    path: String,
    line_range: [u64; 2],
}

impl ToolInput for Lines {
    const TOOL: &'static str = "read";
}

#[test]
fn a_harness_may_type_its_own_inputs() {
    let s = Scratch::new();
    s.write("a.txt", "alpha\nbeta\ngamma\n");
    let env = s.toolbox().call_typed(Lines {
        path: "a.txt".into(),
        line_range: [2, 2],
    });
    assert!(env.output.starts_with("     2\tbeta\n"), "{}", env.output);
}
