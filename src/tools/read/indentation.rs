//! read's indentation mode (SPEC 22.6): the block of code around one line, found from
//! indentation alone, as Codex's `read_file` finds it in its `indentation` mode, so a model can
//! ask for "the function around line 120" without knowing where it starts or ends.
//!
//! Pure functions over the lines' shapes: a `Shape` is a line's indentation and a few flags in
//! 4 bytes, so the pass over a large file keeps no text. `find` decides which lines to show.
//! The rules, and where they differ from Codex's, are in the README (read: indentation mode).

/// A tab counts as this many columns (Codex's width; every tab adds 4, there are no tab stops).
pub const TAB_WIDTH: u32 = 4;

/// What the block finder needs of one line: its indentation in columns and what kind of line
/// it is, packed in a `u32` (the number `text::summarize` keeps per line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape(u32);

/// Only whitespace: its indentation says nothing, it takes its place from its neighbours.
const BLANK: u32 = 1 << 31;
/// A line comment, attribute, decorator or annotation: header material above a block.
const COMMENT: u32 = 1 << 30;
/// Opens a block comment (`/*`, `/**`, `<!--`).
const OPENS_COMMENT: u32 = 1 << 29;
/// Ends a block comment (`*/`, `-->`).
const ENDS_COMMENT: u32 = 1 << 28;
/// Closes a block (`}`, `)`, `]`, `</tag>`, `end`, `fi`, `done`...): belongs to the block above.
const CLOSER: u32 = 1 << 27;
/// Goes on with the statement above at its own indentation (`else`, `elif`, `except`,
/// `catch`...; also a closer that opens again, `} else {`, `) -> u32 {`, `):`).
const CONTINUES: u32 = 1 << 26;
const INDENT: u32 = (1 << 24) - 1;

/// Codex's comment prefixes (`#` also takes Rust's `#[attributes]` and C's `#directives`),
/// and `@` for decorators and annotations.
const LINE_COMMENTS: &[&str] = &["#", "//", "--", "@"];
/// Words that close a block in languages without braces (Ruby, Lua, shell, Verilog...).
const END_WORDS: &[&str] = &[
    "end",
    "fi",
    "done",
    "esac",
    "endif",
    "endfor",
    "endforeach",
    "endwhile",
    "endfunction",
    "endmodule",
    "endcase",
    "endclass",
];
/// Words that go on with the statement above (Python, Ruby, shell, C-likes after a `}`).
const GO_ON_WORDS: &[&str] = &[
    "else", "elif", "elsif", "except", "finally", "catch", "rescue", "ensure",
];

impl Shape {
    pub fn of(line: &str) -> Shape {
        let rest = line.trim_start_matches([' ', '\t']);
        let text = rest.trim();
        if text.is_empty() {
            return Shape(BLANK);
        }
        let indent = line[..line.len() - rest.len()]
            .bytes()
            .map(|b| if b == b'\t' { TAB_WIDTH } else { 1 })
            .fold(0u32, u32::saturating_add)
            .min(INDENT);
        let mut flags = 0;
        if LINE_COMMENTS.iter().any(|p| text.starts_with(p)) {
            flags |= COMMENT;
        }
        if text.starts_with("/*") || text.starts_with("<!--") {
            flags |= OPENS_COMMENT;
        }
        if text.ends_with("*/") || text.ends_with("-->") {
            flags |= ENDS_COMMENT;
        }
        let (word, after) = first_word(text);
        let keyword = is_keyword(after);
        let closer = text.starts_with(['}', ')', ']'])
            || text.starts_with("</")
            || (keyword && END_WORDS.contains(&word));
        if closer {
            flags |= CLOSER;
        }
        let reopens = closer && text.ends_with(['{', '(', '[', ':']);
        if reopens || (keyword && GO_ON_WORDS.contains(&word)) {
            flags |= CONTINUES;
        }
        Shape(flags | indent)
    }

    /// `Shape::of` as the number `text::summarize` keeps for a line.
    pub fn pack(line: &str) -> u32 {
        Shape::of(line).0
    }

    pub fn unpack(n: u32) -> Shape {
        Shape(n)
    }

    fn blank(self) -> bool {
        self.0 & BLANK != 0
    }

    fn indent(self) -> u32 {
        self.0 & INDENT
    }

    fn is(self, flag: u32) -> bool {
        self.0 & flag != 0
    }

