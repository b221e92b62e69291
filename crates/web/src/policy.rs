//! The address policy (SPEC §11, 16.7): which URLs fetch may reach without `--allow-private`.
//!
//! Pure functions only, so the whole matrix is unit-tested without a socket. The same
//! `classify` runs twice: on a host written as an address (before anything is sent), and on
//! every address DNS returns, in the resolver, on every redirect hop (http.rs).
//!
//! The block list is exactly SPEC §11's ranges. An IPv6 address that carries an IPv4 one
//! (mapped, compatible, translated, NAT64, 6to4, Teredo) is judged by the IPv4 address it
//! carries, because that is where a dual-stack socket or a translator delivers the packets.
//! Documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24) are not blocked.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use url::{Host, Url};

/// A blocked range, named the way the message names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    Loopback,
    Private,
    LinkLocal,
    Unspecified,
    Multicast,
    Broadcast,
    Cgnat,
    UniqueLocal,
}

impl Range {
    pub fn describe(self) -> &'static str {
        match self {
            Range::Loopback => "a loopback address (127.0.0.0/8, ::1)",
            Range::Private => "a private address (RFC 1918: 10/8, 172.16/12, 192.168/16)",
            Range::LinkLocal => {
                "a link-local address (169.254/16 — where cloud metadata services live — or fe80::/10)"
            }
            Range::Unspecified => "an unspecified address (0.0.0.0/8, ::), which reaches this host",
            Range::Multicast => "a multicast address (224/4, ff00::/8)",
            Range::Broadcast => "the broadcast address (255.255.255.255)",
            Range::Cgnat => "a carrier-grade NAT address (100.64/10)",
            Range::UniqueLocal => "a unique local IPv6 address (fc00::/7)",
        }
    }
}

/// Why an address is refused: its range, and the IPv4 address it carries when that decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    pub ip: IpAddr,
    pub range: Range,
    pub embedded: Option<Ipv4Addr>,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.embedded {
            Some(v4) => write!(
                f,
                "{} carries the IPv4 address {v4}, {}",
                self.ip,
                self.range.describe()
            ),
            None => write!(f, "{} is {}", self.ip, self.range.describe()),
        }
    }
}

/// `Some` when fetch must not connect to `ip` (unless private addresses are allowed).
pub fn classify(ip: IpAddr) -> Option<Verdict> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4).map(|range| Verdict {
            ip,
            range,
            embedded: None,
        }),
        IpAddr::V6(v6) => classify_v6(v6).map(|(range, embedded)| Verdict {
            ip,
            range,
            embedded,
        }),
    }
}

fn classify_v4(ip: Ipv4Addr) -> Option<Range> {
    let o = ip.octets();
    Some(match o {
        // 0/8 is "this network": Linux delivers 0.0.0.0 to the local host.
        [0, ..] => Range::Unspecified,
        [127, ..] => Range::Loopback,
        [10, ..] | [192, 168, ..] => Range::Private,
        [172, b, ..] if (16..=31).contains(&b) => Range::Private,
        [169, 254, ..] => Range::LinkLocal,
        [100, b, ..] if (64..=127).contains(&b) => Range::Cgnat,
        [224..=239, ..] => Range::Multicast,
        [255, 255, 255, 255] => Range::Broadcast,
        _ => return None,
    })
}

fn classify_v6(ip: Ipv6Addr) -> Option<(Range, Option<Ipv4Addr>)> {
    let s = ip.segments();
    if ip.is_unspecified() {
        return Some((Range::Unspecified, None));
    }
    if ip.is_loopback() {
        return Some((Range::Loopback, None));
    }
    if s[0] & 0xfe00 == 0xfc00 {
        return Some((Range::UniqueLocal, None));
    }
    if s[0] & 0xffc0 == 0xfe80 {
        return Some((Range::LinkLocal, None));
    }
    if s[0] & 0xff00 == 0xff00 {
        return Some((Range::Multicast, None));
    }
    embedded_v4(ip)
        .into_iter()
        .find_map(|v4| classify_v4(v4).map(|r| (r, Some(v4))))
}

