//! Unit tests of convert.rs: small pages, one rule each. The realistic pages are snapshotted
//! end to end in tests/web/fetch.rs.

use super::*;

fn url() -> Url {
    Url::parse("https://docs.example.org/guide/start.html").unwrap()
}

fn html4(source: &str, url: &Url, mode: Mode, selector: Option<&Selector>) -> Rendered {
    super::html(source, url, mode, selector, &Default::default())
}

fn md(html: &str) -> String {
    html4(html, &url(), Mode::Markdown, None).content
}

fn md_sel(html: &str, s: &str) -> Rendered {
    html4(
        html,
        &url(),
        Mode::Markdown,
        Some(&Selector::parse(s).unwrap()),
    )
}

#[test]
fn code_blocks_are_fenced_with_their_language_wherever_the_page_puts_it() {
    let cases = [
        (
            "<pre><code class=\"language-rust\">fn main() {}</code></pre>",
            "rust",
        ),
        (
            "<pre><code class=\"hljs lang-python\">x = 1</code></pre>",
            "python",
        ),
        ("<pre><code data-lang=\"go\">x := 1</code></pre>", "go"),
        ("<pre class=\"highlight shell\">cargo build</pre>", "shell"),
        (
            "<pre class=\"sourceCode python\"><code class=\"sourceCode python\">x = 1</code></pre>",
            "python",
        ),
        ("<pre lang=\"rust\">let x = 1;</pre>", "rust"),
        (
            "<div class=\"highlight highlight-source-rust notranslate\"><pre>let x = 1;</pre></div>",
            "rust",
        ),
        (
            "<div class=\"highlight-python notranslate\"><div class=\"highlight\"><pre><span class=\"n\">x</span> <span class=\"o\">=</span> <span class=\"mi\">1</span></pre></div></div>",
            "python",
        ),
        (
            "<div class=\"language-ruby highlighter-rouge\"><div class=\"highlight\"><pre class=\"highlight\"><code>puts 1</code></pre></div></div>",
            "ruby",
        ),
        ("<pre class=\"chroma\"><code>plain</code></pre>", ""),
        ("<pre>bare\n  indented</pre>", ""),
    ];
    for (html, lang) in cases {
        let out = md(&format!("<body><p>Intro.</p>{html}</body>"));
        assert!(out.contains(&format!("```{lang}\n")), "{html}\n→\n{out}");
        assert!(out.trim_end().ends_with("```"), "{out}");
    }
    // Highlighter spans, links and emphasis inside a block stay code, whitespace intact.
    let out = md(
        "<pre><code class=\"language-rust\"><span class=\"k\">fn</span> <a href=\"/x\">main</a>() {\n    <em>body</em>();\n}</code></pre>",
    );
    assert_eq!(out, "```rust\nfn main() {\n    body();\n}\n```\n");
    // Backticks inside get a longer fence.
    let out = md("<pre>a ``` b</pre>");
    assert!(out.starts_with("````\na ``` b\n````"), "{out}");
}

#[test]
fn links_and_images_become_absolute() {
    let out = md(
        "<head><title>T</title></head><body><p><a href=\"../api/index.html#fns\">API</a>, \
        <a href=\"https://other.example.com/x\">other</a>, <a href=\"#top\">top</a>, \
        <a href=\"javascript:void(0)\">menu</a>, <a href=\"//cdn.example.net/a\">cdn</a> \
        <img src=\"/img/logo.png\" alt=\"Logo\"> <img src=\"data:image/png;base64,AAAA\" alt=\"inline\"></p></body>",
    );
    assert!(
        out.contains("[API](https://docs.example.org/api/index.html#fns)"),
        "{out}"
    );
    assert!(
        out.contains("[other](https://other.example.com/x)"),
        "{out}"
    );
    assert!(
        out.contains("[top](https://docs.example.org/guide/start.html#top)"),
        "{out}"
    );
    assert!(out.contains(", menu,"), "{out}");
    assert!(out.contains("[cdn](https://cdn.example.net/a)"), "{out}");
    assert!(
        out.contains("![Logo](https://docs.example.org/img/logo.png)"),
        "{out}"
    );
    assert!(!out.contains("base64") && out.contains("inline"), "{out}");
    // <base href> moves the base.
    let out = md(
        "<head><base href=\"https://mirror.example.com/v2/\"></head><body><p><a href=\"x.html\">x</a></p></body>",
    );
    assert!(
        out.contains("[x](https://mirror.example.com/v2/x.html)"),
        "{out}"
    );
}

