//! The download: ureq 3 with rustls and gzip, redirects followed by hand, every address checked
//! after DNS on every hop, and the decoded body capped.
//!
//! Why by hand: each hop's URL must pass the scheme and literal-address checks before anything
//! is sent, the hops are reported in `data.redirects`, and an 11th redirect is `http_error`
//! with that response's status (SPEC 16.7). The resolver check still runs on every connection
//! ureq makes, so a name that resolves to a blocked address is refused before connecting, with
//! no window between the check and the connect (ureq connects to exactly the addresses the
//! resolver returned).

use super::policy::{self, Refusal, Verdict};
use crate::control::Control;
use crate::error::{Code, ToolError};
use std::io::Read;
use std::time::{Duration, Instant};
use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};
use url::Url;

/// SPEC §11: 10 MiB, counted after gzip decoding (ureq's own limit counts compressed bytes).
pub const BODY_LIMIT: u64 = 10 * 1024 * 1024;
pub const MAX_REDIRECTS: usize = 10;
const USER_AGENT: &str = concat!(
    "loopr-tool/",
    env!("CARGO_PKG_VERSION"),
    " (fetch; a coding agent's web reader)"
);
const ACCEPT: &str = "text/html,application/xhtml+xml;q=0.9,text/markdown;q=0.9,text/plain;q=0.8,application/json;q=0.8,application/xml;q=0.7,*/*;q=0.5";

/// The error the resolver returns for a blocked address; found again by downcasting.
#[derive(Debug)]
struct Blocked(Verdict);

impl std::fmt::Display for Blocked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Blocked {}

/// Resolves as ureq would, then refuses the whole answer if any address is blocked: a name
/// with one internal record among public ones is a rebinding attempt, not a host to try.
#[derive(Debug)]
struct Guard {
    inner: DefaultResolver,
    allow_private: bool,
}

impl Resolver for Guard {
    fn resolve(
        &self,
        uri: &Uri,
        config: &Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let addrs = self.inner.resolve(uri, config, timeout)?;
        if !self.allow_private
            && let Some(v) = addrs.iter().find_map(|a| policy::classify(a.ip()))
        {
            return Err(ureq::Error::Other(Box::new(Blocked(v))));
        }
        Ok(addrs)
    }
}

fn agent(allow_private: bool) -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        // Proxy variables would send the request to the proxy and resolve only its name, so
        // the target's addresses would never be checked.
        .proxy(None)
        .max_redirects(0)
        .http_status_as_error(false)
        .max_response_header_size(64 * 1024)
        .user_agent(USER_AGENT)
        .accept(ACCEPT)
        .build();
    let guard = Guard {
        inner: DefaultResolver::default(),
        allow_private,
    };
    ureq::Agent::with_parts(config, DefaultConnector::default(), guard)
}

/// A response after redirects, its body not yet read.
pub struct Opened {
    pub url: Url,
    pub status: u16,
    /// The Content-Type header as sent.
    pub content_type: Option<String>,
    pub redirects: Vec<String>,
    response: ureq::http::Response<ureq::Body>,
    deadline: Instant,
    timeout_ms: u64,
}

