//! SPEC 22.1 through the official MCP Python SDK (tests/mcp/clients.rs installs it): what a
//! client that prefers `structuredContent` shows the model, calls in flight at once,
//! cancellation, progress, and a panicking call. tests/mcp/scenarios.py drives the server and
//! reports what crossed the wire and when; the assertions are here.

use serde_json::Value;
use std::path::Path;
use std::process::Command;
use testkit::Env;

/// Runs one scenario of tests/mcp/scenarios.py against the debug binary; its report.
fn scenario(name: &str, env: &Env) -> Value {
    let python = crate::clients::python_with_mcp_sdk();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/scenarios.py");
    let out = Command::new(python)
        .arg(script)
        .arg(name)
        .arg(testkit::bin())
        .arg(&env.root)
        .arg(&env.state)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name} failed:\n{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{name}: no report ({e}):\n{stderr}"));
    assert!(
        report.get("exception").is_none(),
        "{name}: the session failed: {}\n{stderr}",
        report["exception"]
    );
    report
}

/// The result of a call the script made, or a failure naming what came back instead.
#[track_caller]
fn result<'a>(outcome: &'a Value, what: &str) -> &'a Value {
    outcome
        .get("result")
        .unwrap_or_else(|| panic!("{what}: no result: {outcome}"))
}

fn text(result: &Value) -> String {
    result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b["text"].as_str())
        .collect()
}

#[test]
fn a_client_that_prefers_structured_content_sees_the_file_and_the_output() {
    if crate::clients::skipped("the structured-content client test") {
        return;
    }
    let env = Env::new();
    let report = scenario("structured-preferring", &env);
    for mode in ["default", "structured"] {
        let m = &report[mode];
        assert!(m.get("exception").is_none(), "{mode}: {}", m["exception"]);
        for (tool, wanted) in [
            ("read", "the model must see this line"),
            ("read", "and this one"),
            ("run", "hello-from-run"),
        ] {
            let r = result(&m[tool]["outcome"], tool);
            assert_eq!(r["isError"], false, "{mode} {tool}: {r}");
            let seen = m[tool]["model_sees"].as_str().unwrap();
            assert!(
                seen.contains(wanted),
                "{mode}: the model is shown {seen:?} for {tool}, without {wanted:?}"
            );
        }
    }
    // SPEC 24.5: without --structured no tool declares an outputSchema and no result carries
    // structuredContent; with it every tool does (and the SDK validated each result against
    // its tool's schema before returning it).
    let default = &report["default"];
    assert_eq!(default["with_output_schema"], Value::Array(vec![]));
    assert_eq!(default["read"]["has_structured"], false);
    assert_eq!(default["run"]["has_structured"], false);
    let structured = &report["structured"];
    assert_eq!(structured["with_output_schema"], structured["tools"]);
    for tool in ["read", "run"] {
        assert_eq!(structured[tool]["has_structured"], true, "{tool}");
        let sc = &result(&structured[tool]["outcome"], tool)["structuredContent"];
        assert!(sc["output"].is_string() && sc["data"].is_object(), "{sc}");
    }
}

#[test]
fn tools_list_keeps_every_tool_loaded_in_claude_code() {
    if crate::clients::skipped("the tools/list _meta test") {
        return;
    }
    let env = Env::new();
    let report = scenario("structured-preferring", &env);
    for mode in ["default", "structured"] {
        let meta = report[mode]["meta"].as_object().unwrap();
        assert!(!meta.is_empty());
        for (tool, m) in meta {
            assert_eq!(m["anthropic/alwaysLoad"], true, "{mode} {tool}: {m}");
            let cap = m["anthropic/maxResultSizeChars"].as_u64();
            assert!(
                cap.is_some_and(|c| c > 0 && c <= 500_000),
                "{mode} {tool}: {m}"
            );
        }
    }
}