/// The IPv4 addresses an IPv6 address carries, by the transition mechanisms that deliver to them.
fn embedded_v4(ip: Ipv6Addr) -> Vec<Ipv4Addr> {
    let s = ip.segments();
    let tail = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    let mut out = Vec::new();
    match s {
        // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated but still parsed)
        [0, 0, 0, 0, 0, 0xffff, _, _] | [0, 0, 0, 0, 0, 0, _, _] => out.push(tail),
        // ::ffff:0:a.b.c.d (RFC 2765 translated)
        [0, 0, 0, 0, 0xffff, 0, _, _] => out.push(tail),
        // 64:ff9b::a.b.c.d (NAT64 well-known prefix, RFC 6052)
        [0x64, 0xff9b, 0, 0, 0, 0, _, _] => out.push(tail),
        // 2002:AABB:CCDD::/48 (6to4): the relay delivers to a.b.c.d
        [0x2002, hi, lo, ..] => out.push(Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo))),
        // 2001:0:SERVER:...:~CLIENT (Teredo): the client address is stored inverted
        [0x2001, 0, hi, lo, ..] => {
            out.push(Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo)));
            out.push(Ipv4Addr::from(!u32::from(tail)));
        }
        _ => {}
    }
    out
}

/// Why `url` may not be fetched, before anything is resolved or sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not http or https.
    Scheme(String),
    /// A host written as a blocked address.
    Address(Verdict),
    /// A name that means this host whatever DNS says (RFC 6761: `localhost`, `*.localhost`).
    LocalName(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Scheme(s) => write!(f, "the scheme {s}: is not allowed (only http and https)"),
            Refusal::Address(v) => write!(f, "{v}"),
            Refusal::LocalName(h) => {
                write!(
                    f,
                    "{h} always names this host, {}",
                    Range::Loopback.describe()
                )
            }
        }
    }
}

