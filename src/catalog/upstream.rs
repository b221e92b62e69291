//! Other MCP servers' tools, under the catalog's policy (SPEC 27.2, 27.3): `[mcp_servers.NAME]`
//! offers each tool of that server as `mcp__NAME__TOOL`, called through the same dispatch as
//! ours (profiles, `enabled`, timeouts, caps, hooks, `paths.deny`).
//!
//! A server is started on first use and kept for the life of this process: under `mcp` and
//! `batch` that is the session, for a CLI call the one call (the process ends, the server sees
//! EOF on its stdin). Its calls take turns on the one connection. A server that dies during a
//! call fails that call `tool_unavailable` (not retried: it may have changed something); the
//! next call starts it again. One that will not start is `tool_unavailable` naming it and its
//! stderr's last lines. `isError` is `upstream_error`.
//!
//! Stdio servers (`command`) and Streamable HTTP ones (`url`, over ureq: JSON or SSE answers,
//! `Mcp-Session-Id` kept; 401/403 is `tool_unavailable`).

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::policy::McpServer;
use crate::tool::{DynTool, Effect, Hints, Parsed};
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

/// The registry name every upstream tool runs as (not in `tools::TOOLS`).
pub const UPSTREAM_TOOL: &str = "mcp_upstream";
/// Codex's defaults: 10 s to start and answer `initialize`, 60 s a call.
const STARTUP_MS: u64 = 10_000;
const CALL_MS: u64 = 60_000;
/// Lines of a failed server's stderr an error quotes.
const STDERR_LINES: usize = 10;
/// Arguments checked against `paths.deny` (27.2).
const PATH_ARGS: &[&str] = &["path", "file_path", "filename", "uri", "paths"];

/// One tool a server lists.
#[derive(Debug, Clone)]
pub struct Listed {
    /// The upstream's own name.
    pub name: String,
    /// The name offered: `mcp__SERVER__TOOL`.
    pub offered: String,
    pub description: String,
    pub input_schema: Value,
}

/// A kept server: its connection (None until started, or after it died) and its tools.
#[derive(Default)]
struct Kept {
    conn: Mutex<Option<Arc<Conn>>>,
    tools: Mutex<Option<Vec<Listed>>>,
}

static SERVERS: LazyLock<Mutex<HashMap<String, Arc<Kept>>>> = LazyLock::new(Default::default);

/// What names a server: its URL, or its command line.
fn key_of(server: &McpServer) -> String {
    server.url.clone().unwrap_or_else(|| {
        let mut k = vec![
            server.name.clone(),
            server.command.clone().unwrap_or_default(),
        ];
        k.extend(server.args.iter().cloned());
        k.join("\u{0}")
    })
}

fn kept(server: &McpServer) -> Arc<Kept> {
    let key = key_of(server);
    SERVERS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_default()
        .clone()
}

/// Why an exchange with a server failed.
enum Failure {
    /// It is gone (died, closed, refused us): `tool_unavailable`.
    Gone(String),
    TimedOut,
    Cancelled,
    /// It answered a JSON-RPC error.
    Rpc(String),
}

fn unavailable(server: &McpServer, why: &str) -> ToolError {
    ToolError::new(
        Code::ToolUnavailable,
        format!("the MCP server `{}` is unavailable: {why}", server.name),
    )
    .with("server", server.name.as_str())
    .hint("The other tools still work. Check [mcp_servers] in the catalog, or call again: a server that died is started again.")
}

fn failure_error(server: &McpServer, f: Failure, what: &str) -> ToolError {
    match f {
        Failure::Gone(why) => unavailable(server, &why),
        Failure::TimedOut => ToolError::new(
            Code::Timeout,
            format!(
                "the MCP server `{}` did not answer {what} in time",
                server.name
            ),
        ),
        Failure::Cancelled => ToolError::new(Code::Timeout, "cancelled"),
        Failure::Rpc(m) => ToolError::new(
            Code::UpstreamError,
            format!("the MCP server `{}` refused {what}: {m}", server.name),
        )
        .with("server", server.name.as_str()),
    }
}

/// How long a server's tool list kept in the state dir is believed (27.3).
const LIST_FRESH: Duration = Duration::from_secs(600);

