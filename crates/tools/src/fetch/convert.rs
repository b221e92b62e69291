//! HTML to what the model reads (SPEC §11, 16.7): `selector` with a real CSS engine (scraper),
//! page chrome dropped, then Markdown (htmd) or plain text.
//!
//! The page is parsed once by scraper, which selects, drops noise and picks the main content;
//! the part kept is serialised and handed to htmd, whose handlers fence code blocks (a bare
//! `<pre>` too, with the language wherever the page's highlighter put it) and make links
//! absolute.

use super::Mode;
use super::nesting::{CHUNK, chunks, flatten};
use crate::control::Control;
use htmd::element_handler::{HandlerResult, Handlers};
use htmd::options::{
    BulletListMarker, CodeBlockFence, CodeBlockStyle, HeadingStyle, LinkStyle, Options,
};
use htmd::{Element, HtmlToMarkdown};
use markup5ever_rcdom::{Node as RcNode, NodeData};
use scraper::{ElementRef, Html, Selector};
use std::collections::HashSet;
use std::rc::Rc;
use std::sync::Arc;
use url::Url;

/// Dropped before conversion: scripts and styles, and the chrome around the content
/// (navigation, footers, sidebars, forms, consent dialogs), also when marked only by an ARIA
/// role. Hidden elements go too, except tab panels: docs hide the other languages' examples
/// that way, and they are content.
const NOISE: &str = "script, style, noscript, template, nav, footer, aside, form, button, \
    svg, iframe, object, embed, canvas, dialog, [role=dialog], [role=alertdialog], \
    [hidden]:not([role=tabpanel]), [aria-hidden=true]:not([role=tabpanel]), \
    [role=navigation], [role=contentinfo], [role=complementary]";

pub struct Rendered {
    pub content: String,
    pub title: Option<String>,
    pub warnings: Vec<String>,
}

fn sel(s: &str) -> Selector {
    Selector::parse(s).expect("a fixed selector parses")
}