    /// Belongs to the statement that opened above it at the same indentation.
    fn follows(self) -> bool {
        self.is(CLOSER | CONTINUES)
    }
}

/// Whether a word followed by `after` is used as a keyword: `done()`, `end = 3` and
/// `else: 1` (a YAML key) are names; `else:`, `done < f` and `end)` are keywords.
fn is_keyword(after: &str) -> bool {
    let rest = after.trim_start();
    !(after.starts_with('(') || rest.starts_with('=') || (rest.starts_with(':') && rest != ":"))
}

/// The identifier at the start of `text`, and what follows it.
fn first_word(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    text.split_at(end)
}

/// How the block is chosen (the read input's `indentation`, with Codex's defaults).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Enclosing levels to go out from the line: 1 is the innermost block holding it; 0 goes
    /// out as far as there are levels (the top-level block).
    pub max_levels: u64,
    /// Also the blocks beside the chosen one, at its indentation.
    pub include_siblings: bool,
    /// Also the comments, attributes and decorators just above the block.
    pub include_header: bool,
    /// At most this many lines are shown: a longer block is cut around the anchor, keeping
    /// its first line.
    pub max_lines: u64,
}

pub const DEFAULT_MAX_LINES: u64 = 2000;

impl Default for Options {
    fn default() -> Options {
        Options {
            max_levels: 0,
            include_siblings: false,
            include_header: true,
            max_lines: DEFAULT_MAX_LINES,
        }
    }
}

/// The block found: its extent and the lines to show, all 1-based and inclusive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub start: u64,
    pub end: u64,
    /// Ranges to show, in order: the whole block, or, when it is longer than `max_lines`, its
    /// first line and the lines around the anchor (one range when they touch).
    pub shown: Vec<(u64, u64)>,
}

/// The block around line `anchor` (1-based, within `shapes`) by `o`'s rules.
pub fn find(shapes: &[Shape], anchor: u64, o: &Options) -> Block {
    let n = shapes.len();
    let a = (anchor.max(1) as usize - 1).min(n.saturating_sub(1));
    let Some(at) = resolve_blank(shapes, a) else {
        // Nothing but blank lines: the anchor alone.
        return Block {
            start: anchor,
            end: anchor,
            shown: vec![(anchor, anchor)],
        };
    };
    let head = opener(shapes, choose_head(shapes, at, o.max_levels));
    let (mut s, mut e) = if o.include_siblings {
        siblings(shapes, head)
    } else {
        let s = if o.include_header {
            header(shapes, head)
        } else {
            head
        };
        (s, body_end(shapes, head))
    };
    while s < e && shapes[s].blank() {
        s += 1;
    }
    while e > s && shapes[e].blank() {
        e -= 1;
    }
    let shown = cut(s, e, head, at, o.max_lines.max(1) as usize);
    let one = |i: usize| i as u64 + 1;
    Block {
        start: one(s),
        end: one(e),
        shown: shown.into_iter().map(|(x, y)| (one(x), one(y))).collect(),
    }
}

/// A blank anchor stands for the nearest line above that is not blank (Codex gives a blank line
/// the indentation of the line before it), or else the nearest below.
fn resolve_blank(shapes: &[Shape], a: usize) -> Option<usize> {
    if !shapes[a].blank() {
        return Some(a);
    }
    (0..a)
        .rev()
        .find(|&i| !shapes[i].blank())
        .or_else(|| (a + 1..shapes.len()).find(|&i| !shapes[i].blank()))
}

/// The line that heads the chosen block: the `max_levels`th enclosing line (each the nearest
/// line above with less indentation than the last), the outermost one when there are fewer
/// or `max_levels` is 0; with none (a top-level line), the anchor itself, or the item below
/// when the anchor is one of its header lines.
fn choose_head(shapes: &[Shape], at: usize, max_levels: u64) -> usize {
    let mut head = None;
    let mut level = 0u64;
    let mut below = shapes[at].indent();
    for i in (0..at).rev() {
        let s = shapes[i];
        if s.blank() || s.indent() >= below {
            continue;
        }
        head = Some(i);
        level += 1;
        below = s.indent();
        if level == max_levels || below == 0 {
            break;
        }
    }
    head.unwrap_or_else(|| documented(shapes, at))
}

