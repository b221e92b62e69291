//! The block finder's cases: Codex's own, and the ones where we differ from it.

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
    // inside the doc comment, or on its last line, as on the line it documents: the
    // block holding them (the class, one level out)
    assert_eq!(range(java, 7, levels(1)), (1, 10));
    assert_eq!(range(java, 4, levels(1)), (1, 10));
    assert_eq!(range(java, 5, levels(1)), (1, 10));
    let c = "/*\n * Adds.\n */\nint add(int a) {\n    return a + a;\n}\n/* x */ int y;\nint z;\n";
    // at the top level, the item it documents
    assert_eq!(range(c, 2, levels(0)), (1, 6));
    assert_eq!(range(c, 3, levels(0)), (1, 6));
    // a comment closed on its own line is not one the next lines are in
    assert_eq!(range(c, 8, levels(0)), (8, 8));
    // a comment separated by a blank line is not the block's header
    let apart = "// about the file\n\nfn f() {\n    x();\n}\n";
    assert_eq!(range(apart, 4, levels(1)), (3, 5));
    // comments are not enclosing lines: a `#ifdef` or a comment at column 0 in a body
    let c = "void f() {\n    a();\n#ifdef X\n    b();\n#endif\n}\n";
    assert_eq!(range(c, 4, levels(1)), (1, 6));
    let py = "def f():\n    x = 1\n# note\n    y = 2\n";
    assert_eq!(range(py, 4, levels(1)), (1, 4));
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
fn siblings_pass_over_comments_at_column_0_but_do_not_end_on_them() {
    let src = "impl A {\n    fn a() {\n        x();\n    }\n// note\n    fn b() {}\n// end of the impl\n}\n";
    assert_eq!(range(src, 3, with_siblings(1)), (2, 6));
    // and a block does not end on one
    let py = "def f():\n    x = 1\n# about g\ndef g():\n    pass\n";
    assert_eq!(range(py, 2, levels(1)), (1, 2));
}

#[test]
fn siblings_at_the_top_level_are_the_whole_file() {
    let src = "a = 1\n\ndef f():\n    pass\n\nb = 2\n";
    assert_eq!(range(src, 4, with_siblings(1)), (1, 6));
    assert_eq!(range(src, 4, levels(1)), (3, 4));
}
