//! What a body is and how to read it as text (SPEC §11, 16.7): HTML is converted, JSON, XML and
//! `text/*` are returned as text, a missing type is sniffed, anything else is refused; the
//! charset comes from a BOM, then the header, then an HTML `<meta>`, then the bytes themselves.

use encoding_rs::Encoding;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Html,
    Text,
}

/// The MIME type without parameters, lower-cased: `Text/HTML; charset=x` → `text/html`.
pub fn essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// The `charset` parameter of a Content-Type header.
pub fn charset_param(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches(['"', '\'']).to_string())
    })
}

/// How a declared type is handled; `None` is `unsupported_content`.
pub fn kind_of(essence: &str) -> Option<Kind> {
    let (top, sub) = essence.split_once('/')?;
    match (top, sub) {
        ("text", "html") | ("application", "xhtml+xml") => Some(Kind::Html),
        ("text", _) => Some(Kind::Text),
        ("application", s)
            if s.ends_with("+json") || s.ends_with("+xml") || TEXT_APPLICATION.contains(&s) =>
        {
            Some(Kind::Text)
        }
        _ => None,
    }
}

/// `application/…` types that are text by definition (JSON, XML and their kin; scripts and
/// configuration formats a coding agent reads).
const TEXT_APPLICATION: &[&str] = &[
    "json",
    "xml",
    "x-ndjson",
    "jsonl",
    "ld+json",
    "javascript",
    "x-javascript",
    "ecmascript",
    "yaml",
    "x-yaml",
    "toml",
    "x-sh",
    "sql",
    "graphql",
];

/// A body without a Content-Type: HTML, text, or (`None`) binary.
pub fn sniff(body: &[u8]) -> Option<(Kind, &'static str)> {
    let head = &body[..body.len().min(8192)];
    if head.starts_with(&[0xEF, 0xBB, 0xBF])
        || head.starts_with(&[0xFF, 0xFE])
        || head.starts_with(&[0xFE, 0xFF])
    {
        return Some((Kind::Text, "text/plain"));
    }
    if head.contains(&0) || BINARY_MAGIC.iter().any(|m| head.starts_with(m)) {
        return None;
    }
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let lower: Vec<u8> = head[start..head.len().min(start + 64)].to_ascii_lowercase();
    let html = [
        "<!doctype html",
        "<html",
        "<head",
        "<body",
        "<!--",
        "<title",
        "<meta",
        "<p>",
        "<div",
        "<h1",
    ];
    if html.iter().any(|t| lower.starts_with(t.as_bytes())) {
        return Some((Kind::Html, "text/html"));
    }
    if lower.starts_with(b"<?xml") {
        return Some((Kind::Text, "text/xml"));
    }
    if lower.starts_with(b"{") || lower.starts_with(b"[") {
        return Some((Kind::Text, "application/json"));
    }
    // Control characters other than whitespace mean bytes, not text.
    let controls = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x0c))
        .count();
    (controls == 0).then_some((Kind::Text, "text/plain"))
}

const BINARY_MAGIC: &[&[u8]] = &[
    b"%PDF-",
    b"\x89PNG",
    b"GIF8",
    b"\xFF\xD8\xFF",
    b"PK\x03\x04",
    b"\x1F\x8B",
    b"RIFF",
    b"\x7FELF",
    b"BZh",
    b"\xFD7zXZ",
    b"7z\xBC\xAF",
    b"wOFF",
    b"wOF2",
];

/// The body as text and the WHATWG name of the encoding used.
pub fn decode(body: &[u8], header_charset: Option<&str>, kind: Kind) -> (String, &'static str) {
    let declared = header_charset
        .and_then(|l| Encoding::for_label(l.as_bytes()))
        .or_else(|| (kind == Kind::Html).then(|| meta_charset(body)).flatten());
    let encoding = declared.unwrap_or_else(|| {
        if std::str::from_utf8(body).is_ok() {
            encoding_rs::UTF_8
        } else {
            let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            det.feed(body, true);
            det.guess(None, chardetng::Utf8Detection::Deny)
        }
    });
    // `decode` lets a BOM override the declared encoding, as browsers do.
    let (text, used, _) = encoding.decode(body);
    (text.into_owned(), used.name())
}

