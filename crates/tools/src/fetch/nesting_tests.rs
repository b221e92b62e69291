//! Unit tests of nesting.rs: a page people write reads back as the same tree; a hostile one
//! comes back no deeper than the limits, however it tries to make html5ever nest more than the
//! pass counted.

use super::*;
use scraper::Html;

fn flat(s: &str) -> String {
    flatten(s, &|| false).expect("never stopped")
}

/// The deepest element of the page as scraper parses it, and the most list items and quotes
/// on one path.
fn depths(html: &str) -> (usize, usize) {
    let doc = Html::parse_document(html);
    let mut deepest = (0, 0);
    for node in doc.tree.nodes() {
        let ancestors: Vec<_> = node
            .ancestors()
            .filter_map(|a| a.value().as_element())
            .collect();
        let indents = ancestors
            .iter()
            .filter(|e| matches!(e.name(), "li" | "blockquote"))
            .count();
        deepest.0 = deepest.0.max(ancestors.len());
        deepest.1 = deepest.1.max(indents);
    }
    deepest
}

fn same_tree(page: &str) {
    let a = Html::parse_document(page).root_element().html();
    let b = Html::parse_document(&flat(page)).root_element().html();
    assert_eq!(a, b, "\n{page}\n→\n{}", flat(page));
}

#[test]
fn ordinary_pages_read_back_as_the_same_tree() {
    for page in [
        "<!doctype html><html><head><title>A &amp; B</title></head><body><p>x &lt; y</p></body></html>",
        "<ul><li>one<li>two<ul><li>nested</ul><li>three</ul>",
        "<p>first<p>second<div>block</div>after",
        "<table><tr><td>a<td>b<tr><td>c</table>",
        "<dl><dt>term<dd>def<dt>t2<dd>d2</dl>",
        "<select><option>a<option>b</select>",
        "<h1>one<h2>two</h2>",
        "<svg viewBox=\"0 0 1 1\"><path d=\"M0\"/><g><circle r=\"1\"/></g></svg><p>after</p>",
        "<script>if (a < b && c) { x = 1; }</script><p>text</p>",
        "<textarea>&lt;b&gt; &amp;amp;</textarea>",
        "<pre>  keep\n  spaces</pre>",
        "<a href=\"/x?a=1&amp;b=&quot;2&quot;\">link</a>",
        "<div><b>bold<i>both</i></b> plain</div>",
        "<math><mi>x</mi><mo>=</mo></math>",
    ] {
        same_tree(page);
    }
}

/// Inside a script, a tag-like `<` is written as `&lt;`: read as a script, it is a script
/// html5ever drops anyway; read as text, it is never a tag.
#[test]
fn raw_text_never_hides_a_tag() {
    let out = flat("<script>if (a < b) { x = \"</div><div>\"; }</script>");
    assert!(out.contains("a < b"), "{out}");
    assert!(out.contains("&lt;/div>&lt;div>"), "{out}");
}

#[test]
fn deep_lists_and_quotes_stop_indenting_and_deep_trees_stop_nesting() {
    let n = 5000;
    for (open, close) in [
        ("<ul><li>x", "</li></ul>"),
        ("<ol><li>x", "</li></ol>"),
        ("<blockquote>x", "</blockquote>"),
        ("<div>x", "</div>"),
        ("<span>x", "</span>"),
        ("<table><tr><td>x", "</td></tr></table>"),
        ("<b id=1>x", "</b>"),
    ] {
        let page = format!("<body>{}{}</body>", open.repeat(n), close.repeat(n));
        let (depth, indents) = depths(&flat(&page));
        // html5ever adds a tbody to each table: 4 elements where the pass counted 3.
        assert!(depth <= MAX_DEPTH * 4 / 3 + 4, "{open}: {depth}");
        assert!(indents <= MAX_INDENT, "{open}: {indents}");
        assert_eq!(
            flat(&page).matches('x').count(),
            n,
            "{open}: the text is all kept"
        );
    }
}

/// Shapes where html5ever nests where the page does not: each must still come back bounded.
#[test]
fn what_html5ever_would_nest_on_its_own_is_bounded_too() {
    let n = 3000;
    let pages = [
        // A self-closing tag is closed only inside SVG; after a breakout it is HTML again.
        format!("<svg><g><div></div>{}</g></svg>", "<path/>".repeat(n)),
        format!(
            "<svg><foreignObject><div></div>{}</foreignObject></svg>",
            "<path/>".repeat(n)
        ),
        format!("<svg>{}</svg>", "<g><p></p>".repeat(n)),
        format!("<svg>{}", "<desc><div/>".repeat(n)),
        // Unclosed, unmatched and misnested tags.
        "<div/>".repeat(n),
        "<p><b>x<div>y".repeat(n),
        format!("{}{}", "<div>".repeat(n), "</span>".repeat(n)),
        "<div><table><tr><td></div>".repeat(n),
        (0..n).map(|i| format!("<div><b id={i}>x</div>")).collect(),
        (0..n).map(|i| format!("<a href={i}><div>")).collect(),
        "<li><ul>".repeat(n),
        "<select><div>".repeat(n),
        "<template><div>".repeat(n),
        "<math><mi><div>".repeat(n),
    ];
    for page in pages {
        let (depth, _) = depths(&flat(&page));
        assert!(depth <= MAX_DEPTH * 4 / 3 + 8, "{}…: {depth}", &page[..40]);
    }
}

#[test]
fn pieces_are_cut_at_characters_and_a_stop_is_heard() {
    let s = "é".repeat(100);
    let pieces: Vec<&str> = chunks(&s, 7).collect();
    assert_eq!(pieces.concat(), s);
    assert!(pieces.iter().all(|p| p.len() <= 8));
    let big = "<p>x</p>".repeat(CHUNK);
    assert_eq!(flatten(&big, &|| true), None);
}
