//! `mcp --http ADDR:PORT` (SPEC 27.1, 27.3): the same server as on stdio, framed as MCP's
//! Streamable HTTP on one endpoint, `/mcp`.
//!
//! Each POST is one exchange: its message goes through the very `Server::handle_message` the
//! stdio loop calls, with an `Out` of its own whose messages come back to the thread answering
//! the POST — as JSON, or as an SSE stream when the call asked for progress. A cancelled call
//! sends nothing, so its `Out` is dropped empty: the exchange then ends (202, or the stream
//! closes). A 2025 session (`initialize` → `Mcp-Session-Id`) is one `Server` — its own
//! scheduler (24.7), calls in flight and thread pool — so sessions run side by side; a request
//! speaking 2026-07-28 gets a fresh `Server` of its own (stateless).
//!
//! The HTTP stack is tiny_http: synchronous, a thread per connection, four small crates. An
//! async stack (hyper + tokio) would bring an executor next to the threads every tool already
//! runs on, for no gain at the tens of clients a tool server has.
//!
//! Security (27.1): a bearer token is required unless `--no-auth` on a loopback address;
//! `Host` must be a loopback name, an IP literal (a DNS-rebinding page's Host is a name) or an
//! `--allow-host`; an `Origin`, when sent, must be loopback, the Host itself or allowed. The
//! token is taken out of the environment before any thread or child starts, and is never
//! printed.

use super::pool::Pool;
use super::wire::{INVALID_REQUEST, Out};
use super::{META_VERSION, STATELESS, Server, VERSIONS, parse_failure};
use crate::context::Globals;
use crate::exit_status::ExitStatus;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tiny_http::{Header, Method, Request, Response};

/// What `mcp --http` was asked for.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    pub addr: String,
    /// The variable holding the bearer token.
    pub token_env: Option<String>,
    pub no_auth: bool,
    /// How long a session may sit idle before it expires.
    pub session_idle: Duration,
    /// Host names accepted besides loopback names and IP literals (a reverse proxy's name).
    pub allow_hosts: Vec<String>,
    /// `--tls-cert` and `--tls-key` (both or neither): serve HTTPS.
    pub tls_cert: Option<PathBuf>,
    pub tls_key: Option<PathBuf>,
}

const ENDPOINT: &str = "/mcp";
const SESSION_HEADER: &str = "Mcp-Session-Id";

struct Hub {
    globals: Globals,
    structured: bool,
    token: Option<String>,
    allow_hosts: Vec<String>,
    idle: Duration,
    sessions: Mutex<HashMap<String, Session>>,
    /// The threads of stateless requests' calls, shared (each such request is its own server).
    stateless_pool: Pool,
}

struct Session {
    server: Arc<Server>,
    last: Instant,
}

/// Serves until the process is stopped. Refuses to start without a token unless `--no-auth`
/// on a loopback address.
pub fn serve_http(g: &Globals, structured: bool, o: &HttpOptions) -> ExitStatus {
    let token = match token_of(o) {
        Ok(t) => t,
        Err(message) => return refuse_to_start(g, message),
    };
    let tls = match (&o.tls_cert, &o.tls_key) {
        (Some(cert), Some(key)) => match super::tls::config(cert, key) {
            Ok(config) => Some(config),
            Err(message) => return refuse_to_start(g, format!("mcp --http: {message}")),
        },
        (None, None) => None,
        _ => {
            let message = "mcp --http: --tls-cert and --tls-key go together (the certificate chain and its key, PEM)";
            return refuse_to_start(g, message.into());
        }
    };
    let tls_on = tls.is_some();
    let (server, bound) = match listen(&o.addr, tls) {
        Ok(s) => s,
        Err(e) => {
            return refuse_to_start(g, format!("mcp --http: cannot listen on {}: {e}", o.addr));
        }
    };
    let mut globals = g.clone();
    if globals.root.is_none() {
        // Every session's root is the server's (27.3): the working directory when not given.
        globals.root = std::env::current_dir().ok();
    }
    let hub = Arc::new(Hub {
        globals,
        structured,
        token,
        allow_hosts: o
            .allow_hosts
            .iter()
            .map(|h| h.to_ascii_lowercase())
            .collect(),
        idle: o.session_idle,
        sessions: Mutex::new(HashMap::new()),
        stateless_pool: Pool::new(),
    });
    let scheme = if tls_on { "https" } else { "http" };
    eprintln!("loopr-tool mcp: serving {scheme}://{bound}{ENDPOINT}");
    let reaper = hub.clone();
    std::thread::spawn(move || reaper.expire_idle());
    for request in server.incoming_requests() {
        let hub = hub.clone();
        std::thread::spawn(move || hub.respond(request));
    }
    ExitStatus::Success
}

