//! search's wording of what went wrong (SPEC §3, §21): each message names the provider, a rate
//! limit says when to retry, and nothing a provider says is quoted with the key in it.

use super::provider::{Chosen, Provider};
use super::{brave, clean, searxng, tavily};
use crate::error::{Code, ToolError};
use crate::web::http::Failure;

/// Every error names the provider and holds neither its key nor its address's userinfo.
fn named(e: ToolError, chosen: &Chosen) -> ToolError {
    chosen.scrub_error(e.with("provider", chosen.provider.name()))
}

/// A failure before a response or while reading its body.
pub fn to_error(f: Failure, chosen: &Chosen, timeout_ms: u64) -> ToolError {
    let who = chosen.provider.title();
    let unreachable_hint = match chosen.provider {
        Provider::Searxng => {
            "Check that the SearXNG instance is running and that SEARXNG_URL (or LOOPR_SEARCH_ENDPOINT) names it."
        }
        _ => {
            "Check the network (and LOOPR_SEARCH_ENDPOINT if set); the provider may be down: try again later."
        }
    };
    let e = match f {
        Failure::Timeout { url } => ToolError::new(
            Code::Timeout,
            format!("searching with {who} ({url}) took longer than {timeout_ms} ms"),
        )
        .with("timeout_ms", timeout_ms)
        .hint("Retry with a larger timeout_ms (at most 120000), or try later."),
        Failure::Network { url, what } | Failure::BadUri { url, what } => ToolError::new(
            Code::NetworkError,
            format!("{who} at {url} could not be reached: {what}"),
        )
        .hint(unreachable_hint),
        Failure::Blocked { url, why } => ToolError::new(
            Code::NetworkError,
            format!("{who} at {url} could not be reached: {why}"),
        )
        .hint(unreachable_hint),
        Failure::TooManyRedirects { url, status } => ToolError::new(
            Code::HttpError,
            format!("{who} at {url} answered {status} after too many redirects"),
        )
        .with("status", status)
        .hint("Check the provider's address (LOOPR_SEARCH_ENDPOINT, SEARXNG_URL): it redirects in a loop."),
        Failure::BadRedirect {
            url,
            status,
            location,
            why,
        } => ToolError::new(
            Code::HttpError,
            format!("{who} at {url} answered {status}, redirecting to {location:?}, which search does not follow: {why}"),
        )
        .with("status", status)
        .hint("Give the provider's final address in LOOPR_SEARCH_ENDPOINT (or SEARXNG_URL)."),
        Failure::TooLarge { url, limit } => ToolError::too_large(limit, format!("{who} at {url} sent more than {limit} bytes: not a search answer"))
        .hint("Check the provider's address (LOOPR_SEARCH_ENDPOINT, SEARXNG_URL)."),
        Failure::Cancelled => ToolError::cancelled("the search"),
    };
    named(e, chosen)
}

/// A status of 400 or more from the provider. `retry_after` is what the response said about
/// when to come back, in seconds.
pub fn status_error(
    chosen: &Chosen,
    status: u16,
    body: &str,
    retry_after: Option<u64>,
) -> ToolError {
    let who = chosen.provider.title();
    let reason = ureq::http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .map(|r| format!(" {r}"))
        .unwrap_or_default();
    let detail = match chosen.provider {
        Provider::Brave => brave::error_detail(body),
        Provider::Tavily => tavily::error_detail(body),
        Provider::Searxng => searxng::error_detail(body),
        Provider::DuckDuckGo => None,
    }
    .unwrap_or_else(|| clean::cut(&page_text(body), clean::MAX_CHARS));
    let detail = chosen.scrub(&detail);
    let mut message = format!("{who} answered HTTP {status}{reason}");
    if !detail.is_empty() {
        message.push_str(": ");
        message.push_str(&detail);
    }
    let key_var = chosen.provider.key_var().unwrap_or("the API key");
    let hint = match (status, chosen.provider) {
        (429, _) => match retry_after {
            Some(s) => {
                message.push_str(&format!(" (rate limited: retry in {s} s)"));
                format!("Wait {s} s before searching again.")
            }
            None => {
                message.push_str(" (rate limited)");
                "The provider did not say when to retry: wait a minute before searching again."
                    .to_string()
            }
        },
        (401 | 403, Provider::Brave | Provider::Tavily) => format!(
            "The API key was refused: check {key_var} (or the catalog's [search] api_key)."
        ),
        (403, Provider::Searxng) => "The instance refuses the JSON format: enable it in its settings.yml (search: formats: [html, json]), or use another instance.".to_string(),
        (403, Provider::DuckDuckGo) => "DuckDuckGo refused this client: wait a few minutes, or configure another provider (BRAVE_API_KEY, TAVILY_API_KEY, or SearXNG).".to_string(),
        (432 | 433, Provider::Tavily) => {
            "The Tavily plan's usage limit is reached: raise it on the Tavily dashboard.".to_string()
        }
        (400 | 422, _) => "The provider refused the query: shorten or simplify it.".to_string(),
        (500.., _) => "The provider failed: try again later.".to_string(),
        _ => "Check the provider's address (LOOPR_SEARCH_ENDPOINT, SEARXNG_URL).".to_string(),
    };
    let mut e = ToolError::new(Code::HttpError, message)
        .with("status", status)
        .hint(hint);
    if let (429, Some(s)) = (status, retry_after) {
        e = e.with("retry_after_s", s);
    }
    named(e, chosen)
}

