//! The definitions of a file (SPEC 26.2, 26.7): one cursor walk over the tree, each node kind
//! classified per language, with the containers (classes, impls, namespaces, functions) kept on
//! a stack so a definition knows its qualified parent and whether it sits at module or class
//! level (where assignments count) or inside a function (where they are locals).
//!
//! A classifier in code rather than tree-sitter's `tags.scm` queries: the queries do not give
//! parents, module-level assignments or Go receivers, and they are not shipped for every grammar.

use crate::{Lang, text, walk};
use tree_sitter::{Node, Tree};

/// The kinds of definition (`symbols`' `kinds` takes their names).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    serde::Deserialize,
    serde::Serialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Function,
    Method,
    Class,
    Struct,
    Enum,
    Trait,
    Interface,
    Type,
    Const,
    Variable,
    Module,
    Macro,
}

impl Kind {
    pub const ALL: [Kind; 12] = [
        Kind::Function,
        Kind::Method,
        Kind::Class,
        Kind::Struct,
        Kind::Enum,
        Kind::Trait,
        Kind::Interface,
        Kind::Type,
        Kind::Const,
        Kind::Variable,
        Kind::Module,
        Kind::Macro,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Function => "function",
            Kind::Method => "method",
            Kind::Class => "class",
            Kind::Struct => "struct",
            Kind::Enum => "enum",
            Kind::Trait => "trait",
            Kind::Interface => "interface",
            Kind::Type => "type",
            Kind::Const => "const",
            Kind::Variable => "variable",
            Kind::Module => "module",
            Kind::Macro => "macro",
        }
    }

    pub fn from_name(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// One definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub kind: Kind,
    /// The qualified name of the container (`Type`, `outer::Type`), if any.
    pub parent: Option<String>,
    /// Nesting among definitions: 0 at the top.
    pub depth: usize,
    /// 1-based lines of the definition itself.
    pub line: usize,
    pub end_line: usize,
    /// Byte range with its decorators, attributes and doc comments (what an insert goes around).
    pub start: usize,
    pub end: usize,
    /// Byte offset of the name (references mark it as the definition).
    pub name_at: usize,
    /// The declaration up to its body, whitespace folded, at most 200 characters.
    pub signature: String,
    /// The inside of the body: between the braces, or Python's indented suite.
    pub body: Option<(usize, usize)>,
}

impl Symbol {
    /// `parent` joined to `name` as the language joins them.
    pub fn qualified(&self, lang: Lang) -> String {
        match &self.parent {
            Some(p) => format!("{p}{}{}", lang.joiner(), self.name),
            None => self.name.clone(),
        }
    }
}

/// Where a node sits: what assignments mean there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    Module,
    Class,
    Function,
}

struct Frame {
    tree_depth: usize,
    /// Qualified name (None: anonymous, e.g. a closure or an unnamed namespace).
    name: Option<String>,
    sym_depth: usize,
    scope: Scope,
}

/// What a node is.
enum Found<'t> {
    /// Definitions (`name` node, kind); `opens` says the node is a container for what is inside.
    Defs(Vec<(Node<'t>, Kind)>, Option<Scope>),
    /// A container that is no definition of its own (Rust impl, C++ unnamed namespace,
    /// closures): named, it qualifies what is inside.
    Opens(Option<String>, Scope),
    Nothing,
}

/// The definitions of a parsed file, in document order.
pub fn symbols(lang: Lang, tree: &Tree, src: &[u8]) -> Vec<Symbol> {
    let mut out = vec![];
    let mut stack: Vec<Frame> = vec![];
    walk(tree, |node, depth| {
        while stack.last().is_some_and(|f| f.tree_depth >= depth) {
            stack.pop();
        }
        if !node.is_named() {
            return false;
        }
        let scope = stack.last().map_or(Scope::Module, |f| f.scope);
        let found = classify(lang, node, scope, src);
        let parent = stack.iter().rev().find_map(|f| f.name.clone());
        let sym_depth = stack.last().map_or(0, |f| f.sym_depth);
        match found {
            Found::Defs(defs, opens) => {
                let mut own = None;
                for (name_node, kind) in defs {
                    let s = make(lang, node, name_node, kind, parent.clone(), sym_depth, src);
                    own = Some(s.qualified(lang));
                    out.push(s);
                }
                if let Some(scope) = opens {
                    stack.push(Frame {
                        tree_depth: depth,
                        name: own.or(parent),
                        sym_depth: sym_depth + 1,
                        scope,
                    });
                }
            }
            Found::Opens(name, scope) => {
                let name = match (name, &parent) {
                    (Some(n), Some(p)) => Some(format!("{p}{}{n}", lang.joiner())),
                    (Some(n), None) => Some(n),
                    (None, p) => p.clone(),
                };
                stack.push(Frame {
                    tree_depth: depth,
                    name,
                    sym_depth,
                    scope,
                });
            }
            Found::Nothing => {}
        }
        true
    });
    out
}

fn field<'t>(node: Node<'t>, name: &str) -> Option<Node<'t>> {
    node.child_by_field_name(name)
}

