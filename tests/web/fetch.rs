//! `fetch` (SPEC §11, 16.7) through the binary, against servers these tests start themselves on
//! 127.0.0.1 (reached with `--allow-private`). Error statuses, time and size limits, charsets
//! and proxies are in fetch/network.rs, the blocked cases in fetch/ssrf.rs, the realistic pages
//! in fetch/pages.rs.

mod hostile;
mod network;
mod pages;
use testkit::server;
mod ssrf;

use serde_json::{Value, json};
use std::time::{Duration, Instant};
use testkit::server::{Server, html, redirect, reply, unframed};
use testkit::{Env, Out, redact};

/// `fetch` with `--allow-private` and the input on stdin.
pub fn fetch(env: &Env, input: Value) -> Out {
    env.run(&["--allow-private", "fetch"], &input.to_string())
}

/// The envelope with the server's address made stable for snapshots.
pub fn stable(out: &Out, env: &Env, server: &Server) -> Value {
    let text = serde_json::to_string(&redact(&out.json, env)).unwrap();
    let text = text.replace(&format!("127.0.0.1:{}", server.port), "[SERVER]");
    serde_json::from_str(&text).unwrap()
}

const PAGE: &str = r#"<!doctype html><html><head><meta charset="utf-8"><title>Widget  Guide</title>
<style>body { font-family: sans-serif }</style><script>window.analytics = 1;</script></head>
<body><nav><a href="/">Home</a> | <a href="/docs">Docs</a></nav>
<main id="content"><h1>Widget Guide</h1>
<p>Widgets are <strong>small</strong>. See <a href="/docs/api#make">the API</a>.</p>
<div class="note"><p>Note: widgets bite.</p></div>
<pre><code class="language-rust">let w = Widget::new();</code></pre>
</main><footer>© Widget Co</footer></body></html>"#;

fn page_server() -> Server {
    Server::start(|r| match r.path.as_str() {
        "/" => html(PAGE),
        _ => reply(404, "text/plain", "no such page"),
    })
}