/// For a header line (comment, attribute, decorator) at the top level, the item it heads: the
/// first line below at its indentation that is not header material, with no blank line between.
fn documented(shapes: &[Shape], at: usize) -> usize {
    let indent = shapes[at].indent();
    let mut i = at;
    let mut in_comment = false;
    while i < shapes.len() {
        let s = shapes[i];
        if s.blank() {
            break;
        }
        if in_comment || s.is(OPENS_COMMENT) {
            in_comment = !s.is(ENDS_COMMENT);
        } else if s.indent() != indent {
            break;
        } else if !s.is(COMMENT) {
            return i;
        }
        i += 1;
    }
    at
}

/// A head that closes or goes on with a statement (`} else {`, `):`, `except:`) stands for
/// the line that opened it: the nearest line above at its indentation that does neither.
fn opener(shapes: &[Shape], head: usize) -> usize {
    let indent = shapes[head].indent();
    let mut h = head;
    while shapes[h].follows() {
        let Some(k) = (0..h)
            .rev()
            .find(|&i| !shapes[i].blank() && shapes[i].indent() <= indent)
        else {
            break;
        };
        if shapes[k].indent() < indent {
            break;
        }
        h = k;
    }
    h
}

/// The last line of the block headed by `head`: the deeper lines below it, then a line at its
/// indentation that closes it (`}`, `end`), or goes on with it (`} else {`, `else:`, `):`) and
/// then its own deeper lines, and so on.
fn body_end(shapes: &[Shape], head: usize) -> usize {
    let indent = shapes[head].indent();
    let mut end = head;
    let mut i = head + 1;
    while i < shapes.len() {
        let s = shapes[i];
        if s.blank() || s.indent() > indent {
            if !s.blank() {
                end = i;
            }
            i += 1;
            continue;
        }
        if s.indent() == indent && s.follows() {
            end = i;
            if s.is(CONTINUES) {
                i += 1;
                continue;
            }
        }
        break;
    }
    end
}

/// The comments, attributes and decorators directly above `head` at its indentation (a block
/// comment counts when it opens at that indentation); a blank line ends them.
fn header(shapes: &[Shape], head: usize) -> usize {
    let indent = shapes[head].indent();
    let mut start = head;
    while start > 0 {
        let p = start - 1;
        let s = shapes[p];
        if s.blank() {
            break;
        }
        if s.indent() == indent && s.is(COMMENT) {
            start = p;
            continue;
        }
        if s.is(ENDS_COMMENT) {
            let mut q = p;
            while !shapes[q].is(OPENS_COMMENT) && q > 0 && !shapes[q - 1].blank() {
                q -= 1;
            }
            if shapes[q].is(OPENS_COMMENT) && shapes[q].indent() == indent {
                start = q;
                continue;
            }
        }
        break;
    }
    start
}

/// `head`'s block with the blocks beside it: every line around it at its indentation or
/// deeper, up to the lines of less indentation (the parent's head and closer) on each side.
fn siblings(shapes: &[Shape], head: usize) -> (usize, usize) {
    let indent = shapes[head].indent();
    let inside = |i: &usize| shapes[*i].blank() || shapes[*i].indent() >= indent;
    let start = (0..head).rev().take_while(inside).last().unwrap_or(head);
    let end = (head + 1..shapes.len())
        .take_while(inside)
        .last()
        .unwrap_or(head);
    (start, end)
}

/// The ranges of `s..=e` to show in at most `max` lines: all of it, or a window around the
/// anchor `at` (as Codex grows it: one line up, one down, in turn), with the head's line in
/// front when the window leaves it out.
fn cut(s: usize, e: usize, head: usize, at: usize, max: usize) -> Vec<(usize, usize)> {
    if e - s < max {
        return vec![(s, e)];
    }
    let at = at.clamp(s, e);
    let whole = window(s, e, at, max);
    if max < 2 || head < s || head >= whole.0 || head > at {
        return vec![whole];
    }
    let (ws, we) = window(head + 1, e, at.max(head + 1), max - 1);
    if ws == head + 1 {
        vec![(head, we)]
    } else {
        vec![(head, head), (ws, we)]
    }
}

