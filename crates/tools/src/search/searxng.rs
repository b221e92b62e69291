//! A SearXNG instance's search API (SPEC §21).
//!
//! Documentation read (November 2026): https://docs.searxng.org/dev/search_api.html (SearXNG
//! documentation 2025.1.6). `GET /search?q=…&format=json`; the `json` format must be enabled in
//! the instance's settings.yml (`search: formats:`), else the instance answers 403 Forbidden.
//! `q` is passed to the instance's engines, so `site:` operators reach the engines that
//! understand them. Response: `{"query", "number_of_results", "results": [{"url", "title",
//! "content", "engine", …}], "answers", "suggestions", "unresponsive_engines": [[engine,
//! reason], …]}`. There is no count parameter: one page is asked for and cut.

use super::provider::Secret;
use super::{Ask, Hit, Parsed, Unusable, with_site_operators};
use crate::web::http::Request;
use serde::Deserialize;
use url::Url;

pub fn request(endpoint: &Url, ask: &Ask, _key: Option<&Secret>) -> Request {
    let mut url = endpoint.clone();
    url.query_pairs_mut()
        .append_pair("q", &with_site_operators(ask))
        .append_pair("format", "json")
        .append_pair("pageno", "1");
    Request::get(url).header("Accept", "application/json")
}

#[derive(Deserialize)]
struct Response {
    results: Vec<Result>,
    #[serde(default)]
    unresponsive_engines: Vec<Vec<serde_json::Value>>,
}

#[derive(Deserialize)]
struct Result {
    title: Option<String>,
    url: Option<String>,
    content: Option<String>,
}

pub fn parse(text: &str) -> std::result::Result<Parsed, Unusable> {
    let r: Response = serde_json::from_str(text).map_err(|e| Unusable {
        why: format!("the answer is not SearXNG's JSON format ({e})"),
        hint: None,
    })?;
    let hits = r
        .results
        .into_iter()
        .map(|x| Hit::from_markup(x.title.as_deref(), x.url, x.content.as_deref()))
        .collect();
    let down: Vec<String> = r
        .unresponsive_engines
        .iter()
        .map(|e| {
            let s = |i: usize| e.get(i).and_then(|v| v.as_str()).unwrap_or("?");
            format!("{} ({})", s(0), s(1))
        })
        .collect();
    let warnings = if down.is_empty() {
        vec![]
    } else {
        vec![format!(
            "some of the SearXNG instance's engines did not answer: {}",
            down.join(", ")
        )]
    };
    Ok(Parsed { hits, warnings })
}

/// SearXNG answers errors as HTML pages; the status says enough.
pub fn error_detail(_text: &str) -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_shape() {
        let ep = Url::parse("http://192.168.1.9:8888/search").unwrap();
        let blocked = vec!["a.example".to_string(), "b.example".to_string()];
        let ask = Ask {
            query: "日本語",
            count: 5,
            allowed: &[],
            blocked: &blocked,
        };
        assert_eq!(
            request(&ep, &ask, None).url.as_str(),
            "http://192.168.1.9:8888/search?q=%E6%97%A5%E6%9C%AC%E8%AA%9E+-site%3Aa.example+-site%3Ab.example&format=json&pageno=1"
        );
    }

    #[test]
    fn parse_with_unresponsive_engines() {
        let p = parse(r#"{"query":"q","number_of_results":0,"results":[{"url":"https://x.example/","title":"X","content":"c","engine":"bing"}],"answers":[],"unresponsive_engines":[["google","timeout"]]}"#).unwrap();
        assert_eq!(p.hits.len(), 1);
        assert_eq!(
            p.warnings,
            ["some of the SearXNG instance's engines did not answer: google (timeout)"]
        );
        assert!(parse("{}").is_err());
    }
}
