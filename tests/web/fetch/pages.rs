//! Markdown quality on realistic pages (fixtures written for this test, modelled on a Sphinx
//! docs page, a blog post in full chrome, and a README as a forge renders it), served from
//! nested paths so relative links have something to resolve against. The Markdown is
//! snapshotted; the asserts name what must hold whatever the snapshot says.

use super::fetch;
use super::server::{Server, html};
use serde_json::json;
use testkit::Env;

const DOCS: &str = include_str!("fixtures/docs.html");
const BLOG: &str = include_str!("fixtures/blog.html");
const README: &str = include_str!("fixtures/readme.html");

fn convert(path: &str, page: &'static str) -> (String, serde_json::Value) {
    let env = Env::new();
    let s = Server::start(move |_| html(page));
    let out = fetch(&env, json!({ "url": s.url(path) }));
    out.assert_ok();
    let md = out
        .output()
        .replace(&format!("127.0.0.1:{}", s.port), "[SERVER]");
    (md, out.data().clone())
}

#[test]
fn docs_page() {
    let (md, data) = convert("/docs/2.4/config.html", DOCS);
    assert_eq!(data["title"], "Configuration — Widgetd 2.4 documentation");
    assert!(md.starts_with("# Configuration"), "{md}");
    // Inside a list item the block is indented with the item's text.
    assert!(md.contains("1. Copy the sample file:\n\n   ```shell\n   cp /usr/share/widgetd/widgetd.toml.sample ./widgetd.toml\n   ```"), "{md}");
    assert!(
        md.contains("```toml\n[server]\nlisten = \"0.0.0.0:8080\"\n"),
        "{md}"
    );
    assert!(
        md.contains("```rust\nuse widgetd::Config;\n\nlet cfg"),
        "{md}"
    );
    assert!(md.contains("| Option      | Type    |"), "{md}");
    for chrome in [
        "Search docs",
        "On this page",
        "Built with Sphinx",
        "dataLayer",
        "Installation</a>",
    ] {
        assert!(!md.contains(chrome), "{chrome} leaked");
    }
    insta::assert_snapshot!("docs_page", md);
}

#[test]
fn blog_post_with_chrome() {
    let (md, data) = convert("/2026/03/parser-rewrite/", BLOG);
    assert_eq!(
        data["title"],
        "Why we rewrote our parser | The Acme Engineering Blog"
    );
    assert!(md.starts_with("# Why we rewrote our parser"), "{md}");
    assert!(
        md.contains("```python\ndef peek_token(self):\n    rest = self.source[self.pos:]"),
        "{md}"
    );
    assert!(
        md.contains(
            "![A flame graph of the old parser](http://[SERVER]/content/images/parser-hero.png)"
        ),
        "{md}"
    );
    assert!(
        md.contains("- Watch for hidden copies:\n  - slicing strings,"),
        "{md}"
    );
    for chrome in [
        "cookies",
        "Accept all",
        "Careers",
        "Subscribe",
        "Popular posts",
        "Privacy",
        "trackScroll",
        "schema.org",
        "pixel",
    ] {
        assert!(!md.contains(chrome), "{chrome} leaked:\n{md}");
    }
    insta::assert_snapshot!("blog_post", md);
}

#[test]
fn forge_rendered_readme() {
    let (md, data) = convert("/acme/tinyjson", README);
    assert_eq!(
        data["title"],
        "GitHub - acme/tinyjson: A small, fast JSON parser for Rust"
    );
    assert!(md.starts_with("# tinyjson"), "{md}");
    assert!(md.contains("```shell\ncargo add tinyjson\n```"), "{md}");
    assert!(
        md.contains(
            "```rust\nuse tinyjson::Value;\n\nlet v: Value = r#\"{\"a\": [1, 2, 3]}\"#.parse()?;"
        ),
        "{md}"
    );
    assert!(
        md.contains(
            "[the streaming guide](http://[SERVER]/acme/tinyjson/blob/main/docs/streaming.md)"
        ),
        "{md}"
    );
    assert!(md.contains("| `serde` |"), "{md}");
    for chrome in [
        "Sign in",
        "Pricing",
        "Star 1.2k",
        "3 branches",
        "Parse numbers without allocating",
        "Terms",
        "Copied!",
    ] {
        assert!(!md.contains(chrome), "{chrome} leaked:\n{md}");
    }
    insta::assert_snapshot!("forge_readme", md);
}