/// `len` lines of `s..=e` around `at`: half above (the odd one too), half below, the rest on
/// the other side when one side runs out.
fn window(s: usize, e: usize, at: usize, len: usize) -> (usize, usize) {
    let extra = len - 1;
    let down = (extra / 2).min(e - at);
    let up = (extra - down).min(at - s);
    let down = (extra - up).min(e - at);
    (at - up, at + down)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes(src: &str) -> Vec<Shape> {
        src.lines().map(Shape::of).collect()
    }

    /// The lines shown, as `N: text` (with `...` between ranges), for compact expectations.
    fn show(src: &str, anchor: u64, o: Options) -> Vec<String> {
        let lines: Vec<&str> = src.lines().collect();
        let b = find(&shapes(src), anchor, &o);
        let mut out = Vec::new();
        for (k, (a, z)) in b.shown.iter().enumerate() {
            if k > 0 {
                out.push("...".to_string());
            }
            for i in *a..=*z {
                out.push(format!("{i}: {}", lines[i as usize - 1]));
            }
        }
        out
    }

    fn range(src: &str, anchor: u64, o: Options) -> (u64, u64) {
        let b = find(&shapes(src), anchor, &o);
        assert_eq!(b.shown, vec![(b.start, b.end)], "not cut");
        (b.start, b.end)
    }

    fn levels(n: u64) -> Options {
        Options {
            max_levels: n,
            ..Options::default()
        }
    }

    fn with_siblings(n: u64) -> Options {
        Options {
            include_siblings: true,
            ..levels(n)
        }
    }

    #[test]
    fn shapes_measure_indentation_and_kinds() {
        assert_eq!(Shape::of("    x").indent(), 4);
        assert_eq!(Shape::of("\tx").indent(), TAB_WIDTH);
        assert_eq!(Shape::of("\t  x").indent(), TAB_WIDTH + 2);
        assert!(Shape::of("   \t ").blank());
        assert!(Shape::of("").blank());
        assert!(Shape::of("\r").blank());
        for c in [
            "# c",
            "// c",
            "/// doc",
            "#[derive(Debug)]",
            "-- sql",
            "@property",
        ] {
            assert!(Shape::of(c).is(COMMENT), "{c}");
        }
        assert!(!Shape::of("x = 1  # c").is(COMMENT));
        for c in [
            "}", "});", "]", ")", "</div>", "end", "fi", "done < f", "esac",
        ] {
            assert!(Shape::of(c).is(CLOSER), "{c}");
            assert!(!Shape::of(c).is(CONTINUES), "{c}");
        }
        for c in [
            "} else {",
            "):",
            ") -> u32 {",
            "else:",
            "elif x:",
            "except E:",
            "} catch (e) {",
        ] {
            assert!(Shape::of(c).is(CONTINUES), "{c}");
        }
        assert!(!Shape::of("else: 1").is(CONTINUES));
        for c in [
            "end = 3",
            "done: true",
            "done()",
            "endpoint()",
            "ending",
            "x }",
        ] {
            assert!(!Shape::of(c).is(CLOSER), "{c}");
        }
        assert!(Shape::of("/** doc").is(OPENS_COMMENT));
        assert!(Shape::of(" */").is(ENDS_COMMENT));
        assert_eq!(Shape::unpack(Shape::pack("  }")), Shape::of("  }"));
    }

    const NESTED_RUST: &str = "\
mod root {
    fn outer() {
        if cond {
            inner();
        }
    }
}
";

    #[test]
    fn levels_go_out_one_enclosing_block_at_a_time_with_closing_braces() {
        assert_eq!(range(NESTED_RUST, 4, levels(1)), (3, 5));
        assert_eq!(range(NESTED_RUST, 4, levels(2)), (2, 6));
        assert_eq!(range(NESTED_RUST, 4, levels(3)), (1, 7));
        // more levels than there are, and 0 (Codex's default), reach the top-level block
        assert_eq!(range(NESTED_RUST, 4, levels(9)), (1, 7));
        assert_eq!(range(NESTED_RUST, 4, levels(0)), (1, 7));
    }

    #[test]
    fn a_header_or_closing_line_is_in_its_parent_block_and_a_top_level_line_is_its_own() {
        // Codex: a line's block is the one that holds it, so the `if` line and its `}` are in fn outer
        assert_eq!(range(NESTED_RUST, 3, levels(1)), (2, 6));
        assert_eq!(range(NESTED_RUST, 5, levels(1)), (2, 6));
        // a top-level line has no enclosing block: its own (closer included), however many levels
        assert_eq!(range(NESTED_RUST, 1, levels(1)), (1, 7));
        assert_eq!(range(NESTED_RUST, 7, levels(0)), (1, 7));
        let flat = "a\nb\nc\n";
        assert_eq!(range(flat, 2, levels(0)), (2, 2));
    }

    const CODEX_CPP: &str = "\
#include <vector>
#include <string>

