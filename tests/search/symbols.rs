//! `symbols` (SPEC 26.2, 26.7) through the binary.

use serde_json::{Value, json};
use testkit::Env;

fn project() -> Env {
    let env = Env::new();
    env.write_file(
        "app/parser.py",
        "import os\n\nMAX = 3\nlimit = 10\n\nclass Parser:\n    mode = 'x'\n\n    def parse(self, text):\n        return helper(text)\n\ndef helper(x):\n    # helper is mentioned in a comment\n    s = 'helper in a string'\n    local = 1\n    return x\n",
    );
    env.write_file(
        "app/other.py",
        "from parser import helper\n\ndef helper():\n    pass\n",
    );
    env.write_file(
        "src/lib.rs",
        "pub struct Parser;\n\nimpl Parser {\n    pub fn parse(&self) -> u8 {\n        helper()\n    }\n}\n\nfn helper() -> u8 {\n    1\n}\n",
    );
    env.write_file(
        "src/shapes.cpp",
        "namespace geo {\nclass Shape {\n  double area();\n};\ndouble Shape::area() { return 0; }\n}\n",
    );
    env.write_file("src/api.h", "class Widget {\n public:\n  int size;\n};\n");
    env.write_file(
        "src/plain.h",
        "struct point { int x; };\nint origin_x(void);\n",
    );
    env.write_file("README.md", "helper Parser\n");
    env
}