/// The server on `addr`. Its listener has TCP_NODELAY, which Linux hands to every accepted
/// socket: tiny_http writes a response in 1 KiB pieces, and with Nagle's algorithm a 2 KB read's
/// answer waited for the client's delayed ACK (48 ms a call instead of under 1).
/// With `tls`, TLS ends in front of tiny_http (see `tls`). Also the address bound.
fn listen(
    addr: &str,
    tls: Option<Arc<rustls::ServerConfig>>,
) -> Result<(tiny_http::Server, SocketAddr), Box<dyn std::error::Error + Send + Sync>> {
    let listener = std::net::TcpListener::bind(addr)?;
    socket2::SockRef::from(&listener).set_tcp_nodelay(true)?;
    let bound = listener.local_addr()?;
    let server = match tls {
        Some(config) => super::tls::terminate(listener, config, &new_session_id())?,
        None => tiny_http::Server::from_listener(listener, None)?,
    };
    Ok((server, bound))
}

fn refuse_to_start(g: &Globals, message: String) -> ExitStatus {
    let err = crate::error::ToolError::usage(message);
    crate::envelope::Envelope::failure("mcp", err, &[]).print(g.format, g.pretty)
}

/// The token, read once and removed from the environment so that no command `run` or a hook
/// starts inherits it (27.3). An empty variable counts as unset.
fn token_of(o: &HttpOptions) -> Result<Option<String>, String> {
    let token = o.token_env.as_deref().and_then(|var| {
        let value = std::env::var(var).ok().filter(|v| !v.is_empty());
        // SAFETY: called before this process starts any thread of the server, so no other
        // thread reads the environment meanwhile.
        unsafe { std::env::remove_var(var) };
        value
    });
    if token.is_some() {
        return Ok(token);
    }
    if o.no_auth {
        return if is_loopback_addr(&o.addr) {
            Ok(None)
        } else {
            Err(format!(
                "mcp --http: --no-auth is accepted only on a loopback address (127.0.0.0/8, ::1, localhost), not {}",
                o.addr
            ))
        };
    }
    Err(match &o.token_env {
        Some(var) => format!(
            "mcp --http: the token variable {var} is unset or empty; set it, or use --no-auth on a loopback address"
        ),
        None => "mcp --http: a bearer token is required: --token-env VAR names the variable holding it (or --no-auth on a loopback address)".into(),
    })
}

/// Whether `ADDR:PORT` names a loopback address only.
fn is_loopback_addr(addr: &str) -> bool {
    let host = addr.rsplit_once(':').map_or(addr, |(h, _)| h);
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match host.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => addr
            .to_socket_addrs()
            .is_ok_and(|mut a| a.all(|s| s.ip().is_loopback())),
    }
}

/// A header's value, by name (case-insensitive).
fn header<'a>(req: &'a Request, name: &str) -> Option<&'a str> {
    req.headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str())
}