namespace sample {
class Runner {
public:
    void setup() {
        if (enabled_) {
            init();
        }
    }

    // Run the code
    int run() const {
        switch (mode_) {
            case Mode::Fast:
                return fast();
            case Mode::Slow:
                return slow();
            default:
                return fallback();
        }
    }

private:
    bool enabled_ = false;
    Mode mode_ = Mode::Fast;

    int fast() const {
        return 1;
    }
};
}  // namespace sample
";

    #[test]
    fn codexs_own_cases_give_codexs_answers() {
        // codex-rs read_file.rs tests: cpp shallow, deep, without header, with siblings
        assert_eq!(range(CODEX_CPP, 18, levels(1)), (15, 22));
        assert_eq!(range(CODEX_CPP, 18, levels(2)), (13, 23));
        let no_header = Options {
            include_header: false,
            ..levels(2)
        };
        assert_eq!(range(CODEX_CPP, 18, no_header), (14, 23));
        let siblings = Options {
            include_header: false,
            ..with_siblings(2)
        };
        assert_eq!(range(CODEX_CPP, 18, siblings), (7, 23));
        let py = "\
class Foo:
    def __init__(self, size):
        self.size = size
    def double(self, value):
        if value is None:
            return 0
        result = value * self.size
        return result
class Bar:
    def compute(self):
        helper = Foo(2)
        return helper.double(5)
";
        assert_eq!(range(py, 7, with_siblings(1)), (2, 8));
        let wrapper = "\
fn wrapper() {
    if first {
        do_first();
    }
    if second {
        do_second();
    }
}
";
        assert_eq!(range(wrapper, 3, levels(1)), (2, 4));
        assert_eq!(range(wrapper, 3, with_siblings(1)), (2, 7));
    }

    const PY: &str = "\
import os


class Foo:
    \"\"\"A foo.\"\"\"

    @property
    def size(self):
        return self._size

    def double(self, value):
        if value is None:

            return 0
        return value * 2
    def triple(self, value):
        return value * 3
";

    #[test]
    fn python_nested_defs_end_at_the_next_def_not_after_it() {
        // Codex would take `def triple` as if it were `double`'s closing line
        assert_eq!(range(PY, 14, levels(1)), (12, 14));
        assert_eq!(range(PY, 15, levels(1)), (11, 15));
        // the blank line inside the `if` does not end it; the blank line above `def double` does
        assert_eq!(range(PY, 14, levels(2)), (11, 15));
        // the decorator is the header of `def size`
        assert_eq!(range(PY, 9, levels(1)), (7, 9));
        let no_header = Options {
            include_header: false,
            ..levels(1)
        };
        assert_eq!(range(PY, 9, no_header), (8, 9));
        // default: the whole class (top level); the file's blank lines around it are trimmed
        assert_eq!(range(PY, 9, Options::default()), (4, 17));
        // siblings: every method of the class, not the class line
        assert_eq!(range(PY, 9, with_siblings(1)), (5, 17));
    }

    #[test]
    fn header_comments_attributes_and_block_comments() {
        let rust = "\
use x;

/// Adds.
/// Twice.
#[inline]
fn add(a: u32) -> u32 {
    a + a
}
";
        assert_eq!(range(rust, 7, levels(1)), (3, 8));
        // anchored on the doc comment itself: the item it documents
        assert_eq!(range(rust, 3, levels(1)), (3, 8));
        let java = "\
class A {
    int x;
    /**
     * Runs.
     */
    @Override
    void run() {
        go();
    }
}
";
        assert_eq!(range(java, 8, levels(1)), (3, 9));
        // a comment separated by a blank line is not the block's header
        let apart = "// about the file\n\nfn f() {\n    x();\n}\n";
        assert_eq!(range(apart, 4, levels(1)), (3, 5));
        // a statement just above is not a header either
        let stmt = "fn g() {\n    let a = 1;\n    if a {\n        b();\n    }\n}\n";
        assert_eq!(range(stmt, 4, levels(1)), (3, 5));
    }

    #[test]
    fn blocks_that_go_on_after_their_closing_line() {
        let js = "\
function f() {
    if (a) {
        one();
    } else if (b) {
        two();
    } else {
        three();
    }
    done();
}
";
        // the whole if / else if / else chain, from any of its branches
        assert_eq!(range(js, 5, levels(1)), (2, 8));
        assert_eq!(range(js, 7, levels(1)), (2, 8));
        let py = "\
def f(
    a,
    b,
):
    try:
        go(a)
    except E:
        stop(b)
    finally:
        end_it()
