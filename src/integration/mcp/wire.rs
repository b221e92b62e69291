//! What `mcp` writes: JSON-RPC messages, one per line, from any thread. Tool results are written
//! as they are serialised (grep's data can be large), with the text the model must see in
//! `content` (SPEC 22.1): `structuredContent` only under `--structured`, and then holding
//! `output` too, since Claude Code and pydantic-ai hand a model `structuredContent` instead of
//! `content` whenever both are there.

use super::super::schema::{self, Flavor};
use crate::envelope::{Body, Envelope};
use serde_json::{Value, json};
use std::io::{self, BufWriter, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;

/// The protocol stream. Each message is written and flushed whole under the lock, so lines
/// from calls finishing at once never interleave. On stdio it is stdout; over HTTP each
/// exchange (one POST) has its own, whose messages go to the thread answering that POST.
pub struct Out {
    stream: Mutex<Box<dyn Write + Send>>,
    gone: AtomicBool,
}

/// Over HTTP: each flushed message (the text before its newline) is sent whole to the exchange.
/// The exchange ends when every `Out` holding its sender is dropped.
struct Messages {
    buf: Vec<u8>,
    to: Sender<Vec<u8>>,
}

impl Write for Messages {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        }
        if self.buf.is_empty() {
            return Ok(());
        }
        let msg = std::mem::take(&mut self.buf);
        self.to
            .send(msg)
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
    }
}

impl Out {
    pub fn stdout() -> Out {
        Out::over(Box::new(BufWriter::with_capacity(64 * 1024, io::stdout())))
    }

    /// Messages sent one by one to `to` (an HTTP exchange).
    pub fn channel(to: Sender<Vec<u8>>) -> Out {
        Out::over(Box::new(Messages { buf: vec![], to }))
    }

    fn over(stream: Box<dyn Write + Send>) -> Out {
        Out {
            stream: Mutex::new(stream),
            gone: AtomicBool::new(false),
        }
    }

    /// Whether the client has stopped reading (a write failed).
    pub fn gone(&self) -> bool {
        self.gone.load(Ordering::Relaxed)
    }

    fn write_with(&self, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) {
        let mut out = self.stream.lock().unwrap_or_else(|e| e.into_inner());
        let done = write(&mut *out)
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush());
        if done.is_err() {
            self.gone.store(true, Ordering::Relaxed);
        }
    }

    pub fn send(&self, msg: &Value) {
        self.write_with(|out| Ok(serde_json::to_writer(out, msg)?));
    }

    pub fn result(&self, id: &Value, result: Value) {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }

    pub fn error(&self, id: &Value, code: i64, message: &str) {
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}),
        );
    }

    pub fn notify(&self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// A `tools/call` result. `stateless`: the request spoke the 2026-07-28 revision, whose
    /// results carry `resultType`.
    pub fn tool_result(&self, id: &Value, env: Envelope, structured: bool, stateless: bool) {
        self.write_with(|out| write_tool_result(out, id, env, structured, stateless));
    }
}

fn write_tool_result(
    out: &mut dyn Write,
    id: &Value,
    env: Envelope,
    structured: bool,
    stateless: bool,
) -> io::Result<()> {
    let mut env = env;
    let images = match &mut env.body {
        Body::Data { data, .. } => data.take_images(),
        Body::Error { .. } => vec![],
    };
    out.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":")?;
    serde_json::to_writer(&mut *out, id)?;
    out.write_all(b",\"result\":{\"content\":[{\"type\":\"text\",\"text\":")?;
    serde_json::to_writer(&mut *out, &env.output)?;
    out.write_all(b"}")?;
    // Images go after the text, each as its own block (SPEC 18.2, 22.1).
    for img in &images {
        out.write_all(b",{\"type\":\"image\",\"data\":")?;
        serde_json::to_writer(&mut *out, &img.base64)?;
        out.write_all(b",\"mimeType\":")?;
        serde_json::to_writer(&mut *out, &img.mime)?;
        out.write_all(b"}")?;
    }
    write!(out, "],\"isError\":{}", !env.ok)?;
    if stateless {
        out.write_all(b",\"resultType\":\"complete\"")?;
    }
    if structured {
        out.write_all(b",\"structuredContent\":{\"output\":")?;
        serde_json::to_writer(&mut *out, &env.output)?;
        match env.body {
            Body::Data { data, warnings } => {
                out.write_all(b",\"data\":")?;
                data.write_json(out, &warnings)?;
            }
            Body::Error { error, data } => {
                out.write_all(b",\"error\":")?;
                serde_json::to_writer(&mut *out, &error)?;
                if let Some(d) = data {
                    out.write_all(b",\"data\":")?;
                    serde_json::to_writer(&mut *out, &d)?;
                }
            }
        }
        out.write_all(b"}")?;
    }
    out.write_all(b"}}")
}