/// GETs `start`, following up to 10 redirects, within `timeout_ms` for the whole exchange
/// (redirects and body included).
pub fn open(start: &Url, allow_private: bool, timeout_ms: u64) -> Result<Opened, ToolError> {
    let deadline = Instant::now() + Duration::from_millis(timeout_ms);
    let agent = agent(allow_private);
    let mut url = start.clone();
    url.set_fragment(None);
    let mut redirects: Vec<String> = Vec::new();
    loop {
        policy::check_url(&url, allow_private).map_err(|r| blocked(&url, &r))?;
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(timed_out(timeout_ms, &url));
        }
        let response = agent
            .get(url.as_str())
            .config()
            .timeout_global(Some(left))
            .build()
            .call()
            .map_err(|e| map_error(e, &url, timeout_ms))?;
        let status = response.status().as_u16();
        let location = response
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        if let (true, Some(location)) = (matches!(status, 301 | 302 | 303 | 307 | 308), location) {
            if redirects.len() == MAX_REDIRECTS {
                return Err(ToolError::new(
                    Code::HttpError,
                    format!(
                        "too many redirects: {} answered {status} after {MAX_REDIRECTS} redirects from {start}",
                        url
                    ),
                )
                .with("status", status)
                .hint("The server redirects in a loop or too deep; fetch the final page's URL directly if you know it."));
            }
            let mut next = url.join(&location).map_err(|e| {
                ToolError::new(
                    Code::HttpError,
                    format!("{url} answered {status} with an invalid Location {location:?}: {e}"),
                )
                .with("status", status)
            })?;
            next.set_fragment(None);
            redirects.push(url.to_string());
            url = next;
            continue;
        }
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        return Ok(Opened {
            url,
            status,
            content_type,
            redirects,
            response,
            deadline,
            timeout_ms,
        });
    }
}

