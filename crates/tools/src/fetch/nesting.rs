//! A page's nesting bounded before any tree is built (SPEC 31.4): html5ever's tree builder scans
//! its stack of open elements for most tags ("is a `p` in button scope?"), so 5,000 nested
//! `<ul><li>` cost time in the square of the depth there, and htmd then copies and re-indents
//! every level's Markdown into its parent's, which cubed it (53 s of CPU for a 110 KB page).
//!
//! This pass reads the page with html5ever's tokenizer alone (linear) and writes it back with:
//! at most `MAX_DEPTH` elements open at once (deeper start tags are dropped, their text kept,
//! a block's after a line break);
//! at most `MAX_INDENT` list items and quotes inside each other (deeper ones become `div`s, so
//! the Markdown indents no further); at most `MAX_FORMATTING` inline formatting elements open
//! (html5ever re-opens each of them at every text that follows an implied close). Every element
//! the pass closes is closed by an explicit end tag in what it writes, so the tree html5ever
//! builds from the result is never deeper than the pass's own count.

use html5ever::LocalName;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Doctype, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use std::cell::RefCell;
use std::collections::HashMap;

/// Elements open at once. Pages people write stay under 60 (browsers stop nesting at 512).
pub const MAX_DEPTH: usize = 128;
/// List items and block quotes inside each other: each level indents every line below it.
pub const MAX_INDENT: usize = 8;
/// Inline formatting elements (`b`, `em`, `a` …) open at once.
pub const MAX_FORMATTING: usize = 16;
/// Input fed to the tokenizer between two looks at `stop`.
pub const CHUNK: usize = 64 * 1024;

/// The page rewritten with bounded nesting, or `None` when `stop` said so first.
pub fn flatten(source: &str, stop: &dyn Fn() -> bool) -> Option<String> {
    let tok = Tokenizer::new(Limiter::default(), TokenizerOpts::default());
    let queue = BufferQueue::default();
    for piece in chunks(source, CHUNK) {
        if stop() {
            return None;
        }
        queue.push_back(StrTendril::from_slice(piece));
        let _ = tok.feed(&queue);
    }
    tok.end();
    Some(tok.sink.state.into_inner().out)
}

/// `s` in pieces of about `size` bytes, cut at character boundaries.
pub fn chunks(s: &str, size: usize) -> impl Iterator<Item = &str> {
    let mut rest = s;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut at = size.min(rest.len());
        while !rest.is_char_boundary(at) {
            at += 1;
        }
        let (piece, tail) = rest.split_at(at);
        rest = tail;
        Some(piece)
    })
}

#[derive(Default)]
struct Limiter {
    state: RefCell<State>,
}

/// One element the pass keeps open.
struct Open {
    name: LocalName,
    /// The name written for it (`div` for a list item past `MAX_INDENT`).
    written: LocalName,
    /// Inserted as an SVG or MathML element, so a self-closing child is really closed.
    foreign: bool,
}

#[derive(Default)]
struct State {
    out: String,
    open: Vec<Open>,
    /// How many of each name are open, so an end tag with nothing to close costs nothing.
    count: HashMap<LocalName, usize>,
    indents: usize,
    formatting: usize,
    /// The tokenizer is inside an element whose text is not decoded (script, style …).
    raw: bool,
    /// A `<` of raw text not yet written: whether it could start a tag depends on what follows.
    lt: bool,
}

fn is(name: &LocalName, names: &[&str]) -> bool {
    names.contains(&&**name)
}

const VOID: &[&str] = &[
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image", "img",
    "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
];
const FORMATTING: &[&str] = &[
    "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u",
];
const INDENTING: &[&str] = &["li", "blockquote"];
/// Start tags that leave SVG or MathML for HTML (the HTML standard's "breakout" list; `font`
/// counted always, which only closes more).
const BREAKOUT: &[&str] = &[
    "b",
    "big",
    "blockquote",
    "body",
    "br",
    "center",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "hr",
    "i",
    "img",
    "li",
    "listing",
    "menu",
    "meta",
    "nobr",
    "ol",
    "p",
    "pre",
    "ruby",
    "s",
    "small",
    "span",
    "strong",
    "strike",
    "sub",
    "sup",
    "table",
    "tt",
    "u",
    "ul",
    "var",
    "font",
];
/// Foreign elements whose children are parsed as HTML.
const INTEGRATION: &[&str] = &[
    "foreignobject",
    "desc",
    "title",
    "mi",
    "mo",
    "mn",
    "ms",
    "mtext",
    "annotation-xml",
];
/// Start tags that close an open `p` (when no scope boundary lies between).
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "header",
    "hgroup",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "search",
    "section",
    "summary",
    "ul",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "pre",
    "listing",
    "form",
    "li",
    "dd",
    "dt",
    "table",
];
const SCOPE: &[&str] = &[
    "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template", "button",
    "select",
];
const HEADINGS: &[&str] = &["h1", "h2", "h3", "h4", "h5", "h6"];
/// Left to html5ever: it never nests them, whatever the page says.
const DOCUMENT: &[&str] = &["html", "head", "body"];