/// The size a result of at most `text` characters may reach as the client measures it, at most
/// the 500,000 Claude Code accepts. In `--structured` mode the text is sent twice (`content` and
/// `structuredContent.output`) inside JSON, with `data` beside it: the declared size counts that,
/// so Claude Code never writes to a file a result we sent whole (SPEC 31.1). JSON escapes add a
/// character for each tab, newline and quote — read's lines have two — so a fifth is added for
/// them, and 16,384 for `data`.
pub fn declared_size(text: usize, structured: bool) -> usize {
    let size = if structured {
        2 * (text + text / 5) + 16_384
    } else {
        text
    };
    size.min(500_000)
}

/// What every structured result looks like: the text, then `data` or `error`.
fn output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "output": {"type": "string", "description": "The text meant for the model, as in content."},
            "data": {"type": "object", "description": "The tool's structured result (on success; on failure only where the tool gives one, as run does)."},
            "error": {
                "type": "object",
                "description": "On failure: code, message, hint and the code's extra fields.",
                "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                "required": ["code", "message"],
            },
        },
        "required": ["output"],
    })
}

/// A tool as `tools/list` shows it. Claude Code defers MCP tools behind a tool search unless a
/// tool opts out, and writes results over 50,000 characters to a file: `_meta` asks for neither
/// (SPEC 24.5). `budget`: what the client passes on whole, when it is known (SPEC 31.1).
pub fn definition(r: &crate::dispatch::Resolved, structured: bool, budget: Option<usize>) -> Value {
    let tool = r.tool;
    let mut def = schema::offered_definition(r, Flavor::Mcp, false);
    let text = budget.map_or(tool.output_cap(), |b| b.min(tool.output_cap()));
    def["_meta"] = json!({
        "anthropic/alwaysLoad": true,
        "anthropic/maxResultSizeChars": declared_size(text, structured),
    });
    if structured {
        def["outputSchema"] = output_schema();
    }
    def
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::Success;
    use crate::error::ToolError;

    fn written(env: Envelope, structured: bool, stateless: bool) -> Value {
        let mut buf = Vec::new();
        write_tool_result(&mut buf, &json!(7), env, structured, stateless).unwrap();
        serde_json::from_slice(&buf).unwrap()
    }

    #[test]
    fn the_text_is_in_content_and_in_structured_content() {
        let ok = || Envelope::success("read", Success::new("line\n".into(), json!({"n": 1})), &[]);
        let plain = written(ok(), false, false);
        assert_eq!(
            plain,
            json!({"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "line\n"}], "isError": false}})
        );
        let s = written(ok(), true, true);
        assert_eq!(
            s["result"]["structuredContent"],
            json!({"output": "line\n", "data": {"n": 1}})
        );
        assert_eq!(s["result"]["resultType"], "complete");
        let failed = Envelope::failure(
            "read",
            ToolError::new(crate::error::Code::NotFound, "gone"),
            &[],
        );
        let f = written(failed, true, false);
        assert_eq!(f["result"]["isError"], true);
        assert_eq!(f["result"]["structuredContent"]["output"], "gone\n");
        assert_eq!(
            f["result"]["structuredContent"]["error"]["code"],
            "not_found"
        );
    }

    #[test]
    fn an_image_is_its_own_block_and_leaves_structured_content() {
        let img = || {
            let data = json!({"path": "a.png", "image": {"mime": "image/png", "width": 2, "height": 1, "bytes": 4, "base64": "AAAA"}});
            Envelope::success(
                "read",
                Success::new("Image a.png: PNG, 2x1, 4 B\n".into(), data),
                &[],
            )
        };
        let r = written(img(), true, false);
        assert_eq!(
            r["result"]["content"][1],
            json!({"type": "image", "data": "AAAA", "mimeType": "image/png"})
        );
        let image = &r["result"]["structuredContent"]["data"]["image"];
        assert_eq!(image["width"], 2);
        assert!(image.get("base64").is_none());
        let plain = written(img(), false, false);
        assert_eq!(plain["result"]["content"].as_array().unwrap().len(), 2);
    }
}
