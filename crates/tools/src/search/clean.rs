//! Titles and snippets as a model should read them (SPEC §21): tags stripped, entities decoded,
//! one line, at most 300 characters.
//!
//! Providers' JSON carries markup in its strings (Brave highlights with `<strong>`, pages
//! scraped by Tavily keep `&amp;`). Only real HTML tag names are stripped, so `Vec<T>` or
//! `a <b> c` written as code in a snippet's text survive; entities are decoded by html5ever
//! (through scraper), which knows all of HTML's named references.

use scraper::Html;

pub const MAX_CHARS: usize = 300;

/// A string that may hold HTML markup: tags stripped, entities decoded, whitespace collapsed.
pub fn from_markup(s: &str) -> String {
    let stripped = strip_tags(s);
    if !stripped.contains('&') {
        return one_line(&stripped);
    }
    // Escaped `<` stays text; the parser then only decodes the entities.
    let escaped = stripped.replace('<', "&lt;");
    let frag = Html::parse_fragment(&escaped);
    let text: String = frag.root_element().text().collect();
    one_line(&text)
}

/// Runs of whitespace (newlines included) as one space, trimmed.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// At most `max` characters: cut at the last space in the second half of the room when there
/// is one, and marked with `…`.
pub fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let room: String = s.chars().take(max - 1).collect();
    let at = match room.rfind(' ') {
        Some(i) if room[..i].chars().count() >= max / 2 => i,
        _ => room.len(),
    };
    format!("{}…", room[..at].trim_end())
}

/// HTML elements whose tags are stripped; anything else in angle brackets is text.
const TAGS: &[&str] = &[
    "a",
    "abbr",
    "b",
    "big",
    "blockquote",
    "body",
    "br",
    "cite",
    "code",
    "dd",
    "del",
    "div",
    "dl",
    "dt",
    "em",
    "font",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "hr",
    "html",
    "i",
    "img",
    "ins",
    "kbd",
    "li",
    "mark",
    "ol",
    "p",
    "pre",
    "q",
    "s",
    "samp",
    "small",
    "span",
    "strike",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "time",
    "tr",
    "tt",
    "u",
    "ul",
    "var",
    "wbr",
];

/// `s` without HTML tags of the elements above and without comments. A tag between words
/// leaves a space, so `a<br>b` reads `a b`; inline highlight tags leave none.
fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        let tail = &rest[lt..];
        if let Some(body) = tail.strip_prefix("<!--") {
            match body.find("-->") {
                Some(end) => {
                    rest = &body[end + 3..];
                    continue;
                }
                None => {
                    rest = "";
                    break;
                }
            }
        }
        match tag_len(tail) {
            Some((len, name)) => {
                if !INLINE.contains(&name.as_str()) {
                    out.push(' ');
                }
                rest = &tail[len..];
            }
            None => {
                out.push('<');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

const INLINE: &[&str] = &[
    "a", "abbr", "b", "big", "cite", "code", "del", "em", "font", "i", "ins", "kbd", "mark", "q",
    "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var",
];

/// The length of the known tag at the start of `s` (`<strong>`, `</b>`, `<a href="x">`,
/// `<br/>`) and its lower-cased name.
fn tag_len(s: &str) -> Option<(usize, String)> {
    let after = s.strip_prefix('<')?;
    let after = after.strip_prefix('/').unwrap_or(after);
    let name_len = after
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(after.len());
    let name = after[..name_len].to_ascii_lowercase();
    if name.is_empty() || !TAGS.contains(&name.as_str()) {
        return None;
    }
    let next = after[name_len..].chars().next()?;
    if !(next == '>' || next == '/' || next.is_whitespace()) {
        return None;
    }
    let close = s.find('>')?;
    Some((close + 1, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_go_and_entities_are_decoded() {
        assert_eq!(
            from_markup(
                "The <strong>Rust</strong> book &amp; more &#x27;quoted&#39; &eacute;t&eacute; &hellip;"
            ),
            "The Rust book & more 'quoted' été …"
        );
        assert_eq!(from_markup("line<br>two<p>three</p>"), "line two three");
        assert_eq!(
            from_markup("<a href=\"https://x\">link</a> text"),
            "link text"
        );
        assert_eq!(from_markup("a<!-- hidden -->b"), "ab");
    }

    #[test]
    fn angle_brackets_that_are_not_tags_stay() {
        assert_eq!(
            from_markup("Vec<T> and Option<&str>"),
            "Vec<T> and Option<&str>"
        );
        assert_eq!(from_markup("if a < b && c > d"), "if a < b && c > d");
        assert_eq!(from_markup("Vec&lt;T&gt;"), "Vec<T>");
        assert_eq!(from_markup("<bold> is not a tag"), "<bold> is not a tag");
    }

    #[test]
    fn one_line_and_cut() {
        assert_eq!(one_line("  a\n\n b\t c "), "a b c");
        let long = "word ".repeat(100);
        let c = cut(long.trim(), 300);
        assert!(c.chars().count() <= 300 && c.ends_with("word…"), "{c}");
        let solid = "x".repeat(400);
        let c = cut(&solid, 300);
        assert_eq!(c.chars().count(), 300);
        assert!(c.ends_with('…'));
        assert_eq!(cut("short", 300), "short");
        let wide = "日本語".repeat(200);
        assert_eq!(cut(&wide, 300).chars().count(), 300);
    }
}