impl Opened {
    /// The body, gzip decoded, refused past `limit` decoded bytes (`too_large`). Read in pieces
    /// so a cancel stops the download and the bytes so far are the call's progress.
    pub fn read_body(&mut self, limit: u64, control: &Control) -> Result<Vec<u8>, ToolError> {
        let encoding = self
            .response
            .headers()
            .get("content-encoding")
            .and_then(|v| v.to_str().ok())
            .map(|v| v.trim().to_ascii_lowercase());
        // ureq decodes gzip only; any other coding would reach the model as compressed bytes.
        if let Some(e) = encoding
            .as_deref()
            .filter(|e| !matches!(*e, "" | "gzip" | "x-gzip" | "identity"))
        {
            return Err(network(
                &self.url,
                format!("the body is {e}-encoded, which fetch cannot decode (it asks for gzip)"),
            ));
        }
        let encoded = encoding.is_some();
        if !encoded
            && self
                .response
                .body()
                .content_length()
                .is_some_and(|n| n > limit)
        {
            return Err(too_large(&self.url, limit));
        }
        let mut buf = Vec::new();
        let mut reader = self
            .response
            .body_mut()
            .with_config()
            .limit(u64::MAX)
            .reader()
            .take(limit + 1);
        control.set_message_unit("bytes downloaded");
        let mut piece = vec![0u8; 64 * 1024];
        loop {
            if control.is_cancelled() {
                return Err(ToolError::cancelled("the download"));
            }
            match reader.read(&mut piece) {
                Ok(0) => break,
                Ok(n) => {
                    buf.extend_from_slice(&piece[..n]);
                    control.advance(n as u64);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(map_error(ureq::Error::from(e), &self.url, self.timeout_ms)),
            }
        }
        if buf.len() as u64 > limit {
            return Err(too_large(&self.url, limit));
        }
        if Instant::now() > self.deadline {
            return Err(timed_out(self.timeout_ms, &self.url));
        }
        Ok(buf)
    }

    /// Up to `limit` bytes of the body, for an error page; never an error itself.
    pub fn read_some(&mut self, limit: u64) -> Vec<u8> {
        let mut buf = Vec::new();
        let _ = self
            .response
            .body_mut()
            .with_config()
            .limit(u64::MAX)
            .reader()
            .take(limit)
            .read_to_end(&mut buf);
        buf
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

fn too_large(url: &Url, limit: u64) -> ToolError {
    ToolError::new(
        Code::TooLarge,
        format!("the body of {url} is larger than {limit} bytes (10 MiB) after decoding"),
    )
    .with("limit", limit)
    .hint("fetch is for pages and documents; download big files with run (curl -o) instead.")
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

fn map_error(err: ureq::Error, url: &Url, timeout_ms: u64) -> ToolError {
    use std::io::ErrorKind;
    match err {
        ureq::Error::Other(e) => match e.downcast::<Blocked>() {
            Ok(b) => blocked(url, &Refusal::Address(b.0)),
            Err(e) => network(url, e.to_string()),
        },
        ureq::Error::Timeout(_) => timed_out(timeout_ms, url),
        ureq::Error::Io(e) if matches!(e.kind(), ErrorKind::TimedOut | ErrorKind::WouldBlock) => {
            timed_out(timeout_ms, url)
        }
        ureq::Error::HostNotFound => network(
            url,
            format!(
                "the host name {} could not be resolved",
                url.host_str().unwrap_or("")
            ),
        ),
        ureq::Error::Io(e) if e.kind() == ErrorKind::ConnectionRefused => {
            network(url, "the connection was refused".into())
        }
        ureq::Error::Io(e) if e.kind() == ErrorKind::InvalidData && url.scheme() == "https" => {
            network(url, format!("the TLS handshake failed: {e}"))
        }
        ureq::Error::Io(e) => network(url, e.to_string()),
        ureq::Error::Rustls(e) => network(url, format!("TLS: {e}")),
        ureq::Error::BadUri(e) => ToolError::new(Code::InvalidUrl, format!("{url}: {e}")),
        ureq::Error::Decompress(_, e) => network(url, format!("the gzip body is corrupt: {e}")),
        ureq::Error::LargeResponseHeader(..) => {
            network(url, "the response headers are larger than 64 KiB".into())
        }
        other => network(url, other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(host: &str, allow_private: bool) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let guard = Guard {
            inner: DefaultResolver::default(),
            allow_private,
        };
        let uri: Uri = format!("http://{host}:1/").parse().unwrap();
        let config = Config::default();
        let timeout = NextTimeout {
            reason: ureq::Timeout::Resolve,
            ..NextTimeout::default()
        };
        guard.resolve(&uri, &config, timeout)
    }

    // Resolution only: nothing is connected to. `localhost` is answered from /etc/hosts.
    #[test]
    fn the_resolver_refuses_names_that_resolve_to_blocked_addresses() {
        for host in ["localhost", "127.0.0.1", "[::1]", "2130706433"] {
            match resolve(host, false) {
                Err(ureq::Error::Other(e)) => {
                    let b = e.downcast::<Blocked>().unwrap();
                    assert_eq!(b.0.range, policy::Range::Loopback, "{host}");
                }
                other => panic!("{host}: {other:?}"),
            }
        }
        let ok = resolve("localhost", true).unwrap();
        assert!(ok.iter().all(|a| a.ip().is_loopback()));
        // A documentation address stands in for a public host: it resolves and passes.
        let ok = resolve("203.0.113.1", false).unwrap();
        assert_eq!(ok[0].ip().to_string(), "203.0.113.1");
    }

    #[test]
    fn errors_map_to_the_contract_codes() {
        let url = Url::parse("http://203.0.113.1/").unwrap();
        let v = policy::classify("10.0.0.1".parse().unwrap()).unwrap();
        let e = map_error(ureq::Error::Other(Box::new(Blocked(v))), &url, 5);
        assert_eq!(e.code, Code::BlockedUrl);
        assert_eq!(e.extra["url"], "http://203.0.113.1/");
        let e = map_error(ureq::Error::Timeout(ureq::Timeout::Global), &url, 5);
        assert_eq!(
            (e.code, e.extra["timeout_ms"].as_u64()),
            (Code::Timeout, Some(5))
        );
        let e = map_error(ureq::Error::HostNotFound, &url, 5);
        assert_eq!(e.code, Code::NetworkError);
        // A timeout raised while reading the body arrives wrapped in an io::Error.
        let wrapped = ureq::Error::Timeout(ureq::Timeout::RecvBody).into_io();
        let e = map_error(ureq::Error::from(wrapped), &url, 5);
        assert_eq!(e.code, Code::Timeout);
    }
}
