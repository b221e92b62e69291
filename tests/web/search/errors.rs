//! search's failures through the binary (SPEC §3, §21): every code it can return is provoked
//! here against a local stand-in, and a distinctive API key is looked for in every output,
//! error and state file.

use super::server::{Reply, Server, reply};
use super::{DDG, brave_json, ddg_server, search, searxng_json};
use serde_json::json;
use std::time::{Duration, Instant};
use testkit::Env;

fn brave_error(status: u16, code: &str, detail: &str) -> String {
    json!({"type": "ErrorResponse", "error": {"id": "4f1c", "status": status, "code": code, "detail": detail, "meta": {"component": "api"}}, "time": 1_764_000_000})
        .to_string()
}

fn with_headers(status: u16, content_type: &str, extra: &[(&str, &str)], body: String) -> Reply {
    let mut headers = vec![("Content-Type".to_string(), content_type.to_string())];
    headers.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    Reply::Send {
        status,
        headers,
        body: body.into_bytes(),
        framed: true,
    }
}

#[test]
fn a_rate_limit_says_when_to_retry() {
    let env = Env::new();
    let s = Server::start(|r| {
        match r.path.split('?').next().unwrap() {
        "/res/v1/web/search" => with_headers(
            429,
            "application/json",
            &[("X-RateLimit-Limit", "1, 2000"), ("X-RateLimit-Reset", "1, 1419704")],
            brave_error(429, "RATE_LIMITED", "Request rate limit exceeded for plan."),
        ),
        "/search" => with_headers(
            429,
            "application/json",
            &[("Retry-After", "30")],
            json!({"detail": {"error": "Your request has been blocked due to excessive requests. Please reduce rate of requests."}}).to_string(),
        ),
        _ => reply(429, "text/html", "<html><body><h1>Too many requests</h1></body></html>"),
    }
    });
    let base = s.url("");
    let out = search(
        &env,
        &[("BRAVE_API_KEY", "k"), ("LOOPR_SEARCH_ENDPOINT", &base)],
        json!({"query": "q"}),
    );
    out.assert_err("http_error");
    let e = &out.json["error"];
    assert_eq!(
        (e["status"].as_u64(), e["retry_after_s"].as_u64()),
        (Some(429), Some(1))
    );
    assert_eq!(e["provider"], "brave");
    assert_eq!(
        e["message"],
        "the Brave Search API answered HTTP 429 Too Many Requests: Request rate limit exceeded for plan. (RATE_LIMITED) (rate limited: retry in 1 s)"
    );
    assert_eq!(e["hint"], "Wait 1 s before searching again.");
    let out = search(
        &env,
        &[("TAVILY_API_KEY", "k"), ("LOOPR_SEARCH_ENDPOINT", &base)],
        json!({"query": "q"}),
    );
    out.assert_err("http_error");
    assert_eq!(out.json["error"]["retry_after_s"], 30);
    assert!(
        out.output().contains("excessive requests"),
        "{}",
        out.output()
    );
    // No header: the limit is still named, and the hint says it did not say when.
    let out = search(
        &env,
        &[("LOOPR_SEARCH_ENDPOINT", &base)],
        json!({"query": "q"}),
    );
    out.assert_err("http_error");
    assert!(out.json["error"].get("retry_after_s").is_none());
    assert_eq!(
        out.json["error"]["message"],
        "DuckDuckGo answered HTTP 429 Too Many Requests: Too many requests (rate limited)"
    );
    // Errors are not cached: asking again asks again.
    search(
        &env,
        &[("LOOPR_SEARCH_ENDPOINT", &base)],
        json!({"query": "q"}),
    );
    assert_eq!(s.requests().len(), 4);
}