/// Where a server's tool list is kept in the state dir, keyed by its command line or URL.
fn list_file(state: &Path, server: &McpServer) -> std::path::PathBuf {
    let hash = xxhash_rust::xxh3::xxh3_64(key_of(server).as_bytes());
    state.join("mcp-tools").join(format!("{hash:016x}.json"))
}

/// The list kept in the state dir, when it is this server's and under 10 minutes old.
fn cached_list(state: &Path, server: &McpServer) -> Option<Vec<Listed>> {
    let file = list_file(state, server);
    let age = file.metadata().ok()?.modified().ok()?.elapsed().ok()?;
    if age > LIST_FRESH {
        return None;
    }
    let kept: Value = serde_json::from_slice(&std::fs::read(&file).ok()?).ok()?;
    if kept["key"] != key_of(server) {
        return None;
    }
    let tools = kept["tools"].as_array()?;
    Some(
        tools
            .iter()
            .filter_map(|t| listed_from(server, t))
            .collect(),
    )
}

/// Keeps the list for the next process (a CLI `schema` or `call`); a failure only costs the
/// next one a listing.
fn keep_list(state: &Path, server: &McpServer, tools: &[Listed]) {
    let file = list_file(state, server);
    let list: Vec<Value> = tools
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "inputSchema": t.input_schema}))
        .collect();
    let body = json!({"key": key_of(server), "tools": list}).to_string();
    let tmp = file.with_extension(format!("tmp.{}", std::process::id()));
    let _ = std::fs::create_dir_all(file.parent().unwrap_or(state))
        .and_then(|()| std::fs::write(&tmp, body))
        .and_then(|()| std::fs::rename(&tmp, &file));
}

fn listed_from(server: &McpServer, t: &Value) -> Option<Listed> {
    let name = t["name"].as_str()?;
    Some(Listed {
        name: name.to_string(),
        offered: server.tool_name(name),
        description: t["description"].as_str().unwrap_or("").to_string(),
        input_schema: t
            .get("inputSchema")
            .cloned()
            .unwrap_or_else(|| json!({"type": "object"})),
    })
}

/// The tools `server` offers (its whole list, before the catalog's filters): kept for the life
/// of the process, and for 10 minutes in the state dir (`state`) for the next one; else the
/// server is started and asked.
pub fn tools_of(server: &McpServer, root: &Path, state: Option<&Path>) -> Result<Vec<Listed>> {
    let k = kept(server);
    if let Some(t) = k.tools.lock().unwrap_or_else(|e| e.into_inner()).clone() {
        return Ok(t);
    }
    let tools = match state.and_then(|s| cached_list(s, server)) {
        Some(t) => t,
        None => {
            let t = list_tools(server, root, &k)?;
            if let Some(s) = state {
                keep_list(s, server, &t);
            }
            t
        }
    };
    *k.tools.lock().unwrap_or_else(|e| e.into_inner()) = Some(tools.clone());
    Ok(tools)
}

/// Asks the server for its tools, page by page, starting it when needed.
fn list_tools(server: &McpServer, root: &Path, k: &Kept) -> Result<Vec<Listed>> {
    let c = connected(server, root, k)?;
    let startup = Duration::from_millis(server.startup_timeout_ms.unwrap_or(STARTUP_MS));
    let mut tools = vec![];
    let mut cursor: Option<Value> = None;
    loop {
        let params = cursor
            .take()
            .map_or_else(|| json!({}), |c| json!({"cursor": c}));
        let r = c
            .request("tools/list", params, Instant::now() + startup, None)
            .map_err(|f| lost(k, &c, server, f, "tools/list"))?;
        let page = r["tools"].as_array().into_iter().flatten();
        tools.extend(page.filter_map(|t| listed_from(server, t)));
        match r.get("nextCursor") {
            Some(c) if !c.is_null() => cursor = Some(c.clone()),
            _ => return Ok(tools),
        }
    }
}

/// A tool some kept server listed, by its offered name.
pub fn listed(offered: &str) -> Option<Listed> {
    let servers = SERVERS.lock().unwrap_or_else(|e| e.into_inner());
    servers.values().find_map(|k| {
        let tools = k.tools.lock().unwrap_or_else(|e| e.into_inner());
        tools
            .as_ref()?
            .iter()
            .find(|t| t.offered == offered)
            .cloned()
    })
}

