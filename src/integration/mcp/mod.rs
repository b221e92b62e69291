//! `mcp` (SPEC 14, 22.1, 24.5, 24.7): a Model Context Protocol server on stdio.
//!
//! JSON-RPC 2.0, one message per line. The reading thread answers the cheap methods itself and
//! hands every `tools/call` to a thread of the pool (at most 64 run at once), which waits for its turn (`sched`: reads
//! never wait behind a running command), runs the call through the same dispatch as the CLI,
//! and writes its response when done — so responses may come out of order. A call can be
//! cancelled (`notifications/cancelled`: no response is sent) and reports progress when the
//! client asked (`_meta.progressToken`). Without `--root`, a client that offers roots is asked
//! for them and its first `file://` root becomes the sandbox root.
//!
//! Both wires are spoken: the 2025 handshake (`initialize`) and the stateless 2026-07-28
//! revision (`server/discover`, `_meta` on every request, `resultType` on results).
//!
//! stdout carries protocol messages only; anything else goes to stderr. EOF on stdin ends the
//! server once the calls in flight have answered.

mod pool;
mod wire;

use pool::Pool;

use super::sched::Scheduler;
use crate::context::Globals;
use crate::control::Control;
use crate::dispatch::{self, Prepared};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use wire::{INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, Out, PARSE_ERROR};

/// Handshake versions, newest first: a client asking for one of these gets it, any other gets
/// the newest.
const VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// The stateless revision: no handshake, `_meta` on every request.
const STATELESS: &str = "2026-07-28";
const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

const INSTRUCTIONS: &str = "File, search and shell tools confined to one root directory. Read a file before editing or overwriting it.";
/// How often a call with a progress token hears from us (SPEC 22.1: at least every 2 s).
const PROGRESS_EVERY: Duration = Duration::from_secs(1);
/// How long a call waits for the client's answer to `roots/list` before using the working
/// directory.
const ROOTS_WAIT: Duration = Duration::from_secs(10);

struct Server {
    out: Out,
    sched: Scheduler,
    structured: bool,
    /// The catalog: what tools/list offers and tools/call admits.
    policy: std::sync::Arc<crate::catalog::Policy>,
    /// The globals calls run with; the root may come from the client (roots).
    globals: Mutex<Globals>,
    /// The root was given (--root, LOOPR_ROOT): the client's roots are not asked for.
    root_given: bool,
    client_has_roots: AtomicBool,
    /// The id of our unanswered `roots/list` request; calls wait while there is one.
    roots_asked: Mutex<Option<String>>,
    roots_answered: Condvar,
    next_request: AtomicU64,
    /// Calls admitted and not answered, by their JSON-RPC id (as JSON text).
    in_flight: Mutex<HashMap<String, Arc<Control>>>,
    /// Signalled each time a call leaves `in_flight`.
    answered: Condvar,
    pool: Pool,
}

/// Serves until EOF. Returns the process exit status.
pub fn serve(g: &Globals, structured: bool) -> crate::exit_status::ExitStatus {
    let server = Arc::new(Server {
        out: Out::stdout(),
        sched: Scheduler::new(),
        structured,
        policy: g.policy.clone(),
        globals: Mutex::new(g.clone()),
        root_given: g.root.is_some(),
        client_has_roots: AtomicBool::new(false),
        roots_asked: Mutex::new(None),
        roots_answered: Condvar::new(),
        next_request: AtomicU64::new(1),
        in_flight: Mutex::new(HashMap::new()),
        answered: Condvar::new(),
        pool: Pool::new(),
    });
    let mut stdin = std::io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_frame(&mut stdin, &mut line) {
            Frame::End => break,
            Frame::TooLarge => {
                server.out.error(
                    &Value::Null,
                    INVALID_REQUEST,
                    &format!(
                        "a message over {} bytes was refused",
                        crate::input::STDIN_LIMIT
                    ),
                );
                continue;
            }
            Frame::Line => {}
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        server.handle(&line);
        if server.out.gone() {
            return crate::exit_status::ExitStatus::Success; // the client has stopped reading
        }
    }
    // A client that sends its requests and closes stdin still gets every answer.
    let mut flight = server.in_flight.lock().unwrap_or_else(|e| e.into_inner());
    while !flight.is_empty() {
        flight = server
            .answered
            .wait(flight)
            .unwrap_or_else(|e| e.into_inner());
    }
    crate::exit_status::ExitStatus::Success
}