fn named<'t>(node: Node<'t>, kind: Kind, opens: Option<Scope>) -> Found<'t> {
    match field(node, "name") {
        Some(n) => Found::Defs(vec![(n, kind)], opens),
        None => match opens {
            Some(s) => Found::Opens(None, s),
            None => Found::Nothing,
        },
    }
}

fn classify<'t>(lang: Lang, node: Node<'t>, scope: Scope, src: &[u8]) -> Found<'t> {
    match lang {
        Lang::Rust => rust(node, scope, src),
        Lang::Python => python(node, scope, src),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => js(node, scope, src),
        Lang::Go => go(node, scope, src),
        Lang::Java => java(node, scope, src),
        Lang::C | Lang::Cpp => c(lang, node, scope, src),
    }
}

const FN: Option<Scope> = Some(Scope::Function);
const CLASS: Option<Scope> = Some(Scope::Class);

fn method_or_function(scope: Scope) -> Kind {
    if scope == Scope::Class {
        Kind::Method
    } else {
        Kind::Function
    }
}

fn rust<'t>(node: Node<'t>, scope: Scope, src: &[u8]) -> Found<'t> {
    let outer = scope != Scope::Function;
    match node.kind() {
        "function_item" => named(node, method_or_function(scope), FN),
        "function_signature_item" => named(node, method_or_function(scope), None),
        "struct_item" | "union_item" => named(node, Kind::Struct, CLASS),
        "enum_item" => named(node, Kind::Enum, CLASS),
        "trait_item" => named(node, Kind::Trait, CLASS),
        "mod_item" => named(node, Kind::Module, Some(Scope::Module)),
        "type_item" | "associated_type" => named(node, Kind::Type, None),
        "macro_definition" => named(node, Kind::Macro, None),
        "const_item" if outer => named(node, Kind::Const, None),
        "static_item" if outer => named(node, Kind::Variable, None),
        "impl_item" => {
            // `impl<T> Trait for Type<T>`: the type, without its generics, qualifies the methods.
            let ty = field(node, "type").map(|t| field(t, "type").unwrap_or(t));
            let name = ty.map(|t| text(t, src).to_string());
            Found::Opens(name, Scope::Class)
        }
        "closure_expression" => Found::Opens(None, Scope::Function),
        _ => Found::Nothing,
    }
}

fn python<'t>(node: Node<'t>, scope: Scope, src: &[u8]) -> Found<'t> {
    match node.kind() {
        "function_definition" => named(node, method_or_function(scope), FN),
        "class_definition" => named(node, Kind::Class, CLASS),
        "lambda" => Found::Opens(None, Scope::Function),
        "expression_statement" if scope != Scope::Function => {
            let Some(a) = node.named_child(0).filter(|a| a.kind() == "assignment") else {
                return Found::Nothing;
            };
            match field(a, "left").filter(|l| l.kind() == "identifier") {
                Some(l) => Found::Defs(vec![(l, const_or_variable(text(l, src)))], None),
                None => Found::Nothing,
            }
        }
        _ => Found::Nothing,
    }
}

/// Python has no `const`: an all-capitals name is one by convention (PEP 8).
fn const_or_variable(name: &str) -> Kind {
    let letters = name.chars().any(|c| c.is_ascii_alphabetic());
    if letters && !name.chars().any(|c| c.is_lowercase()) {
        Kind::Const
    } else {
        Kind::Variable
    }
}

