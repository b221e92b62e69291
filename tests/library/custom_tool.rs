//! A harness's own tools through the public `Tool` trait (SPEC 30.1, seed 002's
//! `registry.register`): offered by `schema`, called by `call` and `batch`, and under the
//! catalog like a built-in.

use crate::Scratch;
use loopr_tool::{Ctx, Error, Output, Tool, ToolboxBuilder};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::sync::Mutex;

/// Reads a file beneath the root through the context: a tool that only looks.
struct WordCount;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WordCountInput {
    /// The file whose words to count, relative to the root.
    path: String,
}

impl Tool for WordCount {
    type Input = WordCountInput;
    fn name(&self) -> &str {
        "word_count"
    }
    fn description(&self) -> &str {
        "Counts the words of a text file. Give its path."
    }
    fn read_only(&self) -> bool {
        true
    }
    fn run(&self, ctx: &Ctx, input: WordCountInput) -> loopr_tool::Result<Output> {
        let text = ctx.read_to_string(&input.path)?;
        let words = text.split_whitespace().count();
        if words == 0 {
            ctx.warn(format!("{} is empty", input.path));
        }
        Ok(Output::new(format!("{words} words")).with_data(json!({"words": words})))
    }
}

/// Keeps state of its own (a harness's tool may hold a client, a database…): changes things.
#[derive(Default)]
struct Tally {
    seen: Mutex<Vec<String>>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct TallyInput {
    /// What to count.
    item: String,
    /// How many times (at least 1).
    #[schemars(range(min = 1))]
    times: Option<u32>,
}

impl Tool for Tally {
    type Input = TallyInput;
    fn name(&self) -> &str {
        "tally"
    }
    fn description(&self) -> &str {
        "Counts an item."
    }
    fn run(&self, ctx: &Ctx, input: TallyInput) -> loopr_tool::Result<Output> {
        if input.item == "boom" {
            panic!("tally cannot count boom");
        }
        if input.item.is_empty() {
            return Err(Error::invalid_input("item", "tally: `item` is empty")
                .with_hint("Name the item to count."));
        }
        let mut seen = self.seen.lock().unwrap();
        for _ in 0..input.times.unwrap_or(1) {
            seen.push(input.item.clone());
        }
        let n = seen.iter().filter(|s| **s == input.item).count();
        Ok(
            Output::new(format!("{}: {n} (session {})", input.item, ctx.session()))
                .with_data(json!({"item": input.item, "count": n})),
        )
    }
}

fn with_tools(s: &Scratch) -> ToolboxBuilder {
    s.builder().register(WordCount).register(Tally::default())
}

#[test]
fn a_registered_tool_is_offered_in_every_format() {
    let s = Scratch::new();
    let tools = with_tools(&s).build().unwrap();
    let names = tools.names();
    assert!(
        names.ends_with(&["word_count".to_string(), "tally".to_string()]),
        "{names:?}"
    );
    let defs = tools.schema("anthropic");
    let wc = defs
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "word_count")
        .unwrap();
    assert_eq!(
        wc["description"],
        "Counts the words of a text file. Give its path."
    );
    let schema = &wc["input_schema"];
    assert_eq!(schema["required"], json!(["path"]));
    assert_eq!(
        schema["properties"]["path"]["description"],
        "The file whose words to count, relative to the root."
    );
    for format in ["openai", "openai-responses", "mcp"] {
        let defs = tools.schema(format);
        assert_eq!(defs.as_array().unwrap().len(), names.len(), "{format}");
        assert!(defs.to_string().contains("tally"), "{format}");
    }
    let mcp = tools.schema("mcp");
    let wc = mcp
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "word_count")
        .unwrap();
    assert_eq!(wc["annotations"]["readOnlyHint"], true, "{wc}");
}

#[test]
fn a_registered_tool_is_called_like_ours() {
    let s = Scratch::new();
    s.write("a.txt", "one two three\n");
    s.write("empty.txt", "");
    let tools = with_tools(&s).session("s1").build().unwrap();
    let env = tools.call("word_count", json!({"path": "a.txt"}));
    assert!(env.ok, "{}", env.output);
    assert_eq!(env.tool, "word_count");
    assert_eq!(env.output, "3 words\n");
    assert_eq!(env.data, Some(json!({"words": 3})));
    let env = tools.call("word_count", json!({"path": "empty.txt"}));
    assert_eq!(env.warnings(), ["empty.txt is empty"]);
    assert!(env.output.ends_with("Warning: empty.txt is empty\n"));
    // State of its own, kept between calls.
    tools.call("tally", json!({"item": "x", "times": 2}));
    let env = tools.call("tally", json!({"item": "x"}));
    assert_eq!(env.output, "x: 3 (session s1)\n");
}

#[test]
fn a_registered_tools_input_is_checked_as_ours() {
    let s = Scratch::new();
    let tools = with_tools(&s).build().unwrap();
    for (input, field) in [
        (json!({}), "path"),
        (json!({"path": 1}), "path"),
        (json!({"path": "a", "extra": 1}), "extra"),
    ] {
        let env = tools.call("word_count", input.clone());
        let e = env.error.unwrap_or_else(|| panic!("{input}"));
        assert_eq!(e.code, "invalid_input", "{input}");
        assert_eq!(e.extra["field"], field, "{input}: {}", e.message);
    }
    // Bounds from the schema, as ours.
    let env = tools.call("tally", json!({"item": "x", "times": 0}));
    assert_eq!(env.error.unwrap().extra["field"], "times");
    // The tool's own refusal.
    let env = tools.call("tally", json!({"item": ""}));
    let e = env.error.unwrap();
    assert_eq!(
        (e.code.as_str(), e.hint.as_deref()),
        ("invalid_input", Some("Name the item to count."))
    );
    assert_eq!(
        env.output,
        "tally: `item` is empty\nHint: Name the item to count.\n"
    );
}

