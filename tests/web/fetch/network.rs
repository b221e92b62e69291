//! The transport through the binary: error statuses, timeouts, refused connections, the
//! 10 MiB cap (gzip bombs included), charsets, and proxy variables that must not be honoured.

use super::fetch;
use super::server::{Reply, Server, html, reply, unframed};
use serde_json::json;
use std::time::{Duration, Instant};
use testkit::Env;

#[test]
fn error_statuses_are_http_error_with_the_start_of_the_page() {
    let env = Env::new();
    let long = "x".repeat(5000);
    let s = Server::start(move |r| match r.path.as_str() {
        "/gone" => reply(
            404,
            "text/html",
            "<html><body><nav>menu</nav><h1>Not here</h1><p>Try the index.</p></body></html>",
        ),
        "/boom" => reply(500, "text/plain", long.clone()),
        "/auth" => reply(403, "image/png", "\u{89}PNG"),
        _ => reply(429, "text/plain", "slow down"),
    });
    let out = fetch(&env, json!({"url": s.url("/gone")}));
    out.assert_err("http_error");
    assert_eq!(out.json["error"]["status"], 404);
    assert!(
        out.output().starts_with(&format!(
            "{} answered HTTP 404 Not Found:\n\n# Not here\n\nTry the index.\nHint: ",
            s.url("/gone")
        )),
        "{}",
        out.output()
    );
    let out = fetch(&env, json!({"url": s.url("/boom")}));
    assert_eq!(out.json["error"]["status"], 500);
    assert!(
        out.output()
            .contains(&format!("\n\n{}\n… (the page continues)", "x".repeat(2000)))
    );
    assert!(!out.output().contains(&"x".repeat(2001)));
    let out = fetch(&env, json!({"url": s.url("/auth")}));
    assert_eq!(out.json["error"]["status"], 403);
    assert!(!out.output().contains("PNG"));
    let out = fetch(&env, json!({"url": s.url("/busy")}));
    assert_eq!(out.json["error"]["status"], 429);
    assert!(out.output().contains("slow down"));
    // Errors are not cached.
    fetch(&env, json!({"url": s.url("/busy")}));
    assert_eq!(s.requests().len(), 5);
}

#[test]
fn timeouts_cover_the_response_and_the_body() {
    let env = Env::new();
    let s = Server::start(|r| match r.path.as_str() {
        "/hang" => Reply::Hang,
        _ => Reply::Drip {
            every: Duration::from_millis(50),
        },
    });
    for path in ["/hang", "/drip"] {
        let start = Instant::now();
        let out = fetch(&env, json!({"url": s.url(path), "timeout_ms": 700}));
        out.assert_err("timeout");
        assert_eq!(out.json["error"]["timeout_ms"], 700);
        let took = start.elapsed();
        assert!(
            took >= Duration::from_millis(650) && took < Duration::from_secs(5),
            "{path}: {took:?}"
        );
    }
}

#[test]
fn connection_refused_is_a_network_error() {
    let env = Env::new();
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let out = fetch(&env, json!({"url": format!("http://127.0.0.1:{port}/")}));
    out.assert_err("network_error");
    assert!(out.output().contains("refused"), "{}", out.output());
    // https to a server that speaks plain HTTP fails in the TLS handshake.
    let s = Server::start(|_| html("<p>plain</p>"));
    let out = fetch(
        &env,
        json!({"url": format!("https://127.0.0.1:{}/", s.port)}),
    );
    out.assert_err("network_error");
    assert!(out.output().contains("TLS"), "{}", out.output());
}

fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn bodies_over_ten_mib_are_too_large_even_when_gzip_hides_it() {
    let env = Env::new();
    let limit: u64 = 10 * 1024 * 1024;
    let bomb = gzip(&vec![b'a'; 30 * 1024 * 1024]);
    assert!(bomb.len() < 100 * 1024, "a bomb: small on the wire");
    let fine = gzip(b"<p>compressed page</p>");
    let big = vec![b'b'; limit as usize + 1];
    let exact = vec![b'c'; limit as usize];
    let s = Server::start(move |r| {
        let gz = |body: &Vec<u8>| Reply::Send {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "text/html".into()),
                ("Content-Encoding".into(), "gzip".into()),
            ],
            body: body.clone(),
            framed: true,
        };
        match r.path.as_str() {
            "/bomb" => gz(&bomb),
            "/gz" => gz(&fine),
            "/br" => Reply::Send {
                status: 200,
                headers: vec![
                    ("Content-Type".into(), "text/html".into()),
                    ("Content-Encoding".into(), "br".into()),
                ],
                body: b"\x8b\x03\x80<p>x</p>\x03".to_vec(),
                framed: true,
            },
            "/big" => reply(200, "text/plain", big.clone()),
            "/big-unframed" => unframed(vec![("Content-Type", "text/plain")], big.clone()),
            _ => reply(200, "text/plain", exact.clone()),
        }
    });
    for path in ["/bomb", "/big", "/big-unframed"] {
        let out = fetch(&env, json!({"url": s.url(path)}));
        out.assert_err("too_large");
        assert_eq!(out.json["error"]["limit"], limit, "{path}");
    }
    let out = fetch(&env, json!({"url": s.url("/gz")}));
    assert_eq!(out.output(), "compressed page\n");
    // A coding fetch cannot decode is refused, not passed on as bytes.
    let out = fetch(&env, json!({"url": s.url("/br")}));
    out.assert_err("network_error");
    assert!(out.output().contains("br-encoded"), "{}", out.output());
    let out = fetch(&env, json!({"url": s.url("/exact"), "max_length": 100}));
    out.assert_ok();
    assert_eq!(out.data()["bytes"], limit);
}

#[test]
fn the_response_charset_is_honoured() {
    let env = Env::new();
    let s = Server::start(|r| {
        match r.path.as_str() {
        "/latin1" => reply(200, "text/html; charset=ISO-8859-1", b"<p>caf\xe9 cr\xe8me</p>".to_vec()),
        "/sjis" => reply(200, "text/plain; charset=Shift_JIS", b"\x93\xfa\x96\x7b\x8c\xea".to_vec()),
        "/meta" => reply(200, "text/html", b"<html><head><meta charset=\"koi8-r\"></head><body><p>\xf0\xd2\xc9\xd7\xc5\xd4</p></body></html>".to_vec()),
        "/bom" => reply(200, "text/plain", b"\xef\xbb\xbfna\xc3\xafve".to_vec()),
        _ => reply(200, "text/plain", "ünïcödé".as_bytes().to_vec()),
    }
    });
    for (path, text, enc) in [
        ("/latin1", "café crème\n", "windows-1252"),
        ("/sjis", "日本語\n", "shift_jis"),
        ("/meta", "Привет\n", "koi8-r"),
        ("/bom", "naïve\n", "utf-8"),
        ("/utf8", "ünïcödé\n", "utf-8"),
    ] {
        let out = fetch(&env, json!({"url": s.url(path)}));
        assert_eq!(
            (out.output(), out.data()["encoding"].as_str()),
            (text, Some(enc)),
            "{path}"
        );
    }
}

#[test]
fn proxy_variables_are_not_honoured() {
    let env = Env::new();
    let s = Server::start(|_| html("<p>direct</p>"));
    let proxy = Server::start(|_| html("<p>via the proxy</p>"));
    let mut c = env.cmd();
    for var in [
        "HTTP_PROXY",
        "http_proxy",
        "HTTPS_PROXY",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ] {
        c.env(var, proxy.url("/"));
    }
    c.env_remove("NO_PROXY").env_remove("no_proxy");
    c.args(["--allow-private", "fetch", &s.url("/")]);
    let out = testkit::finish(c);
    assert_eq!(out.output(), "direct\n");
    assert_eq!(proxy.connections(), 0);
}