fn js<'t>(node: Node<'t>, scope: Scope, src: &[u8]) -> Found<'t> {
    match node.kind() {
        "function_declaration" | "generator_function_declaration" | "function_signature" => {
            let opens = (node.kind() != "function_signature").then_some(Scope::Function);
            named(node, Kind::Function, opens)
        }
        "class_declaration" | "abstract_class_declaration" => named(node, Kind::Class, CLASS),
        "method_definition" => named(node, Kind::Method, FN),
        "method_signature" | "abstract_method_signature" => named(node, Kind::Method, None),
        "interface_declaration" => named(node, Kind::Interface, CLASS),
        "type_alias_declaration" => named(node, Kind::Type, None),
        "enum_declaration" => named(node, Kind::Enum, None),
        "internal_module" | "module" => named(node, Kind::Module, Some(Scope::Module)),
        "arrow_function" | "function_expression" | "function" | "generator_function" => {
            Found::Opens(None, Scope::Function)
        }
        "lexical_declaration" | "variable_declaration" if scope == Scope::Module => {
            let constant = text(node, src).starts_with("const");
            let mut defs = vec![];
            let mut c = node.walk();
            for d in node.named_children(&mut c) {
                let Some(name) = field(d, "name").filter(|n| n.kind() == "identifier") else {
                    continue;
                };
                let value = field(d, "value").map(|v| v.kind());
                let kind = match value {
                    Some("arrow_function" | "function_expression" | "function") => Kind::Function,
                    _ if constant => Kind::Const,
                    _ => Kind::Variable,
                };
                defs.push((name, kind));
            }
            Found::Defs(defs, None)
        }
        _ => Found::Nothing,
    }
}

fn go<'t>(node: Node<'t>, scope: Scope, _src: &[u8]) -> Found<'t> {
    let top = scope == Scope::Module;
    match node.kind() {
        "function_declaration" => named(node, Kind::Function, FN),
        "method_declaration" => named(node, Kind::Method, FN),
        "func_literal" => Found::Opens(None, Scope::Function),
        "type_spec" | "type_alias" => {
            let kind = match field(node, "type").map(|t| t.kind()) {
                Some("struct_type") => Kind::Struct,
                Some("interface_type") => Kind::Interface,
                _ => Kind::Type,
            };
            named(node, kind, None)
        }
        "const_spec" | "var_spec" if top => {
            let kind = if node.kind() == "const_spec" {
                Kind::Const
            } else {
                Kind::Variable
            };
            let mut c = node.walk();
            let names = node.children_by_field_name("name", &mut c);
            Found::Defs(names.map(|n| (n, kind)).collect(), None)
        }
        _ => Found::Nothing,
    }
}

fn java<'t>(node: Node<'t>, scope: Scope, src: &[u8]) -> Found<'t> {
    match node.kind() {
        "class_declaration" | "record_declaration" => named(node, Kind::Class, CLASS),
        "enum_declaration" => named(node, Kind::Enum, CLASS),
        "interface_declaration" | "annotation_type_declaration" => {
            named(node, Kind::Interface, CLASS)
        }
        "method_declaration" | "constructor_declaration" | "compact_constructor_declaration" => {
            named(node, Kind::Method, FN)
        }
        "lambda_expression" => Found::Opens(None, Scope::Function),
        "constant_declaration" => declarators(node, Kind::Const),
        // Fields are fields (as struct fields elsewhere), but `static final` ones are constants.
        "field_declaration" if scope == Scope::Class => {
            let mods = node
                .named_child(0)
                .filter(|m| m.kind() == "modifiers")
                .map(|m| text(m, src));
            match mods {
                Some(m) if m.contains("static") && m.contains("final") => {
                    declarators(node, Kind::Const)
                }
                _ => Found::Nothing,
            }
        }
        _ => Found::Nothing,
    }
}

fn declarators<'t>(node: Node<'t>, kind: Kind) -> Found<'t> {
    let mut c = node.walk();
    let defs = node
        .children_by_field_name("declarator", &mut c)
        .filter_map(|d| field(d, "name"))
        .map(|n| (n, kind))
        .collect();
    Found::Defs(defs, None)
}

