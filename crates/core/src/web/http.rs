//! The HTTP exchange fetch and search share: ureq 3 with rustls and gzip, no proxies, redirects
//! followed by hand, every address checked after DNS on every hop when the policy asks for it,
//! and the decoded body capped.
//!
//! Why redirects by hand: each hop's URL must pass the scheme and literal-address checks before
//! anything is sent, fetch reports the hops in `data.redirects`, an 11th redirect is an error
//! with that response's status (SPEC 16.7), and a request that carries a search provider's key
//! must never be forwarded to another origin. The resolver check runs on every connection ureq
//! makes, so a name that resolves to a blocked address is refused before connecting, with no
//! window between the check and the connect (ureq connects to exactly the addresses the
//! resolver returned).
//!
//! Failures come back typed (`Failure`): each tool words them for its own reader (fetch names
//! the page, search the provider).

use super::policy::{self, Refusal, Verdict};
use crate::control::Control;
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

/// Which addresses a request may reach, and where its redirects may lead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// A URL a model chose (fetch): SPEC §11's address policy on every hop unless private
    /// addresses are allowed; redirects may lead anywhere the policy allows.
    Guarded { allow_private: bool },
    /// An address the user configured (a search provider, SPEC §21): any address, so a SearXNG
    /// on the LAN works; redirects only within the same origin, because the request may carry
    /// the user's key.
    Trusted,
}

impl Reach {
    fn allow_private(self) -> bool {
        match self {
            Reach::Guarded { allow_private } => allow_private,
            Reach::Trusted => true,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
}

/// One request: the first hop's URL, its headers and body.
pub struct Request {
    pub method: Method,
    pub url: Url,
    /// Sent on every hop, in order (User-Agent and Accept included: each tool names itself).
    pub headers: Vec<(&'static str, String)>,
    /// A POST's body; its type goes in `headers`.
    pub body: Vec<u8>,
}

impl Request {
    pub fn get(url: Url) -> Request {
        Request {
            method: Method::Get,
            url,
            headers: vec![],
            body: vec![],
        }
    }

    pub fn header(mut self, name: &'static str, value: impl Into<String>) -> Request {
        self.headers.push((name, value.into()));
        self
    }
}

/// What went wrong, before a response or while reading its body. `url` is the hop at fault.
#[derive(Debug)]
pub enum Failure {
    /// The policy refused the hop's URL or an address its name resolved to (Guarded only).
    Blocked { url: Url, why: Refusal },
    /// The time limit ran out.
    Timeout { url: Url },
    /// Connecting, TLS, reading or decoding failed.
    Network { url: Url, what: String },
    /// The URL cannot be requested at all (ureq refused it).
    BadUri { url: Url, what: String },
    /// More than MAX_REDIRECTS redirects; `status` is the last response's.
    TooManyRedirects { url: Url, status: u16 },
    /// A redirect whose Location is not a URL, or (Trusted) leads to another origin.
    BadRedirect {
        url: Url,
        status: u16,
        location: String,
        why: String,
    },
    /// The decoded body is larger than the limit asked for.
    TooLarge { url: Url, limit: u64 },
    /// The client cancelled the call (SPEC 22.1).
    Cancelled,
}

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

fn agent(reach: Reach) -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        // Proxy variables would send the request to the proxy and resolve only its name, so
        // the target's addresses would never be checked; one rule for both tools keeps the
        // network path predictable.
        .proxy(None)
        .max_redirects(0)
        .http_status_as_error(false)
        .max_response_header_size(64 * 1024)
        .build();
    let guard = Guard {
        inner: DefaultResolver::default(),
        allow_private: reach.allow_private(),
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
}

/// Sends `req`, following up to 10 redirects (a 301/302/303 after a POST becomes a GET, as
/// browsers do), within `timeout_ms` for the whole exchange (redirects and body included).
pub fn open(req: Request, reach: Reach, timeout_ms: u64) -> Result<Opened, Failure> {
    let deadline = Instant::now() + Duration::from_millis(timeout_ms);
    let agent = agent(reach);
    let Request {
        mut method,
        mut url,
        headers,
        mut body,
    } = req;
    url.set_fragment(None);
    let origin = url.origin();
    let mut redirects: Vec<String> = Vec::new();
    loop {
        if let Err(why) = check(&url, reach) {
            return Err(Failure::Blocked { url, why });
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Failure::Timeout { url });
        }
        let sent = match method {
            Method::Get => {
                let mut b = agent.get(url.as_str());
                for (k, v) in &headers {
                    b = b.header(*k, v.as_str());
                }
                b.config().timeout_global(Some(left)).build().call()
            }
            Method::Post => {
                let mut b = agent.post(url.as_str());
                for (k, v) in &headers {
                    b = b.header(*k, v.as_str());
                }
                b.config()
                    .timeout_global(Some(left))
                    .build()
                    .send(&body[..])
            }
        };
        let response = sent.map_err(|e| failure(e, &url))?;
        let status = response.status().as_u16();
        let location = response
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        if let (true, Some(location)) = (matches!(status, 301 | 302 | 303 | 307 | 308), location) {
            if redirects.len() == MAX_REDIRECTS {
                return Err(Failure::TooManyRedirects { url, status });
            }
            let mut next = match url.join(&location) {
                Ok(n) => n,
                Err(e) => {
                    return Err(Failure::BadRedirect {
                        url,
                        status,
                        location,
                        why: e.to_string(),
                    });
                }
            };
            next.set_fragment(None);
            if reach == Reach::Trusted && next.origin() != origin {
                return Err(Failure::BadRedirect {
                    url,
                    status,
                    location,
                    why: format!(
                        "it leads to another site ({}), where the request's credentials must not go",
                        next.origin().ascii_serialization()
                    ),
                });
            }
            if method == Method::Post && (301..=303).contains(&status) {
                method = Method::Get;
                body.clear();
            }
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
        });
    }
}

/// The scheme check for every request; the literal-address check when guarded.
fn check(url: &Url, reach: Reach) -> Result<(), Refusal> {
    match reach {
        Reach::Guarded { allow_private } => policy::check_url(url, allow_private),
        Reach::Trusted => policy::check_url(url, true),
    }
}

impl Opened {
    /// A response header's value, when it is text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
    }

