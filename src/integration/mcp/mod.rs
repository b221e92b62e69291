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

mod http;
mod pool;
mod tls;
mod wire;

pub use http::{HttpOptions, serve_http};

use pool::Pool;

use super::sched::Scheduler;
use crate::context::Globals;
use crate::control::Control;
use crate::dispatch::{self, Prepared};
use loopr_core::caps::Client;
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
/// Where a stateless request names its client, as `initialize`'s `clientInfo`.
const META_CLIENT: &str = "io.modelcontextprotocol/clientInfo";

/// The tools by task. Codex appends this text to every tool's search text (its BM25
/// `tool_search` indexes an MCP tool's name, description, property names and the server's
/// instructions), so a word here is in every document and stops telling tools apart: it
/// avoids the words models search with ("file", "list", "search", "code", "shell", "patch",
/// "url", …) but the tools' own names, and is long enough that the descriptions' lengths
/// weigh less (bench/codex_tool_search.py measures it).
const INSTRUCTIONS: &str = "Tools confined to one root, by task. Look before you change: `read` shows a text, image, PDF or notebook with numbered lines (page on with offset); `tree` draws the layout below a folder; `glob` matches paths by name pattern; `grep` locates a regex across the tree; `stat` gives sizes and types without loading anything. \
Change: `edit` swaps exact text, `apply_patch` takes a multi-hunk diff in Codex's format, `write` makes or replaces a whole text, `notebook_edit` one notebook cell; `move`, `delete`, `mkdir`; `undo` takes back the last change. \
A path must be `read` in this session before a change to it, and the change fails if it changed since. \
Programs: `run` (git, builds, tests, package managers), with `background: true` for servers, then `jobs` to page output or stop them. \
Web: `fetch` a page as Markdown. Planning: `todo` keeps the steps of multi-step work; `session` shows what this session holds.";
/// How often a call with a progress token hears from us (SPEC 22.1: at least every 2 s).
const PROGRESS_EVERY: Duration = Duration::from_secs(1);
/// How long a call waits for the client's answer to `roots/list` before using the working
/// directory.
const ROOTS_WAIT: Duration = Duration::from_secs(10);

