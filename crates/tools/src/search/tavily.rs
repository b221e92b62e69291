//! Tavily Search API (SPEC §21).
//!
//! Documentation read (November 2026):
//! - https://docs.tavily.com/api-reference/endpoint/search (request body and response)
//! - https://help.tavily.com/articles/8645538886-understanding-http-errors (last updated
//!   2 April 2025: 400, 401, 429, 432, 433, 500)
//!
//! Request: `POST /search` with `Authorization: Bearer KEY` and a JSON body `{query,
//! max_results (0–20), search_depth: "basic" (1 credit), include_answer: false,
//! include_raw_content: false, include_images: false, include_domains, exclude_domains}`.
//! Tavily filters domains itself, so the filters go in as fields, not query operators.
//! Response: `{"query", "results": [{"title", "url", "content", "score", …}],
//! "response_time", …}`; `content` is text extracted from the page. Errors:
//! `{"detail": {"error": "…"}}`; 432/433 are plan and pay-as-you-go limits.

use super::provider::Secret;
use super::{Ask, Hit, Parsed, Unusable};
use crate::web::http::{Method, Request};
use serde::{Deserialize, Serialize};
use url::Url;

#[derive(Serialize)]
struct Body<'a> {
    query: &'a str,
    max_results: usize,
    search_depth: &'static str,
    include_answer: bool,
    include_raw_content: bool,
    include_images: bool,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    include_domains: &'a [String],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    exclude_domains: &'a [String],
}

pub fn request(endpoint: &Url, ask: &Ask, key: Option<&Secret>) -> Request {
    let body = Body {
        query: ask.query,
        max_results: ask.count.min(20),
        search_depth: "basic",
        include_answer: false,
        include_raw_content: false,
        include_images: false,
        include_domains: ask.allowed,
        exclude_domains: ask.blocked,
    };
    let mut req = Request {
        method: Method::Post,
        url: endpoint.clone(),
        headers: vec![
            ("Content-Type", "application/json".into()),
            ("Accept", "application/json".into()),
        ],
        body: serde_json::to_vec(&body).expect("a plain struct serialises"),
    };
    if let Some(k) = key {
        req = req.header("Authorization", format!("Bearer {}", k.expose()));
    }
    req
}

#[derive(Deserialize)]
struct Response {
    results: Vec<Result>,
}

#[derive(Deserialize)]
struct Result {
    title: Option<String>,
    url: Option<String>,
    content: Option<String>,
}

pub fn parse(text: &str) -> std::result::Result<Parsed, Unusable> {
    let r: Response = serde_json::from_str(text).map_err(|e| Unusable {
        why: format!("the answer is not Tavily's search JSON ({e})"),
        hint: None,
    })?;
    let hits = r
        .results
        .into_iter()
        .map(|x| Hit::from_markup(x.title.as_deref(), x.url, x.content.as_deref()))
        .collect();
    Ok(Parsed {
        hits,
        warnings: vec![],
    })
}

/// What an error body says: `detail.error`, or `detail` when it is a string.
pub fn error_detail(text: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let d = v.get("detail")?;
    d.get("error")
        .and_then(|e| e.as_str())
        .or_else(|| d.as_str())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_shape() {
        let ep = Url::parse("https://api.tavily.com/search").unwrap();
        let blocked = vec!["pinterest.com".to_string()];
        let ask = Ask {
            query: "café crème",
            count: 7,
            allowed: &[],
            blocked: &blocked,
        };
        let r = request(&ep, &ask, None);
        assert_eq!(r.method, Method::Post);
        let body: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"query": "café crème", "max_results": 7, "search_depth": "basic",
                "include_answer": false, "include_raw_content": false, "include_images": false,
                "exclude_domains": ["pinterest.com"]})
        );
    }

    #[test]
    fn parse_and_errors() {
        let p = parse(r#"{"query":"q","results":[{"title":"T","url":"https://t.example/","content":"a &amp; b","score":0.8,"raw_content":null}],"response_time":"1.2"}"#).unwrap();
        assert_eq!(
            (p.hits[0].title.as_str(), p.hits[0].snippet.as_str()),
            ("T", "a & b")
        );
        assert!(parse(r#"{"query":"q"}"#).is_err());
        assert_eq!(
            error_detail(r#"{"detail":{"error":"Unauthorized: missing or invalid API key."}}"#)
                .unwrap(),
            "Unauthorized: missing or invalid API key."
        );
        assert_eq!(
            error_detail(r#"{"detail":"Not Found"}"#).unwrap(),
            "Not Found"
        );
    }
}
