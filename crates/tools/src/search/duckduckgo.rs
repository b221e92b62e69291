//! DuckDuckGo's HTML endpoint, the no-key default (SPEC §21).
//!
//! DuckDuckGo documents no API for web results; its no-JavaScript page is a form. What is
//! followed here was read (November 2026) from SearXNG's description of it, the most careful
//! public one: https://docs.searxng.org/dev/engines/online/duckduckgo.html (SearXNG
//! documentation 2025.1.6) and the engine's own docstring (searx/engines/duckduckgo.py, revised
//! 2026-02-20 after DuckDuckGo's bot-blocker changes).
//!
//! Request: `POST https://html.duckduckgo.com/html/`, form fields `q` (at most 499 characters),
//! `b` (empty: the first page) and `kl=wt-wt` (all regions), with `Referer` set to the form's
//! page. A word starting with `!` is a "bang" that makes DuckDuckGo redirect to another site, so
//! it is quoted and searched as a word. Domain filters go in as `site:` / `-site:` operators.
//! Response: an HTML page whose results are `div.result` blocks (ads are `result--ad`), each
//! with `a.result__a` (title; `href` a `//duckduckgo.com/l/?uddg=<target>&rut=…` redirect whose
//! `uddg` parameter is the result's address) and `a.result__snippet` (the snippet, matches in
//! `<b>`). An empty search shows `div.no-results`; the bot blocker shows `form#challenge-form`.

use super::{Ask, Hit, Parsed, Unusable, clean, with_site_operators};
use crate::web::http::{Method, Request};
use scraper::{ElementRef, Html, Selector};
use url::Url;

/// DuckDuckGo refuses longer queries.
pub const MAX_QUERY_CHARS: usize = 499;

/// A browser-compatible agent string that still says who is asking: DuckDuckGo's page is made
/// for browsers and may refuse clients that do not look like one.
const USER_AGENT: &str = concat!(
    "Mozilla/5.0 (compatible; loopr-tool/",
    env!("CARGO_PKG_VERSION"),
    "; a coding agent's web search)"
);

pub fn request(endpoint: &Url, ask: &Ask) -> Request {
    let q = quote_bangs(&with_site_operators(ask));
    let body = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("q", &q)
        .append_pair("b", "")
        .append_pair("kl", "wt-wt")
        .finish();
    Request {
        method: Method::Post,
        url: endpoint.clone(),
        headers: vec![
            ("User-Agent", USER_AGENT.into()),
            ("Accept", "text/html,application/xhtml+xml".into()),
            ("Content-Type", "application/x-www-form-urlencoded".into()),
            ("Referer", endpoint.to_string()),
        ],
        body: body.into_bytes(),
    }
}

/// `!w rust` → `'!w' rust`: searched as words, not followed as a bang to another site.
fn quote_bangs(q: &str) -> String {
    q.split_whitespace()
        .map(|w| {
            if w.starts_with('!') && w.len() > 1 {
                format!("'{w}'")
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn sel(s: &str) -> Selector {
    Selector::parse(s).expect("a fixed selector parses")
}

pub fn parse(html: &str) -> Result<Parsed, Unusable> {
    let doc = Html::parse_document(html);
    if doc.select(&sel("form#challenge-form")).next().is_some() {
        return Err(Unusable {
            why: "DuckDuckGo answered with its bot check (a CAPTCHA) instead of results".into(),
            hint: Some(
                "DuckDuckGo limits automated searches from one address: wait a few minutes, or configure a provider made for programs (BRAVE_API_KEY, TAVILY_API_KEY, or a SearXNG instance with LOOPR_SEARCH_PROVIDER=searxng and SEARXNG_URL).",
            ),
        });
    }
    let (title_sel, snippet_sel) = (sel("a.result__a"), sel(".result__snippet"));
    let mut hits = Vec::new();
    let mut blocks = 0;
    for block in doc.select(&sel("div.result")) {
        let Some(a) = block.select(&title_sel).next() else {
            continue;
        };
        blocks += 1;
        if block.value().classes().any(|c| c.starts_with("result--ad")) {
            continue;
        }
        let Some(url) = a.value().attr("href").and_then(target) else {
            continue;
        };
        hits.push(Hit {
            title: clean::one_line(&text(a)),
            url,
            snippet: block
                .select(&snippet_sel)
                .next()
                .map(|s| clean::one_line(&text(s)))
                .unwrap_or_default(),
        });
    }
    if blocks == 0 && doc.select(&sel(".no-results")).next().is_none() {
        return Err(Unusable {
            why: "the page holds none of DuckDuckGo's result markup (div.result with a.result__a) and no \"no results\" notice: its layout may have changed".into(),
            hint: None,
        });
    }
    Ok(Parsed {
        hits,
        warnings: vec![],
    })
}

fn text(e: ElementRef) -> String {
    e.text().collect()
}

/// The result's own address: the `uddg` parameter of DuckDuckGo's redirect link, or the link
/// itself when it is already absolute.
fn target(href: &str) -> Option<String> {
    let base = Url::parse("https://duckduckgo.com/").expect("a fixed URL parses");
    let link = base.join(href.trim()).ok()?;
    let host = link.host_str().unwrap_or("");
    if host == "duckduckgo.com" || host.ends_with(".duckduckgo.com") {
        let (_, t) = link.query_pairs().find(|(k, _)| k == "uddg")?;
        let t = Url::parse(&t).ok()?;
        return matches!(t.scheme(), "http" | "https").then(|| t.to_string());
    }
    matches!(link.scheme(), "http" | "https").then(|| link.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_and_its_bangs() {
        let ep = Url::parse("https://html.duckduckgo.com/html/").unwrap();
        let allowed = vec!["docs.rs".to_string(), "crates.io".to_string()];
        let ask = Ask {
            query: "!w straße",
            count: 5,
            allowed: &allowed,
            blocked: &[],
        };
        let r = request(&ep, &ask);
        assert_eq!(r.method, Method::Post);
        assert_eq!(
            String::from_utf8(r.body).unwrap(),
            "q=%27%21w%27+stra%C3%9Fe+%28site%3Adocs.rs+OR+site%3Acrates.io%29&b=&kl=wt-wt"
        );
    }

    #[test]
    fn redirect_links_give_their_target() {
        assert_eq!(
            target(
                "//duckduckgo.com/l/?uddg=https%3A%2F%2Fdocs.rs%2Fserde%3Fa%3D1%26b%3D2&rut=abc"
            )
            .as_deref(),
            Some("https://docs.rs/serde?a=1&b=2")
        );
        assert_eq!(
            target("https://example.org/x").as_deref(),
            Some("https://example.org/x")
        );
        assert_eq!(target("//duckduckgo.com/y.js?ad_domain=x"), None);
        assert_eq!(target("javascript:alert(1)"), None);
    }

    #[test]
    fn pages_that_are_not_results() {
        let e = parse("<html><body><form id=\"challenge-form\"></form></body></html>").unwrap_err();
        assert!(e.why.contains("bot check"));
        assert!(
            parse("<html><body><div class=\"no-results\">No results.</div></body></html>")
                .unwrap()
                .hits
                .is_empty()
        );
        assert!(parse("<html><body><p>Welcome to our new design</p></body></html>").is_err());
    }
}