struct Server {
    sched: Scheduler,
    structured: bool,
    /// The catalog: what tools/list offers and tools/call admits.
    policy: std::sync::Arc<crate::catalog::Policy>,
    /// The globals calls run with; the root may come from the client (roots).
    globals: Mutex<Globals>,
    /// The root was given (--root, LOOPR_ROOT): the client's roots are not asked for.
    root_given: bool,
    /// The client was named (--client, LOOPR_CLIENT): `clientInfo` does not change it.
    client_given: bool,
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
    let server = Server::new(g, structured, g.root.is_some(), Pool::new());
    let out = Arc::new(Out::stdout());
    let mut stdin = std::io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_frame(&mut stdin, &mut line) {
            Frame::End => break,
            Frame::TooLarge => {
                out.error(
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
        server.handle(&line, &out);
        if out.gone() {
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
    /// A server for one client (stdio) or one HTTP session; `root_given`: the root is not the
    /// client's to give (always so over HTTP, SPEC 27.3).
    fn new(g: &Globals, structured: bool, root_given: bool, pool: Pool) -> Arc<Server> {
        Arc::new(Server {
            sched: Scheduler::new(),
            structured,
            policy: g.policy.clone(),
            globals: Mutex::new(g.clone()),
            root_given,
            client_given: g.client.is_some(),
            client_has_roots: AtomicBool::new(false),
            roots_asked: Mutex::new(None),
            roots_answered: Condvar::new(),
            next_request: AtomicU64::new(1),
            in_flight: Mutex::new(HashMap::new()),
            answered: Condvar::new(),
            pool,
        })
    }

    /// Whether a call is in flight (an HTTP session with one does not expire).
    fn busy(&self) -> bool {
        !self
            .in_flight
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_empty()
    }

    /// Cancels every call in flight (an HTTP session deleted or expired).
    fn cancel_all(&self) {
        for c in self
            .in_flight
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
        {
            c.cancel();
        }
    }

    /// Cancels one call, as `notifications/cancelled` does (an HTTP client that went away).
    fn cancel(&self, id: &Value) {
        let flight = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = flight.get(&key(id)) {
            c.cancel();
        }
    }

    fn handle(self: &Arc<Self>, line: &[u8], out: &Arc<Out>) {
        // Parsed within a budget of values for the frame's size (SPEC 23.8, 24.6), as every
        // input is; a repeated key keeps its last value, as JSON-RPC peers expect.
        let msg: Value = match crate::input::json::from_slice(line) {
            Ok(p) => p.value,
            Err(e) => {
                let (code, message) = parse_failure(&e);
                return out.error(&Value::Null, code, &message);
            }
        };
        self.handle_message(&msg, out);
    }

    /// Handles one parsed message; what it answers goes to `out`.
    fn handle_message(self: &Arc<Self>, msg: &Value, out: &Arc<Out>) {
        let Some(obj) = msg.as_object() else {
            return out.error(
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
                    self.answered(&id, obj, out)
                }
                Some(id) => out.error(&id, INVALID_REQUEST, "a request needs a string `method`"),
                None => {}
            }
            return;
        };
        if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            if let Some(id) = id {
                out.error(&id, INVALID_REQUEST, "`jsonrpc` must be \"2.0\"");
            }
            return;
        }
        let params = obj.get("params").cloned().unwrap_or_else(|| json!({}));
        match id {
            None => self.notified(method, &params, out),
            Some(id) => self.request(id, method, params, out),
        }
    }

    fn request(self: &Arc<Self>, id: Value, method: &str, params: Value, out: &Arc<Out>) {
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
                self.learn_client(params.pointer("/clientInfo/name"));
                let roots = params.pointer("/capabilities/roots").is_some();
                self.client_has_roots.store(roots, Ordering::SeqCst);
                out.result(
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
                out.result(
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
            "ping" | "logging/setLevel" => out.result(&id, complete(json!({}), false)),
            "tools/list" => {
                let g = self.globals_for_call();
                let state = crate::context::Ctx::new(&g).ok().map(|c| c.state_dir);
                let budget = self
                    .policy
                    .result_chars(self.client_of(&params).or(g.client));
                let root = g.root.unwrap_or_default();
                let list: Vec<Value> =
                    dispatch::offered_with_upstream(&self.policy, &root, state.as_deref())
                        .iter()
                        .map(|r| wire::definition(r, self.structured, budget))
                        .collect();
                out.result(&id, complete(json!({"tools": list}), true));
            }
            "tools/call" => self.call(id, params, stateless, out),
            _ => out.error(
                &id,
                METHOD_NOT_FOUND,
                &format!("method not found: {method}"),
            ),
        }
    }

    fn notified(self: &Arc<Self>, method: &str, params: &Value, out: &Arc<Out>) {
        match method {
            "notifications/initialized" | "notifications/roots/list_changed" => self.ask_roots(out),
            "notifications/cancelled" => {
                if let Some(id) = params.get("requestId") {
                    self.cancel(id);
                }
            }
            _ => {} // nothing else needs an answer or an action
        }
    }

    /// Asks the client for its roots, when the root is the client's to give.
    fn ask_roots(&self, out: &Out) {
        if self.root_given || !self.client_has_roots.load(Ordering::SeqCst) {
            return;
        }
        let id = format!(
            "loopr-roots-{}",
            self.next_request.fetch_add(1, Ordering::Relaxed)
        );
        *self.roots_asked.lock().unwrap_or_else(|e| e.into_inner()) = Some(id.clone());
        out.send(&json!({"jsonrpc": "2.0", "id": id, "method": "roots/list"}));
    }

    /// The client answered a request of ours.
    fn answered(&self, id: &Value, msg: &Map<String, Value>, out: &Out) {
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
            out.notify(
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

    /// The client `initialize` names (SPEC 31.1): results are sized to what it passes on,
    /// unless `--client` named one.
    fn learn_client(&self, name: Option<&Value>) {
        if self.client_given {
            return;
        }
        let client = name.and_then(Value::as_str).and_then(Client::from_info);
        self.globals
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .client = client;
    }

    /// The client a stateless request names in its `_meta` (2026-07-28), unless `--client`
    /// named one.
    fn client_of(&self, params: &Value) -> Option<Client> {
        if self.client_given {
            return None;
        }
        params
            .pointer("/_meta")
            .and_then(|m| m.get(META_CLIENT))
            .and_then(|c| c.get("name"))
            .and_then(Value::as_str)
            .and_then(Client::from_info)
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

    fn call(self: &Arc<Self>, id: Value, params: Value, stateless: bool, out: &Arc<Out>) {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return out.error(
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
            return out.error(&id, INVALID_PARAMS, "params.arguments must be an object");
        }
        // A tool that exists but is not offered answers isError with tool_disabled (its call
        // runs into the refusal); -32602 is for names that exist nowhere (SPEC 24.7).
        let resolved = match dispatch::find(&self.policy, name) {
            Ok(r) => r,
            Err(e) if e.code == crate::error::Code::ToolDisabled => {
                let env = crate::envelope::Envelope::failure(name, e, &[]);
                return out.tool_result(&id, env, self.structured, stateless);
            }
            Err(_) => {
                return out.error(&id, INVALID_PARAMS, &format!("unknown tool: {name}"));
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
            client: self.client_of(&params),
            out: out.clone(),
        };
        self.pool.run(Box::new(move || server.run_call(work)));
    }

    fn run_call(self: Arc<Self>, c: Call) {
        let mut g = self.globals_for_call();
        if c.client.is_some() {
            g.client = c.client;
        }
        let envelope = self.sched.wait_turn(c.seq, &c.control).then(|| {
            let ticker = c
                .token
                .clone()
                .map(|t| self.tick(t, c.control.clone(), c.out.clone()));
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
            c.out.tool_result(&c.id, env, self.structured, c.stateless);
        }
        // Only now: EOF waits for this, so the answer is out before the process ends.
        flight.remove(&key(&c.id));
        drop(flight);
        self.answered.notify_all();
    }

    /// Sends `notifications/progress` for a call every `PROGRESS_EVERY` until the returned
    /// sender is dropped. `progress` is what the call has done (bytes of output, files walked),
    /// kept strictly increasing as MCP requires.
    fn tick(&self, token: Value, control: Arc<Control>, out: Arc<Out>) -> mpsc::Sender<()> {
        let (stop, stopped) = mpsc::channel::<()>();
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
                out.notify(
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
    /// The client a stateless request named.
    client: Option<Client>,
    /// Where its response and progress go.
    out: Arc<Out>,
}

/// The JSON-RPC error for a message that did not parse.
fn parse_failure(e: &crate::input::json::Error) -> (i64, String) {
    match e {
        crate::input::json::Error::TooMany { .. } => (INVALID_REQUEST, e.to_string()),
        _ => (PARSE_ERROR, format!("parse error: {e}")),
    }
}

fn capabilities() -> Value {
    json!({"tools": {"listChanged": false}, "logging": {}})
}

fn server_info() -> Value {
    json!({"name": "loopr-tool", "version": env!("CARGO_PKG_VERSION")})
}