/// An error body as one line of text: an HTML page's body text, else the text with any tags
/// stripped.
fn page_text(body: &str) -> String {
    let head = body[..body.len().min(512)].to_ascii_lowercase();
    if ["<!doctype", "<html", "<body", "<head"]
        .iter()
        .any(|t| head.contains(t))
    {
        let doc = scraper::Html::parse_document(body);
        let sel = scraper::Selector::parse("body").expect("a fixed selector parses");
        if let Some(b) = doc.select(&sel).next() {
            return clean::one_line(&b.text().collect::<String>());
        }
    }
    clean::from_markup(body)
}

/// A 2xx answer that holds no results search can read.
pub fn unusable(chosen: &Chosen, content_type: &str, why: &str, hint: Option<&str>) -> ToolError {
    let e = ToolError::new(
        Code::UnsupportedContent,
        format!(
            "{} answered, but not with results search can read: {why}",
            chosen.provider.title()
        ),
    )
    .with("content_type", content_type)
    .hint(hint.unwrap_or(
        "The provider's answer format may have changed, or the address is not the provider's: check LOOPR_SEARCH_ENDPOINT / SEARXNG_URL, or configure another provider.",
    ));
    named(e, chosen)
}

/// `Retry-After` (seconds, or an HTTP date) as seconds from `now` (Unix seconds).
pub fn retry_after(value: &str, now: u64) -> Option<u64> {
    let v = value.trim();
    if let Ok(s) = v.parse::<u64>() {
        return Some(s);
    }
    http_date(v).map(|t| t.saturating_sub(now))
}

/// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 5.6.7) as Unix seconds.
fn http_date(s: &str) -> Option<u64> {
    let (_, rest) = s.split_once(", ")?;
    let mut it = rest.split_whitespace();
    let day: u64 = it.next()?.parse().ok()?;
    let month = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    .iter()
    .position(|m| Some(*m) == it.clone().next())? as u64
        + 1;
    it.next();
    let year: i64 = it.next()?.parse().ok()?;
    let mut hms = it.next()?.split(':').map(|p| p.parse::<u64>().ok());
    let (h, m, sec) = (hms.next()??, hms.next()??, hms.next()??);
    if it.next()? != "GMT" || !(1..=31).contains(&day) || h > 23 || m > 59 || sec > 60 {
        return None;
    }
    // Days from 1970-01-01 to year-month-day (Howard Hinnant's days_from_civil).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400)
        .ok()
        .map(|d| d + h * 3600 + m * 60 + sec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_in_seconds_or_as_a_date() {
        assert_eq!(retry_after("120", 0), Some(120));
        assert_eq!(
            http_date("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(784_111_777)
        );
        assert_eq!(http_date("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            http_date("Tue, 29 Feb 2028 12:00:00 GMT"),
            Some(1_835_438_400)
        );
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:50:37 GMT", 784_111_777),
            Some(60)
        );
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_999),
            Some(0)
        );
        assert_eq!(retry_after("soon", 0), None);
        assert_eq!(http_date("Sun, 06 Nov 1994 08:49:37 PST"), None);
    }
}