fn names(out: &testkit::Out) -> Vec<String> {
    out.data()["files"][0]["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let parent = s["parent"]
                .as_str()
                .map(|p| format!("{p}/"))
                .unwrap_or_default();
            format!(
                "{} {parent}{}",
                s["kind"].as_str().unwrap(),
                s["name"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn outline_lists_definitions_with_assignments_and_not_locals() {
    let env = project();
    let out = env.call("symbols", json!({"path": "app/parser.py"}));
    out.assert_ok();
    assert_eq!(
        names(&out),
        [
            "const MAX",
            "variable limit",
            "class Parser",
            "variable Parser/mode",
            "method Parser/parse",
            "function helper"
        ]
    );
    assert_eq!(out.data()["syntactic"], true);
    let s = &out.data()["files"][0]["symbols"][4];
    assert_eq!(
        (s["line"].as_u64(), s["end_line"].as_u64()),
        (Some(9), Some(10))
    );
    assert_eq!(s["signature"], "def parse(self, text)");
    // One line each, indented by nesting; the comment after the colon is not the signature.
    assert_eq!(
        out.output(),
        "3-3 const MAX = 3\n4-4 variable limit = 10\n6-10 class Parser\n  7-7 variable mode = 'x'\n  9-10 method def parse(self, text)\n12-16 function def helper(x)\n"
    );
}

#[test]
fn outline_depth_kinds_and_limit() {
    let env = project();
    let out = env.call("symbols", json!({"path": "app/parser.py", "depth": 1}));
    assert!(
        !names(&out).iter().any(|n| n.contains("Parser/")),
        "{:?}",
        names(&out)
    );
    let out = env.call(
        "symbols",
        json!({"path": "app/parser.py", "kinds": ["method", "class"]}),
    );
    assert_eq!(names(&out), ["class Parser", "method Parser/parse"]);
    let out = env.call("symbols", json!({"path": "app/parser.py", "limit": 2}));
    assert_eq!(out.data()["shown"], 2);
    assert_eq!(out.data()["total"], 6);
    assert!(
        out.output()
            .ends_with("(4 more definitions: raise limit, or narrow with kinds or depth)\n"),
        "{}",
        out.output()
    );
    env.call(
        "symbols",
        json!({"path": "app/parser.py", "kinds": ["field"]}),
    )
    .assert_invalid("kinds[0]");
    env.call("symbols", json!({"path": "app/parser.py", "depth": 0}))
        .assert_invalid("depth");
}

#[test]
fn qualified_names_join_as_the_language_does() {
    let env = project();
    let out = env.call("symbols", json!({"path": "src/shapes.cpp"}));
    assert_eq!(
        names(&out),
        ["module geo", "class geo/Shape", "method geo::Shape/area"]
    );
    let out = env.call("symbols", json!({"path": "src/lib.rs"}));
    assert_eq!(
        names(&out),
        ["struct Parser", "method Parser/parse", "function helper"]
    );
    let out = env.call(
        "symbols",
        json!({"action": "definition", "name": "Parser::parse"}),
    );
    out.assert_ok();
    let defs = out.data()["definitions"].as_array().unwrap();
    let q: Vec<&str> = defs
        .iter()
        .map(|d| d["qualified"].as_str().unwrap())
        .collect();
    // `Parser::parse` and `Parser.parse` are one question: every language's answer is shown.
    assert_eq!(q, ["Parser.parse", "Parser::parse"]);
}

#[test]
fn dot_h_is_c_unless_it_holds_cpp() {
    let env = project();
    let out = env.call("symbols", json!({"paths": ["src/api.h", "src/plain.h"]}));
    out.assert_ok();
    let langs: Vec<&str> = out.data()["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["language"].as_str().unwrap())
        .collect();
    assert_eq!(langs, ["cpp", "c"]);
    // A prototype is not a definition; the struct is.
    let plain = &out.data()["files"][1]["symbols"];
    assert_eq!(plain.as_array().unwrap().len(), 1, "{plain}");
    assert_eq!(plain[0]["name"], "point");
}

#[test]
fn definition_ranks_the_given_file_then_its_directory() {
    let env = project();
    let out = env.call(
        "symbols",
        json!({"action": "definition", "name": "helper", "path": "src/lib.rs"}),
    );
    out.assert_ok();
    let paths: Vec<&str> = out.data()["definitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["src/lib.rs", "app/other.py", "app/parser.py"]);
    assert!(
        out.output().starts_with("3 definitions of helper"),
        "{}",
        out.output()
    );
    // `scope` limits the search; the path does not.
    let out = env.call(
        "symbols",
        json!({"action": "definition", "name": "helper", "path": "src/lib.rs", "scope": "app/*.py"}),
    );
    assert_eq!(out.data()["total"], 2);
    let out = env.call(
        "symbols",
        json!({"action": "definition", "name": "helper", "scope": "app"}),
    );
    assert_eq!(out.data()["total"], 2);
    let out = env.call(
        "symbols",
        json!({"action": "definition", "name": "nothing_here"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["total"], 0);
}

#[test]
fn references_skip_strings_and_comments_and_mark_definitions() {
    let env = project();
    let out = env.call(
        "symbols",
        json!({"action": "references", "name": "helper", "scope": "app/parser.py"}),
    );
    out.assert_ok();
    assert!(
        out.output()
            .starts_with("2 references to helper in 1 files, matched by name"),
        "{}",
        out.output()
    );
    let refs = out.data()["references"].as_array().unwrap();
    let lines: Vec<(u64, bool)> = refs
        .iter()
        .map(|r| {
            (
                r["line"].as_u64().unwrap(),
                r["definition"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(lines, [(10, false), (12, true)]);
    assert_eq!(refs[0]["column"], 16);
    assert_eq!(out.data()["syntactic"], true);
    // Across the tree, grouped by file; README.md (another language) is left out silently.
    let out = env.call("symbols", json!({"action": "references", "name": "helper"}));
    assert_eq!(out.data()["files"], 3);
    assert_eq!(out.data()["skipped"], json!([]));
    assert!(
        out.output().contains(
            "\napp/other.py\n  1: from parser import helper\n  3: def helper():  (definition)\n"
        ),
        "{}",
        out.output()
    );
}

#[test]
fn references_count_destructured_properties() {
    // tsserver counts `const { size } = box` as a reference to the property `size`.
    let env = Env::new();
    env.write_file(
        "box.ts",
        "export class Box {\n  size = 1;\n}\nexport function area(box: Box) {\n  const { size } = box;\n  return size * box.size;\n}\n",
    );
    let out = env.call("symbols", json!({"action": "references", "name": "size"}));
    out.assert_ok();
    let at: Vec<(u64, u64)> = out.data()["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["line"].as_u64().unwrap(), r["column"].as_u64().unwrap()))
        .collect();
    assert_eq!(at, [(2, 3), (5, 11), (6, 10), (6, 21)]);
}

#[test]
fn named_files_of_other_languages_are_skipped_with_a_note() {
    let env = project();
    let out = env.call("symbols", json!({"paths": ["README.md", "src/lib.rs"]}));
    out.assert_ok();
    assert_eq!(out.data()["skipped"][0]["path"], "README.md");
    assert!(
        out.output()
            .contains("(skipped README.md: not in a language built in")
    );
    assert_eq!(out.data()["files"].as_array().unwrap().len(), 1);
}

#[test]
fn big_and_deep_files_are_skipped_never_overflowed() {
    let env = project();
    let deep = format!("x = {}1{}\n", "[".repeat(100_000), "]".repeat(100_000));
    env.write_file("deep.py", &deep);
    let mut big = String::from("def f():\n    pass\n");
    big.push_str(&"# filler line of a big file\n".repeat(160_000));
    env.write_file("big.py", &big);
    let out = env.call("symbols", json!({"paths": ["deep.py", "big.py"]}));
    out.assert_ok();
    let skipped: Vec<String> = out.data()["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{}: {}",
                s["path"].as_str().unwrap(),
                s["reason"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    // In the order named.
    assert_eq!(skipped[0], "deep.py: nested more than 1000 levels deep");
    assert!(
        skipped[1].starts_with("big.py: ") && skipped[1].contains("over the 4 MiB"),
        "{skipped:?}"
    );
    // Walked, the deep file is still reported (size and depth are always said).
    let out = env.call("symbols", json!({"action": "references", "name": "x"}));
    out.assert_ok();
    assert!(
        out.output()
            .contains("(skipped deep.py: nested more than 1000 levels deep)")
    );
}

#[test]
fn bad_input_names_its_field() {
    let env = project();
    env.call("symbols", json!({})).assert_invalid("path");
    env.call("symbols", json!({"action": "definition"}))
        .assert_invalid("name");
    env.call("symbols", json!({"action": "definition", "name": "a b"}))
        .assert_invalid("name");
    env.call("symbols", json!({"path": "a.py", "name": "x"}))
        .assert_invalid("name");
    env.call(
        "symbols",
        json!({"path": "src/lib.rs", "paths": ["src/lib.rs"]}),
    )
    .assert_invalid("paths");
    let many: Vec<Value> = (0..101).map(|i| json!(format!("f{i}.py"))).collect();
    env.call("symbols", json!({"paths": many}))
        .assert_invalid("paths");
    env.call("symbols", json!({"path": "missing.py"}))
        .assert_err("not_found");
}

#[test]
fn every_language_outlines() {
    let env = Env::new();
    let files = [
        ("a.rs", "fn f() {}\n", "function f"),
        ("a.py", "def f():\n    pass\n", "function f"),
        ("a.js", "function f() {}\n", "function f"),
        ("a.ts", "interface I { m(): void }\n", "interface I"),
        ("a.tsx", "const C = () => <div/>;\n", "function C"),
        ("a.go", "package p\nfunc F() {}\n", "function F"),
        ("A.java", "class A {}\n", "class A"),
        ("a.c", "int f(void) { return 0; }\n", "function f"),
        ("a.cc", "class K {};\n", "class K"),
    ];
    for (path, src, first) in files {
        env.write_file(path, src);
        let out = env.call("symbols", json!({"path": path}));
        out.assert_ok();
        assert_eq!(names(&out)[0], first, "{path}");
    }
    // A script without an extension says its language in its shebang.
    env.write_file("tool", "#!/usr/bin/env python3\ndef main():\n    pass\n");
    let out = env.call("symbols", json!({"path": "tool"}));
    assert_eq!(out.data()["files"][0]["language"], "python");
}

#[test]
fn other_agents_names_answer_from_symbols() {
    let env = project();
    // Claude Code's LSP: 1-based line and character; the identifier there is the name.
    let out = env.call(
        "LSP",
        json!({"operation": "goToDefinition", "filePath": "app/parser.py", "line": 10, "character": 17}),
    );
    out.assert_ok();
    assert_eq!(out.json["tool"], "symbols");
    assert_eq!(out.data()["definitions"][0]["path"], "app/parser.py");
    assert_eq!(out.data()["definitions"][0]["line"], 12);
    let out = env.call(
        "LSP",
        json!({"operation": "findReferences", "filePath": "src/lib.rs", "line": 9, "character": 4}),
    );
    assert_eq!(out.data()["references"][0]["path"], "src/lib.rs");
    let out = env.call(
        "LSP",
        json!({"operation": "documentSymbol", "filePath": "src/lib.rs", "line": 1, "character": 1}),
    );
    assert_eq!(names(&out)[0], "struct Parser");
    env.call(
        "LSP",
        json!({"operation": "hover", "filePath": "src/lib.rs", "line": 1, "character": 1}),
    )
    .assert_invalid("operation");
    env.call(
        "LSP",
        json!({"operation": "goToDefinition", "filePath": "src/lib.rs", "line": 2, "character": 1}),
    )
    .assert_err("no_match");
    // Serena's names and fields.
    let out = env.call(
        "get_symbols_overview",
        json!({"relative_path": "app/parser.py", "depth": 0}),
    );
    assert_eq!(
        names(&out),
        [
            "const MAX",
            "variable limit",
            "class Parser",
            "function helper"
        ]
    );
    let out = env.call(
        "find_symbol",
        json!({"name_path": "Parser/parse", "relative_path": "app"}),
    );
    assert_eq!(out.data()["total"], 1);
    assert_eq!(out.data()["definitions"][0]["qualified"], "Parser.parse");
    let out = env.call(
        "find_referencing_symbols",
        json!({"name_path": "helper", "relative_path": "app/other.py"}),
    );
    assert_eq!(out.data()["references"][0]["path"], "app/other.py");
    // Seed 002's analyze_code: classes, functions, imports.
    let out = env.call("analyze_code", json!({"path": "app/parser.py"}));
    out.assert_ok();
    assert_eq!(
        out.data()["imports"],
        json!([{"line": 1, "text": "import os"}])
    );
    let classes: Vec<&str> = out.data()["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(classes, ["Parser"]);
    assert_eq!(out.data()["functions"].as_array().unwrap().len(), 2);
}

#[test]
fn definition_reads_the_tag_cache_map_fills() {
    let env = project();
    let q = json!({"action": "definition", "name": "helper"});
    let first = env.call("symbols", q.clone());
    assert_eq!(first.data()["files_parsed"], 3);
    let again = env.call("symbols", q.clone());
    assert_eq!(again.data()["files_parsed"], 0);
    assert_eq!(again.data()["definitions"], first.data()["definitions"]);
    // A changed file is parsed again, and its new definition found.
    env.write_file("app/other.py", "\n\ndef helper(a, b):\n    pass\n");
    let changed = env.call("symbols", q);
    assert_eq!(changed.data()["files_parsed"], 1);
    let sigs: Vec<&str> = changed.data()["definitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["signature"].as_str().unwrap())
        .collect();
    assert!(sigs.contains(&"def helper(a, b)"), "{sigs:?}");
}