fn head(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

/// An HTTP error whose body is a JSON-RPC error (what MCP clients show their user).
fn reject(req: Request, status: u16, message: &str, extra: Option<Header>) {
    let body = json!({"jsonrpc": "2.0", "id": null, "error": {"code": INVALID_REQUEST, "message": message}});
    let mut r = Response::from_string(body.to_string())
        .with_status_code(status)
        .with_header(head("Content-Type", "application/json"));
    if let Some(h) = extra {
        r = r.with_header(h);
    }
    let _ = req.respond(r);
}

/// The host part of a `Host` value or a URL's authority, lower-cased, without its port.
fn host_name(authority: &str) -> String {
    let a = authority.trim().to_ascii_lowercase();
    if let Some(rest) = a.strip_prefix('[') {
        return rest.split(']').next().unwrap_or("").to_string();
    }
    match a.rsplit_once(':') {
        Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h.to_string(),
        _ => a,
    }
}

fn is_loopback_name(host: &str) -> bool {
    host == "localhost" || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Compares without stopping at the first difference (no timing hint about the token).
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// Why a session id is not one: MCP's are visible ASCII (0x21–0x7E).
fn malformed_session(id: &str) -> bool {
    id.is_empty() || id.len() > 128 || !id.bytes().all(|b| (0x21..=0x7e).contains(&b))
}

fn new_session_id() -> String {
    let mut bytes = [0u8; 16];
    if std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_err()
    {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        bytes.copy_from_slice(&t.to_le_bytes());
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether a message the server wrote is a notification (ours start so: `json!` keeps order).
fn is_notification(msg: &[u8]) -> bool {
    msg.starts_with(b"{\"jsonrpc\":\"2.0\",\"method\"")
}

impl Hub {
    fn respond(&self, req: Request) {
        let path = req.url().split('?').next().unwrap_or("");
        if path != ENDPOINT {
            let msg = format!("not found: the MCP endpoint is {ENDPOINT}");
            return reject(req, 404, &msg, None);
        }
        if let Err(why) = self.check_origin(&req) {
            return reject(req, 403, &why, None);
        }
        if let Err(why) = self.check_token(&req) {
            let challenge = head("WWW-Authenticate", "Bearer");
            return reject(req, 401, why, Some(challenge));
        }
        match req.method() {
            Method::Post => self.post(req),
            Method::Delete => self.delete(req),
            _ => {
                let allow = head("Allow", "POST, DELETE");
                reject(
                    req,
                    405,
                    "this server answers POST and DELETE on /mcp (no GET stream)",
                    Some(allow),
                )
            }
        }
    }

    /// Host and Origin (DNS rebinding, 27.1).
    fn check_origin(&self, req: &Request) -> Result<(), String> {
        let Some(host) = header(req, "Host").map(host_name) else {
            return Err("a Host header is required".into());
        };
        let allowed = |h: &str| is_loopback_name(h) || self.allow_hosts.iter().any(|a| a == h);
        if !(allowed(&host) || host.parse::<IpAddr>().is_ok()) {
            return Err(format!(
                "Host `{host}` is not accepted (DNS rebinding protection): use a loopback name or an IP address, or start the server with --allow-host {host}"
            ));
        }
        match header(req, "Origin") {
            None | Some("null") => Ok(()),
            Some(origin) => {
                let o = url::Url::parse(origin)
                    .ok()
                    .and_then(|u| u.host_str().map(host_name))
                    .unwrap_or_default();
                if allowed(&o) || o == host {
                    Ok(())
                } else {
                    Err(format!(
                        "Origin `{origin}` is not accepted (DNS rebinding protection)"
                    ))
                }
            }
        }
    }

    /// The bearer token, when the server has one. Never echoes what was sent.
    fn check_token(&self, req: &Request) -> Result<(), &'static str> {
        let Some(token) = &self.token else {
            return Ok(());
        };
        let Some(auth) = header(req, "Authorization") else {
            return Err("unauthorized: send Authorization: Bearer <token>");
        };
        let given = match auth.split_once(' ') {
            Some((scheme, t)) if scheme.eq_ignore_ascii_case("bearer") => t.trim(),
            _ => return Err("unauthorized: the Authorization header must be `Bearer <token>`"),
        };
        if same_secret(given.as_bytes(), token.as_bytes()) {
            Ok(())
        } else {
            Err("unauthorized: the bearer token is wrong")
        }
    }

    /// The session a request names, or the HTTP error to answer.
    fn session_of(&self, req: &Request) -> Result<(String, Arc<Server>), (u16, String)> {
        let Some(id) = header(req, SESSION_HEADER) else {
            return Err((
                400,
                format!(
                    "{SESSION_HEADER} is missing: send initialize first (or speak 2026-07-28 statelessly)"
                ),
            ));
        };
        if malformed_session(id) {
            return Err((
                400,
                format!("malformed {SESSION_HEADER}: 1 to 128 visible ASCII characters expected"),
            ));
        }
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        match sessions.get_mut(id) {
            Some(s) => {
                s.last = Instant::now();
                Ok((id.to_string(), s.server.clone()))
            }
            None => Err((
                404,
                format!("session not found (unknown, ended or expired): {id}"),
            )),
        }
    }

    fn delete(&self, req: Request) {
        match self.session_of(&req) {
            Err((status, why)) => reject(req, status, &why, None),
            Ok((id, server)) => {
                self.sessions
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&id);
                server.cancel_all();
                let _ = req.respond(Response::empty(200));
            }
        }
    }

    fn post(&self, mut req: Request) {
        let version = header(&req, "MCP-Protocol-Version").map(str::to_string);
        if let Some(v) = &version
            && v != STATELESS
            && !VERSIONS.contains(&v.as_str())
        {
            let why = format!(
                "unsupported MCP-Protocol-Version `{v}`; supported: {STATELESS}, {}",
                VERSIONS.join(", ")
            );
            return reject(req, 400, &why, None);
        }
        let body = match read_body(&mut req) {
            Ok(b) => b,
            Err(why) => return reject(req, 413, &why, None),
        };
        let mut msg = match crate::input::json::from_slice(&body) {
            Ok(p) => p.value,
            Err(e) => {
                let (code, message) = parse_failure(&e);
                let body = json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}});
                return json_reply(req, 400, body.to_string().into_bytes(), None);
            }
        };
        if !msg.is_object() {
            return reject(
                req,
                400,
                "a message must be a JSON object (JSON-RPC batches are not accepted)",
                None,
            );
        }
        let method = msg
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let stateless = version.as_deref() == Some(STATELESS)
            || msg
                .pointer("/params/_meta")
                .and_then(|m| m.get(META_VERSION))
                .is_some();
        let settable = |p: Option<&Value>| p.is_none_or(Value::is_object);
        if stateless && settable(msg.get("params")) && settable(msg.pointer("/params/_meta")) {
            // The header alone says so: the shared handling reads the revision from `_meta`.
            msg["params"]["_meta"][META_VERSION] = json!(STATELESS);
        }
        let (server, new_session) =
            if stateless || method == "server/discover" && header(&req, SESSION_HEADER).is_none() {
                let pool = self.stateless_pool.clone();
                (
                    Server::new(&self.globals, self.structured, true, pool),
                    None,
                )
            } else if method == "initialize" {
                let server = Server::new(&self.globals, self.structured, true, Pool::new());
                let id = new_session_id();
                let session = Session {
                    server: server.clone(),
                    last: Instant::now(),
                };
                self.sessions
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id.clone(), session);
                (server, Some(id))
            } else {
                match self.session_of(&req) {
                    Ok((_, s)) => (s, None),
                    Err((status, why)) => return reject(req, status, &why, None),
                }
            };
        let (tx, rx) = mpsc::channel();
        let out = Arc::new(Out::channel(tx));
        server.handle_message(&msg, &out);
        drop(out); // the exchange ends when the call lets go of its own
        let id = msg.get("id").cloned();
        let session = new_session.map(|s| head(SESSION_HEADER, &s));
        let is_request = id.is_some() && !method.is_empty();
        if !is_request {
            // A notification or a response: accepted, unless it was refused at once.
            return match rx.try_recv() {
                Ok(m) => json_reply(req, 400, m, None),
                Err(_) => {
                    let _ = req.respond(Response::empty(202));
                }
            };
        }
        let progress = msg.pointer("/params/_meta/progressToken").is_some();
        let accepts_sse = header(&req, "Accept").is_some_and(|a| a.contains("text/event-stream"));
        if progress && accepts_sse {
            stream(req, &rx, session, || {
                server.cancel(id.as_ref().unwrap_or(&Value::Null))
            });
        } else {
            match rx.iter().find(|m| !is_notification(m)) {
                Some(m) => json_reply(req, 200, m, session),
                // Cancelled: the exchange ends with no JSON-RPC message (27.3).
                None => {
                    let _ = req.respond(Response::empty(202));
                }
            }
        }
    }

    /// Ends sessions idle longer than `idle` with nothing in flight.
    fn expire_idle(&self) {
        let every = (self.idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(30));
        loop {
            std::thread::sleep(every);
            let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
            sessions.retain(|_, s| s.last.elapsed() < self.idle || s.server.busy());
        }
    }
}

