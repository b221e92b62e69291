//! The layers of this crate, kept by a test (SPEC 30.2): no module imports one of a layer above
//! it, and no import cycle spans more than one folder.
//!
//! Crates keep the layers between them (a cycle cannot compile); inside this crate the compiler
//! allows anything, so this test reads the sources. It follows every path the code names —
//! `use` lines and inline `crate::…`/`super::…` paths alike (the review of 6fcd5fe found 160
//! inline paths hiding edges from a reader of the `use` lines) — and skips comments and in-file
//! test modules, which may use anything.

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first, and the top-level modules in each. A module not listed fails the
/// test: a new module must say where it lives.
const LAYERS: &[(&str, &[&str])] = &[
    ("engines", ENGINES),
    ("core", CORE),
    ("tools", &["tools"]), // crates/tools
    ("policy", &["catalog", "dialects"]),
    ("pipeline", &["dispatch", "integration", "panic_hook"]),
    ("cli", &["", "api", "arg0", "cli"]),
];

/// The engine crates (crates/), bound at the root under their old module names.
const ENGINES: &[&str] = &["control", "text"];

/// The core crate (crates/core)'s modules, bound at the root under their old names.
const CORE: &[&str] = &[
    "caps",
    "change",
    "context",
    "envelope",
    "error",
    "exit_status",
    "fault",
    "fsx",
    "hub",
    "input",
    "journal",
    "offered",
    "policy",
    "reads",
    "sandbox",
    "shell",
    "state",
    "tool",
    "walk",
    "web",
];

/// Modules compiled only for tests.
const TEST_ONLY: &[&str] = &["edit_props", "fuzz", "layers"];

fn layer_of(module: &str) -> Option<usize> {
    let top = module.split('/').next().unwrap_or("");
    LAYERS.iter().position(|(_, mods)| mods.contains(&top))
}

/// A source file: its module path (`tools/run/exec`, "" for the root) and its text with
/// comments and in-file test modules removed.
struct Source {
    module: String,
    folder: PathBuf,
    code: String,
}

fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts.join("/")
}