/// The checks that need no DNS: the scheme always, and the host unless private addresses are
/// allowed. The `url` crate has already turned `2130706433`, `0x7f.1`, `0177.1` and `0` into
/// the addresses they spell, and the request is sent to that serialisation, so what is checked
/// here is what would be connected to.
pub fn check_url(url: &Url, allow_private: bool) -> Result<(), Refusal> {
    let scheme = url.scheme();
    if scheme != "http" && scheme != "https" {
        return Err(Refusal::Scheme(scheme.to_string()));
    }
    if allow_private {
        return Ok(());
    }
    match url.host() {
        Some(Host::Ipv4(v4)) => {
            classify(IpAddr::V4(v4)).map_or(Ok(()), |v| Err(Refusal::Address(v)))
        }
        Some(Host::Ipv6(v6)) => {
            classify(IpAddr::V6(v6)).map_or(Ok(()), |v| Err(Refusal::Address(v)))
        }
        Some(Host::Domain(d)) => {
            let name = d.trim_end_matches('.').to_ascii_lowercase();
            if name == "localhost" || name.ends_with(".localhost") {
                Err(Refusal::LocalName(d.to_string()))
            } else {
                Ok(())
            }
        }
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4(s: &str) -> Option<Range> {
        classify(s.parse().unwrap()).map(|v| v.range)
    }

    #[test]
    fn ipv4_matrix() {
        let cases: &[(&str, Option<Range>)] = &[
            ("0.0.0.0", Some(Range::Unspecified)),
            ("0.1.2.3", Some(Range::Unspecified)),
            ("127.0.0.1", Some(Range::Loopback)),
            ("127.255.255.254", Some(Range::Loopback)),
            ("10.0.0.1", Some(Range::Private)),
            ("10.255.255.255", Some(Range::Private)),
            ("172.16.0.1", Some(Range::Private)),
            ("172.31.255.255", Some(Range::Private)),
            ("172.15.255.255", None),
            ("172.32.0.0", None),
            ("192.168.0.1", Some(Range::Private)),
            ("192.169.0.1", None),
            ("169.254.169.254", Some(Range::LinkLocal)),
            ("169.254.0.1", Some(Range::LinkLocal)),
            ("169.253.255.255", None),
            ("100.64.0.1", Some(Range::Cgnat)),
            ("100.127.255.255", Some(Range::Cgnat)),
            ("100.63.255.255", None),
            ("100.128.0.0", None),
            ("224.0.0.1", Some(Range::Multicast)),
            ("239.255.255.250", Some(Range::Multicast)),
            ("255.255.255.255", Some(Range::Broadcast)),
            // Not in SPEC §11's list: documentation ranges stand in for public hosts in tests.
            ("192.0.2.1", None),
            ("198.51.100.7", None),
            ("203.0.113.1", None),
            ("8.8.8.8", None),
            ("1.1.1.1", None),
            ("93.184.215.14", None),
        ];
        for (ip, want) in cases {
            assert_eq!(v4(ip), *want, "{ip}");
        }
    }

    #[test]
    fn ipv6_matrix() {
        let cases: &[(&str, Option<Range>, Option<&str>)] = &[
            ("::1", Some(Range::Loopback), None),
            ("::", Some(Range::Unspecified), None),
            ("fc00::1", Some(Range::UniqueLocal), None),
            ("fd12:3456:789a::1", Some(Range::UniqueLocal), None),
            ("fe80::1", Some(Range::LinkLocal), None),
            ("febf::1", Some(Range::LinkLocal), None),
            ("ff02::1", Some(Range::Multicast), None),
            ("ff05::1:3", Some(Range::Multicast), None),
            // IPv4-mapped
            ("::ffff:127.0.0.1", Some(Range::Loopback), Some("127.0.0.1")),
            ("::ffff:7f00:1", Some(Range::Loopback), Some("127.0.0.1")),
            ("::ffff:10.1.2.3", Some(Range::Private), Some("10.1.2.3")),
            (
                "::ffff:169.254.169.254",
                Some(Range::LinkLocal),
                Some("169.254.169.254"),
            ),
            ("::ffff:100.64.0.1", Some(Range::Cgnat), Some("100.64.0.1")),
            ("::ffff:0.0.0.0", Some(Range::Unspecified), Some("0.0.0.0")),
            (
                "::ffff:255.255.255.255",
                Some(Range::Broadcast),
                Some("255.255.255.255"),
            ),
            (
                "::ffff:224.0.0.1",
                Some(Range::Multicast),
                Some("224.0.0.1"),
            ),
            ("::ffff:8.8.8.8", None, None),
            ("::ffff:203.0.113.1", None, None),
            // IPv4-compatible and translated
            ("::127.0.0.1", Some(Range::Loopback), Some("127.0.0.1")),
            ("::192.168.1.1", Some(Range::Private), Some("192.168.1.1")),
            (
                "::ffff:0:127.0.0.1",
                Some(Range::Loopback),
                Some("127.0.0.1"),
            ),
            // NAT64
            (
                "64:ff9b::127.0.0.1",
                Some(Range::Loopback),
                Some("127.0.0.1"),
            ),
            (
                "64:ff9b::a9fe:a9fe",
                Some(Range::LinkLocal),
                Some("169.254.169.254"),
            ),
            ("64:ff9b::8.8.8.8", None, None),
            // 6to4
            ("2002:7f00:1::", Some(Range::Loopback), Some("127.0.0.1")),
            ("2002:a00:1::1", Some(Range::Private), Some("10.0.0.1")),
            ("2002:cb00:7101::1", None, None),
            // Teredo: server 127.0.0.1, or client 192.168.0.1 stored inverted
            ("2001:0:7f00:1::", Some(Range::Loopback), Some("127.0.0.1")),
            (
                "2001:0:cb00:7101::3f57:fffe",
                Some(Range::Private),
                Some("192.168.0.1"),
            ),
            // public and documentation
            ("2001:db8::1", None, None),
            ("2606:4700:4700::1111", None, None),
            ("2a00:1450:4001:80b::200e", None, None),
        ];
        for (ip, want, carried) in cases {
            let got = classify(ip.parse().unwrap());
            assert_eq!(got.map(|v| v.range), *want, "{ip}");
            assert_eq!(
                got.and_then(|v| v.embedded),
                carried.map(|c| c.parse().unwrap()),
                "{ip}"
            );
        }
    }

    fn refused(u: &str) -> Option<Refusal> {
        check_url(&Url::parse(u).unwrap(), false).err()
    }

    #[test]
    fn numeric_host_spellings_parse_to_the_address_they_mean() {
        for u in [
            "http://2130706433/",
            "http://0x7f.1/",
            "http://0x7f000001/",
            "http://0177.0.0.1/",
            "http://017700000001/",
            "http://127.1/",
            "http://127.0.1/",
            "http://127.000.000.001/",
            "http://127.0.0.%31/",
            "http://[::ffff:127.0.0.1]/",
            "http://[::ffff:7f00:1]/",
            "http://[::1]/",
            "http://[0:0:0:0:0:0:0:1]/",
            "http://[::127.0.0.1]/",
            "https://127.0.0.1:8443/x",
        ] {
            match refused(u) {
                Some(Refusal::Address(v)) => assert_eq!(v.range, Range::Loopback, "{u}"),
                other => panic!("{u}: {other:?}"),
            }
        }
        for (u, range) in [
            ("http://0/", Range::Unspecified),
            ("http://0.0.0.0/", Range::Unspecified),
            ("http://[::]/", Range::Unspecified),
            ("http://169.254.169.254/latest/meta-data/", Range::LinkLocal),
            ("http://2852039166/", Range::LinkLocal),
            ("http://0xa9.0xfe.0xa9.0xfe/", Range::LinkLocal),
            ("http://[fe80::1]/", Range::LinkLocal),
            ("http://10.0.0.1/", Range::Private),
            ("http://167772161/", Range::Private),
            ("http://172.16.0.1/", Range::Private),
            ("http://192.168.1.1/", Range::Private),
            ("http://100.64.0.1/", Range::Cgnat),
            ("http://224.0.0.1/", Range::Multicast),
            ("http://[ff02::1]/", Range::Multicast),
            ("http://255.255.255.255/", Range::Broadcast),
            ("http://[fd00::1]/", Range::UniqueLocal),
        ] {
            match refused(u) {
                Some(Refusal::Address(v)) => assert_eq!(v.range, range, "{u}"),
                other => panic!("{u}: {other:?}"),
            }
        }
    }

    #[test]
    fn names_of_this_host_and_schemes() {
        for u in [
            "http://localhost/",
            "http://LOCALHOST:8080/",
            "http://localhost./",
            "http://api.localhost/",
        ] {
            assert!(matches!(refused(u), Some(Refusal::LocalName(_))), "{u}");
        }
        for u in [
            "file:///etc/passwd",
            "ftp://example.com/",
            "gopher://example.com/",
            "javascript:alert(1)",
            "data:text/plain,hi",
        ] {
            assert!(matches!(refused(u), Some(Refusal::Scheme(_))), "{u}");
        }
        // The scheme rule holds with --allow-private too; the address rules do not.
        let file = Url::parse("file:///etc/passwd").unwrap();
        assert!(check_url(&file, true).is_err());
        for u in [
            "http://127.0.0.1/",
            "http://localhost/",
            "http://[::1]/",
            "http://10.0.0.1/",
        ] {
            assert_eq!(check_url(&Url::parse(u).unwrap(), true), Ok(()), "{u}");
        }
    }

    #[test]
    fn public_names_and_addresses_pass_before_dns() {
        for u in [
            "https://example.com/",
            "http://203.0.113.1:8080/",
            "http://192.0.2.10/",
            "http://198.51.100.1/",
            "http://[2001:db8::1]/",
            "http://localhost.example.com/",
            "http://notlocalhost/",
        ] {
            assert_eq!(refused(u), None, "{u}");
        }
    }

    #[test]
    fn messages_name_the_address_and_the_range() {
        let v = classify("169.254.169.254".parse().unwrap()).unwrap();
        assert!(
            v.to_string()
                .contains("169.254.169.254 is a link-local address"),
            "{v}"
        );
        assert!(v.to_string().contains("cloud metadata"), "{v}");
        let v = classify("::ffff:10.0.0.1".parse().unwrap()).unwrap();
        assert_eq!(
            v.to_string(),
            format!(
                "::ffff:10.0.0.1 carries the IPv4 address 10.0.0.1, {}",
                Range::Private.describe()
            )
        );
    }
}