/// The started connection, starting the server when there is none. The lock is held only for
/// that: calls to one server run side by side, their answers matched by id.
fn connected(server: &McpServer, root: &Path, k: &Kept) -> Result<Arc<Conn>> {
    let mut conn = k.conn.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = &*conn {
        return Ok(c.clone());
    }
    let c = Arc::new(Conn::start(server, root)?);
    *conn = Some(c.clone());
    Ok(c)
}

/// The error for a failed exchange on `c`; a server that is gone is forgotten, so the next
/// call starts it again (not this one: it may have changed something).
fn lost(k: &Kept, c: &Arc<Conn>, server: &McpServer, f: Failure, what: &str) -> ToolError {
    if matches!(f, Failure::Gone(_)) {
        let mut conn = k.conn.lock().unwrap_or_else(|e| e.into_inner());
        if conn.as_ref().is_some_and(|now| Arc::ptr_eq(now, c)) {
            *conn = None;
        }
    }
    failure_error(server, f, what)
}

/// Calls `tool` (its offered name's upstream tool) with `args`.
fn call(ctx: &Ctx, server: &McpServer, tool: &str, args: Value) -> Result<Success> {
    let k = kept(server);
    // The upstream's own name for the cleaned one the model called.
    let name = tools_of(server, &ctx.root, Some(&ctx.state_dir))?
        .into_iter()
        .find(|t| crate::policy::clean_name(&t.name) == tool)
        .map_or_else(|| tool.to_string(), |t| t.name);
    let c = connected(server, &ctx.root, &k)?;
    let limit = Duration::from_millis(server.timeout_ms.unwrap_or(CALL_MS));
    let deadline = Instant::now() + ctx.control.remaining().map_or(limit, |r| r.min(limit));
    let params = json!({"name": name, "arguments": args});
    match c.request("tools/call", params, deadline, Some(&ctx.control)) {
        Ok(r) => result(server, &r),
        Err(f) => Err(lost(&k, &c, server, f, &format!("the call of `{name}`"))),
    }
}

/// A `tools/call` result as our envelope: text blocks joined into `output`, `isError` as
/// `upstream_error`, `structuredContent` as `data`.
fn result(server: &McpServer, r: &Value) -> Result<Success> {
    let mut text = String::new();
    let mut images = vec![];
    for block in r["content"].as_array().into_iter().flatten() {
        let piece = match block["type"].as_str() {
            Some("text") => block["text"].as_str().unwrap_or("").to_string(),
            Some("image") => match image_of(block) {
                Some(image) => {
                    let said = format!("[image: {}]", image["mime"].as_str().unwrap_or("?"));
                    images.push(image);
                    said
                }
                None => "[image content]".into(),
            },
            Some(other) => format!("[{other} content]"),
            None => continue,
        };
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&piece);
    }
    if r["isError"].as_bool() == Some(true) {
        return Err(ToolError::new(Code::UpstreamError, text).with("server", server.name.as_str()));
    }
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let mut data = match r.get("structuredContent") {
        Some(Value::Object(o)) => Value::Object(o.clone()),
        Some(other) => json!({"server": server.name, "structured": other}),
        None => json!({"server": server.name}),
    };
    // Images as ours (18.2): the first as `data.image`, the others in `data.files`, so mcp
    // sends each as an image block after the text.
    let mut images = images.into_iter();
    if let Some(first) = images.next() {
        data["image"] = first;
    }
    let rest: Vec<Value> = images.map(|i| json!({"image": i})).collect();
    if !rest.is_empty() {
        data["files"] = Value::Array(rest);
    }
    Ok(Success::new(text, data))
}

/// An MCP image block as our `data.image`.
fn image_of(block: &Value) -> Option<Value> {
    let base64 = block["data"].as_str()?;
    let mime = block["mimeType"].as_str()?;
    Some(json!({"mime": mime, "bytes": base64.len() / 4 * 3, "base64": base64}))
}