/// Drops `//` comments and every `#[cfg(test)]` item (a test module's braces are balanced).
fn production_code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("//") {
            continue;
        }
        if t.starts_with("#[cfg(test)]") {
            // Skip the next item: a one-line item, or a block up to its closing brace.
            let mut depth = 0i32;
            let mut opened = false;
            for l in lines.by_ref() {
                depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
                opened |= l.contains('{');
                if (opened && depth <= 0) || (!opened && l.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        out.push_str(line.split(" // ").next().unwrap_or(line));
        out.push('\n');
    }
    out
}

fn sources(src: &Path) -> Vec<Source> {
    let mut files = vec![];
    let mut dirs = vec![src.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .filter(|f| {
            f.file_name()
                .is_some_and(|n| n != "main.rs" && n != "entry.rs")
        })
        .map(|f| Source {
            module: module_of(src, &f),
            folder: f.parent().unwrap().to_path_buf(),
            code: production_code(&std::fs::read_to_string(&f).unwrap()),
        })
        .filter(|s| !TEST_ONLY.contains(&s.module.split('/').next().unwrap_or("")))
        .collect()
}

/// Expands `use crate::{a, b::{c, d}}` (and `super::`) into the paths it names.
fn expand(prefix: &str, group: &str, out: &mut Vec<String>) {
    let mut depth = 0;
    let mut start = 0;
    let bytes = group.as_bytes();
    let mut items = vec![];
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    for item in items {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        match item.find("::{") {
            Some(i) if item.ends_with('}') => {
                let inner = &item[i + 3..item.len() - 1];
                expand(&format!("{prefix}::{}", &item[..i]), inner, out);
            }
            _ => {
                let name = item.split(" as ").next().unwrap().trim();
                out.push(format!("{prefix}::{name}"));
            }
        }
    }
}

/// The modules a file names, resolved to the longest module path that exists.
fn references(s: &Source, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let path = Regex::new(r"\b((?:crate|super)(?:::(?:super|[A-Za-z_][A-Za-z_0-9]*))+)").unwrap();
    let group = Regex::new(r"\b((?:crate|super)(?:::(?:super|[a-z_][a-z_0-9]*))*)::\{").unwrap();
    let mut paths: Vec<String> = path
        .captures_iter(&s.code)
        .map(|c| c[1].to_string())
        .collect();
    for c in group.captures_iter(&s.code) {
        let open = c.get(0).unwrap().end();
        let mut depth = 1;
        let rest = &s.code[open..];
        let end = rest
            .char_indices()
            .find(|&(_, ch)| {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .map_or(rest.len(), |(i, _)| i);
        expand(&c[1], &rest[..end], &mut paths);
    }
    // `super` counts from the module a file is: mod.rs is its folder's module.
    let here: Vec<&str> = s.module.split('/').filter(|p| !p.is_empty()).collect();
    let mut found = BTreeSet::new();
    for p in paths {
        let mut segs: Vec<&str> = vec![];
        let mut base = here.clone();
        let mut words = p.split("::").peekable();
        if words.peek() == Some(&"crate") {
            words.next();
            base.clear();
        }
        for w in words {
            if w == "super" && segs.is_empty() {
                base.pop();
            } else {
                segs.push(w);
            }
        }
        let full: Vec<&str> = base.iter().copied().chain(segs).collect();
        let target = (0..=full.len())
            .rev()
            .map(|n| full[..n].join("/"))
            .find(|m| modules.contains(m))
            .unwrap_or_default();
        if target != s.module && !TEST_ONLY.contains(&target.as_str()) {
            found.insert(target);
        }
    }
    found
}

fn graph() -> (Vec<Source>, BTreeMap<String, BTreeSet<String>>) {
    graph_of("src")
}

/// The module graph of the sources under `dir` (relative to the workspace root).
fn graph_of(dir: &str) -> (Vec<Source>, BTreeMap<String, BTreeSet<String>>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let files = sources(&src);
    let modules: BTreeSet<String> = files
        .iter()
        .map(|s| s.module.clone())
        .chain(
            LAYERS
                .iter()
                .flat_map(|(_, m)| m.iter())
                .map(|m| m.to_string()),
        )
        .chain(TEST_ONLY.iter().map(|m| m.to_string()))
        .collect();
    let edges = files
        .iter()
        .map(|s| (s.module.clone(), references(s, &modules)))
        .collect();
    (files, edges)
}

#[test]
fn every_module_has_a_layer() {
    let (files, _) = graph();
    let lost: Vec<&str> = files
        .iter()
        .map(|s| s.module.as_str())
        .filter(|m| layer_of(m).is_none())
        .collect();
    assert!(
        lost.is_empty(),
        "modules in no layer of src/layers.rs: {lost:?}"
    );
}

#[test]
fn no_module_imports_a_layer_above_its_own() {
    let (_, edges) = graph();
    let mut upward = vec![];
    for (from, tos) in &edges {
        let Some(mine) = layer_of(from) else { continue };
        for to in tos {
            if let Some(theirs) = layer_of(to).filter(|&l| l > mine) {
                upward.push(format!(
                    "{from} ({}) -> {to} ({})",
                    LAYERS[mine].0, LAYERS[theirs].0
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that run up a layer:\n{}",
        upward.join("\n")
    );
}

#[test]
fn no_import_cycle_spans_more_than_one_folder() {
    // This crate's modules, the tools' and the core's (the engines are small, flat crates).
    cycles_within_folders("src");
    cycles_within_folders("crates/tools/src");
    cycles_within_folders("crates/core/src");
}

fn cycles_within_folders(dir: &str) {
    let (files, edges) = graph_of(dir);
    let folder: BTreeMap<&str, &Path> = files
        .iter()
        .map(|s| (s.module.as_str(), s.folder.as_path()))
        .collect();
    let mut bad = vec![];
    for cycle in strongly_connected(&edges) {
        let folders: BTreeSet<&Path> = cycle
            .iter()
            .filter_map(|m| folder.get(m.as_str()))
            .copied()
            .collect();
        if folders.len() > 1 {
            bad.push(format!("{cycle:?}"));
        }
    }
    assert!(
        bad.is_empty(),
        "import cycles across folders:\n{}",
        bad.join("\n")
    );
}

/// Tarjan's strongly connected components with more than one member.
fn strongly_connected(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        let edges = t.edges;
        for w in edges.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !edges.contains_key(w) {
                continue;
            }
            if !t.index.contains_key(w) {
                visit(t, w);
                let l = t.low[w].min(t.low[v]);
                t.low.insert(v, l);
            } else if t.on.contains(w) {
                let l = t.index[w].min(t.low[v]);
                t.low.insert(v, l);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = vec![];
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: vec![],
        on: BTreeSet::new(),
        out: vec![],
    };
    for v in edges.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn the_checker_sees_inline_and_grouped_paths() {
    let modules: BTreeSet<String> = ["", "a", "a/b", "c", "d", "d/e"].map(String::from).into();
    let s = Source {
        module: "a/b".into(),
        folder: PathBuf::from("src/a"),
        code: production_code(
            "use crate::{c::X, d::{e::Y}};\nfn f() { super::g(); }\n// crate::zz\n#[cfg(test)]\nmod tests {\n    use crate::q;\n}\n",
        ),
    };
    let found = references(&s, &modules);
    assert_eq!(found, ["a", "c", "d/e"].map(String::from).into());
}