#[test]
fn a_refused_key_or_plan_is_http_error_naming_what_to_fix() {
    let env = Env::new();
    let s = Server::start(
        |r| match (r.method.as_str(), r.path.split('?').next().unwrap()) {
            ("GET", "/res/v1/web/search") => reply(
                401,
                "application/json",
                brave_error(
                    401,
                    "SUBSCRIPTION_TOKEN_INVALID",
                    "The provided subscription token is invalid.",
                ),
            ),
            ("POST", "/search") => {
                if r.header("authorization") == Some("Bearer over-plan") {
                    reply(432, "application/json", json!({"detail": {"error": "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com"}}).to_string())
                } else {
                    reply(
                        401,
                        "application/json",
                        json!({"detail": {"error": "Unauthorized: missing or invalid API key."}})
                            .to_string(),
                    )
                }
            }
            ("GET", "/search") => reply(
                403,
                "text/html",
                "<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1></body></html>",
            ),
            _ => reply(500, "text/plain", "boom: internal failure"),
        },
    );
    let base = s.url("");
    let out = search(
        &env,
        &[("BRAVE_API_KEY", "bad"), ("LOOPR_SEARCH_ENDPOINT", &base)],
        json!({"query": "q"}),
    );
    out.assert_err("http_error");
    assert_eq!(out.json["error"]["status"], 401);
    assert_eq!(
        out.json["error"]["message"],
        "the Brave Search API answered HTTP 401 Unauthorized: The provided subscription token is invalid. (SUBSCRIPTION_TOKEN_INVALID)"
    );
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("BRAVE_API_KEY")
    );
    let out = search(
        &env,
        &[("TAVILY_API_KEY", "bad"), ("LOOPR_SEARCH_ENDPOINT", &base)],
        json!({"query": "q"}),
    );
    assert_eq!(out.json["error"]["status"], 401);
    assert!(out.output().contains("missing or invalid API key"));
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("TAVILY_API_KEY")
    );
    let out = search(
        &env,
        &[
            ("TAVILY_API_KEY", "over-plan"),
            ("LOOPR_SEARCH_ENDPOINT", &base),
        ],
        json!({"query": "q"}),
    );
    assert_eq!(out.json["error"]["status"], 432);
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("usage limit")
    );
    let out = search(
        &env,
        &[("LOOPR_SEARCH_PROVIDER", "searxng"), ("SEARXNG_URL", &base)],
        json!({"query": "q"}),
    );
    out.assert_err("http_error");
    assert_eq!(out.json["error"]["provider"], "searxng");
    assert_eq!(
        out.json["error"]["message"],
        "the SearXNG instance answered HTTP 403 Forbidden: Forbidden"
    );
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("formats")
    );
    let out = search(
        &env,
        &[("LOOPR_SEARCH_ENDPOINT", &s.url("/elsewhere"))],
        json!({"query": "q"}),
    );
    assert_eq!(out.json["error"]["status"], 500);
    assert_eq!(
        out.json["error"]["message"],
        "DuckDuckGo answered HTTP 500 Internal Server Error: boom: internal failure"
    );
}

#[test]
fn an_unreachable_slow_or_huge_provider_fails_with_its_code() {
    let env = Env::new();
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let out = search(
        &env,
        &[
            ("LOOPR_SEARCH_PROVIDER", "searxng"),
            ("SEARXNG_URL", &format!("http://127.0.0.1:{closed}")),
        ],
        json!({"query": "q"}),
    );
    out.assert_err("network_error");
    assert_eq!(
        out.json["error"]["message"],
        format!(
            "the SearXNG instance at http://127.0.0.1:{closed}/search?q=q&format=json&pageno=1 could not be reached: the connection was refused"
        )
    );
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("SEARXNG_URL")
    );

    let s = Server::start(|r| match r.path.as_str() {
        "/hang/html/" => Reply::Hang,
        _ => reply(
            200,
            "application/json",
            searxng_json(
                json!([{"url": "https://x.example/", "title": "x", "content": "y".repeat(5 << 20)}]),
                json!([]),
            ),
        ),
    });
    let start = Instant::now();
    let out = search(
        &env,
        &[("LOOPR_SEARCH_ENDPOINT", &s.url("/hang"))],
        json!({"query": "q", "timeout_ms": 600}),
    );
    out.assert_err("timeout");
    assert_eq!(out.json["error"]["timeout_ms"], 600);
    assert!(
        out.output().starts_with("searching with DuckDuckGo"),
        "{}",
        out.output()
    );
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(550) && took < Duration::from_secs(5),
        "{took:?}"
    );
    search(
        &env,
        &[("LOOPR_SEARCH_ENDPOINT", &s.url(""))],
        json!({"query": "q", "timeout_ms": 0}),
    )
    .assert_invalid("timeout_ms");

    let out = search(
        &env,
        &[
            ("LOOPR_SEARCH_PROVIDER", "searxng"),
            ("SEARXNG_URL", &s.url("")),
        ],
        json!({"query": "q"}),
    );
    out.assert_err("too_large");
    assert_eq!(out.json["error"]["limit"], 4 * 1024 * 1024);
}

