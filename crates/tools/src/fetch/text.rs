//! `mode: "text"`: the words of the kept part of a page, with paragraphs, list items and
//! table rows on their own lines, and preformatted text as laid out.

use scraper::{ElementRef, Node};

/// `mode: "text"`: the words, with paragraphs, list items and table rows on their own lines;
/// `None` when `stop` says so first.
pub fn plain_text(root: ElementRef, stop: &dyn Fn() -> bool) -> Option<String> {
    let mut out = TextOut {
        stop,
        ..TextOut::new()
    };
    walk_text(*root, &mut out, 0);
    (!out.stopped).then_some(out.s)
}

struct TextOut<'a> {
    s: String,
    breaks: usize,
    space: bool,
    stop: &'a dyn Fn() -> bool,
    /// Elements walked, to look at `stop` every so many.
    seen: usize,
    stopped: bool,
}

impl TextOut<'_> {
    fn new() -> TextOut<'static> {
        TextOut {
            s: String::new(),
            breaks: 0,
            space: false,
            stop: &|| false,
            seen: 0,
            stopped: false,
        }
    }

    /// Whether to give up: looked at once every 1,024 elements.
    fn halted(&mut self) -> bool {
        self.seen += 1;
        if self.seen.is_multiple_of(1024) && !self.stopped {
            self.stopped = (self.stop)();
        }
        self.stopped
    }
}

impl TextOut<'_> {
    fn brk(&mut self, n: usize) {
        if n > 0 {
            self.breaks = self.breaks.max(n);
            self.space = false;
        }
    }
    fn raw(&mut self, t: &str) {
        if t.is_empty() {
            return;
        }
        if !self.s.is_empty() {
            for _ in 0..self.breaks {
                self.s.push('\n');
            }
            if self.breaks == 0 && self.space && !self.s.ends_with([' ', '\n', '\t']) {
                self.s.push(' ');
            }
        }
        self.breaks = 0;
        self.space = false;
        self.s.push_str(t);
    }
    fn words(&mut self, t: &str) {
        if t.starts_with(char::is_whitespace) {
            self.space = true;
        }
        for w in t.split_whitespace() {
            self.raw(w);
            self.space = true;
        }
        self.space = t.ends_with(char::is_whitespace) || (self.space && t.trim().is_empty());
    }
}

type TreeNode<'a> = ego_tree::NodeRef<'a, Node>;

fn walk_text(node: TreeNode, out: &mut TextOut, depth: usize) {
    for child in node.children() {
        if out.halted() {
            return;
        }
        match child.value() {
            Node::Text(t) => out.words(t),
            Node::Element(e) => {
                let name = e.name();
                match name {
                    "br" => out.brk(1),
                    "hr" => out.brk(2),
                    "img" => {}
                    "pre" => {
                        out.brk(2);
                        let text: String = ElementRef::wrap(child)
                            .map(|e| e.text().collect())
                            .unwrap_or_default();
                        out.raw(text.trim_matches('\n'));
                        out.brk(2);
                    }
                    "ul" | "ol" => {
                        out.brk(if depth == 0 { 2 } else { 1 });
                        let mut n: i64 = e.attr("start").and_then(|s| s.parse().ok()).unwrap_or(1);
                        for li in child.children() {
                            if li.value().as_element().is_some_and(|e| e.name() == "li") {
                                out.brk(1);
                                let marker = if name == "ol" {
                                    format!("{n}. ")
                                } else {
                                    "- ".into()
                                };
                                out.raw(&format!("{}{marker}", "  ".repeat(depth)));
                                walk_text(li, out, depth + 1);
                                n += 1;
                            } else {
                                walk_text(li, out, depth);
                            }
                        }
                        out.brk(if depth == 0 { 2 } else { 1 });
                    }
                    "td" | "th" => {
                        if child.prev_siblings().any(|s| s.value().is_element()) {
                            out.raw("\t");
                        }
                        walk_text(child, out, depth);
                    }
                    _ => {
                        let gap = match name {
                            "p" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "blockquote"
                            | "table" | "dl" | "figure" | "section" | "article" | "main"
                            | "header" | "details" | "address" => 2,
                            "div" | "li" | "tr" | "dt" | "dd" | "caption" | "figcaption"
                            | "summary" | "thead" | "tbody" | "body" => 1,
                            _ => 0,
                        };
                        out.brk(gap);
                        walk_text(child, out, depth);
                        out.brk(gap);
                    }
                }
            }
            _ => {}
        }
    }
}
