//! `search` (SPEC §21) through the binary, against servers these tests start on 127.0.0.1 that
//! answer in each provider's documented shape: DuckDuckGo's HTML page (fixtures in
//! search/fixtures), Brave's, Tavily's and SearXNG's JSON. `LOOPR_SEARCH_ENDPOINT` (or
//! `SEARXNG_URL`) points the provider at them; no `--allow-private` is needed, because the
//! provider's address is the user's own choice. Errors, limits and the key-leak check are in
//! search/errors.rs.

mod errors;
use testkit::server;

use serde_json::{Value, json};
use testkit::server::{Req, Server, reply};
use testkit::{Env, Out};

pub const DDG: &str = include_str!("search/fixtures/duckduckgo.html");
pub const DDG_EMPTY: &str = include_str!("search/fixtures/duckduckgo_empty.html");
pub const DDG_REDESIGNED: &str = include_str!("search/fixtures/duckduckgo_redesigned.html");
pub const DDG_CHALLENGE: &str = include_str!("search/fixtures/duckduckgo_challenge.html");

/// `loopr-tool search` with `input` on stdin and extra environment `vars`.
pub fn search(env: &Env, vars: &[(&str, &str)], input: Value) -> Out {
    search_as(env, "search", vars, input)
}

/// As `search`, called by another name (an alias).
pub fn search_as(env: &Env, name: &str, vars: &[(&str, &str)], input: Value) -> Out {
    let mut c = env.cmd();
    c.arg(name).write_stdin(input.to_string());
    for (k, v) in vars {
        c.env(k, v);
    }
    testkit::finish(c)
}

/// The form fields of a request body.
pub fn form(r: &Req) -> Vec<(String, String)> {
    url::form_urlencoded::parse(&r.body).into_owned().collect()
}

/// The query parameters of a request's path.
pub fn params(r: &Req) -> Vec<(String, String)> {
    let url = url::Url::parse(&format!("http://x{}", r.path)).unwrap();
    url.query_pairs().into_owned().collect()
}