enum Frame {
    Line,
    /// Over the 64 MiB input cap (SPEC 23.8): skipped to its end, never held whole.
    TooLarge,
    End,
}

/// The frames `read_frame` makes of `bytes` (the fuzz target of the framing, SPEC 23.3).
#[cfg(test)]
pub fn frames_of(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut input = std::io::Cursor::new(bytes);
    let mut out = vec![];
    loop {
        let mut line = Vec::new();
        match read_frame(&mut input, &mut line) {
            Frame::Line => out.push(line),
            Frame::TooLarge => {}
            Frame::End => return out,
        }
    }
}

/// Reads one newline-delimited message into `line`, holding at most the input cap of it.
fn read_frame(input: &mut impl BufRead, line: &mut Vec<u8>) -> Frame {
    let cap = crate::input::STDIN_LIMIT as usize;
    let mut over = false;
    loop {
        let buf = match input.fill_buf() {
            Ok([]) | Err(_) => {
                return if over {
                    Frame::TooLarge
                } else if line.is_empty() {
                    Frame::End
                } else {
                    Frame::Line
                };
            }
            Ok(b) => b,
        };
        let (piece, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let n = piece.len();
        if !over && line.len() + n <= cap {
            line.extend_from_slice(piece);
        } else {
            over = true;
            line.clear();
        }
        input.consume(n);
        if done {
            return if over { Frame::TooLarge } else { Frame::Line };
        }
    }
}

fn key(id: &Value) -> String {
    id.to_string()
}

impl Server {
    fn handle(self: &Arc<Self>, line: &[u8]) {
        // Parsed within a budget of values for the frame's size (SPEC 23.8, 24.6), as every
        // input is; a repeated key keeps its last value, as JSON-RPC peers expect.
        let msg: Value = match crate::input::json::from_slice(line) {
            Ok(p) => p.value,
            Err(e @ crate::input::json::Error::TooMany { .. }) => {
                return self
                    .out
                    .error(&Value::Null, INVALID_REQUEST, &e.to_string());
            }
            Err(e) => {
                return self
                    .out
                    .error(&Value::Null, PARSE_ERROR, &format!("parse error: {e}"));
            }
        };
        let Some(obj) = msg.as_object() else {
            return self.out.error(
                &Value::Null,
                INVALID_REQUEST,
                "a message must be a JSON object",
            );
        };
        let id = obj.get("id").cloned();
        let Some(method) = obj.get("method").and_then(Value::as_str) else {
            // A response to a request of ours (roots/list), or garbage.
            match id {
                Some(id) if obj.contains_key("result") || obj.contains_key("error") => {
                    self.answered(&id, obj)
                }
                Some(id) => {
                    self.out
                        .error(&id, INVALID_REQUEST, "a request needs a string `method`")
                }
                None => {}
            }
            return;
        };
        if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            if let Some(id) = id {
                self.out
                    .error(&id, INVALID_REQUEST, "`jsonrpc` must be \"2.0\"");
            }
            return;
        }
        let params = obj.get("params").cloned().unwrap_or_else(|| json!({}));
        match id {
            None => self.notified(method, &params),
            Some(id) => self.request(id, method, params),
        }
    }

    fn request(self: &Arc<Self>, id: Value, method: &str, params: Value) {
        let stateless = params
            .pointer("/_meta")
            .and_then(|m| m.get(META_VERSION))
            .is_some();
        let complete = |mut result: Value, cacheable: bool| {
            if stateless {
                result["resultType"] = json!("complete");
                if cacheable {
                    result["ttlMs"] = json!(3_600_000);
                    result["cacheScope"] = json!("public");
                }
            }
            result
        };
        match method {
            "initialize" => {
                let asked = params
                    .get("protocolVersion")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                let version = VERSIONS
                    .iter()
                    .find(|v| **v == asked)
                    .unwrap_or(&VERSIONS[0]);
                let roots = params.pointer("/capabilities/roots").is_some();
                self.client_has_roots.store(roots, Ordering::SeqCst);
                self.out.result(
                    &id,
                    json!({
                        "protocolVersion": version,
                        "capabilities": capabilities(),
                        "serverInfo": server_info(),
                        "instructions": INSTRUCTIONS,
                    }),
                );
            }
            "server/discover" => {
                let mut versions = vec![STATELESS];
                versions.extend_from_slice(VERSIONS);
                self.out.result(
                    &id,
                    json!({
                        "resultType": "complete",
                        "supportedVersions": versions,
                        "capabilities": capabilities(),
                        "serverInfo": server_info(),
                        "instructions": INSTRUCTIONS,
                        "ttlMs": 3_600_000,
                        "cacheScope": "public",
                    }),
                );
            }
            "ping" | "logging/setLevel" => self.out.result(&id, complete(json!({}), false)),
            "tools/list" => {
                let list: Vec<Value> = dispatch::offered(&self.policy)
                    .iter()
                    .map(|r| wire::definition(r, self.structured))
                    .collect();
                self.out.result(&id, complete(json!({"tools": list}), true));
            }
            "tools/call" => self.call(id, params, stateless),
            _ => self.out.error(
                &id,
                METHOD_NOT_FOUND,
                &format!("method not found: {method}"),
            ),
        }
    }

    fn notified(self: &Arc<Self>, method: &str, params: &Value) {
        match method {
            "notifications/initialized" | "notifications/roots/list_changed" => self.ask_roots(),
            "notifications/cancelled" => {
                if let Some(id) = params.get("requestId") {
                    let flight = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(c) = flight.get(&key(id)) {
                        c.cancel();
                    }
                }
            }
            _ => {} // nothing else needs an answer or an action
        }
    }

    /// Asks the client for its roots, when the root is the client's to give.
    fn ask_roots(&self) {
        if self.root_given || !self.client_has_roots.load(Ordering::SeqCst) {
            return;
        }
        let id = format!(
            "loopr-roots-{}",
            self.next_request.fetch_add(1, Ordering::Relaxed)
        );
        *self.roots_asked.lock().unwrap_or_else(|e| e.into_inner()) = Some(id.clone());
        self.out
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": "roots/list"}));
    }

    /// The client answered a request of ours.
    fn answered(&self, id: &Value, msg: &Map<String, Value>) {
        let mut asked = self.roots_asked.lock().unwrap_or_else(|e| e.into_inner());
        if asked.as_deref() != id.as_str() {
            return; // an answer to nothing we are waiting for
        }
        *asked = None;
        let roots = msg
            .get("result")
            .and_then(|r| r.get("roots"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if let Some(warning) = self.take_roots(&roots) {
            self.out.notify(
                "notifications/message",
                json!({"level": "warning", "logger": "loopr-tool", "data": warning}),
            );
        }
        drop(asked);
        self.roots_answered.notify_all();
    }

    /// Makes the first `file://` root the sandbox root; returns what the client should be told.
    fn take_roots(&self, roots: &[Value]) -> Option<String> {
        let uris: Vec<&str> = roots
            .iter()
            .filter_map(|r| r.get("uri").and_then(Value::as_str))
            .collect();
        let first = uris.iter().find_map(|u| {
            url::Url::parse(u)
                .ok()
                .filter(|u| u.scheme() == "file")
                .and_then(|u| u.to_file_path().ok())
        });
        let Some(root) = first else {
            let cwd = std::env::current_dir().unwrap_or_default();
            return Some(format!(
                "the client named no file:// root; loopr-tool serves its working directory, {}",
                cwd.display()
            ));
        };
        let warning = (uris.len() > 1).then(|| {
            format!(
                "the client named {} roots; loopr-tool serves the first, {}, and paths under the others ({}) are outside its sandbox",
                uris.len(),
                root.display(),
                uris[1..].join(", ")
            )
        });
        self.globals.lock().unwrap_or_else(|e| e.into_inner()).root = Some(root);
        warning
    }

    /// The globals a call runs with, once the client's roots (if asked for) are known.
    fn globals_for_call(&self) -> Globals {
        let stop = Instant::now() + ROOTS_WAIT;
        let mut asked = self.roots_asked.lock().unwrap_or_else(|e| e.into_inner());
        while asked.is_some() && Instant::now() < stop {
            asked = self
                .roots_answered
                .wait_timeout(asked, Duration::from_millis(100))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        drop(asked);
        self.globals
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn call(self: &Arc<Self>, id: Value, params: Value, stateless: bool) {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return self.out.error(
                &id,
                INVALID_PARAMS,
                "tools/call needs params.name (a string)",
            );
        };
        let args = params
            .get("arguments")
            .cloned()
            .unwrap_or_else(|| json!({}));
        if !args.is_object() {
            return self
                .out
                .error(&id, INVALID_PARAMS, "params.arguments must be an object");
        }
        // A tool that exists but is not offered answers isError with tool_disabled (its call
        // runs into the refusal); -32602 is for names that exist nowhere (SPEC 24.7).
        let resolved = match dispatch::find(&self.policy, name) {
            Ok(r) => r,
            Err(e) if e.code == crate::error::Code::ToolDisabled => {
                let env = crate::envelope::Envelope::failure(name, e, &[]);
                return self.out.tool_result(&id, env, self.structured, stateless);
            }
            Err(_) => {
                return self
                    .out
                    .error(&id, INVALID_PARAMS, &format!("unknown tool: {name}"));
            }
        };
        let token = params
            .pointer("/_meta/progressToken")
            .filter(|t| t.is_string() || t.is_number())
            .cloned();
        let control = Arc::new(Control::new());
        // Admitted here, on the reading thread, so the order is the order of the stream.
        // The input is parsed here, once: for its place in line and for its run.
        // An approval (SPEC 29) rides in `_meta`, outside the tool's arguments: a client asks
        // the person when a call answers isError with approval_required, then calls again.
        let approval = params
            .pointer("/_meta/approval")
            .and_then(Value::as_str)
            .map(str::to_string);
        let prepared = resolved.prepare(&self.policy, args).with_approval(approval);
        let seq = self.sched.admit(prepared.effect());
        self.in_flight
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key(&id), control.clone());
        let server = self.clone();
        let work = Call {
            id,
            seq,
            prepared,
            token,
            control,
            stateless,
        };
        self.pool.run(Box::new(move || server.run_call(work)));
    }

    fn run_call(self: Arc<Self>, c: Call) {
        let g = self.globals_for_call();
        let envelope = self.sched.wait_turn(c.seq, &c.control).then(|| {
            let ticker = c.token.clone().map(|t| self.tick(t, c.control.clone()));
            let env = c.prepared.run_with(&g, c.control.clone());
            drop(ticker); // closes the channel: the ticker stops
            env
        });
        self.sched.finish(c.seq);
        // A cancelled request gets no response (MCP), whatever became of it. The check, the
        // response and leaving `in_flight` happen under the lock a cancel takes (SPEC 31.4):
        // a cancel either comes first and silences the response, or finds the call answered.
        let mut flight = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
        if let (Some(env), false) = (envelope, c.control.client_cancelled()) {
            self.out
                .tool_result(&c.id, env, self.structured, c.stateless);
        }
        // Only now: EOF waits for this, so the answer is out before the process ends.
        flight.remove(&key(&c.id));
        drop(flight);
        self.answered.notify_all();
    }

    /// Sends `notifications/progress` for a call every `PROGRESS_EVERY` until the returned
    /// sender is dropped. `progress` is what the call has done (bytes of output, files walked),
    /// kept strictly increasing as MCP requires.
    fn tick(self: &Arc<Self>, token: Value, control: Arc<Control>) -> mpsc::Sender<()> {
        let (stop, stopped) = mpsc::channel::<()>();
        let server = self.clone();
        let started = Instant::now();
        std::thread::spawn(move || {
            let mut last = 0u64;
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(PROGRESS_EVERY) {
                if control.client_cancelled() {
                    return;
                }
                let p = control.progress();
                last = p.amount.max(last + 1);
                let message = p.message.unwrap_or_else(|| {
                    format!("still working after {} s", started.elapsed().as_secs())
                });
                server.out.notify(
                    "notifications/progress",
                    json!({"progressToken": token, "progress": last, "message": message}),
                );
            }
        });
        stop
    }
}

/// One `tools/call` on its way through the scheduler.
struct Call {
    id: Value,
    seq: u64,
    prepared: Prepared,
    token: Option<Value>,
    control: Arc<Control>,
    stateless: bool,
}

fn capabilities() -> Value {
    json!({"tools": {"listChanged": false}, "logging": {}})
}

fn server_info() -> Value {
    json!({"name": "loopr-tool", "version": env!("CARGO_PKG_VERSION")})
}