/// The encoding an HTML `<meta charset>` or `<meta http-equiv content="…charset=…">` names in
/// the first 1024 bytes (the HTML standard's prescan, simplified). UTF-16 there means UTF-8:
/// a document that could be read as ASCII to find the tag is not UTF-16.
fn meta_charset(body: &[u8]) -> Option<&'static Encoding> {
    let head = body[..body.len().min(1024)].to_ascii_lowercase();
    let mut rest = &head[..];
    while let Some(i) = find(rest, b"<meta") {
        let tag_end = find(&rest[i..], b">").map_or(rest.len(), |e| i + e);
        let tag = &rest[i..tag_end];
        if let Some(c) = find(tag, b"charset") {
            let mut v = &tag[c + 7..];
            v = trim_start(v);
            if let Some(after) = v.strip_prefix(b"=") {
                let v = trim_start(after);
                let v = v
                    .strip_prefix(b"\"")
                    .or_else(|| v.strip_prefix(b"'"))
                    .unwrap_or(v);
                let end = v
                    .iter()
                    .position(|b| matches!(b, b'"' | b'\'' | b';' | b' ' | b'/' | b'>'))
                    .unwrap_or(v.len());
                if let Some(enc) = Encoding::for_label(&v[..end]) {
                    return Some(
                        if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
                            encoding_rs::UTF_8
                        } else {
                            enc
                        },
                    );
                }
            }
        }
        rest = &rest[i + 5..];
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn trim_start(v: &[u8]) -> &[u8] {
    let n = v.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &v[n..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types() {
        assert_eq!(essence("Text/HTML; charset=UTF-8"), "text/html");
        assert_eq!(
            charset_param("text/html; Charset=\"Shift_JIS\""),
            Some("Shift_JIS".into())
        );
        assert_eq!(charset_param("text/html"), None);
        for (t, k) in [
            ("text/html", Some(Kind::Html)),
            ("application/xhtml+xml", Some(Kind::Html)),
            ("text/plain", Some(Kind::Text)),
            ("text/markdown", Some(Kind::Text)),
            ("text/csv", Some(Kind::Text)),
            ("application/json", Some(Kind::Text)),
            ("application/problem+json", Some(Kind::Text)),
            ("application/xml", Some(Kind::Text)),
            ("application/rss+xml", Some(Kind::Text)),
            ("image/png", None),
            ("application/pdf", None),
            ("application/zip", None),
            ("application/octet-stream", None),
            ("video/mp4", None),
            ("", None),
        ] {
            assert_eq!(kind_of(t), k, "{t}");
        }
    }

    #[test]
    fn sniffing() {
        assert_eq!(
            sniff(b"  <!DOCTYPE html><p>x").map(|s| s.0),
            Some(Kind::Html)
        );
        assert_eq!(sniff(b"<html><body>x").map(|s| s.0), Some(Kind::Html));
        assert_eq!(sniff(b"{\"a\": 1}"), Some((Kind::Text, "application/json")));
        assert_eq!(
            sniff(b"<?xml version=\"1.0\"?><a/>"),
            Some((Kind::Text, "text/xml"))
        );
        assert_eq!(sniff(b"just words\n"), Some((Kind::Text, "text/plain")));
        assert_eq!(sniff(b"%PDF-1.7\n..."), None);
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n"), None);
        assert_eq!(sniff(b"abc\0def"), None);
        assert_eq!(sniff(b"\x01\x02\x03 binary"), None);
    }

    #[test]
    fn charsets() {
        let latin1 = b"caf\xe9";
        assert_eq!(
            decode(latin1, Some("iso-8859-1"), Kind::Text),
            ("café".into(), "windows-1252")
        );
        let sjis = b"\x93\xfa\x96\x7b\x8c\xea";
        assert_eq!(decode(sjis, Some("Shift_JIS"), Kind::Text).0, "日本語");
        let html = b"<html><head><meta charset=\"windows-1251\"></head><body>\xcf\xf0\xe8\xe2\xe5\xf2</body>";
        let (t, e) = decode(html, None, Kind::Html);
        assert!(t.contains("Привет"), "{t}");
        assert_eq!(e, "windows-1251");
        let html =
            b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-15\">\xa4";
        assert_eq!(decode(html, None, Kind::Html).0.chars().last(), Some('€'));
        // The header wins over the meta tag; a BOM wins over both.
        let html = b"<meta charset=\"windows-1251\">caf\xc3\xa9";
        assert_eq!(decode(html, Some("utf-8"), Kind::Html).1, "UTF-8");
        let bom = b"\xef\xbb\xbfcaf\xc3\xa9";
        assert_eq!(
            decode(bom, Some("windows-1252"), Kind::Text),
            ("café".into(), "UTF-8")
        );
        // No declaration: UTF-8 when valid, else a guess.
        assert_eq!(decode("naïve".as_bytes(), None, Kind::Text).1, "UTF-8");
        let (t, _) = decode(
            b"Fran\xe7ais et caf\xe9 cr\xe8me br\xfbl\xe9e",
            None,
            Kind::Text,
        );
        assert_eq!(t, "Français et café crème brûlée");
        // An unknown label is ignored rather than trusted.
        assert_eq!(
            decode(b"ok", Some("no-such-charset"), Kind::Text).1,
            "UTF-8"
        );
    }
}