/// A result over the catalog's `max_output_bytes` (27.3): its whole text is kept in the state
/// dir as a finished job's log, and the cut output's trailer names `jobs` `action: output`
/// with the id and the offset to go on from.
fn kept_for_paging(ctx: &Ctx, name: &str, mut success: Success, max: u64) -> Result<Success> {
    use crate::tools::run::record::{self, Job, State};
    let whole = std::mem::take(&mut success.output);
    let job = Job {
        id: String::new(),
        command: format!("{name} (an upstream MCP tool's result)"),
        description: None,
        cwd: ".".into(),
        background: false,
        started_at: crate::state::now(),
        started_ms: record::now_ms(),
        state: State::Exited,
        exit_code: Some(0),
        signal: None,
        duration_ms: Some(0),
        output_bytes: Some(whole.len() as u64),
        owner: None,
        keeper: None,
        kill_requested: false,
        read_offset: 0,
        processes_ended: 0,
        note: None,
        interactive: false,
        tty: false,
        terminal: None,
    };
    let job = record::begin(ctx, job)?;
    let log = record::log_path(&crate::state::session_dir(ctx), &job.id);
    std::fs::create_dir_all(log.parent().unwrap_or(&ctx.state_dir))
        .and_then(|()| std::fs::write(&log, &whole))
        .map_err(|e| {
            ToolError::new(
                Code::IoError,
                format!("the whole result could not be kept: {e}"),
            )
        })?;
    let max = usize::try_from(max).unwrap_or(usize::MAX);
    let mut keep = max.saturating_sub(200).min(whole.len());
    while !whole.is_char_boundary(keep) {
        keep -= 1;
    }
    let cut = whole[..keep].rfind('\n').map_or(keep, |i| i + 1);
    let mut out = whole[..cut].to_string();
    if !out.ends_with('\n') && !out.is_empty() {
        out.push('\n');
    }
    out.push_str(&format!(
        "[output cut to {cut} of {} bytes by the catalog's max_output_bytes; the whole result is kept: jobs {{\"action\": \"output\", \"id\": \"{}\", \"offset\": {cut}}} pages the rest]\n",
        whole.len(),
        job.id
    ));
    success.output = out;
    Ok(success)
}

/// `paths.deny` on the arguments that name paths (27.2). Relative paths are passed as given.
fn check_paths(ctx: &Ctx, args: &Value) -> Result<()> {
    let Some(rules) = ctx.rules() else {
        return Ok(());
    };
    for field in PATH_ARGS {
        let values: Vec<&str> = match args.get(*field) {
            Some(Value::String(s)) => vec![s],
            Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
            _ => continue,
        };
        for v in values {
            let p = v.strip_prefix("file://").unwrap_or(v);
            let full = crate::context::normalize_lexically(&ctx.root_real.join(p));
            if rules.judge(&full, false) == crate::sandbox::rules::Verdict::Denied {
                return Err(ToolError::new(
                    Code::PathDenied,
                    format!("{v} is denied by the catalog's paths.deny: no tool reads, lists or changes it"),
                )
                .with("path", v)
                .with("field", *field));
            }
        }
    }
    Ok(())
}

/// The tool every `mcp__NAME__TOOL` runs as: its input is the upstream's to check.
pub struct UpstreamTool;
pub static UPSTREAM: UpstreamTool = UpstreamTool;

static ANY_OBJECT: LazyLock<Value> = LazyLock::new(|| json!({"type": "object"}));

impl DynTool for UpstreamTool {
    fn name(&self) -> &'static str {
        UPSTREAM_TOOL
    }
    fn summary(&self) -> &'static str {
        "A tool of another MCP server ([mcp_servers] in the catalog)"
    }
    fn description(&self) -> &'static str {
        "A tool of another MCP server ([mcp_servers] in the catalog)."
    }
    fn positionals(&self) -> &'static [&'static str] {
        &[]
    }
    fn examples(&self) -> &'static str {
        ""
    }
    fn raw_stdin_field(&self) -> Option<&'static str> {
        None
    }
    fn hints(&self) -> Hints {
        Hints {
            open_world: true,
            ..Hints::DESTRUCTIVE
        }
    }
    fn output_cap(&self) -> usize {
        30_000
    }
    fn input_schema(&self) -> &'static Value {
        &ANY_OBJECT
    }
    fn parse(&self, input: Value) -> Result<Parsed> {
        if !input.is_object() {
            return Err(ToolError::invalid(
                "input",
                "an upstream tool's input must be a JSON object",
            ));
        }
        // What it does is the upstream's business: ordered as a command (24.7).
        Ok(Parsed::new(UPSTREAM_TOOL, input, false, Effect::Commands))
    }
    fn run_parsed(&self, ctx: &Ctx, input: Parsed) -> Result<Success> {
        let args: Value = input.downcast(UPSTREAM_TOOL)?;
        let name = ctx.call.name.clone();
        let Some((server, tool)) = ctx.policy.catalog.upstream_of(&name) else {
            return Err(ToolError::new(
                Code::UnknownTool,
                format!("unknown tool `{name}`"),
            ));
        };
        check_paths(ctx, &args)?;
        let success = call(ctx, server, &tool, args)?;
        let cap = ctx.call.entry.as_ref().and_then(|e| e.max_output_bytes);
        match cap {
            Some(max) if success.output.len() as u64 > max => {
                kept_for_paging(ctx, &name, success, max)
            }
            _ => Ok(success),
        }
    }
}