#[test]
fn markdown_is_the_default_mode() {
    let env = Env::new();
    let s = page_server();
    let out = env.run(&["--allow-private", "fetch", &s.url("/")], "");
    out.assert_ok();
    insta::assert_json_snapshot!(stable(&out, &env, &s), @r###"
    {
      "ok": true,
      "tool": "fetch",
      "output": "# Widget Guide\n\nWidgets are **small**. See [the API](http://[SERVER]/docs/api#make).\n\nNote: widgets bite.\n\n```rust\nlet w = Widget::new();\n```\n",
      "data": {
        "url": "http://[SERVER]/",
        "status": 200,
        "content_type": "text/html",
        "title": "Widget Guide",
        "bytes": 532,
        "total_length": 149,
        "start_index": 0,
        "truncated": false,
        "redirects": [],
        "cached": false,
        "encoding": "utf-8"
      }
    }
    "###);
    let ua = s.requests()[0].header("user-agent").unwrap().to_string();
    assert!(ua.starts_with("loopr-tool/"), "{ua}");
    assert_eq!(s.requests()[0].header("accept-encoding"), Some("gzip"));
}

#[test]
fn text_html_and_raw_modes() {
    let env = Env::new();
    let s = page_server();
    let text = fetch(&env, json!({"url": s.url("/"), "mode": "text"}));
    assert_eq!(
        text.output(),
        "Widget Guide\n\nWidgets are small. See the API.\n\nNote: widgets bite.\n\nlet w = Widget::new();\n"
    );
    let raw = fetch(&env, json!({"url": s.url("/"), "mode": "raw"}));
    assert_eq!(raw.output(), format!("{PAGE}\n"));
    assert_eq!(raw.data()["title"], "Widget Guide");
    let whole = fetch(&env, json!({"url": s.url("/"), "mode": "html"}));
    assert_eq!(whole.output(), format!("{PAGE}\n"));
    let part = fetch(
        &env,
        json!({"url": s.url("/"), "mode": "html", "selector": ".note"}),
    );
    assert_eq!(
        part.output(),
        "<div class=\"note\"><p>Note: widgets bite.</p></div>\n"
    );
    // One download served all four calls: the cache keeps the body, modes apply per call.
    assert_eq!(s.requests().len(), 1);
    for out in [&text, &raw, &whole, &part] {
        out.assert_ok();
    }
    assert_eq!(part.data()["cached"], true);
}

#[test]
fn selector_keeps_the_matching_elements() {
    let env = Env::new();
    let s = page_server();
    let out = fetch(&env, json!({"url": s.url("/"), "selector": "main p"}));
    assert_eq!(
        out.output(),
        "Widgets are **small**. See [the API](".to_string()
            + &s.url("/docs/api#make")
            + ").\n\nNote: widgets bite.\n"
    );
    let out = fetch(&env, json!({"url": s.url("/"), "selector": "nav"}));
    assert!(out.output().starts_with("[Home]("), "{}", out.output());
    let out = fetch(&env, json!({"url": s.url("/"), "selector": "#nothing"}));
    out.assert_ok();
    assert_eq!(out.data()["total_length"], 0);
    assert!(
        out.data()["warnings"][0]
            .as_str()
            .unwrap()
            .contains("matched no element")
    );
}

#[test]
fn bad_selectors_and_inputs_are_refused_before_any_request() {
    let env = Env::new();
    let s = page_server();
    for (input, field) in [
        (json!({"url": s.url("/"), "selector": "p[["}), "selector"),
        (
            json!({"url": s.url("/"), "selector": "p", "mode": "raw"}),
            "selector",
        ),
        (
            json!({"url": s.url("/"), "max_length": 1_000_001}),
            "max_length",
        ),
        (
            json!({"url": s.url("/"), "timeout_ms": 120_001}),
            "timeout_ms",
        ),
        (json!({"url": s.url("/"), "mode": "pdf"}), "mode"),
        (json!({"url": s.url("/"), "format": "markdown"}), "format"),
    ] {
        let out = fetch(&env, input.clone());
        out.assert_err("invalid_input");
        assert_eq!(out.json["error"]["field"], field, "{input}");
    }
    fetch(&env, json!({})).assert_err("invalid_input");
    assert_eq!(s.connections(), 0);
}

#[test]
fn invalid_urls() {
    let env = Env::new();
    for u in [
        "example.com",
        "",
        "http://",
        "http://exa mple.com/",
        "://x",
        "http://[::1/",
    ] {
        let out = fetch(&env, json!({ "url": u }));
        out.assert_err("invalid_url");
    }
    let out = fetch(&env, json!({"url": "example.com/docs"}));
    assert!(
        out.output().contains("https://example.com/docs"),
        "{}",
        out.output()
    );
}

#[test]
fn json_xml_and_text_bodies_are_returned_as_text_in_every_mode() {
    let env = Env::new();
    let s = Server::start(|r| match r.path.as_str() {
        "/j" => reply(200, "application/json", "{\"a\": [1, 2]}"),
        "/x" => reply(
            200,
            "application/rss+xml",
            "<?xml version=\"1.0\"?><rss><title>t</title></rss>",
        ),
        "/t" => reply(200, "text/plain; charset=utf-8", "plain *text*\n"),
        _ => reply(200, "text/markdown", "# Heading\n"),
    });
    for mode in ["markdown", "text", "html", "raw"] {
        let out = fetch(&env, json!({"url": s.url("/j"), "mode": mode}));
        assert_eq!(out.output(), "{\"a\": [1, 2]}\n", "{mode}");
        assert_eq!(out.data()["content_type"], "application/json");
        assert_eq!(out.data()["title"], Value::Null);
    }
    let out = fetch(&env, json!({"url": s.url("/x")}));
    assert!(out.output().starts_with("<?xml"), "{}", out.output());
    let out = fetch(&env, json!({"url": s.url("/t")}));
    assert_eq!(out.output(), "plain *text*\n");
    let out = fetch(&env, json!({"url": s.url("/md")}));
    assert_eq!(out.output(), "# Heading\n");
    let out = fetch(&env, json!({"url": s.url("/j"), "selector": "p"}));
    out.assert_ok();
    assert!(
        out.output().contains("selector was ignored"),
        "{}",
        out.output()
    );
}

#[test]
fn other_types_are_unsupported_content_and_missing_types_are_sniffed() {
    let env = Env::new();
    let big = vec![0u8; 8 * 1024 * 1024];
    let s = Server::start(move |r| match r.path.as_str() {
        "/png" => reply(200, "image/png", big.clone()),
        "/pdf" => reply(200, "application/pdf", "%PDF-1.7"),
        "/bin" => unframed(vec![], b"\x00\x01\x02binary".to_vec()),
        "/page" => unframed(vec![], "<!DOCTYPE html><title>T</title><p>sniffed</p>"),
        _ => unframed(vec![], "{\"k\": 1}"),
    });
    let start = Instant::now();
    let out = fetch(&env, json!({"url": s.url("/png")}));
    out.assert_err("unsupported_content");
    assert_eq!(out.json["error"]["content_type"], "image/png");
    assert!(start.elapsed() < Duration::from_secs(5));
    for (path, ct) in [
        ("/pdf", "application/pdf"),
        ("/bin", "application/octet-stream"),
    ] {
        let out = fetch(&env, json!({"url": s.url(path), "mode": "raw"}));
        out.assert_err("unsupported_content");
        assert_eq!(out.json["error"]["content_type"], ct);
    }
    let out = fetch(&env, json!({"url": s.url("/page")}));
    assert_eq!(out.output(), "sniffed\n");
    assert_eq!(
        (
            out.data()["content_type"].as_str(),
            out.data()["title"].as_str()
        ),
        (Some("text/html"), Some("T"))
    );
    let out = fetch(&env, json!({"url": s.url("/json")}));
    assert_eq!(out.data()["content_type"], "application/json");
}

fn long_page() -> String {
    let rows: String = (1..=400)
        .map(|i| format!("<p>Paragraph {i:03} of the long page.</p>"))
        .collect();
    format!("<html><body>{rows}</body></html>")
}

#[test]
fn paging_with_max_length_and_start_index_downloads_once() {
    let env = Env::new();
    let s = Server::start(|_| html(&long_page()));
    let first = fetch(&env, json!({"url": s.url("/"), "max_length": 1000}));
    first.assert_ok();
    let d = first.data();
    assert_eq!(
        (d["truncated"].as_bool(), d["cached"].as_bool()),
        (Some(true), Some(false))
    );
    let total = d["total_length"].as_u64().unwrap();
    assert_eq!(total, 400 * 31 + 399 * 2 + 1); // paragraphs, blank lines, final newline
    assert!(first.output().chars().count() <= 1000);
    let last = first.output().lines().last().unwrap().to_string();
    let shown = first.output().len() - last.len() - 1;
    assert!(
        last == format!(
            "(content truncated: showing 0-{shown} of {total} chars; continue with start_index={shown})"
        ),
        "{last}"
    );
    assert!(
        first.output()[..shown].ends_with('\n'),
        "cut after a whole line"
    );
    // Page through it all: every page from the cache, the pieces adding up to the whole.
    let mut text = String::new();
    let mut at = 0u64;
    let mut pages = 0;
    loop {
        let out = fetch(
            &env,
            json!({"url": s.url("/"), "max_length": 1000, "start_index": at}),
        );
        assert!(out.output().chars().count() <= 1000);
        assert_eq!(out.data()["start_index"], at);
        pages += 1;
        if out.data()["truncated"] == false {
            text.push_str(out.output());
            break;
        }
        let (shown, trailer) = out.output().trim_end().rsplit_once('\n').unwrap();
        text.push_str(shown);
        text.push('\n');
        at = trailer
            .rsplit('=')
            .next()
            .unwrap()
            .trim_end_matches(')')
            .parse()
            .unwrap();
        assert!(pages < 50);
    }
    assert_eq!(text.chars().count() as u64, total);
    assert!(
        text.starts_with("Paragraph 001") && text.ends_with("Paragraph 400 of the long page.\n")
    );
    assert_eq!(s.requests().len(), 1, "paging downloads once");
    // Past the end: ok, no content.
    let out = fetch(&env, json!({"url": s.url("/"), "start_index": total + 10}));
    out.assert_ok();
    assert!(!out.output().contains("Paragraph"), "{}", out.output());
    assert_eq!(out.data()["truncated"], false);
}

#[test]
fn the_cache_is_per_url_and_per_allow_private_and_survives_a_bad_state_dir() {
    let env = Env::new();
    let s = Server::start(|r| html(&format!("<p>{}</p>", r.path)));
    assert_eq!(
        fetch(&env, json!({"url": s.url("/a")})).data()["cached"],
        false
    );
    assert_eq!(
        fetch(&env, json!({"url": s.url("/a#frag")})).data()["cached"],
        true
    );
    assert_eq!(
        fetch(&env, json!({"url": s.url("/b")})).data()["cached"],
        false
    );
    // The same page fetched privately is never served to a call without --allow-private.
    let out = env.run(&["fetch", &s.url("/a")], "");
    out.assert_err("blocked_url");
    // LOOPR_FETCH_ALLOW_PRIVATE=1 is the flag's twin, and sees the same entry.
    let mut c = env.cmd();
    c.env("LOOPR_FETCH_ALLOW_PRIVATE", "1")
        .args(["fetch", &s.url("/a")]);
    let out = testkit::finish(c);
    assert_eq!(out.data()["cached"], true);
    assert_eq!(s.requests().len(), 2);
    // A state dir that cannot be written costs the cache, not the call.
    let blocker = env.dir.path().join("not-a-dir");
    std::fs::write(&blocker, "").unwrap();
    let out = env.run(
        &[
            "--allow-private",
            "--state-dir",
            blocker.to_str().unwrap(),
            "fetch",
            &s.url("/c"),
        ],
        "",
    );
    out.assert_ok();
    assert_eq!(out.output().lines().next(), Some("/c"));
    assert!(
        out.data()["warnings"][0]
            .as_str()
            .unwrap()
            .contains("not cached")
    );
}

#[test]
fn redirects_are_followed_reported_and_bounded() {
    let env = Env::new();
    let s = Server::start(|r| {
        let p = r.path.as_str();
        if let Some(n) = p.strip_prefix("/hop/") {
            let n: u32 = n.parse().unwrap();
            return if n == 0 {
                html("<p>landed</p>")
            } else {
                redirect(302, &format!("/hop/{}", n - 1))
            };
        }
        match p {
            "/start" => redirect(301, "/middle"),
            "/middle" => redirect(307, "end?x=1"),
            "/end?x=1" => html("<title>End</title><p>the end</p>"),
            "/loop" => redirect(308, "/loop"),
            "/to-file" => redirect(302, "file:///etc/passwd"),
            "/to-ftp" => redirect(302, "ftp://203.0.113.1/x"),
            _ => reply(404, "text/plain", "no"),
        }
    });
    let out = fetch(&env, json!({"url": s.url("/start")}));
    out.assert_ok();
    assert_eq!(out.output(), "the end\n");
    assert_eq!(out.data()["url"], s.url("/end?x=1"));
    assert_eq!(
        out.data()["redirects"],
        json!([s.url("/start"), s.url("/middle")])
    );
    // Ten redirects are followed; the eleventh is http_error with its status.
    let out = fetch(&env, json!({"url": s.url("/hop/10")}));
    out.assert_ok();
    assert_eq!(out.data()["redirects"].as_array().unwrap().len(), 10);
    let out = fetch(&env, json!({"url": s.url("/hop/11")}));
    out.assert_err("http_error");
    assert_eq!(out.json["error"]["status"], 302);
    let out = fetch(&env, json!({"url": s.url("/loop")}));
    out.assert_err("http_error");
    assert_eq!(out.json["error"]["status"], 308);
    for (path, target) in [
        ("/to-file", "file:///etc/passwd"),
        ("/to-ftp", "ftp://203.0.113.1/x"),
    ] {
        let out = fetch(&env, json!({"url": s.url(path)}));
        out.assert_err("blocked_url");
        assert_eq!(out.json["error"]["url"], target);
    }
}

#[test]
fn web_fetch_alias_accepts_prompt_with_a_warning() {
    let env = Env::new();
    let s = page_server();
    let out = env.run(
        &["--allow-private", "WebFetch"],
        &json!({"url": s.url("/"), "prompt": "summarise"}).to_string(),
    );
    out.assert_ok();
    assert_eq!(out.json["tool"], "fetch");
    assert!(
        out.data()["warnings"][0]
            .as_str()
            .unwrap()
            .contains("prompt")
    );
    let out = env.run(
        &[
            "--allow-private",
            "fetch",
            &s.url("/"),
            "--mode",
            "text",
            "--format",
            "text",
        ],
        "",
    );
    assert!(out.stdout.starts_with("Widget Guide\n"), "{}", out.stdout);
}

/// SPEC 23.8: a page of 20,000 nested `<div>`s overflowed the stack in markdown mode (SIGABRT,
/// no envelope). It converts and answers, in every mode.
#[test]
fn a_20000_deep_page_converts() {
    let env = Env::new();
    let depth = 20_000;
    let page = format!(
        "<html><head><title>Deep</title></head><body>{}<p>bottom</p>{}</body></html>",
        "<div>".repeat(depth),
        "</div>".repeat(depth)
    );
    let s = Server::start(move |_| html(&page));
    for mode in ["markdown", "text"] {
        let out = fetch(&env, json!({"url": s.url("/deep"), "mode": mode}));
        out.assert_ok();
        assert!(out.output().contains("bottom"), "{mode}: {}", out.output());
    }
}