fn c<'t>(lang: Lang, node: Node<'t>, scope: Scope, src: &[u8]) -> Found<'t> {
    let has_body = field(node, "body").is_some();
    let record = if lang == Lang::Cpp { CLASS } else { None };
    match node.kind() {
        "function_definition" => {
            let Some(d) = field(node, "declarator").and_then(declarator) else {
                return Found::Opens(None, Scope::Function);
            };
            let kind = if d.scope.is_some() || scope == Scope::Class {
                Kind::Method
            } else {
                Kind::Function
            };
            // `void Foo::bar() {}`: `make` takes Foo from the name's qualified parent.
            Found::Defs(vec![(d.name, kind)], FN)
        }
        "struct_specifier" | "union_specifier" if has_body => named(node, Kind::Struct, record),
        "class_specifier" if has_body => named(node, Kind::Class, CLASS),
        "enum_specifier" if has_body => named(node, Kind::Enum, None),
        "namespace_definition" => named(node, Kind::Module, Some(Scope::Module)),
        "alias_declaration" => named(node, Kind::Type, None),
        "preproc_def" | "preproc_function_def" => named(node, Kind::Macro, None),
        "lambda_expression" => Found::Opens(None, Scope::Function),
        "type_definition" => {
            let mut c = node.walk();
            let defs = node
                .children_by_field_name("declarator", &mut c)
                .filter_map(declarator)
                .map(|d| (d.name, Kind::Type))
                .collect();
            Found::Defs(defs, None)
        }
        "declaration" if scope == Scope::Module => {
            if text(node, src).starts_with("extern") {
                return Found::Nothing;
            }
            let mut c = node.walk();
            let defs = node
                .children_by_field_name("declarator", &mut c)
                .filter_map(declarator)
                .filter(|d| !d.function)
                .map(|d| (d.name, Kind::Variable))
                .collect();
            Found::Defs(defs, None)
        }
        _ => Found::Nothing,
    }
}

struct Declarator<'t> {
    name: Node<'t>,
    scope: Option<Node<'t>>,
    function: bool,
}

/// The name inside a C/C++ declarator (`*p`, `a[3]`, `f(int)`, `x = 1`, `Foo::bar`), a bounded
/// loop down the `declarator` fields.
fn declarator(mut node: Node) -> Option<Declarator> {
    let mut scope = None;
    let mut function = false;
    for _ in 0..64 {
        match node.kind() {
            "identifier" | "field_identifier" | "type_identifier" | "destructor_name"
            | "operator_name" => {
                return Some(Declarator {
                    name: node,
                    scope,
                    function,
                });
            }
            "qualified_identifier" => {
                scope = field(node, "scope").or(scope);
                node = field(node, "name")?;
            }
            "template_function" | "template_type" => node = field(node, "name")?,
            "function_declarator" => {
                function = true;
                node = field(node, "declarator")?;
            }
            _ => node = field(node, "declarator").or_else(|| node.named_child(0))?,
        }
    }
    None
}

fn make(
    lang: Lang,
    node: Node,
    name: Node,
    kind: Kind,
    mut parent: Option<String>,
    depth: usize,
    src: &[u8],
) -> Symbol {
    // C++ `void Foo::bar()` outside the class: Foo is the parent.
    if matches!(lang, Lang::C | Lang::Cpp)
        && let Some(s) = name.parent().filter(|p| p.kind() == "qualified_identifier")
        && let Some(scope) = field(s, "scope")
    {
        let scope = text(scope, src);
        parent = Some(match parent {
            Some(p) => format!("{p}::{scope}"),
            None => scope.to_string(),
        });
    }
    // A Go method's parent is its receiver's type.
    if lang == Lang::Go
        && let Some(r) = field(node, "receiver")
    {
        parent = receiver_type(r, src).or(parent);
    }
    Symbol {
        name: text(name, src).to_string(),
        kind,
        parent,
        depth,
        line: node.start_position().row + 1,
        end_line: node.end_position().row + 1,
        start: leading(lang, node, src),
        end: node.end_byte(),
        name_at: name.start_byte(),
        signature: signature(node, src),
        body: body(lang, node, src),
    }
}

fn receiver_type(r: Node, src: &[u8]) -> Option<String> {
    let mut found = None;
    walk_node(r, |n| {
        if found.is_none() && n.kind() == "type_identifier" {
            found = Some(text(n, src).to_string());
        }
    });
    found
}