/// A JSON-RPC response as its result, or the error it carries.
fn answer(v: &Value) -> std::result::Result<Value, Failure> {
    match v.get("error") {
        Some(e) => Err(Failure::Rpc(
            e["message"].as_str().unwrap_or("error").to_string(),
        )),
        None => Ok(v.get("result").cloned().unwrap_or(Value::Null)),
    }
}

/// A live connection to one server, shared by the calls in flight.
enum Conn {
    Stdio(Stdio_),
    Http(Http),
}

/// Requests waiting for their answer, by id; cleared (every waiter woken) when the server's
/// stdout closes.
type Waiting = Arc<Mutex<Option<HashMap<u64, Sender<Value>>>>>;

struct Stdio_ {
    child: Mutex<Child>,
    stdin: Arc<Mutex<ChildStdin>>,
    waiting: Waiting,
    stderr: Arc<Mutex<VecDeque<String>>>,
    next: AtomicU64,
}

impl Drop for Stdio_ {
    fn drop(&mut self) {
        let child = self.child.get_mut().unwrap_or_else(|e| e.into_inner());
        let _ = child.kill();
        let _ = child.wait();
        crate::tools::run::proc::unspare(child.id());
    }
}

struct Http {
    url: String,
    headers: Vec<(String, String)>,
    session: Mutex<Option<String>>,
    agent: ureq::Agent,
    next: AtomicU64,
}

const CLIENT_INFO: &str = "loopr-tool";

fn initialize_params() -> Value {
    json!({"protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": CLIENT_INFO, "version": env!("CARGO_PKG_VERSION")}})
}

impl Conn {
    fn start(server: &McpServer, root: &Path) -> Result<Conn> {
        let startup =
            Instant::now() + Duration::from_millis(server.startup_timeout_ms.unwrap_or(STARTUP_MS));
        let c = match (&server.command, &server.url) {
            (Some(cmd), _) => Conn::Stdio(Stdio_::spawn(server, cmd, root)?),
            (None, Some(url)) => Conn::Http(Http::new(server, url)?),
            (None, None) => return Err(unavailable(server, "it has neither `command` nor `url`")),
        };
        let init = c.request("initialize", initialize_params(), startup, None);
        if let Err(f) = init {
            let why = match f {
                Failure::Gone(w) => w, // says its stderr already
                Failure::TimedOut => {
                    format!("it did not answer initialize in time{}", c.stderr_tail())
                }
                Failure::Rpc(m) => format!("it refused initialize: {m}{}", c.stderr_tail()),
                Failure::Cancelled => "cancelled".into(),
            };
            return Err(unavailable(server, &why));
        }
        c.notify("notifications/initialized");
        Ok(c)
    }

    fn stderr_tail(&self) -> String {
        match self {
            Conn::Stdio(s) => s.stderr_tail(),
            Conn::Http(_) => String::new(),
        }
    }

    fn notify(&self, method: &str) {
        let msg = json!({"jsonrpc": "2.0", "method": method});
        match self {
            Conn::Stdio(s) => s.send(&msg),
            Conn::Http(h) => {
                let _ = h.post(&msg, Instant::now() + Duration::from_secs(5));
            }
        }
    }

    fn request(
        &self,
        method: &str,
        params: Value,
        deadline: Instant,
        control: Option<&crate::control::Control>,
    ) -> std::result::Result<Value, Failure> {
        match self {
            Conn::Stdio(s) => s.request(method, params, deadline, control),
            Conn::Http(h) => h.request(method, params, deadline),
        }
    }
}