#[test]
fn redirects_stay_on_the_providers_own_site() {
    let env = Env::new();
    let other = Server::start(|_| reply(200, "text/html", DDG));
    let target = other.url("/html/");
    let s = Server::start(move |r| match (r.method.as_str(), r.path.as_str()) {
        // same site: a POST answered 303 is followed as a GET, as browsers do
        ("POST", "/html/") => Reply::Send {
            status: 303,
            headers: vec![("Location".into(), "/results?q=rust".into())],
            body: vec![],
            framed: true,
        },
        ("GET", "/results?q=rust") => reply(200, "text/html; charset=utf-8", DDG),
        // another site: never followed, the key must not travel there
        _ => Reply::Send {
            status: 302,
            headers: vec![("Location".into(), target.clone())],
            body: vec![],
            framed: true,
        },
    });
    let out = search(
        &env,
        &[("LOOPR_SEARCH_ENDPOINT", &s.url(""))],
        json!({"query": "rust"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["results"].as_array().unwrap().len(), 5);
    let methods: Vec<String> = s.requests().iter().map(|r| r.method.clone()).collect();
    assert_eq!(methods, ["POST", "GET"]);
    let out = search(
        &env,
        &[
            ("BRAVE_API_KEY", "k"),
            ("LOOPR_SEARCH_ENDPOINT", &s.url("")),
        ],
        json!({"query": "rust"}),
    );
    out.assert_err("http_error");
    assert_eq!(out.json["error"]["status"], 302);
    assert!(
        out.output().contains("which search does not follow"),
        "{}",
        out.output()
    );
    assert_eq!(other.connections(), 0, "the other site was never contacted");
}

#[test]
fn answers_of_the_wrong_kind_are_unsupported_content() {
    let env = Env::new();
    let s = Server::start(|r| match r.path.split('?').next().unwrap() {
        "/res/v1/web/search" => reply(
            200,
            "text/html",
            "<html><body>Welcome to the captive portal</body></html>",
        ),
        "/search" if r.method == "GET" => {
            reply(200, "application/json", r#"{"status": "ok", "items": []}"#)
        }
        "/search" => reply(200, "application/json", "{not json"),
        _ => reply(200, "image/png", "\u{89}PNG\r\n"),
    });
    let base = s.url("");
    for (vars, content_type, says) in [
        (
            vec![("BRAVE_API_KEY", "k")],
            "text/html",
            "the answer is text/html, not JSON",
        ),
        (
            vec![("TAVILY_API_KEY", "k")],
            "application/json",
            "not Tavily's search JSON",
        ),
        (
            vec![("LOOPR_SEARCH_PROVIDER", "searxng")],
            "application/json",
            "not SearXNG's JSON format",
        ),
        (
            vec![],
            "image/png",
            "the answer is image/png, not an HTML page",
        ),
    ] {
        let mut vars = vars;
        vars.push(("LOOPR_SEARCH_ENDPOINT", &base));
        let out = search(&env, &vars, json!({"query": "q"}));
        out.assert_err("unsupported_content");
        assert_eq!(out.json["error"]["content_type"], content_type);
        assert!(out.output().contains(says), "{}", out.output());
    }
}

#[test]
fn bad_input_and_bad_configuration_are_invalid_input() {
    let env = Env::new();
    let s = ddg_server(DDG);
    let base = s.url("");
    let ep = [("LOOPR_SEARCH_ENDPOINT", base.as_str())];
    search(&env, &ep, json!({"query": "  \n "})).assert_invalid("query");
    search(&env, &ep, json!({})).assert_invalid("query");
    search(&env, &ep, json!({"query": "q", "engine": "google"})).assert_invalid("engine");
    search(&env, &ep, json!({"query": "x".repeat(500)})).assert_invalid("query");
    search(&env, &ep, json!({"query": "x".repeat(2001)})).assert_invalid("query");
    search(&env, &ep, json!({"query": "q", "blocked_domains": ["a b"]}))
        .assert_invalid("blocked_domains");
    for (vars, says) in [
        (vec![("LOOPR_SEARCH_PROVIDER", "google")], "does not know"),
        (
            vec![("LOOPR_SEARCH_PROVIDER", "brave")],
            "BRAVE_API_KEY is not set",
        ),
        (
            vec![("LOOPR_SEARCH_PROVIDER", "tavily")],
            "TAVILY_API_KEY is not set",
        ),
        (
            vec![("LOOPR_SEARCH_PROVIDER", "searxng")],
            "no SearXNG instance is configured",
        ),
        (
            vec![("LOOPR_SEARCH_ENDPOINT", "ftp://files.example/")],
            "is not a usable address",
        ),
    ] {
        let out = search(&env, &vars, json!({"query": "q"}));
        out.assert_err("invalid_input");
        assert!(out.output().contains(says), "{}", out.output());
    }
    assert_eq!(s.requests().len(), 0, "nothing was sent");
}

/// Every envelope, every text-mode line on stdout and stderr, every state file: the key is in
/// none of them, also when the provider itself quotes it back.
#[test]
fn the_api_key_never_appears_in_output_errors_or_state() {
    const KEY: &str = "sk-LEAKCHECK-7f3a9c0d";
    let env = Env::new();
    let s = Server::start(|r| {
        let sent = r.header("x-subscription-token").unwrap_or("").to_string();
        match r.path.split('?').next().unwrap() {
            "/ok/res/v1/web/search" => reply(
                200,
                "application/json",
                brave_json(json!([super::brave_result(
                    "Echo",
                    "https://echo.example/",
                    &format!("your token was {sent}")
                )])),
            ),
            "/limit/res/v1/web/search" => with_headers(
                429,
                "application/json",
                &[("X-RateLimit-Reset", "2, 9")],
                brave_error(429, "RATE_LIMITED", &format!("slow down, {sent}")),
            ),
            "/hang/res/v1/web/search" => Reply::Hang,
            "/redirect/res/v1/web/search" => Reply::Send {
                status: 307,
                headers: vec![(
                    "Location".into(),
                    format!("http://203.0.113.9/steal?t={sent}"),
                )],
                body: vec![],
                framed: true,
            },
            _ => reply(
                401,
                "application/json",
                brave_error(
                    401,
                    "SUBSCRIPTION_TOKEN_INVALID",
                    &format!("The token {sent} is invalid."),
                ),
            ),
        }
    });
    let mut seen = String::new();
    for (path, input) in [
        ("/ok", json!({"query": "a"})),
        ("/bad", json!({"query": "b"})),
        ("/limit", json!({"query": "c"})),
        ("/hang", json!({"query": "d", "timeout_ms": 300})),
        ("/redirect", json!({"query": "e"})),
    ] {
        for format in [&["--format", "json", "--pretty"][..], &["--format", "text"]] {
            let mut c = env.cmd();
            c.args(format)
                .arg("search")
                .env("BRAVE_API_KEY", KEY)
                .env("LOOPR_SEARCH_ENDPOINT", s.url(path))
                .write_stdin(input.to_string());
            let out = testkit::finish(c);
            seen.push_str(&out.stdout);
            seen.push_str(&out.stderr);
        }
    }
    // The provider got the key, and quoted it back: the check below is not vacuous.
    assert!(
        s.requests()
            .iter()
            .all(|r| r.header("x-subscription-token") == Some(KEY))
    );
    assert!(seen.contains("your token was [API key]"), "{seen}");
    assert!(seen.contains("The token [API key] is invalid."), "{seen}");
    assert!(seen.contains("slow down, [API key]"), "{seen}");
    assert!(seen.contains("which search does not follow"), "{seen}");
    assert!(!seen.contains(KEY), "the key leaked:\n{seen}");
    // Nor in the state dir (the cache included).
    let mut stack = vec![env.state.clone()];
    let mut files = 0;
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files += 1;
                let bytes = std::fs::read(&p).unwrap();
                assert!(
                    !bytes.windows(KEY.len()).any(|w| w == KEY.as_bytes()),
                    "{} holds the key",
                    p.display()
                );
            }
        }
    }
    assert!(files > 0, "the successful search was cached");
}

