//! Seed 000's loop, in-process: a Rust harness hands the model loopr-tool's definitions, runs
//! each tool call the model makes through a `Toolbox` (no process per call), and sends the
//! results back, until the model answers without a tool call.
//!
//! The model here is scripted (no network): it reads a file, edits it, runs a command to check
//! the change, then says it is done. Swap `ScriptedModel` for a client of a real API; the loop
//! stays as it is.
//!
//!     cargo run --example harness                 # on a scratch project it makes
//!     cargo run --example harness -- DIR          # on DIR (it must hold src/main.rs)

use loopr_tool::{Tool, Toolbox};
use serde_json::{Value, json};
use std::error::Error;
use std::path::PathBuf;

/// A stand-in for the model API: given the tools and the conversation so far, the assistant's
/// next message (Anthropic's Messages shape: content blocks, `tool_use` among them).
struct ScriptedModel;

impl ScriptedModel {
    fn respond(&self, tools: &Value, messages: &[Value]) -> Value {
        let offered = |name: &str| {
            tools
                .as_array()
                .is_some_and(|t| t.iter().any(|d| d["name"] == name))
        };
        assert!(offered("read") && offered("edit") && offered("run"));
        // What the last tool result said, to react to it as a model would.
        let last = messages
            .last()
            .and_then(|m| m["content"].as_array())
            .and_then(|c| c.first())
            .cloned()
            .unwrap_or(Value::Null);
        let turn = messages.iter().filter(|m| m["role"] == "assistant").count();
        let tool_use = |id: &str, name: &str, input: Value| {
            json!({"role": "assistant", "content": [
                {"type": "tool_use", "id": id, "name": name, "input": input}
            ]})
        };
        match turn {
            0 => tool_use("toolu_1", "read", json!({"path": "src/main.rs"})),
            1 => {
                assert_eq!(
                    last["is_error"], false,
                    "the read failed: {}",
                    last["content"]
                );
                tool_use(
                    "toolu_2",
                    "edit",
                    json!({"path": "src/main.rs", "old_string": "Hello, world", "new_string": "Hello, loopr"}),
                )
            }
            2 => tool_use(
                "toolu_3",
                "run",
                json!({"command": "grep -n 'Hello' src/main.rs", "description": "check the greeting"}),
            ),
            _ => json!({"role": "assistant", "content": [
                {"type": "text", "text": "The greeting now says Hello, loopr."}
            ]}),
        }
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    // `run` starts its keeper from this very executable: let it answer as loopr-tool would.
    loopr_tool::helper_main();

    let scratch = tempfile::tempdir()?;
    let project = match std::env::args().nth(1) {
        Some(dir) => PathBuf::from(dir),
        None => {
            let p = scratch.path().join("project");
            std::fs::create_dir_all(p.join("src"))?;
            std::fs::write(
                p.join("src/main.rs"),
                "fn main() {\n    println!(\"Hello, world\");\n}\n",
            )?;
            p
        }
    };
    let tools = Toolbox::builder()
        .root(&project)
        .state_dir(scratch.path().join("state"))
        .session("seed-000-loop")
        .register(Done)
        .build()?;

    // The definitions go with every request.
    let definitions = tools.schema("anthropic");
    let model = ScriptedModel;
    let mut messages = vec![
        json!({"role": "user", "content": "Make the greeting in src/main.rs say Hello, loopr."}),
    ];

    loop {
        let reply = model.respond(&definitions, &messages);
        let blocks = reply["content"].as_array().cloned().unwrap_or_default();
        messages.push(reply);
        let calls: Vec<&Value> = blocks.iter().filter(|b| b["type"] == "tool_use").collect();
        if calls.is_empty() {
            for b in &blocks {
                println!("model: {}", b["text"].as_str().unwrap_or(""));
            }
            break;
        }
        let mut results = vec![];
        for call in calls {
            let name = call["name"].as_str().unwrap_or("");
            let envelope = tools.call(name, call["input"].clone());
            println!("-> {name} {}", call["input"]);
            for line in envelope.output.lines().take(6) {
                println!("   {line}");
            }
            results.push(json!({
                "type": "tool_result",
                "tool_use_id": call["id"],
                "content": envelope.output,
                "is_error": !envelope.ok,
            }));
        }
        messages.push(json!({"role": "user", "content": results}));
    }

    let text = std::fs::read_to_string(project.join("src/main.rs"))?;
    assert!(text.contains("Hello, loopr"), "{text}");
    // The harness's own tool is offered beside ours.
    let done = tools.call("done", json!({"summary": "greeting changed"}));
    println!("{}", done.output.trim_end());
    Ok(())
}

/// A tool of the harness's own, registered beside loopr-tool's (seed 000's `complete_task`
/// would be one): offered in `schema`, called like the others.
struct Done;

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct DoneInput {
    /// What was done, in a sentence.
    summary: String,
}

impl Tool for Done {
    type Input = DoneInput;
    fn name(&self) -> &str {
        "done"
    }
    fn description(&self) -> &str {
        "Says the task is finished, with a one-sentence summary."
    }
    fn read_only(&self) -> bool {
        true
    }
    fn run(
        &self,
        ctx: &loopr_tool::Ctx,
        input: DoneInput,
    ) -> loopr_tool::Result<loopr_tool::Output> {
        Ok(loopr_tool::Output::new(format!(
            "finished in session {}: {}",
            ctx.session(),
            input.summary
        )))
    }
}