impl Stdio_ {
    fn spawn(server: &McpServer, cmd: &str, root: &Path) -> Result<Stdio_> {
        let base = match root.as_os_str().is_empty() {
            true => std::env::current_dir().unwrap_or_default(),
            false => root.to_path_buf(),
        };
        let cwd = server.cwd.as_ref().map_or(base.clone(), |c| base.join(c));
        let mut child = Command::new(cmd)
            .args(&server.args)
            .envs(server.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // A process group of its own: a terminal's Ctrl-C is not its; it ends when our end
            // of its stdin closes.
            .process_group(0)
            .spawn()
            .map_err(|e| unavailable(server, &format!("`{cmd}` could not be started: {e}")))?;
        // Ours to end, not a run's or a hook's: their trees' ends signal every descendant.
        crate::tools::run::proc::spare(child.id());
        let stdin = Arc::new(Mutex::new(child.stdin.take().expect("piped")));
        let stderr = keep_tail(child.stderr.take().expect("piped"));
        let waiting: Waiting = Arc::new(Mutex::new(Some(HashMap::new())));
        let (w, to) = (waiting.clone(), stdin.clone());
        let stdout = child.stdout.take().expect("piped");
        std::thread::spawn(move || route_answers(stdout, &w, &to));
        Ok(Stdio_ {
            child: Mutex::new(child),
            stdin,
            waiting,
            stderr,
            next: AtomicU64::new(1),
        })
    }

    fn send(&self, msg: &Value) {
        let mut stdin = self.stdin.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(stdin, "{msg}").and_then(|()| stdin.flush());
    }

    fn request(
        &self,
        method: &str,
        params: Value,
        deadline: Instant,
        control: Option<&crate::control::Control>,
    ) -> std::result::Result<Value, Failure> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = channel();
        match self
            .waiting
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_mut()
        {
            Some(w) => w.insert(id, tx),
            None => return Err(self.gone("it exited")),
        };
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let written = {
            let mut stdin = self.stdin.lock().unwrap_or_else(|e| e.into_inner());
            writeln!(stdin, "{msg}").and_then(|()| stdin.flush())
        };
        if let Err(e) = written {
            self.forget(id);
            return Err(self.gone(&format!("writing to it failed ({e})")));
        }
        loop {
            if control.is_some_and(|c| c.is_cancelled()) {
                self.cancel(id, "cancelled");
                return Err(if control.is_some_and(|c| c.client_cancelled()) {
                    Failure::Cancelled
                } else {
                    Failure::TimedOut
                });
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                self.cancel(id, "timed out");
                return Err(Failure::TimedOut);
            }
            match rx.recv_timeout(left.min(Duration::from_millis(100))) {
                Ok(v) => return answer(&v),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Err(self.gone("it exited")),
            }
        }
    }

    fn forget(&self, id: u64) {
        if let Some(w) = self
            .waiting
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_mut()
        {
            w.remove(&id);
        }
    }

    fn cancel(&self, id: u64, reason: &str) {
        self.forget(id);
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "reason": reason}}));
    }

    fn stderr_tail(&self) -> String {
        let lines = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        if lines.is_empty() {
            return String::new();
        }
        let lines: Vec<String> = lines.iter().cloned().collect();
        format!("; its stderr ended with:\n{}", lines.join("\n"))
    }

    fn gone(&self, what: &str) -> Failure {
        // Give the stderr reader a moment to take the last lines a dying server wrote.
        let mut status = String::new();
        for _ in 0..10 {
            std::thread::sleep(Duration::from_millis(20));
            let mut child = self.child.lock().unwrap_or_else(|e| e.into_inner());
            if let Ok(Some(s)) = child.try_wait() {
                status = format!(" ({s})");
                break;
            }
        }
        Failure::Gone(format!("{what}{status}{}", self.stderr_tail()))
    }
}

/// Keeps the last lines a server writes on stderr, for the errors that quote them.
fn keep_tail(pipe: std::process::ChildStderr) -> Arc<Mutex<VecDeque<String>>> {
    let tail = Arc::new(Mutex::new(VecDeque::new()));
    let kept = tail.clone();
    std::thread::spawn(move || {
        let lines = BufReader::new(pipe).lines();
        for line in lines.map_while(std::result::Result::ok) {
            let mut t = kept.lock().unwrap_or_else(|e| e.into_inner());
            if t.len() == STDERR_LINES {
                t.pop_front();
            }
            t.push_back(line);
        }
    });
    tail
}

