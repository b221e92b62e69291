//! `mcp` (SPEC §14, 16.9): a Model Context Protocol server on stdio.
//!
//! JSON-RPC 2.0, one message per line. Every registered tool is served through the same
//! dispatch as the CLI, under the same globals (root, session, sandbox). stdout carries protocol
//! messages only; anything else goes to stderr. EOF on stdin ends the server cleanly.

use super::schema::{self, Flavor};
use crate::context::Globals;
use crate::dispatch;
use crate::envelope::{Body, Envelope};
use crate::tools;
use serde_json::{Value, json};
use std::io::{self, BufRead, BufWriter, Write};

/// Newest first; a client asking for one of these gets it, any other gets the newest.
const VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn result(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// One message out: most are small `Value`s; a tool call's result carries the tool's data,
/// which is written out as it is serialised (it may be large: grep with head_limit 0).
pub enum Reply {
    Message(Value),
    ToolResult(Value, Envelope),
}

impl Reply {
    fn write_json(self, out: &mut dyn Write) -> io::Result<()> {
        let (id, env) = match self {
            Reply::Message(v) => return Ok(serde_json::to_writer(out, &v)?),
            Reply::ToolResult(id, env) => (id, env),
        };
        // The fields in the order `result(id, json!({…}))` would give them.
        out.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":")?;
        serde_json::to_writer(&mut *out, &id)?;
        out.write_all(b",\"result\":{\"content\":[{\"type\":\"text\",\"text\":")?;
        serde_json::to_writer(&mut *out, &env.output)?;
        write!(out, "}}],\"isError\":{},\"structuredContent\":", !env.ok)?;
        match env.body {
            Body::Data { data, warnings } => data.write_json(out, &warnings)?,
            Body::Error { error, data } => {
                let mut e = json!({"error": error});
                if let Some(d) = data {
                    e["data"] = d;
                }
                serde_json::to_writer(&mut *out, &e)?;
            }
        }
        out.write_all(b"}}")
    }
}

/// Serves until EOF. Returns the process exit status.
pub fn serve(g: &Globals) -> i32 {
    let stdin = std::io::stdin();
    let mut out = BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            eprintln!("loopr-tool mcp: stdin is not UTF-8; stopping");
            return 1;
        };
        if line.trim().is_empty() {
            continue;
        }
        if let Some(reply) = handle(g, &line)
            && reply
                .write_json(&mut out)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush())
                .is_err()
        {
            return 0; // the client has gone
        }
    }
    0
}

/// One message in, at most one message out (notifications get none).
pub fn handle(g: &Globals, line: &str) -> Option<Reply> {
    let msg: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            return Some(Reply::Message(error(
                Value::Null,
                PARSE_ERROR,
                &format!("parse error: {e}"),
            )));
        }
    };
    let Some(obj) = msg.as_object() else {
        return Some(Reply::Message(error(
            Value::Null,
            INVALID_REQUEST,
            "a message must be a JSON object",
        )));
    };
    let id = obj.get("id").cloned();
    let Some(method) = obj.get("method").and_then(Value::as_str) else {
        // A response from the client (we send no requests) or garbage: answer only requests.
        return id.map(|id| {
            Reply::Message(error(
                id,
                INVALID_REQUEST,
                "a request needs a string `method`",
            ))
        });
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return id
            .map(|id| Reply::Message(error(id, INVALID_REQUEST, "`jsonrpc` must be \"2.0\"")));
    }
    let params = obj.get("params").cloned().unwrap_or(json!({}));
    let Some(id) = id else {
        // Notifications (notifications/initialized, cancelled, …) need no answer.
        return None;
    };
    let reply = match method {
        "initialize" => {
            let asked = params
                .get("protocolVersion")
                .and_then(Value::as_str)
                .unwrap_or("");
            let version = VERSIONS
                .iter()
                .find(|v| **v == asked)
                .unwrap_or(&VERSIONS[0]);
            result(
                id,
                json!({
                    "protocolVersion": version,
                    "capabilities": {"tools": {"listChanged": false}},
                    "serverInfo": {"name": "loopr-tool", "version": env!("CARGO_PKG_VERSION")},
                    "instructions": "File, search and shell tools confined to one root directory. Read a file before editing or overwriting it.",
                }),
            )
        }
        "ping" => result(id, json!({})),
        "tools/list" => {
            let list: Vec<Value> = tools::TOOLS
                .iter()
                .map(|t| schema::definition(*t, Flavor::Mcp))
                .collect();
            result(id, json!({"tools": list}))
        }
        "tools/call" => return Some(call(g, id, &params)),
        _ => error(id, METHOD_NOT_FOUND, &format!("method not found: {method}")),
    };
    Some(Reply::Message(reply))
}

fn call(g: &Globals, id: Value, params: &Value) -> Reply {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return Reply::Message(error(
            id,
            INVALID_PARAMS,
            "tools/call needs params.name (a string)",
        ));
    };
    let args = params.get("arguments").cloned().unwrap_or(json!({}));
    if !args.is_object() {
        return Reply::Message(error(
            id,
            INVALID_PARAMS,
            "params.arguments must be an object",
        ));
    }
    let Some(resolved) = dispatch::lookup(name) else {
        return Reply::Message(error(id, INVALID_PARAMS, &format!("unknown tool: {name}")));
    };
    Reply::ToolResult(id, resolved.run(g, args))
}
