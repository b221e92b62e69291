//! Brave Search API, web search (SPEC §21).
//!
//! Documentation read (November 2026, API version "latest": no `Api-Version` header is sent):
//! - https://api-dashboard.search.brave.com/api-reference/web/search/get (query parameters)
//! - https://api.search.brave.com/app/documentation/web-search/request-headers
//! - https://api.search.brave.com/app/documentation/web-search/response-headers
//!
//! Request: `GET /res/v1/web/search?q=…&count=N` with `X-Subscription-Token: KEY` and
//! `Accept: application/json` (`Accept-Encoding: gzip` comes from the HTTP stack). `q` is at
//! most 400 characters and 50 words; `count` 1–20. Domain filters go into the query as Brave's
//! `site:` operators. Response: `{"type": "search", "web": {"results": [{"title", "url",
//! "description", …}]}, …}`, where `web` is absent when nothing was found and `description`
//! highlights with `<strong>`. Errors: `{"error": {"code", "detail", …}}`; a 429 carries
//! `X-RateLimit-Reset: <seconds for the per-second window>, <seconds for the month>`.

use super::provider::Secret;
use super::{Ask, Hit, Parsed, Unusable, with_site_operators};
use crate::web::http::Request;
use serde::Deserialize;
use url::Url;

pub fn request(endpoint: &Url, ask: &Ask, key: Option<&Secret>) -> Request {
    let mut url = endpoint.clone();
    url.query_pairs_mut()
        .append_pair("q", &with_site_operators(ask))
        .append_pair("count", &ask.count.min(20).to_string());
    let mut req = Request::get(url).header("Accept", "application/json");
    if let Some(k) = key {
        req = req.header("X-Subscription-Token", k.expose());
    }
    req
}

#[derive(Deserialize)]
struct Response {
    #[serde(rename = "type")]
    kind: String,
    web: Option<Web>,
}

#[derive(Deserialize)]
struct Web {
    results: Vec<Result>,
}

#[derive(Deserialize)]
struct Result {
    title: Option<String>,
    url: Option<String>,
    description: Option<String>,
}

pub fn parse(text: &str) -> std::result::Result<Parsed, Unusable> {
    let r: Response = serde_json::from_str(text).map_err(|e| Unusable {
        why: format!("the answer is not Brave's web search JSON ({e})"),
        hint: None,
    })?;
    if r.kind != "search" {
        return Err(Unusable {
            why: format!("the answer's type is {:?}, not \"search\"", r.kind),
            hint: None,
        });
    }
    let hits = r
        .web
        .map(|w| w.results)
        .unwrap_or_default()
        .into_iter()
        .map(|x| Hit::from_markup(x.title.as_deref(), x.url, x.description.as_deref()))
        .collect();
    Ok(Parsed {
        hits,
        warnings: vec![],
    })
}

/// What an error body says: `detail (code)`.
pub fn error_detail(text: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let e = v.get("error")?;
    let detail = e.get("detail").and_then(|d| d.as_str())?;
    Some(match e.get("code").and_then(|c| c.as_str()) {
        Some(code) => format!("{detail} ({code})"),
        None => detail.to_string(),
    })
}

/// Seconds until the per-second window resets: the first value of `X-RateLimit-Reset`.
pub fn reset_after(header: &str) -> Option<u64> {
    header.split(',').next()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_shape() {
        let ep = Url::parse("https://api.search.brave.com/res/v1/web/search").unwrap();
        let allowed = vec!["docs.rs".to_string()];
        let ask = Ask {
            query: "serde derive",
            count: 5,
            allowed: &allowed,
            blocked: &[],
        };
        let r = request(&ep, &ask, None);
        assert_eq!(
            r.url.as_str(),
            "https://api.search.brave.com/res/v1/web/search?q=serde+derive+site%3Adocs.rs&count=5"
        );
    }

    #[test]
    fn parses_results_and_an_answer_without_web() {
        let p = parse(r#"{"type":"search","query":{"original":"x"},"web":{"type":"search","results":[{"title":"A &amp; B","url":"https://a.example/","description":"the <strong>best</strong> one"}]}}"#).unwrap();
        assert_eq!(p.hits[0].title, "A & B");
        assert_eq!(p.hits[0].snippet, "the best one");
        assert!(
            parse(r#"{"type":"search","query":{"original":"x"}}"#)
                .unwrap()
                .hits
                .is_empty()
        );
        assert!(parse(r#"{"type":"ErrorResponse"}"#).is_err());
        assert!(parse("<html>").is_err());
    }

    #[test]
    fn errors_and_rate_limits() {
        let body = r#"{"type":"ErrorResponse","error":{"id":"x","status":401,"code":"SUBSCRIPTION_TOKEN_INVALID","detail":"The provided subscription token is invalid."}}"#;
        assert_eq!(
            error_detail(body).unwrap(),
            "The provided subscription token is invalid. (SUBSCRIPTION_TOKEN_INVALID)"
        );
        assert_eq!(reset_after("1, 1419704"), Some(1));
        assert_eq!(reset_after("junk"), None);
    }
}
