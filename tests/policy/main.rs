//! The catalog (exposed tools, limits, path rules, hooks, command tools, lanes) and other agents'
//! calls with their meaning (the dialects).

mod carried;
mod catalog;
mod dialects;
mod hook_arguments;
mod named_hints;
mod permissions;
mod seed_names;

use serde_json::Value;
use std::path::{Path, PathBuf};
use testkit::{Env, Out, finish};

/// Writes a catalog file beside the env's root (never inside it: a catalog inside the root is
/// used only when named, 19.1) and returns its path.
pub fn catalog(env: &Env, text: &str) -> PathBuf {
    let p = env.dir.path().join("catalog.toml");
    std::fs::write(&p, text).unwrap();
    p
}

/// The binary with `--config FILE`, more arguments and `stdin`.
pub fn with(env: &Env, file: &Path, args: &[&str], stdin: &str) -> Out {
    let mut c = env.cmd();
    c.arg("--config")
        .arg(file)
        .args(args)
        .write_stdin(stdin.to_string());
    finish(c)
}

/// One tool call with `--config FILE` and its JSON input.
pub fn call_with(env: &Env, file: &Path, tool: &str, input: serde_json::Value) -> Out {
    with(env, file, &[tool], &input.to_string())
}

/// Sends JSON-RPC lines to `mcp` and returns the responses by id.
pub fn mcp(env: &Env, pre: &[&str], calls: &[Value]) -> Vec<Value> {
    use std::io::Write;
    use std::process::Stdio;
    let mut cmd = env.std_cmd();
    cmd.args(pre)
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = cmd.spawn().unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        let init = serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
        writeln!(stdin, "{init}").unwrap();
        writeln!(
            stdin,
            "{}",
            serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
        )
        .unwrap();
        for c in calls {
            writeln!(stdin, "{c}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub fn by_id(responses: &[Value], id: i64) -> &Value {
    responses
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no response {id} in {responses:#?}"))
}