impl TokenSink for Limiter {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let mut s = self.state.borrow_mut();
        if s.lt && !matches!(token, Token::CharacterTokens(_)) {
            s.lt = false;
            s.out.push('<');
        }
        match token {
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => return s.start(tag),
            Token::TagToken(tag) => s.end(&tag.name),
            Token::CharacterTokens(t) => s.text(&t),
            Token::DoctypeToken(d) => s.doctype(&d),
            Token::EOFToken => s.close_to(0),
            Token::CommentToken(_) | Token::NullCharacterToken | Token::ParseError(_) => {}
        }
        TokenSinkResult::Continue
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.state.borrow().open.last().is_some_and(|o| o.foreign)
    }
}

impl State {
    /// Whether a child named `name` would be inserted as a foreign element.
    fn child_is_foreign(&self, name: &LocalName) -> bool {
        match self.open.last() {
            Some(top) => top.foreign && !is(&top.name, INTEGRATION) && !is(name, BREAKOUT),
            None => false,
        }
    }

    fn start(&mut self, tag: Tag) -> TokenSinkResult<()> {
        let name = tag.name.clone();
        let foreign = self.child_is_foreign(&name) || is(&name, &["svg", "math"]);
        if self
            .open
            .last()
            .is_some_and(|top| top.foreign && !is(&top.name, INTEGRATION) && is(&name, BREAKOUT))
        {
            self.leave_foreign();
        }
        if is(&name, VOID) || is(&name, DOCUMENT) || (tag.self_closing && foreign) {
            self.write_tag(&tag, &name);
            return TokenSinkResult::Continue;
        }
        self.implied_closes(&name);
        // The tokenizer reads a script as a script even where the element itself is dropped.
        let kind = if foreign { None } else { raw_kind(&name) };
        self.raw = kind.as_ref().is_some_and(|(_, decoded)| !decoded);
        let result = kind.map_or(TokenSinkResult::Continue, |(k, _)| k);
        let formatting = is(&name, FORMATTING);
        if self.open.len() >= MAX_DEPTH || (formatting && self.formatting >= MAX_FORMATTING) {
            // A dropped block still parts its text from what comes before.
            if is(&name, CLOSES_P) || is(&name, &["tr", "td", "th", "option"]) {
                self.out.push_str("<br>");
            }
            return result;
        }
        let indenting = is(&name, INDENTING);
        let written = if indenting && self.indents >= MAX_INDENT {
            LocalName::from("div")
        } else {
            name.clone()
        };
        self.write_tag(&tag, &written);
        self.indents += usize::from(written != *"div" && indenting);
        self.formatting += usize::from(formatting);
        *self.count.entry(name.clone()).or_default() += 1;
        self.open.push(Open {
            name,
            written,
            foreign,
        });
        result
    }

    fn end(&mut self, name: &LocalName) {
        self.raw = false;
        if is(name, DOCUMENT) {
            self.out.push_str(&format!("</{name}>"));
            return;
        }
        if is(name, &["p", "br"]) {
            self.leave_foreign();
        }
        if &**name == "br" {
            self.out.push_str("<br>");
            return;
        }
        if self.count.get(name).copied().unwrap_or(0) == 0 {
            return;
        }
        let at = self
            .open
            .iter()
            .rposition(|o| o.name == *name)
            .expect("counted as open");
        self.close_to(at);
    }

    /// A start tag that breaks out of SVG or MathML closes the foreign elements first, as
    /// html5ever does; written out, so both agree on where the tag goes.
    fn leave_foreign(&mut self) {
        let keep = self
            .open
            .iter()
            .rposition(|o| !o.foreign || is(&o.name, INTEGRATION))
            .map_or(0, |i| i + 1);
        if keep < self.open.len() {
            self.close_to(keep);
        }
    }