    /// The body, gzip decoded, refused past `limit` decoded bytes. Read in pieces so a cancel
    /// stops the download and the bytes so far are the call's progress.
    pub fn read_body(&mut self, limit: u64, control: &Control) -> Result<Vec<u8>, Failure> {
        let encoding = self
            .header("content-encoding")
            .map(|v| v.trim().to_ascii_lowercase());
        // ureq decodes gzip only; any other coding would reach the model as compressed bytes.
        if let Some(e) = encoding
            .as_deref()
            .filter(|e| !matches!(*e, "" | "gzip" | "x-gzip" | "identity"))
        {
            return Err(Failure::Network {
                url: self.url.clone(),
                what: format!(
                    "the body is {e}-encoded, which cannot be decoded (gzip is asked for)"
                ),
            });
        }
        let too_large = |url: &Url| Failure::TooLarge {
            url: url.clone(),
            limit,
        };
        if encoding.is_none()
            && self
                .response
                .body()
                .content_length()
                .is_some_and(|n| n > limit)
        {
            return Err(too_large(&self.url));
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
                return Err(Failure::Cancelled);
            }
            match reader.read(&mut piece) {
                Ok(0) => break,
                Ok(n) => {
                    buf.extend_from_slice(&piece[..n]);
                    control.advance(n as u64);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(failure(ureq::Error::from(e), &self.url)),
            }
        }
        if buf.len() as u64 > limit {
            return Err(too_large(&self.url));
        }
        if Instant::now() > self.deadline {
            return Err(Failure::Timeout {
                url: self.url.clone(),
            });
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

/// A ureq error on `url`, as a Failure.
fn failure(err: ureq::Error, url: &Url) -> Failure {
    use std::io::ErrorKind;
    let network = |what: String| Failure::Network {
        url: url.clone(),
        what,
    };
    match err {
        ureq::Error::Other(e) => match e.downcast::<Blocked>() {
            Ok(b) => Failure::Blocked {
                url: url.clone(),
                why: Refusal::Address(b.0),
            },
            Err(e) => network(e.to_string()),
        },
        ureq::Error::Timeout(_) => Failure::Timeout { url: url.clone() },
        ureq::Error::Io(e) if matches!(e.kind(), ErrorKind::TimedOut | ErrorKind::WouldBlock) => {
            Failure::Timeout { url: url.clone() }
        }
        ureq::Error::HostNotFound => network(format!(
            "the host name {} could not be resolved",
            url.host_str().unwrap_or("")
        )),
        ureq::Error::Io(e) if e.kind() == ErrorKind::ConnectionRefused => {
            network("the connection was refused".into())
        }
        ureq::Error::Io(e) if e.kind() == ErrorKind::InvalidData && url.scheme() == "https" => {
            network(format!("the TLS handshake failed: {e}"))
        }
        ureq::Error::Io(e) => network(e.to_string()),
        ureq::Error::Rustls(e) => network(format!("TLS: {e}")),
        ureq::Error::BadUri(e) => Failure::BadUri {
            url: url.clone(),
            what: e.to_string(),
        },
        ureq::Error::Decompress(_, e) => network(format!("the gzip body is corrupt: {e}")),
        ureq::Error::LargeResponseHeader(..) => {
            network("the response headers are larger than 64 KiB".into())
        }
        other => network(other.to_string()),
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
    fn errors_map_to_failures() {
        let url = Url::parse("http://203.0.113.1/").unwrap();
        let v = policy::classify("10.0.0.1".parse().unwrap()).unwrap();
        match failure(ureq::Error::Other(Box::new(Blocked(v))), &url) {
            Failure::Blocked { url: u, .. } => assert_eq!(u.as_str(), "http://203.0.113.1/"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            failure(ureq::Error::Timeout(ureq::Timeout::Global), &url),
            Failure::Timeout { .. }
        ));
        assert!(matches!(
            failure(ureq::Error::HostNotFound, &url),
            Failure::Network { .. }
        ));
        // A timeout raised while reading the body arrives wrapped in an io::Error.
        let wrapped = ureq::Error::Timeout(ureq::Timeout::RecvBody).into_io();
        assert!(matches!(
            failure(ureq::Error::from(wrapped), &url),
            Failure::Timeout { .. }
        ));
    }

    #[test]
    fn trusted_reach_checks_only_the_scheme() {
        let lan = Url::parse("http://192.168.1.5:8080/search").unwrap();
        assert!(check(&lan, Reach::Trusted).is_ok());
        assert!(
            check(
                &lan,
                Reach::Guarded {
                    allow_private: false
                }
            )
            .is_err()
        );
        let file = Url::parse("file:///etc/passwd").unwrap();
        assert!(check(&file, Reach::Trusted).is_err());
    }
}
