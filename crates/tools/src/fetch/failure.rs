//! fetch's wording of the web stack's failures (SPEC §3, §11): each names the page, and the
//! hint says what a model can do next.

use crate::error::{Code, ToolError};
use crate::web::http::{Failure, MAX_REDIRECTS};
use crate::web::policy::Refusal;
use url::Url;

/// `start` is the URL the call asked for; a failure names the hop it happened on.
pub fn to_error(f: Failure, start: &Url, timeout_ms: u64) -> ToolError {
    match f {
        Failure::Blocked { url, why } => blocked(&url, &why),
        Failure::Timeout { url } => timed_out(timeout_ms, &url),
        Failure::Network { url, what } => network(&url, what),
        Failure::BadUri { url, what } => ToolError::new(Code::InvalidUrl, format!("{url}: {what}")),
        Failure::TooManyRedirects { url, status } => ToolError::new(
            Code::HttpError,
            format!(
                "too many redirects: {url} answered {status} after {MAX_REDIRECTS} redirects from {start}"
            ),
        )
        .with("status", status)
        .hint("The server redirects in a loop or too deep; fetch the final page's URL directly if you know it."),
        Failure::BadRedirect {
            url,
            status,
            location,
            why,
        } => ToolError::new(
            Code::HttpError,
            format!("{url} answered {status} with an invalid Location {location:?}: {why}"),
        )
        .with("status", status),
        Failure::TooLarge { url, limit } => ToolError::too_large(limit, format!("the body of {url} is larger than {limit} bytes (10 MiB) after decoding"))
        .hint("fetch is for pages and documents; download big files with run (curl -o) instead."),
        Failure::Cancelled => ToolError::cancelled("the download"),
    }
}

pub fn blocked(url: &Url, why: &Refusal) -> ToolError {
    blocked_as(url.as_str(), url, why)
}

/// As `blocked`, naming the URL as the caller wrote it (`shown`).
pub fn blocked_as(shown: &str, url: &Url, why: &Refusal) -> ToolError {
    let hint = match why {
        Refusal::Scheme(_) => "fetch reads http and https URLs only; use read for local files.",
        _ => {
            "fetch reaches public hosts only. A user can allow loopback and private addresses with --allow-private (LOOPR_FETCH_ALLOW_PRIVATE=1)."
        }
    };
    ToolError::new(Code::BlockedUrl, format!("{shown} is blocked: {why}"))
        .with("url", url.as_str())
        .hint(hint)
}

fn timed_out(timeout_ms: u64, url: &Url) -> ToolError {
    ToolError::new(
        Code::Timeout,
        format!("fetching {url} took longer than {timeout_ms} ms"),
    )
    .with("timeout_ms", timeout_ms)
    .hint("Retry with a larger timeout_ms (at most 120000), or try later.")
}

fn network(url: &Url, what: String) -> ToolError {
    ToolError::new(Code::NetworkError, format!("fetching {url} failed: {what}"))
        .hint("Check the URL's host name; the host may be down or unreachable from here.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::policy;

    #[test]
    fn failures_map_to_the_contract_codes() {
        let url = Url::parse("http://203.0.113.1/").unwrap();
        let v = policy::classify("10.0.0.1".parse().unwrap()).unwrap();
        let e = to_error(
            Failure::Blocked {
                url: url.clone(),
                why: Refusal::Address(v),
            },
            &url,
            5,
        );
        assert_eq!(e.code, Code::BlockedUrl);
        assert_eq!(e.extra["url"], "http://203.0.113.1/");
        let e = to_error(Failure::Timeout { url: url.clone() }, &url, 5);
        assert_eq!(
            (e.code, e.extra["timeout_ms"].as_u64()),
            (Code::Timeout, Some(5))
        );
        let e = to_error(
            Failure::Network {
                url: url.clone(),
                what: "x".into(),
            },
            &url,
            5,
        );
        assert_eq!(e.code, Code::NetworkError);
        let e = to_error(
            Failure::TooLarge {
                url: url.clone(),
                limit: 9,
            },
            &url,
            5,
        );
        assert_eq!(
            (e.code, e.extra["limit"].as_u64()),
            (Code::TooLarge, Some(9))
        );
    }
}
