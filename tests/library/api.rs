//! The names of SPEC 30.1, their defaults and every error the builder and a call can give.

use crate::Scratch;
use loopr_tool::{Envelope, Error, ErrorInfo, Toolbox, ToolboxBuilder};
use serde_json::{Value, json};

/// A `Toolbox` is shared between a harness's threads (SPEC 30.1).
#[test]
fn the_public_types_are_send_and_sync() {
    fn shared<T: Send + Sync>() {}
    shared::<Toolbox>();
    shared::<ToolboxBuilder>();
    shared::<Envelope>();
    shared::<ErrorInfo>();
    shared::<Error>();
}

#[test]
fn every_setter_takes_what_the_global_option_takes() {
    let s = Scratch::new();
    let tools = Toolbox::builder()
        .root(s.root.clone())
        .session(String::from("loop-1"))
        .state_dir(s.state.as_path())
        .config(&s.config)
        .read_only(false)
        .no_sandbox(false)
        .no_read_check(false)
        .allow_private(false)
        .allow_dangerous(false)
        .sandbox("workspace-write")
        .build()
        .unwrap();
    assert!(tools.names().contains(&"read".to_string()));
    // A profile is a catalog's: with one that defines it, it is taken.
    s.catalog("[profiles.plan]\ntools = [\"read\", \"grep\"]\n");
    let plan = s.builder().profile("plan").build().unwrap();
    assert_eq!(plan.names(), ["read", "grep"]);
}

#[test]
fn read_only_offers_only_tools_that_change_nothing() {
    let s = Scratch::new();
    let tools = s.builder().read_only(true).build().unwrap();
    assert!(tools.names().contains(&"read".to_string()));
    assert!(!tools.names().contains(&"write".to_string()));
    let env = tools.call("write", json!({"path": "a.txt", "content": "x"}));
    assert_eq!(env.error.unwrap().code, "tool_disabled");
}

/// The error of a setting that cannot be used: `invalid_input`, naming the setting.
#[track_caller]
fn refused(b: ToolboxBuilder, field: &str) -> Error {
    let e = b.build().expect_err("the settings are refused");
    assert_eq!(e.code(), "invalid_input", "{e}");
    assert_eq!(e.extra()["field"], field, "{e}");
    assert!(!e.message().is_empty());
    e
}

#[test]
fn a_root_that_does_not_exist_is_refused() {
    let s = Scratch::new();
    let e = refused(s.builder().root(s.root.join("missing")), "root");
    assert!(e.message().contains("missing"), "{e}");
    assert!(e.hint().is_some());
}

#[test]
fn a_root_that_is_a_file_is_refused() {
    let s = Scratch::new();
    s.write("file.txt", "x");
    let e = refused(s.builder().root(s.root.join("file.txt")), "root");
    assert!(e.message().contains("not a directory"), "{e}");
}

#[test]
fn an_invalid_session_is_refused() {
    let s = Scratch::new();
    refused(s.builder().session("../elsewhere"), "session");
}

#[test]
fn an_unknown_sandbox_mode_is_refused() {
    let s = Scratch::new();
    let e = refused(s.builder().sandbox("strict"), "sandbox");
    assert!(e.message().contains("workspace-write"), "{e}");
}

#[test]
fn a_catalog_that_cannot_be_read_is_refused() {
    let s = Scratch::new();
    let e = refused(s.builder().config(s.root.join("nope.toml")), "config");
    assert!(e.message().contains("nope.toml"), "{e}");
}

#[test]
fn a_catalog_with_problems_is_refused_with_each_problem() {
    let s = Scratch::new();
    s.catalog("[tools.read]\nbogus = 1\n");
    let e = refused(s.builder(), "config");
    assert!(
        e.extra()["problems"]
            .as_array()
            .is_some_and(|p| !p.is_empty()),
        "{e:?}"
    );
}

#[test]
fn an_unknown_profile_is_refused() {
    let s = Scratch::new();
    let e = refused(s.builder().profile("nope"), "profile");
    assert!(e.message().contains("nope"), "{e}");
}