/// Converts an HTML page per `mode` (not `raw`, which never gets here). `page_url` is where
/// the page was found, for relative links.
/// The HTML parser and the Markdown conversion recurse once per level of nesting: a page of
/// 20,000 nested `<div>`s overflowed the main thread's stack (SIGABRT, no envelope; in `mcp` the
/// whole server). They run on a thread whose stack is sized for the deepest page the 10 MiB cap
/// allows (SPEC 23.8); the memory is reserved, not used, until a page needs it.
fn on_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    const STACK: usize = 4 << 30;
    std::thread::scope(|s| {
        let t = std::thread::Builder::new()
            .name("html".into())
            .stack_size(STACK)
            .spawn_scoped(s, f)
            .expect("a thread to convert HTML in");
        t.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

/// Converts an HTML page per `mode` (not `raw`): see `html_here`. The work is linear in the
/// page (its nesting is bounded first, nesting.rs) and stops, with nothing converted, when
/// `control` is cancelled or out of time (SPEC 31.4).
pub fn html(
    source: &str,
    page_url: &Url,
    mode: Mode,
    selector: Option<&Selector>,
    control: &Arc<Control>,
) -> Rendered {
    let stop = || control.is_cancelled();
    on_deep_stack(|| html_here(source, page_url, mode, selector, &stop, control)).unwrap_or(
        Rendered {
            content: String::new(),
            title: None,
            warnings: vec!["the conversion was stopped before it finished".into()],
        },
    )
}

/// The page's `<title>`.
pub fn title_of(source: &str, control: &Control) -> Option<String> {
    let stop = || control.is_cancelled();
    on_deep_stack(|| title(&parse(source, &stop)?))
}

type Stop<'a> = &'a (dyn Fn() -> bool + Sync);

/// The page as scraper's tree, its nesting bounded, fed in pieces so `stop` is heard.
fn parse(source: &str, stop: Stop) -> Option<Html> {
    use html5ever_scraper::tendril::TendrilSink;
    let flat = flatten(source, stop)?;
    let sink = scraper::HtmlTreeSink::new(Html::new_document());
    let mut parser = html5ever_scraper::driver::parse_document(sink, Default::default());
    for piece in chunks(&flat, CHUNK) {
        if stop() {
            return None;
        }
        parser.process(piece.into());
    }
    Some(parser.finish())
}

/// htmd's tree of a part of the page, as `parse` builds scraper's.
fn htmd_tree(html: &str, stop: Stop) -> Option<Rc<RcNode>> {
    use html5ever::tendril::TendrilSink;
    let mut parser = html5ever::parse_document(
        markup5ever_rcdom::RcDom::default(),
        html5ever::ParseOpts::default(),
    );
    for piece in chunks(html, CHUNK) {
        if stop() {
            return None;
        }
        parser.process(piece.into());
    }
    Some(parser.finish().document)
}

fn html_here(
    source: &str,
    page_url: &Url,
    mode: Mode,
    selector: Option<&Selector>,
    stop: Stop,
    control: &Arc<Control>,
) -> Option<Rendered> {
    let mut doc = parse(source, stop)?;
    let title = title(&doc);
    let mut warnings = Vec::new();
    let chosen: Option<Vec<_>> = selector.map(|s| outermost(&doc, s));
    if chosen.as_ref().is_some_and(Vec::is_empty) {
        warnings.push(
            "selector matched no element; try a broader one (e.g. main, article, body)".to_string(),
        );
    }
    if mode == Mode::Html {
        let content = match &chosen {
            Some(ids) => ids
                .iter()
                .filter_map(|id| doc.tree.get(*id).and_then(ElementRef::wrap))
                .map(|e| e.html() + "\n")
                .collect(),
            None => source.to_string(),
        };
        return Some(Rendered {
            content,
            title,
            warnings,
        });
    }
    let base = doc
        .select(&sel("base[href]"))
        .next()
        .and_then(|b| page_url.join(b.attr("href")?).ok())
        .unwrap_or_else(|| page_url.clone());
    drop_noise(&mut doc, chosen.as_deref().unwrap_or(&[]));
    let roots = chosen.unwrap_or_else(|| vec![main_content(&doc)]);
    let converter = markdown_converter(&base, control);
    let mut parts = Vec::new();
    for el in roots
        .iter()
        .filter_map(|id| doc.tree.get(*id).and_then(ElementRef::wrap))
    {
        let part = match mode {
            Mode::Text => super::text::plain_text(el, stop)?,
            _ => converter.tree_to_markdown(&htmd_tree(&el.html(), stop)?),
        };
        if stop() {
            return None;
        }
        let part = tidy(&part);
        if !part.is_empty() {
            parts.push(part);
        }
    }
    let mut content = parts.join("\n\n");
    if !content.is_empty() {
        content.push('\n');
    } else if selector.is_none() {
        warnings.push(
            "the page has no text once scripts and navigation are dropped; it may build its content with JavaScript, which fetch does not run (mode html shows the page as sent)".to_string(),
        );
    }
    Some(Rendered {
        content,
        title,
        warnings,
    })
}

fn title(doc: &Html) -> Option<String> {
    doc.select(&sel("head title"))
        .chain(doc.select(&sel("title")))
        .next()
        .map(|t| collapse(&t.text().collect::<String>()))
        .filter(|t| !t.is_empty())
}

type NodeId = ego_tree::NodeId;

/// The matches of `s` that are not inside another match, so nested matches are not repeated.
fn outermost(doc: &Html, s: &Selector) -> Vec<NodeId> {
    let all: HashSet<NodeId> = doc.select(s).map(|e| e.id()).collect();
    doc.select(s)
        .filter(|e| !e.ancestors().any(|a| all.contains(&a.id())))
        .map(|e| e.id())
        .collect()
}

/// Detaches the noise, except the kept elements themselves and what contains them (a
/// selector may ask for `nav` or `footer` on purpose).
fn drop_noise(doc: &mut Html, keep: &[NodeId]) {
    let mut protected: HashSet<NodeId> = HashSet::new();
    for id in keep {
        if let Some(n) = doc.tree.get(*id) {
            protected.insert(*id);
            protected.extend(n.ancestors().map(|a| a.id()));
        }
    }
    let noise: Vec<NodeId> = doc
        .select(&sel(NOISE))
        .map(|e| e.id())
        .filter(|id| !protected.contains(id))
        .collect();
    for id in noise {
        if let Some(mut n) = doc.tree.get_mut(id) {
            n.detach();
        }
    }
}

/// Letters of text under an element, whitespace not counted.
fn text_len(el: ElementRef) -> usize {
    el.text()
        .map(|t| t.chars().filter(|c| !c.is_whitespace()).count())
        .sum()
}

/// The page's own content: its one `<article>` when that holds at least half the text around
/// it, else its one `<main>` (or `role=main`) when that does, else the whole body.
fn main_content(doc: &Html) -> NodeId {
    let body = doc
        .select(&sel("body"))
        .next()
        .unwrap_or_else(|| doc.root_element());
    let mains: Vec<ElementRef> = doc.select(&sel("main, [role=main]")).collect();
    let main = (mains.len() == 1).then(|| mains[0]);
    let articles: Vec<ElementRef> = doc
        .select(&sel("article"))
        .filter(|a| {
            !a.ancestors().any(|p| {
                p.value()
                    .as_element()
                    .is_some_and(|e| e.name() == "article")
            })
        })
        .collect();
    if let [article] = articles[..] {
        let around = match main {
            Some(m) if article.ancestors().any(|a| a.id() == m.id()) => m,
            _ => body,
        };
        let n = text_len(article);
        if n > 0 && n * 2 >= text_len(around) {
            return article.id();
        }
    }
    if let Some(m) = main {
        let n = text_len(m);
        if n > 0 && n * 2 >= text_len(body) {
            return m.id();
        }
    }
    body.id()
}

/// Whitespace runs to one space, trimmed.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Trailing spaces kept only where they are a Markdown line break; at most one blank line in
/// a row outside code fences.
fn tidy(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut blank = 0;
    let mut fence: Option<String> = None;
    for line in s.trim_matches('\n').lines() {
        let trimmed = line.trim_start();
        if let Some(f) = &fence {
            if trimmed.starts_with(f.as_str()) && trimmed.trim_start_matches('`').trim().is_empty()
            {
                fence = None;
            }
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if trimmed.starts_with("```") {
            fence = Some(trimmed.chars().take_while(|&c| c == '`').collect());
        }
        let line = if line.ends_with("  ") && !line.trim().is_empty() {
            line
        } else {
            line.trim_end()
        };
        if line.is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    out.trim_end().to_string()
}

/// Elements htmd converts with a handler of its own, where a stopped conversion gives up the
/// rest: each is looked at once, so the check costs one atomic load per block.
const CHECKED: &[&str] = &[
    "div",
    "p",
    "li",
    "ul",
    "ol",
    "blockquote",
    "table",
    "tr",
    "td",
    "th",
    "section",
    "article",
    "dd",
    "dt",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
];

fn markdown_converter(base: &Url, control: &Arc<Control>) -> HtmlToMarkdown {
    let options = Options {
        heading_style: HeadingStyle::Atx,
        bullet_list_marker: BulletListMarker::Dash,
        ul_bullet_spacing: 1,
        ol_number_spacing: 1,
        code_block_style: CodeBlockStyle::Fenced,
        code_block_fence: CodeBlockFence::Backticks,
        link_style: LinkStyle::Inlined,
        ..Options::default()
    };
    let for_links = base.clone();
    let for_images = base.clone();
    let control = Arc::clone(control);
    HtmlToMarkdown::builder()
        .options(options)
        .skip_tags(NEVER_TEXT.to_vec())
        .add_handler(CHECKED.to_vec(), move |h: &dyn Handlers, el: Element| {
            if control.is_cancelled() {
                return Some("".into());
            }
            h.fallback(el)
        })
        .add_handler(vec!["pre"], pre_handler)
        .add_handler(vec!["a"], move |h: &dyn Handlers, el: Element| {
            let Some(href) = attr(el.attrs, "href") else {
                return Some(h.walk_children(el.node));
            };
            if is_permalink(el.node) {
                return Some("".into());
            }
            match absolute(&for_links, &href) {
                Some(abs) => {
                    let attrs = with_attr(el.attrs, "href", abs);
                    let mut el = el;
                    el.attrs = &attrs;
                    h.fallback(el)
                }
                // javascript: and the like: the text is all a reader can use.
                None => Some(h.walk_children(el.node)),
            }
        })
        .add_handler(vec!["img"], move |h: &dyn Handlers, el: Element| {
            let src = attr(el.attrs, "src").unwrap_or_default();
            match absolute(&for_images, &src).filter(|s| !s.starts_with("data:")) {
                Some(abs) => {
                    let attrs = with_attr(el.attrs, "src", abs);
                    let mut el = el;
                    el.attrs = &attrs;
                    h.fallback(el)
                }
                // An inline data: image would be kilobytes of base64 for the model to read.
                None => Some(collapse(&attr(el.attrs, "alt").unwrap_or_default()).into()),
            }
        })
        // GFM task lists, as forges render them.
        .add_handler(vec!["input"], |_: &dyn Handlers, el: Element| {
            let checkbox =
                attr(el.attrs, "type").is_some_and(|t| t.eq_ignore_ascii_case("checkbox"));
            let mark = if attr(el.attrs, "checked").is_some() {
                "[x] "
            } else {
                "[ ] "
            };
            Some(if checkbox { mark } else { "" }.into())
        })
        .build()
}

/// What htmd itself must never print, even inside an element a selector asked for: code that
/// runs or styles, never text. (The chrome was already dropped by `drop_noise`, which a selector
/// may overrule.)
const NEVER_TEXT: &[&str] = &["script", "style", "noscript", "template"];

fn attr(attrs: &[html5ever::Attribute], name: &str) -> Option<String> {
    attrs
        .iter()
        .find(|a| &*a.name.local == name)
        .map(|a| a.value.to_string())
}

fn with_attr(
    attrs: &[html5ever::Attribute],
    name: &str,
    value: String,
) -> Vec<html5ever::Attribute> {
    attrs
        .iter()
        .map(|a| {
            let mut a = a.clone();
            if &*a.name.local == name {
                a.value = value.clone().into();
            }
            a
        })
        .collect()
}

/// `href` against the page, or `None` for what a reader cannot follow.
fn absolute(base: &Url, href: &str) -> Option<String> {
    let u = base.join(href.trim()).ok()?;
    matches!(u.scheme(), "http" | "https" | "mailto" | "ftp" | "tel").then(|| u.to_string())
}

/// A code block: the text exactly as laid out (highlighter spans and all), fenced, with the
/// language when the page names one.
fn pre_handler(_: &dyn Handlers, el: Element) -> Option<HandlerResult> {
    let mut code = String::new();
    raw_text(el.node, &mut code);
    let code = code.trim_start_matches('\n').trim_end();
    if code.is_empty() {
        return Some("".into());
    }
    let lang = pre_language(el.node, el.attrs).unwrap_or_default();
    let mut run = 0;
    let mut longest = 0;
    for c in code.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest.max(2) + 1);
    Some(format!("\n\n{fence}{lang}\n{code}\n{fence}\n\n").into())
}

/// A heading's permalink (`¶`, `#`, an icon that was dropped): a link with nothing to read.
fn is_permalink(a: &Rc<RcNode>) -> bool {
    fn has_img(n: &Rc<RcNode>) -> bool {
        n.children.borrow().iter().any(|c| match &c.data {
            NodeData::Element { name, .. } => &*name.local == "img" || has_img(c),
            _ => false,
        })
    }
    let mut text = String::new();
    raw_text(a, &mut text);
    matches!(text.trim(), "" | "¶" | "#" | "§" | "🔗" | "⚓") && !has_img(a)
}

fn raw_text(node: &Rc<RcNode>, out: &mut String) {
    for child in node.children.borrow().iter() {
        match &child.data {
            NodeData::Text { contents } => out.push_str(&contents.borrow()),
            NodeData::Element { name, .. } if &*name.local == "br" => out.push('\n'),
            NodeData::Element { .. } => raw_text(child, out),
            _ => {}
        }
    }
}

fn parent(node: &Rc<RcNode>) -> Option<Rc<RcNode>> {
    let weak = node.parent.take();
    let p = weak.as_ref().and_then(|w| w.upgrade());
    node.parent.set(weak);
    p
}

/// Where highlighters put the language: `<code class="language-x">` (CommonMark renderers,
/// highlight.js, Prism, Hugo), the `<pre>` itself (`lang-x`, `data-lang`, GitLab's `lang`,
/// Pandoc's and Rouge's bare class words), or a wrapper (`highlight-source-x` on GitHub,
/// `highlight-x` in Sphinx, `language-x` in Jekyll).
fn pre_language(pre: &Rc<RcNode>, pre_attrs: &[html5ever::Attribute]) -> Option<String> {
    let first_child = pre
        .children
        .borrow()
        .iter()
        .find(|c| matches!(c.data, NodeData::Element { .. }))
        .cloned();
    if let Some(c) = first_child
        && let NodeData::Element { name, attrs, .. } = &c.data
        && &*name.local == "code"
        && let Some(l) = language_in(&attrs.borrow(), true)
    {
        return Some(l);
    }
    if let Some(l) = language_in(pre_attrs, true) {
        return Some(l);
    }
    let mut up = parent(pre);
    for _ in 0..3 {
        let node = up?;
        if let NodeData::Element { attrs, .. } = &node.data
            && let Some(l) = language_in(&attrs.borrow(), false)
        {
            return Some(l);
        }
        up = parent(&node);
    }
    None
}

/// Language names a bare class word may be (Pandoc `sourceCode python`, Rouge `highlight
/// shell`, rustdoc `rust`); anything else bare is a styling class.
const KNOWN: &[&str] = &[
    "bash",
    "c",
    "clojure",
    "console",
    "cpp",
    "csharp",
    "css",
    "diff",
    "dockerfile",
    "elixir",
    "erlang",
    "go",
    "graphql",
    "haskell",
    "html",
    "ini",
    "java",
    "javascript",
    "js",
    "json",
    "jsx",
    "kotlin",
    "lua",
    "makefile",
    "markdown",
    "nix",
    "objc",
    "ocaml",
    "perl",
    "php",
    "powershell",
    "protobuf",
    "python",
    "py",
    "r",
    "ruby",
    "rust",
    "scala",
    "scss",
    "sh",
    "shell",
    "sql",
    "swift",
    "text",
    "toml",
    "ts",
    "tsx",
    "typescript",
    "xml",
    "yaml",
    "zig",
    "zsh",
];

fn language_in(attrs: &[html5ever::Attribute], own: bool) -> Option<String> {
    let clean = |s: &str| -> Option<String> {
        let s = s.trim().to_ascii_lowercase();
        let ok = !s.is_empty()
            && s.len() <= 32
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+#._-".contains(c))
            && !matches!(
                s.as_str(),
                "none" | "nohighlight" | "default" | "plain" | "plaintext"
            );
        ok.then_some(s)
    };
    for a in attrs {
        let name = &*a.name.local;
        if own && matches!(name, "data-lang" | "data-language") {
            return clean(&a.value);
        }
        if own && name == "lang" && KNOWN.contains(&a.value.to_ascii_lowercase().as_str()) {
            return clean(&a.value);
        }
    }
    let class = attr(attrs, "class")?;
    for token in class.split_whitespace() {
        for prefix in ["language-", "lang-", "highlight-source-", "brush:"] {
            if let Some(l) = token.strip_prefix(prefix) {
                return clean(l);
            }
        }
        if let Some(l) = token.strip_prefix("highlight-text-") {
            // GitHub's scopes for markup: text.html.basic, text.md, text.xml
            return clean(
                l.split('-')
                    .next()
                    .unwrap_or(l)
                    .replace("md", "markdown")
                    .as_str(),
            );
        }
        if let Some(l) = token.strip_prefix("highlight-")
            && let Some(l) = clean(l)
        {
            return Some(l);
        }
    }
    if own {
        return class
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .find(|t| KNOWN.contains(&t.as_str()));
    }
    None
}

#[cfg(test)]
#[path = "convert_tests.rs"]
mod tests;