/// SPEC 31.4: a provider address's userinfo (a SearXNG behind basic auth) never appears in an
/// error or in `catalog`, and the key is scrubbed also when a provider quotes it split.
#[test]
fn a_provider_urls_password_and_a_split_key_never_appear() {
    const PASS: &str = "hunter2-LEAK-pw";
    let env = Env::new();
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("http://alice:{PASS}@127.0.0.1:{closed}");
    let out = search(
        &env,
        &[("LOOPR_SEARCH_PROVIDER", "searxng"), ("SEARXNG_URL", &url)],
        json!({"query": "q"}),
    );
    out.assert_err("network_error");
    assert!(
        out.output().contains("[userinfo]@127.0.0.1"),
        "{}",
        out.stdout
    );
    assert!(
        !out.stdout.contains(PASS) && !out.stdout.contains("alice"),
        "{}",
        out.stdout
    );
    // An unusable address quotes it in the error: without the userinfo.
    let bad = search(
        &env,
        &[
            ("LOOPR_SEARCH_PROVIDER", "searxng"),
            ("SEARXNG_URL", &format!("ftp://alice:{PASS}@host")),
        ],
        json!({"query": "q"}),
    );
    assert!(!bad.ok() && !bad.stdout.contains(PASS), "{}", bad.stdout);
    // `catalog` prints the catalog's endpoint without it.
    let catalog = env.dir.path().join("search.toml");
    std::fs::write(
        &catalog,
        format!("[search]\nprovider = \"searxng\"\nendpoint = \"{url}\"\n"),
    )
    .unwrap();
    let mut c = env.cmd();
    c.arg("--config").arg(&catalog).arg("catalog");
    let printed = testkit::finish(c);
    assert!(
        printed.stdout.contains("[userinfo]@127.0.0.1"),
        "{}",
        printed.stdout
    );
    assert!(!printed.stdout.contains(PASS), "{}", printed.stdout);
    // A key the provider quotes back split by blanks and dashes.
    const KEY: &str = "sk-SPLITKEY-93af71";
    let s = Server::start(|_| {
        reply(
            401,
            "application/json",
            brave_error(
                401,
                "SUBSCRIPTION_TOKEN_INVALID",
                "The token sk-SPLIT KEY-93 af71 is invalid.",
            ),
        )
    });
    let out = search(
        &env,
        &[
            ("BRAVE_API_KEY", KEY),
            ("LOOPR_SEARCH_ENDPOINT", &s.url("")),
        ],
        json!({"query": "q"}),
    );
    out.assert_err("http_error");
    assert!(
        out.output().contains("The token [API key] is invalid."),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("KEY-93"), "{}", out.stdout);
}