    /// The closes html5ever implies at these start tags, written out: an open `p`, a list
    /// item, a table cell or row, an option, a heading.
    fn implied_closes(&mut self, name: &LocalName) {
        if is(name, CLOSES_P) {
            self.close_within("p", SCOPE);
        }
        match &**name {
            "li" => self.close_within("li", &["ul", "ol", "table", "td", "th", "template"]),
            "dd" | "dt" => {
                self.close_within("dd", &["dl", "table", "td", "th", "template"]);
                self.close_within("dt", &["dl", "table", "td", "th", "template"]);
            }
            "td" | "th" => {
                self.close_within("td", &["tr", "table", "template"]);
                self.close_within("th", &["tr", "table", "template"]);
            }
            "tr" => self.close_within("tr", &["table", "template"]),
            "option" | "optgroup" if self.open.last().is_some_and(|o| &*o.name == "option") => {
                self.close_to(self.open.len() - 1);
            }
            n if HEADINGS.contains(&n)
                && self.open.last().is_some_and(|o| is(&o.name, HEADINGS)) =>
            {
                self.close_to(self.open.len() - 1);
            }
            _ => {}
        }
    }

    /// Closes the innermost open `target` unless one of `boundaries` is open inside it.
    fn close_within(&mut self, target: &str, boundaries: &[&str]) {
        if self
            .count
            .get(&LocalName::from(target))
            .is_none_or(|c| *c == 0)
        {
            return;
        }
        for i in (0..self.open.len()).rev() {
            let n = &self.open[i].name;
            if &**n == target {
                self.close_to(i);
                return;
            }
            if is(n, boundaries) {
                return;
            }
        }
    }

    /// Closes the open elements from the innermost down to index `at`, each with its end tag.
    fn close_to(&mut self, at: usize) {
        while self.open.len() > at {
            let o = self.open.pop().expect("not empty");
            self.out.push_str(&format!("</{}>", o.written));
            if let Some(c) = self.count.get_mut(&o.name) {
                *c -= 1;
            }
            self.indents -= usize::from(o.written != *"div" && is(&o.name, INDENTING));
            self.formatting -= usize::from(is(&o.name, FORMATTING));
        }
    }

    /// The doctype as given, which decides html5ever's quirks mode.
    fn doctype(&mut self, d: &Doctype) {
        if d.force_quirks {
            self.out.push_str("<!DOCTYPE>");
            return;
        }
        let clean = |t: &StrTendril| t.replace(['"', '>'], "");
        self.out.push_str("<!DOCTYPE ");
        self.out
            .push_str(&d.name.as_ref().map(clean).unwrap_or_default());
        match (&d.public_id, &d.system_id) {
            (Some(p), s) => {
                self.out.push_str(&format!(" PUBLIC \"{}\"", clean(p)));
                if let Some(s) = s {
                    self.out.push_str(&format!(" \"{}\"", clean(s)));
                }
            }
            (None, Some(s)) => self.out.push_str(&format!(" SYSTEM \"{}\"", clean(s))),
            (None, None) => {}
        }
        self.out.push('>');
    }

    fn write_tag(&mut self, tag: &Tag, name: &LocalName) {
        self.out.push('<');
        self.out.push_str(name);
        for a in &tag.attrs {
            self.out.push(' ');
            self.out.push_str(&a.name.local);
            self.out.push_str("=\"");
            escape(&mut self.out, &a.value, true);
            self.out.push('"');
        }
        if tag.self_closing {
            self.out.push_str(" /");
        }
        self.out.push('>');
    }

    /// Text, escaped so that it reads back as the same text and never as a tag, whatever
    /// html5ever decides about the element it is in: inside raw text only a `<` that could
    /// start a tag is escaped, which at worst shows `&lt;` in a script or style that
    /// conversion drops anyway.
    fn text(&mut self, t: &str) {
        if self.raw {
            // The tokenizer hands a `<` over on its own at times: what follows may be in the
            // next piece of text.
            for c in t.chars() {
                if std::mem::take(&mut self.lt) {
                    let tag_like = c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?');
                    self.out.push_str(if tag_like { "&lt;" } else { "<" });
                }
                if c == '<' {
                    self.lt = true;
                } else {
                    self.out.push(c);
                }
            }
        } else {
            escape(&mut self.out, t, false);
        }
    }
}

fn escape(out: &mut String, t: &str, attr: bool) {
    for c in t.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// How the tokenizer reads what follows this start tag in HTML, as html5ever's tree builder
/// tells it (scripting on, as scraper and htmd parse), and whether character references are
/// decoded there.
fn raw_kind(name: &LocalName) -> Option<(TokenSinkResult<()>, bool)> {
    Some(match &**name {
        "script" => (TokenSinkResult::RawData(RawKind::ScriptData), false),
        "style" | "xmp" | "iframe" | "noembed" | "noframes" | "noscript" => {
            (TokenSinkResult::RawData(RawKind::Rawtext), false)
        }
        "title" | "textarea" => (TokenSinkResult::RawData(RawKind::Rcdata), true),
        "plaintext" => (TokenSinkResult::Plaintext, false),
        _ => return None,
    })
}

#[cfg(test)]
#[path = "nesting_tests.rs"]
mod tests;