/// Visits the nodes below `node` (a cursor loop).
fn walk_node(node: Node, mut visit: impl FnMut(Node)) {
    let mut c = node.walk();
    let mut depth = 0usize;
    loop {
        visit(c.node());
        if c.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if depth == 0 {
                return;
            }
            if c.goto_next_sibling() {
                break;
            }
            c.goto_parent();
            depth -= 1;
        }
    }
}

/// Where the definition starts with what belongs to it: Python decorators, an `export`, a C++
/// `template<…>`, and the comment, attribute and annotation lines right above it (no blank line
/// between). Read from the lines, not the tree: grammars hang a comment before a block's first
/// statement on the enclosing node, where a sibling walk does not find it.
fn leading(lang: Lang, node: Node, src: &[u8]) -> usize {
    let mut top = node;
    while let Some(p) = top.parent() {
        let wraps = matches!(
            p.kind(),
            "decorated_definition" | "export_statement" | "template_declaration"
        );
        if !wraps {
            break;
        }
        top = p;
    }
    let marks: &[&str] = match lang {
        Lang::Python => &["#", "@"],
        Lang::Rust => &["//", "/*", "*", "#["],
        _ => &["//", "/*", "*", "@"],
    };
    let mut start = line_start(src, top.start_byte());
    while start > 0 {
        let prev = bol(src, start - 1);
        let line = String::from_utf8_lossy(&src[prev..start - 1]);
        let t = line.trim();
        if t.is_empty() || !marks.iter().any(|m| t.starts_with(m)) {
            break;
        }
        start = prev;
    }
    start
}

/// The start of the line holding `at`.
fn bol(src: &[u8], at: usize) -> usize {
    src[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1)
}

/// The start of `at`'s line when only indentation precedes it there, else `at`.
fn line_start(src: &[u8], at: usize) -> usize {
    let before = &src[..at];
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    if before[start..].iter().all(|b| b.is_ascii_whitespace()) {
        start
    } else {
        at
    }
}

/// The declaration up to its body (or its first line when it has none), whitespace folded.
fn signature(node: Node, src: &[u8]) -> String {
    let end = match field(node, "body") {
        // Up to the last part before the body that is not a comment (Python's `def f(): # x`).
        Some(b) => {
            let mut c = node.walk();
            node.children(&mut c)
                .take_while(|n| n.start_byte() < b.start_byte())
                .filter(|n| !n.kind().contains("comment"))
                .map(|n| n.end_byte())
                .max()
                .unwrap_or(b.start_byte())
        }
        None => {
            let s = &src[node.start_byte()..node.end_byte()];
            node.start_byte() + s.iter().position(|&b| b == b'\n').unwrap_or(s.len())
        }
    };
    let raw = String::from_utf8_lossy(&src[node.start_byte()..end]);
    let folded = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let trimmed = folded.trim_end_matches(['{', ':', ' ']);
    cut(trimmed, 200)
}

fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// The inside of a body: between its braces, or (Python) the indented suite's lines.
fn body(lang: Lang, node: Node, src: &[u8]) -> Option<(usize, usize)> {
    let b = field(node, "body")?;
    if lang == Lang::Python {
        return Some((line_start(src, b.start_byte()), b.end_byte()));
    }
    let first = b.child(0)?;
    let last = b.child(b.child_count().checked_sub(1)?)?;
    (first.kind() == "{" && last.kind() == "}").then(|| (first.end_byte(), last.start_byte()))
}