/// The body, at most the input cap (64 MiB, 23.8): over it, the reason for a 413.
fn read_body(req: &mut Request) -> Result<Vec<u8>, String> {
    let cap = crate::input::STDIN_LIMIT;
    let too_large = || format!("the request body is over {cap} bytes");
    if req.body_length().is_some_and(|n| n as u64 > cap) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    let read = req.as_reader().take(cap + 1).read_to_end(&mut body);
    if body.len() as u64 > cap {
        return Err(too_large());
    }
    read.map_err(|e| format!("the request body could not be read: {e}"))?;
    Ok(body)
}

fn json_reply(req: Request, status: u16, body: Vec<u8>, session: Option<Header>) {
    let mut r = Response::from_data(body)
        .with_status_code(status)
        .with_header(head("Content-Type", "application/json"));
    if let Some(h) = session {
        r = r.with_header(h);
    }
    let _ = req.respond(r);
}

/// Answers with an SSE stream: each message an event, as it comes, until the response (or,
/// for a cancelled call, until the call lets go of the exchange). A client that goes away
/// cancels its call.
fn stream(req: Request, rx: &Receiver<Vec<u8>>, session: Option<Header>, cancel: impl Fn()) {
    let mut w = req.into_writer();
    let mut headers = String::from(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n",
    );
    if let Some(h) = session {
        headers.push_str(&format!("{}: {}\r\n", h.field, h.value));
    }
    headers.push_str("\r\n");
    if w.write_all(headers.as_bytes())
        .and_then(|()| w.flush())
        .is_err()
    {
        return cancel();
    }
    for m in rx.iter() {
        let last = !is_notification(&m);
        let mut event = b"event: message\ndata: ".to_vec();
        event.extend_from_slice(&m);
        event.extend_from_slice(b"\n\n");
        let sent = write!(w, "{:x}\r\n", event.len())
            .and_then(|()| w.write_all(&event))
            .and_then(|()| w.write_all(b"\r\n"))
            .and_then(|()| w.flush());
        if sent.is_err() {
            return cancel();
        }
        if last {
            break;
        }
    }
    let _ = w.write_all(b"0\r\n\r\n").and_then(|()| w.flush());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_addresses() {
        assert_eq!(host_name("LocalHost:8080"), "localhost");
        assert_eq!(host_name("[::1]:80"), "::1");
        assert_eq!(host_name("evil.example.com"), "evil.example.com");
        assert!(is_loopback_name("127.0.0.9") && is_loopback_name("::1"));
        assert!(!is_loopback_name("evil.example.com"));
        assert!(
            is_loopback_addr("127.0.0.1:0")
                && is_loopback_addr("[::1]:9")
                && is_loopback_addr("localhost:1")
        );
        assert!(!is_loopback_addr("0.0.0.0:8080") && !is_loopback_addr("10.1.2.3:80"));
    }

    #[test]
    fn secrets_and_session_ids() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abc", b"abd") && !same_secret(b"abc", b"abcd"));
        assert!(malformed_session("") && malformed_session("a b") && malformed_session("é"));
        assert!(!malformed_session(&new_session_id()));
        assert_eq!(new_session_id().len(), 32);
    }
}