pub fn param(r: &Req, name: &str) -> Option<String> {
    params(r)
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

/// A DuckDuckGo stand-in answering `page` to the form's POST.
pub fn ddg_server(page: &'static str) -> Server {
    Server::start(move |r| match (r.method.as_str(), r.path.as_str()) {
        ("POST", "/html/") => reply(200, "text/html; charset=utf-8", page),
        _ => reply(404, "text/plain", "not the search form"),
    })
}

pub fn brave_json(results: Value) -> String {
    json!({
        "type": "search",
        "query": {"original": "q", "more_results_available": false},
        "mixed": {"type": "mixed", "main": [], "top": [], "side": []},
        "web": {"type": "search", "family_friendly": true, "results": results},
    })
    .to_string()
}

pub fn brave_result(title: &str, url: &str, description: &str) -> Value {
    json!({
        "title": title, "url": url, "is_source_local": false, "is_source_both": false,
        "description": description, "page_age": "2026-10-01T00:00:00",
        "profile": {"name": "Example", "url": url, "long_name": "example", "img": "https://imgs.search.brave.com/x"},
        "language": "en", "family_friendly": true, "type": "search_result", "subtype": "generic",
        "meta_url": {"scheme": "https", "netloc": "example", "hostname": "example", "favicon": "", "path": ""},
    })
}

pub fn searxng_json(results: Value, unresponsive: Value) -> String {
    json!({
        "query": "q", "number_of_results": 0, "results": results, "answers": [],
        "corrections": [], "infoboxes": [], "suggestions": [], "unresponsive_engines": unresponsive,
    })
    .to_string()
}

#[test]
fn duckduckgo_is_the_default_needs_no_key_and_reads_its_result_page() {
    let env = Env::new();
    let s = ddg_server(DDG);
    let out = search(
        &env,
        &[("LOOPR_SEARCH_ENDPOINT", &s.url(""))],
        json!({"query": "rust serde", "max_results": 10}),
    );
    out.assert_ok();
    assert_eq!(
        out.output(),
        "1. Overview · Serde\n   https://serde.rs/\n   Serde is a framework for serializing and deserializing Rust data structures efficiently & generically. It's used by \"most\" crates.\n\n\
2. serde - Rust - Docs.rs\n   https://docs.rs/serde/latest/serde/?search=derive&x=1\n   API documentation for the Rust `serde` crate: Vec<T> implements Serialize.\n\n\
3. GitHub - serde-rs/serde: Serialization framework for Rust\n   https://github.com/serde-rs/serde\n   Serialization framework for Rust. Contribute to serde-rs/serde development by creating an account on GitHub.\n\n\
4. Serde tips — Grüße aus Köln : r/rust\n   https://www.reddit.com/r/rust/comments/serde_tips/\n   Über #[serde(rename_all = \"camelCase\")] und mehr – 日本語のヒント.\n\n\
5. Serde tips from the docs.rs blog\n   https://blog.docs.rs/serde-tips\n   Five things about derive.\n\n\
6. How do I use serde? - Stack Overflow\n   https://stackoverflow.com/questions/1/serde\n"
    );
    let d = out.data();
    assert_eq!(d["provider"], "duckduckgo");
    assert_eq!(d["query"], "rust serde");
    assert_eq!(d["cached"], false);
    assert_eq!(
        d["results"].as_array().unwrap().len(),
        6,
        "the ad is skipped"
    );
    assert_eq!(
        d["results"][5],
        json!({"title": "How do I use serde? - Stack Overflow", "url": "https://stackoverflow.com/questions/1/serde", "snippet": ""})
    );
    // The documented form: a POST of q, b (empty: the first page) and kl.
    let reqs = s.requests();
    assert_eq!(reqs.len(), 1);
    let r = &reqs[0];
    assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", "/html/"));
    assert_eq!(
        r.header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        form(r),
        [
            ("q".to_string(), "rust serde".to_string()),
            ("b".into(), "".into()),
            ("kl".into(), "wt-wt".into())
        ]
    );
    let ua = r.header("user-agent").unwrap();
    assert!(
        ua.starts_with("Mozilla/5.0 (compatible; loopr-tool/"),
        "{ua}"
    );
    assert_eq!(r.header("referer"), Some(s.url("/html/").as_str()));
}

#[test]
fn max_results_cuts_the_list_and_the_default_is_five() {
    let env = Env::new();
    let s = ddg_server(DDG);
    let vars = [("LOOPR_SEARCH_ENDPOINT", s.url(""))];
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let out = search(&env, &vars, json!({"query": "rust serde"}));
    out.assert_ok();
    assert_eq!(out.data()["results"].as_array().unwrap().len(), 5);
    assert!(out.output().starts_with("1. Overview · Serde\n"));
    assert!(
        out.output()
            .contains("\n5. Serde tips from the docs.rs blog\n")
    );
    assert!(!out.output().contains("\n6. "));
    let out = search(
        &env,
        &vars,
        json!({"query": "rust serde", "max_results": 2}),
    );
    assert_eq!(out.data()["results"].as_array().unwrap().len(), 2);
    // 20 is the most; 0 and 21 name the field.
    search(
        &env,
        &vars,
        json!({"query": "rust serde", "max_results": 20}),
    )
    .assert_ok();
    for bad in [0, 21] {
        search(&env, &vars, json!({"query": "x", "max_results": bad}))
            .assert_invalid("max_results");
    }
    search(&env, &vars, json!({"query": "x", "max_results": 2.5})).assert_invalid("max_results");
}

#[test]
fn an_empty_result_page_is_no_results_not_an_error() {
    let env = Env::new();
    let s = ddg_server(DDG_EMPTY);
    let out = search(
        &env,
        &[("LOOPR_SEARCH_ENDPOINT", &s.url(""))],
        json!({"query": "zzqxjv"}),
    );
    out.assert_ok();
    assert_eq!(out.output(), "No results for \"zzqxjv\"\n");
    assert_eq!(out.data()["results"], json!([]));
}

#[test]
fn a_page_whose_layout_changed_is_unsupported_content() {
    let env = Env::new();
    for (page, says) in [
        (DDG_REDESIGNED, "layout may have changed"),
        (DDG_CHALLENGE, "bot check"),
    ] {
        let s = ddg_server(page);
        let out = search(
            &env,
            &[("LOOPR_SEARCH_ENDPOINT", &s.url(""))],
            json!({"query": format!("rust serde {says}")}),
        );
        out.assert_err("unsupported_content");
        assert!(out.output().contains(says), "{}", out.output());
        assert!(out.output().starts_with("DuckDuckGo answered"));
        assert_eq!(out.json["error"]["provider"], "duckduckgo");
        assert_eq!(out.json["error"]["content_type"], "text/html");
    }
}

#[test]
fn non_ascii_queries_reach_every_provider_intact() {
    let env = Env::new();
    let q = "Grüße straße 日本語 \"exact phrase\" & more";
    let s = Server::start(
        |r| match (r.method.as_str(), r.path.split('?').next().unwrap()) {
            ("POST", "/html/") => reply(200, "text/html", DDG_EMPTY),
            ("GET", "/res/v1/web/search") => reply(200, "application/json", brave_json(json!([]))),
            ("POST", "/search") => reply(200, "application/json", r#"{"query":"q","results":[]}"#),
            ("GET", "/search") => {
                reply(200, "application/json", searxng_json(json!([]), json!([])))
            }
            _ => reply(404, "text/plain", "no"),
        },
    );
    let base = s.url("");
    for (provider, key) in [
        ("duckduckgo", None),
        ("brave", Some(("BRAVE_API_KEY", "k1"))),
        ("tavily", Some(("TAVILY_API_KEY", "k2"))),
        ("searxng", None),
    ] {
        let mut vars = vec![
            ("LOOPR_SEARCH_PROVIDER", provider),
            ("LOOPR_SEARCH_ENDPOINT", base.as_str()),
        ];
        vars.extend(key);
        let out = search(&env, &vars, json!({"query": q}));
        out.assert_ok();
        assert_eq!(
            out.output(),
            format!("No results for \"{q}\"\n"),
            "{provider}"
        );
        assert_eq!(out.data()["query"], q);
    }
    let reqs = s.requests();
    assert_eq!(reqs.len(), 4);
    assert_eq!(form(&reqs[0])[0], ("q".to_string(), q.to_string()));
    assert_eq!(param(&reqs[1], "q").unwrap(), q);
    let body: Value = serde_json::from_slice(&reqs[2].body).unwrap();
    assert_eq!(body["query"], q);
    assert_eq!(param(&reqs[3], "q").unwrap(), q);
}

#[test]
fn brave_is_asked_as_documented_and_its_markup_cleaned() {
    let env = Env::new();
    let answer = brave_json(json!([
        brave_result(
            "The <strong>Rust</strong> Book &amp; more",
            "https://doc.rust-lang.org/book/",
            "Learn <strong>Rust</strong> &#x27;the&#x27; book&hellip; Vec&lt;T&gt;"
        ),
        brave_result(
            "Rust by Example",
            "https://doc.rust-lang.org/rust-by-example/",
            "A collection of runnable examples."
        ),
    ]));
    let s = Server::start(move |r| match r.path.split('?').next().unwrap() {
        "/res/v1/web/search" => reply(200, "application/json; charset=utf-8", answer.clone()),
        _ => reply(404, "text/plain", "no"),
    });
    let out = search(
        &env,
        &[
            ("BRAVE_API_KEY", "brave-test-key"),
            ("LOOPR_SEARCH_ENDPOINT", &s.url("")),
        ],
        json!({"query": "rust book", "max_results": 3}),
    );
    out.assert_ok();
    assert_eq!(
        out.output(),
        "1. The Rust Book & more\n   https://doc.rust-lang.org/book/\n   Learn Rust 'the' book… Vec<T>\n\n\
2. Rust by Example\n   https://doc.rust-lang.org/rust-by-example/\n   A collection of runnable examples.\n"
    );
    assert_eq!(
        out.data()["provider"],
        "brave",
        "chosen because its key is set"
    );
    let r = &s.requests()[0];
    assert_eq!(r.method, "GET");
    assert_eq!(r.header("x-subscription-token"), Some("brave-test-key"));
    assert_eq!(r.header("accept"), Some("application/json"));
    assert_eq!(r.header("accept-encoding"), Some("gzip"));
    assert_eq!(
        params(r),
        [
            ("q".to_string(), "rust book".to_string()),
            ("count".into(), "3".into())
        ]
    );
}

#[test]
fn tavily_is_asked_as_documented() {
    let env = Env::new();
    let s = Server::start(|r| {
        match (r.method.as_str(), r.path.as_str()) {
        ("POST", "/search") => reply(
            200,
            "application/json",
            json!({
                "query": "q", "answer": null, "images": [], "follow_up_questions": null,
                "results": [
                    {"title": "Tokio &amp; async", "url": "https://tokio.rs/tokio/tutorial", "content": "Tokio is an asynchronous runtime for the Rust programming language. It provides the building blocks\nneeded for writing network applications.", "score": 0.91, "raw_content": null},
                    {"title": "Blocked", "url": "https://www.pinterest.com/pin/1", "content": "x", "score": 0.2, "raw_content": null}
                ],
                "response_time": "1.67"
            })
            .to_string(),
        ),
        _ => reply(404, "text/plain", "no"),
    }
    });
    let out = search(
        &env,
        &[
            ("TAVILY_API_KEY", "tvly-test-key"),
            ("LOOPR_SEARCH_ENDPOINT", &s.url("")),
        ],
        json!({"query": "tokio tutorial", "blocked_domains": ["pinterest.com"]}),
    );
    out.assert_ok();
    assert_eq!(
        out.output(),
        "1. Tokio & async\n   https://tokio.rs/tokio/tutorial\n   Tokio is an asynchronous runtime for the Rust programming language. It provides the building blocks needed for writing network applications.\n\n\
(1 result outside the domain filters dropped)\n"
    );
    assert_eq!(out.data()["provider"], "tavily");
    let r = &s.requests()[0];
    assert_eq!(r.header("authorization"), Some("Bearer tvly-test-key"));
    assert_eq!(r.header("content-type"), Some("application/json"));
    let body: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(
        body,
        json!({"query": "tokio tutorial", "max_results": 20, "search_depth": "basic",
            "include_answer": false, "include_raw_content": false, "include_images": false,
            "exclude_domains": ["pinterest.com"]})
    );
}

#[test]
fn searxng_on_the_lan_or_loopback_is_trusted_and_asked_for_json() {
    let env = Env::new();
    let s = Server::start(|r| match r.path.split('?').next().unwrap() {
        "/searx/search" => reply(
            200,
            "application/json",
            searxng_json(
                json!([
                    {"url": "https://en.wikipedia.org/wiki/Rust_(programming_language)", "title": "Rust (programming language) - Wikipedia", "content": "Rust is a general-purpose programming language emphasizing performance, type safety, and concurrency.", "engine": "wikipedia", "engines": ["wikipedia", "bing"], "positions": [1], "score": 2.0, "category": "general"},
                    {"url": "https://www.rust-lang.org/", "title": "Rust Programming Language", "content": "A language empowering everyone to build reliable and efficient software.", "engine": "bing"}
                ]),
                json!([["google", "timeout"], ["qwant", "CAPTCHA"]]),
            ),
        ),
        _ => reply(404, "text/plain", "no"),
    });
    // SEARXNG_URL alone, on 127.0.0.1, without --allow-private: the user's own instance.
    let out = search(
        &env,
        &[
            ("LOOPR_SEARCH_PROVIDER", "searxng"),
            ("SEARXNG_URL", &s.url("/searx")),
        ],
        json!({"query": "rust language"}),
    );
    out.assert_ok();
    assert_eq!(
        out.output(),
        "1. Rust (programming language) - Wikipedia\n   https://en.wikipedia.org/wiki/Rust_(programming_language)\n   Rust is a general-purpose programming language emphasizing performance, type safety, and concurrency.\n\n\
2. Rust Programming Language\n   https://www.rust-lang.org/\n   A language empowering everyone to build reliable and efficient software.\n\
Warning: some of the SearXNG instance's engines did not answer: google (timeout), qwant (CAPTCHA)\n"
    );
    assert_eq!(out.data()["provider"], "searxng");
    assert_eq!(out.data()["warnings"].as_array().unwrap().len(), 1);
    let r = &s.requests()[0];
    assert_eq!(
        params(r),
        [
            ("q".to_string(), "rust language".to_string()),
            ("format".into(), "json".into()),
            ("pageno".into(), "1".into())
        ]
    );
    let ua = r.header("user-agent").unwrap();
    assert!(ua.starts_with("loopr-tool/"), "{ua}");
}

#[test]
fn domain_filters_go_to_the_provider_and_are_applied_to_what_comes_back() {
    let env = Env::new();
    let s = ddg_server(DDG);
    let vars = [("LOOPR_SEARCH_ENDPOINT", s.url(""))];
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    // allowed: docs.rs and its subdomains (blog.docs.rs), nothing else
    let out = search(
        &env,
        &vars,
        json!({"query": "rust serde", "allowed_domains": ["https://Docs.rs/"]}),
    );
    out.assert_ok();
    let urls: Vec<&str> = out.data()["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["url"].as_str().unwrap())
        .collect();
    assert_eq!(
        urls,
        [
            "https://docs.rs/serde/latest/serde/?search=derive&x=1",
            "https://blog.docs.rs/serde-tips"
        ]
    );
    assert!(
        out.output()
            .ends_with("derive.\n\n(4 results outside the domain filters dropped)\n"),
        "{}",
        out.output()
    );
    assert_eq!(form(&s.requests()[0])[0].1, "rust serde site:docs.rs");
    // blocked: reddit.com drops www.reddit.com; several allowed go in as one OR group
    let out = search(
        &env,
        &vars,
        json!({"query": "rust serde", "blocked_domains": ["reddit.com", "docs.rs"], "max_results": 10}),
    );
    let urls: Vec<&str> = out.data()["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["url"].as_str().unwrap())
        .collect();
    assert_eq!(
        urls,
        [
            "https://serde.rs/",
            "https://github.com/serde-rs/serde",
            "https://stackoverflow.com/questions/1/serde"
        ]
    );
    assert_eq!(
        form(&s.requests()[1])[0].1,
        "rust serde -site:reddit.com -site:docs.rs"
    );
    search(
        &env,
        &vars,
        json!({"query": "rust serde", "allowed_domains": ["serde.rs", "github.com"]}),
    )
    .assert_ok();
    assert_eq!(
        form(&s.requests()[2])[0].1,
        "rust serde (site:serde.rs OR site:github.com)"
    );
    // Everything filtered away: no results, and why.
    let out = search(
        &env,
        &vars,
        json!({"query": "rust serde", "allowed_domains": ["python.org"]}),
    );
    assert_eq!(
        out.output(),
        "No results for \"rust serde\" (6 results outside the domain filters dropped)\n"
    );
    search(
        &env,
        &vars,
        json!({"query": "x", "allowed_domains": ["not a domain"]}),
    )
    .assert_invalid("allowed_domains");
}

#[test]
fn the_cache_answers_the_same_search_for_fifteen_minutes() {
    let env = Env::new();
    let s = ddg_server(DDG);
    let vars = [("LOOPR_SEARCH_ENDPOINT", s.url(""))];
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let first = search(&env, &vars, json!({"query": "rust serde"}));
    first.assert_ok();
    let second = search(&env, &vars, json!({"query": "  rust   serde "}));
    second.assert_ok();
    assert_eq!(
        s.requests().len(),
        1,
        "the second call was answered from the cache"
    );
    assert_eq!(second.data()["cached"], true);
    assert_eq!(first.output(), second.output());
    assert_eq!(first.data()["results"], second.data()["results"]);
    // Another max_results, other filters or another provider address is another search.
    search(
        &env,
        &vars,
        json!({"query": "rust serde", "max_results": 3}),
    )
    .assert_ok();
    search(
        &env,
        &vars,
        json!({"query": "rust serde", "blocked_domains": ["x.org"]}),
    )
    .assert_ok();
    assert_eq!(s.requests().len(), 3);
    // The cache lives in the state dir, keyed per root: another session of the root shares it.
    let mut c = env.cmd();
    c.args(["--session", "other", "search"])
        .env("LOOPR_SEARCH_ENDPOINT", s.url(""))
        .write_stdin(json!({"query": "rust serde"}).to_string());
    let out = testkit::finish(c);
    assert_eq!(out.data()["cached"], true);
    assert_eq!(s.requests().len(), 3);
}

#[test]
fn other_agents_names_reach_search() {
    let env = Env::new();
    let s = ddg_server(DDG);
    let vars = [("LOOPR_SEARCH_ENDPOINT", s.url(""))];
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let out = search_as(
        &env,
        "WebSearch",
        &vars,
        json!({"query": "rust serde", "allowed_domains": ["github.com"]}),
    );
    out.assert_ok();
    assert_eq!(out.json["tool"], "search");
    assert_eq!(
        out.data()["results"][0]["url"],
        "https://github.com/serde-rs/serde"
    );
    for name in ["web_search", "google_web_search"] {
        let out = search_as(&env, name, &vars, json!({"query": "rust serde"}));
        out.assert_ok();
        assert_eq!(out.json["tool"], "search");
        assert_eq!(out.data()["results"].as_array().unwrap().len(), 5);
    }
    // The query is also positional, and --format text prints the list alone.
    let mut c = env.cmd();
    c.args([
        "search",
        "rust serde",
        "--max-results",
        "1",
        "--format",
        "text",
    ])
    .env("LOOPR_SEARCH_ENDPOINT", s.url(""));
    let out = testkit::finish(c);
    assert_eq!(
        out.stdout,
        "1. Overview · Serde\n   https://serde.rs/\n   Serde is a framework for serializing and deserializing Rust data structures efficiently & generically. It's used by \"most\" crates.\n"
    );
}

#[test]
fn gzip_and_legacy_charsets_are_decoded_as_fetch_decodes_them() {
    use std::io::Write;
    let env = Env::new();
    let json = brave_json(json!([brave_result(
        "Crème brûlée",
        "https://recipes.example/creme",
        "Caramelised <strong>sugar</strong>"
    )]));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(json.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    // DuckDuckGo's page in windows-1252, declared in the header: é is one byte, 0xe9.
    let page: Vec<u8> = {
        let mut p = b"<!DOCTYPE html><html><body><div id=\"links\"><div class=\"result\"><h2><a class=\"result__a\" href=\"//duckduckgo.com/l/?uddg=https%3A%2F%2Fcafe.example%2F\">Caf".to_vec();
        p.push(0xe9);
        p.extend_from_slice(b"</a></h2><a class=\"result__snippet\">d");
        p.push(0xe9);
        p.extend_from_slice(b"j");
        p.push(0xe0);
        p.extend_from_slice(b" vu</a></div></div></body></html>");
        p
    };
    let s = Server::start(move |r| match r.path.split('?').next().unwrap() {
        "/res/v1/web/search" => server::Reply::Send {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "application/json".into()),
                ("Content-Encoding".into(), "gzip".into()),
            ],
            body: gz.clone(),
            framed: true,
        },
        _ => reply(200, "text/html; charset=windows-1252", page.clone()),
    });
    let out = search(
        &env,
        &[
            ("BRAVE_API_KEY", "k"),
            ("LOOPR_SEARCH_ENDPOINT", &s.url("")),
        ],
        json!({"query": "creme"}),
    );
    out.assert_ok();
    assert_eq!(
        out.output(),
        "1. Crème brûlée\n   https://recipes.example/creme\n   Caramelised sugar\n"
    );
    let out = search(
        &env,
        &[("LOOPR_SEARCH_ENDPOINT", &s.url(""))],
        json!({"query": "cafe"}),
    );
    out.assert_ok();
    assert_eq!(
        out.output(),
        "1. Café\n   https://cafe.example/\n   déjà vu\n"
    );
}

/// SPEC 24.3: without `LOOPR_SEARCH_PROVIDER`, the catalog's `[search]` table chooses the
/// provider and gives its address and key; the key is sent and never shown.
#[test]
fn the_catalogs_search_table_chooses_the_provider_and_its_key() {
    let env = Env::new();
    let s = Server::start(|r| {
        match r.path.split('?').next().unwrap() {
        "/res/v1/web/search" => reply(
            200,
            "application/json",
            json!({"type": "search", "web": {"type": "search", "results": [{"title": "Catalog hit", "url": "https://example.org/", "description": "from brave"}]}}).to_string(),
        ),
        _ => reply(404, "text/plain", "no"),
    }
    });
    let config = env.dir.path().join("catalog.toml");
    std::fs::write(
        &config,
        format!(
            "[search]\nprovider = \"brave\"\nendpoint = \"{}\"\napi_key = \"catalog-secret-key\"\n",
            s.url("")
        ),
    )
    .unwrap();
    let out = search(
        &env,
        &[("LOOPR_CONFIG", config.to_str().unwrap())],
        json!({"query": "q"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["provider"], "brave");
    assert!(out.output().contains("Catalog hit"), "{}", out.output());
    let r = &s.requests()[0];
    assert!(
        r.headers
            .iter()
            .any(|(k, v)| k.eq_ignore_ascii_case("x-subscription-token")
                && v == "catalog-secret-key"),
        "{:?}",
        r.headers
    );
    assert!(!out.stdout.contains("catalog-secret-key"));
}