/// Reads a server's stdout: each answer goes to the request waiting for its id; a request of
/// the server's is refused; anything but JSON (a stray print) is skipped. At EOF every waiter
/// is woken.
fn route_answers(stdout: std::process::ChildStdout, waiting: &Waiting, stdin: &Mutex<ChildStdin>) {
    let mut r = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        match r.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let Ok(v) = serde_json::from_slice::<Value>(&line) else {
            continue;
        };
        if v.get("method").is_some() {
            if let Some(their) = v.get("id") {
                let no = json!({"jsonrpc": "2.0", "id": their, "error": {"code": -32601, "message": "not supported by loopr-tool"}});
                let mut stdin = stdin.lock().unwrap_or_else(|e| e.into_inner());
                let _ = writeln!(stdin, "{no}").and_then(|()| stdin.flush());
            }
            continue;
        }
        let Some(id) = v.get("id").and_then(Value::as_u64) else {
            continue;
        };
        let to = waiting
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_mut()
            .and_then(|w| w.remove(&id));
        if let Some(to) = to {
            let _ = to.send(v);
        }
    }
    *waiting.lock().unwrap_or_else(|e| e.into_inner()) = None;
}

impl Http {
    fn new(server: &McpServer, url: &str) -> Result<Http> {
        let mut headers = server.http_headers.clone();
        if let Some(var) = &server.bearer_token_env_var {
            match std::env::var(var).ok().filter(|v| !v.is_empty()) {
                Some(t) => headers.push(("Authorization".into(), format!("Bearer {t}"))),
                None => {
                    return Err(unavailable(
                        server,
                        &format!("its token variable {var} is unset or empty"),
                    ));
                }
            }
        }
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .new_agent();
        Ok(Http {
            url: url.to_string(),
            headers,
            session: Mutex::new(None),
            agent,
            next: AtomicU64::new(1),
        })
    }

    fn post(&self, msg: &Value, deadline: Instant) -> std::result::Result<Option<Value>, Failure> {
        let left = deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1));
        let mut req = self
            .agent
            .post(&self.url)
            .config()
            .timeout_global(Some(left))
            .build()
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream");
        for (k, v) in &self.headers {
            req = req.header(k.as_str(), v.as_str());
        }
        let session = self
            .session
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some(s) = &session {
            req = req.header("Mcp-Session-Id", s.as_str());
        }
        let resp = req.send(msg.to_string()).map_err(|e| match e {
            ureq::Error::Timeout(_) => Failure::TimedOut,
            e => Failure::Gone(format!("{e}")),
        })?;
        let status = resp.status().as_u16();
        if status == 401 || status == 403 {
            return Err(Failure::Gone(format!(
                "it answered HTTP {status}: check bearer_token_env_var / http_headers"
            )));
        }
        if let Some(s) = resp
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            *self.session.lock().unwrap_or_else(|e| e.into_inner()) = Some(s.to_string());
        }
        if status == 202 {
            return Ok(None);
        }
        if !(200..300).contains(&status) {
            return Err(Failure::Gone(format!("it answered HTTP {status}")));
        }
        let sse = resp
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|c| c.starts_with("text/event-stream"));
        let body = resp
            .into_body()
            .read_to_string()
            .map_err(|e| Failure::Gone(format!("its answer could not be read: {e}")))?;
        let id = msg.get("id");
        let messages: Vec<Value> = if sse {
            body.lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .filter_map(|d| serde_json::from_str(d.trim()).ok())
                .collect()
        } else {
            serde_json::from_str(&body).into_iter().collect()
        };
        Ok(messages
            .into_iter()
            .find(|m| m.get("id") == id && m.get("method").is_none()))
    }

    fn request(
        &self,
        method: &str,
        params: Value,
        deadline: Instant,
    ) -> std::result::Result<Value, Failure> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        match self.post(&msg, deadline)? {
            Some(v) => answer(&v),
            None => Err(Failure::Gone("it sent no answer".into())),
        }
    }
}