#[test]
fn an_unknown_tool_is_unknown_tool() {
    let s = Scratch::new();
    let env = s.toolbox().call("frobnicate", json!({}));
    assert!(!env.ok);
    assert_eq!(env.tool, "frobnicate");
    let e = env.error.as_ref().unwrap();
    assert_eq!(e.code, "unknown_tool");
    assert!(e.message.contains("read"), "the message lists the tools");
    assert_eq!(env.exit_status(), 1);
    // Commands are not tools, in-process as in `call`.
    assert_eq!(
        s.toolbox().call("batch", json!({})).error.unwrap().code,
        "unknown_tool"
    );
}

#[test]
fn bad_input_names_the_field() {
    let s = Scratch::new();
    let tools = s.toolbox();
    let env = tools.call("read", json!({"path": 3}));
    let e = env.error.as_ref().unwrap();
    assert_eq!(
        (e.code.as_str(), &e.extra["field"]),
        ("invalid_input", &json!("path"))
    );
    assert_eq!(env.exit_status(), 2);
    let env = tools.call("read", json!({"path": "a", "colour": "red"}));
    assert_eq!(env.error.unwrap().extra["field"], "colour");
    let env = tools.call("write", json!({"path": "a"}));
    assert_eq!(env.error.unwrap().extra["field"], "content");
    let env = tools.call("read", json!([1, 2]));
    assert_eq!(env.error.unwrap().code, "invalid_input");
}

#[test]
fn aliases_run_as_the_tool_they_stand_for() {
    let s = Scratch::new();
    s.write("a.txt", "alpha\n");
    let env = s
        .toolbox()
        .call("Read", json!({"file_path": s.root.join("a.txt")}));
    assert!(env.ok, "{}", env.output);
    assert_eq!(env.tool, "read");
    assert!(env.output.contains("alpha"));
}

#[test]
fn schema_gives_each_format_and_refuses_others() {
    let s = Scratch::new();
    let tools = s.toolbox();
    for (format, name) in [
        ("anthropic", "/name"),
        ("openai", "/function/name"),
        ("openai-responses", "/name"),
        ("mcp", "/name"),
    ] {
        let defs = tools.schema(format);
        let defs = defs
            .as_array()
            .unwrap_or_else(|| panic!("{format}: {defs}"));
        assert_eq!(defs.len(), tools.names().len(), "{format}");
        assert_eq!(defs[0].pointer(name).unwrap(), "read", "{format}");
    }
    let refused = tools.schema("gemini");
    assert_eq!(refused["ok"], false);
    assert_eq!(refused["error"]["code"], "invalid_input");
    assert_eq!(refused["error"]["field"], "format");
}

#[test]
fn an_envelope_round_trips_through_serde() {
    let s = Scratch::new();
    s.write("a.txt", "alpha\n");
    let tools = s.toolbox();
    for env in [
        tools.call("read", json!({"path": "a.txt"})),
        tools.call(
            "edit",
            json!({"path": "b.txt", "old_string": "a", "new_string": "b"}),
        ),
    ] {
        let text = serde_json::to_string(&env).unwrap();
        let back: Envelope = serde_json::from_str(&text).unwrap();
        assert_eq!(back, env);
        assert_eq!(serde_json::to_string(&back).unwrap(), text);
    }
}

