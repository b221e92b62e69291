//! A tiny HTTP/1.1 server for the fetch and search tests, on loopback (or, inside a network namespace a
//! test made, on the addresses given to its `lo`). One thread per connection, one request per
//! connection. It records every connection it accepts, so a test can prove that a blocked
//! fetch never connected. It stops when dropped, and in any case after two minutes.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const LIFETIME: Duration = Duration::from_secs(120);

#[derive(Debug, Clone)]
pub struct Req {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    /// The address the connection came in on (which of `lo`'s addresses, in a namespace).
    pub local: SocketAddr,
    /// The request body (Content-Length framed), as sent.
    pub body: Vec<u8>,
}

impl Req {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

pub enum Reply {
    /// A response with Content-Length (unless `headers` set Transfer-Encoding or the body is
    /// close-delimited, see `unframed`).
    Send {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
        framed: bool,
    },
    /// Read the request, never answer.
    Hang,
    /// Headers at once, then one body byte every `every`, forever.
    Drip { every: Duration },
}

pub fn reply(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Reply {
    Reply::Send {
        status,
        headers: vec![("Content-Type".into(), content_type.into())],
        body: body.into(),
        framed: true,
    }
}

pub fn html(body: &str) -> Reply {
    reply(200, "text/html; charset=utf-8", body)
}

pub fn redirect(status: u16, location: &str) -> Reply {
    Reply::Send {
        status,
        headers: vec![("Location".into(), location.into())],
        body: b"moved".to_vec(),
        framed: true,
    }
}

/// A body ended by closing the connection: no Content-Length, no chunking.
pub fn unframed(headers: Vec<(&str, &str)>, body: impl Into<Vec<u8>>) -> Reply {
    Reply::Send {
        status: 200,
        headers: headers
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: body.into(),
        framed: false,
    }
}

type Handler = dyn Fn(&Req) -> Reply + Send + Sync;

pub struct Server {
    pub port: u16,
    connections: Arc<AtomicUsize>,
    requests: Arc<Mutex<Vec<Req>>>,
    stop: Arc<AtomicBool>,
}

impl Server {
    /// On 127.0.0.1, a free port.
    pub fn start(handler: impl Fn(&Req) -> Reply + Send + Sync + 'static) -> Server {
        Server::start_on("127.0.0.1:0", handler).unwrap()
    }

    pub fn start_on(
        addr: &str,
        handler: impl Fn(&Req) -> Reply + Send + Sync + 'static,
    ) -> std::io::Result<Server> {
        let listener = TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        let connections = Arc::new(AtomicUsize::new(0));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let (c, r, s) = (connections.clone(), requests.clone(), stop.clone());
        std::thread::spawn(move || {
            let born = Instant::now();
            while !s.load(Ordering::SeqCst) && born.elapsed() < LIFETIME {
                match listener.accept() {
                    Ok((stream, _)) => {
                        c.fetch_add(1, Ordering::SeqCst);
                        let (r, s, h) = (r.clone(), s.clone(), handler.clone());
                        std::thread::spawn(move || serve(stream, &*h, &r, &s));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Ok(Server {
            port,
            connections,
            requests,
            stop,
        })
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Connections accepted so far, requests or not.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    pub fn requests(&self) -> Vec<Req> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

fn serve(mut stream: TcpStream, handler: &Handler, log: &Mutex<Vec<Req>>, stop: &AtomicBool) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Some(req) = read_request(&mut stream) else {
        return;
    };
    log.lock().unwrap().push(req.clone());
    let born = Instant::now();
    let alive = || !stop.load(Ordering::SeqCst) && born.elapsed() < LIFETIME;
    match handler(&req) {
        Reply::Send {
            status,
            headers,
            body,
            framed,
        } => {
            let mut head = format!("HTTP/1.1 {status} X\r\nConnection: close\r\n");
            for (k, v) in &headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            let chunked = headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("transfer-encoding"));
            if framed && !chunked {
                head.push_str(&format!("Content-Length: {}\r\n", body.len()));
            }
            head.push_str("\r\n");
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
        Reply::Hang => {
            while alive() {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        Reply::Drip { every } => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n";
            if stream.write_all(head.as_bytes()).is_err() {
                return;
            }
            while alive() {
                if stream.write_all(b"x").and_then(|_| stream.flush()).is_err() {
                    return;
                }
                std::thread::sleep(every);
            }
        }
    }
    let _ = stream.flush();
}

fn read_request(stream: &mut TcpStream) -> Option<Req> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 || buf.len() > 64 * 1024 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if buf[0] == 0x16 {
            // A TLS handshake: answer in plain HTTP at once, as a plain server on a port
            // addressed with https:// would.
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
            return None;
        }
    }
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let text = String::from_utf8_lossy(&buf[..end]).into_owned();
    let mut lines = text.split("\r\n");
    let first: Vec<&str> = lines.next()?.split(' ').collect();
    let (method, path) = (first.first()?.to_string(), first.get(1)?.to_string());
    let headers: Vec<(String, String)> = lines
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0)
        .min(1 << 20);
    let mut body = buf[end..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    body.truncate(length);
    Some(Req {
        method,
        path,
        headers,
        local: stream.local_addr().ok()?,
        body,
    })
}