#[test]
fn a_registered_tools_paths_stay_in_the_sandbox() {
    let s = Scratch::new();
    let tools = with_tools(&s).build().unwrap();
    let env = tools.call("word_count", json!({"path": "../catalog.toml"}));
    assert_eq!(env.error.unwrap().code, "outside_root");
    let env = tools.call("word_count", json!({"path": "missing.txt"}));
    assert_eq!(env.error.unwrap().code, "not_found");
    s.catalog("[paths]\ndeny = [\"secret/**\"]\n");
    s.write("secret/key.txt", "k");
    let tools = with_tools(&s).build().unwrap();
    let env = tools.call("word_count", json!({"path": "secret/key.txt"}));
    assert_eq!(env.error.unwrap().code, "path_denied");
}

#[test]
fn a_panic_in_a_registered_tool_answers_that_call_alone() {
    let s = Scratch::new();
    let tools = with_tools(&s).build().unwrap();
    let env = tools.call("tally", json!({"item": "boom"}));
    assert_eq!(env.error.unwrap().code, "internal_error");
    assert!(tools.call("tally", json!({"item": "after"})).ok);
}

#[test]
fn batch_runs_registered_tools_beside_ours() {
    let s = Scratch::new();
    s.write("a.txt", "a b\n");
    let tools = with_tools(&s).build().unwrap();
    let envs = tools
        .batch([
            json!({"name": "word_count", "input": {"path": "a.txt"}}),
            json!({"name": "read", "input": {"path": "a.txt"}}),
            json!({"type": "tool_use", "id": "t1", "name": "tally", "input": {"item": "y"}}),
        ])
        .unwrap();
    assert_eq!(envs[0].output, "2 words\n");
    assert!(envs[1].ok);
    assert_eq!(envs[2].output, "y: 1 (session default)\n");
}

#[test]
fn the_catalog_offers_limits_and_disables_registered_tools() {
    let s = Scratch::new();
    s.catalog(
        "[tools.read]\n[tools.word_count]\ndescription = \"Words in a file.\"\n\
         [tools.tally]\nenabled = false\n\
         [profiles.count]\ntools = [\"word_count\"]\n",
    );
    let tools = with_tools(&s).build().unwrap();
    assert_eq!(tools.names(), ["read", "word_count"]);
    assert_eq!(
        tools.schema("anthropic")[1]["description"],
        "Words in a file."
    );
    assert_eq!(
        tools
            .call("tally", json!({"item": "x"}))
            .error
            .unwrap()
            .code,
        "tool_disabled"
    );
    let counting = with_tools(&s).profile("count").build().unwrap();
    assert_eq!(counting.names(), ["word_count"]);
    assert_eq!(
        counting
            .call("read", json!({"path": "a"}))
            .error
            .unwrap()
            .code,
        "tool_disabled"
    );
    // Without registering it, a catalog naming it has a problem.
    assert!(s.builder().build().is_err());
}

#[test]
fn read_only_mode_offers_registered_tools_that_only_look() {
    let s = Scratch::new();
    let tools = with_tools(&s).read_only(true).build().unwrap();
    let names = tools.names();
    assert!(names.contains(&"word_count".to_string()), "{names:?}");
    assert!(!names.contains(&"tally".to_string()), "{names:?}");
}

#[test]
fn a_name_that_is_invalid_or_taken_is_refused() {
    struct Named(&'static str);
    impl Tool for Named {
        type Input = WordCountInput;
        fn name(&self) -> &str {
            self.0
        }
        fn description(&self) -> &str {
            "A tool."
        }
        fn run(&self, _: &Ctx, _: WordCountInput) -> loopr_tool::Result<Output> {
            Ok(Output::new("ok"))
        }
    }
    let s = Scratch::new();
    for name in [
        "",
        "two words",
        "read",
        "Read",
        "call",
        "mcp",
        "command",
        "x".repeat(65).leak(),
    ] {
        let e = s.builder().register(Named(name)).build().expect_err(name);
        assert_eq!(e.code(), "invalid_input", "{name}");
        assert_eq!(e.extra()["field"], "tools", "{name}");
        assert_eq!(e.extra()["tool"], name, "{name}");
    }
    let e = s
        .builder()
        .register(Named("mine"))
        .register(Named("mine"))
        .build()
        .unwrap_err();
    assert!(e.message().contains("two tools"), "{e}");
    assert!(s.builder().register(Named("my-tool_2")).build().is_ok());
}

#[test]
fn ctx_reads_only_text_files_of_a_sane_size() {
    let s = Scratch::new();
    let tools = with_tools(&s).build().unwrap();
    s.write("dir/a.txt", "a");
    let code = |path: &str| {
        let env = tools.call("word_count", json!({ "path": path }));
        let e = env
            .error
            .unwrap_or_else(|| panic!("{path}: {}", env.output));
        assert_eq!(e.extra["path"], path, "{path}");
        e.code
    };
    assert_eq!(code("dir"), "is_directory");
    std::fs::write(s.root.join("latin1.txt"), b"caf\xe9\n").unwrap();
    assert_eq!(code("latin1.txt"), "binary_file");
    let big = std::fs::File::create(s.root.join("big.txt")).unwrap();
    big.set_len(64 * 1024 * 1024 + 1).unwrap();
    assert_eq!(code("big.txt"), "too_large");
}
