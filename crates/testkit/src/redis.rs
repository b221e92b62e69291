//! A real `redis-server` for the Redis hub's tests (SPEC 25.2): started on a free loopback port
//! in a scratch directory, nothing saved to disk, stopped (killed and reaped) when dropped.
//!
//! Without `redis-server` on PATH (Debian's `redis-server` package; `.ci/run` installs it),
//! `start` prints why and returns None: the caller skips, and says so.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct RedisServer {
    child: Child,
    pub port: u16,
    /// The scratch directory it runs in (its `--dir`).
    pub dir: tempfile::TempDir,
}

/// Whether `redis-server` can be run here.
pub fn available() -> bool {
    Command::new("redis-server")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

impl RedisServer {
    /// A server with no password, or None (with a note on stderr) without `redis-server`.
    pub fn start() -> Option<RedisServer> {
        RedisServer::start_with(&[])
    }

    /// As `start`, with more arguments (`["--requirepass", "pw"]`).
    pub fn start_with(extra: &[&str]) -> Option<RedisServer> {
        if !available() {
            eprintln!(
                "SKIPPED: redis-server is not installed (apt-get install redis-server); the Redis hub was not tested"
            );
            return None;
        }
        // A port picked free can be taken before the server binds it: try a few.
        for _ in 0..8 {
            let port = free_port();
            let dir = tempfile::tempdir().unwrap();
            let mut child = Command::new("redis-server")
                .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
                .args(["--save", "", "--appendonly", "no"])
                .arg("--dir")
                .arg(dir.path())
                .args(["--daemonize", "no", "--loglevel", "warning"])
                .args(extra)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("redis-server starts");
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(10) {
                if let Ok(Some(_)) = child.try_wait() {
                    break; // the port was taken, most likely
                }
                if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                    return Some(RedisServer { child, port, dir });
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("redis-server did not start on a free port in 8 tries");
    }

    /// `redis://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Sends one command (with `auth`, AUTH first) and returns its reply, roughly as
    /// redis-cli prints it: bulk and simple strings as themselves, integers in decimal, arrays
    /// as their elements one per line, nil as `(nil)`, errors as `ERR …`.
    pub fn command(&self, auth: Option<&str>, args: &[&str]) -> String {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut r = BufReader::new(s.try_clone().unwrap());
        if let Some(pw) = auth {
            s.write_all(&encode(&["AUTH", pw])).unwrap();
            read_reply(&mut r);
        }
        s.write_all(&encode(args)).unwrap();
        read_reply(&mut r)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A loopback port nobody listens on (just now).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn encode(args: &[&str]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", args.len()).into_bytes();
    for a in args {
        out.extend(format!("${}\r\n", a.len()).bytes());
        out.extend(a.bytes());
        out.extend(b"\r\n");
    }
    out
}

fn read_reply(r: &mut impl BufRead) -> String {
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let line = line.trim_end_matches("\r\n");
    let (kind, rest) = line.split_at(1);
    match kind {
        "+" | ":" => rest.to_string(),
        "-" => rest.to_string(),
        "$" => {
            let n: i64 = rest.parse().unwrap();
            if n < 0 {
                return "(nil)".into();
            }
            let mut buf = vec![0; n as usize + 2];
            r.read_exact(&mut buf).unwrap();
            String::from_utf8_lossy(&buf[..n as usize]).into_owned()
        }
        "*" => {
            let n: i64 = rest.parse().unwrap();
            (0..n.max(0))
                .map(|_| read_reply(r))
                .collect::<Vec<_>>()
                .join("\n")
        }
        _ => panic!("not a RESP reply: {line:?}"),
    }
}

/// A server that accepts connections and never answers: each connection is held open, unread,
/// until the listener is dropped (or two minutes pass).
pub struct Silent {
    pub port: u16,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Silent {
    pub fn start() -> Silent {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        listener.set_nonblocking(true).unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        std::thread::spawn(move || {
            let mut held = vec![];
            let start = Instant::now();
            while !flag.load(std::sync::atomic::Ordering::Relaxed)
                && start.elapsed() < Duration::from_secs(120)
            {
                match listener.accept() {
                    Ok((s, _)) => held.push(s),
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Silent { port, stop }
    }
}

impl Drop for Silent {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}
