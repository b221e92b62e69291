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
/// Opens a block comment that goes on past this line (no `*/` or `-->` on it).
const UNCLOSED: u32 = 1 << 25;
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
            if !text.contains("*/") && !text.contains("-->") {
                flags |= UNCLOSED;
            }
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
    let at = comment_start(shapes, at).unwrap_or(at);
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

/// Where the block comment holding line `at` opens (a line inside `/** ... */` stands for the
/// comment, so for the item it documents), if it is in one.
fn comment_start(shapes: &[Shape], at: usize) -> Option<usize> {
    if shapes[at].is(UNCLOSED) {
        return Some(at);
    }
    for i in (0..at).rev() {
        let s = shapes[i];
        if s.blank() || s.is(ENDS_COMMENT) {
            return None;
        }
        if s.is(UNCLOSED) {
            return Some(i);
        }
    }
    None
}

/// The line that heads the chosen block: the `max_levels`th enclosing line (each the nearest
/// line above with less indentation than the last; comments say nothing of the structure, as
/// a `#ifdef` or a comment at column 0 inside a function), the outermost one when there are
/// fewer or `max_levels` is 0; with none (a top-level line), the anchor itself, or the item
/// below when the anchor is one of its header lines.
fn choose_head(shapes: &[Shape], at: usize, max_levels: u64) -> usize {
    let mut head = None;
    let mut level = 0u64;
    let mut below = shapes[at].indent();
    for i in (0..at).rev() {
        let s = shapes[i];
        if s.blank() || s.is(COMMENT | OPENS_COMMENT) || s.indent() >= below {
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
/// then its own deeper lines, and so on. Blank lines and comments that are not deeper (a
/// `#endif`, a comment at column 0) belong to it only when deeper lines follow them.
fn body_end(shapes: &[Shape], head: usize) -> usize {
    let indent = shapes[head].indent();
    let mut end = head;
    let mut i = head + 1;
    while i < shapes.len() {
        let s = shapes[i];
        if s.blank() || s.is(COMMENT) || s.indent() > indent {
            if !s.blank() && s.indent() > indent {
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
/// deeper, up to the lines of less indentation (the parent's head and closer) on each side;
/// blank lines and less indented comments are passed over, and kept only between such lines.
fn siblings(shapes: &[Shape], head: usize) -> (usize, usize) {
    let indent = shapes[head].indent();
    let over =
        |i: &usize| shapes[*i].blank() || shapes[*i].is(COMMENT) || shapes[*i].indent() >= indent;
    let kept = |i: &usize| !shapes[*i].blank() && shapes[*i].indent() >= indent;
    let start = (0..head)
        .rev()
        .take_while(over)
        .filter(kept)
        .last()
        .unwrap_or(head);
    let end = (head + 1..shapes.len())
        .take_while(over)
        .filter(kept)
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
mod tests;
