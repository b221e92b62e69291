//! A recorded session per agent (examples/transcripts/: Claude Code's tool_use blocks, Codex's
//! Responses function calls, Gemini CLI's calls) replayed unchanged through `batch` on a tiny
//! project with a bug: each finds the function, reads it, fixes it and runs the test, as that
//! agent's model would (issue 17, item 5).

use serde_json::Value;
use std::path::Path;
use testkit::Env;

fn examples() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/transcripts"))
}

/// A scratch root holding the project, and the transcript with `{ROOT}` made that root.
fn project(transcript: &str) -> (Env, String) {
    let env = Env::new();
    for f in ["calc.py", "test_calc.py"] {
        std::fs::copy(examples().join("project").join(f), env.path(f)).unwrap();
    }
    let text = std::fs::read_to_string(examples().join(transcript)).unwrap();
    // The root as a JSON string body (the transcripts hold it inside strings, some of them
    // JSON-encoded twice: Codex's `arguments`).
    let once = serde_json::to_string(env.root.to_str().unwrap()).unwrap();
    let once = &once[1..once.len() - 1];
    let twice = serde_json::to_string(once).unwrap();
    let twice = &twice[1..twice.len() - 1];
    let text = text.replace(
        "{ROOT}",
        if transcript == "codex.json" {
            twice
        } else {
            once
        },
    );
    (env, text)
}

fn fixed(env: &Env) {
    let calc = String::from_utf8(env.read_file("calc.py")).unwrap();
    assert!(
        calc.contains("return a + b") && !calc.contains("a - b"),
        "{calc}"
    );
}

fn batch(env: &Env, format: &str, text: &str) -> Vec<Value> {
    let out = env.run(&["batch", "--result-format", format], text);
    assert_eq!(out.status, 0, "{}\n{}", out.stdout, out.stderr);
    serde_json::from_str(out.stdout.trim()).unwrap()
}

#[test]
fn claude_code_fixes_the_bug() {
    let (env, text) = project("claude_code.json");
    let results = batch(&env, "anthropic", &text);
    assert_eq!(results.len(), 6);
    for r in &results {
        assert_eq!(r["type"], "tool_result");
        assert_eq!(r["is_error"], false, "{r}");
    }
    let text_of = |i: usize| results[i]["content"].to_string();
    assert!(text_of(0).contains("calc.py:4:def add"), "{}", text_of(0));
    assert!(text_of(4).contains("OK"), "the test passes: {}", text_of(4));
    fixed(&env);
}

#[test]
fn codex_fixes_the_bug() {
    let (env, text) = project("codex.json");
    let results = batch(&env, "openai", &text);
    assert_eq!(results.len(), 6);
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r["type"], "function_call_output", "{r}");
        assert_eq!(r["call_id"], format!("call_{}", i + 1));
    }
    let output = |i: usize| results[i]["output"].as_str().unwrap().to_string();
    assert!(output(1).contains("calc.py"), "{}", output(1));
    assert!(output(3).contains("M calc.py"), "the patch: {}", output(3));
    assert!(
        output(4).contains("OK") && output(4).contains("Exit code: 0"),
        "{}",
        output(4)
    );
    fixed(&env);
}

#[test]
fn gemini_cli_fixes_the_bug() {
    let (env, text) = project("gemini_cli.json");
    let results = batch(&env, "envelope", &text);
    assert_eq!(results.len(), 4);
    for r in &results {
        assert_eq!(r["ok"], true, "{r}");
    }
    assert!(
        results[0]["output"]
            .as_str()
            .unwrap()
            .contains("calc.py:4:def add")
    );
    assert_eq!(results[2]["data"]["replacements"], 1, "{}", results[2]);
    assert!(results[3]["output"].as_str().unwrap().contains("OK"));
    fixed(&env);
}