def g():
    pass
";
        // a signature over several lines: its closing `):` goes on into the body
        assert_eq!(range(py, 6, levels(2)), (1, 10));
        assert_eq!(range(py, 2, levels(1)), (1, 10));
        assert_eq!(range(py, 8, levels(1)), (5, 10));
        let sh = "\
if [ -f x ]; then
  while read l; do
    echo \"$l\"
  done < x
fi
echo after
";
        assert_eq!(range(sh, 3, levels(1)), (2, 4));
        assert_eq!(range(sh, 3, levels(0)), (1, 5));
    }

    #[test]
    fn tabs_count_as_four_columns() {
        let go = "func main() {\n\tfor {\n\t\tstep()\n\t}\n\tdone()\n}\n";
        assert_eq!(range(go, 3, levels(1)), (2, 4));
        assert_eq!(range(go, 3, levels(2)), (1, 6));
        // a tab and four spaces are the same level
        let mixed = "fn f() {\n\tif x {\n        y();\n\t}\n}\n";
        assert_eq!(range(mixed, 3, levels(1)), (2, 4));
    }

    #[test]
    fn a_blank_anchor_stands_for_the_line_above_it() {
        let rust = "fn a() {\n    x();\n}\n\nfn b() {\n    y();\n}\n";
        // between two functions: the one that ends above it
        assert_eq!(range(rust, 4, levels(1)), (1, 3));
        // inside a block: that block
        let py = "def f():\n    x = 1\n\n    y = 2\n";
        assert_eq!(range(py, 3, levels(1)), (1, 4));
        // blank lines at the top of the file: the first line below
        assert_eq!(range("\n\nfn c() {\n}\n", 1, levels(1)), (3, 4));
        // a file of blank lines: the anchor alone
        assert_eq!(range("\n\n\n", 2, levels(1)), (2, 2));
    }

    #[test]
    fn max_lines_keeps_the_first_line_and_the_lines_around_the_anchor() {
        let body: String = (1..=20).map(|i| format!("    s{i}();\n")).collect();
        let src = format!("fn long() {{\n{body}}}\n"); // lines 1..=22
        let o = |max| Options {
            max_lines: max,
            ..levels(1)
        };
        let b = find(&shapes(&src), 15, &o(5));
        assert_eq!((b.start, b.end), (1, 22));
        assert_eq!(b.shown, vec![(1, 1), (13, 16)]);
        assert_eq!(
            show(&src, 15, o(5)),
            [
                "1: fn long() {",
                "...",
                "13:     s12();",
                "14:     s13();",
                "15:     s14();",
                "16:     s15();"
            ]
        );
        // the window touches the first line: one range
        assert_eq!(find(&shapes(&src), 3, &o(5)).shown, vec![(1, 5)]);
        // near the end the window takes more lines above
        assert_eq!(find(&shapes(&src), 22, &o(5)).shown, vec![(1, 1), (19, 22)]);
        // one line: the anchor alone (Codex)
        assert_eq!(find(&shapes(&src), 15, &o(1)).shown, vec![(15, 15)]);
        // exactly long enough: not cut
        assert_eq!(find(&shapes(&src), 15, &o(22)).shown, vec![(1, 22)]);
        // the anchor in the header above the first line: a plain window
        let doc: String = (1..=10).map(|i| format!("/// d{i}\n")).collect();
        let src = format!("{doc}fn f() {{\n    x();\n}}\n");
        assert_eq!(find(&shapes(&src), 2, &o(3)).shown, vec![(1, 3)]);
    }

    #[test]
    fn siblings_at_the_top_level_are_the_whole_file() {
        let src = "a = 1\n\ndef f():\n    pass\n\nb = 2\n";
        assert_eq!(range(src, 4, with_siblings(1)), (1, 6));
        assert_eq!(range(src, 4, levels(1)), (3, 4));
    }
}
