//! Pages built to make conversion cost more than their size (SPEC 31.4, issue 33): deep lists
//! and quotes were cubic in their depth (5,000 nested `<ul><li>`: 53 s of CPU; text mode with
//! 20,000: 1.2 GB). Each call here has a hard limit well above what a linear conversion takes
//! and well below what the old one did, so a regression fails instead of hanging CI.

use super::fetch;
use serde_json::json;
use std::time::{Duration, Instant};
use testkit::server::{Server, html};
use testkit::{Env, Out, finish};

/// Nested `open`…`close` `n` deep, with a word at each level.
fn nested(open: &str, close: &str, n: usize) -> String {
    format!(
        "<html><body>{}{}</body></html>",
        open.repeat(n),
        close.repeat(n)
    )
}

/// `fetch` killed after `limit`, and how long it took.
fn fetch_within(env: &Env, args: &[&str], input: serde_json::Value, limit: u64) -> (Out, f64) {
    let mut c = env.cmd();
    c.args(args)
        .arg("--allow-private")
        .arg("fetch")
        .write_stdin(input.to_string())
        .timeout(Duration::from_secs(limit));
    let t = Instant::now();
    let out = finish(c);
    (out, t.elapsed().as_secs_f64())
}

#[test]
fn deeply_nested_lists_and_quotes_convert_in_linear_time() {
    let env = Env::new();
    let pages = [
        ("ul", nested("<ul><li>x", "</li></ul>", 5000)),
        ("ol", nested("<ol><li>x", "</li></ol>", 5000)),
        ("blockquote", nested("<blockquote>x", "</blockquote>", 5000)),
        ("div", nested("<div>x", "</div>", 20_000)),
    ];
    for (name, page) in pages {
        let s = Server::start(move |_| html(&page));
        for mode in ["markdown", "text"] {
            let input = json!({"url": s.url("/deep"), "mode": mode});
            let (out, secs) = fetch_within(&env, &[], input, 60);
            out.assert_ok();
            // A debug build on a shared machine; the bench measures the release one (< 1 s).
            assert!(secs < 10.0, "{name} {mode}: {secs:.1} s");
            assert!(out.output().matches('x').count() >= 1000, "{name} {mode}");
            // Past 8 levels the items go on without indenting further.
            let widest = out
                .output()
                .lines()
                .filter(|l| !l.starts_with("(content truncated"))
                .map(str::len)
                .max()
                .unwrap_or(0);
            assert!(widest < 64, "{name} {mode}: a line of {widest} bytes");
        }
    }
}

#[test]
fn twenty_thousand_nested_lists_in_text_mode_stay_small() {
    let env = Env::new();
    let page = nested("<ul><li>x", "</li></ul>", 20_000);
    let s = Server::start(move |_| html(&page));
    let input = env.dir.path().join("input.json");
    std::fs::write(
        &input,
        json!({"url": s.url("/"), "mode": "text"}).to_string(),
    )
    .unwrap();
    let (stdout, rss) = env.peak_rss(&["--allow-private", "fetch"], &input);
    assert!(stdout.contains("\"ok\":true"), "{stdout}");
    if let Some(kib) = rss {
        assert!(kib < 200 * 1024, "peak RSS {} MiB (was 1.2 GB)", kib / 1024);
    }
}

/// A catalog `timeout_ms` stops the conversion of a large page, not only its download.
#[test]
fn a_catalog_timeout_stops_a_long_conversion() {
    let env = Env::new();
    let unit = "<div><p>Some words <b>here</b> and <a href=\"/x\">there</a>.</p><ul><li>one</li><li>two</li></ul></div>";
    let page = format!("<html><body>{}</body></html>", unit.repeat(90_000));
    let s = Server::start(move |_| html(&page));
    let catalog = env.dir.path().join("catalog.toml");
    std::fs::write(&catalog, "[tools.fetch]\ntimeout_ms = 700\n").unwrap();
    for mode in ["markdown", "text"] {
        let input = json!({"url": s.url("/big"), "mode": mode});
        let config = catalog.to_str().unwrap();
        let (out, secs) = fetch_within(&env, &["--config", config], input, 60);
        out.assert_err("timeout");
        // The limit, the start of the process and the download; the bench measures the stop
        // itself (within 100 ms of the limit).
        assert!(secs < 1.7, "{mode}: {secs:.2} s for a 700 ms limit");
    }
    // Without the limit it converts (so the limit is what stopped it).
    let out = fetch(&env, json!({"url": s.url("/big"), "max_length": 100}));
    out.assert_ok();
}
