//! TLS for `mcp --http` (SPEC 27.1): `--tls-cert FILE --tls-key FILE`.
//!
//! tiny_http's own `ssl-rustls` feature is built on rustls 0.20 (with ring 0.16): a second TLS
//! stack beside the rustls 0.23 that ureq and the Redis hub already link. So TLS ends here, with
//! that rustls 0.23 (same features: ring, std, tls12; no new crate), and each connection's
//! plaintext goes on to tiny_http over a Unix socket in Linux's abstract namespace (nothing on
//! disk to clean up). A local process able to reach that socket reaches no more than one able
//! to reach the TCP port: the token, Host and Origin checks all stand behind it.
//!
//! Each TLS connection costs two threads (one per direction), like tiny_http's own thread per
//! connection; the rustls state is shared under a lock held only while records are decrypted
//! or encrypted and written, never across a blocking read.
//!
//! Measured (bench/mcp_http.py section 5, release build, 2 shared cores, a Python client): a
//! 2 KB read on a keep-alive connection 460 µs over HTTPS against 436 µs over HTTP; a new
//! connection and session per call 2.1 ms against 1.3 ms (the handshake); 8 clients 3,480
//! against 4,599 reads/s. The release binary grows by 217 KB (29,258,736 → 29,480,704 bytes:
//! rustls's server side and this relay).

use rustls::ServerConnection;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr, UnixListener, UnixStream};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The server's TLS configuration from a PEM certificate chain and a PEM private key.
pub fn config(cert: &Path, key: &Path) -> Result<Arc<rustls::ServerConfig>, String> {
    let certs = CertificateDer::pem_file_iter(cert)
        .and_then(|it| it.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("--tls-cert {}: {e}", cert.display()))?;
    if certs.is_empty() {
        return Err(format!(
            "--tls-cert {}: no certificate in it",
            cert.display()
        ));
    }
    let key = PrivateKeyDer::from_pem_file(key)
        .map_err(|e| format!("--tls-key {}: {e}", key.display()))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| format!("--tls-cert/--tls-key: {e}"))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Accepts TLS connections on `tcp` (in a thread of its own) and returns the tiny_http server
/// that receives their plaintext.
pub fn terminate(
    tcp: TcpListener,
    config: Arc<rustls::ServerConfig>,
    name: &str,
) -> Result<tiny_http::Server, Box<dyn std::error::Error + Send + Sync>> {
    let inner = SocketAddr::from_abstract_name(format!("loopr-tool-mcp-tls-{name}"))?;
    let server = tiny_http::Server::from_listener(UnixListener::bind_addr(&inner)?, None)?;
    std::thread::spawn(move || {
        for client in tcp.incoming().flatten() {
            let (config, inner) = (config.clone(), inner.clone());
            std::thread::spawn(move || relay(client, config, &inner));
        }
    });
    Ok(server)
}

type Shared = Arc<Mutex<ServerConnection>>;

/// One connection: client → TLS → tiny_http here, tiny_http → TLS → client in a second thread.
fn relay(tcp: TcpStream, config: Arc<rustls::ServerConfig>, inner: &SocketAddr) {
    let Ok(conn) = ServerConnection::new(config) else {
        return;
    };
    let Ok(plain) = UnixStream::connect_addr(inner) else {
        return;
    };
    let (Ok(tcp_out), Ok(plain_in)) = (tcp.try_clone(), plain.try_clone()) else {
        return;
    };
    let shared: Shared = Arc::new(Mutex::new(conn));
    let back = shared.clone();
    let answers = std::thread::spawn(move || {
        let _ = to_client(&back, plain_in, &tcp_out);
        // Unblocks the other direction's read, whichever side ended first.
        let _ = tcp_out.shutdown(Shutdown::Both);
    });
    let _ = from_client(&shared, &tcp, &plain);
    let _ = plain.shutdown(Shutdown::Write);
    let _ = answers.join();
}

/// Decrypts what the client sends and passes the plaintext on; answers the handshake.
fn from_client(shared: &Shared, tcp: &TcpStream, mut plain: &UnixStream) -> io::Result<()> {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = (&*tcp).read(&mut buf)?;
        if n == 0 {
            return Ok(());
        }
        let (clear, closed) = decrypt(shared, &buf[..n], tcp)?;
        plain.write_all(&clear)?;
        if closed {
            return Ok(());
        }
    }
}

/// The plaintext in these TLS bytes, and whether the client said close_notify.
fn decrypt(shared: &Shared, mut records: &[u8], tcp: &TcpStream) -> io::Result<(Vec<u8>, bool)> {
    let mut conn = shared.lock().unwrap_or_else(|e| e.into_inner());
    let (mut clear, mut closed) = (Vec::new(), false);
    while !records.is_empty() {
        conn.read_tls(&mut records)?;
        let state = match conn.process_new_packets() {
            Ok(state) => state,
            Err(e) => {
                let _ = conn.write_tls(&mut &*tcp); // the alert, for the client's sake
                return Err(io::Error::other(e));
            }
        };
        closed |= state.peer_has_closed();
        let mut chunk = [0u8; 16 * 1024];
        loop {
            match conn.reader().read(&mut chunk) {
                Ok(0) => break,
                Ok(k) => clear.extend_from_slice(&chunk[..k]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(e),
            }
        }
    }
    while conn.wants_write() {
        conn.write_tls(&mut &*tcp)?;
    }
    Ok((clear, closed))
}

/// Encrypts tiny_http's answers for the client; close_notify when tiny_http closes.
fn to_client(shared: &Shared, mut plain: UnixStream, tcp: &TcpStream) -> io::Result<()> {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = plain.read(&mut buf)?;
        let mut conn = shared.lock().unwrap_or_else(|e| e.into_inner());
        if n == 0 {
            conn.send_close_notify();
        } else {
            conn.writer().write_all(&buf[..n])?;
        }
        while conn.wants_write() {
            conn.write_tls(&mut &*tcp)?;
        }
        if n == 0 {
            return Ok(());
        }
    }
}