/// The file's imports (`import`, `use`, `#include`): 1-based line and text, whitespace folded.
pub fn imports(lang: Lang, tree: &Tree, src: &[u8]) -> Vec<(usize, String)> {
    let kinds: &[&str] = match lang {
        Lang::Python => &[
            "import_statement",
            "import_from_statement",
            "future_import_statement",
        ],
        Lang::Rust => &["use_declaration", "extern_crate_declaration"],
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => &["import_statement"],
        Lang::Go => &["import_declaration"],
        Lang::Java => &["import_declaration"],
        Lang::C | Lang::Cpp => &["preproc_include"],
    };
    let mut out = vec![];
    walk(tree, |node, depth| {
        if kinds.contains(&node.kind()) {
            let raw = String::from_utf8_lossy(&src[node.byte_range()]);
            let folded = raw.split_whitespace().collect::<Vec<_>>().join(" ");
            out.push((node.start_position().row + 1, cut(&folded, 200)));
            return false;
        }
        // Top level, and inside the preprocessor's conditionals and Rust modules' top.
        depth == 0 || node.kind().starts_with("preproc_if") || node.kind() == "declaration_list"
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outline(lang: Lang, src: &str) -> Vec<(String, &'static str, Option<String>)> {
        let tree = crate::parse(lang, src.as_bytes()).unwrap();
        symbols(lang, &tree, src.as_bytes())
            .into_iter()
            .map(|s| (s.name, s.kind.name(), s.parent))
            .collect()
    }

    fn names(v: &[(String, &'static str, Option<String>)]) -> Vec<String> {
        v.iter()
            .map(|(n, k, p)| match p {
                Some(p) => format!("{k} {p}/{n}"),
                None => format!("{k} {n}"),
            })
            .collect()
    }

    #[test]
    fn rust_impl_methods_are_qualified_by_type() {
        let src = "const N: u8 = 1;\nstruct S;\nimpl<T> Tr for S<T> {\n fn m(&self) { let x = 1; }\n}\nmod a { pub fn f() {} }\n";
        assert_eq!(
            names(&outline(Lang::Rust, src)),
            [
                "const N",
                "struct S",
                "method S/m",
                "module a",
                "function a/f"
            ]
        );
    }

    #[test]
    fn python_module_and_class_assignments_count_locals_do_not() {
        let src = "MAX = 3\nx = 1\nclass A:\n    y = 2\n    def m(self):\n        z = 3\n@dec\ndef f():\n    w = 1\n";
        assert_eq!(
            names(&outline(Lang::Python, src)),
            [
                "const MAX",
                "variable x",
                "class A",
                "variable A/y",
                "method A/m",
                "function f"
            ]
        );
    }

    #[test]
    fn go_methods_take_their_receiver() {
        let src = "package p\nconst C = 1\nvar V int\ntype T struct{}\nfunc (t *T) M() { var l int }\nfunc F() {}\n";
        assert_eq!(
            names(&outline(Lang::Go, src)),
            [
                "const C",
                "variable V",
                "struct T",
                "method T/M",
                "function F"
            ]
        );
    }

    #[test]
    fn cpp_out_of_class_methods_and_namespaces() {
        let src = "namespace ns {\nclass A { void m(); };\nvoid A::m() { int local = 1; }\n}\nint g = 1;\n#define M 1\n";
        assert_eq!(
            names(&outline(Lang::Cpp, src)),
            [
                "module ns",
                "class ns/A",
                "method ns::A/m",
                "variable g",
                "macro M"
            ]
        );
    }

    #[test]
    fn js_top_level_bindings_and_classes() {
        let src = "export const A = 1;\nlet b = 2;\nconst f = () => { const inner = 1; };\nclass C { m() {} }\nfunction g() {}\n";
        assert_eq!(
            names(&outline(Lang::JavaScript, src)),
            [
                "const A",
                "variable b",
                "function f",
                "class C",
                "method C/m",
                "function g"
            ]
        );
    }

    #[test]
    fn java_constants_but_not_fields() {
        let src = "class A {\n static final int K = 1;\n int f;\n void m() {}\n interface I { void n(); }\n}\n";
        assert_eq!(
            names(&outline(Lang::Java, src)),
            [
                "class A",
                "const A/K",
                "method A/m",
                "interface A/I",
                "method A.I/n"
            ]
        );
    }

    #[test]
    fn signature_stops_at_the_body_and_start_takes_decorators() {
        let src = "# doc\n@dec\ndef f(a,\n      b):\n    return 1\n";
        let tree = crate::parse(Lang::Python, src.as_bytes()).unwrap();
        let s = &symbols(Lang::Python, &tree, src.as_bytes())[0];
        assert_eq!(s.signature, "def f(a, b)");
        assert_eq!(s.start, 0);
        assert_eq!(&src[s.body.unwrap().0..s.body.unwrap().1], "    return 1");
    }
}