#[test]
fn batch_answers_each_call_in_order_in_any_shape() {
    let s = Scratch::new();
    s.write("a.txt", "alpha\n");
    s.write("b.txt", "beta\n");
    let tools = s.toolbox();
    let envs = tools
        .batch([
            json!({"name": "read", "input": {"path": "a.txt"}}),
            json!({"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "b.txt"}}),
            json!({"name": "nope", "input": {}}),
            json!({"type": "function", "function": {"name": "write", "arguments": "{\"path\": \"c.txt\", \"content\": \"gamma\\n\"}"}, "id": "call_1"}),
        ])
        .unwrap();
    assert_eq!(envs.len(), 4);
    assert!(envs[0].output.contains("alpha"));
    assert!(envs[1].output.contains("beta"));
    assert_eq!(envs[2].error.as_ref().unwrap().code, "unknown_tool");
    assert!(envs[3].ok, "{}", envs[3].output);
    assert_eq!(s.read("c.txt"), "gamma\n");
    assert!(tools.batch([]).unwrap().is_empty());
}

#[test]
fn a_batch_over_the_limit_is_refused_whole() {
    let s = Scratch::new();
    let calls = (0..10_001).map(|_| json!({"name": "read", "input": {"path": "a"}}));
    let e = s.toolbox().batch(calls).unwrap_err();
    assert_eq!(e.code(), "too_large");
    assert_eq!(e.extra()["limit"], 10_000);
}

#[test]
fn error_codes_are_the_contracts() {
    assert!(Error::CODES.contains(&"stale_read"));
    let e = Error::new("not_found", "gone")
        .with_hint("look")
        .with("path", "x");
    assert_eq!(
        (e.code(), e.message(), e.hint()),
        ("not_found", "gone", Some("look"))
    );
    let info = e.to_info();
    assert_eq!(info.extra["path"], "x");
    assert_eq!(e.to_string(), "not_found: gone (look)");
    // A code outside the contract is a caller's bug: it becomes internal_error, naming it.
    let odd = Error::new("db_error", "the database is down");
    assert_eq!(odd.code(), "internal_error");
    assert_eq!(odd.extra()["code_given"], "db_error");
    let field = Error::invalid_input("ticket", "no such ticket");
    assert_eq!(field.extra()["field"], Value::from("ticket"));
}

#[test]
fn a_helper_that_is_not_an_executable_is_refused() {
    let s = Scratch::new();
    s.write("not-a-binary", "");
    refused(s.builder().helper(s.root.join("missing")), "helper");
    refused(s.builder().helper(s.root.join("not-a-binary")), "helper");
}

#[test]
fn run_starts_its_helpers_from_the_named_binary() {
    let s = Scratch::new();
    let tools = s.toolbox();
    let env = tools.call("run", json!({"command": "echo in-process"}));
    assert!(env.ok, "{}", env.output);
    assert!(env.output.starts_with("in-process\n"));
    // A background job's supervisor too.
    let env = tools.call("run", json!({"command": "echo later", "background": true}));
    assert!(env.ok, "{}", env.output);
    let id = env.data.unwrap()["id"].clone();
    let done = tools.call("jobs", json!({"action": "output", "id": id, "block": true}));
    assert!(done.output.contains("later"), "{}", done.output);
}

/// SPEC 31.1 in-process: `.client(name)` sizes results for that agent; an unknown one is
/// refused naming the setting.
#[test]
fn the_client_setter_sizes_results_and_refuses_an_unknown_client() {
    let s = Scratch::new();
    let body: String = (0..3_000)
        .map(|i| format!("{i:05} {}\n", "z".repeat(40)))
        .collect();
    s.write("big.txt", &body);
    let codex = s.builder().client("codex").build().unwrap();
    let env = codex.call("read", json!({"path": "big.txt"}));
    assert!(env.ok, "{:?}", env.error);
    assert!(env.output.chars().count() <= 40_000, "{}", env.output.len());
    assert!(env.output.contains("continue with offset="));
    let e = refused(s.builder().client("emacs"), "client");
    assert!(e.message().contains("gemini-cli"), "{e}");
}

/// SPEC 29 through the library: the mode, `approval_required` with its approval, and
/// `call_approved` for that exact call, once.
#[test]
fn approvals_round_trip_through_the_toolbox() {
    let s = Scratch::new();
    s.catalog("[permissions]\ndeny = [\"Write(/secret*)\"]\n");
    let tools = s.builder().permission_mode("ask").build().unwrap();
    let input = json!({"path": "a.txt", "content": "hi\n"});
    let env = tools.call("write", input.clone());
    let err = env.error.unwrap();
    assert_eq!(err.code, "approval_required");
    let approval = &err.extra["approval"];
    assert_eq!(approval["summary"], "write: a.txt (+1 -0)");
    assert!(!s.root.join("a.txt").exists());
    let id = approval["id"].as_str().unwrap();
    assert!(tools.call_approved("write", input.clone(), id).ok);
    assert_eq!(s.read("a.txt"), "hi\n");
    let again = tools.call_approved("write", input, id);
    assert_eq!(again.error.unwrap().code, "approval_required");
    let denied = tools.call("write", json!({"path": "secret.txt", "content": "x"}));
    assert_eq!(denied.error.unwrap().extra["rule"], "Write(/secret*)");
    let bad = s
        .builder()
        .permission_mode("sometimes")
        .build()
        .unwrap_err();
    assert_eq!(bad.extra()["field"], "permission_mode");
}