#[test]
fn noise_is_dropped_and_the_main_content_kept() {
    let page = "<html><head><title> My  Page </title><style>body{color:red}</style>\
        <script>var tracking = 1;</script></head><body>\
        <nav><a href=\"/\">Home</a></nav><header><p>Site banner</p></header>\
        <aside>Sidebar ads</aside>\
        <main><h1>Heading</h1><p>The real text of the page, long enough to be the content.</p>\
        <noscript>Enable JS</noscript><form><input name=q><button>Go</button></form>\
        <div hidden>secret</div><span aria-hidden=\"true\">icon</span></main>\
        <footer>Copyright</footer><script>trackScroll()</script></body></html>";
    let r = html4(page, &url(), Mode::Markdown, None);
    assert_eq!(r.title.as_deref(), Some("My Page"));
    assert_eq!(
        r.content,
        "# Heading\n\nThe real text of the page, long enough to be the content.\n"
    );
    for junk in [
        "tracking",
        "color",
        "Home",
        "Sidebar",
        "Enable JS",
        "Go",
        "secret",
        "icon",
        "Copyright",
        "banner",
    ] {
        assert!(!r.content.contains(junk), "{junk} leaked: {}", r.content);
    }
    // Consent dialogs go; hidden tab panels (other languages' examples) stay.
    let page = "<body><div role=\"dialog\">We use cookies</div><p>Intro.</p>\
        <div role=\"tabpanel\"><pre><code class=\"language-js\">a()</code></pre></div>\
        <div role=\"tabpanel\" hidden><pre><code class=\"language-py\">a()</code></pre></div></body>";
    assert_eq!(md(page), "Intro.\n\n```js\na()\n```\n\n```py\na()\n```\n");
    // A single article holding most of the text wins over the rest of <main>.
    let page = "<body><main><div>Filter: all</div><article><h1>Post</h1><p>Body text that is clearly the bulk of this page.</p></article></main></body>";
    assert_eq!(
        md(page),
        "# Post\n\nBody text that is clearly the bulk of this page.\n"
    );
    // A <main> that holds little of the page does not hide the rest.
    let page = "<body><main>tiny</main><div><p>Most of the words on this page live outside the main element.</p></div></body>";
    assert!(md(page).contains("Most of the words"));
}

#[test]
fn tables_lists_and_headings_follow_the_markdown_style() {
    let out = md(
        "<body><h2>Options</h2><table><thead><tr><th>Name</th><th>Default</th></tr></thead>\
        <tbody><tr><td><code>depth</code></td><td>3</td></tr><tr><td>a|b</td><td>x</td></tr></tbody></table>\
        <ul><li>one<ul><li>nested</li></ul></li><li>two</li></ul>\
        <ol start=\"5\"><li>five</li><li>six</li></ol></body>",
    );
    assert!(out.contains("## Options"), "{out}");
    assert!(
        out.contains("| Name    | Default |\n| ------- | ------- |\n| `depth` | 3       |\n"),
        "{out}"
    );
    // A pipe inside a cell must not split it.
    assert!(out.contains("| a&#124;b | x       |"), "{out}");
    assert!(out.contains("- one\n  - nested\n- two"), "{out}");
    assert!(out.contains("5. five\n6. six"), "{out}");
}

#[test]
fn selector_keeps_only_the_matches() {
    let page = "<body><nav id=\"toc\"><a href=\"#a\">A</a></nav><div class=\"doc\"><h1>One</h1><div class=\"doc\"><p>inner</p></div></div><p class=\"doc-x\">other</p></body>";
    let r = md_sel(page, ".doc");
    assert_eq!(
        r.content, "# One\n\ninner\n",
        "nested matches are not repeated"
    );
    // Asking for navigation on purpose gets it.
    let r = md_sel(page, "nav#toc");
    assert_eq!(
        r.content,
        "[A](https://docs.example.org/guide/start.html#a)\n"
    );
    let r = md_sel(page, "h1, .doc-x");
    assert_eq!(r.content, "# One\n\nother\n");
    let r = md_sel(page, "table");
    assert_eq!(r.content, "");
    assert_eq!(r.warnings.len(), 1);
    let h = html4(
        page,
        &url(),
        Mode::Html,
        Some(&Selector::parse("h1").unwrap()),
    );
    assert_eq!(h.content, "<h1>One</h1>\n");
    let h = html4(page, &url(), Mode::Html, None);
    assert_eq!(
        h.content, page,
        "html mode without a selector is the page as sent"
    );
}

#[test]
fn text_mode_is_plain() {
    let page = "<body><script>x()</script><h1>Title</h1><p>Some <b>bold</b> and\n   <a href=\"/l\">a link</a>.</p>\
        <ul><li>one<ol><li>sub</li></ol></li><li>two</li></ul>\
        <table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>\
        <pre>  keep\n    this</pre><p>end<br>line</p></body>";
    let r = html4(page, &url(), Mode::Text, None);
    assert_eq!(
        r.content,
        "Title\n\nSome bold and a link.\n\n- one\n  1. sub\n- two\n\nk\tv\na\t1\n\n  keep\n    this\n\nend\nline\n"
    );
}

#[test]
fn an_empty_page_warns_about_javascript() {
    let r = html4(
        "<html><body><div id=root></div><script>render()</script></body></html>",
        &url(),
        Mode::Markdown,
        None,
    );
    assert_eq!(r.content, "");
    assert!(r.warnings[0].contains("JavaScript"), "{:?}", r.warnings);
}
