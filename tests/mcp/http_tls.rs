//! `mcp --http --tls-cert FILE --tls-key FILE` (SPEC 27.1): a self-signed certificate made
//! here with `openssl req`, and ureq (the rustls the binary links) trusting only that one.

use crate::http::{Http, call, init};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;
use testkit::Env;
use ureq::tls::{Certificate, RootCerts, TlsConfig};

/// A self-signed certificate for 127.0.0.1 and localhost in `dir`: (cert.pem, key.pem), or
/// None (with a message) when openssl is missing; .ci/run installs it.
fn self_signed(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    let made = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
        ])
        .args(["-nodes", "-days", "2", "-subj", "/CN=localhost"])
        .args(["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        // Not a CA: webpki refuses a CA certificate as the server's own (CaUsedAsEndEntity).
        .args(["-addext", "basicConstraints=critical,CA:FALSE"])
        .args(["-addext", "extendedKeyUsage=serverAuth"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output();
    match made {
        Ok(out) if out.status.success() => Some((cert, key)),
        Ok(out) => panic!("openssl req: {}", String::from_utf8_lossy(&out.stderr)),
        Err(e) => {
            eprintln!("skipped: openssl is needed to make a test certificate ({e})");
            None
        }
    }
}

/// A ureq agent that trusts `roots` only (the webpki roots when None); HTTP errors as replies.
fn client(roots: Option<&Path>) -> ureq::Agent {
    let roots = match roots {
        Some(pem) => {
            let pem = std::fs::read(pem).unwrap();
            let cert = Certificate::from_pem(&pem).unwrap();
            RootCerts::Specific(Arc::new(vec![cert]))
        }
        None => RootCerts::WebPki,
    };
    let tls = TlsConfig::builder().root_certs(roots).build();
    ureq::Agent::config_builder()
        .tls_config(tls)
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .new_agent()
}

/// POSTs `msg` to the server's endpoint with this bearer token: (status, session id, body).
fn post(
    agent: &ureq::Agent,
    url: &str,
    token: &str,
    sid: Option<&str>,
    msg: &Value,
) -> Result<(u16, Option<String>, String), ureq::Error> {
    let mut req = agent
        .post(url)
        .header("Authorization", &format!("Bearer {token}"))
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json");
    if let Some(sid) = sid {
        req = req.header("Mcp-Session-Id", sid);
    }
    let mut reply = req.send(msg.to_string())?;
    let sid = reply
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_string());
    let body = reply.body_mut().read_to_string()?;
    Ok((reply.status().as_u16(), sid, body))
}

#[test]
fn http_tls_serves_https_with_the_given_certificate() {
    let env = Env::new();
    let Some((cert, key)) = self_signed(env.dir.path()) else {
        return;
    };
    env.write_file("hello.txt", "hello over tls\n");
    let (cert_s, key_s) = (cert.to_str().unwrap(), key.to_str().unwrap());
    let s = Http::start(
        &env,
        &[
            "--token-env",
            "LOOPR_TEST_TOKEN",
            "--tls-cert",
            cert_s,
            "--tls-key",
            key_s,
        ],
    );
    let first = s.stderr.lock().unwrap().clone();
    assert!(first.contains("serving https://127.0.0.1:"), "{first}");
    let url = format!("https://127.0.0.1:{}/mcp", s.port);
    let trusting = client(Some(&cert));

    let (status, sid, _) = post(&trusting, &url, "s3cret-token-for-tests", None, &init(1)).unwrap();
    assert_eq!(status, 200);
    let sid = sid.expect("a session id");
    let read = call(2, "read", json!({"path": "hello.txt"}));
    let (status, _, body) =
        post(&trusting, &url, "s3cret-token-for-tests", Some(&sid), &read).unwrap();
    assert_eq!(status, 200, "{body}");
    let reply: Value = serde_json::from_str(&body).unwrap();
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("hello over tls"), "{reply}");

    // The token is still checked behind TLS.
    let (status, _, _) = post(&trusting, &url, "wrong-token", None, &init(3)).unwrap();
    assert_eq!(status, 401);
    // A client that does not trust the certificate does not get through the handshake.
    let refused = post(
        &client(None),
        &url,
        "s3cret-token-for-tests",
        None,
        &init(4),
    );
    assert!(refused.is_err(), "{refused:?}");
    // Nor is anything served in clear on the TLS port.
    let clear = format!("http://127.0.0.1:{}/mcp", s.port);
    let plain = post(&trusting, &clear, "s3cret-token-for-tests", None, &init(5));
    assert!(!matches!(plain, Ok((200, ..))), "{plain:?}");
}

#[test]
fn http_tls_refuses_to_start_on_a_bad_certificate_or_key_naming_the_option() {
    let env = Env::new();
    env.write_file("junk.pem", "not a certificate\n");
    let junk = env.path("junk.pem");
    let missing = env.path("missing.pem");
    let refused = |cert: &Path, key: &Path| {
        let out = env
            .cmd()
            .args(["mcp", "--http", "127.0.0.1:0", "--no-auth", "--tls-cert"])
            .arg(cert)
            .arg("--tls-key")
            .arg(key)
            .timeout(Duration::from_secs(10))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "started with {cert:?} {key:?}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["error"]["code"], "invalid_input");
        v["error"]["message"].as_str().unwrap().to_string()
    };
    let m = refused(&missing, &junk);
    assert!(m.contains("--tls-cert") && m.contains("missing.pem"), "{m}");
    let m = refused(&junk, &junk);
    assert!(
        m.contains("--tls-cert") && m.contains("no certificate"),
        "{m}"
    );
    if let Some((cert, _)) = self_signed(env.dir.path()) {
        let m = refused(&cert, &junk);
        assert!(m.contains("--tls-key") && m.contains("junk.pem"), "{m}");
    }
    // Either alone is refused, naming both.
    for (flag, other) in [("--tls-cert", "--tls-key"), ("--tls-key", "--tls-cert")] {
        let out = env
            .cmd()
            .args(["mcp", "--http", "127.0.0.1:0", "--no-auth", flag])
            .arg(&junk)
            .timeout(Duration::from_secs(10))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag} alone started");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let m = v["error"]["message"].as_str().unwrap();
        assert!(m.contains("go together") && m.contains(other), "{m}");
    }
}