#[test]
fn reads_in_flight_beside_a_run_are_answered_before_it_ends() {
    if crate::clients::skipped("the concurrent-calls test") {
        return;
    }
    let env = Env::new();
    let r = scenario("concurrent", &env);
    assert_eq!(r["in_flight"], 20, "{r}");
    assert_eq!(r["errors"], serde_json::json!({}), "every call succeeds");
    let run_done = r["completed"]["run"]["t"].as_f64().unwrap();
    let run_answered = r["wire"]["run"]["answered"].as_f64().unwrap();
    // The run really slept: without this, "reads before the run" would prove nothing.
    assert!(run_done >= 3.0, "run came back after {run_done} s");
    for i in 0..19 {
        let key = format!("read{i}");
        let done = r["completed"][&key]["t"].as_f64().unwrap();
        let answered = r["wire"][&key]["answered"].as_f64().unwrap();
        assert!(
            done < 3.0 && answered < run_answered,
            "{key} answered at {answered:.3} s (returned at {done:.3} s), the run at \
             {run_answered:.3} s: a read waited behind the run"
        );
    }
}

#[test]
fn a_cancelled_run_leaves_no_process_and_gets_no_response() {
    if crate::clients::skipped("the cancellation test") {
        return;
    }
    let env = Env::new();
    let r = scenario("cancel", &env);
    assert_eq!(r["timed_out"], false, "{r}");
    assert!(
        r["marker_processes_before"].as_u64() >= Some(3),
        "bash and its two sleeps were running before the cancel: {r}"
    );
    let run_id = &r["run_id"];
    assert!(
        r["cancel_notifications"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| &c["requestId"] == run_id),
        "the SDK sent notifications/cancelled for request {run_id}: {r}"
    );
    assert_eq!(
        r["marker_processes_after"],
        Value::Array(vec![]),
        "processes of the cancelled run still alive {:.1} s after the cancel",
        r["gone_after_s"].as_f64().unwrap_or(0.0)
    );
    assert_eq!(
        r["response_for_cancelled"],
        Value::Null,
        "a cancelled request is never answered (MCP)"
    );
    let after = result(&r["after"], "the read after the cancel");
    assert_eq!(after["isError"], false, "{after}");
    assert!(text(after).contains("still serving"), "{after}");
}

#[test]
fn a_run_with_a_progress_token_reports_its_output_lines() {
    if crate::clients::skipped("the progress test") {
        return;
    }
    let env = Env::new();
    let r = scenario("progress", &env);
    assert!(
        !r["sent_token"].is_null(),
        "the SDK sent a progressToken: {r}"
    );
    let done = result(&r["outcome"], "the run");
    assert_eq!(done["isError"], false, "{done}");
    assert!(text(done).contains("line3"), "{done}");
    let progress = r["progress"].as_array().unwrap();
    // The run takes 3 s and SPEC 22.1 asks for one at least every 2 s.
    assert!(
        progress.len() >= 2,
        "{} progress notifications for a 3 s run: {r}",
        progress.len()
    );
    assert!(
        progress
            .iter()
            .any(|p| p["message"].as_str().is_some_and(|m| m.contains("line"))),
        "no progress message holds an output line: {progress:?}"
    );
}

#[test]
fn a_panicking_call_is_answered_in_its_slot_and_the_server_goes_on() {
    if crate::clients::skipped("the panic test") {
        return;
    }
    let env = Env::new();
    let r = scenario("panic", &env);
    for mode in ["default", "structured"] {
        let m = &r[mode];
        assert!(m.get("exception").is_none(), "{mode}: {}", m["exception"]);
        let panicked = result(&m["panicking"], "the panicking grep");
        assert_eq!(panicked["isError"], true, "{mode}: {panicked}");
        assert!(!text(panicked).is_empty(), "{mode}: {panicked}");
        if mode == "structured" {
            assert_eq!(
                panicked["structuredContent"]["error"]["code"], "internal_error",
                "{panicked}"
            );
        }
        let after = result(&m["after"], "the read after the panic");
        assert_eq!(after["isError"], false, "{mode}: {after}");
        assert!(text(after).contains("after the panic"), "{mode}: {after}");
    }
}
